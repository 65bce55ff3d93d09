"""The same storage, API and crash tests on PostgreSQL, through a throwaway server (``pg_cluster``).

SQLite is the default database and every server test runs on it; this module re-runs the tests that
touch storage (group commits, sealed choices, truncation on undo, concurrent moves, a SIGKILLed server
resuming every table, a game to its end against the AI) with ``postgresql+psycopg://`` URLs.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Iterator

import pytest
from server_helpers import Api

# Collected here too, so that they run with this module's fixtures (PostgreSQL) as well as SQLite's.
from test_api_tables import (  # noqa: F401
    test_concurrent_conflicting_moves_exactly_one_wins,
    test_game_against_ai_to_the_end_then_record,
    test_hotseat_undo_takes_back_the_last_decision,
    test_moves_and_refusals,
    test_undo_against_ai_takes_back_the_ai_reply_too,
)
from test_chance_secret import (  # noqa: F401
    test_a_database_from_before_chance_keys_opens_and_old_tables_keep_their_seed,
    test_a_restarted_server_draws_the_same_chance,
)
from test_restart import test_sigkill_and_restart_resume_every_table  # noqa: F401
from test_store import test_group_commit_isolates_a_stale_write, test_pending_and_truncate  # noqa: F401

from boardlab.server import Settings, create_app
from boardlab.server.limits import NO_QUOTAS
from boardlab.server.store import Store, describe_url
from pg_cluster import PostgresCluster, skip_or_fail_if_missing

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

_names = itertools.count()


@pytest.fixture(scope="module")
def pg() -> Iterator[PostgresCluster]:
    skip_or_fail_if_missing()
    cluster = PostgresCluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def store_url(pg: PostgresCluster) -> str:
    return pg.new_database(f"store{next(_names)}")


@pytest.fixture
def server_db(pg: PostgresCluster) -> str:
    return pg.new_database(f"server{next(_names)}")


@pytest.fixture(scope="module")
def client(pg: PostgresCluster) -> Iterator[TestClient]:
    app = create_app(Settings(db_url=pg.new_database("api"), ai_workers=1, ai_delay=0.0, quotas=NO_QUOTAS))
    with TestClient(app, raise_server_exceptions=True) as c:
        yield c


@pytest.fixture(scope="module")
def api(client: TestClient) -> Api:
    return Api(client)


def test_the_store_really_is_postgresql(store_url: str) -> None:
    store = Store(store_url)
    try:
        assert not store.is_sqlite and store.engine.dialect.name == "postgresql"
        assert describe_url(store_url).startswith("postgresql+psycopg://")
        with store.engine.connect() as c:
            assert c.exec_driver_sql("select version()").scalar().startswith("PostgreSQL")
    finally:
        store.close()
