"""Scenario tests for Hamlet; clause numbers (§n) refer to docs/rules/hamlet.md."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

import boardlab
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.play import random_playout
from boardlab.core.wording import for_players
from boardlab.games.hamlet import (
    CARDS,
    DONE,
    DRAW,
    LOCK,
    POOL,
    TRADE,
    C,
    G,
    H,
    HamletState,
    L,
    O,
    P,
    R,
    knowledge,
)
from state_checks import fingerprint, random_step

# The seed text's table, written out again independently of the module (§2).
SEED_DEFEATS = {
    "Claudius": {"Gertrude", "Hamlet", "Laertes", "Ophelia", "Polonius"},
    "Gertrude": {"Hamlet", "Laertes", "Ophelia", "Rosencrantz & Guildenstern"},
    "Hamlet": {"Laertes", "Polonius", "Rosencrantz & Guildenstern"},
    "Laertes": {"Ophelia", "Polonius", "Rosencrantz & Guildenstern"},
    "Ophelia": {"Hamlet", "Polonius", "Rosencrantz & Guildenstern"},
    "Polonius": {"Gertrude", "Rosencrantz & Guildenstern"},
    "Rosencrantz & Guildenstern": {"Claudius"},
}


def play(history: list[int], **options: Any) -> HamletState:
    state = boardlab.make("hamlet", **options).new_initial_state()
    for a in history:
        state.apply_action(a)
    assert isinstance(state, HamletState)
    return state


def hand(state: HamletState, seat: int) -> int:
    return state.rounds[-1].hand[seat]


def pool_of(state: HamletState) -> list[int]:
    return state.rounds[-1].pool


# -- §2 the defeats relation -------------------------------------------------------------------


@pytest.mark.parametrize("a", range(7))
def test_every_pair_of_the_defeats_table_decides_a_round(a: int) -> None:
    """§2, §4d: for every ordered pair, the holder of the card that defeats the other wins the round."""
    for b in range(7):
        if a == b:
            continue
        s = play([a, b, LOCK, LOCK], first="seat0")  # seat 0 holds a, seat 1 holds b
        expected = 0 if CARDS[b] in SEED_DEFEATS[CARDS[a]] else 1
        assert s.rounds[0].winner == expected, (CARDS[a], CARDS[b])
        assert s.wins[expected] == 1 and s.wins[1 - expected] == 0


def test_defeats_is_a_complete_tournament() -> None:
    """§2a: every pair of different roles has exactly one winner; wins per role C5 G4 H3 L3 O3 P2 R1."""
    for x in CARDS:
        for y in CARDS:
            if x != y:
                assert (y in SEED_DEFEATS[x]) != (x in SEED_DEFEATS[y]), (x, y)
    assert [len(SEED_DEFEATS[c]) for c in CARDS] == [5, 4, 3, 3, 3, 2, 1]


# -- §3 start, §4 round structure ----------------------------------------------------------------


def test_coin_decides_the_first_player_by_default() -> None:
    """§3a: with first=random a fair chance node chooses who goes first in round 1."""
    s = play([])
    assert s.current_player() == CHANCE
    assert s.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    s.apply_action(1)
    s.apply_action(H)
    s.apply_action(C)
    assert s.current_player() == 1 and hand(s, 1) == H and hand(s, 0) == C  # dealt to the first player first
    s2 = play([], first="seat0")
    assert s2.current_player() == CHANCE and len(s2.chance_outcomes()) == 7
    s2.apply_action(H)
    s2.apply_action(C)
    assert s2.current_player() == 0


def test_deals_are_uniform_over_the_pool() -> None:
    """§4a: each deal is a uniform draw from the pool; the second excludes the first card."""
    s = play([], first="seat0")
    assert s.chance_outcomes() == [(c, 1 / 7) for c in range(7)]
    s.apply_action(G)
    assert [a for a, _ in s.chance_outcomes()] == [c for c in range(7) if c != G]
    assert all(abs(p - 1 / 6) < 1e-12 for _, p in s.chance_outcomes())
    s.apply_action(O)
    assert s.observation(None)["pool_size"] == 5


def test_first_player_may_lock_trade_or_draw_second_only_lock_or_draw() -> None:
    """§4b, §4c: the first player has three moves, the second two; trade by the second is refused."""
    s = play([H, C], first="seat0")
    assert s.legal_moves() == [(LOCK, "lock"), (TRADE, "trade"), (DRAW, "draw")]
    s.apply_action(LOCK)
    assert s.legal_moves() == [(LOCK, "lock"), (DRAW, "draw")]
    before = fingerprint(s)
    with pytest.raises(IllegalActionError, match="first"):
        s.apply_action(TRADE)
    assert "only the player who goes first" in s.explain_illegal(1, TRADE)
    assert fingerprint(s) == before
    assert s.string_to_action(1, "draw") == DRAW


def test_round_winner_goes_first_next_round_and_cards_are_removed() -> None:
    """§4d-§4f: both cards leave the game; the round's winner goes first in the next round."""
    s = play([C, R, LOCK, LOCK], first="seat0")  # R & G defeats Claudius: seat 1 wins
    assert s.rounds[0].winner == 1
    r2 = s.rounds[-1]
    assert r2.number == 2 and r2.first == 1 and r2.remaining == (G, H, L, O, P)
    obs = s.observation(0)
    assert obs["removed"] == ["Claudius", "Rosencrantz & Guildenstern"] and obs["pool_size"] == 5
    s.apply_action(G)  # dealt to seat 1, who goes first
    s.apply_action(H)
    assert s.current_player() == 1 and hand(s, 1) == G
    for a in (LOCK, LOCK):
        s.apply_action(a)
    assert s.rounds[-1].number == 3 and s.rounds[-1].first == 1 and s.rounds[-1].remaining == (L, O, P)


