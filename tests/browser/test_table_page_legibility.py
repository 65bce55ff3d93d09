"""What stands on the board never hides what the board says, on a phone (390x844) and a laptop (1280x800).

Each game's table, a few seeded clicks in (as ``make screenshots`` takes it, :func:`take`), is measured as drawn:

* a cell's name (a coordinate, Train Boiler's "Hot", Triad's "Capitol") is not covered by any piece: the renderer
  writes it along the cell's bottom and stands the pieces above it;
* several pieces on one place stand side by side: no piece's body covers much of another's (Greedy Fiefs' troops);
* Mini Life's cells are drawn as pieces (no letter B or R on them) and its status names the turn order in words;
* Common Cold War's squares stay readable on a phone (at least ``MIN_CELL_PX``, 25 px): its board scrolls sideways in its
  frame as the tiles spread, the page never does.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_helpers import autoplay, create, settle, shot
from test_table_page_screenshots import SIZES, take

import boardlab

pytestmark = pytest.mark.browser

#: How much two boxes may share (CSS px each way) and still count as apart: antialiasing, a label's line box.
SLACK = 1.5
#: How much of the smaller of two pieces on one place another may cover.
MAX_COVER = 0.1
MIN_CELL_PX = 25  # render.js MIN_CELL_PX

#: The board as drawn: visible cell names, pieces (not those fading out where they left) and their bodies.
BOARD_JS = """
() => {
  const box = (n) => { const r = n.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const board = document.querySelector(".board-wrap > svg");
  if (!board) return null;
  // a laid tile (an area) covers the names of the cells under it, on purpose
  const areas = [...board.querySelectorAll(".cell.area")].map(box);
  const under = (b) => areas.some((a) => a[0] <= (b[0] + b[2]) / 2 && (b[0] + b[2]) / 2 <= a[2]
    && a[1] <= (b[1] + b[3]) / 2 && (b[1] + b[3]) / 2 <= a[3]);
  const labels = [...board.querySelectorAll("text.coord:not(.area-label)")]
    .filter((t) => getComputedStyle(t).display !== "none" && t.textContent.trim())
    .map((t) => ({text: t.textContent, box: box(t)})).filter((t) => !under(t.box));
  const pieces = [...board.querySelectorAll("g.piece:not(.leave)")].map((g) => {
    const body = g.querySelector(".body");
    return {at: g.dataset.at, name: g.dataset.name, box: box(g), body: body ? box(body) : box(g),
            text: [...g.querySelectorAll("text.piece-label:not(.badge-text)")].map((t) => t.textContent)};
  });
  const m = board.getScreenCTM();
  const wrap = board.parentElement;
  return {labels, pieces, cell: Number(board.dataset.unit) * Math.hypot(m.a, m.b),
          frame: [wrap.scrollWidth, wrap.clientWidth], sideways: document.documentElement.scrollWidth
          - document.documentElement.clientWidth,
          status: [...document.querySelectorAll(".status li")].map((li) => li.textContent)};
}
"""


def overlap(a: list[float], b: list[float]) -> tuple[float, float]:
    return min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])


def covered_labels(m: dict[str, Any]) -> list[str]:
    out = []
    for lab in m["labels"]:
        for p in m["pieces"]:
            w, h = overlap(lab["box"], p["box"])
            if w > SLACK and h > SLACK:
                out.append(f"{lab['text']!r} lies under {p['name']!r} ({w:.0f}x{h:.0f} px)")
                break
    return out


def piled_pieces(m: dict[str, Any]) -> list[str]:
    out = []
    pieces = m["pieces"]
    for i, a in enumerate(pieces):
        for b in pieces[i + 1 :]:
            if a["at"] != b["at"]:
                continue
            w, h = overlap(a["body"], b["body"])
            area = max(0.0, w) * max(0.0, h)
            smaller = min((x[2] - x[0]) * (x[3] - x[1]) for x in (a["body"], b["body"]))
            if smaller > 0 and area > MAX_COVER * smaller:
                out.append(f"on {a['at']}: {a['name']!r} and {b['name']!r} share {area / smaller:.0%}")
    return out


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game_id", boardlab.games())
def test_pieces_leave_the_board_readable(game_id: str, size: str, server: Any, new_page: Any) -> None:
    page = new_page(*SIZES[size])
    take(page, server, game_id, size)
    m = page.evaluate(BOARD_JS)
    if m is None:
        pytest.skip(f"{game_id} has no board")
    found = covered_labels(m) + piled_pieces(m)
    if found:
        shot(page, f"legibility-{game_id}-{size}")
    assert found == [], "\n".join(found[:10])


def test_mini_life_draws_cells_as_pieces_and_says_the_order_in_words(server: Any, new_page: Any) -> None:
    page = new_page(1280, 800)
    take(page, server, "mini-life", "laptop")
    m = page.evaluate(BOARD_JS)
    assert m["pieces"], "no cells on the board"
    letters = [p["text"] for p in m["pieces"] if any(re.fullmatch(r"[A-Z]", t) for t in p["text"])]
    assert letters == [], f"cells drawn as letters: {letters[:4]}"
    assert all(re.search(r"(Blue|Red)'s cell", p["name"]) for p in m["pieces"]), m["pieces"][0]["name"]
    status = " | ".join(m["status"])
    assert not re.search(r"\b[BR]{3,}\b", status), status
    assert "Blue, Red, Red, Blue, Red, Blue" in status or "Red, Blue, Blue, Red, Blue, Red" in status, status


def test_common_cold_war_squares_stay_readable_on_a_phone(server: Any, new_page: Any) -> None:
    """Thirty clicks in, the tiles have spread (the window onto the table is about 20 squares wide)."""
    page = new_page(390, 844)
    game = boardlab.make("common-cold-war")
    d = create(server, game="common-cold-war", mode="hotseat", seed=1, seats=[{"kind": "human"}] * game.min_players)
    page.goto(d["links"]["host"])
    page.wait_for_selector("#table-root[data-ready='1']")
    settle(page, paint=False)
    widest, scrolled = 0.0, False
    for k in range(6):
        autoplay(page, seed=k + 1, max_clicks=6)
        settle(page, paint=False)
        m = page.evaluate(BOARD_JS)
        across = page.evaluate("() => document.querySelector('.board-wrap > svg').viewBox.baseVal.width")
        widest = max(widest, across)
        assert m["cell"] >= MIN_CELL_PX - 0.5, f"squares are {m['cell']:.1f} px ({across} squares across)"
        assert m["sideways"] <= 0, "the page scrolls sideways"
        more = page.get_attribute(".board-wrap", "data-more") or ""
        if m["frame"][0] > m["frame"][1] + 1:
            scrolled = True
            assert across * MIN_CELL_PX > m["frame"][1] - 10, "the board scrolls though it would fit"
            # the board says there is more of it, on the side there is, and says it again when scrolled to an end
            assert more and page.get_attribute(".board-wrap", "aria-label"), "a board that scrolls gives no hint"
            for end, side in (("0", "right"), ("wrap.scrollWidth", "left")):
                page.evaluate(
                    f"() => {{ const wrap = document.querySelector('.board-wrap'); wrap.scrollLeft = {end}; }}"
                )
                page.wait_for_function(
                    "side => document.querySelector('.board-wrap').dataset.more === side", arg=side, timeout=3000
                )
            shot_mask = page.evaluate("() => getComputedStyle(document.querySelector('.board-wrap')).maskImage")
            assert "gradient" in shot_mask  # the edge with more beyond it is faded
        else:
            assert more == "", "a board that fits says it scrolls"
    assert widest > 16 and scrolled, f"the tiles never spread far (at most {widest} squares across)"


#: Each visible cell name's colour and its cell's colour, as drawn (computed styles: rgb(...)).
LABEL_INK_JS = """
() => {
  const board = document.querySelector(".board-wrap > svg");
  if (!board) return null;
  const out = [];
  for (const t of board.querySelectorAll("text.coord[data-cell]")) {
    if (getComputedStyle(t).display === "none") continue;
    const cell = [...board.querySelectorAll(".cell")].find((c) => c.getAttribute("data-id") === t.getAttribute("data-cell"));
    if (!cell || cell.classList.contains("area")) continue;
    out.push({name: t.textContent, ink: getComputedStyle(t).fill, ground: getComputedStyle(cell).fill});
  }
  return out;
}
"""
#: The least contrast (WCAG's ratio) a cell's name keeps against its cell: 3 is WCAG's bar for large text.
MIN_LABEL_CONTRAST = 3.0


def _luminance(rgb: str) -> float:
    r, g, b = (int(x) / 255 for x in re.findall(r"\d+", rgb)[:3])
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two CSS ``rgb(...)`` colours.

    >>> round(contrast("rgb(0, 0, 0)", "rgb(255, 255, 255)"), 1)
    21.0
    """
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("game_id", boardlab.games())
def test_cell_names_stand_out_from_their_cells(game_id: str, server: Any, new_page: Any) -> None:
    """A cell's name is drawn light on a dark cell and dark on a light one (Train Boiler's "Coldest" and "Hottest"
    were grey on deep blue and red)."""
    page = new_page(*SIZES["laptop"])
    take(page, server, game_id, "laptop")
    labels = page.evaluate(LABEL_INK_JS)
    if not labels:
        pytest.skip(f"{game_id} names no cells")
    faint = sorted(
        {
            f"{x['name']} ({contrast(x['ink'], x['ground']):.1f})"
            for x in labels
            if contrast(x["ink"], x["ground"]) < MIN_LABEL_CONTRAST
        }
    )
    assert faint == [], f"cell names too faint on their cells: {faint[:8]}"
