"""Scenario tests for Monster Piles; clause numbers (§n) refer to docs/rules/monster-piles.md.

Positions are set up by playing from the start. ``Table`` plays every chance step from a planned deck order
(the k-th card to come off the deck is ``order[k]``), so a test names the cards and the decisions only.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import boardlab
from boardlab.cli.render import scene_text
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.scene import check_scene
from boardlab.games.monster_piles import (
    ACTIONS,
    CARDS,
    CLASS_ACTION,
    CLASSES,
    MonsterPilesState,
    barred_piles,
    marker_taken,
    share_returns,
)
from state_checks import fingerprint, random_step

NUM = {name: k for k, (name, _) in enumerate(CARDS)}  # card number by name
#: A deck order with no power usable early: the first cards are all placed by the tests that use it.
ORDER = [
    "Kobald",
    "Zombie",
    "Possessed Fox",
    "Flesh Golem",
    "Black Dragon",
    "Orc",
    "Dire Wolf",
    "Iron Golem",
    "Vampire",
    "Dire Elephant",
    "Lich",
    "Rakshasa",
    "Gold Dragon",
]


class Table:
    """A game whose chance steps follow ``order``: token k (the k-th card off the deck) is ``order[k]``."""

    def __init__(self, order: list[str], players: int = 2, **options: Any) -> None:
        assert sorted(order) == sorted(name for name, _ in CARDS)
        self.order = [NUM[name] for name in order]
        state = boardlab.make("monster-piles", **options).new_initial_state(players)
        assert isinstance(state, MonsterPilesState)
        self.s = state
        self.chance()

    def chance(self) -> None:
        s = self.s
        while s.current_player() == CHANCE:
            if s.phase == "expose":
                a = CLASS_ACTION + CARDS[self.order[len(s.classes)]][1]
            elif s.phase == "look":
                a = self.order[s.top]
            elif s.phase == "peek":
                a = self.order[s.picked[-1]]
            else:
                a = self.order[s.reveal_queue[0]]
            s.apply_action(a)

    def do(self, *labels: str) -> Table:
        for label in labels:
            s = self.s
            cp = s.current_player()
            s.apply_action(s.string_to_action(cp, label))
            self.chance()
        return self

    def sizes(self) -> list[int]:
        return [len(p) for p in self.s.piles]

    def legal(self) -> list[str]:
        s = self.s
        return [label for _, label in s.legal_moves(s.current_player())]

    def pile_view(self, viewer: int | None, pile: int) -> list[tuple[str, str | None]]:
        obs = self.s.observation(viewer)
        return [
            (CLASSES[c["class"]][1], None if c["card"] is None else CARDS[c["card"]][0]) for c in obs["piles"][pile]
        ]


def number(label: str) -> int:
    """The action a label names, legal now or not (to try an illegal one)."""
    return ACTIONS.labels.index(label)


def reorder(first: list[str]) -> list[str]:
    """``first`` at the top of the deck, the other cards after them in ORDER's order."""
    return first + [c for c in ORDER if c not in first]


# -- §1-§4: the cards, the players, the rounds --------------------------------------------


def test_the_thirteen_cards_and_their_classes() -> None:
    """§1: thirteen cards worth 1 to 13, five classes of 3, 3, 3, 2 and 2 cards, told apart by their backs."""
    assert [name for name, _ in CARDS] == ORDER_BY_VALUE
    counts = [sum(1 for _, c in CARDS if c == k) for k in range(5)]
    assert counts == [3, 3, 3, 2, 2]
    assert [back for _, back, _, _ in CLASSES] == ["brown", "black", "green", "silver", "gold"]
    assert sum(range(1, 14)) == 91


ORDER_BY_VALUE = [
    "Kobald",
    "Zombie",
    "Orc",
    "Possessed Fox",
    "Vampire",
    "Dire Wolf",
    "Flesh Golem",
    "Dire Elephant",
    "Lich",
    "Black Dragon",
    "Iron Golem",
    "Rakshasa",
    "Gold Dragon",
]


@pytest.mark.parametrize("players", [2, 3])
def test_one_pile_per_player_and_one_round_each(players: int) -> None:
    """§2: one pile per player; §3: one round per player, each player starting one (Orange, Blue, Green)."""
    game = boardlab.make("monster-piles")
    s = game.new_initial_state(players)
    assert len(s.observation(None)["piles"]) == players
    rng = random.Random(players)
    starts = []
    while not s.is_terminal():
        obs = s.observation(None)
        if not starts or obs["round"] != len(starts):
            starts.append(obs["start"])
        random_step(s, rng)
    assert starts == list(range(players))
    assert len(s.observation(None)["results"]) == players
    with pytest.raises(ValueError):
        game.new_initial_state(4)


