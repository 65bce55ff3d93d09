"""The seek tests again on PostgreSQL (a throwaway server, ``pg_cluster``): matching by rating, the widening range,
options, cancel and expiry, bad input, with ``postgresql+psycopg://`` storage."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

# Collected here too, so that they run with this module's fixtures (PostgreSQL) as well as SQLite's.
from test_seeks import (  # noqa: F401
    clock,
    test_a_rated_seek_needs_an_account,
    test_bad_input_and_wrong_tokens_change_nothing,
    test_cancel_and_expiry,
    test_clashing_guest_names_still_meet,
    test_one_account_never_meets_itself,
    test_options_clock_and_rating_choice_must_match,
    test_rated_seeks_match_by_rating_and_make_a_rated_table,
    test_the_accepted_range_widens_with_waiting,
    test_two_casual_seeks_match_at_one_table,
)

from pg_cluster import PostgresCluster, app_client, started_cluster

if TYPE_CHECKING:
    from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def pg() -> Iterator[PostgresCluster]:
    yield from started_cluster()


@pytest.fixture(scope="module")
def client(pg: PostgresCluster) -> Iterator[TestClient]:
    yield from app_client(pg, "seeks")
