"""Where a table's chance comes from: a secret per-table key, or (only where allowed) a client's seed.

A new table gets a random 256-bit *chance key* (:func:`new_key`), kept in the
database and never sent to a client while the game is on. The chance outcome
at history index ``n`` is drawn from ``HMAC-SHA256(key, "chance:n")`` read as a
uniform number in [0, 1) (:func:`keyed_uniform`), so it depends only on the key
and the move number: a restart, a reload or an undo reproduces it exactly, and
nobody who does not know the key can predict it. The finished game's record
carries the key in ``meta`` (``chance_key``), and :func:`check_chance` shows that
every chance entry of the record is the one the key gives.

A client-chosen seed (the older scheme, ``random.Random(f"chance:{seed}:{n}")``)
is kept for tables created with one (where the API allows it: every seat agrees,
:func:`~boardlab.server.tables.creating.seed_refusal`) and for tables stored before chance
keys existed; such a table says so to everyone (``seeded``, :data:`SEEDED_NOTICE`).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets

from ..core.constants import CHANCE
from ..core.driver import apply_entry, pick_chance
from ..core.game import Game, HistoryEntry, State

#: How a record's ``meta.chance`` names the keyed scheme.
SCHEME = "hmac-sha256"

#: What every seat and spectator of a table whose chance comes from a seed is told (the view's ``seed_notice``).
SEEDED_NOTICE = (
    "This table is seeded: its dice, deals and draws come from a seed chosen when it was made, not from a secret "
    "key, so whoever knows the seed can foresee every chance outcome."
)


def new_key() -> str:
    """A fresh secret chance key (64 hex digits)."""
    return secrets.token_hex(32)


def _digest(key: str, message: str) -> bytes:
    return hmac.new(bytes.fromhex(key), message.encode(), hashlib.sha256).digest()


def keyed_uniform(key: str, move_number: int) -> float:
    """A uniform number in [0, 1) for the chance node at history index ``move_number``."""
    return (int.from_bytes(_digest(key, f"chance:{move_number}")[:8], "big") >> 11) / float(1 << 53)


def keyed_agent_seed(key: str, index: int, seat: int) -> int:
    """The seed of the AI agent deciding for ``seat`` at history index ``index`` (not derivable without the key)."""
    return int.from_bytes(_digest(key, f"agent:{index}:{seat}")[:4], "big")


def draw(state: State, key: str | None, seed: int) -> int:
    """The chance outcome at ``state``: from the key if the table has one, else from its seed."""
    n = state.move_number()
    if key is not None:
        return pick_chance(state, keyed_uniform(key, n))
    return pick_chance(state, random.Random(f"chance:{seed}:{n}").random())


def check_chance(
    game: Game, history: list[HistoryEntry], num_players: int | None, key: str | None, seed: int = 0
) -> list[int]:
    """Replay ``history``; the indices of chance entries that ``key`` (``None``: ``seed``) does *not* draw.

    Empty: the record's chance is exactly what its disclosed key or seed gives.
    """
    state = game.new_initial_state(num_players)
    wrong: list[int] = []
    for i, entry in enumerate(history):
        if state.current_player() == CHANCE and entry != draw(state, key, seed):
            wrong.append(i)
        apply_entry(state, entry)
    return wrong
