"""The replay viewer: it opens at the start; a spectator's replay of Hamlet never lists the dealt cards (the full
record does); a finished table's replay opens in any browser from the table's public link; the upload box gets out
of the way; a bad upload's error shows once."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from browser_helpers import create, shot

import boardlab

pytestmark = pytest.mark.browser


def finish(server: Any, d: dict[str, Any]) -> None:
    """Play a table to its end over HTTP, each human seat choosing its last legal move."""
    t, tokens = d["id"], d["tokens"]
    url = f"{server.url}/api/tables/{t}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        v = httpx.get(url, headers={"Authorization": f"Bearer {next(iter(tokens.values()))}"}).json()
        if v["terminal"]:
            return
        for s in v["to_act"]:
            h = {"Authorization": f"Bearer {tokens[str(s)]}"}
            w = httpx.get(url, headers=h).json()
            if w["your_turn"]:
                httpx.post(url + "/moves", headers=h, json={"action": w["legal"][-1][0], "revision": w["revision"]})
                break
        else:
            time.sleep(0.05)
    raise AssertionError("the game did not end")


def log_of(page: Any) -> list[str]:
    return page.locator("#log li").all_inner_texts()


def at_step(page: Any, k: int) -> None:
    page.wait_for_selector(f"#replay-root[data-step='{k}']")


def test_spectator_replay_of_hamlet_hides_the_deal(server, new_page) -> None:
    if "hamlet" not in boardlab.games():
        pytest.skip("hamlet is not registered")
    d = create(server, game="hamlet", mode="hotseat", seed=5)
    finish(server, d)
    # a fresh browser with only the table's public link
    page = new_page(1280, 800)
    page.goto(f"{server.url}/replay?table={d['id']}#t={d['spectator_token']}")
    page.wait_for_selector("#replay-root[data-ready='1']")
    steps = int(page.get_attribute("#replay-root", "data-steps"))
    at_step(page, 0)  # it opens at the start
    assert page.inner_text("#banner-title") == "The start"
    assert page.locator("#drop").is_hidden()  # the upload box is out of the way
    page.click("#last")
    at_step(page, steps)
    assert page.input_value("#view-as") == ""  # Spectator
    dealt = [line for line in log_of(page) if " dealt " in line or ": dealt" in line]
    assert dealt and all("dealt a card" in line for line in dealt), dealt
    shot(page, "replay-hamlet-spectator-end")
    # the full record names every card
    page.select_option("#view-as", "all")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#log li')].every(li => !li.innerText.includes('dealt a card'))"
    )
    # a seat sees its own card, not the other's
    page.select_option("#view-as", "0")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#log li')].filter(li => li.innerText.includes('dealt a card')).length >= 1"
    )


def test_replay_link_of_a_finished_table_works_in_another_browser(server, new_page) -> None:
    d = create(server, game="blast-radius", options={"board_side": 5}, mode="hotseat", seed=4)
    finish(server, d)
    host = new_page()
    # the creator's browser keeps the table's links (as the lobby saves them)
    host.goto(server.url + "/")
    host.evaluate(
        "([id, links]) => localStorage.setItem('boardlab:tables', JSON.stringify({[id]: {links, tokens: []}}))",
        [d["id"], d["links"]],
    )
    host.goto(d["links"]["host"])
    host.wait_for_selector("#table-root[data-terminal='1']")
    href = host.get_attribute("#replay-link", "href")
    assert href == f"/replay?table={d['id']}#t={d['spectator_token']}", href
    other = new_page()
    other.goto(server.url + href)
    other.wait_for_selector("#replay-root[data-ready='1']")
    at_step(other, 0)


def test_a_bad_upload_shows_its_error_once(server, new_page, tmp_path) -> None:
    page = new_page()
    page.goto(server.url + "/replay")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "blast-radius", "history": "nonsense"}))
    page.set_input_files("#file", str(bad))
    page.wait_for_selector("#banner:not(.hidden)")
    assert page.inner_text("#banner-title") == "This record cannot be replayed"
    page.wait_for_timeout(300)
    assert page.locator("#toast:not(.hidden)").count() == 0  # said once: in the banner, no toast besides
    assert page.locator("#drop").is_visible()
    text = tmp_path / "text.json"
    text.write_text("not json")
    page.set_input_files("#file", str(text))
    page.wait_for_selector("#banner-title:has-text('This file cannot be replayed')")
    assert page.locator("#toast:not(.hidden)").count() == 0
