"""Cirque (Rey Alicea): two or more stones a turn on a board of coloured shapes; five in a row wins.

Rules: ``docs/rules/cirque.md``; clause numbers are cited as ``§n``.

Seat 0 is Orange, seat 1 is Blue (§2). A turn is a sequence of single-stone
decisions by the same seat (§3): one stone on Orange's first turn, two on every
later turn, one more for every shape the turn fills (§6). Each stone is one
action: the index of its square (segment ``square``, labels the squares' names,
``a1`` … ``j10`` on our board). There is no pass: a stone with no legal square
is forfeited and the turn ends by itself (§7).

The board is data (§1, §10): ``games/data/cirque.json`` is our reconstruction
(the rules' picture is missing); a designer's board goes in
``games/data/cirque-<name>.json`` in the same format and is chosen with the
option ``board=<name>``. The file is read once, when the game object is made,
never during play.

Speed: per board, a bitmask per square of the squares a second stone of the
same turn may take (§4, §5) and the straight lines through every square (§8);
the squares still open to the next stone are the empty squares ANDed with the
masks of the stones already placed this turn. Random rollouts run in C where
the compiled rollouts are built (``boardlab.fast``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import fast
from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.bitmask import bits
from ..core.constants import TERMINAL
from ..core.game import Game, State, win_loss
from ..core.hidden import Seen
from ..core.options import DataFiles, Option
from ..core.tensor import Tensor
from ..core.wording import said
from ..geometry.board import NamedBoard
from ..geometry.hexgrid import bounding_box
from . import _tensors as tz

NAMES = ("Orange", "Blue")
EMPTY = -1
DRAW = 2


class Board(NamedBoard):
    """One board's tables (§1): squares, colours, shapes, touching squares, lines."""

    def __init__(self, name: str, data: dict[str, Any]) -> None:
        super().__init__(name, data)
        board = self.data
        nodes = data["nodes"]
        missing = [n["id"] for n in nodes if n.get("colour") is None or n.get("region") is None]
        if missing:
            raise ValueError(f"Cirque board {name!r}: squares {missing[:5]} lack a colour or a region (shape)")
        n = self.n
        palette: dict[str, str] = dict(data.get("colours", {}))
        self.colour_names = tuple(str(c) for c in board.colours)
        self.fills = tuple(palette.get(c, c) for c in self.colour_names)
        self.touching = board.neighbours  # §1: squares that share a side or a corner
        shape_ids = sorted({str(r) for r in board.regions})
        self.shape_names = tuple(shape_ids)
        index = {s: k for k, s in enumerate(shape_ids)}
        self.shape_of = tuple(index[str(r)] for r in board.regions)
        self.shape_size = tuple(self.shape_of.count(k) for k in range(len(shape_ids)))
        # §4, §5: a square j may join square i in one turn iff (they touch) == (they share a colour).
        masks = []
        for i in range(n):
            m = 0
            near = set(self.touching[i])
            for j in range(n):
                if j != i and (j in near) == (self.colour_names[i] == self.colour_names[j]):
                    m |= 1 << j
            masks.append(m)
        self.partner_mask = tuple(masks)
        # §8: for each square, the lines through it as (line, position in it).
        through: list[list[tuple[tuple[int, ...], int]]] = [[] for _ in range(n)]
        for line in board.lines:
            for k, i in enumerate(line):
                through[i].append((line, k))
        self.lines_through = tuple(tuple(t) for t in through)
        polygons = [n.get("polygon") for n in nodes]
        self.cells = []
        for i in range(n):
            poly = polygons[i]
            self.cells.append(
                sc.cell(
                    self.labels[i],
                    board.xy[i],
                    [tuple(map(float, p)) for p in poly] if poly else None,
                    label=self.labels[i],
                    fill=self.fills[i],
                    radius=None if poly else 0.4,
                    kind="cell" if poly else "point",
                )
            )
        self.walls = _shape_walls(self.labels, polygons, self.shape_of)
        pts = [tuple(map(float, p)) for poly in polygons if poly for p in poly] or list(board.xy)
        self.viewbox = bounding_box(pts, margin=0.3 if any(polygons) else 0.8)


