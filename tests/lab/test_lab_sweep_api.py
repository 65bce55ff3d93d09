"""Variant sweeps on the server (/api/lab/sweeps): played in the lab worker, polled, read back with exactly the table
and verdict ``boardlab sweep`` gives, a sample game of every variant; bad input refused with a clear 400 that
changes nothing; sweeps share the balance runs' quota."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boardlab.lab.store import RunStore
from boardlab.lab.sweep import grid_table, sweep
from boardlab.server.app import create_app
from boardlab.server.tables import Settings

SWEEP = {"game": "blast-radius", "vary": {"board_side": [5, 6]}, "agents": ["random"], "games": 3, "seed": 2}


def wait_done(c: TestClient, key: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    seen = []
    while time.monotonic() < deadline:
        run = c.get(f"/api/lab/runs/{key}").json()
        seen.append(run["done"])
        if run["status"] != "running":
            assert seen == sorted(seen)  # progress only goes forward
            return run
        time.sleep(0.1)
    raise AssertionError("the sweep did not finish")


def test_a_sweep_is_played_polled_and_read_as_the_command_line_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOARDLAB_LAB_PER_MINUTE", "30")
    monkeypatch.setenv("BOARDLAB_LAB_MAX_GAMES", "50")
    url = f"sqlite:///{tmp_path}/srv.db"
    with TestClient(create_app(Settings(db_url=url, ai_workers=1))) as c:
        r = c.post("/api/lab/sweeps", json=SWEEP)
        assert r.status_code == 201, r.text
        started = r.json()
        assert started["started"] and started["kind"] == "sweep" and started["total"] == 6
        assert started["title"] == "Blast Radius" and started["sweep"]["variants"] == ["board_side=5", "board_side=6"]
        key = started["key"]
        run = wait_done(c, key)
        assert run["status"] == "finished" and run["done"] == 6

        # exactly what `boardlab sweep blast-radius --vary board_side=5,6 --games 3 --seed 2` says
        local = sweep("blast-radius", {"board_side": ["5", "6"]}, games=3, seed=2)
        assert run["verdict"] == local.verdict() and run["verdict"].startswith("Nearest 50.0% first mover's win rate")
        assert run["sweep"]["table"] == grid_table(local.to_dict())
        assert [row[0] for row in run["sweep"]["table"]["rows"]] == ["board_side=5", "board_side=6"]
        assert run["sweep"]["table"]["rows"][0][2] == "reference" and "Bonferroni" in run["sweep"]["table"]["note"]
        assert (
            run["sweep"]["caveat"] == local.caveat and run["sweep"]["best_options"] == local.to_dict()["best_options"]
        )

        # a sample game of every variant: game 1 again, the very game the sweep played, as a record to replay
        assert [s["label"] for s in run["samples"]] == ["board_side=5: game 1", "board_side=6: game 1"]
        for v, s in enumerate(run["samples"]):
            record = c.get(f"/api/lab/runs/{key}/samples/{v}").json()
            assert record["options"]["board_side"] == 5 + v
            assert len(record["history"]) == s["length"] == local.variants[v].result.summaries[0].length
            assert c.post("/api/replays", json={"record": record}).status_code == 200
        assert c.get(f"/api/lab/runs/{key}/samples/2").status_code == 404

        # listed beside the balance runs; asked again (values as text, as typed on a command line): shown at once
        listed = c.get("/api/lab").json()["runs"]
        assert [(x["key"], x["kind"]) for x in listed] == [(key, "sweep")]
        again = c.post("/api/lab/sweeps", json={**SWEEP, "vary": {"board_side": "5..6"}})
        assert again.status_code == 200 and again.json()["key"] == key and not again.json()["started"]

        bad = [
            ({**SWEEP, "vary": {"size": [5, 6]}}, "size"),
            ({**SWEEP, "vary": {"board_side": [5, 99]}}, "99"),
            ({**SWEEP, "vary": {"board_side": "5..x"}}, "a range must look like"),
            ({**SWEEP, "vary": {"board_side": [[5]]}}, "plain values"),
            ({**SWEEP, "vary": {"board_side": []}}, "at least one value"),
            ({**SWEEP, "vary": {}}, "vary"),
            ({**SWEEP, "options": {"board_side": 5}}, "both fixed and varied"),
            ({**SWEEP, "options": {"pie": "maybe"}}, "pie"),
            ({**SWEEP, "vary": {"board_side": [5, 6, 7]}, "games": 20}, "at most 50; 3 variants of 20 games are 60"),
            ({**SWEEP, "games": 1}, "between 2 and 50 games per variant"),
            ({**SWEEP, "agents": ["wizard"]}, "wizard"),
            ({**SWEEP, "vary": {"board_side": [5, 5]}}, "listed twice"),
        ]
        for body, words in bad:
            res = c.post("/api/lab/sweeps", json=body)
            assert res.status_code == 400 and words in res.json()["message"], (body, res.text)
        assert [x["key"] for x in c.get("/api/lab").json()["runs"]] == [key]  # nothing stored, nothing started
    assert RunStore(url).get(key).status == "finished"


def test_sweeps_and_balance_runs_share_the_quota(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDLAB_LAB_PER_MINUTE", "1")
    with TestClient(create_app(Settings(db_url=f"sqlite:///{tmp_path}/srv.db", ai_workers=1))) as c:
        run = {"game": "blast-radius", "options": {"board_side": 5}, "games": 1}
        assert c.post("/api/lab/runs", json=run).status_code == 201
        r = c.post("/api/lab/sweeps", json=SWEEP)
        assert r.status_code == 429 and "lab runs" in r.json()["message"]


def test_a_sweep_stored_by_the_command_line_is_the_page_s_sweep(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/srv.db"
    local = sweep("blast-radius", {"board_side": ["5", "6"]}, games=3, seed=2, store=RunStore(url))  # `--db URL`
    with TestClient(create_app(Settings(db_url=url, ai_workers=1))) as c:
        r = c.post("/api/lab/sweeps", json=SWEEP)  # the same settings: the same stored run, shown, not played again
        assert r.status_code == 200 and not r.json()["started"] and r.json()["status"] == "finished"
        run = c.get(f"/api/lab/runs/{r.json()['key']}").json()
        assert run["verdict"] == local.verdict() and run["sweep"]["table"] == grid_table(local.to_dict())
        assert run["samples"] == [] and [x["kind"] for x in c.get("/api/lab").json()["runs"]] == ["sweep"]
