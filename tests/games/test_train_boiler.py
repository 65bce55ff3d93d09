"""Scenario tests for Train Boiler; clause numbers (§n) refer to docs/rules/train-boiler.md."""

from __future__ import annotations

import json
import random
from math import comb
from typing import Any

import pytest

import boardlab
from boardlab.cli.render import scene_text
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.scene import check_scene
from boardlab.games.train_boiler import (
    COLD,
    COLDEST,
    DEAL_WEIGHTS,
    DEALS,
    HEAT,
    HOT,
    HOTTEST,
    NORMAL,
    RESTORE,
    TrainBoilerState,
    after_play,
    restore_is_dud,
    round_winner,
)
from state_checks import random_step

HEAT_UP, COOL_DOWN, RESTORE_NORMAL = "play Heat Up!", "play Cool Down!", "play Restore Normal!"


def start(hot: int = 0, hottest: int = 0, orange: tuple[int, int, int] = (3, 3, 1), **options: Any) -> TrainBoilerState:
    """A round set up by chance: ``hot`` draws Heat Up! ★, ``hottest`` Heat Up! ★★, Orange is dealt ``orange``."""
    s = boardlab.make("train-boiler", **options).new_initial_state()
    assert isinstance(s, TrainBoilerState)
    s.apply_action(hot)
    s.apply_action(hottest)
    s.apply_action(DEALS.index(orange))
    return s


def play(s: TrainBoilerState, *labels: str) -> TrainBoilerState:
    for label in labels:
        s.apply_action(s.string_to_action(s.current_player(), label))
    return s


def test_fourteen_cards_dealt_seven_each() -> None:
    """§1, §4.3: six Heat Up!, six Cool Down!, two Restore Normal!; the deal's chances are those of a shuffle."""
    assert abs(sum(DEAL_WEIGHTS) - 1) < 1e-12
    assert DEAL_WEIGHTS[DEALS.index((3, 3, 1))] == comb(6, 3) * comb(6, 3) * comb(2, 1) / comb(14, 7)
    s = start(orange=(6, 1, 0))
    obs = s.observation(0)
    assert obs["hands"] == [
        {"Heat Up!": 6, "Cool Down!": 1, "Restore Normal!": 0},
        {"Heat Up!": 0, "Cool Down!": 5, "Restore Normal!": 2},
    ]
    assert obs["hand_sizes"] == [7, 7]


def test_the_track_and_the_cards() -> None:
    """§2-§3: Heat Up! one step up, Cool Down! one down, capped at the ends; Restore Normal! back to Normal."""
    assert after_play(NORMAL, HEAT, False) == HOT and after_play(HOT, HEAT, False) == HOTTEST
    assert after_play(HOTTEST, HEAT, False) == HOTTEST  # §3.3: still a move
    assert after_play(COLD, 1, False) == COLDEST and after_play(COLDEST, 1, False) == COLDEST
    assert after_play(COLDEST, RESTORE, False) == NORMAL and after_play(COLDEST, RESTORE, True) == COLDEST


def test_heat_at_hottest_is_a_legal_move_that_changes_nothing() -> None:
    """§3.3 in play: the third Heat Up! from Normal leaves the boiler at Hottest."""
    s = start(orange=(4, 2, 1))  # Blue holds 2 Heat, 4 Cool, 1 Restore
    play(s, HEAT_UP, HEAT_UP)
    assert s.observation(None)["temperature"] == "Hottest"
    play(s, HEAT_UP)
    assert s.observation(None)["temperature"] == "Hottest"
    assert "plays Heat Up!: the boiler is Hottest (it cannot go further)" in [x["text"] for x in s.move_log(1)]


def test_the_hot_player_plays_first() -> None:
    """§5.1: whoever drew Heat Up! ★ plays first, from Normal."""
    for hot in (0, 1):
        s = start(hot=hot)
        assert s.current_player() == hot and s.observation(None)["temperature"] == "Normal"
        play(s, HEAT_UP)
        assert s.current_player() == 1 - hot


def test_you_must_play_a_card_you_hold() -> None:
    """§5.3: only cards from your hand, no passing."""
    s = start(orange=(5, 2, 0))
    assert [label for _, label in s.legal_moves(0)] == [HEAT_UP, COOL_DOWN]
    with pytest.raises(IllegalActionError, match="you hold no Restore Normal! card"):
        s.apply_action(RESTORE)


def test_restore_normal_works_while_a_hand_holds_three_cards() -> None:
    """§3.4: Restore Normal! early on sets the boiler to Normal."""
    s = start(orange=(3, 3, 1))
    play(s, HEAT_UP, HEAT_UP)  # Hottest
    play(s, RESTORE_NORMAL)
    assert s.observation(None)["temperature"] == "Normal"


