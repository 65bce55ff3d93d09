"""Posies (Rey Alicea, 2020): pick pairs of like-coloured posies off a crowded board.

Rules: ``docs/rules/posies.md``; clause numbers are cited as ``§n``.

The board is data (``data/posies.json``): the seed's picture is missing, so
both boards there are our reconstruction (§1). Points are indexed in the
file's order (reading order, labels ``a1``…); every seat action is a point
index, and its meaning depends on the phase, which the observation and the
prompt spell out:

* setup by choice (§2.3): the point for the next posy (pink, then purple, then
  green);
* a turn (§4, §5): the first posy of the pair, then its partner, then, only when
  the split rule leaves a tie (§5.2), a point of the group to take (the group's
  lowest point index is the action).

Chance actions are colour indices 0 pink, 1 purple, 2 green: the colour of the
next point filled by the random setup (§2.2, one chance step per posy, in
reading order), and each seat's secret draw from the bag (§8.2).

Hidden information exists only under ``variant="hidden_colour"`` (§8.2): the
class's ``game_type`` declares it for that option value, so each game object's
type says whether its own option setting hides anything. ``observation(seat)`` shows a seat only
its own drawn posy until the end; ``resample`` redraws the other seats' posies.

Speed: the board's tables are loaded once per board. The state keeps, per
straight line, the pairs it offers (§4.1, §4.2) and per point how many pairs
it belongs to; a turn rescans only the lines through the points it emptied.
The pair count also answers whether the game is over (§6).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from ..core import scene as sc
from ..core import wording
from ..core.actions import ActionSpace, Segment
from ..core.chance import by_counts, equally_likely
from ..core.constants import CHANCE, TERMINAL
from ..core.errors import IllegalActionError
from ..core.game import Game
from ..core.gametype import Chance, GameType, Information, when
from ..core.hidden import Seen
from ..core.options import Option
from ..core.phases import Phase, PhasedState, phase_table
from ..core.tensor import Tensor
from ..core.wording import said
from ..geometry.board import BoardData
from ..geometry.hexgrid import bounding_box

COLOURS = ("pink", "purple", "green")
SHORT = ("Pi", "Pu", "Gr")
SHAPES = ("disc", "diamond", "hex")  # a second cue besides the colour
VALUES = (1, 2, 3)  # §7.1
FILLS = ("#F19CC6", "#8E5BB5", "#3E9B5A")
PER_COLOUR = 17  # §2.1: 17 of each colour fill the board; one of each is set aside
DATA = Path(__file__).with_name("data") / "posies.json"

# Phases (named as the observation and the prompt name them; see PHASES below).
FILL = "setup"  # §2.2: chance colours the next point
PLACE = "placement"  # §2.3: a seat places its posies
DRAW = "draw"  # §8.2: chance draws a seat's hidden posy
PICK = "first posy"  # §4: choose the first posy of a pair
PARTNER = "second posy"  # §4: choose its partner
KEEP = "take a group"  # §5.2: choose which of the tied smallest groups to take
OVER = "over"
TENSOR_PHASES = (FILL, PLACE, DRAW, PICK, PARTNER, KEEP, OVER)  # the observation tensor's order

#: Per point: the points on each straight line through it, walking away from it, nearest first.
Rays = tuple[tuple[tuple[int, ...], ...], ...]


class _Tables:
    """Precomputed geometry of one board (§1)."""

    def __init__(self, key: str, data: dict[str, Any]) -> None:
        board = BoardData.from_dict(data)
        self.key = key
        self.board = board
        self.n = len(board)
        self.labels = board.ids
        self.neighbours = board.neighbours
        self.blocked = board.blocked
        self.playable = tuple(i for i in range(self.n) if i not in board.blocked)
        rays: list[list[tuple[int, ...]]] = [[] for _ in range(self.n)]
        for line in board.lines:
            for k, i in enumerate(line):
                rays[i] += [r for r in (tuple(line[k + 1 :]), tuple(reversed(line[:k]))) if r]
        #: For explanations: ``rays[i]``, the points on each line through ``i``, walking away from it.
        self.rays: Rays = tuple(tuple(r) for r in rays)
        self.lines = board.lines
        lines_of: list[list[int]] = [[] for _ in range(self.n)]
        for li, line in enumerate(board.lines):
            for i in line:
                lines_of[i].append(li)
        #: ``lines_of[i]``: the indices of the lines through point ``i``.
        self.lines_of = tuple(tuple(x) for x in lines_of)
        self.cells = board.scene_cells(0.3)  # blocked points filled "blocked"
        self.edges = [
            sc.edge(f"{board.ids[i]}-{board.ids[j]}", board.xy[i], board.xy[j], kind="grid")
            for i, nb in enumerate(board.neighbours)
            for j in nb
            if i < j
        ]
        self.viewbox = bounding_box(list(board.xy), margin=0.8)
        #: Seat actions: a point, by its index (§2.3, §4, §5.2 give it its meaning).
        self.space = ActionSpace(Segment("point", (("point", board.ids),), "{point}"))
        self.source = board.source


@cache
def _tables(key: str) -> _Tables:
    boards = json.loads(DATA.read_text())
    return _Tables(key, boards[key])


def _split(seeds: list[int], nbrs: tuple[tuple[int, ...], ...], colour: list[int]) -> list[list[int]]:
    """The groups of posies that hold ``seeds``, or ``[]`` when one group holds them all (§5.1).

    Breadth-first from the first seed, stopping as soon as every seed is
    reached (the common case: the seeds are close together), else the full
    groups, so that their sizes can be compared.
    """
    targets = set(seeds)
    targets.discard(seeds[0])
    seen: set[int] = set()
    groups: list[list[int]] = []
    for s in seeds:
        if s in seen:
            continue
        seen.add(s)
        group = [s]
        k = 0
        while k < len(group):
            u = group[k]
            k += 1
            for w in nbrs[u]:
                if w not in seen and colour[w] >= 0:
                    seen.add(w)
                    group.append(w)
                    if not groups and w in targets:  # still in the first seed's group
                        targets.discard(w)
                        if not targets:
                            return []
        groups.append(group)
    return groups


def _ranked_returns(scores: list[tuple[int, ...]]) -> list[float]:
    """Zero-sum returns: the best seats share +1, the others share -1; all equal is 0 for all (§7.3)."""
    n = len(scores)
    best = max(scores)
    winners = [k for k in range(n) if scores[k] == best]
    if len(winners) == n:
        return [0.0] * n
    w, rest = 1.0 / len(winners), -1.0 / (n - len(winners))
    return [w if k in winners else rest for k in range(n)]


class PosiesGame(Game):
    id = "posies"
    title = "Posies"
    summary = (
        "Pick pairs of like-coloured posies from a full board, adjacent or along a straight line; "
        "break a group apart and you also take its smallest piece."
    )
    max_players = 3
    default_players = 2
    options = (
        Option.choice(
            "variant",
            {
                "base": "Colour values (base game)",
                "most_posies": "Most posies",
                "hidden_colour": "A secret colour worth triple",
            },
            said(
                "Scoring: by colour values (base game), by number of posies (variant 1), or by a "
                "secretly drawn colour worth triple (variant 2, hidden information).",
                "7",
                "8.1",
                "8.2",
            ),
        ),
        Option.choice(
            "board",
            {"t51": "Triangular hexagon (rows 6 to 9)", "h51": "Honeycomb corners"},
            said(
                "The 51-point board (our reconstruction): a triangular-lattice hexagon with rows 6-7-8-9-8-7-6, "
                "or the corners of a 19-cell honeycomb with 3 blocked points and zigzag lines.",
                "1",
            ),
        ),
        Option.choice(
            "setup",
            {"random": "At random", "alternating_choice": "Players take turns placing them"},
            said(
                "Setup: the posies are placed at random, or the seats take turns placing one posy of each "
                "colour where they like.",
                "2",
            ),
        ),
        Option.flag(
            "intermediate_any_colour",
            True,
            said(
                "The posies between a line pair may be of any colour, the pair's own included; off: "
                "they must all be of other colours.",
                "4.1",
            ),
        ),
        Option.choice(
            "tie_break",
            {"draw": "A draw", "most_posies": "More posies wins"},
            said("Equal best scores are a draw, or the one with more posies among them wins.", "7.3"),
        ),
    )
    setup_text = "The board was dealt."
    mechanics = ("triangular lattice", "chance setup", "removal", "set collection")
    #: A random setup is chance; variant 2 draws each seat's secret colour (§2, §8.2).
    game_type = GameType(
        chance=Chance.EXPLICIT,
        variants=(
            when("setup", ("alternating_choice",), chance=Chance.NONE),
            when("variant", ("hidden_colour",), chance=Chance.EXPLICIT, information=Information.IMPERFECT),
        ),
    )
    playing_time = "15 min"
    inventions = (
        said(
            "The board picture is missing: the 51-point triangular-lattice hexagon (rows of 6-7-8-9-8-7-6 points) "
            "is our reconstruction; the honeycomb corners with three blocked points are option board='h51'.",
            "1",
        ),
        said("18 posies of each colour, 17 of each on the board and one of each set aside.", "2.1"),
        said(
            "The random setup fills the points in reading order, each colour drawn in proportion to what is left; "
            "placing by choice is option setup='alternating_choice'.",
            "2",
        ),
        said("The first seat starts.", "3"),
        said(
            "A line pair may have posies of any colour between them, their own included "
            "(option intermediate_any_colour).",
            "4.1",
        ),
        said(
            "Only the group that held the removed pair can split; the mover takes exactly one smallest group "
            "into their store.",
            "5",
        ),
        said(
            "Equal best scores are a draw (option tie_break); with three players the best seats share the win.", "7.3"
        ),
        said("With two players in variant 2, the third posy stays in the bag, unseen.", "8.2"),
    )
    num_chance_outcomes = len(COLOURS)

    def _setup(self) -> None:
        t = _tables(self.params["board"])
        self.tables = t
        self.n = t.n
        self.hidden_colour = self.params["variant"] == "hidden_colour"
        self.any_colour = bool(self.params["intermediate_any_colour"])
        self.action_space = t.space
        # Setup (one step per posy) + draws + at most 25 turns of at most 3 decisions (§6).
        self.max_length = 2 * self.n + 3 + 3 * (self.n // 2) + 10


class PosiesState(PhasedState):
    game: PosiesGame
    copied = ("colour", "remaining", "bag", "hidden", "_returns", "line_ends", "degree")

    def __init__(self, game: PosiesGame, num_players: int) -> None:
        super().__init__(game, num_players)
        #: Colour index per point, -1 when empty (blocked points stay empty).
        self.colour = [-1] * game.n
        self.remaining = [PER_COLOUR] * len(COLOURS)  # posies still to place (§2)
        self.fill_pos = 0  # the next point (index into playable) of the random setup
        self.place_step = 0  # the colour the placing seat puts down next (§2.3)
        self.bag = list(range(len(COLOURS))) if game.hidden_colour else []  # §8.2
        self.hidden = [-1] * num_players  # each seat's drawn posy (§8.2)
        self.store = [[0, 0, 0] for _ in range(num_players)]
        self.to_move = 0
        self.phase = PLACE if game.params["setup"] == "alternating_choice" else FILL
        #: ``line_ends[li]``: both ends of every pair line ``li`` offers (§4.1, §4.2); replaced, never changed.
        self.line_ends: list[list[int]] = [[] for _ in game.tables.lines]
        #: ``degree[i]``: how many line pairs point ``i`` ends (§4); ``ends``: their total (twice the pairs).
        self.degree = [0] * game.n
        self.ends = 0
        self.partners: list[int] = []  # the selected posy's partners (§4); replaced, never changed
        self.selected = -1
        self.choices: list[list[int]] = []  # tied smallest groups (§5.2), each sorted
        self.last: list[int] = []  # the pair removed by the last turn
        self.last_taken: list[int] = []  # the group the split rule took on the last turn
        self.last_seat = -1
        self._returns: list[float] = [0.0] * num_players

    # -- turn order and result (§3, §6, §7) -------------------------------
    def returns(self) -> list[float]:
        return self._returns[:]

    def scores(self, viewer: int | None = None, reveal: bool = True) -> list[int | None]:
        """Each seat's score (§7, §8); under variant 2, ``None`` for what ``viewer`` cannot know yet."""
        variant = self.game.params["variant"]
        out: list[int | None] = []
        for k, st in enumerate(self.store):
            if variant == "base":
                out.append(sum(v * c for v, c in zip(VALUES, st)))
            elif variant == "most_posies":
                out.append(sum(st))
            else:
                h = self.hidden[k]
                if h < 0 or not (reveal or k == viewer):
                    out.append(None)
                else:
                    out.append(3 * (st[h] + 1) + sum(st) - st[h])  # §8.2
        return out

    def _finish(self) -> None:
        """§6, §7: the game is over; score it and reveal every hidden posy (§8.2)."""
        self.phase = OVER
        self.partners = []
        if self.game.hidden_colour:
            self._mark_irreversible()
        scores = self.scores()
        if self.game.params["tie_break"] == "most_posies":
            keyed = [(int(s or 0), sum(st)) for s, st in zip(scores, self.store)]
        else:
            keyed = [(int(s or 0),) for s in scores]
        self._returns = _ranked_returns(keyed)

    # -- legal moves (§2, §4, §5) -----------------------------------------
    def _rescan(self, changed: list[int] | None = None) -> None:
        """Recount the pairs (§4.1, §4.2) of every line through ``changed`` (``None``: every line).

        ``run[c]`` holds the posies of colour ``c`` met on the line since its
        last empty point, so a new posy pairs with each of them (or, with
        ``intermediate_any_colour`` off, only the nearest).
        """
        t = self.game.tables
        colour = self.colour
        any_colour = self.game.any_colour
        degree = self.degree
        if changed is None:
            todo: Iterable[int] = range(len(t.lines))
        else:
            lines_of = t.lines_of
            todo = {li for k in changed for li in lines_of[k]}
        line_ends = self.line_ends
        ends = self.ends
        for li in todo:
            old = line_ends[li]
            for i in old:
                degree[i] -= 1
            new: list[int] = []
            run: tuple[list[int], list[int], list[int]] = ([], [], [])
            for j in t.lines[li]:
                c = colour[j]
                if c < 0:  # §4.1: every point between must hold a posy
                    if run[0] or run[1] or run[2]:
                        run = ([], [], [])
                    continue
                same = run[c]
                if same:
                    if any_colour:
                        new += same
                        new += [j] * len(same)
                    else:
                        new.append(same[-1])
                        new.append(j)
                same.append(j)
            for i in new:
                degree[i] += 1
            ends += len(new) - len(old)
            line_ends[li] = new
        self.ends = ends

    def _partners_of(self, x: int) -> list[int]:
        """The posies that pair with ``x`` (§4.1, §4.2)."""
        colour = self.colour
        c = colour[x]
        any_colour = self.game.any_colour
        out: set[int] = set()
        for ray in self.game.tables.rays[x]:
            for j in ray:
                cj = colour[j]
                if cj < 0:
                    break
                if cj == c:
                    out.add(j)
                    if not any_colour:
                        break
        return sorted(out)

    # -- applying an action (§2-§6, §8) -----------------------------------
    def _after_setup(self) -> None:
        if self.game.hidden_colour:
            self.phase = DRAW
        else:
            self._start_play()

    def _start_play(self) -> None:
        """§3: seat 0 starts."""
        self.to_move = 0
        self._rescan()
        self._begin_turn()

    def _begin_turn(self) -> None:
        self.selected = -1
        self.partners = []
        if self.ends:
            self.phase = PICK
        else:  # §6: the player to move cannot take a turn
            self._finish()

    def _end_turn(self) -> None:
        self.to_move = (self.to_move + 1) % self.num_players
        self._rescan(self.last + self.last_taken)
        self._begin_turn()

    def _remove_pair(self, x: int, y: int) -> None:
        """§4.3: the pair goes to the mover's store; §5: a split group gives up its smallest part."""
        colour = self.colour
        p = self.to_move
        c = colour[x]
        colour[x] = colour[y] = -1
        self.store[p][c] += 2
        self.last = sorted((x, y))
        self.last_taken = []
        self.last_seat = p
        self.selected = -1
        nbrs = self.game.tables.neighbours
        seeds = [k for k in (*nbrs[x], *nbrs[y]) if colour[k] >= 0]
        groups = _split(seeds, nbrs, colour) if len(seeds) > 1 else []
        if len(groups) < 2:  # §5.1: no split
            self._end_turn()
            return
        m = min(len(g) for g in groups)
        smallest = sorted(sorted(g) for g in groups if len(g) == m)
        if len(smallest) == 1:
            self._take(smallest[0])
            self._end_turn()
        else:  # §5.2: the mover chooses among equal smallest groups
            self.choices = smallest
            self.phase = KEEP

    def _take(self, group: list[int]) -> None:
        """§5.1: the mover takes every posy of ``group`` into their store."""
        colour = self.colour
        st = self.store[self.to_move]
        for k in group:
            st[colour[k]] += 1
            colour[k] = -1
        self.last_taken = sorted(group)

    def _set_position(self, colours: list[int], to_move: int = 0) -> None:
        """Put ``colours`` (one colour index per point, -1 for empty) on the board; ``to_move`` starts a turn.

        Only for setting up positions by hand (tests, analysis): such a state
        has no history that leads to it, so it cannot be replayed or saved.
        """
        t = self.game.tables
        if len(colours) != t.n or any(colours[i] >= 0 for i in t.blocked):
            raise ValueError(f"give one colour per point ({t.n}), and none on a blocked point")
        self.colour = list(colours)
        self.remaining = [0, 0, 0]
        self.fill_pos = len(t.playable)
        self.to_move = to_move
        self.line_ends = [[] for _ in t.lines]
        self.degree = [0] * t.n
        self.ends = 0
        self._rescan()
        self._begin_turn()

    def clone(self) -> PosiesState:
        s = super().clone()
        s.store = [st[:] for st in self.store]
        # ``partners``, ``choices``, ``last``, ``last_taken`` and each ``line_ends[li]`` are replaced,
        # never changed in place.
        return s

    # -- hidden information (§8.2) -----------------------------------------
    def _viewer(self, player: int | None) -> int | None:
        if player is None:
            return None
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.num_players:
            raise ValueError(f"no seat {player!r} in this game; seats are 0-{self.num_players - 1} (None: a spectator)")
        return player

    def observation(self, player: int | None = None) -> dict[str, Any]:
        v = self._viewer(player)
        over = self.phase == OVER
        hidden_game = self.game.hidden_colour
        t = self.game.tables
        hidden: list[str | None] = []
        if hidden_game:
            hidden = [COLOURS[h] if h >= 0 and (over or k == v) else None for k, h in enumerate(self.hidden)]
        return {
            "board": t.key,
            "variant": self.game.params["variant"],
            "num_players": self.num_players,
            "colours": self.colour[:],
            "phase": self.phase,
            "to_move": self.current_player(),
            "place_colour": COLOURS[self.place_step] if self.phase == PLACE else None,
            "to_place": sum(self.remaining),
            "selected": self.selected,
            "choices": [g[:] for g in self.choices],
            "stores": [st[:] for st in self.store],
            "drawn": [h >= 0 for h in self.hidden] if hidden_game else [],
            "hidden": hidden,
            "bag": len(self.bag),
            "scores": self.scores(v, reveal=over),
            "last": self.last[:],
            "last_taken": self.last_taken[:],
            "last_seat": self.last_seat,
            "returns": self._returns[:] if over else None,
            "viewer": v,
        }

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The posies by colour, the turn in progress, every store and (variant 2) the viewer's own drawn posy,
        everyone's once the game is over; seats are counted from the viewer (a spectator: from seat 0)."""
        v = self._viewer(player)
        me = 0 if v is None else v
        n = self.num_players
        order = [(me + k) % n for k in range(n)]
        over = self.phase == OVER
        tables = self.game.tables
        for c, name in enumerate(COLOURS):
            t.bits(f"{name}_posies", [x == c for x in self.colour])
        t.bits("blocked", [i in tables.blocked for i in range(self.game.n)])
        t.one_of("phase", self.phase, TENSOR_PHASES)
        seat = self.current_player()
        t.one_hot("to_move", (seat - me) % n if seat >= 0 else None, n)
        t.one_hot("place_colour", self.place_step if self.phase == PLACE else None, len(COLOURS))
        t.counts("to_place", self.remaining, PER_COLOUR)
        t.one_hot("selected", self.selected if self.selected >= 0 else None, self.game.n)
        choice = {i for g in self.choices for i in g}
        t.bits("group_choices", [i in choice for i in range(self.game.n)])
        for k, seat in enumerate(order):
            t.counts(f"store_{k}", self.store[seat], PER_COLOUR + 1)
        t.bits("drawn", [self.hidden[seat] >= 0 for seat in order])
        for k, seat in enumerate(order):
            h = self.hidden[seat]
            t.one_hot(f"hidden_posy_{k}", h if h >= 0 and (over or seat == v) else None, len(COLOURS))
        t.counts("bag", [len(self.bag)], len(COLOURS))
        t.scalars("returns", [(self._returns[seat] + 1) / 2 if over else 0.0 for seat in order])  # -1..1 as 0..1

    def resample(self, player: int | None, rng: random.Random) -> PosiesState:
        """A state ``player`` cannot tell apart from this one: the others' drawn posies redrawn (§8.2).

        The core's default (``boardlab.core.hidden.resample``) replays the whole
        game; this draws the same distribution directly. Only the draws are
        hidden until the end (``_draw_seen``, ``_shown_at_end``), and nothing but the hidden posies and the bag
        depends on them, so the copy is this state with the unseen draws dealt
        again from what the viewer cannot rule out, uniformly (each draw is
        uniform over the bag), and a history of its own: this one with those
        draw outcomes in place of the real ones.

        Kept, measured faster than the core's default (``bench/bench_resample.py posies``: 0.01-0.25 ms a call
        against the core's 10-19 ms, per viewer, 5 calls on each position of four seeded games; under
        variant=hidden_colour; the core replays the game after the draws).
        """
        v = self._viewer(player)
        s = self.clone()
        if not self.game.hidden_colour or self.phase == OVER:
            return s
        unknown = [k for k, h in enumerate(self.hidden) if h >= 0 and k != v]
        if not unknown:
            return s
        pool = [c for c in range(len(COLOURS)) if v is None or c != self.hidden[v]]
        rng.shuffle(pool)
        hidden = self.hidden[:]
        for k, c in zip(unknown, pool):
            hidden[k] = c
        s.hidden = hidden
        s.bag = [c for c in range(len(COLOURS)) if c not in hidden]
        first = self._draws_at()
        if first >= 0:  # a hand-made position has no history
            drawn = [c for c in hidden if c >= 0]
            s._history = [*self._history[:first], *drawn, *self._history[first + len(drawn) :]]
        return s

    def _draws_at(self) -> int:
        """Where the draws (§8.2) begin in the history, or -1 for a hand-made position without one.

        The setup fills every playable point, one history entry each (§2.2, §2.3); the draws follow.
        """
        first = len(self.game.tables.playable)
        return first if len(self._history) > first else -1


