"""Greedy Fiefs: a 5x5 war of two small armies, with villages that build, keeps that shoot and caves that hide.

Rules: ``docs/rules/greedy-fiefs.md``; clause numbers are cited as ``§n``.

Seat 0 is Red, seat 1 is Black. Black chooses the starting area and sets up
first; Red sets up in the opposite area and takes the first turn (§3). A
square is ``5 * y + x`` (``x`` 0..4 the column ``a``..``e``, ``y`` 0..4 the row
``1``..``5``). The board (where the Keeps and Villages lie) is data:
``games/data/greedy-fiefs.json``, option ``layout``.

Chance and hidden information (§2, §3.1): the four cave cards are dealt face
down, one chance entry per corner cave (a1, e1, a5, e5), seen by nobody; a
card is revealed when a Hero explores its cave (§9), and the explore entry's
log text shows it. ``resample`` redraws the cards still face down.

Turn phases (§4-§10), each a :class:`~boardlab.core.phases.Phase`: build,
move (one troop at a time), conflict (the defender's choice of which stack
fights first, first strikes, kill exchanges, discards over the stacking
limit), caves, reinforcement. Kill choices of both players in a battle round
are one simultaneous decision (§8.3) when both have a real choice.

Actions (:data:`ACTIONS`): ``area`` (4), ``place`` (2: keep, village),
``build`` (4 troop types), ``stop`` (build nothing more), ``move`` (troop x from
x to, 2500), ``end`` (end movement), ``first`` (25 squares: the stack that
fights first), ``kill`` (128: how many cavalry, infantry, archers and heroes
die), ``discard`` (3), ``explore``, ``leave``, ``reinforce`` (25 squares).
"""

from __future__ import annotations

import json
import random
from functools import cache
from importlib import resources
from typing import Any

from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.chance import equally_likely
from ..core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from ..core.game import Game, win_loss
from ..core.gametype import Chance, Dynamics, GameType, Information
from ..core.hidden import Seen
from ..core.options import Option
from ..core.phases import Phase, PhasedState, phase_table
from ..core.tensor import Tensor
from ..core.wording import and_list, said, third_person
from ..geometry.squaregrid import SquareGrid
from . import _tensors as tz

SIZE = 5
N = SIZE * SIZE
NAMES = ("Red", "Black")
LABELS = tuple(f"{'abcde'[s % SIZE]}{s // SIZE + 1}" for s in range(N))
CAV, INF, ARC, HERO = range(4)
KEEP_KILLER = 4  # the Keep's free kill, a killer that is not a troop (§8.2)
TROOPS = ("cavalry", "infantry", "archer", "hero")
PLURAL = ("cavalry", "infantry", "archers", "heroes")
LETTER = ("C", "I", "A", "H")
#: §8.3: ``CAN_KILL[killer][victim]``: cavalry is immune to archers, infantry to cavalry, archers to
#: infantry, a hero to everything but a hero; the Keep kills any troop but a hero.
CAN_KILL = (
    (True, False, True, False),
    (True, True, False, False),
    (False, True, True, False),
    (True, True, True, True),
    (True, True, True, False),
)
STACK_LIMIT = 3  # §5.3: non-hero troops of one player on a square
CARDS = ("Dragon", "Goblin Horde", "Burrowing Horror", "Artifact")
ARTIFACT = 3
AREAS = ("south", "north", "west", "east")
NO = -1
Counts = tuple[int, int, int, int]
ZERO: Counts = (0, 0, 0, 0)

# Phases.
CAVES = "caves"
AREA = "area"
PLACE = "place"
BUILD = "build"
MOVE = "move"
ORDER = "order"
STRIKE = "first strike"
KILL = "kill"
DISCARD = "discard"
EXPLORE = "explore"
REINFORCE = "reinforce"
OVER = "over"


def _data() -> dict[str, Any]:
    text = resources.files("boardlab.games").joinpath("data/greedy-fiefs.json").read_text()
    return json.loads(text)


DATA = _data()
CAVE_SQUARES = tuple(LABELS.index(c) for c in DATA["caves"])
LAKE = LABELS.index(DATA["lake"])
OPPOSITE = {a: DATA["opposite"][a] for a in AREAS}
MONSTERS = tuple((*DATA["monsters"][name], 0) for name in CARDS[:3])


def kill_label(c: int, i: int, a: int, h: int) -> str:
    parts = [f"{n} {PLURAL[t] if n > 1 else TROOPS[t]}" for t, n in enumerate((c, i, a, h)) if n]
    if not parts:
        return "kill nothing"
    return "kill " + and_list(parts)


def build_label(t: int) -> str:
    return ("build cavalry", "build infantry", "build an archer", "build the hero")[t]


def discard_label(t: int) -> str:
    return ("discard a cavalry", "discard an infantry", "discard an archer")[t]


ACTIONS = ActionSpace(
    Segment("area", (("area", AREAS),), "start in the {area}"),
    Segment("place", (("spot", ("keep", "village")),), "to the {spot}"),
    Segment("build", (("troop", TROOPS),), build_label),
    Segment("stop", (), "build nothing more"),
    Segment("move", (("troop", TROOPS), ("from", LABELS), ("to", LABELS)), "{troop} {from}-{to}"),
    Segment("end", (), "end movement"),
    Segment("first", (("square", LABELS),), "the stack from {square} fights first"),
    Segment("kill", (("cavalry", 4), ("infantry", 4), ("archers", 4), ("hero", 2)), kill_label),
    Segment("discard", (("troop", TROOPS[:3]),), discard_label),
    Segment("explore", (), "explore the cave"),
    Segment("leave", (), "leave the cave"),
    Segment("reinforce", (("square", LABELS),), "reinforce {square}"),
)
AREA_AT, PLACE_AT, BUILD_AT, STOP, MOVE_AT, END, FIRST_AT, KILL_AT, DISCARD_AT, EXPLORE_A, LEAVE, REINFORCE_AT = (
    ACTIONS.offsets(
        "area", "place", "build", "stop", "move", "end", "first", "kill", "discard", "explore", "leave", "reinforce"
    )
)


def kill_action(v: Counts) -> int:
    return ACTIONS.encode("kill", v[0], v[1], v[2], min(v[3], 1))


def kill_counts(a: int) -> Counts:
    c, i, r, h = ACTIONS.decode(a)[1]
    return (c, i, r, h)


def step(s: int, dx: int, dy: int) -> int:
    x, y = s % SIZE + dx, s // SIZE + dy
    return y * SIZE + x if 0 <= x < SIZE and 0 <= y < SIZE else NO


#: §5.1: the squares next to each square (8 directions), never the lake.
ADJ = tuple(
    tuple(t for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx or dy) and (t := step(s, dx, dy)) != NO and t != LAKE)
    for s in range(N)
)


