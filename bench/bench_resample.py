"""Time a game's resample: its own override (if any) against the core's default, per viewer.

    PYTHONPATH=src python bench/bench_resample.py [game-id ...] [--repeat N] [--options k=v,...]

Positions: every 5th state of 4 seeded random games (with the game's minimum players). For each position and
viewer (each seat, then a spectator) the resample is called ``repeat`` times on the same state (as a search
does) and the mean time per call is reported, with the count of core calls that raised ResampleError.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import boardlab
from boardlab.core import hidden
from boardlab.core.constants import CHANCE, SIMULTANEOUS
from boardlab.core.driver import draw_outcome


def step(s: boardlab.State, rng: random.Random) -> None:
    cp = s.current_player()
    if cp == CHANCE:
        s.apply_action(draw_outcome(s.chance_outcomes(), rng.random()))
    elif cp == SIMULTANEOUS:
        s.apply_actions([rng.choice(s.legal_actions(p)) if s.legal_actions(p) else None for p in range(s.num_players)])
    else:
        s.apply_action(rng.choice(s.legal_actions()))


def positions(game: boardlab.Game, games: int = 4, every: int = 5) -> list[boardlab.State]:
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        s = game.new_initial_state(game.min_players)
        k = 0
        while not s.is_terminal() and k < 400:
            if k % every == every - 1:
                out.append(s.clone())
            step(s, rng)
            k += 1
    return out


def time_calls(fn, s, v, repeat: int) -> tuple[float, int]:
    """Mean seconds per call over ``repeat`` calls on a fresh copy of ``s`` (so no earlier plan is kept)."""
    s = s.clone()
    rng = random.Random(7)
    failed = 0
    t0 = time.perf_counter()
    for _ in range(repeat):
        try:
            fn(s, v, rng)
        except hidden.ResampleError:
            failed += 1
    return (time.perf_counter() - t0) / repeat, failed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--options", default="")
    ap.add_argument("--budget", type=int, default=200_000)
    args = ap.parse_args()
    options = dict(kv.split("=", 1) for kv in args.options.split(",") if kv)
    ids = args.games or [g for g in boardlab.games() if not boardlab.make(g).perfect_information]
    for gid in ids:
        game = boardlab.make(gid, **options)
        states = positions(game)
        own = type(game.new_initial_state()).resample
        has_own = own is not boardlab.State.resample
        for v in [*range(game.min_players), None]:
            mine, core, fails = [], [], 0
            for s in states:
                if has_own:
                    mine.append(time_calls(own, s, v, args.repeat)[0])
                dt, f = time_calls(lambda st, vv, r: hidden.resample(st, vv, r, budget=args.budget), s, v, args.repeat)
                core.append(dt)
                fails += f
            own_text = f"own {statistics.mean(mine) * 1e3:8.3f} ms" if mine else "own        -   "
            print(
                f"{gid:15} viewer {v!s:4} positions {len(states):3}  {own_text}  "
                f"core {statistics.mean(core) * 1e3:8.3f} ms (max {max(core) * 1e3:8.2f})  core failures {fails}",
                flush=True,
            )


if __name__ == "__main__":
    sys.exit(main())