# -- the phases (§2-§6, §8) --------------------------------------------------
# Each phase says who decides, what they may do and what it does; the state's
# hooks dispatch to the current one (``boardlab.core.phases``). A seat action
# is a point index in every phase; its meaning is the phase's.


def _to_move(s: PosiesState) -> int:
    return s.to_move


def _explain_point(s: PosiesState, action: int) -> str | None:
    """What is wrong with a point whatever the phase (§1), or ``None``."""
    t = s.game.tables
    if 0 <= action < t.n and action in t.blocked:
        return said("that point is blocked", "1")
    return None


def _wait(obs: dict[str, Any]) -> str:
    return f"{wording.seat(obs['to_move'])} to move."


# §2.2 setup at random: one chance step per point, in reading order, each colour in proportion to what is left.
def _fill_outcomes(s: PosiesState) -> list[tuple[int, float]]:
    return by_counts(s.remaining)


def _fill(s: PosiesState, colour: int) -> None:
    t = s.game.tables
    s.colour[t.playable[s.fill_pos]] = colour
    s.remaining[colour] -= 1
    s.fill_pos += 1
    if s.fill_pos == len(t.playable):
        s._after_setup()


def _fill_label(s: PosiesState, player: int, action: int) -> str | None:
    if player == CHANCE and 0 <= action < len(COLOURS):
        t = s.game.tables
        return f"{t.labels[t.playable[s.fill_pos]]} {COLOURS[action]}"
    return None


