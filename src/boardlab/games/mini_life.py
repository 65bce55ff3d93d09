"""Mini Game of Life: pointing cells on a 6x6 board move, turn and raise, then grow, die and kill together.

Rules: ``docs/rules/mini-life.md``; clause numbers are cited as ``§n``.

Seat 0 is Blue, seat 1 is Red (§1). Squares are indexed row by row from the
top (``a6`` is 0, ``f1`` is 35); directions ``0 .. 7`` are N, NE, E, SE, S,
SW, W, NW (N toward row 6), so a cell's facing in degrees is ``45 * direction``.

Phases (phases as data, the table at the end of the module): ``place`` (§3:
six placements in the order Blue, Red, Red, Blue, Red, Blue), ``decide`` (§4:
the decision phase, one move at a time in the current order), ``direct``
(§5.3: the owner of a newly grown cell with several parents chooses its
direction, one cell at a time) and ``over``. The growth phase itself (§5) is
no decision: it is computed when the decision phase ends, and again after the
last direction is chosen.

Action space (:class:`~boardlab.core.actions.ActionSpace`): ``place`` (square,
direction), ``move`` (from, to), ``turn`` (square, direction), ``raise``
(square, direction), ``point`` (direction: a grown cell's direction).
"""

from __future__ import annotations

import math
import re
from typing import Any

from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.constants import TERMINAL
from ..core.game import Game, win_loss
from ..core.hidden import Seen
from ..core.options import Option
from ..core.phases import Phase, PhasedState, phase_table
from ..core.tensor import Tensor
from ..core.wording import and_list, said, third_person
from ..geometry.squaregrid import SquareGrid
from . import _tensors as tz

NAMES = ("Blue", "Red")
BLUE, RED = 0, 1
COLOURS = (sc.INK_OF["Blue"], sc.INK_OF["Red"])
SIZE = 6
GRID = SquareGrid(SIZE, SIZE)
N = SIZE * SIZE
LABELS = GRID.labels()
EMPTY = -1

#: §1: the eight directions a cell can point in, clockwise from N (toward row 6).
DIRECTIONS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
DIRECTION_WORDS = ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")

#: §3, §4.1: the order of play; after every growth phase the colours swap (§6).
ORDER = (BLUE, RED, RED, BLUE, RED, BLUE)

# Phases.
PLACE = "place"
DECIDE = "decide"
DIRECT = "direct"
OVER = "over"


def _front_table() -> tuple[tuple[int, ...], ...]:
    """``FRONT[square][direction]``: the square one step away, or -1 off the board."""
    out = []
    for i in range(N):
        row = []
        for d in DIRECTIONS:
            j = GRID.ray(i, d, 1)
            row.append(-1 if j is None else j)
        out.append(tuple(row))
    return tuple(out)


FRONT = _front_table()
#: The orthogonal neighbours of each square (§5.1, §5.2).
ORTHOGONAL = tuple(tuple(FRONT[i][k] for k in (0, 2, 4, 6) if FRONT[i][k] >= 0) for i in range(N))


