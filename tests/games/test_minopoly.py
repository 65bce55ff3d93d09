"""Minopoly scenarios; clause numbers refer to docs/rules/minopoly.md."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.cli.render import scene_text
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.play import random_playout
from boardlab.core.scene import check_scene
from boardlab.games.minopoly import (
    CARD_NAMES,
    CARDS,
    CELL_NAMES,
    PLACEMENTS,
    MinopolyGame,
    MinopolyState,
    column_bonus,
    orientations,
    round_score,
    seen,
)
from state_checks import random_step

R, Y, G, B = range(4)
I, O, T, S, L = range(5)  # noqa: E741 (the cards' own letters)


def die(colour: int, face: int) -> int:
    return colour * 6 + face - 1


def game(**options: object) -> MinopolyGame:
    g = boardlab.make("minopoly", **options)
    assert isinstance(g, MinopolyGame)
    return g


def dealt(g: MinopolyGame | None = None, cards: tuple[int, ...] = (I, O, T, S), dealer: int = 1) -> MinopolyState:
    """North deals (so South starts); South gets the first two cards, North the next two, the fifth is the spare."""
    s = (g or game()).new_initial_state()
    assert isinstance(s, MinopolyState)
    s.apply_action(dealer)
    for c in cards:
        s.apply_action(c)
    return s


def play(s: MinopolyState, *labels: str) -> None:
    for label in labels:
        s.apply_action(s.string_to_action(None, label))


def labels(s: MinopolyState) -> list[str]:
    return [label for _, label in s.legal_moves()]


def thrown(s: MinopolyState, *dice: int) -> None:
    play(s, "draw four dice")
    for d in dice:
        s.apply_action(d)


def board_of(columns: dict[str, list[int | None]]) -> list[int]:
    """A board from its columns, each listed from South's edge (row 1) to North's (row 5)."""
    board = [-1] * 25
    for name, dice in columns.items():
        col = "abcde".index(name)
        for row, d in enumerate(dice):
            if d is not None:
                board[row * 5 + col] = d
    return board


def test_the_five_cards_in_every_rotation_and_reflection() -> None:
    """§1.3, §5.2: I, O, T, S, L have 2, 1, 4, 4, 8 orientations and 20, 16, 48, 48, 96 places on the board."""
    assert CARD_NAMES == ("I", "O", "T", "S", "L")
    assert [len(orientations(cells)) for _, cells in CARDS] == [2, 1, 4, 4, 8]
    assert [len(p) for p in PLACEMENTS] == [20, 16, 48, 48, 96]


def test_the_dealer_is_chance_and_the_other_player_starts() -> None:
    """§2.1, §2.2: a random dealer; two cards each and a spare; the setup is one line of the log."""
    s = game().new_initial_state()
    assert s.current_player() == CHANCE and dict(s.chance_outcomes()) == {0: 0.5, 1: 0.5}
    s.apply_action(0)  # South deals: North starts
    assert len(s.chance_outcomes()) == 5
    for c in (L, S, T, O):
        s.apply_action(c)
    assert s.hands == ((L, S), (T, O)) and s.spare == I and s.to_move == 1
    assert labels(s) == ["draw four dice"]
    assert [line["text"] for line in s.move_log(None)] == ["The dealer was chosen and the cards were dealt."]


def test_a_throw_draws_from_the_bag_in_proportion() -> None:
    """§4.1: each die comes out of the bag in proportion to its colour, with a random face."""
    s = dealt()
    play(s, "draw four dice")
    first = dict(s.chance_outcomes())
    assert len(first) == 24 and all(abs(p - 1 / 24) < 1e-12 for p in first.values())
    for _ in range(3):
        s.apply_action(die(R, 6))
    after = dict(s.chance_outcomes())
    assert abs(after[die(R, 1)] - 3 / 21 / 6) < 1e-12 and abs(after[die(Y, 1)] - 6 / 21 / 6) < 1e-12


def test_hold_dice_and_throw_the_others_again() -> None:
    """§4.2: hold dice one at a time (left to right), then only the others are thrown again, keeping colours."""
    s = dealt()
    thrown(s, die(B, 4), die(R, 2), die(G, 2), die(G, 3))
    assert [s.action_to_string(0, a) for a in s.legal_actions()][:4] == [
        "hold red 2",
        "hold green 2",
        "hold green 3",
        "hold blue 4",
    ]
    play(s, "hold green 2")
    assert "hold red 2" not in labels(s) and "hold green 3" in labels(s)  # holds go left to right
    play(s, "roll red 2, green 3, blue 4 again")
    assert s.current_player() == CHANCE and len(s.chance_outcomes()) == 6
    for face in (5, 0, 5):  # the red die shows 6, the green 1, the blue 6
        s.apply_action(face)
    assert sorted(s.dice) == sorted([die(R, 6), die(G, 2), die(G, 1), die(B, 6)])
    assert not any(s.held) and s.throws == 2


def test_the_third_throw_is_final() -> None:
    """§4.3: after three throws the player must choose a card."""
    s = dealt()
    thrown(s, die(R, 1), die(R, 2), die(R, 3), die(R, 4))
    for _ in range(2):
        play(s, "roll all four again")
        for face in (0, 1, 2, 3):
            s.apply_action(face)
    assert s.throws == 3 and labels(s) == ["play the I card", "play the O card"]


def test_locked_keeps_keep_held_dice_held() -> None:
    """§4.2: with locked_keeps a held die stays held after the next throw."""
    for locked in (False, True):
        s = dealt(game(locked_keeps=locked))
        thrown(s, die(R, 1), die(Y, 2), die(G, 3), die(B, 4))
        play(s, "hold red 1", "roll yellow 2, green 3, blue 4 again")
        for face in (0, 0, 0):
            s.apply_action(face)
        assert s.held == [locked, False, False, False]
        if locked:
            assert "hold red 1" not in labels(s)


def test_identical_dice_are_held_once_each() -> None:
    """§4.2: two equal dice offer one hold at a time, so every choice of dice to hold has one way in."""
    s = dealt()
    thrown(s, die(R, 5), die(R, 5), die(B, 1), die(B, 1))
    assert [x for x in labels(s) if x.startswith("hold")] == ["hold red 5", "hold blue 1"]
    play(s, "hold red 5")
    assert [x for x in labels(s) if x.startswith("hold")] == ["hold red 5", "hold blue 1"]
    play(s, "hold red 5", "hold blue 1")
    assert [x for x in labels(s) if x.startswith("hold")] == ["hold blue 1"]


def test_placing_follows_the_shape_in_reading_order() -> None:
    """§5.1, §5.2: choose a card; then each die on a cell of one placement, cells in reading order."""
    s = dealt()
    thrown(s, die(R, 1), die(Y, 2), die(G, 3), die(B, 4))
    play(s, "use these dice", "play the O card")
    play(s, "put red 1 on b2")
    assert sorted({x.split(" on ")[1] for x in labels(s)}) == ["c2"]  # a square from b2 must take c2 next
    with pytest.raises(IllegalActionError, match="cannot cover a1"):
        s.apply_action(s.game.action_space.encode("put", 1, CELL_NAMES.index("a1")))
    play(s, "put yellow 2 on c2", "put green 3 on b3", "put blue 4 on c3")
    assert [s.board[CELL_NAMES.index(c)] for c in ("b2", "c2", "b3", "c3")] == [
        die(R, 1),
        die(Y, 2),
        die(G, 3),
        die(B, 4),
    ]


def test_the_played_card_becomes_the_spare() -> None:
    """§5.3: the played card goes beside the board; the old spare comes to the player's hand."""
    s = dealt()
    thrown(s, die(R, 1), die(Y, 2), die(G, 3), die(B, 4))
    play(s, "use these dice", "play the I card")
    play(s, "put red 1 on a1", "put yellow 2 on b1", "put green 3 on c1", "put blue 4 on d1")
    assert s.hands == ((L, O), (T, S)) and s.spare == I and s.to_move == 1


