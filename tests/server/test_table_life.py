"""A table's life on the server: start-up loads only the tables whose AI must carry on; abandoned tables expire."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import time
from typing import Any

import pytest
from server_helpers import Api
from sqlalchemy import text
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from boardlab.server.app import create_app
from boardlab.server.limits import NO_QUOTAS
from boardlab.server.tables import Platform, Settings

BR: dict[str, Any] = {"game": "blast-radius", "options": {"board_side": 5}}


def _run(coro: Any) -> Any:
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # an event loop of its own
        return pool.submit(asyncio.run, coro).result()


def test_start_up_loads_only_the_unfinished_tables_with_ai_seats(tmp_path) -> None:
    url = f"sqlite:///{tmp_path}/life.db"

    async def make() -> dict[str, str]:
        p = Platform(Settings(db_url=url, ai_delay=0.0, resume_ai=False, quotas=NO_QUOTAS))
        await p.start()
        try:
            human, *_ = await p.create(BR["game"], BR["options"], None, "hotseat", None, None, None)
            seats = [{"kind": "human"}, {"kind": "ai", "agent": "random"}]
            ai, *_ = await p.create(BR["game"], BR["options"], None, "ai", seats, None, None)
            return {"human": human.id, "ai": ai.id}
        finally:
            await p.stop()

    async def restart(ids: dict[str, str]) -> None:
        p = Platform(Settings(db_url=url, ai_delay=0.0, quotas=NO_QUOTAS))
        await p.start()
        try:
            for _ in range(200):
                if ids["ai"] in p.tables:
                    break
                await asyncio.sleep(0.02)
            assert set(p.tables) == {ids["ai"]}  # the hot-seat table waits until someone asks for it
            assert (await p.get(ids["human"])).id == ids["human"]
        finally:
            await p.stop()

    _run(restart(_run(make())))


def test_abandoned_tables_expire_and_say_so(tmp_path) -> None:
    settings = Settings(db_url=f"sqlite:///{tmp_path}/exp.db", ai_workers=1, ai_delay=0.0, quotas=NO_QUOTAS)
    with TestClient(create_app(settings)) as client:
        api = Api(client)
        old = api.create(**BR, mode="hotseat")
        watched = api.create(**BR, mode="hotseat")
        platform: Platform = client.app.state.platform  # type: ignore[attr-defined]
        fresh = api.create(**BR, mode="hotseat")
        with platform.store.engine.begin() as c:  # the first two last moved an hour ago
            c.execute(
                text("UPDATE tables SET updated_at = :t WHERE id IN (:a, :b)"),
                {"t": time.time() - 3600, "a": old["id"], "b": watched["id"]},
            )
        platform.settings.expire_after = 600.0
        with client.websocket_connect(f"/api/tables/{watched['id']}/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "tokens": [watched["spectator_token"]]}))
            ws.receive_json()
            expired = client.portal.call(platform.expire)  # type: ignore[attr-defined]
        assert expired == [old["id"]]  # someone is watching the other one, and the newest is not idle
        r = client.get(f"/api/tables/{old['id']}", headers={"Authorization": f"Bearer {old['tokens']['0']}"})
        assert r.status_code == 410 and r.json()["error"] == "expired"
        for t in (watched, fresh):
            assert api.view(t["id"], t["tokens"]["0"])["revision"] == 0


def test_an_expired_table_refuses_its_socket_with_4410(tmp_path) -> None:
    settings = Settings(db_url=f"sqlite:///{tmp_path}/exp2.db", ai_workers=1, ai_delay=0.0, quotas=NO_QUOTAS)
    with TestClient(create_app(settings)) as client:
        d = Api(client).create(**BR, mode="hotseat")
        platform: Platform = client.app.state.platform  # type: ignore[attr-defined]
        platform.settings.expire_after = 1e-9
        time.sleep(0.01)
        assert client.portal.call(platform.expire) == [d["id"]]  # type: ignore[attr-defined]
        with client.websocket_connect(f"/api/tables/{d['id']}/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "tokens": [d["tokens"]["0"]]}))
            assert ws.receive_json()["error"] == "expired"
            with pytest.raises(WebSocketDisconnect) as e:
                ws.receive_json()
            assert e.value.code == 4410
