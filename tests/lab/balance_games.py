"""Tiny games whose balance is known, registered for tests only (``boardlab.make`` finds them; ``games()`` does not).

* ``test-coin``: the first player says "go", then a fair coin decides who wins: first-mover rate 0.5, all luck.
* ``test-forced``: two moves each; whatever anyone does, the first player wins: first-mover rate 1.0.
* ``test-nim``: three stones, take one or two, taking the last wins: the second player wins with good play;
  random play gives the first player 1/4 (take 1, then the opponent takes 1 of the 2, half of the time each).
* ``test-dice``: a die is rolled and ignored, then both pick 0-2 in turn; the higher pick wins: no luck at all.
* ``test-guess``: each seat is dealt a hidden bit and guesses the other's; a right guess scores a point and the
  higher score wins. Seeing everything, an agent always guesses right: against itself without, it wins half
  its games and draws the rest, a score of 0.75.
"""

from __future__ import annotations

import random
from typing import Any

from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.game import Game, State
from boardlab.core.gametype import Chance, GameType, Information
from boardlab.games import _classes as registered


class _Game(Game):
    min_players = max_players = 2
    mechanics = ("test",)
    playing_time = "1 min"

    def num_distinct_actions(self) -> int:
        return 3

    def max_chance_outcomes(self) -> int:
        return 6

    def max_game_length(self) -> int:
        return 8

    def scene(self, observation: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
        return {}


class _State(State):
    def __init__(self, game: Game, num_players: int) -> None:
        super().__init__(game, num_players)
        self.moves: list[int] = []

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {"moves": list(self.moves)}

    def _apply(self, action: int) -> None:
        self.moves.append(action)


class CoinGame(_Game):
    id = "test-coin"
    title = "Coin (test game)"
    game_type = GameType(chance=Chance.EXPLICIT)


class CoinState(_State):
    def current_player(self) -> int:
        return (0, CHANCE, TERMINAL)[min(2, len(self.moves))]

    def _legal_actions(self, player: int) -> list[int]:
        return [0]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.5), (1, 0.5)]

    def returns(self) -> list[float]:
        if len(self.moves) < 2:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.moves[1] == 0 else [-1.0, 1.0]


CoinGame.state_class = CoinState


class ForcedGame(_Game):
    id = "test-forced"
    title = "Forced (test game)"


class ForcedState(_State):
    def current_player(self) -> int:
        return len(self.moves) if len(self.moves) < 2 else TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1]

    def returns(self) -> list[float]:
        return [1.0, -1.0] if self.is_terminal() else [0.0, 0.0]


ForcedGame.state_class = ForcedState


class NimGame(_Game):
    id = "test-nim"
    title = "Nim of three (test game)"


class NimState(_State):
    def current_player(self) -> int:
        return TERMINAL if sum(m + 1 for m in self.moves) >= 3 else len(self.moves) % 2

    def _legal_actions(self, player: int) -> list[int]:
        left = 3 - sum(m + 1 for m in self.moves)
        return [0, 1] if left >= 2 else [0]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        last = (len(self.moves) - 1) % 2
        return [1.0, -1.0] if last == 0 else [-1.0, 1.0]


NimGame.state_class = NimState


class DiceGame(_Game):
    id = "test-dice"
    title = "Ignored die (test game)"
    game_type = GameType(chance=Chance.EXPLICIT)


class DiceState(_State):
    def current_player(self) -> int:
        return (CHANCE, 0, 1, TERMINAL)[min(3, len(self.moves))]

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1, 2]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(k, 1 / 6) for k in range(6)]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        a, b = self.moves[1], self.moves[2]
        return [0.0, 0.0] if a == b else [1.0, -1.0] if a > b else [-1.0, 1.0]


DiceGame.state_class = DiceState


class GuessGame(_Game):
    id = "test-guess"
    title = "Guess (test game)"
    game_type = GameType(chance=Chance.EXPLICIT, information=Information.IMPERFECT)


class GuessState(_State):
    def current_player(self) -> int:
        return (CHANCE, CHANCE, 0, 1, TERMINAL)[min(4, len(self.moves))]

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.5), (1, 0.5)]

    def score(self, seat: int) -> int:
        return int(len(self.moves) > 2 + seat and self.moves[2 + seat] == self.moves[1 - seat])

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        a, b = self.score(0), self.score(1)
        return [0.0, 0.0] if a == b else [1.0, -1.0] if a > b else [-1.0, 1.0]

    def observation(self, player: int | None = None) -> dict[str, Any]:
        bits = [self.moves[p] if p == player and len(self.moves) > p else None for p in range(2)]
        return {"bits": bits, "guesses": self.moves[2:]}

    def resample(self, player: int | None, rng: random.Random) -> State:
        """Redraw the bit ``player`` has not seen."""
        moves = list(self.moves)
        for p in range(min(2, len(moves))):
            if p != player:
                moves[p] = rng.randrange(2)
        return self.game.state_from_history(moves)


GuessGame.state_class = GuessState

for _cls in (CoinGame, ForcedGame, NimGame, DiceGame, GuessGame):
    registered[_cls.id] = _cls
