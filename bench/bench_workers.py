"""Do 2 workers beat 1? Random-game simulations timed in fresh processes, 1 and 2 workers alternating, pair by pair.

    python bench/bench_workers.py                       # a short run (3000 games) and a run of about 10 s
    python bench/bench_workers.py --src /path/to/src    # the same against another source tree (e.g. an older commit)

Each measurement is a new Python process (so the worker processes start cold, as for someone running
``boardlab simulate``) that times its ``simulate()`` call; the two settings alternate (1, 2, 1, 2 …) so drift in the
machine's load hits both alike, and the figure to quote is the median of the per-pair ratios. The load average is
printed alongside: on a loaded machine 2 workers cannot reach 2x.

The last row is the machine's own ceiling: the same pure-Python loop run as two halves in two processes against
the whole in one (no pickling, no game, nothing shared). Two vCPUs that are hyperthreads of one core, or a host
that throttles, cap any parallel run below 2x; the runner's speedup is best read against that row.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = """
import json, sys, time
from boardlab.lab.simulate import simulate
game, games, workers, options = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), json.loads(sys.argv[4])
t = time.perf_counter()
r = simulate(game, games, ["random"], options=options, seed=1, workers=workers)
print(json.dumps({"seconds": time.perf_counter() - t, "check": r.to_dict()["wins"]}))
"""


SPIN = """
import json, sys, time
from concurrent.futures import ProcessPoolExecutor

def spin(n):
    x = 0
    for i in range(n):
        x += i * i % 7
    return x

n, workers = int(sys.argv[1]), int(sys.argv[2])
t = time.perf_counter()
if workers == 1:
    spin(n)
else:
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(spin, [n // workers] * workers))
print(json.dumps({"seconds": time.perf_counter() - t}))
"""


def spin_pairs(seconds: float, repeats: int) -> dict:
    """The machine's ceiling: a loop of about ``seconds`` in 1 process against its halves in 2."""
    n = 4_000_000
    probe = subprocess.run([sys.executable, "-c", SPIN, str(n), "1"], check=True, capture_output=True, text=True)
    n = max(n, round(n * seconds / json.loads(probe.stdout)["seconds"]))
    one, two, ratios = [], [], []
    for _ in range(repeats):
        a = json.loads(
            subprocess.run([sys.executable, "-c", SPIN, str(n), "1"], check=True, capture_output=True, text=True).stdout
        )["seconds"]
        b = json.loads(
            subprocess.run([sys.executable, "-c", SPIN, str(n), "2"], check=True, capture_output=True, text=True).stdout
        )["seconds"]
        one.append(a)
        two.append(b)
        ratios.append(a / b)
    return row("(pure-Python loop: the machine's ceiling)", {}, 0, one, two, ratios)


def timed(src: str, game: str, games: int, workers: int, options: dict) -> tuple[float, list[int]]:
    env = {**os.environ, "PYTHONPATH": src}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, game, str(games), str(workers), json.dumps(options)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    d = json.loads(out.stdout.strip().splitlines()[-1])
    return d["seconds"], d["check"]


def pairs(src: str, game: str, games: int, options: dict, repeats: int) -> dict:
    one, two, ratios = [], [], []
    for _ in range(repeats):
        a, wa = timed(src, game, games, 1, options)
        b, wb = timed(src, game, games, 2, options)
        assert wa == wb, "1 and 2 workers disagree"
        one.append(a)
        two.append(b)
        ratios.append(a / b)
    return row(game, options, games, one, two, ratios)


def row(game: str, options: dict, games: int, one: list[float], two: list[float], ratios: list[float]) -> dict:
    """One line of the table: medians of the 1- and 2-worker times, the per-pair ratios' median and range."""
    return {
        "game": game,
        "options": options,
        "games": games,
        "one_worker_s": statistics.median(one),
        "two_workers_s": statistics.median(two),
        "speedup_median": statistics.median(ratios),
        "speedup_min": min(ratios),
        "speedup_max": max(ratios),
        "load_average": os.getloadavg()[0],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", default=str(Path(__file__).resolve().parent.parent / "src"))
    ap.add_argument("--game", default="blast-radius")
    ap.add_argument("--short-games", type=int, default=3000)
    ap.add_argument("--long-seconds", type=float, default=10.0, help="serial length of the long run")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    short_opts = {"board_side": 5}
    rows = [pairs(args.src, args.game, args.short_games, short_opts, args.repeats)]
    # The short run's time includes starting Python and importing; time a second, longer probe to size the
    # long run by the cost of a game alone.
    probe, _ = timed(args.src, args.game, 2 * args.short_games, 1, short_opts)
    per_game = max(1e-6, (probe - rows[0]["one_worker_s"]) / args.short_games)
    long_games = max(args.short_games, round(args.long_seconds / per_game))
    rows.append(pairs(args.src, args.game, long_games, short_opts, args.repeats))
    rows.append(spin_pairs(args.long_seconds, args.repeats))
    print(f"{'games':>7} {'1 worker':>9} {'2 workers':>10} {'speedup (median, min-max)':>27} {'load':>5}")
    for r in rows:
        print(
            f"{r['games']:>7} {r['one_worker_s']:>8.2f}s {r['two_workers_s']:>9.2f}s "
            f"{r['speedup_median']:>10.2f}x ({r['speedup_min']:.2f}-{r['speedup_max']:.2f}) {r['load_average']:>5.1f}"
        )
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
