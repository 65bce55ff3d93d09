"""What every part of :class:`~boardlab.server.tables.Platform` shares: its settings, its state, storage access.

:class:`PlatformBase` holds the state (the store and its group-commit writer, the reader pool, the AI pool, the
tables in memory, the background tasks) and the three ways to the database and the loop every part uses:
:meth:`~PlatformBase._db` (a read), :meth:`~PlatformBase._write` (a write, committed before it returns) and
:meth:`~PlatformBase._spawn` (a background task, cancelled at :meth:`~boardlab.server.tables.Platform.stop`).
Each concern of the platform is a class of its own module built on it (moves, clocks, endings, ...), and
:class:`~boardlab.server.tables.Platform` is made of them all.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from ...core.game import Game
from ...games import make_cached
from ..ai import AIPool
from ..errors import ApiError
from ..limits import Limits, Quotas
from ..live import LiveTable
from ..store import GroupWriter, Listener, StaleRevision, Store

log = logging.getLogger("boardlab.server")
T = TypeVar("T")

MODES = ("ai", "hotseat", "online")
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
#: The longest chat message, and how many messages a table keeps (the oldest go first).
CHAT_MAX = 500
CHAT_KEEP = 200


@dataclass
class Settings:
    db_url: str | None = None
    #: AI worker processes (``None``: CPU count minus one, at least 2).
    ai_workers: int | None = None
    #: Seconds an AI move may think: an MCTS search stops there and plays its best move so far, and
    #: no seat may ask for more (``seconds=…`` in its spec).
    ai_move_seconds: float = 5.0
    #: Seconds past ``ai_move_seconds`` after which a worker that has not answered is replaced
    #: and the table plays a legal move drawn from its own seeded generator.
    ai_move_margin: float = 3.0
    #: Minimum seconds an AI move takes, so people can follow the game.
    ai_delay: float = 0.4
    #: Tables kept in memory; idle ones beyond this are dropped (they reload from the database).
    max_cached_tables: int = 5000
    #: Reload unfinished tables with AI seats at start so their AIs carry on.
    resume_ai: bool = True
    #: Seconds without a move after which an unfinished table is abandoned: it expires (0: never).
    expire_after: float = 30 * 24 * 3600.0
    #: Per-client limits on new tables, moves and sockets (:mod:`boardlab.server.limits`).
    quotas: Quotas = field(default_factory=Quotas)
    #: Seconds a player must have been away (no page open at the table, no move) before another may claim the win.
    away_grace: float = 300.0
    #: Seconds in a day of a turn-based table's "days a move" (shorter in tests).
    day_seconds: float = 24 * 3600.0


class RematchTaken(Exception):
    """The table has a rematch already (another process sharing the database made it): ``rematch``."""

    def __init__(self, rematch: dict[str, Any]) -> None:
        super().__init__(f"the rematch is table {rematch['id']}")
        self.rematch = rematch


class PlatformBase:
    """The state and storage access that every part of the platform shares."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.store = Store(self.settings.db_url)
        #: Writes go through one group-commit thread; reads through a small pool.
        self.writer = GroupWriter(self.store)
        self._db_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="boardlab-db-read")
        self.ai = AIPool(self.settings.ai_workers)
        self.limits = Limits(self.settings.quotas)
        self.tables: OrderedDict[str, LiveTable] = OrderedDict()
        self._loading: dict[str, asyncio.Future[LiveTable]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopping = False
        self.listener: Listener | None = None
        self._refreshing: set[str] = set()
        self._watching: set[str] = set()
        #: Called as ``hook(table, final)`` once a game ends here, however it ended (:meth:`_finished`): the place
        #: where rated games will be scored. ``final`` is :meth:`final`'s dict. Only the process that stored the end
        #: calls it (the others hear of the table's change, not of a new end).
        self.finish_hooks: list[Callable[[LiveTable, dict[str, Any]], None]] = []
        #: Called with the table after every change is broadcast (this process's or another's): accounts settle
        #: finished rated games there (server/account_routes.py).
        self.on_change: list[Callable[[LiveTable], None]] = []

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _db(self, fn: Callable[..., T], *args: Any) -> T:
        """A read, in the reader pool."""
        return await asyncio.get_running_loop().run_in_executor(self._db_pool, partial(fn, *args))

    async def _write(self, op: Callable[..., T], *args: Any) -> T:
        """A write, committed (with others queued at the same time) before this returns.

        A stale revision comes back as :class:`StaleRevision`; any other failure of the
        database as a 503 error (nothing was stored, and the caller changes nothing).
        """
        try:
            return await asyncio.wrap_future(self.writer.submit(op, *args))
        except StaleRevision:
            raise
        except Exception as e:
            log.exception("database write failed")
            raise ApiError(
                503, "storage_unavailable", f"the database refused the change, nothing changed ({e})"
            ) from None

    def game_for(self, game_id: str, options: dict[str, Any]) -> Game:
        """The game with these options, shared between tables (the one game cache, :func:`~boardlab.games.make_cached`)."""
        return make_cached(game_id, **options)


def log_failure(done: Future[Any]) -> None:
    """A write nobody waits for (a count for the lobby): log it if it failed."""
    if not done.cancelled() and done.exception() is not None:
        log.warning("a write failed: %s", done.exception())
