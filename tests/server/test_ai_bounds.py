"""Server AI seats are bounded: named levels and bounded parameters only, a time limit on every move
(the agent's own, and the server's fallback when a worker does not answer), fair queueing between
tables, and tables with no human seat only as an explicit AI match to watch."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from server_helpers import Api

from boardlab.agents import level_names, make_agent
from boardlab.games import make_cached
from boardlab.server import ai
from boardlab.server.ai import AIPool, MoveTimeout
from boardlab.server.chance import keyed_agent_seed
from boardlab.server.tables import Platform, Settings

BR = {"game": "blast-radius"}


def _in_thread(coro: Awaitable[Any]) -> Any:
    # in a thread of its own: Playwright's sync API may hold an event loop in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def _until(check: Callable[[], bool], timeout: float) -> float:
    """Seconds until ``check()`` holds (fails the test after ``timeout``)."""
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > timeout:
            pytest.fail(f"not within {timeout} s")
        await asyncio.sleep(0.02)
    return time.monotonic() - start


# -- declared bounds ---------------------------------------------------------------
@pytest.mark.parametrize(
    "agent, words",
    [
        ("mcts:seconds=100000", "seconds must be at most 5"),
        ("mcts:seconds=inf", "seconds must be at most 5"),
        ("mcts:seconds=nan", "seconds must be at most 5"),
        ("mcts:iterations=1e9", "must be an integer"),
        ("mcts:iterations=1000000000", "iterations must be at most 100000"),
        ("hard:plies=100000000", "plies must be at most 250000"),
        ("expert:seconds=60", "seconds must be at most 5"),
        ("greedy:playouts=1000000", "playouts must be at most 200"),
    ],
)
def test_ai_seats_out_of_bounds_are_refused(api: Api, agent: str, words: str) -> None:
    platform = api.c.app.state.platform
    before = set(platform.tables)
    r = api.c.post("/api/tables", json={**BR, "seats": [{"kind": "human"}, {"kind": "ai", "agent": agent}]})
    assert r.status_code == 400, r.text
    body = r.json()
    assert set(body) >= {"error", "message"} and words in body["message"], body
    assert "easy" in body["message"]  # the message names what is on offer
    assert set(platform.tables) == before  # nothing was made


@pytest.mark.parametrize("agent", [*level_names(), "random", "greedy", "mcts", "mcts:seconds=1,iterations=500"])
def test_named_levels_and_bounded_specs_are_accepted(api: Api, agent: str) -> None:
    d = api.create(**BR, seats=[{"kind": "human"}, {"kind": "ai", "agent": agent}])
    assert d["seats"][1]["agent"] == agent


def test_the_catalogue_offers_the_named_levels_and_the_bounds(api: Api) -> None:
    agents = api.c.get("/api/agents").json()
    assert agents["levels"] == level_names() and agents["all"][: len(agents["levels"])] == agents["levels"]
    assert agents["default"] == level_names()[0]
    assert agents["bounds"]["seconds"] == 5.0
    assert api.c.get("/api/games").json()["agents"] == agents


def test_the_cli_and_lab_keep_any_spec() -> None:
    # the bounds are the server's: make_agent itself still takes a long search
    agent = make_agent("mcts:seconds=100000,iterations=1000000000", make_cached("blast-radius"), 0, 1)
    assert agent.seconds == 100000 and agent.iterations == 1000000000


# -- AI matches to watch ----------------------------------------------------------
def test_a_table_with_no_human_seat_needs_watch(api: Api) -> None:
    all_ai = [{"kind": "ai", "agent": "random"}, {"kind": "ai", "agent": "random"}]
    r = api.c.post("/api/tables", json={**BR, "mode": "ai", "seats": all_ai})
    assert r.status_code == 400 and '"watch": true' in r.json()["message"], r.text
    r = api.c.post("/api/tables", json={**BR, "mode": "ai", "watch": True, "seats": [{"kind": "human"}, all_ai[0]]})
    assert r.status_code == 400 and "every seat an AI seat" in r.json()["message"], r.text
    r = api.c.post("/api/tables", json={**BR, "mode": "ai", "watch": True, "seats": all_ai})
    assert r.status_code == 201, r.text
    d = r.json()
    assert d["tokens"] == {}
    # the match plays itself to the end, for spectators
    deadline = time.monotonic() + 60
    view = api.view(d["id"], d["spectator_token"])
    while not view["terminal"]:
        assert time.monotonic() < deadline, "the AI match did not finish"
        time.sleep(0.05)
        view = api.view(d["id"], d["spectator_token"])


def test_an_out_of_bounds_watch_match_is_refused(api: Api) -> None:
    seats = [{"kind": "ai", "agent": "mcts:seconds=45"}, {"kind": "ai", "agent": "easy"}]
    r = api.c.post("/api/tables", json={**BR, "mode": "ai", "watch": True, "seats": seats})
    assert r.status_code == 400 and "seconds must be at most 5" in r.json()["message"], r.text


# -- time limits ------------------------------------------------------------------
def test_the_worker_caps_the_agents_search_and_plays_its_best_move_so_far() -> None:
    start = time.monotonic()
    action = ai.choose("blast-radius", {}, 2, [], 0, "mcts:seconds=100", 7, seconds=0.3)
    assert time.monotonic() - start < 2.0
    game = make_cached("blast-radius")
    assert action in game.new_initial_state(2).legal_actions(0)


def test_a_worker_that_does_not_answer_is_replaced() -> None:
    async def go() -> None:
        pool = AIPool(1)
        try:
            first = await pool.run("t", os.getpid)
            start = time.monotonic()
            with pytest.raises(MoveTimeout):
                await pool.run("t", time.sleep, 60, limit=0.5)
            assert time.monotonic() - start < 3.0
            assert pool.recycled == 1
            again = await pool.run("t", os.getpid)
            assert again != first  # a fresh process, the stuck one killed
        finally:
            pool.shutdown()

    _in_thread(go())


def test_a_table_whose_ai_does_not_answer_plays_a_seeded_legal_move(tmp_path, monkeypatch) -> None:
    from server_helpers import stuck_choose

    monkeypatch.setattr(ai, "choose", stuck_choose)

    async def go() -> None:
        settings = Settings(
            db_url=f"sqlite:///{tmp_path}/t.db", ai_delay=0.0, resume_ai=False, ai_move_seconds=0.5, ai_move_margin=0.5
        )
        platform = Platform(settings)
        await platform.start()
        await platform.ai.warm()  # time the stuck move, not the workers' start-up (slow on a loaded machine)
        try:
            seats = [{"kind": "ai", "agent": "hard"}, {"kind": "human"}]
            table, _tokens, _spectator, _host = await platform.create("blast-radius", {}, None, "ai", seats, None, None)
            history = table.state.history()
            legal = table.state.legal_actions(0)
            took = await _until(lambda: len(table.state.history()) > len(history), 10.0)
            assert took < 4.0
            assert table.chance_key is not None  # an AI seat: no chosen seed, the table's secret key
            expected = random.Random(keyed_agent_seed(table.chance_key, len(history), 0)).choice(legal)
            assert table.state.history()[len(history)] == expected
            assert any("took too long" in n for n in table.notes)
            assert platform.ai.recycled >= 1
        finally:
            await platform.stop()

    _in_thread(go())


# -- fairness ---------------------------------------------------------------------
def test_one_table_cannot_hold_every_worker() -> None:
    async def go() -> None:
        pool = AIPool(2)
        slow: list[asyncio.Future[Any]] = []
        try:
            await pool.warm()
            slow += [asyncio.ensure_future(pool.run("slow", time.sleep, 4)) for _ in range(2)]
            await asyncio.sleep(0.3)
            start = time.monotonic()
            await pool.run("fast", os.getpid)
            assert time.monotonic() - start < 3.0
            assert not all(t.done() for t in slow)  # the slow table is still thinking
        finally:
            for t in slow:
                t.cancel()
            pool.shutdown()

    _in_thread(go())


def test_a_cheap_ai_answers_while_an_expensive_one_thinks(tmp_path) -> None:
    async def go() -> None:
        # the default number of workers (even on a machine with two cores)
        platform = Platform(Settings(db_url=f"sqlite:///{tmp_path}/f.db", ai_delay=0.0, resume_ai=False))
        await platform.start()
        await platform.ai.warm()
        try:
            slow = [{"kind": "ai", "agent": "mcts:seconds=5"}, {"kind": "ai", "agent": "mcts:seconds=5"}]
            expensive, *_ = await platform.create("blast-radius", {}, None, "ai", slow, None, None, watch=True)
            await _until(lambda: bool(expensive.thinking), 10.0)
            await asyncio.sleep(0.3)
            cheap_seats = [{"kind": "ai", "agent": "easy"}, {"kind": "human"}]
            first = len(expensive.state.history())
            cheap, *_ = await platform.create("blast-radius", {}, None, "ai", cheap_seats, None, None)
            start = len(cheap.state.history())
            took = await _until(lambda: len(cheap.state.history()) > start, 10.0)
            assert expensive.thinking and len(expensive.state.history()) == first  # still on its first move
            assert took < 3.0
        finally:
            await platform.stop()

    _in_thread(go())


def test_one_clients_many_ai_tables_do_not_starve_another_clients_ai(tmp_path) -> None:
    import httpx

    from boardlab.server import create_app

    async def go() -> None:
        # Two workers: one address's dozen expensive AI matches would keep both busy, table after table.
        settings = Settings(db_url=f"sqlite:///{tmp_path}/c.db", ai_workers=2, ai_delay=0.0, ai_move_seconds=1.0)
        app = create_app(settings)
        platform = app.state.platform

        def client(address: str) -> httpx.AsyncClient:
            return httpx.AsyncClient(transport=httpx.ASGITransport(app, client=(address, 5000)), base_url="http://t")

        async with app.router.lifespan_context(app), client("10.0.0.1") as busy, client("10.0.0.2") as other:
            await platform.ai.warm()
            slow = [{"kind": "ai", "agent": "mcts:seconds=1"}] * 2
            matches = []
            for _ in range(12):  # within the table quota
                r = await busy.post("/api/tables", json={**BR, "mode": "ai", "seats": slow, "watch": True})
                assert r.status_code == 201, r.text
                matches.append(platform.tables[r.json()["id"]])
            await _until(lambda: sum(bool(m.thinking) for m in matches) >= 2, 10.0)
            await asyncio.sleep(0.3)
            cheap = [{"kind": "ai", "agent": "easy"}, {"kind": "human"}]
            r = await other.post("/api/tables", json={**BR, "mode": "ai", "seats": cheap})
            assert r.status_code == 201, r.text
            table = platform.tables[r.json()["id"]]
            took = await _until(lambda: len(table.state.history()) > 0 and table.state.current_player() == 1, 20.0)
            assert took < 3.0, f"the other address's AI answered after {took:.1f} s"

    _in_thread(go())