def _shape_walls(labels: tuple[str, ...], polygons: list[Any], shape_of: tuple[int, ...]) -> list[dict[str, Any]]:
    """Heavy lines on the sides two squares of different shapes share, so the shapes show (§1)."""
    sides: dict[tuple[tuple[float, float], tuple[float, float]], list[int]] = {}
    for i, poly in enumerate(polygons):
        if not poly:
            continue
        pts = [(round(float(x), 6), round(float(y), 6)) for x, y in poly]
        for a, b in zip(pts, pts[1:] + pts[:1], strict=True):
            sides.setdefault((min(a, b), max(a, b)), []).append(i)
    walls = []
    for (a, b), cells in sides.items():
        if len(cells) == 2 and shape_of[cells[0]] != shape_of[cells[1]]:
            i, j = cells
            walls.append(sc.edge(f"wall-{labels[i]}-{labels[j]}", a, b, stroke="#4a4238", kind="wall"))
    return walls


#: The boards (§1, §10): ours is ``games/data/cirque.json``; a designer's ``cirque-<name>.json`` beside it is
#: the option value ``<name>``.
BOARDS = DataFiles(Path(__file__).with_name("data"), "cirque", "reconstruction", Board)


class CirqueGame(Game):
    id = "cirque"
    title = "Cirque"
    summary = (
        "Place two stones a turn on a board of coloured shapes: touching stones share a colour, "
        "stones of one colour touch; fill a shape for a bonus stone; five in a row wins. "
        "The board is our reconstruction (the designer's picture is missing)."
    )
    options = (
        BOARDS.option(
            "board",
            said(
                "The board: our reconstruction, or a board the designer drew, once it is added to the game.", "1", "10"
            ),
        ),
        Option.choice(
            "shape_fill",
            {
                "own_stones": "Fill a shape with your own stones",
                "any_stones": "Place the last stone of any shape",
            },
            said(
                "A bonus stone for filling a shape with your own stones only, or for placing the last stone of "
                "any shape.",
                "6",
            ),
        ),
        Option.flag("exact_five", False, said("Only exactly five in a row wins; six or more do not.", "8")),
    )
    draws = True  # a full board with no five in a row (rare in measured play)
    mechanics = ("square board", "placement", "multiple placements", "n in a row")
    playing_time = "20 min"
    seat_names = NAMES
    inventions = (
        "The board: the designer's picture is missing. Ours is 10 by 10 squares in 25 shapes of 2 by 2, in "
        "four colours, so that touching shapes always differ in colour (option board; a designer's board "
        "is a data file, see the rules).",
        "Five in a row counts along rows, columns and diagonals, and six or more also win (option exact_five).",
        "'Fills in a single shape with their stones' means every square of the shape holds the mover's "
        "stones (option shape_fill).",
        "A stone that has no legal square (a bonus stone included) is forfeited and the turn ends.",
        "A full board with no five in a row is a draw.",
    )

    def _setup(self) -> None:
        self.board = BOARDS.load(self.params["board"])
        self.n = self.board.n
        self.full = (1 << self.n) - 1
        self.action_space = ActionSpace(Segment("square", (("square", self.board.labels),), "{square}"))
        self.max_length = self.n + 1  # §9: every action fills a square, so a game has at most n actions


