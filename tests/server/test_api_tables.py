"""Tables over HTTP: creating, viewing, moving, undoing, records; every refusal is a 4xx JSON error
that changes nothing."""

from __future__ import annotations

import json
import re
import threading
import time
from typing import Any

import pytest
from server_helpers import Api, auth

BR = {"game": "blast-radius", "options": {"board_side": 5}}


def online(api: Api, **extra: Any) -> dict[str, Any]:
    return api.create(**BR, mode="online", seed=1, **extra)


def wait_for(fn: Any, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out = fn()
        if out:
            return out
        time.sleep(0.02)
    raise AssertionError("timed out")


# -- creating -------------------------------------------------------------------
def test_create_online_table(api: Api) -> None:
    d = online(api)
    assert set(d["tokens"]) == {"0", "1"} and d["host_seat"] == 0
    assert d["links"]["host"].endswith("#t=" + d["tokens"]["0"])
    assert d["links"]["spectator"].endswith(d["spectator_token"])
    assert d["table"]["options"] == {"board_side": 5, "pie": False}
    assert [s["kind"] for s in d["seats"]] == ["human", "human"]


def test_create_against_ai_gives_tokens_for_human_seats_only(api: Api) -> None:
    d = api.create(**BR, mode="ai", seats=[{"kind": "ai", "agent": "random"}, {"kind": "human", "name": "Ada"}])
    assert list(d["tokens"]) == ["1"] and d["host_seat"] == 1
    assert d["seats"][1]["name"] == "Ada" and d["seats"][0]["agent"] == "random"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "blast-radius", "options": {"board_side": 9}}, "allowed: 5, 6, 7"),
        ({"game": "blast-radius", "options": {"colour": "red"}}, "unknown option 'colour'"),
        ({"game": "blast-radius", "options": {"board_side": "five"}}, "board_side"),
        ({"game": "blast-radius", "options": [1]}, "options"),
        ({"game": "blast-radius", "num_players": 3}, "played by 2 players"),
        ({"game": "blast-radius", "mode": "lan"}, "mode"),
        ({"game": "blast-radius", "seats": [{"kind": "human"}]}, "one seat per player"),
        ({"game": "blast-radius", "seats": [{"kind": "human"}, {"kind": "ai", "agent": "deep-blue"}]}, "unknown agent"),
        ({"game": "blast-radius", "seats": [{"kind": "human", "agent": "random"}, {"kind": "human"}]}, "human seat"),
        ({"game": "blast-radius", "mode": "ai", "seats": [{"kind": "human"}, {"kind": "human"}]}, "AI seat"),
        ({"game": "blast-radius", "mode": "hotseat", "seats": [{"kind": "ai"}, {"kind": "ai"}]}, "human seat"),
        ({"game": "blast-radius", "seats": [{"kind": "human", "name": "<b>"}, {"kind": "ai"}]}, "name"),
        ({"game": "blast-radius", "host_seat": 1}, "host_seat"),
        ({"game": "blast-radius", "surprise": True}, "surprise"),
        ({"game": 5}, "game"),
        ({}, "game"),
    ],
)
def test_bad_table_requests_are_400(client, body: dict[str, Any], words: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_request"
    assert words.lower() in r.json()["message"].lower()


def test_malformed_bodies(client) -> None:
    r = client.post("/api/tables", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "JSON" in r.json()["message"]
    r = client.post("/api/tables", content=b"x" * 3_000_000, headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/tables")
    assert r.status_code == 400


def test_a_chunked_body_is_counted_as_it_streams(client) -> None:
    """No Content-Length (chunked upload): the body limit still holds, and nothing of the body is replayed."""

    def chunks(total: int):
        yield b'{"record": {"meta": "'
        for _ in range(total // 65536):
            yield b"x" * 65536
        yield b'"}}'

    r = client.post("/api/replays", content=chunks(3_000_000), headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    r = client.post("/api/replays", content=chunks(100_000), headers={"Content-Type": "application/json"})
    assert r.status_code == 400  # under the limit: read, and refused as a record


# -- viewing --------------------------------------------------------------------
def test_tokens_decide_who_sees_what(api: Api, client) -> None:
    d = online(api)
    t = d["id"]
    v0 = api.view(t, d["tokens"]["0"])
    assert v0["seat"] == 0 and v0["your_turn"] and v0["legal"] and v0["can_undo"] is False
    v1 = api.view(t, d["tokens"]["1"])
    assert v1["seat"] == 1 and not v1["your_turn"] and v1["legal"] == []
    spectator = api.view(t, d["spectator_token"])
    assert spectator["seat"] is None and spectator["legal"] == [] and spectator["scene"]["targets"] == []
    assert api.view(t, d["tokens"]["0"], public="true")["seat"] is None
    assert client.get(f"/api/tables/{t}").status_code == 401
    assert client.get(f"/api/tables/{t}", headers={"Authorization": "Basic xyz"}).status_code == 401
    assert client.get(f"/api/tables/{t}", headers=auth("not-a-token")).status_code == 403
    other = online(api)
    assert client.get(f"/api/tables/{t}", headers=auth(other["tokens"]["0"])).status_code == 403
    r = client.get("/api/tables/nonexistent", headers=auth(d["tokens"]["0"]))
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    assert client.get("/api/tables/bad%20id!", headers=auth("x")).status_code == 404


def test_view_shape(api: Api) -> None:
    d = online(api)
    v = api.view(d["id"], d["tokens"]["0"])
    for key in ("table", "revision", "seats", "banner", "scene", "legal", "log", "to_act", "terminal"):
        assert key in v
    assert v["banner"]["kind"] == "turn" and v["banner"]["title"] == "Your turn"
    scene = v["scene"]
    assert scene["geometry"] and len(scene["cell_fills"]) == 61 and "cells" not in scene
    g = api.c.get(f"/api/geometry/{scene['geometry']}")
    assert g.status_code == 200 and len(g.json()["cells"]) == 61
    assert "immutable" in g.headers["cache-control"]
    assert api.c.get("/api/geometry/unknown").status_code == 404


# -- moving ---------------------------------------------------------------------
def test_moves_and_refusals(api: Api) -> None:
    d = online(api)
    t, tok0, tok1 = d["id"], d["tokens"]["0"], d["tokens"]["1"]
    v = api.view(t, tok0)
    a = v["legal"][0][0]
    r = api.move(t, tok1, 0, action=a)
    assert r.status_code == 409 and r.json()["error"] == "not_your_turn"
    r = api.move(t, tok0, 5, action=a)
    assert r.status_code == 409 and r.json()["error"] == "stale" and r.json()["revision"] == 0
    r = api.move(t, tok0, 0, action=10_000)
    assert r.status_code == 422 and "not an action of this game" in r.json()["message"]
    r = api.move(t, tok0, 0, action=a, label="a1")
    assert r.status_code == 400
    r = api.move(t, tok0, 0)
    assert r.status_code == 400
    for bad in ("5", True, 1.5, None):
        r = api.c.post(f"/api/tables/{t}/moves", headers=auth(tok0), json={"action": bad, "revision": 0})
        assert r.status_code == 400, bad
    r = api.move(t, d["spectator_token"], 0, action=a)
    assert r.status_code == 403
    assert api.view(t, tok0)["revision"] == 0  # nothing above changed the table
    r = api.move(t, tok0, 0, action=a)
    assert r.status_code == 200 and r.json()["revision"] == 1
    # the log words the move for players; the move list keeps its notation ("a1")
    assert r.json()["view"]["log"] == [[0, f"builds a tower on {v['legal'][0][1]}"]]
    # the same cell again is illegal now: the explanation says why
    v1 = api.view(t, tok1)
    r = api.move(t, tok1, 1, action=a)
    assert r.status_code == 422 and r.json()["error"] == "illegal_move"
    assert "not legal" in r.json()["message"]
    r = api.move(t, tok1, 1, label=v1["legal"][-1][1])
    assert r.status_code == 200 and r.json()["revision"] == 2
    r = api.move(t, tok0, 2, label="zz99")
    assert r.status_code == 422 and "not a legal move" in r.json()["message"]
    r = api.c.post(
        f"/api/tables/{t}/moves?view=false",
        headers=auth(tok0),
        json={"action": api.view(t, tok0)["legal"][0][0], "revision": 2},
    )
    assert r.status_code == 200 and "view" not in r.json()


def test_concurrent_conflicting_moves_exactly_one_wins(api: Api) -> None:
    d = online(api)
    t, tok0 = d["id"], d["tokens"]["0"]
    legal = [a for a, _ in api.view(t, tok0)["legal"]]
    results: list[int] = []
    barrier = threading.Barrier(8)

    def go(a: int) -> None:
        barrier.wait()
        results.append(api.move(t, tok0, 0, action=a).status_code)

    threads = [threading.Thread(target=go, args=(legal[i],)) for i in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(results) == [200] + [409] * 7
    v = api.view(t, tok0)
    assert v["revision"] == 1 and len(v["log"]) == 1


def test_game_against_ai_to_the_end_then_record(api: Api) -> None:
    d = api.create(**BR, mode="ai", seats=[{"kind": "human"}, {"kind": "ai", "agent": "random"}])
    t, tok = d["id"], d["tokens"]["0"]
    v = api.view(t, tok)
    while not v["terminal"]:
        if v["your_turn"]:
            r = api.move(t, tok, v["revision"], action=v["legal"][-1][0])
            assert r.status_code == 200, r.text
            v = r.json()["view"]
        else:
            v = wait_for(lambda: (lambda w: w if (w["your_turn"] or w["terminal"]) else None)(api.view(t, tok)))
    assert v["banner"]["kind"] == "result" and v["result"]["winners"]
    assert v["banner"]["title"] in ("You win!", "You lose: Blue wins.")
    r = api.move(t, tok, v["revision"], action=0)
    assert r.status_code == 409 and r.json()["error"] == "game_over"
    rec = api.c.get(f"/api/tables/{t}/record", headers=auth(tok))
    assert rec.status_code == 200 and "attachment" in rec.headers["content-disposition"]
    data = rec.json()
    assert data["game"] == "blast-radius" and len(data["history"]) == v["move_number"]
    assert data["result"]["winners"] == v["result"]["winners"]
    from boardlab.core.record import GameRecord

    assert GameRecord.from_dict(data).replay().is_terminal()


def test_ai_thinks_then_moves(api: Api) -> None:
    d = api.create(**BR, mode="ai", seats=[{"kind": "ai", "agent": "random"}, {"kind": "human"}])
    t, tok = d["id"], d["tokens"]["1"]
    v = wait_for(lambda: (lambda w: w if w["your_turn"] else None)(api.view(t, tok)))
    assert v["log"][0][0] == 0 and v["seats"][0]["kind"] == "ai"


def test_undo_against_ai_takes_back_the_ai_reply_too(api: Api) -> None:
    d = api.create(**BR, mode="ai", seats=[{"kind": "human"}, {"kind": "ai", "agent": "random"}])
    t, tok = d["id"], d["tokens"]["0"]
    v = api.view(t, tok)
    assert not v["can_undo"]
    r = api.undo(t, tok, 0)
    assert r.status_code == 409 and r.json()["error"] == "cannot_undo"
    api.move(t, tok, 0, action=v["legal"][0][0])
    v = wait_for(lambda: (lambda w: w if w["your_turn"] else None)(api.view(t, tok)))
    assert v["move_number"] == 2 and v["can_undo"]
    r = api.undo(t, tok, v["revision"])
    assert r.status_code == 200
    after = r.json()["view"]
    assert after["move_number"] == 0 and after["your_turn"] and after["revision"] == v["revision"] + 1


def test_undo_online_only_within_your_own_turn(api: Api) -> None:
    d = online(api)
    t, tok0, tok1 = d["id"], d["tokens"]["0"], d["tokens"]["1"]
    api.move(t, tok0, 0, action=api.view(t, tok0)["legal"][0][0])
    r = api.undo(t, tok0, 1)
    assert r.status_code == 409 and "own turn" in r.json()["message"]
    r = api.undo(t, tok1, 1)
    assert r.status_code == 409
    assert api.view(t, tok0)["move_number"] == 1


def test_hotseat_undo_takes_back_the_last_decision(api: Api) -> None:
    d = api.create(**BR, mode="hotseat", seed=6)
    t, tok0, tok1 = d["id"], d["tokens"]["0"], d["tokens"]["1"]
    assert d["links"]["host"].endswith(f"#t={tok0},{tok1}")
    api.move(t, tok0, 0, action=api.view(t, tok0)["legal"][0][0])
    api.move(t, tok1, 1, action=api.view(t, tok1)["legal"][0][0])
    r = api.undo(t, tok0, 2)
    assert r.status_code == 200 and r.json()["view"]["move_number"] == 1
    assert api.view(t, tok1)["your_turn"]


def test_record_of_unfinished_perfect_information_game(api: Api) -> None:
    d = online(api)
    r = api.c.get(f"/api/tables/{d['id']}/record", headers=auth(d["spectator_token"]))
    assert r.status_code == 200 and r.json()["history"] == []
    assert api.c.get(f"/api/tables/{d['id']}/record").status_code == 401


@pytest.mark.parametrize(
    ("options", "words"),
    [({"board_side": "6"}, "is a number (int), not '6'"), ({"pie": 1}, "is true or false, not 1")],
)
def test_options_are_not_coerced_from_other_json_types(client, options: dict, words: str) -> None:
    r = client.post("/api/tables", json={"game": "blast-radius", "options": options, "mode": "hotseat"})
    assert r.status_code == 400 and words in r.json()["message"], r.text


def test_the_scene_names_the_players_the_table_chose(api: Api) -> None:
    """Hamlet has no seat colours: its zone titles and status say "Player 2" unless the table has names."""
    d = api.create(
        game="hamlet",
        mode="hotseat",
        seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}],
    )
    token = next(iter(d["tokens"].values()))
    view = api.view(d["table"]["id"], token)
    words = json.dumps([view["scene"].get("status"), [z.get("title") for z in view["scene"]["zones"]]])
    assert "Bo" in words or "Ann" in words, words
    assert "Seat 0" not in words and "Seat 1" not in words and "seat 1" not in words, words


def test_seats_nobody_named_are_players_counted_from_one_or_their_colour(api: Api) -> None:
    """No "Seat 0" reaches a player: unnamed seats are "Player 1", "Player 2" (or the game's colour), everywhere."""
    d = api.create(game="hamlet", mode="hotseat")
    token = next(iter(d["tokens"].values()))
    view = api.view(d["table"]["id"], token)
    assert [s["name"] for s in view["seats"]] == ["Player 1", "Player 2"]
    words = json.dumps([view["scene"].get("status"), [z.get("title") for z in view["scene"]["zones"]], view["log"]])
    assert "Player 2" in words and not re.search(r"\b[Ss]eat [0-9]", words), words
    coloured = api.create(game="cirque", mode="ai", seats=[{"kind": "human"}, {"kind": "ai", "agent": "random"}])
    seats = api.view(coloured["table"]["id"], next(iter(coloured["tokens"].values())))["seats"]
    assert [s["name"] for s in seats] == ["Orange", "Blue (random AI)"]
