"""Mata Mosca scenarios; clause numbers refer to docs/rules/mata-mosca.md."""

from __future__ import annotations

import itertools
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
from boardlab.games import mata_mosca
from boardlab.games.mata_mosca import COCOON, EMPTY, FLY, SPIDER, MataMoscaGame, MataMoscaState


def game(**options: object) -> MataMoscaGame:
    g = boardlab.make("mata-mosca", **options)
    assert isinstance(g, MataMoscaGame)
    return g


def start(**options: object) -> MataMoscaState:
    s = game(**options).new_initial_state()
    assert isinstance(s, MataMoscaState)
    return s


def play(s: boardlab.State, *labels: str) -> None:
    for label in labels:
        s.apply_action(s.string_to_action(None, label))


def moves(s: MataMoscaState) -> set[str]:
    p = s.current_player()
    return {s.action_to_string(p, a) for a in s.legal_actions()}


def spot(s: MataMoscaState, label: str) -> int:
    return s.game.board.data.index[label]


def at(s: MataMoscaState, label: str) -> int:
    return s.content[spot(s, label)]


# A game played to the Flies' win by surrounding (§6.2, §8.1), move by move.
CAPTURE = ("d5", "to e4", "to f2", "b7", "to d5", "to e3", "b5", "to a4", "to f4", "a8", "to b7")
SURROUND = ("capture e4", "f5", "to g4", "to e5", "d7")


# §1, §2, §3 -------------------------------------------------------------------------


def test_our_board_and_the_start() -> None:
    """§1, §2: 64 spots, blue like a8 and red like b8; 16 flies on rows 5-8, the Spider on e1."""
    s = start()
    b = s.game.board
    assert b.n == 64 and sum(b.blue) == 32 and b.unverified
    assert b.blue[spot(s, "a8")] and not b.blue[spot(s, "b8")] and not b.blue[spot(s, "a7")]
    flies = {b.labels[i] for i, c in enumerate(s.content) if c == FLY}
    assert flies == {"a8", "c8", "e8", "g8", "b7", "d7", "f7", "h7", "a6", "c6", "e6", "g6", "b5", "d5", "f5", "h5"}
    assert at(s, "e1") == SPIDER
    # next to a red spot: the blue spots beside it in its row and column
    assert {b.labels[j] for j in b.near[spot(s, "e1")]} == {"d1", "f1", "e2"}


def test_the_flies_move_first_then_turns_alternate() -> None:
    """§3: the Flies, then the Spider, then the Flies."""
    s = start()
    assert s.current_player() == 0
    play(s, "b5", "to a4")
    assert s.current_player() == 1
    play(s, "to d2")
    assert s.current_player() == 0


def test_the_board_is_said_to_be_ours_and_the_game_a_work_in_progress() -> None:
    """§1, §12: the lobby's summary and inventions and the scene say it."""
    meta = game().metadata()
    assert "work in progress" in meta["summary"] and "stand-in" in meta["summary"]
    assert any("work in progress" in x for x in meta["inventions"])
    assert any("board" in x and "missing" in x for x in meta["inventions"])
    status = start().scene(0)["status"]
    assert any("the designer's board is missing" in x for x in status) and any("work in progress" in x for x in status)


# §4 ---------------------------------------------------------------------------------


def test_worked_example_the_fly_on_b5_at_the_start() -> None:
    """§4.1, §4.2, §4.3, first example: b5 steps to a4 or c4, or goes two steps to b3 or d3; no hop over c6."""
    s = start()
    assert moves(s) == {"a6", "c6", "e6", "g6", "b5", "d5", "f5", "h5"}  # only these flies can move
    play(s, "b5")
    assert moves(s) == {"to a4", "to c4", "to b3", "to d3"}


def test_a_fly_hops_over_a_fly_and_may_not_hop_over_a_cocoon() -> None:
    """§4.3, §5: after the capture, the fly on f5 may not hop over the cocoon on e4; d7 hops over e6."""
    s = start()
    play(s, *CAPTURE, "capture e4")
    assert at(s, "e4") == COCOON
    play(s, "f5")
    assert "to d3" not in moves(s)  # d3 lies beyond the cocoon on e4
    s = start()
    play(s, *CAPTURE, *SURROUND)
    assert "to f5" in moves(s)  # d7 over e6 to f5


