"""The table page fits the screen, for every registered game, on a laptop (1280x800) and a phone (390x844).

At the opening position of a hot-seat table (default options: the boards people play): the banner and the
board are in view together, every legal click target lies on the screen without scrolling and is at least
24 px both ways, coordinate labels are at least 10 px high, the text list of legal moves starts folded, and a
chooser (several moves on one place) opens wholly on the screen. One browser context per screen size, one page
load per game.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import create

import boardlab

pytestmark = pytest.mark.browser

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}

MEASURE_JS = """
() => {
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const box = (e) => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left,
    right: r.right, w: r.width, h: r.height}; };
  const board = document.querySelector(".board-wrap > svg");
  const scale = board ? board.getScreenCTM().a : 1;
  // a board drawn wider than the screen (its scene ``scrolls``) scrolls sideways in its frame: the frame is on the
  // screen, and the targets in it as far as their height goes
  const frame = board && board.parentElement.classList.contains("wide") ? board.parentElement.getBoundingClientRect() : null;
  const clip = (b) => (frame ? {...b, left: Math.max(b.left, frame.left), right: Math.min(b.right, frame.right)} : b);
  const targets = [...document.querySelectorAll("svg g.target, .zones button.item, .buttons button")]
    .map((e) => ({...(e.closest(".board-wrap") ? clip(box(e)) : box(e)), what: e.getAttribute("aria-label") || e.textContent.trim().slice(0, 40)}));
  const labels = [...document.querySelectorAll("svg text.coord")]
    .map((t) => ({px: parseFloat(t.getAttribute("font-size")) * scale, text: t.textContent}));
  return {vw, vh, banner: box(document.getElementById("banner")), board: board ? (frame ? box(board.parentElement) : box(board)) : null, targets,
    labels, legalOpen: document.querySelector("details.legal").open, scrollY: window.scrollY};
}
"""


def open_table(page: Any, server: Any, game_id: str) -> None:
    """A hot-seat table of ``game_id`` with its default options, shown to the seat to move (past a pass screen)."""
    game = boardlab.make(game_id)
    n = game.default_players or game.min_players
    d = create(server, game=game_id, mode="hotseat", seats=[{"kind": "human"}] * n)
    page.goto(d["links"]["host"])
    page.wait_for_selector("#pass:not(.hidden), #table-root[data-your-turn='1']")
    if page.locator("#pass:not(.hidden)").count():
        page.click("#pass-go")
    page.wait_for_selector("#table-root[data-your-turn='1'][data-ready='1']")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def fit_problems(m: dict[str, Any]) -> list[str]:
    vw, vh = m["vw"], m["vh"]
    out: list[str] = []

    def on_screen(b: dict[str, float]) -> bool:
        return b["top"] >= -0.5 and b["left"] >= -0.5 and b["bottom"] <= vh + 0.5 and b["right"] <= vw + 0.5

    if m["scrollY"] != 0:
        out.append(f"the page scrolled to {m['scrollY']}")
    if not on_screen(m["banner"]):
        out.append(f"banner off the screen: {m['banner']}")
    if m["board"] and not on_screen(m["board"]):
        out.append(f"board off the screen: {m['board']}")
    if not m["targets"]:
        out.append("nothing to click")
    for t in m["targets"]:
        if not on_screen(t):
            out.append(f"target {t['what']!r} off the screen: {t}")
        if t["w"] < 24 or t["h"] < 24:
            out.append(f"target {t['what']!r} is {t['w']:.0f}x{t['h']:.0f} px")
    for lab in m["labels"]:
        if lab["px"] < 10:
            out.append(f"label {lab['text']!r} is {lab['px']:.1f} px")
    if m["legalOpen"]:
        out.append("the text list of legal moves is open")
    return out[:8]


CHOOSER_JS = """
() => {
  const t = [...document.querySelectorAll("svg g.target, .zones button.item")]
    .find((e) => (e.dataset.actions || "").includes(","));
  if (!t) return null;
  t.dispatchEvent(new MouseEvent("click", {bubbles: true, clientX: t.getBoundingClientRect().right - 1,
    clientY: t.getBoundingClientRect().bottom - 1}));
  const c = document.querySelector(".chooser");
  if (!c) return {missing: true};
  const r = c.getBoundingClientRect();
  const out = {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
    vw: document.documentElement.clientWidth, vh: window.innerHeight};
  document.dispatchEvent(new KeyboardEvent("keydown", {key: "Escape"}));
  return out;
}
"""


@pytest.fixture(scope="module")
def pages(browser: Any) -> Any:
    """One page per screen size, reused across the games (errors on the page fail the test that saw them)."""
    made: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    contexts = []
    for name, (w, h) in SIZES.items():
        ctx = browser.new_context(viewport={"width": w, "height": h})
        ctx.set_default_timeout(30000)
        contexts.append(ctx)
        page = ctx.new_page()
        errors[name] = []
        page.on("pageerror", lambda e, n=name: errors[n].append(str(e)))
        made[name] = page
    yield made, errors
    for ctx in contexts:
        ctx.close()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game_id", boardlab.games())
def test_the_table_fits_the_screen(game_id: str, size: str, server: Any, pages: Any) -> None:
    made, errors = pages
    page = made[size]
    errors[size].clear()
    open_table(page, server, game_id)
    problems = fit_problems(page.evaluate(MEASURE_JS))
    chooser = page.evaluate(CHOOSER_JS)
    if chooser is not None:
        if chooser.get("missing"):
            problems.append("a place with several moves opened no chooser")
        elif not (
            chooser["top"] >= 0
            and chooser["left"] >= 0
            and chooser["bottom"] <= chooser["vh"]
            and chooser["right"] <= chooser["vw"]
        ):
            problems.append(f"the chooser runs off the screen: {chooser}")
    assert problems == [], f"{game_id} at {SIZES[size]}: {problems}"
    assert errors[size] == []
