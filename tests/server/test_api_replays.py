"""Replays: upload a record, step through frames as a spectator or a seat; bad records are refused."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import boardlab
from boardlab.core.play import random_playout
from boardlab.core.record import GameRecord
from boardlab.server.views import scene_words


def record(game: str = "blast-radius", seed: int = 1, **options: Any) -> dict[str, Any]:
    state, _ = random_playout(boardlab.make(game, **options).new_initial_state(), random.Random(seed))
    return GameRecord.from_state(state, seats=["Ann", "Bo"]).to_dict()


def test_step_through_a_record(client) -> None:
    rec = record(board_side=5)
    r = client.post("/api/replays", json={"record": rec})
    assert r.status_code == 200
    s = r.json()
    assert s["steps"] == len(rec["history"]) and s["finished"] and s["seats"] == ["Ann", "Bo"]
    first = client.get(f"/api/replays/{s['id']}/0").json()
    assert first["step"] == 0 and first["log"] == [] and first["banner"]["title"] == "The start"
    assert len(first["scene"]["cells"]) == 61 and first["scene"]["targets"] == []
    third = client.get(f"/api/replays/{s['id']}/3", params={"seat": 1}).json()
    assert len(third["log"]) == 3 and third["seat"] == 1 and third["log"][0][0] == 0
    last = client.get(f"/api/replays/{s['id']}/{s['steps']}").json()
    assert last["terminal"] and last["banner"]["kind"] == "result"
    assert client.post("/api/replays", json={"record": rec}).json()["id"] == s["id"]  # same record, same id


def test_hidden_information_record_from_each_seat(client) -> None:
    if "hamlet" not in boardlab.games():
        pytest.skip("hamlet is not registered")
    s = client.post("/api/replays", json={"record": record("hamlet", seed=2)}).json()
    for seat in (None, 0, 1):
        params = {} if seat is None else {"seat": seat}
        f = client.get(f"/api/replays/{s['id']}/{s['steps'] // 2}", params=params)
        assert f.status_code == 200 and f.json()["seat"] == seat


@pytest.mark.parametrize(
    ("rec", "words"),
    [
        ({"game": "blast-radius"}, "lacks history"),
        ({"game": "nope", "history": []}, "unknown game"),
        ({"game": "blast-radius", "history": ["a1"]}, "action numbers"),
        ({"game": "blast-radius", "history": [0, 0]}, "step 1"),
        ({"game": "blast-radius", "options": {"board_side": 4}, "history": []}, "board_side"),
        ({"game": "blast-radius", "history": [], "rules_version": "99"}, "rules version"),
        ({"game": "blast-radius", "history": [], "num_players": 5}, "played by 2"),
    ],
)
def test_bad_records_are_400(client, rec: dict[str, Any], words: str) -> None:
    r = client.post("/api/replays", json={"record": rec})
    assert r.status_code == 400, r.text
    assert words in r.json()["message"]


def test_bad_frames(client) -> None:
    s = client.post("/api/replays", json={"record": record(board_side=5)}).json()
    assert client.get(f"/api/replays/{s['id']}/{s['steps'] + 1}").status_code == 400
    assert client.get(f"/api/replays/{s['id']}/0", params={"seat": 2}).status_code == 400
    assert client.get(f"/api/replays/{s['id']}/x").status_code == 400
    assert client.get("/api/replays/unknown/0").status_code == 404
    assert client.post("/api/replays", json={"record": "text"}).status_code == 400
    assert client.post("/api/replays", json={}).status_code == 400


def test_frames_match_a_direct_replay_across_checkpoints(client) -> None:
    rec = record(seed=3)  # side 6: well past the first checkpoint
    s = client.post("/api/replays", json={"record": rec}).json()
    assert s["steps"] > 70
    full = GameRecord.from_dict(rec)
    for k in (0, 31, 32, 33, 64, 65, s["steps"]):
        frame = client.get(f"/api/replays/{s['id']}/{k}").json()
        state = full.replay(upto=k)
        # the game's scene, in the record's names ("Ann (Red)" in the players list, not "seat 0 (Red)")
        assert frame["scene"] == scene_words(state.game.scene(state.observation(None), []), ["Ann", "Bo"]), k


def test_a_replay_log_is_what_the_chosen_viewer_read_then(client) -> None:
    """A seat's log shows the other seat's deals face down, a spectator's every deal, to the end; reveal: all; the
    record's names for the seats."""
    s = client.post("/api/replays", json={"record": record("hamlet", seed=2, first="seat0")}).json()
    spectator = client.get(f"/api/replays/{s['id']}/2").json()["log"]
    seat0 = client.get(f"/api/replays/{s['id']}/2", params={"seat": 0}).json()["log"]
    assert spectator == [[-1, "dealt a card to Ann"], [-1, "dealt a card to Bo"]]
    assert seat0[0][1].startswith("dealt ") and seat0[0][1] != "dealt a card to Ann"
    assert seat0[1] == [-1, "dealt a card to Bo"]
    end = client.get(f"/api/replays/{s['id']}/{s['steps']}").json()["log"]
    assert end[:2] == spectator
    everything = client.get(f"/api/replays/{s['id']}/{s['steps']}", params={"reveal": "true"}).json()["log"]
    assert everything[1][1] != "dealt a card to Bo" and all("a card" not in text for _, text in everything[:2])
    assert client.get(f"/api/replays/{s['id']}/2", params={"reveal": "true"}).json()["log"] == everything[:2]


def test_the_replay_cache_is_bounded_by_bytes_as_well_as_count() -> None:
    from boardlab.server.replay import ReplayCache

    records = [record(board_side=5, seed=s) for s in range(6)]
    cache = ReplayCache(size=32, max_bytes=1)  # nothing fits: only the newest is kept, so the viewer can use it
    for rec in records:
        kept = cache.add(rec)
        assert cache.get(kept.id) is kept and len(cache._items) == 1
    one = len(json.dumps(records[0], sort_keys=True, separators=(",", ":")))
    cache = ReplayCache(size=32, max_bytes=3 * one)
    ids = [cache.add(rec).id for rec in records]
    assert cache.bytes <= 3 * one and 1 <= len(cache._items) <= 3
    assert ids[-1] in cache._items and ids[0] not in cache._items  # the oldest went first


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": "chess-pgn"}, "format is 'boardlab-record/1'"),
        ({"seats": ["Ann", "B\no"]}, "printable"),
        ({"seats": ["x" * 65, "Bo"]}, "1-64"),
        ({"seats": "Ann"}, "seats are"),
        ({"meta": {"junk": "x" * 70_000}}, "meta is a JSON object of at most"),
        ({"options": {"board_side": "5"}}, "is a number (int), not '5'"),
    ],
)
def test_uploaded_records_are_checked_strictly(client, change: dict[str, Any], words: str) -> None:
    rec = {**record(board_side=5), **change}
    r = client.post("/api/replays", json={"record": rec})
    assert r.status_code == 400 and words in r.json()["message"], r.text
