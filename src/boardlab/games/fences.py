"""Fences: lay double-sided line cards to close a fence in your colour; four cards in hand wins.

Rules: ``docs/rules/fences.md``; clause numbers are cited as ``§n``.

The cards are data (``data/fences.json``): the designer's line art is missing,
so the default set ``default_v1`` is ours, and a designer can add the real
cards there as another value of the option ``cardset``. A side is a 2 x 3
block of unit squares with one path per colour along the unit grid (§1).

Seats are the colours: seat 0 Red, 1 Blue, 2 Green, 3 Yellow; with fewer than
four players the other colours are neutral (§2). A turn is a short sequence
of decisions by the same seat (§3-§5), each a legal action on its own:

* ``take card k`` (segment ``take``): which card of the hand, or of the table,
  to play (§3); a card from the deck needs no choice;
* ``lay side A upright`` … (segment ``lay``: side x turn): how the card lies (§4.1);
* ``place 2 right and 1 down from card 3`` (segment ``place``: card x dx x dy): where the card's top-left
  square goes, counted from the top-left square of the first card (in card order) that it touches (§4.2);
  the table has no edge, so a place is always named from a card next to it, which keeps the actions few
  and fixed; ``lay it on the empty table`` (segment ``start``) when no card is there;
* ``skip the turn`` (segment ``skip``): only when nothing can be played (§3.4, §4.4).

Chance outcomes are ``2 * card + side``: the card that turns up on top of the
deck and the side it shows (§2.2). Nothing is hidden between the players
(§2.3), so the game has perfect information with explicit chance.

Geometry: the table has no edge (§4.2). A card's (x, y) is counted from the top-left corner of all the
laid cards, so the coordinates move whenever the table changes (:meth:`FencesState._settle`). Squares and
lattice points are numbered ``(y + PAD) * stride + x + PAD`` with ``stride`` chosen for the width of the
laid cards (:func:`stride_for`), leaving PAD free squares around them, room for any new card; a unit segment
is ``2 * point`` (to the right) or ``2 * point + 1`` (downward), so a placed shape's segments are its
precomputed relative numbers (:meth:`FencesGame.shapes_at`, per stride) plus one offset. Each colour's
segments on the table are kept with the cards that draw them; the connected pieces of every colour are
computed once per turn, and a candidate placement closes a fence when one of its new segments joins two
points of the same piece (§5.1).
"""

from __future__ import annotations

import functools
import itertools
import json
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.bitmask import bits
from ..core.constants import CHANCE, TERMINAL
from ..core.game import Game
from ..core.gametype import Chance, GameType
from ..core.hidden import Seen
from ..core.options import Option
from ..core.phases import Phase, PhasedState, phase_table
from ..core.tensor import Tensor
from ..core.wording import said
from . import _tensors as tz

DATA = Path(__file__).with_name("data") / "fences.json"
COLOUR_KEYS = ("R", "B", "G", "Y")
NAMES = ("Red", "Blue", "Green", "Yellow")
#: Line inks: Okabe-Ito red-orange, blue, green and a dark yellow that reads on a light card.
INKS = tuple(sc.INK_OF[name] for name in NAMES)
SIDES = ("A", "B")
TURNS = ("upright", "turned right", "upside down", "turned left")
AIMS = ("complete a fence", "lay without completing a fence")
#: Room kept around the laid cards in the numbering of a turn: a card's length, so a new card always fits (§4.2).
PAD = 3
#: A place is named from a card it touches: its top-left corner lies -REACH..REACH squares from that card's (§4.2).
REACH = 3
SPAN = 2 * REACH + 1
#: The observation tensor's one-hot of a card's column and row from the laid cards' top-left corner: seven cards
#: in a row reach at most 18 for a corner; the last value also stands for any farther one.
TENSOR_SPAN = 19
#: Squares around the cards that the scene shows (a placement can reach 3 beyond them).
MARGIN = 4

CLOSING, PLAIN, ANY = 1, 0, -1  # kinds of places (§4.4)
TAKE, AIM, LAY, PLACE, SKIP, REVEAL, OVER = "take", "aim", "lay", "place", "skip", "reveal", "over"


def _load(name: str) -> tuple[tuple[str, ...], tuple[tuple[dict[str, list[list[int]]], ...], ...]]:
    """The card names and, per card, its two sides (colour key → path points) of card set ``name`` (§1)."""
    data = json.loads(DATA.read_text())
    cards = data["cardsets"][name]["cards"]
    names = tuple(str(c["name"]) for c in cards)
    sides = tuple((c["A"], c["B"]) for c in cards)
    for k, pair in enumerate(sides):
        for side in pair:
            _check_side(names[k], side)
    return names, sides


def _check_side(name: str, side: dict[str, list[list[int]]]) -> None:
    """A side's paths run along the grid of its 2 x 3 block, one per colour, sharing no segment (§1)."""
    seen: set[frozenset[tuple[int, int]]] = set()
    if sorted(side) != sorted(COLOUR_KEYS):
        raise ValueError(f"card {name}: a side needs one path for each of {COLOUR_KEYS}")
    for key, pts in side.items():
        for (ax, ay), (bx, by) in itertools.pairwise(pts):
            if (
                not (0 <= ax <= 2 and 0 <= bx <= 2 and 0 <= ay <= 3 and 0 <= by <= 3)
                or abs(ax - bx) + abs(ay - by) != 1
            ):
                raise ValueError(f"card {name}: colour {key} leaves the unit grid of the card")
            seg = frozenset({(ax, ay), (bx, by)})
            if seg in seen:
                raise ValueError(f"card {name}: two paths share a segment")
            seen.add(seg)


def _turn(q: int, x: int, y: int) -> tuple[int, int]:
    """Local point (x, y) of a portrait side, turned ``q`` quarter turns clockwise (§4.1)."""
    return ((x, y), (3 - y, x), (2 - x, 3 - y), (y, 2 - x))[q]


def _segment(a: tuple[int, int], b: tuple[int, int], stride: int) -> int:
    """The number of the unit segment a–b in a numbering of ``stride`` lattice points a row."""
    (ax, ay), (_, by) = sorted((a, b), key=lambda p: (p[1], p[0]))
    return 2 * (ay * stride + ax) + (0 if ay == by else 1)


def segment_points(seg: int, stride: int) -> tuple[int, int]:
    """The two lattice points of segment ``seg`` in a numbering of ``stride`` lattice points a row."""
    p = seg >> 1
    return p, p + (1 if seg & 1 == 0 else stride)


