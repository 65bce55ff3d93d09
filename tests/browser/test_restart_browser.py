"""A page open on a table while the server is killed (SIGKILL) and restarted: it reconnects by itself
and shows the table at its last acknowledged move, and play goes on."""

from __future__ import annotations

import pytest
from browser_helpers import create, shot, wait_ready

from boardlab.server.launch import ServerProcess

pytestmark = pytest.mark.browser


def test_page_survives_a_server_crash(new_page, tmp_path) -> None:
    db = f"sqlite:///{tmp_path}/crash.db"
    server = ServerProcess(db, log_path=str(tmp_path / "one.log")).start()
    try:
        d = create(server, game="blast-radius", options={"board_side": 5}, mode="hotseat", seed=9)
        page = new_page(allow_network_errors=True)
        page.goto(d["links"]["host"])
        wait_ready(page)
        for k in (1, 2, 3):
            page.locator("svg g.target").nth(k * 7).click()
            # hot-seat: the page first draws the mover's view, then switches to the seat to move
            page.wait_for_selector(f"#table-root[data-revision='{k}'][data-your-turn='1']")
        log_before = page.locator("#log li").all_inner_texts()
        server.kill()
        page.wait_for_selector("#conn[data-state='down']")
        shot(page, "restart-reconnecting")
    finally:
        server.stop()
    again = ServerProcess(db, port=server.port, log_path=str(tmp_path / "two.log")).start()
    try:
        page.wait_for_selector("#conn[data-state='live']", timeout=30000)
        page.wait_for_selector("#table-root[data-revision='3'][data-your-turn='1']")
        assert page.locator("#log li").all_inner_texts() == log_before
        page.locator("svg g.target").first.click()
        page.wait_for_selector("#table-root[data-revision='4']")
        shot(page, "restart-resumed")
    finally:
        again.stop()
