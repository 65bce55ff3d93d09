"""The one driver (core/driver.py): next decision, checked history entries, replay with a callback,
the step loop, result text and the undo policy; and the import rules it makes possible."""

from __future__ import annotations

import ast
import pathlib
import random
from typing import Any

import pytest

import boardlab
from boardlab.core import driver
from boardlab.core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from boardlab.core.errors import IllegalActionError, OutOfTurnError
from boardlab.core.game import Game, State
from boardlab.core.gametype import Chance, Dynamics, GameType, Utility
from boardlab.core.record import GameRecord

SRC = pathlib.Path(__file__).resolve().parents[2] / "src" / "boardlab"


class Tiny(Game):
    """Chance deals a card 1-3; seat 0 keeps (0) or passes (1); then every seat at once bets 0/1, seat 2
    (when present) with nothing to decide; the highest card + bets sum decides. Not registered."""

    id = "tiny-driver-test"
    title = "Tiny"
    min_players = 2
    max_players = 3
    game_type = GameType(dynamics=Dynamics.SIMULTANEOUS, chance=Chance.EXPLICIT, utility=Utility.GENERAL_SUM)

    def num_distinct_actions(self) -> int:
        return 2

    def max_chance_outcomes(self) -> int:
        return 4

    def max_game_length(self) -> int:
        return 10

    def scene(self, observation: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
        return {}


class TinyState(State):
    def __init__(self, game: Game, num_players: int) -> None:
        super().__init__(game, num_players)
        self.card = 0
        self.first: int | None = None
        self.bets: list[int | None] | None = None

    def current_player(self) -> int:
        if not self.card:
            return CHANCE
        if self.first is None:
            return 0
        return SIMULTANEOUS if self.bets is None else TERMINAL

    def returns(self) -> list[float]:
        if self.bets is None:
            return [0.0] * self.num_players
        total = self.card + sum(b or 0 for b in self.bets)
        if total % 3 == 0:
            return [0.0] * self.num_players
        win = total % 2
        return [1.0 if p == win else -1.0 for p in range(self.num_players)]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(1, 1 / 3), (2, 1 / 3), (3, 1 / 3)]

    def _legal_actions(self, player: int) -> list[int]:
        cp = self.current_player()
        if cp == 0 and player == 0:
            return [0, 1]
        if cp == SIMULTANEOUS and player < 2:
            return [0, 1]
        return []

    def _apply(self, action: int) -> None:
        if not self.card:
            self.card = action
        else:
            self.first = action

    def _apply_joint(self, actions: list[int | None]) -> None:
        self.bets = list(actions)

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {"card": self.card, "first": self.first, "bets": self.bets}


Tiny.state_class = TinyState


# -- next decision ----------------------------------------------------------


def test_next_decision_at_chance_seat_simultaneous_and_end() -> None:
    s = Tiny().new_initial_state(3)
    assert driver.next_decision(s) == driver.Decision("chance", ())
    driver.apply_entry(s, 2)
    assert driver.next_decision(s) == driver.Decision("seat", (0,))
    driver.apply_entry(s, 0)
    assert driver.next_decision(s) == driver.Decision("simultaneous", (0, 1))  # seat 2 has nothing to decide
    driver.apply_entry(s, (1, 0, None))  # a tuple is a joint entry too
    assert driver.next_decision(s) == driver.Decision("end", ())
    assert s.history() == [2, 0, [1, 0, None]]


# -- applying entries -------------------------------------------------------


def test_apply_entry_checks_and_changes_nothing_on_refusal() -> None:
    s = Tiny().new_initial_state()
    with pytest.raises(IllegalActionError, match="not a possible chance outcome"):
        driver.apply_entry(s, 0)
    with pytest.raises(IllegalActionError, match="not a simultaneous decision"):
        driver.apply_entry(s, [0, 1])
    driver.apply_entry(s, 1)
    with pytest.raises(OutOfTurnError):
        driver.apply_entry(s, 0, player=1)
    driver.apply_entry(s, 1, player=0)
    with pytest.raises(IllegalActionError, match="one action per seat"):
        driver.apply_entry(s, [0])
    with pytest.raises(IllegalActionError, match="every seat decides at once"):
        driver.apply_entry(s, 0)
    assert s.history() == [1, 1] and s.current_player() == SIMULTANEOUS


# -- replay -----------------------------------------------------------------


