"""Radius scenarios; clause numbers refer to docs/rules/radius.md."""

from __future__ import annotations

import itertools
import random
import time

import pytest

import boardlab
from boardlab.core.errors import IllegalActionError
from boardlab.core.play import random_playout
from boardlab.core.scene import check_scene
from boardlab.games.radius import EMPTY, PAWN, STONE, RadiusState

OR, BL = 0, 1  # Orange (seat 0), Blue (seat 1)


def game(**options: object) -> boardlab.Game:
    return boardlab.make("radius", **options)


def at(g: boardlab.Game, label: str) -> int:
    return g.board.labels.index(label)  # type: ignore[attr-defined]


def position(
    g: boardlab.Game,
    pawns: dict[str, int],
    stones: dict[str, int] | None = None,
    to_move: int = OR,
    fill: int | None = None,
) -> RadiusState:
    """A hand-made position after setup: ``{label: seat}`` for pawns and stones; ``fill`` puts that seat's
    stones on every other cell. Such a state has no history, so it cannot be replayed or saved."""
    s = g.new_initial_state()
    assert isinstance(s, RadiusState)
    s.content = [EMPTY if fill is None else STONE + fill] * len(s.content)
    for label, seat in (stones or {}).items():
        s.content[at(g, label)] = EMPTY if seat < 0 else STONE + seat
    s.pawns = [[], []]
    for label, seat in pawns.items():
        s.content[at(g, label)] = PAWN + seat
        s.pawns[seat].append(at(g, label))
    s._start_turn(to_move)
    return s


def play(s: RadiusState, *labels: str) -> None:
    for label in labels:
        s.apply_action(s.string_to_action(None, label))


def labels_of(s: RadiusState) -> list[str]:
    return [label for _, label in s.legal_moves()]


# Four pawns on a default board, far from each other and from the centre e5.
PAWNS = {"a1": OR, "a5": OR, "i1": BL, "i5": BL}


def test_board_sizes_and_labels() -> None:  # §1
    assert game().num_distinct_actions() == 62
    for side, cells in ((4, 37), (5, 61), (6, 91), (7, 127)):
        assert len(game(board_side=side).board) == cells  # type: ignore[attr-defined]
    s = game().new_initial_state()
    assert s.legal_moves()[0] == (0, "a1") and s.legal_moves()[-1] == (60, "i5")
    assert game().board.labels[30] == "e5"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="board_side"):
        game(board_side=8)


def test_setup_alternates_and_first_placer_moves_first() -> None:  # §3.1, §3.2
    g = game()
    s = g.new_initial_state()
    assert s.current_player() == OR and len(s.legal_actions()) == 61
    play(s, "e5")
    assert s.current_player() == BL and at(g, "e5") not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="empty cell"):
        s.apply_action(at(g, "e5"))
    play(s, "a1", "i5")
    assert s.current_player() == BL
    play(s, "c3")
    obs = s.observation()
    assert obs["pawns"] == [sorted([at(g, "e5"), at(g, "i5")]), sorted([at(g, "a1"), at(g, "c3")])]
    assert obs["phase"] == "pawn" and s.current_player() == OR
    assert labels_of(s) == ["e5", "i5"]


def test_second_placer_may_move_first() -> None:  # §3.2, option first_mover
    s = game(first_mover="second_placer").new_initial_state()
    play(s, "e5", "a1", "i5", "c3")
    assert s.current_player() == BL and labels_of(s) == ["a1", "c3"]


def test_turn_is_pawn_then_destination_then_each_stone() -> None:  # §4.1, §5, §5.1
    g = game()
    s = position(g, PAWNS)
    assert labels_of(s) == ["a1", "a5"]
    play(s, "a1")
    assert s.current_player() == OR and s.observation()["phase"] == "destination"
    dests = labels_of(s)
    assert "e5" in dests and "a2" in dests and "b1" in dests and "a5" not in dests
    play(s, "e5")  # four steps down the line a1-b2-c3-d4-e5
    obs = s.observation()
    assert obs["phase"] == "stones" and obs["stones_left"] == 4 and s.current_player() == OR
    assert labels_of(s) == sorted(["d4", "d5", "e4", "e6", "f4", "f5"], key=lambda x: at(g, x))
    play(s, "d4", "e6", "f4")
    assert s.current_player() == OR and s.observation()["stones_left"] == 1
    play(s, "f5")
    obs = s.observation()
    assert s.current_player() == BL and obs["phase"] == "pawn"
    assert sorted(i for i, o in enumerate(obs["stones"]) if o == OR) == sorted(
        at(g, x) for x in ("d4", "e6", "f4", "f5")
    )
    assert obs["last_turn"] == [at(g, x) for x in ("a1", "e5", "d4", "e6", "f4", "f5")]
    assert s.content[at(g, "a1")] == EMPTY and at(g, "e5") in s.pawns[OR]