def _destinations(t: int, s: int, foe: list[bool], full: set[int]) -> set[int] | tuple[int, ...]:
    """Where troop ``t`` on ``s`` may move (§5.1-§5.3), unsorted: ``foe`` and ``full`` as
    :meth:`GreedyFiefsState._move_board` gives them."""
    if t == CAV:
        out = set(ADJ[s])
        for m in ADJ[s]:
            if not foe[m]:
                out.update(ADJ[m])
        out.discard(s)
        return out - full if full else out
    if t == HERO:
        return ADJ[s]
    return tuple(d for d in ADJ[s] if d not in full) if full else ADJ[s]


@cache
def kill_options(killers: tuple[int, ...], victims: Counts) -> tuple[Counts, ...]:
    """§8.3: every set of victims the ``killers`` can take at once, one distinct victim each, as many as
    possible (counts of cavalry, infantry, archers, heroes)."""
    found: set[Counts] = set()

    def go(k: int, left: list[int], took: list[int]) -> None:
        if k == len(killers):
            found.add((took[0], took[1], took[2], took[3]))
            return
        go(k + 1, left, took)
        for t in range(4):
            if left[t] and CAN_KILL[killers[k]][t]:
                left[t] -= 1
                took[t] += 1
                go(k + 1, left, took)
                left[t] += 1
                took[t] -= 1

    go(0, list(victims), [0, 0, 0, 0])
    best = max(sum(v) for v in found)
    return tuple(sorted(v for v in found if sum(v) == best))


def troop_list(c: Counts) -> tuple[int, ...]:
    return tuple(t for t in range(4) for _ in range(c[t]))


def add(a: Counts, b: Counts, sign: int = 1) -> Counts:
    return (a[0] + sign * b[0], a[1] + sign * b[1], a[2] + sign * b[2], a[3] + sign * b[3])


def one(t: int) -> Counts:
    return (int(t == 0), int(t == 1), int(t == 2), int(t == 3))


def describe(c: Counts) -> str:
    parts = [f"{n} {PLURAL[t] if n > 1 else TROOPS[t]}" for t, n in enumerate(c) if n]
    return ", ".join(parts) if parts else "nothing"


class GreedyFiefsGame(Game):
    id = "greedy-fiefs"
    title = "Greedy Fiefs"
    summary = (
        "Two small armies on a 5x5 board: hold villages to build troops, fight with rock-paper-scissors "
        "immunities, explore the caves, and take the enemy Keep."
    )
    options = (
        Option.choice(
            "layout",
            {"symmetric": "Alike in every area", "unique_v1": "Different in each area"},
            said(
                "Where each starting area's Keep and Village lie: alike in every area, or a different arrangement "
                "in each.",
                "1",
            ),
        ),
        Option(
            "turn_limit",
            int,
            100,
            (60, 100, 200),
            said("After this many turns the player with more troops on the board wins.", "11.4"),
        ),
    )
    mechanics = ("square board", "war game", "building", "simultaneous kill choices", "hidden caves")
    playing_time = "15 min"
    game_type = GameType(dynamics=Dynamics.SIMULTANEOUS, chance=Chance.EXPLICIT, information=Information.IMPERFECT)
    seat_names = NAMES
    inventions = (
        "Where the Keeps and Villages lie: the text gives no board. By default every starting area has its Keep on "
        "the middle edge square and its Village on the inner square; option layout = unique_v1 gives each area "
        "its own arrangement.",
        "Black chooses the starting area and sets up first; Red sets up opposite and moves first.",
        "Each player's counters start only on the Keep and the Village of their area.",
        "Battles at a square are fought in the order of the squares (a1, b1, ... e5); the defender orders the "
        "stacks at each square.",
        "A battle is fought in rounds until one side is gone from the square.",
        "Kills must be as many as the troops can make, each on a different troop.",
        "The Keep's free kill and the Artifact's first strike happen once, before the first round at a square.",
        "A lone Hero, killed troops and discarded troops go back to their owner's reserve and can be built again.",
        "The opponent of the exploring player chooses the monster's kills; a monster's losses stay on its card.",
        "When the Artifact's Hero leaves the board, the Artifact lies face up in its cave again.",
        "Caves are explored after all battles; a hero who finds the Artifact takes it.",
        "Submitting is resigning at the table, not a move; after 100 turns the player with more troops on the "
        "board wins, and equal numbers draw (option turn_limit).",
    )
    num_chance_outcomes = len(CARDS)

    def _setup(self) -> None:
        self.action_space = ACTIONS
        areas = DATA["layouts"][self.params["layout"]]["areas"]
        self.area_squares = {a: tuple(LABELS.index(s) for s in areas[a]["squares"]) for a in AREAS}
        self.keep = {a: LABELS.index(areas[a]["keep"]) for a in AREAS}
        self.village = {a: LABELS.index(areas[a]["village"]) for a in AREAS}
        self.keeps = frozenset(self.keep.values())
        self.villages = frozenset(self.village.values())
        self.turn_limit = self.params["turn_limit"]
        grid = SquareGrid(SIZE, SIZE)

        def fill(i: int) -> str | None:
            s = LABELS.index(grid.label(i))
            if s == LAKE:
                return "#5b9bd5"
            if s in CAVE_SQUARES:
                return "dark"
            if s in self.keeps:
                return "#c9b27c"
            if s in self.villages:
                return "#a8c686"
            return "light"

        def label(i: int) -> str:
            s = LABELS.index(grid.label(i))
            word = (
                "lake"
                if s == LAKE
                else "cave"
                if s in CAVE_SQUARES
                else "keep"
                if s in self.keeps
                else "village"
                if s in self.villages
                else ""
            )
            return f"{LABELS[s]} {word}".strip()

        self._cells = grid.scene_cells(fill=fill, label=label)
        # §11.4: the turn limit; a turn holds at most 2 builds, 7 moves + end, and a few dozen battle steps.
        self.max_length = 4 + 10 + self.turn_limit * 80


