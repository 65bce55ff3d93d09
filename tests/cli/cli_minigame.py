"""A tiny game with chance, hidden information and a simultaneous step, for front-end tests.

Not registered with ``boardlab.games()``: tests hand it to the front-end directly.
1. Chance deals seat 0 a secret card 1, 2 or 3 (seat 1 does not see it).
2. Seat 0 may "keep" or "peek" (a sequential decision that undo can take back).
3. Both seats choose "odd" or "even" at once (a simultaneous step).
4. Seat 0 wins when card + the number of "odd" choices is odd; otherwise seat 1 wins.
"""

from __future__ import annotations

import random
from typing import Any

from boardlab.core import scene as sc
from boardlab.core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from boardlab.core.game import Game, State
from boardlab.core.gametype import Chance, Dynamics, GameType, Information
from boardlab.core.hidden import Seen

CHOICES = ("odd", "even")
FIRST = ("keep", "peek")


class SecretGame(Game):
    id = "secret-test"
    title = "Secret (test game)"
    min_players = 2
    max_players = 2
    game_type = GameType(dynamics=Dynamics.SIMULTANEOUS, chance=Chance.EXPLICIT, information=Information.IMPERFECT)

    def num_distinct_actions(self) -> int:
        return 2

    def max_chance_outcomes(self) -> int:
        return 4

    def max_game_length(self) -> int:
        return 10

    def scene(self, observation: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
        s = sc.new_scene(observation["prompt"], (0, 0, 2, 1))
        s["cells"] = [sc.cell("left", (0.5, 0.5), label="L"), sc.cell("right", (1.5, 0.5), label="R")]
        card = observation["card"]
        s["zones"] = [
            sc.zone(
                "hand", "Seat 0's card", [sc.item("card", f"card {card}" if card else "?", face_down=not card)], owner=0
            )
        ]
        s["players"] = [sc.player(0, "seat 0"), sc.player(1, "seat 1")]
        s["status"] = [f"step {observation['step']}"]
        return sc.finish_scene(s, legal)


class SecretState(State):
    game: SecretGame

    def __init__(self, game: SecretGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.card = 0
        self.first: int | None = None
        self.choices: list[int | None] | None = None

    def current_player(self) -> int:
        if self.card == 0:
            return CHANCE
        if self.first is None:
            return 0
        if self.choices is None:
            return SIMULTANEOUS
        return TERMINAL

    def returns(self) -> list[float]:
        if self.choices is None:
            return [0.0, 0.0]
        odd = sum(1 for c in self.choices if c == 0)
        return [1.0, -1.0] if (self.card + odd) % 2 else [-1.0, 1.0]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(1, 1 / 3), (2, 1 / 3), (3, 1 / 3)]

    def _legal_actions(self, player: int) -> list[int]:
        cp = self.current_player()
        if (cp == 0 and player == 0) or cp == SIMULTANEOUS:
            return [0, 1]
        return []

    def _apply(self, action: int) -> None:
        if self.card == 0:
            self.card = action
        else:
            self.first = action

    def _apply_joint(self, actions: list[int | None]) -> None:
        self.choices = list(actions)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"card {action}"
        if self.first is None and self.card:
            return FIRST[action]
        return CHOICES[action]

    def _seen(self, actor: int, entry: Any) -> Seen | tuple[Seen | None, ...]:
        """Seat 0 alone sees its card dealt; everything else is public."""
        if actor == CHANCE:
            return Seen("dealt a card to seat 0", {0: f"card {entry} to seat 0"})
        return super()._seen(actor, entry)

    def observation(self, player: int | None = None) -> dict[str, Any]:
        shown = self.card if player == 0 or self.choices is not None else 0
        cp = self.current_player()
        if cp == TERMINAL:
            prompt = "Game over."
        elif cp == SIMULTANEOUS:
            prompt = "Choose odd or even, secretly."
        else:
            prompt = "Keep or peek."
        return {"card": shown, "step": len(self._history), "prompt": prompt}

    def resample(self, player: int | None, rng: random.Random) -> State:
        s = self.clone()
        if player != 0 and self.choices is None:
            s.card = rng.choice([1, 2, 3])
        return s


SecretGame.state_class = SecretState