def test_pawns_obstruct_stones_do_not() -> None:  # §4.2
    g = game()
    s = position(g, {"e1": OR, "e6": OR, "i1": BL, "i5": BL}, {"e2": BL, "e3": OR})
    play(s, "e1")
    dests = labels_of(s)
    assert "e4" in dests and "e5" in dests  # over both stones
    assert "e7" not in dests and "e9" not in dests  # the pawn on e6 blocks the line
    with pytest.raises(IllegalActionError, match="pawn at e6 is in the way"):
        s.apply_action(at(g, "e8"))
    with pytest.raises(IllegalActionError, match="not in a straight line"):
        s.apply_action(at(g, "c4"))


def test_landing_cell_must_be_empty() -> None:  # §4.3
    g = game()
    s = position(g, {"e1": OR, "i1": BL, "i5": BL, "a5": OR}, {"e3": BL})
    play(s, "e1")
    assert "e3" not in labels_of(s)
    with pytest.raises(IllegalActionError, match="must land on an empty cell"):
        s.apply_action(at(g, "e3"))


def test_reach_needs_n_cells_and_one_empty() -> None:  # §4.4
    g = game()
    ring = ("d4", "d5", "e4", "e6", "f4", "f5")
    # All six neighbours of e5 hold Blue stones: enough cells, but none empty.
    s = position(g, PAWNS, dict.fromkeys(ring, BL))
    play(s, "a1")
    assert "e5" not in labels_of(s)
    with pytest.raises(IllegalActionError, match="no cell next to e5 is empty"):
        s.apply_action(at(g, "e5"))
    # One of them empty: legal (the line passes over the Blue stone on d4).
    s = position(g, PAWNS, {**dict.fromkeys(ring, BL), "e4": -1})
    play(s, "a1")
    assert "e5" in labels_of(s)
    # Own stones are not in the reach: 3 cells left, too few for 4 steps…
    mixed = {"d4": BL, "e6": BL, "e4": -1, "d5": OR, "f4": OR, "f5": OR}
    s = position(g, PAWNS, mixed)
    play(s, "a1")
    with pytest.raises(IllegalActionError, match=r"at least 4 neighbouring cells .* e5 has 3"):
        s.apply_action(at(g, "e5"))
    # … but enough for 3 steps (from b2).
    s = position(g, {"b2": OR, "a5": OR, "i1": BL, "i5": BL}, mixed)
    play(s, "b2")
    assert "e5" in labels_of(s)
    play(s, "e5")
    assert labels_of(s) == sorted(["d4", "e4", "e6"], key=lambda x: at(g, x))


def test_vacated_cell_counts_as_empty() -> None:  # §4.4 (decision: evaluated after the move)
    g = game()
    # Orange stones everywhere except e6 (empty) and the pawns: e5 -> e6 is legal only because e5 is vacated.
    s = position(g, {"e5": OR, "a1": OR, "i1": BL, "i5": BL}, {"e6": -1}, fill=OR)
    assert labels_of(s) == ["e5"]
    play(s, "e5")
    assert labels_of(s) == ["e6"]
    play(s, "e6")
    assert labels_of(s) == ["e5"]
    play(s, "e5")
    assert s.content[at(g, "e5")] == STONE + OR and at(g, "e6") in s.pawns[OR]


def test_stones_capture_and_one_must_go_on_an_empty_cell() -> None:  # §5
    g = game()
    # Reach of e5 from b2 (3 steps): d4 and e6 Blue, e4 empty; d5, f4, f5 Orange.
    s = position(g, {"b2": OR, "a5": OR, "i1": BL, "i5": BL}, {"d4": BL, "e6": BL, "d5": OR, "f4": OR, "f5": OR})
    play(s, "b2", "e5", "d4")
    assert s.content[at(g, "d4")] == STONE + OR  # the Blue stone was removed and replaced
    play(s, "e6")
    assert s.observation()["must_hit_empty"]
    assert labels_of(s) == ["e4"]  # the last stone must go on an empty cell
    assert "last stone on an empty cell" in s.scene(OR)["prompt"]
    play(s, "e4")
    assert s.current_player() == BL


