"""Every registered game can be played to its end in the browser: against `random`, by clicking
targets chosen at random until the result banner shows; the scenes the page draws fit the scene schema."""

from __future__ import annotations

import pytest
from browser_helpers import autoplay, create, shot, small_options, wait_ready

import boardlab
from boardlab.core.scene import scene_schema, schema_problems

#: Keys of a live view's compact scene (server/views.py compact_scene), not of the game's scene.
TRANSPORT = ("geometry", "cell_fills", "edge_styles")


def drawn_scene_problems(page) -> list[str]:
    """Where the scene the table page drew last (cells and edges put back) breaks the schema."""
    scene = page.evaluate("document.getElementById('table-root').renderedScene")
    assert scene, "the page drew no scene"
    return schema_problems({k: v for k, v in scene.items() if k not in TRANSPORT}, scene_schema())


pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game_id", boardlab.games())
def test_play_to_the_end_by_clicking(game_id: str, server, new_page) -> None:
    game = boardlab.make(game_id)
    n = game.default_players or game.min_players
    seats = [{"kind": "human"}] + [{"kind": "ai", "agent": "random"}] * (n - 1)
    options = small_options(game_id)
    # a seed only where the server accepts one, every seat human: a table with an AI seat draws from a secret key
    seed = {"seed": 3} if n == 1 else {}
    d = create(server, game=game_id, options=options, mode="ai" if n > 1 else "hotseat", seats=seats, **seed)
    page = new_page()
    page.goto(d["links"]["host"])
    wait_ready(page)
    assert drawn_scene_problems(page) == []
    result = autoplay(page, seed=7)
    shot(page, f"every-game-{game_id}")
    assert drawn_scene_problems(page) == []
    assert result.get("over"), result
    assert page.get_attribute("#banner", "data-kind") == "result"
    assert result["banner"]