def test_restore_normal_is_a_dud_on_the_last_cards() -> None:
    """§3.4: with both hands under 3 cards (counting the one played) Restore Normal! changes nothing."""
    s = start(orange=(4, 2, 1))  # Blue: 2 Heat, 4 Cool, 1 Restore
    play(s, HEAT_UP, HEAT_UP)
    for _ in range(3):
        play(s, HEAT_UP, COOL_DOWN)
    play(s, COOL_DOWN, COOL_DOWN)  # Cold; Orange holds Cool Down! and Restore Normal!, Blue two cards
    obs = s.observation(0)
    assert obs["hand_sizes"] == [2, 2] and obs["hands"][0]["Restore Normal!"] == 1
    before = obs["temperature"]
    assert before != "Normal"
    play(s, RESTORE_NORMAL)
    assert s.observation(None)["temperature"] == before
    assert "Restore Normal! has no effect" in s.move_log(None)[-1]["text"]
    assert restore_is_dud(2, 2, "both_before") and not restore_is_dud(3, 2, "both_before")


def test_restore_rule_both_after_also_makes_the_second_players_fifth_card_a_dud() -> None:
    """§3.4, option restore_rule=both_after: the hand is counted without the card played."""
    for rule, dud in (("both_before", False), ("both_after", True)):
        s = start(orange=(4, 3, 0), restore_rule=rule)  # Blue: 2 Heat, 3 Cool, 2 Restore
        for _ in range(3):
            play(s, HEAT_UP, COOL_DOWN)
        play(s, HEAT_UP, HEAT_UP, COOL_DOWN)  # Hot; Orange has played five cards, Blue four
        obs = s.observation(1)
        assert obs["hand_sizes"] == [2, 3] and s.current_player() == 1 and obs["temperature"] == "Hot"
        temp = obs["temperature"]
        play(s, RESTORE_NORMAL)
        assert (s.observation(None)["temperature"] == temp) is dud


def test_the_final_temperature_decides_the_round() -> None:
    """§6 worked example: Orange has Hot or Coldest, Blue Cold or Hottest; Hot: Orange, Hottest: Blue."""
    assert round_winner(HOT, hot=0, hottest=1) == 0
    assert round_winner(HOTTEST, hot=0, hottest=1) == 1
    assert round_winner(COLD, hot=0, hottest=1) == 1
    assert round_winner(COLDEST, hot=0, hottest=1) == 0
    assert round_winner(NORMAL, hot=0, hottest=1) is None


def whole_round(s: TrainBoilerState, orange: list[str], blue: list[str]) -> None:
    first = s.current_player()
    seq = (orange, blue) if first == 0 else (blue, orange)
    for a, b in zip(*seq, strict=True):
        play(s, a, b)


def test_a_round_played_out_in_full() -> None:
    """§6: after the fourteenth card the round is decided and every goal is shown to everyone (§8.3)."""
    s = start(hot=0, hottest=1, orange=(4, 3, 0))  # Blue: 2 Heat, 3 Cool, 2 Restore
    whole_round(s, [HEAT_UP] * 4 + [COOL_DOWN] * 3, [RESTORE_NORMAL] * 2 + [HEAT_UP] * 2 + [COOL_DOWN] * 3)
    obs = s.observation(None)
    (result,) = obs["results"]
    assert result["temperature"] == "Coldest" and result["winner"] == 0  # Orange holds Cool Down! ★★
    assert obs["wins"] == [1, 0] and s.current_player() == CHANCE  # round 2 is set up
    last = s.move_log(None)[16]["text"]
    assert "Orange aimed for Hot or Coldest; Blue aimed for Cold or Hottest: Orange wins the round" in last


def test_best_of_three_ends_at_two_wins() -> None:
    """§7: the first to win two rounds wins the match."""
    s = start(hot=0, hottest=1, orange=(4, 3, 0))
    whole_round(s, [HEAT_UP] * 4 + [COOL_DOWN] * 3, [RESTORE_NORMAL] * 2 + [HEAT_UP] * 2 + [COOL_DOWN] * 3)
    s.apply_action(0)
    s.apply_action(1)
    s.apply_action(DEALS.index((4, 3, 0)))
    whole_round(s, [HEAT_UP] * 4 + [COOL_DOWN] * 3, [RESTORE_NORMAL] * 2 + [HEAT_UP] * 2 + [COOL_DOWN] * 3)
    assert s.current_player() == TERMINAL and s.returns() == [1.0, -1.0]
    assert s.observation(0)["winner"] == 0


def drawn_round(s: TrainBoilerState) -> None:
    """Orange (Hot, first) and Blue each play so that the boiler ends at Normal: a drawn round."""
    s.apply_action(0)
    s.apply_action(0)
    s.apply_action(DEALS.index((3, 3, 1)))  # Blue: 3, 3, 1
    whole_round(s, [HEAT_UP, COOL_DOWN] * 3 + [RESTORE_NORMAL], [COOL_DOWN, HEAT_UP] * 3 + [RESTORE_NORMAL])


