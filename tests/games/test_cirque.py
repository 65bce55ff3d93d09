"""Cirque scenarios; clause numbers refer to docs/rules/cirque.md."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import boardlab
from boardlab.cli.render import scene_text
from boardlab.core.constants import TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.scene import check_scene
from boardlab.core.wording import with_refs
from boardlab.games import cirque
from boardlab.games.cirque import CirqueGame, CirqueState


def game(**options: object) -> CirqueGame:
    g = boardlab.make("cirque", **options)
    assert isinstance(g, CirqueGame)
    return g


def start(**options: object) -> CirqueState:
    s = game(**options).new_initial_state()
    assert isinstance(s, CirqueState)
    return s


def play(s: boardlab.State, *labels: str) -> None:
    for label in labels:
        s.apply_action(s.string_to_action(None, label))


def legal_labels(s: CirqueState) -> set[str]:
    return {s.game.board.labels[a] for a in s.legal_actions()}


def sq(s: CirqueState, label: str) -> int:
    return s.game.board.data.index[label]


# A designer's board: four squares in a row, yellow/sky/yellow/sky, each its own one-square shape (§10).
STRIP = {
    "name": "A test strip of four squares",
    "unverified": False,
    "source": "a test",
    "colours": {"yellow": "#f0d9a8", "sky": "#c8dbee"},
    "nodes": [
        {"id": f"{c}1", "x": k + 0.5, "y": 0.5, "colour": col, "region": f"S{k}"}
        for k, (c, col) in enumerate(zip("abcd", ("yellow", "sky", "yellow", "sky"), strict=True))
    ],
    "adjacency": [["a1", "b1"], ["b1", "c1"], ["c1", "d1"]],
    "lines": [["a1", "b1", "c1", "d1"]],
}


@pytest.fixture
def strip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CirqueGame:
    """Cirque with a designer's board file dropped next to ours: no code changes, only the data folder."""
    (tmp_path / "cirque.json").write_text((cirque.BOARDS.folder / "cirque.json").read_text())
    (tmp_path / "cirque-strip.json").write_text(json.dumps(STRIP))
    monkeypatch.setattr(cirque.BOARDS, "folder", tmp_path)  # forgets the boards read from ours
    # what loading the module finds in the data folder (the option is built from the files present)
    board = cirque.BOARDS.option("board", CirqueGame.options[0].description)
    monkeypatch.setattr(CirqueGame, "options", (board, *CirqueGame.options[1:]))
    yield game(board="strip")


# §1 ------------------------------------------------------------------------------


def test_our_board_is_ten_by_ten_with_25_two_by_two_shapes_in_four_colours() -> None:
    """§1: 100 squares, 25 shapes of 4 squares, each one colour, touching shapes of different colours."""
    b = game().board
    assert b.n == 100 and len(b.shape_size) == 25 and set(b.shape_size) == {4}
    assert set(b.colour_names) == {"yellow", "green", "sky", "rose"}
    for shape in range(25):
        assert len({b.colour_names[i] for i in range(100) if b.shape_of[i] == shape}) == 1
    for i in range(100):
        for j in b.touching[i]:
            if b.shape_of[i] != b.shape_of[j]:
                assert b.colour_names[i] != b.colour_names[j]
    assert b.unverified


def test_touching_includes_corners() -> None:
    """§1: squares touch when they share a side or a corner."""
    b = game().board
    a1 = b.data.index["a1"]
    assert {b.labels[j] for j in b.touching[a1]} == {"a2", "b1", "b2"}
    e5 = b.data.index["e5"]
    assert len(b.touching[e5]) == 8


def test_the_board_is_said_to_be_ours_in_the_metadata_and_under_the_board() -> None:
    """§1, §10: the lobby (summary, inventions) and the scene say that the board is our reconstruction."""
    g = game()
    meta = g.metadata()
    assert "reconstruction" in meta["summary"]
    assert any("board" in x.lower() and "missing" in x for x in meta["inventions"])
    s = g.new_initial_state()
    scene = s.scene(0)
    assert any("the designer's board is missing" in line for line in scene["status"])


# §2, §3 -------------------------------------------------------------------------


def test_orange_places_one_stone_on_the_first_turn_then_two_a_turn() -> None:
    """§2, §3: Orange first with one stone; Blue then two; Orange then two."""
    s = start()
    assert s.current_player() == 0 and s.observation()["stones_left"] == 1
    play(s, "j5")
    assert s.current_player() == 1 and s.observation()["stones_left"] == 2
    play(s, "b2")
    assert s.current_player() == 1 and s.observation()["stones_left"] == 1
    play(s, "a1")
    assert s.current_player() == 0 and s.observation()["stones_left"] == 2
    assert s.observation()["last_turn"] == [sq(s, "b2"), sq(s, "a1")]


