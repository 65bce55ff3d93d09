"""What an agent may see: :class:`SeatView` wraps a state and exposes only one seat's knowledge.

Agents and front-ends receive a view, never the raw state. ``resample(rng)``
gives a complete state consistent with the seat's observation (the state
itself for perfect-information games, a copy), which search may explore freely.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from .constants import SIMULTANEOUS

if TYPE_CHECKING:  # the game module imports the driver, which imports this: never the game module at run time
    from .game import Game, State


class SeatView:
    """One seat's window on a state. ``seat`` is the seat that must decide."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def game(self) -> Game:
        return self._state.game

    @property
    def num_players(self) -> int:
        return self._state.num_players

    def observation(self) -> dict[str, Any]:
        return self._state.observation(self.seat)

    def legal_actions(self) -> list[int]:
        return self._state.legal_actions(self.seat)

    def current_player(self) -> int:
        return self._state.current_player()

    def is_simultaneous(self) -> bool:
        return self._state.current_player() == SIMULTANEOUS

    def move_number(self) -> int:
        return self._state.move_number()

    def action_to_string(self, action: int) -> str:
        return self._state.action_to_string(self.seat, action)

    def resample(self, rng: random.Random) -> State:
        """A full state consistent with what this seat knows (a copy, safe to mutate)."""
        if self._state.game.perfect_information:
            return self._state.clone()
        return self._state.resample(self.seat, rng)

    def public_history(self) -> list[Any] | None:
        """The action history, only for perfect-information games (else ``None``)."""
        if self._state.game.perfect_information:
            return self._state.history()
        return None
