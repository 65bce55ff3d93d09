"""The scene schema: typed dicts exported as JSON Schema, the checker driven by it, boards drawing themselves."""

from __future__ import annotations

import copy
import json
import pathlib
import typing

import pytest

import boardlab
from boardlab.core import scene as sc
from boardlab.core.constants import CHANCE
from boardlab.geometry import BoardData, HexBoard, SquareGrid, TriLattice
from scene_minigame import SceneDemoGame

SCHEMA_FILE = pathlib.Path(sc.__file__).resolve().parents[1] / "web" / "scene.schema.json"


def demo_states() -> list:
    game = SceneDemoGame()
    s = game.new_initial_state()
    states = [s.clone()]
    s.apply_action(5)
    states.append(s.clone())
    s.apply_action(2)
    states.append(s)
    return states


def demo_scene(viewer: int | None = 0) -> dict:
    return demo_states()[1].scene(viewer)


def test_the_committed_schema_file_is_the_types() -> None:
    assert SCHEMA_FILE.read_text() == sc.scene_schema_json(), (
        "web/scene.schema.json is stale: python -m boardlab.core.scene > src/boardlab/web/scene.schema.json"
    )


def test_the_schema_follows_the_typed_dicts() -> None:
    defs = sc.scene_schema()["$defs"]
    for td in (sc.Scene, sc.Cell, sc.Edge, sc.Piece, sc.Zone, sc.Item, sc.Picture, sc.Player, sc.Target):
        hints = typing.get_type_hints(td)
        assert list(defs[td.__name__]["properties"]) == list(hints)
        assert defs[td.__name__]["additionalProperties"] is False
    assert set(defs["Item"]["required"]) == {"id", "label", "kind", "face_down", "detail"}
    assert defs["Item"]["properties"]["value"] == {"anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]}
    assert defs["Edge"]["properties"]["from"]["minItems"] == 2


def test_the_demo_scenes_are_well_formed_for_every_viewer() -> None:
    for s in demo_states():
        for viewer in (0, 1, None):
            legal = s.legal_moves(viewer) if viewer is not None and s.current_player() != CHANCE else []
            assert sc.check_scene(s.scene(viewer), legal) == []


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda s: s.pop("cells"), "scene: lacks 'cells'"),
        (lambda s: s.update(viewbox=[0, 0, 1]), "viewbox: has 3 entries, not 4"),
        (lambda s: s["zones"][0]["items"][0].update(value=2.5), "zones[0].items[0].value: 2.5 is not an integer"),
        (lambda s: s["zones"][0]["items"][0].update(kind="dice"), 'zones[0].items[0].kind: "dice" is not one of'),
        (lambda s: s["zones"][1]["items"][0].update(colur="red"), "zones[1].items[0]: unknown key 'colur'"),
        (lambda s: s["pieces"][0].update(face_down="no"), 'pieces[0].face_down: "no" is not true or false'),
        (lambda s: s["pieces"][0].update(height=0), "pieces[0].height: 0 is below 1"),
        (lambda s: s["cells"][0].update(center=[1, "2"]), 'cells[0].center[1]: "2" is not a number'),
        (lambda s: s["highlights"].append({"at": "a1", "kind": "glow"}), "highlights[0].kind"),
        (lambda s: s["zones"][0]["items"][0].update(value=0), "die 'die' shows 0"),
        (lambda s: s["zones"][1]["items"][2]["picture"]["cells"].append([3, 0]), "fills a square off its 3x2 grid"),
        (lambda s: s["zones"][2]["items"][0]["picture"]["strokes"][0].append([4, 1]), "draws off its 3x2 grid"),
        (lambda s: s["zones"][2]["items"][0]["picture"].update(grid=[3]), "picture.grid: has 1 entries, not 2"),
        (lambda s: s["pieces"].append(dict(s["pieces"][0], at="z9")), "piece at unknown place 'z9'"),
        (lambda s: s["targets"].pop(), "legal actions with neither target nor button: [2]"),
        (lambda s: s["zones"][2]["items"].append(dict(s["zones"][1]["items"][0])), "two zone items share an id"),
        (lambda s: s.update(players=[{"seat": 0, "name": "Red"}]), "players[0]: lacks 'colour'"),
    ],
)
def test_check_scene_says_what_is_wrong(change, problem) -> None:
    s = demo_states()[1]
    scene = copy.deepcopy(s.scene(0))
    change(scene)
    problems = sc.check_scene(scene, s.legal_moves(0))
    assert any(problem in p for p in problems), problems


