"""Special values returned by :meth:`State.current_player`.

They follow OpenSpiel's convention: seats are ``0, 1, …`` and the special
players are negative integers, so ``current_player() >= 0`` means "a seat must
decide now".
"""

from __future__ import annotations

#: Chance decides next: see :meth:`State.chance_outcomes`.
CHANCE: int = -1
#: Every seat with legal actions decides at once: see :meth:`State.apply_actions`.
SIMULTANEOUS: int = -2
#: The game is over: see :meth:`State.returns`.
TERMINAL: int = -4

PLAYER_NAMES = {CHANCE: "chance", SIMULTANEOUS: "simultaneous", TERMINAL: "terminal"}


def player_name(player: int | None) -> str:
    """``"seat 0"``, ``"chance"``, ``"spectator"`` (``None``) …"""
    if player is None:
        return "spectator"
    return PLAYER_NAMES.get(player, f"seat {player}")