def test_a_round_starts_with_the_whole_deck_and_no_marker() -> None:
    """§4: thirteen cards in the deck, empty piles, the marker set aside; chance draws the top card's back by
    the cards of each class in the deck (§5.1)."""
    s = boardlab.make("monster-piles").new_initial_state()
    assert s.current_player() == CHANCE
    outcomes = dict(s.chance_outcomes())
    assert outcomes == {CLASS_ACTION + k: n / 13 for k, n in enumerate([3, 3, 3, 2, 2])}
    obs = s.observation(0)
    assert obs["deck"] == 13 and obs["piles"] == [[], []] and obs["marker"] is None


# -- §5-§7: seeing, turns, placing ------------------------------------------------------------


def test_backs_are_public_faces_are_private() -> None:
    """§5.1: everyone sees the top card's back; §6.1: only the active player sees the face he looks at."""
    t = Table(ORDER)
    s = t.s
    assert s.current_player() == 0 and s.phase == "turn"
    for v in (0, 1, None):
        obs = s.observation(v)
        assert obs["held"]["class"] == 0  # the Kobald's brown back
        assert obs["top"] == 1  # the Zombie's black back now shows on the deck
    assert s.observation(0)["held"]["card"] == NUM["Kobald"]
    assert s.observation(1)["held"]["card"] is None and s.observation(None)["held"]["card"] is None
    logs = {v: [line["text"] for line in s.move_log(v)] for v in (0, 1, None)}
    assert "Orange looks at the top card of the deck: Kobald (1)" in logs[0]
    assert "Orange looks at the top card of the deck (brown back)" in logs[1]
    assert logs[1] == logs[None]
    assert not any("Kobald" in line for line in logs[1])


def test_placing_puts_the_card_face_down_on_top_and_the_placer_remembers_it() -> None:
    """§7: the card goes face down on top of a pile; §5.2: its placer remembers it, the others see its back."""
    t = Table(ORDER).do("place it on pile A", "place it on pile A")
    assert t.pile_view(0, 0) == [("brown", "Kobald"), ("black", None)]
    assert t.pile_view(1, 0) == [("brown", None), ("black", "Zombie")]
    assert t.pile_view(None, 0) == [("brown", None), ("black", None)]
    assert t.s.current_player() == 0  # §6.4: turns go round in seat order


def test_a_turn_offers_every_pile_and_the_power_only_when_it_can_be_used() -> None:
    """§6.2: place on any pile, or use the power; §8.6: the Kobald's power needs cards in two piles."""
    t = Table(ORDER)
    assert t.legal() == ["place it on pile A", "place it on pile B"]
    with pytest.raises(IllegalActionError, match="needs cards in two different piles"):
        t.s.apply_action(number("use its power"))
    with pytest.raises(IllegalActionError, match="only 2 piles"):
        t.s.apply_action(number("place it on pile C"))


def test_the_round_is_scored_when_the_deck_is_empty() -> None:
    """§6.4: after the turn that takes the last card, the round goes to its scoring (§10)."""
    t = Table(ORDER)
    for k in range(12):
        t.do(f"place it on pile {'AB'[k % 2]}")
    assert t.s.phase == "turn" and t.s.observation(None)["deck"] == 0
    t.do("place it on pile A")
    assert t.s.phase == "choose" and t.s.current_player() == 0


# -- §8: the powers --------------------------------------------------------------------------


def test_brutal_races_discard_two_cards_from_different_piles_face_up() -> None:
    """§8.1: the Orc discards two cards from two different piles, anywhere in them, face up for everyone."""
    order = reorder(["Zombie", "Possessed Fox", "Flesh Golem", "Orc"])
    t = Table(order).do("place it on pile A", "place it on pile A", "place it on pile B")
    assert t.s.current_player() == 1
    t.do("use its power")
    assert t.s.phase == "brutal"
    t.do("discard card 1 of pile A")  # the Zombie, under the Fox
    assert "discard card 1 of pile A" not in t.legal() and "discard card 1 of pile B" in t.legal()
    with pytest.raises(IllegalActionError, match="another pile than pile A"):
        t.s.apply_action(number("discard card 1 of pile A"))
    t.do("discard card 1 of pile B")
    obs = t.s.observation(None)
    assert [CARDS[d["card"]][0] for d in obs["discards"]] == ["Orc", "Zombie", "Flesh Golem"]
    assert t.sizes() == [1, 0]
    log = [line["text"] for line in t.s.move_log(None)]
    assert "uses the power of the Orc (3)" in log
    assert "the discarded card is turned up: Zombie (2)" in log
    assert t.s.current_player() == 0


