"""What changed between two views is marked and briefly animated, except with prefers-reduced-motion.

The page's own render.js draws two scenes of the scene demo game one after the other (as the table page does for
consecutive views of one seat): Red's scout goes from b1 to b2 and the game marks only b1 as its last move. The
renderer marks b2 as well (where the piece went), the scout arrives there with an animation and a fading copy
leaves b1; with reduced motion the marks stay and nothing moves.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from test_scene_render import demo

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="/static/style.css"></head>
<body><main id="table-root" class="table-layout"><section>
<div class="board-wrap"></div><div class="buttons"></div><div class="zones"></div></section>
<aside><ul class="status"></ul></aside></main>
<script type="module">
import { renderScene } from "/static/js/render.js";
window.draw = (scene) => renderScene(document.getElementById("table-root"), scene, { animate: true });
document.body.dataset.ready = "1";
</script></body></html>"""

STATE_JS = """
() => {
  const q = (s) => document.querySelectorAll(s).length;
  const arrive = document.querySelector("svg .piece.arrive");
  return {
    movedAt: [...new Set([...document.querySelectorAll("svg .hl-moved")].map((e) => e.dataset.at))],
    arrive: [...document.querySelectorAll("svg .piece.arrive")].map((e) => e.dataset.at),
    leave: [...document.querySelectorAll("svg .piece.leave")].map((e) => e.dataset.at),
    fresh: q("svg .fresh"),
    arriveAnimation: arrive ? getComputedStyle(arrive).animationName : null,
    animations: document.getAnimations().length,
  };
}
"""


def scenes() -> tuple[dict[str, Any], dict[str, Any]]:
    before, _ = demo(0)
    after = copy.deepcopy(before)
    scout = next(p for p in after["pieces"] if p["kind"] == "scout")
    scout["at"] = "b2"
    after["highlights"] = [{"at": "b1", "kind": "last"}]  # the game marks only where the scout left
    after["targets"] = []
    return before, after


def open_page(browser: Any, server: Any, reduced: bool) -> tuple[Any, Any]:
    ctx = browser.new_context(viewport={"width": 900, "height": 900}, reduced_motion="reduce" if reduced else None)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    url = server.url + "/motion-test"
    page.route(url, lambda route: route.fulfill(status=200, content_type="text/html", body=PAGE))
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    page.errors = errors
    return ctx, page


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
def test_a_move_is_marked_where_the_piece_went_and_animates_unless_reduced(browser, server, reduced: bool) -> None:
    before, after = scenes()
    ctx, page = open_page(browser, server, reduced)
    try:
        page.evaluate("(s) => window.draw(s)", before)
        first = page.evaluate(STATE_JS)
        assert first["movedAt"] == [] and first["arrive"] == []  # nothing drawn before: nothing changed
        page.evaluate("(s) => window.draw(s)", after)
        now = page.evaluate(STATE_JS)
        assert now["movedAt"] == ["b2"]  # the game marked b1; the renderer marks where the scout went
        assert page.locator("svg .hl-last[data-at='b1']").count() >= 1
        if reduced:
            assert now["arrive"] == [] and now["leave"] == [] and now["fresh"] == 0
            assert now["animations"] == 0
        else:
            assert now["arrive"] == ["b2"] and now["leave"] == ["b1"] and now["fresh"] > 0
            assert now["arriveAnimation"] == "piece-arrive" and now["animations"] > 0
            page.wait_for_function("() => !document.querySelector('svg .piece.leave')", timeout=3000)
        # the same view drawn again (a player came online): the mark stays, nothing animates again
        page.evaluate("(s) => window.draw(s)", after)
        again = page.evaluate(STATE_JS)
        assert again["movedAt"] == ["b2"] and again["arrive"] == [] and again["fresh"] == 0
        assert page.errors == []
    finally:
        ctx.close()
