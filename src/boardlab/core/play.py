"""Playing games to the end: random playouts and games between agents, on :mod:`boardlab.core.driver`.

>>> import random, boardlab
>>> game = boardlab.make("blast-radius", board_side=5)
>>> state, capped = random_playout(game.new_initial_state(), random.Random(1))
>>> state.is_terminal(), capped
(True, False)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .driver import Agent, OnStep, agents_choose, play, sample_chance
from .game import State

__all__ = ["play_game", "random_playout", "sample_chance"]


def random_playout(state: State, rng: random.Random, cap: int | None = None) -> tuple[State, bool]:
    """Play ``state`` (in place) to the end with uniformly random moves.

    Returns ``(state, capped)``; ``capped`` is true when the game's safety cap
    (``max_game_length``) stopped it before the end.
    """
    choice = rng.choice
    end = play(state, lambda s, seat: choice(s.legal_actions(seat)), rng, cap=cap)
    return state, end == "capped"


def play_game(
    state: State,
    agents: Sequence[Agent],
    rng: random.Random,
    cap: int | None = None,
    on_step: OnStep | None = None,
) -> tuple[State, bool]:
    """Play ``state`` (in place) to the end, one agent per seat; chance sampled from ``rng``.

    Each agent sees only a :class:`~boardlab.core.view.SeatView`; ``on_step(state, entry)``
    is called just before each entry is applied. Returns ``(state, capped)``.
    """
    end = play(state, agents_choose(agents), rng, cap=cap, on_step=on_step)
    return state, end == "capped"
