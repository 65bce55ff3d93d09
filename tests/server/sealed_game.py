"""A tiny game for the server tests only (not registered): chance, hidden cards, sealed bids, a two-step turn.

1. Chance deals each seat a secret card, 1-3 (seat 0's first).
2. Both seats bid at once, secretly: 0 = low (+0), 1 = high (+2). Bids are revealed together.
3. Seat 0 then takes a two-step turn: pick a token (2 = A, 3 = B), then confirm (4), which ends the game.
4. Highest card + bid wins; a tie is a draw.

It exists so the server's handling of chance, hidden information, simultaneous
choices and multi-step undo is tested independently of the real games.
"""

from __future__ import annotations

import random
from typing import Any

from boardlab.core import scene as sc
from boardlab.core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from boardlab.core.game import Game, State
from boardlab.core.gametype import Chance, Dynamics, GameType, Information
from boardlab.core.hidden import Seen
from boardlab.games import _classes

ID = "sealed-test"
LOW, HIGH, PICK_A, PICK_B, CONFIRM = 0, 1, 2, 3, 4
NAMES = {LOW: "bid low", HIGH: "bid high", PICK_A: "pick A", PICK_B: "pick B", CONFIRM: "confirm"}


class SealedGame(Game):
    id = ID
    title = "Sealed (test)"
    min_players = 2
    max_players = 2
    game_type = GameType(dynamics=Dynamics.SIMULTANEOUS, chance=Chance.EXPLICIT, information=Information.IMPERFECT)
    mechanics = ("test",)

    def num_distinct_actions(self) -> int:
        return 5

    def max_chance_outcomes(self) -> int:
        return 4

    def max_game_length(self) -> int:
        return 10

    def scene(self, observation: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
        s = sc.new_scene(observation["prompt"], (0, 0, 2, 1))
        s["cells"] = [sc.cell("left", (0.5, 0.5), [(0, 0), (1, 0), (1, 1), (0, 1)], label="left")]
        s["cells"].append(sc.cell("right", (1.5, 0.5), [(1, 0), (2, 0), (2, 1), (1, 1)], label="right"))
        cards = observation["cards"]
        s["zones"] = [
            sc.zone(
                f"hand{p}",
                f"seat {p}'s card",
                [sc.item(f"card{p}", str(cards[p]) if cards[p] else "card", face_down=not cards[p])],
                owner=p,
            )
            for p in (0, 1)
        ]
        for a, label in legal:
            if a in (LOW, HIGH):
                s["targets"].append({"at": "left" if a == LOW else "right", "action": a, "label": label})
        s["players"] = [sc.player(p, f"seat {p}") for p in (0, 1)]
        return sc.finish_scene(s, legal)


class SealedState(State):
    game: SealedGame

    def __init__(self, game: SealedGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.cards: list[int] = []
        self.bids: list[int] | None = None
        self.token: int | None = None
        self.done = False

    def current_player(self) -> int:
        if len(self.cards) < 2:
            return CHANCE
        if self.bids is None:
            return SIMULTANEOUS
        if not self.done:
            return 0
        return TERMINAL

    def returns(self) -> list[float]:
        if not self.done or self.bids is None:
            return [0.0, 0.0]
        a, b = self.cards[0] + 2 * self.bids[0], self.cards[1] + 2 * self.bids[1]
        return [0.0, 0.0] if a == b else ([1.0, -1.0] if a > b else [-1.0, 1.0])

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(1, 1 / 3), (2, 1 / 3), (3, 1 / 3)]

    def _legal_actions(self, player: int) -> list[int]:
        cp = self.current_player()
        if cp == SIMULTANEOUS:
            return [LOW, HIGH]
        if cp == 0 and player == 0:
            return [PICK_A, PICK_B] if self.token is None else [CONFIRM]
        return []

    def _apply(self, action: int) -> None:
        if len(self.cards) < 2:
            self.cards.append(action)
        elif action in (PICK_A, PICK_B):
            self.token = action
        else:
            self.done = True

    def _apply_joint(self, actions: list[int | None]) -> None:
        self.bids = [int(a or 0) for a in actions]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"card {action}"
        return NAMES.get(action, str(action))

    def _seen(self, actor: int, entry: Any) -> Seen | tuple[Seen | None, ...]:
        """A card is seen by the seat it is dealt to; the confirm that ends the game shows both."""
        if actor == CHANCE:
            p = len(self.cards)
            return Seen(f"a card face down to seat {p}", {p: f"card {entry} to seat {p}"})
        if actor == 0 and entry == CONFIRM:
            return Seen(f"confirm; the cards were {self.cards[0]} and {self.cards[1]}")
        return super()._seen(actor, entry)

    def observation(self, player: int | None = None) -> dict[str, Any]:
        cards = [c if (player == p or self.done) else 0 for p, c in enumerate(self.cards)] + [0] * (2 - len(self.cards))
        if self.done:
            prompt = "Game over."
        elif self.bids is None:
            prompt = "Bid low or high, secretly."
        else:
            prompt = "Seat 0: pick a token, then confirm."
        return {"cards": cards, "bids": self.bids, "token": self.token, "done": self.done, "prompt": prompt}

    def resample(self, player: int | None, rng: random.Random) -> State:
        s = self.clone()
        for p in range(len(s.cards)):
            if p != player:
                s.cards[p] = rng.choice([1, 2, 3])
        return s


SealedGame.state_class = SealedState


def register() -> None:
    """Make ``boardlab.make("sealed-test")`` work in this process (tests only)."""
    _classes[ID] = SealedGame
