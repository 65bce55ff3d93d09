"""Ending a game fairly: resign, a draw offered and answered, abort, a win claimed from an away player; turn-based
tables (days a move) and the lobby's "your move" list (POST /api/my-tables).

Every refusal changes nothing (same revision, same view), and a finished table is never reopened.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from server_helpers import Api, auth

from boardlab.server import Settings, create_app
from boardlab.server.limits import NO_QUOTAS

GRACE = 1.0
DAY = 1.5  # seconds in a "day" of a turn-based table here


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("db") / "endings.db"
    settings = Settings(
        db_url=f"sqlite:///{db}", ai_workers=1, ai_delay=0.0, quotas=NO_QUOTAS, away_grace=GRACE, day_seconds=DAY
    )
    with TestClient(create_app(settings), raise_server_exceptions=True) as c:
        yield c


@pytest.fixture(scope="module")
def api(client: TestClient) -> Api:
    return Api(client)


def online(api: Api, game: str = "blast-radius", n: int = 2, **body: Any) -> tuple[str, list[str], str]:
    options = {"board_side": 5} if game == "blast-radius" else {}
    r = api.create(game=game, options=options, mode="online", num_players=n, seats=[{"kind": "human"}] * n, **body)
    return r["id"], [r["tokens"][str(s)] for s in range(n)], r["spectator_token"]


def post(api: Api, table: str, what: str, token: str, body: Any = None) -> Any:
    return api.c.post(f"/api/tables/{table}/{what}", headers=auth(token), json=body)


def play_first(api: Api, table: str, token: str) -> dict[str, Any]:
    v = api.view(table, token)
    r = api.move(table, token, v["revision"], action=v["legal"][0][0])
    assert r.status_code == 200, r.text
    return r.json()["view"]


def until(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` on a socket (geometry and views before it skipped)."""
    while True:
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg


def unchanged(api: Api, table: str, token: str, before: dict[str, Any]) -> None:
    after = api.view(table, token)
    assert after["revision"] == before["revision"]
    assert after["terminal"] == before["terminal"]
    assert after["endings"]["draw_offer"] == before["endings"]["draw_offer"]
    assert after["log"] == before["log"]


# -- resign -----------------------------------------------------------------------------------------------------
def test_resign_ends_the_game_in_players_words_and_is_never_taken_back(api: Api) -> None:
    table, (t0, t1), spectator = online(api)
    play_first(api, table, t0)
    names = [s["name"] for s in api.view(table, t0)["seats"]]
    r = post(api, table, "resign", t1)
    assert r.status_code == 200, r.text
    v = r.json()["view"]
    assert v["terminal"] and v["result"]["winners"] == [0]
    assert v["banner"]["title"] == "You lose: " + f"{names[0]} wins."
    assert v["banner"]["detail"] == f"{names[1]} resigned. {names[0]} wins."
    assert v["log"][-1] == [1, f"{names[1]} resigned. {names[0]} wins."]
    assert len(v["log_after"]) == len(v["log"])
    assert api.view(table, t0)["banner"]["title"] == "You win!"
    # never reopened: undo, a move, another resign, an abort or a draw are refused and change nothing
    before = api.view(table, t0)
    assert api.undo(table, t0, before["revision"]).json()["error"] == "game_over"
    assert api.move(table, t1, before["revision"], action=0).json()["error"] == "game_over"
    assert post(api, table, "resign", t0).json()["error"] == "game_over"
    assert post(api, table, "abort", t0).json()["error"] == "game_over"
    unchanged(api, table, t0, before)
    # the record: the actions, then how the table ended it
    record = api.c.get(f"/api/tables/{table}/record", headers=auth(spectator)).json()
    assert record["meta"]["ended"] == {"how": "resign", "seat": 1, "step": 1, "returns": [1.0, -1.0]}
    assert record["result"]["winners"] == [0]
    # ... which the replay viewer shows after the last move
    rep = api.c.post("/api/replays", json={"record": record}).json()
    assert rep["finished"] and rep["result"]["winners"] == [0] and rep["ended"]["how"] == "resign"
    frame = api.c.get(f"/api/replays/{rep['id']}/{rep['steps']}").json()
    seats = rep["seats"]  # the record's names for the seats
    assert frame["banner"]["kind"] == "result" and frame["banner"]["detail"] == f"{seats[1]} resigned. {seats[0]} wins."
    assert frame["log"][-1][1] == frame["banner"]["detail"]
    # a rematch is still there to ask for
    assert post(api, table, "rematch", t1).status_code == 200