# §2.3 setup by choice: the seats take turns placing one posy of each colour (pink, purple, green).
def _empty_points(s: PosiesState, player: int) -> list[int]:
    colour = s.colour
    return [i for i in s.game.tables.playable if colour[i] < 0]


def _is_empty_point(s: PosiesState, player: int, action: int) -> bool:
    return 0 <= action < s.game.n and s.colour[action] < 0 and action not in s.game.tables.blocked


def _place(s: PosiesState, point: int) -> None:
    s.colour[point] = s.place_step
    s.remaining[s.place_step] -= 1
    s.place_step += 1
    if s.place_step == len(COLOURS):
        s.place_step = 0
        s.to_move = (s.to_move + 1) % s.num_players
    if not any(s.remaining):
        s._after_setup()


def _explain_place(s: PosiesState, player: int, action: int) -> str | None:
    if not 0 <= action < s.game.n:
        return None
    return _explain_point(s, action) or said("that point already holds a posy", "2.3")


# §8.2 variant 2: each seat in turn draws a posy from the bag, in secret.
def _draw_outcomes(s: PosiesState) -> list[tuple[int, float]]:
    return equally_likely(sorted(s.bag))


def _draw(s: PosiesState, colour: int) -> None:
    seat = s.hidden.index(-1)  # the seat to draw is the first one without a posy
    s.hidden[seat] = colour
    s.bag.remove(colour)
    if seat == s.num_players - 1:
        s._start_play()


