"""The designer's lab beyond one process: the Ray backend and balance plots."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest
from typer.testing import CliRunner

from boardlab.cli.main import load_commands
from boardlab.lab.plots import plot_balance
from boardlab.lab.simulate import simulate


class _FakeRay(types.ModuleType):
    """Just enough of Ray's task API (remote / wait / get) to run the backend in one process."""

    def __init__(self) -> None:
        super().__init__("ray")
        self.initialised = False
        self.tasks = 0

    def is_initialized(self) -> bool:
        return self.initialised

    def init(self, **kwargs: Any) -> None:
        self.initialised = True
        self.init_kwargs = kwargs

    def remote(self, fn: Any) -> Any:
        fake = self

        class Task:
            def remote(self, *args: Any) -> Any:
                fake.tasks += 1
                return ("ref", fn(*args))

        return Task()

    def wait(
        self, pending: list[Any], num_returns: int = 1, timeout: float | None = None
    ) -> tuple[list[Any], list[Any]]:
        return pending[-num_returns:], pending[:-num_returns]  # finish out of order on purpose

    def get(self, ref: Any) -> Any:
        return ref[1]

    def cancel(self, ref: Any) -> None:
        pass

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 2.0}


def test_ray_backend_gives_the_same_results_as_local(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    kw: dict[str, Any] = {"options": {"board_side": 5}, "seed": 9}
    # enough games that some are left for Ray after the runner has timed them (0.1 s) here
    local = simulate("blast-radius", 1500, ["random"], **kw)
    remote = simulate("blast-radius", 1500, ["random"], backend="ray", ray_address="auto", **kw)
    assert remote.to_dict() == local.to_dict()
    assert fake.tasks > 1 and fake.init_kwargs["address"] == "auto"


def test_ray_backend_without_ray_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # makes "import ray" fail
    with pytest.raises(ValueError, match=r"needs Ray: pip install 'boardlab\[ray\]'"):
        simulate("blast-radius", 5, ["random"], backend="ray")
    with pytest.raises(ValueError, match="unknown backend 'spark'"):
        simulate("blast-radius", 5, ["random"], backend="spark")


def test_balance_plot_is_written(tmp_path) -> None:
    r = simulate("dragon-fight", 60, ["random"], seed=2)
    out = plot_balance(r, tmp_path / "df.png")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simulate_command_writes_a_plot(tmp_path) -> None:
    app = load_commands()
    target = tmp_path / "br.png"
    res = CliRunner().invoke(
        app,
        ["simulate", "blast-radius", "--games", "30", "--option", "board_side=5", "--seed", "1", "--plot", str(target)],
    )
    assert res.exit_code == 0, res.output
    assert target.read_bytes()[:4] == b"\x89PNG"
    res = CliRunner().invoke(app, ["simulate", "blast-radius", "--games", "3", "--backend", "nowhere"])
    assert res.exit_code != 0 and "unknown backend" in res.output