def test_undead_need_another_undead_in_a_pile_and_end_the_round() -> None:
    """§8.2: the Vampire's power needs another Undead in a pile; it ends the round at once (§10)."""
    order = reorder(["Vampire", "Kobald", "Zombie"])
    t = Table(order)
    assert "use its power" not in t.legal()  # no Undead in a pile yet
    t.do("place it on pile A", "place it on pile B")
    assert "use its power" in t.legal()  # the Vampire's black back is in pile A
    t.do("use its power")
    assert t.s.phase == "choose" and t.s.observation(None)["deck"] == 10


def test_all_other_undead_needs_both_others() -> None:
    """§8.2, option undead_condition=all_other: both other Undead must be in piles."""
    for condition, usable in (("any_other", True), ("all_other", False)):
        t = Table(reorder(["Vampire", "Kobald", "Lich"]), undead_condition=condition)
        t.do("place it on pile A", "place it on pile B")  # the Lich in hand, only the Vampire in a pile
        assert ("use its power" in t.legal()) is usable
    t = Table(reorder(["Vampire", "Kobald", "Zombie", "Orc", "Lich"]), undead_condition="all_other")
    t.do("place it on pile A", "place it on pile B", "place it on pile A", "place it on pile B")
    assert t.s.observation(0)["held"]["card"] == NUM["Lich"]
    assert "use its power" in t.legal()


def test_animals_put_the_top_two_cards_on_two_different_piles_unseen() -> None:
    """§8.3: the Fox puts the deck's top card on a pile, then the next one on another pile, faces unseen."""
    t = Table(reorder(["Possessed Fox", "Kobald", "Zombie"]))
    t.do("use its power")
    assert t.legal() == ["put the deck's top card on pile A", "put the deck's top card on pile B"]
    t.do("put the deck's top card on pile B")
    assert t.legal() == ["put the deck's top card on pile A"]
    t.do("put the deck's top card on pile A")
    assert t.pile_view(0, 0) == [("black", None)] and t.pile_view(0, 1) == [("brown", None)]
    assert t.s.faces[1] < 0 and t.s.faces[2] < 0  # nobody has seen them: no face exists yet
    assert t.s.current_player() == 1


def test_partial_animals_put_the_last_card() -> None:
    """§8.6 with partial_powers: Animals with one card left in the deck put just that one."""
    order = [c for c in ORDER if c not in ("Dire Elephant", "Gold Dragon")] + ["Dire Elephant", "Gold Dragon"]
    strict = Table(order)
    partial = Table(order, partial_powers=True)
    for t in (strict, partial):
        for k in range(11):
            t.do(f"place it on pile {'AB'[k % 2]}")
        assert t.s.observation(1)["held"]["card"] == NUM["Dire Elephant"]  # Blue's turn, one card left
    assert "use its power" not in strict.legal()
    partial.do("use its power", "put the deck's top card on pile A")
    assert partial.s.phase == "choose" and partial.sizes() == [7, 5]


def test_constructs_move_a_card_to_the_top_of_another_pile_and_memory_follows_it() -> None:
    """§8.4: the Flesh Golem moves a card from anywhere in a pile to the top of another; §5.2: its placer still
    knows it there."""
    t = Table(reorder(["Kobald", "Zombie", "Orc", "Flesh Golem"]))
    t.do("place it on pile A", "place it on pile A", "place it on pile A")
    assert t.s.current_player() == 1
    t.do("use its power")
    assert t.legal() == ["move card 1 of pile A", "move card 2 of pile A", "move card 3 of pile A"]
    t.do("move card 1 of pile A")
    assert t.legal() == ["move it onto pile B"]
    t.do("move it onto pile B")
    assert t.pile_view(0, 1) == [("brown", "Kobald")]
    assert t.pile_view(1, 1) == [("brown", None)]
    assert t.pile_view(0, 0) == [("black", None), ("brown", "Orc")]