# -- §5-§7 lock, trade, draw ------------------------------------------------------------------


def test_trade_swaps_cards_and_both_players_know_both() -> None:
    """§6a, §6b: the cards change hands; each player sees its new card and knows the one it gave."""
    s = play([H, C, TRADE], first="seat0")
    assert hand(s, 0) == C and hand(s, 1) == H
    assert s.observation(0)["hands"] == ["Claudius", "Hamlet"]
    assert s.observation(1)["hands"] == ["Claudius", "Hamlet"]
    assert s.observation(None)["hands"] == [None, None]
    assert s.observation(None)["round_actions"] == [{"seat": 0, "action": "trade"}]
    assert s.undo_point(0) is None  # a trade reveals cards: it cannot be taken back


def test_after_a_trade_the_second_player_may_still_draw() -> None:
    """§6c, §7a, §9c, §9e: the second player draws away the traded card; the first knows it went to the pool."""
    s = play([H, C, TRADE, DRAW], first="seat0")
    assert s.current_player() == CHANCE
    assert [a for a, _ in s.chance_outcomes()] == [G, L, O, P, R]  # never the card it holds (Hamlet)
    s.apply_action(O)
    r1 = s.rounds[0]
    assert r1.hand == [C, O] and r1.winner == 0  # Claudius defeats Ophelia; the round is revealed at once
    before_reveal = r1.events[0][:-1]
    assert knowledge(r1.remaining, before_reveal, True) == {C: 0, H: POOL}
    # Seat 1 knows both hands, so the pool's five cards too (§9g).
    assert knowledge(r1.remaining, r1.events[1][:-1], True) == {C: 0, O: 1, H: POOL, G: POOL, L: POOL, P: POOL, R: POOL}
    assert knowledge(r1.remaining, r1.events[2][:-1], True) == {}


def test_exchange_draw_never_returns_your_own_card() -> None:
    """§7a: a draw takes a card from the pool as it was, then the old card goes back."""
    s = play([H, C, DRAW], first="seat0")
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == [G, L, O, P, R]
    assert all(abs(p - 0.2) < 1e-12 for _, p in outcomes)
    s.apply_action(L)
    assert hand(s, 0) == L and pool_of(s) == [G, H, O, P, R]
    assert s.observation(0)["hands"] == ["Laertes", None] and s.observation(0)["pool_known"] == ["Hamlet"]
    assert s.observation(1)["hands"] == [None, "Claudius"] and s.observation(1)["pool_known"] == []
    assert s.observation(1)["events"][-1] == {"round": 1, "event": "drew", "seat": 0, "card": None}


