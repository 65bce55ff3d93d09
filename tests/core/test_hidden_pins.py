"""Pins (``Seen.pins``): an entry that reveals earlier hidden entries makes the core's resample keep them.

Dice Call is a small Liar's Dice: each of two seats rolls its dice in secret (one chance entry per die, seen by
its owner), then the seats raise a public bid on how many dice show a face, until one calls. The call shows
every die (its public text says them all) and the loser of the bid loses a die; the next round rolls again.
With ``pins=False`` the same game does not say that the call pins the round's rolls, so the core's resample,
for a spectator who saw no roll, has to find by search rolls that read as the call's text does: with three
dice each that is one world in 6**6 and it runs out of tries; with pins it keeps the shown rolls and redraws
only the current round's.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter
from typing import Any

import pytest

from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.game import Game, State
from boardlab.core.gametype import Chance, GameType, Information
from boardlab.core.hidden import ResampleError, Seen, pins_for, plan, resample

NAMES = ("Red", "Blue")
CALL = 0  # actions: 0 calls; 1 + 6 * (count - 1) + (face - 1) bids "count dice show face"
RAISES = 3  # a bid may raise by one to three steps (keeps the game small)


def bid_name(a: int) -> str:
    count, face = divmod(a - 1, 6)
    return f"{count + 1} × {face + 1}"


class DiceCallGame(Game):
    id = "dice-call"
    title = "Dice Call"
    game_type = GameType(chance=Chance.EXPLICIT, information=Information.IMPERFECT)
    seat_names = NAMES

    def __init__(self, dice: int = 3, pins: bool = True) -> None:
        super().__init__()
        self.dice, self.pins = dice, pins

    def num_distinct_actions(self) -> int:
        return 1 + 6 * 2 * self.dice

    def max_chance_outcomes(self) -> int:
        return 6

    def max_game_length(self) -> int:
        return 2 * self.dice * (2 * self.dice + RAISES + 12)


class DiceCallState(State):
    copied = ("left", "roll_at")

    def __init__(self, game: Game, num_players: int) -> None:
        super().__init__(game, num_players)
        assert isinstance(game, DiceCallGame)
        self.left = [game.dice, game.dice]  # dice each seat still has
        self.dice: list[list[int]] = [[], []]  # this round's faces, 1-6
        self.roll_at: list[int] = []  # history indices of this round's rolls
        self.rolls = 0  # rolls made this round
        self.bid = 0  # the standing bid (0: none yet)
        self.to_move = 0
        self.over = False

    def clone(self) -> DiceCallState:
        s = super().clone()
        s.dice = [d[:] for d in self.dice]
        return s

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.rolls < sum(self.left) else self.to_move

    def _roller(self) -> int:
        return 0 if self.rolls < self.left[0] else 1

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(f, 1 / 6) for f in range(1, 7)]

    def _legal_actions(self, player: int) -> list[int]:
        top = 1 + 6 * sum(self.left)
        bids = [a for a in range(self.bid + 1, self.bid + 1 + RAISES) if a < top]
        return ([CALL] if self.bid else []) + bids

    def _apply(self, action: int) -> None:
        if self.current_player() == CHANCE:
            self.dice[self._roller()].append(action)
            self.roll_at.append(len(self._history))
            self.rolls += 1
            return
        if action != CALL:
            self.bid = action
            self.to_move = 1 - self.to_move
            return
        count, face = divmod(self.bid - 1, 6)
        held = sum(d == face + 1 for hand in self.dice for d in hand)
        bidder = 1 - self.to_move
        loser = bidder if held < count + 1 else self.to_move
        self.left[loser] -= 1
        self.dice, self.roll_at, self.rolls, self.bid = [[], []], [], 0, 0
        self.to_move = loser
        self.over = self.left[loser] == 0
        self._mark_irreversible()

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.left[0] else [-1.0, 1.0]

    def _seen(self, actor: int, entry: Any) -> Seen | tuple[Seen | None, ...]:
        if actor == CHANCE:
            p = self._roller()
            return Seen(f"{NAMES[p]} rolled a die", {p: f"{NAMES[p]} rolled a {entry}"})
        if entry == CALL:
            shown = "; ".join(f"{NAMES[p]} {' '.join(map(str, sorted(self.dice[p])))}" for p in (0, 1))
            pins = tuple(self.roll_at) if self.game.pins else ()  # type: ignore[attr-defined]
            return Seen(f"calls; the dice show {shown}", pins=pins)
        return Seen(f"bids {bid_name(entry)}")

    def _action_to_string(self, player: int, action: int) -> str:
        return "call" if action == CALL else bid_name(action)

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {
            "left": self.left[:],
            "bid": self.bid,
            "rolled": self.rolls,
            "mine": sorted(self.dice[player]) if player is not None else None,
        }


DiceCallGame.state_class = DiceCallState


def play(game: DiceCallGame, seed: int, rounds: int) -> State:
    """A game played at random until ``rounds`` calls have been made and the next round's dice are rolled."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    calls = 0
    while True:
        cp = s.current_player()
        if cp == TERMINAL or (calls == rounds and cp != CHANCE):
            return s
        if cp == CHANCE:
            s.apply_action(rng.randint(1, 6))
            continue
        legal = s.legal_actions()
        a = CALL if CALL in legal and rng.random() < 0.3 else rng.choice([x for x in legal if x != CALL] or legal)
        calls += a == CALL
        s.apply_action(a)


