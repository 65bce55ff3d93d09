"""Two hands of Kuhn poker as one boardlab game, for the exact-analysis tests only (never in ``boardlab.games()``).

A small game with a public boundary: after the first hand both cards are
shown, and the second hand is dealt from a fresh deck of three; the loser of
the first hand bets first in the second. The winner is the seat ahead in chips
after both hands (a tie is a draw), so the second hand's stakes depend on the
first hand's result, and backward induction over the position after hand 1
(the chips and who bets first) must give the same value and best responses as
solving the whole game at once.
"""

from __future__ import annotations

from typing import Any

from boardlab.core.actions import ActionSpace, Segment
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.game import Game, State
from boardlab.core.gametype import Chance, GameType, Information
from boardlab.core.hidden import Seen
from boardlab.games import _classes as registered

CARDS = ("Jack", "Queen", "King")
NAMES = ("Red", "Blue")
#: The betting lines that end a hand, from the first bettor's side: the chips it wins (None: a showdown).
ENDS: dict[tuple[int, ...], int | None] = {(0, 0): None, (1, 0): 1, (1, 1): None, (0, 1, 0): -1, (0, 1, 1): None}
STAKES = {(0, 0): 1, (1, 1): 2, (0, 1, 1): 2}


class TwoHandsGame(Game):
    id = "two-hands-for-tests"
    title = "Two hands of Kuhn poker (tests)"
    summary = "Two hands of three-card poker; more chips after both wins."
    game_type = GameType(chance=Chance.EXPLICIT, information=Information.IMPERFECT)
    seat_names = NAMES

    def _setup(self) -> None:
        self.action_space = ActionSpace(Segment("move", (("move", ("pass", "bet")),), "{move}"))

    def max_chance_outcomes(self) -> int:
        return 3

    def max_game_length(self) -> int:
        return 10


class TwoHandsState(State):
    game: TwoHandsGame
    copied = ("cards", "moves", "shown")

    def __init__(self, game: TwoHandsGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.hand = 0
        self.first = 0  # who bets first in this hand
        self.cards: list[int] = []  # this hand's cards, the first bettor's first
        self.moves: list[int] = []
        self.chips = 0  # Red's chips won so far
        self.shown: list[list[int]] = []  # earlier hands' cards by seat (public)

    def current_player(self) -> int:
        if self.hand == 2:
            return TERMINAL
        if len(self.cards) < 2:
            return CHANCE
        return self.first if len(self.moves) % 2 == 0 else 1 - self.first

    def returns(self) -> list[float]:
        if self.hand < 2:
            return [0.0, 0.0]
        lead = (self.chips > 0) - (self.chips < 0)
        return [float(lead), float(-lead)]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        rest = [c for c in range(3) if c not in self.cards]
        return [(c, 1 / len(rest)) for c in rest]

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1]

    def _apply(self, action: int) -> None:
        if len(self.cards) < 2:
            self.cards.append(action)
            return
        self.moves.append(action)
        line = tuple(self.moves)
        if line not in ENDS:
            return
        won = ENDS[line]
        if won is None:
            won = STAKES[line] if self.cards[0] > self.cards[1] else -STAKES[line]
        self.chips += won if self.first == 0 else -won
        by_seat = self.cards if self.first == 0 else self.cards[::-1]
        self.shown.append(list(by_seat))
        loser = 1 - self.first if won > 0 else self.first
        self.hand += 1
        self.first, self.cards, self.moves = loser, [], []

    def _action_to_string(self, player: int, action: int) -> str:
        return CARDS[action] if player == CHANCE else super()._action_to_string(player, action)

    def _seen(self, actor: int, entry: Any) -> Seen | tuple[Seen | None, ...]:
        if actor == CHANCE:
            seat = self.first if not self.cards else 1 - self.first
            return Seen(f"dealt a card to {NAMES[seat]}", {seat: f"dealt the {CARDS[entry]} to {NAMES[seat]}"})
        return super()._seen(actor, entry)

    def observation(self, player: int | None = None) -> dict[str, Any]:
        mine = None
        if player is not None and self.hand < 2:
            k = 0 if player == self.first else 1
            mine = self.cards[k] if len(self.cards) > k else None
        return {
            "hand": self.hand,
            "first": self.first,
            "card": mine,
            "moves": list(self.moves),
            "chips": self.chips,
            "shown": [list(s) for s in self.shown],
        }


def position(state: State) -> tuple[int, int, int] | None:
    """The public position at the start of the second hand: (hand, who bets first, Red's chips)."""
    s = state
    if isinstance(s, TwoHandsState) and s.hand == 1 and not s.cards:
        return (s.hand, s.first, s.chips)
    return None


TwoHandsGame.state_class = TwoHandsState
registered[TwoHandsGame.id] = TwoHandsGame
