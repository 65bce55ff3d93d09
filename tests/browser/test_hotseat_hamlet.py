"""A hot-seat Hamlet game on one device: a pass-the-device screen before each seat's turn, and each
seat's screen shows only that seat's hidden card."""

from __future__ import annotations

import random

import httpx
import pytest
from browser_helpers import create, shot

import boardlab

pytestmark = pytest.mark.browser


def test_hotseat_hamlet(server, new_page) -> None:
    if "hamlet" not in boardlab.games():
        pytest.skip("hamlet is not registered yet")
    d = create(server, game="hamlet", mode="hotseat", seed=5)
    tokens = d["tokens"]
    page = new_page()
    page.goto(d["links"]["host"])
    root = page.locator("#table-root")
    # the log as it stands the moment a pass screen opens (before the public view comes): nothing private in it
    page.evaluate(
        """() => { window.passLogs = []; const pass = document.getElementById('pass');
        new MutationObserver(() => { if (!pass.classList.contains('hidden')) window.passLogs.push(
          [...document.querySelectorAll('#log li')].map((li) => li.innerText)); })
        .observe(pass, { attributes: true, attributeFilter: ['class'] }); }"""
    )
    rng = random.Random(3)
    passes = {0: 0, 1: 0}
    moved = False  # a public move seen in the public log
    for _ in range(200):
        page.wait_for_selector(
            "#pass:not(.hidden), #table-root[data-your-turn='1'][data-busy='0'], #table-root[data-terminal='1']"
        )
        if root.get_attribute("data-terminal") == "1" and page.locator("#pass.hidden").count():
            break
        if page.locator("#pass:not(.hidden)").count():
            name = page.inner_text("#pass-name")
            seat = 0 if name.startswith("Player 1") else 1
            passes[seat] += 1
            if passes[seat] == 1:
                shot(page, f"hamlet-hotseat-pass-seat{seat}")
            # behind the pass screen the page holds only the public view
            assert root.get_attribute("data-seat") in ("", None)
            # ... and its log: public moves in words, cards dealt or drawn face down
            log = page.locator("#log li").all_inner_texts()
            assert not any("cannot see" in line for line in log)
            assert all(line.split(": ", 1)[1].startswith("dealt a card") for line in log if ": dealt" in line)
            moved = moved or any(w in line for line in log for w in ("locked", "traded", "chose to draw"))
            page.click("#pass-go")
            page.wait_for_selector(f"#table-root[data-seat='{seat}'][data-your-turn='1']")
            # this seat's screen shows exactly this seat's view: its card face up, what it may not know face down
            mine = httpx.get(
                f"{server.url}/api/tables/{d['id']}", headers={"Authorization": f"Bearer {tokens[str(seat)]}"}
            ).json()
            public = httpx.get(
                f"{server.url}/api/tables/{d['id']}?public=true", headers={"Authorization": f"Bearer {tokens['0']}"}
            ).json()
            assert mine["seat"] == seat and mine["revision"] == int(root.get_attribute("data-revision"))
            secret = 0
            for zone, pz in zip(mine["scene"]["zones"], public["scene"]["zones"]):
                shown = page.locator(f".zone[data-zone='{zone['id']}'] .item .label").all_inner_texts()
                assert shown == [("face down" if i["face_down"] else i["label"]) for i in zone["items"]], zone["id"]
                secret += sum(1 for i, j in zip(zone["items"], pz["items"]) if j["face_down"] and not i["face_down"])
            assert secret >= 1  # something this seat sees that a spectator does not
            if passes[seat] == 1:
                shot(page, f"hamlet-hotseat-seat{seat}")
            continue
        rev = root.get_attribute("data-revision")
        buttons = page.locator(".buttons button, svg g.target, .zones button.item")
        buttons.nth(rng.randrange(buttons.count())).click()
        page.wait_for_function(
            "rev => { const r = document.getElementById('table-root');"
            " return r.dataset.revision !== rev || !document.getElementById('pass').classList.contains('hidden'); }",
            arg=rev,
        )
    at_pass = page.evaluate("window.passLogs")
    assert len(at_pass) >= 2
    assert not [line for log in at_pass for line in log if ": dealt" in line and "dealt a card" not in line]
    assert page.get_attribute("#banner", "data-kind") == "result"
    assert passes[0] >= 1 and passes[1] >= 1
    assert moved
    shot(page, "hamlet-hotseat-result")
