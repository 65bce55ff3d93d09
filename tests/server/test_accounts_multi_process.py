"""Accounts with two `boardlab serve` processes on one throwaway PostgreSQL: a session made at one process is good at
the other (and signing out everywhere at one ends it at both), a rated game played through both settles once, and
both processes show the same ratings."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

import httpx
from test_multi_process import pg, serve, wait_up  # noqa: F401  (the PostgreSQL fixture, the server processes)

from boardlab.server.launch import free_port
from pg_cluster import PostgresCluster

BR = {"game": "blast-radius", "options": {"board_side": 5}}


class Player:
    """One browser: its cookies (shared by both processes, which are one site) and CSRF token."""

    def __init__(self) -> None:
        self.http = httpx.Client(timeout=30)
        self.csrf = ""

    def call(self, port: int, method: str, path: str, body: Any = None, token: str | None = None) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf} if self.csrf else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        r = self.http.request(method, f"http://127.0.0.1:{port}{path}", json=body, headers=headers)
        if r.headers.get("content-type", "").startswith("application/json"):
            data = r.json()
            if isinstance(data, dict) and data.get("csrf"):
                self.csrf = data["csrf"]
        return r


def test_sessions_and_ratings_are_shared_by_two_processes(pg: PostgresCluster) -> None:  # noqa: F811
    db = pg.new_database("accounts")
    ports = [free_port(), free_port()]
    procs = [serve(ports[0], db), serve(ports[1], db)]
    try:
        for port, proc in zip(ports, procs):
            wait_up(port, proc)
        p, q = ports
        ann, ben = Player(), Player()
        assert (
            ann.call(p, "POST", "/api/account/signup", {"name": "Ann", "password": "ann's password"}).status_code == 201
        )
        # the session made at p is good at q (the cookie's secret and the session row are in the database)
        assert ann.call(q, "GET", "/api/account").json()["name"] == "Ann"
        assert (
            ben.call(q, "POST", "/api/account/signup", {"name": "Ben", "password": "ben's password"}).status_code == 201
        )

        r = ann.call(p, "POST", "/api/tables", {**BR, "mode": "online", "open": True, "rated": True})
        assert r.status_code == 201, r.text
        tid, t0 = r.json()["id"], r.json()["tokens"]["0"]
        j = ben.call(q, "POST", f"/api/tables/{tid}/join", {})
        assert j.status_code == 200, j.text
        tokens = {0: t0, 1: j.json()["token"]}
        deadline = time.monotonic() + 90
        k = 0
        while True:
            assert time.monotonic() < deadline, "the game did not end"
            port = ports[k % 2]  # every other move through the other process
            v = ann.call(port, "GET", f"/api/tables/{tid}", token=t0).json()
            if v["terminal"]:
                break
            seat = v["to_act"][0]
            w = ann.call(port, "GET", f"/api/tables/{tid}", token=tokens[seat]).json()
            if not w["your_turn"] or not w["legal"]:  # this process has not heard of the last move yet
                time.sleep(0.05)
                continue
            body = {"action": w["legal"][0][0], "revision": w["revision"]}
            ann.call(port, "POST", f"/api/tables/{tid}/moves", body, token=tokens[seat])
            k += 1
        winner = v["result"]["winners"][0]
        seen = []
        for port in ports:
            profiles = [ann.call(port, "GET", f"/api/players/{n}").json() for n in ("Ann", "Ben")]
            seen.append([(pr["ratings"][0]["rating"], pr["ratings"][0]["games"]) for pr in profiles])
        assert seen[0] == seen[1], seen  # one settlement, the same ratings everywhere
        (ra, ga), (rb, gb) = seen[0]
        assert ga == gb == 1 and (ra > rb) == (winner == 0)

        # sign out everywhere at q: the session is gone at p too
        assert ann.call(q, "POST", "/api/account/signout-everywhere").status_code == 200
        ann.http.cookies.clear()
        assert ann.call(p, "GET", "/api/account").json()["signed_in"] is False
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            proc.wait(timeout=30)
