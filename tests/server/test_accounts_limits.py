"""Sign-in is rate-limited per name (unknown names too, so the limit tells nothing) and per address; sign-ups per
address. Its own app: the failures counted here would refuse the other account tests' sign-ins."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from account_helpers import Browser
from fastapi.testclient import TestClient

from boardlab.server import Settings, create_app
from boardlab.server.accounts import SignInLimits
from boardlab.server.limits import NO_QUOTAS


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("db") / "limits.db"
    app = create_app(Settings(db_url=f"sqlite:///{db}", ai_workers=1, ai_delay=0.0, quotas=NO_QUOTAS))
    with TestClient(app) as c:
        yield c


def test_sign_in_is_limited_per_name_then_per_address(client: TestClient) -> None:
    limits = SignInLimits()
    Browser(client).sign_up("Eve")
    for _ in range(limits.per_name):
        assert Browser(client).sign_in("Eve", "guessed password").status_code == 401
    # now even the right password waits: the limit is on the name, not on whether the guess was right
    r = Browser(client).sign_in("Eve")
    assert r.status_code == 429 and r.json()["error"] == "too_many_attempts"
    assert 0 < int(r.headers["Retry-After"]) <= limits.window + 1
    # an unknown name is limited alike (the answer cannot tell the two apart)
    for _ in range(limits.per_name):
        assert Browser(client).sign_in("Nobody", "guessed password").status_code == 401
    unknown = Browser(client).sign_in("Nobody", "guessed password")
    assert unknown.status_code == 429 and unknown.json() == r.json() | {"retry_after": unknown.json()["retry_after"]}
    # one address trying many names is stopped too
    n = 2 * limits.per_name
    for k in range(limits.per_address - n):
        assert Browser(client).sign_in(f"Name {k}", "guessed password").status_code == 401
    assert Browser(client).sign_in("Someone Else", "guessed password").status_code == 429
