"""The live tables: moves, chance, sealed choices, undo, AI seats, storage and broadcasts.

One :class:`Platform` per server. Each table lives in memory as a
:class:`LiveTable` (its state rebuilt from the stored history when first
needed) and is changed only under its own lock:

1. check the token's seat, the revision the client saw and the turn;
2. apply the action to a *copy* of the state (an illegal action raises and
   nothing changes), sample any chance nodes that follow from the table's
   secret chance key (:mod:`boardlab.server.chance`);
3. commit the new history entries to the database;
4. only then swap the copy in, bump the revision and broadcast the new views.

So a move is acknowledged only once it is stored, readers never see an
unstored move, and of two conflicting moves exactly one is accepted (the
second finds a new revision). AI seats are asked in worker processes
(:mod:`boardlab.server.ai`); their answers go through the same path.

Several server processes may share one PostgreSQL database (``Store.shared``):
the database serialises writes to a table (row lock, revision check), each
process hears the others' commits (``LISTEN``/``NOTIFY``, :class:`~boardlab.server.store.Listener`)
and refreshes its copy of that table from the database, broadcasting to its own
sockets; a table whose last change came from elsewhere leaves its AI seats to
the process that made it, until nothing is heard from there for longer than an AI
move takes. Chat messages, notes, rematches and the lobby's spectator counts go
through the database too, so every process's pages see the same table.

:class:`Platform` is made of one part per concern, each a class of its own module built on
:class:`~boardlab.server.tables.base.PlatformBase` (the shared state, ``_db`` for a read, ``_write`` for a
write): :mod:`~.loading`, :mod:`~.creating`, :mod:`~.moves` (moves, sealed choices and undo), :mod:`~.clocks`,
:mod:`~.endings`, :mod:`~.lobby`, :mod:`~.chat`, :mod:`~.ai_seats`, :mod:`~.sharing` and :mod:`~.broadcast`. The
parts call one another through ``self`` (a move arms the clock, broadcasts and kicks the AI seats); none
imports another, and none imports this package.
"""

from __future__ import annotations

import asyncio
import contextlib

from ..live import Connection, LiveTable
from ..store import Listener
from .ai_seats import AISeats
from .base import CHAT_KEEP, CHAT_MAX, MODES, TABLE_ID, PlatformBase, RematchTaken, Settings, log_failure
from .broadcast import Broadcasting
from .chat import Chat
from .clocks import Clocks
from .creating import Creating, seed_refusal
from .endings import Endings
from .loading import Loading
from .lobby import Lobby
from .moves import Moves
from .sharing import Sharing

__all__ = [
    "CHAT_KEEP",
    "CHAT_MAX",
    "MODES",
    "TABLE_ID",
    "Connection",
    "LiveTable",
    "Platform",
    "PlatformBase",
    "RematchTaken",
    "Settings",
    "seed_refusal",
]


class Platform(Creating, Loading, Moves, Clocks, Endings, Lobby, Chat, AISeats, Sharing, Broadcasting):
    """All tables of one server: creation, moves, undo, AI, storage and live updates (one part per module here)."""

    async def start(self) -> None:
        if self.store.shared:
            loop = asyncio.get_running_loop()
            self.listener = Listener(
                self.store,
                lambda *change: loop.call_soon_threadsafe(self._changed_elsewhere, *change),
            )
            await asyncio.to_thread(self.listener.ready.wait, 10)
            self.writer.submit(self.store.op_forget_watchers, True).add_done_callback(log_failure)  # processes gone
        self._spawn(self.ai.warm())
        if self.settings.resume_ai:
            self._spawn(self._resume_ai_tables())
        if self.settings.expire_after > 0:
            self._spawn(self._expire_regularly())

    async def stop(self) -> None:
        self._stopping = True
        for t in list(self.tables.values()):
            if t.ai_task is not None:
                t.ai_task.cancel()
            if t.clock_timer is not None:
                t.clock_timer.cancel()
            for c in list(t.connections):
                c.close()
        for task in list(self._tasks):
            task.cancel()
        if self.listener is not None:
            self.listener.close()
        self.ai.shutdown()
        if self.store.shared:
            with contextlib.suppress(Exception):  # this process's spectators are gone (if not, its origin is)
                self.writer.submit(self.store.op_forget_watchers).result(timeout=5)
        self.writer.close()
        self._db_pool.shutdown(wait=True)
        self.store.close()
