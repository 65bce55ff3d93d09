"""Same-run A/B of random playouts per CPU second: two source trees, every game, alternating A B A B.

    python bench/ab_playouts.py OLD_SRC NEW_SRC [--rounds 4] [--seconds 1.0] [--games id,id]

``OLD_SRC`` and ``NEW_SRC`` are ``src`` folders (e.g. a ``git worktree`` of the previous commit and this one).
Each measurement is a fresh process with ``PYTHONPATH`` set to one tree, timing one CPU second of random
playouts through the public API (``bench_playouts.playouts``) and one of the search rollout
(``State.play_random``). Rounds alternate the order, so drift of the shared host hits both sides alike; the
ratio B/A is reported per round and as a median. Games registered in only one tree are skipped.
"""

from __future__ import annotations

import json
import os
import pathlib
import statistics
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent

CHILD = r"""
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
import boardlab
from bench_playouts import playouts
game_id, options, seconds = sys.argv[2], json.loads(sys.argv[3]), float(sys.argv[4])
game = boardlab.make(game_id, **options)
g, _, cpu, _ = playouts(game, seconds, seed=0)
rnd = random.Random(1).random
n = 0
start = time.process_time()
while time.process_time() < start + seconds:
    s = game.new_initial_state()
    s.play_random(rnd, 10**6)
    n += 1
print(json.dumps({"public": g / cpu, "rollout": n / (time.process_time() - start)}))
"""


def measure(src: str, game_id: str, options: dict, seconds: float) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=f"{src}{os.pathsep}{HERE}")
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(HERE), game_id, json.dumps(options), str(seconds)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def games_of(src: str) -> set[str]:
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run(
        [sys.executable, "-c", "import boardlab, json; print(json.dumps(boardlab.games()))"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(out.stdout))


def main(argv: list[str]) -> int:
    args = argv[1:]
    rounds, seconds, only = 4, 1.0, None
    for flag in ("--rounds", "--seconds", "--games"):
        if flag in args:
            i = args.index(flag)
            value = args[i + 1]
            del args[i : i + 2]
            if flag == "--rounds":
                rounds = int(value)
            elif flag == "--seconds":
                seconds = float(value)
            else:
                only = value.split(",")
    old, new = (str(pathlib.Path(a).resolve()) for a in args[:2])
    ids = sorted(games_of(old) & games_of(new))
    configs = [(g, {}) for g in ids if only is None or g in only]
    if only is None or "blast-radius" in only:
        configs.append(("blast-radius", {"board_side": 5}))
    print(f"A = {old}\nB = {new}\n{rounds} rounds of {seconds:g} CPU s each, order alternating\n")
    print(
        f"{'game':<28} {'A public/s':>11} {'B public/s':>11} {'B/A':>6} {'A rollout/s':>12} {'B rollout/s':>12} {'B/A':>6}"
    )
    for game_id, options in configs:
        a_runs: list[dict[str, float]] = []
        b_runs: list[dict[str, float]] = []
        for r in range(rounds):
            pair = [(old, a_runs), (new, b_runs)]
            for src, runs in pair if r % 2 == 0 else pair[::-1]:
                runs.append(measure(src, game_id, options, seconds))
        name = game_id + "".join(f" {k}={v}" for k, v in options.items())
        row = [name]
        for key in ("public", "rollout"):
            a = statistics.median(x[key] for x in a_runs)
            b = statistics.median(x[key] for x in b_runs)
            ratio = statistics.median(y[key] / x[key] for x, y in zip(a_runs, b_runs))
            row += [f"{a:,.0f}", f"{b:,.0f}", f"{ratio:.2f}"]
        print(f"{row[0]:<28} {row[1]:>11} {row[2]:>11} {row[3]:>6} {row[4]:>12} {row[5]:>12} {row[6]:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
