"""The lobby shows every game's one-sentence balance verdict from its report on file (docs/balance/<id>.md), and no
verdict line for a game that has none."""

from __future__ import annotations

import json
from typing import Any

import pytest

from boardlab.docs import balance_verdict
from boardlab.games import games

pytestmark = pytest.mark.browser


def cards(page: Any) -> dict[str, str | None]:
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#games .game-card')].map((c) =>
             [c.dataset.game, c.querySelector('.balance-verdict')?.innerText ?? null]))"""
    )


def test_the_lobby_shows_each_game_s_balance_verdict(server: Any, new_page: Any) -> None:
    page = new_page(1280, 800)
    page.goto(server.url)
    page.wait_for_selector("#lobby[data-ready='1']")
    shown = cards(page)
    assert set(shown) == set(games())
    for game_id, line in shown.items():
        verdict = balance_verdict(game_id)
        assert line == (f"Balance: {verdict}" if verdict else None), game_id
    assert shown["blast-radius"] and "first" in shown["blast-radius"]
    assert page.locator("[data-game='blast-radius'] .balance-verdict").is_visible()


def test_a_game_without_a_balance_report_shows_no_verdict(server: Any, new_page: Any) -> None:
    # every registered game has its report on file, so the server is made to list one without (as for a new game)
    page = new_page()

    def without_hamlet_s(route: Any) -> None:
        data = route.fetch().json()
        for g in data["games"]:
            if g["id"] == "hamlet":
                g["balance_verdict"] = None
        route.fulfill(status=200, content_type="application/json", body=json.dumps(data))

    page.route("**/api/games", without_hamlet_s)
    page.goto(server.url)
    page.wait_for_selector("#lobby[data-ready='1']")
    shown = cards(page)
    assert shown["hamlet"] is None and page.locator("[data-game='hamlet'] .balance-verdict").count() == 0
    assert shown["blast-radius"] == f"Balance: {balance_verdict('blast-radius')}"
