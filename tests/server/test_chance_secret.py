"""Chance comes from a secret per-table key: a table's creator cannot choose the seed of a hidden-information table,
cannot predict a hidden card better than chance, and learns the key only from the record once the game is over
(which then reproduces every chance draw); restarts and older databases keep their chance."""

from __future__ import annotations

import json
import random
import time
import warnings
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import Api, auth
from sqlalchemy import Column, MetaData, Table, create_engine

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import boardlab
from boardlab.core.constants import CHANCE
from boardlab.server import Settings, create_app
from boardlab.server.chance import check_chance, draw, keyed_uniform
from boardlab.server.limits import NO_QUOTAS
from boardlab.server.live import token_hash
from boardlab.server.store import MoveRow, Store, TableRow, moves_t, pending_t, tables_t

HAMLET = {"game": "hamlet", "options": {"first": "seat0"}}
CARDS = ["Claudius", "Gertrude", "Hamlet", "Laertes", "Ophelia", "Polonius", "Rosencrantz & Guildenstern"]


def app_client(store_url: str) -> TestClient:
    return TestClient(create_app(Settings(db_url=store_url, ai_workers=1, ai_delay=0.0, quotas=NO_QUOTAS)))


def load(url: str, table_id: str) -> TableRow:
    store = Store(url)
    try:
        row = store.load(table_id)
    finally:
        store.close()
    assert row is not None
    return row


def count_tables(url: str) -> int:
    store = Store(url)
    try:
        return store.count_tables()
    finally:
        store.close()


# ``store_url``: a fresh database per test (SQLite; test_postgres.py runs some of these tests on PostgreSQL).
@pytest.fixture
def capi(store_url: str) -> Iterator[Api]:
    with app_client(store_url) as c:
        yield Api(c)


def own_card(api: Api, t: str, token: str, seat: int) -> str:
    zone = next(z for z in api.view(t, token)["scene"]["zones"] if z["id"] == f"hand{seat}")
    return str(zone["items"][0]["label"])


def play_to_end(api: Api, t: str, tokens: dict[str, str], rng: random.Random) -> dict[str, Any]:
    v = api.view(t, tokens["0"])
    for _ in range(500):
        if v["terminal"]:
            return v
        seat = str(v["to_act"][0])
        v = api.view(t, tokens[seat])
        r = api.move(t, tokens[seat], v["revision"], action=rng.choice(v["legal"])[0])
        assert r.status_code == 200, r.text
        v = r.json()["view"]
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    "body",
    [
        {**HAMLET, "mode": "online"},
        {**HAMLET, "mode": "ai"},
        {**HAMLET, "mode": "hotseat", "seats": [{"kind": "human"}, {"kind": "ai", "agent": "random"}]},
        {"game": "posies", "options": {"variant": "hidden_colour"}, "mode": "online"},
        {"game": "dragon-fight", "mode": "online"},
    ],
)
def test_a_seed_for_a_hidden_information_table_with_another_party_is_refused(capi: Api, store_url: str, body) -> None:
    before = count_tables(store_url)
    r = capi.c.post("/api/tables", json={**body, "seed": 5})
    assert r.status_code == 400
    err = r.json()
    assert err["error"] == "seed_not_allowed" and "secret key" in err["message"]
    assert count_tables(store_url) == before  # nothing was created
    assert capi.c.post("/api/tables", json=body).status_code == 201  # without the seed it is fine


