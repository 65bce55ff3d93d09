"""Scenario tests for Two Mayors; clause numbers (§n) refer to docs/rules/two-mayors.md."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

import boardlab
from boardlab.cli.render import scene_text
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.play import random_playout
from boardlab.core.scene import check_scene
from boardlab.games.two_mayors import (
    ADMIT,
    ARREST,
    ASSASSIN,
    BLACKMAILER,
    KINDS,
    PASS,
    PEASANT,
    RECRUIT,
    SELLSWORD,
    THIEF,
    TwoMayorsState,
    declarations,
)

ORANGE, BLUE = 0, 1


def run(moves: list[str], **options: Any) -> TwoMayorsState:
    """A game from the start, every step typed as its label (chance outcomes are character names)."""
    options.setdefault("first", "orange")
    s = boardlab.make("two-mayors", **options).new_initial_state()
    for m in moves:
        step(s, m)
    assert isinstance(s, TwoMayorsState)
    return s


def step(s: TwoMayorsState, move: str) -> None:
    s.apply_action(s.string_to_action(s.current_player(), move))


def log(s: TwoMayorsState, viewer: int | None) -> list[str]:
    return [line["text"] for line in s.move_log(viewer, reveal=False)]


def labels(s: TwoMayorsState) -> list[str]:
    return [label for _, label in s.legal_moves()]


#: Orange gets three Peasants and a Blackmailer, Blue three Thieves and two Sellswords;
#: the Countryside holds a Sellsword, a Blackmailer and the Assassin.
DEAL = ["Peasant", "Peasant", "Peasant", "Blackmailer", "Thief", "Thief", "Thief", "Sellsword", "Sellsword"]

#: §3c's example: after three recruits and three Sellswords, Blue holds only Thieves, and Orange bars them.
BARRED = [
    *DEAL,
    *("recruit from the countryside", "Assassin"),  # Orange: 3 Peasants, a Blackmailer, the Assassin
    *("recruit from the countryside", "Sellsword"),  # Blue: 3 Thieves, 3 Sellswords
    *("recruit from the countryside", "Blackmailer"),  # the Countryside is empty
    *("send Sellsword as Thief", "admit"),  # the first Sellsword in Orange's city is safe (§7b)
    *("send Peasant as Blackmailer", "admit"),
    *("send Sellsword as Thief", "arrest"),
    *("send Peasant as Blackmailer", "admit"),
    *("send Sellsword as Thief", "arrest"),  # Orange's prison: 2 Sellswords
    *("send Blackmailer as Peasant", "admit", "name Thief"),
]


# -- §1, §2 setup -------------------------------------------------------------------------------------


def test_the_deck_is_twelve_characters() -> None:
    """§1: 3 Peasants, 3 Thieves, 3 Sellswords, 2 Blackmailers, 1 Assassin; the first deal draws by those counts."""
    s = run([])
    assert {KINDS[a]: p for a, p in s.chance_outcomes()} == pytest.approx(
        {"Peasant": 3 / 12, "Thief": 3 / 12, "Sellsword": 3 / 12, "Blackmailer": 2 / 12, "Assassin": 1 / 12}
    )


def test_a_coin_decides_the_first_mayor_by_default() -> None:
    """§2a: a fair coin, seen by everyone."""
    s = boardlab.make("two-mayors").new_initial_state()
    assert s.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    s.apply_action(s.string_to_action(CHANCE, "Blue goes first"))
    assert log(s, None) == ["Blue goes first"] and s.observation(None)["first"] == BLUE


def test_four_cards_to_the_first_mayor_five_to_the_other_three_to_the_countryside() -> None:
    """§2b, §2c, §3a: each mayor sees only their own hand; Orange, the first mayor, moves first."""
    s = run(DEAL)
    assert s.observation(ORANGE)["hand"] == ["Peasant", "Peasant", "Peasant", "Blackmailer"]
    assert s.observation(BLUE)["hand"] == ["Thief", "Thief", "Thief", "Sellsword", "Sellsword"]
    assert s.observation(None)["hand_sizes"] == [4, 5] and s.observation(None)["countryside"] == 3
    assert log(s, BLUE)[0] == "dealt a card to Orange" and log(s, BLUE)[4] == "dealt a Thief to Blue"
    assert log(s, ORANGE)[0] == "dealt a Peasant to Orange"
    assert s.current_player() == ORANGE


# -- §4 a turn ------------------------------------------------------------------------------------------


def test_a_recruit_takes_a_random_countryside_card_and_ends_the_turn() -> None:
    """§4a: the Countryside's 3 cards are drawn by kind; only the recruiter sees the card."""
    s = run([*DEAL, "recruit from the countryside"])
    assert {KINDS[a]: p for a, p in s.chance_outcomes()} == pytest.approx(
        {"Sellsword": 1 / 3, "Blackmailer": 1 / 3, "Assassin": 1 / 3}
    )
    step(s, "Assassin")
    assert log(s, BLUE)[-1] == "Orange takes a card from the countryside"
    assert log(s, ORANGE)[-1] == "Orange takes an Assassin from the countryside"
    assert s.observation(None)["countryside"] == 2 and s.current_player() == BLUE


