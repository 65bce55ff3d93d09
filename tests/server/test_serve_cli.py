"""`boardlab serve`: prints the address and serves; bad arguments give one error line and exit status 2."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from boardlab.server.launch import free_port


def serve(*args: str) -> subprocess.Popen[str]:
    code = "from boardlab.cli.main import main; main()"
    return subprocess.Popen(
        [sys.executable, "-c", code, "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def chunked_upload(port: int, size: int) -> int:
    """POST ``size`` bytes to /api/replays with no Content-Length (chunked); the status of the answer."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.putrequest("POST", "/api/replays")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    chunk = b"x" * 65536
    try:
        for _ in range(size // len(chunk)):
            conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        conn.send(b"0\r\n\r\n")
    except OSError:
        pass  # the server may close the connection once it has answered
    status = conn.getresponse().status
    conn.close()
    return status


def test_serve_prints_the_address_and_answers(tmp_path) -> None:
    port = free_port()
    proc = serve("--port", str(port), "--db", f"sqlite:///{tmp_path}/cli.db", "--ai-workers", "1")
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert f"http://127.0.0.1:{port}/" in line and "cli.db" in line
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1) as r:
                    assert r.status == 200
                    break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        assert chunked_upload(port, 20_000_000) == 413  # a 20 MB chunked body is cut off at the 2 MB limit
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--db", "nonsense"], "is not a database URL"),
        (["--db", "postgresql+psycopg://u@127.0.0.1:1/x"], "driver is not installed|cannot open the database"),
        (["--port", "0"], "--port must lie between"),
        (["--ai-move-seconds", "0"], "must be positive"),
        (["--moves-per-second", "-1"], "0 or more"),
    ],
)
def test_bad_arguments(args: list[str], words: str) -> None:
    proc = serve(*args)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, (out, err)
    assert err.startswith("error:") and any(w in err for w in words.split("|"))


def _group(pgid: int) -> list[str]:
    """The processes still alive in process group ``pgid`` (the server's session), zombies left out."""
    out = subprocess.run(["ps", "-eo", "pid=,pgid=,stat=,args="], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if line.split()[1] == str(pgid) and not line.split()[2].startswith("Z")]


def _wait_alone(pgid: int) -> list[str]:
    deadline = time.monotonic() + 10
    while _group(pgid) and time.monotonic() < deadline:
        time.sleep(0.2)
    return _group(pgid)


def _http(port: int, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", method=method, data=json.dumps(body).encode() if body is not None else None
    )
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def test_sigterm_during_start_up_exits_0_and_leaves_no_process(tmp_path) -> None:
    proc = serve("--port", str(free_port()), "--db", f"sqlite:///{tmp_path}/a.db", "--ai-workers", "2")
    try:
        assert proc.stdout and "running at" in proc.stdout.readline()
        time.sleep(0.3)  # the AI workers are starting
        proc.send_signal(signal.SIGTERM)  # the server alone, not its group: its workers must go by themselves
        assert proc.wait(timeout=60) == 0
        assert _wait_alone(proc.pid) == []
        assert "leaked" not in proc.communicate(timeout=10)[1]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


def test_sigterm_after_a_game_closes_sockets_for_a_reconnect_and_exits_0(tmp_path) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    port = free_port()
    proc = serve("--port", str(port), "--db", f"sqlite:///{tmp_path}/b.db", "--ai-workers", "2", "--ai-delay", "0")
    try:
        assert proc.stdout and "running at" in proc.stdout.readline()
        deadline = time.monotonic() + 30
        while True:
            try:
                _http(port, "GET", "/api/health")
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        seats = [{"kind": "human"}, {"kind": "ai", "agent": "random"}]
        t = _http(
            port,
            "POST",
            "/api/tables",
            {"game": "blast-radius", "options": {"board_side": 5}, "mode": "ai", "seats": seats},
        )
        token = t["tokens"]["0"]
        view = _http(port, "GET", f"/api/tables/{t['id']}", token=token)
        while not view["terminal"]:  # play the game to its end against the AI worker
            if view["your_turn"]:
                view = _http(
                    port,
                    "POST",
                    f"/api/tables/{t['id']}/moves",
                    {"action": view["legal"][0][0], "revision": view["revision"]},
                    token,
                )["view"]
            else:
                time.sleep(0.05)
                view = _http(port, "GET", f"/api/tables/{t['id']}", token=token)
        with connect(f"ws://127.0.0.1:{port}/api/tables/{t['id']}/ws") as ws:
            ws.send(json.dumps({"type": "hello", "tokens": [token]}))
            ws.recv(timeout=10)
            proc.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012  # "service restart": reconnect
        assert proc.wait(timeout=60) == 0
        assert _wait_alone(proc.pid) == []
        assert "leaked" not in proc.communicate(timeout=10)[1]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
