"""Ant Trails (Rey Alicea, 2020): ant trails that never branch, and food carried along them to the border.

Rules: ``docs/rules/ant-trails.md``; clause numbers are cited as ``§n``.

Seat 0 is Black, who moves first (§3); seat 1 is Red. The board is the hexhex
of side 6 (91 cells, labels ``a1``…, rows lettered from the top).

Actions (a turn is a sequence of small decisions by the same seat, §4) are an
:class:`~boardlab.core.actions.ActionSpace` of four segments:

* ``cell`` (``0 .. 90``): while placing ants (§5) where the next ant goes;
  after a food tile has been chosen (§6) where that tile goes (``to c4``).
* ``tile`` (``91 .. 102``): choose a food tile to pick up or move (§6),
  labelled by what it does (``pick 2 c4``, ``move 3 d5``).
* ``done`` (``103``): end the turn (§4.3).
* ``pass`` (``104``): a turn with no ant placed and no food moved (§8).

Chance actions (§2, the setup) are the space ``chance_space``: one segment
``food`` of cell x value, so ``cell * 3 + value - 1``: the next food tile
and its value. The 12 positions are drawn uniformly among all sets of 12
pairwise non-adjacent interior cells: tiles are placed in increasing cell
order, and each step's probabilities are exact ratios of counts of completions
(memoised counts, :meth:`_Board.completions`), so no step can reach a
dead end. Values are a shuffled deal of the 12 tiles.

Speed: the board, the neighbour tables and the placement counts are built
once; the state keeps its trails in a union-find with a loop flag per trail,
each ant's number of friendly neighbours, and per seat the set of cells where
it may place an ant, updated around each placement (§5 is local: only cells
next to the new ant or to the ants it touches can change for its owner).
"""

from __future__ import annotations

from typing import Any

from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.constants import CHANCE, TERMINAL
from ..core.game import Game, State, win_loss
from ..core.gametype import Chance, GameType
from ..core.hidden import Seen
from ..core.options import Option
from ..core.tensor import Tensor
from ..core.wording import said
from ..geometry.hexgrid import HexBoard, bounding_box, polygon_center

SIDE = 6
COLOUR_NAMES = ("Black", "Red")
#: On screen, per seat, the colour its name says (§1): Black's ants in near-black ink, which reads on the light
#: board, and Red's in red; dark against mid-tone, they stay apart for colour-blind players too. Owners in the
#: scene stay seats.
INK = tuple(sc.INK_OF[name] for name in COLOUR_NAMES)
#: §1: four tiles each worth 3, 2 and 1 points.
VALUE_COUNTS = (0, 4, 4, 4)
NUM_TILES = sum(VALUE_COUNTS)
INF = 1 << 30

# Phases of the game and of a turn.
SETUP = "setup"  # §2: chance places the food tiles
PLACE = "place"  # §5: place ants
FOOD = "food"  # §6: pick up and move food tiles, or end the turn
DEST = "destination"  # §6: where the chosen tile goes
PASS = "pass"  # §8: nothing to do
OVER = "over"
PHASES = (SETUP, PLACE, FOOD, DEST, PASS, OVER)