def rolls(s: State) -> list[int]:
    return [i for i, a in enumerate(s.actors()) if a == CHANCE]


def test_a_call_pins_the_rolls_it_shows() -> None:
    s = play(DiceCallGame(), seed=4, rounds=1)
    call = s.history().index(CALL)
    seen = s.game.new_initial_state().clone()
    for entry in s.history()[:call]:
        seen.apply_action(entry)
    assert pins_for(seen.seen_of(CALL), None) == tuple(rolls(s)[:6])
    p = plan(s, None)
    assert all(p.exact[: call + 1]) and p.first == rolls(s)[6]  # the shown rolls are kept, the new ones redrawn


def test_with_pins_a_spectator_resamples_three_dice_each() -> None:
    s = play(DiceCallGame(), seed=4, rounds=1)
    rng = random.Random(1)
    new = rolls(s)[6:]
    faces: Counter[tuple[int, ...]] = Counter()
    for _ in range(600):
        r = resample(s, None, rng)
        h, mine = r.history(), s.history()
        assert [h[i] for i in range(len(h)) if i not in new] == [mine[i] for i in range(len(h)) if i not in new]
        assert r.move_log(None, reveal=False) == s.move_log(None, reveal=False)
        faces[tuple(h[i] for i in new[:1])] += 1
    assert set(faces) == {(f,) for f in range(1, 7)} and min(faces.values()) > 60  # the new roll: uniform


def test_without_pins_the_search_runs_out() -> None:
    """The failure the pins remove: the same position, the call not saying what it pins, needs a search over the
    shown rolls (up to 6**6 of them); with the pins a few tries per redrawn roll do."""
    s = play(DiceCallGame(pins=False), seed=4, rounds=1)
    with pytest.raises(ResampleError):
        resample(s, None, random.Random(1), budget=2_000)
    pinned = play(DiceCallGame(), seed=4, rounds=1)
    assert pinned.history() == s.history()
    rng = random.Random(1)
    for _ in range(20):
        resample(pinned, None, rng, budget=len(rolls(s)))


def test_a_seat_keeps_its_own_rolls_and_redraws_the_others() -> None:
    s = play(DiceCallGame(), seed=9, rounds=2)
    rng = random.Random(3)
    left = s.observation(0)["left"]
    own = set(rolls(s)[-sum(left) :][: left[0]])
    worlds = {json.dumps(resample(s, 0, rng).history()) for _ in range(40)}
    assert len(worlds) > 1
    for w in map(json.loads, worlds):
        assert all(w[i] == s.history()[i] for i in range(len(w)) if i in own or i not in rolls(s)[-sum(left) :])


def test_the_plan_is_kept_for_the_position_and_not_copied() -> None:
    s = play(DiceCallGame(), seed=4, rounds=1)
    p = plan(s, None)
    assert plan(s, None) is p and plan(s, 0) is not p
    assert "_resample_plan" not in s.clone().__dict__
    assert "_resample_plan" not in pickle.loads(pickle.dumps(s)).__dict__
    assert "_resample_plan" not in copy.deepcopy(s).__dict__