def test_not_json_is_refused() -> None:
    scene = demo_scene()
    scene["status"] = [float("nan")]
    assert sc.check_scene(scene, [])[0].startswith("scene is not JSON-able")


def test_items_keep_their_old_keys_unless_given_new_ones() -> None:
    assert sc.item("a", "ace") == {"id": "a", "label": "ace", "kind": "card", "face_down": False, "detail": None}
    full = sc.item("a", "ace", value="A", suit="spades", colour="seat1", owner=1, picture=sc.picture((1, 1), [(0, 0)]))
    assert full["value"] == "A" and full["suit"] == "spades" and full["owner"] == 1
    assert full["picture"] == {"grid": [1, 1], "cells": [[0, 0]]}


def test_the_demo_shows_cards_dice_pictures_and_face_down_owned_pieces() -> None:
    red, blue = demo_scene(0), demo_scene(1)
    die = red["zones"][0]["items"][0]
    assert (die["kind"], die["value"]) == ("die", 5)
    assert [i.get("value") for i in red["zones"][1]["items"]] == [7, "Q", 4]
    assert all(i["face_down"] for i in blue["zones"][1]["items"])
    sentries = [p for p in red["pieces"] if p["kind"] == "sentry"]
    assert all(p["face_down"] and p["owner"] == 1 and p["label"] is None for p in sentries)
    assert [p["label"] for p in blue["pieces"] if p["kind"] == "sentry"] == ["8", "3"]
    assert "8" not in json.dumps([p for p in red["pieces"] if p["kind"] == "sentry"])


# -- boards drawing themselves -------------------------------------------------------------


def test_hex_board_cells() -> None:
    board = HexBoard.of_side(3)
    cells = board.scene_cells(label=lambda i: None, fill=["region1"] * len(board))
    assert [c["id"] for c in cells] == list(board.labels)
    assert all(c["label"] is None and c["fill"] == "region1" and len(c["polygon"]) == 6 for c in cells)
    assert board.scene_cells(2.0)[0]["polygon"] == [[round(x, 3), round(y, 3)] for x, y in board.cell_polygons(2.0)[0]]


def test_square_grid_cells_are_chequered_like_a_chessboard() -> None:
    g = SquareGrid(8, 8)
    cells = {c["id"]: c for c in g.scene_cells(fill=g.chess_fill)}
    assert cells["a1"]["fill"] == "dark" and cells["h1"]["fill"] == "light" and cells["a8"]["fill"] == "light"
    assert cells["a8"]["center"] == [0.5, 0.5] and cells["a8"]["polygon"][2] == [1.0, 1.0]


def test_board_data_points_mark_blocked_nodes() -> None:
    b = BoardData.from_dict({"nodes": [{"id": "a", "x": 0, "y": 0}, {"id": "b", "x": 1, "y": 0}], "blocked": ["b"]})
    cells = b.scene_cells(0.25)
    assert [(c["id"], c["kind"], c["radius"], c["fill"]) for c in cells] == [
        ("a", "point", 0.25, None),
        ("b", "point", 0.25, "blocked"),
    ]
    assert [c["fill"] for c in b.scene_cells(fill=("seat0", None))] == ["seat0", None]


