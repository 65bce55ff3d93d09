"""An online Dragon Fight game between two browsers (two contexts, one invite link each): each
player sees only their own secret choice until both have chosen; then the choices are revealed
together, and the game goes on to the end."""

from __future__ import annotations

import random
from typing import Any

import pytest
from browser_helpers import create, shot, wait_ready

import boardlab
from boardlab.games.dragon_fight import ACTIONS, order_words

pytestmark = pytest.mark.browser


def choose(page: Any, rng: random.Random) -> None:
    """Click a random target; pick one of the choices if a chooser opens; confirm a move that loses at once."""
    targets = page.locator("svg g.target, .zones button.item, .buttons button")
    targets.nth(rng.randrange(targets.count())).click()
    menu = page.locator(".chooser button[role=menuitem]")
    if menu.count():
        menu.nth(rng.randrange(menu.count())).click()
    if page.locator(".chooser.confirm .confirm-yes").count():
        page.click(".chooser.confirm .confirm-yes")


def test_online_dragon_fight(server, new_page) -> None:
    if "dragon-fight" not in boardlab.games():
        pytest.skip("dragon-fight is not registered yet")
    d = create(server, game="dragon-fight", mode="online")  # hidden information: no seed (secret chance key)
    red, green = new_page(), new_page()
    red.goto(d["links"]["seats"]["0"])
    green.goto(d["links"]["seats"]["1"])
    for p in (red, green):
        wait_ready(p)
    # each sees the other arrive
    red.wait_for_selector("#seats li[data-seat='1'] .tag.on")
    green.wait_for_selector("#seats li[data-seat='0'] .tag.on")
    rng = random.Random(4)

    # first round by hand: red chooses first and waits
    red.wait_for_selector("#table-root[data-your-turn='1']")
    rev = red.get_attribute("#table-root", "data-revision")
    green_log = green.locator("#log li").count()
    # a chooser stays open while updates arrive (green leaves and comes back meanwhile)
    red.locator("svg g.target").first.click()
    red.wait_for_selector(".chooser")
    green.reload()
    wait_ready(green)
    red.wait_for_selector("#seats li[data-seat='1'] .tag.on")
    assert red.locator(".chooser button[role=menuitem]").count() >= 2
    red.keyboard.press("Escape")
    assert red.locator(".chooser").count() == 0
    choose(red, rng)
    red.wait_for_selector("#banner[data-kind='submitted']")
    assert "Waiting for the other player" in red.inner_text("#banner-title")
    mine = red.inner_text("#banner-detail")
    assert mine.startswith("You chose ")
    choice = mine.removeprefix("You chose ").split(";")[0]
    told = order_words(ACTIONS.labels.index(choice))  # how the log words that order once revealed
    # green learns that red has chosen, not what
    green.wait_for_selector("#seats li[data-seat='0'] .tag:has-text('has chosen')")
    assert green.get_attribute("#table-root", "data-revision") == rev
    assert green.locator("#log li").count() == green_log
    seen_by_green = green.inner_text("#banner") + green.inner_text("#log") + green.inner_text("#seats")
    assert choice not in seen_by_green and told not in seen_by_green
    assert green.get_attribute("#table-root", "data-your-turn") == "1"
    shot(red, "dragon-fight-red-waiting")
    shot(green, "dragon-fight-green-choosing")
    choose(green, rng)
    # revealed together: both move on at once
    for p in (red, green):
        p.wait_for_function("rev => document.getElementById('table-root').dataset.revision !== rev", arg=rev)
        assert p.locator("#log li").last.inner_text().split(": ", 1)[1].startswith("revealed together")
    # turn 1 cannot end in a collision or a flight (§3c, §3d), so red's whole order is shown to green
    assert f": {told}" in green.locator("#log li").last.inner_text()
    shot(red, "dragon-fight-red-revealed")

    # then on to the end, whoever has to choose
    for _ in range(300):
        over = [p.get_attribute("#table-root", "data-terminal") == "1" for p in (red, green)]
        if all(over):
            break
        acted = False
        for p in (red, green):
            if (
                p.get_attribute("#table-root", "data-your-turn") == "1"
                and p.get_attribute("#table-root", "data-busy") == "0"
            ):
                before = p.get_attribute("#table-root", "data-revision")
                choose(p, rng)
                p.wait_for_function(
                    "rev => { const r = document.getElementById('table-root');"
                    " return r.dataset.revision !== rev || r.dataset.yourTurn !== '1'; }",
                    arg=before,
                )
                acted = True
        if not acted:
            red.wait_for_timeout(30)
    for p in (red, green):
        p.wait_for_selector("#banner[data-kind='result']")
    assert red.inner_text("#banner-title") != green.inner_text("#banner-title") or "draw" in red.inner_text(
        "#banner-title"
    )
    shot(red, "dragon-fight-red-result")
    shot(green, "dragon-fight-green-result")