def test_a_two_step_move_may_turn_unless_straight_only() -> None:
    """§4.2, option `straight_only`: b5 reaches b3 by turning (a4 then b3); straight, only d3 (c4 then d3)."""
    s = start(straight_only=True)
    play(s, "b5")
    assert moves(s) == {"to a4", "to c4", "to d3"}


def test_split_steps_lets_a_second_fly_take_the_second_step() -> None:
    """§4.4, option `split_steps`: after b5 to a4, another fly may step once, or the Flies stop."""
    s = start()
    play(s, "b5", "to a4")
    assert s.current_player() == 1  # one fly per turn by default
    s = start(split_steps=True)
    play(s, "b5", "to a4")
    assert s.current_player() == 0 and "stop" in moves(s) and "a4" not in moves(s)
    play(s, "d5")
    assert moves(s) == {"to c4", "to e4"}  # one step only
    play(s, "to c4")
    assert s.current_player() == 1
    s = start(split_steps=True)
    play(s, "b5", "to b3")  # a two-step move uses both steps
    assert s.current_player() == 1
    s = start(split_steps=True)
    play(s, "b5", "to a4", "stop")
    assert s.current_player() == 1


def test_bad_fly_choices_are_explained_and_change_nothing() -> None:
    """§4, §5: a spot without a fly, a fly that cannot move, a destination out of reach."""
    s = start()
    g = s.game
    assert "holds no fly (§4)" in with_refs(s.explain_illegal(0, spot(s, "e4")))
    assert "has no empty spot" in s.explain_illegal(0, spot(s, "a8"))
    play(s, "b5")
    far = g.to_base + spot(s, "b1")
    assert "not one or two steps" in s.explain_illegal(0, far)
    before = s.history()
    with pytest.raises(IllegalActionError):
        s.apply_action(far)
    assert s.history() == before


# §6, §7 --------------------------------------------------------------------------------


def test_worked_example_the_spider_captures_and_the_fly_becomes_a_cocoon() -> None:
    """§6.2, second example: the Spider on f4 captures e4, lands on d4; e4 is a cocoon."""
    s = start()
    play(s, *CAPTURE)
    assert at(s, "f4") == SPIDER and at(s, "e4") == FLY and at(s, "d4") == EMPTY
    assert {"capture e4", "capture g4"} & moves(s) == {"capture e4"}  # g4 is empty
    play(s, "capture e4")
    assert at(s, "d4") == SPIDER and at(s, "e4") == COCOON and at(s, "f4") == EMPTY
    assert s.observation()["captures"] == 1 and s.current_player() == 0


def test_captures_are_not_compulsory_and_the_spider_steps_one_spot() -> None:
    """§6.1, §6.2: with a capture available the Spider may still step; steps go one spot along red lines."""
    s = start()
    play(s, *CAPTURE)
    assert moves(s) == {"to e3", "to g3", "to g5", "capture e4"}
    why = s.explain_illegal(1, s.game.to_base + spot(s, "f2"))
    assert "one spot along a red line" in why


def test_multi_capture_lets_the_spider_capture_again_or_stop() -> None:
    """§6.3, option `multi_capture`: after a capture with another in reach, capture again or stop."""
    s = start()
    play(s, "d5", "to d3", "to d2", "b5", "to c4")
    # the Spider on d2 may jump d3 to d4; from d4, c4 to b4
    assert "capture d3" in moves(s)
    one = s.clone()
    play(one, "capture d3")
    assert one.current_player() == 0  # one capture per turn
    s = start(multi_capture=True)
    play(s, "d5", "to d3", "to d2", "b5", "to c4", "capture d3")
    assert s.current_player() == 1 and moves(s) == {"capture c4", "stop"}
    play(s, "capture c4")
    assert at(s, "b4") == SPIDER and s.observation()["captures"] == 2 and s.current_player() == 0


def test_the_spider_may_not_step_or_land_on_a_surrounded_spot() -> None:
    """§7: from f4, e5 (flies on d5, f5, e6, e4) is closed; capturing f5 would land on f6 (flies on e6, g6, f7
    and the new cocoon on f5), so that capture is refused too."""
    s = start()
    play(s, *CAPTURE)
    assert "to e5" not in moves(s) and "capture f5" not in moves(s)
    assert "e5 is surrounded" in s.explain_illegal(1, s.game.to_base + spot(s, "e5"))
    assert "f6, is surrounded (§7)" in with_refs(s.explain_illegal(1, s.game.capture_base + spot(s, "f5")))


