"""Live updates over the WebSocket: hello, views, presence, switching views, moves with acknowledgements."""

from __future__ import annotations

import json
from typing import Any

import pytest
from server_helpers import Api
from starlette.websockets import WebSocketDisconnect

BR = {"game": "blast-radius", "options": {"board_side": 5}, "mode": "online"}


def next_view(ws: Any) -> dict[str, Any]:
    while True:
        m = ws.receive_json()
        if m["type"] == "view":
            return m["view"]


def hello(ws: Any, tokens: list[str], **extra: Any) -> None:
    ws.send_text(json.dumps({"type": "hello", "tokens": tokens, **extra}))


def test_hello_view_presence_and_moves(api: Api, client) -> None:
    d = api.create(**BR, seed=1)
    t, tok0, tok1 = d["id"], d["tokens"]["0"], d["tokens"]["1"]
    with client.websocket_connect(f"/api/tables/{t}/ws") as ws0:
        hello(ws0, [tok0])
        first = ws0.receive_json()
        assert first["type"] == "geometry" and len(first["geometry"]["cells"]) == 61
        v = next_view(ws0)
        assert v["seat"] == 0 and v["your_turn"]
        assert [s["present"] for s in v["seats"]] == [True, False]
        with client.websocket_connect(f"/api/tables/{t}/ws") as ws1:
            hello(ws1, [tok1])
            assert next_view(ws1)["seats"][0]["present"]
            # seat 0 learns that seat 1 arrived, in a small message rather than a whole view
            msg = ws0.receive_json()
            assert {k: msg[k] for k in ("type", "present", "away_since")} == {
                "type": "presence",
                "present": [True, True],
                "away_since": [None, None],
            }
            ws0.send_text(json.dumps({"type": "move", "id": 7, "seat": 0, "action": v["legal"][0][0], "revision": 0}))
            moved = next_view(ws0)
            assert moved["revision"] == 1
            ack = ws0.receive_json()
            assert ack == {"type": "ack", "id": 7, "ok": True, "revision": 1}
            assert next_view(ws1)["your_turn"]
            # refusals come back as failed acknowledgements and change nothing
            ws1.send_text(json.dumps({"type": "move", "id": "x", "seat": 0, "action": 1, "revision": 1}))
            nack = ws1.receive_json()
            assert nack["ok"] is False and nack["status"] == 403
            ws1.send_text(json.dumps({"type": "move", "id": 2, "seat": 1, "action": 1, "revision": 0}))
            assert ws1.receive_json()["error"] == "stale"
            ws1.send_text(json.dumps({"type": "move", "id": 3, "seat": 1, "action": True, "revision": 1}))
            assert ws1.receive_json()["status"] == 400
            ws1.send_text(json.dumps({"type": "ping"}))
            assert ws1.receive_json() == {"type": "pong"}
            ws1.send_text("not json")
            assert ws1.receive_json()["error"] == "bad_request"
            ws1.send_text(json.dumps({"type": "dance"}))
            assert "unknown message" in ws1.receive_json()["message"]
        msg = ws0.receive_json()  # seat 1 left: away from now on
        assert msg["type"] == "presence" and msg["present"] == [True, False]
        assert msg["away_since"][0] is None and isinstance(msg["away_since"][1], float)
        assert api.view(t, tok0)["seats"][1]["present"] is False  # and views say so
    assert api.view(t, tok0)["revision"] == 1


def test_spectators_coming_and_going_send_nothing_to_the_players(api: Api, client) -> None:
    d = api.create(**BR)
    t, tok0 = d["id"], d["tokens"]["0"]
    with client.websocket_connect(f"/api/tables/{t}/ws") as ws0:
        hello(ws0, [tok0])
        next_view(ws0)
        for _ in range(5):
            with client.websocket_connect(f"/api/tables/{t}/ws") as spectator:
                hello(spectator, [d["spectator_token"]])
                assert next_view(spectator)["seat"] is None
        ws0.send_text(json.dumps({"type": "ping"}))
        assert ws0.receive_json() == {"type": "pong"}  # the first message seat 0 got since its view


def test_view_as_switches_between_seat_and_public_views(api: Api, client) -> None:
    d = api.create(game="blast-radius", options={"board_side": 5}, mode="hotseat", seed=2)
    t, tok0, tok1 = d["id"], d["tokens"]["0"], d["tokens"]["1"]
    with client.websocket_connect(f"/api/tables/{t}/ws") as ws:
        hello(ws, [tok0, tok1], view=None)
        v = next_view(ws)
        assert v["seat"] is None and [s["present"] for s in v["seats"]] == [True, True]
        ws.send_text(json.dumps({"type": "view_as", "token": tok1}))
        assert next_view(ws)["seat"] == 1
        ws.send_text(json.dumps({"type": "view_as", "token": "forged"}))
        assert ws.receive_json()["error"] == "forbidden"


