"""Pieces, tokens and cards drawn as the things they are (issue 24, items 9 and 10).

- Flock of Sheep's sheep counts, and all board and zone text of the games below, are at least 11 px on a laptop
  (1280x800) and a phone (390x844).
- Chevrons marks its click targets only where they tell something: when almost every free edge can be clicked
  (any first edge of a chevron), the edges are marked under the pointer only; only the corners are labelled.
- Dragon Fight's tokens, which cannot be clicked, do not look like buttons; a move that flies off the board and
  loses at once asks the player to confirm it first.
- Posies, Elephant Monkey & Mice, Greedy Fiefs, Triad and Hamlet draw each piece or card with a symbol (an icon),
  never as a bare 1-3 letter abbreviation; each one's name is its tooltip and shows on a long press.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from browser_helpers import create, shot

pytestmark = pytest.mark.browser

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
READY = "#pass:not(.hidden), #table-root[data-your-turn='1'][data-busy='0'], #table-root[data-terminal='1']"

#: Every visible text on the board and in the zones whose size on screen is under 11 px.
SMALL_TEXT_JS = """
() => {
  const out = [];
  const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 1 && r.height > 1; };
  for (const t of document.querySelectorAll("#table-root svg text")) {
    if (!t.textContent.trim() || !shown(t)) continue;
    const svg = t.ownerSVGElement;
    const scale = svg.getScreenCTM().a;
    const px = parseFloat(t.getAttribute("font-size") || getComputedStyle(t).fontSize) * scale;
    if (px < 10.95) out.push({text: t.textContent, px});
  }
  for (const e of document.querySelectorAll("#table-root .zones *")) {
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !shown(e)) continue;
    const px = parseFloat(getComputedStyle(e).fontSize);
    if (px < 10.95) out.push({text: e.textContent.slice(0, 30), px});
  }
  return out;
}
"""

#: Each piece on the board: its name (tooltip), whether it holds a symbol, and its visible label text.
PIECES_JS = """
() => [...document.querySelectorAll("svg g.piece")].map((g) => ({
  faceDown: g.classList.contains("face-down"),
  icon: g.querySelector("g.icon") ? g.querySelector("g.icon").dataset.icon : null,
  title: (g.querySelector("title") || {}).textContent || "",
  name: g.dataset.name || "",
  labels: [...g.querySelectorAll("text:not(.badge-text)")].map((t) => t.textContent),
}))
"""


def open_table(page: Any, server: Any, game_id: str, seed: int = 3, **options: Any) -> None:
    d = create(server, game=game_id, mode="hotseat", seed=seed, **options)
    page.goto(d["links"]["host"])
    ready(page)


def ready(page: Any) -> None:
    page.wait_for_selector(READY)
    if page.locator("#pass:not(.hidden)").count():
        page.click("#pass-go")
        page.wait_for_selector("#table-root[data-your-turn='1'][data-busy='0'], #table-root[data-terminal='1']")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def click_until_revision_changes(page: Any, locator: Any) -> None:
    rev = page.get_attribute("#table-root", "data-revision")
    locator.dispatch_event("click")
    page.wait_for_function(
        "rev => document.getElementById('table-root').dataset.revision !== rev"
        " || !document.getElementById('pass').classList.contains('hidden')",
        arg=rev,
    )
    ready(page)


def play_some(page: Any, moves: int, seed: int) -> None:
    """Click ``moves`` random legal targets (confirming any warning), past pass screens; a click that only begins a
    move of several clicks counts as one."""
    rng = random.Random(seed)
    for _ in range(moves):
        if page.locator("#table-root[data-terminal='1']").count():
            return
        rev = page.get_attribute("#table-root", "data-revision")
        targets = page.locator("svg g.target, .zones button.item, .buttons button")
        target = targets.nth(rng.randrange(targets.count()))
        first_of_several = target.get_attribute("data-pick")  # a click that only begins a move (Triad's setup)
        target.dispatch_event("click")
        if first_of_several:
            continue
        menu = page.locator(".chooser button[role=menuitem]")
        if menu.count():
            menu.nth(rng.randrange(menu.count())).click()
        if page.locator(".chooser .confirm-yes").count():
            page.click(".chooser .confirm-yes")
        page.wait_for_function(
            "rev => document.getElementById('table-root').dataset.revision !== rev"
            " || !document.getElementById('pass').classList.contains('hidden')",
            arg=rev,
        )
        ready(page)


# -- item 9 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", list(SIZES))
def test_flock_of_sheeps_counts_are_legible(size: str, server: Any, new_page: Any) -> None:
    page = new_page(*SIZES[size])
    open_table(page, server, "flock-of-sheep")
    counts = page.locator("svg g.piece text")
    assert counts.count() >= 10  # every sheep shows how many sheep it pictures
    assert page.evaluate(SMALL_TEXT_JS) == []
    # the number sits on a disc as wide as about a square and more of its 2x2 tile, not on a dot
    disc = page.locator("svg g.piece").first.bounding_box()
    square = page.locator("svg .layer-cells polygon").first.bounding_box()
    assert disc["width"] >= 1.1 * square["width"], (disc, square)
    assert all(
        re.fullmatch(r"a tile showing \d+ (black|white) sheep(, in a flock)?", p["name"])
        for p in page.evaluate(PIECES_JS)
    )


def test_chevrons_marks_edges_only_where_it_helps(server: Any, new_page: Any) -> None:
    page = new_page(1280, 800)
    open_table(page, server, "chevrons")
    marks = "() => [...document.querySelectorAll('svg g.target .mark')].filter((m) => +getComputedStyle(m).opacity > 0.05).length"
    edges = page.locator("svg line.edge").count()
    targets = page.locator("svg g.target").count()
    assert targets > 0.8 * edges  # any free edge may start a chevron ...
    assert page.evaluate(marks) == 0  # ... so none is marked at rest
    # the one under the pointer is
    box = page.locator("svg g.target").nth(5).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert page.evaluate(marks) == 1
    # labels: the corners only, which name the moves (c2-c3); the triangles are not labelled
    points = page.locator("svg circle.kind-point").count()
    labels = page.evaluate("() => [...document.querySelectorAll('svg text.coord')].map((t) => t.textContent)")
    assert len(labels) == points and all(re.fullmatch(r"[a-z]\d+", t) for t in labels), labels[:10]
    assert page.evaluate(SMALL_TEXT_JS) == []
    # once a first edge is chosen, the few edges that can complete it are all marked
    click_until_revision_changes(page, page.locator("svg g.target").nth(5))
    seconds = page.locator("svg g.target").count()
    assert 1 <= seconds <= 8
    assert page.evaluate(marks) == seconds


@pytest.mark.parametrize("size", list(SIZES))
def test_dragon_fights_tokens_do_not_look_clickable(size: str, server: Any, new_page: Any) -> None:
    page = new_page(*SIZES[size])
    open_table(page, server, "dragon-fight")
    tokens = page.locator(".zones .item.token")
    assert tokens.count() >= 20  # both riders' movement and attack tokens
    styles = page.evaluate(
        """() => [...document.querySelectorAll('.zones .item.token')].map((e) => {
          const cs = getComputedStyle(e);
          return {tag: e.tagName, cursor: cs.cursor, border: cs.borderTopColor, shadow: cs.boxShadow,
                  icon: !!e.querySelector('g.icon'), title: e.title};
        })"""
    )
    for s in styles:
        assert s["tag"] == "DIV" and s["cursor"] != "pointer", s  # nothing to click
        assert s["border"] in ("rgba(0, 0, 0, 0)", "transparent") and s["shadow"] == "none", s  # no button frame
        assert s["icon"], s  # a token with its symbol on it
    assert page.evaluate(SMALL_TEXT_JS) == []


#: A hot-seat game in which Red's third order may fly off the board: Red, then Green, each turn (action numbers).
FLIGHT_PLAN = [(12, 13), (1, 8)]
FLY_OFF = 0  # forward + claw, off the board


def test_dragon_fight_asks_before_a_move_that_loses_at_once(server: Any, new_page: Any) -> None:
    page = new_page(1280, 800)
    d = create(server, game="dragon-fight", mode="hotseat", seed=1)
    page.goto(d["links"]["host"])
    for turn in FLIGHT_PLAN:
        for _ in range(2):
            ready(page)
            seat = int(page.get_attribute("#table-root", "data-seat"))
            click_until_revision_changes(page, page.locator(f".legal-move[data-action='{turn[seat]}']"))
    ready(page)
    assert page.get_attribute("#table-root", "data-seat") == "0"
    fly = page.locator(f".buttons button[data-action='{FLY_OFF}']")
    assert "flies off the board" in fly.inner_text()
    rev = page.get_attribute("#table-root", "data-revision")
    fly.click()
    # asked first: the warning, and the move is not played yet
    page.wait_for_selector(".chooser.confirm")
    shot(page, "dragon-fight-confirm-flight")
    assert "you lose" in page.inner_text(".chooser.confirm .warning-text")
    page.click(".chooser.confirm .confirm-no")
    assert page.locator(".chooser.confirm").count() == 0
    assert page.get_attribute("#table-root", "data-revision") == rev
    assert page.get_attribute("#table-root", "data-your-turn") == "1"
    # the same from the text list of legal moves, and Escape cancels
    page.locator(f".legal-move[data-action='{FLY_OFF}']").dispatch_event("click")
    page.wait_for_selector(".chooser.confirm")
    page.keyboard.press("Escape")
    assert page.locator(".chooser.confirm").count() == 0
    # a move that stays on the board is played at once, without a question
    stay = page.locator("svg g.target").first
    stay.click()
    page.wait_for_selector(".chooser:not(.confirm) button[role=menuitem]")
    page.keyboard.press("Escape")
    # confirmed, the move is played
    fly.click()
    page.click(".chooser.confirm .confirm-yes")
    page.wait_for_function(
        "rev => document.getElementById('table-root').dataset.revision !== rev"
        " || !document.getElementById('pass').classList.contains('hidden')",
        arg=rev,
    )


# -- item 10 --------------------------------------------------------------------------------------

#: game -> (table options, moves to play first, the symbols its pieces may show, how many of them must show)
PICTURED = {
    "posies": ({}, 2, {"flower"}, 1),
    "elephant-monkey-mice": ({}, 4, {"elephant", "monkey", "mouse"}, 3),
    "greedy-fiefs": ({}, 10, {"cavalry", "infantry", "archer", "hero"}, 4),
    "triad": ({}, 4, {"icbm", "aircraft", "submarine", "fleet", "spy"}, 3),
}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game_id", list(PICTURED))
def test_pieces_are_pictures_with_names(game_id: str, size: str, server: Any, new_page: Any) -> None:
    options, moves, symbols, least = PICTURED[game_id]
    page = new_page(*SIZES[size])
    open_table(page, server, game_id, **options)
    play_some(page, moves, seed=5)
    pieces = [p for p in page.evaluate(PIECES_JS) if not p["faceDown"]]
    assert pieces
    for p in pieces:
        assert p["icon"], p  # drawn as a picture ...
        assert not any(re.fullmatch(r"\w{1,3}[!^x*★]?", t) for t in p["labels"]), p  # ... not as letters
        assert p["title"] and p["title"] == p["name"] and not re.fullmatch(r"\w{1,3}", p["title"]), p
    shown = {p["icon"] for p in pieces}
    assert shown <= symbols and len(shown) >= least, shown
    assert page.evaluate(SMALL_TEXT_JS) == []


@pytest.mark.parametrize("size", list(SIZES))
def test_hamlets_cards_are_pictures_not_walls_of_text(size: str, server: Any, new_page: Any) -> None:
    page = new_page(*SIZES[size])
    open_table(page, server, "hamlet", seed=5)
    play_some(page, 2, seed=5)
    cards = page.evaluate(
        """() => [...document.querySelectorAll('.zones .item.card:not(.face-down)')].map((e) => ({
          icon: e.querySelector('g.icon') ? e.querySelector('g.icon').dataset.icon : null,
          label: e.querySelector('.label').textContent, text: e.innerText, title: e.title, name: e.dataset.name}))"""
    )
    assert len(cards) >= 8  # the hand and the seven roles
    for c in cards:
        assert c["icon"], c
        assert len(c["text"]) <= 110, c  # a name and at most a line of who it beats
        assert " defeat" in c["title"] and c["title"] == c["name"], c  # the card in full, on hover
    # one picture per role
    roles = page.evaluate(
        "() => [...document.querySelectorAll(\".zone[data-zone='roles'] g.icon\")].map((g) => g.dataset.icon)"
    )
    assert len(set(roles)) == 7
    assert page.evaluate(SMALL_TEXT_JS) == []


def test_a_long_press_shows_a_pieces_name(server: Any, browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        open_table(page, server, "elephant-monkey-mice")
        # a piece on a place one may click (the Monkey may take its square)
        at = page.evaluate(
            """() => [...document.querySelectorAll('svg g.target')].map((g) => g.dataset.at)
                 .find((a) => document.querySelector(`svg g.piece[data-at='${a}']`))"""
        )
        piece = page.locator(f"svg g.piece[data-at='{at}']")
        name = piece.get_attribute("data-name")
        assert name and piece.locator("g.icon").count() == 1
        box = piece.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        rev = page.get_attribute("#table-root", "data-revision")
        press = """([type, x, y]) => document.elementFromPoint(x, y).dispatchEvent(
          new PointerEvent(type, {bubbles: true, pointerType: 'touch', clientX: x, clientY: y}))"""
        page.evaluate(press, ["pointerdown", x, y])
        page.wait_for_selector(".name-tip", timeout=3000)
        assert page.inner_text(".name-tip") == name
        # the tap that ends the press plays nothing ...
        page.evaluate(press, ["pointerup", x, y])
        page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).dispatchEvent(new MouseEvent('click', {bubbles: true}))",
            [x, y],
        )
        page.wait_for_timeout(300)
        assert page.get_attribute("#table-root", "data-revision") == rev
        # ... while a plain tap plays the move
        page.evaluate(press, ["pointerdown", x, y])
        page.evaluate(press, ["pointerup", x, y])
        page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).dispatchEvent(new MouseEvent('click', {bubbles: true}))",
            [x, y],
        )
        page.wait_for_function("rev => document.getElementById('table-root').dataset.revision !== rev", arg=rev)
        assert not errors, errors
    finally:
        ctx.close()