def test_last_stone_forced_onto_empty_explained() -> None:  # §5
    g = game()
    # From e3 to e5 (2 steps, over the empty e4): reach d4, d5 (Blue) and e4 (empty); e6, f4, f5 are Orange.
    s = position(g, {"e3": OR, "a5": OR, "i1": BL, "i5": BL}, {"d4": BL, "d5": BL, "e6": OR, "f4": OR, "f5": OR})
    play(s, "e3", "e5")
    assert labels_of(s) == sorted(["d4", "d5", "e4"], key=lambda x: at(g, x))
    play(s, "d4")
    before = s.to_json(), s.observation()
    with pytest.raises(IllegalActionError, match="this last one must"):
        s.apply_action(at(g, "d5"))
    with pytest.raises(IllegalActionError, match="next to the pawn at e5"):
        s.apply_action(at(g, "a3"))
    with pytest.raises(IllegalActionError, match="already holds your stone"):
        s.apply_action(at(g, "d4"))
    assert (s.to_json(), s.observation()) == before


def test_blocked_player_passes_and_game_ends_when_both_are_blocked() -> None:  # §6.1, §6.2, §7
    g = game()
    # Orange stones everywhere but e5 and e6. Orange's pawns (a1, a2) reach them only with a one-cell reach.
    s = position(g, {"a1": OR, "a2": OR, "i1": BL, "i5": BL}, {"e5": -1, "e6": -1}, fill=OR)
    assert s.current_player() == OR and labels_of(s) == ["pass"]
    scene = s.scene(OR)
    assert "must pass" in scene["prompt"] and scene["buttons"] == [
        {"action": g.num_distinct_actions() - 1, "label": "pass"}
    ]
    play(s, "pass")
    assert s.current_player() == BL and labels_of(s) == ["i1", "i5"]
    with pytest.raises(IllegalActionError, match="only when none of your pawns can move"):
        s.apply_action(g.num_distinct_actions() - 1)
    play(s, "i5", "e5")
    assert s.observation()["stones_left"] == 4
    play(s, "e6", "d4", "d5", "e4")
    # Only i5 is empty now and nobody can land there: the game is over.
    assert s.is_terminal() and s.legal_actions() == []
    obs = s.observation()
    assert obs["scores"][OR] > obs["scores"][BL] and s.returns() == [1.0, -1.0]
    assert "Orange wins" in s.scene(None)["prompt"]


def test_mover_blocked_end_rule() -> None:  # §6.2, option end_rule
    g = game(end_rule="mover_blocked")
    s = position(g, {"a1": OR, "a2": OR, "i1": BL, "i5": BL}, {"e5": -1, "e6": -1}, fill=OR)
    assert s.is_terminal() and s.legal_actions() == []  # Orange is blocked: no pass, the game ends
    assert s.returns() == [1.0, -1.0] and s.observation()["passes"] == 0  # scored as it stands (§7)


def test_largest_group_scoring_and_draws() -> None:  # §7.1, §7.2
    g = game()
    s = position(g, PAWNS, {"c3": OR, "c4": OR, "c5": OR, "g1": BL, "g2": BL, "h1": BL, "h3": BL, "h4": BL})
    assert s.groups(OR) == [3] and s.groups(BL) == [3, 2]
    assert s.score(OR) == 3 and s.score(BL) == 3
    s._finish()
    assert s.returns() == [0.0, 0.0] and s.observation()["draw"]
    assert s.scene(None)["prompt"].startswith("Draw")
    s = position(g, PAWNS, {"c3": OR, "c4": OR, "d4": OR, "g1": BL, "g2": BL, "g3": BL, "g4": BL})
    s._finish()
    assert s.returns() == [-1.0, 1.0]


def test_pawns_do_not_connect_groups() -> None:  # §7.1
    g = game()
    s = position(g, {"c4": OR, "a5": OR, "i1": BL, "i5": BL}, {"c3": OR, "c5": OR})
    assert s.groups(OR) == [1, 1]


