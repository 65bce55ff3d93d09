"""Views and live updates: each seat's view (built once per change and shared), sockets coming and going, presence."""

from __future__ import annotations

import json
import time
from typing import Any

from ..endings import abort_allowed, draws_possible
from ..live import Connection, LiveTable
from ..views import build_view, geometry_text
from .base import PlatformBase, log_failure


class Broadcasting(PlatformBase):
    """Views for the seats and spectators, and the live updates to every socket."""

    def view(self, table: LiveTable, seat: int | None) -> dict[str, Any]:
        view = build_view(table, seat, can_undo=self.can_undo(table, seat))
        view["endings"] = self.endings_view(table, seat)
        return view

    def endings_view(self, table: LiveTable, seat: int | None) -> dict[str, Any]:
        """What the seat may do to end the game now, and who is away: the table page's buttons.

        ``away_since``: per seat since when it has been away (server wall-clock seconds; ``None``: here, AI or free);
        ``claim_after``: the grace before a claim (``None``: this table allows none).
        """
        playing = not table.over and seat is not None
        offer = table.offer
        can_draw = playing and draws_possible(table.game) and all(spec["kind"] == "human" for spec in table.seats)
        return {
            "can_resign": playing,
            "can_abort": playing and abort_allowed(table.state),
            "can_offer_draw": can_draw and offer is None,
            "draw_offer": {"seat": offer["seat"], "agreed": list(offer["agreed"])} if offer else None,
            "can_answer_draw": can_draw and offer is not None and seat not in offer["agreed"],
            "away_since": self.away(table),
            "claim_after": self.settings.away_grace if playing and self.claimable(table) else None,
            "ended": {k: v for k, v in table.ending.items() if k != "at"} if table.ending else None,
        }

    def view_json(self, table: LiveTable, seat: int | None) -> str:
        """The view as JSON text, encoded once per change of the table and shared by every reader."""
        return self._cached_view(table, seat)[0]

    def _cached_view(self, table: LiveTable, seat: int | None) -> tuple[str, str | None]:
        cached = table.view_cache.get(seat)
        # a running clock's view says the time left now: built afresh for every reader
        if cached is not None and cached[0] == table.stamp and table.clock is None:
            return cached[1], cached[2]
        view = self.view(table, seat)
        text = json.dumps(view, separators=(",", ":"), ensure_ascii=False)
        gid = view["scene"].get("geometry")
        table.view_cache[seat] = (table.stamp, text, gid)
        return text, gid

    def connect(self, table: LiveTable, conn: Connection) -> None:
        """A socket joined: it gets its view; the others hear only of a seat that came online (spectators: nothing)."""
        before = table.present
        table.connections.append(conn)
        changed = table.present != before
        if changed:
            table.touch()  # cached views show presence
            self._seen(table, {s: True for s in table.present - before})
        self.push_view(table, conn)
        if changed:
            self._send_presence(table, skip=conn)
        if not conn.present:
            self._count_spectators(table)

    def disconnect(self, table: LiveTable, conn: Connection) -> None:
        if conn in table.connections:
            before = table.present
            table.connections.remove(conn)
            if table.present != before:
                table.touch()
                self._seen(table, {s: False for s in before - table.present})
                self._send_presence(table)
            if not conn.present:
                self._count_spectators(table)

    def _count_spectators(self, table: LiveTable) -> None:
        """An open table's spectators here changed: store the count, for the lobby at other processes (PostgreSQL)."""
        if not self.store.shared or table.open_watch is None or self._stopping:
            return
        self.writer.submit(self.store.op_watchers, table.id, table.spectators).add_done_callback(log_failure)

    def _seen(self, table: LiveTable, seats: dict[int, bool]) -> None:
        """Pages for ``seats`` came (``True``) or went here: when each was last seen (stored for the other processes
        where they share the database, so a seat connected there is not away)."""
        now = time.time()
        for s in seats:
            table.seen[s] = now
        if self.store.shared and not self._stopping:
            self.writer.submit(self.store.op_presence, table.id, seats, now).add_done_callback(log_failure)

    def _send_presence(self, table: LiveTable, skip: Connection | None = None) -> None:
        """A small message, not a view per socket: who is online now, one flag per seat (AI seats always are), and for
        each seat away since when (``away_since``), with the grace after which the others may claim the win
        (``claim_after``; ``null`` where the table allows no claim)."""
        present = table.present_anywhere
        flags = [spec["kind"] == "ai" or s in present for s, spec in enumerate(table.seats)]
        grace = self.settings.away_grace if self.claimable(table) and not table.over else None
        message = json.dumps(
            {"type": "presence", "present": flags, "away_since": self.away(table), "claim_after": grace},
            separators=(",", ":"),
        )
        for c in list(table.connections):
            if c is not skip:
                c.send(message)

    def push_view(self, table: LiveTable, conn: Connection) -> None:
        text, gid = self._cached_view(table, conn.view_seat)
        self._send(conn, _message(text, conn.view_seat), gid)

    def _send(self, conn: Connection, message: str, gid: str | None) -> None:
        if gid is not None and gid not in conn.geometries:
            shapes = geometry_text(gid)
            if shapes is not None:
                conn.send(f'{{"type":"geometry","geometry":{shapes}}}')
                conn.geometries.add(gid)
        conn.send(message)

    def _broadcast(self, table: LiveTable) -> None:
        """Something changed: forget cached views and send every connection its seat's new view."""
        table.touch()
        cache: dict[int | None, tuple[str, str | None]] = {}
        for conn in list(table.connections):
            s = conn.view_seat
            if s not in cache:
                text, gid = self._cached_view(table, s)
                cache[s] = (_message(text, s), gid)
            self._send(conn, *cache[s])
        for hook in self.on_change:
            hook(table)

    def _note(self, table: LiveTable, text: str) -> None:
        """A note for the table's pages ("Ann ran out of time: pass."), stored with the change that follows."""
        table.notes.append(text)
        table.fresh_notes.append(text)


def _message(view_text: str, seat: int | None) -> str:
    return f'{{"type":"view","seat":{json.dumps(seat)},"view":{view_text}}}'
