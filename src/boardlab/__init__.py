"""boardlab: small board and card games on one rules core, with AI, a browser and a designer's lab.

>>> import boardlab
>>> "blast-radius" in boardlab.games()
True
>>> game = boardlab.make("blast-radius", board_side=5)
>>> state = game.new_initial_state()
>>> state.current_player() == 0
True
"""

from .core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Game,
    GameRecord,
    IllegalActionError,
    Option,
    OutOfTurnError,
    SeatView,
    State,
)
from .games import games, make

__version__ = "0.1.0"

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
    "games",
    "make",
]
