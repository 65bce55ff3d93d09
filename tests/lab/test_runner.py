"""The lab's runner: results in job order whatever the workers, stored results, and resuming a killed run."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boardlab.lab import runner
from boardlab.lab.runner import chunk_size_for, pow_of_two, run_jobs
from boardlab.lab.simulate import simulate
from boardlab.lab.store import RunStore


def slow_square(delay: float, n: int) -> list[int]:
    time.sleep(delay)
    return [n, n * n]


def test_results_come_back_in_job_order_on_workers() -> None:
    jobs = list(range(40))
    fn = functools.partial(slow_square, 0.002)
    want = [[n, n * n] for n in jobs]
    assert run_jobs(fn, jobs) == want
    assert run_jobs(fn, jobs, workers=2, chunk_size=3) == want  # forced onto two processes


def test_short_runs_stay_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pool(*a: object, **k: object) -> None:
        raise AssertionError("a pool was started for a run too short to pay for it")

    monkeypatch.setattr(runner, "ProcessPoolExecutor", no_pool)
    assert run_jobs(pow_of_two, range(200), workers=2) == [2**n for n in range(200)]


def test_chunks_split_a_worker_share_and_stay_bounded() -> None:
    assert chunk_size_for(0.001, 4000, 2) == 250  # 2 s per worker -> 8 chunks of 0.25 s each
    assert chunk_size_for(0.001, 100_000, 2) == 2000  # never more than MAX_CHUNK_SECONDS of work
    assert chunk_size_for(1e-6, 100, 4) == 25  # never more than a worker's share
    assert chunk_size_for(3.0, 10, 2) == 1


def test_stored_run_skips_finished_jobs(tmp_path: Path) -> None:
    store = RunStore(f"sqlite:///{tmp_path}/lab.db")
    calls: list[int] = []
    seen: list[tuple[int, int]] = []

    def counted(n: int) -> dict[str, int]:
        calls.append(n)
        return {"n": n, "sq": n * n}

    first = run_jobs(counted, range(5), store=store, run_key="r")
    store.save("r2", [(0, {"n": 0, "sq": 0}), (3, {"n": 3, "sq": 9})])  # a run killed after two jobs
    calls.clear()
    again = run_jobs(counted, range(5), store=store, run_key="r2", progress=lambda d, t: seen.append((d, t)))
    assert again == first
    assert calls == [1, 2, 4]
    assert seen[0] == (2, 5) and seen[-1] == (5, 5)
    calls.clear()
    assert run_jobs(counted, range(5), store=store, run_key="r") == first and calls == []


def test_a_key_stored_for_other_settings_is_refused(tmp_path: Path) -> None:
    store = RunStore(f"sqlite:///{tmp_path}/lab.db")
    store.open_run("k", kind="simulate", params={"games": 3}, total=3)
    with pytest.raises(ValueError, match="stored for other settings"):
        store.open_run("k", kind="simulate", params={"games": 4}, total=4)
    with pytest.raises(ValueError, match="needs a run_key"):
        run_jobs(pow_of_two, [1], store=store)
    with pytest.raises(ValueError, match="not a database URL"):
        RunStore("no such url")
    with pytest.raises(ValueError, match="workers must be a positive integer"):
        run_jobs(pow_of_two, [1], workers=0)


def test_stored_simulation_equals_a_plain_one_and_is_listed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/lab.db"
    kw: dict = {"options": {"board_side": 5}, "seed": 4}
    plain = simulate("blast-radius", 12, ["random"], **kw)
    stored = simulate("blast-radius", 12, ["random"], store=url, **kw)
    assert stored.to_dict() == plain.to_dict()
    (info,) = RunStore(url).runs()
    assert info.kind == "simulate" and info.done == 12 and info.params["game"] == "blast-radius"


_KILLABLE = """
import sys, time
from boardlab.lab.simulate import simulate
def progress(done, total):
    print(done, flush=True)
    time.sleep(0.02)
simulate("blast-radius", 400, ["random"], options={"board_side": 5}, seed=7, store=sys.argv[1], progress=progress)
"""


def test_a_killed_simulation_resumes_without_repeating_games(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/lab.db"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(
        [sys.executable, "-c", _KILLABLE, url], stdout=subprocess.PIPE, text=True, env=env, start_new_session=True
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if int(line) >= 60:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    store = RunStore(url)
    (info,) = store.runs()
    assert 0 < info.done < 400 and info.status == "running"
    stored_before = store.results(info.key)

    played: list[int] = []
    kw: dict = {"options": {"board_side": 5}, "seed": 7}
    resumed = simulate("blast-radius", 400, ["random"], store=url, progress=lambda d, t: played.append(d), **kw)
    assert played[0] == info.done  # the stored games count at once; only the rest are played
    assert len(played) == 1 + 400 - info.done
    assert resumed.to_dict() == simulate("blast-radius", 400, ["random"], **kw).to_dict()
    assert {i: store.results(info.key)[i] for i in stored_before} == stored_before
