"""A rules page: its icon loads (it was a 404)."""

from __future__ import annotations

import pytest

import boardlab

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


WIDEST = """() => {
  const w = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll("main.rules *")].filter((e) => e.getBoundingClientRect().right > w + 1);
  return {sideways: document.documentElement.scrollWidth - w,
          wide: wide.slice(0, 3).map((e) => e.tagName + ": " + (e.textContent || "").slice(0, 40))};
}"""


@pytest.mark.parametrize("game_id", boardlab.games())
def test_a_rules_page_does_not_scroll_sideways_on_a_phone(server, new_page, game_id: str) -> None:
    page = new_page(390, 844)
    page.goto(f"{server.url}/rules/{game_id}")
    m = page.evaluate(WIDEST)
    assert m["sideways"] <= 0, f"{game_id}: the page scrolls {m['sideways']} px sideways: {m['wide']}"


def test_a_missing_rules_page_is_a_page(server, new_page) -> None:
    page = new_page()
    r = page.goto(f"{server.url}/rules/nope")
    assert r is not None and r.status == 404
    assert page.inner_text("h1") == "Page not found" and page.locator("a[href='/']").count() >= 1
