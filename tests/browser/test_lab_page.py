"""The /lab page: a designer starts a small balance run, watches it reach the end, reads the report with its plot,
finds the run among the past runs, and opens a sample game in the replay viewer."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from browser_helpers import shot

pytestmark = pytest.mark.browser


def test_a_designer_runs_the_lab_from_the_browser(server: Any, new_page: Any) -> None:
    page = new_page(1280, 800)
    page.goto(f"{server.url}/lab")
    page.wait_for_selector("#lab-root[data-ready='1']")
    page.select_option("#lab-game", "blast-radius")
    page.select_option("#lab-opt-board_side", "5")
    page.fill("#lab-games", "20")
    page.fill("#lab-seed", "3")
    page.fill("#lab-agents", "random")
    page.click("#lab-start")

    # progress is shown while it runs, and reaches the end
    page.wait_for_selector("#lab-run:not(.hidden)")
    assert "of 20 games" in page.inner_text("#lab-count")
    page.wait_for_selector("#lab-root[data-run-status='finished']", timeout=90000)
    assert page.inner_text("#lab-count") == "20 of 20 games"
    assert page.get_attribute("#lab-bar", "value") == "20"

    # the report: its verdict, sentences and a plot that really loaded
    verdict = page.inner_text("#lab-verdict")
    assert "first player" in verdict and "n = 20" in verdict
    assert page.locator("#lab-sentences li").count() > 0
    page.wait_for_function("() => [...document.querySelectorAll('#lab-plots img')].some((i) => i.naturalWidth > 100)")
    assert page.locator("#lab-tables table").count() > 0
    shot(page, "lab-report")

    # the run is among the past runs, finished, with its verdict
    row = page.locator("#lab-runs tr.current")
    assert row.count() == 1 and "finished" in row.inner_text() and "Blast Radius" in row.inner_text()
    key = row.get_attribute("data-key")
    listed = httpx.get(f"{server.url}/api/lab").json()["runs"]
    assert any(r["key"] == key and r["status"] == "finished" for r in listed)

    # a fresh page lists it too, and opening it shows the stored report at once
    other = new_page(390, 844)
    other.goto(f"{server.url}/lab")
    other.wait_for_selector(f"#lab-runs tr[data-key='{key}']")
    other.click(f"#lab-runs tr[data-key='{key}']")
    other.wait_for_selector("#lab-root[data-run-status='finished']")
    assert other.inner_text("#lab-verdict") == verdict

    # a sample game opens in the replay viewer
    link = page.locator("#lab-samples a").first
    label = link.inner_text()
    assert "moves" in label
    link.click()
    page.wait_for_selector("#replay-root[data-ready='1']")
    steps = int(page.get_attribute("#replay-root", "data-steps"))
    assert steps > 5 and f"{steps} moves" in label
    assert "Blast Radius" in page.inner_text("#crumb")


def test_bad_lab_input_is_refused_with_a_clear_message(server: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{server.url}/lab")
    page.wait_for_selector("#lab-root[data-ready='1']")
    page.select_option("#lab-game", "blast-radius")
    page.fill("#lab-agents", "random, wizard")
    page.click("#lab-start")
    page.wait_for_function("() => document.getElementById('lab-error').textContent.includes('wizard')")
    assert page.locator("#lab-run").is_hidden()
    r = httpx.post(f"{server.url}/api/lab/runs", json={"game": "blast-radius", "games": 10**6})
    assert r.status_code == 400 and "games must lie between 1 and" in r.json()["message"]


def test_a_designer_cancels_a_long_run_from_the_page(server: Any, new_page: Any) -> None:
    page = new_page(1280, 800)
    page.goto(f"{server.url}/lab")
    page.wait_for_selector("#lab-root[data-ready='1']")
    page.select_option("#lab-game", "blast-radius")
    page.select_option("#lab-opt-board_side", "5")
    page.fill("#lab-games", "2000")
    page.fill("#lab-seed", "11")
    page.fill("#lab-agents", "mcts:iterations=300")
    page.click("#lab-start")
    page.wait_for_selector("#lab-root[data-run-status='running']")
    row = page.locator("#lab-runs tr.current")
    row.locator("button.lab-cancel").click()  # the run this page started has a Cancel button in the list
    page.wait_for_selector("#lab-root[data-run-status='cancelled']")
    assert "cancelled" in page.inner_text("#lab-run-error")
    key = row.get_attribute("data-key")
    page.wait_for_function(
        f"() => document.querySelector(\"#lab-runs tr[data-key='{key}']\")?.textContent.includes('cancelled')"
    )
    assert page.locator(f"#lab-runs tr[data-key='{key}'] button.lab-cancel").count() == 0
    assert httpx.get(f"{server.url}/api/lab/runs/{key}").json()["status"] == "cancelled"
