"""The names the server gives seats nobody named: the game's colour for the seat, else "Player 1", "Player 2" …

Players read these names in the banner, the seat list, the log and the game's own words (where the game says
"seat 1", the table says "Player 2"); "Seat 0" is how a programmer counts, not a player.

>>> from boardlab.games import make_cached
>>> given_name(make_cached("cirque"), 1, "ai", "hard"), given_name(make_cached("hamlet"), 0, "human", None)
('Blue (hard AI)', 'Player 1')
"""

from __future__ import annotations

from typing import Any

from ..core.game import Game


def base_name(game: Game, seat: int) -> str:
    """The seat's name without its kind: the game's colour for it (capitalised), else ``Player N`` counted from 1."""
    names = game.seat_names
    if 0 <= seat < len(names) and names[seat]:
        colour = str(names[seat])
        return colour[:1].upper() + colour[1:]
    return f"Player {seat + 1}"


def given_name(game: Game, seat: int, kind: str, agent: str | None) -> str:
    """The name the server gives an unnamed seat: ``Red``, ``Player 2`` or, for an AI, ``Red (hard AI)``."""
    base = base_name(game, seat)
    return base if kind == "human" else f"{base} ({agent} AI)"


def is_given(name: Any, game: Game, seat: int, spec: dict[str, Any]) -> bool:
    """Whether ``name`` is one the server gave (now, or as tables stored before: ``Seat 0``, ``Seat 0 (random AI)``)."""
    if name in (None, ""):
        return True
    agent = spec.get("agent")
    old = f"Seat {seat}" if spec["kind"] == "human" else f"Seat {seat} ({agent} AI)"
    return name in (old, given_name(game, seat, spec["kind"], agent))
