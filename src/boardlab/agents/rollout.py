"""Random rollouts for search agents, on a state the agent owns (a determinisation or a copy)."""

from __future__ import annotations

import random

from ..core.game import State, draw_outcome


def sample_outcome(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    """A chance outcome drawn by its probability."""
    return draw_outcome(outcomes, rng.random())


def random_rollout(d: State, rng: random.Random, cap: int, depth: int = 0) -> list[float]:
    """Play ``d`` on (in place) with uniformly random moves; its returns at the end.

    Stops early at the game's safety cap (history length ``cap``) or after
    ``depth`` plies when ``depth > 0``; an unfinished position is then scored
    by the game's ``evaluate(seat)`` where it has one, else by ``returns()``.
    The moves are :meth:`State.play_random`'s, which a game may speed up.
    """
    left = cap - d.move_number()
    if 0 < depth < left:
        left = depth
    if left > 0:
        d.play_random(rng.random, left)
    if d.is_terminal():
        return d.returns()
    values = [d.evaluate(p) for p in range(d.num_players)]
    if any(v is None for v in values):  # the game has no evaluation (the default)
        return d.returns()
    return [float(v) for v in values]  # type: ignore[arg-type]


def has_evaluation(state: State) -> bool:
    """Whether the game of ``state`` has its own evaluation (overrides :meth:`State.evaluate`)."""
    return type(state).evaluate is not State.evaluate
