"""bench/run.py's command line: --help and bad arguments stop before any benchmark runs; a name selects one."""

from __future__ import annotations

import importlib.util
import pathlib
import types

import pytest

RUN = pathlib.Path(__file__).resolve().parents[1] / "bench" / "run.py"


def load_run() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("bench_run", RUN)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("argv", [["--help"], ["--no-such-flag"], ["no-such-benchmark"]])
def test_help_and_bad_arguments_run_nothing(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    run = load_run()
    ran: list[str] = []
    monkeypatch.setattr(run, "benchmarks", lambda: {"playouts": RUN, "load": RUN})
    monkeypatch.setattr(run.importlib.util, "spec_from_file_location", lambda *a, **k: ran.append(a[0]))
    with pytest.raises(SystemExit) as stop:
        run.main(argv)
    assert stop.value.code == (0 if argv == ["--help"] else 2)
    assert ran == []


def test_help_lists_the_benchmarks(capsys: pytest.CaptureFixture[str]) -> None:
    run = load_run()
    with pytest.raises(SystemExit):
        run.main(["--help"])
    out = capsys.readouterr().out
    for name in ("playouts", "mcts", "load", "adapter", "workers"):
        assert name in out


def test_a_name_selects_one_benchmark() -> None:
    run = load_run()
    args = run.parse_args(["--quick", "playouts"])
    assert args.quick and args.names == ["playouts"]
    assert run.parse_args([]).names == []
