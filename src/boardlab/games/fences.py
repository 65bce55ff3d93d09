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
* ``place at e7`` (segment ``place``: a square of the table): where the card's
  top-left square goes (§4.2);
* ``skip the turn`` (segment ``skip``): only when nothing can be played (§3.4, §4.4).

Chance outcomes are ``2 * card + side``: the card that turns up on top of the
deck and the side it shows (§2.2). Nothing is hidden between the players
(§2.3), so the game has perfect information with explicit chance.

Geometry: the table is a square of :data:`TABLE` x :data:`TABLE` unit squares
(§4.2). Lattice points are ``y * (TABLE + 1) + x``; a unit segment is
``2 * point`` (to the right) or ``2 * point + 1`` (downward), so a placed
shape's segments are its precomputed relative numbers plus one offset. Each
colour's segments on the table are kept with the cards that draw them; the
connected pieces of every colour are computed once per turn, and a candidate
placement closes a fence when one of its new segments joins two points of
the same piece (§5.1).
"""

from __future__ import annotations

import itertools
import json
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.constants import CHANCE, TERMINAL
from ..core.game import Game
from ..core.gametype import Chance, GameType
from ..core.hidden import Seen
from ..core.options import Option
from ..core.phases import Phase, PhasedState, phase_table
from ..core.tensor import Tensor
from . import _tensors as tz

DATA = Path(__file__).with_name("data") / "fences.json"
COLOUR_KEYS = ("R", "B", "G", "Y")
NAMES = ("Red", "Blue", "Green", "Yellow")
#: Line inks: Okabe-Ito red-orange, blue, green and a dark yellow that reads on a light card.
INKS = tuple(sc.INK_OF[name] for name in NAMES)
SIDES = ("A", "B")
TURNS = ("upright", "turned right", "upside down", "turned left")
AIMS = ("complete a fence", "lay without completing a fence")
#: The table: TABLE x TABLE unit squares (§4.2).
TABLE = 20
STRIDE = TABLE + 1  # lattice points per row
COLUMNS = "abcdefghijklmnopqrst"
CELL_LABELS = tuple(f"{COLUMNS[i % TABLE]}{i // TABLE + 1}" for i in range(TABLE * TABLE))
#: Squares of the table around the cards that the scene shows (a placement can reach 3 beyond them).
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


def _segment(a: tuple[int, int], b: tuple[int, int]) -> int:
    """The number of the unit segment a–b, relative to the table's corner."""
    (ax, ay), (_, by) = sorted((a, b), key=lambda p: (p[1], p[0]))
    return 2 * (ay * STRIDE + ax) + (0 if ay == by else 1)


def segment_points(seg: int) -> tuple[int, int]:
    """The two lattice points of segment ``seg``."""
    p = seg >> 1
    return p, p + (1 if seg & 1 == 0 else STRIDE)


SEG_POINTS = tuple(segment_points(s) for s in range(2 * STRIDE * STRIDE))
SEG_MASKS = tuple((1 << a) | (1 << b) for a, b in SEG_POINTS)
#: Squares are numbered like their top-left lattice points, ``y * STRIDE + x``, so one shift moves a card's
#: squares and points alike; the column x = TABLE is not on the table.
ALL_SQUARES = sum(1 << (y * STRIDE + x) for y in range(TABLE) for x in range(TABLE))
#: By a card's width (2 or 3): the top-left squares from which it stays on the table.
FITS = {w: sum(1 << (y * STRIDE + x) for y in range(TABLE - 5 + w + 1) for x in range(TABLE - w + 1)) for w in (2, 3)}


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
    squares: tuple[int, ...]  # the same as square numbers (y * STRIDE + x), relative
    mask: int  # the same as a bit mask
    segs: tuple[tuple[int, ...], ...]  # per colour: relative segment numbers, in path order
    paths: tuple[tuple[tuple[int, int], ...], ...]  # per colour: the path's points, relative
    points: tuple[int, ...]  # per colour: the path's lattice points as a bit mask, relative
    offsets: tuple[tuple[int, ...], ...]  # per colour: the same as point numbers