class _Board:
    """The board and everything precomputed about it (one per process)."""

    def __init__(self) -> None:
        board = HexBoard.of_side(SIDE)
        self.hex = board
        self.n = n = len(board)
        self.labels = board.labels
        self.neighbours = board.neighbours
        border = set(board.border())
        self.border = tuple(i in border for i in range(n))
        # §2: the interior cells in reading order and the tables of the exact placement draw.
        self.interior = tuple(i for i in range(n) if not self.border[i])
        self.order = {c: k for k, c in enumerate(self.interior)}
        m = len(self.interior)
        nb = [[self.order[j] for j in board.neighbours[c] if j in self.order] for c in self.interior]
        self.earlier = tuple(sum(1 << j for j in nb[i] if j < i) for i in range(m))
        self.need = tuple(sum(1 << j for j in range(i) if any(k >= i for k in nb[j])) for i in range(m + 1))
        self._counts: dict[tuple[int, int, int], int] = {}
        self._first_draw: list[tuple[int, float]] | None = None
        polys = board.cell_polygons(1.0)
        self.centres = [polygon_center(p) for p in polys]
        self.scene_cells = board.scene_cells(fill=lambda i: "light" if self.border[i] else None)
        self.viewbox = bounding_box([pt for p in polys for pt in p], margin=0.6)

    def completions(self, i: int, frontier: int, m: int) -> int:
        """Ways to choose ``m`` more pairwise non-adjacent interior cells from order position ``i`` on.

        ``frontier``: bits (order positions) of already chosen cells that still
        have a neighbour at position ``i`` or later.
        """
        if m == 0:
            return 1
        size = len(self.interior)
        if size - i < m:
            return 0
        key = (i, frontier, m)
        got = self._counts.get(key)
        if got is not None:
            return got
        nxt = self.need[i + 1]
        total = self.completions(i + 1, frontier & nxt, m)
        if not frontier & self.earlier[i]:
            total += self.completions(i + 1, (frontier | (1 << i)) & nxt, m - 1)
        self._counts[key] = total
        return total

    def draw(self, chosen: int, last_pos: int, values_left: tuple[int, ...]) -> list[tuple[int, float]]:
        """§2: the chance outcomes ``(cell * 3 + value - 1, probability)`` of the next food tile.

        Tiles go down in increasing cell order; a cell's chance is the share of
        the valid completions that use it next, so every full placement of the
        12 tiles is equally likely, and the value is dealt from what is left.
        """
        first = last_pos < 0
        if first and self._first_draw is not None:
            return self._first_draw
        m = sum(values_left)
        start = last_pos + 1
        need, earlier, interior = self.need, self.earlier, self.interior
        total = self.completions(start, chosen & need[start], m)
        values = [(v - 1, values_left[v] / m / total) for v in (1, 2, 3) if values_left[v]]
        out = []
        get = self._counts.get
        for i in range(start, len(interior)):
            if chosen & earlier[i]:
                continue
            key = (i + 1, (chosen | (1 << i)) & need[i + 1], m - 1)
            w = get(key) if m > 1 else 1
            if w is None:
                w = self.completions(*key)
            if w:
                c3 = interior[i] * 3
                for v, pv in values:
                    out.append((c3 + v, w * pv))
        if first:
            self._first_draw = out
        return out


_BOARD: _Board | None = None


def _board() -> _Board:
    global _BOARD
    if _BOARD is None:
        _BOARD = _Board()
    return _BOARD


class AntTrailsGame(Game):
    id = "ant-trails"
    title = "Ant Trails"
    summary = "Lay ant trails that never branch, carry food along them to the border; longest trail plus food wins."
    options = (
        Option.flag(
            "must_move_toward_border_end",
            True,
            said(
                "A carried food tile may only step toward the nearest exit of its trail; off: either way "
                "along the trail.",
                "6.4",
            ),
        ),
        Option.flag(
            "pickup_then_move",
            False,
            said("A food tile picked up this turn may also take its one step along the trail this turn.", "6.5"),
        ),
        Option.flag("one_tile_per_ant", False, said("An ant may carry at most one food tile.", "6.3")),
        Option.flag(
            "loops_have_no_exit",
            False,
            said("Food on a loop can never be banked; by default a loop ant on a border cell is an exit.", "6.6"),
        ),
        Option.flag(
            "pass_when_no_placement",
            False,
            said(
                "A player who cannot place an ant passes the whole turn, food moves included; by default "
                "they may still pick up and move food.",
                "8.1",
            ),
        ),
        Option.choice(
            "tie_break",
            {"draw": "A draw", "banked_food": "More banked food wins"},
            said("Equal scores: a draw, or the player with more banked food wins.", "9.3"),
        ),
    )
    mechanics = ("hex board", "placement", "connection", "pick-up and deliver", "setup chance")
    game_type = GameType(chance=Chance.EXPLICIT)
    playing_time = "20 min"
    setup_text = "The food tiles were laid out."
    inventions = (
        "Within a turn the two ants are placed first, then food is picked up and moved in any order; the turn "
        "ends with 'done' (or by itself when nothing is left to do).",
        "A carried food tile steps only toward the nearest exit of its trail by default (the BGG summary's "
        "'toward the border'); either direction is the option must_move_toward_border_end=false.",
        "A loop ant on a border cell counts as an exit (option loops_have_no_exit).",
        "A turn counts as a pass only when the player placed no ant and made no food move; the game ends after "
        "two passes in a row (option pass_when_no_placement for the stricter reading).",
        "Equal scores are a draw (option tie_break).",
        "Food positions are drawn uniformly over all valid placements, tile by tile in cell order, and their "
        "values are visible as soon as they are drawn (the text flips them before anyone moves).",
    )

    def _setup(self) -> None:
        self.board = _board()
        self.n = self.board.n
        labels = self.board.labels
        self.action_space = ActionSpace(
            Segment("cell", (("cell", labels),), "{cell}"),
            Segment("tile", (("tile", tuple(str(t + 1) for t in range(NUM_TILES))),), "food tile {tile}"),
            Segment("done", (), "done"),
            Segment("pass", (), "pass"),
        )
        self.chance_space = ActionSpace(
            Segment("food", (("cell", labels), ("value", ("1", "2", "3"))), "food {value} on {cell}")
        )
        self.select0 = self.action_space.offset("tile")
        self.done_action = self.action_space.encode("done")
        self.pass_action = self.action_space.encode("pass")
        self.toward_exit = bool(self.params["must_move_toward_border_end"])
        self.pickup_then_move = bool(self.params["pickup_then_move"])
        self.one_per_ant = bool(self.params["one_tile_per_ant"])
        self.loops_exit = not self.params["loops_have_no_exit"]
        self.strict_pass = bool(self.params["pass_when_no_placement"])
        self.tie_break = str(self.params["tie_break"])
        # A safety cap, far above random play (a few hundred actions, see the rules document).
        self.max_length = 40 * self.n


