"""An agent against ``random``, seats alternated, on fixed chance seeds: the before/after check of a search change.

    PYTHONPATH=src python bench/hard_vs_random.py GAME GAMES [SPEC] [SEED]

``SPEC`` is an agent spec (default ``hard``) or ``cheat`` / ``cheat=PLIES`` for the all-seeing
``CheatingMCTS`` (``hard``'s 20,000 plies by default). Game ``i`` puts the agent in seat ``i % 2`` and draws
chance from ``random.Random(_seed(SEED, "chance", 0, i // 2))``, so the two seatings of a deal share it and a
run is reproducible (budgets are plies); ``bench/clairvoyant_ceiling.py`` bounds the same deals from above.
Prints the score (a draw counts half) with its 95% Wilson interval, the CPU time and each game's result.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from boardlab.agents.base import make_agent
from boardlab.agents.cheating import CheatingMCTS
from boardlab.core.driver import agents_choose, play
from boardlab.games import make_cached
from boardlab.lab.stats import wilson
from boardlab.lab.tournament import _seed


def main(argv: list[str]) -> int:
    game_id, n = argv[0], int(argv[1])
    spec = argv[2] if len(argv) > 2 else "hard"
    seed = int(argv[3]) if len(argv) > 3 else 1
    game = make_cached(game_id)
    cpu = time.process_time()
    results: list[float] = []
    for i in range(n):
        me = i % 2
        chance = random.Random(_seed(seed, "chance", 0, i // 2))
        agents: list[Any] = []
        for s in range(2):
            agent_seed = _seed(seed, "agent", i, s)
            if s != me:
                agents.append(make_agent("random", game, s, agent_seed))
            elif spec.startswith("cheat"):
                plies = int(spec.split("=")[1]) if "=" in spec else 20000
                agents.append(CheatingMCTS(game, s, agent_seed, plies=plies))
            else:
                agents.append(make_agent(spec, game, s, agent_seed))
        state = game.new_initial_state(2)
        play(state, agents_choose(agents), chance)
        r = state.returns()
        results.append(1.0 if r[me] > r[1 - me] else 0.5 if r[me] == r[1 - me] else 0.0)
    pts = sum(results)
    lo, hi = wilson(pts, n)
    marks = "".join({1.0: "W", 0.5: "d", 0.0: "L"}[x] for x in results)
    print(
        f"{game_id} {spec} seed={seed}: {pts:g} of {n} = {pts / n:.3f} (95% CI {lo:.3f}-{hi:.3f}); "
        f"{time.process_time() - cpu:.0f} s CPU; {marks}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
