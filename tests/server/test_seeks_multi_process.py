"""Seeks with two `boardlab serve` processes on one throwaway PostgreSQL: seeks posted at once on both processes match
in pairs, each seek exactly once (the claim is atomic), each pair at one table whose two seats are the two seekers',
and a seek's answer is the same at either process."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import Counter
from typing import Any

import httpx
from test_multi_process import pg, serve, wait_up  # noqa: F401  (the PostgreSQL fixture, the server processes)

from boardlab.server.launch import free_port
from pg_cluster import PostgresCluster

BR = {"game": "blast-radius", "options": {"board_side": 5}}


def http(
    port: int, method: str, path: str, body: Any = None, token: str | None = None, who: int = 0
) -> tuple[int, Any]:
    """A request from seeker ``who`` (its own address, as a proxy would forward it: each address may hold only a few
    waiting seeks)."""
    headers = {"X-Forwarded-For": f"10.0.0.{who + 1}"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    r = httpx.request(method, f"http://127.0.0.1:{port}{path}", json=body, headers=headers, timeout=30)
    return r.status_code, r.json()


def test_seeks_posted_on_two_processes_match_exactly_once(pg: PostgresCluster) -> None:  # noqa: F811
    db = pg.new_database("seeks")
    ports = [free_port(), free_port()]
    procs = [serve(ports[0], db), serve(ports[1], db)]
    try:
        for port, proc in zip(ports, procs):
            wait_up(port, proc)
        seeks: list[dict[str, Any]] = []
        for _round in range(4):
            # six seekers at once, three at each process, all of one pool
            posted: list[dict[str, Any] | None] = [None] * 6
            start = threading.Barrier(6)

            def post(k: int, posted: list[dict[str, Any] | None] = posted, start: threading.Barrier = start) -> None:
                start.wait()
                status, body = http(ports[k % 2], "POST", "/api/seeks", {**BR, "name": f"P{k}"}, who=k)
                assert status == 201, body
                posted[k] = body

            threads = [threading.Thread(target=post, args=(k,)) for k in range(6)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            round_seeks = [s for s in posted if s is not None]
            assert len(round_seeks) == 6
            # each page polls (at the other process than it posted to) until matched
            deadline = time.monotonic() + 30
            answers: dict[str, dict[str, Any]] = {}
            while len(answers) < 6:
                assert time.monotonic() < deadline, f"not all matched: {len(answers)} of 6"
                for k, s in enumerate(round_seeks):
                    if s["id"] in answers:
                        continue
                    status, body = http(ports[(k + 1) % 2], "GET", f"/api/seeks/{s['id']}", token=s["token"], who=k)
                    assert status == 200, body
                    if body["status"] == "matched":
                        answers[s["id"]] = body
                time.sleep(0.1)
            tables = Counter(a["table"] for a in answers.values())
            assert sorted(tables.values()) == [2, 2, 2], tables  # three tables, two seekers each: nobody twice
            for table in tables:
                pair = [a for a in answers.values() if a["table"] == table]
                assert {a["seat"] for a in pair} == {0, 1}
                for a in pair:
                    for port in ports:  # the link plays the seeker's seat at either process
                        status, view = http(port, "GET", f"/api/tables/{table}", token=a["link"].split("#t=")[1])
                        assert status == 200 and view["seat"] == a["seat"]
            # the same answer at both processes
            for k, s in enumerate(round_seeks):
                status, body = http(ports[k % 2], "GET", f"/api/seeks/{s['id']}", token=s["token"], who=k)
                assert status == 200 and body["table"] == answers[s["id"]]["table"]
            seeks.extend(round_seeks)
        assert len({s["id"] for s in seeks}) == 24
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            proc.wait(timeout=30)
