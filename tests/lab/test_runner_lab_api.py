"""The lab's API on the server (/api/lab): runs in the lab worker, stored and found again; bad input, quota and the
bound on waiting runs refused with the server's usual errors."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boardlab.lab.store import RunStore
from boardlab.server.app import create_app
from boardlab.server.tables import Settings

RUN = {"game": "blast-radius", "options": {"board_side": 5}, "agents": ["random"], "games": 6, "seed": 2}


def wait_done(c: TestClient, key: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        run = c.get(f"/api/lab/runs/{key}").json()
        if run["status"] != "running":
            return run
        time.sleep(0.2)
    raise AssertionError("the lab run did not finish")


def test_a_run_is_played_stored_and_found_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDLAB_LAB_PER_MINUTE", "20")
    monkeypatch.setenv("BOARDLAB_LAB_QUEUE", "0")
    monkeypatch.setenv("BOARDLAB_LAB_MAX_GAMES", "50")
    url = f"sqlite:///{tmp_path}/srv.db"
    with TestClient(create_app(Settings(db_url=url, ai_workers=1))) as c:
        r = c.post("/api/lab/runs", json=RUN)
        assert r.status_code == 201 and r.json()["started"] and r.json()["title"] == "Blast Radius"
        key = r.json()["key"]
        # one run at a time and none waiting: a second, different run is refused while it plays
        busy = c.post("/api/lab/runs", json={**RUN, "seed": 3})
        assert busy.status_code in (503, 201)  # 201 only if the first already finished
        run = wait_done(c, key)
        assert run["status"] == "finished" and run["done"] == 6
        assert "n = 6" in run["verdict"] and run["plots"] and run["tables"] and run["samples"]
        record = c.get(f"/api/lab/runs/{key}/samples/0").json()
        assert record["game"] == "blast-radius" and c.post("/api/replays", json={"record": record}).status_code == 200
        assert c.get(f"/api/lab/runs/{key}/samples/99").status_code == 404
        again = c.post("/api/lab/runs", json=RUN)  # finished: shown at once, not played again, no quota spent
        assert again.status_code == 200 and again.json()["key"] == key and not again.json()["started"]
        listed = c.get("/api/lab").json()
        assert listed["runs"][0]["key"] in (key, busy.json().get("key")) and listed["max_games"] == 50
        bad = [
            ({**RUN, "games": 51}, "games must lie between 1 and 50"),
            ({**RUN, "agents": ["wizard"]}, "wizard"),
            ({**RUN, "options": {"size": 5}}, "size"),
            ({**RUN, "games": "6"}, "games"),
        ]
        for body, words in bad:
            res = c.post("/api/lab/runs", json=body)
            assert res.status_code == 400 and words in res.json()["message"], res.text
        assert c.get("/api/lab/runs/nope").status_code == 404
        assert c.get("/lab").status_code == 200
    assert RunStore(url).get(key).status == "finished"  # in the server's own database


def test_starting_runs_too_fast_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDLAB_LAB_PER_MINUTE", "1")
    monkeypatch.setenv("BOARDLAB_LAB_QUEUE", "8")
    with TestClient(create_app(Settings(db_url=f"sqlite:///{tmp_path}/srv.db", ai_workers=1))) as c:
        assert c.post("/api/lab/runs", json={**RUN, "games": 1}).status_code == 201
        r = c.post("/api/lab/runs", json={**RUN, "games": 2})
        assert r.status_code == 429 and "lab runs" in r.json()["message"] and int(r.headers["Retry-After"]) >= 1
