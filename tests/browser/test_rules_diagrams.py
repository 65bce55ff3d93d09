"""Rules pages open with "How to play in one minute" and a diagram of a position, drawn by the table's renderer."""

from __future__ import annotations

import pytest

import boardlab

pytestmark = pytest.mark.browser

#: Where the first diagram and the one-minute section lie, against the long rules text (the "Rules" heading).
LAYOUT = """() => {
  const main = document.querySelector("main.rules");
  const fig = main.querySelector("figure.diagram");
  const rules = [...main.querySelectorAll("h2")].find((h) => h.textContent.trim() === "Rules");
  const minute = [...main.querySelectorAll("h2")].find((h) => h.textContent.trim() === "How to play in one minute");
  const drawn = fig && fig.querySelector(".board-wrap > svg, .zones .zone");
  const board = fig && fig.querySelector(".board-wrap > svg");
  const box = board ? board.getBoundingClientRect() : fig ? fig.querySelector(".zones").getBoundingClientRect() : null;
  const top = (e) => (e ? e.getBoundingClientRect().top + window.scrollY : null);
  const bullets = minute ? minute.nextElementSibling : null;
  return {
    ready: main.dataset.ready, figures: main.querySelectorAll("figure.diagram").length,
    errors: main.querySelectorAll(".diagram-error").length,
    fig: top(fig), rules: top(rules), minute: top(minute),
    bullets: bullets && bullets.tagName === "UL" ? bullets.children.length : 0,
    drawn: drawn ? drawn.tagName : null, width: box ? box.width : 0, height: box ? box.height : 0,
    pieces: fig ? fig.querySelectorAll(".layer-pieces > *, .zones .item").length : 0,
    caption: fig ? fig.querySelector("figcaption").innerText : "",
  };
}"""


@pytest.mark.parametrize("game_id", boardlab.games())
def test_a_rules_page_starts_with_one_minute_and_a_diagram(server, new_page, game_id: str) -> None:
    page = new_page(1100, 900)
    page.goto(f"{server.url}/rules/{game_id}")
    page.wait_for_selector("main.rules[data-ready='1']")
    m = page.evaluate(LAYOUT)
    assert m["minute"] is not None, f"{game_id}: no 'How to play in one minute' section"
    assert 3 <= m["bullets"] <= 7, f"{game_id}: the one-minute section should be a few short points: {m}"
    assert m["figures"] >= 1 and not m["errors"], f"{game_id}: no diagram drawn: {m}"
    assert m["minute"] < m["fig"] < m["rules"], f"{game_id}: the diagram must come before the long rules: {m}"
    assert m["drawn"] is not None and m["width"] >= 200 and m["height"] >= 60, f"{game_id}: diagram too small: {m}"
    assert m["pieces"] >= 1, f"{game_id}: the diagram shows no piece, card or die: {m}"
    assert m["caption"] and "seat" not in m["caption"].lower(), m["caption"]


def test_a_diagram_fits_a_phone(server, new_page) -> None:
    """At 390 px the diagram is drawn within the page (the sideways-scroll test covers every page's width)."""
    page = new_page(390, 844)
    page.goto(f"{server.url}/rules/flock-of-sheep")
    page.wait_for_selector("main.rules[data-ready='1']")
    m = page.evaluate(LAYOUT)
    assert 250 <= m["width"] <= 390, m
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0


def test_the_rules_dialog_draws_the_diagrams_too(server, new_page) -> None:
    """The lobby's Rules button shows the same document in a dialog: its diagrams are drawn there as well."""
    page = new_page(1100, 900)
    page.goto(server.url + "/")
    page.wait_for_selector("#lobby[data-ready='1']")
    page.click("[data-game='radius'] .actions button:has-text('Rules')")
    page.wait_for_selector("#rules-body figure.diagram[data-drawn='1'] .board-wrap > svg")
    assert page.locator("#rules-body h2", has_text="How to play in one minute").count() == 1
