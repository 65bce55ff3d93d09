"""How a table may end a game its rules have not ended, as records keep it: resign, a draw agreed, an abort, a win
claimed from an away player, a loss on time.

These are platform events, not game actions: a state's history never holds them, so a record stays the game's id,
options, rules version and action history, with one ``meta["ended"]`` entry saying how the table ended it
(``{"how", "seat", "step", "returns"}``, ``"away"`` for a claim). :func:`check_ended` reads it back, and
:func:`ending_text` says it in players' words for logs, banners and replays (the server, ``boardlab replay``). The
rules of when each is allowed are the server's (:mod:`boardlab.server.endings`).

>>> import boardlab
>>> g = boardlab.make("blast-radius", board_side=5)
>>> loss_returns(g, 2, [0])
[-1.0, 1.0]
>>> ending_text(g, {"how": "resign", "seat": 0, "returns": [-1.0, 1.0]}, ["Blue", "Red"])
'Blue resigned. Red wins.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .constants import CHANCE, SIMULTANEOUS
from .driver import result_text
from .game import Game, State

HOWS = ("resign", "draw", "abort", "claim", "time")


def loss_returns(game: Game, num_players: int, losers: Sequence[int]) -> list[float]:
    """Returns when ``losers`` lose and the game stops: they -1, every other seat +1 (co-operative: everyone -1)."""
    if game.cooperative:
        return [-1.0] * num_players
    return [-1.0 if s in losers else 1.0 for s in range(num_players)]


def deciders(state: State) -> set[int]:
    """The seats that have made a decision so far (a simultaneous step counts for every seat in it)."""
    seats: set[int] = set()
    for actor, entry in zip(state.actors(), state.history()):
        if actor == SIMULTANEOUS and isinstance(entry, (list, tuple)):
            seats.update(s for s, a in enumerate(entry) if a is not None)
        elif actor != CHANCE and isinstance(actor, int) and actor >= 0:
            seats.add(actor)
    return seats


def abort_allowed(state: State) -> bool:
    """An abort is allowed until a second player has made a decision ("before the second move")."""
    return len(deciders(state)) <= 1


def _names(names: Sequence[str], seats: Sequence[int]) -> str:
    return " and ".join(names[s] for s in seats)


def ending_text(game: Game, ended: dict[str, Any], names: Sequence[str]) -> str:
    """How the table ended, for the log and the record, in players' words ("Blue resigned. Red wins.")."""
    how, seat, returns = ended.get("how"), ended.get("seat"), ended.get("returns")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "A player"
    if how == "abort":
        return f"{who} aborted the game. Nobody wins."
    result = result_text(game, returns, names, None) if returns is not None else ""
    if how == "resign":
        return f"{who} resigned. {result}"
    if how == "draw":
        return "The players agreed a draw."
    if how == "claim":
        away = ended.get("away") or []
        gone = _names(names, [s for s in away if isinstance(s, int) and 0 <= s < len(names)]) or "the other player"
        return f"{who} claimed the win: {gone} {'was' if len(away) <= 1 else 'were'} away. {result}"
    if how == "time":
        return f"{who} ran out of time. {result}"
    return result


def check_ended(meta: dict[str, Any], num_players: int, steps: int) -> dict[str, Any] | None:
    """A record's ``meta["ended"]`` if it is well formed for a record of ``steps`` entries, else ``None``."""
    ended = meta.get("ended")
    if not isinstance(ended, dict) or ended.get("how") not in HOWS:
        return None
    seat = ended.get("seat")
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < num_players):
        return None
    returns = ended.get("returns")
    if returns is not None and not (
        isinstance(returns, list)
        and len(returns) == num_players
        and all(isinstance(r, (int, float)) and not isinstance(r, bool) for r in returns)
    ):
        return None
    if (returns is None) != (ended["how"] == "abort") or ended.get("step", steps) != steps:
        return None
    away = ended.get("away")
    if away is not None and not (isinstance(away, list) and all(isinstance(s, int) for s in away)):
        return None
    return dict(ended)
