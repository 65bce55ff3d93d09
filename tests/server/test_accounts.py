"""Accounts: password storage, sessions (fixation, sign out everywhere), CSRF, no account enumeration, claimed seats,
rated games and their ratings, profiles, leaderboards and deleting an account (server/accounts.py, ratings.py)."""

from __future__ import annotations

import time
from typing import Any

from account_helpers import BR, Browser, finish, rated_game
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from server_helpers import auth
from sqlalchemy import select

from boardlab.server import ratings
from boardlab.server.accounts import SESSION_COOKIE, accounts_t, sessions_t


def _store(client: TestClient) -> Any:
    return client.app.state.platform.store  # type: ignore[attr-defined]


def _hash_of(client: TestClient, name: str) -> str:
    with _store(client).engine.connect() as c:
        return str(c.execute(select(accounts_t.c.password_hash).where(accounts_t.c.name == name)).scalar_one())


def test_password_is_stored_as_an_argon2id_hash_and_rehashed(client: TestClient) -> None:
    b = Browser(client)
    r = b.sign_up("Ada", "a long secret phrase")
    assert r.json()["signed_in"] and r.json()["name"] == "Ada"
    stored = _hash_of(client, "Ada")
    assert stored.startswith("$argon2id$") and "a long secret phrase" not in stored
    with _store(client).engine.connect() as c:
        row = c.execute(select(accounts_t).where(accounts_t.c.name == "Ada")).mappings().one()
        sessions = c.execute(select(sessions_t.c.id_hash)).all()
    assert all("a long secret phrase" not in str(v) for v in row.values())
    # the session id is stored only as its SHA-256, never as the cookie carries it
    cookie = b.jar[SESSION_COOKIE]
    assert all(s.id_hash not in cookie for s in sessions)
    assert PasswordHasher().verify(stored, "a long secret phrase")

    # a hash made with weaker parameters (an older server) is replaced at the next sign-in
    weak = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash("a long secret phrase")
    with _store(client).engine.begin() as c:
        c.execute(accounts_t.update().where(accounts_t.c.name == "Ada").values(password_hash=weak))
    assert b.sign_in("Ada", "a long secret phrase").status_code == 200
    again = _hash_of(client, "Ada")
    assert again != weak and not PasswordHasher().check_needs_rehash(again)


def test_sign_up_rules_and_a_taken_name(client: TestClient) -> None:
    b = Browser(client)
    b.sign_up("Grace")
    for bad in ({"name": "Grace2", "password": "short"}, {"name": "<b>", "password": "long enough pw"}):
        assert Browser(client).post("/api/account/signup", json=bad).status_code == 400
    r = Browser(client).post("/api/account/signup", json={"name": "gRACE", "password": "another password"})
    assert r.status_code == 409 and r.json() == {
        "error": "name_taken",
        "message": "That name is taken; choose another.",
    }


def test_no_account_enumeration_at_sign_in(client: TestClient) -> None:
    Browser(client).sign_up("Hopper")
    t0 = time.perf_counter()
    unknown = Browser(client).sign_in("Nobody Here", "whatever password")
    t1 = time.perf_counter()
    wrong = Browser(client).sign_in("Hopper", "whatever password")
    t2 = time.perf_counter()
    assert unknown.status_code == wrong.status_code == 401
    assert (
        unknown.json()
        == wrong.json()
        == {
            "error": "wrong_sign_in",
            "message": "That name and password do not match an account.",
        }
    )
    assert unknown.headers.get("set-cookie") is None and wrong.headers.get("set-cookie") is None
    # both verify a password hash: an unknown name is not answered measurably faster
    assert (t1 - t0) > 0.3 * (t2 - t1)


