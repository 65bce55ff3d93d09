"""A tiny test game whose scene shows every kind of item the scene offers, for the front-end tests.

Not registered with ``boardlab.games()``: the tests hand its scenes to the renderers directly.

1. Chance rolls a die (1-6), seen by everyone.
2. Red holds three cards (seven of hearts, queen of spades, a T tetromino card worth 4), face up
   for Red and face down (Red's backs) for everyone else; Red plays one of them.
3. Red scores the die plus the card; 10 or more wins, otherwise Blue wins.

The board is a 3×3 square grid: Red's scout stands face up on b1, Blue's two sentries stand face
down on a3 and c3 (Blue sees their ranks, nobody else does), like a game of hidden ranks. The
discard pile holds a fence card (a picture of strokes); a star token carries a symbol.
"""

from __future__ import annotations

import random
from typing import Any

from boardlab.core import scene as sc
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.game import Game, State
from boardlab.core.gametype import Chance, GameType, Information
from boardlab.geometry import SquareGrid

GRID = SquareGrid(3, 3)
#: Red's hand: ``(label, value, suit, points, picture)``.
CARDS = (
    ("seven of hearts", 7, "hearts", 7, None),
    ("queen of spades", "Q", "spades", 3, None),
    ("T tetromino", 4, None, 4, sc.picture((3, 2), cells=[(0, 0), (1, 0), (2, 0), (1, 1)], colour="seat2")),
)
SENTRIES = (("a3", 8), ("c3", 3))
FENCE = sc.picture(
    (3, 2), strokes=[[(0, 0.4), (3, 0.4)], [(0, 1.4), (3, 1.4)], [(0.5, 0), (0.5, 2)], [(2.5, 0), (2.5, 2)]]
)
STAR = sc.picture(
    (2, 2),
    strokes=[
        [
            (1, 0),
            (1.3, 0.7),
            (2, 0.8),
            (1.4, 1.2),
            (1.6, 2),
            (1, 1.5),
            (0.4, 2),
            (0.6, 1.2),
            (0, 0.8),
            (0.7, 0.7),
            (1, 0),
        ]
    ],
)
NAMES = ("Red", "Blue")


class SceneDemoGame(Game):
    id = "scene-demo"
    title = "Scene demo (test game)"
    min_players = 2
    max_players = 2
    game_type = GameType(chance=Chance.EXPLICIT, information=Information.IMPERFECT)
    mechanics = ("test",)
    playing_time = "1 min"

    def num_distinct_actions(self) -> int:
        return len(CARDS)

    def max_chance_outcomes(self) -> int:
        return 7

    def max_game_length(self) -> int:
        return 2

    def scene(self, observation: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
        return demo_scene(observation, legal)


class SceneDemoState(State):
    game: SceneDemoGame

    def __init__(self, game: SceneDemoGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.die = 0
        self.played: int | None = None

    def current_player(self) -> int:
        if self.die == 0:
            return CHANCE
        return 0 if self.played is None else TERMINAL

    def returns(self) -> list[float]:
        if self.played is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.die + CARDS[self.played][3] >= 10 else [-1.0, 1.0]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(k, 1 / 6) for k in range(1, 7)]

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1, 2] if player == 0 and self.current_player() == 0 else []

    def _apply(self, action: int) -> None:
        if self.die == 0:
            self.die = action
        else:
            self.played = action

    def _action_to_string(self, player: int, action: int) -> str:
        return f"roll {action}" if player == CHANCE else f"play the {CARDS[action][0]}"

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {"viewer": player, "die": self.die, "played": self.played, "terminal": self.is_terminal()}

    def resample(self, player: int | None, rng: random.Random) -> State:
        return self.clone()  # Blue's ranks and Red's cards are fixed by the rules, nothing to redraw


SceneDemoGame.state_class = SceneDemoState


def demo_scene(obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    viewer = obs["viewer"]
    prompt = "Play a card." if legal else "Game over." if obs["terminal"] else "Red plays a card."
    s = sc.new_scene(prompt, (-0.3, -0.3, 3.6, 3.6))
    s["cells"] = GRID.scene_cells(fill=GRID.chess_fill)
    s["pieces"].append(sc.piece("b1", 0, "scout", label="5"))
    for at, rank in SENTRIES:
        hidden = viewer != 1
        s["pieces"].append(sc.piece(at, 1, "sentry", label=None if hidden else str(rank), face_down=hidden))
    dice = [sc.item("die", f"rolled {obs['die']}", "die", value=obs["die"])] if obs["die"] else []
    s["zones"].append(sc.zone("dice", "Die", dice))
    hand = []
    for k, (label, value, suit, _, pic) in enumerate(CARDS):
        if k == obs["played"]:
            continue
        if viewer == 0 or obs["terminal"]:
            hand.append(sc.item(f"card{k}", label, value=value, suit=suit, picture=pic))
        else:
            hand.append(sc.item(f"card{k}", "a card", face_down=True))
    s["zones"].append(sc.zone("hand", "Red's hand", hand, owner=0))
    pile = [
        sc.item("fence", "fence", value=2, picture=FENCE, colour="#6b4f2a"),
        sc.item("star", "star", "token", picture=STAR),
    ]
    if obs["played"] is not None:
        label, value, suit, _, pic = CARDS[obs["played"]]
        pile.append(sc.item(f"card{obs['played']}", label, value=value, suit=suit, picture=pic))
    s["zones"].append(sc.zone("pile", "Discard pile", pile))
    s["targets"] = [{"at": f"card{a}", "action": a, "label": text} for a, text in legal]
    s["players"] = [sc.player(k, NAMES[k] + (" (you)" if k == viewer else "")) for k in (0, 1)]
    s["status"] = [f"Die: {obs['die']}" if obs["die"] else "Die not rolled yet"]
    return sc.finish_scene(s, legal)