@pytest.mark.parametrize(("match", "rounds"), [("best_of_3", 3), ("until_two_wins", 9)])
def test_drawn_rounds_and_the_match_limit(match: str, rounds: int) -> None:
    """§7: three drawn rounds draw a best-of-three match; until_two_wins plays on, at most nine rounds."""
    s = boardlab.make("train-boiler", match=match).new_initial_state()
    for _ in range(rounds):
        drawn_round(s)
    assert s.current_player() == TERMINAL and s.returns() == [0.0, 0.0]
    assert [r["winner"] for r in s.observation(None)["results"]] == [None] * rounds


def test_drawn_round_ends_at_normal() -> None:
    """§6: a round ending at Normal is a draw (the last card, Blue's Restore Normal!, is a dud at Normal)."""
    s = boardlab.make("train-boiler").new_initial_state()
    drawn_round(s)
    assert s.observation(None)["results"][0] == {
        "round": 1,
        "temperature": "Normal",
        "hot": 0,
        "hottest": 0,
        "winner": None,
    }


def test_players_know_everything_spectators_do_not() -> None:
    """§8.1-§8.3: each player is shown both goals and both hands; spectators see the ★ goal and hand sizes only."""
    s = start(hot=1, hottest=0, orange=(3, 3, 1))
    for v in (0, 1):
        obs = s.observation(v)
        assert obs["hottest"] == [True, False] and obs["hands"][0] is not None and obs["hands"][1] is not None
    spectator = s.observation(None)
    assert spectator["hot"] == 1 and spectator["hottest"] == [None, None] and spectator["hands"] == [None, None]
    logs = {v: [x["text"] for x in s.move_log(v)] for v in (0, 1, None)}
    assert "Orange draws Heat Up! ★★ (also Hottest) and Blue Cool Down! ★★ (also Coldest)" in logs[1]
    assert "the ★★ cards are drawn in secret" in logs[None]
    assert "dealt seven cards to each player" in logs[None]
    assert not any("Hottest" in line for line in logs[None][1:])


def test_the_table_view_shows_only_your_cards_and_the_last_play() -> None:
    """§8.2, option view=table: your goals and hand, the other's hand size, the last card face up."""
    s = start(hot=0, hottest=0, orange=(3, 3, 1), view="table")
    play(s, HEAT_UP, COOL_DOWN, HEAT_UP)
    obs = s.observation(1)
    assert obs["hands"][0] is None and obs["hands"][1] is not None
    assert obs["hottest"] == [None, False]
    assert obs["plays"] == [{"seat": 0, "card": "Heat Up!"}] and obs["played"] == 3
    scene = s.scene(1)
    played = next(z for z in scene["zones"] if z["id"] == "played")
    assert [i["face_down"] for i in played["items"]] == [True, True, False]
    deduced = start(hot=0, hottest=0, orange=(3, 3, 1))
    play(deduced, HEAT_UP, COOL_DOWN, HEAT_UP)
    assert len(deduced.observation(1)["plays"]) == 3


@pytest.mark.parametrize("view", ["deduced", "table"])
def test_a_players_resample_is_the_game_itself(view: str) -> None:
    """§8.1: a player can work out everything, so the only world consistent with his view is the real one;
    a spectator's worlds redraw the ★★ goals and the deal."""
    rng = random.Random(5)
    s = boardlab.make("train-boiler", view=view).new_initial_state()
    for _ in range(9):
        random_step(s, rng)
    for v in (0, 1):
        assert s.resample(v, rng).history() == s.history()
    worlds = {json.dumps(s.resample(None, random.Random(k)).history()) for k in range(30)}
    assert len(worlds) > 1


def test_the_scene_draws_the_track_and_the_cards() -> None:
    """§2 in the scene: the track as five squares with the temperature on one; cards with value and colour."""
    s = start(hot=0, hottest=1, orange=(3, 3, 1))
    play(s, HEAT_UP)
    for v in (0, 1, None):
        legal = s.legal_moves(v) if v == s.current_player() else []
        assert check_scene(s.scene(v), legal) == []
    scene = s.scene(1)
    assert [c["label"] for c in scene["cells"]] == ["Coldest", "Cold", "Normal", "Hot", "Hottest"]
    assert scene["pieces"][0]["at"] == "t3"  # Hot
    hand = next(z for z in scene["zones"] if z["id"] == "hand1")
    assert [i["value"] for i in hand["items"]] == ["+1"] * 3 + ["−1"] * 3 + ["N"]
    assert {t["action"] for t in scene["targets"]} == {0, 1, 2}
    text = scene_text(s.scene(1), [label for _, label in s.legal_moves(1)])
    assert "Your hand (7 cards)" in text and "play Cool Down!" in text