def test_the_declaration_rules() -> None:
    """§4b: rule 1 (not the placed character), rule 2 (one still in hand), rule 3 (anything when the rest is
    all the placed character or nothing), with the clause's two examples."""
    hand = (1, 0, 2, 0, 0)  # a Peasant and two Sellswords
    assert declarations(hand, SELLSWORD) == [PEASANT]  # keep a Sellsword and a Peasant: declare Peasant
    assert declarations((0, 3, 0, 0, 0), THIEF) == [0, 1, 2, 3, 4]  # two Thieves left: anything, Thief too
    assert declarations((0, 0, 0, 0, 1), ASSASSIN) == [0, 1, 2, 3, 4]  # the last card: anything
    assert declarations((1, 1, 1, 0, 0), THIEF, barred=PEASANT) == [SELLSWORD]  # blackmail_bars_declare


def test_the_legal_sends_follow_the_declaration_rules() -> None:
    """§4b: Orange's opening moves with 3 Peasants and a Blackmailer."""
    s = run(DEAL)
    assert labels(s) == [
        "recruit from the countryside",
        "send Peasant as Blackmailer",
        "send Blackmailer as Peasant",
    ]
    with pytest.raises(IllegalActionError, match=r"not declare the character you place .*§4b rule 1"):
        step_number(s, "send Peasant as Peasant")
    with pytest.raises(IllegalActionError, match=r"still in your hand \(§4b rule 2\)"):
        step_number(s, "send Peasant as Assassin")
    with pytest.raises(IllegalActionError, match=r"you hold no Thief \(§4b\)"):
        step_number(s, "send Thief as Peasant")


def step_number(s: TwoMayorsState, label: str) -> None:
    """Apply an action by its label from the whole action space (so an illegal one reaches the refusal)."""
    space = s.game.action_space
    assert space is not None
    s.apply_action(next(a for a in range(space.size) if space.label(a) == label))


def test_a_true_declaration_under_rule_three() -> None:
    """§4b rule 3: with only Thieves left after placing a Thief, Blue may truthfully declare a Thief."""
    s = run([*BARRED, "pass", "send Peasant as Blackmailer", "admit"])
    assert s.observation(BLUE)["hand"] == ["Thief", "Thief", "Thief"]
    assert "send Thief as Thief" in labels(s) and "send Thief as Assassin" in labels(s)


# -- §5, §6 verdict and reveal -------------------------------------------------------------------------------


def test_the_card_on_the_gate_is_hidden_until_the_verdict_reveals_it() -> None:
    """§5, §6, §9a, §9b: everyone hears the declaration; the verdict shows the card and where it goes."""
    s = run([*DEAL, "send Peasant as Blackmailer"])
    assert log(s, BLUE)[-1] == "places a card on Blue's gate, declaring a Blackmailer"
    assert log(s, ORANGE)[-1] == "places a Peasant on Blue's gate, declaring a Blackmailer"
    assert s.observation(BLUE)["gate"] == {"mayor": BLUE, "sender": ORANGE, "declared": "Blackmailer", "card": None}
    assert s.current_player() == BLUE and labels(s) == ["arrest", "admit"]
    step(s, "arrest")
    assert log(s, None)[-1] == "arrests a Peasant (declared as a Blackmailer)"
    assert s.observation(None)["prisons"] == [[], ["Peasant"]] and s.current_player() == BLUE


def test_an_admitted_card_goes_into_the_city() -> None:
    """§6b: a Peasant admitted has no effect (§7e) and enters the city."""
    s = run([*DEAL, "send Peasant as Blackmailer", "admit"])
    assert s.observation(None)["cities"] == [[], ["Peasant"]] and s.observation(None)["hand_sizes"] == [3, 5]


# -- §7, §8 the characters and winning --------------------------------------------------------------------------