class CirqueState(State):
    game: CirqueGame
    copied = ("stone", "filled", "own", "placed", "last")

    def __init__(self, game: CirqueGame, num_players: int) -> None:
        super().__init__(game, num_players)
        b = game.board
        self.stone = [EMPTY] * game.n
        self.empty = game.full  # bitmask of empty squares
        self.filled = [0] * len(b.shape_size)  # stones of either colour per shape
        self.own = [0] * (2 * len(b.shape_size))  # own[2 * shape + seat]
        self.to_move = 0
        self.turn = 1
        self.left = 1  # §3: one stone on the first turn
        self.bonus = 0  # bonus stones earned this turn (§6)
        self.forfeited = 0  # stones of the last finished turn that had no legal square (§7)
        self.placed: list[int] = []  # this turn's stones, in order
        self.last: list[int] = []  # the previous turn's stones
        self.winner = -1
        self.line: tuple[int, ...] = ()  # the winning five (§8)

    # -- turn order and result -------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.winner >= 0 else self.to_move

    def returns(self) -> list[float]:
        return win_loss(self.winner if self.winner in (0, 1) else None) if self.winner >= 0 else [0.0, 0.0]

    # -- legal stones (§3-§5) ------------------------------------------------
    def open_mask(self) -> int:
        """The squares the next stone may take: empty, and fit with every stone of this turn (§4, §5)."""
        m = self.empty
        masks = self.game.board.partner_mask
        for i in self.placed:
            m &= masks[i]
        return m

    def _legal_actions(self, player: int) -> list[int]:
        return bits(self.open_mask())

    def _is_legal(self, player: int, action: int) -> bool:
        return 0 <= action < self.game.n and bool(self.open_mask() >> action & 1)

    def _explain(self, player: int, action: int) -> str | None:
        b = self.game.board
        if not 0 <= action < self.game.n:
            return None
        if self.stone[action] != EMPTY:
            return said(f"{b.labels[action]} already holds a stone", "3")
        for i in self.placed:
            touch = action in b.touching[i]
            same = b.colour_names[i] == b.colour_names[action]
            if touch and not same:
                return said(
                    f"{b.labels[action]} ({b.colour_names[action]}) touches {b.labels[i]} ({b.colour_names[i]}), "
                    "placed this turn: stones of one turn may touch only on squares of the same colour",
                    "4",
                )
            if same and not touch:
                return said(
                    f"{b.labels[action]} has the colour of {b.labels[i]} ({b.colour_names[i]}), placed this turn, "
                    "but does not touch it: stones of one turn share a colour only when they touch",
                    "5",
                )
        return None

    # -- applying a stone ---------------------------------------------------
    def _apply(self, action: int) -> None:
        game = self.game
        b = game.board
        p = self.to_move
        self.stone[action] = p
        self.empty &= ~(1 << action)
        self.placed.append(action)
        shape = b.shape_of[action]
        self.filled[shape] += 1
        self.own[2 * shape + p] += 1
        self.left -= 1
        line = self._five_through(action, p)
        if line:  # §8: checked after every stone
            self.line = line
            self._finish(p)
            return
        if self.filled[shape] == b.shape_size[shape] and (
            self.own[2 * shape + p] == b.shape_size[shape] or game.params["shape_fill"] == "any_stones"
        ):  # §6: the turn gains a stone
            self.left += 1
            self.bonus += 1
        if not self.empty:  # §9
            self._finish(DRAW)
            return
        if self.left == 0 or not self.open_mask():  # §3, §7
            self._end_turn()

    def _five_through(self, i: int, p: int) -> tuple[int, ...]:
        """A run of five or more of ``p``'s stones through ``i`` (exactly five with ``exact_five``), or ``()``."""
        stone = self.stone
        exact = self.game.params["exact_five"]
        for line, k in self.game.board.lines_through[i]:
            lo = k
            while lo > 0 and stone[line[lo - 1]] == p:
                lo -= 1
            hi = k
            while hi + 1 < len(line) and stone[line[hi + 1]] == p:
                hi += 1
            run = hi - lo + 1
            if run == 5 or (run > 5 and not exact):
                return tuple(line[lo : hi + 1])
        return ()

    def _end_turn(self) -> None:
        self.forfeited = self.left
        self.last = self.placed
        self.placed = []
        self.to_move = 1 - self.to_move
        self.turn += 1
        self.left = 2  # §3
        self.bonus = 0

    def _finish(self, winner: int) -> None:
        self.winner = winner
        self.last = self.placed
        self.placed = []
        self.left = 0

    def play_random(self, rnd: Callable[[], float], plies: int) -> int:
        """The core's random playout; in C where the compiled rollouts are built (:mod:`boardlab.fast`): the same
        draws, the same stones, the same tables at the end."""
        compiled = fast.ACTIVE.get("cirque")
        if compiled is not None and compiled.supports(self.game):
            return compiled.play_random(self, rnd, plies)
        return super().play_random(rnd, plies)

    # -- the log in words ------------------------------------------------------
    def _seen(self, actor: int, entry: int | tuple[int | None, ...]) -> Seen | tuple[Seen | None, ...]:
        """The stone in words (§3, §6, §8, §9): where it goes, and what it does (a filled shape, five in a row)."""
        if not isinstance(entry, int):
            return super()._seen(actor, entry)
        after = self.clone()
        after.apply_action(entry)
        text = f"places a stone on {self.game.board.labels[entry]}"
        if after.winner == actor:
            run = len(after.line)
            return Seen(f"{text} and has {'five' if run == 5 else run} in a row")
        if after.winner == DRAW:
            return Seen(f"{text}, the last empty square: a draw")
        if after.bonus > self.bonus:
            text += ", filling a shape with their stones: one more stone this turn"
        if after.forfeited and after.to_move != actor:
            text += f"; no square is left for the other {after.forfeited} stone(s) of the turn"
        return Seen(text)

    # -- views ----------------------------------------------------------------
    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The observation as numbers (docs/research/tensors-newer.md): stones as the viewer's and the other's planes."""
        o = self.observation(player)
        n = self.game.n
        tz.viewer(t, player, 2)
        tz.mover(t, "to_move", o["to_move"], player, 2)
        tz.one_hots(t, "stones", [tz.rel(x, player, 2) for x in o["stones"]], 2)
        t.counts("turn", [o["turn"]], n + 1)
        t.counts("stones_left", [o["stones_left"]], n)
        t.counts("bonus", [o["bonus"]], n)
        t.counts("forfeited", [o["forfeited"]], n)
        tz.ranks(t, "this_turn", o["this_turn"], n)
        tz.ranks(t, "last_turn", o["last_turn"], n)
        tz.ranks(t, "line", o["line"], n)
        t.one_hot("winner", tz.rel(o["winner"], player, 2), 2)
        t.bits("draw", [o["draw"]])
        t.bits("over", [o["over"]])

    def observation(self, player: int | None = None) -> dict[str, Any]:
        over = self.winner >= 0
        return {
            "board": self.game.params["board"],
            "stones": self.stone[:],
            "to_move": self.current_player(),
            "turn": self.turn,
            "stones_left": self.left,
            "bonus": self.bonus,
            "forfeited": self.forfeited,
            "this_turn": self.placed[:],
            "last_turn": self.last[:],
            "winner": self.winner if self.winner in (0, 1) else None,
            "draw": self.winner == DRAW,
            "line": list(self.line),
            "over": over,
        }


def _prompt(game: CirqueGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    if obs["over"]:
        if obs["draw"]:
            return "The board is full with no five in a row: a draw."
        return f"{NAMES[obs['winner']]} wins with {len(obs['line'])} in a row."
    who = NAMES[obs["to_move"]]
    k = obs["stones_left"]
    more = f"{k} stone{'s' if k != 1 else ''} left this turn"
    if obs["bonus"]:
        more += f", {obs['bonus']} of them earned by filling a shape"
    if not obs["this_turn"]:
        return f"{who}: place a stone ({more})."
    b = game.board
    placed = ", ".join(f"{b.labels[i]} on {b.colour_names[i]}" for i in obs["this_turn"])
    return (
        f"{who}: place a stone ({more}). Against each stone of this turn ({placed}): "
        "touching it needs its colour, and its colour needs touching it."
    )


@CirqueGame.draws_scene
def _scene(game: CirqueGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    b = game.board
    labels = b.labels
    s = sc.new_scene(_prompt(game, obs, legal), b.viewbox)
    s["cells"] = [dict(c) for c in b.cells]
    s["edges"] = [dict(e) for e in b.walls]
    for i, o in enumerate(obs["stones"]):
        if o != EMPTY:
            s["pieces"].append(sc.piece(labels[i], o, "stone"))
    for i in obs["this_turn"]:
        s["highlights"].append({"at": labels[i], "kind": "selected"})
    for i in obs["last_turn"]:
        s["highlights"].append({"at": labels[i], "kind": "last"})
    for i in obs["line"]:
        s["highlights"].append({"at": labels[i], "kind": "hint"})
    for a, label in legal:
        s["targets"].append({"at": labels[a], "action": a, "label": label})
    status = [f"Turn {obs['turn']}"]
    if not obs["over"]:
        status.append(f"stones left this turn: {obs['stones_left']}")
    if obs["forfeited"] and not obs["this_turn"] and not obs["over"]:
        status.append(f"{NAMES[1 - obs['to_move']]} lost {obs['forfeited']} stone(s) with no legal square")
    board_note = f"Board: {b.title}"
    if b.unverified:
        board_note += " (a stand-in: the designer's board is missing)"
    status.append(board_note)
    s["status"] = status
    s["players"] = [sc.player(k, NAMES[k]) for k in (0, 1)]
    return sc.finish_scene(s, legal)


CirqueGame.state_class = CirqueState
GAME_CLASS = CirqueGame
