"""The AI workers are warm before the first AI move: started with the server (in the background), forked from one
fork server that has imported the games, and replaced at once when one is killed."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from server_helpers import imported

from boardlab.server.ai import AIPool, MoveTimeout
from boardlab.server.tables import Platform, Settings

#: Generous bounds on waiting for workers to start (a loaded machine is slow): they fail a test, never time it.
START = 120.0


def _in_thread(coro: Awaitable[Any]) -> Any:
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def _until(check: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"not within {timeout} s")
        await asyncio.sleep(0.02)


def test_the_server_starts_its_ai_workers_before_any_table(tmp_path) -> None:
    async def go() -> None:
        platform = Platform(Settings(db_url=f"sqlite:///{tmp_path}/w.db", ai_delay=0.0, resume_ai=False, ai_workers=2))
        assert platform.ai.ready() == 0
        await platform.start()
        try:
            await _until(lambda: platform.ai.ready() == platform.ai.workers, START)  # no table, no move asked for
            assert not platform.tables
            warm = platform.ai.pids()
            # every game's module is imported in every worker before any move: a first move imports nothing
            for _ in range(platform.ai.workers):
                assert await platform.ai.run("probe", imported, "boardlab.games.blast_radius")
            seats = [{"kind": "ai", "agent": "random"}, {"kind": "human"}]
            table, _tokens, _spectator, _host = await platform.create("blast-radius", {}, None, "ai", seats, None, None)
            await _until(lambda: len(table.state.history()) > 0, START)
            assert platform.ai.pids() == warm and platform.ai.recycled == 0  # played by a warm worker, none started
        finally:
            await platform.stop()

    _in_thread(go())


def test_a_worker_killed_for_not_answering_is_replaced_at_once() -> None:
    async def go() -> None:
        pool = AIPool(1)
        try:
            await pool.warm()
            (first,) = pool.pids()
            assert first is not None and pool.ready() == 1
            with pytest.raises(MoveTimeout):
                await pool.run("t", time.sleep, 60, limit=0.5)
            # its replacement starts without waiting for the next move
            await _until(lambda: pool.ready() == 1, START)
            (second,) = pool.pids()
            assert second not in (None, first)
            assert await pool.run("t", os.getpid) == second  # and the next move goes to it
        finally:
            pool.shutdown()

    _in_thread(go())
