"""The new-table dialog, for every game, on a laptop and on a phone: "Create the table" is in view without scrolling
(the dialog's foot stays put), the rule options are folded under "More options" and read in players' words (labels,
not the API's code words like ``strict_both``), and the phone dialog does not stick out sideways."""

from __future__ import annotations

import re
from typing import Any

import pytest

from boardlab.games import games

pytestmark = pytest.mark.browser

#: A code word: lowercase words joined by underscores (``start_flocking``, ``hidden_hands``).
CODE_WORD = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b")

MEASURE = """() => {
  const d = document.getElementById("create"), go = document.getElementById("create-go");
  const r = go.getBoundingClientRect(), dr = d.getBoundingClientRect();
  const texts = [...d.querySelectorAll("#options-box, #clock-box")].filter((x) => x.offsetParent).map((x) => x.innerText);
  const choices = [...d.querySelectorAll("#options option")].map((o) => o.textContent);
  return {
    button: [r.top, r.bottom, r.left, r.right], dialog: [dr.left, dr.right],
    view: [innerWidth, innerHeight], hit: document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2) === go,
    sideways: d.scrollWidth - d.clientWidth, bodySideways: d.querySelector(".dlg-body").scrollWidth
      - d.querySelector(".dlg-body").clientWidth,
    text: [...texts, ...choices].join("\\n"),
  };
}"""


def check_in_view(m: dict[str, Any], where: str) -> None:
    top, bottom, left, right = m["button"]
    width, height = m["view"]
    assert top >= 0 and bottom <= height and left >= 0 and right <= width, f"{where}: create button at {m['button']}"
    assert m["hit"], f"{where}: the create button is covered"


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["laptop", "phone"])
def test_the_new_table_dialog_fits_and_speaks_players_words(server: Any, new_page: Any, size: tuple[int, int]) -> None:
    page = new_page(*size)
    page.goto(server.url)
    page.wait_for_selector("#lobby[data-ready='1']")
    for game_id in games():
        where = f"{game_id} at {size[0]}x{size[1]}"
        page.click(f"[data-new='{game_id}']")
        page.wait_for_selector("#create[open]")
        assert not page.locator("#more-options").evaluate("d => d.open"), f"{where}: options should start folded"
        check_in_view(page.evaluate(MEASURE), where)
        page.click("#more-options > summary")
        page.select_option("#clock-kind", "game")  # the clock's amount field, the widest row on a phone
        m = page.evaluate(MEASURE)
        check_in_view(m, where + ", options open")
        assert m["sideways"] <= 0 and m["bodySideways"] <= 0, f"{where}: the dialog scrolls sideways"
        assert m["dialog"][0] >= 0 and m["dialog"][1] <= size[0], f"{where}: the dialog sticks out {m['dialog']}"
        words = sorted(set(CODE_WORD.findall(m["text"])))
        assert not words, f"{where}: code words shown to players: {words}"
        page.click("#create-close")
        page.wait_for_selector("#create:not([open])", state="attached")


def test_an_option_value_is_sent_as_its_code_word(server: Any, new_page: Any) -> None:
    page = new_page(1280, 800)
    page.goto(server.url)
    page.wait_for_selector("#lobby[data-ready='1']")
    page.click("[data-new='flock-of-sheep']")
    page.click("#more-options > summary")
    labels = page.eval_on_selector_all("#opt-dispersing option", "os => os.map((o) => o.textContent)")
    assert labels[0] == "Neither may grow, one must fall (standard)" and "Both must fall" in labels
    assert page.inner_text("label[for='opt-phase1_no_new_contact']") == "Phase 1 no new contact"  # an option's name
    page.select_option("#opt-dispersing", label="Both must fall")
    assert "1 rule changed" in page.inner_text("#more-summary")
    with page.expect_request(lambda r: r.url.endswith("/api/tables") and r.method == "POST") as req:
        page.click("#create-go")
    assert req.value.post_data_json["options"]["dispersing"] == "strict_both"
