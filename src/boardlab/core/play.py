"""Drivers: sample chance with a seeded RNG, play games with agents, respect the safety cap.

>>> import random, boardlab
>>> game = boardlab.make("blast-radius", board_side=5)
>>> state, capped = random_playout(game.new_initial_state(), random.Random(1))
>>> state.is_terminal(), capped
(True, False)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .constants import CHANCE, SIMULTANEOUS, TERMINAL
from .game import State
from .view import SeatView

if TYPE_CHECKING:
    from ..agents.base import Agent


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw a chance outcome by its probability."""
    outcomes = state.chance_outcomes()
    x = rng.random()
    acc = 0.0
    for a, p in outcomes:
        acc += p
        if x < acc:
            return a
    return outcomes[-1][0]


def random_playout(state: State, rng: random.Random, cap: int | None = None) -> tuple[State, bool]:
    """Play ``state`` (in place) to the end with uniformly random moves.

    Returns ``(state, capped)``; ``capped`` is true when the game's safety cap
    (``max_game_length``) stopped it before the end.
    """
    if cap is None:
        cap = state.game.max_game_length()
    choice = rng.choice
    history = state._history
    while True:
        cp = state.current_player()
        if cp == TERMINAL:
            break
        if len(history) >= cap:
            return state, True
        if cp >= 0:
            state.apply_action(choice(state.legal_actions()))
        elif cp == CHANCE:
            state.apply_action(sample_chance(state, rng))
        elif cp == SIMULTANEOUS:
            joint = []
            for p in range(state.num_players):
                legal = state.legal_actions(p)
                joint.append(choice(legal) if legal else None)
            state.apply_actions(joint)
    return state, False


def play_game(
    state: State,
    agents: Sequence[Agent],
    rng: random.Random,
    cap: int | None = None,
    on_action: Callable[[State, int, object], None] | None = None,
) -> tuple[State, bool]:
    """Play ``state`` (in place) to the end, one agent per seat; chance sampled from ``rng``.

    Each agent sees only a :class:`SeatView`. Returns ``(state, capped)``.
    """
    if cap is None:
        cap = state.game.max_game_length()
    while not state.is_terminal():
        if len(state._history) >= cap:
            return state, True
        cp = state.current_player()
        if cp == CHANCE:
            a: object = sample_chance(state, rng)
            state.apply_action(a)  # type: ignore[arg-type]
        elif cp == SIMULTANEOUS:
            joint: list[int | None] = []
            for p in range(state.num_players):
                joint.append(agents[p].step(SeatView(state, p)) if state.legal_actions(p) else None)
            a = joint
            state.apply_actions(joint)
        else:
            a = agents[cp].step(SeatView(state, cp))
            state.apply_action(a)  # type: ignore[arg-type]
        if on_action is not None:
            on_action(state, cp, a)
    return state, False
