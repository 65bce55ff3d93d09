"""Quick play in Chromium: two players seek the same game in the lobby, are told "Opponent found", and both land at
one table, each in their own seat (two accounts, rated; then an account and a guest, casual)."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from test_accounts_browser import sign_up

pytestmark = pytest.mark.browser

BR = "blast-radius"


def seek(page: Any, url: str, rated: bool | None = None, name: str | None = None) -> None:
    page.goto(url + "/")
    page.wait_for_selector("#lobby[data-ready='1']")
    page.wait_for_selector("#seek-go")
    page.select_option("#seek-game", BR)
    if rated is not None:
        page.set_checked("#seek-rated", rated)
    if name is not None:
        page.fill("#seek-name", name)
    page.click("#seek-go")


def at_the_table(page: Any) -> tuple[str, int]:
    page.wait_for_selector("#seek-notice:has-text('Opponent found')")
    page.click("#seek-table")
    page.wait_for_selector("#table-root[data-ready='1']")
    return str(page.evaluate("window.boardlab.view.table.id")), int(page.evaluate("window.boardlab.view.seat"))


def test_two_accounts_seek_a_rated_game_and_meet_at_one_table(server, new_page) -> None:
    ann, ben = new_page(), new_page()
    sign_up(ann, server.url, "Ann Seeks")
    sign_up(ben, server.url, "Ben Seeks")
    seek(ann, server.url, rated=True)
    ann.wait_for_selector("#seek-status:has-text('Looking for an opponent')")
    assert ann.is_visible("#seek-cancel")
    ben.goto(server.url + "/")  # the lobby says who is seeking
    ben.wait_for_selector("#seek-counts:has-text('Blast Radius 1 (1 rated)')")
    seek(ben, server.url, rated=True)
    (ta, sa), (tb, sb) = at_the_table(ben), at_the_table(ann)
    assert ta == tb and {sa, sb} == {0, 1}
    names = ann.evaluate("window.boardlab.view.seats.map((s) => s.name)")
    assert sorted(names) == ["Ann Seeks", "Ben Seeks"]
    # rated: the table shows on both profiles as a rated game in play
    ann.goto(server.url + "/api/players/Ben%20Seeks")
    assert '"rated": true' in ann.content() or '"rated":true' in ann.content()


def test_an_account_and_a_guest_seek_a_casual_game(server, new_page) -> None:
    cal, guest = new_page(), new_page()
    sign_up(cal, server.url, "Cal Seeks")
    seek(cal, server.url, rated=False)
    cal.wait_for_selector("#seek-status:has-text('Looking for an opponent')")
    # a guest is offered casual games only, under a name of their choosing
    guest.goto(server.url + "/")
    guest.wait_for_selector("#seek-go")
    assert not guest.is_visible("#seek-rated")
    seek(guest, server.url, name="Gwen")
    (tg, sg), (tc, sc) = at_the_table(guest), at_the_table(cal)
    assert tg == tc and {sg, sc} == {0, 1}
    assert sorted(cal.evaluate("window.boardlab.view.seats.map((s) => s.name)")) == ["Cal Seeks", "Gwen"]
    # the guest's table is in their "Your tables"
    guest.goto(server.url + "/")
    guest.wait_for_selector(f"#my-tables a[href='/table/{tg}']")


def test_an_invite_link_seats_the_account_that_opens_it(server, new_page) -> None:
    """Play a friend: the seat link of a private online table, opened by a signed-in friend, is their account's."""
    ann, ben = new_page(), new_page()
    sign_up(ann, server.url, "Ann Invites")
    sign_up(ben, server.url, "Ben Invited")
    ann.click(f"[data-new='{BR}']")
    ann.check("input[name=mode][value=online]")
    ann.click("#create-go")
    ann.wait_for_selector("#table-root[data-ready='1']")
    table = str(ann.evaluate("window.boardlab.view.table.id"))
    link = ann.evaluate(f"JSON.parse(localStorage.getItem('boardlab:tables'))['{table}'].links.seats['1']")
    ben.goto(link)
    ben.wait_for_selector("#table-root[data-ready='1']")
    assert ben.evaluate("window.boardlab.view.seat") == 1
    deadline = time.monotonic() + 10
    while True:
        with httpx.Client(base_url=server.url) as c:
            open_tables = [t["table"] for t in c.get("/api/players/Ben Invited").json()["open"]]
        if table in open_tables:
            break
        assert time.monotonic() < deadline, open_tables
        time.sleep(0.2)
