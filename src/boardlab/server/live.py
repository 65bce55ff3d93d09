"""A live table in memory, and one WebSocket connection to it: the data that tables and views share.

:mod:`boardlab.server.tables` changes tables; :mod:`boardlab.server.views` only reads
them. Both import this module, and neither imports the other's reader or writer
(``tables`` imports ``views``, never the reverse).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.game import Game, State
from ..core.record import GameRecord, outcome
from .chance import SCHEME as CHANCE_SCHEME
from .clock import option as clock_option
from .endings import draws_possible
from .errors import ApiError, forbidden
from .seatnames import base_name, is_given


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Connection:
    """One WebSocket: the seats it holds tokens for (presence) and the seat it views as."""

    send: Callable[[str], None]
    present: set[int]
    view_seat: int | None
    close: Callable[[], None]
    #: Geometry ids already sent on this socket.
    geometries: set[str] = field(default_factory=set)
    #: The address it came from (quotas count sockets per table and address).
    client: str = ""


@dataclass
class LiveTable:
    id: str
    game: Game
    mode: str
    seats: list[dict[str, Any]]
    seed: int
    state: State
    labels: list[Any]
    revision: int
    seat_hashes: list[str | None]
    spectator_hash: str
    created_at: float
    pending: dict[int, int] = field(default_factory=dict)
    #: The secret chance key (never in a view; in the record once the game is over); ``None``: chance from ``seed``.
    chance_key: str | None = None
    thinking: set[int] = field(default_factory=set)
    #: What happened besides the moves, oldest first (stored with the table, but for this process's own troubles).
    notes: list[str] = field(default_factory=list)
    #: Notes made here that go to the database with the next change stored (then every process shows them).
    fresh_notes: list[str] = field(default_factory=list)
    connections: list[Connection] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    ai_task: asyncio.Task[None] | None = None
    #: Several processes share the database: another one made the last change (it runs the AI seats),
    #: or may have (``stale``: refresh from the database before use).
    remote: bool = False
    stale: bool = False
    #: Bumped on every change that a view shows; ``view_cache[seat] = (stamp, json)``.
    stamp: int = 0
    view_cache: dict[int | None, tuple[int, str, str | None]] = field(default_factory=dict)
    #: The rematch of this finished table, once someone asked for one (stored with the table):
    #: ``{"id": table id, "seats": {old seat: new seat}}``. The rematch's seats take the same tokens as here.
    rematch: dict[str, Any] | None = None
    #: An open table (listed in the lobby, free seats for anyone): its spectator token, public by choice.
    open_watch: str | None = None
    #: The turn clock (:mod:`boardlab.server.clock`), ``None``: none.
    clock: dict[str, Any] | None = None
    clock_timer: asyncio.TimerHandle | None = None
    #: The chat (loaded from the database when first asked for): ``[{"seat", "name", "text", "at"}]``.
    chat: list[dict[str, Any]] | None = None
    #: The address that made the table (in memory only; ``None``: unknown): AI workers are shared fairly per owner.
    owner: str | None = None
    #: The tokens this process has seen for each seat (``None``: the spectator's), in memory only: a view of the
    #: rematch gives each viewer a link with its own token, which the database never holds.
    known_tokens: dict[int | None, str] = field(default_factory=dict)
    #: How the table ended a game its rules had not ended (:mod:`boardlab.server.endings`; stored with the table):
    #: ``{"how": "resign" | "draw" | "abort" | "claim" | "time", "seat", "step", "returns", "at"}``; ``None``: not so.
    ending: dict[str, Any] | None = None
    #: A standing draw offer (stored with the table): ``{"seat": who offered, "agreed": [seats that accepted]}``.
    offer: dict[str, Any] | None = None
    #: Per seat, when this process last saw it (a page came or went, a move): how long a seat has been away.
    seen: dict[int, float] = field(default_factory=dict)
    #: When this process loaded the table (a seat not seen since counts as seen then).
    loaded_at: float = field(default_factory=time.time)
    #: What the other processes sharing the database say of each seat: ``(a page open there, when it came or went)``.
    elsewhere: dict[int, tuple[bool, float]] = field(default_factory=dict)

    def touch(self) -> None:
        self.stamp += 1

    @property
    def forfeit(self) -> int | None:
        """The seat that lost on time (its clock ran out and no default move was possible), else ``None``."""
        return self.clock.get("forfeit") if self.clock is not None else None

    @property
    def over(self) -> bool:
        """The game has ended: by its rules, a seat lost on time, or the players ended it (resign, draw, abort,
        claim: :attr:`ending`)."""
        return self.ending is not None or self.forfeit is not None or self.state.is_terminal()

    @property
    def aborted(self) -> bool:
        return self.ending is not None and self.ending.get("how") == "abort"

    def returns(self) -> list[float]:
        """The final returns: the game's, or after a loss on time that seat -1 and the others +1 (co-operative: all
        -1), or those the table's ending gave (an aborted game: all 0, but it has no result, :meth:`result`)."""
        if self.ending is not None:
            r = self.ending.get("returns")
            return list(r) if r is not None else [0.0] * self.state.num_players
        lost = self.forfeit
        return list(self.state.returns()) if lost is None else self.returns_if_lost(lost)

    def returns_if_lost(self, lost: int) -> list[float]:
        n = self.state.num_players
        return [-1.0] * n if self.game.cooperative else [-1.0 if s == lost else 1.0 for s in range(n)]

    def free_seats(self) -> list[int]:
        """Human seats nobody holds yet (an open table's, until someone takes them)."""
        return [s for s, spec in enumerate(self.seats) if spec["kind"] == "human" and self.seat_hashes[s] is None]

    @property
    def spectators(self) -> int:
        """Live connections holding no seat."""
        return sum(1 for c in self.connections if not c.present)

    @property
    def present(self) -> set[int]:
        """Seats with a page open here (this process's sockets)."""
        return {s for c in self.connections for s in c.present}

    @property
    def present_anywhere(self) -> set[int]:
        """Seats with a page open here or at another process sharing the database."""
        return self.present | {s for s, (on, _at) in self.elsewhere.items() if on}

    def summary(self) -> dict[str, Any]:
        g = self.game
        return {
            "id": self.id,
            "game": g.id,
            "title": g.title,
            "mode": self.mode,
            "options": dict(g.params),
            "num_players": self.state.num_players,
            "perfect_information": g.perfect_information,
            "cooperative": g.cooperative,
            "rules_version": g.rules_version,
            "created_at": self.created_at,
            "open": self.open_watch is not None,
            #: Chance from a seed, not a secret key (whoever knows the seed foresees every outcome): everyone is told.
            "seeded": self.chance_key is None,
            "clock": clock_option(self.clock) if self.clock else None,
            #: The result can be a tie, so the players may agree a draw (:func:`~boardlab.server.endings.draws_possible`).
            "draws": draws_possible(g),
        }

    def seat_of(self, token: str | None) -> int | None:
        """The seat of ``token`` (``None`` for the spectator token); 403 for anything else."""
        if not token:
            raise ApiError(401, "no_token", "this needs a seat or spectator token (Authorization: Bearer …)")
        h = token_hash(token)
        for s, sh in enumerate(self.seat_hashes):
            if sh is not None and hmac.compare_digest(sh, h):
                self.known_tokens[s] = token
                return s
        if hmac.compare_digest(self.spectator_hash, h):
            self.known_tokens[None] = token
            return None
        raise forbidden("this token does not belong to this table")

    def rematch_for(self, seat: int | None) -> dict[str, Any] | None:
        """Where ``seat`` (``None``: a spectator) plays this table's rematch: its id, the new seat and a link.

        The rematch's seats take this table's tokens (each moved with its seat), so the link carries ``seat``'s
        own token, never another's; a spectator's is the spectator token (the link has no token where this
        process has not seen it: the page adds its own).
        """
        r = self.rematch
        if r is None:
            return None
        new = r["seats"][seat] if seat is not None else None
        token = self.known_tokens.get(seat) or (self.open_watch if seat is None else None)
        return {"table": r["id"], "seat": new, "link": f"/table/{r['id']}" + (f"#t={token}" if token else "")}

    def names(self) -> list[str | None]:
        """The seats' names in the game's words: the name people chose, else the one the server gave without its
        kind ("Player 2", not "Player 2 (hard AI)"); the game's text says "trade it with Ann" (or "with Player 2")
        where it names a seat (:func:`~boardlab.core.wording.seat`, :func:`~boardlab.core.wording.for_players`)."""
        out: list[str | None] = []
        for s, spec in enumerate(self.seats):
            name = spec.get("name")
            out.append(base_name(self.game, s) if is_given(name, self.game, s, spec) else str(name))
        return out

    def human_seats(self) -> list[int]:
        return [s for s, spec in enumerate(self.seats) if spec["kind"] == "human"]

    def status(self) -> str:
        return "aborted" if self.aborted else "finished" if self.over else "playing"

    def result(self) -> dict[str, Any] | None:
        """The stored result: who won (``None`` while playing, and for an aborted game: nobody won or lost)."""
        return outcome(self.returns()) if self.over and not self.aborted else None

    def record(self) -> GameRecord:
        """The game record; once the game is over its ``meta`` discloses where chance came from (key or seed)."""
        meta: dict[str, Any] = {}
        if self.forfeit is not None:
            meta["lost_on_time"] = self.forfeit
        if self.ending is not None:  # a platform event after the last action: how the table ended the game
            meta["ended"] = {k: v for k, v in self.ending.items() if k != "at"}
        if self.over:
            if self.chance_key is not None:
                meta.update(chance=CHANCE_SCHEME, chance_key=self.chance_key)
            else:
                meta.update(chance="seed", seed=self.seed)
        record = GameRecord.from_state(
            self.state,
            seats=[str(spec["name"]) for spec in self.seats],
            agents=[spec["agent"] if spec["kind"] == "ai" else "human" for spec in self.seats],
            table=self.id,
            mode=self.mode,
            labels=self.labels,
            **meta,
        )
        if self.ending is not None:
            record.result = self.result()
        return record
