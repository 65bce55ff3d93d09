"""Accounts in Chromium: a guest's table claimed when they create an account in the lobby, a rated game between two
accounts (made and joined in the lobby, played to its end through the API), the rating change on both players'
profiles, a profile's replay link, and the leaderboard."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

BR = "blast-radius"


def sign_up(page: Any, url: str, name: str) -> None:
    page.goto(url + "/")
    page.wait_for_selector("#lobby[data-ready='1']")
    page.click("#account-open")
    page.fill("#account-name", name)
    page.fill("#account-password", "a fine long password")
    page.click("#account-signup")
    page.wait_for_selector(f"#account-me:text('{name}')")


def token_of(page: Any) -> str:
    m = re.search(r"#t=([^,&]+)", page.url)
    assert m, page.url
    return m.group(1)


def new_online_table(page: Any, rated: bool) -> str:
    page.click(f"[data-new='{BR}']")
    page.check("input[name=mode][value=online]")
    page.check("#open-table")
    if rated:
        page.check("#rated-table")
    page.click("#create-go")
    page.wait_for_selector("#table-root[data-ready='1']")
    return str(page.evaluate("window.boardlab.view.table.id"))


def play_to_the_end(url: str, table: str, tokens: dict[int, str]) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    with httpx.Client(base_url=url, timeout=20) as c:
        while time.monotonic() < deadline:
            v = c.get(f"/api/tables/{table}", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
            if v["terminal"]:
                return v
            tok = tokens[v["to_act"][0]]
            w = c.get(f"/api/tables/{table}", headers={"Authorization": f"Bearer {tok}"}).json()
            c.post(
                f"/api/tables/{table}/moves",
                headers={"Authorization": f"Bearer {tok}"},
                json={"action": w["legal"][0][0], "revision": w["revision"]},
            )
    raise AssertionError("the game did not end")


def test_sign_up_then_a_rated_game_changes_both_profiles(server, new_page) -> None:
    ann, ben = new_page(), new_page()
    # a guest makes a table, then creates an account: the table is theirs
    ann.goto(server.url + "/")
    ann.wait_for_selector("#lobby[data-ready='1']")
    guest_table = new_online_table(ann, rated=False)
    sign_up(ann, server.url, "Ann Rated")
    ann.goto(server.url + "/players/Ann%20Rated")
    ann.wait_for_selector("#profile[data-ready='1']")
    assert ann.locator("#open a[href^='/table/']").count() == 1
    assert guest_table in ann.locator("#open a").first.get_attribute("href")

    sign_up(ben, server.url, "Ben Rated")
    ann.goto(server.url + "/")
    ann.wait_for_selector("#lobby[data-ready='1']")
    table = new_online_table(ann, rated=True)
    t0 = token_of(ann)
    ben.goto(server.url + "/")
    ben.click(f"[data-join='{table}']")
    ben.wait_for_selector("#table-root[data-ready='1']")
    t1 = token_of(ben)
    # the seats carry the accounts' names
    assert ben.evaluate("window.boardlab.view.seats.map((p) => p.name)") == ["Ann Rated", "Ben Rated"]

    end = play_to_the_end(server.url, table, {0: t0, 1: t1})
    winner = end["result"]["winners"][0]
    shown: dict[str, tuple[int, str]] = {}
    for page, name in ((ann, "Ann Rated"), (ben, "Ben Rated")):
        page.goto(server.url + "/players/" + name.replace(" ", "%20"))
        page.wait_for_selector("#profile[data-ready='1']")
        rating = page.locator(".rating[data-game='blast-radius']").inner_text()
        change = page.locator("#recent .rating-change").first.inner_text()
        assert rating.endswith("?")  # one rated game: provisional
        shown[name] = (int(rating.rstrip("?")), change)
        assert change.startswith("1000 → ") and change.endswith(")"), change
    win, lose = ("Ann Rated", "Ben Rated") if winner == 0 else ("Ben Rated", "Ann Rated")
    assert shown[win][0] > 1000 > shown[lose][0]
    assert "(+" in shown[win][1] and "(-" in shown[lose][1]
    assert f"→ {shown[win][0]} " in shown[win][1]

    # the recent game opens its replay, in any browser
    ben.click(f"#recent a[data-replay='{table}']")
    ben.wait_for_selector("#replay-root[data-ready='1']")

    # and the leaderboard has both, the winner first
    ben.goto(server.url + "/leaderboard?game=blast-radius")
    ben.wait_for_selector("#leaderboard[data-ready='1']")
    names = ben.locator("#board tbody tr").evaluate_all("rows => rows.map((r) => r.dataset.player)")
    assert names.index(win) < names.index(lose)

    # signing out from the header's menu: the lobby offers to sign in again
    ann.goto(server.url + "/")
    ann.click("#account-me")
    ann.click("#account-signout")
    ann.wait_for_selector("#account-open")
    assert ann.evaluate("fetch('/api/account').then((r) => r.json())")["signed_in"] is False


def test_sign_in_again_then_delete_my_account(server, new_page) -> None:
    page = new_page()
    sign_up(page, server.url, "Dee Leted")
    page.click("#account-me")
    page.click("#account-signout")
    page.wait_for_selector("#account-open")
    # a wrong password is refused in words, the right one signs in
    page.click("#account-open")
    page.fill("#account-name", "Dee Leted")
    page.fill("#account-password", "not the password")
    page.click("#account-signin")
    page.wait_for_selector("#account-error:text('do not match')")
    page.fill("#account-password", "a fine long password")
    page.click("#account-signin")
    page.wait_for_selector("#account-me:text('Dee Leted')")
    page.click("#account-me")
    page.click("#account-delete")
    page.fill("#delete-password", "a fine long password")
    page.click("#delete-go")
    page.wait_for_selector("#account-open")
    page.goto(server.url + "/players/Dee%20Leted")
    page.wait_for_selector("#profile[data-ready='1']")
    assert page.inner_text("#player-since") == "There is no player by this name."
