"""Screenshots of three tables at 1280x800 for the README (docs/screenshots/), each a few moves into a hot-seat game.

Every run saves them under artifacts/; with ``BOARDLAB_UPDATE_SCREENSHOTS=1`` (``make screenshots``) they replace
the committed ones in docs/screenshots/, made small (a 256-colour palette). The test checks that each committed
screenshot exists, is a 1280x800 PNG and stays small.
"""

from __future__ import annotations

import os
import pathlib
import random
import struct
from typing import Any

import pytest
from browser_helpers import ARTIFACTS, create

pytestmark = pytest.mark.browser

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "screenshots"
#: game id -> (table options and seed, moves to click before the picture)
GAMES: dict[str, tuple[dict[str, Any], int]] = {
    "blast-radius": ({"seed": 1}, 24),
    "hamlet": ({"seed": 5}, 2),
    "cirque": ({"seed": 2}, 16),
}


def png_size(path: pathlib.Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def small_png(source: pathlib.Path, target: pathlib.Path) -> None:
    """``source`` as a 256-colour PNG at ``target`` (Pillow when installed, else a plain copy)."""
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - Pillow comes with the test extras
        target.write_bytes(source.read_bytes())
        return
    with Image.open(source) as im:
        im.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(target, optimize=True)


def play_a_few(page: Any, moves: int, seed: int) -> None:
    """Click ``moves`` legal targets (past any pass screen), chosen by a seeded random generator."""
    rng = random.Random(seed)
    for _ in range(moves):
        page.wait_for_selector("#pass:not(.hidden), #table-root[data-your-turn='1'][data-busy='0']")
        if page.locator("#pass:not(.hidden)").count():
            page.click("#pass-go")
            page.wait_for_selector("#table-root[data-your-turn='1'][data-busy='0']")
        rev = page.get_attribute("#table-root", "data-revision")
        targets = page.locator("svg g.target, .zones button.item, .buttons button")
        targets.nth(rng.randrange(targets.count())).dispatch_event("click")
        menu = page.locator(".chooser button[role=menuitem]")
        if menu.count():
            menu.nth(rng.randrange(menu.count())).click()
        page.wait_for_function(f"() => document.getElementById('table-root').dataset.revision !== '{rev}'")
    page.wait_for_selector("#pass:not(.hidden), #table-root[data-your-turn='1'][data-busy='0']")
    if page.locator("#pass:not(.hidden)").count():
        page.click("#pass-go")
        page.wait_for_selector("#table-root[data-your-turn='1'][data-busy='0']")


@pytest.mark.parametrize("game_id", list(GAMES))
def test_readme_screenshot(game_id: str, server, new_page) -> None:
    body, moves = GAMES[game_id]
    d = create(server, game=game_id, mode="hotseat", **body)
    page = new_page(width=1280, height=800)
    page.goto(d["links"]["host"])
    page.wait_for_selector("#table-root[data-ready='1']")
    play_a_few(page, moves, seed=body["seed"])
    page.wait_for_timeout(700)  # let the last move's animation finish
    ARTIFACTS.mkdir(exist_ok=True)
    raw = ARTIFACTS / f"readme-{game_id}.png"
    page.screenshot(path=str(raw))
    assert png_size(raw) == (1280, 800)
    committed = DOCS / f"{game_id}.png"
    if os.environ.get("BOARDLAB_UPDATE_SCREENSHOTS") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        small_png(raw, committed)
    assert committed.exists(), f"{committed} is missing: run `make screenshots`"
    assert png_size(committed) == (1280, 800)
    assert committed.stat().st_size < 250_000, "keep README screenshots small"
