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
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from ..agents import make_agent
from ..core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from ..core.driver import advance, apply_entry, next_decision, play, replay, undo_refusal
from ..core.driver import undo_point as driver_undo_point
from ..core.errors import IllegalActionError
from ..core.game import Game, HistoryEntry, State
from ..core.options import check_json_types
from ..core.record import outcome
from ..core.wording import for_players
from ..games import game_class, make_cached
from . import clock as clocks
from .ai import (
    MAX_ITERATIONS,
    MAX_PLAYOUTS,
    MAX_PLIES,
    AIPool,
    MoveTimeout,
    check_server_agent,
    level_think_seconds,
    seed_for,
    server_agents,
)
from .chance import draw as chance_draw
from .chance import keyed_agent_seed, new_key
from .endings import abort_allowed, draws_possible, ending_text, loss_returns
from .errors import ApiError, bad_request, conflict, forbidden, illegal, not_found
from .limits import Limits, Quotas
from .live import Connection, LiveTable, token_hash
from .seatnames import clean_name, given_name, holder, is_given
from .store import ChatRow, GroupWriter, Listener, MoveRow, StaleRevision, Store, TableRow
from .views import build_view, geometry_text, table_names, to_act

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


class Platform:
    """All tables of one server: creation, moves, undo, AI, storage and live updates."""

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

    # -- life cycle -----------------------------------------------------------
    async def start(self) -> None:
        if self.store.shared:
            loop = asyncio.get_running_loop()
            self.listener = Listener(
                self.store,
                lambda *change: loop.call_soon_threadsafe(self._changed_elsewhere, *change),
            )
            await asyncio.to_thread(self.listener.ready.wait, 10)
            self.writer.submit(self.store.op_forget_watchers, True).add_done_callback(_log_failure)  # processes gone
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

    def game_for(self, game_id: str, options: dict[str, Any]) -> Game:
        """The game with these options, shared between tables (the one game cache, :func:`~boardlab.games.make_cached`)."""
        return make_cached(game_id, **options)

    # -- creating -------------------------------------------------------------
    async def create(
        self,
        game_id: str,
        options: dict[str, Any],
        num_players: int | None,
        mode: str,
        seats: list[dict[str, Any]] | None,
        seed: int | None,
        host_seat: int | None,
        watch: bool = False,
        open_table: bool = False,
        clock: dict[str, Any] | None = None,
        same_tokens: tuple[list[str | None], str] | None = None,
        rematch_of: tuple[str, list[int]] | None = None,
        owner: str | None = None,
    ) -> tuple[LiveTable, dict[int, str], str, int | None]:
        """A new table; returns it with the seat tokens, the spectator token and the host's seat.

        A table whose seats are all AI is an AI match to watch, made only when ``watch`` asks for one.
        ``open_table``: an online table listed in the lobby, whose human seats but the host's are free for anyone to
        take (:meth:`join`); no tokens are made for them. ``clock``: the turn clock (:mod:`boardlab.server.clock`).
        ``same_tokens``: the seat and spectator token hashes to use (a rematch; no token is returned).
        ``rematch_of``: the finished table this is the rematch of, and where each of its seats went; if that table has
        a rematch already (made by another process), nothing is made and :class:`RematchTaken` says which.
        ``owner``: the address asking (its tables' AI seats share the workers with other addresses' fairly).
        """
        try:
            check_json_types(game_id, game_class(game_id).options, options)
            game = self.game_for(game_id, options)
            n = game.resolve_num_players(num_players)
        except ValueError as e:
            raise bad_request(str(e)) from None
        if mode not in MODES:
            raise bad_request(f"unknown mode {mode!r}; modes: {', '.join(MODES)}")
        seat_specs = self._seat_specs(game, n, mode, seats)
        humans = [s for s, spec in enumerate(seat_specs) if spec["kind"] == "human"]
        if mode == "ai" and len(humans) == n:
            raise bad_request("a game against the AI needs at least one AI seat")
        if mode in ("hotseat", "online") and not humans:
            raise bad_request(f"a {mode} game needs at least one human seat")
        if not humans and not watch:
            raise bad_request('a table with no human seat is an AI match to watch: ask for one with "watch": true')
        if watch and humans:
            raise bad_request('"watch": true asks for an AI match to watch; make every seat an AI seat')
        if host_seat is not None and host_seat not in humans:
            raise bad_request(f"host_seat must be one of the human seats {humans}; got {host_seat}")
        if open_table and mode != "online":
            raise bad_request("only an online table can be open (listed in the lobby for anyone to join)")
        clock_state = clocks.new_clock(clock, n, self.settings.day_seconds)
        host = host_seat if host_seat is not None else (humans[0] if humans else None)
        refusal = seed_refusal(game, mode, seat_specs) if seed is not None else None
        if refusal is not None:
            raise ApiError(400, "seed_not_allowed", refusal)
        table_id = secrets.token_urlsafe(9)
        if same_tokens is not None:
            tokens: dict[int, str] = {}
            hashes, spectator_hash = same_tokens
            spectator = ""
        else:
            tokens = {s: secrets.token_urlsafe(18) for s in humans if not open_table or s == host}
            spectator = secrets.token_urlsafe(18)
            hashes = [token_hash(tokens[s]) if s in tokens else None for s in range(n)]
            spectator_hash = token_hash(spectator)
        open_watch = (spectator or None) if open_table else None
        # A client's seed decides chance only where allowed (above); otherwise a secret key does.
        chance_key = None if seed is not None else new_key()
        seed = seed if seed is not None else secrets.randbits(62)
        now = time.time()
        table = LiveTable(
            id=table_id,
            game=game,
            mode=mode,
            seats=seat_specs,
            seed=seed,
            state=game.new_initial_state(n),
            labels=[],
            revision=0,
            seat_hashes=hashes,
            spectator_hash=spectator_hash,
            created_at=now,
            chance_key=chance_key,
            open_watch=open_watch,
            clock=clock_state,
            owner=owner,
        )
        moves = self._advance_chance(table, table.state, [])
        if table.clock is not None and self._clock_runs(table):
            table.clock = clocks.start(table.clock, now)
        table.labels = [m.label for m in moves]
        row = TableRow(
            id=table_id,
            game=game.id,
            options=dict(game.params),
            rules_version=game.rules_version,
            num_players=n,
            mode=mode,
            seats=seat_specs,
            seed=seed,
            revision=0,
            status=table.status(),
            result=table.result(),
            seat_hashes=table.seat_hashes,
            spectator_hash=table.spectator_hash,
            created_at=now,
            updated_at=now,
            moves=moves,
            chance_key=chance_key,
            open_watch=open_watch,
            clock=table.clock,
        )
        if rematch_of is None:
            await self._write(self.store.op_create_table, row)
        else:
            made = await self._write(self.store.op_create_rematch, rematch_of[0], row, rematch_of[1])
            if made["id"] != table_id:
                raise RematchTaken(made)
        self._cache(table)
        self._kick(table)
        self._arm_clock(table)
        return table, tokens, spectator, host

    async def rematch(self, table: LiveTable, seat: int | None) -> dict[str, Any]:
        """The rematch of a finished table: the same game, options, mode and seats, every seat moved one place on.

        Asked by a seat (not a spectator) once the game is over; asking again gives the same
        rematch. Every page connected to the old table is told where it is (``rematch`` in
        its view, with that seat's own link, never another seat's). Each seat of the rematch takes the token its
        player holds here, so the rematch needs no new secret; it is stored with the table (its id and where each
        seat went), so a restart keeps it. An open table's rematch is open too, with the same clock option.
        """
        if seat is None:
            raise forbidden("a spectator cannot ask for a rematch; a player can")
        async with table.lock:
            if not table.over:
                raise conflict("not_finished", "A rematch can be asked for once the game is over.")
            if table.rematch is None:
                n = table.state.num_players
                moved = [(s + 1) % n for s in range(n)]
                specs: list[dict[str, Any]] = [{} for _ in range(n)]
                hashes: list[str | None] = [None] * n
                for old, new in enumerate(moved):
                    spec = table.seats[old]
                    specs[new] = {
                        "kind": spec["kind"],
                        "agent": spec.get("agent"),
                        "name": _own_name(table.game, spec, old),
                    }
                    hashes[new] = table.seat_hashes[old]
                clock = clocks.option(table.clock) if table.clock else None
                try:
                    new_table, _tokens, _spectator, _host = await self.create(
                        table.game.id,
                        dict(table.game.params),
                        n,
                        table.mode,
                        specs,
                        None,
                        None,
                        clock=clock,
                        same_tokens=(hashes, table.spectator_hash),
                        rematch_of=(table.id, moved),
                        owner=table.owner,
                    )
                except RematchTaken as e:  # another process (sharing the database) made it first: that one it is
                    table.rematch = e.rematch
                else:
                    new_table.open_watch = table.open_watch  # stored so with it
                    table.rematch = {"id": new_table.id, "seats": moved}
                self._broadcast(table)
            return table.rematch_for(seat) or {}

    def _seat_specs(self, game: Game, n: int, mode: str, seats: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
        agents = server_agents()
        if seats is None:
            if mode == "ai":
                seats = [{"kind": "human"}] + [{"kind": "ai", "agent": agents["default"]}] * (n - 1)
            else:
                seats = [{"kind": "human"}] * n
        if len(seats) != n:
            raise bad_request(f"give one seat per player: {n} players, {len(seats)} seats")
        out: list[dict[str, Any]] = []
        for s, spec in enumerate(seats):
            kind = spec.get("kind")
            name = spec.get("name")
            if name is not None:
                try:
                    name = clean_name(name)
                except ValueError as e:
                    raise bad_request(f"seat {s}: {e}") from None
            if kind == "human":
                if spec.get("agent"):
                    raise bad_request(f"seat {s}: a human seat takes no agent")
                out.append({"kind": "human", "agent": None, "name": name or given_name(game, s, "human", None)})
            elif kind == "ai":
                agent = str(spec.get("agent") or agents["default"])
                try:
                    make_agent(agent, game, s, 0)
                    check_server_agent(agent, self.settings.ai_move_seconds)
                except Exception as e:
                    raise bad_request(f"seat {s}: {e}; available: {', '.join(agents['all'])}") from None
                out.append({"kind": "ai", "agent": agent, "name": name or given_name(game, s, "ai", agent)})
            else:
                raise bad_request(f"seat {s}: kind must be 'human' or 'ai'; got {kind!r}")
        names = [spec["name"] for spec in out]
        for s, name in enumerate(names):
            other = holder(names, name, skip=s)
            if other is not None:
                raise bad_request(f"seat {s}: {name!r} is seat {other}'s name too; give each seat its own name")
        return out

    # -- loading --------------------------------------------------------------
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

    # -- acting ---------------------------------------------------------------
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

    # -- undo -----------------------------------------------------------------
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

    # -- turn clocks ----------------------------------------------------------
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

    # -- ending a game besides its rules (resign, draw, abort, claim, time) ----
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

    # -- open tables: free seats anyone can take -------------------------------
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

    # -- a browser's tables: where it is your move ------------------------------
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

    # -- chat -----------------------------------------------------------------
    async def chat_messages(self, table: LiveTable) -> list[dict[str, Any]]:
        """The table's chat, oldest first (loaded from the database once; every time where other processes share it,
        so a message said at another process a moment ago is there)."""
        if self.store.shared:
            return [r.to_json() for r in await self._db(self.store.chat, table.id)]
        if table.chat is None:
            rows = await self._db(self.store.chat, table.id)
            if table.chat is None:
                table.chat = [r.to_json() for r in rows]
        return list(table.chat)

    async def say(self, table: LiveTable, seat: int | None, text: Any) -> dict[str, Any]:
        """A seated player's chat message: stored, then sent to every page of the table. Spectators only read."""
        if seat is None:
            raise forbidden("spectators can read the chat; only the players write in it")
        if not isinstance(text, str):
            raise bad_request("a chat message is text")
        text = "".join(ch for ch in text if ch in "\n\t" or ch.isprintable()).strip()
        if not text:
            raise bad_request("a chat message needs some text")
        if len(text) > CHAT_MAX:
            raise bad_request(f"a chat message is at most {CHAT_MAX} characters; this one has {len(text)}")
        if not self.store.shared:
            await self.chat_messages(table)
        row = ChatRow(seat, str(table.seats[seat]["name"]), text, time.time())
        await self._write(self.store.op_chat, table.id, row, CHAT_KEEP)  # (and announced to other processes)
        message = row.to_json()
        if table.chat is not None:
            table.chat = [*table.chat, message][-CHAT_KEEP:]
        self._send_chat(table, message)
        return message

    def _send_chat(self, table: LiveTable, message: dict[str, Any]) -> None:
        text_out = json.dumps({"type": "chat", "message": message}, separators=(",", ":"), ensure_ascii=False)
        for c in list(table.connections):
            c.send(text_out)

    def _note(self, table: LiveTable, text: str) -> None:
        """A note for the table's pages ("Ann ran out of time: pass."), stored with the change that follows."""
        table.notes.append(text)
        table.fresh_notes.append(text)

    # -- AI seats -------------------------------------------------------------
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

    # -- other processes sharing the database (PostgreSQL) --------------------
    def _ai_grace(self) -> float:
        """Seconds after a change within which another process may still be running the table's AI seats."""
        return self.settings.ai_move_seconds + self.settings.ai_move_margin + self.settings.ai_delay + 2.0

    def _take_over(self, table: LiveTable, revision: int) -> None:
        """Nothing heard of a remote table's AI seats for longer than an AI move takes: think for them here."""
        self._watching.discard(table.id)
        if table.remote and not table.stale and table.revision == revision and self.tables.get(table.id) is table:
            table.remote = False
        self._kick(table)

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

    # -- views and live updates -----------------------------------------------
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
        self.writer.submit(self.store.op_watchers, table.id, table.spectators).add_done_callback(_log_failure)

    def _seen(self, table: LiveTable, seats: dict[int, bool]) -> None:
        """Pages for ``seats`` came (``True``) or went here: when each was last seen (stored for the other processes
        where they share the database, so a seat connected there is not away)."""
        now = time.time()
        for s in seats:
            table.seen[s] = now
        if self.store.shared and not self._stopping:
            self.writer.submit(self.store.op_presence, table.id, seats, now).add_done_callback(_log_failure)

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

    # -- replays --------------------------------------------------------------
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


def _own_name(game: Game, spec: dict[str, Any], seat: int) -> str | None:
    """A seat's name if someone chose it; ``None`` for the name the server gave (it names the new seat afresh)."""
    name = spec.get("name")
    return None if is_given(name, game, seat, spec) else str(name)


def seed_refusal(game: Game, mode: str, seats: list[dict[str, Any]]) -> str | None:
    """Why a client may not choose this table's seed (and so know every chance outcome in advance); ``None``: it may.

    Only where every seat agrees to it: one person holds every seat (hot-seat, no AI seat), or every seat is human
    and the game (with its options) hides nothing, each player being told that the table is seeded (``seeded`` in the
    table summary, the lobby and the join answer) before joining. An AI seat cannot agree; a seed of a game with
    hidden information would show its creator the others' cards.
    """
    secret = "chance comes from a secret key, shown in the record once the game is over"
    if any(spec["kind"] != "human" for spec in seats):
        return (
            "a table with an AI seat takes no seed: the seed would tell its creator every chance outcome (dice, "
            f"deals, draws) in advance, and an AI cannot agree to that; leave out 'seed' and {secret}"
        )
    if mode != "hotseat" and not game.perfect_information:
        return (
            "a table of a game with hidden information takes no seed unless one person holds every seat "
            f"(mode 'hotseat', every seat human): {secret}"
        )
    return None


def _movers(m: MoveRow) -> list[int]:
    """The seats that decided in a stored step (none for chance; every seat in a simultaneous step)."""
    if m.actor == SIMULTANEOUS and isinstance(m.entry, list):
        return [s for s, a in enumerate(m.entry) if a is not None]
    return [m.actor] if m.actor >= 0 else []


def _log_failure(done: Future[Any]) -> None:
    """A write nobody waits for (a count for the lobby): log it if it failed."""
    if not done.cancelled() and done.exception() is not None:
        log.warning("a write failed: %s", done.exception())


def _message(view_text: str, seat: int | None) -> str:
    return f'{{"type":"view","seat":{json.dumps(seat)},"view":{view_text}}}'