def test_a_spectator_cannot_resign(api: Api) -> None:
    table, (t0, _t1), spectator = online(api)
    before = api.view(table, t0)
    r = post(api, table, "resign", spectator)
    assert r.status_code == 403
    unchanged(api, table, t0, before)


def test_with_three_players_the_resigning_player_loses_and_the_others_share_the_win(api: Api) -> None:
    r = api.create(game="fences", mode="online", num_players=3, seats=[{"kind": "human"}] * 3)
    table, tokens = r["id"], [r["tokens"][str(s)] for s in range(3)]
    v = post(api, table, "resign", tokens[2]).json()["view"]
    assert v["result"]["winners"] == [0, 1] and v["result"]["returns"] == [1.0, 1.0, -1.0]
    assert api.view(table, tokens[0])["banner"]["title"].startswith("You win, with ")


def test_resigning_against_the_ai(api: Api) -> None:
    r = api.create(game="blast-radius", options={"board_side": 5}, mode="ai")
    table, token = r["id"], r["tokens"]["0"]
    v = post(api, table, "resign", token).json()["view"]
    assert v["terminal"] and v["result"]["winners"] == [1]


# -- draws ------------------------------------------------------------------------------------------------------
def test_a_draw_offered_declined_then_accepted(api: Api) -> None:
    table, (t0, t1), spectator = online(api, "cirque")
    before = api.view(table, t1)
    assert before["table"]["draws"] and before["endings"]["can_offer_draw"]
    # accepting or declining a draw nobody offered changes nothing
    assert post(api, table, "draw", t1, {"answer": "accept"}).json()["error"] == "no_offer"
    assert post(api, table, "draw", t1, {"answer": "decline"}).json()["error"] == "no_offer"
    assert post(api, table, "draw", spectator, {"answer": "offer"}).status_code == 403
    unchanged(api, table, t1, before)
    v = post(api, table, "draw", t0, {"answer": "offer"}).json()["view"]
    assert v["endings"]["draw_offer"] == {"seat": 0, "agreed": [0]} and not v["endings"]["can_answer_draw"]
    other = api.view(table, t1)
    assert other["endings"]["can_answer_draw"] and other["revision"] == before["revision"]  # no move made stale
    assert post(api, table, "draw", t0, {"answer": "accept"}).json()["error"] == "already_offered"
    v = post(api, table, "draw", t1, {"answer": "decline"}).json()["view"]
    assert v["endings"]["draw_offer"] is None and not v["terminal"]
    assert v["notes"][-1].endswith("declined the draw.")
    post(api, table, "draw", t0, {"answer": "offer"})
    v = post(api, table, "draw", t1, {"answer": "accept"}).json()["view"]
    assert v["terminal"] and v["result"]["draw"] and v["banner"]["title"] == "The game is a draw."
    assert v["log"][-1][1] == "The players agreed a draw."
    record = api.c.get(f"/api/tables/{table}/record", headers=auth(t0)).json()
    assert record["meta"]["ended"]["how"] == "draw" and record["result"]["draw"]
    assert post(api, table, "undo", t0, {"revision": v["revision"]}).json()["error"] == "game_over"


def test_a_move_by_the_other_player_declines_the_offer(api: Api) -> None:
    table, (t0, t1), _ = online(api, "cirque")
    play_first(api, table, t0)
    post(api, table, "draw", t0, {"answer": "offer"})
    v = play_first(api, table, t1)
    assert v["endings"]["draw_offer"] is None and "lapsed" in v["notes"][-1]
    assert post(api, table, "draw", t0, {"answer": "accept"}).json()["error"] == "no_offer"


def test_no_draws_where_the_game_has_none_or_against_the_ai(api: Api) -> None:
    table, (t0, _t1), _ = online(api, "blast-radius")
    before = api.view(table, t0)
    assert not before["table"]["draws"] and not before["endings"]["can_offer_draw"]
    assert post(api, table, "draw", t0, {"answer": "offer"}).json()["error"] == "no_draws"
    unchanged(api, table, t0, before)
    r = api.create(game="cirque", mode="ai")
    assert post(api, r["id"], "draw", r["tokens"]["0"], {"answer": "offer"}).json()["error"] == "no_draws"


