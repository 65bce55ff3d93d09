"""The Ray backend for real: a local Ray instance plays a simulation and gets the local backend's results."""

from __future__ import annotations

import pytest

from boardlab.lab.simulate import simulate

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_a_local_ray_instance_gives_the_local_results(local_ray) -> None:
    kw: dict = {"options": {"board_side": 5}, "seed": 11}
    local = simulate("blast-radius", 300, ["random"], **kw)
    seen: list[int] = []
    remote = simulate("blast-radius", 300, ["random"], backend="ray", progress=lambda d, t: seen.append(d), **kw)
    assert remote.to_dict() == local.to_dict()
    assert seen[-1] == 300 and len(seen) > 2  # several tasks, reported as they finished
    assert local_ray.cluster_resources()["CPU"] == 2
