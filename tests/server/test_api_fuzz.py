"""Schemathesis over the whole API of a real `boardlab serve`: no server error, every response as the OpenAPI
document declares it (status codes, bodies, content types, headers, 405 with Allow), and bad input refused.

Bounded (a fixed number of examples per operation, derandomised) so that it takes well under a minute. The one
check left out is ``positive_data_acceptance``: a request can match the schema and still be refused for what it
means (an unknown game id, a record whose moves are illegal, a stale revision), which no schema can say.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

from boardlab.server.launch import free_port

PORT = free_port()
BASE = f"http://127.0.0.1:{PORT}"


@pytest.fixture(scope="module", autouse=True)
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    db = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    code = "from boardlab.cli.main import main; main()"
    args = ["serve", "--port", str(PORT), "--db", f"sqlite:///{db}", "--ai-workers", "1", "--ai-delay", "0"]
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{BASE}/api/health", timeout=1):
                break
        except OSError:
            assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
    yield
    os.killpg(proc.pid, signal.SIGTERM)
    assert proc.wait(timeout=60) == 0


def _document() -> dict:
    """The OpenAPI document, as the server publishes it (built in-process, so collection needs no server)."""
    import tempfile

    from boardlab.server.app import create_app
    from boardlab.server.tables import Settings

    with tempfile.TemporaryDirectory() as d:
        return create_app(Settings(db_url=f"sqlite:///{d}/doc.db", ai_workers=1)).openapi()


schema = schemathesis.openapi.from_dict(_document())


def test_the_published_document_is_the_one_fuzzed() -> None:
    with urllib.request.urlopen(f"{BASE}/api/openapi.json", timeout=10) as r:
        assert json.loads(r.read()) == json.loads(json.dumps(_document()))


@schema.parametrize()
@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case: object) -> None:
    case.call_and_validate(base_url=BASE, excluded_checks=[positive_data_acceptance])  # type: ignore[attr-defined]
