"""Common Cold War: lay virus and antibody tiles; the symbols on their edges flip, destroy, return and overtake.

Rules: ``docs/rules/common-cold-war.md``; clause numbers are cited as ``§n``.

The tiles are data (``data/common-cold-war.json``): the designer's action
symbols are missing, so the default set ``default_v1`` is ours, and a designer
can add the real tiles there as another value of the option ``tileset``.

Seat 0 is Red (the cold virus), seat 1 Blue (the antibodies). A turn is a
short sequence of decisions by the same seat (§4), each a legal action on its own:

* ``play T3`` (segment ``play``): the tile from the hand;
* ``no turn`` / ``a quarter turn right`` / … (segment ``turn``): how it is turned (§4.1);
* ``place at e7`` (segment ``place``: a square of the table): where its top-left square goes (§4.2);
* ``discard T3`` (segment ``discard``): only when no tile of the hand fits anywhere (§4.4).

Chance outcomes are tile numbers, dealt one at a time, Red first (§3). All
fourteen tiles are dealt, so each player knows the other hand by elimination;
the game therefore shows every hand to everyone (§3.2): perfect information
with explicit chance.

A tile on the table keeps its symbols as seen on the table, in the order
north, east, south, west. When a tile is placed, the resolution (§5) is a
pure function of the table: a queue of actors, each acting once.
"""

from __future__ import annotations

import json
import math
from collections import deque
from pathlib import Path
from typing import Any

from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.constants import CHANCE, TERMINAL
from ..core.game import Game, win_loss
from ..core.gametype import Chance, GameType
from ..core.hidden import Seen
from ..core.options import Option
from ..core.phases import Phase, PhasedState, phase_table
from ..core.tensor import Tensor
from ..core.wording import said
from . import _tensors as tz

DATA = Path(__file__).with_name("data") / "common-cold-war.json"
NAMES = ("Red", "Blue")
ROLES = ("the virus", "the antibodies")
SYMBOLS = {"F": "flip", "D": "destroy", "R": "return", "P": "protection", "O": "overtake"}
#: Symbol inks in pictures and on the table.
INKS = {"F": "#E69F00", "D": "#1f1d1a", "R": "#CC79A7", "P": "#56B4E9", "O": "#009E73"}
SIDE_NAMES = ("north", "east", "south", "west")
TURNS = ("no turn", "a quarter turn right", "a half turn", "a quarter turn left")
#: The table: TABLE x TABLE unit squares (§4.2); the option board = 10x10 uses the middle 10 x 10.
TABLE = 24
COLUMNS = "abcdefghijklmnopqrstuvwx"
CELL_LABELS = tuple(f"{COLUMNS[i % TABLE]}{i // TABLE + 1}" for i in range(TABLE * TABLE))
MARGIN = 2
#: Safety cap, not a rule (§6.3): placements and discards in all.
MAX_PLAYS = 80
#: Effect order (§5.3).
PRIORITY = ("D", "R", "F", "O")

DEAL, PICK, TURN, PLACE, DISCARD, OVER = "deal", "pick", "turn", "place", "discard", "over"

# -- tables, computed once ------------------------------------------------------------------------------
# A set of squares of the table is an int: bit ``y * TABLE + x`` for the square (x, y).

#: The shapes a tile can lie in (columns, rows): a small tile lying across or upright, a large one.
SHAPES = ((2, 1), (1, 2), (2, 2))
SHAPE_OF = {size: k for k, size in enumerate(SHAPES)}
SQUARES = TABLE * TABLE
FULL = (1 << SQUARES) - 1
#: The squares not in the west column (x > 0), and not in the east one (x < TABLE - 1).
NOT_WEST = FULL ^ sum(1 << (y * TABLE) for y in range(TABLE))
NOT_EAST = FULL ^ sum(1 << (y * TABLE + TABLE - 1) for y in range(TABLE))


def _cover(shape: int, square: int) -> tuple[int, ...]:
    """The squares covered by a tile of ``shape`` whose top-left square is ``square`` (it lies on the table)."""
    w, h = SHAPES[shape]
    x, y = square % TABLE, square // TABLE
    return tuple((y + dy) * TABLE + x + dx for dy in range(h) for dx in range(w))


def _sides(shape: int, square: int) -> tuple[tuple[int, ...], ...]:
    """The squares on the table just beyond each side (N, E, S, W) of such a tile, along the side."""
    w, h = SHAPES[shape]
    x, y = square % TABLE, square // TABLE
    sides = (
        [(x + i, y - 1) for i in range(w)],
        [(x + w, y + j) for j in range(h)],
        [(x + i, y + h) for i in range(w)],
        [(x - 1, y + j) for j in range(h)],
    )
    return tuple(tuple(sy * TABLE + sx for sx, sy in side if 0 <= sx < TABLE and 0 <= sy < TABLE) for side in sides)


def _fits_table(shape: int, square: int) -> bool:
    w, h = SHAPES[shape]
    return square % TABLE + w <= TABLE and square // TABLE + h <= TABLE