def test_the_creator_cannot_predict_the_opponents_first_card(capi: Api, store_url: str) -> None:
    """Every input the creator controls is the same (a seed included); the opponent's hidden card is still uniform
    over the 7 roles, and nothing the creator is sent gives the chance key away."""
    n = 140
    counts: Counter[str] = Counter()
    sent: list[tuple[str | None, list[str]]] = []
    for _ in range(n):
        # the creator tries its seed each time; refused, it creates the same table without one
        r = capi.c.post("/api/tables", json={**HAMLET, "mode": "online", "seed": 5})
        if r.status_code == 400:
            assert r.json()["error"] == "seed_not_allowed"
            r = capi.c.post("/api/tables", json={**HAMLET, "mode": "online"})
        assert r.status_code == 201, r.text
        d = r.json()
        t = d["id"]
        counts[own_card(capi, t, d["tokens"]["1"], 1)] += 1
        seen = [
            json.dumps(d),
            json.dumps(capi.view(t, d["tokens"]["0"])),
            json.dumps(capi.view(t, d["spectator_token"])),
        ]
        rec = capi.c.get(f"/api/tables/{t}/record", headers=auth(d["tokens"]["0"]))
        assert rec.status_code == 409
        seen.append(rec.text)
        sent.append((load(store_url, t).chance_key, seen))
    assert set(counts) <= set(CARDS) and len(counts) >= 5
    expected = n / len(CARDS)
    chi2 = sum((counts.get(c, 0) - expected) ** 2 / expected for c in CARDS)
    assert chi2 < 40, counts  # 6 degrees of freedom: P(chi2 > 40) < 1e-6; one constant card gives 840
    # nothing the creator gets determines it: the secret key is in no response, view or record before the end,
    # nor in a live message
    with capi.c.websocket_connect(f"/api/tables/{t}/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "tokens": [d["tokens"]["0"]]}))
        message = ws.receive_json()
        assert message["type"] == "view"
        sent[-1][1].append(json.dumps(message))
    for key, texts in sent:
        assert key is not None and len(key) == 64
        assert not any(key in text for text in texts)


def test_the_finished_record_discloses_the_key_and_it_reproduces_every_chance_draw(capi: Api, store_url: str) -> None:
    d = capi.create(**HAMLET, mode="online")
    t, tokens = d["id"], d["tokens"]
    play_to_end(capi, t, tokens, random.Random(3))
    rec = capi.c.get(f"/api/tables/{t}/record", headers=auth(tokens["1"])).json()
    key = rec["meta"]["chance_key"]
    assert rec["meta"]["chance"] == "hmac-sha256" and key == load(store_url, t).chance_key
    game = boardlab.make("hamlet", **rec["options"])
    draws = sum(1 for _ in chance_points(game, rec["history"]))
    assert draws >= 2 and check_chance(game, rec["history"], rec["num_players"], key) == []
    other = "0" * 64  # another key does not reproduce them
    assert check_chance(game, rec["history"], rec["num_players"], other) != []


def chance_points(game: Any, history: list[Any]) -> Iterator[int]:
    state = game.new_initial_state()
    for i, entry in enumerate(history):
        if state.current_player() == CHANCE:
            yield i
        state.apply_action(entry) if isinstance(entry, int) else state.apply_actions(entry)


def test_a_restarted_server_draws_the_same_chance(store_url: str) -> None:
    with app_client(store_url) as c:
        api = Api(c)
        d = api.create(**HAMLET, mode="online")
        t, tokens = d["id"], d["tokens"]
        before = api.view(t, tokens["0"])
        v = api.move(t, tokens["0"], before["revision"], action=2).json()["view"]  # seat 0 draws: a chance node
        drawn = own_card(api, t, tokens["0"], 0)
    key = load(store_url, t).chance_key
    with app_client(store_url) as c:  # a new server process on the same database
        api = Api(c)
        again = api.view(t, tokens["0"])
        assert again["scene"] == v["scene"] and own_card(api, t, tokens["0"], 0) == drawn
        play_to_end(api, t, tokens, random.Random(5))
        rec = c.get(f"/api/tables/{t}/record", headers=auth(tokens["0"])).json()
    assert rec["meta"]["chance_key"] == key
    assert check_chance(boardlab.make("hamlet", first="seat0"), rec["history"], 2, key) == []


def test_perfect_information_and_all_human_hotseat_tables_keep_a_chosen_seed(capi: Api, store_url: str) -> None:
    for body in ({"game": "posies", "mode": "online"}, {**HAMLET, "mode": "hotseat"}):
        a, b = (capi.create(**body, seed=12) for _ in range(2))
        va, vb = (capi.view(x["id"], x["tokens"]["0"]) for x in (a, b))
        assert va["scene"] == vb["scene"] and va["log"] == vb["log"]  # the same seed, the same chance
        row = load(store_url, a["id"])
        assert row.chance_key is None and row.seed == 12
        game = boardlab.make(body["game"], **body.get("options", {}))
        history = [m.entry for m in row.moves]
        assert history and check_chance(game, history, 2, None, seed=12) == []  # reproducible from the seed alone
        assert check_chance(game, history, 2, None, seed=13) != []
    posies = capi.create(game="posies", mode="online", seed=12)
    rec = capi.c.get(f"/api/tables/{posies['id']}/record", headers=auth(posies["tokens"]["0"])).json()
    # a perfect-information record is there before the end; it names its seed only at the end
    assert rec["history"] == history_of(store_url, posies["id"]) and "seed" not in rec["meta"]


def history_of(store_url: str, table_id: str) -> list[Any]:
    return [m.entry for m in load(store_url, table_id).moves]


def test_a_database_from_before_chance_keys_opens_and_old_tables_keep_their_seed(store_url: str) -> None:
    url = store_url
    old = MetaData()
    Table(
        "tables",
        old,
        *[
            Column(c.name, c.type, primary_key=c.primary_key, nullable=c.nullable)
            for c in tables_t.columns
            if c.name != "chance_key"
        ],
    )
    for t in (moves_t, pending_t):
        t.to_metadata(old)
    engine = create_engine(url)
    old.create_all(engine)
    game = boardlab.make("hamlet", first="seat0")
    state = game.new_initial_state()
    moves = []
    while state.current_player() == CHANCE:
        a = draw(state, None, 77)
        moves.append(MoveRow(CHANCE, a, state.action_to_string(CHANCE, a)))
        state.apply_action(a)
    with engine.begin() as c:
        c.execute(
            old.tables["tables"].insert(),
            {
                "id": "oldtable",
                "game": "hamlet",
                "options": json.dumps(dict(game.params)),
                "rules_version": game.rules_version,
                "num_players": 2,
                "mode": "online",
                "seats": json.dumps([{"kind": "human", "agent": None, "name": f"Seat {s}"} for s in (0, 1)]),
                "seed": 77,
                "revision": 0,
                "status": "playing",
                "result": None,
                "seat_hashes": json.dumps([token_hash("tok0"), token_hash("tok1")]),
                "spectator_hash": token_hash("spec"),
                "created_at": time.time(),  # a table in play (one from 1970 would have expired long ago)
                "updated_at": time.time(),
            },
        )
        for i, m in enumerate(moves):
            c.execute(
                moves_t.insert(),
                {
                    "table_id": "oldtable",
                    "idx": i,
                    "actor": m.actor,
                    "entry": json.dumps(m.entry),
                    "label": json.dumps(m.label),
                    "at": 0.0,
                },
            )
    engine.dispose()
    row = load(url, "oldtable")  # opening the database adds the column; the old table has no key
    assert row.chance_key is None and row.seed == 77
    with app_client(url) as c:
        api = Api(c)
        v = api.view("oldtable", "tok0")
        v = api.move("oldtable", "tok0", v["revision"], action=2).json()["view"]  # a draw, from the old seed
        row = load(url, "oldtable")
        state = game.new_initial_state()
        for m in row.moves[:-1]:
            state.apply_action(m.entry)  # type: ignore[arg-type]
        assert state.current_player() == CHANCE and row.moves[-1].entry == draw(state, None, 77)
        new = api.create(**HAMLET, mode="online")["id"]
    assert load(url, new).chance_key is not None  # new tables in the old database get a key


def test_keyed_draws_are_uniform_numbers_in_the_unit_interval() -> None:
    xs = [keyed_uniform("ab" * 32, n) for n in range(2000)]
    assert all(0.0 <= x < 1.0 for x in xs) and len(set(xs)) == len(xs)
    assert 0.45 < sum(xs) / len(xs) < 0.55
    assert keyed_uniform("ab" * 32, 3) == keyed_uniform("ab" * 32, 3) != keyed_uniform("cd" * 32, 3)


MINOPOLY = {"game": "minopoly"}  # perfect information, with dice: a known seed foresees every roll


@pytest.mark.parametrize(
    "body",
    [
        {**MINOPOLY, "mode": "ai"},
        {**MINOPOLY, "mode": "online", "seats": [{"kind": "human"}, {"kind": "ai", "agent": "random"}]},
        {**MINOPOLY, "mode": "hotseat", "seats": [{"kind": "human"}, {"kind": "ai", "agent": "random"}]},
        {**MINOPOLY, "watch": True, "seats": [{"kind": "ai", "agent": "random"}] * 2},
    ],
)
def test_a_seed_for_a_table_with_an_ai_seat_is_refused(capi: Api, store_url: str, body) -> None:
    before = count_tables(store_url)
    r = capi.c.post("/api/tables", json={**body, "seed": 5})
    assert r.status_code == 400, r.text
    err = r.json()
    assert err["error"] == "seed_not_allowed" and "AI seat" in err["message"] and "secret key" in err["message"]
    assert count_tables(store_url) == before  # nothing was created
    assert capi.c.post("/api/tables", json=body).status_code == 201  # without the seed it is fine


def test_a_seeded_table_says_so_to_every_seat_spectator_and_joining_player(capi: Api) -> None:
    d = capi.create(**MINOPOLY, mode="online", open=True, seed=12)
    t = d["id"]
    assert d["table"]["seeded"]
    listed = next(x for x in capi.c.get("/api/open-tables").json()["tables"] if x["id"] == t)
    assert listed["seeded"]  # told before joining
    joined = capi.c.post(f"/api/tables/{t}/join", json={"name": "Bea"}).json()
    assert joined["seeded"] and "seeded" in joined["seed_notice"]
    for token in (d["tokens"]["0"], joined["token"], d["spectator_token"]):
        v = capi.view(t, token)
        assert v["table"]["seeded"] and "foresee every chance outcome" in v["seed_notice"]
    plain = capi.create(**MINOPOLY, mode="online")
    v = capi.view(plain["id"], plain["tokens"]["0"])
    assert not v["table"]["seeded"] and v["seed_notice"] is None
