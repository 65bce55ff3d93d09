"""Optional sounds at a table: one per kind of event (a move, a capture, your turn, the end), made with WebAudio.

The page's AudioContext is spied on: what the page schedules is recorded (oscillators and noise started).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from browser_helpers import autoplay, create, wait_ready

pytestmark = pytest.mark.browser

#: Wraps AudioContext before the page runs: every context made and every sound source started is counted.
SPY = """
(() => {
  const Real = window.AudioContext;
  window.__audio = { contexts: 0, started: 0, noises: 0 };
  class Spy extends Real {
    constructor(...a) { super(...a); window.__audio.contexts++; }
    createOscillator() {
      const o = super.createOscillator(); const start = o.start.bind(o);
      o.start = (...a) => { window.__audio.started++; return start(...a); }; return o;
    }
    createBufferSource() {
      const s = super.createBufferSource(); const start = s.start.bind(s);
      s.start = (...a) => { window.__audio.noises++; return start(...a); }; return s;
    }
  }
  window.AudioContext = Spy;
})();
"""


def blue_moves(server: Any, d: dict[str, Any]) -> None:
    url = f"{server.url}/api/tables/{d['id']}"
    h = {"Authorization": f"Bearer {d['tokens']['1']}"}
    v = httpx.get(url, headers=h, timeout=20).json()
    r = httpx.post(url + "/moves", headers=h, json={"action": v["legal"][0][0], "revision": v["revision"]}, timeout=20)
    assert r.status_code == 200, r.text


def click_a_target(page: Any) -> None:
    rev = page.get_attribute("#table-root", "data-revision")
    page.locator("svg g.target").first.dispatch_event("click")
    page.wait_for_function(f"() => document.getElementById('table-root').dataset.revision !== '{rev}'")


def audio(page: Any) -> dict[str, int]:
    return page.evaluate("window.__audio")


def window_sounds(page: Any) -> dict[str, int]:
    return page.evaluate("window.boardlab.sounds")


def test_sound_is_off_by_default_remembered_and_a_move_schedules_one(server, new_page) -> None:
    d = create(server, game="blast-radius", mode="online", host_seat=0)
    page = new_page(1280, 800)
    page.add_init_script(SPY)
    page.goto(d["links"]["host"])
    wait_ready(page)
    page.wait_for_selector("#table-root[data-your-turn='1']")
    sound = page.locator("#sound")
    assert sound.get_attribute("aria-pressed") == "false" and sound.inner_text() == "Sound off"
    click_a_target(page)  # sound off: a move plays nothing, and no audio is even started
    blue_moves(server, d)
    page.wait_for_selector("#table-root[data-your-turn='1']")
    assert audio(page) == {"contexts": 0, "started": 0, "noises": 0}
    sound.click()
    assert sound.get_attribute("aria-pressed") == "true"
    page.reload()
    wait_ready(page)
    page.wait_for_selector("#table-root[data-your-turn='1']")
    assert page.get_attribute("#sound", "aria-pressed") == "true"  # remembered in this browser
    assert audio(page)["started"] == 0  # loading the page is no event
    click_a_target(page)
    page.wait_for_function("() => window.boardlab.sounds.move === 1")
    assert audio(page)["started"] >= 1, audio(page)  # the knock was scheduled on the page's AudioContext
    before = audio(page)["started"]
    blue_moves(server, d)  # the other player's move, and then it is your turn: a knock, then two notes
    page.wait_for_function("() => window.boardlab.sounds.turn === 1")
    assert window_sounds(page)["move"] == 2
    assert audio(page)["started"] >= before + 3
    page.click("#sound")  # off again: the next move is silent
    assert page.evaluate("localStorage.getItem('boardlab.turnSound')") == "off"
    quiet = audio(page)["started"]
    click_a_target(page)
    assert audio(page)["started"] == quiet and window_sounds(page)["move"] == 2


def test_the_end_of_a_game_has_its_sound(server, new_page) -> None:
    d = create(server, game="hamlet", mode="ai", seats=[{"kind": "human"}, {"kind": "ai", "agent": "random"}])
    page = new_page(1280, 800)
    page.add_init_script(SPY)
    page.add_init_script("localStorage.setItem('boardlab.turnSound', 'on')")
    page.goto(d["links"]["host"])
    wait_ready(page)
    result = autoplay(page, seed=3)
    assert result.get("over"), result
    page.wait_for_function("() => window.boardlab.sounds.end === 1")
    assert audio(page)["started"] >= 3


KINDS = """async () => {
  const { soundEvents } = await import("/static/js/sounds.js");
  const v = (m, yours, over = false) => ({ move_number: m, your_turn: yours, terminal: over, seat: 0 });
  const s = (...owners) => ({ pieces: owners.map((o, k) => ({ at: `c${k}`, owner: o })) });
  return {
    first: soundEvents(null, v(0, true), null, s()),
    placed: soundEvents(v(3, true), v(4, false), s(0, 1), s(0, 1, 0)),
    moved: soundEvents(v(3, true), v(4, false), s(0, 1), s(1, 0)),
    captured: soundEvents(v(3, false), v(4, true), s(0, 1, 1), s(0, 1)),
    replaced: soundEvents(v(3, true), v(4, false), s(0, 1), s(0, 0)),
    step: soundEvents(v(3, true), v(4, true), s(0), s(0, 0)),
    over: soundEvents(v(8, false), v(9, false, true), s(0, 1), s(0, 1, 1)),
    nothing: soundEvents(v(3, false), v(3, false), s(0), s(0)),
  };
}"""


def test_the_kinds_of_event_come_from_the_views_alone(server, new_page) -> None:
    """A move, a capture (some player has fewer pieces: taken, blasted or replaced), your turn, the end."""
    page = new_page()
    page.goto(server.url + "/")
    k = page.evaluate(KINDS)
    assert k["first"] == []
    assert k["placed"] == ["move"] and k["moved"] == ["move"]
    assert k["captured"] == ["capture", "turn"] and k["replaced"] == ["capture"]
    assert k["step"] == ["move"]  # the next step of one's own turn is no new turn
    assert k["over"] == ["move", "end"] and k["nothing"] == []
