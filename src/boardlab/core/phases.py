"""Phases as data: a game lists its phases, and :class:`PhasedState` dispatches to the current one.

A card or board game moves through phases (deal, bid, play, reveal; place,
pick, take): in each of them someone else decides, other actions are legal,
and the same action number means something else. Instead of every hook
switching on the phase again, a game declares one :class:`Phase` per phase,
plain functions of the state, and names the current one in ``state.phase``:

>>> from boardlab.core.constants import CHANCE, TERMINAL
>>> def roll(s, die): s.total, s.phase = s.total + die + 1, ("over" if s.total + die + 1 >= 3 else "move")
>>> def step(s, a): s.phase = "roll" if a else "over"
>>> PHASES = phase_table(
...     Phase("roll", CHANCE, outcomes=lambda s: [(0, 0.5), (1, 0.5)], apply=roll, label=lambda s, p, a: f"rolled {a + 1}"),
...     Phase("move", lambda s: 0, legal=lambda s, p: [0, 1], apply=step, label=lambda s, p, a: ("stop", "roll")[a]),
...     Phase("over", TERMINAL),
... )
>>> class Tiny(PhasedState):
...     phases = PHASES
...     def __init__(self, game, n):
...         super().__init__(game, n)
...         self.total, self.phase = 0, "roll"
>>> s = Tiny(None, 1)
>>> s.current_player(), s._chance_outcomes(), s._action_to_string(CHANCE, 1)
(-1, [(0, 0.5), (1, 0.5)], 'rolled 2')
>>> s._apply(0); s.current_player(), s._legal_actions(0), s._action_to_string(0, 1)
(0, [0, 1], 'roll')
>>> s._apply(0); s.is_terminal()
True

What a phase declares (every function takes the state first; ``player`` is
the seat asked about, ``CHANCE`` for chance outcomes):

* ``actor``: who decides: a seat, ``CHANCE``, ``SIMULTANEOUS`` or ``TERMINAL``,
  or a function ``actor(state) -> int`` (the seat to move, say);
* ``legal(state, player) -> list[int]``: the sorted legal actions of a seat
  (``[]`` for a seat that does not decide now);
* ``outcomes(state) -> [(action, probability)]``: at a chance phase;
* ``apply(state, action)``: apply a validated action, and set ``state.phase``
  to the phase that follows (at a simultaneous phase ``action`` is the list of
  every seat's action, ``None`` for a seat without a decision);
* ``is_legal(state, player, action) -> bool``: optional, a faster test than
  looking ``action`` up in ``legal`` (it must agree with ``legal``);
* ``explain(state, player, action) -> str | None``: optional, why an action
  is illegal in this phase;
* ``label(state, player, action) -> str | None``: optional, the action's words
  in this phase; ``None`` (or no ``label``) falls back to the base ``State``'s
  label (the game's action space, else the number);
* ``seen(state, actor, entry) -> Seen | tuple[Seen | None, ...]``: optional,
  what each viewer is shown of an entry made in this phase
  (:mod:`boardlab.core.hidden`; default: everyone sees its label);
* ``prompt(game, observation, legal) -> str``: optional, the sentence a scene
  shows in this phase; built, as a scene is, from the viewer's observation and
  its ``[(action, label)]`` only, so it can never tell more than the view.

The public checks stay in :class:`~boardlab.core.game.State`: ``PhasedState``
only fills the hooks, so refusals, history and undo work as in every game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from .constants import CHANCE, TERMINAL
from .game import State
from .hidden import EntrySeen

Actor = int | Callable[[Any], int]


@dataclass(frozen=True, slots=True)
class Phase:
    """One phase of a game: who acts in it, what they may do, and what it does (see the module text)."""

    name: str
    actor: Actor
    legal: Callable[[Any, int], list[int]] | None = None
    apply: Callable[[Any, Any], None] | None = None
    explain: Callable[[Any, int, int], str | None] | None = None
    label: Callable[[Any, int, int], str | None] | None = None
    prompt: Callable[[Any, dict[str, Any], list[tuple[int, str]]], str] | None = None
    is_legal: Callable[[Any, int, int], bool] | None = None
    outcomes: Callable[[Any], list[tuple[int, float]]] | None = None
    seen: Callable[[Any, int, Any], EntrySeen] | None = None

    def __post_init__(self) -> None:
        fixed = self.actor if isinstance(self.actor, int) else None
        if fixed == TERMINAL:
            return
        if self.apply is None:
            raise ValueError(f"phase {self.name!r}: a phase where someone decides needs apply")
        if fixed == CHANCE and self.outcomes is None:
            raise ValueError(f"phase {self.name!r}: a chance phase needs outcomes")
        if fixed != CHANCE and self.legal is None:
            raise ValueError(f"phase {self.name!r}: a phase where seats decide needs legal")


#: The functions a table may give every phase at once (:func:`phase_table`'s keywords).
SHARED = ("prompt", "seen", "explain", "label")


def phase_table(*phases: Phase, **shared: Callable[..., Any]) -> Mapping[str, Phase]:
    """The phases by name, for a State class's ``phases``; names must be distinct.

    A keyword (``prompt``, ``seen``, ``explain`` or ``label``) is the function of every phase that gives
    none of its own, so a game whose phases share one prompt says it once:

    >>> say = lambda game, obs, legal: "Your move."
    >>> table = phase_table(Phase("a", 0, legal=lambda s, p: [0], apply=print), Phase("over", TERMINAL), prompt=say)
    >>> list(table), table["over"].prompt is say
    (['a', 'over'], True)
    """
    unknown = sorted(set(shared) - set(SHARED))
    if unknown:
        raise TypeError(f"phase_table() shares only {', '.join(SHARED)}; not {unknown[0]!r}")
    table: dict[str, Phase] = {}
    for p in phases:
        if p.name in table:
            raise ValueError(f"two phases are named {p.name!r}")
        missing = {k: f for k, f in shared.items() if getattr(p, k) is None}
        table[p.name] = replace(p, **missing) if missing else p
    return table


class PhasedState(State):
    """A :class:`State` whose hooks dispatch to the phase named by ``self.phase``.

    A subclass sets ``phases`` (see :func:`phase_table`) and keeps ``phase``
    (a phase name; an attribute or a property) up to date in its ``apply``
    functions. It still implements ``returns``, ``observation`` and, with
    hidden information, ``resample``; it may override any hook as usual.
    """

    phases: ClassVar[Mapping[str, Phase]] = {}
    phase: str
    #: A phase without ``is_legal`` searches its legal list (``State._is_legal``, which reuses the one just given).
    _is_legal_searches: ClassVar[bool] = True

    def current_phase(self) -> Phase:
        """The :class:`Phase` the game is in."""
        return self.phases[self.phase]

    def current_player(self) -> int:
        actor = self.phases[self.phase].actor
        return actor if type(actor) is int else actor(self)  # type: ignore[operator, return-value]

    def _legal_actions(self, player: int) -> list[int]:
        legal = self.phases[self.phase].legal
        return legal(self, player) if legal is not None else []

    def _is_legal(self, player: int, action: int) -> bool:
        phase = self.phases[self.phase]
        if phase.is_legal is not None:
            return phase.is_legal(self, player, action)
        return phase.legal is not None and State._is_legal(self, player, action)

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self.phases[self.phase].outcomes
        return outcomes(self) if outcomes is not None else []

    def _apply(self, action: int) -> None:
        self.phases[self.phase].apply(self, action)  # type: ignore[misc]

    def _apply_joint(self, actions: list[int | None]) -> None:
        self.phases[self.phase].apply(self, actions)  # type: ignore[misc]

    def _explain(self, player: int, action: int) -> str | None:
        explain = self.phases[self.phase].explain
        return explain(self, player, action) if explain is not None else None

    def _action_to_string(self, player: int, action: int) -> str:
        label = self.phases[self.phase].label
        text = label(self, player, action) if label is not None else None
        return text if text is not None else super()._action_to_string(player, action)

    def _seen(self, actor: int, entry: int | tuple[int | None, ...]) -> EntrySeen:
        seen = self.phases[self.phase].seen
        if seen is not None:
            return seen(self, actor, entry)
        return super()._seen(actor, entry)

    def prompt(self, player: int | None = None) -> str:
        """The current phase's prompt for ``player`` (``None``: a spectator), or ``""`` if it has none."""
        prompt = self.phases[self.phase].prompt
        if prompt is None:
            return ""
        legal = self.legal_moves(player) if player is not None and player >= 0 else []
        return prompt(self.game, self.observation(player), legal)


__all__ = ["Phase", "PhasedState", "phase_table"]
