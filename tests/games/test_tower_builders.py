"""Scenario tests for Tower Builders; clause numbers (§n) refer to docs/rules/tower-builders.md."""

from __future__ import annotations

import random
from typing import Any

import pytest

import boardlab
from boardlab.cli.render import scene_text
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.play import random_playout
from boardlab.core.scene import check_scene
from boardlab.games.tower_builders import (
    CALL,
    FACE_DOWN,
    NO_CALL,
    PLAY_DRAWN,
    PLAY_HELD,
    TowerBuildersState,
)

ORANGE, BLUE = 0, 1


def run(moves: list[str], **options: Any) -> TowerBuildersState:
    """A game from the start, every step typed as its label (chance outcomes are card names)."""
    options.setdefault("dealer", "orange")
    s = boardlab.make("tower-builders", **options).new_initial_state()
    for m in moves:
        s.apply_action(s.string_to_action(s.current_player(), m))
    assert isinstance(s, TowerBuildersState)
    return s


def log(s: TowerBuildersState, viewer: int | None) -> list[str]:
    return [line["text"] for line in s.move_log(viewer, reveal=False)]


#: A whole game in which everybody always plays the held card: Collapses first, then equal towers of 21.
EVEN_GAME = [
    "Collapse",  # dealt to Orange (the dealer deals to themselves first)
    "Collapse",  # dealt to Blue
    *("1 floor", "play the held Collapse", "1 floor", "play the held Collapse"),
    *("1 floor", "play the held 1 floor", "1 floor", "play the held 1 floor"),
    *("2 floors", "play the held 1 floor", "2 floors", "play the held 1 floor"),
    *("2 floors", "play the held 2 floors", "2 floors", "play the held 2 floors"),
    *("5 floors", "play the held 2 floors", "5 floors", "play the held 2 floors"),
    *("10 floors", "play the held 5 floors", "10 floors", "play the held 5 floors"),
    "play the held 10 floors",  # Blue's last card
    "play the held 10 floors",  # Orange's last card
]


# -- §1, §2 cards and setup ------------------------------------------------------------------------


def test_the_deck_has_fourteen_cards_in_five_kinds() -> None:
    """§1: 4 × 1 floor, 4 × 2 floors, 2 × 5, 2 × 10, 2 × Collapse; the first deal draws by those counts."""
    s = run([])
    outcomes = {s.action_to_string(CHANCE, a): p for a, p in s.chance_outcomes()}
    assert outcomes == pytest.approx(
        {"1 floor": 4 / 14, "2 floors": 4 / 14, "5 floors": 2 / 14, "10 floors": 2 / 14, "Collapse": 2 / 14}
    )


def test_a_coin_decides_the_dealer_by_default() -> None:
    """§2a: with dealer=random a fair coin, shown to everyone, names the dealer."""
    s = boardlab.make("tower-builders").new_initial_state()
    assert s.current_player() == CHANCE and s.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    s.apply_action(s.string_to_action(CHANCE, "Blue deals"))
    assert s.observation(None)["dealer"] == BLUE and log(s, ORANGE) == ["Blue deals the cards"]


def test_each_player_sees_only_the_card_dealt_to_them() -> None:
    """§2b, §8a: the dealer deals to themselves, then to the other; each sees only their own card."""
    s = run(["10 floors", "Collapse"])
    assert log(s, ORANGE) == ["dealt 10 floors to Orange", "dealt a card to Blue"]
    assert log(s, BLUE) == ["dealt a card to Orange", "dealt Collapse to Blue"]
    assert log(s, None) == ["dealt a card to Orange", "dealt a card to Blue"]
    assert s.observation(ORANGE)["hand"] == ["10 floors"] and s.observation(BLUE)["hand"] == ["Collapse"]
    assert s.observation(None)["hand"] == [] and s.observation(None)["hand_sizes"] == [1, 1]


