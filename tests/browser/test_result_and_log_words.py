"""The result panel reads short: a long account among the result's lines (Combat's narrative of its last battle) is
folded under its heading; and the move log's numbers have room past 99 (three digits were clipped)."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from browser_helpers import create, wait_ready

pytestmark = pytest.mark.browser

AI = {"kind": "ai", "agent": "random"}


def played_out(server: Any, game: str, **body: Any) -> dict[str, Any]:
    """An AI-against-AI table the server plays to its end on its own."""
    d = create(server, game=game, mode="ai", seats=[AI, AI], watch=True, **body)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        v = httpx.get(f"{server.url}/api/tables/{d['id']}", headers={"Authorization": f"Bearer {d['spectator_token']}"})
        if v.json()["terminal"]:
            return d
        time.sleep(0.2)
    raise AssertionError(f"{game} did not end")


def test_combat_s_narrative_is_folded_in_the_result(server: Any, new_page: Any) -> None:
    d = played_out(server, "combat")
    page = new_page(1280, 800)
    page.goto(d["links"]["spectator"])
    wait_ready(page)
    page.wait_for_selector("#result:not(.hidden)")
    lines = page.eval_on_selector_all("#result-scores > li", "ls => ls.map((l) => l.innerText)")
    assert lines and max(len(x) for x in lines) <= 140, lines
    account = page.locator("#result-scores details.account")
    assert account.count() == 1 and not account.evaluate("d => d.open")
    assert page.inner_text("#result-scores details.account summary") == "Combat"
    account.locator("summary").click()
    assert "Cycle" in account.inner_text() and len(account.inner_text()) > 140


def test_log_numbers_past_99_are_not_clipped(server: Any, new_page: Any) -> None:
    # a seeded hot-seat table, each move the same pick from the legal list: the same 105 moves on every run
    d = create(server, game="elephant-monkey-mice", mode="hotseat", seed=1, options={"turn_limit": 100})
    url, tokens = f"{server.url}/api/tables/{d['id']}", d["tokens"]
    for k in range(105):
        v = httpx.get(url, headers={"Authorization": f"Bearer {tokens['0']}"}).json()
        if v["terminal"]:
            break
        h = {"Authorization": f"Bearer {tokens[str(v['to_act'][0])]}"}
        w = httpx.get(url, headers=h).json()
        r = httpx.post(
            url + "/moves",
            headers=h,
            json={"action": w["legal"][k * 7 % len(w["legal"])][0], "revision": w["revision"]},
        )
        assert r.status_code == 200, r.text
    page = new_page(1280, 800)
    page.goto(d["links"]["spectator"])
    wait_ready(page)
    m = page.evaluate(
        """() => {
        const box = document.getElementById("log"), li = box.lastElementChild;
        const ctx = document.createElement("canvas").getContext("2d");
        ctx.font = getComputedStyle(li).font;
        return {n: box.children.length, room: parseFloat(getComputedStyle(box).paddingLeft),
                need: ctx.measureText(`${li.value}. `).width};
      }"""
    )
    assert m["n"] >= 100, m
    assert m["room"] >= m["need"] + 4, m  # the marker "123. " fits in the list's left padding
