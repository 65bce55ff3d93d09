"""Crash safety: SIGKILL the server in the middle of play, restart it on the same database, and find
every table at its last acknowledged move (sealed choices included); an AI seat carries on."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx
import pytest

import boardlab
from boardlab.server.launch import ServerProcess

BR = {"game": "blast-radius", "options": {"board_side": 5}}


def H(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def view(c: httpx.Client, t: str, token: str) -> dict[str, Any]:
    r = c.get(f"/api/tables/{t}", headers=H(token))
    assert r.status_code == 200, r.text
    return r.json()


def play(c: httpx.Client, t: str, tokens: dict[str, str], moves: int) -> dict[str, Any]:
    """Play ``moves`` moves (whichever seat is to move); returns the last acknowledged view."""
    v = view(c, t, tokens["0"])
    for _ in range(moves):
        seat = str(v["to_act"][0])
        mv = view(c, t, tokens[seat])
        r = c.post(
            f"/api/tables/{t}/moves",
            headers=H(tokens[seat]),
            json={"action": mv["legal"][0][0], "revision": mv["revision"]},
        )
        assert r.status_code == 200, r.text
        v = r.json()["view"]
    return v


def test_sigkill_and_restart_resume_every_table(server_db: str, tmp_path) -> None:
    db = server_db
    server = ServerProcess(db, log_path=str(tmp_path / "server.log")).start()
    try:
        c = httpx.Client(base_url=server.url, timeout=20)
        quiet = c.post("/api/tables", json={**BR, "mode": "online", "seed": 1}).json()
        quiet_view = play(c, quiet["id"], quiet["tokens"], 5)
        ai = c.post(
            "/api/tables",
            json={**BR, "mode": "ai", "seats": [{"kind": "human"}, {"kind": "ai", "agent": "random"}]},
        ).json()
        play(c, ai["id"], ai["tokens"], 1)  # the AI answers now, or after the restart
        sealed = None
        if "dragon-fight" in boardlab.games():
            sealed = c.post("/api/tables", json={"game": "dragon-fight", "mode": "online"}).json()
            sv = view(c, sealed["id"], sealed["tokens"]["0"])
            r = c.post(
                f"/api/tables/{sealed['id']}/moves",
                headers=H(sealed["tokens"]["0"]),
                json={"action": sv["legal"][0][0], "revision": sv["revision"]},
            )
            assert r.status_code == 200 and r.json()["view"]["submitted"]
        busy = c.post("/api/tables", json={**BR, "mode": "online", "seed": 4}).json()
        acked: list[int] = []
        stop = threading.Event()

        def hammer() -> None:
            with httpx.Client(base_url=server.url, timeout=5) as hc:
                v = view(hc, busy["id"], busy["tokens"]["0"])
                while not stop.is_set() and not v["terminal"]:
                    tok = busy["tokens"][str(v["to_act"][0])]
                    try:
                        mv = view(hc, busy["id"], tok)
                        r = hc.post(
                            f"/api/tables/{busy['id']}/moves",
                            headers=H(tok),
                            json={"action": mv["legal"][0][0], "revision": mv["revision"]},
                        )
                    except httpx.HTTPError:
                        return  # the server died mid-request: that move was never acknowledged
                    if r.status_code != 200:
                        return
                    v = r.json()["view"]
                    acked.append(v["revision"])

        th = threading.Thread(target=hammer)
        th.start()
        deadline = time.monotonic() + 20
        while len(acked) < 6 and time.monotonic() < deadline:
            time.sleep(0.01)
        server.kill()  # SIGKILL, mid-game, with moves in flight
        stop.set()
        th.join(timeout=10)
        assert len(acked) >= 6
        last_acked = acked[-1]
    finally:
        server.stop()

    server = ServerProcess(db, log_path=str(tmp_path / "server2.log")).start()
    try:
        c = httpx.Client(base_url=server.url, timeout=20)
        v = view(c, quiet["id"], quiet["tokens"]["1"])
        assert v["revision"] == quiet_view["revision"] and v["log"] == quiet_view["log"]
        b = view(c, busy["id"], busy["tokens"]["0"])
        # every acknowledged move is there; at most the one in flight when the server died was stored too
        assert last_acked <= b["revision"] <= last_acked + 1
        assert len(b["log"]) == b["revision"]
        if sealed is not None:
            s1 = view(c, sealed["id"], sealed["tokens"]["1"])
            assert s1["submitted_seats"] == [0] and s1["your_turn"]
            assert view(c, sealed["id"], sealed["tokens"]["0"])["submitted"]
        deadline = time.monotonic() + 30
        while not view(c, ai["id"], ai["tokens"]["0"])["your_turn"]:
            assert time.monotonic() < deadline, "the AI did not carry on after the restart"
            time.sleep(0.05)
        assert view(c, ai["id"], ai["tokens"]["0"])["move_number"] == 2
    finally:
        server.stop()


def test_unusable_database_fails_loudly(tmp_path) -> None:
    with pytest.raises(RuntimeError, match="exited"):
        ServerProcess("sqlite:////proc/self/no/such.db", log_path=str(tmp_path / "log")).start(timeout=15)


def test_a_tables_notes_survive_a_restart(tmp_path) -> None:
    from fastapi.testclient import TestClient
    from server_helpers import Api

    from boardlab.server import Settings, create_app
    from boardlab.server.limits import NO_QUOTAS

    settings = Settings(db_url=f"sqlite:///{tmp_path}/notes.db", ai_workers=1, ai_delay=0.0, quotas=NO_QUOTAS)
    with TestClient(create_app(settings)) as c:
        api = Api(c)
        d = api.create(**BR, mode="online", clock={"kind": "move", "seconds": 1})
        deadline = time.monotonic() + 10
        while not (v := api.view(d["id"], d["tokens"]["1"]))["terminal"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert v["notes"] == ["Red ran out of time and loses the game."]
    with TestClient(create_app(settings)) as c:  # stored with the loss, so a restarted server still says it
        assert Api(c).view(d["id"], d["tokens"]["0"])["notes"] == v["notes"]