def test_the_player_who_did_not_deal_goes_first() -> None:
    """§2c, §2d: twelve cards stay in the deck and the non-dealer draws first."""
    s = run(["1 floor", "2 floors"], dealer="orange")
    assert s.observation(None)["deck"] == 12 and s.current_player() == CHANCE and s.to_move == BLUE
    s = run(["1 floor", "2 floors"], dealer="blue")
    assert s.to_move == ORANGE


# -- §3, §4 a turn ------------------------------------------------------------------------------------


def test_a_turn_is_a_draw_then_one_of_the_two_cards() -> None:
    """§3a, §3b: after the draw, the player plays the drawn card or the held card; the other is kept."""
    s = run(["1 floor", "5 floors", "10 floors"])
    assert s.current_player() == BLUE
    assert s.legal_moves(BLUE) == [(PLAY_DRAWN, "play the drawn 10 floors"), (PLAY_HELD, "play the held 5 floors")]
    assert log(s, ORANGE)[-1] == "Blue drew a card" and log(s, BLUE)[-1] == "Blue drew 10 floors"
    s.apply_action(PLAY_HELD)
    assert s.observation(BLUE)["hand"] == ["10 floors"] and s.observation(BLUE)["towers"][BLUE] == [
        {"card": "5 floors", "face_down": False}
    ]
    assert s.current_player() == CHANCE and s.to_move == ORANGE


def test_floor_cards_build_your_own_tower() -> None:
    """§4a, §7a: floors go on the player's own tower and count for its score."""
    s = run(["1 floor", "5 floors", "10 floors", "play the drawn 10 floors", "2 floors", "play the drawn 2 floors"])
    assert s.scores() == [2, 10]


def test_a_collapse_destroys_the_whole_other_tower() -> None:
    """§4b, §4c: a Collapse discards the opponent's tower and itself; the discards are public."""
    s = run(["Collapse", "5 floors", "10 floors", "play the drawn 10 floors", "1 floor", "play the held Collapse"])
    assert s.scores() == [0, 0] and s.towers == [(), ()]
    discard = [e["card"] for e in s.observation(None)["discard"]]
    assert discard == ["10 floors", "Collapse"]
    assert log(s, BLUE)[-1] == "played the held card, Collapse: Blue's tower of 1 card falls"


def test_a_collapse_on_an_empty_tower_is_only_discarded() -> None:
    """§4b: playing a Collapse against an empty tower is legal; only the Collapse is discarded."""
    s = run(["1 floor", "Collapse", "2 floors", "play the held Collapse"])
    assert s.towers == [(), ()] and [e["card"] for e in s.observation(None)["discard"]] == ["Collapse"]
    assert log(s, None)[-1] == "played the held card, Collapse on an empty tower"


# -- §5 the hold limit --------------------------------------------------------------------------------


def test_the_worked_example_of_the_hold_limit() -> None:
    """§5c: Blue keeps a dealt 1 floor for two turns; on the third it must be played and the 10 floors is kept."""
    s = run(["2 floors", "1 floor", "5 floors", "play the drawn 5 floors", "1 floor", "play the drawn 1 floor"])
    assert s.age[BLUE] == 1
    for m in ("2 floors", "play the drawn 2 floors", "1 floor", "play the held 2 floors"):
        s.apply_action(s.string_to_action(s.current_player(), m))
    assert s.age[BLUE] == 2 and s.observation(ORANGE)["due"] == [False, True]
    s.apply_action(s.string_to_action(CHANCE, "10 floors"))
    assert s.legal_moves(BLUE) == [(PLAY_HELD, "play the held 1 floor")]
    with pytest.raises(IllegalActionError, match=r"held for 2 turns: play it now \(§5b\)"):
        s.apply_action(PLAY_DRAWN)
    s.apply_action(PLAY_HELD)
    assert s.observation(BLUE)["hand"] == ["10 floors"] and s.age[BLUE] == 0


