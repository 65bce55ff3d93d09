"""The core's hidden-information service (core/hidden.py) on a tiny game made for it.

Peek: a public coin (setup), a card dealt face down to Blue, Blue's secret
choice, Red's public guess, both seats' simultaneous public call, and Blue's
reveal of the card.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from boardlab.core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from boardlab.core.game import Game, State
from boardlab.core.gametype import Chance, GameType, Information
from boardlab.core.hidden import ResampleError, Seen, SeenLog, log_lines, resample

CARDS = ("Knight", "Queen", "King")
# Stages: coin, deal, secret choice (Blue), guess (Red), call (both at once), reveal (Blue), over.
COIN, DEAL, CHOICE, GUESS, CALL, REVEAL, OVER = range(7)


class PeekGame(Game):
    id = "peek"
    title = "Peek"
    game_type = GameType(chance=Chance.EXPLICIT, information=Information.IMPERFECT)
    setup_text = "The coin was tossed."
    seat_names = ("Red", "Blue")

    def num_distinct_actions(self) -> int:
        return 3

    def max_chance_outcomes(self) -> int:
        return 3

    def max_game_length(self) -> int:
        return 6


class PeekState(State):
    copied = ()

    def __init__(self, game: Game, num_players: int) -> None:
        super().__init__(game, num_players)
        self.stage = COIN
        self.card = -1
        self.choice = -1

    def current_player(self) -> int:
        return {COIN: CHANCE, DEAL: CHANCE, CHOICE: 1, GUESS: 0, CALL: SIMULTANEOUS, REVEAL: 1}.get(
            self.stage, TERMINAL
        )

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def _legal_actions(self, player: int) -> list[int]:
        if self.stage == CHOICE:
            return [0, 1]
        if self.stage == GUESS:
            return [0, 1, 2]
        if self.stage == CALL:
            return [0, 1]
        return [0]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        if self.stage == COIN:
            return [(0, 0.5), (1, 0.5)]
        return [(0, 0.5), (1, 0.25), (2, 0.25)]

    def _apply(self, action: int) -> None:
        if self.stage == DEAL:
            self.card = action
        elif self.stage == CHOICE:
            self.choice = action
        self.stage += 1

    def _apply_joint(self, actions: list[int | None]) -> None:
        self.stage += 1

    def _seen(self, actor: int, entry: Any) -> Seen | tuple[Seen | None, ...]:
        if self.stage == DEAL:
            return Seen("dealt a card to Blue", {1: f"dealt the {CARDS[entry]} to Blue"})
        if self.stage == CHOICE:
            return Seen("chose secretly", {1: f"chose {entry}"})
        if self.stage == GUESS:
            return Seen(f"guessed the {CARDS[entry]}")
        if self.stage == REVEAL:
            return Seen(f"showed the {CARDS[self.card]}")
        return super()._seen(actor, entry)

    def observation(self, player: int | None = None) -> dict[str, Any]:
        over = self.stage == OVER
        return {"stage": self.stage, "card": self.card if player == 1 or over else None}


PeekGame.state_class = PeekState


def played(upto: int, card: int = 2, choice: int = 1) -> State:
    s = PeekGame().new_initial_state()
    steps = [lambda: s.apply_action(0), lambda: s.apply_action(card), lambda: s.apply_action(choice)]
    steps += [lambda: s.apply_action(1), lambda: s.apply_actions([1, 0]), lambda: s.apply_action(0)]
    for step in steps[:upto]:
        step()
    return s


def texts(s: State, viewer: int | None, **kw: Any) -> list[str]:
    return [line["text"] for line in s.move_log(viewer, **kw)]


def test_each_viewer_reads_what_it_was_shown() -> None:
    s = played(5)
    assert texts(s, 0) == [
        "The coin was tossed.",
        "dealt a card to Blue",
        "chose secretly",
        "guessed the Queen",
        "Red: 1; Blue: 0",
    ]
    assert texts(s, None) == texts(s, 0)
    assert texts(s, 1)[1:3] == ["dealt the King to Blue", "chose 1"]
    log = s.move_log(0)
    assert [(d["step"], d["actor"]) for d in log] == [(0, CHANCE), (1, CHANCE), (2, 1), (3, 0), (4, SIMULTANEOUS)]
    assert log[0]["steps"] == 1 and log[-1]["parts"] == ["1", "0"]


def test_after_the_end_the_log_shows_everything() -> None:
    s = played(6)
    assert s.is_terminal()
    assert texts(s, 0)[1:3] == ["dealt the King to Blue", "chose 1"]
    assert texts(s, 0)[-1] == "showed the King"
    assert texts(s, 0, reveal=False)[1:3] == ["dealt a card to Blue", "chose secretly"]


def test_log_lines_is_pure_and_collapses_only_public_setup_chance() -> None:
    seens = [Seen("dealt a card", {1: "dealt the Knight"}), Seen("Red starts")]
    lines = log_lines(seens, [CHANCE, CHANCE], 0, setup_text="Dealt.")
    assert [d["text"] for d in lines] == ["dealt a card", "Red starts"]  # a private deal ends the run at once


def test_seen_log_extends_incrementally_and_follows_an_undo() -> None:
    s = played(3)
    log = SeenLog(s.game, s.num_players)
    assert log.lines(s, 0) == s.move_log(0)
    first = log.seens[:]
    s.apply_action(0)
    assert log.lines(s, 0) == s.move_log(0) and log.seens[:3] == first
    other = played(4, card=0, choice=0)  # same length, different entries: rebuilt
    assert log.lines(other, 1) == other.move_log(1)


def test_history_entries_are_immutable_and_history_gives_copies() -> None:
    s = played(5)
    assert s._history[4] == (1, 0) and isinstance(s._history[4], tuple)
    h = s.history()
    assert h[4] == [1, 0]
    h[4][0] = 0
    assert s.history()[4] == [1, 0]
    c = s.clone()
    c.apply_action(0)
    assert s.move_number() == 5 and s.history()[4] == [1, 0]


def test_default_resample_redraws_only_what_the_viewer_did_not_see() -> None:
    s = played(4)
    rng = random.Random(1)
    draws = Counter()
    for _ in range(2000):
        r = s.resample(0, rng)
        h = r.history()
        assert h[0] == 0 and h[3] == 1 and r.observation(0) == s.observation(0)
        assert r.move_log(0) == s.move_log(0)
        draws[(h[1], h[2])] += 1
    # The card by its chance weights (1/2, 1/4, 1/4), Blue's secret choice uniformly.
    for (card, choice), n in draws.items():
        expected = 2000 * (0.5 if card == 0 else 0.25) * 0.5
        assert abs(n - expected) < 4 * expected**0.5, (card, choice, n)
    assert len(draws) == 6
    assert s.resample(1, rng).history() == s.history()  # Blue saw everything
    assert s.history() == played(4).history()  # the original is unchanged


def test_a_reveal_constrains_the_redraw() -> None:
    s = played(5)
    s.apply_action(0)
    rng = random.Random(2)
    for _ in range(50):
        r = resample(s, 0, rng)
        assert r.history()[1] == 2  # the King was shown
    assert {resample(s, 0, rng).history()[2] for _ in range(50)} == {0, 1}


def test_running_out_of_tries_is_a_clear_error() -> None:
    with pytest.raises(ResampleError, match="no position consistent with what seat 0 saw"):
        resample(played(4), 0, random.Random(3), budget=0)