def test_replay_calls_back_before_every_step() -> None:
    game = Tiny()
    seen: list[tuple[int, int, Any, dict[str, Any]]] = []

    def on_step(state: State, entry: Any) -> None:
        seen.append((state.move_number(), state.current_player(), entry, state.observation(None)))

    final = driver.replay(game, [3, 0, [1, 1]], on_step=on_step)
    assert [(k, who, e) for k, who, e, _ in seen] == [(0, CHANCE, 3), (1, 0, 0), (2, SIMULTANEOUS, [1, 1])]
    assert seen[2][3] == {"card": 3, "first": 0, "bets": None}  # the state before the entry
    assert final.is_terminal() and final.history() == [3, 0, [1, 1]]


def test_replay_names_the_bad_step() -> None:
    with pytest.raises(driver.ReplayError) as e:
        driver.replay(Tiny(), [3, 0, [1, 5]])
    assert e.value.step == 2 and e.value.entry == [1, 5]
    assert str(e.value).startswith("history step 2 ([1, 5]) is not legal: ")
    assert isinstance(e.value, IllegalActionError)  # what callers caught before the driver


def test_replay_states_and_advance_from_a_checkpoint() -> None:
    game = Tiny()
    states = driver.replay_states(game, [1, 1, [0, 0]])
    assert [s.move_number() for s in states] == [0, 1, 2, 3]
    assert states[0].current_player() == CHANCE and states[-1].is_terminal()
    later = driver.advance(states[1].clone(), [1, [0, 0]])
    assert later.history() == states[-1].history()
    assert game.state_from_history([1, 1]).history() == [1, 1]  # Game.state_from_history is the driver's replay


def test_records_replay_with_a_given_lookup_or_game() -> None:
    game = boardlab.make("blast-radius", board_side=5)
    s = game.new_initial_state()
    s.apply_action(30)
    asked: list[str] = []

    def make(game_id: str, **options: Any) -> Game:
        asked.append(game_id)
        return boardlab.make(game_id, **options)

    rec = GameRecord.from_json(GameRecord.from_state(s).to_json(), make)
    assert asked == ["blast-radius"]
    assert rec.replay(game=game).history() == [30] and len(rec.states(game=game)) == 2
    assert rec.game_of(make).params == game.params


# -- the step loop ----------------------------------------------------------


def test_play_draws_chance_asks_seats_and_reports_each_step() -> None:
    s = Tiny().new_initial_state(3)
    asked: list[tuple[int, int]] = []
    steps: list[tuple[int, Any]] = []

    def choose(state: State, seat: int) -> int:
        asked.append((state.move_number(), seat))
        return 1

    end = driver.play(s, choose, random.Random(4), on_step=lambda st, e: steps.append((st.current_player(), e)))
    assert end == "over"
    assert asked == [(1, 0), (2, 0), (2, 1)]  # seat 2 is never asked at the simultaneous step
    assert [who for who, _ in steps] == [CHANCE, 0, SIMULTANEOUS]
    assert steps[2][1] == [1, 1, None]


def test_play_is_reproducible_stops_and_caps() -> None:
    def run(seed: int) -> list[Any]:
        s = Tiny().new_initial_state()
        rng = random.Random(seed)
        driver.play(s, lambda st, p: rng.choice(st.legal_actions(p)), rng)
        return s.history()

    assert run(5) == run(5)
    s = Tiny().new_initial_state()
    assert driver.play(s, None, random.Random(1)) == "stopped"  # no chooser: chance only, up to a seat
    assert s.move_number() == 1 and s.current_player() == 0
    assert driver.play(s, lambda st, p: None, random.Random(1)) == "stopped" and s.move_number() == 1
    assert driver.play(s, lambda st, p: 0, random.Random(1), cap=2) == "capped" and s.move_number() == 2
    assert driver.next_entry(s, lambda st, p: 0, random.Random(1)) == [0, 0]


def test_play_draws_chance_from_a_function_too() -> None:
    s = Tiny().new_initial_state()
    driver.play(s, lambda st, p: 0, lambda st: 3)
    assert s.history()[0] == 3 and s.is_terminal()


def test_sample_chance_follows_the_probabilities() -> None:
    s = Tiny().new_initial_state()
    rng = random.Random(0)
    counts = {1: 0, 2: 0, 3: 0}
    for _ in range(3000):
        counts[driver.sample_chance(s, rng)] += 1
    assert all(900 < c < 1100 for c in counts.values())


# -- result text ------------------------------------------------------------


