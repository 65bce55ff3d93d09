"""The one driver: who decides next, applying and replaying history, the step loop, result text, undo.

Every front-end (the CLI, the server, the replay viewers), the OpenSpiel
adapter and the lab drive games through these functions, so a history entry
is applied, a record replayed, a chance node sampled, a result put in words
and an undo allowed in exactly one way.

>>> import random, boardlab
>>> game = boardlab.make("blast-radius", board_side=5)
>>> state = game.new_initial_state()
>>> next_decision(state)
Decision(kind='seat', seats=(0,))
>>> apply_entry(state, 30)
>>> seen = []
>>> again = replay(game, state.history(), on_step=lambda s, entry: seen.append((s.move_number(), entry)))
>>> seen, again.history()
([(0, 30)], [30])

The step loop asks ``choose(state, seat)`` for every seat decision and draws
chance from a seeded generator:

>>> rng = random.Random(1)
>>> play(state, lambda s, seat: rng.choice(s.legal_actions(seat)), rng)
'over'
>>> result_text(game, state.returns(), ["Ann", "Bo"], viewer=None) in ("Ann wins.", "Bo wins.")
True

The core imports nothing from ``boardlab.games`` or ``boardlab.agents``: a
game comes in as a :class:`Game`, an agent as anything with ``step(view)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, TypeVar

from .constants import CHANCE, SIMULTANEOUS
from .errors import IllegalActionError
from .view import SeatView

if TYPE_CHECKING:  # the game module imports the driver, never the reverse at run time
    from .game import Game, HistoryEntry, State

DecisionKind = Literal["seat", "chance", "simultaneous", "end"]

#: ``choose(state, seat)``: the action ``seat`` takes now, or ``None`` to stop (the position changed, say by an undo).
Choose = Callable[["State", int], int | None]
#: ``on_step(state, entry)``: called on the state just *before* ``entry`` is applied to it (its step number is
#: ``state.move_number()``, its actor ``state.current_player()``).
OnStep = Callable[["State", "HistoryEntry"], None]

Outcome = TypeVar("Outcome")


class Agent(Protocol):
    """What the driver needs of an agent: a move for the seat of a :class:`SeatView`."""

    def step(self, view: SeatView) -> int: ...


# -- who decides now --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decision:
    """The next decision of a state: one seat, chance, several seats at once, or the end.

    ``seats`` are the seats that decide: the one seat, every seat with a legal
    action at a simultaneous node, none for chance and the end.
    """

    kind: DecisionKind
    seats: tuple[int, ...] = ()


def next_decision(state: State) -> Decision:
    """Who decides now.

    >>> import boardlab
    >>> s = boardlab.make("blast-radius", board_side=5).new_initial_state()
    >>> next_decision(s).kind, next_decision(s).seats
    ('seat', (0,))
    """
    cp = state.current_player()
    if cp >= 0:
        return Decision("seat", (cp,))
    if cp == CHANCE:
        return Decision("chance")
    if cp == SIMULTANEOUS:
        return Decision("simultaneous", tuple(p for p in range(state.num_players) if state.legal_actions(p)))
    return Decision("end")


def draw_outcome(outcomes: Sequence[tuple[Outcome, float]], x: float) -> Outcome:
    """The outcome that a number ``x`` in [0, total weight) picks: the one chance draw of the project.

    The outcomes' weights are added up left to right, and ``x`` picks the first
    outcome whose running total exceeds it (so a number exactly at a running total
    picks the outcome that starts there); the last outcome when rounding leaves
    ``x`` beyond them all. Chance nodes (:func:`pick_chance`, ``State.play_random``)
    and the default resample's weighted candidates all draw with it; server chance
    keys and the records that carry them depend on exactly this rule.

    >>> draw_outcome([(0, 0.5), (1, 0.5)], 0.7), draw_outcome([(0, 0.5), (1, 0.5)], 0.5)
    (1, 1)
    """
    acc = 0.0
    for a, p in outcomes:  # a plain loop: rollouts draw here on every chance step
        acc += p
        if x < acc:
            return a
    return outcomes[-1][0]


def sample_chance(state: State, rng: random.Random) -> int:
    """A chance outcome of ``state`` drawn by its probability with one ``rng.random()``."""
    return pick_chance(state, rng.random())


def pick_chance(state: State, x: float) -> int:
    """The chance outcome of ``state`` that a uniform number ``x`` in [0, 1) picks (by the outcomes' probabilities)."""
    return draw_outcome(state.chance_outcomes(), x)


# -- applying and replaying history -----------------------------------------


class ReplayError(IllegalActionError):
    """A history entry that is not legal where a replay meets it.

    ``step`` is its index in the history (0-based), ``entry`` the entry and
    ``reason`` the engine's explanation; the message says all three.
    """

    def __init__(self, step: int, entry: object, reason: str, player: int | None = None) -> None:
        super().__init__(f"history step {step} ({entry!r}) is not legal: {reason}", player=player, action=entry)
        self.step = step
        self.entry = entry
        self.reason = reason


def apply_entry(state: State, entry: HistoryEntry | tuple[int | None, ...], player: int | None = None) -> None:
    """Apply one history entry, checked: an action number, or a joint entry (list or tuple, one per seat).

    Refused with :class:`IllegalActionError`, the state unchanged, when it is not
    legal now; ``player`` refuses a seat's action given out of turn.

    >>> import boardlab
    >>> s = boardlab.make("blast-radius", board_side=5).new_initial_state()
    >>> apply_entry(s, 30); s.history()
    [30]
    >>> apply_entry(s, [1, 2])
    Traceback (most recent call last):
    ...
    boardlab.core.errors.IllegalActionError: this is not a simultaneous decision; use apply_action
    """
    if isinstance(entry, list | tuple):
        state.apply_actions(list(entry))
    else:
        state.apply_action(entry, player)


def advance(state: State, entries: Sequence[HistoryEntry], *, on_step: OnStep | None = None) -> State:
    """Apply ``entries`` to ``state`` in place, each checked; returns ``state``.

    ``on_step(state, entry)`` is called just before each entry is applied. An
    entry that is not legal raises :class:`ReplayError` naming its step (counted
    from the start of the game), with the state left after the entries before it.
    """
    for entry in entries:
        if on_step is not None:
            on_step(state, entry)
        step = state.move_number()
        try:
            apply_entry(state, entry)
        except IllegalActionError as e:
            raise ReplayError(step, entry, e.explanation, e.player) from None
    return state


def replay(
    game: Game, history: Sequence[HistoryEntry], num_players: int | None = None, *, on_step: OnStep | None = None
) -> State:
    """The state after ``history`` from the start of ``game``, every step checked (see :func:`advance`)."""
    return advance(game.new_initial_state(num_players), history, on_step=on_step)


def replay_states(game: Game, history: Sequence[HistoryEntry], num_players: int | None = None) -> list[State]:
    """Every state of a history, from the start to the end (for step-through viewers)."""
    out: list[State] = []
    final = replay(game, history, num_players, on_step=lambda s, _: out.append(s.clone()))
    out.append(final.clone())
    return out


# -- the step loop ----------------------------------------------------------


def _draw(state: State, chance: random.Random | Callable[[State], int]) -> int:
    return sample_chance(state, chance) if isinstance(chance, random.Random) else chance(state)


def next_entry(
    state: State, choose: Choose | None, chance: random.Random | Callable[[State], int]
) -> HistoryEntry | None:
    """The history entry for the next decision, not yet applied.

    Chance is drawn from ``chance``; each deciding seat is asked ``choose(state,
    seat)`` (at a simultaneous node in seat order; a seat with nothing to decide
    passes ``None``). ``None`` at the end, when ``choose`` is ``None`` at a seat
    decision, or when ``choose`` answers ``None``.
    """
    d = next_decision(state)
    if d.kind == "chance":
        return _draw(state, chance)
    if d.kind == "end" or choose is None:
        return None
    if d.kind == "seat":
        return choose(state, d.seats[0])
    joint: list[int | None] = []
    for p in range(state.num_players):
        if p not in d.seats:
            joint.append(None)
            continue
        a = choose(state, p)
        if a is None:
            return None
        joint.append(a)
    return joint


def play(
    state: State,
    choose: Choose | None,
    chance: random.Random | Callable[[State], int],
    *,
    cap: int | None = None,
    on_step: OnStep | None = None,
) -> Literal["over", "capped", "stopped"]:
    """Play ``state`` on in place: chance drawn from ``chance``, seats asked ``choose(state, seat)``.

    Every entry goes through :func:`apply_entry` (checked); ``on_step(state,
    entry)`` is called just before it is applied. Returns ``"over"`` at the end,
    ``"capped"`` when the safety cap (default ``max_game_length()``) stops an
    unfinished game, ``"stopped"`` when ``choose`` is ``None`` at a seat decision
    (so ``choose=None`` plays the chance nodes up to the next seat decision) or
    answers ``None``.
    """
    if cap is None:
        cap = state.game.max_game_length()
    while not state.is_terminal():
        if state.move_number() >= cap:
            return "capped"
        entry = next_entry(state, choose, chance)
        if entry is None:
            return "stopped"
        if on_step is not None:
            on_step(state, entry)
        apply_entry(state, entry)
    return "over"


def agents_choose(agents: Sequence[Agent]) -> Choose:
    """A ``choose`` that asks ``agents[seat]`` through a :class:`SeatView` (agents never see the state)."""
    return lambda state, seat: agents[seat].step(SeatView(state, seat))


# -- the result in words ----------------------------------------------------


def result_text(game: Game, returns: Sequence[float], names: Sequence[str], viewer: int | None = None) -> str:
    """A finished game's result in ``viewer``'s terms (``None``: a spectator's): who won, a draw, a shared result.

    A seat wins with a positive return; all returns zero is a draw.

    >>> import boardlab
    >>> g = boardlab.make("blast-radius", board_side=5)
    >>> result_text(g, [1, -1], ["Ann", "Bo"], 0), result_text(g, [1, -1], ["Ann", "Bo"], 1)
    ('You win!', 'You lose: Ann wins.')
    >>> result_text(g, [1, -1], ["Ann", "Bo"])
    'Ann wins.'
    >>> result_text(g, [0, 0], ["Ann", "Bo"]), result_text(g, [1, 1, -1], ["Ann", "Bo", "Cy"], 1)
    ('The game is a draw.', 'You win, with Ann!')
    """
    winners = [i for i, r in enumerate(returns) if r > 0]
    if all(r == 0 for r in returns) and not game.cooperative:
        return "The game is a draw."
    if game.cooperative or len(names) == 1:
        return "Everyone wins!" if winners else "Everyone loses."
    if not winners:
        return "Nobody wins."
    if viewer is not None and viewer in winners:
        others = [names[w] for w in winners if w != viewer]
        return "You win!" if not others else f"You win, with {', '.join(others)}!"
    won = [names[w] for w in winners]
    text = f"{' and '.join(won)} {'wins' if len(won) == 1 else 'win'}."
    return f"You lose: {text}" if viewer is not None else text


# -- undo -------------------------------------------------------------------

#: How people play a game, which decides what undo may take back (README, "Playing").
UNDO_MODES = ("ai", "hotseat", "online")


def undo_point(state: State, seat: int | None, mode: str, humans: Sequence[int]) -> int | None:
    """The history length that an undo by ``seat`` rewinds to, or ``None`` when it may not undo.

    Against the AI (``"ai"``) and in hot-seat play (``"hotseat"``) an undo takes
    back the last decision of a human seat, with the AI moves after it; online
    (``"online"``) a seat takes back only steps of its own turn, while it is still
    that seat's turn. Never across a chance outcome, a simultaneous reveal or a
    hidden reveal (:meth:`State.undo_point`), never after the game is over, never
    for a spectator (``seat=None``).

    >>> import boardlab
    >>> s = boardlab.make("blast-radius", board_side=5).new_initial_state()
    >>> s.apply_action(0); s.apply_action(60)
    >>> undo_point(s, 0, "ai", [0]), undo_point(s, 0, "online", [0, 1]), undo_point(s, 0, "hotseat", [0, 1])
    (0, None, 1)
    """
    if mode not in UNDO_MODES:
        raise ValueError(f"unknown mode {mode!r}; modes: {', '.join(UNDO_MODES)}")
    if seat is None or state.is_terminal():
        return None
    if mode == "online":
        if state.current_player() != seat:
            return None
        return state.undo_point(seat, cross_seats=False)
    points = [p for s in humans if (p := state.undo_point(s)) is not None]
    return max(points) if points else None


def undo_refusal(state: State, seat: int, mode: str) -> str:
    """Why ``seat`` may not undo now, in words (for when :func:`undo_point` is ``None``)."""
    if state.is_terminal():
        return "The game is over; a finished game cannot be taken back."
    if mode == "online":
        if state.current_player() != seat:
            return "Online, you can take back only steps of your own turn, while it is still your turn."
        return "There is no step of this turn to take back (a turn's first step, or after a chance event or a reveal)."
    return (
        "Nothing to undo: undo never goes back across a chance event or a reveal of hidden information, "
        "nor before the first move."
    )


__all__ = [
    "UNDO_MODES",
    "Agent",
    "Decision",
    "ReplayError",
    "advance",
    "agents_choose",
    "apply_entry",
    "draw_outcome",
    "next_decision",
    "next_entry",
    "pick_chance",
    "play",
    "replay",
    "replay_states",
    "result_text",
    "sample_chance",
    "undo_point",
    "undo_refusal",
]
