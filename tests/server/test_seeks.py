"""Finding an opponent (server/seeks.py, seek_routes.py): seeks match by game, options and rating, the accepted rating
range widens with waiting, a seek can be cancelled and expires when its page stops asking, a rated seek needs an
account, bad input changes nothing, and one address's waiting seeks are limited."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from account_helpers import BR, Browser, finish
from fastapi.testclient import TestClient
from server_helpers import auth
from sqlalchemy import delete, func, select

from boardlab.server import Settings, create_app, ratings
from boardlab.server.accounts import accounts_t
from boardlab.server.limits import NO_QUOTAS, Quotas
from boardlab.server.seeks import RANGE_PER_SECOND, RANGE_START, seeks_t


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(client: TestClient) -> Iterator[Clock]:
    """A fresh seek pool on the module's app, its wall clock in the test's hands."""
    seeks = client.app.state.seeks  # type: ignore[attr-defined]
    with seeks.engine.begin() as c:
        c.execute(delete(seeks_t))
    old = seeks.clock
    seeks.clock = clk = Clock()
    yield clk
    seeks.clock = old


def _count(client: TestClient) -> int:
    with client.app.state.seeks.engine.connect() as c:  # type: ignore[attr-defined]
        return int(c.execute(select(func.count()).select_from(seeks_t)).scalar_one())


def _seek(b: Browser, **kw: Any) -> dict[str, Any]:
    r = b.post("/api/seeks", json={**BR, **kw})
    assert r.status_code == 201, r.text
    return r.json()


def _poll(b: Browser, s: dict[str, Any]) -> Any:
    return b.get(f"/api/seeks/{s['id']}", headers=auth(s["token"]))


def _set_rating(client: TestClient, name: str, shown: float) -> None:
    store = client.app.state.platform.store  # type: ignore[attr-defined]
    with store.engine.begin() as c:
        aid = c.execute(select(accounts_t.c.id).where(accounts_t.c.name == name)).scalar_one()
        c.execute(delete(ratings.ratings_t).where(ratings.ratings_t.c.account_id == aid))
        c.execute(
            ratings.ratings_t.insert().values(
                account_id=aid, game=BR["game"], mu=shown / ratings.DISPLAY, sigma=3.0, games=12, updated_at=0.0
            )
        )


def _settled(client: TestClient, table: str) -> None:
    """Wait for the server's own settling of a finished rated game (a read meanwhile would settle it too: on SQLite
    two settling at once is a lock conflict, see the notes)."""
    store = client.app.state.platform.store  # type: ignore[attr-defined]
    deadline = time.monotonic() + 10
    while ratings.settled(store, table) is None:
        assert time.monotonic() < deadline, "the rated game was not settled"
        time.sleep(0.05)


def _signed_up(client: TestClient, name: str) -> Browser:
    b = Browser(client)
    b.sign_up(name)
    return b


def test_two_casual_seeks_match_at_one_table(client: TestClient, clock: Clock) -> None:
    ann, guest = _signed_up(client, "Seek Ann"), Browser(client)
    a = _seek(ann, clock={"kind": "move", "seconds": 60})
    assert a["status"] == "waiting" and a["table"] is None and a["rating"] == 1000 and a["range"] is None
    clock.now += 1
    g = _seek(guest, name="Gus", clock={"kind": "move", "seconds": 60})
    assert g["status"] == "matched", g
    a2 = _poll(ann, a).json()
    assert a2["status"] == "matched" and a2["table"] == g["table"] and {a2["seat"], g["seat"]} == {0, 1}
    assert a2["opponent"] == "Gus" and g["opponent"] == "Seek Ann"
    # each seeker's link plays their own seat of one online table, with the clock asked for
    views = {}
    for s in (a2, g):
        token = s["link"].split("#t=")[1]
        v = client.get(f"/api/tables/{s['table']}", headers=auth(token)).json()
        views[s["seat"]] = v
        assert v["seat"] == s["seat"]
    summary = views[0]["table"]
    assert summary["mode"] == "online" and summary["clock"]["kind"] == "move" and not summary.get("seeded")
    assert [p["name"] for p in views[0]["seats"]] == [
        ("Seek Ann" if a2["seat"] == 0 else "Gus"),
        ("Gus" if a2["seat"] == 0 else "Seek Ann"),
    ]
    # casual: not rated; the account's seat is bound to it (it shows on the profile), the guest's is not
    prof = client.get("/api/players/Seek Ann").json()
    assert [t["table"] for t in prof["open"]] == [a2["table"]] and not prof["open"][0]["rated"]
    # a matched seek cannot be cancelled: the answer names the table
    r = ann.post(f"/api/seeks/{a['id']}/cancel", headers=auth(a["token"]))
    assert r.status_code == 409 and r.json()["error"] == "matched" and r.json()["table"] == a2["table"]


def test_rated_seeks_match_by_rating_and_make_a_rated_table(client: TestClient, clock: Clock) -> None:
    ann, ben, cal = (_signed_up(client, n) for n in ("Rated Ann", "Rated Ben", "Rated Cal"))
    _set_rating(client, "Rated Cal", 1400)
    _set_rating(client, "Rated Ben", 1050)
    c = _seek(cal, rated=True)
    a = _seek(ann, rated=True)  # 1000 against 1400: out of range
    assert c["rating"] == 1400 and a["rating"] == 1000 and a["range"] == RANGE_START
    assert a["status"] == c["status"] == "waiting"
    b = _seek(ben, rated=True)  # 1050: within 100 of Ann (Cal, older, is out of range)
    assert b["status"] == "matched"
    a2 = _poll(ann, a).json()
    assert a2["status"] == "matched" and a2["table"] == b["table"]
    assert _poll(cal, c).json()["status"] == "waiting"
    # a rated table: both accounts bound as the accounts code binds them; its end changes both ratings
    tokens = {s["seat"]: s["link"].split("#t=")[1] for s in (a2, b)}
    finish(client, b["table"], tokens)
    _settled(client, b["table"])
    board = {p["name"]: p for p in client.get(f"/api/leaderboard/{BR['game']}").json()["players"]}
    assert board["Rated Ann"]["games"] == 1 and board["Rated Ben"]["games"] == 13
    assert client.get("/api/players/Rated Ann").json()["recent"][0]["rated"]


def test_the_accepted_range_widens_with_waiting(client: TestClient, clock: Clock) -> None:
    ann, ben = _signed_up(client, "Wide Ann"), _signed_up(client, "Wide Ben")
    _set_rating(client, "Wide Ben", 1300)  # 300 above Ann: within range after 20 s of waiting
    a = _seek(ann, rated=True)
    b = _seek(ben, rated=True)
    assert a["status"] == b["status"] == "waiting"
    wait = (300 - RANGE_START) / RANGE_PER_SECOND
    for _ in range(int(wait) // 5 - 1):
        clock.now += 5
        assert _poll(ann, a).json()["status"] == "waiting"
        assert _poll(ben, b).json()["status"] == "waiting"
    clock.now += 5
    a2 = _poll(ann, a).json()
    assert a2["status"] == "matched" and a2["range"] >= 300
    assert _poll(ben, b).json()["table"] == a2["table"]


def test_options_clock_and_rating_choice_must_match(client: TestClient, clock: Clock) -> None:
    ann, ben = _signed_up(client, "Opt Ann"), _signed_up(client, "Opt Ben")
    a = _seek(ann)
    for kw in (
        {"options": {"board_side": 6}},
        {"clock": {"kind": "move", "seconds": 30}},
        {"rated": True},
        {"game": "hamlet", "options": {}},
    ):
        s = _seek(ben, **kw)
        assert s["status"] == "waiting", kw
        assert ben.post(f"/api/seeks/{s['id']}/cancel", headers=auth(s["token"])).json()["status"] == "cancelled"
    # the same options written out (a default given explicitly) are the same pool
    b = _seek(ben, options={"board_side": 5}, clock={"kind": "none"})
    assert b["status"] == "matched" and _poll(ann, a).json()["table"] == b["table"]


def test_one_account_never_meets_itself(client: TestClient, clock: Clock) -> None:
    ann = _signed_up(client, "Self Ann")
    _seek(ann)
    r = ann.post("/api/seeks", json=BR)
    assert r.status_code == 409 and r.json()["error"] == "already_seeking"
    s = _seek(ann, rated=True)  # another pool: allowed, and it meets nobody
    assert s["status"] == "waiting"


def test_a_rated_seek_needs_an_account(client: TestClient, clock: Clock) -> None:
    guest = Browser(client)
    r = guest.post("/api/seeks", json={**BR, "rated": True})
    assert r.status_code == 403 and r.json()["error"] == "sign_in_needed"
    assert _count(client) == 0


def test_cancel_and_expiry(client: TestClient, clock: Clock) -> None:
    one, two = Browser(client), Browser(client)
    a = _seek(one)
    r = one.post(f"/api/seeks/{a['id']}/cancel", headers=auth(a["token"]))
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    assert _poll(one, a).status_code == 410
    b = _seek(two)
    assert b["status"] == "waiting"  # the cancelled seek is not matched
    # b's page goes away: not asked about for longer than the timeout, it has expired
    clock.now += client.app.state.seeks.timeout + 1  # type: ignore[attr-defined]
    c = _seek(one)
    assert c["status"] == "waiting"
    r = _poll(two, b)
    assert r.status_code == 410 and r.json()["error"] == "expired"
    # a page that keeps asking keeps its seek
    for _ in range(3):
        clock.now += 10
        assert _poll(one, c).json()["status"] == "waiting"
    assert _seek(two)["status"] == "matched"


def test_bad_input_and_wrong_tokens_change_nothing(client: TestClient, clock: Clock) -> None:
    guest = Browser(client)
    for body, status in (
        ({"game": "no-such-game"}, 404),
        ({**BR, "options": {"board_side": "five"}}, 400),
        ({**BR, "options": {"no_such_option": 1}}, 400),
        ({**BR, "num_players": 3}, 400),
        ({**BR, "clock": {"kind": "move"}}, 400),
        ({**BR, "clock": {"kind": "game", "seconds": 0.5}}, 400),
        ({**BR, "name": "<b>" * 30}, 400),
        ({**BR, "seed": 4}, 400),
    ):
        r = guest.post("/api/seeks", json=body)
        assert r.status_code == status, (body, r.text)
        assert set(r.json()) >= {"error", "message"}
    assert _count(client) == 0
    a = _seek(guest)
    assert guest.get(f"/api/seeks/{a['id']}").status_code == 401
    assert guest.get(f"/api/seeks/{a['id']}", headers=auth("wrong")).status_code == 403
    assert guest.post(f"/api/seeks/{a['id']}/cancel", headers=auth("wrong")).status_code == 403
    assert guest.get("/api/seeks/nope", headers=auth(a["token"])).status_code == 404
    assert _poll(guest, a).json()["status"] == "waiting"
    counts = client.get("/api/seeking").json()["seeks"]
    assert counts == [{"game": BR["game"], "title": "Blast Radius", "rated": False, "seeking": 1}]


def test_seeks_per_address_are_limited(tmp_path: Any) -> None:
    app = create_app(
        Settings(db_url=f"sqlite:///{tmp_path}/q.db", ai_workers=1, ai_delay=0.0, quotas=Quotas(seeks_per_address=2))
    )
    with TestClient(app) as c:
        for game in ("blast-radius", "hamlet"):
            assert c.post("/api/seeks", json={"game": game}).status_code == 201
        r = c.post("/api/seeks", json={"game": "dragon-fight"})
        assert r.status_code == 429 and r.json()["error"] == "rate_limited" and "Retry-After" in r.headers
        with app.state.seeks.engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(seeks_t)).scalar_one() == 2
    assert NO_QUOTAS.seeks_per_address == 0  # --no-quotas lifts it (the module's app seeks more than 2 at once)


def test_an_invite_link_seats_the_account_that_opens_it(client: TestClient, clock: Clock) -> None:
    """Play a friend: a private online table's seat link is the invite; opened signed in, the seat is the account's
    (the table page claims it), so a rated invite between two accounts is rated."""
    ann, ben = _signed_up(client, "Invite Ann"), _signed_up(client, "Invite Ben")
    r = ann.post("/api/tables", json={**BR, "mode": "online", "rated": True})
    assert r.status_code == 201, r.text
    d = r.json()
    link = d["links"]["seats"]["1"]
    token = link.split("#t=")[1]
    claimed = ben.post("/api/account/claim", json={"tables": [{"table": d["id"], "tokens": [token]}]})
    assert claimed.json()["claimed"] == [{"table": d["id"], "seat": 1}]
    prof = client.get("/api/players/Invite Ben").json()
    assert [t["table"] for t in prof["open"]] == [d["id"]] and prof["open"][0]["rated"]
    finish(client, d["id"], {0: d["tokens"]["0"], 1: token})
    _settled(client, d["id"])
    assert client.get("/api/players/Invite Ben").json()["recent"][0]["rated"]


def test_clashing_guest_names_still_meet(client: TestClient, clock: Clock) -> None:
    """A guest may not take a seat's own name ("Blue"); two guests named alike: their names give way."""
    for taken in ("Blue", "red", "Player 2"):
        r = Browser(client).post("/api/seeks", json={**BR, "name": taken})
        assert r.status_code == 400 and "how the table names a seat" in r.json()["message"]
    assert _count(client) == 0
    for first, second in (("Sam", "sam"), ("Ann", "ANN"), ("Bo", "Bo")):
        a = _seek(Browser(client), name=first)
        b = _seek(Browser(client), **({"name": second} if second else {}))
        assert b["status"] == "matched", (first, second)
        token = b["link"].split("#t=")[1]
        names = [s["name"] for s in client.get(f"/api/tables/{b['table']}", headers=auth(token)).json()["seats"]]
        assert len({n.casefold() for n in names}) == 2, names
        assert _poll(Browser(client), a).json()["table"] == b["table"]
