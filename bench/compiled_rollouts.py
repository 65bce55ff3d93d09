"""The compiled rollouts side by side with the pure-Python paths, in one process (per CPU second).

    PYTHONPATH=src python bench/compiled_rollouts.py [--rounds 5] [--seconds 0.6]

For each game with compiled rollouts (``boardlab.fast``): random games through the public API, through the
pure-Python ``play_random`` and through the compiled one, in turn, ``rounds`` times; prints the medians and the
median of the per-round ratios (docs/PERFORMANCE.md, "Compiled rollouts").
"""

from __future__ import annotations

import argparse
import importlib.util
import pathlib
import statistics

import boardlab
from boardlab import fast

HERE = pathlib.Path(__file__).resolve().parent
CONFIGS: list[tuple[str, dict]] = [
    ("blast-radius", {"board_side": 5}),
    ("blast-radius", {}),
    ("cirque", {}),
    ("train-boiler", {}),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=0.6)
    args = parser.parse_args()
    spec = importlib.util.spec_from_file_location("bench_playouts", HERE / "bench_playouts.py")
    assert spec and spec.loader
    bp = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bp)
    print(f"compiled rollouts: {fast.status()}")
    for game_id, options in CONFIGS:
        game = boardlab.make(game_id, **options)
        rates: dict[str, list[float]] = {"api": [], "rollout": [], "compiled": []}
        for r in range(args.rounds):
            a = bp.playouts(game, args.seconds, seed=r)
            rates["api"].append(a[0] / a[2])
            b = bp.rollouts(game, args.seconds, seed=r)
            rates["rollout"].append(b[0] / b[2])
            c = bp.rollouts(game, args.seconds, seed=r, compiled=True)
            rates["compiled"].append(c[0] / c[2])
        label = game_id + "".join(f" {k}={v}" for k, v in options.items())
        medians = {k: f"{statistics.median(v):,.0f}" for k, v in rates.items()}
        to_api = statistics.median(c / a for c, a in zip(rates["compiled"], rates["api"], strict=True))
        to_rollout = statistics.median(c / a for c, a in zip(rates["compiled"], rates["rollout"], strict=True))
        print(f"{label}: playouts/s {medians}; compiled / API {to_api:.1f}x, compiled / rollout {to_rollout:.1f}x")


if __name__ == "__main__":
    main()