class GreedyFiefsState(PhasedState):
    game: GreedyFiefsGame
    copied = (
        "units",
        "reserve",
        "half",
        "cave_card",
        "cave_open",
        "cave_troops",
        "area",
        "groups",
        "kill_opts",
        "deciders",
    )

    def __init__(self, game: GreedyFiefsGame, num_players: int) -> None:
        super().__init__(game, num_players)
        #: ``units[seat * 25 + square]``: that seat's (cavalry, infantry, archers, heroes) there.
        self.units: list[Counts] = [ZERO] * (2 * N)
        self.reserve: list[Counts] = [(2, 2, 2, 1), (2, 2, 2, 1)]
        self.half = [False, False]  # §4.2: the 1/2-build counter, face up
        self.queue: tuple[int, ...] = ()  # §4.3: the mover's built troops, placed in §10
        self.builds = 0  # whole builds still to spend this turn
        self.leftover = 0  # halves left over this turn
        self.cave_card = [NO] * 4  # the card in each cave (a1, e1, a5, e5), NO when empty
        self.cave_open = [False] * 4  # face up
        self.cave_troops: list[Counts] = [ZERO] * 4  # a revealed monster's troops left
        self.carrier = NO  # the seat whose Hero carries the Artifact
        self.artifact_home = NO  # the cave it came from
        self.area = ["", ""]
        self.placing = 1  # §3: Black sets up first
        self.placed = 0
        self.phase = CAVES
        self.mover = 0
        self.turns = 0
        self.arrivals: tuple[tuple[int, int, int], ...] = ()  # this turn's moves: (from, to, troop)
        self.contested: tuple[int, ...] = ()  # squares still to fight over
        self.cur = NO  # the square being fought over (or the cave being explored)
        self.groups: list[tuple[int, Counts]] = []  # attacking stacks still to fight there, by origin
        self.keep_strike = False  # §8.2: the Keep's free kill is still to come at this square
        self.fresh = False  # the coming round is the first of the first battle at the square (or cave)
        self.a: Counts = ZERO  # the attacking (exploring) stack in the battle
        self.d: Counts = ZERO  # the defending stack (or the monster)
        self.monster = NO  # the cave whose monster is fought
        self.struck = [False, False]  # the Artifact's Hero of that side struck first this round
        self.kill_opts: list[tuple[int, ...]] = [(), ()]  # per seat, at a kill phase
        self.deciders = [False, False]  # who chooses kills now
        self.winner = NO  # a seat, or 2 for a draw
        self.last: tuple[int, ...] = ()
        self.events: tuple[str, ...] = ()  # what the last battle did, in words

    # -- small queries --------------------------------------------------------------------
    def at(self, seat: int, s: int) -> Counts:
        return self.units[seat * N + s]

    def put(self, seat: int, s: int, c: Counts) -> None:
        self.units[seat * N + s] = c

    def occupied(self, seat: int, s: int) -> bool:
        return any(self.units[seat * N + s])

    def on_board(self, seat: int) -> int:
        return sum(map(sum, self.units[seat * N : seat * N + N]))

    def defender(self) -> int:
        return 1 - self.mover

    def own_keep(self, seat: int) -> int:
        return self.game.keep[self.area[seat]]

    # -- §3 setup ---------------------------------------------------------------------------
    def _outcomes_caves(self) -> list[tuple[int, float]]:
        left = [c for c in range(4) if c not in self.cave_card]
        return equally_likely(left)

    def _apply_cave(self, card: int) -> None:
        k = self.cave_card.index(NO)
        self.cave_card[k] = card
        if NO not in self.cave_card:
            self.phase = AREA

    def _legal_area(self, player: int) -> list[int]:
        return [AREA_AT + k for k in range(4)]

    def _apply_area(self, a: int) -> None:
        self.area[1] = AREAS[a - AREA_AT]
        self.area[0] = OPPOSITE[self.area[1]]
        self.phase = PLACE

    def _spots(self, seat: int) -> tuple[int, int]:
        return self.game.keep[self.area[seat]], self.game.village[self.area[seat]]

    def _legal_place(self, player: int) -> list[int]:
        if self.placed < 3:
            return [PLACE_AT, PLACE_AT + 1]
        return [PLACE_AT + k for k, s in enumerate(self._spots(player)) if self.occupied(player, s)]

    def _apply_place(self, a: int) -> None:
        p = self.placing
        s = self._spots(p)[a - PLACE_AT]
        t = self.placed
        self.put(p, s, add(self.at(p, s), one(t)))
        self.reserve[p] = add(self.reserve[p], one(t), -1)
        self.last = (s,)
        self.placed += 1
        if self.placed == 4:
            self.placed = 0
            if p == 1:
                self.placing = 0
            else:
                self._start_turn(0)

    # -- §4 build ----------------------------------------------------------------------------
    def _start_turn(self, p: int) -> None:
        self.mover = p
        self.arrivals = ()
        halves = sum(1 for v in self.game.villages if self.occupied(p, v)) + int(self.half[p])
        self.half[p] = False
        self.builds, self.leftover = divmod(halves, 2)
        self.queue = ()
        if self.builds and any(self.reserve[p]):
            self.phase = BUILD
        else:
            self._end_build()

    def _legal_build(self, player: int) -> list[int]:
        return [BUILD_AT + t for t in range(4) if self.reserve[player][t]] + [STOP]

    def _apply_build(self, a: int) -> None:
        p = self.mover
        if a == STOP:
            self._end_build()
            return
        t = a - BUILD_AT
        self.reserve[p] = add(self.reserve[p], one(t), -1)
        self.queue = (*self.queue, t)
        self.builds -= 1
        if not self.builds or not any(self.reserve[p]):
            self._end_build()

    def _end_build(self) -> None:
        """§4.2: at most half a build is kept, on the face-up counter."""
        self.half[self.mover] = self.leftover + 2 * self.builds >= 1
        self.builds = self.leftover = 0
        self.phase = MOVE

    # -- §5 movement --------------------------------------------------------------------------
    def fresh_units(self, s: int) -> Counts:
        """The mover's troops on ``s`` that have not moved this turn (§5.1)."""
        c = self.at(self.mover, s)
        for _, to, t in self.arrivals:
            if to == s:
                c = add(c, one(t), -1)
        return c

    def destinations(self, t: int, s: int) -> list[int]:
        """§5.1, §5.2: one square (cavalry two, stopping on entering the enemy) never into the lake; never more
        than 3 troops on a square the player holds alone (§5.3)."""
        return sorted(_destinations(t, s, *self._move_board()))

    def _move_board(self) -> tuple[list[bool], set[int]]:
        """Whether the mover's enemy holds each square, and the squares the mover may bring no more troops to
        (§5.3: three troops there, and no enemy)."""
        p, units = self.mover, self.units
        foe = [c != ZERO for c in units[(1 - p) * N : (2 - p) * N]]
        full = {
            s
            for s, c in enumerate(units[p * N : p * N + N])
            if c != ZERO and c[0] + c[1] + c[2] >= STACK_LIMIT and not foe[s]
        }
        return foe, full

    def _legal_move(self, player: int) -> list[int]:
        p = self.mover
        foe, full = self._move_board()
        moved: dict[int, int] = {}  # square * 4 + troop → how many arrived there this turn (§5.1)
        for _, to, t in self.arrivals:
            moved[to * 4 + t] = moved.get(to * 4 + t, 0) + 1
        out: list[int] = []
        for s, c in enumerate(self.units[p * N : p * N + N]):
            if c == ZERO:
                continue
            for t in range(4):
                if c[t] and (not moved or c[t] > moved.get(s * 4 + t, 0)):
                    first = MOVE_AT + (t * N + s) * N
                    out += [first + d for d in _destinations(t, s, foe, full)]
        out.sort()
        out.append(END)
        return out

    def _move_is_legal(self, player: int, a: int) -> bool:
        if a == END:
            return True
        if not MOVE_AT <= a < END:
            return False
        t, rest = divmod(a - MOVE_AT, N * N)
        s, d = divmod(rest, N)
        if not self.fresh_units(s)[t] or d == s:
            return False
        p = self.mover
        if d not in ADJ[s] and not (t == CAV and any(d in ADJ[m] for m in ADJ[s] if not self.occupied(1 - p, m))):
            return False
        return t == HERO or self.occupied(1 - p, d) or sum(self.at(p, d)[:3]) < STACK_LIMIT

    def _apply_move(self, a: int) -> None:
        if a == END:  # §5.4: a Hero who ends his movement alone goes back to the reserve
            self.last = ()
            p, units = self.mover, self.units
            for s in range(N):
                c = units[p * N + s]
                if c[HERO] and not (c[0] or c[1] or c[2]):
                    self._lone_hero(p, s)
            self._start_conflict()
            return
        t, rest = divmod(a - MOVE_AT, N * N)
        s, d = divmod(rest, N)
        p = self.mover
        self.put(p, s, add(self.at(p, s), one(t), -1))
        self.put(p, d, add(self.at(p, d), one(t)))
        self.arrivals = (*self.arrivals, (s, d, t))
        self.last = (s, d)

    def _lone_hero(self, p: int, s: int) -> None:
        """§5.4: a Hero alone on a square (no troop of his own with him) goes back to the reserve."""
        c = self.at(p, s)
        if c[HERO] and not (c[0] or c[1] or c[2]):
            self.put(p, s, ZERO)
            self._hero_gone(p)
            self.arrivals = tuple(x for x in self.arrivals if not (x[1] == s and x[2] == HERO))

    def _hero_gone(self, p: int) -> None:
        self.reserve[p] = add(self.reserve[p], one(HERO))
        if self.carrier == p:  # §9.3: the Artifact lies face up in its cave again
            self.carrier = NO
            self.cave_card[self.artifact_home] = ARTIFACT
            self.cave_open[self.artifact_home] = True

    # -- §7, §8 conflict ------------------------------------------------------------------------
    def _start_conflict(self) -> None:
        p = self.mover
        units = self.units
        self.contested = tuple(s for s in range(N) if units[p * N + s] != ZERO and units[(1 - p) * N + s] != ZERO)
        self._next_square()

    def _next_square(self) -> None:
        p = self.mover
        if not self.contested:
            self.cur = NO
            self._caves()
            return
        s, self.contested = self.contested[0], self.contested[1:]
        self.cur = s
        by_origin: dict[int, Counts] = {}
        for frm, to, t in self.arrivals:
            if to == s:
                by_origin[frm] = add(by_origin.get(frm, ZERO), one(t))
        groups = sorted(by_origin.items())
        troops = [g for g in groups if sum(g[1][:3])]
        heroes = [g for g in groups if not sum(g[1][:3])]
        if heroes and troops:  # a Hero who came alone fights beside the first stack of his side
            o, c = troops[0]
            troops[0] = (o, add(c, one(HERO)))
        elif heroes:
            self._hero_gone(p)
        self.groups = troops
        self.put(p, s, ZERO)
        carrier_attacks = self.carrier == p and any(c[HERO] for _, c in troops)
        self.keep_strike = s in self.game.keeps and not carrier_attacks  # §8.2
        self.fresh = True
        self._next_group()

    def _next_group(self) -> None:
        p, s = self.mover, self.cur
        if not self.occupied(1 - p, s) or not self.groups:
            for _, c in self.groups:  # the square is won: the stacks still waiting move in
                self.put(p, s, add(self.at(p, s), c))
            self.groups = []
            self._after_square()
            return
        if len(self.groups) > 1:
            self.phase = ORDER
            return
        self._fight(0)

    def _legal_order(self, player: int) -> list[int]:
        return [FIRST_AT + o for o, _ in self.groups]

    def _apply_order(self, a: int) -> None:
        o = a - FIRST_AT
        self._fight(next(k for k, g in enumerate(self.groups) if g[0] == o))

    def _fight(self, k: int) -> None:
        _, self.a = self.groups.pop(k)
        self.d = self.at(1 - self.mover, self.cur)
        self.monster = NO
        self._round()

    def _round(self) -> None:
        """§8: a battle round: first strikes (once), then every troop kills, until one side is gone."""
        if not any(self.a) or not any(self.d):
            self._end_fight()
            return
        p = self.mover
        if self.fresh:
            self.fresh = False
            ka: tuple[int, ...] = (HERO,) if self.carrier == p and self.a[HERO] else ()
            kd: tuple[int, ...] = ()
            if self.monster == NO:
                if self.keep_strike:
                    kd += (KEEP_KILLER,)
                if self.carrier == 1 - p and self.d[HERO]:
                    kd += (HERO,)
            self.keep_strike = False
            self.struck = [bool(ka), bool(kd) and HERO in kd]
            if ka or kd:
                self._ask(STRIKE, ka, kd)
                return
        self._exchange()

    def _exchange(self) -> None:
        ka = troop_list(add(self.a, one(HERO), -1) if self.struck[0] else self.a)
        kd = troop_list(add(self.d, one(HERO), -1) if self.struck[1] else self.d)
        self.struck = [False, False]
        self._ask(KILL, ka, kd)

    def _ask(self, phase: str, ka: tuple[int, ...], kd: tuple[int, ...]) -> None:
        """Both players choose their kills at once, in secret (§8.3): the attacker's on the defender, the
        defender's on the attacker; the opponent of the exploring player chooses a monster's kills (§9.2).
        A player with no troop able to strike has nothing to choose."""
        p = self.mover
        opts: list[tuple[int, ...]] = [(), ()]
        opts[p] = tuple(kill_action(v) for v in kill_options(tuple(sorted(ka)), self.d))
        opts[1 - p] = tuple(kill_action(v) for v in kill_options(tuple(sorted(kd)), self.a))
        self.kill_opts = [opts[0], opts[1]]
        deciders = [bool(ka), bool(kd)] if p == 0 else [bool(kd), bool(ka)]
        self.phase = phase
        if not any(deciders):
            self._resolve([opts[0][0], opts[1][0]])
            return
        self.deciders = deciders

    def _legal_kill(self, player: int) -> list[int]:
        return list(self.kill_opts[player]) if self.deciders[player] else []

    def _apply_kill(self, action: Any) -> None:
        picks = [action[k] if action[k] is not None else self.kill_opts[k][0] for k in (0, 1)]
        self._resolve(picks)

    def _resolve(self, picks: list[int]) -> None:
        """All kills of a step happen together (§8.3); the dead go back to the reserve (§8.5)."""
        p = self.mover
        on_d, on_a = kill_counts(picks[p]), kill_counts(picks[1 - p])
        self.kill_opts = [(), ()]
        self.deciders = [False, False]
        self.a = add(self.a, on_a, -1)
        self.d = add(self.d, on_d, -1)
        self.reserve[p] = add(self.reserve[p], on_a)
        if on_a[HERO]:
            self._hero_gone(p)
            self.reserve[p] = add(self.reserve[p], one(HERO), -1)
        if self.monster == NO:
            self.reserve[1 - p] = add(self.reserve[1 - p], on_d)
            if on_d[HERO]:
                self._hero_gone(1 - p)
                self.reserve[1 - p] = add(self.reserve[1 - p], one(HERO), -1)
        self.events = (*self.events, f"{NAMES[p]} lost {describe(on_a)}, the other side {describe(on_d)}")
        if self.phase == STRIKE:
            self._exchange()
            return
        # §5.4: a Hero left without a troop of his own is removed.
        if self.a[HERO] and not sum(self.a[:3]):
            self.a = ZERO
            self._hero_gone(p)
        if self.monster == NO and self.d[HERO] and not sum(self.d[:3]):
            self.d = ZERO
            self._hero_gone(1 - p)
        self._round()

    def _end_fight(self) -> None:
        p, s = self.mover, self.cur
        if self.monster != NO:  # §9.2: the monster's losses stay on its card
            k = self.monster
            self.cave_troops[k] = self.d
            if not any(self.d):
                self.cave_card[k] = NO
                self.cave_open[k] = False
            self.put(p, s, self.a)
            self.monster = NO
            self.a = self.d = ZERO
            self._end_conflict()
            return
        self.put(1 - p, s, self.d)
        if any(self.a):
            self.put(p, s, add(self.at(p, s), self.a))
        self.a = self.d = ZERO
        self._next_group()

    def _after_square(self) -> None:
        """§7.3: after the battles, troops over the stacking limit are discarded."""
        if sum(self.at(self.mover, self.cur)[:3]) > STACK_LIMIT:
            self.phase = DISCARD
            return
        self._next_square()

    def _legal_discard(self, player: int) -> list[int]:
        c = self.at(player, self.cur)
        return [DISCARD_AT + t for t in range(3) if c[t]]

    def _apply_discard(self, a: int) -> None:
        t = a - DISCARD_AT
        p = self.mover
        self.put(p, self.cur, add(self.at(p, self.cur), one(t), -1))
        self.reserve[p] = add(self.reserve[p], one(t))
        self._after_square()

    # -- §9 caves -------------------------------------------------------------------------------
    def explorable(self) -> int:
        """The cave where the mover's Hero stands and something is left to find, or ``NO``."""
        for k, s in enumerate(CAVE_SQUARES):
            if self.cave_card[k] != NO and self.at(self.mover, s)[HERO]:
                return k
        return NO

    def _caves(self) -> None:
        if self.explorable() == NO:
            self._end_conflict()
        else:
            self.phase = EXPLORE

    def _legal_explore(self, player: int) -> list[int]:
        return [EXPLORE_A, LEAVE]

    def _apply_explore(self, a: int) -> None:
        if a == LEAVE:
            self._end_conflict()
            return
        k = self.explorable()
        p = self.mover
        if not self.cave_open[k]:
            self.cave_open[k] = True
            self._mark_irreversible()
        card = self.cave_card[k]
        s = CAVE_SQUARES[k]
        self.cur = s
        if card == ARTIFACT:  # §9.1
            self.carrier, self.artifact_home = p, k
            self.cave_card[k] = NO
            self.cave_open[k] = False
            self._end_conflict()
            return
        if self.cave_troops[k] == ZERO:
            self.cave_troops[k] = MONSTERS[card]
        self.a = self.at(p, s)
        self.put(p, s, ZERO)
        self.d = self.cave_troops[k]
        self.monster = k
        self.fresh = True
        self.keep_strike = False
        self._round()

    def _end_conflict(self) -> None:
        """§11.1: the mover holding the opponent's starting Keep at the end of the conflict phase wins."""
        p = self.mover
        self.cur = NO
        if self.occupied(p, self.own_keep(1 - p)):
            self.winner = p
            self.phase = OVER
            return
        self.queue = tuple(sorted(self.queue))  # heroes last: a Hero needs a troop beside him (§10.2)
        self._reinforce()

    # -- §10 reinforcement ---------------------------------------------------------------------------
    def reinforce_squares(self) -> list[int]:
        p = self.mover
        t = self.queue[0]
        keep = self.own_keep(p)
        out = []
        for s in range(N):
            c = self.at(p, s)
            if s != keep and not (any(c) and (s in self.game.keeps or s in self.game.villages)):
                continue
            if self.occupied(1 - p, s):
                continue
            if t == HERO:
                if sum(c[:3]) and not c[HERO]:
                    out.append(s)
            elif sum(c[:3]) < STACK_LIMIT:
                out.append(s)
        return out

    def _reinforce(self) -> None:
        while self.queue:
            if self.reinforce_squares():
                self.phase = REINFORCE
                return
            t, self.queue = self.queue[0], self.queue[1:]  # nowhere to go: back to the reserve
            self.reserve[self.mover] = add(self.reserve[self.mover], one(t))
        self._end_turn()

    def _legal_reinforce(self, player: int) -> list[int]:
        return [REINFORCE_AT + s for s in self.reinforce_squares()]

    def _apply_reinforce(self, a: int) -> None:
        s = a - REINFORCE_AT
        p = self.mover
        t, self.queue = self.queue[0], self.queue[1:]
        self.put(p, s, add(self.at(p, s), one(t)))
        self.last = (s,)
        self._reinforce()

    def _end_turn(self) -> None:
        """§11.2: a player with no troops on the board loses; §11.4: the turn limit."""
        p = self.mover
        mine, theirs = self.on_board(p), self.on_board(1 - p)
        self.turns += 1
        if not mine or not theirs:
            self.winner = 2 if not mine and not theirs else (p if mine else 1 - p)
            self.phase = OVER
            return
        if self.turns >= self.game.turn_limit:
            r, b = self.on_board(0), self.on_board(1)
            self.winner = 0 if r > b else 1 if b > r else 2
            self.phase = OVER
            return
        self._start_turn(1 - p)

    # -- hooks --------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        return win_loss(self.winner) if self.phase == OVER else [0.0, 0.0]

    def evaluate(self, seat: int) -> float | None:
        """Troops on the board and villages held, for search cut-offs."""

        def worth(s: int) -> float:
            v = sum(1 for x in self.game.villages if self.occupied(s, x))
            return self.on_board(s) + 0.5 * v

        m, t = worth(seat), worth(1 - seat)
        return max(-0.9, min(0.9, (m - t) / (m + t + 1)))

    def resample(self, player: int | None, rng: random.Random) -> GreedyFiefsState:
        """A state nobody can tell from this one: the cards still face down are shuffled among their caves.

        Nobody has seen them, and nothing done so far depended on them, so every order of them is as likely
        as the core's replaying resample would draw it; the setup entries of the history are rewritten to match.

        Kept, measured faster than the core's default (``bench/bench_resample.py greedy-fiefs``: 0.19-0.41 ms a
        call against the core's 38-55 ms, per viewer, 5 calls on each position of four seeded games; the core replays
        the whole game after the cave deal).
        """
        s = self.clone()
        dealt = min(4, len(self._history))
        hidden = [k for k in range(dealt) if self.cave_card[k] != NO and not self.cave_open[k]]
        known = {self._history[k] for k in range(dealt) if k not in hidden}
        pool = [c for c in range(4) if c not in known]
        cards = rng.sample(pool, len(hidden))
        for k, c in zip(hidden, cards, strict=True):
            s.cave_card[k] = c
            s._history[k] = c
        return s

    def _seen(self, actor: int, entry: Any) -> Any:
        if self.phase == CAVES:
            k = self.cave_card.index(NO)
            return Seen(f"a cave card was laid face down on {LABELS[CAVE_SQUARES[k]]}", {})
        if self.phase == EXPLORE and entry == EXPLORE_A:
            k = self.explorable()
            card = CARDS[self.cave_card[k]]
            found = f"explores the cave on {LABELS[CAVE_SQUARES[k]]} and finds the {card}"
            return Seen(found, pins=(k,))  # the cave's card was laid face down by history entry k
        seen = super()._seen(actor, entry)
        if isinstance(entry, int) and isinstance(seen, Seen) and actor >= 0:
            return Seen(self._words(entry, seen.public))
        if isinstance(entry, tuple) and isinstance(seen, tuple):
            return tuple(
                None if x is None or a is None else Seen(self._words(a, x.public)) for a, x in zip(entry, seen)
            )
        return seen

    def _words(self, action: int, label: str) -> str:
        """A seat's step in words after its name ("moves the archer from b3 to c4", "kills 1 cavalry"); the label
        (``archer b3-c4``) is the notation."""
        if action not in ACTIONS:
            return label
        seg, idx = ACTIONS.decode(action)
        if seg == "place":
            return f"puts the {TROOPS[self.placed]} on the {('Keep', 'Village')[idx[0]]}"
        if seg == "move":
            return f"moves the {TROOPS[idx[0]]} from {LABELS[idx[1]]} to {LABELS[idx[2]]}"
        if seg == "end":
            return "ends the movement"
        if seg == "first":
            return label
        if seg == "build":
            return "builds " + ("a cavalry troop", "an infantry troop", "an archer", "the hero")[idx[0]]
        if seg == "reinforce":
            return f"reinforces the troops on {LABELS[idx[0]]}"
        if label == "kill nothing":
            return "kills no troop"
        return third_person(label)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"the {CARDS[action]}"
        return super()._action_to_string(player, action)

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The observation as numbers (docs/research/tensors-newer.md): seats from the viewer's, squares as they lie."""
        o = self.observation(player)
        v = player
        tz.header(t, o, v, 2, PHASE_NAMES)
        t.one_hot("mover", tz.rel(o["mover"], v, 2), 2)
        t.one_hot("placing", tz.rel(o["placing"], v, 2), 2)
        t.counts("placed", [o["placed"]], 4)
        tz.one_hots(t, "areas", [AREAS.index(a) if a else None for a in tz.rotate(o["areas"], v)], len(AREAS))
        for k, units in enumerate(tz.rotate(o["units"], v)):
            t.counts(f"units{k}", [c for square in units for c in square], STACK_LIMIT)
        t.counts("reserve", [c for r in tz.rotate(o["reserve"], v) for c in r], 2)
        t.bits("half", tz.rotate(o["half"], v))
        tz.seq(t, "queue", o["queue"], ARMY, len(TROOPS))
        t.counts("builds", [o["builds"]], ARMY)
        tz.one_hots(t, "caves", [_cave_code(c) for c in o["caves"]], len(CAVE_CODES))
        t.counts("cave_troops", [x for c in o["caves"] for x in c.get("troops", ZERO)], 2)
        t.one_hot("carrier", tz.rel(o["carrier"], v, 2), 2)
        battle = o["battle"]
        t.bits("battle", [battle is not None])
        t.one_hot("battle_square", battle["square"] if battle and battle["square"] >= 0 else None, N)
        t.counts("battle_attackers", battle["attackers"] if battle else ZERO, ARMY)
        t.counts("battle_defenders", battle["defenders"] if battle else ZERO, ARMY)
        t.one_hot("battle_monster", CARDS.index(battle["monster"]) if battle and battle["monster"] else None, 3)
        waiting = battle["waiting"] if battle else []
        tz.seq(t, "waiting_from", [w[0] for w in waiting], len(KING_STEPS), N)
        t.counts(
            "waiting_troops", [c for w in waiting for c in w[1]] + [0] * 4 * (len(KING_STEPS) - len(waiting)), ARMY
        )
        moved = o["moved"]
        tz.seq(t, "moved_from", [m[0] for m in moved], MAX_MOVES, N)
        tz.seq(t, "moved_to", [m[1] for m in moved], MAX_MOVES, N)
        tz.seq(t, "moved_troop", [m[2] for m in moved], MAX_MOVES, len(TROOPS))
        t.counts("turns", [o["turns"]], o["turn_limit"] + 1)
        tz.seq(t, "last", o["last"], 2, N)
        t.one_hot("winner", tz.rel(o["winner"], v, 2), 2)
        t.bits("draw", [o["draw"]])

    def observation(self, player: int | None = None) -> dict[str, Any]:
        caves = []
        for k in range(4):
            card = self.cave_card[k]
            if card == NO:
                caves.append({"state": "empty"})
            elif not self.cave_open[k]:
                caves.append({"state": "face down"})
            elif card == ARTIFACT:
                caves.append({"state": "open", "card": "Artifact"})
            else:
                left = self.cave_troops[k] if self.cave_troops[k] != ZERO else MONSTERS[card]
                caves.append({"state": "open", "card": CARDS[card], "troops": list(left)})
        fighting = self.phase in (STRIKE, KILL, ORDER)
        return {
            "viewer": player,
            "phase": self.phase,
            "to_move": self.current_player(),
            "mover": self.mover,
            "placing": self.placing,
            "placed": self.placed,
            "layout": self.game.params["layout"],
            "areas": self.area[:],
            "units": [[list(self.at(seat, s)) for s in range(N)] for seat in (0, 1)],
            "reserve": [list(r) for r in self.reserve],
            "half": self.half[:],
            "queue": list(self.queue),
            "builds": self.builds,
            "caves": caves,
            "carrier": self.carrier if self.carrier != NO else None,
            "battle": {
                "square": self.cur,
                "attackers": list(self.a),
                "defenders": list(self.d),
                "monster": CARDS[self.cave_card[self.monster]] if self.monster != NO else None,
                "waiting": [[o, list(c)] for o, c in self.groups],
            }
            if fighting
            else None,
            "moved": [[f, t, x] for f, t, x in self.arrivals],
            "turns": self.turns,
            "turn_limit": self.game.turn_limit,
            "last": list(self.last),
            "winner": self.winner if self.winner in (0, 1) else None,
            "draw": self.winner == 2,
        }


