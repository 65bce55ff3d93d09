"""Common Cold War, Fences and Combat look like the games they are, as a new player sees them at 1280x800 (and
390x844 where the layout differs): boards as wide as their panel, tiles and cards drawn as pictures large enough to
read, symbols as icons named on hover, a hand shows one picture per card, the last move's mark lies under the lines
just laid, troops are deployed by clicking their pictures near the top, the grids say whose they are and which row is
the front, and labels stay inside their squares.

Common Cold War and Combat are played on real hot-seat tables (the layout of the table page matters); Fences'
positions with cards in hand are found by playing in Python and drawn by the page's own render.js, as
test_scene_render.py does.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from browser_helpers import create, shot, wait_ready
from test_scene_render import PAGE

import boardlab
from boardlab.core.scene import check_scene

pytestmark = pytest.mark.browser


def pass_screen(page: Any) -> None:
    page.wait_for_selector("#pass:not(.hidden), #table-root[data-your-turn='1'][data-busy='0']")
    if page.locator("#pass:not(.hidden)").count():
        page.click("#pass-go")
        page.wait_for_selector("#table-root[data-your-turn='1'][data-busy='0']")


def play_seeded(page: Any, moves: int, seed: int) -> None:
    """Click ``moves`` legal moves chosen by a seeded generator (a picked item, then one of its places)."""
    rng = random.Random(seed)
    for _ in range(moves):
        pass_screen(page)
        rev = page.get_attribute("#table-root", "data-revision")
        targets = page.locator("svg g.target, .zones button.item, .buttons button")
        t = targets.nth(rng.randrange(targets.count()))
        picked = t.get_attribute("data-pick")
        t.dispatch_event("click")
        if picked:
            board = page.locator("svg g.target")
            board.nth(rng.randrange(board.count())).dispatch_event("click")
        menu = page.locator(".chooser button[role=menuitem]")
        if menu.count():
            menu.nth(rng.randrange(menu.count())).click()
        page.wait_for_function(f"() => document.getElementById('table-root').dataset.revision !== '{rev}'")
    pass_screen(page)
    page.wait_for_timeout(400)  # the last move's animation


BOARD_JS = """
() => {
  const wrap = document.querySelector(".board-wrap");
  const cs = getComputedStyle(wrap);
  const inner = wrap.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const svg = wrap.querySelector(":scope > svg");
  const box = (e) => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const visible = (t) => getComputedStyle(t).display !== "none";
  return {
    inner, board: box(svg),
    areas: [...svg.querySelectorAll("polygon.area")].map((p) => p.dataset.id),
    areaCells: document.getElementById("table-root").renderedScene.cells.filter((c) => c.kind === "area").length,
    symbols: [...svg.querySelectorAll("g.piece")].map((g) => ({...box(g), title: g.querySelector("title").textContent,
      picture: !!g.querySelector("g.picture")})),
    texts: [...svg.querySelectorAll("text")].filter(visible).map((t) => ({text: t.textContent,
      px: t.getBoundingClientRect().height, cls: t.getAttribute("class") || ""})),
    status: [...document.querySelectorAll(".status li")].map((l) => l.innerText),
  };
}
"""


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_common_cold_war_tiles_are_pictures_on_a_board_as_wide_as_its_panel(size, server, new_page) -> None:
    d = create(server, game="common-cold-war", mode="hotseat", seed=3)
    page = new_page(width=size[0], height=size[1])
    page.goto(d["links"]["host"])
    wait_ready(page)
    play_seeded(page, 9, seed=3)
    shot(page, f"art-common-cold-war-{size[0]}")
    m = page.evaluate(BOARD_JS)
    assert m["board"]["w"] >= 0.8 * m["inner"], m["board"]  # the board fills its panel (it was 300 of 815 px)
    # every tile on the table is one picture of a tile (its colour, its name), not squares with letters
    assert len(m["areas"]) == m["areaCells"] >= 2
    symbols = [p for p in m["symbols"] if p["picture"]]
    assert len(symbols) == 4 * m["areaCells"]
    names = ("flip", "destroy", "return", "protection", "overtake")
    for p in symbols:  # an icon, named in words on hover
        assert any(f": {n} (" in p["title"] for n in names), p["title"]
        if size[0] == 1280:
            assert p["w"] >= 18 and p["h"] >= 18, p
    for t in m["texts"]:
        assert t["text"] not in ("F", "D", "R", "P", "O"), t  # no 6 px letters for symbols
        assert t["px"] >= 10.5, t  # every word on the board reads (11 px fonts; the box is a little smaller)
    assert [t for t in m["texts"] if "area-label" in t["cls"]]  # the tiles' names are drawn on them
    for line in m["status"]:
        assert not re.search(r"\b[FDRPO]{4}\b", line), line  # no "T4 red FFFR at j13"
    # the legend: the symbols' icons with what they do, in words
    legend = page.locator(".zone[data-zone='symbols'] .item")
    assert legend.count() == 5
    assert "turns to the other colour" in (legend.nth(0).get_attribute("title") or "")


# -- Fences: positions from Python, drawn by render.js ------------------------------------------------------------


def fences_position(want: Any, seed: int = 0) -> tuple[Any, int]:
    """A Fences position (and the seat to move) that ``want(state)`` accepts, from seeded random play."""
    game = boardlab.make("fences")
    for k in range(200):
        rng = random.Random(seed + k)
        s = game.new_initial_state()
        for _ in range(400):
            if s.is_terminal():
                break
            p = s.current_player()
            if p >= 0 and want(s):
                return s, p
            if p < 0:
                outcomes = s.chance_outcomes()
                s.apply_action(rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
    raise AssertionError("no such position")


def draw(page: Any, state: Any, viewer: int) -> dict[str, Any]:
    legal = state.legal_moves(viewer)
    scene = state.scene(viewer)
    assert check_scene(scene, legal) == []
    n = int(page.evaluate("() => Number(document.body.dataset.drawn || 0)"))
    page.evaluate("([s, l]) => window.draw(s, l)", [scene, [list(x) for x in legal]])
    page.wait_for_selector(f"body[data-drawn='{n + 1}']")
    return scene


def demo_page(server: Any, new_page: Any, width: int = 1280, height: int = 800) -> Any:
    page = new_page(width=width, height=height)
    url = server.url + "/game-art-test"
    page.route(url, lambda route: route.fulfill(status=200, content_type="text/html", body=PAGE))
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    return page


def test_fences_hands_show_one_large_picture_per_card(server, new_page) -> None:
    state, viewer = fences_position(lambda s: sum(len(h) for h in s.observation(None)["hands"]) >= 3)
    page = demo_page(server, new_page)
    scene = draw(page, state, viewer)
    hands = [z for z in scene["zones"] if z["id"].startswith("hand")]
    for z in hands:
        cards = int(re.search(r"(\d+) cards?", z["title"]).group(1))
        drawn = page.locator(f".zone[data-zone='{z['id']}'] .item svg.figure")
        assert drawn.count() == cards, z["title"]  # "Blue's hand: 2 cards" showed 4 pictures
        for k in range(cards):  # both sides of the card, each 2 x 3 squares, big enough to follow the lines
            box = drawn.nth(k).bounding_box()
            assert box["width"] >= 90 and box["height"] >= 55, box
    assert sum(int(re.search(r"(\d+) cards?", z["title"]).group(1)) for z in hands) >= 3
    shot(page, "art-fences-hand")


def test_fences_ways_to_lay_a_card_are_large_and_distinct(server, new_page) -> None:
    state, viewer = fences_position(lambda s: s.phase == "lay" and len(s.legal_actions()) >= 4)
    page = demo_page(server, new_page)
    draw(page, state, viewer)
    ways = page.locator(".zone[data-zone='lay'] .item svg.figure")
    assert ways.count() >= 4
    shapes = set()
    for k in range(ways.count()):
        box = ways.nth(k).bounding_box()
        # a side is 2 x 3 squares, drawn 26 px a square (a little less when the hands are drawn compact): upright it stands, turned it lies across
        assert min(box["width"], box["height"]) >= 50 and max(box["width"], box["height"]) >= 75, box
        shapes.add((round(box["width"]), round(box["height"]), ways.nth(k).inner_html()))
    assert len(shapes) == ways.count()  # no two ways look the same
    shot(page, "art-fences-ways")


def test_fences_last_card_mark_lies_under_the_lines_just_laid(server, new_page) -> None:
    state, viewer = fences_position(lambda s: s.observation(None)["last_played"] is not None and len(s.table) >= 2)
    page = demo_page(server, new_page)
    scene = draw(page, state, viewer)
    last = state.observation(None)["last_played"]
    marks = [h["at"] for h in scene["highlights"] if h["kind"] == "last"]
    assert marks == [f"card{last}-edge{k}" for k in range(4)]  # the card's outline, not each of its squares
    covered = page.evaluate(
        """(last) => {
      const lines = [...document.querySelectorAll(`svg line.kind-fence[data-id^="card${last}-"]`)];
      const out = [];
      for (const l of lines) {
        const r = l.getBoundingClientRect();
        const at = document.elementsFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        const mark = at.findIndex((e) => e.classList.contains("hl"));
        const self = at.indexOf(l);
        if (self < 0 || (mark >= 0 && mark < self)) out.push(l.dataset.id);
      }
      return {lines: lines.length, covered: out};
    }""",
        last,
    )
    assert covered["lines"] >= 2 and covered["covered"] == [], covered
    shot(page, "art-fences-last")


# -- Combat: a real hot-seat table ---------------------------------------------------------------------------------


LABELS_JS = """
() => {
  const svg = document.querySelector(".board-wrap > svg");
  const out = [];
  for (const t of svg.querySelectorAll("g.piece text")) {
    const at = t.closest("g.piece").dataset.at;
    const cell = svg.querySelector(`polygon.cell[data-id="${at}"]`);
    const a = t.getBoundingClientRect(), b = cell.getBoundingClientRect();
    out.push({at, text: t.textContent, inside: a.left >= b.left - 0.5 && a.right <= b.right + 0.5
      && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5});
  }
  return {labels: out, captions: [...svg.querySelectorAll("text.caption")].map((t) => t.textContent)};
}
"""


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_combat_troops_are_deployed_by_their_pictures_near_the_top(size, server, new_page) -> None:
    d = create(server, game="combat", mode="hotseat", options={"first": "orange"})
    page = new_page(width=size[0], height=size[1])
    page.goto(d["links"]["host"])
    wait_ready(page)
    pass_screen(page)
    picks = page.locator(".zones button.item[data-pick]")
    assert picks.count() == 5
    for k in range(5):  # each troop to deploy is a picture, in the first screen without scrolling
        box = picks.nth(k).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= size[1], box
        assert picks.nth(k).locator("svg.figure g.picture").count() == 1
    m = page.evaluate(LABELS_JS)
    assert "Your troops (Orange)" in m["captions"] and "Blue's troops" in m["captions"]
    assert m["captions"].count("front") == 2 and m["captions"].count("back") == 2
    if size[0] == 1280:
        shot(page, "art-combat-deploy")
    for _ in range(10):  # every troop of both commanders: pick its picture, then click a slot
        pass_screen(page)
        rev = page.get_attribute("#table-root", "data-revision")
        pick = page.locator(".zones button.item[data-pick]").last
        name = pick.get_attribute("data-pick")
        pick.click()
        assert page.get_attribute("#table-root", "data-pick") == name
        slot = page.locator("svg g.target").first
        assert "," not in (slot.get_attribute("data-actions") or "")  # one move per slot once a troop is picked
        slot.dispatch_event("click")
        page.wait_for_function(f"() => document.getElementById('table-root').dataset.revision !== '{rev}'")
    page.wait_for_timeout(400)
    m = page.evaluate(LABELS_JS)
    assert len(m["labels"]) >= 8  # the troops stand face up once all are deployed
    assert [x for x in m["labels"] if not x["inside"]] == []  # "Me", "Sw*" stay inside their squares
    shot(page, f"art-combat-battle-{size[0]}")
