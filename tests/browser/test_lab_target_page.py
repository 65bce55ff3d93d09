"""The /lab page's search for the setting nearest a target: a designer chooses what to aim at among the metrics a
sweep accepts (player-facing labels), ticks the option to vary, starts a tiny search, watches its rounds, reads the
rounds and the winner with its interval exactly as ``boardlab sweep --target`` gives them, finds the search among
the past runs and opens the winner's sample game."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from browser_helpers import shot

from boardlab.lab.sweep import rounds_table, search

pytestmark = pytest.mark.browser


def test_a_designer_searches_for_the_setting_nearest_a_target(server: Any, new_page: Any) -> None:
    page = new_page(1280, 800)
    page.goto(f"{server.url}/lab?game=blast-radius&kind=target")
    page.wait_for_selector("#lab-root[data-ready='1']")
    labels = page.locator("#lab-metric option").all_inner_texts()
    assert labels == ["first player's win rate", "draw rate", "mean length in moves", "median length in moves"]
    assert page.input_value("#lab-target") == "50" and page.inner_text("#lab-target-unit") == "%"
    assert "Find the setting whose" in page.inner_text("#lab-goal-field") and page.is_visible("text=Start the search")

    # a grid sweep takes the same chooser as what "most balanced" means
    page.check("#lab-kind-sweep")
    assert "Most balanced means" in page.inner_text("#lab-goal-field") and page.is_visible("text=Start the sweep")
    page.check("#lab-kind-target")

    page.select_option("#lab-metric", "median_length")
    assert page.input_value("#lab-target") == "" and page.inner_text("#lab-target-unit") == "moves"
    page.fill("#lab-target", "60")
    page.check("#lab-vary-board_side")  # its three values, all ticked
    page.fill("#lab-games", "20")
    page.fill("#lab-seed", "4")
    assert page.inner_text("#lab-sweep-size").startswith("3 settings, up to 20 games each")
    page.click("#lab-start")

    page.wait_for_selector("#lab-run:not(.hidden)")
    assert "search over board side · 3 settings, up to 20 games each" in page.inner_text("#lab-run-title")
    assert page.inner_text("#lab-round").startswith("Round ")
    page.wait_for_selector("#lab-root[data-run-status='finished']", timeout=60000)
    assert page.get_attribute("#lab-root", "data-run-kind") == "search"
    assert page.inner_text("#lab-count") == "50 of 50 games"  # 3 settings × 10 games, then 2 play on to 20
    assert page.inner_text("#lab-round") == "Round 2 of 2: 2 settings, 20 games each"

    # the rounds and the verdict naming the winner with its interval, exactly as `boardlab sweep --target` says
    local = search("blast-radius", {"board_side": [5, 6, 7]}, metric="median_length", target=60, games=20, seed=4)
    table = rounds_table(local.to_dict())
    assert page.locator("#lab-sweep-table th").all_inner_texts() == table["columns"]
    rows = page.locator("#lab-sweep-table tbody tr")
    assert [rows.nth(i).locator("td").all_inner_texts() for i in range(rows.count())] == table["rows"]
    assert page.inner_text("#lab-sweep-verdict") == local.verdict() and "95% interval" in local.verdict()
    assert page.locator("#lab-sweep-table tr.best").count() == 1 and "best" in (
        rows.nth(1).get_attribute("class") or ""
    )
    shot(page, "lab-target")

    # among the past runs, as a search, finished, with what it aimed at
    row = page.locator("#lab-runs tr.current")
    key = row.get_attribute("data-key")
    assert row.get_attribute("data-kind") == "search" and "finished" in row.inner_text()
    assert "median length in moves nearest 60.0" in row.inner_text()
    assert httpx.get(f"{server.url}/api/lab/runs/{key}").json()["verdict"] == local.verdict()

    # the winner's game 1 opens in the replay viewer
    winner = local.variants[local.best].label()
    link = page.locator("#lab-sweep-samples a")
    assert link.count() == 1 and link.inner_text().startswith(f"{winner}: game 1 (")
    link.click()
    page.wait_for_selector("#replay-root[data-ready='1']")
    assert "Blast Radius" in page.inner_text("#crumb")