def test_connected_stones_scoring() -> None:  # §7.1, option scoring
    g = game(scoring="connected_stones")
    s = position(g, PAWNS, {"c3": OR, "c4": OR, "c5": OR, "a3": OR, "g1": BL, "g2": BL, "h3": BL, "h4": BL})
    assert s.score(OR) == 3 and s.score(BL) == 4
    s._finish()
    assert s.returns() == [-1.0, 1.0]
    assert "connected stones" in s.scene(None)["prompt"]


def test_tie_break_compares_the_next_groups() -> None:  # §7.3, option tie_break
    stones = {"c3": OR, "c4": OR, "c5": OR, "g1": BL, "g2": BL, "g3": BL, "h5": BL}
    for tie_break, expected in ((False, [0.0, 0.0]), (True, [-1.0, 1.0])):
        s = position(game(tie_break=tie_break), PAWNS, stones)
        s._finish()
        assert s.returns() == expected


def test_every_move_reduces_empty_cells_and_no_game_hits_the_cap() -> None:  # §8
    for side in (4, 5):
        g = game(board_side=side)
        for seed in range(15):
            s = g.new_initial_state()
            rng = random.Random(seed)
            empties = []
            while not s.is_terminal():
                assert isinstance(s, RadiusState)
                if s.phase == "pawn":
                    empties.append(s.content.count(EMPTY))
                s.apply_action(rng.choice(s.legal_actions()))
            assert all(a > b for a, b in itertools.pairwise(empties))
            assert len(empties) <= len(g.board) - 4  # type: ignore[attr-defined]
            assert s.move_number() < g.max_game_length()


def test_options_change_nothing_else_and_stay_playable() -> None:  # §3.2, §6.2, §7
    for options in (
        {"board_side": 7},
        {"end_rule": "mover_blocked"},
        {"scoring": "connected_stones", "tie_break": True},
        {"first_mover": "second_placer"},
    ):
        g = game(**options)
        for seed in range(3):
            s, capped = random_playout(g.new_initial_state(), random.Random(seed))
            assert not capped and s.is_terminal()


def test_scene_targets_and_highlights() -> None:  # §5.1 (the partial move is shown)
    g = game()
    s = position(g, PAWNS)
    scene = s.scene(OR)
    assert check_scene(scene, s.legal_moves(OR)) == []
    assert sorted(t["at"] for t in scene["targets"]) == ["a1", "a5"]
    assert "Choose one of your pawns" in scene["prompt"]
    pawns = [(p["at"], p["owner"]) for p in scene["pieces"] if p["kind"] == "pawn"]
    assert sorted(pawns) == [("a1", 0), ("a5", 0), ("i1", 1), ("i5", 1)]
    play(s, "a1")
    scene = s.scene(OR)
    assert {"at": "a1", "kind": "selected"} in scene["highlights"]
    assert "e5" in [t["at"] for t in scene["targets"]]
    play(s, "e5", "d4")
    scene = s.scene(OR)
    assert {"at": "d4", "kind": "selected"} in scene["highlights"]
    assert any(p["at"] == "d4" and p["kind"] == "stone" and p["owner"] == 0 for p in scene["pieces"])
    assert "3 more stones next to e5" in scene["prompt"]
    assert s.scene(BL)["targets"] == [] and s.scene(BL)["buttons"] == []
    play(s, "e4", "d5", "e6")
    scene = s.scene(BL)
    assert {"at": "e5", "kind": "last"} in scene["highlights"]
    assert any("Orange: largest group 4" in line for line in scene["status"])


def test_clone_is_fast_and_independent() -> None:
    g = game()
    s = position(g, PAWNS)
    c = s.clone()
    play(c, "a1", "e5", "d4")
    assert s.observation()["phase"] == "pawn" and s.content[at(g, "d4")] == EMPTY
    start = time.perf_counter()
    for seed in range(50):
        random_playout(g.new_initial_state(), random.Random(seed))
    assert (time.perf_counter() - start) / 50 < 0.05  # a few ms each; generous for a shared machine


def test_random_play_statistics() -> None:  # docs: ~0.52 first-mover wins, ~117 decisions per game
    g = game()
    wins = plies = 0
    n = 200
    for seed in range(n):
        s, capped = random_playout(g.new_initial_state(), random.Random(seed))
        assert not capped
        wins += s.returns()[0] > 0
        plies += s.move_number()
    assert 0.4 < wins / n < 0.62
    assert 105 < plies / n < 128
