"""The table page's move log: clicking an entry shows the position after it (read-only) while the game goes on,
"Back to the game" returns with the moves that came meanwhile; and the optional sound on your turn.

An online Blast Radius table: the page holds Orange's seat, the test plays Blue over HTTP.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from browser_helpers import create, wait_ready

pytestmark = pytest.mark.browser


def blue_moves(server: Any, d: dict[str, Any]) -> None:
    """Blue (seat 1) plays its first legal move over HTTP."""
    url = f"{server.url}/api/tables/{d['id']}"
    h = {"Authorization": f"Bearer {d['tokens']['1']}"}
    v = httpx.get(url, headers=h, timeout=20).json()
    assert v["your_turn"], v["banner"]
    r = httpx.post(url + "/moves", headers=h, json={"action": v["legal"][0][0], "revision": v["revision"]}, timeout=20)
    assert r.status_code == 200, r.text


def click_a_target(page: Any) -> None:
    rev = page.get_attribute("#table-root", "data-revision")
    page.locator("svg g.target").first.dispatch_event("click")
    page.wait_for_function(f"() => document.getElementById('table-root').dataset.revision !== '{rev}'")


def log_count(page: Any, n: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length === {n}")


def pieces(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("document.getElementById('table-root').renderedScene.pieces")


def position(server: Any, d: dict[str, Any], step: int) -> dict[str, Any]:
    r = httpx.get(
        f"{server.url}/api/tables/{d['id']}/positions/{step}",
        headers={"Authorization": f"Bearer {d['tokens']['0']}"},
        timeout=20,
    )
    assert r.status_code == 200, r.text
    return r.json()


def test_clicking_a_log_entry_shows_the_position_after_it(server, new_page) -> None:
    d = create(server, game="blast-radius", mode="online", host_seat=0)
    page = new_page(width=1280, height=800)
    page.goto(d["links"]["host"])
    wait_ready(page)
    page.wait_for_selector("#table-root[data-your-turn='1']")
    click_a_target(page)  # move 1: Orange
    blue_moves(server, d)  # move 2: Blue
    page.wait_for_selector("#table-root[data-your-turn='1']")
    click_a_target(page)  # move 3: Orange; now Blue is to move
    log_count(page, 3)
    live = pieces(page)
    page.locator("#log li").first.click()
    page.wait_for_selector("#table-root[data-looking='1']")
    assert page.inner_text("#banner-title") == "Looking at move 1 of 3"
    assert page.is_visible("#look-back")
    assert pieces(page) == position(server, d, 1)["scene"]["pieces"] != live
    assert page.locator("svg g.target").count() == 0  # a past position cannot be played from
    assert page.get_attribute("#log li:first-child", "aria-current") == "true"
    # Blue moves while Orange looks back: the log follows, the board stays on move 1
    blue_moves(server, d)
    log_count(page, 4)
    page.wait_for_function("() => document.getElementById('banner-detail').innerText.includes('1 new move')")
    assert page.get_attribute("#table-root", "data-looking") == "1"
    assert pieces(page) == position(server, d, 1)["scene"]["pieces"]
    # another entry, then back to the game: the latest position, Orange to move
    page.locator("#log li").nth(2).click()
    page.wait_for_selector("#table-root[data-looking='3']")
    assert pieces(page) == position(server, d, 3)["scene"]["pieces"]
    page.click("#look-back")
    page.wait_for_selector("#table-root[data-your-turn='1']")
    assert page.get_attribute("#table-root", "data-looking") == ""
    assert page.inner_text("#banner-title") == "Your turn"
    assert pieces(page) == position(server, d, 4)["scene"]["pieces"]
    assert page.locator("svg g.target").count() > 0
    assert page.is_hidden("#look-back")
    # the keyboard works too: Enter on an entry, Escape to come back
    page.locator("#log li").nth(1).focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#table-root[data-looking='2']")
    page.keyboard.press("Escape")
    page.wait_for_selector("#table-root[data-your-turn='1']")


def test_an_optional_sound_when_it_becomes_your_turn(server, new_page) -> None:
    d = create(server, game="blast-radius", mode="online", host_seat=0)
    page = new_page(width=1280, height=800)
    page.goto(d["links"]["host"])
    wait_ready(page)
    page.wait_for_selector("#table-root[data-your-turn='1']")
    sound = page.locator("#sound")
    assert sound.get_attribute("aria-pressed") == "false"  # off by default
    # with the sound off, a new turn plays nothing
    click_a_target(page)
    blue_moves(server, d)
    page.wait_for_selector("#table-root[data-your-turn='1']")
    assert page.evaluate("window.boardlab.turnBeeps") == 0
    sound.click()
    assert sound.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('boardlab.turnSound')") == "on"
    page.reload()  # remembered
    wait_ready(page)
    page.wait_for_selector("#table-root[data-your-turn='1']")
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    assert page.evaluate("window.boardlab.turnBeeps") == 0  # loading the page is not a new turn
    click_a_target(page)
    page.wait_for_selector("#table-root[data-your-turn='0']")
    blue_moves(server, d)
    page.wait_for_selector("#table-root[data-turn-beeps='1']")
    assert page.evaluate("window.boardlab.turnBeeps") == 1
