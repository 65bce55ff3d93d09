"""Stored lab runs: every finished job's result, so a run killed half-way resumes without repeating finished work.

SQLAlchemy Core on a SQLite file by default (``sqlite:///./boardlab-data/lab.db``, or the ``BOARDLAB_LAB_DB``
environment variable); any database URL works, the game server's included (the lab's tables are prefixed ``lab_``
and never touch the server's). Two tables:

``lab_runs``
    one row per run: its key, kind (``simulate``, ``sweep``, ``balance``…), parameters, number of jobs, status
    (``running`` / ``finished`` / ``failed``), a JSON summary once finished (e.g. the report; the error if failed),
    reported progress, and times.
``lab_results``
    one row per finished job: the run's key, the job's index and its result as JSON.

>>> s = RunStore("sqlite://")
>>> info = s.open_run("k1", kind="simulate", params={"game": "hamlet"}, total=3)
>>> s.save("k1", [(0, {"winner": 1}), (2, [1, 2])])
>>> s.results("k1")
{0: {'winner': 1}, 2: [1, 2]}
>>> s.get("k1").done, s.get("k1").status
(2, 'running')
>>> s.finish("k1", {"verdict": "fine"}); s.get("k1").status
'finished'
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.pool import StaticPool

DEFAULT_LAB_DB_URL = "sqlite:///./boardlab-data/lab.db"
#: The PostgreSQL advisory lock held while a process creates or updates the lab's tables.
SCHEMA_LOCK = 0x6C61625F72756E73  # "lab_runs"

metadata = MetaData()

runs_t = Table(
    "lab_runs",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("kind", String(32), nullable=False),
    Column("params", Text, nullable=False),
    Column("total", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("summary", Text, nullable=True),
    #: Jobs reported done by a run that stores no per-job results (``set_progress``); NULL otherwise.
    Column("progress", Integer, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)

results_t = Table(
    "lab_results",
    metadata,
    Column("run_key", String(64), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("result", Text, nullable=False),
)


def run_key(kind: str, params: Mapping[str, Any]) -> str:
    """A stable key for a run from its kind and parameters (the same run asked again gets the same key).

    >>> run_key("simulate", {"game": "hamlet", "seed": 1}) == run_key("simulate", {"seed": 1, "game": "hamlet"})
    True
    >>> len(run_key("simulate", {"game": "hamlet"}))
    24
    """
    text = json.dumps([kind, params], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def default_url() -> str:
    """The lab's database: ``BOARDLAB_LAB_DB`` if set, else a SQLite file under ``./boardlab-data``."""
    return os.environ.get("BOARDLAB_LAB_DB") or DEFAULT_LAB_DB_URL


@dataclass(frozen=True)
class RunInfo:
    """One stored run as listed: ``done`` is how many of its ``total`` jobs have a stored result."""

    key: str
    kind: str
    params: dict[str, Any]
    total: int
    done: int
    status: str
    summary: Any
    created_at: float
    updated_at: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "kind": self.kind,
            "params": self.params,
            "total": self.total,
            "done": self.done,
            "status": self.status,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }


