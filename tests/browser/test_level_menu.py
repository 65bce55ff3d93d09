"""The New-table dialog's level menu: each level with its think time, and Elo figures only in the levels' order."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from boardlab.agents import level_figures, level_names, level_note, level_seconds

pytestmark = pytest.mark.browser


def level_menus(page: Any) -> list[dict[str, str]]:
    """Each seat's menu: level -> the text of its entry."""
    menus = page.evaluate(
        """() => [...document.querySelectorAll('select[id^="seat-"]')].map((s) =>
             Object.fromEntries([...s.options].filter((o) => o.value.startsWith('ai:')).map((o) =>
               [o.value.slice(3), o.textContent])))"""
    )
    return [{level: menu[level] for level in level_names()} for menu in menus]


def figures(menu: dict[str, str]) -> list[int]:
    """The Elo figures of a menu's levels, weakest level first (levels without one left out)."""
    found = [re.search(r"Elo (-?\d+)", menu[level]) for level in level_names()]
    return [int(m.group(1)) for m in found if m]


def open_new_table(page: Any, url: str, game_id: str) -> None:
    page.goto(url)
    page.wait_for_selector("#lobby[data-ready='1']")
    page.click(f"[data-new='{game_id}']")
    page.wait_for_selector("#seat-1")


def test_cirque_s_level_menu_shows_think_times_figures_in_order_and_what_plays_alike(
    server: Any, new_page: Any
) -> None:
    page = new_page(1280, 800)
    open_new_table(page, server.url, "cirque")
    menus = level_menus(page)
    assert len(menus) >= 2
    for menu in menus:
        for level in level_names():
            assert f"{level} · up to {level_seconds(level):g} s a move" in menu[level], menu[level]
        shown = figures(menu)
        assert shown == sorted(shown) and len(set(shown)) == len(shown), menu
        # only expert is told apart from its neighbours in Cirque's measured games
        assert shown == [round(v) for v in level_figures("cirque").values()] and "Elo" in menu["expert"], menu
    # and the levels its games did not tell apart are named under the menu
    assert page.inner_text("#level-note") == level_note("cirque") and "play about alike" in level_note("cirque")


def test_figures_that_separate_the_levels_are_shown_beside_them(server: Any, new_page: Any) -> None:
    page = new_page(1280, 800)

    def separated(route: Any) -> None:  # as a game whose hard and expert stand clear of their neighbours
        data = route.fetch().json()
        for g in data["games"]:
            if g["id"] == "cirque":
                g["level_elo"] = {"hard": 512.0, "expert": 801.0}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(data))

    page.route("**/api/games", separated)
    open_new_table(page, server.url, "cirque")
    menu = level_menus(page)[1]
    assert menu["hard"] == "AI · hard · up to 1.5 s a move (Elo 512)"
    assert menu["expert"] == "AI · expert · up to 3 s a move (Elo 801)"
    assert "Elo" not in menu["easy"] and "Elo" not in menu["medium"]
