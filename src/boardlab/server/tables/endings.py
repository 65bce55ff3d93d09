"""Ending a game besides its rules: resign, draw offers, abort, claiming the win from players away, and the
finish hooks."""

from __future__ import annotations

import time
from typing import Any

from ...core.record import outcome
from .. import clock as clocks
from ..endings import abort_allowed, draws_possible, ending_text, loss_returns
from ..errors import conflict, forbidden
from ..live import LiveTable
from ..store import StaleRevision
from ..views import table_names
from .base import PlatformBase, log


class Endings(PlatformBase):
    """Resigning, draws, aborts, claims: every end besides the rules goes through :meth:`_end`."""

    def _names(self, table: LiveTable) -> list[str]:
        """Each seat's one name at the table, as the banner says it (:func:`~boardlab.server.views.table_names`)."""
        state = table.state
        return table_names(table, state.game.scene(state.observation(None), []))[0]

    async def _end(
        self,
        table: LiveTable,
        how: str,
        seat: int | None,
        returns: list[float] | None,
        note: str | None = None,
        **extra: Any,
    ) -> None:
        """The one path by which the players (or a clock) end a game its rules have not ended; the caller holds the
        lock and has checked that the table is playing.

        ``how`` is one of :data:`~boardlab.server.endings.HOWS`, ``seat`` who did it (resigned, aborted, claimed,
        ran out of time; ``None``: everyone, a draw), ``returns`` the result (``None``: an abort, no result). It is
        stored with the revision check of a move (so a table is never ended twice nor reopened), the clock stops, a
        draw offer and sealed choices go, the log and the record say how in players' words, every page hears of it,
        and then :meth:`_finished` runs the finish hooks.
        """
        now = time.time()
        ending: dict[str, Any] = {"how": how, "seat": seat, "step": table.state.move_number(), "returns": returns}
        ending.update(extra)
        ending["at"] = now
        clock = table.clock
        if clock is not None:
            clock = clocks.stop(clock, self._timed(table), now)
            if how == "time":
                clock = {**clock, "forfeit": seat}
        status = "aborted" if how == "abort" else "finished"
        result = outcome(returns) if returns is not None else None
        text = ending_text(table.game, ending, self._names(table))
        notes = [*table.fresh_notes, note or text]
        new_rev = table.revision + 1
        try:
            await self._write(
                self.store.op_end, table.id, table.revision, new_rev, status, result, ending, clock, notes
            )
        except StaleRevision as e:
            await self._stale(table)
            raise conflict("stale", f"{e}; look again and retry", revision=table.revision) from None
        table.remote = False
        table.ending = ending
        table.clock = clock
        table.revision = new_rev
        table.pending = {}
        table.offer = None
        table.thinking = set()
        table.notes.append(notes[-1])
        table.fresh_notes = []
        if table.ai_task is not None and not table.ai_task.done():
            table.ai_task.cancel()
        self.ai.forget(table.id)
        self._broadcast(table)
        self._arm_clock(table)  # (stops it)
        self._finished(table)

    def final(self, table: LiveTable) -> dict[str, Any]:
        """How a finished table ended: ``{"how": "rules" | resign | draw | abort | claim | time, "seat", "result",
        "status", "rated_hint"}``; ``result`` is ``None`` for an abort (nobody wins, nothing to rate)."""
        ending = table.ending or {}
        return {
            "how": ending.get("how", "rules"),
            "seat": ending.get("seat"),
            "result": table.result(),
            "status": table.status(),
            "humans": table.human_seats(),
        }

    def _finished(self, table: LiveTable) -> None:
        """A game ended here (by its rules, a clock, or the players): the finish hooks run once, in this process."""
        final = self.final(table)
        for hook in list(self.finish_hooks):
            try:
                hook(table, final)
            except Exception:
                log.exception("table %s: a finish hook failed", table.id)

    def _playing(self, table: LiveTable, seat: int | None, what: str) -> int:
        """The seat that asks ``what`` of a table still in play (403 a spectator, 409 ``game_over``)."""
        if seat is None:
            raise forbidden(f"a spectator cannot {what}; only the players can")
        if table.over:
            raise conflict("game_over", "The game is over; a finished game is never reopened.")
        return seat

    async def _fresh(self, table: LiveTable) -> None:
        """Shared database: read the table again before ending it (another process may have moved or ended it)."""
        if self.store.shared:
            await self._reload(table)

    async def resign(self, table: LiveTable, seat: int | None) -> None:
        """``seat`` resigns: it loses and the game ends; every other player wins (co-operative: everyone loses)."""
        async with table.lock:
            await self._fresh(table)
            seat = self._playing(table, seat, "resign")
            await self._end(table, "resign", seat, loss_returns(table.game, table.state.num_players, [seat]))
        self._kick(table)

    async def abort(self, table: LiveTable, seat: int | None) -> None:
        """``seat`` aborts the game before a second player has moved: no result, nobody wins."""
        async with table.lock:
            await self._fresh(table)
            seat = self._playing(table, seat, "abort")
            if not abort_allowed(table.state):
                raise conflict(
                    "too_late_to_abort",
                    "A game can be aborted only until a second player has moved; you may resign instead.",
                )
            await self._end(table, "abort", seat, None)

    async def draw(self, table: LiveTable, seat: int | None, answer: str) -> None:
        """A draw: ``answer`` is ``offer``, ``accept`` or ``decline`` (the offerer declining withdraws the offer).

        Only where the game's result can be a tie and every seat is human; once every player has agreed, the game
        ends in a draw. Offering while another's offer stands accepts it.
        """
        async with table.lock:
            await self._fresh(table)
            seat = self._playing(table, seat, "offer or answer a draw")
            table.seen[seat] = time.time()  # (a player who answers is not away)
            if not draws_possible(table.game):
                raise conflict("no_draws", f"{table.game.title} has no draws: a game of it always has a winner.")
            if any(spec["kind"] != "human" for spec in table.seats):
                raise conflict("no_draws", "An AI does not agree to draws; you may resign instead.")
            names = self._names(table)
            humans = table.human_seats()
            offer = table.offer
            if answer == "offer" and offer is not None and offer["seat"] != seat:
                answer = "accept"
            if answer == "offer":
                if offer is not None:
                    raise conflict("already_offered", "You have offered a draw already; the others are deciding.")
                new: dict[str, Any] | None = {"seat": seat, "agreed": [seat]}
                note = f"{names[seat]} offers a draw."
            elif offer is None:
                raise conflict("no_offer", "Nobody has offered a draw.")
            elif answer == "accept":
                if seat in offer["agreed"]:
                    raise conflict("already_offered", "You have agreed already; the others are deciding.")
                agreed = sorted({*offer["agreed"], seat})
                if all(s in agreed for s in humans):
                    await self._end(table, "draw", None, [0.0] * table.state.num_players)
                    return
                new, note = {**offer, "agreed": agreed}, f"{names[seat]} accepts the draw."
            else:
                new = None
                note = (
                    f"{names[seat]} withdrew the offer of a draw."
                    if offer["seat"] == seat
                    else f"{names[seat]} declined the draw."
                )
            try:
                await self._write(self.store.op_offer, table.id, table.revision, new, [*table.fresh_notes, note])
            except StaleRevision as e:
                await self._stale(table)
                raise conflict("stale", f"{e}; look again and retry", revision=table.revision) from None
            table.offer = new
            table.notes.append(note)
            table.fresh_notes = []
            self._broadcast(table)

    def claimable(self, table: LiveTable) -> bool:
        """Whether the table allows a claim at all: online, two or more human seats, no days-per-move clock."""
        days = table.clock is not None and table.clock["kind"] == "days"
        return table.mode == "online" and len(table.human_seats()) > 1 and not days

    def away(self, table: LiveTable, elsewhere: dict[int, tuple[bool, float]] | None = None) -> list[float | None]:
        """Per seat, since when (wall-clock seconds) it has been away (no page open at the table here or, shared, at
        another process; no move), ``None`` for a seat that is here, an AI seat or a free seat."""
        here = table.present
        out: list[float | None] = []
        for s, spec in enumerate(table.seats):
            if spec["kind"] != "human" or table.seat_hashes[s] is None or s in here:
                out.append(None)
                continue
            on, at = (table.elsewhere if elsewhere is None else elsewhere).get(s, (False, 0.0))
            if on:
                out.append(None)
                continue
            out.append(round(max(table.seen.get(s, table.loaded_at), at, table.created_at), 2))
        return out

    async def claim(self, table: LiveTable, seat: int | None) -> None:
        """``seat`` claims the win: every player away past the grace period loses, the others win together."""
        async with table.lock:
            await self._fresh(table)
            seat = self._playing(table, seat, "claim the win")
            if not self.claimable(table):
                days = table.clock is not None and table.clock["kind"] == "days"
                raise conflict(
                    "cannot_claim",
                    "At a turn-based table the days a move decide: a player out of time loses."
                    if days
                    else "A win can be claimed only at an online table, from another player who has gone away.",
                )
            elsewhere = await self._db(self.store.presence, table.id)
            now = time.time()
            away = [None if a is None else now - a for a in self.away(table, elsewhere)]
            grace = self.settings.away_grace
            gone = [s for s, a in enumerate(away) if s != seat and a is not None and a >= grace]
            if not gone:
                waiting = [a for s, a in enumerate(away) if s != seat and a is not None]
                left = f" (in {grace - max(waiting):.0f} s if nobody comes back)" if waiting else ""
                raise conflict(
                    "not_away",
                    f"You can claim the win once another player has been away for {grace:g} seconds{left}.",
                )
            returns = loss_returns(table.game, table.state.num_players, gone)
            await self._end(table, "claim", seat, returns, away=gone)
