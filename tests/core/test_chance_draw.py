"""One chance draw: a number picks the same outcome in the driver, in ``State.play_random`` and in the default resample.

The three used to be three loops, two subtracting the probabilities from the number and one adding them up, and
they disagreed for a number exactly at a running total (nine equally likely faces, the number 2/3). The driver's
rule (running totals, added left to right) is the one server chance keys and old records depend on, so it is the
one kept.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.driver import pick_chance
from boardlab.core.game import Game, State
from boardlab.core.gametype import Chance, GameType, Information
from boardlab.core.hidden import Seen

FACES = 9  # ninths are not exact in binary: subtracting and adding up round differently


class HiddenDieGame(Game):
    """One roll of a nine-sided die that only Blue sees, then the end."""

    id = "hidden-die"
    title = "Hidden Die"
    game_type = GameType(chance=Chance.EXPLICIT, information=Information.IMPERFECT)

    def num_distinct_actions(self) -> int:
        return 1

    def max_chance_outcomes(self) -> int:
        return FACES

    def max_game_length(self) -> int:
        return 1


class HiddenDieState(State):
    copied = ()

    def __init__(self, game: Game, num_players: int) -> None:
        super().__init__(game, num_players)
        self.face = -1

    def current_player(self) -> int:
        return CHANCE if self.face < 0 else TERMINAL

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def _legal_actions(self, player: int) -> list[int]:
        return []

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(f, 1 / FACES) for f in range(FACES)]

    def _apply(self, action: int) -> None:
        self.face = action

    def _seen(self, actor: int, entry: Any) -> Seen:
        return Seen("rolled the die", {1: f"rolled a {entry + 1}"})

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {"face": self.face if player == 1 else None}


HiddenDieGame.state_class = HiddenDieState


class Fixed(random.Random):
    """A generator whose every number is ``x``."""

    def __init__(self, x: float) -> None:
        super().__init__(0)
        self.x = x

    def random(self) -> float:
        return self.x


def boundaries() -> list[float]:
    """Every running total of the faces' probabilities below 1, and the number just below each."""
    out, acc = [], 0.0
    for _ in range(FACES - 1):
        acc += 1 / FACES
        out += [acc, math.nextafter(acc, 0.0)]
    return out


def drawn_three_ways(x: float) -> tuple[int, int, int]:
    """The face ``x`` picks: by the driver, by ``State.play_random`` and by the default resample (viewer Red)."""
    game = HiddenDieGame()
    start = game.new_initial_state()
    by_driver = pick_chance(start, x)
    rolled = start.clone()
    rolled.play_random(lambda: x, 1)
    by_rollout = rolled.history()[0]
    seen = game.new_initial_state()
    seen.apply_action(0)
    by_resample = seen.resample(0, Fixed(x)).history()[0]
    return by_driver, by_rollout, by_resample


def test_nine_faces_at_two_thirds_pick_one_face_everywhere() -> None:
    assert 2 / 3 in boundaries()  # the running total of six ninths (or the number just below it) is 2/3
    assert len(set(drawn_three_ways(2 / 3))) == 1


@pytest.mark.parametrize("x", boundaries())
def test_every_path_picks_the_same_outcome_at_each_running_total(x: float) -> None:
    by_driver, by_rollout, by_resample = drawn_three_ways(x)
    assert by_driver == by_rollout == by_resample


def test_a_number_exactly_at_a_running_total_picks_the_outcome_that_starts_there() -> None:
    acc = 0.0
    for face in range(1, FACES):
        acc += 1 / FACES
        assert drawn_three_ways(acc) == (face, face, face)