# -- abort ------------------------------------------------------------------------------------------------------
def test_abort_until_a_second_player_has_moved(api: Api) -> None:
    table, (t0, t1), spectator = online(api)
    assert api.view(table, t0)["endings"]["can_abort"]
    play_first(api, table, t0)
    assert api.view(table, t1)["endings"]["can_abort"]  # only one player has moved
    play_first(api, table, t1)
    before = api.view(table, t0)
    assert not before["endings"]["can_abort"]
    r = post(api, table, "abort", t0)
    assert r.status_code == 409 and r.json()["error"] == "too_late_to_abort"
    unchanged(api, table, t0, before)

    table, (t0, t1), spectator = online(api)
    play_first(api, table, t0)
    assert post(api, table, "abort", spectator).status_code == 403
    v = post(api, table, "abort", t1).json()["view"]
    assert v["terminal"] and v["result"]["winners"] == [] and v["result"]["aborted"] and not v["result"]["draw"]
    assert v["banner"]["title"] == "Game aborted"
    assert v["log"][-1][1].endswith("aborted the game. Nobody wins.")
    record = api.c.get(f"/api/tables/{table}/record", headers=auth(t0)).json()
    assert record["result"] is None and record["meta"]["ended"]["how"] == "abort"
    mine = api.c.post("/api/my-tables", json={"tables": [{"id": table, "token": t0}]}).json()
    assert mine["tables"][0]["status"] == "aborted"


# -- claiming the win from an away player ------------------------------------------------------------------------
def test_claim_the_win_once_the_other_player_is_away_past_the_grace(api: Api, client: TestClient) -> None:
    table, (t0, t1), spectator = online(api)
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.send_json({"type": "hello", "tokens": [t0]})
        e = until(ws, "view")["view"]["endings"]
        assert e["claim_after"] == GRACE and e["away_since"][0] is None and e["away_since"][1] is not None
        before = api.view(table, t0)
        r = post(api, table, "claim-win", t0)
        assert r.status_code == 409 and r.json()["error"] == "not_away"  # before the grace
        assert post(api, table, "claim-win", spectator).status_code == 403
        unchanged(api, table, t0, before)
        time.sleep(GRACE + 0.2)
        v = post(api, table, "claim-win", t0).json()["view"]
    assert v["terminal"] and v["result"]["winners"] == [0]
    names = [s["name"] for s in v["seats"]]
    assert v["log"][-1][1] == f"{names[0]} claimed the win: {names[1]} was away. {names[0]} wins."
    record = api.c.get(f"/api/tables/{table}/record", headers=auth(t1)).json()
    assert record["meta"]["ended"]["how"] == "claim" and record["meta"]["ended"]["away"] == [1]


def test_no_claim_while_the_other_player_is_here(api: Api, client: TestClient) -> None:
    table, (t0, t1), _ = online(api)
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.send_json({"type": "hello", "tokens": [t1]})
        until(ws, "view")
        time.sleep(GRACE + 0.2)
        r = post(api, table, "claim-win", t0)
        assert r.status_code == 409 and r.json()["error"] == "not_away"
    # gone now: the grace counts from when the page went
    r = post(api, table, "claim-win", t0)
    assert r.status_code == 409 and r.json()["error"] == "not_away"
    # an AI table allows no claim
    r2 = api.create(game="blast-radius", options={"board_side": 5}, mode="ai")
    assert post(api, r2["id"], "claim-win", r2["tokens"]["0"]).json()["error"] == "cannot_claim"


def test_presence_messages_say_who_is_away(api: Api, client: TestClient) -> None:
    table, (t0, t1), _ = online(api)
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.send_json({"type": "hello", "tokens": [t0]})
        until(ws, "view")
        with client.websocket_connect(f"/api/tables/{table}/ws") as ws1:
            ws1.send_json({"type": "hello", "tokens": [t1]})
            msg = until(ws, "presence")
            assert msg["away_since"] == [None, None] and msg["claim_after"] == GRACE
        msg = until(ws, "presence")
        assert msg["present"] == [True, False]
        assert msg["away_since"][0] is None and abs(msg["away_since"][1] - time.time()) < 2


