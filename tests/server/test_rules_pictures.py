"""Rules pages' diagrams (``position`` blocks drawn from the game's scene) and the lobby's game pictures."""

from __future__ import annotations

import json
import re

import pytest

import boardlab
from boardlab.core.scene import check_scene
from boardlab.server.markdown import to_html
from boardlab.server.pictures import PositionError, diagram, diagram_html, parse_block, position

SCENE = re.compile(r"<script type='application/json' class='diagram-scene'>(.*?)</script>", re.S)


def test_a_position_block_names_a_position_by_its_moves() -> None:
    state = position("blast-radius", parse_block("moves: e5; a1\noptions: board_side=5"))
    assert state.game.params["board_side"] == 5
    assert len(state.history()) == 2
    d = diagram("blast-radius", "moves: e5; a1\noptions: board_side=5\ncaption: Two towers.")
    assert d["caption"] == "Two towers." and d["last_move"] == "Blue builds a tower on a1"
    assert {p["at"] for p in d["scene"]["pieces"]} == {"e5", "a1"}


def test_a_bad_block_says_what_is_wrong_and_the_page_still_renders() -> None:
    with pytest.raises(PositionError, match="known key"):
        parse_block("colour: red")
    with pytest.raises(PositionError, match="not legal"):
        position("blast-radius", parse_block("moves: e5; e5"))
    with pytest.raises(PositionError, match="no option"):
        position("blast-radius", parse_block("options: size=3"))
    html = to_html("```position\nmoves: zz9\n```", fences={"position": lambda t: diagram_html("radius", t)})
    assert html.startswith("<p class='diagram-error'>This diagram could not be drawn:")


def test_a_diagram_is_a_view_of_the_position_and_never_shows_a_hidden_card() -> None:
    """A spectator's view unless the block names a seat: the JSON in the page is that view's scene, as a table's."""
    block = "random: 0\nseed: 1"
    state = position("hamlet", parse_block(block))
    html = diagram_html("hamlet", block)
    scene = json.loads(SCENE.search(html).group(1))
    check_scene(scene, [])
    spectator = state.game.scene(state.observation(None), [])
    assert [len(z.get("items") or []) for z in scene["zones"]] == [
        len(z.get("items") or []) for z in spectator["zones"]
    ]
    dealt = [it for z in scene["zones"][:2] for it in z.get("items") or []]
    assert dealt and all(it.get("face_down") for it in dealt)  # both dealt cards hidden from a spectator
    assert "</script" not in SCENE.search(html).group(1)


def test_every_rules_page_draws_its_diagrams_before_the_rules(client) -> None:
    for gid in boardlab.games():
        r = client.get(f"/rules/{gid}")
        assert r.status_code == 200
        page = r.text
        assert '<h2 id="how-to-play-in-one-minute">How to play in one minute</h2>' in page, gid
        assert "diagram-error" not in page, gid
        assert page.index("class='diagram'") < page.index('<h2 id="rules">Rules</h2>'), gid
        assert "/static/js/rules.js" in page
        rules = client.get(f"/api/games/{gid}/rules").json()
        assert "class='diagram'" in rules["html"] and "```position" in rules["markdown"]


def test_the_lobby_picture_of_every_game(client) -> None:
    for gid in boardlab.games():
        r = client.get(f"/api/games/{gid}/picture")
        assert r.status_code == 200 and "max-age" in r.headers["cache-control"]
        scene = r.json()["scene"]
        check_scene(scene, [])
        assert scene.get("cells") or scene.get("zones"), gid
        assert not scene.get("targets"), gid
    assert client.get("/api/games/nope/picture").status_code == 404


def test_the_listing_says_how_long_a_game_lasts(client) -> None:
    listed = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert all(isinstance(g["typical_moves"], int) and g["typical_moves"] > 0 for g in listed.values())
    assert listed["hamlet"]["typical_moves"] < listed["kasta"]["typical_moves"]
