"""A solo New Rule game made in the lobby: one player, coin flips, click by click to the shared result."""

from __future__ import annotations

import random

import pytest
from browser_helpers import autoplay, shot, wait_ready

import boardlab

pytestmark = pytest.mark.browser


def test_solo_new_rule(server, new_page) -> None:
    if "new-rule" not in boardlab.games():
        pytest.skip("new-rule is not registered yet")
    page = new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#lobby[data-ready='1']")
    page.click("[data-new='new-rule']")
    page.select_option("#num-players", "1")
    assert page.locator("#seats .seat-row").count() == 1
    assert page.locator("input[name=mode][value=ai]").is_disabled()  # nobody to play against alone
    page.click("#create-go")
    wait_ready(page)
    assert page.locator("#seats li").count() == 1
    # the first moves by real clicks on the board, then the rest click by click from the page itself
    rng = random.Random(6)
    root = page.locator("#table-root")
    for _ in range(3):
        page.wait_for_selector("#table-root[data-your-turn='1'][data-busy='0'], #table-root[data-terminal='1']")
        if root.get_attribute("data-terminal") == "1":
            break
        rev = root.get_attribute("data-revision")
        targets = page.locator("svg g.target, .zones button.item, .buttons button")
        targets.nth(rng.randrange(targets.count())).click()
        page.wait_for_function("rev => document.getElementById('table-root').dataset.revision !== rev", arg=rev)
    shot(page, "new-rule-solo-playing")
    result = autoplay(page, seed=11)
    assert result.get("over"), result
    title = page.inner_text("#banner-title")
    assert title in ("Everyone wins!", "Everyone loses.")
    assert any(entry.startswith("Chance") for entry in page.locator("#log li").all_inner_texts())  # coin flips
    shot(page, "new-rule-solo-result")
