"""Per-client quotas: new tables, moves and sockets per table; a refusal is a 429 with Retry-After and changes nothing."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from server_helpers import Api
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from boardlab.server.app import create_app
from boardlab.server.limits import Quotas
from boardlab.server.tables import Settings

BR = {"game": "blast-radius", "options": {"board_side": 5}, "mode": "hotseat"}
TIGHT = Quotas(tables_per_minute=1, tables_burst=3, moves_per_second=0.5, moves_burst=2, sockets_per_table=2)


@pytest.fixture
def tight(tmp_path) -> Iterator[TestClient]:
    app = create_app(Settings(db_url=f"sqlite:///{tmp_path}/q.db", ai_workers=1, ai_delay=0.0, quotas=TIGHT))
    with TestClient(app) as c:
        yield c


def test_new_tables_past_the_burst_get_429_with_retry_after(tight: TestClient) -> None:
    made = [tight.post("/api/tables", json=BR) for _ in range(3)]
    assert [r.status_code for r in made] == [201, 201, 201]
    r = tight.post("/api/tables", json=BR)
    assert r.status_code == 429 and r.json()["error"] == "rate_limited"
    assert 1 <= int(r.headers["retry-after"]) <= 60 and "new tables" in r.json()["message"]
    assert tight.get("/api/health").status_code == 200  # other requests still answer


def test_moves_past_the_burst_are_refused_and_change_nothing(tight: TestClient) -> None:
    api = Api(tight)
    d = api.create(**BR)
    t = d["id"]

    def move() -> tuple[int, object]:
        v = api.view(t, d["tokens"]["0"])
        tok = d["tokens"][str(v["current"])]
        v = api.view(t, tok)
        r = api.move(t, tok, v["revision"], action=v["legal"][0][0])
        return r.status_code, r

    assert [move()[0] for _ in range(2)] == [200, 200]
    before = api.view(t, d["tokens"]["0"])["revision"]
    status, r = move()
    assert status == 429 and int(r.headers["retry-after"]) >= 1  # type: ignore[attr-defined]
    assert api.view(t, d["tokens"]["0"])["revision"] == before  # nothing changed


def test_sockets_per_table_and_address_are_capped(tight: TestClient) -> None:
    d = Api(tight).create(**BR)
    url = f"/api/tables/{d['id']}/ws"
    with tight.websocket_connect(url) as a, tight.websocket_connect(url) as b:
        for ws in (a, b):
            ws.send_text(json.dumps({"type": "hello", "tokens": [d["spectator_token"]]}))
            assert ws.receive_json()["type"] in ("view", "geometry")
        with tight.websocket_connect(url) as c:
            c.send_text(json.dumps({"type": "hello", "tokens": [d["spectator_token"]]}))
            err = c.receive_json()
            assert err["type"] == "error" and err["error"] == "rate_limited"
            with pytest.raises(WebSocketDisconnect) as e:
                c.receive_json()
            assert e.value.code == 4429
    with tight.websocket_connect(url) as again:  # once the others have gone, a new one is welcome
        again.send_text(json.dumps({"type": "hello", "tokens": [d["spectator_token"]]}))
        assert again.receive_json()["type"] in ("view", "geometry")


def test_socket_moves_share_the_quota_and_say_when_to_retry(tight: TestClient) -> None:
    d = Api(tight).create(**BR)
    with tight.websocket_connect(f"/api/tables/{d['id']}/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "tokens": [d["tokens"]["0"], d["tokens"]["1"]]}))
        acks = []
        for i in range(3):
            ws.send_text(json.dumps({"type": "move", "id": i, "seat": 0, "action": 0, "revision": 99}))
            while (m := ws.receive_json())["type"] != "ack":
                pass
            acks.append(m)
        assert [a.get("status") for a in acks] == [409, 409, 429]  # stale, stale, then too fast
        assert acks[2]["error"] == "rate_limited" and acks[2]["retry_after"] >= 1


@pytest.fixture
def few_sockets(tmp_path) -> Iterator[TestClient]:
    quotas = Quotas(sockets_per_table=2, sockets_per_address=3, hello_seconds=0.5)
    app = create_app(Settings(db_url=f"sqlite:///{tmp_path}/s.db", ai_workers=1, ai_delay=0.0, quotas=quotas))
    with TestClient(app) as c:
        yield c


def _hello(ws: object, token: str) -> None:
    ws.send_text(json.dumps({"type": "hello", "tokens": [token]}))  # type: ignore[attr-defined]
    assert ws.receive_json()["type"] in ("view", "geometry")  # type: ignore[attr-defined]


def test_sockets_per_address_are_capped_over_all_tables(few_sockets: TestClient) -> None:
    api = Api(few_sockets)
    t1, t2 = api.create(**BR), api.create(**BR)
    url1, url2 = f"/api/tables/{t1['id']}/ws", f"/api/tables/{t2['id']}/ws"
    with few_sockets.websocket_connect(url1) as a, few_sockets.websocket_connect(url1) as b:
        _hello(a, t1["spectator_token"])
        _hello(b, t1["spectator_token"])
        with few_sockets.websocket_connect(url2) as c:
            _hello(c, t2["spectator_token"])  # each table has room, but the address holds 3 sockets in all
            with few_sockets.websocket_connect(url2) as d:
                err = d.receive_json()  # refused before any hello, with the reason
                assert err["type"] == "error" and err["error"] == "rate_limited"
                assert "all tables" in err["message"]
                with pytest.raises(WebSocketDisconnect) as e:
                    d.receive_json()
                assert e.value.code == 4429 and "at most 3 live connections" in e.value.reason
    with few_sockets.websocket_connect(url2) as again:  # the others have gone: welcome again
        _hello(again, t2["spectator_token"])
    assert few_sockets.app.state.platform.limits.sockets("testclient") == 0  # every socket counted out


def test_a_socket_that_never_says_hello_is_closed_soon_with_the_reason(few_sockets: TestClient) -> None:
    d = Api(few_sockets).create(**BR)
    start = time.monotonic()
    with few_sockets.websocket_connect(f"/api/tables/{d['id']}/ws") as ws, pytest.raises(WebSocketDisconnect) as e:
        ws.receive_json()
    assert time.monotonic() - start < 3
    assert e.value.code == 4408 and e.value.reason == "no hello within 0.5 s"
    assert few_sockets.app.state.platform.limits.sockets("testclient") == 0
