"""The core's check of a played action reuses the legal list just asked for on the same position.

The usual caller (a random player, the bench, an agent's ``legal_actions`` then ``apply_action``) asks the game
for its legal actions once per move, not twice; the check itself stays: illegal actions are refused with the
state unchanged, a list the caller changed does not widen it, and copies and later positions ask the game again.
"""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.game import Game, State


class CountGame(Game):
    """Take 1-3 from a pile of 10 in turn; after every fourth move both seats bid 0 or 1 at once."""

    id = "test-count"
    title = "Count"
    summary = "A test game."
    rules_version = "1"

    def num_distinct_actions(self) -> int:
        return 8


class CountState(State):
    copied = ()
    calls = 0

    def __init__(self, game: Game, num_players: int) -> None:
        super().__init__(game, num_players)
        self.pile, self.turn, self.bidding = 10, 0, False

    def current_player(self) -> int:
        if self.pile <= 0:
            return TERMINAL
        return SIMULTANEOUS if self.bidding else self.turn

    def returns(self) -> list[float]:
        return [1.0, -1.0] if self.turn == 1 else [-1.0, 1.0]

    def _legal_actions(self, player: int) -> list[int]:
        type(self).calls += 1
        return [0, 1] if self.bidding else [a for a in (1, 2, 3) if a <= self.pile]

    def _apply(self, action: int) -> None:
        self.pile -= action
        self.turn = 1 - self.turn
        self.bidding = self.pile > 0 and len(self._history) % 4 == 3

    def _apply_joint(self, actions: list[int | None]) -> None:
        self.bidding = False


CountGame.state_class = CountState


class DiceState(CountState):
    """Count, with a die (1-3) thrown before every move: the mover takes what it shows or one less."""

    outcome_calls = 0

    def __init__(self, game: Game, num_players: int) -> None:
        super().__init__(game, num_players)
        self.die = 0

    def current_player(self) -> int:
        if self.pile <= 0:
            return TERMINAL
        return CHANCE if self.die == 0 else self.turn

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        type(self).outcome_calls += 1
        return [(1, 1 / 3), (2, 1 / 3), (3, 1 / 3)]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted({max(1, self.die - 1), min(self.die, self.pile)})

    def _apply(self, action: int) -> None:
        if self.die == 0:
            self.die = action
            return
        self.pile -= action
        self.turn, self.die = 1 - self.turn, 0


class DiceGame(CountGame):
    id = "test-dice"


DiceGame.state_class = DiceState


def test_one_outcome_list_per_chance_step() -> None:
    DiceState.outcome_calls = 0
    s = DiceGame().new_initial_state()
    rng = random.Random(2)
    throws = 0
    while s.current_player() != TERMINAL:
        if s.current_player() == CHANCE:
            outcomes = s.chance_outcomes()
            outcomes.append((9, 0.5))  # the caller's list is its own
            with pytest.raises(IllegalActionError):
                s.apply_action(9)
            s.apply_action(rng.choice(outcomes[:-1])[0])
            throws += 1
        else:
            s.apply_action(s.legal_actions()[0])
    assert DiceState.outcome_calls == throws > 3


def fresh() -> State:
    CountState.calls = 0
    return CountGame().new_initial_state()


def test_one_legal_list_per_move() -> None:
    s = fresh()
    moves = 0
    while s.current_player() != TERMINAL:
        if s.current_player() == SIMULTANEOUS:
            s.apply_actions([s.legal_actions(p)[0] for p in range(2)])
        else:
            s.apply_action(s.legal_actions()[-1])
        moves += 1
    per_seat_decisions = sum(2 if isinstance(h, tuple) else 1 for h in s.history())
    assert CountState.calls == per_seat_decisions


def test_refused_action_changes_nothing_and_the_check_stays() -> None:
    s = fresh()
    legal = s.legal_actions()
    legal.append(7)  # the caller's list is its own: changing it widens nothing
    before = (s.pile, s.turn, s.history())
    with pytest.raises(IllegalActionError):
        s.apply_action(7)
    assert (s.pile, s.turn, s.history()) == before
    s.apply_action(3)
    s.apply_action(3)
    s.apply_action(2)
    assert s.legal_actions() == [1, 2]
    s.apply_action(1)  # pile 1: 2 is no longer legal although it was on the last list asked for
    with pytest.raises(IllegalActionError):
        s.apply_actions([5, 0])
    s.apply_actions([0, 1])
    assert s.legal_actions() == [1]
    with pytest.raises(IllegalActionError):
        s.apply_action(2)
    s.apply_action(1)
    assert s.current_player() == TERMINAL


def test_a_copy_asks_the_game_again() -> None:
    s = fresh()
    s.legal_actions()
    c = s.clone()
    c.pile = 2  # a copy changed by hand (as a game's resample does) is checked against its own position
    with pytest.raises(IllegalActionError):
        c.apply_action(3)
    s.apply_action(3)


@pytest.mark.parametrize("game_id", ["mini-life", "triad", "two-mayors", "dragon-fight"])
def test_real_games_refuse_what_the_list_lacks(game_id: str) -> None:
    game = boardlab.make(game_id)
    rng = random.Random(5)
    s = game.new_initial_state()
    for _ in range(40):
        cp = s.current_player()
        if cp == TERMINAL:
            break
        if cp == SIMULTANEOUS:
            s.apply_actions([rng.choice(s.legal_actions(p)) if s.legal_actions(p) else None for p in range(2)])
            continue
        if cp < 0:
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            continue
        legal = s.legal_actions()
        outside = next(a for a in range(game.num_distinct_actions()) if a not in legal)
        before = s.to_json()
        with pytest.raises(IllegalActionError):
            s.apply_action(outside)
        assert s.to_json() == before
        s.apply_action(rng.choice(legal))
