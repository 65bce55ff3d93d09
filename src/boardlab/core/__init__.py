"""The core: the game protocol, options, errors, records, scenes and drivers."""

from .actions import ActionSpace, Segment
from .constants import CHANCE, SIMULTANEOUS, TERMINAL, player_name
from .errors import IllegalActionError, OutOfTurnError, UnknownActionString
from .game import Game, State
from .gametype import GameType
from .options import Option
from .record import GameRecord, outcome
from .tensor import Tensor
from .view import SeatView

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "ActionSpace",
    "Game",
    "GameRecord",
    "GameType",
    "IllegalActionError",
    "Option",
    "OutOfTurnError",
    "SeatView",
    "Segment",
    "State",
    "Tensor",
    "UnknownActionString",
    "outcome",
    "player_name",
]
