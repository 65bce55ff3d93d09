"""Tiny games whose best moves are known, to test search on every kind of node.

* :class:`KuhnGame`: three-card Kuhn poker: chance deals, hidden cards, bets.
* :class:`LotteryGame`: one seat picks a ticket, chance decides (perfect information with chance).
* :class:`DuelGame`: simultaneous picks where one pick dominates, then a sequential reply.
* :class:`TeamGame`: co-operative, two seats: the shared prize needs both to pick 2.
* :class:`ThreeWayGame`: three seats; each seat's return depends on its own pick only.
* :func:`tree_game`: a two-seat zero-sum game given as its tree (for positions the solver can prove).
* :class:`BlindGuessGame`: a safe half point, or a coin nobody sees and a guess at it.
"""

from __future__ import annotations

import random
from typing import Any

from boardlab.core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from boardlab.core.game import Game, State
from boardlab.core.gametype import Chance, Dynamics, GameType, Information, Utility
from boardlab.core.hidden import Seen


class _Game(Game):
    mechanics = ("test",)
    playing_time = "1 min"

    def scene(self, observation: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
        return {}


class KuhnGame(_Game):
    """Cards 0 < 1 < 2. Actions: 0 pass/fold, 1 bet/call. Ante 1, bet 1."""

    id = "test-kuhn"
    mechanics = ("cards", "betting")
    game_type = GameType(chance=Chance.EXPLICIT, information=Information.IMPERFECT, min_utility=-2, max_utility=2)

    def num_distinct_actions(self) -> int:
        return 2

    def max_chance_outcomes(self) -> int:
        return 3

    def max_game_length(self) -> int:
        return 5


class KuhnState(State):
    def __init__(self, game: Game, num_players: int) -> None:
        super().__init__(game, num_players)
        self.cards: list[int] = []
        self.bets: list[int] = []

    def current_player(self) -> int:
        if len(self.cards) < 2:
            return CHANCE
        b = self.bets
        if (len(b) == 2 and b != [0, 1]) or len(b) == 3:
            return TERMINAL
        return len(b) % 2

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        left = [c for c in (0, 1, 2) if c not in self.cards]
        return [(c, 1 / len(left)) for c in left]

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1]

    def _apply(self, action: int) -> None:
        if len(self.cards) < 2:
            self.cards.append(action)
        else:
            self.bets.append(action)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        b = self.bets
        if b == [0, 0]:
            pot = 1
        elif b in ([1, 0], [0, 1, 0]):  # the other folded
            winner = 0 if b == [1, 0] else 1
            return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]
        else:
            pot = 2
        return [float(pot), -float(pot)] if self.cards[0] > self.cards[1] else [-float(pot), float(pot)]

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {
            "card": self.cards[player] if player is not None and len(self.cards) > player else None,
            "bets": self.bets,
        }

    def resample(self, player: int | None, rng: random.Random) -> State:
        """Redraw every card ``player`` has not seen, from the cards it has not seen (in sorted order)."""
        mine = self.cards[player] if player is not None and player < len(self.cards) else None
        pool = sorted(c for c in (0, 1, 2) if c != mine)
        rng.shuffle(pool)
        cards = [mine if i == player else pool.pop() for i in range(len(self.cards))]
        return self.game.state_from_history([*cards, *self.bets])


KuhnGame.state_class = KuhnState


class LotteryGame(_Game):
    """Ticket 0 wins 30% of draws, ticket 1 wins 90%."""

    id = "test-lottery"
    min_players = max_players = 1
    game_type = GameType(chance=Chance.EXPLICIT, utility=Utility.GENERAL_SUM)

    def num_distinct_actions(self) -> int:
        return 2

    def max_chance_outcomes(self) -> int:
        return 10

    def max_game_length(self) -> int:
        return 2


class LotteryState(State):
    def __init__(self, game: Game, num_players: int) -> None:
        super().__init__(game, num_players)
        self.ticket = -1
        self.draw = -1

    def current_player(self) -> int:
        return 0 if self.ticket < 0 else CHANCE if self.draw < 0 else TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, 0.1) for i in range(10)]

    def _apply(self, action: int) -> None:
        if self.ticket < 0:
            self.ticket = action
        else:
            self.draw = action

    def returns(self) -> list[float]:
        if self.draw < 0:
            return [0.0]
        return [1.0 if self.draw < (3 if self.ticket == 0 else 9) else -1.0]

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {"ticket": self.ticket, "draw": self.draw}


LotteryGame.state_class = LotteryState


class DuelGame(_Game):
    """Both pick 0-2 at once; the higher pick wins, but seat 1 may then steal a tie with action 1."""

    id = "test-duel"
    game_type = GameType(dynamics=Dynamics.SIMULTANEOUS)  # picks are simultaneous, but nothing stays hidden

    def num_distinct_actions(self) -> int:
        return 3

    def max_game_length(self) -> int:
        return 2


class DuelState(State):
    def __init__(self, game: Game, num_players: int) -> None:
        super().__init__(game, num_players)
        self.picks: list[int | None] = []
        self.steal = -1

    def current_player(self) -> int:
        if not self.picks:
            return SIMULTANEOUS
        if self.picks[0] == self.picks[1] and self.steal < 0:
            return 1
        return TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1, 2] if not self.picks else [0, 1]

    def _apply_joint(self, actions: list[int | None]) -> None:
        self.picks = list(actions)

    def _apply(self, action: int) -> None:
        self.steal = action

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        a, b = self.picks
        assert a is not None and b is not None
        if a == b:
            return [-1.0, 1.0] if self.steal == 1 else [0.0, 0.0]
        return [1.0, -1.0] if a > b else [-1.0, 1.0]

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {"picks": self.picks, "steal": self.steal}