def _draw_label(s: PosiesState, player: int, action: int) -> str | None:
    if player == CHANCE and 0 <= action < len(COLOURS):
        return f"seat {s.hidden.index(-1)} draws {COLOURS[action]}"  # the notation records keep
    return None


def _draw_seen(s: PosiesState, actor: int, colour: int) -> Seen:
    """§8.2: the drawn posy is seen by the seat that draws it alone."""
    k = s.hidden.index(-1)
    return _shown_at_end(
        s, colour, Seen(f"{wording.seat(k)} drew a posy in secret", {k: f"{wording.seat(k)} drew {COLOURS[colour]}"})
    )


def _shown_at_end(s: PosiesState, action: int, seen: Seen) -> Seen:
    """§8.2: the step that ends a hidden-colour game shows every hidden posy, to everyone."""
    if not s.game.hidden_colour:
        return seen
    after = s.clone()
    try:
        after.apply_action(action)
    except IllegalActionError:  # asked about an action that is not legal here: nothing is shown
        return seen
    if after.phase != OVER:
        return seen
    shown = ", ".join(f"{wording.seat(k)} {COLOURS[h]}" for k, h in enumerate(after.hidden) if h >= 0)
    return Seen(f"{seen.full_text()}; the game is over and the hidden posies are shown: {shown}")


