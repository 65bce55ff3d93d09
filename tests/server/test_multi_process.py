"""Two `boardlab serve` processes sharing one throwaway PostgreSQL: one table, sockets on both.

Conflicting moves sent to both processes at once: exactly one is accepted (200), the other refused (409),
and both processes' sockets see the new revision; a move through either process reaches the other's
socket; an AI seat answers once; sealed simultaneous choices sent to different processes are revealed
once, to both. Both
processes exit 0 on SIGTERM. When the process running a table's AI seat dies, the other one takes the seat over.
Chat said on either process reaches every page (messages said at once both stored), a rematch asked on both at once
is one table, the ran-out-of-time note shows on both, and the lobby counts the spectators of both.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

import boardlab
from boardlab.server.launch import free_port
from boardlab.server.store import Store
from pg_cluster import PostgresCluster, skip_or_fail_if_missing

BR = {"game": "blast-radius", "options": {"board_side": 5}, "mode": "online"}


@pytest.fixture(scope="module")
def pg() -> Iterator[PostgresCluster]:
    skip_or_fail_if_missing()
    cluster = PostgresCluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()


def serve(port: int, db: str, *extra: str) -> subprocess.Popen[str]:
    code = "from boardlab.cli.main import main; main()"
    args = ["serve", "--port", str(port), "--db", db, "--ai-workers", "1", "--ai-delay", "0", *extra]
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def http(port: int, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", method=method, data=json.dumps(body).encode() if body is not None else None
    )
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def wait_up(port: int, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, proc.communicate()
        try:
            if http(port, "GET", "/api/health")[0] == 200:
                return
        except OSError:
            pass
        assert time.monotonic() < deadline, "the server did not answer"
        time.sleep(0.1)


class Socket:
    """A WebSocket on one process, its views collected by a thread."""

    def __init__(self, port: int, table: str, token: str) -> None:
        from websockets.sync.client import connect

        self._stack = contextlib.ExitStack()
        self.ws = self._stack.enter_context(connect(f"ws://127.0.0.1:{port}/api/tables/{table}/ws"))
        self.ws.send(json.dumps({"type": "hello", "tokens": [token]}))
        self.views: list[dict[str, Any]] = []
        #: The chat messages it was sent, in order.
        self.chat: list[dict[str, Any]] = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        with contextlib.suppress(Exception):
            for raw in self.ws:
                msg = json.loads(raw)
                if msg.get("type") in ("view", "chat"):
                    with self.cond:
                        if msg["type"] == "view":
                            self.views.append(msg["view"])
                        else:
                            self.chat.append(msg["message"])
                        self.cond.notify_all()

    def wait_for_chat(self, count: int, timeout: float = 20) -> list[dict[str, Any]]:
        """The first ``count`` chat messages, once that many came."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while len(self.chat) < count:
                left = deadline - time.monotonic()
                assert left > 0, f"{len(self.chat)} chat messages, not {count}: {self.chat}"
                self.cond.wait(left)
            return self.chat[:count]

    def wait_for(self, pred: Any, timeout: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for v in self.views:
                    if pred(v):
                        return v
                left = deadline - time.monotonic()
                assert left > 0, f"no such view; last: {self.views[-1] if self.views else None}"
                self.cond.wait(left)

    def close(self) -> None:
        self._stack.close()


def at_once(*calls: Any) -> list[Any]:
    """Run the calls in threads, released together; their results in order."""
    barrier = threading.Barrier(len(calls))
    out: list[Any] = [None] * len(calls)

    def run(i: int, fn: Any) -> None:
        barrier.wait()
        out[i] = fn()

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return out


def test_two_processes_one_database(pg: PostgresCluster) -> None:
    db = pg.new_database("multi")
    ports = [free_port(), free_port()]
    procs = [serve(ports[0], db), serve(ports[1], db)]
    sockets: list[Socket] = []
    try:
        for port, proc in zip(ports, procs):
            wait_up(port, proc)
        a, b = ports
        status, t = http(a, "POST", "/api/tables", BR)
        assert status == 201, t
        tid, tokens = t["id"], t["tokens"]
        sa, sb = Socket(a, tid, tokens["0"]), Socket(b, tid, tokens["1"])
        sockets += [sa, sb]
        v0 = sa.wait_for(lambda v: True)
        assert sb.wait_for(lambda v: True)["revision"] == v0["revision"]
        seat = str(v0["to_act"][0])
        legal = [x[0] for x in http(a, "GET", f"/api/tables/{tid}", token=tokens[seat])[1]["legal"]]
        assert len(legal) >= 2
        rev = v0["revision"]

        # Conflicting moves with the same revision, one to each process: exactly one wins.
        path = f"/api/tables/{tid}/moves"
        results = at_once(
            lambda: http(a, "POST", path, {"action": legal[0], "revision": rev}, tokens[seat]),
            lambda: http(b, "POST", path, {"action": legal[-1], "revision": rev}, tokens[seat]),
        )
        assert sorted(s for s, _ in results) == [200, 409], results
        won = next(body for s, body in results if s == 200)
        assert won["revision"] == rev + 1
        for s in (sa, sb):
            assert s.wait_for(lambda v: v["revision"] == rev + 1)["revision"] == rev + 1
        # Both processes now agree on the table, over HTTP too.
        for port in ports:
            assert http(port, "GET", f"/api/tables/{tid}", token=tokens["0"])[1]["revision"] == rev + 1

        # The other seat moves through B: A's socket sees it.
        other = str(sb.wait_for(lambda v: v["revision"] == rev + 1)["to_act"][0])
        mv = http(b, "GET", f"/api/tables/{tid}", token=tokens[other])[1]
        status, body = http(b, "POST", path, {"action": mv["legal"][0][0], "revision": rev + 1}, tokens[other])
        assert status == 200, body
        assert sa.wait_for(lambda v: v["revision"] == rev + 2)["revision"] == rev + 2
        # And back through A, seen on B.
        nxt = str(sa.wait_for(lambda v: v["revision"] == rev + 2)["to_act"][0])
        mv = http(a, "GET", f"/api/tables/{tid}", token=tokens[nxt])[1]
        status, body = http(a, "POST", path, {"action": mv["legal"][0][0], "revision": rev + 2}, tokens[nxt])
        assert status == 200, body
        assert sb.wait_for(lambda v: v["revision"] == rev + 3)["revision"] == rev + 3

        # An AI table made on A, its human moving through B: the AI answers once, and A's socket sees it.
        seats = [{"kind": "human"}, {"kind": "ai", "agent": "random"}]
        status, t = http(a, "POST", "/api/tables", {**BR, "mode": "ai", "seats": seats})
        assert status == 201, t
        aid, human = t["id"], t["tokens"]["0"]
        aa = Socket(a, aid, human)
        sockets.append(aa)
        av = http(b, "GET", f"/api/tables/{aid}", token=human)[1]
        assert av["your_turn"], av
        status, body = http(
            b, "POST", f"/api/tables/{aid}/moves", {"action": av["legal"][0][0], "revision": av["revision"]}, human
        )
        assert status == 200, body
        answered = aa.wait_for(lambda v: v["revision"] == av["revision"] + 2)
        assert answered["your_turn"]
        time.sleep(1.0)  # no second AI answer comes from the other process
        for port in ports:
            got = http(port, "GET", f"/api/tables/{aid}", token=human)[1]
            assert got["revision"] == av["revision"] + 2 and got["your_turn"], got

        if "dragon-fight" in boardlab.games():
            # Sealed simultaneous choices sent to different processes at once: revealed exactly once.
            status, d = http(a, "POST", "/api/tables", {"game": "dragon-fight", "mode": "online"})
            assert status == 201, d
            did, dt = d["id"], d["tokens"]
            da, db_ = Socket(a, did, dt["0"]), Socket(b, did, dt["1"])
            sockets += [da, db_]
            dv = da.wait_for(lambda v: True)
            assert sorted(dv["to_act"]) == [0, 1], dv  # both seats choose at once
            drev = dv["revision"]
            views = [http(p, "GET", f"/api/tables/{did}", token=dt[s])[1] for p, s in ((a, "0"), (b, "1"))]
            results = at_once(
                lambda: http(
                    a,
                    "POST",
                    f"/api/tables/{did}/moves",
                    {"action": views[0]["legal"][0][0], "revision": drev},
                    dt["0"],
                ),
                lambda: http(
                    b,
                    "POST",
                    f"/api/tables/{did}/moves",
                    {"action": views[1]["legal"][0][0], "revision": drev},
                    dt["1"],
                ),
            )
            assert [s for s, _ in results] == [200, 200], results
            for s in (da, db_):
                s.wait_for(lambda v: v["revision"] == drev + 1)
            for port in ports:
                got = http(port, "GET", f"/api/tables/{did}", token=dt["0"])[1]
                assert got["revision"] == drev + 1 and not got["submitted_seats"], got
    finally:
        for s in sockets:
            with contextlib.suppress(Exception):
                s.close()
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        codes = []
        for proc in procs:
            try:
                codes.append(proc.wait(timeout=60))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                codes.append(proc.wait(timeout=10))
    assert codes == [0, 0], [p.communicate(timeout=10) for p in procs]


@contextlib.contextmanager
def two_servers(db: str, *extra: tuple[str, ...]) -> Iterator[list[int]]:
    """Two ``boardlab serve`` processes on database ``db`` (``extra``: each one's own options); their ports.

    Those still running at the end get SIGTERM and must exit 0.
    """
    ports = [free_port(), free_port()]
    procs = [serve(port, db, *(extra[i] if i < len(extra) else ())) for i, port in enumerate(ports)]
    SERVERS[tuple(ports)] = procs
    try:
        for port, proc in zip(ports, procs):
            wait_up(port, proc)
        yield ports
    finally:
        del SERVERS[tuple(ports)]
        alive = [p for p in procs if p.poll() is None]
        for proc in alive:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        codes = []
        for proc in alive:
            try:
                codes.append(proc.wait(timeout=60))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                codes.append(proc.wait(timeout=10))
    assert codes == [0] * len(alive), [p.communicate(timeout=10) for p in alive]


#: The processes behind each pair of ports (a test may kill one).
SERVERS: dict[tuple[int, ...], list[subprocess.Popen[str]]] = {}


def kill(ports: list[int], i: int) -> None:
    """SIGKILL the ``i``-th process of the pair (and its AI workers)."""
    proc = SERVERS[tuple(ports)][i]
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)


