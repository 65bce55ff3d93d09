"""Durable storage of tables: SQLAlchemy Core on SQLite (default) or PostgreSQL (by URL).

Three tables:

``tables``
    one row per game table: game, options, seats, mode, seed, the secret chance
    key (:mod:`boardlab.server.chance`; added to older databases on opening), the *revision*
    (bumped on every accepted change, used for optimistic concurrency), status,
    result, and SHA-256 hashes of the seat and spectator tokens (the tokens
    themselves are never stored).
``moves``
    the history, one row per entry (a seat's action, a chance outcome, or a
    joint action as a JSON list), with the label it had when it was played.
``pending``
    sealed submissions at a simultaneous decision, until every deciding seat
    has submitted.
``chat``
    the table's chat, one row per message (seat, name, text, time); not part of the game record.
``watchers``
    (several processes on PostgreSQL) how many spectators each process has on an open table, for the lobby.

Columns added after the first release (``chance_key``, ``open_watch``, ``rematch``, ``clock``, ``notes``) are added to an
older database when it is opened (:data:`ADDED_COLUMNS`); its tables keep their old behaviour.

Every method runs one transaction and returns only after it is committed, so
the server acknowledges an action only once it is on disk. Writes are guarded
by the stored revision (``UPDATE … WHERE revision = old``): a second server
process sharing the database cannot silently interleave moves.

On PostgreSQL several server processes may share one database: every write
first locks the table's row (``SELECT … FOR UPDATE``), so writes to one table
are serialised across processes for the whole transaction, and announces what
it changed with ``NOTIFY boardlab_tables, '<table id> <revision> <origin> <what>'``
(delivered only if the transaction commits; a chat message is announced so too); :class:`Listener` hands those
announcements to the other processes, which refresh their copy of the table.

All methods are blocking; :class:`~boardlab.server.tables.Platform` calls them
from one dedicated thread, never from the event loop.
"""

from __future__ import annotations

import json
import logging
import pathlib
import queue
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    inspect,
    select,
)
from sqlalchemy.engine import Connection, Engine, make_url

T = TypeVar("T")
log = logging.getLogger("boardlab.server")

DEFAULT_DB_URL = "sqlite:///./boardlab-data/boardlab.db"

metadata = MetaData()


def _of_table() -> Column[str]:
    """The key column of a table's moves, sealed choices, chat, spectator counts and presence: the table they
    belong to (deleted with it). A column belongs to one table, so each gets its own."""
    return Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)