def _turn_seen(s: PosiesState, actor: int, action: int) -> Seen:
    """A turn's steps are public (§2.3, §4, §5), in words; the one that ends the game shows the hidden posies (§8.2).

    A posy placed or picked says its colour; the partner of a pair says that the pair went to the store, and how
    many posies a split took with it (§4.3, §5). The notation (``e6``, ``take b4+2``) stays the moves' labels.
    """
    text = s.action_to_string(actor, action)
    labels = s.game.tables.labels
    if s.phase == PLACE and 0 <= action < len(labels):
        text = f"places a {COLOURS[s.place_step]} posy on {labels[action]}"
    elif s.phase == PICK and 0 <= action < len(labels):
        text = f"picks the {COLOURS[s.colour[action]]} posy on {labels[action]}"
    elif s.phase == KEEP and (group := next((g for g in s.choices if g[0] == action), None)):
        text = f"takes the group of {len(group)} at {labels[action]} to the store"
    elif s.phase == PARTNER and action in s.partners:
        after = s.clone()
        after.apply_action(action)
        taken = sum(1 for i, c in enumerate(s.colour) if c >= 0 and after.colour[i] < 0) - 2
        text = f"pairs it with {labels[action]} and takes the {COLOURS[s.colour[s.selected]]} pair"
        if taken > 0:
            text += f", and {taken} more {'posy' if taken == 1 else 'posies'} split off"
    return _shown_at_end(s, action, Seen(text))


