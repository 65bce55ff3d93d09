"""The table chat: seated players write, everyone at the table reads; messages are stored with the table (not in the
game record), limited in length and rate, kept as the literal text (pages show it as text), and sent live."""

from __future__ import annotations

import json

import pytest
from server_helpers import Api, auth

from boardlab.server.errors import ApiError
from boardlab.server.limits import Limits, Quotas
from boardlab.server.store import Store
from boardlab.server.tables import CHAT_MAX

BR = {"game": "blast-radius", "options": {"board_side": 5}}
NASTY = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> & "quotes"'


def say(api: Api, t: str, token: str, text: object) -> object:
    return api.c.post(f"/api/tables/{t}/chat", headers=auth(token), json={"text": text})


def chat(api: Api, t: str, token: str) -> list[dict]:
    r = api.c.get(f"/api/tables/{t}/chat", headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()["messages"]


def test_players_write_and_everyone_reads(api: Api) -> None:
    d = api.create(**BR, mode="online", seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    t, tokens, spectator = d["id"], d["tokens"], d["spectator_token"]
    assert chat(api, t, spectator) == []
    r = say(api, t, tokens["1"], "  good luck  ")
    assert r.status_code == 200, r.text
    assert r.json()["message"]["text"] == "good luck" and r.json()["message"]["name"] == "Bo"
    assert say(api, t, tokens["0"], NASTY).status_code == 200
    got = chat(api, t, spectator)
    assert [(m["seat"], m["name"], m["text"]) for m in got] == [(1, "Bo", "good luck"), (0, "Ann", NASTY)]
    # a spectator reads but does not write; no token, no chat
    r = say(api, t, spectator, "hi")
    assert r.status_code == 403 and "spectators can read" in r.json()["message"]
    assert api.c.get(f"/api/tables/{t}/chat").status_code == 401
    # stored with the table, so a restarted server has it; the game record does not
    assert [m.text for m in Store(api.c.app.state.platform.store.url).chat(t)] == ["good luck", NASTY]
    record = api.c.get(f"/api/tables/{t}/record", headers=auth(tokens["0"])).text
    assert "good luck" not in record


def test_bad_messages_change_nothing(api: Api) -> None:
    d = api.create(**BR, mode="online")
    t, token = d["id"], d["tokens"]["0"]
    for text in ("", "   \n ", "x" * (CHAT_MAX + 1), 5, None):
        r = say(api, t, token, text)
        assert r.status_code == 400, (text, r.text)
    assert say(api, t, token, "x" * CHAT_MAX).status_code == 200
    assert len(chat(api, t, token)) == 1


def test_chat_over_the_socket_reaches_every_page(api: Api, client) -> None:
    d = api.create(**BR, mode="online", seats=[{"kind": "human", "name": "Ann"}, {"kind": "human"}])
    t, tokens = d["id"], d["tokens"]
    with client.websocket_connect(f"/api/tables/{t}/ws") as a, client.websocket_connect(f"/api/tables/{t}/ws") as s:
        a.send_text(json.dumps({"type": "hello", "tokens": [tokens["0"]]}))
        s.send_text(json.dumps({"type": "hello", "tokens": [d["spectator_token"]]}))
        for ws in (a, s):
            while ws.receive_json()["type"] != "view":
                pass
        a.send_text(json.dumps({"type": "chat", "text": "hello <b>all</b>"}))
        for ws in (a, s):
            while (m := ws.receive_json())["type"] != "chat":
                pass
            assert m["message"]["text"] == "hello <b>all</b>" and m["message"]["name"] == "Ann"
        s.send_text(json.dumps({"type": "chat", "text": "can I?"}))
        while (m := s.receive_json())["type"] != "error":
            pass
        assert "spectators" in m["message"]
    assert [m["text"] for m in chat(api, t, tokens["1"])] == ["hello <b>all</b>"]


def test_chat_is_rate_limited() -> None:
    now = [0.0]
    limits = Limits(Quotas(chat_per_second=1.0, chat_burst=2), clock=lambda: now[0])
    limits.chat_sent("a")
    limits.chat_sent("a")
    with pytest.raises(ApiError) as e:
        limits.chat_sent("a")
    assert e.value.status == 429
    limits.chat_sent("b")  # another address has its own allowance
    now[0] = 1.0
    limits.chat_sent("a")
