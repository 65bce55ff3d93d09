"""The Ray backend for real: a local Ray instance plays a simulation and gets the local backend's results; a run
says whether it starts an instance or joins a running one.

Starting a Ray instance takes ten seconds or more on a small machine, and one started by ``ray start --head`` took
thirty more to end (on SIGTERM it first waits up to ``RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S`` for its node to
drain). So the module starts one head, with that wait off, and the tests that need a running instance share it:
this process joins it for the simulation, the command-line runs join it as they would one someone keeps running.
The test of a run that starts its own instance comes first, before the head is up. The module's tests run in one
xdist worker, one after another (``--dist loadfile``, pyproject.toml), so none of them meets another's instance.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boardlab.lab.simulate import simulate

ray = pytest.importorskip("ray")

SRC = str(Path(__file__).resolve().parents[2] / "src")


# -- joining a running Ray instance, or saying that one is being started --------------------------------------------
def _running_ray() -> frozenset[str]:
    from ray._private.services import find_gcs_addresses

    return frozenset(find_gcs_addresses())


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    env.pop("RAY_ADDRESS", None)
    cmd = [
        os.path.join(os.path.dirname(sys.executable), "boardlab"),
        "simulate",
        "blast-radius",
        "--backend",
        "ray",
        "--no-store",
        *args,
    ]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300, check=True)


def _skip_if_another_ray() -> None:
    if ray.is_initialized():
        ray.shutdown()
    if _running_ray():
        pytest.skip("another Ray instance is running on this machine: a run would join it")


@pytest.fixture
def no_other_ray() -> None:
    _skip_if_another_ray()


@pytest.fixture(scope="module")
def ray_head():
    """A Ray instance started with ``ray start --head`` (as someone keeping one running would), ended after the
    module's last test; none may be running before (a run would join that one)."""
    _skip_if_another_ray()
    port = _free_port()
    # No drain on SIGTERM: this head has nothing to hand over, and the wait (30 s by default) is all its ending took.
    env = {**os.environ, "RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S": "0"}
    head = subprocess.Popen(
        [os.path.join(os.path.dirname(sys.executable), "ray"), "start", "--head", "--block", "--num-cpus", "2",
         "--port", str(port), "--include-dashboard=false", "--disable-usage-stats"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=env,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not any(a.endswith(f":{port}") for a in _running_ray()):
            if head.poll() is not None or time.monotonic() > deadline:
                pytest.fail("ray start --head did not come up")
            time.sleep(0.5)
        yield next(a for a in _running_ray() if a.endswith(f":{port}"))
    finally:
        if ray.is_initialized():
            ray.shutdown()  # this process's connection to it (the simulation's test)
        os.killpg(head.pid, signal.SIGTERM)  # --block: the head stops its processes when it is told to end
        head.wait(60)
        _forget_head(port)


def _forget_head(port: int) -> None:
    """Remove the file naming the last head started, which ``ray start`` leaves behind: a later ``ray.init()`` would
    try to join the head that is gone."""
    from ray._private.utils import get_ray_address_file, read_ray_address

    if (read_ray_address() or "").endswith(f":{port}"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(get_ray_address_file(None))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- in this order: a run that starts its own instance (none running yet), then the shared head's
def test_a_run_says_when_it_starts_a_ray_instance(no_other_ray) -> None:
    # long enough (seconds) that Ray is needed: a run over before Ray is reached never starts one, and says nothing
    out = _cli("--games", "20000", "--seed", "5")
    assert "starting a local Ray instance" in out.stderr
    assert "using the running Ray instance" not in out.stderr


def test_a_local_ray_instance_gives_the_local_results(ray_head: str) -> None:
    # "auto", as a run finds it (an explicit address would not pick up the token the head's authentication asks)
    ray.init(address="auto", include_dashboard=False, log_to_driver=False, configure_logging=False)
    assert ray.get_runtime_context().gcs_address == ray_head
    kw: dict = {"options": {"board_side": 5}, "seed": 11}
    local = simulate("blast-radius", 300, ["random"], **kw)
    seen: list[int] = []
    remote = simulate("blast-radius", 300, ["random"], backend="ray", progress=lambda d, t: seen.append(d), **kw)
    assert remote.to_dict() == local.to_dict()
    assert seen[-1] == 300 and len(seen) > 2  # several tasks, reported as they finished
    assert ray.cluster_resources()["CPU"] == 2
    ray.shutdown()  # this process leaves the instance; the runs below join it from outside


def test_a_second_run_joins_the_running_ray_instance(ray_head: str) -> None:
    local = _cli("--games", "300", "--seed", "5", "--backend", "local", "--json")
    for _ in range(2):  # each run joins the instance kept running, neither starts one
        out = _cli("--games", "300", "--seed", "5", "--json")
        assert f"using the running Ray instance at {ray_head}" in out.stderr
        assert "starting a local Ray instance" not in out.stderr
        assert json.loads(out.stdout)["wins"] == json.loads(local.stdout)["wins"]
    assert _running_ray() >= {ray_head}  # still running for the next runs