def stride_for(width: int) -> int:
    """The lattice points a row for laid cards ``width`` squares wide: PAD squares on each side, one spare column
    so that no shift wraps a card from one row to the next, rounded up to a multiple of 8 (fewer numberings)."""
    return -(-(width + 2 * PAD + 1) // 8) * 8


@functools.cache
def all_squares(stride: int, rows: int) -> int:
    """The squares of a numbering (``rows`` rows; the last column is spare) as a bit mask."""
    row = (1 << (stride - 1)) - 1
    return sum(row << (y * stride) for y in range(rows))


@functools.cache
def fits(stride: int, rows: int, w: int, h: int) -> int:
    """The top-left squares from which a ``w`` x ``h`` card lies inside the numbering, as a bit mask."""
    row = (1 << (stride - w)) - 1
    return sum(row << (y * stride) for y in range(rows - h + 1))


def at_least_two(target: int, offsets: tuple[int, ...]) -> int:
    """The shifts ``b`` for which at least two of ``b + o`` (o in ``offsets``) are bits of ``target``."""
    ones = twos = 0
    for o in offsets:
        m = target >> o
        twos |= ones & m
        ones |= m
    return twos


@dataclass(frozen=True)
class Shape:
    """One side of one card lying one way: its size, squares, segments per colour and drawing."""

    card: int
    side: int
    turn: int
    w: int
    h: int
    cells: tuple[tuple[int, int], ...]  # (x, y) of its unit squares, relative
    squares: tuple[int, ...]  # the same as square numbers (y * stride + x), relative
    mask: int  # the same as a bit mask
    segs: tuple[tuple[int, ...], ...]  # per colour: relative segment numbers, in path order
    paths: tuple[tuple[tuple[int, int], ...], ...]  # per colour: the path's points, relative
    points: tuple[int, ...]  # per colour: the path's lattice points as a bit mask, relative
    offsets: tuple[tuple[int, ...], ...]  # per colour: the same as point numbers


def _shapes(sides: tuple[tuple[dict[str, list[list[int]]], ...], ...], stride: int) -> tuple[Shape, ...]:
    """Every way to lay every card, its squares and segments numbered with ``stride`` lattice points a row."""
    out = []
    for card, pair in enumerate(sides):
        for side, art in enumerate(pair):
            for q in range(4):
                w, h = (2, 3) if q % 2 == 0 else (3, 2)
                paths = tuple(tuple(_turn(q, x, y) for x, y in art[key]) for key in COLOUR_KEYS)
                segs = tuple(tuple(_segment(a, b, stride) for a, b in itertools.pairwise(p)) for p in paths)
                cells = tuple((x, y) for y in range(h) for x in range(w))
                squares = tuple(y * stride + x for x, y in cells)
                mask = sum(1 << r for r in squares)
                offsets = tuple(tuple(sorted({y * stride + x for x, y in p})) for p in paths)
                points = tuple(sum(1 << o for o in offs) for offs in offsets)
                out.append(Shape(card, side, q, w, h, cells, squares, mask, segs, paths, points, offsets))
    return tuple(out)


def shape_index(card: int, side: int, turn: int) -> int:
    return (card * 2 + side) * 4 + turn


def _place_label(names: tuple[str, ...], card: int, dx: int, dy: int) -> str:
    """A place, named from a card it touches: how far its top-left corner lies from that card's (§4.2)."""
    steps = []
    for d, ahead, back in ((dx - REACH, "right", "left"), (dy - REACH, "down", "up")):
        if d:
            steps.append(f"{abs(d)} {ahead if d > 0 else back}")
    return f"place {' and '.join(steps) or 'level'} from card {names[card]}"


class FencesGame(Game):
    id = "fences"
    title = "Fences"
    summary = "Lay double-sided line cards to close a fence in your colour; take its cards, and four in hand wins."
    max_players = 4
    options = (
        Option.choice(
            "cardset",
            {"default_v1": "Our seven cards (a stand-in: the designer's art is missing)"},
            said("The line art of the seven cards: ours, since the designer's art is missing.", "1"),
        ),
        Option.choice(
            "fence_cards",
            {
                "shortest_cycle": "The cards of the shortest loop",
                "whole_component": "Every card of the connected line",
            },
            said(
                "Which cards a completed fence takes: those drawing the shortest closed loop through the new "
                "line, or every card drawing part of the connected line of that colour.",
                "5.2",
            ),
        ),
        Option(
            "turn_limit",
            int,
            200,
            None,
            said("Safety limit, not a rule: after this many turns the game ends as a draw.", "7"),
            minimum=20,
            maximum=1000,
        ),
    )
    #: 2: the table has no edge, and a place is named from a card it touches (version 1: a 20 x 20 table).
    rules_version = "2"
    mechanics = ("cards", "tile laying", "closing loops", "2-4 players")
    game_type = GameType(chance=Chance.EXPLICIT)
    playing_time = "5 min"
    seat_names = NAMES
    inventions = (
        "The line art of the cards is missing: the seven cards of our card set (fourteen sides, each with "
        "one L- or U-shaped path per colour) are our design, kept as data so the real cards can be added.",
        "On every side of our cards one path runs only along the card's edge instead of entering and leaving the "
        "card (on a 2 x 3 card at most three paths can cross the inside), and the colours are not equally easy to "
        "close.",
        "Seat colours are fixed: the first player is Red, then Blue, Green and Yellow; Red starts.",
        "Places on the table are named from a card they touch: the new card's top-left corner so many squares "
        "right or left and down or up from that card's, counted from the first card (in card order) it touches.",
        "Which cards make a fence: the cards drawing the shortest closed loop through the new line (the "
        "option “fence cards” offers every card of the connected line instead).",
        "A player who has a card to play but no legal place for it skips the turn and keeps the card.",
        "When the card can both complete a fence of the player's and be laid without completing one, the player "
        "is first asked which.",
        "A turn limit (turn_limit, 200 by default) ends a game that goes on as a draw; it is a safeguard, not a rule.",
    )

    def _setup(self) -> None:
        self.card_names, self.sides = _load(self.params["cardset"])
        self.cards = len(self.card_names)
        #: per numbering (lattice points a row): the ways to lay the cards, numbered in it
        self._numberings: dict[int, tuple[Shape, ...]] = {}
        #: the ways to lay the cards (side, turn, size, paths: the same in every numbering)
        self.shapes = self.shapes_at(stride_for(3))
        self.action_space = ActionSpace(
            Segment("take", (("card", tuple(f"card {n}" for n in self.card_names)),), "take {card}"),
            Segment("aim", (("aim", AIMS),), "{aim}"),
            Segment("lay", (("side", SIDES), ("turn", TURNS)), "lay side {side} {turn}"),
            Segment("start", (), "lay it on the empty table"),
            Segment(
                "place",
                (("card", self.cards), ("dx", SPAN), ("dy", SPAN)),
                functools.partial(_place_label, self.card_names),
            ),
            Segment("skip", (), "skip the turn"),
        )
        space = self.action_space
        self.take_base, self.aim_base, self.lay_base, self.place_base = space.offsets("take", "aim", "lay", "place")
        self.start_action = space.encode("start")
        self.skip = space.encode("skip")
        self.num_chance_outcomes = 2 * self.cards
        # §7: at most turn_limit turns of at most 4 decisions, and one chance entry per card of the deck.
        self.max_length = 4 * self.params["turn_limit"] + self.cards + 1

    def shapes_at(self, stride: int) -> tuple[Shape, ...]:
        """The ways to lay the cards, numbered with ``stride`` lattice points a row."""
        shapes = self._numberings.get(stride)
        if shapes is None:
            shapes = self._numberings[stride] = _shapes(self.sides, stride)
        return shapes


# -- the table (§4, §5) ----------------------------------------------------------------


@dataclass
class Frame:
    """The table as the rules see it during one turn (bit masks of squares and lattice points)."""

    stride: int  # lattice points a row of the numbering (squares: the same, the last column spare)
    rows: int  # rows of squares of the numbering
    shapes: tuple[Shape, ...]  # the ways to lay the cards in the numbering
    laid: tuple[tuple[int, int], ...]  # (card, the squares under it), in card order
    covered: int  # squares under a card
    frontier: int  # empty squares next to a card
    segs: tuple[frozenset[int], ...]  # per colour: the segments on the table
    points: tuple[int, ...]  # per colour: the lattice points its segments touch
    pieces: list[dict[int, int] | None]  # per colour, when first needed: lattice point → its connected piece


def _find(parent: dict[int, int], p: int) -> int:
    while p in parent:
        p = parent[p]
    return p


class FencesState(PhasedState):
    game: FencesGame
    copied = ("hands", "table", "lines")

    def __init__(self, game: FencesGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.hands: list[tuple[int, ...]] = [() for _ in range(num_players)]
        #: card → (shape, x, y) of each card on the table (§4): (x, y) is its top-left square, counted from the
        #: top-left corner of all the laid cards (the table has no edge; the coordinates move with the cards).
        self.table: dict[int, tuple[int, int, int]] = {}
        #: the numbering of squares, lattice points and segments for this table: ``stride`` lattice points a
        #: row, ``rows`` rows of squares, the laid cards PAD squares in from the top and the left (§4.2).
        self.stride = stride_for(3)
        self.rows = 3 + 2 * PAD
        #: per colour: segment → the cards that draw it (each dict replaced or copied, never shared changed).
        self.lines: list[dict[int, tuple[int, ...]]] = [{} for _ in COLOUR_KEYS]
        self.deck: tuple[int, ...] = tuple(range(game.cards))  # §2.2: face down, in no order
        self.top: tuple[int, int] | None = None  # (card, side up) on top of the deck
        self.phase = REVEAL
        self.to_move = 0
        self.turn = 0
        self.held = -1  # the card being played this turn
        self.source = ""  # "hand", "deck" or "table" (§3)
        self.choices: tuple[int, ...] = ()  # the cards that may be taken (§3)
        #: the held card's places that complete a fence of the mover's, by shape (§4.4, §5)
        self.closing: dict[int, tuple[int, ...]] = {}
        self.plain_ways: tuple[int, ...] = ()  # the shapes of the held card with a place that completes none
        self.spots: tuple[int, ...] = ()  # the legal places of the chosen way (§4.2)
        self.places: dict[int, int] = {}  # the same by action, in action order: action → its square
        self.aim = ANY  # §4.4: CLOSING, PLAIN, or ANY when not asked
        self.shape = -1  # the chosen way to lay the card
        self.frame: Frame | None = None
        self.last_played = -1  # the card the previous player just played (§3.3)
        self.fence: tuple[int, int, tuple[int, ...]] | None = None  # the last fence: seat, colour, cards taken
        self.winner = -1
        self.capped = False

    def clone(self) -> FencesState:
        s = super().clone()
        s.lines = [d.copy() for d in self.lines]
        return s

    def current_player(self) -> int:
        phase = self.phase
        if phase == REVEAL:
            return CHANCE
        return TERMINAL if phase == OVER else self.to_move

    def returns(self) -> list[float]:
        n = self.num_players
        if self.winner < 0:
            return [0.0] * n
        return [1.0 if p == self.winner else -1.0 / (n - 1) for p in range(n)]

    # -- the table as a frame ---------------------------------------------------
    def _square(self, x: int, y: int) -> int:
        """The number of the square at (x, y) from the laid cards' top-left corner, in this table's numbering."""
        return (y + PAD) * self.stride + x + PAD

    def _where(self, square: int) -> tuple[int, int]:
        """The (x, y) of a square number of this table's numbering."""
        return square % self.stride - PAD, square // self.stride - PAD

    def _frame(self, without: int = -1) -> Frame:
        """The table during this turn, ``without`` the card that was picked up from it (§3.3)."""
        stride = self.stride
        shapes = self.game.shapes_at(stride)
        covered = 0
        laid = []
        for card, (sh, x, y) in sorted(self.table.items()):
            if card != without:
                mask = shapes[sh].mask << self._square(x, y)
                laid.append((card, mask))
                covered |= mask
        near = (covered << 1) | (covered >> 1) | (covered << stride) | (covered >> stride)
        frontier = near & all_squares(stride, self.rows) & ~covered
        gone: list[int] = []
        if without >= 0:
            sh, x, y = self.table[without]
            off = 2 * self._square(x, y)
            gone = [rel + off for colour_segs in shapes[sh].segs for rel in colour_segs]
        segs = []
        points = []
        for lines in self.lines:
            present = set(lines)
            for s in gone:
                if lines.get(s) == (without,):
                    present.discard(s)
            pm = 0
            for s in present:
                p = s >> 1
                pm |= (1 << p) | (1 << (p + (stride if s & 1 else 1)))
            segs.append(frozenset(present))
            points.append(pm)
        return Frame(
            stride,
            self.rows,
            shapes,
            tuple(laid),
            covered,
            frontier,
            tuple(segs),
            tuple(points),
            [None] * len(COLOUR_KEYS),
        )

    def _pieces(self, frame: Frame, colour: int) -> dict[int, int]:
        piece = frame.pieces[colour]
        if piece is None:
            parent: dict[int, int] = {}
            present = frame.segs[colour]
            stride = frame.stride
            for s in present:
                a, b = segment_points(s, stride)
                ra, rb = _find(parent, a), _find(parent, b)
                if ra != rb:
                    parent[ra] = rb
            piece = {}
            for s in present:
                a, b = segment_points(s, stride)
                piece[a] = _find(parent, a)
                piece[b] = _find(parent, b)
            frame.pieces[colour] = piece
        return piece

    def _closes(self, frame: Frame, sh: Shape, base: int, colour: int) -> bool:
        """Whether laying ``sh`` with its top-left corner at ``base`` closes a loop of ``colour`` with a new
        segment (§5.1)."""
        off = 2 * base
        piece = self._pieces(frame, colour)
        present = frame.segs[colour]
        stride = frame.stride
        parent: dict[int, int] = {}
        for rel in sh.segs[colour]:
            s = rel + off
            if s in present:
                continue
            a = s >> 1
            b = a + (stride if s & 1 else 1)
            ra, rb = _find(parent, piece.get(a, a)), _find(parent, piece.get(b, b))
            if ra == rb:
                return True
            parent[ra] = rb
        return False

    def _bases(self, frame: Frame, sh: Shape) -> int:
        """The top-left squares where ``sh`` lies on the table, on no card, touching one (§4.2), as a mask."""
        if not frame.covered:  # §4.2: an empty table: the card lies on its own, its corner the table's corner
            return 1 << (PAD * frame.stride + PAD)
        near = over = 0
        frontier, covered = frame.frontier, frame.covered
        for r in sh.squares:
            near |= frontier >> r
            over |= covered >> r
        return near & ~over & fits(frame.stride, frame.rows, sh.w, sh.h)

    def _scan(self, frame: Frame, sh: Shape, kind: int, first: bool = False) -> list[int]:
        """The legal places of ``sh`` (§4.2, §4.3) of one ``kind``, in order: CLOSING (completing the mover's
        fence), PLAIN (completing none) or ANY; with ``first``, at most one.

        A new loop must meet the lines already there at two points at least, so only the places where the
        card's path of a colour meets two of that colour's points need the full test.
        """
        mover = self.to_move
        bases = self._bases(frame, sh)
        points = frame.points
        risky = 0  # where the placement may complete another player's fence (§4.3)
        for k in range(self.num_players):
            if k != mover:
                risky |= at_least_two(points[k], sh.offsets[k])
        maybe_own = at_least_two(points[mover], sh.offsets[mover]) if kind != ANY else 0
        if kind == CLOSING:
            bases &= maybe_own
        elif first:  # a place no loop can come from
            safe = bases & ~risky & ~maybe_own
            if safe:
                return [(safe & -safe).bit_length() - 1]
        out = []
        for base in bits(bases):
            bit = 1 << base
            if kind == CLOSING:
                if not self._closes(frame, sh, base, mover):
                    continue
            elif bit & maybe_own and self._closes(frame, sh, base, mover):
                continue
            if bit & risky and any(self._closes(frame, sh, base, k) for k in range(self.num_players) if k != mover):
                continue
            out.append(base)
            if first:
                break
        return out

    def _playable(self, frame: Frame, card: int) -> bool:
        """Whether ``card`` has any legal place (§4.5)."""
        shapes = frame.shapes
        return any(self._scan(frame, shapes[k], ANY, first=True) for k in range(8 * card, 8 * card + 8))

    # -- a turn (§3) --------------------------------------------------------------
    def _start_turn(self, p: int) -> None:
        self.to_move = p
        self.turn += 1
        self.held, self.shape, self.aim, self.choices, self.source = -1, -1, ANY, (), ""
        self.closing, self.plain_ways, self.spots, self.places = {}, (), (), {}
        self.frame = None
        if self.turn > self.game.params["turn_limit"]:  # §7: the safety limit
            self.capped = True
            self.phase = OVER
            return
        hand = self.hands[p]
        if hand:  # §3.1: a card from your hand
            frame = self._frame()
            self.frame = frame
            self.source = "hand"
            self.choices = tuple(c for c in hand if self._playable(frame, c))
        elif self.top is not None:  # §3.2: the top card of the deck
            frame = self._frame()
            self.frame = frame
            self.source = "deck"
            card = self.top[0]
            if self._playable(frame, card):
                self.held = card
                self.top = None
                self._hold(frame, card)
                if self.deck:
                    self.phase = REVEAL
                return
        elif self.table:  # §3.3: a card from the table, not the one just played unless it is the only one
            self.source = "table"
            pick = [c for c in sorted(self.table) if c != self.last_played or len(self.table) == 1]
            self.choices = tuple(c for c in pick if self._playable(self._frame(without=c), c))
        self.phase = TAKE if self.choices else SKIP  # §3.4, §4.5: nothing to play

    def _hold(self, frame: Frame, card: int) -> None:
        """The card to play is chosen: find where it completes a fence of the mover's and which ways to lay it
        leave a place that completes none (§4.4)."""
        shapes = frame.shapes
        self.frame = frame
        self.closing = {}
        plain = []
        for k in range(8 * card, 8 * card + 8):
            spots = self._scan(frame, shapes[k], CLOSING)
            if spots:
                self.closing[k] = tuple(spots)
            if self._scan(frame, shapes[k], PLAIN, first=True):
                plain.append(k)
        self.plain_ways = tuple(plain)
        self.phase = self._ask()

    def _ask(self) -> str:
        """AIM when the held card has places that complete the mover's fence and places that do not (§4.4)."""
        return AIM if self.closing and self.plain_ways else LAY

    def _ways(self) -> list[int]:
        """The shapes of the held card with a place of the chosen kind (§4.1, §4.4)."""
        if self.aim == CLOSING or not self.plain_ways:
            return sorted(self.closing)
        if self.aim == PLAIN or not self.closing:
            return list(self.plain_ways)
        return sorted(set(self.closing) | set(self.plain_ways))

    def _spots(self) -> tuple[int, ...]:
        """The legal top-left squares of the chosen way, of the chosen kind (§4.2, §4.4)."""
        return self.spots

    def _end_turn(self) -> None:
        self.frame = None
        if self.phase != OVER:
            self._start_turn((self.to_move + 1) % self.num_players)

    # -- §2.2: a card turns up on the deck ------------------------------------------------
    def _reveal_outcomes(self) -> list[tuple[int, float]]:
        pr = 1 / (2 * len(self.deck))
        return [(2 * c + side, pr) for c in self.deck for side in (0, 1)]

    def _reveal(self, action: int) -> None:
        card = action // 2
        self.top = (card, action % 2)
        self.deck = tuple(c for c in self.deck if c != card)
        if self.held >= 0:
            self.phase = self._ask()
        else:
            self._start_turn(0)

    def _reveal_label(self, player: int, action: int) -> str:
        return f"card {self.game.card_names[action // 2]} turns up on the deck, side {SIDES[action % 2]} up"

    # -- §3: take a card -------------------------------------------------------------------
    def _take_legal(self, player: int) -> list[int]:
        base = self.game.take_base
        return [base + c for c in self.choices]

    def _take(self, action: int) -> None:
        card = action - self.game.take_base
        self.held = card
        if self.source == "hand":
            p = self.to_move
            self.hands[p] = tuple(c for c in self.hands[p] if c != card)
            frame = self.frame or self._frame()
        else:  # §3.3: picked up from the table
            self._lift(card)
            self._settle()
            frame = self._frame()
        self.frame = frame
        self._hold(frame, card)

    def _take_explain(self, player: int, action: int) -> str | None:
        game = self.game
        if not game.take_base <= action < game.take_base + game.cards:
            return said("first choose the card to play", "3")
        card = action - game.take_base
        name = game.card_names[card]
        if self.source == "hand":
            if card not in self.hands[player]:
                return said(f"card {name} is not in your hand, and you must play a card from your hand", "3.1")
            return said(f"card {name} has no legal place on the table", "4.5")
        if card not in self.table:
            return said(f"card {name} is not on the table", "3.3")
        if card == self.last_played and len(self.table) > 1:
            return said(f"card {name} was just played by the previous player", "3.3")
        return said(f"card {name} has no legal place on the table", "4.5")

    # -- §4.4: say whether the card completes a fence --------------------------------------
    def _aim_legal(self, player: int) -> list[int]:
        return [self.game.aim_base, self.game.aim_base + 1]

    def _aim(self, action: int) -> None:
        self.aim = CLOSING if action == self.game.aim_base else PLAIN
        self.phase = LAY

    def _aim_explain(self, player: int, action: int) -> str | None:
        return said("first say whether this card is to complete one of your fences", "4.4")

    # -- §4.1: choose how the card lies ---------------------------------------------------
    def _lay_legal(self, player: int) -> list[int]:
        base = self.game.lay_base
        return [base + k % 8 for k in self._ways()]

    def _lay(self, action: int) -> None:
        k = self.shape = 8 * self.held + action - self.game.lay_base
        closing = self.closing.get(k, ())
        if self.aim == CLOSING:
            self.spots = closing
        else:
            assert self.frame is not None
            plain = self._scan(self.frame, self.frame.shapes[k], PLAIN)
            self.spots = tuple(plain) if self.aim == PLAIN else tuple(sorted((*closing, *plain)))
        frame = self.frame
        assert frame is not None
        self.places = self._name_places(frame, frame.shapes[k], self.spots)
        self.phase = PLACE

    def _name_places(self, frame: Frame, sh: Shape, spots: tuple[int, ...]) -> dict[int, int]:
        """The actions of the places ``spots`` of ``sh``, in action order: action → square (§4.2). Each is named
        from the first card it touches; found card by card, as masks of the places that touch it."""
        game = self.game
        if not self.table:
            return {game.start_action: spots[0]} if spots else {}  # §4.2: one place, on its own
        stride = frame.stride
        left = 0
        for b in spots:
            left |= 1 << b
        named = []
        for card, laid in frame.laid:
            near = (laid << 1) | (laid >> 1) | (laid << stride) | (laid >> stride)
            touch = 0
            for r in sh.squares:
                touch |= near >> r
            hit = left & touch
            if not hit:
                continue
            left ^= hit
            _, cx, cy = self.table[card]
            first = game.place_base + card * SPAN * SPAN
            for b in bits(hit):
                dx = b % stride - PAD - cx + REACH
                dy = b // stride - PAD - cy + REACH
                named.append((first + dx * SPAN + dy, b))
            if not left:
                break
        return dict(sorted(named))

    def _lay_explain(self, player: int, action: int) -> str | None:
        game = self.game
        if not game.lay_base <= action < game.lay_base + 8:
            return said(
                f"first choose which side of card {game.card_names[self.held]} is up and how it is turned", "4.1"
            )
        if self.aim == CLOSING:
            return said("laid that way, the card can complete none of your fences", "4.4")
        if self.aim == PLAIN and 8 * self.held + action - game.lay_base in self.closing:
            return said("laid that way, the card can only complete a fence of yours", "4.4")
        return said("laid that way, the card has no legal place on the table", "4.2", "4.3")

    # -- §4.2: put it down ---------------------------------------------------------------
    def _place_legal(self, player: int) -> list[int]:
        return list(self.places)

    def _place_is_legal(self, player: int, action: int) -> bool:
        return action in self.places

    def _anchor(self, frame: Frame, sh: Shape, base: int) -> int:
        """The card a place is named from: the first card, in card order, that ``sh`` at ``base`` touches along
        a square's side (§4.2); -1 if none."""
        mask = sh.mask << base
        stride = frame.stride
        near = (mask << 1) | (mask >> 1) | (mask << stride) | (mask >> stride)
        for card, laid in frame.laid:
            if laid & near:
                return card
        return -1

    def place_of(self, action: int) -> tuple[int, int] | None:
        """Where a place action puts the card's top-left square, as (x, y) counted from the top-left corner of
        the cards on the table now; ``None`` if the action names no place now (§4.2)."""
        game = self.game
        if action == game.start_action:
            return (0, 0) if not self.table else None
        if action not in game.action_space or game.action_space.decode(action)[0] != PLACE:
            return None
        card, dx, dy = game.action_space.decode(action)[1]
        if card not in self.table:
            return None
        _, cx, cy = self.table[card]
        return cx + dx - REACH, cy + dy - REACH

    def _place(self, action: int) -> None:
        card, sh = self.held, self.shape
        base = self.places[action]
        x, y = self._where(base)
        closed = base in self.closing.get(sh, ())
        p = self.to_move
        own = p  # §2.1: a seat's colour is its number
        self._put(card, sh, x, y)
        self.last_played = card
        self.fence = None
        if closed:  # §5.2: take the fence into your hand
            taken = self._fence_cards(own, card)
            for c in taken:
                self._lift(c)
            self.hands[p] = tuple(sorted(self.hands[p] + taken))
            self.fence = (p, own, taken)
            if len(self.hands[p]) >= 4:  # §6
                self.winner = p
                self.phase = OVER
        self._settle()
        self._end_turn()

    def _place_explain(self, player: int, action: int) -> str | None:
        game = self.game
        if not game.start_action <= action < game.place_base + game.action_space.segment("place").size:
            return said("first choose where the card goes", "4.2")
        frame = self.frame or self._frame()
        if not self.table:
            return said("the table is empty, so the card is laid on it on its own", "4.2")
        if action == game.start_action:
            return said("the table is not empty: the card must touch a card on the table", "4.2")
        named = game.action_space.decode(action)[1][0]
        if named not in self.table:
            return said(f"card {game.card_names[named]} is not on the table, so no place is counted from it", "4.2")
        at = self.place_of(action)
        assert at is not None
        sh = frame.shapes[self.shape]
        base = self._square(*at)
        mask = sh.mask << base
        if mask & frame.covered:
            return said("the card would lie on another card", "4.2")
        anchor = self._anchor(frame, sh, base)
        if anchor < 0:
            return said("the card must touch a card on the table along at least one square's side", "4.2")
        if anchor != named:
            return said(
                f"that place is counted from card {game.card_names[anchor]}, the first card it touches, "
                f"not from card {game.card_names[named]}",
                "4.2",
            )
        for k in range(self.num_players):
            if k != player and self._closes(frame, sh, base, k):
                return said(f"that would complete a {NAMES[k]} fence, and you may not complete another player's", "4.3")
        if self.aim == CLOSING:
            return said("there the card completes none of your fences, as you said it would", "4.4")
        if self.aim == PLAIN:
            return said("there the card would complete a fence of yours, and you said it would not", "4.4")
        return None

    def _take_seen(self, actor: int, entry: Any) -> Seen:
        name = self.game.card_names[entry - self.game.take_base]
        if self.source == "hand":
            return Seen(f"plays card {name} from their hand")
        return Seen(f"picks up card {name} from the table to play it again")

    def _aim_seen(self, actor: int, entry: Any) -> Seen:
        if AIMS[entry - self.game.aim_base] == AIMS[0]:
            return Seen("chooses to complete a fence")
        return Seen("chooses to lay the card without completing a fence")

    def _lay_seen(self, actor: int, entry: Any) -> Seen:
        side, turn = divmod(entry - self.game.lay_base, len(TURNS))
        how = "" if TURNS[turn] == "upright" else f", {TURNS[turn]}"
        return Seen(f"holds the card side {SIDES[side]} up{how}")

    def _place_seen(self, actor: int, entry: Any) -> Seen:
        if entry == self.game.start_action:
            label = "lays the card on the empty table"
        else:  # "place 2 right and 1 down from card 3" (the notation) is told in squares
            card, dx, dy = self.game.action_space.decode(entry)[1]
            steps = [
                f"{abs(d)} {'square' if abs(d) == 1 else 'squares'} {ahead if d > 0 else back}"
                for d, ahead, back in ((dx - REACH, "right", "left"), (dy - REACH, "down", "up"))
                if d
            ]
            label = f"lays the card {' and '.join(steps)} from card {self.game.card_names[card]}"
        after = self.clone()
        after._apply(entry)
        if after.fence is None:
            return Seen(label)
        seat, colour, taken = after.fence
        cards = ", ".join(self.game.card_names[c] for c in taken)
        won = f"; {NAMES[seat]} holds {len(after.hands[seat])} cards and wins" if after.winner == seat else ""
        return Seen(f"{label}: completes a {NAMES[colour]} fence and takes cards {cards}{won}")

    # -- §3.4, §4.5: skip ----------------------------------------------------------------
    def _skip_legal(self, player: int) -> list[int]:
        return [self.game.skip]

    def _skip(self, action: int) -> None:
        self.last_played = -1
        self.fence = None
        self._end_turn()

    def _skip_seen(self, actor: int, entry: Any) -> Seen:
        return Seen("has no card that can be played and skips the turn")

    def _skip_explain(self, player: int, action: int) -> str | None:
        return said("no card can be played, so you must skip the turn", "3.4", "4.5")

    # -- the table's bookkeeping ------------------------------------------------------------
    def _put(self, card: int, sh: int, x: int, y: int) -> None:
        self.table[card] = (sh, x, y)
        off = 2 * self._square(x, y)
        shape = self.game.shapes_at(self.stride)[sh]
        for colour in range(len(COLOUR_KEYS)):
            lines = self.lines[colour]
            for rel in shape.segs[colour]:
                s = rel + off
                lines[s] = (*lines.get(s, ()), card)

    def _lift(self, card: int) -> None:
        sh, x, y = self.table.pop(card)
        off = 2 * self._square(x, y)
        shape = self.game.shapes_at(self.stride)[sh]
        for colour in range(len(COLOUR_KEYS)):
            lines = self.lines[colour]
            for rel in shape.segs[colour]:
                s = rel + off
                rest = tuple(c for c in lines[s] if c != card)
                if rest:
                    lines[s] = rest
                else:
                    del lines[s]

    def _settle(self) -> None:
        """Count the coordinates from the laid cards' top-left corner again, after the table changed, and
        renumber the table so that PAD squares lie free around the cards on every side (§4.2: no edge)."""
        shapes = self.game.shapes
        table = self.table
        if not table:
            self.stride, self.rows = stride_for(3), 3 + 2 * PAD
            return
        x0 = min(x for _, x, _ in table.values())
        y0 = min(y for _, _, y in table.values())
        width = max(x + shapes[sh].w for sh, x, _ in table.values()) - x0
        height = max(y + shapes[sh].h for sh, _, y in table.values()) - y0
        stride = stride_for(width)
        rows = height + 2 * PAD
        if (x0, y0, stride) == (0, 0, self.stride):
            self.rows = rows
            return
        self.rows = rows
        if stride == self.stride:  # the same numbering, moved: every segment number shifts alike
            off = 2 * (y0 * stride + x0)
            self.table = {card: (sh, x - x0, y - y0) for card, (sh, x, y) in table.items()}
            self.lines = [{s - off: cards for s, cards in lines.items()} for lines in self.lines]
            return
        self.table = {}
        self.lines = [{} for _ in COLOUR_KEYS]
        self.stride = stride
        for card, (sh, x, y) in sorted(table.items()):
            self._put(card, sh, x - x0, y - y0)

    def _fence_cards(self, colour: int, card: int) -> tuple[int, ...]:
        """The cards of the fence ``card`` just completed in ``colour`` (§5.2)."""
        lines = self.lines[colour]
        sh, x, y = self.table[card]
        off = 2 * self._square(x, y)
        mine = [rel + off for rel in self.game.shapes_at(self.stride)[sh].segs[colour]]
        new = [s for s in mine if lines[s] == (card,)]
        adj: dict[int, list[tuple[int, int]]] = {}
        stride = self.stride
        for s in lines:
            a, b = segment_points(s, stride)
            adj.setdefault(a, []).append((b, s))
            adj.setdefault(b, []).append((a, s))
        taken: set[int] = set()
        if self.game.params["fence_cards"] == "whole_component":
            start = segment_points(mine[0], stride)[0]
            seen, todo = {start}, [start]
            while todo:
                q = todo.pop()
                for r, s in adj[q]:
                    taken.update(lines[s])
                    if r not in seen:
                        seen.add(r)
                        todo.append(r)
            return tuple(sorted(taken))
        for e in new:  # the shortest loop through each new segment that lies on one
            a, b = segment_points(e, stride)
            back: dict[int, tuple[int, int]] = {a: (-1, -1)}
            queue = deque([a])
            while queue and b not in back:
                q = queue.popleft()
                for r, s in adj[q]:
                    if s != e and r not in back:
                        back[r] = (q, s)
                        queue.append(r)
            if b not in back:
                continue
            taken.update(lines[e])
            q = b
            while q != a:
                q, s = back[q]
                taken.update(lines[s])
        return tuple(sorted(taken))

    # -- views ----------------------------------------------------------------------
    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The observation as numbers (docs/research/tensors-newer.md): seats from the viewer's, cards by number."""
        o = self.observation(player)
        v, n, cards = o["viewer"], self.num_players, self.game.cards
        tz.header(t, o, v, n, PHASE_NAMES)
        t.counts("turn", [o["turn"]], o["turn_limit"] + 1)
        laid = {row[0]: row[1:] for row in o["table"]}
        t.bits("on_table", [c in laid for c in range(cards)])
        tz.one_hots(t, "table_side", [laid[c][0] if c in laid else None for c in range(cards)], len(SIDES))
        tz.one_hots(t, "table_turn", [laid[c][1] if c in laid else None for c in range(cards)], len(TURNS))
        far = TENSOR_SPAN - 1  # a corner this far from the laid cards' corner, or farther (cards apart)
        tz.one_hots(t, "table_x", [min(laid[c][2], far) if c in laid else None for c in range(cards)], TENSOR_SPAN)
        tz.one_hots(t, "table_y", [min(laid[c][3], far) if c in laid else None for c in range(cards)], TENSOR_SPAN)
        for k, hand in enumerate(tz.rotate(o["hands"], v)):
            t.bits(f"hand{k}", [c in hand for c in range(cards)])
        t.counts("deck", [o["deck"]], cards)
        top = o["top"]
        t.one_hot("top_card", top[0] if top else None, cards)
        t.one_hot("top_side", top[1] if top else None, len(SIDES))
        t.one_hot("held", o["held"], cards)
        t.one_of("source", o["source"] or None, SOURCES)
        t.one_hot("aim", None if o["aim"] is None else int(not o["aim"]), len(AIMS))
        lay = o["lay"]
        t.one_hot("lay_side", lay[0] if lay else None, len(SIDES))
        t.one_hot("lay_turn", lay[1] if lay else None, len(TURNS))
        t.one_hot("last_played", o["last_played"], cards)
        fence = o["fence"]
        t.one_hot("fence_seat", tz.rel(fence["seat"], v, n) if fence else None, n)
        t.one_hot("fence_colour", NAMES.index(fence["colour"]) if fence else None, n)
        t.bits("fence_cards", [bool(fence) and c in fence["cards"] for c in range(cards)])
        t.one_hot("winner", tz.rel(o["winner"], v, n), n)
        t.bits("draw", [o["draw"]])
        t.bits("capped", [o["capped"]])

    def observation(self, player: int | None = None) -> dict[str, Any]:
        game = self.game
        table = []
        for card in sorted(self.table):
            sh, x, y = self.table[card]
            shape = game.shapes[sh]
            table.append([card, shape.side, shape.turn, x, y])
        return {
            "players": self.num_players,
            "viewer": player,
            "colours": list(NAMES[: self.num_players]),
            "phase": self.phase,
            "to_move": self.current_player(),
            "turn": self.turn,
            "turn_limit": game.params["turn_limit"],
            "table": table,
            "hands": [list(h) for h in self.hands],
            "deck": len(self.deck) + (1 if self.top is not None else 0),
            "top": list(self.top) if self.top is not None else None,
            "held": self.held if self.held >= 0 else None,
            "source": self.source or None,
            "aim": None if self.aim == ANY else self.aim == CLOSING,
            "lay": [game.shapes[self.shape].side, game.shapes[self.shape].turn] if self.phase == PLACE else None,
            "last_played": self.last_played if self.last_played in self.table else None,
            "fence": (
                {"seat": self.fence[0], "colour": NAMES[self.fence[1]], "cards": list(self.fence[2])}
                if self.fence is not None
                else None
            ),
            "winner": self.winner if self.winner >= 0 else None,
            "draw": self.phase == OVER and self.winner < 0,
            "capped": self.capped,
        }


# -- the phases (§2-§5) ---------------------------------------------------------------------


def _mover(s: FencesState) -> int:
    return s.to_move


def _prompt_take(game: FencesGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    if not legal:
        return f"{NAMES[obs['to_move']]} chooses a card to play."
    if obs["source"] == "hand":
        return said("Choose a card from your hand to play.", "3.1")
    return said("The deck is empty: choose a card on the table to pick up and play again.", "3.3")


def _prompt_aim(game: FencesGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    name = game.card_names[obs["held"]] if obs["held"] is not None else "?"
    if not legal:
        return f"{NAMES[obs['to_move']]} can complete a fence with card {name}."
    return f"Card {name} can complete one of your fences: complete one, or lay it elsewhere?"


def _prompt_lay(game: FencesGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    name = game.card_names[obs["held"]] if obs["held"] is not None else "?"
    if not legal:
        return f"{NAMES[obs['to_move']]} chooses how to lay card {name}."
    return f"Choose which side of card {name} is up and how it is turned."


def _prompt_place(game: FencesGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    if not legal:
        return f"{NAMES[obs['to_move']]} puts the card down."
    return "Click the square for the card's top-left corner; it must touch a card on the table."


def _prompt_skip(game: FencesGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    who = "You have" if legal else f"{NAMES[obs['to_move']]} has"
    return f"{who} no card that can be played: skip the turn."


def _prompt_over(game: FencesGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    if obs["winner"] is not None:
        w = obs["winner"]
        return f"{NAMES[w]} wins with {len(obs['hands'][w])} cards in hand."
    return f"Draw: the turn limit of {obs['turn_limit']} turns was reached."


S = FencesState  # short, for the table of its methods below
FencesState.phases = phase_table(
    Phase(
        REVEAL,
        CHANCE,
        outcomes=FencesState._reveal_outcomes,
        apply=FencesState._reveal,
        label=FencesState._reveal_label,
    ),
    *(  # the mover's steps, each with its legal actions, effect, refusal, log entry and prompt
        Phase(name, _mover, legal=legal, is_legal=is_legal, apply=apply, explain=explain, seen=seen, prompt=prompt)
        for name, legal, is_legal, apply, explain, seen, prompt in (
            (TAKE, S._take_legal, None, S._take, S._take_explain, S._take_seen, _prompt_take),
            (AIM, S._aim_legal, None, S._aim, S._aim_explain, S._aim_seen, _prompt_aim),
            (LAY, S._lay_legal, None, S._lay, S._lay_explain, S._lay_seen, _prompt_lay),
            (PLACE, S._place_legal, S._place_is_legal, S._place, S._place_explain, S._place_seen, _prompt_place),
            (SKIP, S._skip_legal, None, S._skip, S._skip_explain, S._skip_seen, _prompt_skip),
        )
    ),
    Phase(OVER, TERMINAL, prompt=_prompt_over),
)
del S


# -- the scene ------------------------------------------------------------------------------


#: Pixels per unit square of a card's art: a side (2 x 3 squares) on its own, and both sides of a card in a hand.
SIDE_UNIT = 26
CARD_UNIT = 17


def side_picture(game: FencesGame, sh: Shape, unit: float = SIDE_UNIT) -> dict[str, Any]:
    """A side's line art as a picture: one stroke per colour, in its ink (§1); a turned side lies across."""
    return sc.picture((sh.w, sh.h), strokes=[list(p) for p in sh.paths], stroke_colours=list(INKS), unit=unit)


def _side_item(game: FencesGame, id: str, card: int, side: int, turn: int = 0) -> dict[str, Any]:
    sh = game.shapes[shape_index(card, side, turn)]
    name = game.card_names[card]
    label = f"card {name} side {SIDES[side]}" + ("" if turn == 0 else f", {TURNS[turn]}")
    return sc.item(id, label, value=f"{name}{SIDES[side]}", picture=side_picture(game, sh))


def card_picture(game: FencesGame, card: int) -> dict[str, Any]:
    """A double-sided card as one picture: side A, a grey line, side B (§1)."""
    a, b = (game.shapes[shape_index(card, side, 0)] for side in (0, 1))
    h = max(a.h, b.h)
    strokes = [list(p) for p in a.paths] + [[(x + a.w + 1, y) for x, y in p] for p in b.paths]
    strokes.append([(a.w + 0.5, 0.2), (a.w + 0.5, h - 0.2)])  # the fold between the two sides, in grey
    inks = [*INKS, *INKS, "#c9c2b3"]
    return sc.picture((a.w + 1 + b.w, h), strokes=strokes, stroke_colours=inks, unit=CARD_UNIT)


def _card_item(game: FencesGame, id: str, card: int) -> dict[str, Any]:
    """A card in a hand or in play: one item, both its sides side by side."""
    name = game.card_names[card]
    return sc.item(id, f"card {name}", value=name, detail="side A, side B", picture=card_picture(game, card))


def _window(game: FencesGame, obs: dict[str, Any]) -> tuple[int, int, int, int]:
    """The squares of the table the scene shows: the cards and MARGIN squares around them (the table has no
    edge, §4.2)."""
    xs, ys = [0, 3], [0, 3]
    for card, side, turn, x, y in obs["table"]:
        sh = game.shapes[shape_index(card, side, turn)]
        xs += [x, x + sh.w]
        ys += [y, y + sh.h]
    return min(xs) - MARGIN, min(ys) - MARGIN, max(xs) + MARGIN, max(ys) + MARGIN


def _column(i: int) -> str:
    """Column ``i`` of the scene as letters: a … z, aa, ab, …"""
    name = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        name = chr(97 + r) + name
    return name


def _places(game: FencesGame, obs: dict[str, Any]) -> dict[int, tuple[int, int]]:
    """By place action: where it puts the card's top-left square, from the viewer's observation (§4.2)."""
    laid = {card: (x, y) for card, _, _, x, y in obs["table"]}
    out = {} if laid else {game.start_action: (0, 0)}
    space = game.action_space
    for card, (x, y) in laid.items():
        for dx in range(SPAN):
            for dy in range(SPAN):
                out[space.encode("place", card, dx, dy)] = (x + dx - REACH, y + dy - REACH)
    return out


@FencesGame.draws_scene
def _scene(game: FencesGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    phase = obs["phase"]
    prompt = {
        TAKE: _prompt_take,
        AIM: _prompt_aim,
        LAY: _prompt_lay,
        PLACE: _prompt_place,
        SKIP: _prompt_skip,
        OVER: _prompt_over,
    }
    text = prompt[phase](game, obs, legal) if phase in prompt else "A card turns up on the deck."
    x0, y0, x1, y1 = _window(game, obs)

    def name(x: int, y: int) -> str:  # a square's name in this scene: column letters, row number
        return f"{_column(x - x0)}{y - y0 + 1}"

    s = sc.new_scene(text, (x0 - 0.2, y0 - 0.2, x1 - x0 + 0.4, y1 - y0 + 0.4))
    owner: dict[tuple[int, int], int] = {}
    for card, side, turn, x, y in obs["table"]:
        sh = game.shapes[shape_index(card, side, turn)]
        for cx, cy in sh.cells:
            owner[(x + cx, y + cy)] = card
    for yy in range(y0, y1):
        for xx in range(x0, x1):
            poly = [(xx, yy), (xx + 1, yy), (xx + 1, yy + 1), (xx, yy + 1)]
            fill = "#fffdf8" if (xx, yy) in owner else None
            label = name(xx, yy)
            s["cells"].append(sc.cell(label, (xx + 0.5, yy + 0.5), poly, label=label, fill=fill))
    for card, side, turn, x, y in obs["table"]:  # the card's outline, then its lines (§1)
        sh = game.shapes[shape_index(card, side, turn)]
        corners = [(x, y), (x + sh.w, y), (x + sh.w, y + sh.h), (x, y + sh.h)]
        for k in range(4):
            a, b = corners[k], corners[(k + 1) % 4]
            s["edges"].append(sc.edge(f"card{card}-edge{k}", a, b, stroke="#8a8170", kind="card"))
        for colour, path in enumerate(sh.paths):
            for k, ((ax, ay), (bx, by)) in enumerate(itertools.pairwise(path)):
                dx = dy = 0.0
                if ax == bx and ax in (0, sh.w):  # on the card's edge: drawn just inside, so two cards' lines both show
                    dx = 0.12 if ax == 0 else -0.12
                if ay == by and ay in (0, sh.h):
                    dy = 0.12 if ay == 0 else -0.12
                a = (x + ax + dx, y + ay + dy)
                b = (x + bx + dx, y + by + dy)
                s["edges"].append(
                    sc.edge(
                        f"card{card}-{COLOUR_KEYS[colour]}{k}", a, b, owner=colour, stroke=INKS[colour], kind="fence"
                    )
                )
    last = obs["last_played"]
    if last is not None and any(c == last for c in owner.values()):  # the card's outline, under its lines
        s["highlights"] += [{"at": f"card{last}-edge{k}", "kind": "last"} for k in range(4)]
    if obs["fence"] is not None:
        f = obs["fence"]
        names = ", ".join(game.card_names[c] for c in f["cards"])
        s["status"].append(f"{NAMES[f['seat']]} completed a {f['colour']} fence and took cards {names}")
    # the deck (§2.2): its top side shows
    deck_items = []
    if obs["top"] is not None:
        card, side = obs["top"]
        deck_items.append(_side_item(game, f"top{card}", card, side))
    for k in range(obs["deck"] - len(deck_items)):
        deck_items.append(sc.item(f"deck{k}", "a card", face_down=True))
    # the card in play and the ways to lay it come first, nearest the board (a phone shows them without
    # scrolling); the deck and the hands follow, always in the same order
    later = [sc.zone("deck", f"Deck: {obs['deck']} cards", deck_items)]
    held = obs["held"]
    if held is not None:  # the card in play: both sides, as the player may look at it now
        items = [_card_item(game, f"held{held}", held)]
        s["zones"].append(sc.zone("held", f"{NAMES[obs['to_move']]} plays card {game.card_names[held]}", items))
    for p in range(obs["players"]):
        items = [_card_item(game, f"hand{p}-{c}", c) for c in obs["hands"][p]]
        title = "Your hand" if p == obs["viewer"] else f"{NAMES[p]}'s hand"
        later.append(sc.zone(f"hand{p}", f"{title}: {len(obs['hands'][p])} cards", items, owner=p))
    ways = []
    places: dict[int, tuple[int, int]] = {}
    for a, label in legal:
        segment, idx = game.action_space.decode(a)
        if segment == "take":
            card = idx[0]
            if obs["source"] == "hand":
                s["targets"].append({"at": f"hand{obs['to_move']}-{card}", "action": a, "label": label})
            else:
                for at, c in owner.items():
                    if c == card:
                        s["targets"].append({"at": name(*at), "action": a, "label": label})
        elif segment == "lay":
            side, turn = idx
            ways.append(_side_item(game, f"lay{side}{turn}", held, side, turn))
            s["targets"].append({"at": f"lay{side}{turn}", "action": a, "label": label})
        elif segment in ("place", "start"):
            places = places or _places(game, obs)
            s["targets"].append({"at": name(*places[a]), "action": a, "label": label})
    if ways:
        s["zones"].append(sc.zone("lay", "Ways to lay the card", ways))
    if obs["lay"] is not None and held is not None:
        side, turn = obs["lay"]
        s["zones"].append(sc.zone("chosen", "Laid like this", [_side_item(game, "chosen", held, side, turn)]))
    s["zones"].extend(later)
    if obs["table"]:  # the table in words, for players who cannot see the drawing's colours
        laid = "; ".join(
            f"card {game.card_names[card]} side {SIDES[side]}, {TURNS[turn]}, at {name(x, y)}"
            for card, side, turn, x, y in obs["table"]
        )
        s["status"].append(f"On the table: {laid}.")
    s["status"].append(f"Turn {obs['turn']}; four cards in hand win.")
    s["players"] = [
        sc.player(p, NAMES[p], detail=f"{len(obs['hands'][p])} cards in hand", colour=INKS[p])
        for p in range(obs["players"])
    ]
    return sc.finish_scene(s, legal)


FencesGame.state_class = FencesState
PHASE_NAMES = tuple(FencesState.phases)
#: Where the card played this turn comes from (§3).
SOURCES = ("hand", "deck", "table")

GAME_CLASS = FencesGame