# -- turn-based tables: days a move ------------------------------------------------------------------------------
def test_a_days_a_move_table_loses_on_time_and_allows_no_claim(api: Api) -> None:
    table, (t0, t1), _ = online(api, clock={"kind": "days", "days": 1})
    v = api.view(table, t0)
    assert v["table"]["clock"] == {"kind": "days", "seconds": DAY, "days": 1}
    assert v["clock"]["text"] == "1 day a move" and v["endings"]["claim_after"] is None
    assert post(api, table, "claim-win", t1).json()["error"] == "cannot_claim"
    mine = api.c.post("/api/my-tables", json={"tables": [{"id": table, "token": t0}, {"id": table, "token": t1}]})
    rows = mine.json()["tables"]
    assert [r["your_turn"] for r in rows] == [True, False] and rows[0]["deadline"] > time.time()
    play_first(api, table, t0)  # a correspondence move
    rows = api.c.post("/api/my-tables", json={"tables": [{"id": table, "token": t0}, {"id": table, "token": t1}]})
    assert [r["your_turn"] for r in rows.json()["tables"]] == [False, True]
    time.sleep(DAY + 0.5)
    v = api.view(table, t0)
    assert v["terminal"] and v["result"]["winners"] == [0]
    assert v["log"][-1][1].endswith("ran out of time. " + f"{v['seats'][0]['name']} wins.")
    r = api.c.post("/api/tables", json={"game": "blast-radius", "clock": {"kind": "days", "days": 30}})
    assert r.status_code == 400


def test_my_tables_counts_where_it_is_your_move(api: Api) -> None:
    a, (a0, a1), _ = online(api)
    b, (b0, _b1), b_spectator = online(api)
    play_first(api, b, b0)
    body = {
        "tables": [
            {"id": a, "token": a0},
            {"id": a, "token": a1},
            {"id": b, "token": b0},
            {"id": b, "token": b_spectator},
            {"id": a, "token": "not-a-token"},
            {"id": "nosuchtable", "token": a0},
        ]
    }
    r = api.c.post("/api/my-tables", json=body)
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["your_turn"] == 1
    assert [t["your_turn"] for t in data["tables"]] == [True, False, False, False, False, False]
    assert [t["status"] for t in data["tables"]] == ["playing", "playing", "playing", "playing", "gone", "gone"]
    assert data["tables"][4]["game"] is None  # a wrong token learns nothing of the table
    assert data["tables"][3]["seat"] is None


def test_which_games_have_draws() -> None:
    import boardlab
    from boardlab.server.endings import draws_possible

    assert draws_possible(boardlab.make("cirque"))  # declared: a full board with no five in a row
    assert draws_possible(boardlab.make("trivalent"))  # measured: a third of random games are ties
    assert not draws_possible(boardlab.make("blast-radius"))  # never a tie in thousands of games
    assert not draws_possible(boardlab.make("new-rule"))  # co-operative: everyone wins or loses together


def test_an_ended_table_stays_ended_after_a_restart(tmp_path) -> None:
    db = f"sqlite:///{tmp_path}/restart.db"
    settings = Settings(db_url=db, ai_workers=1, ai_delay=0.0, quotas=NO_QUOTAS, resume_ai=False)
    with TestClient(create_app(settings)) as c:
        api = Api(c)
        table, (t0, t1), _ = online(api, "cirque")
        post(api, table, "draw", t0, {"answer": "offer"})
        aborted, (a0, _a1), _ = online(api)
        assert post(api, aborted, "abort", a0).status_code == 200
    with TestClient(create_app(settings)) as c:
        api = Api(c)
        v = api.view(table, t1)  # the offer was stored: still standing after the restart
        assert v["endings"]["draw_offer"] == {"seat": 0, "agreed": [0]} and v["endings"]["can_answer_draw"]
        assert post(api, table, "draw", t1, {"answer": "accept"}).json()["view"]["result"]["draw"]
    with TestClient(create_app(settings)) as c:
        api = Api(c)
        v = api.view(table, t0)
        assert v["terminal"] and v["result"]["draw"] and v["log"][-1][1] == "The players agreed a draw."
        assert post(api, table, "resign", t0).json()["error"] == "game_over"
        v = api.view(aborted, a0)
        assert v["terminal"] and v["banner"]["title"] == "Game aborted"
        assert api.undo(aborted, a0, v["revision"]).json()["error"] == "game_over"
