"""AI seats: asking the worker pool for their moves, and taking over a remote table's AI seats when its process
goes quiet."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from ...core.constants import SIMULTANEOUS
from ...core.driver import next_decision
from ..ai import (
    MAX_ITERATIONS,
    MAX_PLAYOUTS,
    MAX_PLIES,
    MoveTimeout,
    level_think_seconds,
    seed_for,
    server_agents,
)
from ..chance import keyed_agent_seed
from ..errors import ApiError
from ..live import LiveTable
from .base import PlatformBase, log


class AISeats(PlatformBase):
    """The AI seats: :meth:`_kick` starts a table's AI turn whenever one is due."""

    def _ai_to_move(self, table: LiveTable) -> list[int]:
        if table.over:
            return []
        d = next_decision(table.state)
        if d.kind == "seat":
            return [s for s in d.seats if table.seats[s]["kind"] == "ai"]
        if d.kind == "simultaneous":
            return [s for s in d.seats if table.seats[s]["kind"] == "ai" and s not in table.pending]
        return []

    def _agent_seed(self, table: LiveTable, index: int, seat: int) -> int:
        """An AI seat's seed: from the secret chance key if the table has one, else from its seed."""
        if table.chance_key is not None:
            return keyed_agent_seed(table.chance_key, index, seat)
        return seed_for(table.seed, index, seat)

    def _kick(self, table: LiveTable) -> None:
        if self._stopping or (table.ai_task is not None and not table.ai_task.done()):
            return
        if table.remote:  # another process made the last change: its AI seats think there
            if table.id not in self._watching and self._ai_to_move(table):
                self._watching.add(table.id)
                asyncio.get_running_loop().call_later(self._ai_grace(), self._take_over, table, table.revision)
            return
        seats = self._ai_to_move(table)
        if seats:
            table.ai_task = asyncio.ensure_future(self._run_ai(table, seats))

    async def _run_ai(self, table: LiveTable, seats: list[int]) -> None:
        state, revision = table.state, table.revision
        history = state.history()
        started = time.monotonic()
        table.thinking = set(seats)
        self._broadcast(table)
        try:
            results = await asyncio.gather(
                *(
                    self.ai.choose(
                        table.id,
                        table.game.id,
                        dict(table.game.params),
                        state.num_players,
                        history,
                        s,
                        str(table.seats[s]["agent"]),
                        self._agent_seed(table, len(history), s),
                        self.settings.ai_move_seconds,
                        self.settings.ai_move_margin,
                        table.owner,
                    )
                    for s in seats
                ),
                return_exceptions=True,
            )
            wait = self.settings.ai_delay - (time.monotonic() - started)
            if wait > 0:
                await asyncio.sleep(wait)
            async with table.lock:
                table.thinking = set()
                if table.state is not state or table.revision != revision:
                    self._broadcast(table)
                    return
                for s, res in zip(seats, results):
                    legal = table.state.legal_actions(s)
                    if isinstance(res, BaseException) or res not in legal:
                        if isinstance(res, MoveTimeout):
                            why = f"it took too long: {res}"
                        else:
                            why = res if isinstance(res, BaseException) else f"illegal answer {res!r}"
                        log.warning("table %s: AI seat %s failed (%s); playing a random legal move", table.id, s, why)
                        self._note(
                            table, f"{table.seats[s]['name']} failed to answer ({why}); it played a random move."
                        )
                        res = random.Random(self._agent_seed(table, len(history), s)).choice(legal)
                    if table.state.current_player() == SIMULTANEOUS:
                        await self._submit(table, s, int(res))
                    else:
                        await self._commit_action(table, s, int(res))
        except asyncio.CancelledError:
            raise
        except Exception as e:
            if self.store.shared and isinstance(e, ApiError) and e.code == "stale":
                # Another process stored a move first (the table is refreshed already): nothing to retry.
                table.thinking = set()
                self._broadcast(table)
                return
            log.exception("table %s: AI turn failed", table.id)
            table.thinking = set()
            table.notes.append(f"An AI move could not be stored ({e}); it will be retried.")
            self._broadcast(table)
            if not self._stopping:
                await asyncio.sleep(1.0)
        finally:
            if table.thinking:
                table.thinking = set()
                table.touch()
        if not self._stopping:
            asyncio.get_running_loop().call_soon(self._kick, table)

    def _ai_grace(self) -> float:
        """Seconds after a change within which another process may still be running the table's AI seats."""
        return self.settings.ai_move_seconds + self.settings.ai_move_margin + self.settings.ai_delay + 2.0

    def _take_over(self, table: LiveTable, revision: int) -> None:
        """Nothing heard of a remote table's AI seats for longer than an AI move takes: think for them here."""
        self._watching.discard(table.id)
        if table.remote and not table.stale and table.revision == revision and self.tables.get(table.id) is table:
            table.remote = False
        self._kick(table)

    def agents(self) -> dict[str, Any]:
        """The agents a seat here may name (levels first), with this server's bounds and each level's think time."""
        return {
            **server_agents(),
            "think_seconds": level_think_seconds(self.settings.ai_move_seconds),
            "bounds": {
                "seconds": self.settings.ai_move_seconds,
                "iterations": MAX_ITERATIONS,
                "plies": MAX_PLIES,
                "playouts": MAX_PLAYOUTS,
            },
        }
