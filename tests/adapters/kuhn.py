"""Kuhn poker as a boardlab game, for the adapter's tests only (never registered in ``boardlab.games()``).

OpenSpiel ships the same game (``kuhn_poker``) with a known equilibrium value
(-1/18 for the first player), so CFR through the adapter can be checked against
it: that needs information-state strings that are exactly right. It also writes
an observation tensor, so the adapter's tensors are tested on a game of the
tests' own while the real games' tensors are written elsewhere.

Three cards (Jack, Queen, King); each seat antes 1 and is dealt one card that
only it sees; then pass (0) or bet (1): pass-pass and bet-bet go to a showdown
(1 or 2 won), a bet answered by a pass loses the ante to the bettor.
"""

from __future__ import annotations

from typing import Any

from boardlab.core.actions import ActionSpace, Segment
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.game import Game, State
from boardlab.core.gametype import Chance, GameType, Information
from boardlab.core.hidden import Seen
from boardlab.core.tensor import Tensor
from boardlab.games import _classes as registered

CARDS = ("Jack", "Queen", "King")
NAMES = ("Red", "Blue")


class KuhnGame(Game):
    id = "kuhn-for-tests"
    title = "Kuhn poker (tests)"
    summary = "Three cards, one each, pass or bet."
    game_type = GameType(chance=Chance.EXPLICIT, information=Information.IMPERFECT, min_utility=-2.0, max_utility=2.0)
    seat_names = NAMES

    def _setup(self) -> None:
        self.action_space = ActionSpace(Segment("move", (("move", ("pass", "bet")),), "{move}"))

    def max_chance_outcomes(self) -> int:
        return 3

    def max_game_length(self) -> int:
        return 5


class KuhnState(State):
    game: KuhnGame
    copied = ("cards", "moves")

    def __init__(self, game: KuhnGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.cards: list[int] = []
        self.moves: list[int] = []

    def current_player(self) -> int:
        if len(self.cards) < 2:
            return CHANCE
        m = self.moves
        if m in ([0, 0], [1, 0], [1, 1], [0, 1, 0], [0, 1, 1]):
            return TERMINAL
        return len(m) % 2

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        m = self.moves
        if m == [1, 0]:
            return [1.0, -1.0]
        if m == [0, 1, 0]:
            return [-1.0, 1.0]
        stake = 1.0 if m == [0, 0] else 2.0
        return [stake, -stake] if self.cards[0] > self.cards[1] else [-stake, stake]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        rest = [c for c in range(3) if c not in self.cards]
        return [(c, 1 / len(rest)) for c in rest]

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1]

    def _apply(self, action: int) -> None:
        (self.cards if len(self.cards) < 2 else self.moves).append(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return CARDS[action] if player == CHANCE else super()._action_to_string(player, action)

    def _seen(self, actor: int, entry: Any) -> Seen | tuple[Seen | None, ...]:
        if actor == CHANCE:
            seat = len(self.cards)
            return Seen(f"dealt a card to {NAMES[seat]}", {seat: f"dealt the {CARDS[entry]} to {NAMES[seat]}"})
        return super()._seen(actor, entry)

    def observation(self, player: int | None = None) -> dict[str, Any]:
        over = self.is_terminal()
        return {
            "card": self.cards[player] if player is not None and len(self.cards) > player else None,
            "moves": list(self.moves),
            "shown": list(self.cards) if over and self.moves not in ([1, 0], [0, 1, 0]) else None,
        }

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        t.one_hot("card", self.cards[player] if player is not None and len(self.cards) > player else None, 3)
        for k in range(3):
            t.one_hot(f"move {k + 1}", self.moves[k] if k < len(self.moves) else None, 2)


KuhnGame.state_class = KuhnState
registered[KuhnGame.id] = KuhnGame