class Coop(Tiny):
    game_type = GameType(dynamics=Dynamics.SIMULTANEOUS, chance=Chance.EXPLICIT, utility=Utility.IDENTICAL)


@pytest.mark.parametrize(
    ("game", "returns", "viewer", "text"),
    [
        (Tiny(), [1, -1], 0, "You win!"),
        (Tiny(), [1, -1], 1, "You lose: Ann wins."),
        (Tiny(), [1, -1], None, "Ann wins."),
        (Tiny(), [-1, 1], None, "Bo wins."),
        (Tiny(), [0, 0], 0, "The game is a draw."),
        (Tiny(), [1, 1, -1], None, "Ann and Bo win."),
        (Tiny(), [1, 1, -1], 1, "You win, with Ann!"),
        (Tiny(), [-1, -1], None, "Nobody wins."),
        (Coop(), [1, 1], 0, "Everyone wins!"),
        (Coop(), [0, 0], None, "Everyone loses."),
        (Coop(), [-1, -1], 1, "Everyone loses."),
    ],
)
def test_result_text(game: Game, returns: list[float], viewer: int | None, text: str) -> None:
    names = ["Ann", "Bo", "Cy"][: len(returns)]
    assert driver.result_text(game, returns, names, viewer) == text


def test_result_text_of_a_solo_game() -> None:
    assert driver.result_text(Tiny(), [1.0], ["Ann"]) == "Everyone wins!"
    assert driver.result_text(Tiny(), [-1.0], ["Ann"], 0) == "Everyone loses."


# -- undo -------------------------------------------------------------------


def _blast(*moves: int) -> State:
    s = boardlab.make("blast-radius", board_side=5).new_initial_state()
    for a in moves:
        s.apply_action(a)
    return s


def test_undo_against_the_ai_takes_back_the_ai_reply_too() -> None:
    s = _blast(0, 60)
    assert driver.undo_point(s, 0, "ai", [0]) == 0
    assert driver.undo_point(_blast(), 0, "ai", [0]) is None
    assert driver.undo_refusal(_blast(), 0, "ai").startswith("Nothing to undo")


def test_hotseat_undo_takes_back_the_last_human_decision() -> None:
    s = _blast(0, 60)
    assert driver.undo_point(s, 0, "hotseat", [0, 1]) == 1
    assert driver.undo_point(s, 1, "hotseat", [0, 1]) == 1


def test_online_undo_only_within_your_own_turn() -> None:
    s = _blast(0)
    assert driver.undo_point(s, 0, "online", [0, 1]) is None  # seat 1 is to move now
    assert "own turn" in driver.undo_refusal(s, 0, "online")
    assert driver.undo_point(s, 1, "online", [0, 1]) is None  # nothing of seat 1's turn yet
    assert "no step of this turn" in driver.undo_refusal(s, 1, "online")


def test_undo_never_crosses_chance_or_a_simultaneous_reveal_nor_after_the_end() -> None:
    s = Tiny().new_initial_state()
    driver.apply_entry(s, 2)
    assert driver.undo_point(s, 0, "ai", [0]) is None  # only the chance deal lies behind
    driver.apply_entry(s, 1)
    assert driver.undo_point(s, 0, "ai", [0]) == 1 and driver.undo_point(s, 0, "online", [0, 1]) is None
    driver.apply_entry(s, [0, 0])
    assert s.current_player() == TERMINAL
    assert driver.undo_point(s, 0, "hotseat", [0, 1]) is None
    assert "over" in driver.undo_refusal(s, 0, "hotseat")
    assert driver.undo_point(_blast(0, 60), None, "hotseat", [0, 1]) is None  # a spectator never undoes
    with pytest.raises(ValueError, match="unknown mode"):
        driver.undo_point(s, 0, "lan", [0])


# -- import rules -----------------------------------------------------------


def test_core_play_reads_no_private_state() -> None:
    text = (SRC / "core" / "play.py").read_text(encoding="utf-8") + (SRC / "core" / "driver.py").read_text(
        encoding="utf-8"
    )
    assert "._history" not in text and "._actors" not in text


def test_no_optional_hook_is_found_by_getattr() -> None:
    """Optional hooks are declared with defaults on the base classes (``State.evaluate``), and packages are
    imported by name, not probed; the utility bounds come from the declared ``GameType``."""
    probed: set[str] = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr")
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
            ):
                probed.add(f"{path.relative_to(SRC)}: {node.args[1].value}")
    assert not probed, sorted(probed)