def test_an_ai_seat_is_taken_over_when_the_process_running_it_dies(pg: PostgresCluster) -> None:
    # A waits 5 s before each AI answer (so it dies before answering); B's AI moves are short, so it waits only
    # a few seconds (one AI move and its margin) before deciding that A went quiet.
    slow, quick = ("--ai-delay", "5"), ("--ai-move-seconds", "0.5")
    with two_servers(pg.new_database("takeover"), slow, quick) as (a, b):
        seats = [{"kind": "human"}, {"kind": "ai", "agent": "random"}]
        made = [http(a, "POST", "/api/tables", {**BR, "mode": "ai", "seats": seats}) for _ in range(2)]
        assert [status for status, _ in made] == [201, 201], made
        (watched, w_token), (polled, p_token) = ((t["id"], t["tokens"]["0"]) for _, t in made)
        sb = Socket(b, watched, w_token)  # B has both tables in memory: a page on one, the other read once
        try:
            views = {
                watched: sb.wait_for(lambda v: v["your_turn"]),
                polled: http(b, "GET", f"/api/tables/{polled}", token=p_token)[1],
            }
            for tid, token in ((watched, w_token), (polled, p_token)):
                v = views[tid]
                move = {"action": v["legal"][0][0], "revision": v["revision"]}
                status, body = http(a, "POST", f"/api/tables/{tid}/moves", move, token)
                assert status == 200, body
            kill([a, b], 0)  # A stored both moves and dies while its AI seats think
            rev = views[watched]["revision"] + 2
            assert sb.wait_for(lambda v: v["revision"] == rev, timeout=20)["your_turn"]
            deadline = time.monotonic() + 20
            while (got := http(b, "GET", f"/api/tables/{polled}", token=p_token)[1])["revision"] < rev:
                assert time.monotonic() < deadline, got
                time.sleep(0.3)
            assert got["revision"] == rev and got["your_turn"], got
        finally:
            sb.close()