class AntTrailsState(State):
    game: AntTrailsGame
    copied = (
        "ant",
        "deg",
        "parent",
        "size",
        "loop",
        "food_at",
        "tile_value",
        "tile_cell",
        "tile_holder",
        "values_left",
        "longest",
        "banked",
        "turn_cells",
        "last_cells",
        "_steps",
    )

    def __init__(self, game: AntTrailsGame, num_players: int) -> None:
        super().__init__(game, num_players)
        n = game.n
        self.ant = [-1] * n  # seat of the ant on each cell
        self.deg = [0] * n  # friendly neighbours of the ant on each cell (§5: at most 2)
        self.parent = list(range(n))  # union-find over ants: one tree per trail
        self.size = [1] * n
        self.loop = [False] * n  # per trail root: the trail is a loop (§5.4)
        self.food_at = [-1] * n  # the food tile lying on each (ant-free) cell
        self.tile_value: list[int] = []
        self.tile_cell: list[int] = []  # where each tile is; -1 once banked
        self.tile_holder: list[int] = []  # -1 lying on the board, else the seat carrying or banking it
        self.values_left = list(VALUE_COUNTS)
        self.chosen = 0  # §2: order positions of the tiles placed so far
        self.last_pos = -1
        self.longest = [0, 0]
        self.banked = [0, 0]
        self.can_place: list[set[int]] = [{i for i in range(n) if game.board.border[i]} for _ in range(2)]
        self.phase = SETUP
        self.to_move = 0
        self.placed = 0  # ants placed this turn (§4.1)
        self.acted = False  # a food move was made this turn
        self.used = 0  # bits: tiles that may not move again this turn (§6.5)
        self.selected = -1
        self.turn_cells: list[int] = []
        self.last_cells: list[int] = []
        self.passes = 0
        self.winner = -1  # -1 playing, 0/1 a seat, 2 draw
        self._food: dict[int, tuple[int, ...]] | None = None
        self._chance: list[tuple[int, float]] | None = None
        self._steps: dict[int, tuple[int, ...]] = {}

    # -- turn order and result (§3, §8, §9) --------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if phase == SETUP:
            return CHANCE
        return self.to_move

    def returns(self) -> list[float]:
        return win_loss(self.winner)

    def score(self, seat: int) -> int:
        """§9.1: ants in the longest trail plus banked food."""
        return self.longest[seat] + self.banked[seat]

    # -- trails (§5) --------------------------------------------------------
    def find(self, c: int) -> int:
        parent = self.parent
        root = c
        while parent[root] != root:
            root = parent[root]
        while parent[c] != root:
            parent[c], c = root, parent[c]
        return root

    def is_exit(self, c: int) -> bool:
        """§6.6: an ant on a border cell at the end of its trail (or anywhere on a loop)."""
        if not self.game.board.border[c]:
            return False
        return self.deg[c] <= 1 or (self.game.loops_exit and self.loop[self.find(c)])

    def placement_ok(self, p: int, c: int) -> bool:
        """§5: may seat ``p`` place an ant on cell ``c`` now?"""
        if self.ant[c] >= 0 or self.food_at[c] >= 0:
            return False
        ant, deg = self.ant, self.deg
        k = 0
        for j in self.game.board.neighbours[c]:
            if ant[j] == p:
                if deg[j] >= 2:  # §5.5: that ant would get a third friendly neighbour
                    return False
                k += 1
        if k == 0:
            return self.game.board.border[c]  # §5.1
        return k <= 2  # §5.2-§5.4

    def _refresh_place(self, p: int, c: int) -> None:
        if self.placement_ok(p, c):
            self.can_place[p].add(c)
        else:
            self.can_place[p].discard(c)

    # -- food (§6) ----------------------------------------------------------
    def steps_from(self, c: int) -> tuple[int, ...]:
        """Cells a carried tile on ant ``c`` may step to (§6.4), ignoring §6.3."""
        got = self._steps.get(c)
        if got is not None:
            return got
        p = self.ant[c]
        ant, nbrs = self.ant, self.game.board.neighbours
        friends = [j for j in nbrs[c] if ant[j] == p]
        if not self.game.toward_exit:
            out = tuple(friends)
        else:
            dist = []
            for b in friends:
                prev, cur, d = c, b, 1
                while not self.is_exit(cur):
                    nxt = [j for j in nbrs[cur] if ant[j] == p and j != prev]
                    if not nxt or nxt[0] == c:
                        d = INF
                        break
                    prev, cur = cur, nxt[0]
                    d += 1
                dist.append(d)
            best = min(dist, default=INF)
            out = tuple(b for b, d in zip(friends, dist, strict=True) if d == best < INF)
        self._steps[c] = out
        return out

    def food_choices(self) -> dict[int, tuple[int, ...]]:
        """For the player to move: ``{tile: destination cells}`` of every food tile they may pick up or move.

        Tiles that cannot be told apart (same value, same place, same state)
        are offered once, as the lowest-numbered of them.
        """
        if self._food is not None:
            return self._food
        game = self.game
        p = self.to_move
        ant, nbrs = self.ant, game.board.neighbours
        carrying = self._carrying() if game.one_per_ant else None
        out: dict[int, tuple[int, ...]] = {}
        seen: set[tuple[int, int, bool]] = set()
        used, holders, values = self.used, self.tile_holder, self.tile_value
        for t, c in enumerate(self.tile_cell):
            if c < 0 or (used >> t) & 1:
                continue
            holder = holders[t]
            if holder == -1:  # §6.1: lying next to a friendly ant
                dests = tuple([j for j in nbrs[c] if ant[j] == p])
            elif holder == p:  # §6.2: one step along the trail
                dests = self.steps_from(c)
            else:
                continue
            if carrying is not None:
                dests = tuple([j for j in dests if j not in carrying])
            if not dests:
                continue
            key = (c, values[t], holder == -1)
            if key in seen:
                continue
            seen.add(key)
            out[t] = dests
        self._food = out
        return out

    def _twin(self, t: int) -> int | None:
        """The offered tile that cannot be told apart from tile ``t`` (same value, place and state), if any."""
        key = (self.tile_cell[t], self.tile_value[t], self.tile_holder[t])
        for u in self.food_choices():
            if u != t and (self.tile_cell[u], self.tile_value[u], self.tile_holder[u]) == key:
                return u
        return None

    def _carrying(self) -> set[int]:
        return {c for t, c in enumerate(self.tile_cell) if c >= 0 and self.tile_holder[t] >= 0}

    def _bank(self, t: int) -> None:
        """§7: the tile leaves the board and scores for its carrier."""
        self.banked[self.tile_holder[t]] += self.tile_value[t]
        self.tile_cell[t] = -1

    # -- legal moves ---------------------------------------------------------
    def _legal_actions(self, player: int) -> list[int]:
        phase = self.phase
        if phase == PLACE:
            return sorted(self.can_place[self.to_move])
        if phase == DEST:
            return sorted(self.food_choices()[self.selected])
        if phase == PASS:
            return [self.game.pass_action]
        game = self.game
        out = [game.select0 + t for t in self.food_choices()]
        out.append(game.done_action if self.placed or self.acted else game.pass_action)
        return out

    def _is_legal(self, player: int, action: int) -> bool:
        phase = self.phase
        game = self.game
        if phase == PLACE:
            return action in self.can_place[self.to_move]
        if phase == DEST:
            return action in self.food_choices()[self.selected]
        if phase == PASS:
            return action == game.pass_action
        if phase == FOOD:
            if action == game.done_action:
                return bool(self.placed or self.acted)
            if action == game.pass_action:
                return not (self.placed or self.acted)
            return action - game.select0 in self.food_choices()
        return False

    def _explain(self, player: int, action: int) -> str | None:
        game = self.game
        labels = game.board.labels
        phase = self.phase
        p = self.to_move
        if action == game.pass_action:
            if phase == PLACE:
                return said("you can still place an ant, so you cannot pass", "4.1", "8.1")
            if phase == DEST:
                return said("choose where the selected food tile goes", "6")
            return said("a turn in which you placed an ant or moved food ends with 'done'", "4.3")
        if action == game.done_action:
            if phase == PLACE:
                return said(f"place your {'second' if self.placed else 'first'} ant first", "4.1")
            if phase == DEST:
                return said("choose where the selected food tile goes", "6")
            return said("you have done nothing this turn: pass instead", "8.1")
        if game.select0 <= action < game.done_action:
            t = action - game.select0
            if phase == PLACE:
                return said("ants are placed before food is picked up or moved", "4.2")
            if phase == DEST:
                return said("a food tile is already chosen: say where it goes", "6")
            if t >= len(self.tile_cell) or self.tile_cell[t] < 0:
                return said("that food tile is no longer on the board", "7")
            if self.tile_holder[t] not in (-1, p):
                return said("that food tile is carried by your opponent's ants", "6.2")
            if (self.used >> t) & 1:
                return said("that food tile has already been picked up or moved this turn", "6.5")
            twin = self._twin(t)
            if twin is not None:
                return said(
                    f"it is the same as the tile offered as '{self._action_to_string(p, game.select0 + twin)}'", "6"
                )
            return said("that food tile has nowhere to go now", "6")
        if not 0 <= action < game.n:
            return None
        where = labels[action]
        if phase == DEST:
            return said(f"the selected food tile cannot go to {where}", "6")
        if phase != PLACE:
            return said("no ant may be placed now", "4.1")
        if self.ant[action] >= 0 or self.food_at[action] >= 0:
            return said(f"{where} is not empty", "5")
        friends = [j for j in game.board.neighbours[action] if self.ant[j] == p]
        crowded = [labels[j] for j in friends if self.deg[j] >= 2]
        if crowded:
            return said(
                f"your ant on {', '.join(crowded)} would get a third friendly neighbour: trails never branch", "5.5"
            )
        if not friends:
            return said(f"{where} is not a border cell and touches none of your ants", "5.1", "5.2")
        return said(f"{where} touches {len(friends)} of your ants; at most two, both trail ends", "5.3", "5.5")

    # -- chance (§2) ---------------------------------------------------------
    def _chance_outcomes(self) -> list[tuple[int, float]]:
        got = self._chance
        if got is None:
            got = self._chance = self.game.board.draw(self.chosen, self.last_pos, tuple(self.values_left))
        return got

    # -- applying actions ----------------------------------------------------
    def _apply(self, action: int) -> None:
        phase = self.phase
        game = self.game
        self._food = None
        if phase == SETUP:
            self._chance = None
            self._place_tile(action)
        elif action == game.pass_action:
            self._end_turn(passed=True)
        elif action == game.done_action:
            self._end_turn(passed=False)
        elif phase == PLACE:
            self._place_ant(action)
            self.placed += 1
            self.turn_cells.append(action)
            if self.placed >= 2 or not self.can_place[self.to_move]:
                self._to_food()
        elif phase == DEST:
            self._move_food(self.selected, action)
            self.selected = -1
            self.acted = True
            self._to_food()
        else:  # FOOD: choose a tile
            self.selected = action - game.select0
            self.phase = DEST

    def _place_tile(self, action: int) -> None:
        """§2: chance puts the next food tile on the board."""
        board = self.game.board
        _, (c, v) = self.game.chance_space.decode(action)
        v += 1
        t = len(self.tile_value)
        self.tile_value.append(v)
        self.tile_cell.append(c)
        self.tile_holder.append(-1)
        self.values_left[v] -= 1
        self.food_at[c] = t
        pos = board.order[c]
        self.chosen |= 1 << pos
        self.last_pos = pos
        if len(self.tile_value) == NUM_TILES:
            self._start_turn()

    def _place_ant(self, c: int) -> None:
        """§5: a new ant joins, extends or closes trails; §6.6: closing a loop may bank food."""
        game = self.game
        p = self.to_move
        ant, deg, parent, size = self.ant, self.deg, self.parent, self.size
        ant[c] = p
        friends = [j for j in game.board.neighbours[c] if ant[j] == p]
        deg[c] = len(friends)
        root = c
        closed = False
        for j in friends:
            deg[j] += 1
            r = self.find(j)
            if r == root:
                closed = True  # §5.4: both neighbours are the ends of one trail
                continue
            if size[r] > size[root]:
                r, root = root, r
            parent[r] = root
            size[root] += size[r]
        if closed:
            self.loop[root] = True
        if size[root] > self.longest[p]:
            self.longest[p] = size[root]
        self.can_place[0].discard(c)
        self.can_place[1].discard(c)
        # §5 changes for p only next to the new ant and next to the ants it touches.
        nbrs = game.board.neighbours
        seen = {c}
        for k in (c, *friends):
            for x in nbrs[k]:
                if x not in seen and ant[x] < 0:
                    seen.add(x)
                    self._refresh_place(p, x)
        self._steps = {}
        if closed and game.loops_exit:
            for t, tc in enumerate(self.tile_cell):
                if tc >= 0 and self.tile_holder[t] == p and game.board.border[tc] and self.find(tc) == root:
                    self._bank(t)

    def _move_food(self, t: int, dest: int) -> None:
        """§6: pick a tile up onto a friendly ant, or move it one step; §7: bank it at an exit."""
        src = self.tile_cell[t]
        p = self.to_move
        if self.tile_holder[t] == -1:
            self.food_at[src] = -1
            self.tile_holder[t] = p
            self._refresh_place(0, src)
            self._refresh_place(1, src)
            if not self.game.pickup_then_move:
                self.used |= 1 << t
        else:
            self.used |= 1 << t
        self.tile_cell[t] = dest
        self.turn_cells.extend((src, dest))
        if self.is_exit(dest):
            self._bank(t)

    def _to_food(self) -> None:
        """§4.2: after the placements, food moves; the turn ends by itself when none is left."""
        if self.food_choices():
            self.phase = FOOD
        else:
            self._end_turn(passed=not (self.placed or self.acted))

    def _start_turn(self) -> None:
        """§4, §8.1: the player to move places ants, else moves food, else must pass."""
        self.placed = 0
        self.acted = False
        self.used = 0
        self.selected = -1
        self._food = None
        p = self.to_move
        if self.can_place[p]:
            self.phase = PLACE
        elif not self.game.strict_pass and self.food_choices():
            self.phase = FOOD
        else:
            self.phase = PASS

    def _end_turn(self, passed: bool) -> None:
        """§8.2: two passes in a row end the game."""
        self.passes = self.passes + 1 if passed else 0
        self.last_cells = self.turn_cells
        self.turn_cells = []
        if self.passes >= 2:
            self._finish()
            return
        self.to_move = 1 - self.to_move
        self._start_turn()

    def _finish(self) -> None:
        """§9: longest trail plus banked food; food still on the board scores nothing."""
        self.phase = OVER
        self.selected = -1
        a, b = self.score(0), self.score(1)
        if a == b and self.game.tie_break == "banked_food":
            a, b = self.banked
        self.winner = 0 if a > b else 1 if b > a else 2

    def _rebuild_tables(self) -> None:
        """Recompute every derived table from ``ant``, ``tile_cell`` and ``tile_holder``.

        Only for setting up positions by hand (tests, analysis): such a state has
        no history, so it cannot be replayed or saved. Call ``_start_turn()``
        afterwards to begin the turn of ``to_move``.
        """
        game = self.game
        n = game.n
        nbrs = game.board.neighbours
        ant = self.ant
        self.deg = [sum(1 for j in nbrs[c] if ant[j] == ant[c]) if ant[c] >= 0 else 0 for c in range(n)]
        self.parent = list(range(n))
        self.size = [1] * n
        self.loop = [False] * n
        for c in range(n):
            for j in nbrs[c]:
                if j > c and ant[c] >= 0 and ant[j] == ant[c]:
                    a, b = self.find(c), self.find(j)
                    if a != b:
                        self.parent[b] = a
                        self.size[a] += self.size[b]
        self.longest = [0, 0]
        for c in range(n):
            if ant[c] >= 0 and self.find(c) == c:
                members = [x for x in range(n) if ant[x] >= 0 and self.find(x) == c]
                self.loop[c] = all(self.deg[x] == 2 for x in members)
                self.longest[ant[c]] = max(self.longest[ant[c]], self.size[c])
        self.food_at = [-1] * n
        for t, c in enumerate(self.tile_cell):
            if c >= 0 and self.tile_holder[t] < 0:
                self.food_at[c] = t
        self.can_place = [{c for c in range(n) if self.placement_ok(p, c)} for p in (0, 1)]
        self._steps = {}
        self._food = None

    def clone(self) -> AntTrailsState:
        s = super().clone()
        s.can_place = [set(self.can_place[0]), set(self.can_place[1])]
        return s

    # -- the log in words ----------------------------------------------------
    def _seen(self, actor: int, entry: int | tuple[int | None, ...]) -> Seen | tuple[Seen | None, ...]:
        """The decision in words (§4-§8): an ant placed, a food tile chosen and carried (and banked), the turn's end,
        a pass; the notation (``pick 2 c4``, ``to e10``) stays the moves' labels."""
        game = self.game
        if actor == CHANCE or not isinstance(entry, int) or entry not in game.action_space:
            return super()._seen(actor, entry)
        labels = game.board.labels
        if entry == game.pass_action:
            return Seen("passes, placing no ant and moving no food")
        if entry == game.done_action:
            return Seen("ends the turn")
        segment, (index,) = game.action_space.decode(entry)
        if segment == "tile":
            t = index
            at = labels[self.tile_cell[t]]
            if self.tile_holder[t] == -1:
                return Seen(f"picks up the food worth {self.tile_value[t]} on {at}")
            return Seen(f"takes up the food worth {self.tile_value[t]} on {at} to move it on")
        if self.phase == DEST:
            t = self.selected
            after = self.clone()
            after.apply_action(entry)
            text = f"carries the food worth {self.tile_value[t]} from {labels[self.tile_cell[t]]} to {labels[index]}"
            return Seen(f"{text}, where it is banked" if after.tile_cell[t] < 0 else text)
        return Seen(f"places an ant on {labels[index]}")

    # -- notation and views --------------------------------------------------
    def _action_to_string(self, player: int, action: int) -> str:
        game = self.game
        space = game.chance_space if player == CHANCE else game.action_space
        if action not in space:
            return super()._action_to_string(player, action)
        segment, indices = space.decode(action)
        if segment == "tile":  # named by what it does with the tile, where the tile is on the board
            t = indices[0]
            if t < len(self.tile_cell) and self.tile_cell[t] >= 0:
                verb = "pick" if self.tile_holder[t] == -1 else "move"
                return f"{verb} {self.tile_value[t]} {game.board.labels[self.tile_cell[t]]}"
        elif segment == "cell" and self.phase == DEST:
            return f"to {space.label(action)}"
        return space.label(action)

    def observation(self, player: int | None = None) -> dict[str, Any]:
        labels = self.game.board.labels
        tiles = []
        for t, v in enumerate(self.tile_value):
            c = self.tile_cell[t]
            holder = self.tile_holder[t]
            tiles.append(
                {
                    "value": v,
                    "cell": labels[c] if c >= 0 else None,
                    "where": "banked" if c < 0 else "board" if holder < 0 else "carried",
                    "holder": holder if holder >= 0 else None,
                    "used": bool((self.used >> t) & 1),
                }
            )
        loops = sorted({labels[c] for c in range(self.game.n) if self.ant[c] >= 0 and self.loop[self.find(c)]})
        return {
            "ants": self.ant[:],
            "loops": loops,
            "tiles": tiles,
            "phase": self.phase,
            "to_move": self.current_player(),
            "placed": self.placed,
            "selected": self.selected if self.selected >= 0 else None,
            "this_turn": [labels[c] for c in self.turn_cells],
            "last_turn": [labels[c] for c in self.last_cells],
            "passes": self.passes,
            "longest": self.longest[:],
            "banked": self.banked[:],
            "scores": [self.score(0), self.score(1)],
            "winner": self.winner if self.winner in (0, 1) else None,
            "draw": self.winner == 2,
            "colours": list(COLOUR_NAMES),
        }

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """Ants from the viewer's side (a spectator's: seat 0's), each food tile in draw order (the order of the
        ``tile`` actions), the turn in progress and the scores."""
        me = 0 if player is None else player
        n = self.game.n
        t.bits("own_ants", [a == me for a in self.ant])
        t.bits("other_ants", [a == 1 - me for a in self.ant])
        t.bits("loop_ants", [a >= 0 and self.loop[self.find(c)] for c, a in enumerate(self.ant)])
        for k in range(NUM_TILES):
            drawn = k < len(self.tile_value)
            cell = self.tile_cell[k] if drawn else -1
            holder = self.tile_holder[k] if drawn else -1
            t.one_hot(f"tile_{k + 1}_value", self.tile_value[k] - 1 if drawn else None, 3)
            t.one_hot(f"tile_{k + 1}_cell", cell if cell >= 0 else None, n)
            where = None if not drawn else 2 if cell < 0 else 0 if holder < 0 else 1
            t.one_hot(f"tile_{k + 1}_where", where, 3)  # on the board, carried, banked
            t.one_hot(f"tile_{k + 1}_holder", (holder - me) % 2 if holder >= 0 else None, 2)
            t.bits(f"tile_{k + 1}_used", [bool((self.used >> k) & 1)])
        t.one_of("phase", self.phase, PHASES)
        t.one_hot("to_move", (self.to_move - me) % 2 if self.phase not in (SETUP, OVER) else None, 2)
        t.counts("ants_placed_this_turn", [self.placed], 2)
        t.one_hot("selected_tile", self.selected if self.selected >= 0 else None, NUM_TILES)
        turn = set(self.turn_cells)
        t.bits("this_turn", [c in turn for c in range(n)])
        t.counts("passes", [self.passes], 2)
        t.counts("longest", [self.longest[me], self.longest[1 - me]], n)
        total = sum(v * k for v, k in enumerate(VALUE_COUNTS))
        t.counts("banked", [self.banked[me], self.banked[1 - me]], total)
        t.one_hot("winner", (self.winner - me) % 2 if self.winner in (0, 1) else None, 2)
        t.bits("draw", [self.winner == 2])