# -- explanations -----------------------------------------------------------------------------


def _explain_move(s: GreedyFiefsState, p: int, a: int) -> str | None:
    if not MOVE_AT <= a < END:
        return said("it is the movement phase: move a troop or end movement", "5")
    t, frm, to = ACTIONS.decode(a)[1]
    if not s.fresh_units(frm)[t]:
        return said(f"you have no {TROOPS[t]} on {LABELS[frm]} that has not moved this turn", "5.1")
    if to == LAKE:
        return said("no troop may enter the lake", "5.2")
    if to not in s.destinations(t, frm) and (to in ADJ[frm] or t == CAV):
        if t != HERO and not s.occupied(1 - p, to) and sum(s.at(p, to)[:3]) >= STACK_LIMIT:
            return said(f"{LABELS[to]} already holds {STACK_LIMIT} of your troops", "5.3")
        if t == CAV:
            return said("cavalry moves up to two squares and stops when it enters an enemy square", "5.1")
    return said("a troop moves one square in any direction, cavalry up to two", "5.1")


def _explain_kill(s: GreedyFiefsState, p: int, a: int) -> str | None:
    return said(
        "each troop kills one enemy troop it is not immune to, each a different one, and as many as possible", "8.3"
    )


def _explain_reinforce(s: GreedyFiefsState, p: int, a: int) -> str | None:
    return said(
        "a new troop goes on your starting Keep or on a Keep or Village you hold, at most 3 troops to a "
        "square; a Hero only beside a troop of yours",
        "10",
    )


