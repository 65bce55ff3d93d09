"""Moves and undo: a move (or a sealed choice) applied to a copy of the state, chance sampled, stored, then
swapped in."""

from __future__ import annotations

import time

from ...core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from ...core.driver import apply_entry, play, replay, undo_refusal
from ...core.driver import undo_point as driver_undo_point
from ...core.errors import IllegalActionError
from ...core.game import HistoryEntry, State
from ...core.record import outcome
from ...core.wording import for_players
from .. import clock as clocks
from ..chance import draw as chance_draw
from ..errors import bad_request, conflict, forbidden, illegal
from ..live import LiveTable
from ..store import MoveRow, StaleRevision
from .base import PlatformBase


class Moves(PlatformBase):
    """A seat's move, sealed choice or undo, by the one path: a copy changed, stored, then swapped in."""

    async def act(
        self, table: LiveTable, seat: int | None, action: int | None, label: str | None, revision: int
    ) -> None:
        if seat is None:
            raise forbidden("a spectator cannot move; use a seat's invite link")
        async with table.lock:
            if self.store.shared and revision != table.revision:
                await self._reload(table)  # the client may have seen another process's move
            self._check_revision(table, revision)
            state = table.state
            cp = state.current_player()
            if cp == TERMINAL or table.over:
                raise conflict("game_over", "The game is over.")
            await self._refuse_if_late(table, [seat])
            if cp == SIMULTANEOUS:
                legal = state.legal_actions(seat)
                if not legal:
                    raise conflict("not_your_turn", f"{table.seats[seat]['name']} has no decision to make now.")
                if seat in table.pending:
                    raise conflict("already_submitted", "You have already chosen; withdraw your choice to change it.")
            elif cp != seat:
                raise conflict(
                    "not_your_turn",
                    for_players(state.explain_illegal(seat, action if action is not None else 0), table.names()),
                )
            else:
                legal = state.legal_actions(seat)
            action = self._resolve(state, seat, action, label, legal, table.names())
            if cp == SIMULTANEOUS:
                await self._submit(table, seat, action)
            else:
                await self._commit_action(table, seat, action)
        self._kick(table)

    def _resolve(
        self, state: State, seat: int, action: int | None, label: str | None, legal: list[int], names: list[str | None]
    ) -> int:
        if (action is None) == (label is None):
            raise bad_request("give exactly one of 'action' (a number) or 'label' (a move as text)")
        if label is not None:
            try:
                return state.string_to_action(seat, label)
            except IllegalActionError as e:
                raise illegal(for_players(e.explanation, names)) from None
        assert action is not None
        if action not in legal:
            try:
                text = state.explain_illegal(seat, action)
            except Exception:
                text = f"{action} is not one of the legal moves now."
            raise illegal(for_players(text, names), legal=len(legal))
        return action

    def _check_revision(self, table: LiveTable, revision: int) -> None:
        if revision != table.revision:
            raise conflict(
                "stale",
                f"the game has moved on (revision {table.revision}, you saw {revision}); look again and retry",
                revision=table.revision,
            )

    def _advance_chance(self, table: LiveTable, state: State, start_moves: list[MoveRow]) -> list[MoveRow]:
        """Sample every chance node from ``state`` on (in place) from the table's chance key (or seed)."""
        moves = list(start_moves)

        def draw(s: State) -> int:
            return chance_draw(s, table.chance_key, table.seed)

        def note(s: State, entry: HistoryEntry) -> None:
            assert isinstance(entry, int)
            moves.append(MoveRow(CHANCE, entry, s.action_to_string(CHANCE, entry)))

        play(state, None, draw, on_step=note)
        return moves

    async def _commit_action(self, table: LiveTable, seat: int, action: int) -> None:
        new = table.state.clone()
        label = new.action_to_string(seat, action)
        try:
            apply_entry(new, action, player=seat)
        except IllegalActionError as e:
            raise illegal(e.explanation) from None
        moves = self._advance_chance(table, new, [MoveRow(seat, action, label)])
        await self._persist(table, new, moves, clear_pending=False)

    async def _submit(self, table: LiveTable, seat: int, action: int) -> None:
        state = table.state
        deciding = [s for s in range(state.num_players) if state.legal_actions(s)]
        pending = dict(table.pending)
        pending[seat] = action
        if all(s in pending for s in deciding):
            joint: list[int | None] = [pending.get(s) if s in deciding else None for s in range(state.num_players)]
            new = state.clone()
            labels = [new.action_to_string(s, a) if a is not None else None for s, a in enumerate(joint)]
            try:
                apply_entry(new, joint)
            except IllegalActionError as e:
                raise illegal(e.explanation) from None
            moves = self._advance_chance(table, new, [MoveRow(SIMULTANEOUS, joint, labels)])
            await self._persist(table, new, moves, clear_pending=True)
        else:
            notes, table.fresh_notes = table.fresh_notes, []
            try:
                stored = await self._write(self.store.op_set_pending, table.id, seat, action, table.revision, notes)
            except StaleRevision as e:
                await self._stale(table)
                raise conflict("stale", str(e)) from None
            table.remote = False
            if table.clock is not None:  # the seat has chosen: its time stops (kept in memory until the reveal)
                table.clock = clocks.charge(table.clock, self._timed(table), time.time(), new_turn=False)
            if stored is not None and stored != pending:
                # Another process sealed choices too: the database's list (read under the row lock) is
                # the whole of it; whoever stores the last one reveals them all.
                table.pending = stored
                if all(s in stored for s in deciding):
                    await self._submit(table, seat, action)
                    return
            table.pending = pending if stored is None else stored
            self._broadcast(table)

    async def _persist(self, table: LiveTable, new: State, moves: list[MoveRow], clear_pending: bool) -> None:
        start = table.state.move_number()
        new_rev = table.revision + 1
        status = "finished" if new.is_terminal() else "playing"
        result = outcome(new.returns()) if new.is_terminal() else None
        clock = self._clock_after(table, new)
        movers = {s for m in moves for s in _movers(m)}
        lapse = table.offer is not None and bool(movers - {table.offer["seat"]})  # another's move declines it
        notes, table.fresh_notes = table.fresh_notes, []  # stored with the change, or dropped with it
        if lapse:
            notes.append(f"{self._names(table)[table.offer['seat']]}'s offer of a draw lapsed with the next move.")
        try:
            await self._write(
                self.store.op_append_moves,
                table.id,
                start,
                moves,
                table.revision,
                new_rev,
                status,
                result,
                clear_pending,
                clock,
                notes,
                lapse,
            )
        except StaleRevision as e:
            await self._stale(table)
            raise conflict("stale", f"{e}; look again and retry") from None
        if lapse:
            table.offer = None
            table.notes.append(notes[-1])
        now = time.time()
        for s in movers:
            table.seen[s] = now
        table.remote = False
        table.state = new
        if new.is_terminal():
            self.ai.forget(table.id)  # its AI seats' kept search trees
        table.labels = table.labels + [m.label for m in moves]
        table.revision = new_rev
        table.clock = clock
        if clear_pending:
            table.pending = {}  # before the views go out: nobody is still "choosing" once the choices are revealed
        self._broadcast(table)
        self._arm_clock(table)
        if new.is_terminal():
            self._finished(table)

    def undo_point(self, table: LiveTable, seat: int | None) -> int | None:
        """The history length an undo by ``seat`` would rewind to, or ``None`` (:func:`boardlab.core.driver.undo_point`)."""
        if table.over:  # by the rules or on time: a finished game is never taken back
            return None
        return driver_undo_point(table.state, seat, table.mode, table.human_seats())

    def can_undo(self, table: LiveTable, seat: int | None) -> bool:
        if seat is not None and seat in table.pending and not table.over:
            return True
        return self.undo_point(table, seat) is not None

    async def undo(self, table: LiveTable, seat: int | None, revision: int) -> None:
        if seat is None:
            raise forbidden("a spectator cannot undo")
        async with table.lock:
            if self.store.shared and revision != table.revision:
                await self._reload(table)
            self._check_revision(table, revision)
            if table.over:
                raise conflict("game_over", "The game is over; a finished game cannot be taken back.")
            await self._refuse_if_late(table, self._timed(table))
            if seat in table.pending:
                try:
                    stored = await self._write(self.store.op_set_pending, table.id, seat, None, table.revision)
                except StaleRevision as e:
                    await self._stale(table)
                    raise conflict("stale", str(e)) from None
                table.pending = {s: a for s, a in table.pending.items() if s != seat} if stored is None else stored
                self._broadcast(table)
                return
            point = self.undo_point(table, seat)
            if point is None:
                raise conflict("cannot_undo", undo_refusal(table.state, seat, table.mode))
            state = table.state
            new = replay(table.game, state.history()[:point], state.num_players)
            new_rev = table.revision + 1
            clock = self._clock_after(table, new)
            try:
                await self._write(
                    self.store.op_truncate, table.id, point, table.revision, new_rev, "playing", None, clock
                )
            except StaleRevision as e:
                await self._stale(table)
                raise conflict("stale", str(e)) from None
            table.remote = False
            table.clock = clock
            self._arm_clock(table)
            table.state = new
            table.labels = table.labels[:point]
            table.revision = new_rev
            table.pending = {}
            self._broadcast(table)
        self._kick(table)


def _movers(m: MoveRow) -> list[int]:
    """The seats that decided in a stored step (none for chance; every seat in a simultaneous step)."""
    if m.actor == SIMULTANEOUS and isinstance(m.entry, list):
        return [s for s, a in enumerate(m.entry) if a is not None]
    return [m.actor] if m.actor >= 0 else []
