"""Durable storage of tables: SQLAlchemy Core on SQLite (default) or PostgreSQL (by URL).

Three tables:

``tables``
    one row per game table: game, options, seats, mode, seed, the *revision*
    (bumped on every accepted change, used for optimistic concurrency), status,
    result, and SHA-256 hashes of the seat and spectator tokens (the tokens
    themselves are never stored).
``moves``
    the history, one row per entry (a seat's action, a chance outcome, or a
    joint action as a JSON list), with the label it had when it was played.
``pending``
    sealed submissions at a simultaneous decision, until every deciding seat
    has submitted.

Every method runs one transaction and returns only after it is committed, so
the server acknowledges an action only once it is on disk. Writes are guarded
by the stored revision (``UPDATE … WHERE revision = old``): a second server
process sharing the database cannot silently interleave moves.

All methods are blocking; :class:`~boardlab.server.tables.Platform` calls them
from one dedicated thread, never from the event loop.
"""

from __future__ import annotations

import json
import pathlib
import time
from dataclasses import dataclass, field
from typing import Any

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
    and_,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine, make_url

DEFAULT_DB_URL = "sqlite:///./boardlab-data/boardlab.db"

metadata = MetaData()

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
    Column("revision", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("result", Text, nullable=True),
    Column("seat_hashes", Text, nullable=False),
    Column("spectator_hash", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)

moves_t = Table(
    "moves",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("actor", Integer, nullable=False),
    Column("entry", Text, nullable=False),
    Column("label", Text, nullable=False),
    Column("at", Float, nullable=False),
)

pending_t = Table(
    "pending",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("action", Integer, nullable=False),
    Column("revision", Integer, nullable=False),
    Column("at", Float, nullable=False),
)


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


def normalise_url(url: str | None) -> str:
    """The database URL to use; SQLite paths get their directory created."""
    url = url or DEFAULT_DB_URL
    u = make_url(url)
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
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- writes -------------------------------------------------------------
    def create_table(self, row: TableRow) -> None:
        with self.engine.begin() as c:
            c.execute(
                insert(tables_t).values(
                    id=row.id,
                    game=row.game,
                    options=json.dumps(row.options),
                    rules_version=row.rules_version,
                    num_players=row.num_players,
                    mode=row.mode,
                    seats=json.dumps(row.seats),
                    seed=row.seed,
                    revision=row.revision,
                    status=row.status,
                    result=json.dumps(row.result) if row.result is not None else None,
                    seat_hashes=json.dumps(row.seat_hashes),
                    spectator_hash=row.spectator_hash,
                    created_at=row.created_at,
                    updated_at=row.updated_at,
                )
            )
            if row.moves:
                c.execute(insert(moves_t), _move_values(row.id, 0, row.moves))

    def append_moves(
        self,
        table_id: str,
        start: int,
        moves: list[MoveRow],
        old_revision: int,
        new_revision: int,
        status: str,
        result: dict[str, Any] | None,
        clear_pending: bool = False,
    ) -> None:
        """Add history entries ``start, start+1, …`` and bump the revision, in one transaction."""
        with self.engine.begin() as c:
            self._bump(c, table_id, old_revision, new_revision, status, result)
            if clear_pending:
                c.execute(delete(pending_t).where(pending_t.c.table_id == table_id))
            if moves:
                c.execute(insert(moves_t), _move_values(table_id, start, moves))

    def truncate(
        self, table_id: str, length: int, old_revision: int, new_revision: int, status: str, result: Any
    ) -> None:
        """Drop history entries from index ``length`` on (undo) and any sealed submissions."""
        with self.engine.begin() as c:
            self._bump(c, table_id, old_revision, new_revision, status, result)
            c.execute(delete(moves_t).where(and_(moves_t.c.table_id == table_id, moves_t.c.idx >= length)))
            c.execute(delete(pending_t).where(pending_t.c.table_id == table_id))

    def set_pending(self, table_id: str, seat: int, action: int | None, revision: int) -> None:
        """Seal (``action`` given) or withdraw (``None``) a seat's simultaneous submission."""
        with self.engine.begin() as c:
            current = c.execute(select(tables_t.c.revision).where(tables_t.c.id == table_id)).scalar_one_or_none()
            if current != revision:
                raise StaleRevision(f"table {table_id} is at revision {current}, not {revision}")
            c.execute(delete(pending_t).where(and_(pending_t.c.table_id == table_id, pending_t.c.seat == seat)))
            if action is not None:
                c.execute(
                    insert(pending_t).values(
                        table_id=table_id, seat=seat, action=action, revision=revision, at=time.time()
                    )
                )

    def _bump(self, c: Any, table_id: str, old: int, new: int, status: str, result: Any) -> None:
        r = c.execute(
            update(tables_t)
            .where(and_(tables_t.c.id == table_id, tables_t.c.revision == old))
            .values(
                revision=new,
                status=status,
                result=json.dumps(result) if result is not None else None,
                updated_at=time.time(),
            )
        )
        if r.rowcount != 1:
            raise StaleRevision(f"table {table_id} is no longer at revision {old}")

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

    def count_tables(self) -> int:
        with self.engine.connect() as c:
            return len(c.execute(select(tables_t.c.id)).all())


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    # FULL: every commit is synced to disk before it returns (an acknowledged move survives a crash).
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


def _move_values(table_id: str, start: int, moves: list[MoveRow]) -> list[dict[str, Any]]:
    now = time.time()
    return [
        {
            "table_id": table_id,
            "idx": start + i,
            "actor": m.actor,
            "entry": json.dumps(m.entry),
            "label": json.dumps(m.label),
            "at": now,
        }
        for i, m in enumerate(moves)
    ]


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
    )