def test_discard_then_draw_may_return_your_own_card() -> None:
    """§7b: with draw=discard_then_draw the old card goes in first and may come back."""
    s = play([H, C, DRAW], first="seat0", draw="discard_then_draw")
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == [G, H, L, O, P, R]
    assert all(abs(p - 1 / 6) < 1e-12 for _, p in outcomes)
    s.apply_action(H)
    assert hand(s, 0) == H and pool_of(s) == [G, L, O, P, R]
    assert s.observation(0)["hands"] == ["Hamlet", None] and s.observation(0)["pool_known"] == []


def test_drawn_away_card_returns_to_the_pool() -> None:
    """§7c: the card given back can be drawn by the other player, or dealt in a later round."""
    s = play([H, C, DRAW, L, DRAW], first="seat0")
    assert H in [a for a, _ in s.chance_outcomes()]  # seat 1 may draw seat 0's Hamlet
    s.apply_action(H)
    assert s.rounds[0].hand == [L, H] and s.rounds[0].winner == 1  # Hamlet defeats Laertes
    t = play([H, C, DRAW, L, LOCK], first="seat0")  # Laertes vs Claudius: Claudius wins, seat 1 first
    assert t.rounds[-1].remaining == (G, H, O, P, R)  # Hamlet is back in play for round 2
    t.apply_action(H)
    assert hand(t, 1) == H


def test_round_three_draw_takes_the_last_pool_card() -> None:
    """§7d: in round 3 the pool holds one card; a draw takes it, and the old card may become the survivor."""
    s = play([C, R, LOCK, LOCK, G, H, LOCK, LOCK], first="seat0")  # seat 1 wins r1; seat 1 (Gertrude) wins r2
    r3 = s.rounds[-1]
    assert r3.number == 3 and r3.first == 1 and r3.remaining == (L, O, P)
    s.apply_action(L)  # seat 1 dealt Laertes
    s.apply_action(O)  # seat 0 dealt Ophelia; pool: Polonius
    s.apply_action(DRAW)
    assert s.chance_outcomes() == [(P, 1.0)]
    s.apply_action(P)
    assert s.observation(1)["pool_known"] == ["Laertes"]
    assert s.observation(1)["hands"] == ["Ophelia", "Polonius"]  # §9g: the last card of the three is seat 0's
    assert s.observation(0)["hands"] == ["Ophelia", None]
    s.apply_action(LOCK)  # Ophelia defeats Polonius: seat 0 wins round 3
    assert s.is_terminal() and s.survivor == L and s.wins == [1, 2]
    assert s.winner == 1  # Laertes survives: most rounds won wins (§8a)


# -- §8 the sole survivor --------------------------------------------------------------------


def test_survivor_rewards_most_rounds() -> None:
    """§8a: Claudius survives; seat 1 won two rounds of three and wins the game."""
    s = play([O, P, LOCK, LOCK, R, L, LOCK, LOCK, G, H, LOCK, LOCK], first="seat0")
    assert [r.winner for r in s.rounds] == [0, 1, 1]
    assert s.survivor == C and s.wins == [1, 2]
    assert s.returns() == [-1.0, 1.0] and s.current_player() == TERMINAL
    obs = s.observation(None)
    assert obs["survivor"] == "Claudius" and obs["winner"] == 1
    assert "the player who won more rounds wins" in s.scene(None)["prompt"]


def test_survivor_rewards_fewest_rounds_even_after_losing_all_three() -> None:
    """§8b: Rosencrantz & Guildenstern survive; seat 1 lost every round and wins the game."""
    s = play([C, H, LOCK, LOCK, G, L, LOCK, LOCK, O, P, LOCK, LOCK], first="seat0")
    assert s.wins == [3, 0] and s.survivor == R
    assert s.returns() == [-1.0, 1.0]
    assert "fewer" in s.scene(1)["prompt"] and s.scene(1)["prompt"].startswith("You win")


