"""Flock of Sheep: twelve two-sided sheep tiles leave their pen on a go board, then flock together.

Rules: ``docs/rules/flock-of-sheep.md``; clause numbers are cited as ``§n``.

Seat 0 is Black, seat 1 is White (§1). The twelve sheep tiles are dealt around
the pen by chance, one chance entry per ring place (§2). A move is two small
decisions by the same seat (§4), each a phase (phases as data, the table at the
end of the module): the centre point of the sheep to move, then the point where
its centre lands; a player with no move has the single action ``pass`` (§9).

Coordinates are the go board's lines: ``x`` (column, from the left) and ``y``
(row, from the top), ``0 .. lines-1``. A sheep covers 2x2 squares; its
*anchor* is its top-left corner ``(x, y)``, its centre the point
``(x+1, y+1)``. The action space is segment ``point`` (every intersection,
labelled as on a go board, columns ``a``-``t`` without ``i``, rows counted
from the bottom: the centre of a 19-line board is ``k10``), then ``pass``.
Chance outcomes are the tile numbers 0-11 (labelled by their ratio and face).

Speed: the five-step paths from every anchor are precomputed per board size;
at the start of a turn only *whether* each sheep can move is worked out (the
first legal destination found), and a sheep's destinations once it is chosen.
The no-repetition rule (§8) keeps a dictionary from a position's 64-bit
Zobrist sum to its exact description, so a hash collision never forbids a move.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.chance import equally_likely
from ..core.constants import CHANCE, TERMINAL
from ..core.game import Game, win_loss
from ..core.gametype import Chance, GameType
from ..core.hidden import Seen
from ..core.options import Option
from ..core.phases import Phase, PhasedState, phase_table
from ..core.tensor import Tensor
from ..core.wording import said
from . import _tensors as tz

NAMES = ("Black", "White")
BLACK, WHITE = 0, 1
TILES = 12
STEPS = 5  # §4.1: exactly five unit steps
MASK = 2**64 - 1
#: The squares along a tile's four sides, relative to its anchor (§5.1).
SIDES = ((-1, 0), (-1, 1), (2, 0), (2, 1), (0, -1), (1, -1), (0, 2), (1, 2))

# §1: tile t has kind k = t % 6; its black face shows 6-k black sheep, its white face 1+k white sheep.
KINDS = 6
#: Sheep pictured on each face, per kind: (black, white).
PICTURED: tuple[tuple[int, int], ...] = tuple((6 - k, 1 + k) for k in range(KINDS))

# Phases.
DEAL = "deal"  # §2: the tiles are dealt around the pen
PICK = "pick"  # §4: choose a sheep
DEST = "destination"  # §4: choose where it lands
PASS = "pass"  # §9: no legal move
OVER = "over"

COLUMN_LETTERS = "abcdefghjklmnopqrstuvwxyz"  # go boards skip "i"

#: The 12 ring places, clockwise from the top-left, as (column, row) of a 4x4 block of tiles (§2).
RING = ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1), (3, 2), (3, 3), (2, 3), (1, 3), (0, 3), (0, 2), (0, 1))


def tile_name(t: int) -> str:
    b, w = PICTURED[t % KINDS]
    return f"{b}:{w}"


def initial_face(t: int) -> int:
    """§2: one set is laid black side up (tiles 0-5), the other white side up (tiles 6-11)."""
    return BLACK if t < KINDS else WHITE


def contact(ax: int, ay: int, bx: int, by: int) -> tuple[int, bool]:
    """Shared edge length of two tiles anchored at ``a`` and ``b`` (not overlapping), and whether they touch
    only at a corner (§5.1)."""
    dx, dy = abs(ax - bx), abs(ay - by)
    if dx == 2 and dy < 2:
        return 2 - dy, False
    if dy == 2 and dx < 2:
        return 2 - dx, False
    return 0, dx == 2 and dy == 2


def _splitmix(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)


class Board:
    """Anchors, paths and labels of one board size (computed once per size)."""

    def __init__(self, lines: int) -> None:
        self.lines = lines
        self.span = lines - 2  # anchors per row: x in 0 .. lines-3
        span = self.span
        self.anchors = span * span
        self.points = lines * lines
        self.labels = tuple(f"{COLUMN_LETTERS[i % lines]}{lines - i // lines}" for i in range(self.points))
        #: The point index of each anchor's centre, and back.
        self.centre = tuple((a // span + 1) * lines + a % span + 1 for a in range(self.anchors))
        self.anchor_of = {c: a for a, c in enumerate(self.centre)}
        #: The squares (index ``y * (lines-1) + x``) each anchor covers.
        sq = lines - 1
        self.squares = tuple(
            (y * sq + x, y * sq + x + 1, (y + 1) * sq + x, (y + 1) * sq + x + 1)
            for y in range(span)
            for x in range(span)
        )
        self.xys = tuple((a % span, a // span) for a in range(self.anchors))
        self.anchor_at = {xy: a for a, xy in enumerate(self.xys)}
        bit = [1 << q for q in range(sq * sq)]

        def inside(x: int, y: int) -> bool:
            return 0 <= x < sq and 0 <= y < sq

        #: Bit masks over the squares (bit ``y * (lines-1) + x``): each anchor's tile, and the squares along its
        #: sides: a tile sharing ``k`` steps of edge with it covers exactly ``k`` of those (§5.1).
        self.tile_mask = tuple(sum(bit[q] for q in qs) for qs in self.squares)
        self.side_squares = tuple(
            tuple(y2 * sq + x2 for x2, y2 in ((x + i, y + j) for i, j in SIDES) if inside(x2, y2)) for x, y in self.xys
        )
        self.side_mask = tuple(sum(bit[q] for q in qs) for qs in self.side_squares)
        #: The four squares off each anchor's corners, with the anchor a tile must have to touch it there only.
        self.corners = tuple(
            tuple(
                (y2 * sq + x2, self.anchor_at.get((x + 4 * i - 2, y + 4 * j - 2), -1))
                for i in (0, 1)
                for j in (0, 1)
                for x2, y2 in ((x + 3 * i - 1, y + 3 * j - 1),)
                if inside(x2, y2)
            )
            for x, y in self.xys
        )
        #: The squares of the ring around each anchor's tile: any tile touching it covers one of them.
        self.around = tuple(
            tuple(
                (y + j) * sq + x + i
                for j in range(-1, 3)
                for i in range(-1, 3)
                if not (0 <= i < 2 and 0 <= j < 2) and inside(x + i, y + j)
            )
            for x, y in self.xys
        )
        #: paths[a]: ``(destination, (path, ...))`` for each of the (up to) 20 destinations; a path lists
        #: the anchors after each unit step, the destination last (§4.1-§4.2).
        self.paths = tuple(self._paths(a) for a in range(self.anchors))
        #: The same with each path as the mask of the squares it sweeps over, less the tile's own squares.
        self.sweeps = tuple(
            tuple(
                (
                    d,
                    tuple(
                        sum(bit[q] for q in {q for b in p for q in self.squares[b]} - set(self.squares[a])) for p in ps
                    ),
                )
                for d, ps in dests
            )
            for a, dests in enumerate(self.paths)
        )
        self.zobrist = tuple(tuple(_splitmix(a * 2 * KINDS + j) for j in range(2 * KINDS)) for a in range(self.anchors))
        centre = (lines - 1) // 2
        o = centre - 4
        self.ring = tuple((o + 2 * r) * span + o + 2 * c for c, r in RING)

    def xy(self, a: int) -> tuple[int, int]:
        return a % self.span, a // self.span

    def _paths(self, a: int) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
        x0, y0 = self.xy(a)
        span = self.span
        by_dest: dict[int, list[tuple[int, ...]]] = {}
        for d1 in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            for k in range(1, STEPS + 1):
                turns = [(0, 0)] if k == STEPS else [(d1[1], d1[0]), (-d1[1], -d1[0])]
                for d2 in turns:
                    x, y = x0, y0
                    path: list[int] = []
                    ok = True
                    for step in range(STEPS):
                        dx, dy = d1 if step < k else d2
                        x, y = x + dx, y + dy
                        if not (0 <= x < span and 0 <= y < span):
                            ok = False
                            break
                        path.append(y * span + x)
                    if ok:
                        by_dest.setdefault(path[-1], []).append(tuple(path))
        return tuple((d, tuple(ps)) for d, ps in sorted(by_dest.items()))


#: The board tables of a size, built once.
board_of = cache(Board)


class FlockOfSheepGame(Game):
    id = "flock-of-sheep"
    title = "Flock of Sheep"
    summary = "Twelve two-sided sheep tiles disperse from their pen, then flock; the largest flock of your colour wins."
    options = (
        Option("board_lines", int, 19, (13, 19), said("Lines on each side of the go board.", "1")),
        Option.choice(
            "dispersing",
            {
                "pareto": "Neither may grow, one must fall",
                "strict_both": "Both must fall",
                "edges_first": "Shared edges first, then corners",
            },
            said(
                "What a dispersing move must reduce: the shared edge length and the corner touches, neither "
                "growing and one falling; or both falling; or the edge length, then the corner touches once it is zero.",
                "5.3",
            ),
        ),
        Option.flag(
            "phase1_no_new_contact",
            False,
            said("While dispersing, a moved sheep may not end touching a sheep it did not touch before.", "5.4"),
        ),
        Option.choice(
            "when_stuck",
            {"start_flocking": "The flocking phase begins", "pass": "The player passes"},
            said(
                "When no player has a dispersing move while sheep still touch: the flocking phase begins, or the "
                "player passes (two passes end the game).",
                "5.6",
            ),
        ),
        Option.flag(
            "jump_allowed", False, said("A sheep may pass over other sheep; only where it lands must be free.", "4.2")
        ),
        Option.choice(
            "who_moves",
            {"any": "Any sheep not in a flock", "own_colour": "Only sheep showing your colour"},
            said(
                "Which sheep a player may move: any sheep not in a flock, or only those showing the player's colour.",
                "4.3",
            ),
        ),
        Option.choice(
            "score_by",
            {"sheep": "Sheep pictured on its tiles", "tiles": "Number of tiles"},
            said("A flock's size: the sheep pictured on its tiles, or its number of tiles.", "10.1"),
        ),
        Option.flag(
            "tie_break", True, said("Break an equal score by all the sheep in all of a player's flocks.", "10.2")
        ),
        Option(
            "move_limit",
            int,
            200,
            (100, 200, 400),
            said("The game ends after this many moves, flocks scored as they stand.", "9.3"),
        ),
    )
    mechanics = ("tiles", "movement", "flipping", "setup chance", "no repetition", "grouping")
    game_type = GameType(chance=Chance.EXPLICIT)
    playing_time = "25 min"
    seat_names = NAMES
    setup_text = "The sheep were dealt around the pen."
    inventions = (
        "The board: a 19-line go board (13 lines is the option board_lines), with the ring of twelve tiles "
        "centred on it; the seed names only 'a go board'.",
        "Each tile's ratio b:w is read as b black sheep on the black face and w white sheep on the white face.",
        "Black moves first; both players may move any sheep not in a flock (option who_moves).",
        "The dispersing rule: the sheep with the most shared edge moves, and the move must reduce the shared edge "
        "length or the corner touches without increasing the other (options dispersing and "
        "phase1_no_new_contact).",
        "A one-step change of direction is a right-angle turn; sheep slide and may not pass through one another "
        "(option jump_allowed).",
        "A flock forms only from the moved sheep's own landing, before its flip; a flocking sheep does not flip.",
        "A player with no legal move passes; two passes in a row end the game.",
        "The move limit (option move_limit) ends a game that has not finished flocking; flocks are scored as "
        "they stand.",
        "A flock's size counts the pictured sheep (option score_by); equal scores are broken by all the "
        "sheep in one's flocks, then a draw (option tie_break).",
    )
    num_chance_outcomes = TILES

    def _setup(self) -> None:
        self.board = board_of(self.params["board_lines"])
        b = self.board
        self.action_space = ActionSpace(
            Segment("point", (("point", b.labels),), "{point}"), Segment("pass", (), "pass")
        )
        self.pass_action = self.action_space.encode("pass")
        self.rule = str(self.params["dispersing"])
        self.no_new_contact = bool(self.params["phase1_no_new_contact"])
        self.jump = bool(self.params["jump_allowed"])
        self.own_colour = self.params["who_moves"] == "own_colour"
        self.by_tiles = self.params["score_by"] == "tiles"
        self.limit = int(self.params["move_limit"])
        self.stuck_flocks = self.params["when_stuck"] == "start_flocking"
        # scene geometry: squares, points and unit edges
        self._squares = self._square_cells()
        self._points = [
            sc.cell(b.labels[i], (i % b.lines, i // b.lines), radius=0.08, kind="point") for i in range(b.points)
        ]
        self._edges = self._edge_list()
        # §2: 12 chance entries; §9: at most move_limit moves of two decisions, at most one pass between two
        # moves, and two passes at the end.
        self.max_length = TILES + 3 * self.limit + 2

    def _square_cells(self) -> list[dict[str, Any]]:
        n = self.board.lines - 1
        out = []
        for y in range(n):
            for x in range(n):
                poly = [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]
                out.append(sc.cell(f"sq{x}-{y}", (x + 0.5, y + 0.5), poly))
        return out

    def _edge_list(self) -> list[tuple[str, tuple[int, int], tuple[int, int]]]:
        lines = self.board.lines
        out = []
        for y in range(lines):
            for x in range(lines - 1):
                out.append((f"h{x}-{y}", (x, y), (x + 1, y)))
        for x in range(lines):
            for y in range(lines - 1):
                out.append((f"v{x}-{y}", (x, y), (x, y + 1)))
        return out


class FlockOfSheepState(PhasedState):
    game: FlockOfSheepGame
    copied = ("pos", "face", "flocked", "seen", "last", "sq", "occf")

    def __init__(self, game: FlockOfSheepGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.pos = [-1] * TILES  # anchor of each tile, -1 before it is dealt
        self.face = [initial_face(t) for t in range(TILES)]
        self.flocked = [False] * TILES
        self.dealt = 0
        self.phase = DEAL
        self.dispersing = True  # §5: until no two sheep touch
        self.to_move = BLACK
        self.movable: tuple[int, ...] = ()  # tiles the mover may move this turn (§4, §5.2)
        self.picked = -1
        self.dests: tuple[int, ...] = ()  # the picked tile's legal destinations (anchors)
        self.sq: list[int] = []  # each square's tile + 1, or 0
        self.occ = 0  # bit mask of the covered squares
        self.occf = [0, 0]  # the same, for the tiles showing black and showing white
        self.key = 0  # Zobrist sum of the position (§8)
        #: §8: every position so far, by Zobrist sum: the exact position.
        self.seen: dict[int, tuple[int, ...]] = {}
        self.moves = 0
        self.passes = 0
        self.last: list[int] = []  # anchors of the last move: from, to
        self.last_flock = False
        self.winner = -1  # -1 playing, 0/1 a seat, 2 a draw

    # -- turn order and result ----------------------------------------------
    def returns(self) -> list[float]:
        return win_loss(self.winner) if self.phase == OVER else [0.0, 0.0]

    # -- the position --------------------------------------------------------
    def _zob(self, t: int, anchor: int, face: int) -> int:
        return self.game.board.zobrist[anchor][2 * (t % KINDS) + face]

    def _exact(self, t: int = -1, anchor: int = -1, face: int = -1) -> tuple[int, ...]:
        """§8: the position as seen on the board (identical tiles are interchangeable), with tile ``t`` moved."""
        codes = []
        for u in range(TILES):
            a, f = (anchor, face) if u == t else (self.pos[u], self.face[u])
            codes.append((a * KINDS + u % KINDS) * 2 + f)
        return tuple(sorted(codes))

    def _repeats(self, t: int, anchor: int, face: int) -> bool:
        """§8: whether moving tile ``t`` to ``anchor`` showing ``face`` recreates an earlier position."""
        key = (self.key - self._zob(t, self.pos[t], self.face[t]) + self._zob(t, anchor, face)) & MASK
        old = self.seen.get(key)
        return old is not None and old == self._exact(t, anchor, face)

    def _remember(self) -> None:
        self.seen[self.key] = self._exact()

    def _rebuild(self) -> None:
        """Square occupancy, masks and the position's key from ``pos`` and ``face``; the position so far is the
        only one seen (§8)."""
        b = self.game.board
        self.sq = [0] * ((b.lines - 1) * (b.lines - 1))
        self.occ = 0
        self.occf = [0, 0]
        self.key = 0
        for t, a in enumerate(self.pos):
            for q in b.squares[a]:
                self.sq[q] = t + 1
            self.occ |= b.tile_mask[a]
            self.occf[self.face[t]] |= b.tile_mask[a]
            self.key = (self.key + self._zob(t, a, self.face[t])) & MASK
        self.seen = {}
        self._remember()

    def _lift(self, t: int) -> None:
        b = self.game.board
        m = b.tile_mask[self.pos[t]]
        self.occ &= ~m
        self.occf[self.face[t]] &= ~m
        for q in b.squares[self.pos[t]]:
            self.sq[q] = 0
        self.key = (self.key - self._zob(t, self.pos[t], self.face[t])) & MASK

    def _place(self, t: int) -> None:
        b = self.game.board
        m = b.tile_mask[self.pos[t]]
        self.occ |= m
        self.occf[self.face[t]] |= m
        for q in b.squares[self.pos[t]]:
            self.sq[q] = t + 1
        self.key = (self.key + self._zob(t, self.pos[t], self.face[t])) & MASK

    def _corner_touches(self, a: int) -> int:
        """Tiles touching a tile at anchor ``a`` at a corner only (§5.1)."""
        sq, pos = self.sq, self.pos
        return sum(1 for q, diagonal in self.game.board.corners[a] if sq[q] and pos[sq[q] - 1] == diagonal)

    def _shared_edge(self, a: int) -> int:
        """The shared edge of a tile at anchor ``a`` with every other tile (§5.1)."""
        return (self.occ & self.game.board.side_mask[a]).bit_count()

    def _touched(self, t: int, a: int) -> set[int]:
        """The tiles that tile ``t`` at anchor ``a`` would touch (edge or corner)."""
        sq = self.sq
        return {sq[q] - 1 for q in self.game.board.around[a] if sq[q] and sq[q] != t + 1}

    def _friends(self, t: int, a: int) -> list[int]:
        """§6.2: the tiles showing tile ``t``'s face that share an edge with it at anchor ``a``."""
        sq, f = self.sq, self.face[t]
        return sorted({sq[q] - 1 for q in self.game.board.side_squares[a] if sq[q] and self.face[sq[q] - 1] == f})

    def touching(self) -> tuple[list[int], list[int]]:
        """Each tile's shared edge length and its number of corner-only touches (§5.1)."""
        return [self._shared_edge(a) for a in self.pos], [self._corner_touches(a) for a in self.pos]

    def _path_free(self, d: int, sweeps: tuple[int, ...]) -> bool:
        """§4.2: some path keeps the tile clear of every other tile at each step (or, jumping, where it lands)."""
        if self.game.jump:
            return not self.occ & self.game.board.tile_mask[d]
        occ = self.occ
        return any(not occ & m for m in sweeps)

    def _ok(self, t: int, d: int, before: tuple[int, int, set[int]] | None) -> bool:
        """Whether landing tile ``t`` at ``d`` satisfies §5.3-§5.4 (dispersing) and §8 (no repetition)."""
        if before is not None:  # §5: dispersing; the sheep always flips
            e0, c0, touched0 = before
            e = self._shared_edge(d)
            c = self._corner_touches(d)
            rule = self.game.rule
            if rule == "pareto":
                if not (e <= e0 and c <= c0 and (e < e0 or c < c0)):
                    return False
            elif rule == "strict_both":
                if not (e < e0 and c < c0):
                    return False
            elif e0 > 0:  # edges_first
                if e >= e0:
                    return False
            elif not (e == 0 and c < c0):
                return False
            if self.game.no_new_contact and not self._touched(t, d) <= touched0:
                return False
            return not self._repeats(t, d, 1 - self.face[t])
        f = self.face[t]
        flock = self.occf[f] & self.game.board.side_mask[d]  # §6.2: no flip when it flocks
        return not self._repeats(t, d, f if flock else 1 - f)

    def _destinations(self, t: int, first_only: bool = False) -> tuple[int, ...]:
        """Tile ``t``'s legal destinations (§4-§8); with ``first_only``, at most the first found.

        The path test (§4.2) and, outside dispersing, the flip and repetition tests (§6.2, §8) are those of
        :meth:`_path_free`, :meth:`_ok` and :meth:`_repeats`, written out in the loop.
        """
        a = self.pos[t]
        game, board = self.game, self.game.board
        occ, jump, tile_mask = self.occ, game.jump, board.tile_mask
        out = []
        if self.dispersing:
            before = (self._shared_edge(a), self._corner_touches(a), self._touched(t, a))
            for d, sweeps in board.sweeps[a]:
                if jump:
                    if occ & tile_mask[d]:
                        continue
                else:
                    for m in sweeps:
                        if not occ & m:
                            break
                    else:
                        continue
                if self._ok(t, d, before):
                    out.append(d)
                    if first_only:
                        break
            return tuple(out)
        f = self.face[t]
        zobrist, seen, side_mask = board.zobrist, self.seen, board.side_mask
        k = 2 * (t % KINDS)
        lifted = self.key - zobrist[a][k + f]  # the key without tile ``t``
        flocking = self.occf[f]
        for d, sweeps in board.sweeps[a]:
            if jump:
                if occ & tile_mask[d]:
                    continue
            else:
                for m in sweeps:
                    if not occ & m:
                        break
                else:
                    continue
            face = f if flocking & side_mask[d] else 1 - f  # §6.2: no flip when it flocks
            old = seen.get((lifted + zobrist[d][k + face]) & MASK)
            if old is not None and old == self._exact(t, d, face):
                continue  # §8: an earlier position
            out.append(d)
            if first_only:
                break
        return tuple(out)

    def _candidates(self, p: int) -> list[list[int]]:
        """The sheep seat ``p`` may consider, in priority classes, highest first (§4.3, §5.2)."""
        free = [t for t in range(TILES) if not self.flocked[t] and (not self.game.own_colour or self.face[t] == p)]
        if not self.dispersing:
            return [free]
        edge, corner = self.touching()
        classes: dict[int, list[int]] = {}
        for t in free:
            if edge[t] or corner[t]:
                classes.setdefault(edge[t], []).append(t)
        return [classes[k] for k in sorted(classes, reverse=True)]

    def _movable(self, p: int) -> tuple[int, ...]:
        """§5.2: the highest priority class with a sheep that can move; its movable sheep."""
        for group in self._candidates(p):
            found = tuple(t for t in group if self._destinations(t, first_only=True))
            if found:
                return found
        return ()

    # -- the phases (phases as data, at the end of the module) ----------------
    def _deal_outcomes(self) -> list[tuple[int, float]]:
        left = [t for t in range(TILES) if self.pos[t] < 0]
        return equally_likely(left)  # §2: any undealt tile, equally likely

    def _deal(self, tile: int) -> None:
        """§2: the next ring place gets this tile."""
        self.pos[tile] = self.game.board.ring[self.dealt]
        self.dealt += 1
        if self.dealt == TILES:
            self._rebuild()
            self._start_turn(BLACK)

    def _pick_legal(self, player: int) -> list[int]:
        centre = self.game.board.centre
        return sorted(centre[self.pos[t]] for t in self.movable)

    def _pick(self, point: int) -> None:
        """§4.5: the sheep to move, by its centre."""
        t = self._tile_at_centre(point)
        self.picked = t
        self.dests = self._destinations(t)
        self.phase = DEST

    def _dest_legal(self, player: int) -> list[int]:
        centre = self.game.board.centre
        return sorted(centre[d] for d in self.dests)

    def _land(self, point: int) -> None:
        self._move(self.picked, self.game.board.anchor_of[point])

    def _pass(self, action: int) -> None:
        """§9.1, §9.3: a pass; two in a row end the game."""
        self.passes += 1
        self.last = []
        self.last_flock = False
        if self.passes >= 2:
            self._finish()
        else:
            self._start_turn(1 - self.to_move)

    def _tile_at_centre(self, point: int) -> int:
        a = self.game.board.anchor_of.get(point, -1)
        return self.pos.index(a) if a >= 0 and a in self.pos else -1

    def _explain_pick(self, player: int, action: int) -> str:
        game, b = self.game, self.game.board
        if action == game.pass_action:
            return said("you may pass only when you have no legal move", "9.1")
        t = self._tile_at_centre(action)
        if t < 0:
            return said(f"no sheep has its centre on {b.labels[action]}; choose a sheep by its centre point", "4")
        if self.flocked[t]:
            return said("that sheep is in a flock: flocked sheep no longer move", "6.3")
        if game.own_colour and self.face[t] != player:
            return said(f"you may move only sheep showing {NAMES[player]}", "4.3")
        if self.dispersing:
            edge, corner = self.touching()
            if not (edge[t] or corner[t]):
                return said("while the sheep disperse, only a sheep that touches another may move", "5.2")
            top = max(edge[u] for u in self.movable)
            if edge[t] >= top:
                return said("that sheep has no move that disperses the pen", "5.2-5.3")
            return said(
                f"while the sheep disperse, a sheep with the most shared edge must move: this one shares "
                f"{edge[t]}, another movable one shares {top}",
                "5.2",
            )
        return said("that sheep has no legal move", "4", "8")

    def _explain_destination(self, point: int) -> str:
        b, t = self.game.board, self.picked
        if point == self.game.pass_action:
            return said("you may pass only when you have no legal move", "9.1")
        d = b.anchor_of.get(point, -1)
        dests = dict(b.sweeps[self.pos[t]])
        if d < 0 or d not in dests:
            return said(
                "a sheep moves exactly five steps along the lines, with at most one right-angle turn, and stays on "
                "the board",
                "4.1",
            )
        if not self._path_free(d, dests[d]):
            if self.game.jump:
                return said("the sheep would land on another sheep", "4.2")
            return said("other sheep are in the way: a sheep may not pass through another", "4.2")
        if self.dispersing:
            a = self.pos[t]
            e0, c0, e, c = self._shared_edge(a), self._corner_touches(a), self._shared_edge(d), self._corner_touches(d)
            if self.game.no_new_contact and not self._touched(t, d) <= self._touched(t, a):
                return said("while dispersing, a sheep may not end touching a sheep it did not touch", "5.4")
            if not self._repeats(t, d, 1 - self.face[t]):
                return said(
                    f"while dispersing, the move must reduce the touching: this sheep's shared edge would go from "
                    f"{e0} to {e} and its corner touches from {c0} to {c}",
                    "5.3",
                )
        return said("that would repeat an earlier position of the board", "8")

    def _seen(self, actor: int, entry: int | tuple[int | None, ...]) -> Seen | tuple[Seen | None, ...]:
        """The move in words, without coordinates (the board draws none; the notation ``sheep g13``, ``to k15``
        stays the moves' labels): the sheep picked up by what it shows, and whether it flipped over or formed a
        flock, and how large (§4, §6, §9.1)."""
        if self.is_chance_node() or not isinstance(entry, int):
            return super()._seen(actor, entry)
        if entry == self.game.pass_action:
            return Seen("has no legal move and passes")
        after = self.clone()
        after.apply_action(entry)
        what = "tiles" if self.game.by_tiles else "sheep"
        if after.moves != self.moves + 1:  # a sheep picked up
            t = after.picked
            face = self.face[t]
            return Seen(f"picks up a sheep showing {PICTURED[t % KINDS][face]} {NAMES[face].lower()} sheep")
        t = self.picked
        face = after.face[t]
        if after.last_flock:
            flock = next(f for f in after.flocks(face) if t in f)
            return Seen(
                f"moves it five steps, next to its own colour: a {NAMES[face].lower()} flock of "
                f"{after.size(flock, face)} {what} forms"
            )
        return Seen(
            f"moves it five steps and flips it over to show {PICTURED[t % KINDS][face]} {NAMES[face].lower()} sheep"
        )

    def _point_label(self, player: int, action: int, verb: str) -> str | None:
        b = self.game.board
        return f"{verb}{b.labels[action]}" if 0 <= action < b.points else None

    def _move(self, t: int, d: int) -> None:
        """§4-§7: tile ``t`` lands at ``d``; it flocks with same-coloured neighbours, or flips."""
        old = self.pos[t]
        self._lift(t)
        friends = [] if self.dispersing else self._friends(t, d)
        self.pos[t] = d
        if friends:  # §6.1-§6.2: a flock forms; the moved sheep does not flip
            for u in (t, *friends):
                self.flocked[u] = True
        else:  # §4.4
            self.face[t] = 1 - self.face[t]
        self._place(t)
        self._remember()
        self.last = [old, d]
        self.last_flock = bool(friends)
        self.moves += 1
        self.passes = 0
        self.picked = -1
        self.dests = ()
        if self.dispersing:
            edge, corner = self.touching()
            if not any(edge) and not any(corner):  # §5.5: no sheep touch: the flocking phase begins
                self.dispersing = False
        if all(self.flocked) or self.moves >= self.game.limit:  # §9.2, §9.3
            self._finish()
        else:
            self._start_turn(1 - self.to_move)

    def _start_turn(self, p: int) -> None:
        self.to_move = p
        self.movable = self._movable(p)
        if not self.movable and self.dispersing and self.game.stuck_flocks and not self._movable(1 - p):
            self.dispersing = False  # §5.6: no dispersing move for anyone: the flocking phase begins
            self.movable = self._movable(p)
        self.phase = PICK if self.movable else PASS

    def _finish(self) -> None:
        """§10: the larger best flock wins; then (option) all one's flocks; then a draw."""
        self.phase = OVER
        self.movable = ()
        a, b = self.score(BLACK), self.score(WHITE)
        if a == b and self.game.params["tie_break"]:
            a, b = self.total(BLACK), self.total(WHITE)
        self.winner = 0 if a > b else 1 if b > a else 2

    # -- scoring (§10) -----------------------------------------------------------
    def flocks(self, p: int) -> list[list[int]]:
        """The flocks of colour ``p``: flocked tiles showing ``p``, connected by shared edges (§6.4)."""
        b = self.game.board
        mine = [t for t in range(TILES) if self.flocked[t] and self.face[t] == p]
        left = set(mine)
        out = []
        while left:
            stack = [left.pop()]
            group = []
            while stack:
                t = stack.pop()
                group.append(t)
                for u in list(left):
                    if contact(*b.xy(self.pos[t]), *b.xy(self.pos[u]))[0]:
                        left.remove(u)
                        stack.append(u)
            out.append(sorted(group))
        return sorted(out)

    def size(self, flock: list[int], p: int) -> int:
        """§10.1: the sheep of colour ``p`` pictured on the flock's tiles (or its tiles, by option)."""
        return len(flock) if self.game.by_tiles else sum(PICTURED[t % KINDS][p] for t in flock)

    def score(self, p: int) -> int:
        return max((self.size(f, p) for f in self.flocks(p)), default=0)

    def total(self, p: int) -> int:
        return sum(self.size(f, p) for f in self.flocks(p))

    # -- views --------------------------------------------------------------------
    def _parse_action(self, player: int, text: str) -> int | None:
        labels = self.game.board.labels
        t = text.strip().lower().removeprefix("sheep").removeprefix("to").strip()
        return labels.index(t) if t in labels else None

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The observation as numbers (docs/research/tensors-newer.md): each sheep's place and face, by tile."""
        o = self.observation(player)
        span = self.game.board.span
        at = [s["at"] for s in o["sheep"]]
        tz.viewer(t, player, 2)
        t.one_of("phase", o["phase"], PHASE_NAMES)
        t.bits("dispersing", [o["dispersing"]])
        tz.mover(t, "to_move", o["to_move"], player, 2)
        t.bits("sheep_dealt", [xy is not None for xy in at])
        tz.one_hots(t, "sheep_x", [xy[0] if xy else None for xy in at], span)
        tz.one_hots(t, "sheep_y", [xy[1] if xy else None for xy in at], span)
        tz.one_hots(t, "sheep_face", [tz.rel(s["face"], player, 2) for s in o["sheep"]], 2)
        t.bits("sheep_flocked", [s["flocked"] for s in o["sheep"]])
        t.counts("shared_edge", [o["shared_edge"]], 4 * TILES)
        t.counts("corner_touches", [o["corner_touches"]], 4 * TILES)
        picked = o["picked"]
        t.one_hot("picked_x", picked[0] if picked else None, span)
        t.one_hot("picked_y", picked[1] if picked else None, span)
        tz.seq(t, "last_x", [xy[0] for xy in o["last"]], 2, span)
        tz.seq(t, "last_y", [xy[1] for xy in o["last"]], 2, span)
        t.bits("last_flock", [o["last_flock"]])
        t.counts("moves", [o["moves"]], o["move_limit"] + 1)
        t.counts("passes", [o["passes"]], 2)
        t.counts("scores", tz.rotate(o["scores"], player), TILES * KINDS)
        t.counts("totals", tz.rotate(o["totals"], player), TILES * KINDS)
        t.one_hot("winner", tz.rel(o["winner"], player, 2), 2)
        t.bits("draw", [o["draw"]])

    def observation(self, player: int | None = None) -> dict[str, Any]:
        b = self.game.board
        dealt = self.phase != DEAL
        edge, corner = self.touching() if dealt else ([0] * TILES, [0] * TILES)
        return {
            "lines": b.lines,
            "phase": self.phase,
            "dispersing": self.dispersing,
            "to_move": self.current_player(),
            "sheep": [
                {
                    "kind": tile_name(t),
                    "at": b.xy(self.pos[t]) if self.pos[t] >= 0 else None,
                    "face": self.face[t],
                    "pictured": PICTURED[t % KINDS][self.face[t]],
                    "flocked": self.flocked[t],
                }
                for t in range(TILES)
            ],
            "shared_edge": sum(edge) // 2,
            "corner_touches": sum(corner) // 2,
            "picked": b.xy(self.pos[self.picked]) if self.phase == DEST else None,
            "last": [b.xy(a) for a in self.last],
            "last_flock": self.last_flock,
            "moves": self.moves,
            "move_limit": self.game.limit,
            "passes": self.passes,
            "flocks": [
                [
                    {"sheep": [b.labels[b.centre[a]] for a in sorted(self.pos[t] for t in f)], "size": self.size(f, p)}
                    for f in self.flocks(p)
                ]
                for p in (BLACK, WHITE)
            ]
            if dealt
            else [[], []],
            "scores": [self.score(BLACK), self.score(WHITE)] if dealt else [0, 0],
            "totals": [self.total(BLACK), self.total(WHITE)] if dealt else [0, 0],
            "score_by": self.game.params["score_by"],
            "winner": self.winner if self.winner in (0, 1) else None,
            "draw": self.winner == 2,
        }


