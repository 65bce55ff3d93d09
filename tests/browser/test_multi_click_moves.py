"""A move made of several clicks (a target's ``steps``), drawn as what it is: Triad's setup places the five units
onto the home row one by one (a unit waiting in front of the home row, then its square), not a wall of sixty text
buttons; each unit placed stands on its square until the last square plays the move, and a button begins it again.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import create

pytestmark = pytest.mark.browser

#: What can be clicked now: the scene's buttons, the items and board places on offer, the pieces drawn.
OFFER_JS = """
() => ({buttons: [...document.querySelectorAll(".buttons button")].map((b) => b.textContent),
  items: [...document.querySelectorAll(".zones button.item")].map((b) => b.dataset.item),
  places: [...document.querySelectorAll("svg g.target")].map((g) => g.dataset.at),
  placing: [...document.querySelectorAll("svg .piece.placing")].map((g) => g.dataset.at),
  pieces: [...document.querySelectorAll("svg .layer-pieces .piece")].map((g) => g.dataset.at),
  home: [...document.getElementById("table-root").renderedScene.cells].map((c) => c.id)
    .filter((id) => /^sq-[a-e][15]$/.test(id)),
  prompt: document.getElementById("banner-detail").textContent,
  revision: document.getElementById("table-root").dataset.revision})
"""


def past_pass(page: Any) -> dict[str, Any]:
    """Past a pass-the-device screen, if one is up: what the seat to move is offered."""
    page.wait_for_selector("#pass:not(.hidden), #table-root[data-your-turn='1'][data-busy='0']")
    if page.locator("#pass:not(.hidden)").count():
        page.click("#pass-go")
        page.wait_for_selector("#table-root[data-your-turn='1'][data-busy='0']")
    return page.evaluate(OFFER_JS)


def share(page: Any, first: str, second: str) -> None:
    """The ammunition split: a Defence Centre for each card, played at the second click."""
    rev = page.evaluate(OFFER_JS)["revision"]
    page.click(f"svg g.target[data-at='{first}']")
    page.click(f"svg g.target[data-at='{second}']")
    page.wait_for_function(f"() => document.getElementById('table-root').dataset.revision !== '{rev}'")


def to_deploy(page: Any) -> None:
    """Past the pass screen and the ammunition split (a Defence Centre twice), to the deployment."""
    for _ in range(6):
        m = past_pass(page)
        if "home row" in m["prompt"]:
            return
        share(page, m["places"][0], m["places"][0])
    raise AssertionError("never reached the deployment")


@pytest.mark.parametrize(
    ("clicks", "said"),
    [(("sq-b1", "sq-d1"), "one ammunition behind each"), (("sq-d1", "sq-d1"), "both ammunition behind the right")],
)
def test_triads_ammunition_is_shared_by_clicking_its_defence_centres(
    clicks: tuple[str, str], said: str, server: Any, new_page: Any
) -> None:
    d = create(server, game="triad", mode="hotseat", seed=2, seats=[{"kind": "human"}] * 2)
    page = new_page(1280, 800)
    page.goto(d["links"]["host"])
    page.wait_for_selector("#table-root[data-ready='1']")
    m = past_pass(page)
    assert "Defence Centres" in m["prompt"] and m["buttons"] == [], "the split is worded buttons"
    assert sorted(m["places"]) == ["sq-b1", "sq-d1"], "Orange's two Defence Centres, and nothing else"
    page.click(f"svg g.target[data-at='{clicks[0]}']")
    after = page.evaluate(OFFER_JS)
    assert sorted(after["places"]) == ["sq-b1", "sq-d1"], "the second card may go to either"
    assert after["revision"] == m["revision"] and "Begin this move again" in after["buttons"]
    page.click(f"svg g.target[data-at='{clicks[1]}']")
    page.wait_for_function("said => document.getElementById('log').textContent.includes(said)", arg=said)
    assert "home row" in past_pass(page)["prompt"]


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_triads_setup_places_units_on_squares_one_by_one(size: tuple[int, int], server: Any, new_page: Any) -> None:
    d = create(server, game="triad", mode="hotseat", seed=2, seats=[{"kind": "human"}] * 2)
    page = new_page(*size)
    page.goto(d["links"]["host"])
    page.wait_for_selector("#table-root[data-ready='1']")
    to_deploy(page)
    m = page.evaluate(OFFER_JS)
    assert len(m["buttons"]) <= 1, f"the setup is a wall of {len(m['buttons'])} buttons"
    assert len(m["places"]) >= 1 and len(m["pieces"]) == 5, "first a waiting unit is picked, on the board"
    assert not set(m["places"]) & set(m["home"]), "the home squares come second"
    rev = m["revision"]
    for k in range(5):
        page.click(f"svg g.target[data-at='{m['places'][0]}']")
        m = page.evaluate(OFFER_JS)
        assert len(m["places"]) == 1 and m["places"][0] in m["home"], f"unit {k + 1}: one square to put it on, {m}"
        assert "Begin this move again" in m["buttons"]
        square = m["places"][0]
        page.click(f"svg g.target[data-at='{square}']")
        if k < 4:
            m = page.evaluate(OFFER_JS)
            assert square in m["placing"] and len(m["placing"]) == k + 1, m
            assert m["revision"] == rev, "the move is played only at the last square"
    page.wait_for_function(f"() => document.getElementById('table-root').dataset.revision !== '{rev}'")
    page.wait_for_function("() => document.getElementById('log').textContent.includes('places its units')")


def test_a_move_of_several_clicks_begins_again(server: Any, new_page: Any) -> None:
    d = create(server, game="triad", mode="hotseat", seed=2, seats=[{"kind": "human"}] * 2)
    page = new_page(1280, 800)
    page.goto(d["links"]["host"])
    page.wait_for_selector("#table-root[data-ready='1']")
    to_deploy(page)
    first = page.evaluate(OFFER_JS)
    page.click("svg g.target >> nth=0")
    page.click("svg g.target")
    assert len(page.evaluate(OFFER_JS)["placing"]) == 1
    page.click(".buttons button:has-text('Begin this move again')")
    again = page.evaluate(OFFER_JS)
    assert again["placing"] == [] and again["pieces"] == first["pieces"] and again["revision"] == first["revision"]
