"""Open tables and a browser's tables: the lobby's list, taking a free seat, renaming a seat, and where it is your
move."""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ...games import game_class
from .. import clock as clocks
from ..errors import ApiError, bad_request, conflict, forbidden
from ..live import LiveTable, token_hash
from ..seatnames import clean_name, holder
from ..store import StaleRevision
from ..views import to_act
from .base import PlatformBase


class Lobby(PlatformBase):
    """The open tables anyone may join, and a browser's own tables."""

    async def open_tables(self) -> list[dict[str, Any]]:
        """The lobby's list: unfinished open tables with their game, options, seats (taken or free) and spectators."""
        rows = await self._db(self.store.open_tables)
        elsewhere = await self._db(self.store.spectators, [row.id for row in rows])  # other processes' spectators
        out = []
        for row in rows:
            live = self.tables.get(row.id)
            seats = live.seats if live is not None else row.seats
            hashes = live.seat_hashes if live is not None else row.seat_hashes
            try:
                title = game_class(row.game).title
            except Exception:
                continue
            out.append(
                {
                    "id": row.id,
                    "game": row.game,
                    "title": title,
                    "options": row.options,
                    "num_players": row.num_players,
                    "seats": [
                        {
                            "seat": s,
                            "name": spec["name"],
                            "kind": spec["kind"],
                            "free": spec["kind"] == "human" and hashes[s] is None,
                        }
                        for s, spec in enumerate(seats)
                    ],
                    "free": sum(1 for s, spec in enumerate(seats) if spec["kind"] == "human" and hashes[s] is None),
                    "spectators": (live.spectators if live is not None else 0) + elsewhere.get(row.id, 0),
                    "clock": clocks.describe(row.clock) if row.clock else None,
                    # told before anyone joins: chance here comes from a seed its creator knows
                    "seeded": row.chance_key is None,
                    "watch": f"/table/{row.id}#t={row.open_watch}",
                    "created_at": row.created_at,
                }
            )
        return out

    async def join(self, table: LiveTable, seat: int | None, name: str | None) -> tuple[int, str]:
        """Take a free seat of an open table (``seat``, or the first free one) under ``name``: the seat and its token."""
        if table.open_watch is None:
            raise forbidden("this table is not open: ask its host for a seat's invite link")
        if name is not None:
            try:
                name = clean_name(name)
            except ValueError as e:
                raise bad_request(str(e)) from None
        async with table.lock:
            if table.over:
                raise conflict("game_over", "The game is over.")
            free = table.free_seats()
            if not free:
                raise conflict("no_free_seat", "Every seat at this table is taken; you can still watch.")
            if seat is None:
                seat = free[0]
            elif seat not in free:
                raise conflict(
                    "seat_taken",
                    f"{table.seats[seat]['name'] if 0 <= seat < len(table.seats) else 'That seat'}"
                    " is not free; free seats: " + ", ".join(table.seats[s]["name"] for s in free),
                )
            if name and (other := holder([spec["name"] for spec in table.seats], name, skip=seat)) is not None:
                raise conflict(
                    "name_taken",
                    f"{table.seats[other]['name']!r} is already a seat's name at this table; choose another name.",
                )
            token = secrets.token_urlsafe(18)
            seats = [dict(spec) for spec in table.seats]
            if name:
                seats[seat]["name"] = name
            hashes = list(table.seat_hashes)
            hashes[seat] = token_hash(token)
            new_rev = table.revision + 1
            clock = table.clock
            if clock is not None and len(free) == 1:  # the last free seat: the clocks start now
                clock = clocks.start(clock, time.time())
            try:
                await self._write(self.store.op_seat, table.id, seats, hashes, table.revision, new_rev, clock)
            except StaleRevision as e:
                await self._stale(table)
                raise conflict("stale", str(e)) from None
            table.seats, table.seat_hashes, table.revision, table.clock = seats, hashes, new_rev, clock
            table.known_tokens[seat] = token
            self._broadcast(table)
            self._arm_clock(table)
        self._kick(table)
        return seat, token

    async def rename_seat(
        self, table: LiveTable, seat: int, name: str, renamed: Callable[[], Awaitable[None]] | None = None
    ) -> bool:
        """Give ``seat`` the name ``name`` (the caller holds the table's lock and has chosen a name no other seat
        has): stored under the revision check, then ``renamed()`` runs (what else carries the name, such as the
        chat), then every page hears of it. ``False``: another process changed the table first (it is read again),
        and nothing is renamed."""
        seats = [dict(spec) for spec in table.seats]
        seats[seat]["name"] = name
        rev = table.revision
        try:
            await self._write(self.store.op_seat, table.id, seats, list(table.seat_hashes), rev, rev + 1, table.clock)
        except StaleRevision:
            await self._stale(table)
            return False
        if renamed is not None:
            await renamed()
        table.seats, table.revision = seats, rev + 1
        self._broadcast(table)
        return True

    async def my_tables(self, pairs: list[tuple[str, str]]) -> dict[str, Any]:
        """For each ``(table id, token)`` a browser holds: the token's seat, the table's state, and whether that seat
        is to move now (``your_turn``), with its turn clock's deadline. A token that is not the table's, or a table
        that is gone, says ``gone`` (nothing else of it); the count of tables waiting for your move comes with it."""
        out: list[dict[str, Any]] = []
        for table_id, token in pairs:
            item: dict[str, Any] = {"id": table_id, "game": None, "title": None, "seat": None, "your_turn": False}
            try:
                table = await self.get(table_id)
                seat = table.seat_of(token)
            except ApiError as e:
                out.append({**item, "status": "expired" if e.status == 410 else "gone"})
                continue
            acting = [] if table.over else to_act(table)
            mine = seat is not None and seat in acting
            deadline = None
            if mine and table.clock is not None and self._clock_runs(table):
                deadline = clocks.deadline(table.clock, seat)
            out.append(
                {
                    **item,
                    "game": table.game.id,
                    "title": table.game.title,
                    "seat": seat,
                    "status": table.status(),
                    "your_turn": mine,
                    "deadline": deadline,
                    "clock": clocks.describe(table.clock) if table.clock else None,
                }
            )
        return {"tables": out, "your_turn": len({t["id"] for t in out if t["your_turn"]})}
