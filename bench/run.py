"""Run the benchmarks in bench/ (files named bench_*.py) and print one table per file.

    python bench/run.py [--quick] [NAME ...]      e.g. ``python bench/run.py playouts``; ``--help`` lists the names

Each bench module defines ``run(quick: bool) -> list[dict]``; every dict is one row. With no NAME every benchmark
runs. Results are also written to bench/results/latest.json. ``--quick`` shortens every run.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import pathlib
import platform
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent


def machine() -> str:
    try:
        cpu = next(
            line.split(":", 1)[1].strip()
            for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
    except (OSError, StopIteration):
        cpu = platform.processor() or "unknown cpu"
    return f"{cpu}; Python {platform.python_version()}; {platform.system()} {platform.machine()}"


def compiled_status() -> str:
    """Which games' rollouts run compiled here (``boardlab.fast``), and why the others do not."""
    try:
        from boardlab import fast
    except ImportError as exc:  # boardlab itself is not importable: every benchmark will say so
        return f"unknown ({exc})"
    return "; ".join(f"{game}: {state}" for game, state in fast.status().items())


def benchmarks() -> dict[str, pathlib.Path]:
    """The benchmark files by name (``bench_playouts.py`` is ``playouts``)."""
    return {path.stem.removeprefix("bench_"): path for path in sorted(HERE.glob("bench_*.py"))}


def parse_args(argv: list[str]) -> argparse.Namespace:
    names = list(benchmarks())
    parser = argparse.ArgumentParser(
        prog="bench/run.py",
        description="Run the benchmarks in bench/ and print one table per benchmark (all of them unless named).",
    )
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"one of: {', '.join(names)}")
    parser.add_argument("--quick", action="store_true", help="shorten every run")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in names]
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)} (choose from {', '.join(names)})")
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    quick, only = args.quick, args.names
    results: dict[str, list[dict]] = {}
    print(f"machine: {machine()}")
    print(f"compiled rollouts: {compiled_status()}")
    for name, path in benchmarks().items():
        if only and name not in only:
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        t = time.perf_counter()
        rows = module.run(quick)
        results[name] = rows
        print(f"\n== {name} ({time.perf_counter() - t:.0f} s)")
        if rows:
            keys = list(rows[0])
            widths = [max(len(str(k)), *(len(_fmt(r.get(k))) for r in rows)) for k in keys]
            print("  ".join(str(k).ljust(w) for k, w in zip(keys, widths)))
            for r in rows:
                print("  ".join(_fmt(r.get(k)).ljust(w) for k, w in zip(keys, widths)))
    out = HERE / "results"
    out.mkdir(exist_ok=True)
    (out / "latest.json").write_text(json.dumps({"machine": machine(), "results": results}, indent=2))
    return 0


def _fmt(v: object) -> str:
    if isinstance(v, float):
        return f"{v:,.1f}" if v >= 100 else f"{v:.3g}"
    return str(v)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
