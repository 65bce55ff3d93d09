"""Hidden information as a core service: who sees each history entry, and as what.

A game says, for every history entry, what each viewer is shown of it, with
the hook ``State._seen(actor, entry)``: a :class:`Seen` (or, for a
simultaneous entry, a tuple with one ``Seen`` or ``None`` per seat). The hook
is called on the state just *before* the entry is applied, and only when a log
or a resample is built, never by ``apply_action``, ``apply_legal`` or
``play_random``: search rollouts pay nothing for it.

``Seen(public, private)``:

* ``private=None``: everyone, spectators too, sees the entry exactly, as ``public``
  (the default: the action's label);
* otherwise only the seats in ``private`` see it exactly, each as its own text,
  and every other viewer sees ``public`` ("drew a card").

Texts are written to follow the actor's name in a log ("Blue: locked",
"chance: dealt a card to Blue"), for players, and private texts in the third
person, because once a game is over its log may show everything (records are
public then: README, "Records and hidden information"). A reveal is an entry
whose public text shows what it revealed and that *pins* what it revealed:
``Seen(..., pins=(i, j))`` names the earlier history entries (by index; the
entry's own index too) that every viewer knows exactly from then on, or on
which nothing later depends beyond what the viewers saw (a round's end that
shows every hand); ``private_pins`` pin them for the seats in ``private`` alone
(a peek, a trade). A pin is the game's word: pin only what the viewer can
really tell, or the search agents see through it.

From that the core derives:

* :func:`log_lines` (``State.move_log(viewer)``): a viewer's move log in words.
  Before the end a viewer reads the text it was shown of each entry; with
  ``reveal=True`` (the default once the game is over) every entry is shown
  exactly. A game's opening run of chance entries that everyone sees exactly
  collapses into one line when the game declares ``Game.setup_text``.
* :class:`SeenLog`: the same per-entry ``Seen`` list kept up to date
  incrementally for a live table (one replay of the new entries only).
* :func:`resample` (the default ``State.resample``): a world the viewer cannot
  tell from this one, drawn by replaying the history through the checked path.

>>> from boardlab.core.constants import CHANCE
>>> deal = Seen("dealt a card to Blue", {1: "dealt the Knight to Blue"})
>>> deal.text_for(0), deal.text_for(1), deal.text_for(None)
('dealt a card to Blue', 'dealt the Knight to Blue', 'dealt a card to Blue')
>>> lines = log_lines([Seen("Red starts"), deal], [CHANCE, CHANCE], 0, setup_text="The coin was tossed.")
>>> [(d["step"], d["text"]) for d in lines]
[(0, 'The coin was tossed.'), (1, 'dealt a card to Blue')]
>>> [d["text"] for d in log_lines([Seen("Red starts"), deal], [CHANCE, CHANCE], 0, reveal=True)]
['Red starts', 'dealt the Knight to Blue']

**What the default resample samples.** For viewer ``v`` it replays the
history from a new initial state, entry by entry, through the checked path
(``apply_action`` / ``apply_actions``). An entry ``v`` saw exactly, or one that
a later entry pins for ``v``, is kept, and the view ``v`` would have of it in
the redrawn world (its text and what it pins) must be the recorded one, checked
as each entry is applied (so a reveal that pins nothing still constrains what
was drawn before it, by search). The entries before the first one to redraw
are replayed once and kept on the state with the rest of the plan (for the
last viewer asked: a search asks again and again); when nothing is to be
redrawn the world is a copy of the state. Any other entry is redrawn
among the *candidates* whose view for ``v`` (exact or not, and the text) equals
the recorded one: chance outcomes weighted by their probabilities, another
seat's decision uniformly among its legal actions, and for a simultaneous
entry each unseen seat's part among its legal actions (every combination of
the parts equally weighted; the whole entry's view is checked too). The search
is depth-first with backtracking: at each entry the candidates are tried in a
random order drawn by weight (a candidate whose view differs is dropped as it
is drawn), and one from which no consistent completion exists is dropped for
the next. Only ``rng`` is used; a bounded number of tries, then
:class:`ResampleError`. Without pins a reveal of many hidden draws (every die
of a Liar's Dice round) leaves a search over all their values, which runs out
of tries; with them it is a replay.

So each redrawn entry ``h_i`` is drawn with probability ``w(h_i) / V_i``, where
``V_i`` is the total weight of the candidates at that entry that have a
consistent completion: the sampled world has probability ``prod_i w(h_i) / V_i``.
The true posterior (other seats' hidden decisions taken as uniformly random,
which is all the rules say about them) is proportional to ``prod_i w(h_i)`` over
the consistent worlds, so the two are equal exactly when ``prod_i V_i`` is the
same in every consistent world: for example when what can still follow at each
redrawn entry is fixed by what ``v`` saw (a card dealt face down from a pool
whose size is public and later revealed, an attack token never shown; a
pinned entry is not redrawn at all). Otherwise
it is an approximation, but always a world consistent with everything ``v``
saw. A game may override ``resample`` for speed; the conformance suite compares
an override's distribution with this one on small cases.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .constants import CHANCE, SIMULTANEOUS, player_name
from .driver import apply_entry, draw_outcome
from .errors import IllegalActionError

if TYPE_CHECKING:
    from .game import Game, State

#: A viewer: a seat, or ``None`` for a spectator.
Viewer = int | None


@dataclass(frozen=True, slots=True)
class Seen:
    """What viewers are shown of one history entry (or one seat's part of a simultaneous one).

    ``pins`` and ``private_pins`` name history entries (by index: earlier ones, or this one) that this entry *pins*: from here on the
    viewer knows them exactly (a reveal: "the round ends and every hand is shown"), or nothing that follows
    depends on them beyond what the viewer saw. ``pins`` hold for every viewer, ``private_pins`` for the seats in
    ``private`` alone (a peek, a trade). The core's resample keeps a pinned entry as recorded.
    """

    public: str
    private: Mapping[int, str] | None = None
    pins: tuple[int, ...] = ()
    private_pins: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.private is not None:
            object.__setattr__(self, "private", dict(self.private))  # never shared with the caller
        object.__setattr__(self, "pins", tuple(self.pins))
        object.__setattr__(self, "private_pins", tuple(self.private_pins))

    def exact_for(self, viewer: Viewer) -> bool:
        """Whether ``viewer`` sees the entry exactly."""
        return self.private is None or (viewer is not None and viewer in self.private)

    def text_for(self, viewer: Viewer) -> str:
        """The text ``viewer`` is shown."""
        if self.private is not None and viewer is not None and viewer in self.private:
            return self.private[viewer]
        return self.public

    def pins_for(self, viewer: Viewer) -> tuple[int, ...]:
        """The earlier entries this one pins for ``viewer`` (sorted, without repeats)."""
        if not self.private_pins or self.private is None or viewer is None or viewer not in self.private:
            return tuple(sorted(set(self.pins)))
        return tuple(sorted({*self.pins, *self.private_pins}))

    def full_text(self) -> str:
        """The exact text, for a log that reveals everything (the lowest seat's private text)."""
        if self.private:
            return self.private[min(self.private)]
        return self.public


#: What one history entry shows: a ``Seen``, or for a simultaneous entry one per seat (``None``: no action).
EntrySeen = Seen | tuple[Seen | None, ...]


class ResampleError(RuntimeError):
    """The default resample found no world consistent with what the viewer saw."""


def view_key(seen: EntrySeen, viewer: Viewer) -> Any:
    """What ``viewer`` can tell of an entry: per part, whether it saw it exactly and the text."""
    if isinstance(seen, Seen):
        return (seen.exact_for(viewer), seen.text_for(viewer))
    return tuple(None if s is None else (s.exact_for(viewer), s.text_for(viewer)) for s in seen)


def exact_for(seen: EntrySeen, viewer: Viewer) -> bool:
    """Whether ``viewer`` saw the whole entry exactly."""
    if isinstance(seen, Seen):
        return seen.exact_for(viewer)
    return all(s is None or s.exact_for(viewer) for s in seen)


def pins_for(seen: EntrySeen, viewer: Viewer) -> tuple[int, ...]:
    """The earlier entries an entry pins for ``viewer`` (every part of a simultaneous one together)."""
    if isinstance(seen, Seen):
        return seen.pins_for(viewer)
    return tuple(sorted({i for s in seen if s is not None for i in s.pins_for(viewer)}))


def default_seen(state: State, actor: int, entry: int | Sequence[int | None]) -> EntrySeen:
    """Everyone sees the entry as the action's label (per seat for a simultaneous entry)."""
    if isinstance(entry, int):
        return Seen(state.action_to_string(actor, entry))
    return tuple(None if a is None else Seen(state.action_to_string(p, a)) for p, a in enumerate(entry))


def seat_label(game: Game, seat: int) -> str:
    """A seat's name in the log: the game's ``seat_names`` (colours), else ``seat N``."""
    names = game.seat_names
    return names[seat] if 0 <= seat < len(names) else player_name(seat)


def _entry_text(seen: EntrySeen, viewer: Viewer, reveal: bool, names: Sequence[str]) -> tuple[str, list[str | None]]:
    if isinstance(seen, Seen):
        return (seen.full_text() if reveal else seen.text_for(viewer)), []
    parts = [None if s is None else (s.full_text() if reveal else s.text_for(viewer)) for s in seen]
    text = "; ".join(f"{names[p] if p < len(names) else player_name(p)}: {t}" for p, t in enumerate(parts) if t)
    return text, parts


def log_lines(
    seens: Sequence[EntrySeen],
    actors: Sequence[int],
    viewer: Viewer,
    *,
    reveal: bool = False,
    setup_text: str = "",
    names: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """A viewer's move log from the entries' ``Seen`` (pure: no state needed).

    One dict per entry: ``{"step": history index, "actor": seat/CHANCE/SIMULTANEOUS,
    "text": str}``, plus ``"parts"`` (each seat's text or ``None``) for a
    simultaneous entry. With ``setup_text``, the opening run of chance entries
    that everyone sees exactly becomes one line (``"steps"``: how many it covers).
    ``reveal=True`` shows every entry exactly (a finished game's log).
    """
    out: list[dict[str, Any]] = []
    start = 0
    if setup_text:
        while start < len(seens) and actors[start] == CHANCE and exact_for(seens[start], None):
            start += 1
        if start:
            out.append({"step": 0, "actor": CHANCE, "text": setup_text, "steps": start})
    for i in range(start, len(seens)):
        text, parts = _entry_text(seens[i], viewer, reveal, names)
        line: dict[str, Any] = {"step": i, "actor": actors[i], "text": text}
        if actors[i] == SIMULTANEOUS:
            line["parts"] = parts
        out.append(line)
    return out


class SeenLog:
    """Each history entry's ``Seen``, kept up to date by replaying only the entries added since.

    For front-ends that build logs often (a live table): ``update(state)``
    follows the state's history; an undo (a history that is no longer an
    extension) rebuilds from the start.
    """

    def __init__(self, game: Game, num_players: int) -> None:
        self.game = game
        self.num_players = num_players
        self._state = game.new_initial_state(num_players)
        self.seens: list[EntrySeen] = []

    def update(self, state: State) -> list[EntrySeen]:
        history = state._history
        mine = self._state._history
        if len(mine) > len(history) or any(mine[i] != history[i] for i in range(len(mine) - 1, -1, -1)):
            self._state = self.game.new_initial_state(self.num_players)
            self.seens = []
        for entry in history[len(self._state._history) :]:
            self.seens.append(self._state.seen_of(entry))
            apply_entry(self._state, entry)
        return self.seens

    def lines(self, state: State, viewer: Viewer, *, reveal: bool | None = None) -> list[dict[str, Any]]:
        """``state.move_log(viewer)``, from the kept entries."""
        seens = self.update(state)
        if reveal is None:
            reveal = state.is_terminal()
        names = [seat_label(self.game, p) for p in range(state.num_players)]
        return log_lines(seens, state._actors, viewer, reveal=reveal, setup_text=self.game.setup_text, names=names)


def seens_of(state: State) -> list[EntrySeen]:
    """Every history entry's ``Seen``, by replaying the history once."""
    log = SeenLog(state.game, state.num_players)
    return log.update(state)


def move_log(state: State, viewer: Viewer, *, reveal: bool | None = None) -> list[dict[str, Any]]:
    """``viewer``'s move log (see :func:`log_lines`); ``reveal`` defaults to whether the game is over."""
    return SeenLog(state.game, state.num_players).lines(state, viewer, reveal=reveal)


def _key(seen: EntrySeen, viewer: Viewer) -> Any:
    """What the resample keeps of an entry for ``viewer``: its view and what it pins."""
    return (view_key(seen, viewer), pins_for(seen, viewer))


def _candidates(s: State, entry: Any, actor: int, key: Any, viewer: Viewer) -> tuple[list[tuple[Any, float]], bool]:
    """The entries that could stand at this step for ``viewer``, with their weights (see the module docstring).

    With ``False``: the list still holds entries whose view may differ, to be checked as they are drawn (a
    draw by weight that drops a misfit and draws again is a draw by weight among those that fit).
    """
    if actor == CHANCE:
        return list(s.chance_outcomes()), False
    if actor >= 0:
        return [(a, 1.0) for a in s.legal_actions(actor)], False
    view = key[0]
    joints: list[list[Any]] = [list(entry)]
    for p, part in enumerate(view):
        if part is None or part[0]:
            continue
        probe = list(entry)
        options = []
        for a in s.legal_actions(p):
            probe[p] = a
            seen = s.seen_of(probe)
            if not isinstance(seen, Seen) and view_key(seen, viewer)[p] == part:
                options.append(a)
        joints = [[*j[:p], a, *j[p + 1 :]] for j in joints for a in options]
    return [(tuple(j), 1.0) for j in joints if _key(s.seen_of(j), viewer) == key], True


@dataclass(slots=True)
class _Plan:
    """What a resample for one viewer needs of one history, worked out once and kept on the state."""

    keys: list[Any]  # per entry: the viewer's view of it and what it pins (see ``_key``)
    exact: list[bool]  # per entry: seen exactly, or pinned by a later entry
    first: int  # the first entry to redraw; -1: none
    prefix: State | None  # the state before entry ``first``


def plan(state: State, viewer: Viewer) -> _Plan:
    """The resample plan of ``state`` for ``viewer``: one replay of the history (kept for the last viewer asked)."""
    history = tuple(state._history)
    memo = state.__dict__.get(PLAN_MEMO)
    if memo is not None and memo[0] == viewer and memo[1] == history:
        return memo[2]
    game, n = state.game, state.num_players
    replay = game.new_initial_state(n)
    keys: list[Any] = []
    exact: list[bool] = []
    pinned: set[int] = set()
    for entry in history:
        seen = replay.seen_of(entry)
        keys.append(_key(seen, viewer))
        exact.append(exact_for(seen, viewer))
        pinned.update(keys[-1][1])
        apply_entry(replay, entry)
    for i in pinned:
        if 0 <= i < len(exact):
            exact[i] = True
    first = next((i for i, e in enumerate(exact) if not e), -1)
    prefix = None
    if first >= 0:
        prefix = game.new_initial_state(n)
        for entry in history[:first]:
            apply_entry(prefix, entry)
    made = _Plan(keys, exact, first, prefix)
    state.__dict__[PLAN_MEMO] = (viewer, history, made)
    return made


#: The key under which a state keeps its last resample plan (``State.clone`` drops it).
PLAN_MEMO = "_resample_plan"


def _take(cands: list[tuple[Any, float]], rng: random.Random) -> Any:
    """Remove and return one candidate, drawn by weight with the driver's draw.

    The weights are totalled exactly (``math.fsum``), so when every outcome of a chance node is a candidate
    (their probabilities summing to 1) the number picks the outcome the driver's :func:`draw_outcome` picks.
    """
    total = math.fsum(p for _, p in cands)
    k = draw_outcome([(k, p) for k, (_, p) in enumerate(cands)], rng.random() * total)
    return cands.pop(k)[0]


def _take_fitting(frame: list[Any], rng: random.Random, viewer: Viewer) -> Any:
    """The next candidate of a frame ``[state, candidates, checked, key]`` whose view fits; ``None``: none left."""
    s, cands, checked, key = frame
    while cands:
        entry = _take(cands, rng)
        if checked or _key(s.seen_of(entry), viewer) == key:
            return entry
    return None


def _follow(
    s: State, history: Sequence[Any], actors: Sequence[int], made: _Plan, i: int, viewer: Viewer
) -> tuple[int, int]:
    """Apply to ``s``, in place, the kept entries from ``i`` on, each checked against what ``viewer`` saw.

    Returns the index of the next entry to redraw (``len(history)`` at the end), or -1 when one does not fit,
    and how many entries were tried.
    """
    exact, keys = made.exact, made.keys
    start = i
    while i < len(history) and exact[i]:
        entry = history[i]
        if s.current_player() != actors[i] or _key(s.seen_of(entry), viewer) != keys[i]:
            return -1, i - start + 1
        try:
            apply_entry(s, entry)
        except IllegalActionError:
            return -1, i - start + 1
        i += 1
    return i, i - start


def resample(state: State, viewer: Viewer, rng: random.Random, budget: int = 200_000) -> State:
    """The default ``State.resample``: see the module docstring for what it samples.

    ``budget`` bounds the entries tried in all (each candidate, and each kept
    entry replayed after one); :class:`ResampleError` when it runs out or no
    world fits what ``viewer`` saw.
    """
    history, actors = state._history, state._actors
    made = plan(state, viewer)
    if made.first < 0:
        return state.clone()
    assert made.prefix is not None
    # Depth-first over the entries to redraw: at each, its candidates in a random order drawn by weight; the
    # kept entries between two of them are applied in place, each checked (they have nothing else to try).
    frames: list[tuple[int, list[Any]]] = []  # an entry to redraw and [the state before it, candidates, checked, key]
    s, i = made.prefix.clone(), made.first
    tried = 0
    while i < len(history):
        if s.current_player() == actors[i]:
            cands, checked = _candidates(s, history[i], actors[i], made.keys[i], viewer)
            frames.append((i, [s, cands, checked, made.keys[i]]))
        while True:  # the next candidate to try, going back to an earlier entry when one has none left
            entry = None
            while frames and tried < budget:
                entry = _take_fitting(frames[-1][1], rng, viewer)
                if entry is not None:
                    break
                frames.pop()
            if entry is None:
                why = f"within {budget} tries" if tried >= budget else "at all"
                name = player_name(viewer)
                raise ResampleError(f"{state.game.id}: found no position consistent with what {name} saw {why}")
            tried += 1
            j, frame = frames[-1]
            s = frame[0].clone()
            try:
                apply_entry(s, entry)
            except IllegalActionError:
                continue
            i, steps = _follow(s, history, actors, made, j + 1, viewer)
            tried += steps  # a kept entry is a try too: the budget bounds the entries applied in all
            if i >= 0:
                break
    return s
