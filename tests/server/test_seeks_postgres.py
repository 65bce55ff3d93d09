"""The seek tests again on PostgreSQL (a throwaway server, ``pg_cluster``): matching by rating, the widening range,
options, cancel and expiry, bad input, with ``postgresql+psycopg://`` storage."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

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
    app = create_app(Settings(db_url=pg.new_database("seeks"), ai_workers=1, ai_delay=0.0, quotas=NO_QUOTAS))
    with TestClient(app, raise_server_exceptions=True) as c:
        assert not c.app.state.platform.store.is_sqlite  # type: ignore[attr-defined]
        yield c