def test_dragons_look_at_three_pile_cards_in_secret() -> None:
    """§8.5: the Black Dragon looks at three pile cards, one by one; only its user sees them."""
    t = Table(reorder(["Kobald", "Zombie", "Orc", "Possessed Fox", "Black Dragon"]))
    t.do("place it on pile A", "place it on pile B", "place it on pile A", "place it on pile B")
    assert t.s.observation(0)["held"]["card"] == NUM["Black Dragon"]
    t.do("use its power", "look at card 1 of pile B")
    assert "look at card 1 of pile B" not in t.legal()  # one card once
    t.do("look at card 2 of pile B", "look at card 2 of pile A")
    assert t.s.current_player() == 1
    assert t.pile_view(0, 1) == [("black", "Zombie"), ("green", "Possessed Fox")]
    assert t.pile_view(1, 1) == [("black", "Zombie"), ("green", "Possessed Fox")]  # Blue placed both
    assert t.pile_view(1, 0) == [("brown", None), ("brown", None)]
    log0 = [line["text"] for line in t.s.move_log(0)]
    log1 = [line["text"] for line in t.s.move_log(1)]
    assert "Orange looks at card 2 of pile A in secret: Orc (3)" in log0
    assert "Orange looks at card 2 of pile A in secret" in log1


def test_a_dragon_with_fewer_than_three_pile_cards_looks_at_all_of_them() -> None:
    """§8.5, §8.6: with one card in the piles the Dragon looks at that one; with none it cannot be used."""
    t = Table(reorder(["Black Dragon", "Kobald", "Gold Dragon"]))
    assert "use its power" not in t.legal()
    t.do("place it on pile A", "place it on pile B", "use its power")
    assert t.legal() == ["look at card 1 of pile A", "look at card 1 of pile B"]
    t.do("look at card 1 of pile A", "look at card 1 of pile B")
    assert t.s.current_player() == 1  # two looks: every pile card


# -- §9: the marker ------------------------------------------------------------------------


def test_the_marker_worked_example() -> None:
    """§9 worked example: piles of 3, 4 and 5; the Vampire placed on the 5 takes the marker, on the 4 it does not."""
    order = [c for c in ORDER if c != "Vampire"] + ["Vampire"]
    plan = ["A", "B", "C", "A", "B", "C", "A", "B", "C", "B", "C", "C"]
    for pile, marker in (("C", 0), ("B", None)):
        t = Table(order, players=3)
        for p in plan:
            t.do(f"place it on pile {p}")
        assert t.sizes() == [3, 4, 5] and t.s.observation(None)["marker"] is None
        assert t.s.observation(0)["held"]["card"] == NUM["Vampire"]
        t.do(f"place it on pile {pile}")
        assert t.s.observation(None)["marker"] == marker
    assert marker_taken([3, 4, 6], {2}, 3) and not marker_taken([3, 5, 5], {1}, 3)


def test_the_literal_two_more_cards_gives_the_marker_sooner() -> None:
    """§9, option marker_diff=2: the pile of 5 against 3 already takes the marker."""
    order = [c for c in ORDER if c != "Vampire"] + ["Vampire"]
    t = Table(order, players=3, marker_diff=2)
    for p in ["A", "B", "C", "A", "B", "C", "A", "B", "C", "B"]:
        t.do(f"place it on pile {p}")
    assert t.s.observation(None)["marker"] is None
    t.do("place it on pile C")  # the 11th card, by Blue: 3, 4, 4
    assert t.s.observation(None)["marker"] is None
    t.do("place it on pile C")  # the 12th, by Green: 5 against 3
    assert t.s.observation(None)["marker"] == 2


def test_the_marker_changes_hands() -> None:
    """§9: a player takes the marker even from the player who holds it."""
    t = Table(ORDER)
    t.do("place it on pile A", "place it on pile A", "place it on pile A")
    assert t.s.observation(None)["marker"] == 0  # 3 against 0
    t.do("place it on pile A")
    assert t.s.observation(None)["marker"] == 1  # 4 against 0, by Blue


def test_animals_and_constructs_can_give_the_marker_unless_place_only() -> None:
    """§9: piles that gained a card by Animals or a Construct are checked too; marker_sources=place_only checks
    a placed card only."""
    for sources, holder in (("any_gain", 1), ("place_only", 0)):
        t = Table(reorder(["Kobald", "Zombie", "Orc", "Possessed Fox"]), marker_sources=sources)
        t.do("place it on pile A", "place it on pile A", "place it on pile A")
        assert t.s.observation(None)["marker"] == 0  # 3 against 0
        t.do("use its power", "put the deck's top card on pile A", "put the deck's top card on pile B")
        assert t.sizes() == [4, 1] and t.s.observation(None)["marker"] == holder  # A: 3 more than B
    for sources, holder in (("any_gain", 1), ("place_only", None)):
        t = Table(reorder(["Kobald", "Zombie", "Orc", "Flesh Golem"]), marker_sources=sources)
        t.do("place it on pile A", "place it on pile A", "place it on pile B", "use its power")
        t.do("move card 1 of pile B", "move it onto pile A")
        assert t.sizes() == [3, 0] and t.s.observation(None)["marker"] == holder


