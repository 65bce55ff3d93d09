"""The lobby's games: a picture of each (drawn from its scene), a search box and filters from the games' metadata."""

from __future__ import annotations

import httpx
import pytest

pytestmark = pytest.mark.browser

SHOWN = "() => [...document.querySelectorAll('#games .game-card')].filter((c) => c.offsetParent !== null).map((c) => c.dataset.game)"


def games(server) -> list[dict]:
    return httpx.get(server.url + "/api/games", timeout=20).json()["games"]


def lobby(new_page, server, width: int = 1280, height: int = 800):
    page = new_page(width, height)
    page.goto(server.url + "/")
    page.wait_for_selector("#lobby[data-ready='1']")
    return page


def test_every_card_has_a_picture_of_its_game(server, new_page) -> None:
    page = lobby(new_page, server)
    n = page.locator("#games .game-card").count()
    assert n == len(games(server))
    for k in range(n):  # pictures are drawn as cards come into view
        page.locator("#games .game-card .thumb").nth(k).scroll_into_view_if_needed()
    page.wait_for_function(f"document.querySelectorAll('.game-card .thumb[data-drawn=\"1\"]').length === {n}")
    pics = page.evaluate("""() => [...document.querySelectorAll('.game-card')].map((c) => {
      const t = c.querySelector('.thumb'), box = t.getBoundingClientRect();
      return {game: c.dataset.game, first: c.firstElementChild === t, w: box.width, h: box.height,
              drawn: t.querySelectorAll('svg polygon, svg circle, svg rect, .zone .item').length};
    })""")
    for p in pics:
        assert p["first"] and p["w"] >= 200 and p["h"] >= 100, p
        assert p["drawn"] >= 4, f"{p['game']}: the picture draws nothing: {p}"


def test_search_narrows_the_list(server, new_page) -> None:
    page = lobby(new_page, server)
    everything = page.evaluate(SHOWN)
    page.fill("#game-search", "sheep")
    assert page.evaluate(SHOWN) == ["flock-of-sheep"]
    assert page.inner_text("#games-count") == f"1 of {len(everything)} games"
    page.fill("#game-search", "hex board")  # a kind of game: every word must match
    hexes = page.evaluate(SHOWN)
    assert "blast-radius" in hexes and "flock-of-sheep" not in hexes and len(hexes) < len(everything)
    page.fill("#game-search", "zzzz")
    assert page.evaluate(SHOWN) == [] and page.is_visible("#games-none")
    page.click("#filters-clear")
    assert page.evaluate(SHOWN) == everything and page.input_value("#game-search") == ""


def test_filters_follow_the_games_metadata(server, new_page) -> None:
    meta = {g["id"]: g for g in games(server)}
    page = lobby(new_page, server)
    page.select_option("#filter-players", "4")
    assert set(page.evaluate(SHOWN)) == {i for i, g in meta.items() if g["min_players"] <= 4 <= g["max_players"]}
    page.select_option("#filter-players", "1")
    assert page.evaluate(SHOWN) == ["new-rule"]  # the one game for one player
    page.select_option("#filter-players", "")

    page.select_option("#filter-luck", "none")
    no_luck = set(page.evaluate(SHOWN))
    assert no_luck == {i for i, g in meta.items() if g["game_type"]["chance"] == "none"}
    assert "blast-radius" in no_luck and "kasta" not in no_luck
    page.select_option("#filter-luck", "")

    page.select_option("#filter-hidden", "hidden")
    hidden = set(page.evaluate(SHOWN))
    assert hidden == {i for i, g in meta.items() if not g["perfect_information"]}
    assert "hamlet" in hidden and "radius" not in hidden
    page.select_option("#filter-hidden", "")

    page.select_option("#filter-length", "quick")
    quick = set(page.evaluate(SHOWN))
    assert quick and quick == {i for i, g in meta.items() if g["typical_moves"] and g["typical_moves"] <= 25}
    assert "hamlet" in quick and "kasta" not in quick
    page.select_option("#filter-length", "long")
    assert "kasta" in page.evaluate(SHOWN)
    # filters combine
    page.select_option("#filter-luck", "chance")
    assert set(page.evaluate(SHOWN)) == {
        i for i, g in meta.items() if (g["typical_moves"] or 0) > 80 and g["game_type"]["chance"] != "none"
    }


def test_a_game_card_says_how_long_a_game_lasts(server, new_page) -> None:
    page = lobby(new_page, server)
    facts = page.inner_text("[data-game='hamlet'] .facts")
    assert "about 6 moves" in facts, facts
