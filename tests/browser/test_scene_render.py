"""The browser renderer draws the scene's cards, dice, pictures and face-down pieces (the scene demo game).

The server cannot register a test-only game, so the demo's scenes (built in Python by
tests/scene_minigame.py) are handed to the page's own render.js on a page of the server's origin;
every registered game's scenes, as the table page draws them, are checked against the schema by
test_every_game.py.
"""

from __future__ import annotations

import json

import pytest
from browser_helpers import shot

from boardlab.core.scene import SEAT_COLOURS, check_scene
from scene_minigame import SceneDemoGame

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="/static/style.css"></head>
<body><main id="table-root" class="table-layout"><section>
<div class="board-wrap"></div><div class="buttons"></div><div class="zones"></div></section>
<aside><ul class="status"></ul></aside></main>
<script type="module">
import { renderScene } from "/static/js/render.js";
window.draw = (scene, legal) => {
  renderScene(document.getElementById("table-root"), scene, { interactive: true, onAction: (a) => { window.played = a; }, legal });
  document.body.dataset.drawn = String(Number(document.body.dataset.drawn || 0) + 1);
};
document.body.dataset.ready = "1";
</script></body></html>"""


def demo(viewer: int) -> tuple[dict, list]:
    state = SceneDemoGame().new_initial_state()
    state.apply_action(5)  # chance rolls a five
    legal = state.legal_moves(viewer)
    scene = state.scene(viewer)
    assert check_scene(scene, legal) == []
    return scene, [list(m) for m in legal]


def open_demo(server, new_page, viewer: int):
    page = new_page(width=900, height=900)
    url = server.url + "/scene-demo-test"
    page.route(url, lambda route: route.fulfill(status=200, content_type="text/html", body=PAGE))
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    scene, legal = demo(viewer)
    page.evaluate("([s, l]) => window.draw(s, l)", [scene, legal])
    page.wait_for_selector("body[data-drawn='1']")
    return page


def test_cards_dice_pictures_and_owner_coloured_backs(server, new_page) -> None:
    page = open_demo(server, new_page, viewer=0)
    # A die with value 5 has five pips.
    die = page.locator(".zone[data-zone='dice'] svg.die-face")
    assert die.get_attribute("data-value") == "5"
    assert die.locator("circle.pip-dot").count() == 5
    # Cards are 5:7 with their value in the corners (and the suit under it).
    seven = page.locator(".item[data-item='card0'] svg.card-face")
    assert seven.get_attribute("viewBox") == "0 0 50 70"
    assert seven.locator(".corner-value").all_text_contents() == ["7", "7"]
    assert seven.locator(".corner-suit").first.text_content() == "\u2665"
    box = seven.bounding_box()
    assert abs(box["width"] / box["height"] - 5 / 7) < 0.02
    # The T tetromino card has four filled squares; the fence card has four strokes.
    assert page.locator(".item[data-item='card2'] rect.picture-cell").count() == 4
    assert page.locator(".item[data-item='fence'] polyline.picture-stroke").count() == 4
    assert page.locator(".item[data-item='star'] polyline.picture-stroke").count() == 1
    # Blue's sentries stand face down, filled with Blue's colour (not grey, no rank shown).
    sentries = page.locator("svg g.piece.face-down")
    assert sentries.count() == 2
    for k in range(2):
        top = sentries.nth(k).locator("circle").first
        assert top.get_attribute("fill").lower() == SEAT_COLOURS[1].lower()
    assert "8" not in page.locator(".board-wrap").inner_text()
    # Clicking a card plays it.
    page.locator(".zones button.item[data-item='card1']").click()
    assert page.evaluate("window.played") == 1
    shot(page, "scene-demo-red")


def test_card_backs_show_their_owner_colour(server, new_page) -> None:
    page = open_demo(server, new_page, viewer=1)
    backs = page.locator(".zone[data-zone='hand'] svg.card-back")
    assert backs.count() == 3
    for k in range(3):
        assert backs.nth(k).get_attribute("data-fill").lower() == SEAT_COLOURS[0].lower()
        assert backs.nth(k).locator("rect.back").get_attribute("fill").lower() == SEAT_COLOURS[0].lower()
    assert page.locator(".zone[data-zone='hand'] .item .label").all_inner_texts() == ["face down"] * 3
    assert page.locator("svg g.piece.face-down").count() == 0  # Blue sees its own sentries
    assert page.locator("svg g.piece text").all_text_contents().count("8") == 1
    shot(page, "scene-demo-blue")
    json.dumps(demo(1)[0])
