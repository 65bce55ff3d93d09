"""Blast Radius in the browser: a table made in the lobby, a whole game against the AI played by
clicking the board, undo, the rules, a dropped connection, the replay viewer, and a phone-sized screen."""

from __future__ import annotations

import json
import pathlib
import random
from typing import Any

import pytest
from browser_helpers import create, shot, wait_ready

pytestmark = pytest.mark.browser


def click_board_until_over(page: Any, rng: random.Random, limit: int = 200) -> int:
    """Real mouse clicks on random board targets until the result banner shows; returns the clicks."""
    root = page.locator("#table-root")
    for clicks in range(limit):
        page.wait_for_selector("#table-root[data-your-turn='1'][data-busy='0'], #table-root[data-terminal='1']")
        if root.get_attribute("data-terminal") == "1":
            return clicks
        rev = root.get_attribute("data-revision")
        targets = page.locator("svg g.target")
        targets.nth(rng.randrange(targets.count())).click()
        page.wait_for_function(
            "rev => { const r = document.getElementById('table-root'); return r.dataset.revision !== rev; }", arg=rev
        )
    raise AssertionError("the game did not end")


def test_full_game_against_the_ai_then_replay(server, new_page) -> None:
    page = new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#lobby[data-ready='1']")
    assert page.locator(".game-card").count() >= 1
    # The declared game type is shown as chips: Posies is perfect information unless its variant hides a colour.
    posies = page.locator(".game-card[data-game='posies'] .chip").all_inner_texts()
    assert "perfect information" in posies and "hidden information with variant: A secret colour worth triple" in posies
    page.click("[data-new='blast-radius']")
    page.click("#more-options > summary")  # the rule options are folded under "More options"
    page.select_option("#opt-board_side", "5")
    assert page.locator("#seat-1").input_value().startswith("ai:")
    ratings = page.evaluate("fetch('/api/games/blast-radius').then(r => r.json()).then(g => g.level_elo)")
    if ratings:  # levels are named by their measured Elo where it is known
        assert "(Elo " in page.locator("#seat-1 option:checked").inner_text()
    shot(page, "lobby-new-table")
    page.click("#create-go")
    wait_ready(page)
    assert page.locator("#table-root").get_attribute("data-your-turn") == "1"
    assert page.locator("svg g.target").count() == 61
    assert page.locator(".legal-list button").count() == 61  # the same moves, as text
    rng = random.Random(2)

    # one move, the AI answers, then undo takes both back
    page.locator("svg g.target").nth(30).click()
    page.wait_for_selector("#table-root[data-move-number='2'][data-your-turn='1']")
    assert page.locator("#log li").count() == 2
    assert page.locator("svg .hl-last").count() >= 1  # the last move is highlighted
    page.click("#undo")
    page.wait_for_selector("#table-root[data-move-number='0']")

    clicks = click_board_until_over(page, rng)
    assert clicks >= 3
    assert page.get_attribute("#banner", "data-kind") == "result"
    title = page.inner_text("#banner-title")
    assert title == "You win!" or title.endswith("wins.")
    shot(page, "blast-radius-vs-ai")
    moves = int(page.get_attribute("#table-root", "data-move-number"))

    # the record downloads as JSON
    with page.expect_download() as dl:
        page.click("#record")
    record = json.loads(pathlib.Path(dl.value.path()).read_text())
    assert record["game"] == "blast-radius" and len(record["history"]) == moves

    # the replay viewer steps through the same game, from the start
    page.click("#replay-link")
    page.wait_for_selector("#replay-root[data-ready='1'][data-step='0']")
    assert page.locator("#log li").count() == 0
    page.click("#last")
    page.wait_for_selector(f"#replay-root[data-step='{moves}']")
    page.click("#first")
    page.wait_for_selector("#replay-root[data-step='0']")
    for k in (1, 2, 3):
        page.click("#next")
        page.wait_for_selector(f"#replay-root[data-step='{k}']")
    assert page.locator("#log li").count() == 3
    page.click("#prev")
    page.wait_for_selector("#replay-root[data-step='2']")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay-root[data-step='3']")
    assert page.inner_text("#counter") == f"move 3 of {moves}"
    page.select_option("#view-as", "1")
    page.wait_for_selector("#replay-root[data-step='3']")
    page.click("#last")
    page.wait_for_selector(f"#replay-root[data-step='{moves}']")
    assert page.get_attribute("#banner", "data-kind") == "result"
    shot(page, "replay")


