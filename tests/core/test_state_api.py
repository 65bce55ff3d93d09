"""The core State API on a real game: errors, out-of-turn, undo, records, views."""

from __future__ import annotations

import json
import random

import pytest

import boardlab
from boardlab.agents import RandomAgent, make_agent, parse_agent_spec
from boardlab.core.constants import TERMINAL
from boardlab.core.errors import IllegalActionError, OutOfTurnError, UnknownActionString
from boardlab.core.play import play_game, random_playout
from boardlab.core.record import GameRecord, outcome
from boardlab.core.view import SeatView


def test_illegal_action_carries_explanation_and_changes_nothing() -> None:
    s = boardlab.make("blast-radius").new_initial_state()
    s.apply_action(0)
    before = s.to_json()
    with pytest.raises(IllegalActionError) as info:
        s.apply_action(1)  # a1's neighbour: inside the zone
    assert "exclusion zone" in info.value.explanation and info.value.player == 1 and info.value.action == 1
    with pytest.raises(IllegalActionError, match="not an action number"):
        s.apply_action("a2")  # type: ignore[arg-type]
    with pytest.raises(OutOfTurnError, match="seat 1 is to move"):
        s.apply_action(50, player=0)
    assert s.to_json() == before
    assert s.explain_illegal(1, 50).endswith("is legal now.")
    assert "not seat 0's turn" in s.explain_illegal(0, 50)


def test_string_to_action() -> None:
    s = boardlab.make("blast-radius").new_initial_state()
    assert s.string_to_action(0, " F6 ") == s.string_to_action(0, "f6")
    with pytest.raises(UnknownActionString, match="legal: a1, a2"):
        s.string_to_action(0, "z99")


def test_terminal_state_refuses_everything() -> None:
    s, _ = random_playout(boardlab.make("blast-radius", board_side=5).new_initial_state(), random.Random(0))
    assert s.current_player() == TERMINAL and s.legal_actions() == [] and s.legal_actions(0) == []
    with pytest.raises(IllegalActionError, match="over"):
        s.apply_action(0)
    assert s.explain_illegal(0, 0) == "The game is over."


def test_undo_point_takes_back_a_seats_last_decision() -> None:
    g = boardlab.make("blast-radius")
    s = g.new_initial_state()
    for label in ("f6", "a1", "k6"):
        s.apply_action(s.string_to_action(None, label))
    assert s.undo_point(None) == 2
    assert s.undo_point(1) == 1
    assert s.undo_point(1, cross_seats=False) is None
    back = g.state_from_history(s.history()[: s.undo_point(1)])
    assert back.current_player() == 1 and back.history() == [s.history()[0]]
    assert g.new_initial_state().undo_point(0) is None


def test_record_round_trip_and_validation(tmp_path) -> None:
    g = boardlab.make("blast-radius", board_side=5)
    s, _ = random_playout(g.new_initial_state(), random.Random(3))
    rec = GameRecord.from_state(s, seats=["ann", "random"], seed=3)
    data = json.loads(rec.to_json())
    assert data["game"] == "blast-radius" and data["options"] == {"board_side": 5, "pie": False}
    assert data["result"]["winners"] in ([0], [1]) and data["rules_version"] == "1"
    again = GameRecord.from_json(rec.to_json())
    assert again.replay().history() == s.history() and again.replay().returns() == s.returns()
    assert len(again.states()) == len(s.history()) + 1
    with pytest.raises(ValueError, match="JSON"):
        GameRecord.from_json("{nope")
    with pytest.raises(ValueError, match="unknown game"):
        GameRecord.from_json(json.dumps({"game": "nope", "history": []}))
    with pytest.raises(ValueError, match="history"):
        GameRecord.from_json(json.dumps({"game": "blast-radius", "history": ["x"]}))
    bad = dict(data, history=[*data["history"][:3], 0, 0])
    with pytest.raises(IllegalActionError, match="history step"):
        GameRecord.from_dict(bad).replay()
    with pytest.raises(ValueError, match="rules version"):
        GameRecord.from_dict(dict(data, rules_version="99")).replay()


def test_state_from_json_checks_game_and_options() -> None:
    g5 = boardlab.make("blast-radius", board_side=5)
    s = g5.new_initial_state()
    s.apply_action(7)
    with pytest.raises(ValueError, match="options"):
        boardlab.make("blast-radius").state_from_json(s.to_json())
    assert g5.state_from_json(s.to_json()).history() == [7]


def test_outcome_classification() -> None:
    assert outcome([1.0, -1.0]) == {"returns": [1.0, -1.0], "winners": [0], "draw": False}
    assert outcome([0.0, 0.0])["draw"] and outcome([-1.0, -1.0])["winners"] == []


def test_agents_see_only_views() -> None:
    g = boardlab.make("blast-radius", board_side=5)
    s = g.new_initial_state()
    view = SeatView(s, 0)
    assert not hasattr(view, "state") and view.legal_actions() == s.legal_actions()
    r = view.resample(random.Random(0))
    r.apply_action(r.legal_actions()[0])
    assert s.move_number() == 0  # the view's resample is a copy
    agents = [make_agent("random", g, 0, seed=1), RandomAgent(g, 1, seed=2)]
    final, capped = play_game(g.new_initial_state(), agents, random.Random(0))
    assert final.is_terminal() and not capped
    assert parse_agent_spec("mcts:iterations=20, c=1.4") == ("mcts", {"iterations": "20", "c": "1.4"})
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        make_agent("nobody", g)
    with pytest.raises(ValueError, match="no parameters"):
        make_agent("random:x=1", g)
