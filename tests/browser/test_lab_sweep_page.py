"""The /lab page's variant sweeps: a designer picks the options to vary and their values from the game's declared
options, starts a small sweep, watches it reach the end, reads the table of paired differences and the most balanced
variant exactly as ``boardlab sweep`` gives them, finds it among the past runs and opens a variant's sample game."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from browser_helpers import shot

pytestmark = pytest.mark.browser


def test_a_designer_sweeps_a_game_s_options_from_the_browser(server: Any, new_page: Any) -> None:
    page = new_page(1280, 800)
    page.goto(f"{server.url}/lab")
    page.wait_for_selector("#lab-root[data-ready='1']")
    page.select_option("#lab-game", "blast-radius")
    page.check("#lab-kind-sweep")
    assert page.is_visible("#lab-vary-board_side") and page.is_visible("#lab-vary-pie")

    # the values offered are the option's declared ones, all ticked; the designer keeps 5 and 6
    page.check("#lab-vary-board_side")
    assert page.is_hidden("#lab-opt-board_side")
    boxes = page.locator("[data-values='board_side'] input[type=checkbox]")
    assert [boxes.nth(i).get_attribute("data-value") for i in range(boxes.count())] == ["5", "6", "7"]
    page.uncheck("#lab-val-board_side-2")
    page.fill("#lab-games", "4")
    page.fill("#lab-seed", "1")
    assert page.inner_text("#lab-sweep-size") == "2 variants × 4 games = 8 games"
    page.click("#lab-start")

    page.wait_for_selector("#lab-run:not(.hidden)")
    assert "sweep of board side · 2 variants × 4 games" in page.inner_text("#lab-run-title")
    page.wait_for_selector("#lab-root[data-run-status='finished']", timeout=60000)
    assert page.get_attribute("#lab-root", "data-run-kind") == "sweep"
    assert page.inner_text("#lab-count") == "8 of 8 games" and page.get_attribute("#lab-bar", "value") == "8"

    # the table and the verdict, exactly as the API (and so `boardlab sweep`) gives them
    row = page.locator("#lab-runs tr.current")
    key = row.get_attribute("data-key")
    run = httpx.get(f"{server.url}/api/lab/runs/{key}").json()
    table = run["sweep"]["table"]
    assert page.locator("#lab-sweep-table th").all_inner_texts() == table["columns"]
    cells = page.locator("#lab-sweep-table tbody tr")
    assert cells.count() == 2
    assert [cells.nth(i).locator("td").all_inner_texts() for i in range(2)] == table["rows"]
    assert table["rows"][0][0] == "board_side=5" and table["rows"][0][2] == "reference"
    assert page.inner_text("#lab-sweep-verdict") == run["verdict"] and "Nearest 50.0%" in run["verdict"]
    assert "Bonferroni correction for 2 comparisons" in page.inner_text("#lab-sweep-note")
    assert page.locator("#lab-sweep-table tr.best").count() == 1
    assert page.is_hidden("#lab-report")
    shot(page, "lab-sweep")

    # among the past runs, as a sweep, finished, with its verdict
    assert row.get_attribute("data-kind") == "sweep" and "finished" in row.inner_text()
    assert "board_side=5; board_side=6" in row.inner_text()

    # a sample game of the second variant opens in the replay viewer
    link = page.locator("#lab-sweep-samples a").nth(1)
    label = link.inner_text()
    assert label.startswith("board_side=6: game 1 (")
    link.click()
    page.wait_for_selector("#replay-root[data-ready='1']")
    steps = int(page.get_attribute("#replay-root", "data-steps"))
    assert f"({steps} moves)" in label and "Blast Radius" in page.inner_text("#crumb")


def test_a_bad_sweep_is_refused_on_the_page_and_starts_nothing(server: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{server.url}/lab?game=blast-radius&kind=sweep")
    page.wait_for_selector("#lab-root[data-ready='1']")
    before = len(httpx.get(f"{server.url}/api/lab").json()["runs"])
    page.click("#lab-start")  # nothing ticked to vary
    page.wait_for_function("() => document.getElementById('lab-error').textContent.includes('Tick at least one')")
    page.check("#lab-vary-pie")
    for i in range(2):
        page.uncheck(f"#lab-val-pie-{i}")
    page.click("#lab-start")  # no value of it
    page.wait_for_function("() => document.getElementById('lab-error').textContent.includes('at least one value')")

    # an option without a list of values takes them as typed: numbers as on the command line, text split at "|"
    page.select_option("#lab-game", "fences")
    page.check("#lab-vary-turn_limit")
    page.fill("#lab-vals-turn_limit", "20..40:10")
    page.fill("#lab-games", "5")
    assert page.inner_text("#lab-sweep-size") == "3 variants × 5 games = 15 games"
    page.fill("#lab-vals-turn_limit", "5..6")  # below the option's minimum of 20
    page.click("#lab-start")
    page.wait_for_function("() => document.getElementById('lab-error').textContent.includes('between 20 and 1000')")
    page.select_option("#lab-game", "trivalent")
    page.check("#lab-vary-blocked")
    page.fill("#lab-vals-blocked", "standard | f5,g7 | zz9")
    assert page.inner_text("#lab-sweep-size").startswith("3 variants")
    page.click("#lab-start")
    page.wait_for_function("() => document.getElementById('lab-error').textContent.includes(\"'zz9' is not a point\")")
    assert page.locator("#lab-run").is_hidden()
    assert len(httpx.get(f"{server.url}/api/lab").json()["runs"]) == before
