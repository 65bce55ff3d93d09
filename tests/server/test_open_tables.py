"""Open tables: an online table made "open" is listed in the lobby (game, options, seats taken and free, spectators)
and anyone may take a free seat (getting that seat's own token) or watch."""

from __future__ import annotations

import json

from server_helpers import Api, auth

from boardlab.server.store import Store

BR = {"game": "blast-radius", "options": {"board_side": 5}}


def listed(api: Api, t: str) -> dict | None:
    r = api.c.get("/api/open-tables")
    assert r.status_code == 200
    return next((x for x in r.json()["tables"] if x["id"] == t), None)


def join(api: Api, t: str, **body: object) -> object:
    return api.c.post(f"/api/tables/{t}/join", json=body)


def test_an_open_table_is_listed_and_its_free_seat_taken(api: Api, client) -> None:
    d = api.create(**BR, mode="online", open=True, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human"}])
    t = d["id"]
    assert list(d["tokens"]) == ["0"] and d["table"]["open"]  # no token for the free seat
    entry = listed(api, t)
    assert entry is not None and entry["title"] == "Blast Radius" and entry["options"]["board_side"] == 5
    assert [(s["name"], s["free"]) for s in entry["seats"]] == [
        ("Ann", False),
        ("Blue", True),
    ]  # the free seat by the colour the game gives it
    assert entry["free"] == 1 and entry["spectators"] == 0
    host = api.view(t, d["tokens"]["0"])
    assert host["free_seats"] == [1] and host["open"]
    # anyone may watch through the listed link, and is counted
    watch = entry["watch"].split("#t=")[1]
    assert api.view(t, watch)["seat"] is None
    with client.websocket_connect(f"/api/tables/{t}/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "tokens": [watch]}))
        ws.receive_json()
        assert listed(api, t)["spectators"] == 1
    # taking the seat: its own token and link, with the chosen name
    r = join(api, t, name="Bo <b>")
    assert r.status_code == 400  # names are plain
    r = join(api, t, name="Bo")
    assert r.status_code == 200, r.text
    j = r.json()
    assert j["seat"] == 1 and j["link"] == f"/table/{t}#t={j['token']}"
    v = api.view(t, j["token"])
    assert v["seat"] == 1 and [s["name"] for s in v["seats"]] == ["Ann", "Bo"] and v["free_seats"] == []
    # a full table is still listed until it ends (to watch), with no free seat; another join is refused
    assert listed(api, t)["free"] == 0
    r = join(api, t)
    assert r.status_code == 409 and r.json()["error"] == "no_free_seat"
    # the seat plays with its token
    v0 = api.view(t, d["tokens"]["0"])
    assert api.move(t, d["tokens"]["0"], v0["revision"], action=v0["legal"][0][0]).status_code == 200
    v1 = api.view(t, j["token"])
    assert v1["your_turn"]
    assert api.move(t, j["token"], v1["revision"], action=v1["legal"][0][0]).status_code == 200
    # stored: the seat's name and token hash (never the token)
    row = Store(api.c.app.state.platform.store.url).load(t)
    assert row.seats[1]["name"] == "Bo" and row.seat_hashes[1] and j["token"] not in json.dumps(row.seat_hashes)


def test_choosing_a_seat_and_refusals(api: Api) -> None:
    d = api.create(game="posies", mode="online", open=True, num_players=3)
    t = d["id"]
    r = join(api, t, seat=0)
    assert r.status_code == 409 and r.json()["error"] == "seat_taken"
    assert join(api, t, seat=2).json()["seat"] == 2
    assert join(api, t).json()["seat"] == 1
    # private tables are not listed and cannot be joined; only online tables can be open
    p = api.create(**BR, mode="online")
    assert listed(api, p["id"]) is None
    assert join(api, p["id"]).status_code == 403
    assert api.c.post("/api/tables", json={**BR, "mode": "ai", "open": True}).status_code == 400
    assert join(api, "nosuchtable").status_code == 404


def test_the_clock_waits_for_the_free_seats(api: Api) -> None:
    d = api.create(**BR, mode="online", open=True, clock={"kind": "move", "seconds": 60})
    t = d["id"]
    assert api.view(t, d["tokens"]["0"])["clock"]["running"] == []
    join(api, t)
    v = api.view(t, d["tokens"]["0"])
    assert v["clock"]["running"] == [0] and v["clock"]["left"][0] <= 60


def test_the_rematch_is_stored_with_the_table(api: Api, tmp_path) -> None:
    from test_api_game_end import finish

    d = api.create(**BR, mode="online", seats=[{"kind": "human", "name": "Ann"}, {"kind": "human"}])
    t, tokens = d["id"], d["tokens"]
    finish(api, t, tokens)
    made = api.c.post(f"/api/tables/{t}/rematch", headers=auth(tokens["0"])).json()
    row = Store(api.c.app.state.platform.store.url).load(t)
    assert row.rematch == {"id": made["table"], "seats": [1, 0]}
    assert tokens["0"] not in json.dumps(row.rematch)
    # forget the table in memory (as after a restart): the stored rematch and the player's own link come back
    api.c.app.state.platform.tables.pop(t)
    v = api.view(t, tokens["1"])
    assert v["rematch"] == {"table": made["table"], "seat": 0, "link": f"/table/{made['table']}#t={tokens['1']}"}
    assert api.view(made["table"], tokens["1"])["seat"] == 0


def test_the_game_text_uses_the_names_at_the_table(api: Api) -> None:
    d = api.create(
        game="hamlet", mode="online", seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]
    )
    names = {"0": "Ann", "1": "Bo"}
    v = api.view(d["id"], d["tokens"]["0"])
    mover = str(v["to_act"][0])
    w = api.view(d["id"], d["tokens"][mover])
    other = names[str(1 - int(mover))]
    assert f"trade it with {other}" in w["banner"]["detail"] and "seat " not in w["banner"]["detail"]
    # an unnamed seat is called by the game's colour for it ("seat 0 (Red)": Red), said once, not again beside it
    b = api.create(**BR, mode="online")
    seats = api.view(b["id"], b["tokens"]["0"])["seats"]
    assert [(s["name"], s["detail"]) for s in seats] == [("Red", ""), ("Blue", "")]


def test_a_database_from_before_open_tables_chat_and_clocks_opens(tmp_path) -> None:
    import time

    from sqlalchemy import Column, MetaData, Table, create_engine

    from boardlab.server.live import token_hash
    from boardlab.server.store import ADDED_COLUMNS, moves_t, pending_t, tables_t

    url = f"sqlite:///{tmp_path}/old.db"
    added = {name for name, _ in ADDED_COLUMNS}
    old = MetaData()
    Table(
        "tables",
        old,
        *[Column(c.name, c.type, primary_key=c.primary_key, nullable=c.nullable) for c in tables_t.columns
          if c.name not in added],
    )  # fmt: skip
    for t in (moves_t, pending_t):  # and no chat table
        t.to_metadata(old)
    engine = create_engine(url)
    old.create_all(engine)
    now = time.time()
    with engine.begin() as c:
        c.execute(
            old.tables["tables"].insert(),
            {
                "id": "oldtable", "game": "blast-radius", "options": json.dumps({"board_side": 5, "pie": False}),
                "rules_version": "1", "num_players": 2, "mode": "online",
                "seats": json.dumps([{"kind": "human", "agent": None, "name": f"Seat {s}"} for s in (0, 1)]),
                "seed": 5, "revision": 0, "status": "playing", "result": None,
                "seat_hashes": json.dumps([token_hash("tok0"), token_hash("tok1")]), "spectator_hash": token_hash("spec"),
                "created_at": now, "updated_at": now,
            },
        )  # fmt: skip
    engine.dispose()
    row = Store(url).load("oldtable")  # opening adds the columns and the chat table
    assert row.open_watch is None and row.rematch is None and row.clock is None
    from fastapi.testclient import TestClient

    from boardlab.server import Settings, create_app
    from boardlab.server.limits import NO_QUOTAS

    with TestClient(create_app(Settings(db_url=url, ai_workers=1, quotas=NO_QUOTAS))) as c:
        api = Api(c)
        v = api.view("oldtable", "tok0")
        assert v["clock"] is None and not v["open"]
        assert c.post("/api/tables/oldtable/chat", headers=auth("tok1"), json={"text": "still here"}).status_code == 200
        assert c.get("/api/tables/oldtable/chat", headers=auth("spec")).json()["messages"][0]["text"] == "still here"
