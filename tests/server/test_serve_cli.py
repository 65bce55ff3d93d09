"""`boardlab serve`: prints the address and serves; bad arguments give one error line and exit status 2."""

from __future__ import annotations

import http.client
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
    ],
)
def test_bad_arguments(args: list[str], words: str) -> None:
    proc = serve(*args)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, (out, err)
    assert err.startswith("error:") and any(w in err for w in words.split("|"))