# §4 a turn: the first posy of a pair, one that has a partner (§4.1, §4.2).
def _pickable(s: PosiesState, player: int) -> list[int]:
    degree = s.degree
    return [i for i in s.game.tables.playable if degree[i]]


def _is_pickable(s: PosiesState, player: int, action: int) -> bool:
    return 0 <= action < s.game.n and s.degree[action] > 0


def _pick(s: PosiesState, point: int) -> None:
    s.selected = point
    s.partners = s._partners_of(point)
    s.phase = PARTNER


def _explain_pick(s: PosiesState, player: int, action: int) -> str | None:
    if not 0 <= action < s.game.n:
        return None
    c = s.colour[action]
    if reason := _explain_point(s, action):
        return reason
    if c < 0:
        return said("that point is empty", "4")
    return said(
        f"no {COLOURS[c]} posy pairs with it: none is adjacent, and none lies along a straight line of posies from it",
        "4.1",
        "4.2",
    )


# §4 then its partner; §4.3 the pair goes to the mover's store, §5 a split gives up its smallest part.
def _partners(s: PosiesState, player: int) -> list[int]:
    return s.partners[:]


def _is_partner(s: PosiesState, player: int, action: int) -> bool:
    return action in s.partners


def _partner(s: PosiesState, point: int) -> None:
    s._remove_pair(s.selected, point)


