"""Same-run A/B of our ``mcts`` iterations per CPU second: two source trees, the OpenSpiel comparison's positions.

    python bench/ab_mcts.py OLD_SRC NEW_SRC [--rounds 3] [--seconds 1.0]

(``make bench-ab AB=mcts BASE=COMMIT``.) Searches from the positions of ``bench_mcts.openspiel_rows`` (Blast
Radius sides 5 and 6, Trivalent, Radius; six positions each) with each tree's code in turn, in fresh processes
that alternate A B, B A, … game by game, so that both see the same load on a shared machine. Prints, per game
and position, the median rate of each tree over the rounds and the ratio B/A.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent

CHILD = """
import json, sys
sys.path.insert(0, {bench!r})
import boardlab
from bench_mcts import decision_states, mcts_rate
game = boardlab.make({game!r}, **{options!r})
print(json.dumps([mcts_rate(game, s, seat, {seconds!r}) for s, seat in decision_states(game, 6)]))
"""


def rates(src: str, game: str, options: dict, seconds: float) -> list[float]:
    """The six positions' rates with the code under ``src``, in a fresh process."""
    code = CHILD.format(bench=str(HERE), game=game, options=options, seconds=seconds)
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(src).resolve()))
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", help="the A tree's src folder")
    ap.add_argument("new", help="the B tree's src folder")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=1.0)
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from bench_mcts import H2H_GAMES

    print(f"load average before: {os.getloadavg()[0]:.1f}")
    for game, options in H2H_GAMES:
        runs: dict[str, list[list[float]]] = {"old": [], "new": []}
        for k in range(args.rounds):
            order = ("old", "new") if k % 2 == 0 else ("new", "old")
            for name in order:
                runs[name].append(rates(getattr(args, name), game, options, args.seconds))
        old = [statistics.median(col) for col in zip(*runs["old"], strict=True)]
        new = [statistics.median(col) for col in zip(*runs["new"], strict=True)]
        label = game + "".join(f" {k}={v}" for k, v in options.items())
        cells = " ".join(f"{a:,.0f}->{b:,.0f} ({b / a:.2f}x)" for a, b in zip(old, new, strict=True))
        cells += f"; median B/A {statistics.median(b / a for a, b in zip(old, new, strict=True)):.2f}x"
        print(f"{label}: {cells}; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