def test_survivor_rewards_fewest_rounds_two_to_one() -> None:
    """§8b: Polonius survives a 2-1 game; the seat with one round wins."""
    s = play([C, H, LOCK, LOCK, L, G, LOCK, LOCK, O, R, LOCK, LOCK], first="seat0")
    assert [r.winner for r in s.rounds] == [0, 1, 1] and s.survivor == P
    assert s.returns() == [1.0, -1.0]


def test_no_game_is_ever_drawn() -> None:
    """§8c: three rounds always give a 2-1 or 3-0 score, so every game has one winner."""
    game = boardlab.make("hamlet")
    for seed in range(150):
        s, capped = random_playout(game.new_initial_state(), random.Random(seed))
        assert not capped and sorted(s.returns()) == [-1.0, 1.0]
        assert sorted(s.wins) in ([1, 2], [0, 3])
        assert len(s.history()) <= game.max_game_length()


# -- §9 hidden information -------------------------------------------------------------------


def _strip_static(scene: dict[str, Any]) -> dict[str, Any]:
    """The scene without the fixed rules reference (role list and the defeats text on each card, its tooltip)."""
    out = json.loads(json.dumps(scene))
    out["zones"] = [z for z in out["zones"] if z["id"] != "roles"]
    for z in out["zones"]:
        for it in z["items"]:
            it["detail"] = None
            it.pop("name", None)
    return out


@pytest.mark.parametrize("draw", ["exchange", "discard_then_draw"])
def test_seat_one_never_sees_seat_zeros_unrevealed_card(draw: str) -> None:
    """§9: seat 1's observation and scene never name seat 0's card unless seat 1 has held it itself.

    (The role reference and the defeats text are the same in every scene and are left out.)
    """
    game = boardlab.make("hamlet", draw=draw)
    roles = None
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        s = game.new_initial_state()
        held: set[int] = set()  # cards that have passed through seat 1's hand this game
        while not s.is_terminal():
            assert isinstance(s, HamletState)
            if s.rounds:
                held.add(s.rounds[-1].hand[1])
                secret = s.rounds[-1].hand[0]
                obs = s.observation(1)
                scene = s.scene(1)
                zone = next(z for z in scene["zones"] if z["id"] == "roles")
                roles = roles or zone
                assert zone == roles
                if secret >= 0 and obs["hands"][0] is None and secret not in held:
                    name = CARDS[secret]
                    assert name not in json.dumps(obs)
                    assert name not in json.dumps(_strip_static(scene))
                    checked += 1
            random_step(s, rng)
    assert checked > 100


def test_own_card_face_up_opponent_face_down() -> None:
    """§9b: your hand is face up, the opponent's face down, the pool face down; buttons lock/trade/draw."""
    s = play([H, C], first="seat0")
    scene = s.scene(0)
    zones = {z["id"]: z for z in scene["zones"]}
    assert zones["hand0"]["items"][0]["label"] == "Hamlet" and not zones["hand0"]["items"][0]["face_down"]
    assert "defeats Laertes" in zones["hand0"]["items"][0]["name"]  # the card's tooltip
    assert zones["hand0"]["items"][0]["icon"] == "skull"
    assert zones["hand1"]["items"][0]["face_down"] and zones["hand1"]["items"][0]["label"] == "role card"
    assert len(zones["pool"]["items"]) == 5 and all(i["face_down"] for i in zones["pool"]["items"])
    assert [b["label"] for b in scene["buttons"]] == ["lock", "trade", "draw"]
    assert len(zones["roles"]["items"]) == 7
    assert "Hamlet" not in json.dumps(_strip_static(s.scene(1))) and "Hamlet" not in json.dumps(s.observation(1))
    assert "Round 1 of 3" in scene["status"]
    assert s.scene(1)["buttons"] == [] and "waiting for Player 1" in for_players(s.scene(1)["prompt"])