def test_a_new_session_id_at_every_sign_in(client: TestClient) -> None:
    Browser(client).sign_up("Lovelace")
    victim = Browser(client)
    victim.sign_in("Lovelace")
    planted = victim.jar[SESSION_COOKIE]
    # an attacker's cookie planted in a browser is replaced (and ended) when someone signs in there
    victim.sign_in("Lovelace")
    assert victim.jar[SESSION_COOKIE] != planted
    attacker = Browser(client)
    attacker.plant(SESSION_COOKIE, planted, victim)
    assert attacker.get("/api/account").json()["signed_in"] is False
    assert victim.get("/api/account").json() == {"signed_in": True, "name": "Lovelace", "csrf": victim.csrf}
    # a forged cookie (not signed by the server) is nobody
    forged = Browser(client)
    forged.plant(SESSION_COOKIE, planted[:-3] + "abc", victim)
    assert forged.get("/api/account").json()["signed_in"] is False


def test_sign_out_and_sign_out_everywhere(client: TestClient) -> None:
    one, two, three = Browser(client), Browser(client), Browser(client)
    one.sign_up("Turing")
    two.sign_in("Turing")
    three.sign_in("Turing")
    assert one.post("/api/account/signout").status_code == 200
    assert one.get("/api/account").json()["signed_in"] is False
    assert two.get("/api/account").json()["signed_in"] is True
    r = two.post("/api/account/signout-everywhere")
    assert r.status_code == 200 and r.json()["sessions"] == 2
    assert two.get("/api/account").json()["signed_in"] is False
    assert three.get("/api/account").json()["signed_in"] is False


def test_csrf_cookie_writes_need_the_token(client: TestClient) -> None:
    b = Browser(client)
    b.sign_up("Knuth")
    for path in ("/api/account/signout", "/api/account/signout-everywhere", "/api/account/claim"):
        body = {"tables": []} if path.endswith("claim") else None
        missing = b.post(path, csrf=False, json=body)
        assert missing.status_code == 403 and missing.json()["error"] == "csrf", path
        wrong = b.post(path, csrf=False, headers={"X-CSRF-Token": "0" * 64}, json=body)
        assert wrong.status_code == 403 and wrong.json()["error"] == "csrf", path
    cross = b.post("/api/account/signout", headers={"Origin": "https://evil.example"})
    assert cross.status_code == 403 and cross.json()["error"] == "csrf"
    rated = b.post("/api/tables", csrf=False, json={**BR, "mode": "online", "rated": True})
    assert rated.status_code == 403 and rated.json()["error"] == "csrf"
    deleted = b.post("/api/account/delete", csrf=False, json={"password": "correct horse battery"})
    assert deleted.status_code == 403
    assert b.get("/api/account").json()["signed_in"] is True  # nothing happened
    # the bearer-token table API is unchanged: a cookie without the header is a guest, whose table is nobody's
    guest = b.post("/api/tables", csrf=False, json={**BR, "mode": "online"})
    assert guest.status_code == 201
    assert b.get("/api/players/Knuth").json()["open"] == []
    assert b.post("/api/account/signout").status_code == 200


