"""An upper bound on any agent's score against ``random``: a clairvoyant's exact best response.

The clairvoyant sees everything, the future included: it knows the uniform numbers that the game's chance
will draw (the ``k``-th chance event of a game takes the ``k``-th number, as ``core.driver.sample_chance``
does in every played game), and against ``random`` (each legal move equally likely) it plays the move of
best expected score, found by exhaustive expectimax over the whole remaining game. No agent, fair or not,
can score more against ``random`` on the same chance numbers, so the mean over many deals bounds the
ceiling from above (the all-seeing ``CheatingMCTS``, which does not see future draws, bounds it from
below). Exhaustive, so only for games whose tree with the chance fixed is small (Hamlet, Tower Builders).

    PYTHONPATH=src python bench/clairvoyant_ceiling.py GAME [DEALS] [SEED]

prints the clairvoyant's mean score (a draw counts half) with a 95% Wilson interval, seats alternated,
over ``DEALS`` chance streams drawn like the games of ``bench/hard_vs_random.py`` with the same ``SEED``.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence

from boardlab.core.constants import CHANCE, SIMULTANEOUS
from boardlab.core.driver import pick_chance
from boardlab.core.game import State
from boardlab.games import make_cached
from boardlab.lab.stats import wilson
from boardlab.lab.tournament import _seed


def points(state: State, me: int) -> float:
    """1, ½ or 0: ``me``'s result at the end of ``state``."""
    r = state.returns()
    best_other = max(x for s, x in enumerate(r) if s != me)
    return 1.0 if r[me] > best_other else 0.5 if r[me] == best_other else 0.0


def clairvoyant_value(state: State, me: int, stream: Sequence[float], k: int = 0) -> float:
    """``me``'s expected points with best play against uniformly random seats, chance taking ``stream[k:]``."""
    if state.is_terminal():
        return points(state, me)
    p = state.current_player()
    if p == CHANCE:
        return clairvoyant_value(state.child(pick_chance(state, stream[k])), me, stream, k + 1)
    if p == SIMULTANEOUS:
        raise NotImplementedError("simultaneous moves: not needed for the games this bounds")
    values = [clairvoyant_value(state.child(a), me, stream, k) for a in state.legal_actions(p)]
    return max(values) if p == me else sum(values) / len(values)


def main(argv: list[str]) -> int:
    game_id = argv[0]
    deals = int(argv[1]) if len(argv) > 1 else 40
    seed = int(argv[2]) if len(argv) > 2 else 1
    game = make_cached(game_id)
    cpu = time.process_time()
    total = 0.0
    for i in range(deals):
        me = i % 2
        rng = random.Random(_seed(seed, "chance", 0, i // 2))
        stream = [rng.random() for _ in range(game.max_game_length() + 1)]
        total += clairvoyant_value(game.new_initial_state(2), me, stream)
    lo, hi = wilson(total, deals)
    print(
        f"{game_id}: clairvoyant best response to random {total:.1f} of {deals} = {total / deals:.3f} "
        f"(95% CI {lo:.3f}-{hi:.3f}); {time.process_time() - cpu:.0f} s CPU"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
