"""Phases as data (core/phases.py) on a tiny game: a die roll, a call by each seat in turn, a joint reveal.

The tiny game ("High call"): chance rolls a die (1-3) that seat 0 sees; seat 0 calls high or
low, or passes; seat 1 then calls; finally both seats show a card at once (simultaneous).
"""

from __future__ import annotations

from typing import Any

import pytest

from boardlab.core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.game import Game
from boardlab.core.hidden import Seen
from boardlab.core.phases import Phase, PhasedState, phase_table

LOW, HIGH, PASS = 0, 1, 2
CALLS = ("low", "high", "pass")


def _roll(s: TinyState, die: int) -> None:
    s.die = die
    s.phase = "first call"


def _call(s: TinyState, call: int) -> None:
    s.calls.append(call)
    s.phase = "second call" if len(s.calls) == 1 else "show"


def _show(s: TinyState, cards: list[int | None]) -> None:
    s.shown = list(cards)
    s.phase = "over"


def _explain_second(s: TinyState, player: int, action: int) -> str | None:
    return "the second caller may not pass" if action == PASS else None


def _prompt_call(game: Game, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    return "Call high or low." if legal else f"Waiting for {obs['to_move']}."


PHASES = phase_table(
    Phase(
        "roll",
        CHANCE,
        outcomes=lambda s: [(d, 1 / 3) for d in range(3)],
        apply=_roll,
        label=lambda s, p, a: f"rolled {a + 1}",
        seen=lambda s, actor, a: Seen("rolled the die", {0: f"rolled {a + 1}"}),  # seat 0 alone sees the die
    ),
    Phase(
        "first call",
        0,
        legal=lambda s, p: [LOW, HIGH, PASS],
        apply=_call,
        label=lambda s, p, a: CALLS[a],
        prompt=_prompt_call,
    ),
    Phase(
        "second call",
        lambda s: 1,
        legal=lambda s, p: [LOW, HIGH],
        is_legal=lambda s, p, a: a in (LOW, HIGH),
        apply=_call,
        explain=_explain_second,
        label=lambda s, p, a: CALLS[a],
        prompt=_prompt_call,
    ),
    Phase("show", SIMULTANEOUS, legal=lambda s, p: [0, 1], apply=_show),
    Phase("over", TERMINAL, prompt=lambda game, obs, legal: "Over."),
)


class TinyGame(Game):
    id = "tiny-phases"

    def num_distinct_actions(self) -> int:
        return 3

    def max_chance_outcomes(self) -> int:
        return 3

    def max_game_length(self) -> int:
        return 4


class TinyState(PhasedState):
    phases = PHASES

    def __init__(self, game: Game, num_players: int) -> None:
        super().__init__(game, num_players)
        self.phase = "roll"
        self.die = -1
        self.calls: list[int] = []
        self.shown: list[int | None] = []

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {"phase": self.phase, "to_move": self.current_player(), "calls": self.calls[:]}


TinyGame.state_class = TinyState


def new() -> TinyState:
    s = TinyGame().new_initial_state()
    assert isinstance(s, TinyState)
    return s


def test_each_phase_says_who_decides_and_what_is_legal() -> None:
    s = new()
    assert s.current_player() == CHANCE and s.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    assert s.legal_actions(0) == [] and s.action_to_string(CHANCE, 2) == "rolled 3"
    s.apply_action(1)
    assert s.current_phase().name == "first call" and s.current_player() == 0
    assert s.legal_moves() == [(LOW, "low"), (HIGH, "high"), (PASS, "pass")]
    s.apply_action(PASS)
    assert s.current_player() == 1 and s.legal_actions() == [LOW, HIGH]  # actor given as a function
    s.apply_action(HIGH)
    assert s.current_player() == SIMULTANEOUS and s.legal_actions(0) == [0, 1]
    assert s.action_to_string(0, 1) == "1"  # no label declared: the base State's fallback
    s.apply_actions([1, 0])
    assert s.is_terminal() and s.legal_actions() == [] and s.shown == [1, 0]
    assert s.history() == [1, PASS, HIGH, [1, 0]]


def test_refusals_use_the_phase_and_change_nothing() -> None:
    s = new()
    for a in (1, PASS):
        s.apply_action(a)
    before = (s.history(), s.phase, s.calls[:])
    with pytest.raises(IllegalActionError, match="the second caller may not pass"):
        s.apply_action(PASS)  # refused by the phase's is_legal, explained by its explain
    with pytest.raises(IllegalActionError):
        s.apply_action(LOW, player=0)  # out of turn
    with pytest.raises(IllegalActionError):
        s.apply_actions([0, 0])  # not a simultaneous phase
    assert (s.history(), s.phase, s.calls) == before
    assert s.explain_illegal(1, PASS) == "pass is not legal: the second caller may not pass"
    assert s.string_to_action(1, "High") == HIGH


def test_a_history_replays_through_the_phases() -> None:
    s = new()
    for a in (2, LOW, LOW):
        s.apply_action(a)
    s.apply_actions([0, 1])
    t = TinyGame().state_from_history(s.history())
    assert isinstance(t, TinyState)
    assert (t.phase, t.die, t.calls, t.shown) == ("over", 2, [LOW, LOW], [0, 1])
    c = s.clone()
    assert c.phase == "over" and c.history() == s.history()


def test_prompts_come_from_the_phase_and_the_view() -> None:
    s = new()
    assert s.prompt(0) == ""  # the roll declares no prompt
    s.apply_action(0)
    assert s.prompt(0) == "Call high or low." and s.prompt(1) == "Waiting for 0." and s.prompt(None) == "Waiting for 0."
    for a in (LOW, HIGH):
        s.apply_action(a)
    s.apply_actions([0, 0])
    assert s.prompt(None) == "Over."


def test_each_phase_says_what_viewers_see_of_its_entries() -> None:
    s = new()
    for a in (1, HIGH, LOW):
        s.apply_action(a)
    assert [line["text"] for line in s.move_log(1)] == ["rolled the die", "high", "low"]
    assert [line["text"] for line in s.move_log(0)] == ["rolled 2", "high", "low"]  # the phase's seen
    assert s.move_log(None)[0]["text"] == "rolled the die"


def test_phases_are_checked_when_declared() -> None:
    with pytest.raises(ValueError, match="chance phase needs outcomes"):
        Phase("deal", CHANCE, apply=_roll)
    with pytest.raises(ValueError, match="needs legal"):
        Phase("bid", lambda s: 0, apply=_call)
    with pytest.raises(ValueError, match="needs apply"):
        Phase("bid", 0, legal=lambda s, p: [0])
    with pytest.raises(ValueError, match="two phases are named 'over'"):
        phase_table(Phase("over", TERMINAL), Phase("over", TERMINAL))
    Phase("over", TERMINAL)  # a terminal phase needs nothing