def test_a_stone_goes_on_an_empty_square() -> None:
    """§3: an occupied square is refused, explained, and nothing changes."""
    s = start()
    play(s, "j5")
    a = sq(s, "j5")
    assert "already holds a stone (§3)" in with_refs(s.explain_illegal(1, a))
    before = s.history()
    with pytest.raises(IllegalActionError):
        s.apply_action(a)
    assert s.history() == before


# §4, §5 --------------------------------------------------------------------------


def test_worked_example_second_stone_after_b2() -> None:
    """§4, §5, first example: after b2 (yellow), a1/b1/a2, d1 and a4 are allowed; a3, c1, c3 and e1 are not."""
    s = start()
    play(s, "j5", "b2")
    ok = legal_labels(s)
    assert {"a1", "b1", "a2", "d1", "a4"} <= ok
    assert not {"a3", "c1", "c3", "e1"} & ok
    assert "touches b2 (yellow)" in s.explain_illegal(1, sq(s, "a3"))
    assert s.explain_illegal(1, sq(s, "c3")).clauses == ("4",)
    why = s.explain_illegal(1, sq(s, "e1"))
    assert "does not touch it" in why and why.clauses == ("5",)


def test_two_stones_of_a_turn_touch_exactly_when_they_share_a_colour() -> None:
    """§4, §5: over random positions, the second stone's squares are exactly those that fit the first."""
    rng = random.Random(5)
    for _ in range(20):
        s = start()
        while not s.is_terminal():
            if s.placed:
                b = s.game.board
                for j in range(b.n):
                    fits = all(
                        (j in b.touching[i]) == (b.colour_names[i] == b.colour_names[j]) and i != j for i in s.placed
                    )
                    assert (j in s.legal_actions()) == (fits and s.stone[j] == cirque.EMPTY)
                break
            s.apply_action(rng.choice(s.legal_actions()))
            for _ in range(rng.randrange(6)):
                if not s.is_terminal() and not s.placed:
                    s.apply_action(rng.choice(s.legal_actions()))


# §6 ----------------------------------------------------------------------------------


def test_worked_example_filling_a_shape_earns_a_third_stone() -> None:
    """§6, second example: a2 and b2 fill Blue's yellow shape; the third stone must fit both."""
    s = start()
    play(s, "j5", "a1", "b1", "j10", "j9", "a2")
    assert s.observation()["stones_left"] == 1
    play(s, "b2")
    obs = s.observation()
    assert s.current_player() == 1 and obs["stones_left"] == 1 and obs["bonus"] == 1
    assert "touches b2" in s.explain_illegal(1, sq(s, "c1"))
    assert "e1" not in legal_labels(s)  # yellow, not touching (§5)
    play(s, "d1")
    assert s.current_player() == 0 and s.observation()["stones_left"] == 2


def test_a_shape_filled_with_mixed_stones_earns_nothing_by_default() -> None:
    """§6, option `shape_fill`: a shape holding an opponent's stone earns a bonus only under any_stones."""
    s = start()
    play(s, "a1", "b1", "c3", "a2", "b2")
    assert s.current_player() == 1  # own_stones: no bonus
    s = start(shape_fill="any_stones")
    play(s, "a1", "b1", "c3", "a2", "b2")
    assert s.current_player() == 0 and s.observation()["bonus"] == 1


def test_on_a_board_of_one_square_shapes_the_first_stone_earns_a_bonus_and_bonuses_chain(strip: CirqueGame) -> None:
    """§6, §7, §9 on a designer's strip: every stone fills its shape; a stone with no square is lost."""
    s = strip.new_initial_state()
    assert isinstance(s, CirqueState)
    play(s, "a1")  # §6: fills shape S0, even on the first turn
    assert s.current_player() == 0 and s.observation()["bonus"] == 1
    assert legal_labels(s) == {"d1"}  # b1 touches a1 in another colour, c1 shares a1's colour without touching
    play(s, "d1")  # §6: fills S3 too; §7: nothing fits both a1 and d1, so the turn ends
    obs = s.observation()
    assert s.current_player() == 1 and obs["forfeited"] == 1 and obs["last_turn"] == [0, 3]
    play(s, "b1")  # a bonus stone again, but c1 touches b1 in another colour: lost
    assert s.current_player() == 0 and s.observation()["forfeited"] == 2
    play(s, "c1")  # §9: the board is full, nobody has five: a draw
    assert s.current_player() == TERMINAL and s.returns() == [0.0, 0.0]
    assert s.observation()["draw"] and "draw" in s.scene(0)["prompt"]