def test_resample_is_uniform_over_the_information_set() -> None:
    """§9: resample redraws exactly the histories the viewer cannot tell apart, uniformly; a round's end pins it."""
    s = play([H, C, LOCK], first="seat0")
    rng = random.Random(0)
    seat1 = Counter(s.resample(1, rng).history()[0] for _ in range(600))
    assert sorted(seat1) == [c for c in range(7) if c != C]  # seat 0's card: 6 options, about 100 each
    assert min(seat1.values()) > 60
    seat0 = {s.resample(0, rng).history()[1] for _ in range(200)}
    assert sorted(seat0) == [c for c in range(7) if c != H]
    assert len({tuple(s.resample(None, rng).history()[0:2]) for _ in range(600)}) == 42
    # After a reveal (seat 0 drew Ophelia, seat 1 locked Claudius) the round is over and pinned: kept as it was.
    t = play([H, C, DRAW, O, LOCK], first="seat0")
    for p in (0, 1, None):
        for _ in range(5):
            r = t.resample(p, rng)
            assert r.history() == t.history()
            assert r.observation(p) == t.observation(p) and r.scene(p) == t.scene(p)


def test_elimination_places_the_cards_a_player_can_count() -> None:
    """§9g: after a trade both players know both hands, hence the whole pool; in round 3 that is one card."""
    s = play([C, R, LOCK, LOCK, G, H, LOCK, LOCK, L, O, TRADE], first="seat0")  # round 3: seat 1 first
    for seat in (0, 1):
        obs = s.observation(seat)
        assert obs["hands"] == ["Laertes", "Ophelia"] and obs["pool_known"] == ["Polonius"]
        pool = next(z for z in s.scene(seat)["zones"] if z["id"] == "pool")
        assert [(i["label"], i["face_down"]) for i in pool["items"]] == [("Polonius", False)]
    assert s.observation(None)["pool_known"] == [] and s.observation(None)["hands"] == [None, None]
    # Without a trade, a player who drew in round 3 knows the pool (its old card), so the opponent's card too.
    t = play([C, R, LOCK, LOCK, G, H, LOCK, LOCK, L, O, DRAW, P], first="seat0")
    assert t.observation(1)["hands"] == ["Ophelia", "Polonius"] and t.observation(0)["hands"] == ["Ophelia", None]


@pytest.mark.parametrize("draw", ["exchange", "discard_then_draw"])
def test_what_a_view_shows_is_true(draw: str) -> None:
    """§9: every card a view places (a hand or the pool) really is there."""
    game = boardlab.make("hamlet", draw=draw)
    placed = 0
    for seed in range(60):
        rng = random.Random(seed)
        s = game.new_initial_state()
        while not s.is_terminal():
            assert isinstance(s, HamletState)
            if s.rounds and s.rounds[-1].stage != DONE:
                r = s.rounds[-1]
                for v in (0, 1, 2):
                    for card, where in knowledge(r.remaining, r.events[v], game.exchange).items():  # type: ignore[attr-defined]
                        assert (card in r.pool) if where == POOL else r.hand[where] == card, (seed, v, card)
                        placed += 1
            random_step(s, rng)
    assert placed > 1000


def test_observation_of_a_bad_seat_is_refused() -> None:
    s = play([], first="seat0")
    with pytest.raises(ValueError, match="seats are 0 and 1"):
        s.observation(2)
    with pytest.raises(ValueError):
        s.resample(5, random.Random(0))


def test_resample_after_clones_diverge() -> None:
    """§9: resample stays exact when clones of one state take different chance outcomes."""
    base = play([H, C, DRAW], first="seat0")
    rng = random.Random(1)
    base.resample(1, rng)  # keeps base's resample plan
    for card in (G, O):
        c = base.clone()
        c.apply_action(card)
        for p in (0, 1, None):
            r = c.resample(p, rng)
            assert r.observation(p) == c.observation(p) and r.scene(p) == c.scene(p)
        assert c.resample(0, rng).rounds[0].hand[0] == card
