"""Ending a game besides its rules: resign, a draw agreed, an abort, a win claimed from an away player, time.

These are platform events, not game actions: the engine's history never holds them, so a record stays the game's
id, options, rules version and action history, with one ``meta["ended"]`` entry saying how the table ended it
(:mod:`boardlab.core.endings`: its words and its check, which ``boardlab replay`` shares). Everything here is a pure
function of the game and the table's facts; the platform (:mod:`boardlab.server.tables`) stores the result through
its one ending path, ``Platform._end`` (:mod:`boardlab.server.tables.endings`).

Our rules (README, "Ending a game fairly"):

* **Resign**: the resigning player loses and the game ends; every other player wins (with three or four players the
  others share the win: the game cannot go on without a seat). In a co-operative game everyone loses.
* **Draw**: where the game's result can be a tie (:func:`draws_possible`) and every seat is human (an AI does not
  agree to draws), a player offers; every other player must accept; anyone may decline (the offerer withdraws so).
  A move by another player declines it too.
* **Abort**: until a second player has made a decision (chance and the first player's moves do not count), any
  player may abort: no result, nobody wins, and the table shows "aborted".
* **Claim**: online, without a days-per-move clock, a player may claim the win once another player has been away (no
  page open at the table, no move) for longer than the grace period: every player away that long loses, the others
  win together.
* **Time**: a turn clock ran out and the game had no default move (:mod:`boardlab.server.clock`).
"""

from __future__ import annotations

from functools import lru_cache

from ..core.endings import HOWS, abort_allowed, check_ended, deciders, ending_text, loss_returns
from ..core.game import Game

__all__ = ["HOWS", "abort_allowed", "check_ended", "deciders", "draws_possible", "ending_text", "loss_returns"]


@lru_cache(maxsize=256)
def _measured(game_id: str) -> bool:
    from ..docs import measured_draws

    try:
        return bool(measured_draws(game_id))
    except Exception:  # no report installed: no draws claimed
        return False


def draws_possible(game: Game) -> bool:
    """Whether ``game`` can end in a tie: its own declaration (``Game.draws``), else its measured results.

    >>> import boardlab
    >>> draws_possible(boardlab.make("cirque")), draws_possible(boardlab.make("blast-radius"))
    (True, False)
    """
    if game.cooperative:
        return False
    if game.draws is not None:
        return bool(game.draws)
    return _measured(game.id)
