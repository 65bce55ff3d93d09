"""The lab's work is bounded: agents as for table seats, runs per address, computing time per run, cancel by the
address that started a run, and no lab worker outlives its server (even after ``kill -9``)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boardlab.server.app import create_app
from boardlab.server.launch import free_port
from boardlab.server.tables import Settings

RUN = {"game": "blast-radius", "options": {"board_side": 5}, "agents": ["random"], "games": 6, "seed": 2}
#: A run that plays for minutes: it is still playing whenever a test looks.
LONG = {**RUN, "agents": ["mcts:iterations=300"], "games": 2000}


def until(check: Callable[[], Any], timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout} s")


@pytest.fixture
def lab_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDLAB_LAB_PER_MINUTE", "600")
    monkeypatch.setenv("BOARDLAB_LAB_QUEUE", "8")
    monkeypatch.setenv("BOARDLAB_LAB_PER_CLIENT", "2")


@pytest.fixture
def app_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/lab.db"


def client(app: Any, address: str) -> TestClient:
    return TestClient(app, client=(address, 40000))


@pytest.mark.parametrize(
    "agent, words",
    [
        ("mcts:iterations=1000000000", "iterations must be at most 100000"),
        ("mcts:seconds=100000", "seconds must be at most 5"),
        ("greedy:playouts=1000000", "playouts must be at most 200"),
        ("hard:plies=100000000", "plies must be at most 250000"),
    ],
)
def test_agents_out_of_the_server_bounds_are_refused_before_any_work(
    lab_env: None, app_url: str, agent: str, words: str
) -> None:
    app = create_app(Settings(db_url=app_url, ai_workers=1))
    with TestClient(app) as c:
        for path, body in (
            ("/api/lab/runs", {**RUN, "agents": [agent]}),
            ("/api/lab/sweeps", {**RUN, "vary": {"board_side": [5, 6]}, "agents": [agent]}),
        ):
            r = c.post(path, json=body)
            assert r.status_code == 400 and words in r.json()["message"], r.text
            assert "easy" in r.json()["message"]  # it names what is on offer
        assert c.get("/api/lab").json()["runs"] == []  # nothing stored, nothing started
        assert c.post("/api/lab/runs", json={**RUN, "agents": ["mcts:iterations=50"]}).status_code == 201


def test_one_address_may_hold_only_its_share_of_the_lab_and_cancel_its_own_runs(lab_env: None, app_url: str) -> None:
    app = create_app(Settings(db_url=app_url, ai_workers=1))
    with client(app, "10.0.0.1") as a, client(app, "10.0.0.2") as b:
        first = a.post("/api/lab/runs", json=LONG)
        second = a.post("/api/lab/runs", json={**LONG, "seed": 3})
        assert first.status_code == second.status_code == 201
        assert first.json()["cancellable"] and second.json()["waiting"]  # one worker: the second waits
        third = a.post("/api/lab/runs", json={**LONG, "seed": 4})
        assert third.status_code == 429 and "wait for one to finish or cancel one" in third.json()["message"]
        other = b.post("/api/lab/runs", json={**LONG, "seed": 5})  # another address is still welcome
        assert other.status_code == 201
        k1, k2, k3 = first.json()["key"], second.json()["key"], other.json()["key"]
        listed = {r["key"]: r for r in b.get("/api/lab").json()["runs"]}
        assert [listed[k]["cancellable"] for k in (k1, k2, k3)] == [False, False, True]

        # only the address that started a run may cancel it
        r = b.post(f"/api/lab/runs/{k1}/cancel")
        assert r.status_code == 403 and a.get(f"/api/lab/runs/{k1}").json()["status"] == "running"
        until(lambda: a.get(f"/api/lab/runs/{k1}").json()["done"] >= 1)  # it is playing in its worker
        r = a.post(f"/api/lab/runs/{k1}/cancel")
        assert r.status_code == 200 and r.json()["status"] == "cancelled" and "cancelled" in r.json()["error"]
        assert a.post(f"/api/lab/runs/{k1}/cancel").status_code == 409  # nothing left to cancel
        assert a.post("/api/lab/runs/nope/cancel").status_code == 404
        # the freed worker takes the next waiting run; the cancelled one stays cancelled
        until(lambda: not a.get(f"/api/lab/runs/{k2}").json()["waiting"])
        done = a.get(f"/api/lab/runs/{k1}").json()["done"]
        time.sleep(1.0)
        assert a.get(f"/api/lab/runs/{k1}").json()["done"] == done
        # the address has room again
        assert a.post("/api/lab/runs", json={**LONG, "seed": 4}).status_code == 201
        assert a.post(f"/api/lab/runs/{k2}/cancel").json()["status"] == "cancelled"
        assert b.post(f"/api/lab/runs/{k3}/cancel").json()["status"] == "cancelled"  # a waiting one never starts
        # asked for again, a cancelled run starts again
        again = a.post("/api/lab/runs", json=LONG)
        assert again.status_code == 201 and again.json()["key"] == k1 and again.json()["started"]


def test_a_run_over_its_computing_budget_stops_and_says_so(
    lab_env: None, app_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOARDLAB_LAB_SECONDS", "4")
    app = create_app(Settings(db_url=app_url, ai_workers=1))
    with TestClient(app) as c:
        r = c.post("/api/lab/runs", json=LONG)
        assert r.status_code == 201
        key = r.json()["key"]
        run = until(lambda: (d := c.get(f"/api/lab/runs/{key}").json())["status"] != "running" and d, timeout=60)
        assert run["status"] == "failed" and run["done"] < LONG["games"]
        assert "budget of 4 s of computing time" in run["error"]
        assert c.get("/api/lab").json()["run_seconds"] == 4.0
        ok = c.post("/api/lab/runs", json={**RUN, "games": 2})  # a run within its budget still finishes
        assert ok.status_code == 201
        fin = until(lambda: (d := c.get(f"/api/lab/runs/{ok.json()['key']}").json())["status"] != "running" and d)
        assert fin["status"] == "finished"


def _descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (children, their children…), from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    port = free_port()
    code = "from boardlab.cli.main import main; main()"
    args = ["serve", "--port", str(port), "--db", f"sqlite:///{tmp_path}/k.db", "--ai-workers", "1"]
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"

    def up() -> bool:
        try:
            with urllib.request.urlopen(f"{base}/api/health", timeout=1):
                return True
        except OSError:
            assert proc.poll() is None, "the server did not start"
            return False

    until(up, timeout=60)
    yield proc, base
    if proc.poll() is None:
        proc.kill()
    proc.wait()


def test_lab_workers_end_themselves_when_the_server_is_killed(server: tuple[subprocess.Popen[bytes], str]) -> None:
    proc, base = server
    req = urllib.request.Request(
        f"{base}/api/lab/runs", data=json.dumps(LONG).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        key = json.loads(r.read())["key"]

    def playing() -> bool:
        with urllib.request.urlopen(f"{base}/api/lab/runs/{key}", timeout=10) as r:
            return json.loads(r.read())["done"] >= 1

    until(playing, timeout=60)  # the lab worker is playing the run's games
    workers = _descendants(proc.pid)
    assert workers
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    try:
        until(lambda: not any(_alive(p) for p in workers), timeout=5)
    finally:
        for p in workers:  # the old code's worker would play on: do not leave it running
            if _alive(p):
                os.kill(p, signal.SIGKILL)
