"""The server's AI seats keep their search trees between their moves (and start afresh when they must)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from boardlab.games import make_cached
from boardlab.server import ai

GAME, OPTIONS, SPEC = "blast-radius", {"board_side": 5}, "mcts:iterations=300"


@pytest.fixture(autouse=True)
def _fresh_worker() -> Any:
    ai._KEPT.clear()
    yield
    ai._KEPT.clear()


def _agent(table: str, seat: int) -> ai.MCTSAgent:
    (agent,) = [a for k, a in ai._KEPT.items() if k[:2] == (table, seat)]
    return agent


def _reply(history: list[int]) -> int:
    state = make_cached(GAME, **OPTIONS).state_from_history(history)
    return state.legal_actions()[0]


def test_a_seat_keeps_its_tree_between_two_moves() -> None:
    first = ai.choose(GAME, OPTIONS, 2, [], 0, SPEC, 1, table="t1")
    agent = _agent("t1", 0)
    assert agent.last["reused"] == 0 and agent.last["iterations"] > 0
    history = [first, _reply([first])]
    second = ai.choose(GAME, OPTIONS, 2, history, 0, SPEC, 2, table="t1")
    assert _agent("t1", 0) is agent
    assert agent.last["reused"] > 0  # the subtree under the two moves played carried over
    assert second in make_cached(GAME, **OPTIONS).state_from_history(history).legal_actions()
    assert ai.kept_visits("t1", 0) == agent._root.n > agent.last["reused"]


def test_an_undo_or_a_restart_starts_a_new_tree_and_still_plays() -> None:
    first = ai.choose(GAME, OPTIONS, 2, [], 0, SPEC, 1, table="t2")
    history = [first, _reply([first])]
    ai.choose(GAME, OPTIONS, 2, history, 0, SPEC, 2, table="t2")
    # an undo back to the start: the history is no extension of what the agent saw
    again = ai.choose(GAME, OPTIONS, 2, [], 0, SPEC, 1, table="t2")
    assert _agent("t2", 0).last["reused"] == 0
    assert again == first  # the same seed on the same position and a fresh tree: the same move
    ai._KEPT.clear()  # a restarted server has fresh workers
    assert (
        ai.choose(GAME, OPTIONS, 2, history, 0, SPEC, 2, table="t2")
        in make_cached(GAME, **OPTIONS).state_from_history(history).legal_actions()
    )
    assert _agent("t2", 0).last["reused"] == 0


def test_kept_agents_are_bounded_and_forgotten_with_their_table() -> None:
    for i in range(ai.MAX_KEPT_AGENTS + 3):
        ai.choose(GAME, OPTIONS, 2, [], 0, "mcts:iterations=20", 1, table=f"lru{i}")
    assert len(ai._KEPT) == ai.MAX_KEPT_AGENTS
    assert ai.kept_visits("lru0", 0) is None and ai.kept_visits(f"lru{ai.MAX_KEPT_AGENTS + 2}", 0) is not None
    assert ai.forget_table(f"lru{ai.MAX_KEPT_AGENTS + 2}") == 1
    assert ai.kept_visits(f"lru{ai.MAX_KEPT_AGENTS + 2}", 0) is None


@pytest.mark.slow
def test_the_pool_sends_a_seat_back_to_the_worker_that_keeps_its_tree() -> None:
    async def go() -> None:
        pool = ai.AIPool(2)
        try:
            await pool.warm()
            first = await pool.choose("tp", GAME, OPTIONS, 2, [], 0, SPEC, 1, 5.0, 60.0)
            history = [first, _reply([first])]
            await pool.choose("tp", GAME, OPTIONS, 2, history, 0, SPEC, 2, 5.0, 60.0)
            visits = await pool.run("tp", ai.kept_visits, "tp", 0, affinity=("tp", 0))
            assert visits is not None and visits > 300  # two searches' visits on one tree: it was reused
            pool.forget("tp")
            assert await pool.run("tp", ai.kept_visits, "tp", 0, affinity=("tp", 0)) is None
        finally:
            pool.shutdown()

    box: list[BaseException] = []
    thread = threading.Thread(target=lambda: _catch(box, go()))
    thread.start()
    thread.join(120)
    if box:
        raise box[0]


def _catch(box: list[BaseException], coro: Any) -> None:
    try:
        asyncio.run(coro)
    except BaseException as e:
        box.append(e)