def test_rated_game_updates_both_ratings_and_profiles(client: TestClient) -> None:
    a, b = Browser(client), Browser(client)
    a.sign_up("Alice")
    b.sign_up("Bob")
    guest = Browser(client)
    table, tokens = rated_game(a, b)
    # a guest may not take a seat at a rated table, nor make one
    r = guest.post("/api/tables", json={**BR, "mode": "online", "rated": True})
    assert r.status_code == 403 and r.json()["error"] == "sign_in_needed"
    assert a.get("/api/players/Alice").json()["open"][0]["table"] == table
    end = finish(client, table, tokens)
    winner = end["result"]["winners"][0]
    names = ["Alice", "Bob"]
    win, lose = names[winner], names[1 - winner]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not ratings.settled(_store(client), table):
        time.sleep(0.05)
    pw, pl = client.get(f"/api/players/{win}").json(), client.get(f"/api/players/{lose}").json()
    rw, rl = pw["ratings"][0], pl["ratings"][0]
    assert rw["game"] == rl["game"] == "blast-radius" and rw["games"] == rl["games"] == 1
    assert rw["provisional"] and rw["rating"] > 1000 > rl["rating"]
    gw, gl = pw["recent"][0], pl["recent"][0]
    assert (gw["result"], gl["result"]) == ("win", "loss") and gw["rated"] and gl["rated"]
    assert gw["rating_before"] == gl["rating_before"] == 1000
    assert (gw["rating_after"], gl["rating_after"]) == (rw["rating"], rl["rating"])
    assert gw["replay"] == f"/replay?table={table}" and gw["opponents"][0]["player"] == lose
    assert pw["results"] == [{"game": "blast-radius", "title": "Blast Radius", "wins": 1, "losses": 0, "draws": 0}]
    assert pw["open"] == []
    # settled once: another settlement changes nothing
    ratings.settle(_store(client), table)
    assert client.get(f"/api/players/{win}").json()["ratings"][0]["games"] == 1
    board = client.get("/api/leaderboard/blast-radius").json()
    ranked = [p["name"] for p in board["players"]]
    assert ranked.index(win) < ranked.index(lose)
    assert set(board["levels"]) == {"random", "easy", "medium", "hard", "expert"}
    # the rematch is played by the same accounts, each seat moved on, and is rated too
    re = client.post(f"/api/tables/{table}/rematch", headers=auth(tokens[0]))
    assert re.status_code == 200, re.text
    new = re.json()["table"]
    assert client.get(f"/api/tables/{new}", headers=auth(tokens[0])).json()["table"]["id"] == new
    opens = {n: client.get(f"/api/players/{n}").json()["open"] for n in names}
    assert [(g["table"], g["seat"], g["rated"]) for g in opens["Alice"]] == [(new, 1, True)]
    assert [(g["table"], g["seat"], g["rated"]) for g in opens["Bob"]] == [(new, 0, True)]
    # the replay of a game on a profile opens for anyone
    rec = client.get(f"/api/players/games/{table}/record")
    assert (rec.status_code == 200 and len(rec.json()["history"]) == len(end["log"])) or rec.json()["history"]


def test_ai_levels_have_fixed_ratings_and_a_player_plays_like_one(client: TestClient) -> None:
    levels = ratings.level_ratings("blast-radius")
    assert levels["random"] < levels["easy"] < levels["medium"] < levels["hard"] < levels["expert"]
    medium = ratings.level_rating("blast-radius", "medium")
    assert medium is not None
    assert ratings.plays_like("blast-radius", ratings.Rating(medium.mu + 0.1, 3.0, 9)) == "medium"
    assert ratings.places([1.0, -1.0]) == [1, 2] and ratings.places([0.0, 0.0, -1.0]) == [1, 1, 3]
    # a rated game against the AI takes a named level only
    a = Browser(client)
    a.sign_up("Solo")
    bad = a.post(
        "/api/tables",
        json={
            **BR,
            "mode": "ai",
            "rated": True,
            "seats": [{"kind": "human"}, {"kind": "ai", "agent": "mcts:iterations=10"}],
        },
    )
    assert bad.status_code == 400
    hot = a.post("/api/tables", json={**BR, "mode": "hotseat", "rated": True})
    assert hot.status_code == 400


def test_a_guests_tables_are_claimed_at_sign_up(client: TestClient) -> None:
    guest = Browser(client)
    d = client.post("/api/tables", json={**BR, "mode": "online"}).json()
    hot = client.post("/api/tables", json={**BR, "mode": "hotseat"}).json()
    guest.sign_up("Claimer")
    held = [
        {"table": d["id"], "tokens": [d["tokens"]["0"]]},
        {"table": hot["id"], "tokens": list(hot["tokens"].values())},
    ]
    held.append({"table": d["id"], "tokens": ["not-a-token"]})
    r = guest.post("/api/account/claim", json={"tables": held})
    assert r.status_code == 200 and r.json()["claimed"] == [{"table": d["id"], "seat": 0}]
    assert [t["table"] for t in client.get("/api/players/Claimer").json()["open"]] == [d["id"]]
    # a seat is one account's: another account holding the same token claims nothing
    other = Browser(client)
    other.sign_up("Claimer Two")
    assert other.post("/api/account/claim", json={"tables": held[:1]}).json()["claimed"] == []