def test_tri_lattice_cells_are_triangles_then_points() -> None:
    lat = TriLattice.hexagon(2)
    cells = lat.scene_cells(label=[f"T{k}" for k in range(len(lat.triangles))])
    assert len(cells) == len(lat.triangles) and all(len(c["polygon"]) == 3 for c in cells)
    assert cells[3]["id"] == "T3"
    with_points = lat.scene_cells(point_radius=0.1)
    assert len(with_points) == len(lat.triangles) + len(lat.points)


def test_games_draw_their_boards_through_the_geometry() -> None:
    radius = boardlab.make("radius")
    cells = radius.new_initial_state().scene(None)["cells"]
    assert cells == HexBoard.of_side(radius.params["board_side"]).scene_cells()
    new_rule = boardlab.make("new-rule").new_initial_state().scene(None)["cells"]
    grid = SquareGrid(8, 8)
    assert [(c["id"], c["polygon"], c["fill"]) for c in new_rule] == [
        (c["id"], c["polygon"], c["fill"]) for c in grid.scene_cells(fill=grid.chess_fill)
    ]


@pytest.mark.parametrize(
    ("schema", "value", "problem"),
    [
        ({"type": "string", "maxLength": 3}, "abcd", "scene: "),
        ({"type": "array", "items": {"type": "integer"}, "uniqueItems": True}, [1, 1], "scene: "),
        ({"type": "object", "properties": {"id": {"const": "a1"}}}, {"id": "b2"}, "id: "),
        ({"type": "integer", "maximum": 4}, 5, "scene: "),
    ],
)
def test_schema_problems_checks_every_json_schema_keyword(schema: dict, value: object, problem: str) -> None:
    """A standard validator (jsonschema) does the checking, so no keyword of the schema is silently skipped."""
    problems = sc.schema_problems(value, schema)
    assert len(problems) == 1 and problems[0].startswith(problem), problems


def test_areas_icons_captions_and_two_click_targets_are_checked() -> None:
    """A tile laid over cells, a piece drawn as an icon, words on the board and a move of an item then a place."""
    s = sc.new_scene("Deploy.", (0, 0, 2, 1))
    s["cells"] = [
        sc.cell("a1", (0.5, 0.5), [(0, 0), (1, 0), (1, 1), (0, 1)]),
        sc.cell("b1", (1.5, 0.5), [(1, 0), (2, 0), (2, 1), (1, 1)]),
    ]
    s["cells"].append(sc.cell("tile", (1, 0.5), [(0, 0), (2, 0), (2, 1), (0, 1)], label="T1", kind="area"))
    icon = sc.picture((1, 1), strokes=[[(0.2, 0.2), (0.8, 0.8)]], fills=[[(0.5, 0.1), (0.9, 0.5), (0.5, 0.9)]])
    s["pieces"] = [sc.piece("a1", 0, "troop", label="Sh", picture=icon, detail="Shieldbearer")]
    s["zones"] = [sc.zone("hand", "Hand", [sc.item("card", "Shieldbearer", picture={**icon, "unit": 30.0})])]
    s["captions"] = [sc.caption((1, -0.2), "Your troops", size=0.2, anchor="middle")]
    s["targets"] = [{"at": "b1", "action": 0, "label": "place at b1", "with": "card"}]
    assert sc.check_scene(s, [(0, "place at b1")]) == []
    s["targets"][0]["with"] = "nothing"
    assert sc.check_scene(s, [(0, "place at b1")]) == [
        "target {'at': 'b1', 'action': 0, 'label': 'place at b1', 'with': 'nothing'} is played with no zone item"
    ]
    s["targets"][0]["with"] = "card"
    s["pieces"][0]["picture"] = sc.picture((1, 1), fills=[[(0, 0), (2, 0), (1, 1)]])
    assert sc.check_scene(s, [(0, "place at b1")]) == ["picture of piece at 'a1' draws off its 1x1 grid"]