tables_t = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("rules_version", String(32), nullable=False),
    Column("num_players", Integer, nullable=False),
    Column("mode", String(16), nullable=False),
    Column("seats", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    #: The table's secret chance key (hex); NULL: chance comes from ``seed`` (a client's seed, or an older table).
    Column("chance_key", String(64), nullable=True),
    Column("revision", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("result", Text, nullable=True),
    Column("seat_hashes", Text, nullable=False),
    Column("spectator_hash", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    #: An open table (listed in the lobby): its spectator token, public by choice. NULL: a private table.
    Column("open_watch", String(64), nullable=True),
    #: The rematch of a finished table: ``{"id", "seats": {old seat: new seat}}`` (JSON; no token). NULL: none yet.
    Column("rematch", Text, nullable=True),
    #: The turn clock (JSON, :mod:`boardlab.server.clock`). NULL: no clock.
    Column("clock", Text, nullable=True),
    #: What happened at the table besides the moves ("Ann ran out of time: pass."), the latest :data:`NOTES_KEEP`,
    #: oldest first (JSON list). NULL: none.
    Column("notes", Text, nullable=True),
    #: How the players ended the game besides its rules (resign, draw, abort, claim, time; JSON,
    #: :mod:`boardlab.server.endings`). NULL: they did not.
    Column("ending", Text, nullable=True),
    #: A standing draw offer ``{"seat", "agreed"}`` (JSON). NULL: none.
    Column("offer", Text, nullable=True),
)

moves_t = Table(
    "moves",
    metadata,
    _of_table(),
    Column("idx", Integer, primary_key=True),
    Column("actor", Integer, nullable=False),
    Column("entry", Text, nullable=False),
    Column("label", Text, nullable=False),
    Column("at", Float, nullable=False),
)

pending_t = Table(
    "pending",
    metadata,
    _of_table(),
    Column("seat", Integer, primary_key=True),
    Column("action", Integer, nullable=False),
    Column("revision", Integer, nullable=False),
    Column("at", Float, nullable=False),
)


chat_t = Table(
    "chat",
    metadata,
    _of_table(),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
)

#: Spectators watching a table through another process (PostgreSQL: each process writes its own count for the
#: open tables it serves; a process counts while its listening connection is open, :meth:`Store.spectators`).
watchers_t = Table(
    "watchers",
    metadata,
    _of_table(),
    Column("origin", String(16), primary_key=True),
    Column("spectators", Integer, nullable=False),
)

#: Which seats have a page open at a table, per process, and when that last changed (PostgreSQL: a seat connected to
#: another process is not away; :meth:`Store.presence`).
presence_t = Table(
    "presence",
    metadata,
    _of_table(),
    Column("seat", Integer, primary_key=True),
    Column("origin", String(16), primary_key=True),
    Column("connected", Integer, nullable=False),
    Column("at", Float, nullable=False),
)

#: Columns of ``tables`` added after the first release, with their SQL type: added to older databases on opening.
ADDED_COLUMNS = (
    ("chance_key", "VARCHAR(64)"),
    ("open_watch", "VARCHAR(64)"),
    ("rematch", "TEXT"),
    ("clock", "TEXT"),
    ("notes", "TEXT"),
    ("ending", "TEXT"),
    ("offer", "TEXT"),
)

#: The notes a table keeps (the oldest go first).
NOTES_KEEP = 20

#: The PostgreSQL channel on which writes announce ``"<table id> <revision> <origin> <what>[ <data>]"``.
CHANNEL = "boardlab_tables"
#: What an announcement says changed: the table (its row, moves or sealed choices; no data), or its chat (the
#: revision is the new message's index and the data the message as JSON, at most 500 characters of text), or who has
#: a page open at it (``presence``: no data; read :meth:`Store.presence`).
CHANGES = ("table", "chat", "presence")


#: The ``application_name`` of a process's listening connection: ``boardlab <origin>`` (how the others tell it is
#: still there).
APPLICATION = "boardlab "

#: The PostgreSQL advisory lock held while a process creates or updates the schema.
SCHEMA_LOCK = 0x626F6172646C6162  # "boardlab"


class StaleRevision(Exception):
    """The stored revision is not the one the write expected (another writer got there first)."""


@dataclass
class MoveRow:
    actor: int
    entry: int | list[int | None]
    label: str | list[str | None]


@dataclass
class TableRow:
    id: str
    game: str
    options: dict[str, Any]
    rules_version: str
    num_players: int
    mode: str
    seats: list[dict[str, Any]]
    seed: int
    revision: int
    status: str
    result: dict[str, Any] | None
    seat_hashes: list[str | None]
    spectator_hash: str
    created_at: float
    updated_at: float
    moves: list[MoveRow] = field(default_factory=list)
    pending: dict[int, int] = field(default_factory=dict)
    #: Secret chance key (:mod:`boardlab.server.chance`); ``None``: chance is drawn from ``seed``.
    chance_key: str | None = None
    #: An open table's spectator token (public by choice); ``None``: a private table.
    open_watch: str | None = None
    #: ``{"id", "seats"}`` of the rematch, once asked for.
    rematch: dict[str, Any] | None = None
    #: The turn clock's stored state (:mod:`boardlab.server.clock`); ``None``: no clock.
    clock: dict[str, Any] | None = None
    #: The table's notes, oldest first (the latest :data:`NOTES_KEEP`).
    notes: list[str] = field(default_factory=list)
    #: How the players ended the game (:mod:`boardlab.server.endings`); ``None``: they did not.
    ending: dict[str, Any] | None = None
    #: A standing draw offer; ``None``: none.
    offer: dict[str, Any] | None = None


@dataclass
class ChatRow:
    seat: int
    name: str
    text: str
    at: float

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "text": self.text, "at": self.at}


def normalise_url(url: str | None) -> str:
    """The database URL to use; SQLite paths get their directory created."""
    url = url or DEFAULT_DB_URL
    try:
        u = make_url(url)
    except Exception:
        raise ValueError(
            f"{url!r} is not a database URL (e.g. sqlite:///path/to/file.db or postgresql+psycopg://user@host/db)"
        ) from None
    if u.get_backend_name() == "sqlite" and u.database and u.database != ":memory:":
        pathlib.Path(u.database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
    return url


def describe_url(url: str) -> str:
    """The URL with any password hidden, for printing."""
    return make_url(url).render_as_string(hide_password=True)


class Store:
    """Blocking, transactional access to the three tables."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalise_url(url)
        u = make_url(self.url)
        self.is_sqlite = u.get_backend_name() == "sqlite"
        kwargs: dict[str, Any] = {"future": True}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 10}
        else:
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
            # Let SQLAlchemy, not the sqlite3 module, open transactions, so SAVEPOINTs work.
            event.listen(self.engine, "begin", lambda conn: conn.exec_driver_sql("BEGIN"))
        if self.is_sqlite:
            metadata.create_all(self.engine)
            self._migrate()
        else:
            # Several processes may start at once on one database: one at a time creates or updates the tables.
            with self.engine.begin() as c:
                c.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")
                metadata.create_all(c)
                self._migrate(c)
        self.paramstyle = self.engine.dialect.paramstyle
        #: Other processes may share the database (PostgreSQL): lock rows and announce changes.
        self.shared = not self.is_sqlite
        #: Names this process in its announcements, so it can ignore its own.
        self.origin = secrets.token_hex(6)

    def _migrate(self, conn: Connection | None = None) -> None:
        """Bring a database made by an older version up to date (its tables keep their old behaviour)."""
        have = {c["name"] for c in inspect(conn if conn is not None else self.engine).get_columns("tables")}
        missing = [(name, sql) for name, sql in ADDED_COLUMNS if name not in have]
        if not missing:
            return
        if conn is not None:
            for name, sql in missing:
                conn.exec_driver_sql(f"ALTER TABLE tables ADD COLUMN {name} {sql}")
            return
        with self.engine.begin() as c:
            for name, sql in missing:
                c.exec_driver_sql(f"ALTER TABLE tables ADD COLUMN {name} {sql}")

    def create_tables(self, tables: MetaData) -> None:
        """Create ``tables`` (another module's own, on this database) where missing; on PostgreSQL one process at
        a time, under the lock the store's own tables are made under."""
        if self.is_sqlite:
            tables.create_all(self.engine)
        else:
            with self.engine.begin() as c:
                c.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")
                tables.create_all(c)

    def close(self) -> None:
        self.engine.dispose()

    # -- writes -------------------------------------------------------------
    # Each ``op_*`` runs inside a transaction it is given, through a plain DBAPI
    # cursor (:class:`Sql`): the group-commit writer batches many into one commit
    # and SQLAlchemy's per-statement overhead would dominate such small writes.
    # The plain methods run one operation in its own transaction.
    def run(self, op: Callable[..., T], *args: Any) -> T:
        """Run one write operation in its own transaction."""
        with self.engine.begin() as c:
            return op(Sql(c, self.paramstyle), *args)

    def create_table(self, row: TableRow) -> None:
        self.run(self.op_create_table, row)

    def append_moves(self, *args: Any) -> None:
        self.run(self.op_append_moves, *args)

    def truncate(self, *args: Any) -> None:
        self.run(self.op_truncate, *args)

    def set_pending(self, *args: Any) -> None:
        self.run(self.op_set_pending, *args)

    def op_create_table(self, c: Sql, row: TableRow) -> None:
        c.execute(
            "INSERT INTO tables (id, game, options, rules_version, num_players, mode, seats, seed, chance_key,"
            " revision, status, result, seat_hashes, spectator_hash, created_at, updated_at, open_watch, clock)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                row.id,
                row.game,
                json.dumps(row.options),
                row.rules_version,
                row.num_players,
                row.mode,
                json.dumps(row.seats),
                row.seed,
                row.chance_key,
                row.revision,
                row.status,
                json.dumps(row.result) if row.result is not None else None,
                json.dumps(row.seat_hashes),
                row.spectator_hash,
                row.created_at,
                row.updated_at,
                row.open_watch,
                json.dumps(row.clock) if row.clock is not None else None,
            ),
        )
        if row.moves:
            c.executemany(_INSERT_MOVE, _move_values(row.id, 0, row.moves))

    def op_append_moves(
        self,
        c: Sql,
        table_id: str,
        start: int,
        moves: list[MoveRow],
        old_revision: int,
        new_revision: int,
        status: str,
        result: dict[str, Any] | None,
        clear_pending: bool = False,
        clock: dict[str, Any] | None = None,
        notes: list[str] | None = None,
        clear_offer: bool = False,
    ) -> None:
        """Add history entries ``start, start+1, …`` and bump the revision (and store the clock, if given, and add
        ``notes`` to the table's; ``clear_offer``: a standing draw offer lapses)."""
        self._bump(c, table_id, old_revision, new_revision, status, result, clock)
        if notes:
            self._add_notes(c, table_id, notes)
        if clear_offer:
            c.execute("UPDATE tables SET offer = NULL WHERE id = ?", (table_id,))
        if clear_pending:
            c.execute("DELETE FROM pending WHERE table_id = ?", (table_id,))
        if moves:
            c.executemany(_INSERT_MOVE, _move_values(table_id, start, moves))

    def op_truncate(
        self,
        c: Sql,
        table_id: str,
        length: int,
        old_revision: int,
        new_revision: int,
        status: str,
        result: Any,
        clock: dict[str, Any] | None = None,
    ) -> None:
        """Drop history entries from index ``length`` on (undo) and any sealed submissions."""
        self._bump(c, table_id, old_revision, new_revision, status, result, clock)
        c.execute("DELETE FROM moves WHERE table_id = ? AND idx >= ?", (table_id, length))
        c.execute("DELETE FROM pending WHERE table_id = ?", (table_id,))

    def op_set_pending(
        self, c: Sql, table_id: str, seat: int, action: int | None, revision: int, notes: list[str] | None = None
    ) -> dict[int, int] | None:
        """Seal (``action`` given) or withdraw (``None``) a seat's simultaneous submission (and add ``notes``).

        On a shared database (PostgreSQL) returns every sealed submission now stored for the
        table at ``revision`` (other processes' too, read under the row lock); on SQLite ``None``.
        """
        current = c.fetchone(
            "SELECT revision FROM tables WHERE id = ?" + (" FOR UPDATE" if self.shared else ""), (table_id,)
        )
        if current is None or current[0] != revision:
            raise StaleRevision(f"table {table_id} is at revision {current and current[0]}, not {revision}")
        c.execute("DELETE FROM pending WHERE table_id = ? AND seat = ?", (table_id, seat))
        if action is not None:
            c.execute(
                "INSERT INTO pending (table_id, seat, action, revision, at) VALUES (?,?,?,?,?)",
                (table_id, seat, action, revision, time.time()),
            )
        if notes:
            self._add_notes(c, table_id, notes)
        if not self.shared:
            return None
        self._notify(c, table_id, revision)
        rows = c.fetchall("SELECT seat, action FROM pending WHERE table_id = ? AND revision = ?", (table_id, revision))
        return {int(s): int(a) for s, a in rows}

    def op_end(
        self,
        c: Sql,
        table_id: str,
        old_revision: int,
        new_revision: int,
        status: str,
        result: dict[str, Any] | None,
        ending: dict[str, Any],
        clock: dict[str, Any] | None,
        notes: list[str],
    ) -> None:
        """The players ended the game (resign, draw, abort, claim, time): store how, the result and the stopped clock;
        sealed choices and a draw offer go. Guarded by the revision like a move, so it never reopens or ends a table
        twice (another process's move or ending first: :class:`StaleRevision`)."""
        self._bump(c, table_id, old_revision, new_revision, status, result, clock)
        c.execute("UPDATE tables SET ending = ?, offer = NULL WHERE id = ?", (json.dumps(ending), table_id))
        if notes:
            self._add_notes(c, table_id, notes)
        c.execute("DELETE FROM pending WHERE table_id = ?", (table_id,))

    def op_offer(
        self, c: Sql, table_id: str, revision: int, offer: dict[str, Any] | None, notes: list[str] | None = None
    ) -> None:
        """Store a draw offer (``None``: none stands) at ``revision``, which it does not bump (a move in flight is not
        made stale by an offer); the other processes hear of it."""
        current = c.fetchone(
            "SELECT revision, status FROM tables WHERE id = ?" + (" FOR UPDATE" if self.shared else ""), (table_id,)
        )
        if current is None or current[0] != revision or current[1] != "playing":
            raise StaleRevision(f"table {table_id} is at revision {current and current[0]}, not {revision}")
        c.execute("UPDATE tables SET offer = ? WHERE id = ?", (json.dumps(offer) if offer else None, table_id))
        if notes:
            self._add_notes(c, table_id, notes)
        if self.shared:
            self._notify(c, table_id, revision)

    def op_presence(self, c: Sql, table_id: str, seats: dict[int, bool], at: float) -> None:
        """This process now has (``True``) or no longer has a page open for each of ``seats`` at ``table_id``."""
        for seat, connected in seats.items():
            c.execute(
                "DELETE FROM presence WHERE table_id = ? AND seat = ? AND origin = ?", (table_id, seat, self.origin)
            )
            c.execute(
                "INSERT INTO presence (table_id, seat, origin, connected, at) SELECT ?, ?, ?, ?, ? WHERE EXISTS"
                " (SELECT 1 FROM tables WHERE id = ?)",
                (table_id, seat, self.origin, int(connected), at, table_id),
            )
        if self.shared:
            self._notify(c, table_id, 0, "presence")

    def presence(self, table_id: str) -> dict[int, tuple[bool, float]]:
        """Per seat, what the other processes know (PostgreSQL; SQLite: nothing): whether one that is still running
        has a page open for it, and when a page last came or went."""
        if not self.shared:
            return {}
        with self.engine.connect() as c:
            rows = c.exec_driver_sql(
                "SELECT seat, MAX(CASE WHEN connected = 1 AND origin IN"
                f" ({_LIVE_ORIGINS.replace('?', '%s')}) THEN 1 ELSE 0 END), MAX(at)"
                " FROM presence WHERE table_id = %s AND origin <> %s GROUP BY seat",
                (APPLICATION + "%", table_id, self.origin),
            )
            return {int(seat): (bool(on), float(at)) for seat, on, at in rows}

    def op_seat(
        self,
        c: Sql,
        table_id: str,
        seats: list[dict[str, Any]],
        hashes: list[str | None],
        old: int,
        new: int,
        clock: dict[str, Any] | None = None,
    ) -> None:
        """A player took a free seat of an open table: its name and token hash (the revision is bumped)."""
        current = c.fetchone(
            "SELECT status, result FROM tables WHERE id = ?" + (" FOR UPDATE" if self.shared else ""), (table_id,)
        )
        if current is None:
            raise StaleRevision(f"no table {table_id}")
        self._bump(c, table_id, old, new, current[0], json.loads(current[1]) if current[1] else None, clock)
        c.execute(
            "UPDATE tables SET seats = ?, seat_hashes = ? WHERE id = ?",
            (json.dumps(seats), json.dumps(hashes), table_id),
        )

    def op_create_rematch(self, c: Sql, old_id: str, row: TableRow, seats: list[int]) -> dict[str, Any]:
        """Store ``row`` as the rematch of finished table ``old_id`` unless it has one already: the rematch stored.

        The rematch is ``{"id", "seats"}`` (its id and where each old seat went), kept on the old table's row. That
        row is locked first (PostgreSQL), so of two processes asking at once one stores the new table and the other,
        waiting on the lock, finds its rematch (and stores nothing). The rematch of an open table is open too, with
        the same public spectator token.
        """
        current = c.fetchone(
            "SELECT rematch, open_watch, revision FROM tables WHERE id = ?" + (" FOR UPDATE" if self.shared else ""),
            (old_id,),
        )
        if current is None:
            raise StaleRevision(f"no table {old_id}")
        if current[0]:
            return dict(json.loads(current[0]))
        rematch = {"id": row.id, "seats": seats}
        self.op_create_table(c, replace(row, open_watch=current[1]))
        c.execute("UPDATE tables SET rematch = ? WHERE id = ?", (json.dumps(rematch), old_id))
        if self.shared:
            self._notify(c, old_id, int(current[2]))
        return rematch

    def op_chat(self, c: Sql, table_id: str, row: ChatRow, keep: int) -> int:
        """Add a chat message (the oldest beyond ``keep`` are dropped); its index.

        On PostgreSQL the table's row is locked first, so two processes adding messages at once number them one
        after the other, and the others hear of it (``chat`` announcements).
        """
        if self.shared:
            current = c.fetchone("SELECT revision FROM tables WHERE id = ? FOR UPDATE", (table_id,))
            if current is None:
                raise StaleRevision(f"no table {table_id}")
        last = c.fetchone("SELECT MAX(idx) FROM chat WHERE table_id = ?", (table_id,))
        idx = 0 if last is None or last[0] is None else int(last[0]) + 1
        c.execute(
            "INSERT INTO chat (table_id, idx, seat, name, text, at) VALUES (?,?,?,?,?,?)",
            (table_id, idx, row.seat, row.name, row.text, row.at),
        )
        c.execute("DELETE FROM chat WHERE table_id = ? AND idx <= ?", (table_id, idx - keep))
        if self.shared:
            message = json.dumps(row.to_json(), separators=(",", ":"), ensure_ascii=False)
            self._notify(c, table_id, idx, "chat", message)
        return idx

    def op_watchers(self, c: Sql, table_id: str, spectators: int) -> None:
        """This process has ``spectators`` spectators on ``table_id`` now (PostgreSQL)."""
        c.execute("DELETE FROM watchers WHERE table_id = ? AND origin = ?", (table_id, self.origin))
        if spectators > 0:
            c.execute(
                "INSERT INTO watchers (table_id, origin, spectators) SELECT ?, ?, ? WHERE EXISTS"
                " (SELECT 1 FROM tables WHERE id = ?)",
                (table_id, self.origin, spectators, table_id),
            )

    def op_forget_watchers(self, c: Sql, everyone_gone: bool = False) -> None:
        """Drop this process's spectator counts (it stops), or (``everyone_gone``) those of every process gone."""
        if everyone_gone:
            c.execute(f"DELETE FROM watchers WHERE origin NOT IN ({_LIVE_ORIGINS})", (APPLICATION + "%",))
        else:
            c.execute("DELETE FROM watchers WHERE origin = ?", (self.origin,))

    def spectators(self, table_ids: list[str]) -> dict[str, int]:
        """The spectators other processes still running have on these tables (PostgreSQL; SQLite: none)."""
        if not self.shared or not table_ids:
            return {}
        with self.engine.connect() as c:
            rows = c.exec_driver_sql(
                "SELECT table_id, SUM(spectators) FROM watchers WHERE table_id = ANY(%s) AND origin <> %s"
                f" AND origin IN ({_LIVE_ORIGINS.replace('?', '%s')}) GROUP BY table_id",
                (list(table_ids), self.origin, APPLICATION + "%"),
            )
            return {str(t): int(n) for t, n in rows}

    def chat(self, table_id: str) -> list[ChatRow]:
        with self.engine.connect() as c:
            rows = c.execute(
                select(chat_t.c.seat, chat_t.c.name, chat_t.c.text, chat_t.c.at)
                .where(chat_t.c.table_id == table_id)
                .order_by(chat_t.c.idx)
            )
            return [ChatRow(r.seat, r.name, r.text, r.at) for r in rows]

    def open_tables(self, limit: int = 100) -> list[TableRow]:
        """Unfinished open tables, newest first (without their moves)."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(tables_t)
                .where(tables_t.c.status == "playing", tables_t.c.open_watch.is_not(None))
                .order_by(tables_t.c.created_at.desc())
                .limit(limit)
            ).mappings()
            return [_table_row(r) for r in rows]

    def _bump(
        self, c: Sql, table_id: str, old: int, new: int, status: str, result: Any, clock: dict[str, Any] | None = None
    ) -> None:
        if self.shared:
            # Hold the table's row for the rest of the transaction: another process's write to this
            # table waits here, then finds the new revision.
            current = c.fetchone("SELECT revision FROM tables WHERE id = ? FOR UPDATE", (table_id,))
            if current is None or current[0] != old:
                raise StaleRevision(f"table {table_id} is no longer at revision {old}")
        sets, args = "", ()
        if clock is not None:
            sets, args = ", clock = ?", (json.dumps(clock),)
        n = c.execute(
            f"UPDATE tables SET revision = ?, status = ?, result = ?, updated_at = ?{sets} WHERE id = ? AND revision = ?",
            (new, status, json.dumps(result) if result is not None else None, time.time(), *args, table_id, old),
        )
        if n != 1:
            raise StaleRevision(f"table {table_id} is no longer at revision {old}")
        if self.shared:
            self._notify(c, table_id, new)

    def _add_notes(self, c: Sql, table_id: str, notes: list[str]) -> None:
        """Add ``notes`` to the table's (the caller has locked its row), keeping the latest :data:`NOTES_KEEP`."""
        current = c.fetchone("SELECT notes FROM tables WHERE id = ?", (table_id,))
        kept = [*(json.loads(current[0]) if current and current[0] else []), *notes][-NOTES_KEEP:]
        c.execute("UPDATE tables SET notes = ? WHERE id = ?", (json.dumps(kept, ensure_ascii=False), table_id))

    def _notify(self, c: Sql, table_id: str, revision: int, what: str = "table", data: str = "") -> None:
        """Tell the other processes (at commit; dropped with a rolled-back savepoint) what changed (:data:`CHANGES`)."""
        payload = f"{table_id} {revision} {self.origin} {what}" + (f" {data}" if data else "")
        c.execute("SELECT pg_notify(?, ?)", (CHANNEL, payload))

    # -- reads --------------------------------------------------------------
    def load(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as c:
            r = c.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
            if r is None:
                return None
            row = _table_row(r)
            for m in c.execute(
                select(moves_t.c.actor, moves_t.c.entry, moves_t.c.label)
                .where(moves_t.c.table_id == table_id)
                .order_by(moves_t.c.idx)
            ):
                row.moves.append(MoveRow(m.actor, json.loads(m.entry), json.loads(m.label)))
            for p in c.execute(
                select(pending_t.c.seat, pending_t.c.action, pending_t.c.revision).where(
                    pending_t.c.table_id == table_id
                )
            ):
                if p.revision == row.revision:
                    row.pending[p.seat] = p.action
            return row

    def table_ids(self, status: str | None = None) -> list[str]:
        with self.engine.connect() as c:
            q = select(tables_t.c.id)
            if status is not None:
                q = q.where(tables_t.c.status == status)
            return [r.id for r in c.execute(q.order_by(tables_t.c.created_at))]

    def ai_table_ids(self) -> list[str]:
        """Unfinished tables with an AI seat or a turn clock: the only ones a server loads at start (the others when
        asked for)."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(tables_t.c.id, tables_t.c.seats, tables_t.c.clock)
                .where(tables_t.c.status == "playing")
                .order_by(tables_t.c.created_at)
            )
            return [r.id for r in rows if r.clock or any(s.get("kind") == "ai" for s in json.loads(r.seats))]

    def op_expire(self, c: Sql, idle_since: float, keep: frozenset[str]) -> list[str]:
        """Mark unfinished tables with no move since ``idle_since`` (except ``keep``) expired; their ids."""
        with self.engine.connect() as r:
            ids = [
                row.id
                for row in r.execute(
                    select(tables_t.c.id).where(tables_t.c.status == "playing", tables_t.c.updated_at < idle_since)
                )
                if row.id not in keep
            ]
        for table_id in ids:
            c.execute(
                "UPDATE tables SET status = 'expired' WHERE id = ? AND status = 'playing' AND updated_at < ?",
                (table_id, idle_since),
            )
        return ids

    def count_tables(self) -> int:
        with self.engine.connect() as c:
            return len(c.execute(select(tables_t.c.id)).all())


class Listener:
    """One PostgreSQL connection per process that LISTENs for other processes' writes, in a thread.

    ``on_change(table_id, revision, what, data)`` is called in that thread, in commit order, for every change
    another process committed (``what``: one of :data:`CHANGES`), and ``on_change(None, 0, "table", "")`` after
    the connection was (re)opened, when changes may have been missed. It reconnects after a failure until
    :meth:`close`.
    """

    def __init__(self, store: Store, on_change: Callable[[str | None, int, str, str], None]) -> None:
        self.store = store
        self.on_change = on_change
        self._stop = threading.Event()
        self.ready = threading.Event()
        url = make_url(store.url).set(drivername="postgresql")
        self._conninfo = url.render_as_string(hide_password=False)
        self._thread = threading.Thread(target=self._loop, name="boardlab-db-listen", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _loop(self) -> None:
        import psycopg

        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(
                    self._conninfo, autocommit=True, application_name=APPLICATION + self.store.origin
                ) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.ready.set()
                    if not first:
                        self.on_change(None, 0, "table", "")
                    first = False
                    while not self._stop.is_set():
                        for n in conn.notifies(timeout=0.5):
                            table_id, revision, origin, *rest = n.payload.split(" ", 4)
                            if origin != self.store.origin:  # (an older version's announcements end at the origin)
                                what = rest[0] if rest else "table"
                                data = rest[1] if len(rest) > 1 else ""
                                self.on_change(table_id, int(revision), what, data)
            except Exception:
                if self._stop.is_set():
                    return
                log.exception("lost the database's change announcements; reconnecting")
                self._stop.wait(1.0)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    # FULL: every commit is synced to disk before it returns (an acknowledged move survives a crash).
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


#: The origins of the processes whose listening connection is open (``?``: :data:`APPLICATION` and ``%``).
_LIVE_ORIGINS = (
    "SELECT substr(application_name, length('boardlab ') + 1) FROM pg_stat_activity WHERE application_name LIKE ?"
)

_INSERT_MOVE = "INSERT INTO moves (table_id, idx, actor, entry, label, at) VALUES (?,?,?,?,?,?)"


def _move_values(table_id: str, start: int, moves: list[MoveRow]) -> list[tuple[Any, ...]]:
    now = time.time()
    return [(table_id, start + i, m.actor, json.dumps(m.entry), json.dumps(m.label), now) for i, m in enumerate(moves)]


class Sql:
    """A DBAPI cursor on a SQLAlchemy connection's transaction, taking ``?`` placeholders for any driver."""

    def __init__(self, conn: Connection, paramstyle: str) -> None:
        self.cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        self.convert = paramstyle in ("format", "pyformat")

    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s") if self.convert else sql

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        self.cursor.execute(self._sql(sql), params)
        return int(self.cursor.rowcount)

    def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        self.cursor.executemany(self._sql(sql), rows)

    def fetchone(self, sql: str, params: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
        self.cursor.execute(self._sql(sql), params)
        row = self.cursor.fetchone()
        return tuple(row) if row is not None else None

    def fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        self.cursor.execute(self._sql(sql), params)
        return [tuple(r) for r in self.cursor.fetchall()]


def _table_row(r: Any) -> TableRow:
    return TableRow(
        id=r["id"],
        game=r["game"],
        options=json.loads(r["options"]),
        rules_version=r["rules_version"],
        num_players=r["num_players"],
        mode=r["mode"],
        seats=json.loads(r["seats"]),
        seed=int(r["seed"]),
        revision=r["revision"],
        status=r["status"],
        result=json.loads(r["result"]) if r["result"] else None,
        seat_hashes=json.loads(r["seat_hashes"]),
        spectator_hash=r["spectator_hash"],
        created_at=r["created_at"],
        updated_at=r["updated_at"],
        chance_key=r.get("chance_key"),
        open_watch=r.get("open_watch"),
        rematch=json.loads(r["rematch"]) if r.get("rematch") else None,
        clock=json.loads(r["clock"]) if r.get("clock") else None,
        notes=json.loads(r["notes"]) if r.get("notes") else [],
        ending=json.loads(r["ending"]) if r.get("ending") else None,
        offer=json.loads(r["offer"]) if r.get("offer") else None,
    )


class GroupWriter:
    """One thread that commits write operations in batches (group commit).

    Every operation queued while a commit is on its way to disk joins the next
    transaction, each inside its own SAVEPOINT: an operation that fails (say, a
    stale revision) is rolled back alone, and the others commit together with
    one sync to disk. A future resolves only after the commit has returned, so
    the caller acknowledges nothing that is not stored.
    """

    MAX_BATCH = 256

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]] | None] = (
            queue.SimpleQueue()
        )
        self._thread = threading.Thread(target=self._loop, name="boardlab-db-writer", daemon=True)
        self._thread.start()
        self.batches = 0
        self.operations = 0

    def submit(self, op: Callable[..., T], *args: Any) -> Future[T]:
        fut: Future[T] = Future()
        self._queue.put((fut, op, args))
        return fut

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=30)

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            stop = False
            while len(batch) < self.MAX_BATCH:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]]) -> None:
        live = [b for b in batch if b[0].set_running_or_notify_cancel()]
        outcomes: list[tuple[Future[Any], Any, BaseException | None]] = []
        try:
            with self.store.engine.begin() as conn:
                c = Sql(conn, self.store.paramstyle)
                for fut, op, args in live:
                    c.execute("SAVEPOINT op")
                    try:
                        result = op(c, *args)
                    except Exception as e:
                        c.execute("ROLLBACK TO SAVEPOINT op")
                        c.execute("RELEASE SAVEPOINT op")
                        outcomes.append((fut, None, e))
                    else:
                        c.execute("RELEASE SAVEPOINT op")
                        outcomes.append((fut, result, None))
        except Exception as e:  # the commit itself failed: nothing in this batch is stored
            log.exception("database commit failed")
            for fut, _op, _args in live:
                if not fut.done():
                    fut.set_exception(e)
            return
        self.batches += 1
        self.operations += len(live)
        for fut, result, exc in outcomes:
            if exc is not None:
                fut.set_exception(exc)
            else:
                fut.set_result(result)
