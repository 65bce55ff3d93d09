"""Random rollouts for search agents, on a state the agent owns (a determinisation or a copy)."""

from __future__ import annotations

import random

from ..core.constants import CHANCE, TERMINAL
from ..core.game import State


def sample_outcome(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    """A chance outcome drawn by its probability."""
    x = rng.random()
    for a, p in outcomes:
        x -= p
        if x < 0:
            return a
    return outcomes[-1][0]


def random_rollout(d: State, rng: random.Random, cap: int, depth: int = 0) -> list[float]:
    """Play ``d`` on (in place) with uniformly random moves; its returns at the end.

    Stops early at the game's safety cap (history length ``cap``) or after
    ``depth`` plies when ``depth > 0``; an unfinished position is then scored
    by the game's ``evaluate(seat)`` where it has one, else by ``returns()``.
    """
    rnd = rng.random
    current = d.current_player
    legal_actions = d.legal_actions
    apply_action = d.apply_action
    left = cap - d.move_number()
    if 0 < depth < left:
        left = depth
    while left > 0:
        cp = current()
        if cp >= 0:
            legal = legal_actions()
            apply_action(legal[int(rnd() * len(legal))])
        elif cp == TERMINAL:
            return d.returns()
        elif cp == CHANCE:
            apply_action(sample_outcome(d.chance_outcomes(), rng))
        else:
            joint: list[int | None] = []
            for p in range(d.num_players):
                legal = legal_actions(p)
                joint.append(legal[int(rnd() * len(legal))] if legal else None)
            d.apply_actions(joint)
        left -= 1
    evaluate = getattr(d, "evaluate", None)
    if d.is_terminal() or evaluate is None:
        return d.returns()
    return [float(evaluate(p)) for p in range(d.num_players)]