def test_the_hold_limit_option_changes_the_count() -> None:
    """§5b with hold_limit=2: a card kept through one turn must be played on the next."""
    s = run(
        ["2 floors", "1 floor", "5 floors", "play the drawn 5 floors", "1 floor", "play the drawn 1 floor"],
        hold_limit=2,
    )
    s.apply_action(s.string_to_action(CHANCE, "10 floors"))
    assert s.legal_actions(BLUE) == [PLAY_HELD]
    s = run(
        ["2 floors", "1 floor", "5 floors", "play the drawn 5 floors", "1 floor", "play the drawn 1 floor"],
        hold_limit=4,
    )
    for m in ("2 floors", "play the drawn 2 floors", "1 floor", "play the held 2 floors", "10 floors"):
        s.apply_action(s.string_to_action(s.current_player(), m))
    assert s.legal_actions(BLUE) == [PLAY_DRAWN, PLAY_HELD]  # age 2 of at most 4


def test_the_dealer_is_held_to_the_limit_too() -> None:
    """§5a: a dealt card counts alike for the dealer: Orange's 10 floors must be played on Orange's third turn."""
    moves = ["10 floors", "1 floor"]
    for _ in range(2):
        moves += ["1 floor", "play the held 1 floor", "2 floors", "play the drawn 2 floors"]
    s = run([*moves, "1 floor", "play the held 1 floor", "5 floors"])
    assert s.current_player() == ORANGE and s.legal_actions(ORANGE) == [PLAY_HELD]


# -- §6, §7 the end -------------------------------------------------------------------------------------


def test_the_final_plays_need_no_draw_and_end_the_game() -> None:
    """§6: after the dealer's twelfth draw the non-dealer, then the dealer, play their last card; all 14 are played."""
    s = run(EVEN_GAME[:-2])
    assert s.observation(None)["deck"] == 0 and s.current_player() == BLUE and s.phase == "last"
    assert s.legal_moves(BLUE) == [(PLAY_HELD, "play the held 10 floors")]
    s.apply_action(PLAY_HELD)
    assert s.current_player() == ORANGE and s.legal_actions(ORANGE) == [PLAY_HELD]
    s.apply_action(PLAY_HELD)
    assert s.current_player() == TERMINAL
    assert sum(len(t) for t in s.towers) + len(s.discard) == 14


def test_equal_towers_draw_by_default() -> None:
    """§7c: 21 floors each is a draw; the last log line gives the result."""
    s = run(EVEN_GAME)
    assert s.scores() == [21, 21] and s.returns() == [0.0, 0.0]
    assert log(s, None)[-1] == "played the last card, 10 floors; game over, Orange 21 floors, Blue 21: a draw"


def test_with_tie_dealer_loses_the_dealer_loses_a_tie() -> None:
    """§7c, option tie=dealer_loses: Orange dealt, so Blue wins the tie."""
    s = run(EVEN_GAME, tie="dealer_loses")
    assert s.returns() == [-1.0, 1.0]


#: A whole game of held plays in which both Collapses strike: Orange ends with 10 floors, Blue with 9.
CLOSE_GAME = [
    "10 floors",
    "1 floor",
    *("1 floor", "play the held 1 floor", "1 floor", "play the held 10 floors"),
    *("1 floor", "play the held 1 floor", "Collapse", "play the held 1 floor"),
    *("2 floors", "play the held 1 floor", "2 floors", "play the held Collapse"),  # Blue's 3 floors fall
    *("2 floors", "play the held 2 floors", "2 floors", "play the held 2 floors"),
    *("5 floors", "play the held 2 floors", "5 floors", "play the held 2 floors"),
    *("Collapse", "play the held 5 floors", "10 floors", "play the held 5 floors"),
    "play the held Collapse",  # Blue's last card: Orange's 20 floors fall
    "play the held 10 floors",
]


