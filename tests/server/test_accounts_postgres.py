"""The account tests again on PostgreSQL (a throwaway server, ``pg_cluster``): password storage, sessions, CSRF,
claims, rated games, the lobby's rated tables and deleting an account, with ``postgresql+psycopg://`` storage."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

# Collected here too, so that they run with this module's fixtures (PostgreSQL) as well as SQLite's.
from test_accounts import (  # noqa: F401
    test_a_guests_tables_are_claimed_at_sign_up,
    test_a_new_session_id_at_every_sign_in,
    test_csrf_cookie_writes_need_the_token,
    test_delete_my_account_anonymises_my_games,
    test_no_account_enumeration_at_sign_in,
    test_password_is_stored_as_an_argon2id_hash_and_rehashed,
    test_rated_game_updates_both_ratings_and_profiles,
    test_sign_out_and_sign_out_everywhere,
    test_the_lobby_says_which_open_tables_are_rated,
)

from boardlab.server import Settings, create_app
from boardlab.server.limits import NO_QUOTAS
from pg_cluster import PostgresCluster, skip_or_fail_if_missing

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def pg() -> Iterator[PostgresCluster]:
    skip_or_fail_if_missing()
    cluster = PostgresCluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="module")
def client(pg: PostgresCluster) -> Iterator[TestClient]:
    app = create_app(Settings(db_url=pg.new_database("accounts"), ai_workers=1, ai_delay=0.0, quotas=NO_QUOTAS))
    with TestClient(app, raise_server_exceptions=True) as c:
        assert not c.app.state.platform.store.is_sqlite  # type: ignore[attr-defined]
        yield c
