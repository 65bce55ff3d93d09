"""New tables and rematches: checking the seats, options, seed and clock asked for, and storing the table."""

from __future__ import annotations

import secrets
import time
from typing import Any

from ...agents import make_agent
from ...core.game import Game
from ...core.options import check_json_types
from ...games import game_class
from .. import clock as clocks
from ..ai import (
    check_server_agent,
    server_agents,
)
from ..chance import new_key
from ..errors import ApiError, bad_request, conflict, forbidden
from ..live import LiveTable, token_hash
from ..seatnames import clean_name, given_name, holder, is_given
from ..store import TableRow
from .base import MODES, PlatformBase, RematchTaken


class Creating(PlatformBase):
    """Making tables: a new one from a request, and the rematch of a finished one."""

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