DuelGame.state_class = DuelState


class TeamGame(_Game):
    """Co-operative: seat 0 then seat 1 pick 0-2; both win (+1) only if both picked 2, else both get 0."""

    id = "test-team"
    game_type = GameType(utility=Utility.IDENTICAL, min_utility=0)

    def num_distinct_actions(self) -> int:
        return 3

    def max_game_length(self) -> int:
        return 2


class TeamState(State):
    def __init__(self, game: Game, num_players: int) -> None:
        super().__init__(game, num_players)
        self.picks: list[int] = []

    def current_player(self) -> int:
        return len(self.picks) if len(self.picks) < 2 else TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1, 2]

    def _apply(self, action: int) -> None:
        self.picks.append(action)

    def returns(self) -> list[float]:
        won = self.picks == [2, 2]
        return [1.0, 1.0] if won else [0.0, 0.0]

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {"picks": self.picks}


TeamGame.state_class = TeamState


class ThreeWayGame(_Game):
    """Three seats in turn pick 0-3; each seat's return is its own pick, minus 1 if the next seat picks 3."""

    id = "test-three"
    min_players = max_players = 3
    game_type = GameType(utility=Utility.GENERAL_SUM, max_utility=3)

    def num_distinct_actions(self) -> int:
        return 4

    def max_game_length(self) -> int:
        return 3


class ThreeWayState(State):
    def __init__(self, game: Game, num_players: int) -> None:
        super().__init__(game, num_players)
        self.picks: list[int] = []

    def current_player(self) -> int:
        return len(self.picks) if len(self.picks) < 3 else TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1, 2, 3]

    def _apply(self, action: int) -> None:
        self.picks.append(action)

    def returns(self) -> list[float]:
        if len(self.picks) < 3:
            return [0.0, 0.0, 0.0]
        return [self.picks[i] - (1.0 if self.picks[(i + 1) % 3] == 3 else 0.0) for i in range(3)]

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {"picks": self.picks}


ThreeWayGame.state_class = ThreeWayState


#: A game tree: a float is an end of the game (seat 0's return; seat 1 gets its negation), a pair
#: ``(seat, (child, ...))`` a decision of ``seat`` whose actions are the children's indices.
Tree = float | tuple[int, tuple[Any, ...]]


class TreeGame(_Game):
    """Two seats, zero-sum, perfect information, no chance: the game is the tree :attr:`tree`."""

    id = "test-tree"
    game_type = GameType()
    tree: Tree = 0.0

    def num_distinct_actions(self) -> int:
        return _width(self.tree)

    def max_game_length(self) -> int:
        return _depth(self.tree)


def _width(t: Tree) -> int:
    return 0 if isinstance(t, float) else max(len(t[1]), *(_width(c) for c in t[1]))


def _depth(t: Tree) -> int:
    return 0 if isinstance(t, float) else 1 + max(_depth(c) for c in t[1])


class TreeState(State):
    def __init__(self, game: Game, num_players: int) -> None:
        super().__init__(game, num_players)
        self.node: Tree = game.tree  # type: ignore[attr-defined]
        self.path: list[int] = []

    def current_player(self) -> int:
        return TERMINAL if isinstance(self.node, float) else self.node[0]

    def _legal_actions(self, player: int) -> list[int]:
        assert not isinstance(self.node, float)
        return list(range(len(self.node[1])))

    def _apply(self, action: int) -> None:
        assert not isinstance(self.node, float)
        self.node = self.node[1][action]
        self.path.append(action)

    def returns(self) -> list[float]:
        v = self.node if isinstance(self.node, float) else 0.0
        return [v, -v]

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {"path": self.path}


TreeGame.state_class = TreeState


def tree_game(tree: Tree) -> TreeGame:
    """A :class:`TreeGame` whose tree is ``tree``."""
    game = TreeGame()
    game.tree = tree
    return game


class BlindGuessGame(_Game):
    """Seat 0 takes a safe ½ (action 0) or has a coin tossed face down (action 1) and guesses it: +1 or -1.

    Nobody sees the coin before the end, so the guess is worth 0: the safe ½ is the better move. A search
    whose tree let the guess depend on the coin would value the toss at +1.
    """

    id = "test-blind-guess"
    min_players = max_players = 1
    game_type = GameType(chance=Chance.EXPLICIT, information=Information.IMPERFECT, utility=Utility.GENERAL_SUM)

    def num_distinct_actions(self) -> int:
        return 2

    def max_chance_outcomes(self) -> int:
        return 2

    def max_game_length(self) -> int:
        return 3


class BlindGuessState(State):
    def __init__(self, game: Game, num_players: int) -> None:
        super().__init__(game, num_players)
        self.moves: list[int] = []

    def current_player(self) -> int:
        m = self.moves
        if not m:
            return 0
        if m[0] == 0 or len(m) == 3:
            return TERMINAL
        return CHANCE if len(m) == 1 else 0

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.5), (1, 0.5)]

    def _apply(self, action: int) -> None:
        self.moves.append(action)

    def _seen(self, actor: int, entry: int | tuple[int | None, ...]) -> Seen | tuple[Seen | None, ...]:
        if len(self.moves) == 1:  # the coin: nobody sees it
            return Seen("tossed the coin face down", {})
        return super()._seen(actor, entry)

    def returns(self) -> list[float]:
        m = self.moves
        if m == [0]:
            return [0.5]
        if len(m) < 3:
            return [0.0]
        return [1.0 if m[1] == m[2] else -1.0]

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {"moves": self.moves[:1] + self.moves[2:]}


BlindGuessGame.state_class = BlindGuessState
