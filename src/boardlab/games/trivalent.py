"""Trivalent (Rey Alicea, 2020): three stones a turn on the corners of a honeycomb; the largest group wins.

Rules: ``docs/rules/trivalent.md``; clause numbers are cited as ``§n``.

Seat 0 opens as Blue (§2.1); with the pie rule (§2.2) seat 1 may take Blue
over. A turn places three stones on three adjacent points (§3), one decision
each: the mover's two stones first, then the opponent's stone (§3.4). The
action space (:class:`~boardlab.core.actions.ActionSpace`) is segment
``point``, a point index (reading order: top to bottom, then left to right;
labels are a column letter and a level number, ``f5``), then segment
``swap``, the pie swap (action ``len(points)``).

The board is data: a :class:`~boardlab.geometry.BoardData` of the corners of
a hexagonal board of hex cells, built from the cells' corners, with the
blocked points read from ``games/data/trivalent.json`` (our reconstruction:
the seed's picture is missing). Every other table (the triples of adjacent
points, the colourings of each triple that the column rule allows, the column
of every point, for every point the turns giving it the mover's stone) is
precomputed per option setting. The state keeps which triples are still
empty and, per point, how many allowed turns would give it the mover's stone,
so the first decision of a turn is a scan of the points and the next two look
only at the turns through the first stone. The search agents' rollout,
``play_random``, plays whole turns in one loop (same moves as the core's playout).
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.constants import TERMINAL
from ..core.game import Game, State, win_loss
from ..core.hidden import Seen
from ..core.options import Option
from ..core.tensor import Tensor
from ..core.wording import said
from ..geometry.board import BoardData, group_sizes
from ..geometry.hexgrid import bounding_box, hex_corners, hexhex_cells, row_letters

BLUE, ORANGE = 0, 1
COLOUR_NAMES = ("Blue", "Orange")
#: The scene's seat-colour index drawing each stone colour (1 is blue, 0 vermillion).
PALETTE = (1, 0)
EMPTY = -1
BLOCKED = -2

Pattern = tuple[int, int, int]  # (own stone, own stone, opponent's stone), own stones in index order


@cache
def _layouts() -> dict[str, Any]:
    """The blocked-point layouts of ``games/data/trivalent.json`` (read once)."""
    return json.loads(resources.files("boardlab.games").joinpath("data/trivalent.json").read_text())


def honeycomb(side: int, orientation: str = "pointy") -> tuple[BoardData, dict[tuple[int, int, int], int]]:
    """The corners of a hexhex board of ``side`` hex cells as a point graph (§1.1).

    Points are deduplicated cell corners; two points are adjacent when they
    are the ends of one cell side. ``orientation="flat"`` transposes the
    drawing, turning pointy-top cells flat-top. Points are numbered in reading
    order and labelled column letter + level number from the top (§1.4);
    ``lines`` holds the columns, top to bottom. Also returns the map from
    ``(q, r, corner)`` (corner 0 = top of a pointy-top cell, clockwise) to point.
    """
    raw: dict[tuple[int, int], tuple[float, float]] = {}
    corner_key: dict[tuple[int, int, int], tuple[int, int]] = {}
    sides: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    for q, r in hexhex_cells(side):
        keys = []
        for k, (x, y) in enumerate(hex_corners((q, r), 1.0)):
            if orientation == "flat":
                x, y = y, x
            key = (round(x * 10000), round(y * 10000))
            raw.setdefault(key, (x, y))
            corner_key[(q, r, k)] = key
            keys.append(key)
        for k in range(6):
            a, b = keys[k], keys[(k + 1) % 6]
            sides.add((min(a, b), max(a, b)))
    xs = sorted({k[0] for k in raw})
    ys = sorted({k[1] for k in raw})
    column = {x: i for i, x in enumerate(xs)}
    level = {y: i for i, y in enumerate(ys)}
    order = sorted(raw, key=lambda k: (level[k[1]], column[k[0]]))
    index = {k: i for i, k in enumerate(order)}
    ids = tuple(f"{row_letters(column[k[0]])}{level[k[1]] + 1}" for k in order)
    adj: list[set[int]] = [set() for _ in order]
    for a, b in sides:
        adj[index[a]].add(index[b])
        adj[index[b]].add(index[a])
    columns = tuple(tuple(sorted((index[k] for k in order if k[0] == x), key=lambda i: order[i][1])) for x in xs)
    board = BoardData(
        ids=ids,
        xy=tuple(raw[k] for k in order),
        neighbours=tuple(tuple(sorted(s)) for s in adj),
        lines=columns,
        edges=tuple(sorted((index[a], index[b]) if index[a] < index[b] else (index[b], index[a]) for a, b in sides)),
    )
    return board, {c: index[k] for c, k in corner_key.items()}


@cache
def _board(side: int, orientation: str, blocked: str) -> BoardData:
    """The board of an option setting: the honeycomb plus its blocked points (§1.2)."""
    base, corners = honeycomb(side, orientation)
    spec = blocked.strip().lower()
    layouts = _layouts()
    if spec == "standard":
        chosen = {corners[(q, r, k)] for q, r, k in layouts["blocked"][str(side)]}
    elif spec in ("none", ""):
        chosen = set()
    else:
        chosen = set()
        for name in spec.replace(" ", "").split(","):
            if name not in base.index:
                raise ValueError(
                    f"option 'blocked' of 'trivalent': {name!r} is not a point of this board "
                    f"(points are {base.ids[0]} … {base.ids[-1]}; or use 'standard' or 'none')"
                )
            chosen.add(base.index[name])
    return BoardData(
        ids=base.ids,
        xy=base.xy,
        neighbours=base.neighbours,
        lines=base.lines,
        blocked=frozenset(chosen),
        edges=base.edges,
        source=layouts["source"] if spec == "standard" else "honeycomb corners; blocked points from options",
        unverified=True,
        index=base.index,
    )


class TrivalentGame(Game):
    id = "trivalent"
    title = "Trivalent"
    summary = "Place three stones on adjacent corners of a honeycomb, one of them your opponent's; largest group wins."
    options = (
        Option(
            "board_side",
            int,
            3,
            (3, 4, 5),
            said("Hex cells along each edge of the board whose corners are the points.", "1.1"),
        ),
        Option(
            "blocked",
            str,
            "standard",
            None,
            said(
                "Blocked points: 'standard' (three alternate corners of the central cell), 'none', "
                "or point labels separated by commas, e.g. 'f5,g7'.",
                "1.2",
            ),
        ),
        Option.choice(
            "orientation",
            {"pointy": "Pointy-top cells", "flat": "Flat-top cells"},
            said("Pointy-top or flat-top cells: which way columns run.", "1.4"),
        ),
        Option.choice(
            "triple",
            {"path": "A connected path of three", "star": "The three neighbours of a point"},
            said("Three adjacent points: a connected path of three, or the three neighbours of one point.", "3.1"),
        ),
        Option.choice(
            "column_rule",
            {
                "per_turn": "A turn's two stones in different columns",
                "global": "Never two of a colour in a column",
                "off": "No restriction",
            },
            said(
                "Column restriction: the mover's two stones of a turn in different columns; "
                "or never two stones of one colour in a column; or none.",
                "3.3",
            ),
        ),
        Option.choice(
            "tie_break",
            {"draw": "A draw", "next_groups": "Compare the next-largest groups"},
            said("Equal largest groups: a draw, or compare the second-largest groups, then the next.", "5.2"),
        ),
        Option.flag("pie", True, said("After Blue's first turn, Orange may swap sides.", "2.2")),
    )
    mechanics = ("honeycomb vertices", "placement", "connection", "pie rule")
    playing_time = "10 min"
    inventions = (
        "The board is our reconstruction (the seed's picture is missing): the corners of a hexagonal board of "
        "19 hex cells (54 points), 4 and 5 cells a side as options.",
        "The blocked points are our guess: three alternate corners of the central cell (51 playable points).",
        "Columns are the vertical lines of points of pointy-top cells; the column rule applies to the mover's "
        "two stones of one turn (other readings are options).",
        "A turn is entered as three decisions: the mover's two stones, then the opponent's stone.",
        "Equal largest groups are a draw.",
    )

    def _setup(self) -> None:
        p = self.params
        self.board = _board(p["board_side"], p["orientation"], p["blocked"])
        board = self.board
        self.n = n = len(board)
        self.labels = board.ids
        self.action_space = ActionSpace(
            Segment("point", (("point", board.ids),), "{point}"), Segment("swap", (), "swap")
        )
        self.swap_action = self.action_space.encode("swap")
        self.pie = bool(p["pie"])
        self.column_rule: str = p["column_rule"]
        self.next_groups = p["tie_break"] == "next_groups"
        col = [0] * n
        for c, line in enumerate(board.lines):
            for v in line:
                col[v] = c
        self.col = tuple(col)
        self.colbit = tuple(1 << c for c in col)
        self.col_names = tuple(row_letters(c) for c in col)
        blocked = board.blocked
        self.playable = tuple(v for v in range(n) if v not in blocked)
        # §3.1: the triples of points one turn may fill.
        triples: list[tuple[int, int, int]] = []
        for v in range(n):
            nb = board.neighbours[v]
            if p["triple"] == "path":
                if v in blocked:
                    continue
                free = [x for x in nb if x not in blocked]
                for i in range(len(free)):
                    for j in range(i + 1, len(free)):
                        triples.append((free[i], v, free[j]))
            elif len(nb) == 3 and not any(x in blocked for x in nb):
                triples.append((nb[0], nb[1], nb[2]))
        # §3.2, §3.3: which of the three gets the opponent's stone; the mover's two never share a column.
        patterns: list[tuple[Pattern, ...]] = []
        for t in triples:
            ps = []
            for opp in t:
                a, b = sorted(x for x in t if x != opp)
                if self.column_rule != "off" and col[a] == col[b]:
                    continue
                ps.append((a, b, opp))
            patterns.append(tuple(ps))
        self.triples = tuple(triples)
        self.triple_patterns = tuple(patterns)
        #: ``triple_owns[t]``: the points taking the mover's stone in each allowed colouring of triple ``t``.
        self.triple_owns = tuple(tuple(x for pat in ps for x in pat[:2]) for ps in patterns)
        #: ``triple_owned[t]``: those points, each once; ``triple_colourings[t]``: how many colourings are allowed.
        self.triple_owned = tuple(tuple(sorted(set(owns))) for owns in self.triple_owns)
        self.triple_colourings = tuple(len(ps) for ps in patterns)
        vt: list[list[int]] = [[] for _ in range(n)]
        own: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for t, pts in enumerate(triples):
            for x in pts:
                vt[x].append(t)
            for a, b, opp in patterns[t]:
                own[a].append((b, opp))
                own[b].append((a, opp))
        self.vertex_triples = tuple(tuple(ts) for ts in vt)
        counts = [0] * n
        for owned in self.triple_owned:
            for x in owned:
                counts[x] += 1
        self.initial_own_count = tuple(counts)
        self.initial_live = sum(len(ps) for ps in patterns)
        #: ``own_moves[v]``: ``(other own stone, opponent's stone)`` of every allowed turn giving ``v`` the mover's stone.
        self.own_moves = tuple(tuple(m) for m in own)
        if not any(patterns):
            raise ValueError(f"option 'blocked' of 'trivalent': {p['blocked']!r} leaves no legal first turn")
        # Scene geometry: points, the honeycomb's sides, the viewbox.
        self._scene_cells = board.scene_cells(0.26)  # blocked points filled "blocked"
        self._scene_edges = [
            sc.edge(f"{board.ids[a]}-{board.ids[b]}", board.xy[a], board.xy[b], kind="grid") for a, b in board.edges
        ]
        self._viewbox = bounding_box(board.xy, margin=0.6)
        # Every action but the one swap fills a point, so no game is longer than the playable points + 1.
        self.max_length = len(self.playable) + 2

    def metadata(self) -> dict[str, Any]:
        meta = super().metadata()
        meta["board"] = {
            "points": self.n,
            "playable": len(self.playable),
            "blocked": [self.labels[v] for v in sorted(self.board.blocked)],
            "unverified": self.board.unverified,
            "source": self.board.source,
        }
        return meta


class TrivalentState(State):
    game: TrivalentGame
    copied = ("stone", "alive", "own_count", "col_used", "placed")

    def __init__(self, game: TrivalentGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.stone = [BLOCKED if v in game.board.blocked else EMPTY for v in range(game.n)]
        #: ``alive[t]``: the three points of triple ``t`` are all empty.
        self.alive = bytearray([1]) * len(game.triples)
        #: ``own_count[v]``: live triples with an allowed colouring giving ``v`` the mover's stone (§3, static rules).
        self.own_count = list(game.initial_own_count)
        #: The number of allowed colourings of live triples (0: nobody can move, §4).
        self.live = game.initial_live
        #: Per colour, a bit per column holding a stone of that colour (the global column rule).
        self.col_used = [0, 0]
        self.colour_to_move = BLUE
        self.blue_seat = 0
        self.turns = 0  # completed turns
        self.placed: list[int] = []  # points filled so far this turn
        self.last_turn: tuple[int, ...] = ()
        self.swapped = False
        self.over = False
        self.winner_colour = -1  # -1: none yet or a draw
        self._legal: list[int] | None = None
        self._start_turn()

    # -- turn order and result (§2, §4, §5) -------------------------------
    def seat_of(self, colour: int) -> int:
        return self.blue_seat if colour == BLUE else 1 - self.blue_seat

    def colour_of(self, seat: int) -> int:
        return BLUE if seat == self.blue_seat else ORANGE

    def current_player(self) -> int:
        return TERMINAL if self.over else self.seat_of(self.colour_to_move)

    def returns(self) -> list[float]:
        if not self.over or self.winner_colour < 0:
            return [0.0, 0.0]
        return win_loss(self.seat_of(self.winner_colour))

    def group_sizes(self, colour: int) -> list[int]:
        """Sizes of ``colour``'s connected groups (§5.1), largest first."""
        return group_sizes(self.game.board.neighbours, self.stone, colour)

    def _start_turn(self) -> None:
        """Start the mover's turn; if no complete turn is open to them the game ends (§4)."""
        self.placed = []
        self._legal = None
        if self.game.column_rule == "global":
            if not self._first_stones():
                self._finish()
        elif not self.live:
            self._finish()

    def _first_stones(self) -> list[int]:
        """Points that can take the mover's first stone: some complete turn gives them the mover's colour."""
        game = self.game
        if game.column_rule != "global":
            count = self.own_count
            return [v for v in game.playable if count[v]]
        stone, bit, own_moves = self.stone, game.colbit, game.own_moves
        mine = self.col_used[self.colour_to_move]
        theirs = self.col_used[1 - self.colour_to_move]
        return [
            v
            for v in game.playable
            if stone[v] == EMPTY
            and not bit[v] & mine
            and any(
                stone[w] == EMPTY and stone[x] == EMPTY and not bit[w] & mine and not bit[x] & theirs
                for w, x in own_moves[v]
            )
        ]

    def _finish(self) -> None:
        """§4, §5: the game is over; the larger largest group wins."""
        self.over = True
        blue, orange = self.group_sizes(BLUE), self.group_sizes(ORANGE)
        if not self.game.next_groups:
            blue, orange = blue[:1], orange[:1]
        if blue > orange:
            self.winner_colour = BLUE
        elif orange > blue:
            self.winner_colour = ORANGE
        else:
            self.winner_colour = -1

    # -- legal moves (§2.2, §3) -------------------------------------------
    def swap_available(self) -> bool:
        return (
            self.game.pie
            and not self.over
            and self.turns == 1
            and not self.swapped
            and not self.placed
            and self.colour_to_move == ORANGE
        )

    def _legal_now(self) -> list[int]:
        if self._legal is None:
            game = self.game
            k = len(self.placed)
            if self.over:
                out: list[int] = []
            elif k == 0:
                out = self._first_stones()
            else:
                stone, bit = self.stone, game.colbit
                moves = game.own_moves[self.placed[0]]
                glob = game.column_rule == "global"
                mine = self.col_used[self.colour_to_move] if glob else 0
                theirs = self.col_used[1 - self.colour_to_move] if glob else 0
                if k == 1:
                    legal = {
                        w
                        for w, x in moves
                        if stone[w] == EMPTY and stone[x] == EMPTY and not bit[w] & mine and not bit[x] & theirs
                    }
                else:
                    w2 = self.placed[1]
                    legal = {x for w, x in moves if w == w2 and stone[x] == EMPTY and not bit[x] & theirs}
                out = sorted(legal)
            if self.swap_available():
                out.append(game.swap_action)
            self._legal = out
        return self._legal

    def _legal_actions(self, player: int) -> list[int]:
        return self._legal_now()[:]

    def _is_legal(self, player: int, action: int) -> bool:
        return action in self._legal_now()

    def _explain(self, player: int, action: int) -> str | None:
        game = self.game
        if action == game.swap_action:
            if not game.pie:
                return said("the pie rule is off (option pie)", "2.2")
            return said("swapping sides is allowed only as Orange's first decision, before placing a stone", "2.2")
        if self.stone[action] == BLOCKED:
            return said("that point is blocked", "1.2")
        if self.stone[action] >= 0:
            return said("that point already holds a stone", "3.1")
        labels = game.labels
        c = self.colour_to_move
        k = len(self.placed)
        column = game.col_names[action]
        if k < 2 and game.column_rule == "global" and self.col_used[c] & game.colbit[action]:
            return said(f"{COLOUR_NAMES[c]} already has a stone in column {column}", "3.3", "global column rule")
        if k == 2 and game.column_rule == "global" and self.col_used[1 - c] & game.colbit[action]:
            return said(f"{COLOUR_NAMES[1 - c]} already has a stone in column {column}", "3.3", "global column rule")
        if k == 0:
            if not any(self.alive[t] for t in game.vertex_triples[action]):
                return said("it is not part of three adjacent empty points", "3.1")
            return said("every turn through it would break the column rule", "3.3")
        u = self.placed[0]
        if k == 1:
            if game.column_rule != "off" and game.col[u] == game.col[action]:
                return said(f"your two stones may not share a column ({labels[u]} is in column {column})", "3.3")
            if any(w == action and self.stone[x] == EMPTY for w, x in game.own_moves[u]):
                return said(
                    f"the {COLOUR_NAMES[1 - c]} stone could then go only in a column that already holds a "
                    f"{COLOUR_NAMES[1 - c]} stone",
                    "3.3",
                    "global column rule",
                )
            return said(f"it does not lie on three adjacent empty points with {labels[u]}", "3.1")
        w = self.placed[1]
        return said(
            f"the {COLOUR_NAMES[1 - c]} stone must complete three adjacent points with {labels[u]} and {labels[w]}",
            "3.1",
            "3.2",
        )

    # -- applying a decision (§2.2, §3.4) ----------------------------------
    def _apply(self, action: int) -> None:
        game = self.game
        if action == game.swap_action:  # §2.2: Orange's player takes over Blue and its stones
            self.blue_seat = 1 - self.blue_seat
            self.swapped = True
            self._legal = None
            return
        c = self.colour_to_move
        colour = c if len(self.placed) < 2 else 1 - c
        self.stone[action] = colour
        alive, count = self.alive, self.own_count
        for t in game.vertex_triples[action]:
            if alive[t]:
                alive[t] = 0
                for x in game.triple_owned[t]:
                    count[x] -= 1
                self.live -= game.triple_colourings[t]
        self.col_used[colour] |= game.colbit[action]
        self.placed.append(action)
        if len(self.placed) == 3:
            self.last_turn = tuple(self.placed)
            self.turns += 1
            self.colour_to_move = 1 - c
            self._start_turn()
        else:
            self._legal = None

    def play_random(self, rnd: Callable[[], float], plies: int) -> int:
        """The core's random playout (same draws, same moves), whole turns at a time over local tables.

        From the start of a turn with room for it (three decisions, §3.4), the
        turn is one step of a loop that keeps the points able to take a first
        stone as a sorted list (a point leaves it when the last allowed turn
        through it dies; none ever comes back). The pie offer (§2.2), the global
        column rule (§3.3), a turn already begun and the last plies go the
        ordinary way.
        """
        played = 0
        while played < plies and not self.over:
            if (
                not self.placed
                and plies - played >= 3
                and not self.swap_available()
                and self.game.column_rule != "global"
            ):
                played += self._random_turns(rnd, plies - played)
            else:
                played += super().play_random(rnd, 1)
        return played

    def _random_turns(self, rnd: Callable[[], float], plies: int) -> int:
        """Whole random turns (not under the global column rule), while three plies are left; the plies played."""
        game = self.game
        vertex_triples, triple_owned, colourings, own_moves, colbit = (
            game.vertex_triples,
            game.triple_owned,
            game.triple_colourings,
            game.own_moves,
            game.colbit,
        )
        stone, alive, count, col_used = self.stone, self.alive, self.own_count, self.col_used
        history, actors = self._history, self._actors
        seat_of = self.seat_of
        firsts = [v for v in game.playable if count[v]]  # §3: points some allowed turn gives the mover's stone
        live = self.live
        c = self.colour_to_move
        turns = self.turns
        pie = game.pie and not self.swapped
        played = 0
        last: tuple[int, ...] = self.last_turn
        while plies - played >= 3:
            seat = seat_of(c)
            u = firsts[int(rnd() * len(firsts))]
            legal = sorted({w for w, x in own_moves[u] if stone[w] == EMPTY and stone[x] == EMPTY})
            w = legal[int(rnd() * len(legal))]
            legal = sorted({x for v, x in own_moves[u] if v == w and stone[x] == EMPTY})
            x = legal[int(rnd() * len(legal))]
            for a, colour in ((u, c), (w, c), (x, 1 - c)):  # each stone ends every triple through its point
                stone[a] = colour
                for t in vertex_triples[a]:
                    if alive[t]:
                        alive[t] = 0
                        for y in triple_owned[t]:
                            k = count[y] - 1
                            count[y] = k
                            if not k:
                                del firsts[bisect_left(firsts, y)]
                        live -= colourings[t]
                col_used[colour] |= colbit[a]
            history += (u, w, x)
            actors += (seat, seat, seat)
            played += 3
            last = (u, w, x)
            turns += 1
            c = 1 - c
            if not live or (pie and turns == 1):  # §4: nobody can move; or the pie offer comes next
                break
        self.live, self.colour_to_move, self.turns, self.last_turn = live, c, turns, last
        self.placed = []
        self._legal = None
        if not live:
            self._finish()
        return played

    def _rebuild_tables(self) -> None:
        """Recompute the derived tables from ``stone`` and ``colour_to_move`` and start a turn.

        Only for setting up positions by hand (tests, analysis): such a state has
        no matching history, so it cannot be replayed or saved.
        """
        game = self.game
        self.alive = bytearray(int(all(self.stone[x] == EMPTY for x in pts)) for pts in game.triples)
        self.own_count = [0] * game.n
        self.live = 0
        for t, owned in enumerate(game.triple_owned):
            if self.alive[t]:
                for x in owned:
                    self.own_count[x] += 1
                self.live += game.triple_colourings[t]
        self.col_used = [0, 0]
        for v, c in enumerate(self.stone):
            if c >= 0:
                self.col_used[c] |= game.colbit[v]
        self.over = False
        self.winner_colour = -1
        self._start_turn()

    # -- the log in words --------------------------------------------------
    def _seen(self, actor: int, entry: int | tuple[int | None, ...]) -> Seen | tuple[Seen | None, ...]:
        """The decision in words (§2.2, §3.4): the swap, or a stone placed, of the mover's colour or the opponent's."""
        if not isinstance(entry, int):
            return super()._seen(actor, entry)
        if entry == self.game.swap_action:
            return Seen(f"swaps sides and takes over {COLOUR_NAMES[BLUE]} and its stones")
        c = self.colour_to_move
        where = self.game.labels[entry]
        if len(self.placed) < 2:
            return Seen(f"places {'an' if COLOUR_NAMES[c] == 'Orange' else 'a'} {COLOUR_NAMES[c]} stone on {where}")
        return Seen(f"places the opponent's stone, {COLOUR_NAMES[1 - c]}, on {where}, ending the turn")

    # -- notation and views -----------------------------------------------
    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {
            "board_side": self.game.params["board_side"],
            "stones": self.stone[:],
            "colours": [COLOUR_NAMES[self.colour_of(0)], COLOUR_NAMES[self.colour_of(1)]],
            "to_move": self.current_player(),
            "colour_to_move": COLOUR_NAMES[self.colour_to_move],
            "placed": self.placed[:],
            "last_turn": list(self.last_turn),
            "turn": self.turns + (0 if self.over else 1),
            "swap_available": self.swap_available(),
            "swapped": self.swapped,
            "groups": [self.group_sizes(BLUE), self.group_sizes(ORANGE)],
            "over": self.over,
            "winner": self.seat_of(self.winner_colour) if self.over and self.winner_colour >= 0 else -1,
        }

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """Stones by colour from the viewer's side (a spectator's: seat 0's), the turn's stones, turn and pie."""
        me = 0 if player is None else player
        mine = self.colour_of(me)
        n = self.game.n
        t.bits("own_colour_stones", [c == mine for c in self.stone])
        t.bits("other_colour_stones", [c == 1 - mine for c in self.stone])
        t.bits("blocked", [c == BLOCKED for c in self.stone])
        placed = self.placed + [None] * (2 - len(self.placed))
        t.one_hot("first_stone_this_turn", placed[0], n)
        t.one_hot("second_stone_this_turn", placed[1], n)
        t.one_hot("to_move", None if self.over else (self.current_player() - me) % 2, 2)
        t.one_hot("plays", mine, 2)  # 0 Blue, 1 Orange
        t.bits("swap_available", [self.swap_available()])
        t.bits("swapped", [self.swapped])
        t.counts("turn", [self.turns], self.game.max_game_length())
        t.bits("over", [self.over])
        winner = self.seat_of(self.winner_colour) if self.over and self.winner_colour >= 0 else None
        t.one_hot("winner", None if winner is None else (winner - me) % 2, 2)


