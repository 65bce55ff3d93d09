"""What "most balanced" means, and the search for the setting nearest a target, on the server (/api/lab/sweeps):
the metric is part of a stored sweep's key (sweeps stored before it keep theirs), a tiny search is played, polled
and read back with exactly the rounds, verdict and winner ``boardlab sweep --target`` gives, and bad targets are
a 400 that starts nothing."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rich.console import Console

from boardlab.cli.sweep import print_sweep
from boardlab.lab.store import RunStore, run_key
from boardlab.lab.sweep import round_line, rounds_table, search, sweep, sweep_plan
from boardlab.server.app import create_app
from boardlab.server.tables import Settings

GRID = {"game": "blast-radius", "vary": {"board_side": [5, 6]}, "agents": ["random"], "games": 3, "seed": 2}
# three settings: a first round of 2 games each, then the nearer two play on to 4; 10 games in all
SEARCH = {
    "game": "blast-radius",
    "vary": {"board_side": [5, 6, 7]},
    "mode": "target",
    "metric": "median-length",
    "target": 60,
    "games": 4,
    "start_games": 2,
    "seed": 1,
}


def wait_done(c: TestClient, key: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    seen: list[tuple[int, int]] = []
    while time.monotonic() < deadline:
        run = c.get(f"/api/lab/runs/{key}").json()
        seen.append((run["done"], run["sweep"].get("round", 0)))
        if run["status"] != "running":
            assert seen == sorted(seen)  # progress and rounds only go forward
            return run
        time.sleep(0.05)
    raise AssertionError("the run did not finish")


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("BOARDLAB_LAB_PER_MINUTE", "60")
    monkeypatch.setenv("BOARDLAB_LAB_MAX_GAMES", "50")
    with TestClient(create_app(Settings(db_url=f"sqlite:///{tmp_path}/srv.db", ai_workers=1))) as c:
        yield c


def test_a_default_grid_keeps_the_key_it_had_before_the_metric_was_chosen() -> None:
    key, params = sweep_plan("blast-radius", {"board_side": [5, 6]}, games=3, seed=2)
    before = {  # what a stored sweep's parameters were before a sweep could choose its metric
        "game": "blast-radius",
        "rules_version": params["rules_version"],
        "variants": [{"board_side": 5, "pie": False}, {"board_side": 6, "pie": False}],
        "num_players": 2,
        "agents": ["random", "random"],
        "seed": 2,
        "games": 3,
    }
    assert params == before and key == run_key("sweep", before)
    other, p2 = sweep_plan("blast-radius", {"board_side": [5, 6]}, games=3, seed=2, metric="draw_rate", target=0)
    assert other != key and (p2["metric"], p2["target"]) == ("draw_rate", 0.0)
    assert (
        sweep_plan("blast-radius", {"board_side": [5, 6]}, games=3, seed=2, metric="draw_rate", target=0.0)[0] == other
    )


def test_two_grids_differing_only_in_metric_are_two_stored_sweeps(client: TestClient) -> None:
    first = client.post("/api/lab/sweeps", json=GRID).json()
    run = wait_done(client, first["key"])
    assert run["sweep"]["goal"] == "first player's win rate nearest 50.0%" and run["sweep"]["mode"] == "grid"

    body = {**GRID, "metric": "mean-length", "target": 50}
    r = client.post("/api/lab/sweeps", json=body)
    assert r.status_code == 201 and r.json()["started"] and r.json()["key"] != first["key"]
    other = wait_done(client, r.json()["key"])
    local = sweep("blast-radius", {"board_side": [5, 6]}, games=3, seed=2, metric="mean_length", target=50)
    assert other["verdict"] == local.verdict() and other["verdict"].startswith("Nearest 50.0 mean length")
    assert other["sweep"]["goal"] == "mean length in moves nearest 50.0" and other["sweep"]["best"] == local.best

    # both listed and readable; the default one is untouched
    assert {x["key"] for x in client.get("/api/lab").json()["runs"]} == {first["key"], other["key"]}
    again = client.get(f"/api/lab/runs/{first['key']}").json()
    assert again["verdict"] == run["verdict"] and again["verdict"].startswith("Nearest 50.0% first mover's")
    assert client.post("/api/lab/sweeps", json=body).status_code == 200  # asked again: shown, not played again


def test_a_grid_stored_before_the_metric_was_in_the_key_is_summed_up_again_for_the_metric_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import boardlab.lab.sweep as lab_sweep

    url = f"sqlite:///{tmp_path}/srv.db"
    with monkeypatch.context() as m:  # the key as it was: the metric left out
        m.setattr(lab_sweep, "_grid_extra", lambda games, metric, target: {"games": games})
        old = sweep("blast-radius", {"board_side": [5, 6]}, games=3, seed=2, metric="mean_length", target=50, store=url)
    key = sweep_plan("blast-radius", {"board_side": [5, 6]}, games=3, seed=2)[0]
    assert RunStore(url).get(key).summary["verdict"] == old.verdict()  # a mean-length verdict under the default's key
    with TestClient(create_app(Settings(db_url=url, ai_workers=1))) as c:
        r = c.post("/api/lab/sweeps", json=GRID)
        assert r.status_code == 201 and r.json()["key"] == key and r.json()["done"] == 6  # its games are all stored
        run = wait_done(c, key)
        assert run["verdict"] == sweep("blast-radius", {"board_side": [5, 6]}, games=3, seed=2).verdict()
        assert run["verdict"].startswith("Nearest 50.0% first mover's") and run["done"] == 6
        assert c.post("/api/lab/sweeps", json=GRID).status_code == 200  # now it is the default's: shown at once


def test_a_target_search_is_played_polled_and_read_as_the_command_line_reads_it(client: TestClient) -> None:
    r = client.post("/api/lab/sweeps", json=SEARCH)
    assert r.status_code == 201, r.text
    started = r.json()
    assert started["kind"] == "search" and started["total"] == 10 and started["started"]
    assert started["sweep"]["plan"] == [{"candidates": 3, "games": 2}, {"candidates": 2, "games": 4}]
    assert started["sweep"]["goal"] == "median length in moves nearest 60.0"
    run = wait_done(client, started["key"])
    assert run["status"] == "finished" and run["done"] == 10 and run["sweep"]["round"] == 1

    local = search(
        "blast-radius", {"board_side": [5, 6, 7]}, metric="median_length", target=60, games=4, start_games=2, seed=1
    )
    table = rounds_table(local.to_dict())
    assert run["verdict"] == local.verdict() and run["sweep"]["table"] == table
    assert [row[:2] for row in table["rows"]] == [["1", "2"], ["2", "4"]] and "Successive halving" in table["note"]
    out = io.StringIO()
    print_sweep(Console(file=out, width=400, highlight=False, markup=False), local)
    assert [round_line(row) for row in table["rows"]] == out.getvalue().splitlines()[1:3]  # the command's lines

    winner = run["sweep"]["winner"]
    won = local.variants[local.best]
    assert winner["options"] == won.options == run["sweep"]["best_options"] and winner["games"] == 4
    assert winner["value"] == local.to_dict()["variants"][local.best]["value"]
    assert winner["ci95"][0] <= winner["value"] <= winner["ci95"][1] and winner["label"] in run["verdict"]

    # the winner's game 1 to replay, the very game the search played
    (sample,) = run["samples"]
    assert sample["label"] == f"{winner['label']}: game 1"
    record = client.get(f"/api/lab/runs/{started['key']}/samples/0").json()
    assert len(record["history"]) == sample["length"] == won.result.summaries[0].length

    # listed with the sweeps as a search; asked again, shown at once
    (listed,) = client.get("/api/lab").json()["runs"]
    assert listed["kind"] == "search" and listed["verdict"] == run["verdict"]
    again = client.post("/api/lab/sweeps", json=SEARCH)
    assert again.status_code == 200 and again.json()["key"] == started["key"]
    assert {m["name"] for m in client.get("/api/lab").json()["metrics"]} == {
        "first_mover",
        "draw_rate",
        "mean_length",
        "median_length",
    }


def test_a_search_the_command_line_stored_is_listed_on_the_page(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/srv.db"
    local = search(  # `boardlab sweep --target median-length=60 --db URL`
        "blast-radius",
        {"board_side": [5, 6, 7]},
        metric="median_length",
        target=60,
        games=4,
        start_games=2,
        seed=1,
        store=RunStore(url),
    )
    with TestClient(create_app(Settings(db_url=url, ai_workers=1))) as c:
        r = c.post("/api/lab/sweeps", json=SEARCH)
        assert r.status_code == 200 and not r.json()["started"] and r.json()["status"] == "finished"
        run = c.get(f"/api/lab/runs/{r.json()['key']}").json()
        assert run["verdict"] == local.verdict() and run["sweep"]["table"] == rounds_table(local.to_dict())
        assert run["samples"] == [] and [x["kind"] for x in c.get("/api/lab").json()["runs"]] == ["search"]


def test_bad_metrics_and_targets_are_refused_and_start_nothing(client: TestClient) -> None:
    bad = [
        ({**GRID, "metric": "fun"}, "unknown metric 'fun'"),
        ({**GRID, "metric": "first_mover", "target": 1.5}, "between 0 and 1"),
        ({**GRID, "metric": "draw-rate"}, "give the target draw rate"),
        ({**GRID, "start_games": 2}, "start_games is a search's first round"),
        ({**SEARCH, "metric": "fun"}, "unknown metric"),
        ({**SEARCH, "metric": "first-mover", "target": -0.1}, "between 0 and 1"),
        ({**SEARCH, "target": 0}, "between 1 and"),
        ({**SEARCH, "target": 100000}, "the longest these games may last"),
        ({**SEARCH, "vary": {"board_side": [6]}}, "board_side=6 is the only one"),
        ({**SEARCH, "games": 40, "start_games": None}, "at most 50; 3 settings of up to 40 games are 100"),
        ({**SEARCH, "start_games": 5}, "first round plays at most its 4 games"),
        ({**SEARCH, "vary": {"board_side": [5, 99]}}, "99"),
        ({**SEARCH, "mode": "nearest"}, "mode"),
    ]
    for body, words in bad:
        res = client.post("/api/lab/sweeps", json=body)
        assert res.status_code == 400 and words in res.json()["message"], (body, res.text)
    assert client.get("/api/lab").json()["runs"] == []  # nothing stored, nothing started


def test_searches_share_the_quota(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDLAB_LAB_PER_MINUTE", "1")
    with TestClient(create_app(Settings(db_url=f"sqlite:///{tmp_path}/srv.db", ai_workers=1))) as c:
        assert (
            c.post("/api/lab/runs", json={"game": "blast-radius", "options": {"board_side": 5}, "games": 1}).status_code
            == 201
        )
        r = c.post("/api/lab/sweeps", json=SEARCH)
        assert r.status_code == 429 and "lab runs" in r.json()["message"]


def test_a_run_that_ends_between_its_read_and_its_description_is_described_as_it_ended(tmp_path: Path) -> None:
    """The page polls: the server reads a run (still playing), then its worker stores the result and ends, then the
    server describes it. It must say finished with the verdict, not "stopped" with none (a race CI once hit)."""
    from boardlab.server.lab import Lab

    lab = Lab(f"sqlite:///{tmp_path}/lab.db")
    try:
        lab.store.open_run("k", kind="balance", params={"game": "blast-radius"}, total=1)
        read = lab.store.get("k")
        assert read is not None and read.status == "running"
        lab.store.finish("k", {"report": {"verdict": "fine", "title": "Blast Radius"}})  # the worker, meanwhile
        d = lab.describe(read)
        assert (d["status"], d["verdict"]) == ("finished", "fine")
        lab.store.restart("k")  # a run nobody plays any more (the server stopped during it) is still "stopped"
        assert lab.describe(lab.store.get("k"))["status"] == "stopped"  # type: ignore[arg-type]
    finally:
        lab.close()