def test_a_discard_never_gives_the_marker() -> None:
    """§9: discards take cards away; a Brutal Races power leaves the marker where it was."""
    t = Table(reorder(["Kobald", "Zombie", "Possessed Fox", "Flesh Golem", "Orc"]))
    t.do("place it on pile A", "place it on pile A", "place it on pile A", "place it on pile B")
    assert t.s.observation(None)["marker"] == 0
    t.do("use its power", "discard card 1 of pile B", "discard card 1 of pile A")
    assert t.sizes() == [2, 0] and t.s.observation(None)["marker"] == 0


# -- §10-§11: scoring and the end ----------------------------------------------------------------


def finish_round(t: Table, plan: str) -> None:
    for p in plan:
        t.do(f"place it on pile {p}")


def test_two_player_scoring_the_start_player_chooses_and_the_other_gets_the_rest() -> None:
    """§10.1: the start player takes a pile, the other player gets the other; §10.3 the pile's values score."""
    t = Table(ORDER)
    finish_round(t, "ABABABABABABA")
    assert t.s.current_player() == 0 and t.legal() == ["take pile A", "take pile B"]
    t.do("take pile B")
    r = t.s.observation(None)["results"][0]
    pile_a = sum(NUM[c] + 1 for c in ORDER[0::2])
    pile_b = sum(NUM[c] + 1 for c in ORDER[1::2])
    assert r["takers"] == [1, 0] and r["scores"] == [pile_b, pile_a]
    assert t.s.observation(None)["totals"] == [pile_b, pile_a]
    log = [line["text"] for line in t.s.move_log(None)]
    assert "card 1 of pile A is turned up: Kobald (1)" in log
    assert t.s.observation(None)["start"] == 1  # round 2 is started by Blue (§3)


def test_the_marker_holder_may_not_take_the_biggest_pile() -> None:
    """§10.2: Orange starts and holds the marker, piles of 7 and 6: Orange must take the 6, Blue gets the 7."""
    t = Table(ORDER)
    finish_round(t, "AAABBABABABAB")
    obs = t.s.observation(None)
    assert t.sizes() == [7, 6] and obs["marker"] == 0
    assert t.legal() == ["take pile B"]
    with pytest.raises(IllegalActionError, match="you hold the marker"):
        t.s.apply_action(number("take pile A"))
    t.do("take pile B")
    assert t.s.observation(None)["results"][0]["takers"] == [1, 0]


@pytest.mark.parametrize("tie", ["bar_all_tied", "no_restriction"])
def test_a_marker_holder_barred_from_every_pile_may_take_any(tie: str) -> None:
    """§10.2: piles tied for the most bar the holder from all of them, so he may take any (an Undead ends the
    round with piles of 3 and 3)."""
    t = Table(
        reorder(["Zombie", "Kobald", "Orc", "Possessed Fox", "Dire Wolf", "Flesh Golem", "Vampire"]), marker_tie=tie
    )
    finish_round(t, "AAABBB")
    assert t.s.observation(None)["marker"] == 0
    t.do("use its power")
    assert t.sizes() == [3, 3] and t.legal() == ["take pile A", "take pile B"]
    assert barred_piles([6, 6, 2], [0, 1, 2], "remaining", "bar_all_tied") == {0, 1}
    assert barred_piles([6, 6, 2], [0, 1, 2], "remaining", "no_restriction") == set()
    assert barred_piles([6, 5, 2], [1, 2], "remaining", "bar_all_tied") == {1}
    assert barred_piles([6, 5, 2], [1, 2], "overall", "bar_all_tied") == set()


def test_three_player_scoring_goes_round_from_the_start_player() -> None:
    """§10.1 with three players: the start player, then the next chooses of the two left, the last gets the last."""
    t = Table(ORDER, players=3)
    finish_round(t, "ABCABCABCABCA")  # 5, 4, 4: no marker (never 3 more)
    assert t.s.observation(None)["marker"] is None
    assert t.s.current_player() == 0
    t.do("take pile B")
    assert t.s.current_player() == 1 and t.legal() == ["take pile A", "take pile C"]
    t.do("take pile C")
    assert t.s.observation(None)["results"][0]["takers"] == [2, 0, 1]