def _prompt(game: TrivalentGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    labels = game.labels
    blue_big = obs["groups"][BLUE][:1] or [0]
    orange_big = obs["groups"][ORANGE][:1] or [0]
    if obs["over"]:
        if obs["winner"] < 0:
            return f"The game is over: a draw, both largest groups have {blue_big[0]} stones."
        w = obs["colours"][obs["winner"]]
        mine, theirs = (blue_big[0], orange_big[0]) if w == "Blue" else (orange_big[0], blue_big[0])
        extra = "" if mine != theirs else " (decided by the next groups)"
        return f"The game is over: {w} wins, largest group {mine} against {theirs}{extra}."
    mover = obs["colour_to_move"]
    other = COLOUR_NAMES[1 - COLOUR_NAMES.index(mover)]
    where = "three adjacent points" if game.params["triple"] == "path" else "the three neighbours of one point"
    placed = obs["placed"]
    if not legal:
        return f"{mover} to move: two {mover} stones and one {other} stone on {where}."
    if not placed:
        text = f"Place your first {mover} stone: two {mover} stones and one {other} stone go on {where}"
        if game.column_rule != "off":
            text += ", your two in different columns"
        return text + (", or swap sides (pie rule)." if obs["swap_available"] else ".")
    if len(placed) == 1:
        u = labels[placed[0]]
        rule = f", not in column {game.col_names[placed[0]]}" if game.column_rule != "off" else ""
        return f"Place your second {mover} stone on {where} with {u}{rule}."
    return f"Place the {other} stone to complete {where} with {labels[placed[0]]} and {labels[placed[1]]}."


def _colour(colour: int) -> str:
    """How a colour's stones are drawn: Blue in the blue seat colour, Orange in the vermillion one."""
    return sc.SEAT_COLOURS[PALETTE[colour]]


@TrivalentGame.draws_scene
def _scene(game: TrivalentGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    labels = game.labels
    s = sc.new_scene(_prompt(game, obs, legal), game._viewbox)
    s["cells"] = [dict(c) for c in game._scene_cells]
    s["edges"] = [dict(e) for e in game._scene_edges]
    colour_of = [COLOUR_NAMES.index(name) for name in obs["colours"]]  # per seat, the colour it plays now
    seat_of = [colour_of.index(c) for c in (BLUE, ORANGE)]
    for v, c in enumerate(obs["stones"]):
        if c >= 0:
            s["pieces"].append(sc.piece(labels[v], seat_of[c], "stone", colour=_colour(c)))
    for v in obs["placed"]:
        s["highlights"].append({"at": labels[v], "kind": "selected"})
    for v in obs["last_turn"]:
        s["highlights"].append({"at": labels[v], "kind": "last"})
    mover = COLOUR_NAMES.index(obs["colour_to_move"])
    colour = COLOUR_NAMES[mover] if len(obs["placed"]) < 2 else COLOUR_NAMES[1 - mover]
    for a, label in legal:
        if a < game.n:
            s["targets"].append({"at": labels[a], "action": a, "label": f"{label}: {colour} stone"})
    for a, _ in legal:
        if a == game.swap_action:
            s["buttons"].append({"action": a, "label": "swap sides (pie rule)"})
    largest = [(sizes[:1] or [0])[0] for sizes in obs["groups"]]  # per colour
    s["status"] = [f"{obs['colours'][k]}: largest group {largest[colour_of[k]]}" for k in (0, 1)]
    s["status"].append(f"turn {obs['turn']}" + (", sides swapped" if obs["swapped"] else ""))
    s["status"].append("board: our reconstruction (the original picture is missing)")
    s["players"] = [
        sc.player(k, f"seat {k} ({obs['colours'][k]})", obs["colours"][k], colour=_colour(colour_of[k])) for k in (0, 1)
    ]
    return sc.finish_scene(s, legal)


TrivalentGame.state_class = TrivalentState
GAME_CLASS = TrivalentGame