def _explain_partner(s: PosiesState, player: int, action: int) -> str | None:
    t = s.game.tables
    if not 0 <= action < t.n:
        return None
    if reason := _explain_point(s, action):
        return reason
    colour = s.colour
    sel = s.selected
    if action == sel:
        return said("choose a second posy, not the same one", "4")
    if colour[action] < 0:
        return said("that point is empty", "4")
    if colour[action] != colour[sel]:
        return said(f"the pair must be of one colour; {t.labels[sel]} is {COLOURS[colour[sel]]}", "4")
    for ray in t.rays[sel]:
        if action in ray:
            k = ray.index(action)
            gap = [t.labels[j] for j in ray[:k] if colour[j] < 0]
            if gap:
                return said(f"the line to {t.labels[sel]} has points without a posy between ({', '.join(gap)})", "4.1")
            return said("a posy of the same colour lies between them", "4.1", "option intermediate_any_colour")
    return said(f"it lies on no straight line with {t.labels[sel]}", "4.1")


# §5.2 the split left equal smallest groups: the mover takes one, named by its lowest point.
def _group_heads(s: PosiesState, player: int) -> list[int]:
    return [g[0] for g in s.choices]


def _is_group_head(s: PosiesState, player: int, action: int) -> bool:
    return any(g[0] == action for g in s.choices)


def _keep(s: PosiesState, head: int) -> None:
    group = next(g for g in s.choices if g[0] == head)
    s.choices = []
    s._take(group)
    s._end_turn()


def _keep_label(s: PosiesState, player: int, action: int) -> str | None:
    if player >= 0:
        for g in s.choices:
            if g[0] == action:
                return f"take {s.game.tables.labels[action]}" + (f"+{len(g) - 1}" if len(g) > 1 else "")
    return None


def _explain_keep(s: PosiesState, player: int, action: int) -> str | None:
    if not 0 <= action < s.game.n:
        return None
    if reason := _explain_point(s, action):
        return reason
    for g in s.choices:
        if action in g:
            return said(f"that group is chosen by its first point: '{_keep_label(s, player, g[0])}'", "5.2")
    return said("take one of the smallest groups the split left; click a point of one of them", "5.2")