def finish(port: int, tid: str, tokens: dict[str, str]) -> dict[str, Any]:
    """Play an online table to its end through one process, each seat choosing its last legal move."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for token in tokens.values():
            v = http(port, "GET", f"/api/tables/{tid}", token=token)[1]
            if v["terminal"]:
                return v
            if v["your_turn"]:
                move = {"action": v["legal"][-1][0], "revision": v["revision"]}
                assert http(port, "POST", f"/api/tables/{tid}/moves", move, token)[0] == 200
    raise AssertionError("the game did not end")


def test_a_rematch_asked_on_both_processes_at_once_is_one_table(pg: PostgresCluster) -> None:
    db = pg.new_database("rematch")
    with two_servers(db) as (a, b):
        status, t = http(a, "POST", "/api/tables", BR)
        assert status == 201, t
        tid, tokens = t["id"], t["tokens"]
        finish(a, tid, tokens)
        assert http(b, "GET", f"/api/tables/{tid}", token=tokens["1"])[1]["terminal"]  # B has it in memory, over
        sb = Socket(b, tid, t["spectator_token"])
        try:
            path = f"/api/tables/{tid}/rematch"
            results = at_once(
                lambda: http(a, "POST", path, {}, tokens["0"]), lambda: http(b, "POST", path, {}, tokens["1"])
            )
            assert [status for status, _ in results] == [200, 200], results
            (_, r0), (_, r1) = results
            assert r0["table"] == r1["table"], results
            assert (r0["seat"], r1["seat"]) == (1, 0)
            # B's page hears of it, whichever process made it; asked again on either process: the same table
            assert sb.wait_for(lambda v: v["rematch"] is not None)["rematch"]["table"] == r0["table"]
            for port in (a, b):
                assert http(port, "POST", path, {}, tokens["1"])[1]["table"] == r0["table"]
            for seat, port in (("0", b), ("1", a)):  # the rematch plays on either process, with the old tokens
                assert http(port, "GET", f"/api/tables/{r0['table']}", token=tokens[seat])[0] == 200
        finally:
            sb.close()
    store = Store(db)
    try:
        assert store.count_tables() == 2  # the old table and its one rematch
    finally:
        store.close()


def test_chat_said_on_either_process_reaches_every_page(pg: PostgresCluster) -> None:
    with two_servers(pg.new_database("chat")) as (a, b):
        status, t = http(a, "POST", "/api/tables", BR)
        assert status == 201, t
        tid, tokens = t["id"], t["tokens"]
        sa, sb = Socket(a, tid, tokens["0"]), Socket(b, tid, tokens["1"])
        try:
            for s in (sa, sb):
                s.wait_for(lambda v: True)
            path = f"/api/tables/{tid}/chat"
            assert http(a, "POST", path, {"text": "hello from A"}, tokens["0"])[0] == 200
            assert [m["text"] for m in sb.wait_for_chat(1)] == ["hello from A"]
            # Both players talk at once, each through their own process: every message is stored, once each.
            said = 1
            for i in range(4):  # (within the chat quota: five messages at once per address and process)
                results = at_once(
                    lambda i=i: http(a, "POST", path, {"text": f"A{i}"}, tokens["0"]),
                    lambda i=i: http(b, "POST", path, {"text": f"B{i}"}, tokens["1"]),
                )
                assert [status for status, _ in results] == [200, 200], results
                said += 2
            stored = http(a, "GET", path, token=tokens["0"])[1]["messages"]
            assert len(stored) == said and http(b, "GET", path, token=tokens["1"])[1]["messages"] == stored
            for s in (sa, sb):  # each page got every message once, wherever it was said
                s.wait_for_chat(said)
                time.sleep(0.3)
                assert sorted(m["text"] for m in s.chat) == sorted(m["text"] for m in stored), s.chat
        finally:
            sa.close()
            sb.close()


def test_the_ran_out_of_time_note_shows_on_both_processes(pg: PostgresCluster) -> None:
    with two_servers(pg.new_database("clocknote")) as (a, b):
        status, t = http(a, "POST", "/api/tables", {**BR, "clock": {"kind": "move", "seconds": 1}})
        assert status == 201, t
        tid, tokens = t["id"], t["tokens"]
        sa, sb = Socket(a, tid, tokens["0"]), Socket(b, tid, tokens["1"])  # both processes time the table
        try:
            for s in (sa, sb):
                over = s.wait_for(lambda v: v["terminal"], timeout=10)
                assert any("ran out of time and loses" in n for n in over["notes"]), over["notes"]
            for port, token in ((a, tokens["0"]), (b, tokens["1"])):
                notes = http(port, "GET", f"/api/tables/{tid}", token=token)[1]["notes"]
                assert [n for n in notes if "ran out of time" in n] == notes[-1:], notes  # said once
        finally:
            sa.close()
            sb.close()


def test_the_lobby_counts_the_spectators_of_every_process(pg: PostgresCluster) -> None:
    with two_servers(pg.new_database("watchers")) as (a, b):
        status, t = http(a, "POST", "/api/tables", {**BR, "open": True})
        assert status == 201, t
        tid, watch = t["id"], t["spectator_token"]

        def spectators(port: int, expected: int) -> None:
            deadline = time.monotonic() + 10
            while True:
                listed = {row["id"]: row for row in http(port, "GET", "/api/open-tables")[1]["tables"]}
                if listed[tid]["spectators"] == expected:
                    return
                assert time.monotonic() < deadline, listed[tid]
                time.sleep(0.1)

        spectators(a, 0)
        watching = [Socket(b, tid, watch), Socket(b, tid, watch), Socket(a, tid, watch)]
        for s in watching:
            s.wait_for(lambda v: True)
        spectators(a, 3)
        spectators(b, 3)
        watching.pop(0).close()
        spectators(a, 2)
        kill([a, b], 1)  # B is gone, and its spectators with it
        spectators(a, 1)
        for s in watching:
            s.close()
        spectators(a, 0)


def wait_until(get: Any, pred: Any, timeout: float = 10) -> Any:
    """``get()`` again and again until ``pred`` holds of what it gives; that."""
    deadline = time.monotonic() + timeout
    while True:
        got = get()
        if pred(got):
            return got
        assert time.monotonic() < deadline, got
        time.sleep(0.1)


def test_resign_and_a_draw_are_seen_by_the_other_process(pg: PostgresCluster) -> None:
    """Ending a game (server/endings.py) through one process: the other's pages hear of it, and it never reopens."""
    with two_servers(pg.new_database("endings"), ("--away-seconds", "1"), ("--away-seconds", "1")) as (a, b):
        status, t = http(a, "POST", "/api/tables", {"game": "cirque", "mode": "online"})  # a game with draws
        assert status == 201, t
        tid, tokens = t["id"], t["tokens"]
        sa, sb = Socket(a, tid, tokens["0"]), Socket(b, tid, tokens["1"])
        try:
            for s in (sa, sb):
                s.wait_for(lambda v: True)
            draw = f"/api/tables/{tid}/draw"
            assert http(a, "POST", draw, {"answer": "offer"}, tokens["0"])[0] == 200
            offered = sb.wait_for(lambda v: v["endings"]["draw_offer"] is not None)
            assert offered["endings"]["can_answer_draw"]
            assert http(b, "POST", draw, {"answer": "decline"}, tokens["1"])[0] == 200
            sa.wait_for(lambda v: v["endings"]["draw_offer"] is None and "declined" in (v["notes"] or [""])[-1])
            assert http(a, "POST", draw, {"answer": "offer"}, tokens["0"])[0] == 200
            sb.wait_for(lambda v: v["endings"]["can_answer_draw"])
            status, r = http(b, "POST", draw, {"answer": "accept"}, tokens["1"])
            assert status == 200, r
            over = sa.wait_for(lambda v: v["terminal"])
            assert over["result"]["draw"] and over["banner"]["title"] == "The game is a draw."
            # never reopened, at either process
            for port, token in ((a, tokens["0"]), (b, tokens["1"])):
                rev = http(port, "GET", f"/api/tables/{tid}", token=token)[1]["revision"]
                assert (
                    http(port, "POST", f"/api/tables/{tid}/undo", {"revision": rev}, token)[1]["error"] == "game_over"
                )
                assert http(port, "POST", f"/api/tables/{tid}/resign", None, token)[1]["error"] == "game_over"
        finally:
            sa.close()
            sb.close()

        # a resignation sent to both processes at once: one is stored, the other finds the game over
        status, t = http(a, "POST", "/api/tables", BR)
        tid, tokens = t["id"], t["tokens"]
        sb = Socket(b, tid, tokens["1"])
        try:
            sb.wait_for(lambda v: True)
            path = f"/api/tables/{tid}/resign"
            results = at_once(
                lambda: http(a, "POST", path, None, tokens["0"]), lambda: http(b, "POST", path, None, tokens["1"])
            )
            assert sorted(status for status, _ in results) == [200, 409], results
            over = sb.wait_for(lambda v: v["terminal"])
            assert "resigned" in over["log"][-1][1] and len(over["result"]["winners"]) == 1
            record = http(a, "GET", f"/api/tables/{tid}/record", token=tokens["0"])[1]
            assert record["meta"]["ended"]["how"] == "resign"
        finally:
            sb.close()

        # a player whose page is open at the other process is not away: no claim against them
        status, t = http(a, "POST", "/api/tables", BR)
        tid, tokens = t["id"], t["tokens"]
        sb = Socket(b, tid, tokens["1"])
        try:
            sb.wait_for(lambda v: True)
            # A's pages show seat 1 online though its page is open at B
            seen_at_a = wait_until(
                lambda: http(a, "GET", f"/api/tables/{tid}", token=tokens["0"])[1], lambda v: v["seats"][1]["present"]
            )
            assert seen_at_a["endings"]["away_since"][1] is None
            time.sleep(1.5)
            status, r = http(a, "POST", f"/api/tables/{tid}/claim-win", None, tokens["0"])
            assert (status, r["error"]) == (409, "not_away"), r
        finally:
            sb.close()
        gone = wait_until(
            lambda: http(a, "GET", f"/api/tables/{tid}", token=tokens["0"])[1], lambda v: not v["seats"][1]["present"]
        )
        assert gone["endings"]["away_since"][1] is not None
        time.sleep(1.5)  # gone from B for longer than the grace: A may claim
        status, r = http(a, "POST", f"/api/tables/{tid}/claim-win", None, tokens["0"])
        assert status == 200 and r["view"]["result"]["winners"] == [0], r
