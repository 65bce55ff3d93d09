"""Run every benchmark in bench/ (files named bench_*.py) and print one table per file.

Each bench module defines ``run(quick: bool) -> list[dict]``; every dict is one row.
Results are also written to bench/results/latest.json. ``--quick`` shortens every run.
"""

from __future__ import annotations

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


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    only = [a for a in argv if not a.startswith("--")]
    results: dict[str, list[dict]] = {}
    print(f"machine: {machine()}")
    for path in sorted(HERE.glob("bench_*.py")):
        name = path.stem.removeprefix("bench_")
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