# §6, §7 the game is over.
def _over_prompt(game: PosiesGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    r = obs["returns"]
    best = max(r)
    winners = [k for k, x in enumerate(r) if x == best]
    if len(winners) == len(r):
        return "The game is over: a draw."
    names = " and ".join(wording.seat(k) for k in winners)
    return f"The game is over: {names} {'wins' if len(winners) == 1 else 'share the win'}."


def _second_posy_prompt(game: PosiesGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    if not legal:
        return _wait(obs)
    sel = obs["selected"]
    return f"Choose the {COLOURS[obs['colours'][sel]]} posy to remove with {game.tables.labels[sel]}."


def _seat_prompt(text: str) -> Any:
    """A prompt that says ``text`` to the seat to move and who is to move to everyone else."""
    return lambda game, obs, legal: text if legal else _wait(obs)


PHASES = phase_table(
    Phase(
        FILL,
        CHANCE,
        outcomes=_fill_outcomes,
        apply=_fill,
        label=_fill_label,
        prompt=lambda game, obs, legal: f"The board is being filled at random: {obs['to_place']} posies to go.",
    ),
    Phase(
        PLACE,
        _to_move,
        legal=_empty_points,
        is_legal=_is_empty_point,
        apply=_place,
        explain=_explain_place,
        seen=_turn_seen,
        prompt=lambda game, obs, legal: (
            f"Place your {obs['place_colour']} posy on an empty point." if legal else _wait(obs)
        ),
    ),
    Phase(
        DRAW,
        CHANCE,
        outcomes=_draw_outcomes,
        apply=_draw,
        label=_draw_label,
        seen=_draw_seen,
        prompt=lambda game, obs, legal: "Each seat draws a posy from the bag, in secret.",
    ),
    Phase(
        PICK,
        _to_move,
        legal=_pickable,
        is_legal=_is_pickable,
        apply=_pick,
        explain=_explain_pick,
        seen=_turn_seen,
        prompt=_seat_prompt(
            "Choose a posy to remove: it needs a like-coloured partner beside it or along a line of posies."
        ),
    ),
    Phase(
        PARTNER,
        _to_move,
        legal=_partners,
        is_legal=_is_partner,
        apply=_partner,
        explain=_explain_partner,
        seen=_turn_seen,
        prompt=_second_posy_prompt,
    ),
    Phase(
        KEEP,
        _to_move,
        legal=_group_heads,
        is_legal=_is_group_head,
        apply=_keep,
        explain=_explain_keep,
        seen=_turn_seen,
        label=_keep_label,
        prompt=_seat_prompt("Your move split a group: choose which of the smallest groups to take."),
    ),
    Phase(OVER, TERMINAL, prompt=_over_prompt),
)
PosiesState.phases = PHASES


# -- the scene -------------------------------------------------------------
@PosiesGame.draws_scene
def _scene(game: PosiesGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    t = game.tables
    labels = t.labels
    colours = obs["colours"]
    s = sc.new_scene(PHASES[obs["phase"]].prompt(game, obs, legal), t.viewbox)  # type: ignore[misc]
    s["cells"] = [dict(c, fill=FILLS[colours[i]]) if colours[i] >= 0 else dict(c) for i, c in enumerate(t.cells)]
    s["edges"] = [dict(e) for e in t.edges]
    for i, c in enumerate(colours):
        if c >= 0:
            s["pieces"].append(
                sc.piece(
                    labels[i],
                    None,
                    "posy",
                    label=SHORT[c],
                    shape=SHAPES[c],
                    colour=FILLS[c],
                    icon="flower",
                    name=f"a {COLOURS[c]} posy on {labels[i]}",
                )
            )
    for i in obs["last"] + obs["last_taken"]:
        s["highlights"].append({"at": labels[i], "kind": "last"})
    if obs["selected"] >= 0:
        s["highlights"].append({"at": labels[obs["selected"]], "kind": "selected"})
    if obs["phase"] == "take a group":
        for g in obs["choices"]:
            label = dict(legal).get(g[0], labels[g[0]])
            for i in g:
                s["highlights"].append({"at": labels[i], "kind": "hint"})
                s["targets"].append({"at": labels[i], "action": g[0], "label": label})
    else:
        for a, label in legal:
            s["targets"].append({"at": labels[a], "action": a, "label": label})
    viewer = obs["viewer"]
    for k in range(obs["num_players"]):
        st = obs["stores"][k]
        items = [
            sc.item(
                f"s{k}-{COLOURS[c]}",
                f"{COLOURS[c]} ×{st[c]}",
                "counter",
                icon="flower",
                colour=FILLS[c],
                name=f"{st[c]} {COLOURS[c]} {'posy' if st[c] == 1 else 'posies'} taken",
            )
            for c in range(len(COLOURS))
        ]
        if obs["drawn"] and obs["drawn"][k]:
            h = obs["hidden"][k]
            items.append(
                sc.item(
                    f"s{k}-hidden",
                    f"drawn: {h}" if h else "drawn posy",
                    "token",
                    face_down=h is None,
                    detail=said("worth triple at the end", "8.2"),
                    icon="flower" if h else None,
                    colour=FILLS[COLOURS.index(h)] if h else None,
                )
            )
        s["zones"].append(sc.zone(f"store{k}", f"{wording.seat(k)}'s posies", items, owner=k))
    scores = obs["scores"]
    s["status"] = [
        f"{wording.seat(k)}: {sum(obs['stores'][k])} posies, score {scores[k] if scores[k] is not None else '?'}"
        for k in range(obs["num_players"])
    ]
    if obs["phase"] in ("setup", "placement"):
        s["status"].append(f"{obs['to_place']} posies to place")
    s["players"] = [
        sc.player(k, f"seat {k}" + (" (you)" if k == viewer else ""), "to move" if obs["to_move"] == k else None)
        for k in range(obs["num_players"])
    ]
    return sc.finish_scene(s, legal)


PosiesGame.state_class = PosiesState
GAME_CLASS = PosiesGame
