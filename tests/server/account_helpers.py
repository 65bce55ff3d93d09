"""Helpers for the account tests: a browser's cookies kept apart on one TestClient, and a game played to its end."""

from __future__ import annotations

import copy
import time
from typing import Any

from server_helpers import auth

BR = {"game": "blast-radius", "options": {"board_side": 5}}


class Browser:
    """One browser: its own cookies (swapped into the shared TestClient for each request) and CSRF token."""

    def __init__(self, client: Any) -> None:
        self.c = client
        self.cookies: list[Any] = []
        self.csrf: str | None = None

    @property
    def jar(self) -> dict[str, str]:
        return {ck.name: ck.value for ck in self.cookies}

    def plant(self, name: str, value: str, like: Browser) -> None:
        """Set a cookie as the server would have set it (copied from another browser's, with this value)."""
        ck = copy.copy(next(c for c in like.cookies if c.name == name))
        ck.value = value
        self.cookies = [c for c in self.cookies if c.name != name] + [ck]

    def request(
        self, method: str, path: str, csrf: bool = True, headers: dict[str, str] | None = None, **kw: Any
    ) -> Any:
        self.c.cookies.clear()
        for ck in self.cookies:
            self.c.cookies.jar.set_cookie(copy.copy(ck))
        h = dict(headers or {})
        if csrf and self.csrf:
            h["X-CSRF-Token"] = self.csrf
        r = self.c.request(method, path, headers=h, **kw)
        self.cookies = list(self.c.cookies.jar)
        self.c.cookies.clear()
        body = r.json() if r.headers.get("content-type", "").startswith("application/json") else None
        if isinstance(body, dict) and "csrf" in body:
            self.csrf = body["csrf"]
        return r

    def post(self, path: str, **kw: Any) -> Any:
        return self.request("POST", path, **kw)

    def get(self, path: str, **kw: Any) -> Any:
        return self.request("GET", path, **kw)

    def sign_up(self, name: str, password: str = "correct horse battery") -> Any:
        r = self.post("/api/account/signup", json={"name": name, "password": password})
        assert r.status_code == 201, r.text
        return r

    def sign_in(self, name: str, password: str = "correct horse battery") -> Any:
        return self.post("/api/account/signin", json={"name": name, "password": password})


def finish(client: Any, table: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Play the table to its end through the bearer-token API, each seat choosing its first legal move."""
    deadline = time.monotonic() + 60
    any_token = next(iter(tokens.values()))
    while time.monotonic() < deadline:
        v = client.get(f"/api/tables/{table}", headers=auth(any_token)).json()
        if v["terminal"]:
            return v
        for s in v["to_act"]:
            tok = tokens.get(s)
            if tok is None:
                continue
            w = client.get(f"/api/tables/{table}", headers=auth(tok)).json()
            if w["your_turn"]:
                client.post(
                    f"/api/tables/{table}/moves",
                    headers=auth(tok),
                    json={"revision": w["revision"], "action": w["legal"][0][0]},
                )
                break
        else:
            time.sleep(0.02)
    raise AssertionError("the game did not end")


def rated_game(a: Browser, b: Browser) -> tuple[str, dict[int, str]]:
    """A rated online Blast Radius table: ``a`` creates it (seat 0), ``b`` joins (seat 1)."""
    r = a.post("/api/tables", json={**BR, "mode": "online", "open": True, "rated": True})
    assert r.status_code == 201, r.text
    d = r.json()
    j = b.post(f"/api/tables/{d['id']}/join", json={})
    assert j.status_code == 200, j.text
    return d["id"], {0: d["tokens"]["0"], 1: j.json()["token"]}
