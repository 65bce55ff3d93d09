"""Helpers for the API tests (imported by name: conftest modules cannot be imported reliably)."""

from __future__ import annotations

from typing import Any


class Api:
    """A TestClient with helpers for tables and tokens."""

    def __init__(self, client: Any) -> None:
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


def stuck_choose(*args: Any) -> int:
    """Stands in for :func:`boardlab.server.ai.choose` in a worker that never answers (imported there by name)."""
    import time

    time.sleep(600)
    return 0


def imported(module: str) -> bool:
    """Whether ``module`` is imported in this process (run in an AI worker: what it has imported before any move)."""
    import sys

    return module in sys.modules