def test_captures_never_land_on_a_surrounded_spot_in_random_games() -> None:
    """§6.2, §7: over random positions, a capture is legal exactly when the fly is live and the landing open."""
    rng = random.Random(3)
    g = game()
    b = g.board
    for _ in range(15):
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.current_player() == 1 and s.phase == mata_mosca.SPIDER_TURN:
                legal = set(s.legal_actions())
                for fly, land in b.captures[s.spider]:
                    ok = s.content[fly] == FLY and s.content[land] == EMPTY and not s.surrounded(land)
                    assert (g.capture_base + fly in legal) == ok
                for r in b.spider_steps[s.spider]:
                    assert (g.to_base + r in legal) == (not s.surrounded(r))
            s.apply_action(rng.choice(s.legal_actions()))


# §8 ------------------------------------------------------------------------------------------


def test_worked_example_the_flies_win_by_surrounding_the_spider() -> None:
    """§8.1, third example: d7 hops over e6 to f5, and the Spider on e5 is surrounded."""
    s = start()
    play(s, *CAPTURE, *SURROUND, "to f5")
    assert s.current_player() == TERMINAL and s.returns() == [1.0, -1.0]
    assert s.observation()["reason"] == "the spider is surrounded"
    assert s.scene(1)["prompt"] == "Flies win: the spider is surrounded."


def test_cut_off_reads_reachability() -> None:
    """§8.2, option `cut_off`: over random games, the game ends as cut off exactly when no reachable red spot
    is next to a fly; with the option off, it never does."""
    g = game()
    for seed in range(40):
        rng = random.Random(seed)
        s = g.new_initial_state()
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            if not s.is_terminal():
                assert not s.cut_off()
        if s.reason == "the spider is cut off from the flies":
            assert s.cut_off()
    g = game(cut_off=False)
    for seed in range(10):
        rng = random.Random(seed)
        s = g.new_initial_state()
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        assert "cut off" not in s.reason


# §9 -------------------------------------------------------------------------------------------


def test_the_spider_wins_with_its_eighth_capture() -> None:
    """§9: random games that end with 8 cocoons are the Spider's."""
    g = game()
    found = 0
    for seed in range(30):
        rng = random.Random(seed)
        s = g.new_initial_state()
        while not s.is_terminal():
            before = s.captures
            s.apply_action(rng.choice(s.legal_actions()))
            assert s.captures >= before
        if s.captures >= 8:
            found += 1
            assert s.captures == 8 and s.returns() == [-1.0, 1.0] and s.content.count(COCOON) == 8
    assert found


# §10, §11 -------------------------------------------------------------------------------------


def line_board(name: str, colours: str, flies: list[str], spider: str) -> dict[str, object]:
    """A designer's board: spots a1, b1, ... in a row, ``colours`` one letter each (b blue, r red)."""
    ids = [f"{chr(97 + k)}1" for k in range(len(colours))]
    return {
        "name": name,
        "unverified": False,
        "source": "a test",
        "start": {"flies": flies, "spider": spider},
        "nodes": [
            {"id": x, "x": k, "y": 0, "colour": "blue" if c == "b" else "red"}
            for k, (x, c) in enumerate(zip(ids, colours, strict=True))
        ],
        "adjacency": [[a, b] for a, b in itertools.pairwise(ids)],
        "lines": [ids],
    }


# a1-b1 a fly's line; b1-c1 and d1-e1: red spots next to blue ones; c1-d1 a spider's line.
TINY = line_board("A test line", "bbrrb", ["a1"], "d1")
# the fly on a1 has no blue line, the Spider on b1 neither a red line nor a capture.
STUCK = line_board("A stuck line", "brbr", ["a1"], "b1")


@pytest.fixture
def boards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Designer's board files dropped next to ours: no code changes, only the data folder."""
    (tmp_path / "mata-mosca.json").write_text((mata_mosca.BOARDS.folder / "mata-mosca.json").read_text())
    (tmp_path / "mata-mosca-tiny.json").write_text(json.dumps(TINY))
    (tmp_path / "mata-mosca-stuck.json").write_text(json.dumps(STUCK))
    monkeypatch.setattr(mata_mosca.BOARDS, "folder", tmp_path)  # forgets the boards read from ours
    board = mata_mosca.BOARDS.option("board", MataMoscaGame.options[0].description)
    monkeypatch.setattr(MataMoscaGame, "options", (board, *MataMoscaGame.options[1:]))
    yield


