"""Same-run A/B of our ``mcts`` iterations per CPU second: two source trees, the OpenSpiel comparison's positions.

    python bench/ab_mcts.py OLD_SRC NEW_SRC [--rounds 8] [--seconds 0.2]

(``make bench-ab AB=mcts BASE=COMMIT``.) One worker process per tree (``PYTHONPATH`` set to it) searches from
the positions of ``bench_mcts.openspiel_rows`` (Blast Radius sides 5 and 6, Trivalent, Radius; six positions
each) on request; the two take turns search by search, A B then B A, so that the load of a shared machine
falls on both alike. Prints, per game and position, each tree's median rate over the rounds and the ratio B/A.
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

WORKER = """
import json, sys
sys.path.insert(0, {bench!r})
import boardlab
from bench_mcts import decision_states, mcts_rate
positions = {{}}
for line in sys.stdin:
    game_id, options, k, seconds = json.loads(line)
    key = (game_id, json.dumps(options, sort_keys=True))
    if key not in positions:
        game = boardlab.make(game_id, **options)
        positions[key] = (game, decision_states(game, 6))
    game, states = positions[key]
    s, seat = states[k]
    print(json.dumps(mcts_rate(game, s, seat, seconds)), flush=True)
"""


def worker(src: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(src).resolve()))
    code = WORKER.format(bench=str(HERE))
    return subprocess.Popen(
        [sys.executable, "-c", code], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )


def ask(proc: subprocess.Popen, request: list) -> float:
    assert proc.stdin and proc.stdout
    proc.stdin.write(json.dumps(request) + "\n")
    proc.stdin.flush()
    return float(proc.stdout.readline())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", help="the A tree's src folder")
    ap.add_argument("new", help="the B tree's src folder")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=0.2)
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from bench_mcts import H2H_GAMES

    procs = {"A": worker(args.old), "B": worker(args.new)}
    print(f"A = {args.old}\nB = {args.new}\nload average before: {os.getloadavg()[0]:.1f}")
    try:
        for game, options in H2H_GAMES:
            cells, ratios = [], []
            for k in range(6):
                runs: dict[str, list[float]] = {"A": [], "B": []}
                for r in range(args.rounds):
                    for name in ("A", "B") if r % 2 == 0 else ("B", "A"):
                        runs[name].append(ask(procs[name], [game, options, k, args.seconds]))
                a, b = statistics.median(runs["A"]), statistics.median(runs["B"])
                ratios.append(b / a)
                cells.append(f"{a:,.0f}->{b:,.0f} ({b / a:.2f}x)")
            label = game + "".join(f" {k}={v}" for k, v in options.items())
            print(f"{label}: {' '.join(cells)}; median B/A {statistics.median(ratios):.2f}x", flush=True)
        print(f"load average after: {os.getloadavg()[0]:.1f}")
    finally:
        for proc in procs.values():
            assert proc.stdin
            proc.stdin.close()
            proc.wait()


if __name__ == "__main__":
    main()
