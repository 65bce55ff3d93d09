"""Run a server in a child process (for browser tests, the restart test and the load benchmark).

>>> # with ServerProcess(db_url="sqlite:////tmp/x.db") as server:
>>> #     httpx.get(server.url + "/api/health")
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from types import TracebackType


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``python -m boardlab.server`` on 127.0.0.1 in a child process, started and stopped on demand."""

    def __init__(
        self,
        db_url: str,
        port: int | None = None,
        ai_workers: int = 1,
        ai_delay: float = 0.0,
        log_path: str | None = None,
        extra_env: dict[str, str] | None = None,
        extra_args: list[str] | None = None,
    ) -> None:
        self.db_url = db_url
        self.port = port or free_port()
        self.ai_workers = ai_workers
        self.ai_delay = ai_delay
        self.log_path = log_path
        self.extra_env = extra_env or {}
        self.extra_args = list(extra_args or ())
        self.proc: subprocess.Popen[bytes] | None = None
        self._log = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> ServerProcess:
        env = dict(os.environ, **self.extra_env)
        env.setdefault("PYTHONUNBUFFERED", "1")
        cmd = [
            sys.executable,
            "-m",
            "boardlab.server",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--ai-workers",
            str(self.ai_workers),
            "--ai-delay",
            str(self.ai_delay),
            *self.extra_args,
        ]
        if self.log_path:
            self._log = open(self.log_path, "ab")  # noqa: SIM115
            out = self._log
        else:
            out = subprocess.DEVNULL
        self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with code {self.proc.returncode} (log: {self.log_path})")
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not answer within {timeout} s (log: {self.log_path})")

    def kill(self) -> None:
        """SIGKILL the server and its AI workers (a crash: nothing gets to clean up)."""
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                self.kill()
        self.proc = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