def _prompt(game: AntTrailsGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    colours = obs["colours"]
    phase = obs["phase"]
    if phase == OVER:
        a, b = obs["scores"]
        if obs["draw"]:
            return f"Draw, {a} to {b} (longest trail + banked food)."
        w = obs["winner"]
        tie = " on banked food" if a == b else ""
        return f"{colours[w]} wins {max(a, b)} to {min(a, b)}{tie} (longest trail + banked food)."
    if phase == SETUP:
        return f"Setting up: {len(obs['tiles'])} of {NUM_TILES} food tiles placed at random."
    who = colours[obs["to_move"]]
    if not legal:
        return f"{who} to move."
    if phase == PLACE:
        nth = "second" if obs["placed"] else "first"
        return f"Place your {nth} ant: on a border cell, or next to the end of one of your trails."
    if phase == DEST:
        t = obs["tiles"][obs["selected"]]
        what = "Pick up" if t["where"] == "board" else "Move"
        return f"{what} the {t['value']}-point food on {t['cell']}: choose the ant it goes to."
    if phase == PASS:
        return "You can neither place an ant nor move food: pass."
    if any(a == game.pass_action for a, _ in legal):
        return "You cannot place an ant: pick up or move food, or pass."
    return "Pick up food next to your ants or move carried food one step, then press done."


@AntTrailsGame.draws_scene
def _scene(game: AntTrailsGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    board = game.board
    labels = board.labels
    colours = obs["colours"]
    s = sc.new_scene(_prompt(game, obs, legal), board.viewbox)
    s["cells"] = list(board.scene_cells)
    ants = obs["ants"]
    for i, p in enumerate(ants):
        if p < 0:
            continue
        s["pieces"].append(sc.piece(labels[i], p, "ant", colour=INK[p]))
        for j in board.neighbours[i]:
            if j > i and ants[j] == p:  # §5: friendly neighbours are linked along a trail
                s["edges"].append(
                    sc.edge(f"{labels[i]}-{labels[j]}", board.centres[i], board.centres[j], stroke=INK[p], kind="trail")
                )
    where: dict[int, str] = {}
    for t, tile in enumerate(obs["tiles"]):
        if tile["cell"] is None:
            continue
        where[t] = tile["cell"]
        kind = "food" if tile["where"] == "board" else "carried food"
        s["pieces"].append(sc.piece(tile["cell"], None, kind, label=str(tile["value"]), shape="square"))
    if obs["selected"] is not None:
        s["highlights"].append({"at": obs["tiles"][obs["selected"]]["cell"], "kind": "selected"})
    for at in obs["this_turn"] or obs["last_turn"]:
        s["highlights"].append({"at": at, "kind": "last"})
    for a, label in legal:
        if a < game.n:
            s["targets"].append({"at": labels[a], "action": a, "label": label})
        elif a < game.done_action and a - game.select0 in where:
            s["targets"].append({"at": where[a - game.select0], "action": a, "label": label})
    for seat in (0, 1):
        food = [str(t["value"]) for t in obs["tiles"] if t["where"] == "banked" and t["holder"] == seat]
        items = [sc.item(f"bank{seat}-{k}", v, "token") for k, v in enumerate(food)]
        s["zones"].append(sc.zone(f"bank{seat}", f"{colours[seat]}'s banked food", items, owner=seat))
    s["status"] = [
        f"{colours[k]}: trail {obs['longest'][k]} + food {obs['banked'][k]} = {obs['scores'][k]}" for k in (0, 1)
    ] + [f"food on the board: {sum(1 for t in obs['tiles'] if t['where'] != 'banked')}"]
    s["players"] = [sc.player(k, f"seat {k} ({colours[k]})", colour=INK[k]) for k in (0, 1)]
    return sc.finish_scene(s, legal)


AntTrailsGame.state_class = AntTrailsState
GAME_CLASS = AntTrailsGame
