"""Fixtures for the API tests: one app per test module (its own SQLite file, one AI worker)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette warns that its TestClient will move to httpx2
    from fastapi.testclient import TestClient

from sealed_game import register

from boardlab.server import Settings, create_app

register()


class Api:
    """A TestClient with helpers for tables and tokens."""

    def __init__(self, client: TestClient) -> None:
        self.c = client

    def create(self, **body: Any) -> dict[str, Any]:
        r = self.c.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        return r.json()

    def view(self, table: str, token: str, **params: Any) -> dict[str, Any]:
        r = self.c.get(f"/api/tables/{table}", headers=auth(token), params=params)
        assert r.status_code == 200, r.text
        return r.json()

    def move(self, table: str, token: str, revision: int, **body: Any) -> Any:
        return self.c.post(f"/api/tables/{table}/moves", headers=auth(token), json={"revision": revision, **body})

    def undo(self, table: str, token: str, revision: int) -> Any:
        return self.c.post(f"/api/tables/{table}/undo", headers=auth(token), json={"revision": revision})


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("db") / "test.db"
    app = create_app(Settings(db_url=f"sqlite:///{db}", ai_workers=1, ai_delay=0.0))
    with TestClient(app, raise_server_exceptions=True) as c:
        yield c


@pytest.fixture(scope="module")
def api(client: TestClient) -> Api:
    return Api(client)
