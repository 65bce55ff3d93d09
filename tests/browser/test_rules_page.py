"""A rules page: its icon loads (it was a 404)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_rules_page_icon_loads(server, new_page) -> None:
    """A rules page names the icon, and every request it makes succeeds (the icon was a 404)."""
    page = new_page()
    failed: list[str] = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.goto(server.url + "/rules/blast-radius")
    href = page.get_attribute("link[rel=icon]", "href")
    assert href == "/static/favicon.svg"
    assert page.evaluate("h => fetch(h).then(r => r.status)", href) == 200
    assert not failed, failed
