"""Blast Radius through its public paths, and an A/B of two source trees run alternately.

Three rates, each per CPU second of one process (``time.process_time``), timed in
``--slices`` slices (the median slice is reported):

* ``playouts/s``: random games through the public API, ``legal_actions()`` then
  ``apply_action()`` each move (as ``bench_playouts.py`` drives every game);
* ``apply plies/s``: recorded games (made up front with a seeded ``play_random``,
  not timed) replayed from a fresh state with ``apply_action()`` only, the
  path of replays, records, the server and the CLI;
* ``play_random/s``: random games through ``State.play_random`` (search rollouts).

Usage::

    python bench/blast_radius_paths.py [--side 6] [--pie] [--slices 5] [--seconds 1]
    python bench/blast_radius_paths.py --ab A_SRC B_SRC [--rounds 5] [...]

``--work playouts|replays|rollouts --count N`` does a fixed amount of one kind
of work and prints nothing, for timing whole processes from outside (for
example ``/usr/bin/time -v``, or two such commands in turn).

``--ab-rev REV`` times, in this one process and in turns, the game module as it
was at git revision ``REV`` (A) and as it is now (B), both on this tree's core.

``--ab`` runs this script in a child process with ``PYTHONPATH=A_SRC``, then
``B_SRC``, alternately ``--rounds`` times (A B, then B A, …), and prints each tree's
median over the rounds and the median of the per-round ratios B/A, so a drift
of the host's speed hits both trees alike.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

Measure = Callable[[float, int], tuple[int, float]]


def measures(game) -> dict[str, Measure]:
    """Each kind of work on ``game`` as ``f(seconds, seed) -> (count, CPU seconds)``."""

    def playouts(t: float, seed: int) -> tuple[int, float]:
        choice = random.Random(seed).choice
        games = 0
        start = time.process_time()
        while time.process_time() < start + t:
            s = game.new_initial_state()
            while not s.is_terminal():
                s.apply_action(choice(s.legal_actions()))
            games += 1
        return games, time.process_time() - start

    records = []
    for seed in range(200):
        s = game.new_initial_state()
        s.play_random(random.Random(seed).random, 10**6)
        records.append(s.history())

    def replays(t: float, seed: int) -> tuple[int, float]:
        plies = 0
        start = time.process_time()
        k = seed
        while time.process_time() < start + t:
            history = records[k % len(records)]
            k += 1
            s = game.new_initial_state()
            apply = s.apply_action
            for a in history:
                apply(a)
            plies += len(history)
        return plies, time.process_time() - start

    def rollouts(t: float, seed: int) -> tuple[int, float]:
        rnd = random.Random(seed).random
        games = 0
        start = time.process_time()
        while time.process_time() < start + t:
            game.new_initial_state().play_random(rnd, 10**6)
            games += 1
        return games, time.process_time() - start

    return {"playouts/s": playouts, "apply plies/s": replays, "play_random/s": rollouts}


def measure(side: int, pie: bool, slices: int, seconds: float) -> dict[str, float]:
    """The median slice of each rate."""
    import boardlab

    game = boardlab.make("blast-radius", board_side=side, pie=pie)
    out = {}
    for name, f in measures(game).items():
        rates = []
        for i in range(slices):
            count, cpu = f(seconds, i)
            rates.append(count / cpu)
        out[name] = statistics.median(rates)
    return out


def fixed_work(side: int, pie: bool, work: str, count: int) -> None:
    """``count`` random games (``playouts``, ``rollouts``) or replays of recorded games (``replays``)."""
    import boardlab

    game = boardlab.make("blast-radius", board_side=side, pie=pie)
    rng = random.Random(0)
    if work == "playouts":
        for _ in range(count):
            s = game.new_initial_state()
            while not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
    elif work == "rollouts":
        for _ in range(count):
            game.new_initial_state().play_random(rng.random, 10**6)
    else:
        records = []
        for seed in range(100):
            s = game.new_initial_state()
            s.play_random(random.Random(seed).random, 10**6)
            records.append(s.history())
        for k in range(count):
            s = game.new_initial_state()
            for a in records[k % 100]:
                s.apply_action(a)


def previous_game(rev: str, side: int, pie: bool):
    """Blast Radius as ``games/blast_radius.py`` was at git revision ``rev``, on this tree's core."""
    import importlib.util
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[1]
    text = subprocess.run(
        ["git", "-C", str(root), "show", f"{rev}:src/boardlab/games/blast_radius.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    name = "boardlab.games._blast_radius_previous"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    exec(compile(text, f"{rev}:blast_radius.py", "exec"), module.__dict__)
    return module.GAME_CLASS(board_side=side, pie=pie)


def ab_in_process(rev: str, side: int, pie: bool, pairs: int, seconds: float) -> dict:
    """The game module at ``rev`` (A) and the current one (B), on this core, slice by slice in turns.

    Each pair is one slice of A and one of B (A first in even pairs, B first in
    odd ones); a pair's ratio B/A is taken within a second or so, so the host's
    drift cancels. Reported: each side's median rate and the ratios' median and
    quartiles.
    """
    import boardlab

    sides = {
        "A": measures(previous_game(rev, side, pie)),
        "B": measures(boardlab.make("blast-radius", board_side=side, pie=pie)),
    }
    out: dict = {"pairs": pairs, "slice seconds": seconds}
    for name in sides["A"]:
        rates: dict[str, list[float]] = {"A": [], "B": []}
        for i in range(pairs):
            for which in "AB" if i % 2 == 0 else "BA":
                count, cpu = sides[which][name](seconds, i)
                rates[which].append(count / cpu)
        ratios = sorted(b / a for a, b in zip(rates["A"], rates["B"], strict=True))
        q = statistics.quantiles(ratios, n=4)
        out[name] = {
            "A median": statistics.median(rates["A"]),
            "B median": statistics.median(rates["B"]),
            "B/A median": statistics.median(ratios),
            "B/A quartiles": [q[0], q[2]],
        }
    return out


def ab(a_src: str, b_src: str, rounds: int, child_args: list[str]) -> dict:
    runs: dict[str, list[dict[str, float]]] = {"A": [], "B": []}
    for i in range(rounds):
        for name, src in (("A", a_src), ("B", b_src))[:: 1 if i % 2 == 0 else -1]:
            env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
            out = subprocess.run(
                [sys.executable, __file__, *child_args], env=env, check=True, capture_output=True, text=True
            ).stdout
            runs[name].append(json.loads(out))
    out: dict = {"rounds": rounds}
    for k in runs["A"][0]:
        ratios = [rb[k] / ra[k] for ra, rb in zip(runs["A"], runs["B"], strict=True)]
        out[k] = {
            "A median": statistics.median(r[k] for r in runs["A"]),
            "B median": statistics.median(r[k] for r in runs["B"]),
            "B/A median": statistics.median(ratios),
            "B/A min, max": [min(ratios), max(ratios)],
        }
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--side", type=int, default=6)
    p.add_argument("--pie", action="store_true")
    p.add_argument("--slices", type=int, default=5)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--ab", nargs=2, metavar=("A_SRC", "B_SRC"))
    p.add_argument("--rounds", type=int, default=5, help="--ab: rounds; --ab-rev: pairs of slices")
    p.add_argument("--ab-rev", metavar="REV", help="A/B in this process: games/blast_radius.py at REV vs now")
    p.add_argument("--work", choices=("playouts", "replays", "rollouts"))
    p.add_argument("--count", type=int, default=1000)
    args = p.parse_args(argv)
    if args.work:
        fixed_work(args.side, args.pie, args.work, args.count)
        return 0
    child = ["--side", str(args.side), "--slices", str(args.slices), "--seconds", str(args.seconds)]
    if args.pie:
        child.append("--pie")
    if args.ab_rev:
        summary = ab_in_process(args.ab_rev, args.side, args.pie, args.rounds, args.seconds)
        print(json.dumps(summary, indent=1))
    elif args.ab:
        print(json.dumps(ab(*args.ab, args.rounds, child), indent=1))
    else:
        print(json.dumps(measure(args.side, args.pie, args.slices, args.seconds)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
