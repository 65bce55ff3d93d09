"""The table page's layout stays put from turn to turn: hands, piles and pools keep the order the scene declares,
whoever is to play and whatever can be clicked; Minopoly's city is a board, 5 lots by 5, with the dice on it.

Each game is played a few turns through the page (hot seat, real clicks); after every turn the zones' on-screen
order (by their boxes: top, then left) is recorded, with the seat whose view is shown.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import autoplay, create, settle

pytestmark = pytest.mark.browser

#: The zones as drawn, in reading order of their boxes (top to bottom, then left to right), and in the page's order.
ZONES_JS = """
() => {
  const zones = [...document.querySelectorAll(".zones .zone")];
  const box = (z) => z.getBoundingClientRect();
  const drawn = zones.filter((z) => box(z).height > 0)
    .sort((a, b) => (Math.round(box(a).top) - Math.round(box(b).top)) || (box(a).left - box(b).left));
  return {drawn: drawn.map((z) => z.dataset.zone), declared: zones.map((z) => z.dataset.zone),
    revision: document.getElementById("table-root").dataset.revision,
    seat: document.getElementById("table-root").dataset.seat};
}
"""


def play_turns(page: Any, turns: int) -> list[dict[str, Any]]:
    """Play ``turns`` clicks through the page, recording the zones after each (and before the first)."""
    seen = [page.evaluate(ZONES_JS)]
    for k in range(turns):
        autoplay(page, seed=k + 1, max_clicks=1)
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        seen.append(page.evaluate(ZONES_JS))
        if page.locator("#table-root[data-terminal='1']").count():
            break
    return seen


def order_problems(seen: list[dict[str, Any]]) -> list[str]:
    """Where the zones were not drawn in the declared order, or two zones swapped places between turns of one seat's
    view (a scene may lay the table out around the seat looking, as Two Mayors puts the viewer's side nearest)."""
    out = []
    first_at: dict[tuple[str, str, str], int] = {}
    for turn, s in enumerate(seen):
        if s["drawn"] != s["declared"]:
            out.append(f"turn {turn}: drawn {s['drawn']}, declared {s['declared']}")
        for i, a in enumerate(s["drawn"]):
            for b in s["drawn"][i + 1 :]:
                seat = s["seat"]
                if (seat, b, a) in first_at:
                    was = first_at[seat, b, a]
                    out.append(f"turn {turn}, seat {seat}: {a} now comes before {b} (the other way at turn {was})")
                first_at.setdefault((seat, a, b), turn)
    return out[:6]


@pytest.mark.parametrize(("game_id", "turns"), [("kasta", 14), ("minopoly", 14), ("two-mayors", 10)])
def test_zones_keep_their_order_from_turn_to_turn(game_id: str, turns: int, server: Any, new_page: Any) -> None:
    d = create(server, game=game_id, mode="hotseat", seed=4, seats=[{"kind": "human"}] * 2)
    page = new_page()
    page.goto(d["links"]["host"])
    page.wait_for_selector("#table-root[data-ready='1']")
    seen = play_turns(page, turns)
    assert len({s["revision"] for s in seen}) > turns // 2, "the game did not move"
    assert len(seen[0]["drawn"]) >= 3
    assert order_problems(seen) == []


#: The board's cells as drawn: how many, and how many distinct columns and rows their boxes take; the pieces on it.
BOARD_GRID_JS = """
() => {
  const cells = [...document.querySelectorAll(".board-wrap svg .cell")].map((c) => c.getBoundingClientRect());
  return {cells: cells.length, columns: new Set(cells.map((b) => Math.round(b.left))).size,
    rows: new Set(cells.map((b) => Math.round(b.top))).size,
    pieces: document.querySelectorAll(".board-wrap svg .layer-pieces .piece").length,
    buttons: document.querySelectorAll(".zones .zone[data-zone='city']").length};
}
"""


@pytest.mark.parametrize("size", [(1100, 900), (390, 844)])
def test_minopolys_city_is_a_board_five_lots_by_five(size: tuple[int, int], server: Any, new_page: Any) -> None:
    """The city is drawn as a board (cells, dice standing on them as pieces), not as a grid of buttons."""
    d = create(server, game="minopoly", mode="hotseat", seed=4, seats=[{"kind": "human"}] * 2)
    page = new_page(*size)
    page.goto(d["links"]["host"])
    page.wait_for_selector("#table-root[data-ready='1']")
    assert page.evaluate(BOARD_GRID_JS) == {"cells": 25, "columns": 5, "rows": 5, "pieces": 0, "buttons": 0}
    play_turns(page, 14)  # dice in the city now
    drawn = page.evaluate(BOARD_GRID_JS)
    assert drawn["pieces"] >= 4 and (drawn["cells"], drawn["columns"], drawn["rows"]) == (25, 5, 5)


#: Each zone's owner (blank: the table's) and box, in the page's order; and the seat whose view it is.
OWNERS_JS = """
() => ({seat: document.getElementById("table-root").dataset.seat, vh: innerHeight,
  sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  zones: [...document.querySelectorAll(".zones .zone")].map((z) => ({id: z.dataset.zone, owner: z.dataset.owner,
    title: z.querySelector("h3").textContent, top: z.getBoundingClientRect().top,
    bottom: z.getBoundingClientRect().bottom}))})
"""


def test_on_a_phone_your_own_hand_comes_first(server: Any, new_page: Any) -> None:
    """At 390x844 the seat looking sees its own zones first, right under the board (Two Mayors: its hand in view
    without scrolling), then the table's, then the other player's; on a laptop the scene's order stays."""
    d = create(server, game="two-mayors", mode="hotseat", seed=4, seats=[{"kind": "human"}] * 2)
    page = new_page(390, 844)
    page.goto(d["links"]["host"])
    page.wait_for_selector("#pass:not(.hidden), #table-root[data-your-turn='1'][data-ready='1']")
    for _turn in range(3):
        settle(page)  # past the pass-the-device screen, and the next seat's zones drawn (not the last seat's)
        m = page.evaluate(OWNERS_JS)
        rank = [0 if z["owner"] == m["seat"] else 1 if z["owner"] == "" else 2 for z in m["zones"]]
        assert rank == sorted(rank), [(z["title"], z["owner"]) for z in m["zones"]]
        hand = next(z for z in m["zones"] if z["owner"] == m["seat"] and "hand" in z["title"])
        assert hand["bottom"] <= m["vh"], f"your hand ends at {hand['bottom']:.0f} px, below the screen"
        assert m["sideways"] <= 0
        autoplay(page, seed=_turn + 1, max_clicks=1)
        page.wait_for_selector("#pass:not(.hidden), #table-root[data-your-turn='1'][data-busy='0']")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_function("() => document.querySelector('.zones .zone')")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    scene = [z["id"] for z in page.evaluate("() => document.getElementById('table-root').renderedScene.zones")]
    assert [z["id"] for z in page.evaluate(OWNERS_JS)["zones"]] == scene