def test_a_player_whose_cards_fit_nowhere_must_pass_and_two_passes_end_the_round() -> None:
    """§3: no card fits (or the bag is short): pass; both pass in a row: the round is scored."""
    s = game().new_initial_state()
    rng = random.Random(2)
    while not (s.current_player() >= 0 and s.phase == "start of a turn" and labels(s) == ["pass"]):
        random_step(s, rng)
    explanation = s.explain_illegal(s.current_player(), s.game.action_space.offset("draw"))
    assert "must pass" in explanation
    rounds = len(s.scores)
    while len(s.scores) == rounds:
        before = s.passes
        random_step(s, rng)
        assert s.passes in (0, before + 1)
    assert s.round == 2 and not any(d >= 0 for d in s.board) and sum(s.bag) == 24


def test_the_worked_example() -> None:
    """§6.4: South sees 12 buildings and a 5-point bonus (17), North 11 and a 10-point bonus (21)."""
    board = board_of(
        {
            "a": [die(R, 1), die(R, 4), die(Y, 5), die(Y, 6), die(R, 2)],
            "b": [die(B, 2), die(B, 3), die(B, 5), die(B, 3), None],
            "c": [die(R, 3), die(B, 5), die(G, 4), die(Y, 3), die(R, 2)],
            "d": [die(R, 6), None, None, None, die(Y, 3)],
            "e": [die(G, 4), die(Y, 6), None, None, None],
        }
    )
    assert round_score(board) == ((12, 5), (11, 10))


def test_equal_heights_hide_each_other() -> None:
    """§6.1: a die as tall as a nearer one is not seen."""
    assert seen([die(R, 3), die(Y, 3), die(G, 4)]) == 2
    assert seen([die(R, 6), die(Y, 1)]) == 1