# -- the scene ---------------------------------------------------------------------------
INK = ("#262626", "#f4f1e8")  # a black face, a white face
OUTLINE = "#7a6a55"
FLOCK_OUTLINE = "#009E73"
COUNT_DISC = "#4a4a4a"  # the disc that shows a sheep's pictured count, legible on both faces
BOARD = "#e4c68e"  # the go board's wood


def _prompt(obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    if obs["phase"] == DEAL:
        return "The sheep are being dealt around the pen."
    if obs["phase"] == OVER:
        a, b = obs["scores"]
        what = "tiles" if obs["score_by"] == "tiles" else "sheep"
        if obs["draw"]:
            return f"Draw: the best flocks hold {a} and {b} {what}."
        w = obs["winner"]
        tie = " after the tie-break" if a == b else ""
        return f"{NAMES[w]} wins: best flock {max(a, b)} {what} to {min(a, b)}{tie}."
    who = NAMES[obs["to_move"]]
    if not legal:
        return f"{who} to move."
    if obs["phase"] == PASS:
        return "You have no legal move: pass."
    if obs["phase"] == DEST:
        return "Choose where the sheep's centre lands: five steps along the lines, at most one turn."
    if obs["dispersing"]:
        return "Dispersing: move a sheep with the most shared edge so that the pen loosens."
    return "Flocking: move a sheep; next to a sheep of its colour it joins a flock, otherwise it flips."


def _flock_sizes(flocks: list[dict[str, Any]], what: str) -> str:
    """A seat's flocks, largest first, in words and without coordinates: ``flocks of 13 sheep (5 tiles) and 4 sheep
    (2 tiles)``."""
    parts = [
        f"{f['size']} {what}" + ("" if what == "tiles" else f" ({len(f['sheep'])} tiles)")
        for f in sorted(flocks, key=lambda f: (-f["size"], -len(f["sheep"])))
    ]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{'a flock' if len(parts) == 1 else 'flocks'} of {listed}"


@FlockOfSheepGame.draws_scene
def _scene(game: FlockOfSheepGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    b = game.board
    lines = b.lines
    s = sc.new_scene(_prompt(obs, legal), (-0.7, -0.7, lines + 0.4, lines + 0.4))
    n = lines - 1
    fills: list[str] = [BOARD] * (n * n)
    outline: dict[str, str] = {}
    for sheep in obs["sheep"]:
        if sheep["at"] is None:
            continue
        x, y = sheep["at"]
        colour = INK[sheep["face"]]
        for dx in (0, 1):
            for dy in (0, 1):
                fills[(y + dy) * n + x + dx] = colour
        stroke = FLOCK_OUTLINE if sheep["flocked"] else OUTLINE
        for i in (0, 1):
            for eid in (f"h{x + i}-{y}", f"h{x + i}-{y + 2}", f"v{x}-{y + i}", f"v{x + 2}-{y + i}"):
                if outline.get(eid) != FLOCK_OUTLINE:
                    outline[eid] = stroke
        centre = b.labels[(y + 1) * lines + x + 1]
        s["pieces"].append(
            sc.piece(
                centre,
                sheep["face"],
                "flocked sheep" if sheep["flocked"] else "sheep",
                label=str(sheep["pictured"]),
                shape="square" if sheep["flocked"] else "disc",
                colour=FLOCK_OUTLINE if sheep["flocked"] else COUNT_DISC,
                # the count is drawn large, over the middle of the 2x2 tile, so it reads on a phone
                size=0.6,
                name=f"a tile showing {sheep['pictured']} {NAMES[sheep['face']].lower()} sheep"
                + (", in a flock" if sheep["flocked"] else ""),
            )
        )
    s["cells"] = [{**c, "fill": fills[i]} for i, c in enumerate(game._squares)] + [dict(c) for c in game._points]
    s["edges"] = [
        sc.edge(eid, a, c, owner=0 if eid in outline else None, stroke=outline.get(eid), kind="grid")
        for eid, a, c in game._edges
    ]
    for xy in obs["last"]:
        s["highlights"].append({"at": b.labels[(xy[1] + 1) * lines + xy[0] + 1], "kind": "last"})
    if obs["picked"] is not None:
        x, y = obs["picked"]
        s["highlights"].append({"at": b.labels[(y + 1) * lines + x + 1], "kind": "selected"})
    for a, label in legal:
        if a < b.points:
            s["targets"].append({"at": b.labels[a], "action": a, "label": label})
    what = "tiles" if obs["score_by"] == "tiles" else "sheep"
    phase = "dispersing" if obs["dispersing"] else "flocking"
    s["status"] = [
        f"{NAMES[k]}: best flock {obs['scores'][k]} {what}, all flocks {obs['totals'][k]}"
        + (f"; {_flock_sizes(obs['flocks'][k], what)}" if obs["flocks"][k] else "")
        for k in (0, 1)
    ] + [
        f"{phase}; shared edge {obs['shared_edge']}, corner touches {obs['corner_touches']}; "
        f"move {obs['moves']} of at most {obs['move_limit']}"
    ]
    s["players"] = [sc.player(k, NAMES[k], colour=INK[k]) for k in (0, 1)]
    return sc.finish_scene(s, legal)


def _to_move(s: FlockOfSheepState) -> int:
    return s.to_move


def _deal_label(s: FlockOfSheepState, player: int, tile: int) -> str:
    return f"the {tile_name(tile)} sheep, {NAMES[initial_face(tile)].lower()} side up"


FlockOfSheepState.phases = phase_table(
    Phase(DEAL, CHANCE, outcomes=FlockOfSheepState._deal_outcomes, apply=FlockOfSheepState._deal, label=_deal_label),
    Phase(
        PICK,
        _to_move,
        legal=FlockOfSheepState._pick_legal,
        apply=FlockOfSheepState._pick,
        explain=FlockOfSheepState._explain_pick,
        label=lambda s, p, a: s._point_label(p, a, "sheep "),
    ),
    Phase(
        DEST,
        _to_move,
        legal=FlockOfSheepState._dest_legal,
        apply=FlockOfSheepState._land,
        explain=lambda s, p, a: s._explain_destination(a),
        label=lambda s, p, a: s._point_label(p, a, "to "),
    ),
    Phase(
        PASS,
        _to_move,
        legal=lambda s, p: [s.game.pass_action],
        apply=FlockOfSheepState._pass,
        explain=lambda s, p, a: said("you have no legal move, so you must pass", "9.1"),
    ),
    Phase(OVER, TERMINAL),
)
FlockOfSheepGame.state_class = FlockOfSheepState
PHASE_NAMES = tuple(FlockOfSheepState.phases)

GAME_CLASS = FlockOfSheepGame
