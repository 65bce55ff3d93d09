"""The end of a game: a result panel in view (1280x800, no scrolling) with the result in the player's terms, the
final scores and how it was won; Rematch (seats swapped), New game and Back to the lobby; no stale 'has chosen' or
'Withdraw my choice' once the game is over."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import autoplay, create, shot, wait_ready

import boardlab

pytestmark = pytest.mark.browser

W, H = 1280, 800


def panel_in_view(page: Any) -> None:
    """The result panel shows, wholly inside the window, at whatever scroll the page is."""
    page.wait_for_selector("#result:not(.hidden)")
    for y in (0, 10_000):
        page.evaluate("y => window.scrollTo(0, y)", y)
        box = page.evaluate(
            "() => { const r = document.getElementById('result').getBoundingClientRect();"
            " return [r.left, r.top, r.right, r.bottom]; }"
        )
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= W and box[3] <= H, box
    page.evaluate("window.scrollTo(0, 0)")


def test_result_panel_and_rematch_against_the_ai(server, new_page) -> None:
    d = create(
        server,
        game="blast-radius",
        options={"board_side": 5},
        mode="ai",
        seats=[{"kind": "human", "name": "Ada"}, {"kind": "ai", "agent": "random"}],
    )
    page = new_page(W, H)
    page.goto(d["links"]["host"])
    wait_ready(page)
    assert page.locator("#result").is_hidden()
    out = autoplay(page, seed=3)
    assert out.get("over"), out
    panel_in_view(page)
    title = page.inner_text("#result-title")
    assert title == "You win!" or title == "You lose: Blue wins.", title
    assert page.inner_text("#result-how")  # how it was won, in the game's words
    assert "pieces" in page.inner_text("#result-scores")  # the final scores (the game's status lines)
    assert page.locator("#result-seats li").count() == 2
    assert "Ada (you)" in page.inner_text("#result-seats")
    assert page.get_attribute("#to-lobby", "href") == "/"
    assert page.get_attribute("#new-game", "href") == "/#new=blast-radius"
    assert page.locator("#undo").is_hidden()
    shot(page, "table-end-result")
    # the panel can be put away to look at the board, and brought back
    page.click("#result-close")
    assert page.locator("#result").is_hidden()
    page.click("#show-result")
    page.wait_for_selector("#result:not(.hidden)")

    page.click("#rematch")
    page.wait_for_url(lambda url: d["id"] not in url)
    wait_ready(page)
    v = page.evaluate("window.boardlab.view")
    assert v["table"]["id"] != d["id"] and v["table"]["game"] == "blast-radius"
    assert v["table"]["options"] == d["table"]["options"] and v["table"]["mode"] == "ai"
    assert v["seat"] == 1 and v["seats"][1]["name"] == "Ada" and v["seats"][0]["kind"] == "ai"
    assert not v["terminal"] and page.locator("#result").is_hidden()


def test_new_game_opens_the_games_form(server, new_page) -> None:
    page = new_page(W, H)
    page.goto(server.url + "/#new=blast-radius")
    page.wait_for_selector("dialog#create[open]")
    assert "Blast Radius" in page.inner_text("#create-title")


def test_online_rematch_reaches_the_other_player(server, new_page) -> None:
    d = create(server, game="blast-radius", options={"board_side": 5}, mode="online", seed=5)
    a, b = new_page(W, H), new_page(W, H)
    a.goto(d["links"]["seats"]["0"])
    b.goto(d["links"]["seats"]["1"])
    for p in (a, b):
        wait_ready(p)
    # play it out: whoever's turn it is clicks
    for _ in range(400):
        if all(p.get_attribute("#table-root", "data-terminal") == "1" for p in (a, b)):
            break
        for p in (a, b):
            if (
                p.get_attribute("#table-root", "data-your-turn") == "1"
                and p.get_attribute("#table-root", "data-busy") == "0"
            ):
                rev = p.get_attribute("#table-root", "data-revision")
                p.locator("svg g.target").first.click()
                p.wait_for_function("r => document.getElementById('table-root').dataset.revision !== r", arg=rev)
        a.wait_for_timeout(20)
    for p in (a, b):
        panel_in_view(p)
        assert p.inner_text("#rematch") == "Rematch"
    titles = {a.inner_text("#result-title"), b.inner_text("#result-title")}
    assert "You win!" in titles and any(t.startswith("You lose: ") for t in titles), titles
    a.click("#rematch")
    a.wait_for_url(lambda url: d["id"] not in url)
    wait_ready(a)
    # b hears of it on its old table, and its button opens its own new seat
    b.wait_for_selector("#rematch:has-text('Play the rematch')")
    assert "rematch is ready" in b.inner_text("#result-note")
    b.click("#rematch")
    b.wait_for_url(lambda url: d["id"] not in url)
    wait_ready(b)
    va, vb = a.evaluate("window.boardlab.view"), b.evaluate("window.boardlab.view")
    assert va["table"]["id"] == vb["table"]["id"] != d["id"]
    assert (va["seat"], vb["seat"]) == (1, 0)


def test_no_stale_choice_after_a_dragon_fight(server, new_page) -> None:
    if "dragon-fight" not in boardlab.games():
        pytest.skip("dragon-fight is not registered")
    d = create(server, game="dragon-fight", mode="ai", seats=[{"kind": "human"}, {"kind": "ai", "agent": "random"}])
    page = new_page(W, H)
    page.goto(d["links"]["host"])
    wait_ready(page)
    out = autoplay(page, seed=7)
    assert out.get("over"), out
    panel_in_view(page)
    assert page.locator("#seats .tag:has-text('has chosen')").count() == 0
    assert page.locator("#undo").is_hidden()
    assert "Withdraw" not in page.inner_text("main")
