"""The games ported to ActionSpace keep every action number (saved records still replay) and name every action."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.games import dragon_fight, new_rule

PORTED = ("ant-trails", "chevrons", "dragon-fight", "new-rule", "radius", "trivalent")


@pytest.mark.parametrize("game_id", PORTED)
def test_every_ported_game_has_a_space_of_its_size(game_id: str) -> None:
    game = boardlab.make(game_id)
    assert game.action_space is not None and game.num_distinct_actions() == game.action_space.size
    assert len(set(game.action_space.labels)) == game.action_space.size


@pytest.mark.parametrize("side", [4, 5, 6, 7])
def test_radius_cells_then_pass(side: int) -> None:
    game = boardlab.make("radius", board_side=side)
    n = len(game.board.labels)
    assert game.num_distinct_actions() == n + 1 and game.pass_action == n
    assert [game.action_space.encode("cell", c) for c in range(n)] == list(range(n))
    assert game.action_space.label(3) == game.board.labels[3]


def test_trivalent_points_then_swap() -> None:
    game = boardlab.make("trivalent")
    assert game.swap_action == game.n == game.num_distinct_actions() - 1
    assert game.new_initial_state().action_to_string(0, game.n) == "swap"


def test_ant_trails_layout_is_unchanged() -> None:
    game = boardlab.make("ant-trails")
    space = game.action_space
    assert (space.encode("tile", 0), space.encode("tile", 11), game.done_action, game.pass_action) == (
        91,
        102,
        103,
        104,
    )
    assert game.num_distinct_actions() == 105
    c4 = game.board.labels.index("c4")
    assert game.chance_space.encode("food", c4, 1) == c4 * 3 + 1
    assert game.new_initial_state().action_to_string(-1, c4 * 3 + 1) == "food 2 on c4"


def test_chevrons_second_edges_follow_the_first_and_never_share_a_label() -> None:
    game = boardlab.make("chevrons")
    ne = game.num_edges
    e = game.board.edge_by_label["c2-c3"]
    assert game.action_space.encode("second", e) == ne + e and game.num_distinct_actions() == 2 * ne
    s = game.new_initial_state()
    assert (s.action_to_string(0, e), s.action_to_string(0, ne + e)) == ("c2-c3", "second edge c2-c3")
    s.apply_action(e)
    mate = s.legal_actions()[0]
    assert s.action_to_string(0, mate) == game.board.edge_labels[mate - ne]
    assert s.action_to_string(0, e) == "first edge c2-c3"
    labels = [s.action_to_string(0, a) for a in range(2 * ne)]
    assert len(set(labels)) == 2 * ne


def test_new_rule_squares_then_directions() -> None:
    assert (new_rule.DIR0, new_rule.NUM_ACTIONS, new_rule.HEADS, new_rule.TAILS) == (64, 72, 0, 1)
    assert new_rule.ACTIONS.label(0) == "a8" and new_rule.ACTIONS.label(64 + 3) == "SE"


def test_dragon_fight_orders_are_four_times_movement_plus_attack() -> None:
    space = dragon_fight.ACTIONS_WITH_FACING
    for m in range(len(dragon_fight.MOVES)):
        for k in range(len(dragon_fight.ATTACKS)):
            assert space.encode("order", m, k) == 4 * m + k
        assert space.encode("wound", m) == 24 + m
    assert [space.encode("face", f) for f in range(4)] == [30, 31, 32, 33]
    assert space.label(4 * 2 + 1) == "veer left + breathe fire"
    assert boardlab.make("dragon-fight", initial_facing="chosen").num_distinct_actions() == 34
    assert boardlab.make("dragon-fight").num_distinct_actions() == 30