ASSASSIN_AT_THE_GATE = [*DEAL, "recruit from the countryside", "Assassin", "send Thief as Sellsword", "arrest"]


def test_arresting_the_assassin_wins() -> None:
    """§7a, §8a: the Passive Mayor who arrests the Assassin wins at once."""
    s = run([*ASSASSIN_AT_THE_GATE, "send Assassin as Peasant", "arrest"])
    assert s.current_player() == TERMINAL and s.returns() == [-1.0, 1.0]
    assert log(s, ORANGE)[-1] == "arrests an Assassin (declared as a Peasant): Blue arrested the Assassin, Blue wins"
    assert s.observation(None)["prisons"] == [["Thief"], []]  # §8c: the game ends before the Assassin moves


def test_admitting_the_assassin_loses() -> None:
    """§7a, §8a: the Active Mayor wins when the Assassin is admitted."""
    s = run([*ASSASSIN_AT_THE_GATE, "send Assassin as Peasant", "admit"])
    assert s.returns() == [1.0, -1.0] and "Blue admitted the Assassin, Orange wins" in log(s, None)[-1]


def test_the_second_sellsword_admitted_loses() -> None:
    """§7b: the first Sellsword in a city is safe; the second admitted one wins for its sender."""
    s = run([*DEAL, *("recruit from the countryside", "Assassin", "send Sellsword as Thief", "admit")])
    assert s.observation(None)["cities"][ORANGE] == ["Sellsword"] and not s.is_terminal()
    step(s, "send Peasant as Blackmailer")
    step(s, "arrest")
    step(s, "send Sellsword as Thief")
    step(s, "admit")
    assert s.returns() == [-1.0, 1.0] and log(s, None)[-1].endswith("Orange admitted a second Sellsword, Blue wins")


def test_an_admitted_thief_steals_a_random_card_seen_by_both_mayors() -> None:
    """§7c, §9c: the steal is a chance event over the robbed hand; spectators only see that a card moved."""
    s = run([*DEAL, "recruit from the countryside", "Assassin", "send Thief as Sellsword", "admit"])
    assert s.current_player() == CHANCE
    outcomes = {KINDS[a]: p for a, p in s.chance_outcomes()}
    assert outcomes == pytest.approx({"Peasant": 3 / 5, "Blackmailer": 1 / 5, "Assassin": 1 / 5})
    step(s, "Assassin")
    assert log(s, ORANGE)[-1] == log(s, BLUE)[-1] == "Blue steals an Assassin from Orange"
    assert log(s, None)[-1] == "Blue steals a card from Orange"
    assert "Assassin" in s.observation(BLUE)["hand"] and "Assassin" not in s.observation(ORANGE)["hand"]
    s = run(
        [*DEAL, "recruit from the countryside", "Assassin", "send Thief as Sellsword", "admit", "Assassin"],
        steal_public=True,
    )
    assert log(s, None)[-1] == "Blue steals an Assassin from Orange"


def test_a_blackmailer_bars_placing_the_named_character_for_one_turn() -> None:
    """§7d's example: Orange names Thief; Blue, holding only Thieves with the Countryside empty, must pass (§3c);
    on Blue's next turn the Thieves may be sent again."""
    s = run(BARRED)
    assert log(s, None)[-1] == "names Thief: Blue may not place a Thief next turn"
    assert s.current_player() == BLUE and labels(s) == ["pass"]
    assert s.observation(BLUE)["barred"] == {"mayor": BLUE, "character": "Thief"}
    step(s, "pass")
    assert log(s, None)[-1] == "passes: no card may be played"
    step(s, "send Peasant as Blackmailer")
    step(s, "admit")
    assert s.observation(None)["barred"] is None and "send Thief as Thief" in labels(s)  # the bar is over


def test_a_blackmailer_bars_only_placing_unless_the_option_says_otherwise() -> None:
    """§7d: by default a barred character may still be declared; with blackmail_bars_declare it may not."""
    moves = [*DEAL, "send Blackmailer as Peasant", "admit", "name Sellsword"]
    s = run(moves)
    assert "send Thief as Sellsword" in labels(s) and not any(x.startswith("send Sellsword") for x in labels(s))
    s = run(moves, blackmail_bars_declare=True)
    assert labels(s) == ["recruit from the countryside"]  # a Thief could only be declared as a Sellsword
    with pytest.raises(IllegalActionError, match=r"Blackmailer barred you from placing a Sellsword this turn"):
        step_number(s, "send Sellsword as Thief")