def _rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The squares along each orthogonal line from each square, nearest first (§4.2, option ``move``)."""
    out = []
    for i in range(N):
        lines = []
        for k in (0, 2, 4, 6):
            line = []
            for n in range(1, SIZE):
                j = GRID.ray(i, DIRECTIONS[k], n)
                if j is None:
                    break
                line.append(j)
            lines.append(tuple(line))
        out.append(tuple(lines))
    return tuple(out)


RAYS = _rays()
#: The orthogonal neighbours of each square in increasing order (§4.2 with ``move = one``: where a cell may step).
STEPS = tuple(tuple(sorted(ORTHOGONAL[i])) for i in range(N))
#: ``POINTERS[i]``: the ``(square, direction)`` pairs of cells that point at square ``i`` (§4.4).
POINTERS = tuple(tuple((j, d) for j in range(N) for d in range(8) if FRONT[j][d] == i) for i in range(N))


def grow(owner: list[int], facing: list[int]) -> dict[str, Any]:
    """§5.1-§5.3: loneliness, crowding and growing, on copies of the board.

    Returns the board after growing (new cells with a single parent direction set, with several pending),
    and what happened: ``lonely``, ``crowded`` (squares emptied), ``born`` (squares filled), ``pending``
    (``[(square, owner, directions)]`` for new cells whose parents point in different directions).
    """
    owner, facing = owner[:], facing[:]
    # §5.1 loneliness: no orthogonal neighbour of the same colour
    lonely = [i for i in range(N) if owner[i] >= 0 and not any(owner[j] == owner[i] for j in ORTHOGONAL[i])]
    for i in lonely:
        owner[i] = EMPTY
    # §5.2 crowding: three or more orthogonal neighbours of any colour
    crowded = [i for i in range(N) if owner[i] >= 0 and sum(owner[j] >= 0 for j in ORTHOGONAL[i]) >= 3]
    for i in crowded:
        owner[i] = EMPTY
    # §5.3 growing: every cell grows a cell of its colour on the empty square in front of it
    parents: dict[int, tuple[list[int], list[int]]] = {}
    for i in range(N):
        if owner[i] >= 0:
            f = FRONT[i][facing[i]]
            if f >= 0 and owner[f] == EMPTY:
                parents.setdefault(f, ([], []))[owner[i]].append(facing[i])
    born = []
    pending = []
    for square in sorted(parents):
        blue, red = parents[square]
        if len(blue) == len(red):
            continue  # a tie: nothing grows there
        p = BLUE if len(blue) > len(red) else RED
        dirs = sorted(set(blue if p == BLUE else red))
        owner[square] = p
        facing[square] = dirs[0]
        born.append(square)
        if len(dirs) > 1:
            pending.append((square, p, tuple(dirs)))
    return {"owner": owner, "facing": facing, "lonely": lonely, "crowded": crowded, "born": born, "pending": pending}


def kill(owner: list[int], facing: list[int]) -> list[int]:
    """§5.4: the squares of the cells killed: each cell kills an enemy cell in front of it, unless that cell points
    straight back at it; all at once."""
    out = []
    for i in range(N):
        if owner[i] < 0:
            continue
        f = FRONT[i][facing[i]]
        if f >= 0 and owner[f] >= 0 and owner[f] != owner[i] and FRONT[f][facing[f]] != i:
            out.append(f)
    return sorted(set(out))


def _squares(squares: list[int]) -> str:
    return and_list([LABELS[i] for i in squares])


def growth_text(report: dict[str, list[int]]) -> str:
    """What a growth phase did, in words for the move log (§5.1-§5.4)."""
    parts = []
    for key, how in (("lonely", "of loneliness"), ("crowded", "of crowding")):
        if report.get(key):
            one = len(report[key]) == 1
            parts.append(
                f"the {'cell' if one else 'cells'} on {_squares(report[key])} {'dies' if one else 'die'} {how}"
            )
    if report.get("born"):
        one = len(report["born"]) == 1
        parts.append(f"{'a new cell grows' if one else 'new cells grow'} on {_squares(report['born'])}")
    if report.get("killed"):
        one = len(report["killed"]) == 1
        parts.append(
            f"the {'cell' if one else 'cells'} on {_squares(report['killed'])} {'is' if one else 'are'} killed"
        )
    return "Growth: " + ("; ".join(parts) if parts else "nothing changes") + "."


class MiniLifeGame(Game):
    id = "mini-life"
    title = "Mini Game of Life"
    summary = "Pointing cells move, turn and raise; then all cells grow, die of loneliness or crowding, and kill."
    options = (
        Option.choice(
            "move",
            {"one": "One square", "rook": "Any distance in a straight line"},
            said("How far a cell moves: one square, or any number of empty squares in a straight line.", "4.2"),
        ),
        Option.choice(
            "raise_by",
            {"any": "Cells of any colour", "own": "Only your own cells"},
            said(
                "Which cells can raise a new cell: two or more cells of any colour pointing at the square, or only "
                "the player's own.",
                "4.4",
            ),
        ),
        Option.choice(
            "grow_dir",
            {"inherit": "As its parent points", "owner_any": "Any direction its owner picks"},
            said(
                "A grown cell points as its parent does (its owner chooses among several parents), or its owner "
                "chooses any direction.",
                "5.3",
            ),
        ),
        Option(
            "moves_per_phase",
            int,
            6,
            (6, 18),
            said(
                "Moves in a decision phase: three turns of one move each player (6), or of a whole order each (18).",
                "4.1",
            ),
        ),
        Option(
            "generation_limit",
            int,
            50,
            (20, 50, 100),
            said("The game ends after this many growth phases; the player with more cells wins.", "6.3"),
        ),
    )
    mechanics = ("square board", "placement", "movement", "cellular automaton", "simultaneous resolution")
    playing_time = "15 min"
    seat_names = NAMES
    inventions = (
        "Blue places first, as the order BRRBRB says; a cell placed, moved or raised points in any "
        "of the eight directions, chosen by its player.",
        "A decision phase is six single moves in the current order (option moves_per_phase).",
        "A cell moves one square to an empty square (option move), keeping its direction.",
        "A turn must change the cell's direction; a player moves, turns and raises only their own cells.",
        "A raise needs two or more cells of any colour pointing at the empty square (option raise_by).",
        "A grown cell points as its parent does; with several parents its owner chooses among their directions, "
        "one new cell at a time in reading order (option grow_dir).",
        "Nothing grows off the board or onto an occupied square; cells grown in a growth phase do not grow again "
        "in it, but they do kill.",
        "The generation limit (option generation_limit): after 50 growth phases the player with more cells wins, "
        "equal counts draw.",
    )

    def _setup(self) -> None:
        dirs = (("direction", DIRECTION_NAMES),)
        squares = (("square", LABELS),)
        self.action_space = ActionSpace(
            Segment("place", squares + dirs, "place {square} facing {direction}"),
            Segment("move", (("from", LABELS), ("to", LABELS)), "move {from} to {to}"),
            Segment("turn", squares + dirs, "turn {square} to {direction}"),
            Segment("raise", squares + dirs, "raise {square} facing {direction}"),
            Segment("point", dirs, "point {direction}"),
        )
        space = self.action_space
        self.place0, self.move0, self.turn0, self.raise0, self.point0 = space.offsets(
            "place", "move", "turn", "raise", "point"
        )
        self.rook = self.params["move"] == "rook"
        self.raise_own = self.params["raise_by"] == "own"
        self.any_dir = self.params["grow_dir"] == "owner_any"
        self.moves = int(self.params["moves_per_phase"])
        self.limit = int(self.params["generation_limit"])
        # The action numbers per square, computed once: placements and raises in every direction, turns to every
        # direction but the current one, one-square moves to each neighbour (in increasing order).
        self.place_of = tuple(tuple(self.place0 + 8 * i + d for d in range(8)) for i in range(N))
        self.raise_of = tuple(tuple(self.raise0 + 8 * i + d for d in range(8)) for i in range(N))
        self.turn_of = tuple(
            tuple(tuple(self.turn0 + 8 * i + d for d in range(8) if d != f) for f in range(8)) for i in range(N)
        )
        self.step_of = tuple(tuple((j, self.move0 + N * i + j) for j in STEPS[i]) for i in range(N))
        self._cells = GRID.scene_cells(fill=GRID.chess_fill)
        # §3: 6 placements; §6: at most generation_limit rounds of a decision phase and at most 36 direction
        # choices (one per grown cell).
        self.max_length = 6 + self.limit * (self.moves + N)


#: A move's label (the notation) and its words in the log, after the seat's name.
_MOVE_WORDS = (
    (re.compile(r"^place (\S+) facing (\S+)$"), r"places a cell on \1 facing \2"),
    (re.compile(r"^turn (\S+) to (\S+)$"), r"turns the cell on \1 to face \2"),
    (re.compile(r"^move (\S+) to (\S+)$"), r"moves the cell on \1 to \2"),
    (re.compile(r"^point (\S+) (\S+)$"), r"points the new cell on \1 \2"),
)


def _move_words(label: str) -> str:
    for pattern, words in _MOVE_WORDS:
        if pattern.match(label):
            return pattern.sub(words, label)
    return third_person(label)


class MiniLifeState(PhasedState):
    game: MiniLifeGame
    copied = ("owner", "facing", "pending", "last")

    def __init__(self, game: MiniLifeGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.owner = [EMPTY] * N
        self.facing = [0] * N
        self.phase = PLACE
        self.step = 0  # placements made (§3), or moves made in this decision phase (§4)
        self.generation = 0  # growth phases so far
        self.pending: list[tuple[int, int, tuple[int, ...]]] = []  # §5.3: new cells whose direction is open
        self.last: list[int] = []  # squares of the last decision
        self.report: dict[str, list[int]] = {}  # what the last growth phase did
        self.winner = -1

    # -- turn order and result -------------------------------------------------
    def order(self) -> tuple[int, ...]:
        """§4.1, §6: this decision phase's order; it swaps after every growth phase."""
        return ORDER if self.generation % 2 == 0 else tuple(1 - p for p in ORDER)

    def mover(self) -> int:
        if self.phase == PLACE:
            return ORDER[self.step]
        if self.phase == DIRECT:
            return self.pending[0][1]
        return self.order()[self.step % len(ORDER)]

    def returns(self) -> list[float]:
        return win_loss(self.winner) if self.phase == OVER else [0.0, 0.0]

    def counts(self) -> list[int]:
        return [self.owner.count(BLUE), self.owner.count(RED)]

    # -- placement (§3) -------------------------------------------------------------
    def _place_legal(self, player: int) -> list[int]:
        place_of, owner = self.game.place_of, self.owner
        out: list[int] = []
        for i in range(N):
            if owner[i] == EMPTY:
                out += place_of[i]
        return out

    def _place(self, action: int) -> None:
        i, d = divmod(action - self.game.place0, 8)
        self.owner[i] = self.mover()
        self.facing[i] = d
        self.last = [i]
        self.step += 1
        if self.step == len(ORDER):
            self.phase = DECIDE
            self.step = 0

    def _explain_place(self, player: int, action: int) -> str:
        if not self.game.place0 <= action < self.game.move0:
            return said("first each player places three cells", "3")
        return said("a cell is placed on an empty square", "3")

    # -- the decision phase (§4) -------------------------------------------------------
    def _pointed(self, player: int) -> list[int]:
        """§4.4: how many cells point at each square (only ``player``'s, with ``raise_by = own``)."""
        own = self.game.raise_own
        out = [0] * N
        for j in range(N):
            p = self.owner[j]
            if p >= 0 and (not own or p == player):
                f = FRONT[j][self.facing[j]]
                if f >= 0:
                    out[f] += 1
        return out

    def _destinations(self, i: int) -> list[int]:
        """§4.2: where the cell on ``i`` may move."""
        out = []
        for ray in RAYS[i]:
            for j in ray:
                if self.owner[j] != EMPTY:
                    break
                out.append(j)
                if not self.game.rook:
                    break
        return out

    def _decide_legal(self, player: int) -> list[int]:
        """§4.2-§4.4: moves, then turns, then raises (the segments' order, so the list comes out sorted)."""
        game, owner, facing = self.game, self.owner, self.facing
        moves: list[int] = []
        turns: list[int] = []
        raises: list[int] = []
        own = game.raise_own
        turn_of, raise_of = game.turn_of, game.raise_of
        move0 = game.move0
        for i in range(N):
            o = owner[i]
            if o == player:
                if game.rook:
                    base = move0 + N * i
                    moves += sorted(base + j for j in self._destinations(i))
                else:
                    for j, a in game.step_of[i]:
                        if owner[j] == EMPTY:
                            moves.append(a)
                turns += turn_of[i][facing[i]]
            elif o == EMPTY:
                n = 0
                for j, d in POINTERS[i]:
                    p = owner[j]
                    if p >= 0 and facing[j] == d and (not own or p == player):
                        n += 1
                if n >= 2:
                    raises += raise_of[i]
        return moves + turns + raises

    def _decide(self, action: int) -> None:
        game, p = self.game, self.mover()
        if action < game.turn0:  # §4.2 move: the cell keeps its direction
            i, j = divmod(action - game.move0, N)
            self.owner[j], self.facing[j] = p, self.facing[i]
            self.owner[i] = EMPTY
            self.last = [i, j]
        elif action < game.raise0:  # §4.3 turn
            i, d = divmod(action - game.turn0, 8)
            self.facing[i] = d
            self.last = [i]
        else:  # §4.4 raise
            i, d = divmod(action - game.raise0, 8)
            self.owner[i], self.facing[i] = p, d
            self.last = [i]
        self.step += 1
        if self.step == game.moves:
            self._grow()

    def _explain_decide(self, player: int, action: int) -> str:
        game = self.game
        segment, idx = game.action_space.decode(action)
        if segment == "place":
            return said("the placements are over: move, turn or raise", "4")
        if segment == "point":
            return said("directions are chosen only for grown cells", "5.3")
        if segment == "raise":
            i = idx[0]
            if self.owner[i] != EMPTY:
                return said(f"{LABELS[i]} is not empty", "4.4")
            who = "of yours " if game.raise_own else ""
            return said(
                f"a new cell needs two or more cells {who}pointing at {LABELS[i]}; it has {self._pointed(player)[i]}",
                "4.4",
            )
        i = idx[0]
        if self.owner[i] != player:
            return said(f"{LABELS[i]} holds no cell of yours: you move and turn only your own cells", "4.2", "4.3")
        if segment == "turn":
            return said("a turn must change the cell's direction", "4.3")
        j = idx[1]
        if self.owner[j] != EMPTY:
            return said(f"{LABELS[j]} is not empty", "4.2")
        if game.rook:
            return said("a cell moves along a row or column over empty squares", "4.2")
        return said("a cell moves one square up, down, left or right", "4.2")

    # -- the growth phase (§5) -----------------------------------------------------------
    def _grow(self) -> None:
        """§5.1-§5.3, then the direction choices (§5.3) or straight on to killing (§5.4)."""
        g = grow(self.owner, self.facing)
        self.owner, self.facing = g["owner"], g["facing"]
        self.report = {"lonely": g["lonely"], "crowded": g["crowded"], "born": g["born"], "killed": []}
        if self.game.any_dir:
            self.pending = [(i, self.owner[i], tuple(range(8))) for i in g["born"]]
        else:
            self.pending = list(g["pending"])
        if self.pending:
            self.phase = DIRECT
        else:
            self._kill()

    def _direct_legal(self, player: int) -> list[int]:
        return [self.game.point0 + d for d in self.pending[0][2]]

    def _direct(self, action: int) -> None:
        i = self.pending[0][0]
        self.facing[i] = action - self.game.point0
        self.last = [i]
        self.pending = self.pending[1:]
        if not self.pending:
            self._kill()

    def _explain_direct(self, player: int, action: int) -> str:
        i, _, dirs = self.pending[0]
        names = ", ".join(DIRECTION_NAMES[d] for d in dirs)
        return said(f"choose the direction of the new cell on {LABELS[i]}: {names}", "5.3")

    def _kill(self) -> None:
        """§5.4, then the end (§6) or the next decision phase with the order swapped."""
        killed = kill(self.owner, self.facing)
        for i in killed:
            self.owner[i] = EMPTY
        self.report["killed"] = killed
        self.generation += 1
        self.step = 0
        blue, red = self.counts()
        if not blue or not red or self.generation >= self.game.limit:  # §6.1-§6.3
            self.phase = OVER
            self.winner = 0 if blue > red else 1 if red > blue else 2
        else:
            self.phase = DECIDE

    # -- views ---------------------------------------------------------------------------
    def _seen(self, actor: int, entry: int | tuple[int | None, ...]) -> Seen | tuple[Seen | None, ...]:
        """The move in words ("places a cell on c5 facing S"; the label, ``place c5 facing S``, is the notation); the
        move that ends a decision phase also says what the growth phase did (§5)."""
        seen = super()._seen(actor, entry)
        if isinstance(seen, Seen):
            seen = Seen(_move_words(seen.public))
        ends = (self.phase == DECIDE and self.step + 1 == self.game.moves) or (
            self.phase == DIRECT and len(self.pending) == 1
        )
        if not ends or not isinstance(entry, int) or not isinstance(seen, Seen):
            return seen
        after = self.clone()
        after.apply_action(entry)
        return Seen(f"{seen.public}. {growth_text(after.report)}")

    def _label(self, player: int, action: int) -> str | None:
        if self.phase == DIRECT and self.game.point0 <= action < self.game.point0 + 8:
            return f"point {LABELS[self.pending[0][0]]} {DIRECTION_NAMES[action - self.game.point0]}"
        return None

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The observation as numbers (docs/research/tensors-newer.md): cells as the viewer's and the other's planes."""
        o = self.observation(player)
        v = player
        tz.header(t, o, v, 2, PHASE_NAMES)
        tz.one_hots(t, "cells", [tz.rel(c[0], v, 2) if c else None for c in o["cells"]], 2)
        tz.one_hots(t, "facing", [c[1] if c else None for c in o["cells"]], len(DIRECTIONS))
        tz.seq(t, "order", [tz.rel(NAMES_BY_LETTER[x], v, 2) for x in o["order"]], len(ORDER), 2)
        t.counts("step", [o["step"]], max(o["moves_per_phase"], len(ORDER)))
        t.counts("generation", [o["generation"]], o["generation_limit"] + 1)
        pending = o["pending"]
        t.one_hot("pending", pending[0] if pending else None, N)
        t.bits("pending_directions", [bool(pending) and d in pending[1] for d in range(len(DIRECTIONS))])
        tz.seq(t, "last", o["last"], 2, N)
        t.bits("grown", [bool(o["report"])])
        for name in REPORT:
            t.bits(f"report_{name}", [i in o["report"].get(name, ()) for i in range(N)])
        t.counts("counts", tz.rotate(o["counts"], v), N)
        t.one_hot("winner", tz.rel(o["winner"], v, 2), 2)
        t.bits("draw", [o["draw"]])

    def observation(self, player: int | None = None) -> dict[str, Any]:
        blue, red = self.counts()
        return {
            "phase": self.phase,
            "to_move": self.current_player(),
            "cells": [[self.owner[i], self.facing[i]] if self.owner[i] >= 0 else None for i in range(N)],
            "order": [NAMES[p][0] for p in self.order()],
            "step": self.step,
            "moves_per_phase": self.game.moves,
            "generation": self.generation,
            "generation_limit": self.game.limit,
            "pending": [self.pending[0][0], list(self.pending[0][2])] if self.pending else None,
            "last": self.last[:],
            "report": {k: v[:] for k, v in self.report.items()},
            "counts": [blue, red],
            "winner": self.winner if self.winner in (0, 1) else None,
            "draw": self.winner == 2,
        }


# -- the scene ---------------------------------------------------------------------------------


def _prompt(game: MiniLifeGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    phase = obs["phase"]
    if phase == OVER:
        b, r = obs["counts"]
        if obs["draw"]:
            return f"Draw: {b} Blue and {r} Red cells left."
        return f"{NAMES[obs['winner']]} wins with {max(b, r)} cells against {min(b, r)}."
    who = NAMES[obs["to_move"]]
    if not legal:
        return f"{who} to move."
    if phase == PLACE:
        return "Place one of your cells on an empty square and choose where it points."
    if phase == DIRECT:
        return f"Choose where your new cell on {LABELS[obs['pending'][0]]} points: as one of its parents."
    left = obs["moves_per_phase"] - obs["step"]
    return f"Move, turn or raise a cell ({left} move{'s' if left > 1 else ''} before the cells grow)."


def _ring(cx: float, cy: float, r: float, n: int = 16) -> list[tuple[float, float]]:
    return [(cx + r * math.sin(2 * math.pi * k / n), cy - r * math.cos(2 * math.pi * k / n)) for k in range(n + 1)]


#: A living cell as drawn on its piece: a nucleus in a membrane (its colour says whose it is, its arrow where it
#: points; the letter B or R is only for text front-ends).
CELL_PICTURE = sc.picture((10, 10), fills=[_ring(5, 5, 1.9)[:-1]], strokes=[_ring(5, 5, 4.1)], colour="white")


@MiniLifeGame.draws_scene
def _scene(game: MiniLifeGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    s = sc.new_scene(_prompt(game, obs, legal), (-0.1, -0.1, SIZE + 0.2, SIZE + 0.2))
    s["cells"] = [dict(c) for c in game._cells]
    for i, cell in enumerate(obs["cells"]):
        if cell is not None:
            p, d = cell
            s["pieces"].append(
                sc.piece(
                    LABELS[i],
                    p,
                    "cell",
                    facing=45.0 * d,
                    shape="square",
                    colour=COLOURS[p],
                    label=NAMES[p][0],
                    picture=CELL_PICTURE,
                    name=f"{NAMES[p]}'s cell on {LABELS[i]}, pointing {DIRECTION_WORDS[d]}",
                )
            )
    for i in obs["last"]:
        s["highlights"].append({"at": LABELS[i], "kind": "last"})
    if obs["pending"] is not None:
        s["highlights"].append({"at": LABELS[obs["pending"][0]], "kind": "selected"})
    for a, label in legal:
        segment, idx = game.action_space.decode(a)
        if segment == "move":
            at = LABELS[idx[1]]
        elif segment == "point":
            at = LABELS[obs["pending"][0]]
        else:
            at = LABELS[idx[0]]
        s["targets"].append({"at": at, "action": a, "label": label})
    b, r = obs["counts"]
    order = ", ".join(NAMES[NAMES_BY_LETTER[x]] for x in obs["order"])
    s["status"] = [
        f"Blue: {b} cell{'s' * (b != 1)} · Red: {r} cell{'s' * (r != 1)}",
        f"Turn order: {order}",
        f"Growth phases: {obs['generation']} of at most {obs['generation_limit']}",
    ]
    rep = obs["report"]
    if rep:
        s["status"].append(
            f"last growth: {len(rep['lonely'])} lonely, {len(rep['crowded'])} crowded, {len(rep['born'])} born, "
            f"{len(rep['killed'])} killed"
        )
    s["players"] = [sc.player(k, NAMES[k], colour=COLOURS[k]) for k in (0, 1)]
    return sc.finish_scene(s, legal)


def _mover(s: MiniLifeState) -> int:
    return s.mover()


MiniLifeState.phases = phase_table(
    Phase(
        PLACE,
        _mover,
        legal=MiniLifeState._place_legal,
        apply=MiniLifeState._place,
        explain=MiniLifeState._explain_place,
        prompt=_prompt,
    ),
    Phase(
        DECIDE,
        _mover,
        legal=MiniLifeState._decide_legal,
        apply=MiniLifeState._decide,
        explain=MiniLifeState._explain_decide,
        prompt=_prompt,
    ),
    Phase(
        DIRECT,
        _mover,
        legal=MiniLifeState._direct_legal,
        apply=MiniLifeState._direct,
        explain=MiniLifeState._explain_direct,
        label=MiniLifeState._label,
        prompt=_prompt,
    ),
    Phase(OVER, TERMINAL),
)
MiniLifeGame.state_class = MiniLifeState
PHASE_NAMES = tuple(MiniLifeState.phases)
NAMES_BY_LETTER = {name[0]: k for k, name in enumerate(NAMES)}
#: What the last growth phase did, square by square (§5).
REPORT = ("lonely", "crowded", "born", "killed")

GAME_CLASS = MiniLifeGame
