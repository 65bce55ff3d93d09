"""Blast Radius scenarios; clause numbers refer to docs/rules/blast-radius.md."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core.errors import IllegalActionError
from boardlab.core.play import random_playout
from boardlab.games.blast_radius import BlastRadiusState


def game(**options: object) -> boardlab.Game:
    return boardlab.make("blast-radius", **options)


def at(g: boardlab.Game, label: str) -> int:
    return g.board.labels.index(label)  # type: ignore[attr-defined]


def position(g: boardlab.Game, towers: dict[str, tuple[int, int]], to_move: int, ply: int = 10) -> BlastRadiusState:
    """A hand-made position: ``{label: (seat, height)}``."""
    s = g.new_initial_state()
    assert isinstance(s, BlastRadiusState)
    for label, (seat, h) in towers.items():
        s.height[at(g, label)] = h
        s.owner[at(g, label)] = seat
    s._rebuild_tables()
    s.to_move = to_move
    s.ply = ply
    return s


def fill(s: BlastRadiusState, seat: int) -> BlastRadiusState:
    """Put height-1 towers of ``seat`` on free hexes until none is free (so §4b applies)."""
    while s.free:
        i = s.free[0]
        s.height[i], s.owner[i] = 1, seat
        s._rebuild_tables()
    return s


def assert_consistent(s: BlastRadiusState) -> None:
    """No tower inside another's zone (§5), and the incremental tables match a recomputation."""
    towers = [i for i, h in enumerate(s.height) if h]
    for i in towers:
        for j in towers:
            if i != j:
                assert s.game.board.distance(i, j) > s.height[j], (i, j)
    fresh = s.clone()
    fresh._rebuild_tables()
    assert (s.cover, s.free, s.towers, s.occupied) == (fresh.cover, fresh.free, fresh.towers, fresh.occupied)
    for p in (0, 1):
        assert {h: c for h, c in enumerate(s.stacks[p]) if c} == {h: c for h, c in enumerate(fresh.stacks[p]) if c}


def test_board_sizes_and_labels() -> None:  # §1
    assert game().num_distinct_actions() == 92
    assert game(board_side=5).num_distinct_actions() == 62
    assert game(board_side=7).num_distinct_actions() == 128
    s = game().new_initial_state()
    assert s.legal_moves()[0] == (0, "a1") and s.legal_moves()[-1] == (90, "k6")
    with pytest.raises(ValueError, match="board_side"):
        game(board_side=8)


def test_zone_sizes() -> None:  # §2
    g = game()
    s = g.new_initial_state()
    s.apply_action(s.string_to_action(0, "f6"))  # the centre
    assert sum(s.observation()["zone"]) == 6
    corner = position(g, {"a1": (0, 1)}, to_move=1)
    assert sum(corner.observation()["zone"]) == 3
    tall = position(g, {"f6": (0, 2)}, to_move=1)
    assert sum(tall.observation()["zone"]) == 18
    tall_corner = position(g, {"a1": (0, 2)}, to_move=1)
    assert sum(tall_corner.observation()["zone"]) == 8


def test_opening_red_anywhere_and_game_goes_on() -> None:  # §3.1, §6
    g = game()
    s = g.new_initial_state()
    assert len(s.legal_actions()) == 91 and s.current_player() == 0
    s.apply_action(s.string_to_action(0, "a1"))
    assert not s.is_terminal() and s.current_player() == 1
    assert s.observation()["colours"] == ["Red", "Blue"]


def test_pie_rule_swap() -> None:  # §3.2
    s = game().new_initial_state()
    s.apply_action(s.string_to_action(0, "f6"))
    assert "swap" not in [label for _, label in s.legal_moves()]
    with pytest.raises(IllegalActionError, match="pie rule"):
        s.apply_action(91)
    g = game(pie=True)
    s = g.new_initial_state()
    s.apply_action(s.string_to_action(0, "f6"))
    assert s.legal_moves()[-1] == (91, "swap")
    s.apply_action(s.string_to_action(1, "swap"))
    obs = s.observation()
    assert obs["colours"] == ["Blue", "Red"] and obs["owner"][at(g, "f6")] == 1
    assert s.current_player() == 0 and not s.is_terminal()
    assert "swap" not in [label for _, label in s.legal_moves()]  # only once
    s.apply_action(s.string_to_action(0, "a1"))
    assert not s.is_terminal()


def test_must_place_on_a_free_hex_while_one_exists() -> None:  # §4a
    g = game()
    s = g.new_initial_state()
    s.apply_action(s.string_to_action(0, "f6"))
    s.apply_action(s.string_to_action(1, "a1"))
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="§4a"):
        s.apply_action(at(g, "f6"))  # own tower, but free hexes remain
    with pytest.raises(IllegalActionError, match="exclusion zone of the tower at f6"):
        s.apply_action(at(g, "f7"))
    with pytest.raises(IllegalActionError, match="opponent's tower"):
        s.apply_action(at(g, "a1"))
    assert s.to_json() == before
    assert at(g, "f7") not in s.legal_actions() and at(g, "c3") in s.legal_actions()