#: For each shape and top-left square on the table: the squares covered, that set as bits, the squares beyond
#: each side (``None`` where the tile would leave the table).
COVER = tuple(tuple(_cover(k, sq) if _fits_table(k, sq) else None for sq in range(SQUARES)) for k in range(3))
COVER_BITS = tuple(tuple(sum(1 << c for c in cover) if cover else 0 for cover in row) for row in COVER)
SIDES = tuple(tuple(_sides(k, sq) if _fits_table(k, sq) else None for sq in range(SQUARES)) for k in range(3))
#: The set bits of each byte value, lowest first.
BYTE_BITS = tuple(tuple(i for i in range(8) if b >> i & 1) for b in range(256))


def squares_of(bits: int, base: int = 0) -> list[int]:
    """``base`` plus each square in the set ``bits``, in increasing order."""
    table = BYTE_BITS
    return [base + 8 * i + o for i, b in enumerate(bits.to_bytes(SQUARES // 8, "little")) if b for o in table[b]]


def fitting(occupied: int, allowed: tuple[int, int, int], first: tuple[int, int, int]) -> tuple[int, int, int]:
    """For each shape, the top-left squares where a tile of that shape may go (§4.2), as bits.

    ``occupied``: the squares covered by tiles; ``allowed``: per shape, the top-left squares that keep the tile
    in the play area; ``first``: per shape, the one place of the first tile (the middle). A place is free
    (no square of it covered) and one of its squares is next to a covered square, so it shares a unit edge with
    a tile.
    """
    if not occupied:
        return first
    free = FULL ^ occupied
    near = ((occupied << 1) & NOT_WEST | (occupied >> 1) & NOT_EAST | occupied << TABLE | occupied >> TABLE) & FULL
    across = free & (free >> 1)  # the square and the one east of it are free
    near_across = near | (near >> 1)  # the square or the one east of it is near a tile
    return (
        across & near_across & allowed[0],
        free & (free >> TABLE) & (near | near >> TABLE) & allowed[1],
        across & (across >> TABLE) & (near_across | near_across >> TABLE) & allowed[2],
    )


def _load(name: str) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...], tuple[str, ...]]:
    """Tile names, sizes (columns, rows, lying flat) and edge symbols (N, E, S, W) of tile set ``name`` (§1)."""
    data = json.loads(DATA.read_text())
    tiles = data["tilesets"][name]["tiles"]
    names = tuple(str(t["name"]) for t in tiles)
    sizes = tuple((int(t["size"][0]), int(t["size"][1])) for t in tiles)
    edges = tuple(str(t["edges"]) for t in tiles)
    for n, size, e in zip(names, sizes, edges, strict=True):
        if size not in ((2, 1), (2, 2)) or len(e) != 4 or any(c not in SYMBOLS for c in e):
            raise ValueError(f"tile {n}: a tile is 2 x 1 or 2 x 2 with four edge symbols from {''.join(SYMBOLS)}")
    return names, sizes, edges


def turned(edges: str, q: int) -> str:
    """The symbols (N, E, S, W) of a tile turned ``q`` quarter turns clockwise (§4.1)."""
    return "".join(edges[(d - q) % 4] for d in range(4))


def size_of(size: tuple[int, int], q: int) -> tuple[int, int]:
    return size if q % 2 == 0 else (size[1], size[0])


def mirrored(edges: str, w: int, h: int) -> str:
    """A tile flipped over about its long axis (a 2 x 2 about its east-west axis): the long sides swap (§5.4)."""
    n, e, s, wst = edges
    return f"{n}{wst}{s}{e}" if h > w else f"{s}{e}{n}{wst}"


class CommonColdWarGame(Game):
    id = "common-cold-war"
    title = "Common Cold War"
    summary = "Lay virus and antibody tiles; their edge symbols flip, destroy, return and take over their neighbours."
    options = (
        Option.choice(
            "tileset",
            {"default_v1": "Our tile design"},
            said("The action symbols of the fourteen tiles: our design, the designer's being missing.", "1"),
        ),
        Option.choice(
            "board",
            {"unbounded": "Anywhere (24 × 24 table)", "10x10": "Inside the 10 × 10 handkerchief"},
            said("Where tiles may go: anywhere (a 24 x 24 table) or inside the 10 x 10 handkerchief.", "4.2"),
        ),
        Option.choice(
            "flip",
            {"colour_only": "Only the colour changes", "mirror": "The tile turns over (long sides swap)"},
            said("What a flip does to the symbols: nothing, or the tile is turned over so its long sides swap.", "5.4"),
        ),
    )
    mechanics = ("tile laying", "hidden hands", "chain reactions")
    game_type = GameType(chance=Chance.EXPLICIT)
    playing_time = "5 min"
    seat_names = NAMES
    setup_text = "The tiles were dealt, seven to each player."
    inventions = (
        "The action symbols of the tiles are missing: the fourteen tiles of tile set default_v1 (Flip 31, "
        "Protection 10, Destroy 5, Return 5, Overtake 5 edges) are our design, kept as data so the real tiles can "
        "be added.",
        "Resolution: the placed tile acts on each tile it touches, through the edge it touches; a touched edge "
        "showing Protection shields its tile; effects go Destroy, Return, Flip, then Overtake; each tile acts at "
        "most once per placement.",
        "A flip changes only the colour; the symbols stay where they are (option flip = mirror turns the tile over).",
        "Both players place their own colour up.",
        "Hands are open: every tile is dealt, so each player knows the other's hand by elimination, and the game "
        "shows both hands to everyone.",
        "A player with no tiles is skipped; the game ends when both hands are empty.",
        "The table is a square of 24 x 24 unit squares, the first tile in its middle (option board = 10x10 for the "
        "handkerchief).",
        "A safety cap of 80 plays ends a game that goes on, scored as it stands; it is a safeguard, not a rule.",
    )

    def _setup(self) -> None:
        self.names, self.sizes, self.edges = _load(self.params["tileset"])
        self.tiles = len(self.names)
        if self.params["board"] == "10x10":
            lo = (TABLE - 10) // 2
            self.area = (lo, lo + 10)
        else:
            self.area = (0, TABLE)
        lo, hi = self.area
        #: Per shape: the top-left squares that keep a tile inside the play area, and the first tile's place.
        self.allowed = tuple(
            sum(1 << (y * TABLE + x) for y in range(lo, hi - h + 1) for x in range(lo, hi - w + 1)) for w, h in SHAPES
        )
        self.first = tuple(1 << ((lo + hi - h) // 2 * TABLE + (lo + hi - w) // 2) for w, h in SHAPES)
        #: Per tile and quarter turn: the shape it lies in and its symbols (§4.1).
        self.shape = tuple(tuple(SHAPE_OF[size_of(size, q)] for q in range(4)) for size in self.sizes)
        self.faces = tuple(tuple(turned(e, q) for q in range(4)) for e in self.edges)
        #: For each set of shapes that fit somewhere (bit k: shape k), per tile: the quarter turns that fit.
        self.ways = tuple(
            tuple(tuple(q for q in range(4) if fit >> shapes[q] & 1) for shapes in self.shape) for fit in range(8)
        )
        self.mirror = self.params["flip"] == "mirror"
        self.action_space = ActionSpace(
            Segment("play", (("tile", self.names),), "play {tile}"),
            Segment("turn", (("turn", TURNS),), "{turn}"),
            Segment("place", (("square", CELL_LABELS),), "place at {square}"),
            Segment("discard", (("tile", self.names),), "discard {tile}"),
        )
        space = self.action_space
        self.play_base, self.turn_base, self.place_base, self.discard_base = space.offsets(
            "play", "turn", "place", "discard"
        )
        self.num_chance_outcomes = self.tiles
        # §3: one deal per tile; §6.3: at most MAX_PLAYS plays of at most 3 decisions.
        self.max_length = self.tiles + 3 * MAX_PLAYS + 1


#: A tile on the table: (colour face up: 0 red, 1 blue; x, y of its top-left square; width, height; symbols N E S W).
Laid = tuple[int, int, int, int, int, str]


class CommonColdWarState(PhasedState):
    game: CommonColdWarGame
    copied = ("hands", "table", "cells")

    def __init__(self, game: CommonColdWarGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.pool: tuple[int, ...] = tuple(range(game.tiles))  # §3.1: not dealt yet
        self.hands: list[tuple[int, ...]] = [(), ()]
        self.table: dict[int, Laid] = {}
        self.cells: dict[int, int] = {}  # square → tile
        self.occupied = 0  # the same squares as bits, kept with cells
        self.phase = DEAL
        self.to_move = 0
        self.held = -1
        self.turn = 0  # the chosen quarter turns
        self.fits = (0, 0, 0)  # per shape: the legal top-left squares this turn, as bits (§4.2)
        self.options: dict[int, tuple[int, ...]] = {}  # each tile of the hand that fits → its quarter turns that fit
        self.spots: tuple[int, ...] = ()  # the quarter turns of the held tile that fit
        self.plays = 0
        self.last: tuple[int, ...] = ()  # the tile last placed
        self.report = ""  # what the last placement did (§5), in words
        self.discarded: tuple[int, ...] = ()

    # -- turn order and result (§4.5, §6) -----------------------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase == DEAL:
            return CHANCE
        return TERMINAL if phase == OVER else self.to_move

    def counts(self) -> list[int]:
        """Tiles on the table showing each colour (§6.1)."""
        red = sum(1 for t in self.table.values() if t[0] == 0)
        return [red, len(self.table) - red]

    def returns(self) -> list[float]:
        if self.phase != OVER:
            return [0.0, 0.0]
        red, blue = self.counts()
        return win_loss(0 if red > blue else 1 if blue > red else None)

    # -- §3: the deal --------------------------------------------------------------------
    def _deal_outcomes(self) -> list[tuple[int, float]]:
        pr = 1 / len(self.pool)
        return [(t, pr) for t in self.pool]

    def _deal(self, action: int) -> None:
        seat = (self.game.tiles - len(self.pool)) % 2  # Red, Blue, Red, …
        self.pool = tuple(t for t in self.pool if t != action)
        self.hands[seat] = tuple(sorted((*self.hands[seat], action)))
        if not self.pool:
            self._start_turn(0)

    def _deal_label(self, player: int, action: int) -> str:
        return f"deals {self.game.names[action]} to {NAMES[(self.game.tiles - len(self.pool)) % 2]}"

    # -- the table -------------------------------------------------------------------------
    def _fits(self) -> tuple[int, int, int]:
        """For each shape (:data:`SHAPES`), its legal top-left squares as bits (§4.2)."""
        game = self.game
        return fitting(self.occupied, game.allowed, game.first)

    # -- §4: a turn ------------------------------------------------------------------------------
    def _start_turn(self, p: int) -> None:
        """§4.5: a player with no tiles is skipped; §6: the game ends when both hands are empty."""
        self.held, self.spots, self.options = -1, (), {}
        if self.plays >= MAX_PLAYS:  # §6.3: the safety cap
            self.phase = OVER
            return
        for seat in (p, 1 - p):
            if self.hands[seat]:
                self.to_move = seat
                fits = self.fits = self._fits()
                ways = self.game.ways[(fits[0] != 0) | (fits[1] != 0) << 1 | (fits[2] != 0) << 2]
                self.options = {t: ways[t] for t in self.hands[seat] if ways[t]}
                self.phase = PICK if self.options else DISCARD
                return
        self.phase = OVER

    def _pick_legal(self, player: int) -> list[int]:
        base = self.game.play_base
        return [base + t for t in sorted(self.options)]

    def _pick_is_legal(self, player: int, action: int) -> bool:
        return action - self.game.play_base in self.options

    def _pick(self, action: int) -> None:
        self.held = action - self.game.play_base
        self.spots = self.options[self.held]
        self.phase = TURN

    def _pick_explain(self, player: int, action: int) -> str | None:
        game = self.game
        if not game.play_base <= action < game.play_base + game.tiles:
            return said("first choose a tile from your hand to play", "4")
        tile = action - game.play_base
        if tile not in self.hands[player]:
            return said(f"{game.names[tile]} is not in your hand", "4")
        return said(f"{game.names[tile]} fits nowhere on the table", "4.2")

    def _turn_legal(self, player: int) -> list[int]:
        base = self.game.turn_base
        return [base + q for q in self.spots]

    def _turn_is_legal(self, player: int, action: int) -> bool:
        return action - self.game.turn_base in self.spots

    def _turn(self, action: int) -> None:
        self.turn = action - self.game.turn_base
        self.phase = PLACE

    def _turn_explain(self, player: int, action: int) -> str | None:
        if not self.game.turn_base <= action < self.game.turn_base + 4:
            return said(f"first choose how {self.game.names[self.held]} is turned", "4.1")
        return said("turned that way the tile fits nowhere", "4.2")

    def _place_legal(self, player: int) -> list[int]:
        game = self.game
        return squares_of(self.fits[game.shape[self.held][self.turn]], game.place_base)

    def _place_is_legal(self, player: int, action: int) -> bool:
        game = self.game
        square = action - game.place_base
        return 0 <= square < SQUARES and self.fits[game.shape[self.held][self.turn]] >> square & 1 == 1

    def _place(self, action: int) -> None:
        game = self.game
        square = action - game.place_base
        tile, q, p = self.held, self.turn, self.to_move
        w, h = SHAPES[game.shape[tile][q]]
        self.hands[p] = tuple(t for t in self.hands[p] if t != tile)
        self._lay(tile, (p, square % TABLE, square // TABLE, w, h, game.faces[tile][q]))  # §4.3: own colour up
        self.report = self._resolve(tile)
        self.last = (tile,)
        self.plays += 1
        self._start_turn(1 - p)

    def _place_explain(self, player: int, action: int) -> str | None:
        game = self.game
        if not game.place_base <= action < game.place_base + TABLE * TABLE:
            return said("first choose the square for the tile's top-left corner", "4.2")
        square = action - game.place_base
        w, h = size_of(game.sizes[self.held], self.turn)
        x, y = square % TABLE, square // TABLE
        lo, hi = game.area
        if x < lo or y < lo or x + w > hi or y + h > hi:
            return said("the tile would leave the play area", "4.2")
        if any((y + dy) * TABLE + x + dx in self.cells for dy in range(h) for dx in range(w)):
            return said("tiles may not lie on one another", "4.2")
        if not self.cells:
            return said("the first tile goes in the middle of the table", "4.2")
        return said("the tile must share a full unit edge with a tile on the table", "4.2")

    def _place_seen(self, actor: int, entry: Any) -> Seen:
        after = self.clone()
        after._apply(entry)
        label = self._action_to_string(actor, entry)
        return Seen(f"{label}: {after.report}" if after.report else label)

    def _discard_legal(self, player: int) -> list[int]:
        base = self.game.discard_base
        return [base + t for t in self.hands[player]]

    def _discard_is_legal(self, player: int, action: int) -> bool:
        return action - self.game.discard_base in self.hands[player]

    def _discard(self, action: int) -> None:
        tile = action - self.game.discard_base
        p = self.to_move
        self.hands[p] = tuple(t for t in self.hands[p] if t != tile)
        self.discarded = (*self.discarded, tile)
        self.report = ""
        self.last = ()
        self.plays += 1
        self._start_turn(1 - p)

    def _discard_explain(self, player: int, action: int) -> str | None:
        if self.game.discard_base <= action < self.game.discard_base + self.game.tiles:
            return said("you can discard only a tile in your hand", "4.4")
        return said("none of your tiles fits anywhere, so you must discard one", "4.4")

    # -- §5: the resolution -----------------------------------------------------------------------
    def _lay(self, tile: int, laid: Laid) -> None:
        self.table[tile] = laid
        _, x, y, w, h, _ = laid
        shape, square = SHAPE_OF[w, h], y * TABLE + x
        cells = self.cells
        for c in COVER[shape][square]:
            cells[c] = tile
        self.occupied |= COVER_BITS[shape][square]

    def _remove(self, tile: int) -> None:
        _, x, y, w, h, _ = self.table.pop(tile)
        shape, square = SHAPE_OF[w, h], y * TABLE + x
        cells = self.cells
        for c in COVER[shape][square]:
            del cells[c]
        self.occupied ^= COVER_BITS[shape][square]

    def touching(self, tile: int) -> list[tuple[int, int]]:
        """(side of ``tile``, neighbour) for every tile touching ``tile`` along a unit edge, in side order."""
        _, x, y, w, h, _ = self.table[tile]
        cells = self.cells
        out: list[tuple[int, int]] = []
        for side, squares in enumerate(SIDES[SHAPE_OF[w, h]][y * TABLE + x]):
            seen: list[int] = []
            for c in squares:
                t = cells.get(c)
                if t is not None and t not in seen:
                    seen.append(t)
                    out.append((side, t))
        return out

    def _resolve(self, placed: int) -> str:
        """§5: the placed tile acts, then every tile it overtakes, in order; returns what happened, in words."""
        game = self.game
        names = game.names
        mirror = game.mirror
        queue = deque([placed])
        acted = {placed}
        words: list[str] = []
        while queue:
            actor = queue.popleft()
            if actor not in self.table:  # §5.5: removed before its turn to act
                continue
            symbols = self.table[actor][5]
            received: dict[int, set[str]] = {}
            for side, t in self.touching(actor):
                sym = symbols[side]
                if sym == "P" or self.table[t][5][(side + 2) % 4] == "P":  # §5.2: Protection shields
                    continue
                received.setdefault(t, set()).add(sym)  # §5.3: each effect at most once per actor
            for t, effects in received.items():
                if t not in self.table:
                    continue
                if "D" in effects:  # §5.3: Destroy first
                    self._remove(t)
                    words.append(f"{names[actor]} destroys {names[t]}")
                    continue
                if "R" in effects:
                    colour = self.table[t][0]
                    self._remove(t)
                    self.hands[colour] = tuple(sorted((*self.hands[colour], t)))
                    words.append(f"{names[actor]} returns {names[t]} to {NAMES[colour]}")
                    continue
                if "F" in effects:
                    c, x, y, w, h, sy = self.table[t]
                    self.table[t] = (1 - c, x, y, w, h, mirrored(sy, w, h) if mirror else sy)
                    words.append(f"{names[actor]} flips {names[t]} to {NAMES[1 - c]}")
                if "O" in effects and t not in acted:  # §5.5: each tile acts at most once
                    acted.add(t)
                    queue.append(t)
                    words.append(f"{names[actor]} overtakes {names[t]}")
        return "; ".join(words)

    # -- the log in words ---------------------------------------------------------------------------
    def _seen(self, actor: int, entry: Any) -> Seen | tuple[Seen | None, ...]:
        """A seat's step in words after its name ("plays tile Q7", "turns it a quarter turn left", "places it at
        l12: ..."); the labels (``play Q7``, ``place at l12``) are the notation (§4)."""
        seen = super()._seen(actor, entry)
        if actor < 0 or not isinstance(entry, int) or not isinstance(seen, Seen) or seen.private is not None:
            return seen
        if entry not in self.game.action_space:
            return seen
        seg, (index,) = self.game.action_space.decode(entry)
        names = self.game.names
        if seg == "play":
            return Seen(f"plays tile {names[index]}")
        if seg == "turn":
            return Seen("leaves the tile unturned" if index == 0 else f"gives the tile {TURNS[index]}")
        if seg == "place":
            return Seen(f"places it at {seen.public.removeprefix('place at ')}")
        return Seen(f"discards tile {names[index]}")

    # -- views --------------------------------------------------------------------------------------
    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The observation as numbers (docs/research/tensors-newer.md): seats from the viewer's, tiles by number."""
        o = self.observation(player)
        v, tiles = o["viewer"], self.game.tiles
        tz.header(t, o, v, 2, PHASE_NAMES)
        laid = {row[0]: row[1:] for row in o["table"]}
        t.bits("on_table", [k in laid for k in range(tiles)])
        tz.one_hots(t, "table_colour", [tz.rel(laid[k][0], v, 2) if k in laid else None for k in range(tiles)], 2)
        tz.one_hots(t, "table_x", [laid[k][1] if k in laid else None for k in range(tiles)], TABLE)
        tz.one_hots(t, "table_y", [laid[k][2] if k in laid else None for k in range(tiles)], TABLE)
        t.bits("table_upright", [k in laid and laid[k][3] >= laid[k][4] for k in range(tiles)])
        edges = [SYMBOL_CODES.index(x) if x != "?" else None for k in range(tiles) for x in _edges(laid.get(k))]
        tz.one_hots(t, "table_edges", edges, len(SYMBOL_CODES))
        for k, hand in enumerate(tz.rotate(o["hands"], v)):
            t.bits(f"hand{k}", [x in hand for x in range(tiles)])
        t.one_hot("held", o["held"], tiles)
        t.one_hot("turn", o["turn"], len(TURNS))
        t.one_hot("last", o["last"][0] if o["last"] else None, tiles)
        tz.seq(t, "discarded", o["discarded"], tiles, tiles)
        t.counts("counts", tz.rotate(o["counts"], v), tiles)
        t.counts("plays", [o["plays"]], MAX_PLAYS)
        t.bits("capped", [o["capped"]])

    def observation(self, player: int | None = None) -> dict[str, Any]:
        over = self.phase == OVER
        return {
            "viewer": player,
            "phase": self.phase,
            "to_move": self.current_player(),
            "hands": [list(h) for h in self.hands],  # §3.2: open
            "hand_sizes": [len(h) for h in self.hands],
            "table": [[t, *self.table[t][:5], self.table[t][5]] for t in sorted(self.table)],
            "held": self.held if self.phase in (TURN, PLACE) else None,
            "turn": self.turn if self.phase == PLACE else None,
            "last": list(self.last),
            "report": self.report,
            "discarded": list(self.discarded),
            "counts": self.counts(),
            "plays": self.plays,
            "capped": over and self.plays >= MAX_PLAYS and any(self.hands),
        }


def _mover(s: CommonColdWarState) -> int:
    return s.to_move


def _prompt(game: CommonColdWarGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    phase = obs["phase"]
    if phase == OVER:
        red, blue = obs["counts"]
        if red == blue:
            return f"Draw: {red} tiles each."
        w = 0 if red > blue else 1
        return f"{NAMES[w]} ({ROLES[w]}) wins, {max(red, blue)} tiles to {min(red, blue)}."
    if phase == DEAL:
        return "The tiles are being dealt."
    who = NAMES[obs["to_move"]]
    if not legal:
        return f"{who} to play."
    if phase == PICK:
        return "Choose a tile from your hand to play."
    if phase == TURN:
        return f"Choose how {game.names[obs['held']]} is turned."
    if phase == PLACE:
        return "Click the square for the tile's top-left corner; it must touch a tile on the table."
    return "None of your tiles fits anywhere: discard one."


CommonColdWarState.phases = phase_table(
    Phase(
        DEAL,
        CHANCE,
        outcomes=CommonColdWarState._deal_outcomes,
        apply=CommonColdWarState._deal,
        label=CommonColdWarState._deal_label,
    ),
    Phase(
        PICK,
        _mover,
        legal=CommonColdWarState._pick_legal,
        is_legal=CommonColdWarState._pick_is_legal,
        apply=CommonColdWarState._pick,
        explain=CommonColdWarState._pick_explain,
    ),
    Phase(
        TURN,
        _mover,
        legal=CommonColdWarState._turn_legal,
        is_legal=CommonColdWarState._turn_is_legal,
        apply=CommonColdWarState._turn,
        explain=CommonColdWarState._turn_explain,
    ),
    Phase(
        PLACE,
        _mover,
        legal=CommonColdWarState._place_legal,
        is_legal=CommonColdWarState._place_is_legal,
        apply=CommonColdWarState._place,
        explain=CommonColdWarState._place_explain,
        seen=CommonColdWarState._place_seen,
    ),
    Phase(
        DISCARD,
        _mover,
        legal=CommonColdWarState._discard_legal,
        is_legal=CommonColdWarState._discard_is_legal,
        apply=CommonColdWarState._discard,
        explain=CommonColdWarState._discard_explain,
    ),
    Phase(OVER, TERMINAL),
    prompt=_prompt,
)


# -- the scene ---------------------------------------------------------------------------------------


def tile_picture(w: int, h: int, symbols: str, colour: str) -> dict[str, Any]:
    """A tile as a picture: its squares in its colour, and each edge drawn in its symbol's ink (§1)."""
    edges = (
        [(0.15, 0.12), (w - 0.15, 0.12)],
        [(w - 0.12, 0.15), (w - 0.12, h - 0.15)],
        [(0.15, h - 0.12), (w - 0.15, h - 0.12)],
        [(0.12, 0.15), (0.12, h - 0.15)],
    )
    return sc.picture(
        (w, h),
        cells=[(c, r) for r in range(h) for c in range(w)],
        strokes=edges,
        colour=colour,
        stroke_colours=[INKS[s] for s in symbols],
    )


def _symbols_text(symbols: str) -> str:
    return ", ".join(f"{SIDE_NAMES[d]} {SYMBOLS[s]}" for d, s in enumerate(symbols))


#: What each symbol does to the tile it touches (§5.3), in the players' words (the legend under the board).
DOES = {
    "F": "the tile it touches turns to the other colour",
    "D": "the tile it touches leaves the game",
    "R": "the tile it touches goes back to the hand of the colour it shows",
    "P": "shields its own tile through this edge, and does nothing itself",
    "O": "the tile it touches acts next, as if it had just been placed",
}


def _turn_points(points: list[tuple[float, float]], side: int) -> list[tuple[float, float]]:
    """Points of a 1 x 1 icon drawn for the north edge, turned to face ``side`` (a quarter turn right per side)."""
    out = []
    for x, y in points:
        for _ in range(side):
            x, y = 1 - y, x
        out.append((round(x, 3), round(y, 3)))
    return out


def _arc(cx: float, cy: float, r: float, a0: float, a1: float, n: int = 7) -> list[tuple[float, float]]:
    """Points along a circle's arc from angle ``a0`` to ``a1`` (degrees, clockwise from east, y down)."""
    return [
        (
            cx + r * math.cos(math.radians(a0 + (a1 - a0) * k / n)),
            cy + r * math.sin(math.radians(a0 + (a1 - a0) * k / n)),
        )
        for k in range(n + 1)
    ]


def symbol_picture(symbol: str, side: int = 0) -> dict[str, Any]:
    """An edge symbol as a small icon (§1): Flip two turning arrows, Destroy a cross, Return a U-turn arrow,
    Protection a shield, Overtake a double chevron pointing out across the edge (towards ``side``)."""
    strokes: list[list[tuple[float, float]]] = []
    fills: list[list[tuple[float, float]]] = []
    if symbol == "F":
        top, bottom = _arc(0.5, 0.5, 0.3, 200, 340), _arc(0.5, 0.5, 0.3, 20, 160)
        strokes = [top, [(0.66, 0.14), top[-1], (0.86, 0.3)], bottom, [(0.34, 0.86), bottom[-1], (0.14, 0.7)]]
    elif symbol == "D":
        strokes = [[(0.22, 0.22), (0.78, 0.78)], [(0.78, 0.22), (0.22, 0.78)]]
    elif symbol == "R":
        bend = _arc(0.5, 0.42, 0.22, 0, -180)
        strokes = [[(0.72, 0.8), *bend, (0.28, 0.6)], [(0.14, 0.46), (0.28, 0.64), (0.42, 0.46)]]
    elif symbol == "P":
        fills = [[(0.5, 0.1), (0.85, 0.24), (0.8, 0.56), (0.5, 0.9), (0.2, 0.56), (0.15, 0.24)]]
    else:  # Overtake
        strokes = [_turn_points([(0.22, 0.5), (0.5, 0.24), (0.78, 0.5)], side)]
        strokes.append(_turn_points([(0.22, 0.78), (0.5, 0.52), (0.78, 0.78)], side))
    return sc.picture((1, 1), strokes=strokes, fills=fills, colour=INKS[symbol])


def tile_picture_sized(w: int, h: int, symbols: str, colour: str) -> dict[str, Any]:
    """A tile in a hand, drawn 26 pixels per square: its squares in its colour, each edge in its symbol's ink."""
    return {**tile_picture(w, h, symbols, colour), "unit": 26.0}


def _tile_item(game: CommonColdWarGame, id: str, tile: int, colour: str, q: int = 0) -> dict[str, Any]:
    w, h = size_of(game.sizes[tile], q)
    symbols = turned(game.edges[tile], q)
    label = game.names[tile] if q == 0 else f"{game.names[tile]}, {TURNS[q]}"
    return sc.item(
        id,
        label,
        detail=_symbols_text(symbols),
        value=game.names[tile],
        picture=tile_picture_sized(w, h, symbols, colour),
    )


#: The shape of the window onto the table: at least this many squares across, and this much wider than tall,
#: so the board fills the width of a screen (the table has room all round, §4.2).
MIN_ACROSS = 12
ASPECT = 1.9


def _window(game: CommonColdWarGame, obs: dict[str, Any]) -> tuple[int, int, int, int]:
    lo, hi = game.area
    if game.params["board"] == "10x10":
        return lo, lo, hi, hi
    if not obs["table"]:
        mid = TABLE // 2
        x0, y0, x1, y1 = mid - 3, mid - 3, mid + 3, mid + 4
    else:
        xs = [t[2] for t in obs["table"]] + [t[2] + t[4] for t in obs["table"]]
        ys = [t[3] for t in obs["table"]] + [t[3] + t[5] for t in obs["table"]]
        x0, y0 = max(0, min(xs) - MARGIN), max(0, min(ys) - MARGIN)
        x1, y1 = min(TABLE, max(xs) + MARGIN), min(TABLE, max(ys) + MARGIN)
    across = min(TABLE, max(MIN_ACROSS, x1 - x0, math.ceil((y1 - y0) * ASPECT)))
    extra = across - (x1 - x0)  # widened evenly both ways, inside the table
    x0 = max(0, min(x0 - extra // 2, TABLE - across))
    return x0, y0, x0 + across, y1


def _rounded(x0: float, y0: float, x1: float, y1: float, r: float) -> list[tuple[float, float]]:
    """A rectangle with rounded corners as a polygon (three points per corner)."""
    out: list[tuple[float, float]] = []
    for cx, cy, a in ((x1 - r, y0 + r, -90), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90), (x0 + r, y0 + r, 180)):
        out += _arc(cx, cy, r, a, a + 90, 3)
    return out


#: How far inside its tile an edge's symbol is drawn (a square is 1): the symbols of two tiles side by side
#: stand apart.
SYMBOL_INSET = 0.22


@CommonColdWarGame.draws_scene
def _scene(game: CommonColdWarGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    x0, y0, x1, y1 = _window(game, obs)
    s = sc.new_scene(_prompt(game, obs, legal), (x0 - 0.2, y0 - 0.2, x1 - x0 + 0.4, y1 - y0 + 0.4))
    s["scrolls"] = True  # a window onto the table: on a phone its squares stay readable, the board scrolls sideways
    owner: dict[int, int] = {}
    for tile, _, x, y, w, h, _ in obs["table"]:
        for dy in range(h):
            for dx in range(w):
                owner[(y + dy) * TABLE + x + dx] = tile
    colour_of = {t[0]: t[1] for t in obs["table"]}
    for yy in range(y0, y1):
        for xx in range(x0, x1):
            i = yy * TABLE + xx
            poly = [(xx, yy), (xx + 1, yy), (xx + 1, yy + 1), (xx, yy + 1)]
            fill = sc.INK_OF[NAMES[colour_of[owner[i]]]] if i in owner else None
            s["cells"].append(sc.cell(CELL_LABELS[i], (xx + 0.5, yy + 0.5), poly, label=CELL_LABELS[i], fill=fill))
    for tile, colour, x, y, w, h, symbols in obs["table"]:  # the tile, then each edge's symbol (§1)
        name = game.names[tile]
        fill = sc.INK_OF[NAMES[colour]]
        outline = _rounded(x + 0.04, y + 0.04, x + w - 0.04, y + h - 0.04, 0.12)
        s["cells"].append(sc.cell(f"tile-{name}", (x + w / 2, y + h / 2), outline, label=name, fill=fill, kind="area"))
        k = SYMBOL_INSET
        inner = [(x + k, y + k), (x + w - k, y + k), (x + w - k, y + h - k), (x + k, y + h - k)]
        for d in range(4):  # a band in the symbol's ink along the edge, the symbol's icon at its middle
            (ax, ay), (bx, by) = inner[d], inner[(d + 1) % 4]
            eid = f"{name}-{SIDE_NAMES[d]}"
            sym = symbols[d]
            s["edges"].append(sc.edge(eid, (ax, ay), (bx, by), stroke=INKS[sym], kind="symbol"))
            s["pieces"].append(
                sc.piece(
                    eid,
                    None,
                    SYMBOLS[sym],
                    label=sym,
                    colour="white",
                    picture=symbol_picture(sym, d),
                    detail=f"{name}, {SIDE_NAMES[d]} edge: {SYMBOLS[sym]} ({DOES[sym]})",
                )
            )
    for tile in obs["last"]:
        if tile in colour_of:
            s["highlights"].append({"at": f"tile-{game.names[tile]}", "kind": "last"})
    viewer = obs["viewer"]
    for p in (0, 1):
        items = [_tile_item(game, f"hand{p}-{game.names[t]}", t, sc.INK_OF[NAMES[p]]) for t in obs["hands"][p]]
        title = "Your tiles" if p == viewer else f"{NAMES[p]}'s tiles ({ROLES[p]})"
        s["zones"].append(sc.zone(f"hand{p}", f"{title}: {obs['hand_sizes'][p]}", items, owner=p))
    held = obs["held"]
    ways = []
    for a, label in legal:
        segment, idx = game.action_space.decode(a)
        if segment in ("play", "discard"):
            s["targets"].append({"at": f"hand{obs['to_move']}-{game.names[idx[0]]}", "action": a, "label": label})
        elif segment == "turn":
            ways.append(_tile_item(game, f"turn{idx[0]}", held, sc.INK_OF[NAMES[obs["to_move"]]], idx[0]))
            s["targets"].append({"at": f"turn{idx[0]}", "action": a, "label": label})
        elif segment == "place":
            s["targets"].append({"at": CELL_LABELS[idx[0]], "action": a, "label": label})
    if held is not None:
        if ways:
            s["zones"].append(sc.zone("turns", f"Ways to turn {game.names[held]}", ways))
        elif obs["turn"] is not None:
            s["zones"].append(
                sc.zone(
                    "chosen",
                    "Turned like this",
                    [_tile_item(game, "chosen", held, sc.INK_OF[NAMES[obs["to_move"]]], obs["turn"])],
                )
            )
    if obs["discarded"]:
        s["zones"].append(
            sc.zone(
                "discards",
                "Discarded",
                [_tile_item(game, f"gone-{game.names[t]}", t, "neutral") for t in obs["discarded"]],
            )
        )
    legend = [
        sc.item(f"symbol-{k}", name, "token", detail=DOES[k], picture=symbol_picture(k), colour=INKS[k])
        for k, name in SYMBOLS.items()
    ]
    s["zones"].append(sc.zone("symbols", "What the edge symbols do to the tile they touch", legend))
    red, blue = obs["counts"]
    s["status"] = [f"Tiles showing each colour: Red {red}, Blue {blue}; when both hands are empty, more wins."]
    if obs["report"]:
        s["status"].append(f"Last tile placed: {obs['report']}.")
    s["players"] = [
        sc.player(p, NAMES[p], detail=f"{ROLES[p]}; {obs['hand_sizes'][p]} tiles in hand", colour=sc.INK_OF[NAMES[p]])
        for p in (0, 1)
    ]
    return sc.finish_scene(s, legal)


CommonColdWarGame.state_class = CommonColdWarState
PHASE_NAMES = tuple(CommonColdWarState.phases)
SYMBOL_CODES = tuple(SYMBOLS)


def _edges(row: list[Any] | None) -> str:
    """A laid tile's edge symbols, north first (``"????"``, none, for a tile not on the table)."""
    return row[-1] if row else "????"


GAME_CLASS = CommonColdWarGame