class RunStore:
    """Blocking, transactional access to stored runs (one instance may be shared by threads)."""

    def __init__(self, url: str | None = None) -> None:
        url = url or default_url()
        try:
            u = make_url(url)
        except Exception:
            raise ValueError(
                f"{url!r} is not a database URL (e.g. sqlite:///path/to/lab.db or postgresql+psycopg://user@host/db)"
            ) from None
        kwargs: dict[str, Any] = {}
        self.is_sqlite = u.get_backend_name() == "sqlite"
        if self.is_sqlite:
            if u.database and u.database != ":memory:":
                pathlib.Path(u.database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
            else:  # one in-memory database shared by every thread of this process
                kwargs["poolclass"] = StaticPool
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
        self.url = url
        self.engine: Engine = create_engine(url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        with self.engine.begin() as c:
            if u.get_backend_name() == "postgresql":
                # Several processes may open one database at once (server processes, lab workers): one at a time.
                c.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")
            metadata.create_all(c, checkfirst=True)
            if "progress" not in {col["name"] for col in inspect(c).get_columns("lab_runs")}:
                c.exec_driver_sql("ALTER TABLE lab_runs ADD COLUMN progress INTEGER")  # made before progress

    def close(self) -> None:
        self.engine.dispose()

    def open_run(self, key: str, *, kind: str, params: Mapping[str, Any], total: int) -> RunInfo:
        """The run ``key``, created if new. A key already stored for other parameters is a ``ValueError``."""
        text = json.dumps(dict(params), sort_keys=True)
        now = time.time()
        with self.engine.begin() as c:
            row = c.execute(select(runs_t).where(runs_t.c.key == key)).first()
            if row is None:
                c.execute(
                    insert(runs_t).values(
                        key=key,
                        kind=kind,
                        params=text,
                        total=total,
                        status="running",
                        summary=None,
                        created_at=now,
                        updated_at=now,
                    )
                )
            elif row.kind != kind or row.total != total or json.loads(row.params) != json.loads(text):
                raise ValueError(
                    f"run {key} is stored for other settings ({row.kind}, {row.total} jobs); choose another key"
                )
        info = self.get(key)
        assert info is not None
        return info

    def results(self, key: str) -> dict[int, Any]:
        """The stored results of run ``key``, by job index."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(results_t.c.idx, results_t.c.result).where(results_t.c.run_key == key).order_by(results_t.c.idx)
            )
            return {idx: json.loads(text) for idx, text in rows}

    def save(self, key: str, items: Iterable[tuple[int, Any]]) -> None:
        """Store finished jobs' results (JSON-able) in one transaction; a job already stored keeps its result."""
        rows = [{"run_key": key, "idx": i, "result": json.dumps(r)} for i, r in items]
        if not rows:
            return
        with self.engine.begin() as c:
            have = set(
                c.execute(
                    select(results_t.c.idx).where(
                        results_t.c.run_key == key, results_t.c.idx.in_([r["idx"] for r in rows])
                    )
                ).scalars()
            )
            fresh = [r for r in rows if r["idx"] not in have]
            if fresh:
                c.execute(insert(results_t), fresh)
            c.execute(update(runs_t).where(runs_t.c.key == key).values(updated_at=time.time()))

    def finish(self, key: str, summary: Any = None) -> None:
        """Mark run ``key`` finished, with an optional JSON-able summary (what the lab page shows)."""
        with self.engine.begin() as c:
            c.execute(
                update(runs_t)
                .where(runs_t.c.key == key)
                .values(status="finished", summary=json.dumps(summary), updated_at=time.time())
            )

    def set_progress(self, key: str, done: int) -> None:
        """Record how many jobs run ``key`` has finished, for a run that stores no per-job results."""
        with self.engine.begin() as c:
            c.execute(update(runs_t).where(runs_t.c.key == key).values(progress=done, updated_at=time.time()))

    def fail(self, key: str, message: str, status: str = "failed") -> None:
        """Mark run ``key`` failed (or ``status``: ``cancelled``), saying why (a later run under the key starts it
        again)."""
        with self.engine.begin() as c:
            c.execute(
                update(runs_t)
                .where(runs_t.c.key == key)
                .values(status=status, summary=json.dumps({"error": message}), updated_at=time.time())
            )

    def restart(self, key: str) -> None:
        """Set a failed or stopped run ``key`` running again (its stored results stay)."""
        with self.engine.begin() as c:
            c.execute(
                update(runs_t)
                .where(runs_t.c.key == key)
                .values(status="running", summary=None, progress=None, updated_at=time.time())
            )

    def get(self, key: str) -> RunInfo | None:
        found = self._list(runs_t.c.key == key, limit=1)
        return found[0] if found else None

    def runs(self, *, kind: str | None = None, limit: int = 50) -> list[RunInfo]:
        """Stored runs, newest first."""
        return self._list(runs_t.c.kind == kind if kind else None, limit=limit)

    def delete(self, key: str) -> None:
        with self.engine.begin() as c:
            c.execute(delete(results_t).where(results_t.c.run_key == key))
            c.execute(delete(runs_t).where(runs_t.c.key == key))

    def _list(self, where: Any, *, limit: int) -> list[RunInfo]:
        done = select(results_t.c.run_key, func.count().label("done")).group_by(results_t.c.run_key).subquery("done")
        q = select(runs_t, func.coalesce(done.c.done, 0).label("done")).outerjoin(done, done.c.run_key == runs_t.c.key)
        if where is not None:
            q = q.where(where)
        q = q.order_by(runs_t.c.created_at.desc()).limit(limit)
        with self.engine.connect() as c:
            return [
                RunInfo(
                    key=r.key,
                    kind=r.kind,
                    params=json.loads(r.params),
                    total=r.total,
                    done=max(r.done, r.progress or 0),
                    status=r.status,
                    summary=json.loads(r.summary) if r.summary else None,
                    created_at=r.created_at,
                    updated_at=r.updated_at,
                )
                for r in c.execute(q)
            ]


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")  # readers (the lab page) never wait for the run writing its results
    cur.execute("PRAGMA synchronous=NORMAL")  # a crash may lose the last results; they are recomputed, never wrong
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()