def test_the_taller_tower_wins() -> None:
    """§7a, §7c: after both Collapses Orange has 10 floors and Blue 9: Orange wins."""
    s = run(CLOSE_GAME)
    assert s.scores() == [10, 9] and s.returns() == [1.0, -1.0]
    assert log(s, BLUE)[-2] == "played the last card, Collapse: Orange's tower of 5 cards falls"
    assert log(s, BLUE)[-1] == "played the last card, 10 floors; game over, Orange 10 floors, Blue 9: Orange wins"


# -- §8 information ---------------------------------------------------------------------------------------


def test_which_card_was_played_is_public_by_default() -> None:
    """§8b: with slot_public the opponent reads whether the card drawn or held was played, and knows its age."""
    s = run(["1 floor", "5 floors", "10 floors", "play the drawn 10 floors"])
    assert log(s, ORANGE)[-1] == "played the drawn card, 10 floors"
    assert s.observation(ORANGE)["ages"] == [0, 1]


def test_with_slot_public_false_only_the_card_is_shown() -> None:
    """§8b: with slot_public=false the opponent sees only the card; the player's own log keeps the slot."""
    s = run(["1 floor", "5 floors", "10 floors", "play the drawn 10 floors"], slot_public=False)
    assert log(s, ORANGE)[-1] == "played 10 floors" and log(s, BLUE)[-1] == "played the drawn card, 10 floors"
    assert s.observation(ORANGE)["ages"] == [0, None] and s.observation(BLUE)["ages"] == [None, 1]


def test_the_scene_shows_the_other_hand_as_backs_in_its_owners_colour() -> None:
    """§8a: Orange sees two blue backs while Blue holds a drawn card; its own card is drawn face up with its value."""
    s = run(["1 floor", "5 floors", "10 floors"])
    scene = s.scene(ORANGE)
    assert check_scene(scene, []) == []
    zones = {z["id"]: z for z in scene["zones"]}
    assert [(i["face_down"], i.get("owner")) for i in zones["hand1"]["items"]] == [(True, BLUE), (True, BLUE)]
    assert zones["hand0"]["items"][0]["value"] == "1" and zones["hand0"]["items"][0]["suit"] == "⌂"
    blue = s.scene(BLUE)
    assert {t["action"] for t in blue["targets"]} == {PLAY_DRAWN, PLAY_HELD}
    text = scene_text(blue, [label for _, label in s.legal_moves(BLUE)])
    assert "[10⌂]" in text and "[5⌂]" in text and "▒▒" in text


# -- §9 the cheating variant ------------------------------------------------------------------------------

CHEAT = [
    "10 floors",  # Orange
    "1 floor",  # Blue
    *("1 floor", "play the drawn 1 floor"),  # Blue, turn 1
    *("2 floors", "play the drawn 2 floors"),  # Orange keeps the 10 floors: age 1
    *("1 floor", "play the held 1 floor"),  # Blue, turn 2
    *("2 floors", "play the drawn 2 floors"),  # Orange: age 2
    *("5 floors", "play the drawn 5 floors"),  # Blue, turn 3
]


def test_with_cheating_a_card_may_be_kept_past_the_limit() -> None:
    """§9a: the limit is not enforced; nobody sees whether the drawn or held card was played."""
    s = run(CHEAT, cheating=True)
    assert s.current_player() == ORANGE and s.phase == "call"  # §9b: Blue has had three turns
    s.apply_action(NO_CALL)
    s.apply_action(s.string_to_action(CHANCE, "2 floors"))
    assert s.legal_actions(ORANGE) == [PLAY_DRAWN, PLAY_HELD]
    s.apply_action(PLAY_DRAWN)
    assert s.age[ORANGE] == 3 and log(s, BLUE)[-1] == "played 2 floors"