def test_the_marker_holder_choosing_second_with_the_overall_reading() -> None:
    """§10.2, option marker_most: Blue holds the marker and chooses after Orange took the biggest pile."""
    for most, legal in (("remaining", ["take pile C"]), ("overall", ["take pile B", "take pile C"])):
        t = Table(ORDER, players=3, marker_most=most)
        finish_round(t, "AABAABCACBABC")
        assert t.sizes() == [6, 4, 3] and t.s.observation(None)["marker"] == 1
        t.do("take pile A")
        assert t.s.current_player() == 1 and t.legal() == legal


def test_returns_share_the_win_between_tied_totals() -> None:
    """§11: the highest total wins; ties share the win; all tied is a draw."""
    assert share_returns([50, 41]) == [1.0, -1.0]
    assert share_returns([45, 45]) == [0.0, 0.0]
    assert share_returns([30, 30, 20]) == [0.5, 0.5, -1.0]
    assert share_returns([10, 40, 20]) == [-0.5, 1.0, -0.5]


@pytest.mark.parametrize("players", [2, 3])
def test_a_whole_game_ends_with_the_totals_of_every_round(players: int) -> None:
    """§3, §10.3, §11: the totals are the sums of the rounds' scores, and the returns follow them."""
    rng = random.Random(7 + players)
    s = boardlab.make("monster-piles").new_initial_state(players)
    while not s.is_terminal():
        random_step(s, rng)
    obs = s.observation(None)
    assert s.current_player() == TERMINAL
    totals = [sum(r["scores"][p] for r in obs["results"]) for p in range(players)]
    assert obs["totals"] == totals
    assert s.returns() == share_returns(totals)
    for r in obs["results"]:  # every card is a pile card, a discard or still in the deck
        assert sum(len(p) for p in r["piles"]) + len(r["discards"]) + r["deck"] == 13


# -- hidden information, the scene --------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_resample_redeals_only_unseen_faces_and_replays_to_itself(players: int) -> None:
    """§5: a redrawn world keeps every back and every face the viewer saw, and is the world its history gives."""
    game = boardlab.make("monster-piles")
    rng = random.Random(3)
    for seed in range(4):
        s = game.new_initial_state(players)
        r = random.Random(seed)
        for _ in range(r.randrange(10, 60)):
            if s.is_terminal():
                break
            random_step(s, r)
        for v in [*range(players), None]:
            other = s.resample(v, rng)
            assert json.dumps(other.observation(v)) == json.dumps(s.observation(v))
            assert fingerprint(game.state_from_history(other.history(), players)) == fingerprint(other)


def test_resample_changes_a_face_the_viewer_has_not_seen() -> None:
    """§5.2: Blue never saw the Kobald Orange placed, so Blue's redrawn worlds hold other brown cards there."""
    t = Table(ORDER).do("place it on pile A")
    faces = {t.s.resample(1, random.Random(k)).faces[0] for k in range(40)}
    assert faces == {NUM["Kobald"], NUM["Orc"], NUM["Rakshasa"]}
    assert {t.s.resample(0, random.Random(k)).faces[0] for k in range(10)} == {NUM["Kobald"]}


def test_the_scene_draws_backs_in_their_class_colour() -> None:
    """§5.1 in the scene: face-down cards carry their class's back colour; known faces show value and symbol."""
    t = Table(ORDER).do("place it on pile A", "place it on pile B")
    for v in (0, 1, None):
        legal = t.s.legal_moves(v) if v == t.s.current_player() else []
        scene = t.s.scene(v)
        assert check_scene(scene, legal) == []
    scene = t.s.scene(1)
    piles = {z["id"]: z for z in scene["zones"]}
    (a,) = piles["pile0"]["items"]
    (b,) = piles["pile1"]["items"]
    assert a["face_down"] and a["colour"] == CLASSES[0][2]  # the Kobald's brown back, to Blue
    assert not b["face_down"] and b["value"] == 2 and b["suit"] == CLASSES[1][3]  # Blue's own Zombie
    text = scene_text(t.s.scene(0), [label for _, label in t.s.legal_moves(0)])
    assert "Pile B: 1 card (from the bottom: black)" in text
    assert "place it on pile A" in text
