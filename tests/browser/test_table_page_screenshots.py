"""Screenshots of every game's table at 1280x800 and 390x844 (docs/screenshots/), each a few moves into a hot-seat game.

``make screenshots`` (``BOARDLAB_UPDATE_SCREENSHOTS=1``) plays each game a few clicks through the page (seeded, the
same clicks at both sizes) and saves ``<game>.png`` (1280x800; the README shows three) and ``<game>-phone.png``
(390x844), made small (a 256-colour palette). An ordinary run checks that every committed screenshot exists, has its
size and that all of them together stay small, and takes one picture live, so the machinery keeps working.
"""

from __future__ import annotations

import os
import pathlib
import struct
from typing import Any

import pytest
from browser_helpers import ARTIFACTS, autoplay, create, settle

import boardlab

pytestmark = pytest.mark.browser

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "screenshots"
UPDATE = os.environ.get("BOARDLAB_UPDATE_SCREENSHOTS") == "1"
SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
#: game id -> (table seed, clicks before the picture); any game not listed: seed 1, 6 clicks
GAMES: dict[str, tuple[int, int]] = {
    "blast-radius": (1, 24),
    "hamlet": (5, 2),
    "cirque": (2, 16),
}
#: The README's screenshots, and all of them together (bytes).
MAX_ONE, MAX_ALL = 250_000, 3_000_000


def shot_path(game_id: str, size: str) -> pathlib.Path:
    return DOCS / (f"{game_id}.png" if size == "laptop" else f"{game_id}-{size}.png")


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


def take(page: Any, server: Any, game_id: str, size: str) -> pathlib.Path:
    """A hot-seat table of ``game_id`` (its standard options), a few seeded clicks in, photographed at ``size``."""
    seed, clicks = GAMES.get(game_id, (1, 6))
    game = boardlab.make(game_id)
    n = game.default_players or game.min_players
    d = create(server, game=game_id, mode="hotseat", seed=seed, seats=[{"kind": "human"}] * n)
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    page.goto(d["links"]["host"])
    page.wait_for_selector("#table-root[data-ready='1']")
    settle(page, paint=False)
    if clicks:
        autoplay(page, seed=seed, max_clicks=clicks)
    settle(page, paint=False)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_timeout(700)  # let the last move's animation finish
    ARTIFACTS.mkdir(exist_ok=True)
    raw = ARTIFACTS / f"screenshot-{shot_path(game_id, size).name}"
    page.screenshot(path=str(raw))
    assert png_size(raw) == SIZES[size]
    return raw


@pytest.mark.skipif(not UPDATE, reason="make screenshots renews them (BOARDLAB_UPDATE_SCREENSHOTS=1)")
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game_id", boardlab.games())
def test_screenshot(game_id: str, size: str, server: Any, new_page: Any) -> None:
    page = new_page(*SIZES[size])
    raw = take(page, server, game_id, size)
    DOCS.mkdir(parents=True, exist_ok=True)
    small_png(raw, shot_path(game_id, size))


def test_a_screenshot_is_taken(server: Any, new_page: Any) -> None:
    """The machinery of ``make screenshots`` works (one picture, under artifacts/)."""
    raw = take(new_page(390, 844), server, "two-mayors", "phone")
    assert raw.stat().st_size > 10_000  # a drawn page, not a blank one


@pytest.mark.parametrize("size", list(SIZES))
def test_every_game_has_its_screenshots(size: str) -> None:
    missing = [g for g in boardlab.games() if not shot_path(g, size).exists()]
    assert not missing, f"screenshots missing at {SIZES[size]}: {missing}: run `make screenshots`"
    for g in boardlab.games():
        path = shot_path(g, size)
        assert png_size(path) == SIZES[size], path
        assert path.stat().st_size < MAX_ONE, f"{path} is large"
    total = sum(p.stat().st_size for p in DOCS.glob("*.png"))
    assert total < MAX_ALL, f"docs/screenshots/ holds {total} bytes: keep the screenshots small"
