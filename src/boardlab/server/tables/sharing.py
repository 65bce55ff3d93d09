"""Other processes sharing the database (PostgreSQL): hearing their changes and bringing a table up to date."""

from __future__ import annotations

import contextlib
import json
import time

from ...core.constants import SIMULTANEOUS
from ...core.driver import advance
from ...core.errors import IllegalActionError
from ..errors import conflict
from ..live import LiveTable
from .base import PlatformBase, log


class Sharing(PlatformBase):
    """Changes made by other processes that share the database, and catching up with them."""

    def _changed_elsewhere(self, table_id: str | None, revision: int, what: str = "table", data: str = "") -> None:
        """Another process committed a change to ``table_id`` (``None``: to any table, announcements were lost).

        ``what`` changed: the table, or its chat (``data``: the new message; :data:`~boardlab.server.store.CHANGES`).
        """
        if self._stopping:
            return
        if what == "chat":
            table = self.tables.get(table_id) if table_id is not None else None
            if table is not None:
                with contextlib.suppress(ValueError):
                    self._send_chat(table, json.loads(data))
            return
        if what == "presence":
            table = self.tables.get(table_id) if table_id is not None else None
            if table is not None:
                self._spawn(self._presence_elsewhere(table))
            return
        tables = list(self.tables.values()) if table_id is None else [self.tables.get(table_id)]
        for table in tables:
            if table is None:
                continue
            table.stale = True
            if table.connections and table.id not in self._refreshing:
                self._refreshing.add(table.id)  # one refresh at a time; it reads whatever is newest
                self._spawn(self._refresh(table))

    async def _presence_elsewhere(self, table: LiveTable) -> None:
        """A page came or went at another process: read who is where, and tell this process's pages if it shows."""
        try:
            elsewhere = await self._db(self.store.presence, table.id)
        except Exception:
            log.exception("table %s: could not read who is at the table elsewhere", table.id)
            return
        if elsewhere != table.elsewhere:
            table.elsewhere = elsewhere
            table.touch()
            self._send_presence(table)

    async def _refresh(self, table: LiveTable) -> None:
        try:
            async with table.lock:
                self._refreshing.discard(table.id)
                await self._reload(table)
        except Exception:
            self._refreshing.discard(table.id)
            log.exception("table %s: could not refresh from the database", table.id)

    async def _stale(self, table: LiveTable) -> None:
        """A write found a newer revision: another process moved first; catch up (the caller holds the lock)."""
        if self.store.shared:
            try:
                await self._reload(table)
            except Exception:
                log.exception("table %s: could not refresh from the database", table.id)

    async def _reload(self, table: LiveTable) -> None:
        """Bring ``table`` up to the database's copy in place (the caller holds its lock) and broadcast any change."""
        table.stale = False
        row = await self._db(self.store.load, table.id)
        if row is None or row.status == "expired":
            return
        table.seats, table.seat_hashes = row.seats, row.seat_hashes
        if row.rematch != table.rematch:  # asked for at another process: every page here hears where it is
            table.rematch = row.rematch
            self._broadcast(table)
        if row.clock != table.clock:
            table.clock = row.clock
            table.touch()
            self._arm_clock(table)
        pending = row.pending
        if row.offer != table.offer:  # a draw offered, accepted or declined at another process (same revision)
            table.offer = row.offer
            table.notes, table.fresh_notes = list(row.notes), []
            self._broadcast(table)
        if row.ending != table.ending:
            table.ending = row.ending
        if row.revision == table.revision:
            if pending == table.pending or table.state.current_player() != SIMULTANEOUS:
                return
            table.pending = dict(pending)
            table.notes, table.fresh_notes = list(row.notes), []
            self._broadcast(table)
            return
        history = table.state.history()
        entries = [m.entry for m in row.moves]
        if len(entries) >= len(history) and entries[: len(history)] == history:
            state = table.state.clone()  # only new entries: replay those alone
            try:
                advance(state, entries[len(history) :])
            except (IllegalActionError, ValueError) as e:
                raise conflict("cannot_restore", f"table {row.id} cannot be replayed: {e}") from None
        else:  # an undo elsewhere: replay it all
            state = self._restore(row).state
        now = time.time()
        for m in row.moves[len(history) :]:  # a seat that moved elsewhere is not away
            if isinstance(m.actor, int) and m.actor >= 0:
                table.seen[m.actor] = now
        table.state = state
        table.labels = [m.label for m in row.moves]
        table.revision = row.revision
        table.pending = dict(pending) if state.current_player() == SIMULTANEOUS else {}
        table.notes, table.fresh_notes = list(row.notes), []  # (a note made here for a change that lost goes too)
        table.remote = True
        table.thinking = set()
        self._broadcast(table)
        self._kick(table)  # the other process runs its AI seats; if it goes quiet, this one takes them over