def test_a_designer_board_file_is_an_option_value(strip: CirqueGame) -> None:
    """§10: a file cirque-<name>.json in the data folder is the option value <name>, read at set-up."""
    board_opt = CirqueGame.options[0]
    assert board_opt.name == "board" and set(board_opt.allowed) == {"reconstruction", "strip"}
    assert strip.board.title == STRIP["name"] and not strip.board.unverified
    assert strip.board.labels == ("a1", "b1", "c1", "d1")
    scene = strip.new_initial_state().scene(0)
    assert not any("not the designer's" in line for line in scene["status"])
    with pytest.raises(ValueError, match="board"):
        boardlab.make("cirque", board="nowhere")


def test_a_board_file_without_colours_or_shapes_is_refused() -> None:
    """§10: every square needs a colour and a shape."""
    bad = json.loads(json.dumps(STRIP))
    del bad["nodes"][2]["colour"]
    with pytest.raises(ValueError, match="c1"):
        cirque.Board("bad", bad)


# §8 -------------------------------------------------------------------------------


def test_worked_example_five_on_a_diagonal_wins_mid_turn() -> None:
    """§8, third example: g7 completes c3-g7 and wins at once; the turn's second stone is never placed."""
    s = start()
    play(s, "c3", "a10", "c10", "d4", "j1", "a8", "c8", "e5", "f6", "a6", "c6")
    assert s.current_player() == 0 and not s.is_terminal()
    play(s, "g7")
    assert s.current_player() == TERMINAL and s.returns() == [1.0, -1.0]
    obs = s.observation()
    assert sorted(obs["line"]) == sorted(sq(s, x) for x in ("c3", "d4", "e5", "f6", "g7"))
    assert s.scene(1)["prompt"] == "Orange wins with 5 in a row."


SIX = ("b2", "a10", "c10", "c3", "f6", "a8", "c8", "d4", "h1", "a6", "c6", "g7", "j3", "a4", "c4")


def test_six_in_a_row_wins_unless_exact_five() -> None:
    """§8, option `exact_five`: e5 joins b2-d4 and f6-g7 into six; that wins by default only."""
    s = start()
    play(s, *SIX)
    assert s.current_player() == 0
    play(s, "e5")
    assert s.is_terminal() and s.returns() == [1.0, -1.0] and len(s.observation()["line"]) == 6
    s = start(exact_five=True)
    play(s, *SIX, "e5")
    assert not s.is_terminal() and s.current_player() == 0 and s.observation()["stones_left"] == 1


def test_a_broken_line_does_not_win() -> None:
    """§8: four in a row and a fifth stone beyond a gap is not five in a row."""
    s = start()
    play(s, "a1", "a10", "c10", "c1", "e1", "a8", "c8", "d1")  # b1 missing: a1, c1, d1, e1
    play(s, "h8")
    assert not s.is_terminal()


# §9 --------------------------------------------------------------------------------


def test_games_end_within_the_number_of_squares() -> None:
    """§9: every action fills a square; random games end by five in a row or a full board."""
    g = game()
    for seed in range(10):
        rng = random.Random(seed)
        s = g.new_initial_state()
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        assert len(s.history()) <= 100
        obs = s.observation()
        assert obs["winner"] is not None or (obs["draw"] and all(x != cirque.EMPTY for x in obs["stones"]))


# the scene -----------------------------------------------------------------------------


def test_the_scene_draws_coloured_squares_shape_outlines_and_stones() -> None:
    """§1: squares filled in their colours, heavy outlines between shapes, stones, and every move a click."""
    s = start()
    play(s, "j5", "b2")
    legal = [(a, s.action_to_string(1, a)) for a in s.legal_actions()]
    scene = s.scene(1)
    assert check_scene(scene, legal) == []
    fills = {c["id"]: c["fill"] for c in scene["cells"]}
    assert fills["a1"] == fills["e1"] != fills["c1"]
    assert len([e for e in scene["edges"] if e["kind"] == "wall"]) == 80  # 4 inner lines of 10 sides each way
    assert {p["at"] for p in scene["pieces"]} == {"j5", "b2"}
    assert {t["at"] for t in scene["targets"]} == legal_labels(s)
    assert "b2 on yellow" in scene["prompt"]
    text = scene_text(scene, [label for _, label in legal])
    assert "Blue: place a stone" in text