def test_upload_a_record_to_the_replay_viewer(server, new_page, tmp_path) -> None:
    import boardlab
    from boardlab.core.play import random_playout
    from boardlab.core.record import GameRecord

    state, _ = random_playout(boardlab.make("blast-radius", board_side=5).new_initial_state(), random.Random(4))
    path = tmp_path / "game.json"
    path.write_text(GameRecord.from_state(state, seats=["Ann", "Bo"]).to_json())
    page = new_page()
    page.goto(server.url + "/replay")
    page.set_input_files("#file", str(path))
    n = len(state.history())
    page.wait_for_selector("#replay-root[data-ready='1'][data-step='0']")
    assert "Ann" in page.inner_text("#seats")
    page.click("#last")
    page.wait_for_selector(f"#replay-root[data-step='{n}']")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "blast-radius", "history": [0, 0]}))
    page.set_input_files("#file", str(bad))
    page.wait_for_selector("#banner-title:has-text('This record cannot be replayed')")
    assert "step 1" in page.inner_text("#banner-detail")  # said once, in the banner
    assert page.locator("#toast:not(.hidden)").count() == 0


def test_rules_are_one_click_away(server, new_page) -> None:
    d = create(server, game="blast-radius", options={"board_side": 5}, mode="online", seed=1)
    page = new_page()
    page.goto(d["links"]["host"])
    wait_ready(page)
    page.click("#rules")
    page.wait_for_selector("#rules-dialog[open] #rules-body h1")
    assert "Blast Radius" in page.inner_text("#rules-body h1")
    assert page.locator("#rules-body ol li").count() >= 5


def test_dropped_connection_reconnects_and_catches_up(server, new_page) -> None:
    import httpx

    d = create(server, game="blast-radius", options={"board_side": 5}, mode="online", seed=2)
    page = new_page(allow_network_errors=True)
    page.goto(d["links"]["seats"]["0"])
    wait_ready(page)
    page.wait_for_selector("#conn[data-state='live']")
    assert page.locator("#seats li[data-seat='1'] .tag.off").count() == 1  # seat 1 is away
    page.locator("svg g.target").first.click()
    page.wait_for_selector("#table-root[data-revision='1']")
    page.evaluate("window.boardlab.dropSocket()")
    # while the page reconnects, the opponent moves (over HTTP)
    tok1 = d["tokens"]["1"]
    v = httpx.get(f"{server.url}/api/tables/{d['id']}", headers={"Authorization": f"Bearer {tok1}"}).json()
    r = httpx.post(
        f"{server.url}/api/tables/{d['id']}/moves",
        headers={"Authorization": f"Bearer {tok1}"},
        json={"action": v["legal"][0][0], "revision": 1},
    )
    assert r.status_code == 200
    page.wait_for_selector("#table-root[data-revision='2'][data-your-turn='1']")
    page.wait_for_selector("#conn[data-state='live']")


def test_phone_sized_screen(server, new_page) -> None:
    d = create(server, game="blast-radius", options={"board_side": 5}, mode="ai")
    page = new_page(390, 844)
    page.goto(d["links"]["host"])
    wait_ready(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width}px)"
    box = page.locator(".board-wrap svg").bounding_box()
    assert box is not None and 300 <= box["width"] <= 390
    page.locator("svg g.target").nth(10).click()
    page.wait_for_selector("#table-root[data-move-number='2']")
    shot(page, "blast-radius-phone")
    page.goto(server.url + "/")
    page.wait_for_selector("#lobby[data-ready='1']")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "lobby-phone")


def test_online_table_from_the_lobby_with_invites_and_a_spectator(server, new_page) -> None:
    host = new_page()
    host.goto(server.url + "/")
    host.wait_for_selector("#lobby[data-ready='1']")
    host.click("[data-new='blast-radius']")
    host.check("input[name=mode][value=online]")
    assert host.locator("#seat-1").input_value() == "human"
    host.click("#more-options > summary")
    host.select_option("#opt-board_side", "5")
    host.click("#create-go")
    wait_ready(host)
    host.wait_for_selector("#invite:not(.hidden)")
    links = host.locator("#invite input")
    assert links.count() == 2  # seat 1 and the spectators
    seat1_link, spectator_link = links.nth(0).input_value(), links.nth(1).input_value()
    guest, watcher = new_page(), new_page()
    guest.goto(seat1_link)
    wait_ready(guest)
    host.wait_for_selector("#seats li[data-seat='1'] .tag.on")
    watcher.goto(spectator_link)
    wait_ready(watcher)
    assert watcher.get_attribute("#table-root", "data-seat") == ""
    assert watcher.locator("svg g.target").count() == 0 and watcher.locator("#undo").is_disabled()
    host.locator("svg g.target").nth(5).click()
    for p in (guest, watcher):
        p.wait_for_selector("#table-root[data-revision='1']")
    assert guest.get_attribute("#table-root", "data-your-turn") == "1"
    assert watcher.inner_text("#banner-title").startswith("Waiting for Blue")
    shot(watcher, "blast-radius-spectator")