def test_three_cards_in_prison_lose() -> None:
    """§8b: Blue arrests a third card: Orange wins at once."""
    s = run([*DEAL, *("send Peasant as Blackmailer", "arrest", "send Thief as Sellsword", "admit", "Peasant")])
    for m in ("send Peasant as Blackmailer", "arrest", "send Thief as Sellsword", "arrest"):
        step(s, m)
    assert s.observation(None)["prisons"] == [["Thief"], ["Peasant", "Peasant"]]
    assert labels(s)[1:] == [f"send Blackmailer as {k}" for k in KINDS]  # §4b rule 3: the last card
    step(s, "send Blackmailer as Assassin")
    step(s, "arrest")
    assert s.returns() == [1.0, -1.0] and log(s, None)[-1].endswith("Blue's prison holds 3 cards, Orange wins")


# -- §9 what each mayor sees -------------------------------------------------------------------------------------


def test_the_scene_shows_hidden_cards_as_backs_in_their_owners_colour() -> None:
    """§9b: Blue sees Orange's hand and the card on its own gate as Orange's backs; its own cards face up."""
    s = run([*DEAL, "send Peasant as Blackmailer"])
    scene = s.scene(BLUE)
    assert check_scene(scene, s.legal_moves(BLUE)) == []
    zones = {z["id"]: z for z in scene["zones"]}
    assert all(i["face_down"] and i["owner"] == ORANGE for i in zones["hand0"]["items"])
    assert zones["gate1"]["items"][0]["face_down"] and zones["gate1"]["items"][0]["owner"] == ORANGE
    assert zones["gate1"]["title"] == "Your city gate: a card declared as a Blackmailer"
    assert [i["value"] for i in zones["hand1"]["items"]] == ["T", "T", "T", "S", "S"]
    orange = s.scene(ORANGE)
    assert {z["id"]: z for z in orange["zones"]}["gate1"]["items"][0]["label"] == "Peasant"
    text = scene_text(orange, [])
    assert "[P☘]" in text and "▒▒" in text


def test_the_send_targets_open_a_chooser_of_declarations() -> None:
    """§4b: clicking a hand card offers the declarations allowed for it (several targets on one card)."""
    s = run(DEAL)
    targets = [(t["at"], t["label"]) for t in s.scene(ORANGE)["targets"]]
    assert ("hand0-0", "send Peasant as Blackmailer") in targets and (
        "hand0-3",
        "send Blackmailer as Peasant",
    ) in targets
    assert ("country0", "recruit from the countryside") in targets


def test_resampled_worlds_respect_every_declaration() -> None:
    """§9b: Blue deciding on Orange's card cannot see it, but every redrawn world lets Orange make the declaration;
    a Blackmailer declared by a mayor who kept other cards is in that mayor's hand."""
    s = run([*DEAL, "recruit from the countryside", "Assassin", "send Thief as Sellsword", "arrest"])
    step(s, "send Peasant as Blackmailer")  # Orange keeps 2 Peasants, a Blackmailer and the Assassin
    seen = json.dumps(s.observation(BLUE), sort_keys=True)
    gates: Counter[int] = Counter()
    for k in range(60):
        r = s.resample(BLUE, random.Random(k))
        assert isinstance(r, TwoMayorsState)
        assert json.dumps(r.observation(BLUE), sort_keys=True) == seen
        assert r.hands[BLUE] == s.hands[BLUE]
        gates[r.gate] += 1
        hand = list(r.hands[ORANGE])
        hand[r.gate] += 1  # the hand the declaration was made from
        assert BLACKMAILER in declarations(tuple(hand), r.gate)
    assert len(gates) > 1


# -- §10 properties over random games ------------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"blackmail_bars_declare": True}, {"first": "blue", "steal_public": True}])
def test_every_random_game_ends_with_a_winner(options: dict[str, Any]) -> None:
    """§10: no draws and no cap: a random game always ends with one mayor winning."""
    game = boardlab.make("two-mayors", **options)
    for seed in range(40):
        s, capped = random_playout(game.new_initial_state(), random.Random(seed))
        assert not capped and sorted(s.returns()) == [-1.0, 1.0]


def test_no_action_is_offered_out_of_turn() -> None:
    """§3b, §5: only the Passive Mayor gives the verdict; arrest is refused on one's own turn."""
    s = run(DEAL)
    with pytest.raises(IllegalActionError, match="recruit, or place a card"):
        s.apply_action(ARREST)
    assert RECRUIT in s.legal_actions() and PASS not in s.legal_actions() and ADMIT not in s.legal_actions()
