"""The board stays put from turn to turn: after every click of a few turns, in several games, the board's frame
starts where it started (top and left) and so does the drawing in it (top), within a pixel, on a laptop (1280x800)
and a phone (390x844); the drawing may shrink as the hands under it fill (to keep them in view) but never grows back.
A game drawn without a board (cards, dice) keeps its first hand in place instead.

What lies above the board (the page's head, the banner with its prompt, the tool buttons) keeps its height whatever
the prompt says: the prompt has a fixed number of lines (a longer one is cut short, and shown whole by a click on it
or on hover), and the tool buttons keep to one row on a phone. And the viewer's own zones are in view without
scrolling (Kasta's, New Rule's on a laptop).
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import autoplay, create, settle, shot

import boardlab

pytestmark = pytest.mark.browser

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
#: Games with long prompts (Cirque, Trivalent, Combat), many zones (Kasta), a board that fills the
#: screen (New Rule), a setup phase (Triad), pieces and hands (Hamlet, Two Mayors, Minopoly).
GAMES = ["hamlet", "cirque", "trivalent", "combat", "kasta", "new-rule", "triad", "two-mayors", "minopoly"]
CLICKS = 8

#: The board's frame and drawing, in page coordinates (so a scrolled page does not count as a move).
BOARD_JS = """
() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return {top: r.top + scrollY, left: r.left + scrollX, width: r.width}; };
  const wrap = document.querySelector(".board-wrap");
  const board = wrap && !wrap.classList.contains("empty");
  const svg = board && wrap.querySelector(":scope > svg");
  // a game drawn without a board (cards, dice): its first hand or pile stands for it
  const frame = board ? wrap : document.querySelector(".zones");
  return {what: board ? "board" : "zones", frame: box(frame), drawing: svg ? box(svg) : box(frame),
    prompt: document.getElementById("banner-detail").textContent,
    terminal: document.getElementById("table-root").dataset.terminal === "1"};
}
"""


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game_id", GAMES)
def test_the_board_does_not_move_between_turns(game_id: str, size: str, server: Any, new_page: Any) -> None:
    game = boardlab.make(game_id)
    n = game.default_players or game.min_players
    d = create(server, game=game_id, mode="hotseat", seed=2, seats=[{"kind": "human"}] * n)
    page = new_page(*SIZES[size])
    page.goto(d["links"]["host"])
    page.wait_for_selector("#table-root[data-ready='1']")
    settle(page)
    first = page.evaluate(BOARD_JS)
    moved: list[str] = []
    resized: list[str] = []
    drawing = first["drawing"]
    for k in range(1, CLICKS + 1):
        autoplay(page, seed=k, max_clicks=1)
        settle(page)
        now = page.evaluate(BOARD_JS)
        if now["terminal"]:
            break
        said = f"(prompt: {now['prompt'][:60]!r})"
        if now["what"] != first["what"]:
            moved.append(f"click {k}: the table drew its {now['what']} first, not its {first['what']} {said}")
            continue
        for side in ("top", "left"):
            if abs(now["frame"][side] - first["frame"][side]) > 1:
                moved.append(
                    f"click {k}: the {now['what']}'s {side} moved {first['frame'][side]:.0f} -> "
                    f"{now['frame'][side]:.0f} px {said}"
                )
        if abs(now["drawing"]["top"] - first["drawing"]["top"]) > 1:
            moved.append(
                f"click {k}: the drawing's top moved {first['drawing']['top']:.0f} -> "
                f"{now['drawing']['top']:.0f} px {said}"
            )
        if now["drawing"]["width"] > drawing["width"] + 1:
            resized.append(f"click {k}: the drawing grew {drawing['width']:.0f} -> {now['drawing']['width']:.0f} px")
        drawing = now["drawing"]
    if moved or resized:
        shot(page, f"stability-{game_id}-{size}")
    assert moved == [], "\n".join(moved[:8])
    # the board may shrink as the hands under it fill (to keep them in view), but never grows back and shrinks again
    # from turn to turn
    assert resized == [], "\n".join(resized)


#: The prompt's box: its height, whether its text is cut short, and the banner's state.
PROMPT_JS = """
() => { const d = document.getElementById("banner-detail"), b = document.getElementById("banner");
  return {height: d.clientHeight, cut: d.scrollHeight > d.clientHeight + 1, clamped: b.classList.contains("clamped"),
    open: b.classList.contains("open"), title: d.title, text: d.textContent}; }
"""


def test_a_long_prompt_is_cut_short_and_shown_whole_by_a_click(server: Any, new_page: Any) -> None:
    """Monster Piles' prompts run to four lines on a phone: three show, the rest on hover (title) or by a click."""
    d = create(server, game="monster-piles", mode="hotseat", seed=2, seats=[{"kind": "human"}] * 2)
    page = new_page(390, 844)
    page.goto(d["links"]["host"])
    page.wait_for_selector("#table-root[data-ready='1']")
    settle(page)
    for k in range(1, 12):
        m = page.evaluate(PROMPT_JS)
        if m["cut"]:
            break
        autoplay(page, seed=k, max_clicks=1)
        settle(page)
    assert m["cut"] and m["clamped"] and m["title"] == m["text"], m
    page.click("#banner")
    opened = page.evaluate(PROMPT_JS)
    assert opened["open"] and not opened["cut"] and opened["height"] > m["height"]
    page.click("#banner")
    assert page.evaluate(PROMPT_JS)["height"] == m["height"]


#: The zones (hands, piles) with something in them: whose they are, where they end, and the screen's height.
ZONE_BOTTOMS_JS = """
() => ({seat: document.getElementById("table-root").dataset.seat, vh: innerHeight, scrolled: scrollY,
  zones: [...document.querySelectorAll(".zones .zone")].filter((z) => z.querySelector(".item"))
    .map((z) => ({title: z.querySelector("h3").textContent, owner: z.dataset.owner,
      bottom: z.getBoundingClientRect().bottom + scrollY}))})
"""


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game_id", ["kasta", "new-rule", "minopoly", "triad", "combat"])
def test_your_own_zones_are_in_view_without_scrolling(game_id: str, size: str, server: Any, new_page: Any) -> None:
    """The viewer's own hands and pieces (every zone, where none is anyone's: New Rule's pool) end above the screen's
    bottom: the board is drawn small enough to leave them room (Kasta's pool is a board, not nine rows of dice)."""
    game = boardlab.make(game_id)
    n = game.default_players or game.min_players
    d = create(server, game=game_id, mode="hotseat", seed=2, seats=[{"kind": "human"}] * n)
    page = new_page(*SIZES[size])
    page.goto(d["links"]["host"])
    page.wait_for_selector("#table-root[data-ready='1']")
    settle(page)
    below = []
    for k in range(6):
        if k:
            autoplay(page, seed=k, max_clicks=1)
            settle(page)
        m = page.evaluate(ZONE_BOTTOMS_JS)
        owned = [z for z in m["zones"] if z["owner"] == m["seat"]]
        for z in owned or [z for z in m["zones"] if z["owner"] == ""]:
            if z["bottom"] > m["vh"] + 1:
                below.append(f"click {k}: {z['title']!r} ends at {z['bottom']:.0f} px, below the screen ({m['vh']})")
    assert below == [], "\n".join(below[:6])
