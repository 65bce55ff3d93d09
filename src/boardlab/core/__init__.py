"""The core: the game protocol, options, errors, records, scenes and drivers."""

from .constants import CHANCE, SIMULTANEOUS, TERMINAL, player_name
from .errors import IllegalActionError, OutOfTurnError, UnknownActionString
from .game import Game, State
from .options import Option
from .record import GameRecord, outcome
from .view import SeatView

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "Option",
    "OutOfTurnError",
    "SeatView",
    "State",
    "UnknownActionString",
    "outcome",
    "player_name",
]