def test_bonuses_and_stacking() -> None:
    """§6.2: 10 for a run in one colour or four colours, else 5 for one colour or four colours; one bonus a column."""
    same_run = [die(R, 1), die(R, 2), die(R, 3), die(R, 4)]
    assert column_bonus(same_run) == 10 and column_bonus(same_run, stack=True) == 15
    assert column_bonus([die(R, 1), die(Y, 2), die(G, 3), die(B, 4)]) == 10
    assert column_bonus([die(R, 1), die(Y, 1), die(G, 6), die(B, 6)]) == 5
    assert column_bonus([die(R, 1), die(R, 2), die(Y, 3), die(Y, 4)]) == 0  # two colours: nothing
    assert column_bonus([die(R, 1), die(R, 2), die(R, 3)]) == 0  # fewer than four dice


def test_a_column_tie_gives_no_bonus() -> None:
    """§6.3: when both players see as many dice in a column, nobody scores its bonus."""
    board = board_of({"a": [die(R, 2), die(R, 6), die(R, 3), die(R, 5), None]})  # both see two
    assert round_score(board) == ((2, 0), (2, 0))


def test_rounds_alternate_the_start_player_and_a_game_has_four() -> None:
    """§7, §8: four rounds, the start player alternating; the higher total wins."""
    g = game()
    for seed in range(3):
        s, capped = random_playout(g.new_initial_state(), random.Random(seed))
        assert not capped and s.current_player() == TERMINAL and len(s.scores) == 4
        totals = [sum(r[k][0] + r[k][1] for r in s.scores) for k in (0, 1)]
        assert totals == s.totals
        expected = [1.0, -1.0] if totals[0] > totals[1] else [-1.0, 1.0] if totals[1] > totals[0] else [0.0, 0.0]
        assert s.returns() == expected
    s = dealt()
    while s.round == 1:
        random_step(s, random.Random(len(s.history())))
    assert s.to_move == 1 and s.phase == "start of a turn"  # South started round 1, North starts round 2


def test_redealing_each_round_is_chance_again() -> None:
    """§7: with redeal_each_round the cards are dealt again before round 2."""
    s = dealt(game(redeal_each_round=True))
    rng = random.Random(4)
    while s.round == 1:
        random_step(s, rng)
    assert s.phase == "dealing" and s.current_player() == CHANCE


def test_the_scene_draws_dice_with_pips_held_dice_marked_and_cards_as_pictures() -> None:
    """§1, §4.2: dice items with face and colour; held dice marked; each card shows its shape."""
    s = dealt()
    thrown(s, die(R, 1), die(Y, 2), die(G, 3), die(B, 4))
    play(s, "hold yellow 2")
    scene = s.scene(0)
    assert check_scene(scene, s.legal_moves()) == []
    throw = next(z for z in scene["zones"] if z["id"] == "throw")
    assert [it["value"] for it in throw["items"]] == [1, 2, 3, 4] and all(it["kind"] == "die" for it in throw["items"])
    assert {"at": "d1", "kind": "selected"} in scene["highlights"]
    cards = next(z for z in scene["zones"] if z["id"] == "cards0")["items"]
    assert [it["value"] for it in cards] == ["I", "O"] and all(it.get("picture") for it in cards)
    text = scene_text(scene, labels(s))
    assert "⚀ 1" in text and "held" in text


def test_the_city_is_a_five_by_five_board_north_at_the_top_with_dice_as_buildings() -> None:
    """§1: the city is drawn as a board of 25 lots (not a zone of buttons), row 5 (North's side) at the top; a die
    put on a lot is a piece there in its colour showing its pips, and putting a die is a click on its lot."""
    s = dealt()
    scene = s.scene(0)
    assert not [z for z in scene["zones"] if z["id"] == "city"]
    cells = {c["id"]: c for c in scene["cells"]}
    assert len(cells) == 25 and all(c["polygon"] for c in cells.values())
    assert cells["c20"]["label"] == "a5" and cells["c20"]["center"][1] < cells["c0"]["center"][1]  # a5 above a1
    assert cells["c4"]["center"][0] > cells["c0"]["center"][0]  # e1 right of a1
    lines = scene_text(scene, labels(s)).splitlines()
    rows = [line.split()[0] for line in lines if line.strip()[:1] in "12345" and len(line.split()) > 5]
    assert rows == ["5", "4", "3", "2", "1"]
    thrown(s, die(R, 1), die(Y, 2), die(G, 3), die(B, 4))
    play(s, "use these dice")
    play(s, next(label for label in labels(s) if label.startswith("play")))
    scene = s.scene(s.current_player())
    assert check_scene(scene, s.legal_moves()) == []
    puts = [t for t in scene["targets"] if t["label"].startswith("put")]
    assert puts and all(t["at"] in cells for t in puts)
    play(s, puts[0]["label"])
    (building,) = s.scene(s.current_player())["pieces"]
    assert building["at"] == puts[0]["at"] and building.get("picture") and building["colour"].startswith("#")
    assert building["label"] in "1234" and building["name"].split(" on ")[0] in puts[0]["label"]
