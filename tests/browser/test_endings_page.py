"""Ending a game fairly, in Chromium: resign (asked twice), a draw offered and accepted, an abort, a win claimed from
a player who went away, and a turn-based table (days a move) whose "your move" badge shows in the lobby."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import create, shot, wait_ready

from boardlab.server.launch import ServerProcess

pytestmark = pytest.mark.browser

GRACE = 2  # seconds away before a claim (this module's server)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("endings")
    db, log = f"sqlite:///{tmp}/endings.db", str(tmp / "server.log")
    with ServerProcess(db, log_path=log, extra_args=["--no-quotas", "--away-seconds", str(GRACE)]) as s:
        yield s


def online(server: ServerProcess, game: str = "blast-radius", **body: Any) -> dict[str, Any]:
    options = {"board_side": 5} if game == "blast-radius" else {}
    return create(server, game=game, options=options, mode="online", seats=[{"kind": "human"}] * 2, **body)


def seat_page(new_page: Any, server: ServerProcess, d: dict[str, Any], seat: int) -> Any:
    page = new_page()
    page.goto(d["links"]["seats"][str(seat)])
    wait_ready(page)
    return page


def move(page: Any) -> None:
    """Play the first place the board offers, by a click on it."""
    rev = page.get_attribute("#table-root", "data-revision")
    page.wait_for_selector("#table-root[data-your-turn='1']")
    page.locator("svg g.target").first.dispatch_event("click")
    page.wait_for_selector(f"#table-root:not([data-revision='{rev}'])")


def test_resign_asks_first_then_ends_the_game(server, new_page) -> None:
    d = online(server)
    a, b = seat_page(new_page, server, d, 0), seat_page(new_page, server, d, 1)
    a.click("#resign")
    assert "You lose this game" in a.inner_text("#endings")
    a.click("#resign-no")  # changed her mind: nothing happened
    assert a.get_attribute("#table-root", "data-terminal") == "0"
    a.click("#resign")
    a.click("#resign-yes")
    a.wait_for_selector("#table-root[data-terminal='1']")
    b.wait_for_selector("#table-root[data-terminal='1']")
    name = a.evaluate("window.boardlab.view.seats[0].name")
    assert a.inner_text("#banner-title").startswith("You lose")
    assert b.inner_text("#banner-title") == "You win!"
    assert f"{name} resigned." in b.inner_text("#result-how")
    assert f"{name} resigned." in b.locator("#log li").last.inner_text()
    assert a.locator("#undo").is_hidden() and a.locator("#endings").is_hidden()
    shot(b, "endings-resigned")


def test_a_draw_offered_and_accepted(server, new_page) -> None:
    d = online(server, "cirque")
    a, b = seat_page(new_page, server, d, 0), seat_page(new_page, server, d, 1)
    a.click("#offer-draw")
    a.wait_for_selector("#withdraw-draw")
    b.wait_for_selector("#accept-draw")
    name = b.evaluate("window.boardlab.view.seats[0].name")
    assert b.inner_text("#draw-offer-text") == f"{name} offers a draw."
    b.click("#accept-draw")
    for p in (a, b):
        p.wait_for_selector("#table-root[data-terminal='1']")
        assert p.inner_text("#banner-title") == "The game is a draw."
        assert p.inner_text("#result-how") == "The players agreed a draw."


def test_abort_before_the_second_move(server, new_page) -> None:
    d = online(server)
    a, b = seat_page(new_page, server, d, 0), seat_page(new_page, server, d, 1)
    move(a)
    b.wait_for_selector("#abort")  # only one player has moved: still allowed
    b.click("#abort")
    for p in (a, b):
        p.wait_for_selector("#table-root[data-terminal='1']")
        assert p.inner_text("#banner-title") == "Game aborted"
        assert "Nobody wins." in p.inner_text("#result-how")
    # once a second player has moved, there is no Abort
    d = online(server)
    a, b = seat_page(new_page, server, d, 0), seat_page(new_page, server, d, 1)
    move(a)
    move(b)
    a.wait_for_selector("#resign")
    assert a.locator("#abort").count() == 0


def test_claim_the_win_from_a_player_who_went_away(server, new_page) -> None:
    d = online(server)
    a, b = seat_page(new_page, server, d, 0), seat_page(new_page, server, d, 1)
    assert a.locator("#claim-win").count() == 0
    b.close()  # the other player leaves
    line = a.locator("#away-line p[data-away='1']")
    line.wait_for()
    assert "is away" in line.inner_text()
    a.wait_for_selector("#claim-win", timeout=(GRACE + 5) * 1000)
    a.click("#claim-win")
    a.wait_for_selector("#table-root[data-terminal='1']")
    assert a.inner_text("#banner-title") == "You win!"
    assert "was away" in a.inner_text("#result-how")


def test_a_correspondence_move_and_the_lobby_badge(server, new_page) -> None:
    host = new_page()
    host.goto(server.url + "/")
    host.wait_for_selector("#lobby[data-ready='1']")
    host.click("[data-new='blast-radius']")
    host.check("input[name=mode][value=online]")
    host.click("#more-options summary")
    host.select_option("#clock-kind", "days")
    host.fill("#clock-amount", "3")
    host.click("#create-go")
    wait_ready(host)
    view = host.evaluate("window.boardlab.view")
    assert view["table"]["clock"]["kind"] == "days" and view["clock"]["text"] == "3 days a move"
    assert view["endings"]["claim_after"] is None  # the days a move decide, not a claim
    table = view["table"]["id"]
    guest_link = host.input_value("#invite-rows input[aria-label$='link']")

    # the lobby: this browser's table waits for its move
    host.goto(server.url + "/")
    row = host.locator(f"#my-tables .row[data-table='{table}']")
    host.wait_for_selector(f"[data-your-move='{table}']")
    assert host.inner_text("#my-turn-count") == "1 your move"
    assert "days" in row.inner_text()
    shot(host, "endings-lobby-your-move")

    # a correspondence move; then it is the other player's move, not this browser's
    row.locator("a").click()
    wait_ready(host)
    move(host)
    host.goto(server.url + "/")
    host.wait_for_selector("#my-tables-box[data-ready='1']")
    assert host.locator(f"[data-your-move='{table}']").count() == 0
    assert host.locator("#my-turn-count").is_hidden()

    # the other player's browser: their move, badge and all
    guest = new_page()
    guest.goto(guest_link)
    wait_ready(guest)
    guest.goto(server.url + "/")
    guest.wait_for_selector(f"[data-your-move='{table}']")
    assert guest.inner_text("#my-turn-count") == "1 your move"