def test_delete_my_account_anonymises_my_games(client: TestClient) -> None:
    a, b = Browser(client), Browser(client)
    a.sign_up("Mallory")
    b.sign_up("Trent")
    r = a.post(
        "/api/tables",
        json={
            **BR,
            "mode": "online",
            "open": True,
            "rated": True,
            "seats": [{"kind": "human", "name": "Mallory"}, {"kind": "human"}],
        },
    )
    d = r.json()
    j = b.post(f"/api/tables/{d['id']}/join", json={}).json()
    tokens = {0: d["tokens"]["0"], 1: j["token"]}
    client.post(f"/api/tables/{d['id']}/chat", headers=auth(tokens[0]), json={"text": "hello"})
    finish(client, d["id"], tokens)
    assert a.post("/api/account/delete", json={"password": "wrong password!"}).status_code == 403
    assert a.post("/api/account/delete", json={"password": "correct horse battery"}).status_code == 200
    assert a.get("/api/account").json()["signed_in"] is False
    assert client.get("/api/players/Mallory").status_code == 404
    assert Browser(client).sign_in("Mallory").status_code == 401
    trent = client.get("/api/players/Trent").json()
    game = trent["recent"][0]
    assert game["opponents"] == [{"name": "Former player", "player": None, "kind": "human"}]
    assert trent["ratings"][0]["games"] == 1  # their games stay
    record = client.get(f"/api/players/games/{d['id']}/record").json()
    assert "Mallory" not in str(record)
    chat = client.get(f"/api/tables/{d['id']}/chat", headers=auth(tokens[1])).json()
    assert chat["messages"][0]["name"] == "Former player"
    assert "Mallory" not in [p["name"] for p in client.get("/api/leaderboard/blast-radius").json()["players"]]
    # the name is free again
    assert (
        Browser(client).post("/api/account/signup", json={"name": "Mallory", "password": "brand new pass"}).status_code
        == 201
    )


def test_a_rated_game_against_the_ai_counts_it_at_its_levels_rating(client: TestClient) -> None:
    a = Browser(client)
    a.sign_up("Versus")
    seats = [{"kind": "human"}, {"kind": "ai", "agent": "random"}]
    r = a.post("/api/tables", json={**BR, "mode": "ai", "rated": True, "seats": seats})
    assert r.status_code == 201, r.text
    d = r.json()
    end = finish(client, d["id"], {0: d["tokens"]["0"]})
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not ratings.settled(_store(client), d["id"]):
        time.sleep(0.05)
    settled = ratings.settled(_store(client), d["id"])
    assert settled is not None and settled["counted"] and len(settled["changes"]) == 1  # the AI is not updated
    mine = client.get("/api/players/Versus").json()["ratings"][0]
    # the AI took part at its level's fixed rating: the update is OpenSkill's for a newcomer against that rating
    model, ai = ratings.MODEL, ratings.level_rating("blast-radius", "random")
    assert ai is not None
    won = end["result"]["winners"] == [0]
    me, them = model.rating(mu=ratings.MU0, sigma=ratings.SIGMA0), model.rating(mu=ai.mu, sigma=ai.sigma)
    expected = model.rate([[me], [them]], ranks=[0, 1] if won else [1, 0])[0][0]
    assert mine["rating"] == round(ratings.DISPLAY * expected.mu)
    # ... which is less than a win against an equal newcomer gains (and a loss costs more)
    equal = model.rate([[me], [model.rating()]], ranks=[0, 1] if won else [1, 0])[0][0]
    assert expected.mu < equal.mu
    assert ratings.level_ratings("blast-radius")["random"] == round(ratings.DISPLAY * ratings.MU_RANDOM)


