"""Turn clocks: the timer for the first deadline, and a seat's time running out (its default move, or its loss)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from ...core.constants import SIMULTANEOUS
from ...core.game import State
from .. import clock as clocks
from ..errors import ApiError, conflict
from ..live import LiveTable
from ..views import table_names, to_act
from .base import PlatformBase, log


class Clocks(PlatformBase):
    """The turn clocks of the tables: their timers, and what happens when a seat's time runs out."""

    def _timed(self, table: LiveTable) -> list[int]:
        """The seats on the clock now: human seats that must decide (not those that have chosen in secret)."""
        return [s for s in to_act(table) if table.seats[s]["kind"] == "human"]

    def _clock_runs(self, table: LiveTable) -> bool:
        return table.clock is not None and not table.over and not table.free_seats()

    def _clock_after(self, table: LiveTable, new: State) -> dict[str, Any] | None:
        """The clock once ``table`` moves to ``new``: the seats that were acting charged, timing again from now."""
        if table.clock is None:
            return None
        now = time.time()
        clock = clocks.charge(table.clock, self._timed(table), now)
        if new.is_terminal():
            return clocks.stop(clock, [], now)
        return clock

    def _arm_clock(self, table: LiveTable, at_least: float = 0.0) -> None:
        """Set a timer for the first deadline among the seats on the clock (none: no timer), ``at_least`` from now."""
        if table.clock_timer is not None:
            table.clock_timer.cancel()
            table.clock_timer = None
        if self._stopping or not self._clock_runs(table):
            return
        assert table.clock is not None
        due = [d for s in self._timed(table) if (d := clocks.deadline(table.clock, s)) is not None]
        if not due:
            return
        delay = max(at_least, min(due) - time.time())
        loop = asyncio.get_running_loop()
        table.clock_timer = loop.call_later(delay, lambda: self._spawn(self._on_time(table)))

    async def _on_time(self, table: LiveTable) -> None:
        """A seat's time ran out: it plays the game's default move for it (a pass), or it loses the game."""
        if self.tables.get(table.id) is not table:
            # dropped from memory meanwhile: a fresh copy, loaded now, keeps the clock (an expired table has none)
            with contextlib.suppress(ApiError):
                await self.get(table.id)
            return
        failed = False
        try:
            async with table.lock:
                if not self._clock_runs(table):
                    return
                assert table.clock is not None
                late = clocks.expired(table.clock, self._timed(table), time.time() + 0.01)
                if late:
                    await self._time_out(table, late[0])
        except ApiError as e:  # another process moved first (shared database): its change stands
            log.info("table %s: clock ran out but %s", table.id, e.message)
            failed = True
        except Exception:
            log.exception("table %s: the clock could not be applied", table.id)
            failed = True
        self._arm_clock(table, at_least=1.0 if failed else 0.0)  # after a failure, retry in a second, not at once
        self._kick(table)

    async def _refuse_if_late(self, table: LiveTable, seats: list[int]) -> None:
        """A request came after the deadline of one of ``seats`` (no timer fired: the server was down, or busy):
        that seat's time-out is applied now, and the request refused (409 ``out_of_time``). The caller holds the lock.
        """
        if not self._clock_runs(table):
            return
        assert table.clock is not None
        late = clocks.expired(table.clock, [s for s in self._timed(table) if s in seats], time.time())
        if not late:
            return
        await self._time_out(table, late[0])
        self._arm_clock(table)
        self._kick(table)
        raise conflict(
            "out_of_time",
            f"Too late: the time of {table.seats[late[0]]['name']} ran out before this arrived, so it was not "
            f"played. {table.notes[-1]}",
            revision=table.revision,
        )

    async def _time_out(self, table: LiveTable, seat: int) -> None:
        """``seat`` ran out of time (the caller holds the lock)."""
        state = table.state
        name = table_names(table, state.game.scene(state.observation(None), []))[0][seat]  # as the banner says it
        action = state.timeout_action(seat)
        if action is not None and action in state.legal_actions(seat):
            self._note(table, f"{name} ran out of time: {state.action_to_string(seat, action)}.")
            if state.current_player() == SIMULTANEOUS:
                await self._submit(table, seat, action)
            else:
                await self._commit_action(table, seat, action)
            return
        await self._end(
            table, "time", seat, table.returns_if_lost(seat), note=f"{name} ran out of time and loses the game."
        )