def test_a_designer_board_file_is_an_option_value(boards: None) -> None:
    """§12: mata-mosca-<name>.json in the data folder is the option value <name>, read at set-up."""
    assert set(MataMoscaGame.options[0].allowed) == {"placeholder", "tiny", "stuck"}
    s = start(board="tiny")
    assert at(s, "a1") == FLY and at(s, "d1") == SPIDER and s.game.board.title == "A test line"
    assert not any("not the designer's" in x for x in s.scene(0)["status"])
    assert moves(s) == {"a1"}
    play(s, "a1")
    assert moves(s) == {"to b1"}


def test_the_spider_is_cut_off_when_no_spot_it_can_reach_is_next_to_a_fly(boards: None) -> None:
    """§8.2, option `cut_off`: after a1 to b1 the Spider on d1 can reach no spot next to a fly (c1 is now
    surrounded), so the Flies win; without the rule, the Spider cannot move (§8.3) and loses that way."""
    s = start(board="tiny")
    play(s, "a1", "to b1")
    assert s.is_terminal() and s.reason == "the spider is cut off from the flies" and s.returns() == [1.0, -1.0]
    s = start(board="tiny", cut_off=False)
    play(s, "a1", "to b1")
    assert s.is_terminal() and s.reason == "the spider cannot move" and s.returns() == [1.0, -1.0]


def test_a_spider_that_cannot_move_loses_or_passes(boards: None) -> None:
    """§8.3, option `spider_stuck`; §10, option `flies_stuck`: on the stuck line neither side can move."""
    s = start(board="stuck")
    assert moves(s) == {"pass"}  # §10: the Flies pass
    assert "no fly can move" in s.explain_illegal(0, spot(s, "a1"))
    play(s, "pass")
    assert s.is_terminal() and s.reason == "the spider cannot move" and s.returns() == [1.0, -1.0]
    s = start(board="stuck", spider_stuck="pass", turn_limit=100)
    play(s, "pass", "pass")
    assert s.current_player() == 0 and not s.is_terminal()


def test_flies_that_cannot_move_lose_with_flies_stuck(boards: None) -> None:
    """§10, option `flies_stuck=lose`: the Flies cannot move at the start, so the Spider wins."""
    s = start(board="stuck", flies_stuck="lose")
    assert s.is_terminal() and s.returns() == [-1.0, 1.0] and s.reason == "the flies cannot move"


def test_the_turn_limit_ends_a_game_of_passes_in_a_draw(boards: None) -> None:
    """§11, option `turn_limit`: 100 turns of passing on the stuck line, then a draw."""
    s = start(board="stuck", spider_stuck="pass", turn_limit=100)
    for _ in range(99):
        play(s, "pass")
    assert not s.is_terminal()
    play(s, "pass")
    assert s.is_terminal() and s.returns() == [0.0, 0.0] and s.observation()["draw"]
    assert s.scene(0)["prompt"] == "A draw: 100 turns have been played."


def test_a_board_file_with_a_spot_neither_blue_nor_red_is_refused() -> None:
    """§12: every spot is blue or red, and the start puts flies on blue and the Spider on red."""
    bad = json.loads(json.dumps(TINY))
    bad["nodes"][2]["colour"] = "green"
    with pytest.raises(ValueError, match="c1"):
        mata_mosca.Board("bad", bad)
    bad = json.loads(json.dumps(TINY))
    bad["start"]["spider"] = "e1"
    with pytest.raises(ValueError, match="red"):
        mata_mosca.Board("bad", bad)


# the scene --------------------------------------------------------------------------------------


def test_the_scene_draws_spots_lines_flies_cocoons_and_the_spider() -> None:
    """§1, §2, §5: spots in blue and red, lines, black flies, a white cocoon, the red spider; moves clickable."""
    s = start()
    play(s, *CAPTURE, "capture e4")
    legal = [(a, s.action_to_string(0, a)) for a in s.legal_actions()]
    scene = s.scene(0)
    assert check_scene(scene, legal) == []
    kinds = {p["at"]: p["kind"] for p in scene["pieces"]}
    assert kinds["e4"] == "cocoon" and kinds["d4"] == "spider" and list(kinds.values()).count("fly") == 15
    assert {t["at"] for t in scene["targets"]} == {s.game.board.labels[a] for a, _ in legal}
    assert "Cocoons: 1 of 8" in scene["status"]
    text = scene_text(scene, [label for _, label in legal])
    assert "Flies: choose a fly" in text
