"""People at the table, in Chromium: an open table made in the lobby and joined from a second browser, the chat
(a message full of markup shows as text and runs nothing), a spectator told they are watching (no Undo, no chat box),
and a turn clock running out on the page: first the game's default move (a pass), then a loss on time."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from browser_helpers import create, shot, wait_ready

import boardlab

pytestmark = pytest.mark.browser

NASTY = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> <b>bold?</b>'
#: Radius (board side 4): after these moves the seat to move is blocked and may only pass.
TO_PASS = [0, 29, 2, 34, 2, 3, 2, 29, 9, 15, 10, 16, 0, 25, 24, 26, 30, 31, 34, 23, 29, 17, 3, 12, 13, 18, 23, 6, 5,
           7, 11, 25, 8, 7, 3, 14, 6, 1, 0, 12, 6, 12, 9, 4, 9, 8, 19, 25, 20]  # fmt: skip


def test_open_table_join_chat_and_a_spectator(server, new_page) -> None:
    host = new_page()
    host.goto(server.url + "/")
    host.wait_for_selector("#lobby[data-ready='1']")
    host.click("[data-new='blast-radius']")
    host.check("input[name=mode][value=online]")
    host.fill("#seat-name-0", "Ann")
    host.check("#open-table")
    host.click("#create-go")
    wait_ready(host)
    table = host.evaluate("window.boardlab.view.table.id")
    assert host.evaluate("window.boardlab.view.open") is True

    # a second browser finds the table in the lobby's open tables and takes the free seat
    guest = new_page()
    guest.goto(server.url + "/")
    row = guest.locator(f".open-tables .row[data-table='{table}']")
    row.wait_for()
    assert "free seat" in row.inner_text() and "Ann" in row.inner_text()
    row.locator("input").fill("Bo")
    row.locator("[data-join]").click()
    wait_ready(guest)
    assert guest.evaluate("window.boardlab.viewSeat") == 1
    host.wait_for_selector("#seats li[data-seat='1'] .name:text('Bo')")
    host.wait_for_selector("#seats li[data-seat='1'] .tag.on")
    assert host.locator("#watching").is_hidden() and guest.locator("#watching").is_hidden()

    # chat: markup is shown as the text it is and runs nothing, on both pages
    guest.fill("#chat-text", NASTY)
    guest.click("#chat-form button[type=submit]")
    for p in (guest, host):
        p.wait_for_selector("#chat-log li .text")
        assert p.inner_text("#chat-log li .text") == NASTY
        assert p.inner_text("#chat-log li .who").strip() == "Bo:"
        assert p.locator("#chat-log img, #chat-log script, #chat-log b").count() == 0
        assert p.evaluate("window.__pwned") is None
    host.fill("#chat-text", "good luck")
    host.press("#chat-text", "Enter")
    guest.wait_for_selector("#chat-log li:nth-child(2) .text:text('good luck')")

    # a spectator, from the lobby's Watch link: told so, no Undo, reads the chat but has no box to write in
    watcher = new_page()
    watcher.goto(server.url + "/")
    watcher.locator(f".open-tables .row[data-table='{table}'] [data-watch]").click()
    wait_ready(watcher)
    assert watcher.locator("#watching").is_visible()
    assert "You are watching" in watcher.inner_text("#watching")
    assert watcher.locator("#undo").is_hidden()
    assert watcher.locator("#take-seat-box").is_hidden()  # no seat is free
    assert watcher.locator("#chat-form").is_hidden() and watcher.locator("#chat-readonly").is_visible()
    watcher.wait_for_selector("#chat-log li:nth-child(2)")
    assert watcher.inner_text("#chat-log li .text") == NASTY
    shot(watcher, "people-spectator")
    r = httpx.get(server.url + "/api/open-tables", timeout=10).json()
    listed = next(t for t in r["tables"] if t["id"] == table)
    assert listed["free"] == 0 and listed["spectators"] >= 1


def test_a_clock_runs_out_on_the_page(server, new_page) -> None:
    d = create(server, game="radius", options={"board_side": 4}, mode="online", clock={"kind": "move", "seconds": 3})
    t, tokens = d["id"], d["tokens"]
    state = boardlab.make("radius", board_side=4).new_initial_state()
    with httpx.Client(base_url=server.url, timeout=10) as c:
        for n, a in enumerate(TO_PASS):
            auth = {"Authorization": f"Bearer {tokens[str(state.current_player())]}"}
            r = c.post(f"/api/tables/{t}/moves?view=false", headers=auth, json={"revision": n, "action": a})
            while r.status_code == 429:  # the server's moves-per-second quota: wait as it says
                time.sleep(float(r.json().get("retry_after", 1)))
                r = c.post(f"/api/tables/{t}/moves?view=false", headers=auth, json={"revision": n, "action": a})
            assert r.status_code == 200, r.text
            state.apply_action(a)
    seat = state.current_player()
    page: Any = new_page()
    page.goto(d["links"]["seats"][str(seat)])
    wait_ready(page)
    page.wait_for_selector("#clock-panel li.running")
    assert "pass if the rules let them" in page.inner_text("#clock-kind")
    left = float(page.get_attribute(f"#clock-list li[data-seat='{seat}']", "data-left"))
    assert 0 < left <= 3
    # the blocked seat's time runs out: the server passes for it, and the page shows the pass
    page.wait_for_selector("#notes p:has-text('ran out of time: pass')", timeout=8000)
    assert "pass" in page.inner_text("#log li.last")
    # then nobody moves for the other seat, which cannot pass: it loses on time
    page.wait_for_selector("#table-root[data-terminal='1']", timeout=8000)
    assert page.inner_text("#result-title") == "You win!"
    assert "ran out of time" in page.inner_text("#result-how")
    shot(page, "people-clock")


def test_a_watcher_takes_the_free_seat(server, new_page) -> None:
    d = create(server, game="blast-radius", options={"board_side": 5}, mode="online", open=True)
    page = new_page()
    page.goto(d["links"]["spectator"])
    wait_ready(page)
    assert page.locator("#watching").is_visible() and page.locator("#take-seat-box").is_visible()
    page.fill("#take-seat-name", "Cy")
    page.click("#take-seat")
    page.wait_for_selector("#table-root[data-seat='1'][data-ready='1']")
    assert page.locator("#watching").is_hidden() and page.locator("#chat-form").is_visible()
    page.wait_for_selector("#seats li[data-seat='1'] .name:text('Cy')")


def test_a_seeded_table_says_so_in_the_lobby_and_on_every_page(server, new_page) -> None:
    d = create(server, game="minopoly", mode="online", open=True, seed=12)
    guest = new_page()
    guest.goto(server.url + "/")
    row = guest.locator(f".open-tables .row[data-table='{d['id']}']")
    row.wait_for()
    assert "seeded" in row.inner_text()  # told before joining
    for link in (d["links"]["host"], d["links"]["spectator"]):
        page = new_page()
        page.goto(link)
        wait_ready(page)
        page.wait_for_selector("#seeded:not(.hidden)")
        assert "foresee every chance outcome" in page.inner_text("#seeded")
    plain = create(server, game="minopoly", mode="online")
    page = new_page()
    page.goto(plain["links"]["host"])
    wait_ready(page)
    assert page.locator("#seeded").is_hidden()
