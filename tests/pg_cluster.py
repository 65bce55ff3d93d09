"""A throwaway PostgreSQL server for tests: its own data folder, a free port on loopback, trust auth.

``make test`` installs Debian's PostgreSQL and psycopg and sets ``BOARDLAB_REQUIRE_POSTGRES=1``, so there
the PostgreSQL tests run or fail; elsewhere they are skipped when the server binaries or the driver are
missing, saying which. As root (CI), the server runs as the ``postgres`` system user, since PostgreSQL
refuses to run as root.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import pytest

USER = "boardlab"


def _find(tool: str) -> str | None:
    found = shutil.which(tool)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{tool}"))
    return candidates[-1] if candidates else None


def missing() -> str | None:
    """Why PostgreSQL tests cannot run here, or ``None``."""
    for tool in ("initdb", "pg_ctl"):
        if _find(tool) is None:
            return f"PostgreSQL's {tool} is not installed (Debian: apt-get install postgresql)"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "the psycopg driver is not installed (pip install 'boardlab[postgres]')"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root without runuser, so PostgreSQL cannot be started as another user"
    return None


def skip_or_fail_if_missing() -> None:
    why = missing()
    if why is None:
        return
    if os.environ.get("BOARDLAB_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"PostgreSQL tests are required here, but {why}")
    pytest.skip(why)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresCluster:
    """``start()`` a private server; ``new_database(name)`` gives a SQLAlchemy URL; ``stop()`` removes it all."""

    def __init__(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="boardlab-pg-")
        self.data = os.path.join(self.dir, "data")
        self.port = _free_port()
        self.as_root = os.geteuid() == 0

    def _run(self, *args: str) -> None:
        cmd = list(args)
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed ({done.returncode}): {done.stdout}{done.stderr}")

    def start(self) -> PostgresCluster:
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
        initdb, pg_ctl = _find("initdb"), _find("pg_ctl")
        assert initdb and pg_ctl
        self._run(initdb, "-D", self.data, "-U", USER, "-A", "trust", "-E", "UTF8", "--no-sync")
        opts = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c shared_buffers=16MB -c max_connections=60"
        )
        self._run(pg_ctl, "-D", self.data, "-o", opts, "-l", os.path.join(self.dir, "server.log"), "-w", "start")
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self, name: str) -> str:
        """An empty database of that name (dropped first if it exists); its SQLAlchemy URL."""
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user={USER} dbname=postgres", autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{name}"')
            c.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def log(self) -> str:
        try:
            with open(os.path.join(self.dir, "server.log")) as f:
                return f.read()
        except OSError:
            return ""

    def stop(self) -> None:
        pg_ctl = _find("pg_ctl")
        if pg_ctl and os.path.exists(os.path.join(self.data, "postmaster.pid")):
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                self._run(pg_ctl, "-D", self.data, "-m", "immediate", "-w", "stop")
        deadline = time.monotonic() + 5
        while os.path.exists(os.path.join(self.data, "postmaster.pid")) and time.monotonic() < deadline:
            time.sleep(0.05)
        shutil.rmtree(self.dir, ignore_errors=True)


def started_cluster() -> Iterator[PostgresCluster]:
    """A throwaway cluster for a module's fixture (``yield from started_cluster()``), stopped after it."""
    skip_or_fail_if_missing()
    cluster = PostgresCluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()


def app_client(cluster: PostgresCluster, database: str) -> Iterator[Any]:
    """A test client of a server on a new database of ``cluster`` (no quotas, one AI worker), for a module's fixture."""
    import warnings

    from boardlab.server import Settings, create_app
    from boardlab.server.limits import NO_QUOTAS

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    settings = Settings(db_url=cluster.new_database(database), ai_workers=1, ai_delay=0.0, quotas=NO_QUOTAS)
    with TestClient(create_app(settings), raise_server_exceptions=True) as c:
        assert not c.app.state.platform.store.is_sqlite  # type: ignore[attr-defined]
        yield c
