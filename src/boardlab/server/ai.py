"""AI seats think here, in worker processes, never on the server's event loop.

:func:`choose` runs inside a worker: it rebuilds the position from the
table's history and asks the agent for a move through a
:class:`~boardlab.core.view.SeatView` (the agent sees only its seat's
knowledge). :class:`AIPool` owns the process pool and replaces it if a worker
dies.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..agents import agent_names, level_names, make_agent
from ..core.driver import replay
from ..core.game import HistoryEntry
from ..core.view import SeatView
from ..games import make_cached

#: Level names offered in the lobby when the agents package defines them.
LEVEL_NAMES = ("easy", "medium", "hard", "expert")


def choose(
    game_id: str,
    options: dict[str, Any],
    num_players: int,
    history: list[HistoryEntry],
    seat: int,
    spec: str,
    seed: int,
) -> int:
    """The agent's action for ``seat`` in the position after ``history`` (runs in a worker)."""
    game = make_cached(game_id, **options)  # per worker process: building a board can take milliseconds
    state = replay(game, history, num_players)
    agent = make_agent(spec, game, seat, seed)
    action = agent.step(SeatView(state, seat))
    return int(action)


def _warm() -> int:
    """Import the games and agents in a fresh worker (called once per worker at start)."""
    import boardlab.agents
    import boardlab.games  # noqa: F401

    return os.getpid()


def available_agents() -> dict[str, Any]:
    """Agent specs usable now: registered agents plus any registered level names.

    ``only_random`` says that no real AI is available yet (the lobby says so).
    """
    names = agent_names()
    levels = [str(x) for x in level_names()] or [n for n in LEVEL_NAMES if n in names]
    others = [n for n in names if n not in levels]
    return {
        "levels": levels,
        "agents": others,
        "all": levels + others,
        "default": levels[0] if levels else ("random" if "random" in names else (names[0] if names else "")),
        "only_random": set(names) <= {"random"} and not levels,
    }


class AIPool:
    """A process pool for AI moves; ``workers=0`` uses the CPU count minus one (at least 1)."""

    def __init__(self, workers: int | None = None) -> None:
        n = workers if workers and workers > 0 else max(1, (os.cpu_count() or 2) - 1)
        self.workers = n
        self._pool: ProcessPoolExecutor | None = None
        self._ctx = multiprocessing.get_context("spawn")

    def _get(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=self._ctx)
        return self._pool

    async def warm(self) -> None:
        loop = asyncio.get_running_loop()
        pool = self._get()
        await asyncio.gather(*(loop.run_in_executor(pool, _warm) for _ in range(self.workers)))

    async def choose(
        self,
        game_id: str,
        options: dict[str, Any],
        num_players: int,
        history: list[HistoryEntry],
        seat: int,
        spec: str,
        seed: int,
    ) -> int:
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            try:
                return await loop.run_in_executor(
                    self._get(), choose, game_id, options, num_players, history, seat, spec, seed
                )
            except BrokenProcessPool:
                # A worker died (killed, out of memory): start a fresh pool and try once more.
                self._reset()
                if attempt:
                    raise
        raise RuntimeError("unreachable")

    def _reset(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def seed_for(table_seed: int, index: int, seat: int) -> int:
    """A reproducible seed for the agent deciding at history ``index``."""
    return random.Random(f"agent:{table_seed}:{index}:{seat}").getrandbits(32)
