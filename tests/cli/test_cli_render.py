"""The terminal renderer draws any scene: hex and square boards, points and edges, zones (issue 2 §5)."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.cli.render import board_text, scene_text
from boardlab.core import scene as sc
from boardlab.core.play import sample_chance
from boardlab.geometry.hexgrid import HexBoard
from boardlab.geometry.squaregrid import SquareGrid


def hex_scene() -> dict:
    board = HexBoard.of_side(2)  # rows a (2 cells), b (3), c (2)
    polys = board.cell_polygons(1.0)
    s = sc.new_scene("Move.", (-3, -3, 6, 6))
    for i, p in enumerate(polys):
        centre = (sum(x for x, _ in p) / 6, sum(y for _, y in p) / 6)
        s["cells"].append(sc.cell(board.labels[i], centre, p, label=board.labels[i]))
    s["pieces"] = [sc.piece("b2", 0, "tower", label="3"), sc.piece("c1", 1)]
    s["highlights"] = [{"at": "b2", "kind": "last"}]
    return s


def test_hex_board_looks_hexagonal_with_row_coordinates() -> None:
    lines = [line for line in board_text(hex_scene()).splitlines() if line.strip()]
    assert len(lines) == 3
    a, b, c = lines
    assert a.startswith("a ") and a.endswith(" a") and b.startswith("b ") and c.startswith("c ")
    # Rows a and c are shifted half a cell to the right of the longer row b.
    assert a.index("a1") - b.index("b1") == 2
    assert c.index("○") == a.index("a1")
    assert "[●3]" in b  # the tower's height and the last-move brackets
    assert b.index("b1") < b.index("●3") < b.index("b3")
    assert "a2" in a and "b3" in b


def square_scene() -> dict:
    grid = SquareGrid(3, 3)
    s = sc.new_scene("Move.", (0, 0, 3, 3))
    for i in range(len(grid)):
        col, row = grid.coords(i)
        s["cells"].append(
            sc.cell(
                grid.label(i), (col + 0.5, row + 0.5), label=grid.label(i), fill="dark" if grid.is_dark(i) else "light"
            )
        )
    s["pieces"] = [sc.piece("b2", 1, label="K", facing=90), sc.piece("a3", None, face_down=True)]
    return s


def test_square_board_has_file_letters_and_rank_numbers() -> None:
    lines = board_text(square_scene()).splitlines()
    assert lines[0].split() == ["a", "b", "c"] and lines[-1].split() == ["a", "b", "c"]
    body = [line for line in lines[1:-1] if line.strip()]
    assert [line.split()[0] for line in body] == ["3", "2", "1"]
    assert [line.split()[-1] for line in body] == ["3", "2", "1"]
    assert "○K→" in body[1]  # owner glyph, label and facing arrow
    assert "▒" in body[0]  # a face-down piece
    assert body[2].count("·") == 3  # empty cells when coordinates run along the edges
    # Square proportions: one blank line between rows, columns four characters apart.
    assert len(lines) == 2 + 3 + 2
    assert lines[0].index("b") - lines[0].index("a") == 4


def test_points_edges_and_zones() -> None:
    s = sc.new_scene("Claim an edge.", (0, 0, 1, 1))
    for x in (0, 1):
        for y in (0, 1):
            s["cells"].append(sc.cell(f"p{x}{y}", (x, y), label=f"p{x}{y}", kind="point", radius=0.1))
    s["edges"] = [
        sc.edge("top", (0, 0), (1, 0), owner=0),
        sc.edge("left", (0, 0), (0, 1)),
        sc.edge("diag", (0, 0), (1, 1)),
    ]
    s["zones"] = [
        sc.zone("hand", "Your hand", [sc.item("c1", "7♥"), sc.item("c2", "?", face_down=True)], owner=0),
        sc.zone("dice", "Dice", [sc.item("d1", "5", "die", detail="rolled")]),
        sc.zone("pile", "Discard pile", []),
    ]
    s["players"] = [sc.player(0, "Ann", "3 points"), sc.player(1, "Bob")]
    s["status"] = ["round 2", "pool 5"]
    text = scene_text(s, ["top", "left"])
    assert "━" in text and "│" in text and "╲" in text
    assert "p00" in text and "p11" in text
    assert "● Your hand: [7♥] [▒▒]" in text
    assert "Dice: ⟨5⟩ rolled" in text
    assert "Discard pile: —" in text
    assert "● Ann — 3 points" in text and "○ Bob" in text
    assert "round 2 · pool 5" in text
    assert "Claim an edge." in text
    assert "Moves (2): top, left" in text


def test_irregular_board_keeps_every_cell_apart() -> None:
    rng = random.Random(5)
    s = sc.new_scene("", (0, 0, 10, 10))
    pts: list[tuple[float, float]] = []
    while len(pts) < 25:
        p = (rng.uniform(0, 10), rng.uniform(0, 10))
        if all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 > 1.0 for q in pts):
            pts.append(p)
    s["cells"] = [sc.cell(f"n{i}", p, label=f"n{i}") for i, p in enumerate(pts)]
    text = board_text(s)
    for i in range(25):
        assert f"n{i}" in text.replace("…", "")


def test_empty_scene() -> None:
    assert board_text(sc.new_scene("Nothing here.")) == ""
    assert "Nothing here." in scene_text(sc.new_scene("Nothing here."))


@pytest.mark.parametrize("game_id", boardlab.games())
def test_every_game_renders_along_a_random_game(game_id: str) -> None:
    game = boardlab.make(game_id)
    state = game.new_initial_state()
    rng = random.Random(1)
    for step in range(41):
        cp = state.current_player()
        if step in (0, 4, 15, 40) or state.is_terminal():
            for seat in [None, *range(state.num_players)]:
                moves = [label for _, label in state.legal_moves(seat)] if seat is not None else None
                assert scene_text(state.scene(seat), moves).strip()
        if state.is_terminal():
            break
        if cp == boardlab.CHANCE:
            state.apply_action(sample_chance(state, rng))
        elif cp == boardlab.SIMULTANEOUS:
            state.apply_actions(
                [
                    rng.choice(state.legal_actions(p)) if state.legal_actions(p) else None
                    for p in range(state.num_players)
                ]
            )
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def _demo_scene(viewer: int | None) -> dict:
    from scene_minigame import SceneDemoGame

    state = SceneDemoGame().new_initial_state()
    state.apply_action(5)  # chance rolls a five
    return state.scene(viewer)


def _ansi(scene: dict) -> str:
    import io

    from rich.console import Console

    from boardlab.cli.render import render_scene

    console = Console(file=io.StringIO(), width=120, color_system="truecolor", force_terminal=True)
    console.print(render_scene(scene))
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_cards_dice_pictures_and_face_down_pieces_in_the_terminal() -> None:
    red = scene_text(_demo_scene(0))
    blue = scene_text(_demo_scene(1))
    print("Red's view:", red, "", "Blue's view:", blue, sep="\n")  # the demonstration, in the test output
    assert "Die: ⟨⚄ 5⟩" in red  # a die shows its face and its number
    assert "● Red's hand: [7♥] [Q♠] [4 ▀█▀]" in red  # value and suit; a T tetromino picture
    assert "Discard pile: [2 ⢽⠭⢽] (star ⣾⣷)" in red  # a fence card and a star token, drawn in braille
    assert "● Red's hand: [▒▒] [▒▒] [▒▒]" in blue  # face down for Blue
    board = red.splitlines()[:7]
    assert sum(line.count("▒") for line in board) == 2  # Blue's two sentries, face down for Red
    assert "○8" in blue and "○3" in blue  # Blue sees its sentries' ranks
    # Colours: face-down pieces and Red's card backs in their owner's colour, hearts in red.
    blue_rgb = "38;2;0;114;178"  # SEAT_COLOURS[1] #0072B2
    red_rgb = "38;2;213;94;0"  # SEAT_COLOURS[0] #D55E00
    coloured = _ansi(_demo_scene(0))
    assert any(blue_rgb in line and "▒" in line for line in coloured.splitlines())
    assert f"{red_rgb}" in _ansi(_demo_scene(1)).split("Red's hand")[1].splitlines()[0]


def test_exclusion_zones_show_without_colour() -> None:
    """Blast Radius's exclusion zones (cells filled "zone") are shaded, as the browser shades them, with a legend."""
    g = boardlab.make("blast-radius", board_side=5)
    s = g.new_initial_state(2)
    rng = random.Random(1)
    for _ in range(6):
        s.apply_action(rng.choice(s.legal_actions()))
    scene = g.scene(s.observation(s.current_player()), s.legal_moves(s.current_player()))
    zoned = [c["label"] for c in scene["cells"] if c.get("fill") == "zone"]
    assert zoned
    text = scene_text(scene)
    assert "░░" in text and "░ in a zone" in text
    board = board_text(scene)
    assert not any(f" {label} " in f" {board} " for label in zoned)  # a zone cell shows its shade, not a move
    free = [t["at"] for t in scene["targets"]]
    assert all(label in board for label in free)


def test_highlights_as_the_browser_draws_them() -> None:
    from boardlab.cli.render import board_lines

    s = hex_scene()
    s["highlights"] = [
        {"at": "b2", "kind": "last"},
        {"at": "b2", "kind": "selected"},
        {"at": "a1", "kind": "warning"},
        {"at": "c2", "kind": "hint"},
    ]
    s["targets"] = [{"at": "b1", "action": 0, "label": "b1"}]
    text = board_text(s)
    assert "<●3]" in text  # selected and the last move: both marks
    assert "!a1!" in text and "(c2)" in text
    line = next(t for t in board_lines(s) if "b1" in t.plain)
    at = line.plain.index("b1")
    assert any(span.start <= at < span.end and "underline" in str(span.style) for span in line.spans)


def test_a_highlighted_edge_is_bracketed() -> None:
    s = sc.new_scene("", (0, 0, 4, 1))
    s["edges"] = [sc.edge("e1", (0.0, 0.5), (4.0, 0.5))]
    s["highlights"] = [{"at": "e1", "kind": "last"}]
    assert "[" in board_text(s) and "]" in board_text(s)