def _explain_place(s: GreedyFiefsState, p: int, a: int) -> str | None:
    return said("the Hero must stand with one of your troops", "3.3")


def _generic(text: str) -> Any:
    def explain(s: GreedyFiefsState, p: int, a: int) -> str | None:
        return text

    return explain


# -- prompts ----------------------------------------------------------------------------------------


PHASE_WORDS = {
    AREA: "chooses a starting area",
    PLACE: "sets up",
    BUILD: "builds",
    MOVE: "moves",
    ORDER: "chooses which attacking stack fights first",
    STRIKE: "chooses a first strike",
    KILL: "chooses kills",
    DISCARD: "discards troops over the stacking limit",
    EXPLORE: "may explore a cave",
    REINFORCE: "places new troops",
}


def _mine(obs: dict[str, Any]) -> bool:
    return obs["viewer"] is not None and obs["viewer"] == obs["to_move"]


def _prompt(game: GreedyFiefsGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    phase = obs["phase"]
    if phase == OVER:
        if obs["draw"]:
            return "The game is drawn."
        return f"{NAMES[obs['winner']]} wins."
    if phase == CAVES:
        return "The cave cards are dealt face down."
    who = obs["to_move"]
    if who == SIMULTANEOUS:
        if obs["viewer"] is None or not legal:
            return "Both players choose their kills in secret."
        return "Choose your kills (the other player chooses at the same time)."
    name = NAMES[who] if who in (0, 1) else ""
    if not _mine(obs):
        return f"{name} {PHASE_WORDS.get(phase, 'decides')}."
    if phase == AREA:
        return "Choose your starting area; your opponent starts opposite and moves first."
    if phase == PLACE:
        return f"Put your {TROOPS[obs['placed']]} on your Keep or your Village."
    if phase == BUILD:
        return f"Build a troop from your reserve ({obs['builds']} build{'s' if obs['builds'] > 1 else ''} left)."
    if phase == MOVE:
        return "Move your troops one by one (each once), then end movement."
    if phase == ORDER:
        return f"Choose which attacking stack fights first on {LABELS[obs['battle']['square']]}."
    if phase in (STRIKE, KILL):
        b = obs["battle"]
        what = "first strike" if phase == STRIKE else "kills"
        return f"Battle on {LABELS[b['square']]}: choose your {what}."
    if phase == DISCARD:
        return "Over the stacking limit: discard a troop."
    if phase == EXPLORE:
        return "Your Hero stands in a cave: explore it?"
    return f"Place your new {TROOPS[obs['queue'][0]]}."


def _mover(s: GreedyFiefsState) -> int:
    return s.mover


def _placing(s: GreedyFiefsState) -> int:
    return s.placing


S = GreedyFiefsState
PHASES = phase_table(
    Phase(CAVES, CHANCE, outcomes=S._outcomes_caves, apply=S._apply_cave),
    Phase(AREA, 1, legal=S._legal_area, apply=S._apply_area,
          explain=_generic(said("first choose your starting area", "3.2"))),
    Phase(PLACE, _placing, legal=S._legal_place, apply=S._apply_place, explain=_explain_place),
    Phase(BUILD, _mover, legal=S._legal_build, apply=S._apply_build,
          explain=_generic(said("you may build only troops that are in your reserve", "4.3"))),
    Phase(
        MOVE,
        _mover,
        legal=S._legal_move,
        apply=S._apply_move,
        explain=_explain_move,
        is_legal=S._move_is_legal,
    ),
    Phase(ORDER, lambda s: 1 - s.mover, legal=S._legal_order, apply=S._apply_order,
          explain=_generic(said("the defender chooses one of the stacks that attacked this square", "7.2"))),
    Phase(STRIKE, SIMULTANEOUS, legal=S._legal_kill, apply=S._apply_kill, explain=_explain_kill),
    Phase(KILL, SIMULTANEOUS, legal=S._legal_kill, apply=S._apply_kill, explain=_explain_kill),
    Phase(DISCARD, _mover, legal=S._legal_discard, apply=S._apply_discard,
          explain=_generic(said("discard one of your troops on this square", "7.3"))),
    Phase(EXPLORE, _mover, legal=S._legal_explore, apply=S._apply_explore,
          explain=_generic(said("explore the cave or leave it", "9"))),
    Phase(REINFORCE, _mover, legal=S._legal_reinforce, apply=S._apply_reinforce, explain=_explain_reinforce),
    Phase(OVER, TERMINAL),
    prompt=_prompt,
)  # fmt: skip
GreedyFiefsState.phases = PHASES


# -- the scene -------------------------------------------------------------------------------------
SHAPES = ("triangle", "square", "diamond", "disc")
TROOP_ICONS = ("cavalry", "infantry", "archer", "hero")
CAVE_ICONS = {"Dragon": "dragon", "Goblin Horde": "goblin", "Burrowing Horror": "horror", "Artifact": "gem"}


def _troops(s: dict[str, Any], at: str, seat: int, c: list[int], carrier: bool) -> None:
    """One piece per troop type on a square, its count shown as a stack and in its label ("I2")."""
    for t in range(4):
        if c[t]:
            label = LETTER[t] + (str(c[t]) if c[t] > 1 else "") + ("*" if t == HERO and carrier else "")
            with_artifact = t == HERO and carrier
            count = f"{c[t]} {TROOPS[t]}" if t in (CAV, INF) else f"{c[t]} {TROOPS[t]}{'s' if c[t] > 1 else ''}"
            name = f"{NAMES[seat]}'s {TROOPS[t]}" if c[t] == 1 else f"{NAMES[seat]}: {count}"
            s["pieces"].append(
                sc.piece(
                    at,
                    seat,
                    TROOPS[t],
                    label=label,
                    height=c[t],
                    shape=SHAPES[t],
                    icon=TROOP_ICONS[t],
                    badge=(str(c[t]) if c[t] > 1 else "") + ("◆" if with_artifact else "") or None,
                    name=name + (", carrying the Artifact" if with_artifact else ""),
                )
            )


@GreedyFiefsGame.draws_scene
def _scene(game: GreedyFiefsGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    s = sc.new_scene(_prompt(game, obs, legal), (-0.12, -0.12, SIZE + 0.24, SIZE + 0.24))
    s["cells"] = [dict(c) for c in game._cells]
    battle = obs["battle"]
    for seat in (0, 1):
        for q in range(N):
            _troops(s, LABELS[q], seat, obs["units"][seat][q], obs["carrier"] == seat)
    if battle is not None:  # the attackers in the fight, and the stacks still waiting, stand on the square too
        mover = obs["mover"]
        at = LABELS[battle["square"]]
        _troops(s, at, mover, battle["attackers"], obs["carrier"] == mover)
        for _o, c in battle["waiting"]:
            _troops(s, at, mover, c, obs["carrier"] == mover)
        s["highlights"].append({"at": LABELS[battle["square"]], "kind": "warning"})
    cave_items = []
    for k, cave in enumerate(obs["caves"]):
        where = LABELS[CAVE_SQUARES[k]]
        if cave["state"] == "face down":
            s["pieces"].append(sc.piece(where, None, "cave card", face_down=True, shape="square"))
            cave_items.append(sc.item(f"cave{k}", f"{where}: a face-down cave card", "card", face_down=True))
        elif cave["state"] == "open":
            name = cave["card"]
            detail = describe((*cave["troops"][:3], 0)) if "troops" in cave else "first strike for its Hero"
            s["pieces"].append(
                sc.piece(
                    where,
                    None,
                    "cave card",
                    label=name[0],
                    shape="square",
                    icon=CAVE_ICONS[name],
                    name=f"{name}: {detail}",
                )
            )
            cave_items.append(
                sc.item(f"cave{k}", f"{where}: {name}", "card", detail=detail, colour="#6d4c41", icon=CAVE_ICONS[name])
            )
        else:
            cave_items.append(sc.item(f"cave{k}", f"{where}: empty", "token", detail="nothing left"))
    s["zones"].append(sc.zone("caves", "Caves", cave_items))
    for seat in (0, 1):
        r = obs["reserve"][seat]
        items = [
            sc.item(f"res{seat}-{t}-{n}", TROOPS[t], "counter", value=LETTER[t], icon=TROOP_ICONS[t])
            for t in range(4)
            for n in range(r[t])
        ]
        s["zones"].append(sc.zone(f"reserve{seat}", f"{NAMES[seat]}'s reserve", items, owner=seat))
    if obs["queue"]:
        items = [
            sc.item(f"queue-{n}", f"new {TROOPS[t]}", "counter", value=LETTER[t], icon=TROOP_ICONS[t])
            for n, t in enumerate(obs["queue"])
        ]
        s["zones"].append(sc.zone("queue", f"{NAMES[obs['mover']]}'s new troops", items, owner=obs["mover"]))
    for q in obs["last"]:
        s["highlights"].append({"at": LABELS[q], "kind": "last"})
    for a, label in legal:
        seg, idx = ACTIONS.decode(a)
        if seg == "move":
            s["targets"].append({"at": LABELS[idx[2]], "action": a, "label": label})
        elif seg in ("first", "reinforce"):
            s["targets"].append({"at": LABELS[idx[0]], "action": a, "label": label})
    for seat in (0, 1):
        area = obs["areas"][seat]
        half = ", half a build saved" if obs["half"][seat] else ""
        where = f" ({area} area)" if area else ""
        count = sum(sum(c) for c in obs["units"][seat])
        s["status"].append(f"{NAMES[seat]}{where}: {count} troops on the board{half}")
    if battle is not None:
        foe = battle["monster"] or NAMES[1 - obs["mover"]]
        s["status"].append(
            f"battle on {LABELS[battle['square']]}: {NAMES[obs['mover']]} "
            f"{describe(tuple(battle['attackers']))} against {foe} {describe(tuple(battle['defenders']))}"
        )
    s["status"].append(f"turn {obs['turns'] + 1} of at most {obs['turn_limit']}")
    s["players"] = [sc.player(k, NAMES[k], colour=("#c62828", "#263238")[k]) for k in (0, 1)]
    return sc.finish_scene(s, legal)


GreedyFiefsGame.state_class = GreedyFiefsState
PHASE_NAMES = tuple(PHASES)
#: Troops of one side in all (two of each kind, one Hero); moves one turn may list (each troop, cavalry twice).
ARMY = 7
MAX_MOVES = 2 * ARMY
#: The squares a stack can attack from (every neighbour).
KING_STEPS = range(8)
#: A cave in a tensor: empty, face down, or the card that lies open there.
CAVE_CODES = ("empty", "face down", *CARDS)


def _cave_code(cave: dict[str, Any]) -> int:
    return CAVE_CODES.index(cave.get("card", cave["state"]))


GAME_CLASS = GreedyFiefsGame
