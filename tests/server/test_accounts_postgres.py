"""The account tests again on PostgreSQL (a throwaway server, ``pg_cluster``): password storage, sessions, CSRF,
claims, rated games, the lobby's rated tables and deleting an account, with ``postgresql+psycopg://`` storage."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

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

from pg_cluster import PostgresCluster, app_client, started_cluster

if TYPE_CHECKING:
    from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def pg() -> Iterator[PostgresCluster]:
    yield from started_cluster()


@pytest.fixture(scope="module")
def client(pg: PostgresCluster) -> Iterator[TestClient]:
    yield from app_client(pg, "accounts")