@pytest.mark.parametrize(
    ("first", "code"),
    [
        ({"type": "hi"}, 4400),
        ({"type": "hello", "tokens": []}, 4400),
        ({"type": "hello", "tokens": "abc"}, 4400),
        ({"type": "hello", "tokens": ["wrong"]}, 4403),
    ],
)
def test_bad_hello_is_refused(api: Api, client, first: dict[str, Any], code: int) -> None:
    d = api.create(**BR)
    with client.websocket_connect(f"/api/tables/{d['id']}/ws") as ws:
        ws.send_text(json.dumps(first))
        assert ws.receive_json()["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as e:
            ws.receive_json()
        assert e.value.code == code


def test_binary_frames_and_deep_nesting_get_an_error_and_keep_the_socket(api: Api, client) -> None:
    d = api.create(**BR)
    with client.websocket_connect(f"/api/tables/{d['id']}/ws") as ws:
        ws.send_bytes(b"\x00\x01hello")  # as the first message: refused with a close code, not dropped
        assert "binary" in ws.receive_json()["message"]
        with pytest.raises(WebSocketDisconnect) as e:
            ws.receive_json()
        assert e.value.code == 4400
    with client.websocket_connect(f"/api/tables/{d['id']}/ws") as ws:
        hello(ws, [d["tokens"]["0"]])
        view = next_view(ws)
        ws.send_bytes(json.dumps({"type": "ping"}).encode())
        err = ws.receive_json()
        assert err["type"] == "error" and err["error"] == "bad_request" and "binary" in err["message"]
        ws.send_text("[" * 4000 + "]" * 10)
        err = ws.receive_json()
        assert err["error"] == "bad_request" and "nested" in err["message"]
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws.receive_json() == {"type": "pong"}  # the socket still works
        assert view["revision"] == 0


def test_unknown_table_socket(client) -> None:
    with client.websocket_connect("/api/tables/nothing/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "tokens": ["x"]}))
        assert ws.receive_json()["error"] == "not_found"
        with pytest.raises(WebSocketDisconnect) as e:
            ws.receive_json()
        assert e.value.code == 4404


def test_undo_over_the_socket(api: Api, client) -> None:
    d = api.create(game="blast-radius", options={"board_side": 5}, mode="hotseat", seed=3)
    t, tok0, tok1 = d["id"], d["tokens"]["0"], d["tokens"]["1"]
    a = api.view(t, tok0)["legal"][0][0]
    with client.websocket_connect(f"/api/tables/{t}/ws") as ws:
        hello(ws, [tok0, tok1])
        next_view(ws)
        ws.send_text(json.dumps({"type": "move", "id": 1, "seat": 0, "action": a, "revision": 0}))
        next_view(ws)
        assert ws.receive_json()["ok"]
        ws.send_text(json.dumps({"type": "undo", "id": 2, "seat": 1, "revision": 1}))
        assert next_view(ws)["move_number"] == 0
        assert ws.receive_json() == {"type": "ack", "id": 2, "ok": True, "revision": 2}


def view_where(ws: Any, test: Any) -> dict[str, Any]:
    """The next view that passes ``test`` (presence updates may come first); acknowledgements are skipped."""
    while True:
        v = next_view(ws)
        if test(v):
            return v


def test_a_simultaneous_reveal_clears_every_sealed_choice_in_pushed_and_cached_views(api: Api, client) -> None:
    """Once both Dragon Fight seats have sealed, nobody's view still shows a sealed choice pending."""
    d = api.create(game="dragon-fight", options={}, mode="online")
    t, tok0, tok1 = d["id"], d["tokens"]["0"], d["tokens"]["1"]
    with client.websocket_connect(f"/api/tables/{t}/ws") as ws0, client.websocket_connect(f"/api/tables/{t}/ws") as ws1:
        hello(ws0, [tok0])
        v0 = view_where(ws0, lambda v: v["your_turn"])
        hello(ws1, [tok1])
        v1 = view_where(ws1, lambda v: v["your_turn"])
        assert ws0.receive_json()["type"] == "presence"
        assert v0["current"] == -2  # both choose at once
        move0 = {"type": "move", "id": 1, "seat": 0, "action": v0["legal"][0][0], "revision": v0["revision"]}
        ws0.send_text(json.dumps(move0))
        sealed = view_where(ws0, lambda v: v["submitted_seats"])  # sealing changes no revision
        assert sealed["submitted_seats"] == [0] and sealed["banner"]["kind"] == "submitted"
        v1 = view_where(ws1, lambda v: v["submitted_seats"])
        assert v1["submitted_seats"] == [0] and v1["your_turn"] and v1["revision"] == sealed["revision"]
        move1 = {"type": "move", "id": 2, "seat": 1, "action": v1["legal"][0][0], "revision": v1["revision"]}
        ws1.send_text(json.dumps(move1))
        after0 = view_where(ws0, lambda v: v["revision"] > sealed["revision"])
        after1 = view_where(ws1, lambda v: v["revision"] > sealed["revision"])
        for view in (after0, after1, api.view(t, tok0), api.view(t, tok1)):
            assert view["revision"] == sealed["revision"] + 1
            assert view["submitted_seats"] == [] and view["submitted"] is None
            assert not any(s["submitted"] for s in view["seats"])
            assert view["banner"]["kind"] != "submitted" and view["undo_label"] == "Undo"
