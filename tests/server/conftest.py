"""Fixtures for the API tests: one app per test module (its own SQLite file, one AI worker).

test_postgres.py overrides ``client``, ``store_url`` and ``server_db`` to run the same tests on PostgreSQL.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette warns that its TestClient will move to httpx2
    from fastapi.testclient import TestClient

from sealed_game import register
from server_helpers import Api

from boardlab.server import Settings, create_app
from boardlab.server.limits import NO_QUOTAS

register()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("db") / "test.db"
    app = create_app(Settings(db_url=f"sqlite:///{db}", ai_workers=1, ai_delay=0.0, quotas=NO_QUOTAS))
    with TestClient(app, raise_server_exceptions=True) as c:
        yield c


@pytest.fixture
def store_url(tmp_path) -> str:
    """The database a storage test uses: a fresh SQLite file (test_postgres.py gives PostgreSQL instead)."""
    return f"sqlite:///{tmp_path}/store.db"


@pytest.fixture
def server_db(tmp_path) -> str:
    """The database a server-process test uses: a fresh SQLite file (test_postgres.py: PostgreSQL)."""
    return f"sqlite:///{tmp_path}/server.db"


@pytest.fixture(scope="module")
def api(client: TestClient) -> Api:
    return Api(client)