def test_a_right_call_catches_the_cheat() -> None:
    """§9c: Blue calls; Orange's 10 floors has age 3, so Orange must place it face down on the next turn."""
    s = run([*CHEAT, "make no call", "2 floors", "play the drawn 2 floors", "call a cheat"], cheating=True)
    assert log(s, None)[-1] == "called a cheat: Orange has held a card too long and is caught"
    assert s.observation(None)["caught"] == [True, False]
    for m in ("5 floors", "play the drawn 5 floors", "make no call", "2 floors"):
        s.apply_action(s.string_to_action(s.current_player(), m))
    assert s.legal_moves(ORANGE) == [(FACE_DOWN, "place the held card face down")]
    with pytest.raises(IllegalActionError, match=r"caught .* face down on your tower \(§9c\)"):
        s.apply_action(PLAY_DRAWN)
    s.apply_action(FACE_DOWN)
    assert s.observation(ORANGE)["hand"] == ["2 floors"] and s.age[ORANGE] == 0
    assert s.observation(BLUE)["towers"][ORANGE][-1] == {"card": None, "face_down": True}
    assert s.observation(ORANGE)["towers"][ORANGE][-1] == {"card": "10 floors", "face_down": True}
    assert log(s, BLUE)[-1] == "placed the held card face down on the tower (caught)"
    assert log(s, ORANGE)[-1] == "placed the held card face down on the tower (caught); it is 10 floors"
    assert s.scores()[ORANGE] == 6  # §7b, §7d's example: 2 + 2 + 2, the face-down 10 floors scores nothing


def test_a_wrong_call_has_no_effect() -> None:
    """§9d: Orange calls, but Blue's 1 floor has age 1: nothing happens."""
    s = run([*CHEAT, "call a cheat"], cheating=True)
    assert log(s, None)[-1] == "called a cheat: wrongly, Blue's held card is within the limit"
    assert s.observation(None)["caught"] == [False, False] and s.current_player() == CHANCE


def test_a_cheat_who_plays_the_card_in_time_gets_away() -> None:
    """§9e: Orange plays its over-age card before any call; Blue's later call is wrong."""
    s = run([*CHEAT, "make no call", "2 floors", "play the drawn 2 floors", "make no call", "5 floors"], cheating=True)
    s.apply_action(PLAY_DRAWN)
    s.apply_action(NO_CALL)
    s.apply_action(s.string_to_action(CHANCE, "10 floors"))
    s.apply_action(PLAY_HELD)  # Orange plays the 10 floors it held for four turns
    assert s.scores()[ORANGE] == 16 and not any(s.caught)
    s.apply_action(CALL)
    assert "wrongly" in log(s, None)[-1]


def test_no_call_is_offered_before_a_card_could_be_over_the_limit() -> None:
    """§9b: in the first turns nobody can yet hold a card too long, so there is no call step."""
    s = run(["10 floors", "1 floor", "1 floor"], cheating=True)
    assert s.current_player() == BLUE and s.phase == "play"


# -- properties over random games --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [{}, {"cheating": True}, {"slot_public": False}, {"hold_limit": 2}, {"hold_limit": 4, "cheating": True}],
)
def test_every_random_game_plays_all_fourteen_cards(options: dict[str, Any]) -> None:
    """§6: every game ends after all 14 cards are played, with every card in a tower or the discard pile."""
    game = boardlab.make("tower-builders", **options)
    for seed in range(30):
        s, capped = random_playout(game.new_initial_state(), random.Random(seed))
        assert not capped and isinstance(s, TowerBuildersState)
        assert sum(len(t) for t in s.towers) + len(s.discard) == 14
        if not options.get("cheating"):
            assert not any(e >= 5 for t in s.towers for e in t)  # nothing face down without the variant


def test_a_play_may_be_typed_by_its_slot() -> None:
    """§3b: in the terminal, 'play the held card' or just 'drawn' names the play as well as its card does."""
    s = run(["1 floor", "5 floors", "10 floors"])
    assert s.string_to_action(BLUE, "play the held card") == PLAY_HELD
    assert s.string_to_action(BLUE, "drawn") == PLAY_DRAWN
