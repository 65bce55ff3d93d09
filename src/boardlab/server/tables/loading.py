"""Tables in memory: loading a table from the database, keeping the most recent ones, expiring abandoned ones."""

from __future__ import annotations

import asyncio
import time

from ...core.constants import SIMULTANEOUS
from ...core.driver import advance
from ...core.errors import IllegalActionError
from ..errors import ApiError, conflict, not_found
from ..live import LiveTable
from ..store import TableRow
from .base import TABLE_ID, PlatformBase, log


class Loading(PlatformBase):
    """Getting a table: from memory, or loaded from the database (its state replayed from the stored history)."""

    async def _resume_ai_tables(self) -> None:
        """Load the unfinished tables that have AI seats, so their AIs carry on; every other table loads on demand."""
        try:
            ids = await self._db(self.store.ai_table_ids)
        except Exception:
            log.exception("could not list tables to resume")
            return
        for table_id in ids:
            if self._stopping:
                return
            try:
                table = await self.get(table_id)
                if table.remote:  # resuming after a restart: its AI seats are this process's to run
                    table.remote = False
                    self._kick(table)
            except ApiError as e:
                log.warning("table %s not resumed: %s", table_id, e.message)

    async def expire(self) -> list[str]:
        """Expire the tables abandoned for ``expire_after`` seconds (none with someone connected); their ids."""
        keep = frozenset(t.id for t in self.tables.values() if t.connections)
        ids = await self._write(self.store.op_expire, time.time() - self.settings.expire_after, keep)
        for table_id in ids:
            table = self.tables.pop(table_id, None)
            if table is not None and table.ai_task is not None:
                table.ai_task.cancel()
        if ids:
            log.info("expired %d abandoned tables", len(ids))
        return ids

    async def _expire_regularly(self) -> None:
        every = min(3600.0, max(1.0, self.settings.expire_after / 10))
        while not self._stopping:
            try:
                await self.expire()
            except Exception:
                log.exception("could not expire abandoned tables")
            await asyncio.sleep(every)

    async def get(self, table_id: str) -> LiveTable:
        if not isinstance(table_id, str) or not TABLE_ID.match(table_id):
            raise not_found(f"no table {table_id!r}")
        table = self.tables.get(table_id)
        if table is not None:
            self.tables.move_to_end(table_id)
            if table.stale:
                async with table.lock:
                    await self._reload(table)
            self._kick(table)  # a remote table's AI seats: watched, and taken over if their process went quiet
            return table
        fut = self._loading.get(table_id)
        if fut is not None:
            return await asyncio.shield(fut)
        fut = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            row = await self._db(self.store.load, table_id)
            if row is None:
                raise not_found(f"no table {table_id!r}")
            if row.status == "expired":
                raise ApiError(410, "expired", "this table was abandoned (no move for a long time) and has expired")
            table = self._restore(row)
            if self.store.shared:  # who has a page open at the other processes
                table.elsewhere = await self._db(self.store.presence, table_id)
            # Shared database: a table changed moments ago is in play at another process, whose AI
            # seats think for it; one left longer than an AI move takes is this process's to run.
            table.remote = self.store.shared and time.time() - row.updated_at < self._ai_grace()
            self._cache(table)
            self._arm_clock(table)
            fut.set_result(table)
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # mark retrieved
            raise
        finally:
            del self._loading[table_id]
        self._kick(table)
        return table

    def _restore(self, row: TableRow) -> LiveTable:
        try:
            game = self.game_for(row.game, row.options)
        except ValueError as e:
            raise conflict("cannot_restore", f"table {row.id} cannot be resumed: {e}") from None
        if not game.replays(row.rules_version):
            raise conflict(
                "cannot_restore",
                f"table {row.id} was played under {row.game} rules version {row.rules_version}; "
                f"this server has version {game.rules_version}",
            )
        state = game.new_initial_state(row.num_players)
        try:
            advance(state, [m.entry for m in row.moves])
        except (IllegalActionError, ValueError) as e:
            raise conflict("cannot_restore", f"table {row.id} cannot be replayed: {e}") from None
        pending = row.pending if state.current_player() == SIMULTANEOUS else {}
        return LiveTable(
            id=row.id,
            game=game,
            mode=row.mode,
            seats=row.seats,
            seed=row.seed,
            state=state,
            labels=[m.label for m in row.moves],
            revision=row.revision,
            seat_hashes=row.seat_hashes,
            spectator_hash=row.spectator_hash,
            created_at=row.created_at,
            pending=dict(pending),
            chance_key=row.chance_key,
            open_watch=row.open_watch,
            rematch=row.rematch,
            clock=row.clock,
            notes=list(row.notes),
            ending=row.ending,
            offer=row.offer,
        )

    def _cache(self, table: LiveTable) -> None:
        self.tables[table.id] = table
        self.tables.move_to_end(table.id)
        excess = len(self.tables) - self.settings.max_cached_tables
        if excess <= 0:
            return
        for tid in list(self.tables)[:-1]:
            if excess <= 0:
                break
            t = self.tables[tid]
            if not t.connections and not t.lock.locked() and (t.ai_task is None or t.ai_task.done()):
                del self.tables[tid]
                excess -= 1
