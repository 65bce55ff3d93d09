"""Turn clocks (a table option): per move or per game; when a seat's time runs out the server plays the game's
default move for it (its pass, where the rules allow one then) or the seat loses. Clocks are stored with the table
and survive a restart. The limits are tiny here (1-2 s) so the tests stay cheap."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from server_helpers import Api

import boardlab
from boardlab.server.clock import charge, deadline, new_clock, remaining, start
from boardlab.server.store import Store

BR = {"game": "blast-radius", "options": {"board_side": 5}}
#: A Radius game (board side 4) in which, after these moves, the seat to move is blocked and may only pass.
RADIUS = {"game": "radius", "options": {"board_side": 4}}
TO_PASS = [0, 29, 2, 34, 2, 3, 2, 29, 9, 15, 10, 16, 0, 25, 24, 26, 30, 31, 34, 23, 29, 17, 3, 12, 13, 18, 23, 6, 5,
           7, 11, 25, 8, 7, 3, 14, 6, 1, 0, 12, 6, 12, 9, 4, 9, 8, 19, 25, 20]  # fmt: skip


def wait_for(api: Api, t: str, token: str, cond: Any, timeout: float = 8.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = api.view(t, token)
        if cond(v):
            return v
        time.sleep(0.05)
    raise AssertionError(f"condition not met; last view banner {v['banner']}")


def test_clock_arithmetic() -> None:
    c = start(new_clock({"kind": "game", "seconds": 10}, 2), 100.0)
    c = charge(c, [1], 104.0)
    assert c["left"] == [10.0, 6.0] and deadline(c, 1) == 110.0
    assert remaining(c, 1, [1], 105.0) == 5.0 and remaining(c, 0, [1], 105.0) == 10.0
    m = start(new_clock({"kind": "move", "seconds": 3}, 2), 50.0)
    assert deadline(m, 0) == 53.0 and charge(m, [0], 51.0, new_turn=False)["since"] == 50.0
    assert new_clock({"kind": "none"}, 2) is None


def test_bad_clocks_are_refused(api: Api) -> None:
    for clock in ({"kind": "move"}, {"kind": "hour", "seconds": 5}, {"kind": "move", "seconds": 0.2}):
        r = api.c.post("/api/tables", json={**BR, "mode": "online", "clock": clock})
        assert r.status_code == 400, (clock, r.text)


def test_a_move_clock_running_out_without_a_default_move_loses(api: Api) -> None:
    d = api.create(**BR, mode="online", clock={"kind": "move", "seconds": 1})
    t, tokens = d["id"], d["tokens"]
    v = api.view(t, tokens["0"])
    assert v["clock"]["kind"] == "move" and v["clock"]["running"] == [0] and 0 < v["clock"]["left"][0] <= 1
    assert "lose the game" in v["clock"]["rule"]
    v = wait_for(api, t, tokens["1"], lambda v: v["terminal"])
    assert v["result"]["winners"] == [1] and v["banner"]["title"] == "You win!"
    assert v["banner"]["detail"] == "Red ran out of time."
    assert api.view(t, tokens["0"])["banner"]["title"] == "You lose: Blue wins."
    assert api.move(t, tokens["0"], v["revision"], action=v["legal"][0][0] if v["legal"] else 0).status_code == 409
    record = api.c.get(f"/api/tables/{t}/record", headers={"Authorization": f"Bearer {tokens['1']}"}).json()
    assert record["meta"]["lost_on_time"] == 0 and record["history"] == []
    # stored: a server reading the database finds the table finished, the clock stopped and the loss
    row = Store(api.c.app.state.platform.store.url).load(t)
    assert row.status == "finished" and row.clock["forfeit"] == 0 and row.clock["since"] is None


def test_a_move_clock_running_out_plays_the_pass(api: Api) -> None:
    d = api.create(**RADIUS, mode="online", clock={"kind": "move", "seconds": 2})
    t, tokens = d["id"], d["tokens"]
    state = boardlab.make("radius", board_side=4).new_initial_state()
    for a in TO_PASS:
        seat = state.current_player()
        r = api.c.post(
            f"/api/tables/{t}/moves?view=false",
            headers={"Authorization": f"Bearer {tokens[str(seat)]}"},
            json={"revision": state.move_number(), "action": a},
        )
        assert r.status_code == 200, r.text
        state.apply_action(a)
    blocked = state.current_player()
    assert state.timeout_action(blocked) == state.game.action_space.encode("pass")
    v = api.view(t, tokens[str(blocked)])
    assert v["legal"] == [[state.timeout_action(blocked), "pass"]]
    assert "pass if the rules let them" in v["clock"]["rule"]
    v = wait_for(api, t, tokens[str(blocked)], lambda v: v["move_number"] == len(TO_PASS) + 1)
    assert v["log"][-1][0] == blocked and "pass" in v["log"][-1][1]
    assert any("ran out of time: pass" in n for n in v["notes"])
    assert not v["terminal"] and v["clock"]["running"] == [1 - blocked]


def test_a_game_clock_charges_only_the_seat_to_move(api: Api) -> None:
    d = api.create(**BR, mode="online", clock={"kind": "game", "seconds": 30})
    t, tokens = d["id"], d["tokens"]
    time.sleep(0.3)
    v = api.view(t, tokens["0"])
    r = api.move(t, tokens["0"], v["revision"], action=v["legal"][0][0])
    w = r.json()["view"]
    assert 29.0 < w["clock"]["left"][0] < 29.8 and w["clock"]["left"][1] > 29.8 and w["clock"]["running"] == [1]


def test_the_clock_survives_a_restart(tmp_path) -> None:
    from fastapi.testclient import TestClient

    from boardlab.server import Settings, create_app
    from boardlab.server.limits import NO_QUOTAS

    url = f"sqlite:///{tmp_path}/clock.db"
    settings = Settings(db_url=url, ai_workers=1, ai_delay=0.0, quotas=NO_QUOTAS)
    with TestClient(create_app(settings)) as c:
        d = Api(c).create(**BR, mode="online", clock={"kind": "move", "seconds": 2})
    # the server was down for a while; at start it loads the clocked table and the overdue seat's time is up
    with TestClient(create_app(settings)) as c:
        v = wait_for(Api(c), d["id"], d["tokens"]["1"], lambda v: v["terminal"])
        assert v["result"]["winners"] == [1]


def test_the_rules_page_says_what_a_timeout_does(api: Api) -> None:
    text = api.c.get("/api/games/radius/rules").json()["markdown"]
    assert "## Turn clocks" in text and "they pass if the rules let them pass" in text
    assert "they lose the game." in api.c.get("/api/games/blast-radius/rules").json()["markdown"]


def test_a_move_arriving_after_the_deadline_is_refused_when_the_server_was_down(tmp_path) -> None:
    from fastapi.testclient import TestClient

    from boardlab.server import Settings, create_app
    from boardlab.server.limits import NO_QUOTAS

    url = f"sqlite:///{tmp_path}/late.db"
    settings = Settings(db_url=url, ai_workers=1, ai_delay=0.0, quotas=NO_QUOTAS)
    with TestClient(create_app(settings)) as c:
        d = Api(c).create(**BR, mode="online", clock={"kind": "move", "seconds": 1})
        v = Api(c).view(d["id"], d["tokens"]["0"])
    time.sleep(1.2)  # the server is down at the deadline: no timer fires
    # the move arrives before the restarted server has reloaded the table (it has many to resume, or none here)
    with TestClient(create_app(replace(settings, resume_ai=False))) as c:
        api = Api(c)
        # the first request after the restart is the late move itself: refused, and the time-out applied
        r = api.move(d["id"], d["tokens"]["0"], v["revision"], action=v["legal"][0][0])
        assert r.status_code == 409 and r.json()["error"] == "out_of_time", r.text
        assert "ran out" in r.json()["message"]
        w = api.view(d["id"], d["tokens"]["1"])
        assert w["terminal"] and w["result"]["winners"] == [1] and w["move_number"] == 0
    row = Store(url).load(d["id"])
    assert row.status == "finished" and row.clock["forfeit"] == 0 and not row.moves


def test_a_game_lost_on_time_is_never_taken_back(api: Api) -> None:
    d = api.create(**BR, mode="hotseat", clock={"kind": "move", "seconds": 1})
    t, token = d["id"], d["tokens"]["0"]
    v = api.view(t, token)
    v = api.move(t, token, v["revision"], action=v["legal"][0][0]).json()["view"]
    assert v["can_undo"]
    v = wait_for(api, t, token, lambda v: v["terminal"])
    assert v["result"]["winners"] == [0] and not v["can_undo"]
    r = api.undo(t, token, v["revision"])
    assert r.status_code == 409 and r.json()["error"] == "game_over", r.text
    w = api.view(t, token)
    assert w["terminal"] and w["revision"] == v["revision"] and w["move_number"] == 1
    assert Store(api.c.app.state.platform.store.url).load(t).status == "finished"
