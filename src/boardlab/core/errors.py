"""Exceptions raised by the engine.

Every refusal carries an explanation a player understands; the state that
refused is never changed.
"""

from __future__ import annotations

from .wording import with_refs


class IllegalActionError(ValueError):
    """An action that is not legal now (wrong seat, not a legal move, malformed).

    ``explanation`` is a sentence meant for the player (a
    :class:`~boardlab.core.wording.Said` where the game cites its rules);
    ``player`` and ``action`` say what was attempted. The exception's own
    message is the developers' form, with the clauses (``"… (§4a)"``).
    """

    def __init__(self, explanation: str, *, player: int | None = None, action: object = None) -> None:
        super().__init__(with_refs(explanation))
        self.explanation = explanation
        self.player = player
        self.action = action


class OutOfTurnError(IllegalActionError):
    """A seat tried to act when it is not that seat's decision."""


class UnknownActionString(IllegalActionError):
    """A move label that names no legal action."""