def test_the_lobby_says_which_open_tables_are_rated(client: TestClient) -> None:
    a = Browser(client)
    a.sign_up("Lister")
    rated = a.post("/api/tables", json={**BR, "mode": "online", "open": True, "rated": True}).json()["id"]
    plain = client.post("/api/tables", json={**BR, "mode": "online", "open": True}).json()["id"]
    listed = {t["id"]: t["rated"] for t in client.get("/api/open-tables").json()["tables"]}
    assert listed[rated] is True and listed[plain] is False
    guest = client.post(f"/api/tables/{rated}/join", json={})
    assert guest.status_code == 403 and guest.json()["error"] == "sign_in_needed"
    assert a.post(f"/api/tables/{rated}/join", json={}).json()["error"] == "already_seated"


def test_a_cross_site_sign_in_is_refused(client: TestClient) -> None:
    Browser(client).sign_up("Origin Check")
    r = Browser(client).post(
        "/api/account/signin",
        json={"name": "Origin Check", "password": "correct horse battery"},
        headers={"Origin": "https://evil.example"},
    )
    assert r.status_code == 403 and r.headers.get("set-cookie") is None
    ok = Browser(client).post(
        "/api/account/signin",
        json={"name": "Origin Check", "password": "correct horse battery"},
        headers={"Origin": "http://testserver"},
    )
    assert ok.status_code == 200


def test_a_rated_game_ended_by_resignation_is_rated_and_an_aborted_one_is_not(client: TestClient) -> None:
    """The endings (server/endings.py) meet the ratings: a resignation is a result like any other; an abort has none."""
    a, b = Browser(client), Browser(client)
    a.sign_up("Resa")
    b.sign_up("Rolf")
    table, tokens = rated_game(a, b)
    view = client.get(f"/api/tables/{table}", headers=auth(tokens[0])).json()
    mover = view["to_act"][0]
    r = client.post(f"/api/tables/{table}/resign", headers=auth(tokens[mover]), json={"revision": view["revision"]})
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not ratings.settled(_store(client), table):
        time.sleep(0.05)
    names = ["Resa", "Rolf"]
    loser, winner = names[mover], names[1 - mover]
    rw = client.get(f"/api/players/{winner}").json()["ratings"][0]
    rl = client.get(f"/api/players/{loser}").json()["ratings"][0]
    assert rw["games"] == rl["games"] == 1 and rw["rating"] > 1000 > rl["rating"]
    # an aborted rated game changes nobody's rating
    table2, tokens2 = rated_game(a, b)
    v2 = client.get(f"/api/tables/{table2}", headers=auth(tokens2[0])).json()
    r = client.post(f"/api/tables/{table2}/abort", headers=auth(tokens2[0]), json={"revision": v2["revision"]})
    assert r.status_code == 200, r.text
    time.sleep(0.3)
    settled = ratings.settled(_store(client), table2)
    assert settled is None or not settled.get("counted"), settled
    assert client.get(f"/api/players/{winner}").json()["ratings"][0]["games"] == 1


def test_settling_one_game_from_many_threads_at_once_on_sqlite(client: TestClient) -> None:
    """The end's background task and profile reads may settle one game at once: one settlement, no 'locked'."""
    from concurrent.futures import ThreadPoolExecutor

    a, b = Browser(client), Browser(client)
    a.sign_up("Tess")
    b.sign_up("Tom")
    table, tokens = rated_game(a, b)
    finish(client, table, tokens)
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda _: ratings.settle(_store(client), table), range(16)))
    assert all(g is not None and g["changes"] == got[0]["changes"] for g in got)
    assert client.get("/api/players/Tess").json()["ratings"][0]["games"] == 1