def _shapes(sides: tuple[tuple[dict[str, list[list[int]]], ...], ...]) -> tuple[Shape, ...]:
    out = []
    for card, pair in enumerate(sides):
        for side, art in enumerate(pair):
            for q in range(4):
                w, h = (2, 3) if q % 2 == 0 else (3, 2)
                paths = tuple(tuple(_turn(q, x, y) for x, y in art[key]) for key in COLOUR_KEYS)
                segs = tuple(tuple(_segment(a, b) for a, b in itertools.pairwise(p)) for p in paths)
                cells = tuple((x, y) for y in range(h) for x in range(w))
                squares = tuple(y * STRIDE + x for x, y in cells)
                mask = sum(1 << r for r in squares)
                offsets = tuple(tuple(sorted({y * STRIDE + x for x, y in p})) for p in paths)
                points = tuple(sum(1 << o for o in offs) for offs in offsets)
                out.append(Shape(card, side, q, w, h, cells, squares, mask, segs, paths, points, offsets))
    return tuple(out)


def shape_index(card: int, side: int, turn: int) -> int:
    return (card * 2 + side) * 4 + turn


class FencesGame(Game):
    id = "fences"
    title = "Fences"
    summary = "Lay double-sided line cards to close a fence in your colour; take its cards, and four in hand wins."
    min_players = 2
    max_players = 4
    options = (
        Option(
            "cardset",
            str,
            "default_v1",
            ("default_v1",),
            "The line art of the seven cards (§1): default_v1 is our design, the designer's art being missing.",
        ),
        Option(
            "fence_cards",
            str,
            "shortest_cycle",
            ("shortest_cycle", "whole_component"),
            "Which cards a completed fence takes (§5.2): those drawing the shortest closed loop through the new "
            "line, or every card drawing part of the connected line of that colour.",
        ),
        Option(
            "turn_limit",
            int,
            200,
            None,
            "Safety limit, not a rule: after this many turns the game ends as a draw (§7).",
            minimum=20,
            maximum=1000,
        ),
    )
    rules_version = "1"
    mechanics = ("cards", "tile laying", "closing loops", "2-4 players")
    game_type = GameType(chance=Chance.EXPLICIT)
    playing_time = "5 min"
    seat_names = NAMES
    inventions = (
        "The line art of the cards is missing: the seven cards of card set default_v1 (fourteen sides, each with "
        "one L- or U-shaped path per colour) are our design, kept as data so the real cards can be added.",
        "On every side of default_v1 one path runs only along the card's edge instead of entering and leaving the "
        "card (on a 2 x 3 card at most three paths can cross the inside), and the colours are not equally easy to "
        "close.",
        "Seat colours are fixed: the first player is Red, then Blue, Green and Yellow; Red starts.",
        "The table is a square of 20 x 20 unit squares; the first card, and any card laid on an empty table, goes "
        "in its middle.",
        "Which cards make a fence: the cards drawing the shortest closed loop through the new line (option "
        "fence_cards).",
        "A player who has a card to play but no legal place for it skips the turn and keeps the card.",
        "When the card can both complete a fence of the player's and be laid without completing one, the player "
        "is first asked which.",
        "A turn limit (turn_limit, 200 by default) ends a game that goes on as a draw; it is a safeguard, not a rule.",
    )

    def _setup(self) -> None:
        self.card_names, self.sides = _load(self.params["cardset"])
        self.cards = len(self.card_names)
        self.shapes = _shapes(self.sides)
        self.action_space = ActionSpace(
            Segment("take", (("card", tuple(f"card {n}" for n in self.card_names)),), "take {card}"),
            Segment("aim", (("aim", AIMS),), "{aim}"),
            Segment("lay", (("side", SIDES), ("turn", TURNS)), "lay side {side} {turn}"),
            Segment("place", (("square", CELL_LABELS),), "place at {square}"),
            Segment("skip", (), "skip the turn"),
        )
        space = self.action_space
        self.take_base = space.offset("take")
        self.aim_base = space.offset("aim")
        self.lay_base = space.offset("lay")
        self.place_base = space.offset("place")
        self.skip = space.encode("skip")

    def max_chance_outcomes(self) -> int:
        return 2 * self.cards

    def max_game_length(self) -> int:
        # §7: at most turn_limit turns of at most 4 decisions, and one chance entry per card of the deck.
        return 4 * self.params["turn_limit"] + self.cards + 1

    def scene(self, observation: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
        return _scene(self, observation, legal)


# -- the table (§4, §5) ----------------------------------------------------------------


@dataclass
class Frame:
    """The table as the rules see it during one turn (bit masks of squares and lattice points)."""

    covered: int  # squares under a card
    frontier: int  # empty squares next to a card
    segs: tuple[frozenset[int], ...]  # per colour: the segments on the table
    points: tuple[int, ...]  # per colour: the lattice points its segments touch
    pieces: list[dict[int, int] | None]  # per colour, when first needed: lattice point → its connected piece


def _find(parent: dict[int, int], p: int) -> int:
    while p in parent:
        p = parent[p]
    return p


def _bits(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


class FencesState(PhasedState):
    game: FencesGame
    copied = ("hands", "table", "lines")

    def __init__(self, game: FencesGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.hands: list[tuple[int, ...]] = [() for _ in range(num_players)]
        #: card → (shape, x, y) of each card on the table (§4).
        self.table: dict[int, tuple[int, int, int]] = {}
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

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        n = self.num_players
        if self.winner < 0:
            return [0.0] * n
        return [1.0 if p == self.winner else -1.0 / (n - 1) for p in range(n)]

    # -- the table as a frame ---------------------------------------------------
    def _frame(self, without: int = -1) -> Frame:
        """The table during this turn, ``without`` the card that was picked up from it (§3.3)."""
        shapes = self.game.shapes
        covered = 0
        for card, (sh, x, y) in self.table.items():
            if card != without:
                covered |= shapes[sh].mask << (y * STRIDE + x)
        near = (covered << 1) | (covered >> 1) | (covered << STRIDE) | (covered >> STRIDE)
        frontier = near & ALL_SQUARES & ~covered
        gone: list[int] = []
        if without >= 0:
            sh, x, y = self.table[without]
            off = 2 * (y * STRIDE + x)
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
                pm |= SEG_MASKS[s]
            segs.append(frozenset(present))
            points.append(pm)
        return Frame(covered, frontier, tuple(segs), tuple(points), [None] * len(COLOUR_KEYS))

    def _pieces(self, frame: Frame, colour: int) -> dict[int, int]:
        piece = frame.pieces[colour]
        if piece is None:
            parent: dict[int, int] = {}
            present = frame.segs[colour]
            for s in present:
                a, b = SEG_POINTS[s]
                ra, rb = _find(parent, a), _find(parent, b)
                if ra != rb:
                    parent[ra] = rb
            piece = {}
            for s in present:
                a, b = SEG_POINTS[s]
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
        parent: dict[int, int] = {}
        for rel in sh.segs[colour]:
            s = rel + off
            if s in present:
                continue
            a, b = SEG_POINTS[s]
            ra, rb = _find(parent, piece.get(a, a)), _find(parent, piece.get(b, b))
            if ra == rb:
                return True
            parent[ra] = rb
        return False

    def _bases(self, frame: Frame, sh: Shape) -> int:
        """The top-left squares where ``sh`` lies on the table, on no card, touching one (§4.2), as a mask."""
        if not frame.covered:  # §4.2: an empty table: the middle
            return 1 << ((TABLE - sh.h) // 2 * STRIDE + (TABLE - sh.w) // 2)
        near = over = 0
        frontier, covered = frame.frontier, frame.covered
        for r in sh.squares:
            near |= frontier >> r
            over |= covered >> r
        return near & ~over & FITS[sh.w]

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
        for base in _bits(bases):
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
        shapes = self.game.shapes
        return any(self._scan(frame, shapes[k], ANY, first=True) for k in range(8 * card, 8 * card + 8))

    # -- a turn (§3) --------------------------------------------------------------
    def _start_turn(self, p: int) -> None:
        self.to_move = p
        self.turn += 1
        self.held, self.shape, self.aim, self.choices, self.source = -1, -1, ANY, (), ""
        self.closing, self.plain_ways, self.spots = {}, (), ()
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
        shapes = self.game.shapes
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
            frame = self._frame(without=card)
            self._lift(card)
        self.frame = frame
        self._hold(frame, card)

    def _take_explain(self, player: int, action: int) -> str | None:
        game = self.game
        if not game.take_base <= action < game.take_base + game.cards:
            return "first choose the card to play (§3)"
        card = action - game.take_base
        name = game.card_names[card]
        if self.source == "hand":
            if card not in self.hands[player]:
                return f"card {name} is not in your hand, and you must play a card from your hand (§3.1)"
            return f"card {name} has no legal place on the table (§4.5)"
        if card not in self.table:
            return f"card {name} is not on the table (§3.3)"
        if card == self.last_played and len(self.table) > 1:
            return f"card {name} was just played by the previous player (§3.3)"
        return f"card {name} has no legal place on the table (§4.5)"

    # -- §4.4: say whether the card completes a fence --------------------------------------
    def _aim_legal(self, player: int) -> list[int]:
        return [self.game.aim_base, self.game.aim_base + 1]

    def _aim(self, action: int) -> None:
        self.aim = CLOSING if action == self.game.aim_base else PLAIN
        self.phase = LAY

    def _aim_explain(self, player: int, action: int) -> str | None:
        return "first say whether this card is to complete one of your fences (§4.4)"

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
            plain = self._scan(self.frame, self.game.shapes[k], PLAIN)
            self.spots = tuple(plain) if self.aim == PLAIN else tuple(sorted((*closing, *plain)))
        self.phase = PLACE

    def _lay_explain(self, player: int, action: int) -> str | None:
        game = self.game
        if not game.lay_base <= action < game.lay_base + 8:
            return f"first choose which side of card {game.card_names[self.held]} is up and how it is turned (§4.1)"
        if self.aim == CLOSING:
            return "laid that way, the card can complete none of your fences (§4.4)"
        if self.aim == PLAIN and 8 * self.held + action - game.lay_base in self.closing:
            return "laid that way, the card can only complete a fence of yours (§4.4)"
        return "laid that way, the card has no legal place on the table (§4.2, §4.3)"

    # -- §4.2: put it down ---------------------------------------------------------------
    def _place_legal(self, player: int) -> list[int]:
        first = self.game.place_base
        return [first + b // STRIDE * TABLE + b % STRIDE for b in self._spots()]

    def _place(self, action: int) -> None:
        game = self.game
        square = action - game.place_base
        card, sh = self.held, self.shape
        x, y = square % TABLE, square // TABLE
        closed = y * STRIDE + x in self.closing.get(sh, ())
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
        self._end_turn()

    def _place_explain(self, player: int, action: int) -> str | None:
        game = self.game
        if not game.place_base <= action < game.place_base + TABLE * TABLE:
            return "first choose the square for the card's top-left corner (§4.2)"
        square = action - game.place_base
        sh = game.shapes[self.shape]
        x, y = square % TABLE, square // TABLE
        frame = self.frame or self._frame()
        if x + sh.w > TABLE or y + sh.h > TABLE:
            return "the card would stick out of the table (§4.2)"
        if not frame.covered:
            return "the table is empty, so the card goes in its middle (§4.2)"
        base = y * STRIDE + x
        mask = sh.mask << base
        if mask & frame.covered:
            return "the card would lie on another card (§4.2)"
        if not mask & frame.frontier:
            return "the card must touch a card on the table along at least one square's side (§4.2)"
        for k in range(self.num_players):
            if k != player and self._closes(frame, sh, base, k):
                return f"that would complete a {NAMES[k]} fence, and you may not complete another player's (§4.3)"
        if self.aim == CLOSING:
            return "there the card completes none of your fences, as you said it would (§4.4)"
        if self.aim == PLAIN:
            return "there the card would complete a fence of yours, and you said it would not (§4.4)"
        return None

    def _place_seen(self, actor: int, entry: Any) -> Seen:
        label = self._action_to_string(actor, entry)
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

    def _skip_explain(self, player: int, action: int) -> str | None:
        return "no card can be played, so you must skip the turn (§3.4, §4.5)"

    # -- the table's bookkeeping ------------------------------------------------------------
    def _put(self, card: int, sh: int, x: int, y: int) -> None:
        self.table[card] = (sh, x, y)
        off = 2 * (y * STRIDE + x)
        shape = self.game.shapes[sh]
        for colour in range(len(COLOUR_KEYS)):
            lines = self.lines[colour]
            for rel in shape.segs[colour]:
                s = rel + off
                lines[s] = (*lines.get(s, ()), card)

    def _lift(self, card: int) -> None:
        sh, x, y = self.table.pop(card)
        off = 2 * (y * STRIDE + x)
        shape = self.game.shapes[sh]
        for colour in range(len(COLOUR_KEYS)):
            lines = self.lines[colour]
            for rel in shape.segs[colour]:
                s = rel + off
                rest = tuple(c for c in lines[s] if c != card)
                if rest:
                    lines[s] = rest
                else:
                    del lines[s]

    def _fence_cards(self, colour: int, card: int) -> tuple[int, ...]:
        """The cards of the fence ``card`` just completed in ``colour`` (§5.2)."""
        lines = self.lines[colour]
        sh, x, y = self.table[card]
        off = 2 * (y * STRIDE + x)
        mine = [rel + off for rel in self.game.shapes[sh].segs[colour]]
        new = [s for s in mine if lines[s] == (card,)]
        adj: dict[int, list[tuple[int, int]]] = {}
        for s in lines:
            a, b = segment_points(s)
            adj.setdefault(a, []).append((b, s))
            adj.setdefault(b, []).append((a, s))
        taken: set[int] = set()
        if self.game.params["fence_cards"] == "whole_component":
            start = segment_points(mine[0])[0]
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
            a, b = segment_points(e)
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
        tz.viewer(t, v, n)
        t.one_hot("phase", PHASE_NAMES.index(o["phase"]), len(PHASE_NAMES))
        tz.mover(t, "to_move", o["to_move"], v, n)
        t.counts("turn", [o["turn"]], o["turn_limit"] + 1)
        laid = {row[0]: row[1:] for row in o["table"]}
        t.bits("on_table", [c in laid for c in range(cards)])
        tz.one_hots(t, "table_side", [laid[c][0] if c in laid else None for c in range(cards)], len(SIDES))
        tz.one_hots(t, "table_turn", [laid[c][1] if c in laid else None for c in range(cards)], len(TURNS))
        tz.one_hots(t, "table_x", [laid[c][2] if c in laid else None for c in range(cards)], TABLE)
        tz.one_hots(t, "table_y", [laid[c][3] if c in laid else None for c in range(cards)], TABLE)
        for k, hand in enumerate(tz.rotate(o["hands"], v)):
            t.bits(f"hand{k}", [c in hand for c in range(cards)])
        t.counts("deck", [o["deck"]], cards)
        top = o["top"]
        t.one_hot("top_card", top[0] if top else None, cards)
        t.one_hot("top_side", top[1] if top else None, len(SIDES))
        t.one_hot("held", o["held"], cards)
        t.one_hot("source", SOURCES.index(o["source"]) if o["source"] else None, len(SOURCES))
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
        return "Choose a card from your hand to play (§3.1)."
    return "The deck is empty: choose a card on the table to pick up and play again (§3.3)."


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


FencesState.phases = phase_table(
    Phase(
        REVEAL,
        CHANCE,
        outcomes=FencesState._reveal_outcomes,
        apply=FencesState._reveal,
        label=FencesState._reveal_label,
    ),
    Phase(
        TAKE,
        _mover,
        legal=FencesState._take_legal,
        apply=FencesState._take,
        explain=FencesState._take_explain,
        prompt=_prompt_take,
    ),
    Phase(
        AIM,
        _mover,
        legal=FencesState._aim_legal,
        apply=FencesState._aim,
        explain=FencesState._aim_explain,
        prompt=_prompt_aim,
    ),
    Phase(
        LAY,
        _mover,
        legal=FencesState._lay_legal,
        apply=FencesState._lay,
        explain=FencesState._lay_explain,
        prompt=_prompt_lay,
    ),
    Phase(
        PLACE,
        _mover,
        legal=FencesState._place_legal,
        apply=FencesState._place,
        explain=FencesState._place_explain,
        seen=FencesState._place_seen,
        prompt=_prompt_place,
    ),
    Phase(
        SKIP,
        _mover,
        legal=FencesState._skip_legal,
        apply=FencesState._skip,
        explain=FencesState._skip_explain,
        prompt=_prompt_skip,
    ),
    Phase(OVER, TERMINAL, prompt=_prompt_over),
)


# -- the scene ------------------------------------------------------------------------------


def side_picture(game: FencesGame, sh: Shape) -> dict[str, Any]:
    """A side's line art as a picture: one stroke per colour, in its ink (§1)."""
    return sc.picture((sh.w, sh.h), strokes=[list(p) for p in sh.paths], stroke_colours=list(INKS))


def _side_item(game: FencesGame, id: str, card: int, side: int, turn: int = 0) -> dict[str, Any]:
    sh = game.shapes[shape_index(card, side, turn)]
    name = game.card_names[card]
    label = f"card {name} side {SIDES[side]}" + ("" if turn == 0 else f", {TURNS[turn]}")
    return sc.item(id, label, value=f"{name}{SIDES[side]}", picture=side_picture(game, sh))


def _window(game: FencesGame, obs: dict[str, Any]) -> tuple[int, int, int, int]:
    """The squares of the table the scene shows: the cards and MARGIN squares around them."""
    if not obs["table"]:
        mid = TABLE // 2
        return mid - MARGIN - 1, mid - MARGIN - 1, mid + MARGIN + 1, mid + MARGIN + 1
    xs, ys = [], []
    for card, side, turn, x, y in obs["table"]:
        sh = game.shapes[shape_index(card, side, turn)]
        xs += [x, x + sh.w]
        ys += [y, y + sh.h]
    return (
        max(0, min(xs) - MARGIN),
        max(0, min(ys) - MARGIN),
        min(TABLE, max(xs) + MARGIN),
        min(TABLE, max(ys) + MARGIN),
    )


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
    s = sc.new_scene(text, (x0 - 0.2, y0 - 0.2, x1 - x0 + 0.4, y1 - y0 + 0.4))
    owner: dict[int, int] = {}
    for card, side, turn, x, y in obs["table"]:
        sh = game.shapes[shape_index(card, side, turn)]
        for cx, cy in sh.cells:
            owner[(y + cy) * TABLE + x + cx] = card
    for yy in range(y0, y1):
        for xx in range(x0, x1):
            i = yy * TABLE + xx
            poly = [(xx, yy), (xx + 1, yy), (xx + 1, yy + 1), (xx, yy + 1)]
            fill = "#fffdf8" if i in owner else None
            s["cells"].append(sc.cell(CELL_LABELS[i], (xx + 0.5, yy + 0.5), poly, label=CELL_LABELS[i], fill=fill))
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
    if last is not None:
        for i, c in owner.items():
            if c == last:
                s["highlights"].append({"at": CELL_LABELS[i], "kind": "last"})
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
    s["zones"].append(sc.zone("deck", f"Deck: {obs['deck']} cards", deck_items))
    held = obs["held"]
    if held is not None:  # the card in play: both sides, as the player may look at it now
        items = [_side_item(game, f"held{held}{SIDES[f]}", held, f) for f in (0, 1)]
        s["zones"].append(sc.zone("held", f"{NAMES[obs['to_move']]} plays card {game.card_names[held]}", items))
    for p in range(obs["players"]):
        items = [_side_item(game, f"hand{p}-{c}{SIDES[f]}", c, f) for c in obs["hands"][p] for f in (0, 1)]
        title = "Your hand" if p == obs["viewer"] else f"{NAMES[p]}'s hand"
        s["zones"].append(sc.zone(f"hand{p}", f"{title}: {len(obs['hands'][p])} cards", items, owner=p))
    ways = []
    for a, label in legal:
        segment, idx = game.action_space.decode(a)
        if segment == "take":
            card = idx[0]
            if obs["source"] == "hand":
                for f in (0, 1):
                    s["targets"].append({"at": f"hand{obs['to_move']}-{card}{SIDES[f]}", "action": a, "label": label})
            else:
                for i, c in owner.items():
                    if c == card:
                        s["targets"].append({"at": CELL_LABELS[i], "action": a, "label": label})
        elif segment == "lay":
            side, turn = idx
            ways.append(_side_item(game, f"lay{side}{turn}", held, side, turn))
            s["targets"].append({"at": f"lay{side}{turn}", "action": a, "label": label})
        elif segment == "place":
            s["targets"].append({"at": CELL_LABELS[idx[0]], "action": a, "label": label})
    if ways:
        s["zones"].append(sc.zone("lay", "Ways to lay the card", ways))
    if obs["lay"] is not None and held is not None:
        side, turn = obs["lay"]
        s["zones"].append(sc.zone("chosen", "Laid like this", [_side_item(game, "chosen", held, side, turn)]))
    if obs["table"]:  # the table in words, for players who cannot see the drawing's colours
        laid = ", ".join(
            f"{game.card_names[card]}{SIDES[side]} {TURNS[turn]} at {CELL_LABELS[y * TABLE + x]}"
            for card, side, turn, x, y in obs["table"]
        )
        s["status"].append(f"on the table: {laid}")
    s["status"].append(f"turn {obs['turn']}; four cards in hand win")
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