def test_smallest_tower_example_from_the_text() -> None:  # §4b: towers 1, 1, 2 -> grow a size-1 tower
    g = game(board_side=5)
    # Red's towers of heights 2, 1 and 1, far apart; Blue's towers fill every free hex, so §4b applies.
    pos = fill(position(g, {"c3": (0, 2), "g2": (0, 1), "g6": (0, 1)}, to_move=0), 1)
    assert_consistent(pos)
    assert not pos.free
    assert pos.legal_actions() == sorted([at(g, "g2"), at(g, "g6")])
    before = pos.to_json(), pos.observation()
    with pytest.raises(IllegalActionError, match=r"smallest towers \(height 1\) \(§4b\)"):
        pos.apply_action(at(g, "c3"))
    blue = next(i for i in range(len(g.board)) if pos.owner[i] == 1)  # type: ignore[attr-defined]
    with pytest.raises(IllegalActionError, match="opponent's tower"):
        pos.apply_action(blue)  # §4: never on an opponent's tower, even when no hex is free
    with pytest.raises(IllegalActionError, match="exclusion zone of the tower at c3"):
        pos.apply_action(at(g, "a1"))  # empty, but at distance 2 from the height-2 tower (§2)
    assert (pos.to_json(), pos.observation()) == before


def test_random_fills_always_grow_a_smallest_tower() -> None:  # §4b in play
    g = game(board_side=5)
    grows = 0
    for seed in range(10):
        s = g.new_initial_state()
        assert isinstance(s, BlastRadiusState)
        rng = random.Random(seed)
        while not s.is_terminal():
            if not s.free:
                p = s.current_player()
                mine = {i: h for i, h in enumerate(s.height) if s.owner[i] == p}
                low = min(mine.values())
                assert s.legal_actions() == sorted(i for i, h in mine.items() if h == low)
                grows += 1
            s.apply_action(rng.choice(s.legal_actions()))
    assert grows > 50


def test_blast_removes_towers_of_both_colours_at_distance_h() -> None:  # §5
    g = game()
    # Seat 0 grows f6 from 1 to 2: towers at distance 2 fall, its own included; distance 3 stays.
    pos = fill(position(g, {"f6": (0, 1), "f8": (1, 1), "d6": (0, 1), "c6": (1, 1)}, to_move=0), 1)
    assert at(g, "f6") in pos.legal_actions()
    pos.apply_action(at(g, "f6"))
    obs = pos.observation()
    assert obs["height"][at(g, "f6")] == 2
    assert obs["height"][at(g, "f8")] == 0 and obs["height"][at(g, "d6")] == 0
    assert obs["height"][at(g, "c6")] == 1
    assert not pos.is_terminal()


def test_last_opponent_tower_blasted_ends_the_game() -> None:  # §5, §6
    g = game()
    pos = fill(position(g, {"f6": (0, 1), "f8": (1, 1)}, to_move=0), 0)
    assert pos.towers[1] == 1
    pos.apply_action(at(g, "f6"))
    assert pos.is_terminal() and pos.returns() == [1.0, -1.0]
    assert pos.observation()["winner"] == 0


def test_random_play_statistics_side_5() -> None:  # doc statistics: Red wins 0.47, 45 plies
    g = game(board_side=5)
    rng = random.Random(1)
    wins = plies = 0
    n = 400
    for _ in range(n):
        s, capped = random_playout(g.new_initial_state(), rng)
        assert not capped
        wins += s.returns()[0] > 0
        plies += s.move_number()
    assert 0.43 < wins / n < 0.59
    assert 43 < plies / n < 49


@pytest.mark.parametrize("options", [{"board_side": 5}, {"board_side": 5, "pie": True}])
def test_no_tower_ever_stands_in_a_zone(options: dict[str, object]) -> None:  # §5 invariant, incremental tables
    g = game(**options)
    for seed in range(8):
        s = g.new_initial_state()
        assert isinstance(s, BlastRadiusState)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            assert_consistent(s)


def test_tie_is_impossible() -> None:  # §6
    g = game(board_side=5)
    for seed in range(50):
        s, _ = random_playout(g.new_initial_state(), random.Random(seed))
        assert sorted(s.returns()) == [-1.0, 1.0]


def test_scene_prompts_status_and_targets() -> None:  # §3.2, §4a, §4b, §6 as a player sees them
    g = game(pie=True)
    s = g.new_initial_state()
    s.apply_action(s.string_to_action(0, "f6"))
    scene = s.scene(1)
    assert "or swap sides" in scene["prompt"]
    assert scene["status"] == ["Red: 1 piece", "Blue: 0 pieces", "move 2"]
    assert {t["at"] for t in scene["targets"]} == {g.board.labels[a] for a in s.legal_actions() if a < 91}  # type: ignore[attr-defined]
    assert s.scene(0)["prompt"] == "Blue to move."
    pos = fill(position(g, {"f6": (0, 1), "f8": (1, 1)}, to_move=0), 0)
    assert pos.scene(0)["prompt"] == "No empty hex is free: grow one of your smallest towers."
    pos.apply_action(at(g, "f6"))
    assert pos.scene(None)["prompt"] == "Red wins: only their pieces remain."
