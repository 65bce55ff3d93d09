"""Radius (Rey Alicea, 2020): pawns leap in straight lines and drop stones around where they land.

Rules: ``docs/rules/radius.md``; clause numbers are cited as ``§n``.

Seat 0 is Orange, seat 1 is Blue (§2). A turn is a sequence of small
decisions by the same seat (§5.1), each a legal action on its own:

* setup (§3): a cell index, where to put a pawn;
* a move (§4, §5): the cell of the pawn to move, then its destination cell
  (which fixes the direction and the distance ``n``), then one cell per stone,
  ``n`` times;
* a blocked player (§6): the single action ``pass``.

The action space (:class:`~boardlab.core.actions.ActionSpace`) is segment
``cell`` (actions ``0 .. cells-1``, labels ``a1``…, rows lettered from the
top), then segment ``pass`` (action ``cells``). The meaning of a cell action
depends on the phase, which the observation and the prompt spell out.

Speed: the board, its neighbour lists and the straight rays from every cell
(at most 6 cells long, since no destination has more than 6 neighbours, §4.4)
are precomputed per board size; the legal moves of the player to move are
computed once at the start of each turn and shared by every step of it. The
search agents' rollout, ``play_random``, plays whole turns in one loop over
neighbour counts of its own (same moves as the core's playout).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from operator import itemgetter
from typing import Any

from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.constants import TERMINAL
from ..core.game import Game, State, win_loss
from ..core.hidden import Seen
from ..core.options import Option
from ..core.tensor import Tensor
from ..core.wording import said
from ..geometry.board import group_sizes
from ..geometry.hexgrid import HEX_DIRECTIONS, HexBoard, bounding_box

COLOUR_NAMES = ("Orange", "Blue")

# Cell contents: 0 empty, 1 + seat for a stone, 3 + seat for a pawn (a cell holds one thing, §2).
EMPTY = 0
STONE = 1
PAWN = 3

# Phases of the game and of a turn.
PLACE = "place"  # §3.1: put a pawn on the board
PICK = "pawn"  # §4.1: choose the pawn to move
DEST = "destination"  # §4.1-§4.4: choose where it lands
STONES = "stones"  # §5: place the stones one by one
PASS = "pass"  # §6.1: blocked, must pass
OVER = "over"
PHASES = (PLACE, PICK, DEST, STONES, PASS, OVER)

#: ``Moves``: for each movable pawn's cell, ``{destination: distance}``.
Moves = dict[int, dict[int, int]]
#: ``rays[i][d]``: the cells on the straight line from cell ``i`` in direction ``d``, nearest first.
Rays = tuple[tuple[tuple[int, ...], ...], ...]


@cache
def _board(side: int) -> tuple[HexBoard, Rays, Rays]:
    """The board, its full rays (for explanations) and the rays cut at 6 cells (for move generation, §4.4)."""
    board = HexBoard.of_side(side)
    rays: list[tuple[tuple[int, ...], ...]] = []
    for q, r in board.cells:
        lines: list[tuple[int, ...]] = []
        for dq, dr in HEX_DIRECTIONS:
            line: list[int] = []
            k = 1
            while (q + k * dq, r + k * dr) in board.index:
                line.append(board.index[(q + k * dq, r + k * dr)])
                k += 1
            lines.append(tuple(line))
        rays.append(tuple(lines))
    full = tuple(rays)
    short = tuple(tuple(line[:6] for line in lines) for lines in full)
    return (board, full, short)


class RadiusGame(Game):
    id = "radius"
    title = "Radius"
    summary = "Leap a pawn n cells in a straight line, then drop n stones around it; the largest group wins."
    options = (
        Option("board_side", int, 5, (4, 5, 6, 7), said("Cells along each edge of the hexagonal board.", "1")),
        Option.choice(
            "first_mover",
            {"first_placer": "Whoever placed first", "second_placer": "Whoever placed second"},
            said("Who makes the first move after the pawns are placed.", "3.2"),
        ),
        Option.choice(
            "end_rule",
            {
                "both_blocked": "When neither player can move",
                "mover_blocked": "When the player to move is blocked",
            },
            said(
                "Game end: when neither player can move (a blocked player passes), or as soon as the player to "
                "move is blocked.",
                "6",
            ),
        ),
        Option.choice(
            "scoring",
            {"largest_group": "The largest group", "connected_stones": "Every stone touching its colour"},
            said("Score: the size of the largest group, or every stone that touches another of its colour.", "7"),
        ),
        Option.flag(
            "tie_break", False, said("Break equal scores by comparing the next-largest groups in turn.", "7.3")
        ),
    )
    mechanics = ("hex board", "movement", "placement", "captures", "connection")
    playing_time = "20 min"
    inventions = (
        "The board picture is missing: the hexagonal board of side 5 (61 cells) is our reconstruction; "
        "sides 4, 6 and 7 are options.",
        "Orange places the first pawn; pawns are placed alternately, and the first placer moves "
        "first (option first_mover).",
        "A player who cannot move passes, and the game ends when neither player can move (option end_rule).",
        "'Greater number of connected stones' is read as the size of the largest group; a tie is a draw "
        "(options scoring and tie_break).",
    )

    def _setup(self) -> None:
        board, self.full_rays, self.rays = _board(self.params["board_side"])
        self.board = board
        self.n = len(board)
        self.action_space = ActionSpace(
            Segment("cell", (("cell", board.labels),), "{cell}"), Segment("pass", (), "pass")
        )
        self.pass_action = self.action_space.encode("pass")
        self.neighbours = board.neighbours
        #: ``around[i](content)``: the contents of cell ``i``'s neighbours (every cell has three or more), for playouts.
        self.around = tuple(itemgetter(*nb) for nb in board.neighbours)
        polys = board.cell_polygons(1.0)
        self._scene_cells = board.scene_cells()
        self._viewbox = bounding_box([pt for p in polys for pt in p], margin=0.6)
        # §8: at most cells-4 moves of at most 8 decisions each, at most one pass per move, 4 placements.
        self.max_length = 9 * self.n


class RadiusState(State):
    game: RadiusGame
    copied = ("content", "reach", "turn_cells", "last_cells")

    def __init__(self, game: RadiusGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.content = [EMPTY] * game.n
        self.pawns: list[list[int]] = [[], []]
        self.phase = PLACE
        self.to_move = 0
        #: The mover's legal moves for this turn (§4); replaced, never changed in place.
        self.moves: Moves = {}
        self.origin = -1  # the chosen pawn's cell (§4.1)
        self.dest = -1  # where it landed (§4.3)
        self.reach: list[int] = []  # cells still open for a stone (§4.4, §5)
        self.left = 0  # stones still to place (§5)
        self.hit_empty = False  # a stone of this move went on an empty cell (§5)
        self.turn_cells: list[int] = []
        self.last_cells: list[int] = []
        self.passes = 0
        self.winner = -1  # -1 playing, 0/1 a seat, 2 draw

    # -- turn order and result (§3, §6, §7) -------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.to_move

    def returns(self) -> list[float]:
        return win_loss(self.winner)

    # -- legal moves (§3, §4, §5, §6) ------------------------------------
    def _moves_of(self, p: int) -> Moves:
        """Every legal (pawn, destination) of seat ``p``, with the distance (§4.1-§4.4)."""
        content = self.content
        nbrs = self.game.neighbours
        enemy = STONE + 1 - p
        out: Moves = {}
        for o in self.pawns[p]:
            dests: dict[int, int] = {}
            for ray in self.game.rays[o]:
                k = 0
                for t in ray:
                    c = content[t]
                    if c >= PAWN:  # §4.2: only pawns (and the edge) obstruct
                        break
                    k += 1
                    if c:  # §4.3: a stone may be passed over but not landed on
                        continue
                    e = x = 0
                    for j in nbrs[t]:
                        cj = content[j]
                        if cj == EMPTY or j == o:  # §4.4: the vacated origin counts as empty
                            e += 1
                        elif cj == enemy:
                            x += 1
                    if e and e + x >= k:
                        dests[t] = k
            if dests:
                out[o] = dests
        return out

    def _legal_actions(self, player: int) -> list[int]:
        phase = self.phase
        if phase == PICK:
            return sorted(self.moves)
        if phase == DEST:
            return sorted(self.moves[self.origin])
        if phase == STONES:
            if self.left == 1 and not self.hit_empty:
                content = self.content
                return sorted(c for c in self.reach if content[c] == EMPTY)
            return sorted(self.reach)
        if phase == PASS:
            return [self.game.pass_action]
        return [i for i, c in enumerate(self.content) if c == EMPTY]

    def _is_legal(self, player: int, action: int) -> bool:
        phase = self.phase
        if phase == PICK:
            return action in self.moves
        if phase == DEST:
            return action in self.moves[self.origin]
        if phase == STONES:
            return action in self.reach and (self.left > 1 or self.hit_empty or self.content[action] == EMPTY)
        if phase == PASS:
            return action == self.game.pass_action
        return 0 <= action < self.game.n and self.content[action] == EMPTY

    def _explain(self, player: int, action: int) -> str | None:
        game = self.game
        labels = game.board.labels
        phase = self.phase
        if action == game.pass_action:
            return said("you may pass only when none of your pawns can move", "6.1")
        if not 0 <= action < game.n:
            return None
        c = self.content[action]
        if phase == PLACE:
            return said("a pawn goes on an empty cell", "3.1")
        if phase == PASS:
            return said("none of your pawns can move, so you must pass", "6.1")
        if phase == PICK:
            if action not in self.pawns[player]:
                return said(f"{labels[action]} holds no pawn of yours; choose one of your pawns to move", "4.1")
            return said("that pawn has no legal move: every landing cell is refused", "4.2-4.4")
        if phase == DEST:
            return self._explain_destination(player, action)
        # STONES (§5)
        if action == self.dest or action not in game.neighbours[self.dest]:
            return said(f"stones go on cells next to the pawn at {labels[self.dest]}", "5")
        if c >= PAWN:
            return said("a cell with a pawn cannot take a stone", "4.4")
        if c == STONE + player:
            return said("that cell already holds your stone", "4.4", "5")
        return said("at least one stone of the move must go on an empty cell: this last one must", "5")

    def _explain_destination(self, player: int, t: int) -> str:
        game = self.game
        labels = game.board.labels
        o = self.origin
        for ray in game.full_rays[o]:
            if t not in ray:
                continue
            k = ray.index(t) + 1
            for j in ray[: k - 1]:
                if self.content[j] >= PAWN:
                    return said(f"the pawn at {labels[j]} is in the way", "4.2")
            if self.content[t] != EMPTY:
                return said(f"the pawn must land on an empty cell; {labels[t]} is taken", "4.3")
            enemy = STONE + 1 - player
            e = sum(1 for j in game.neighbours[t] if self.content[j] == EMPTY or j == o)
            x = sum(1 for j in game.neighbours[t] if self.content[j] == enemy)
            if e == 0:
                return said(f"no cell next to {labels[t]} is empty", "4.4")
            return said(
                f"after {k} step{'s' if k > 1 else ''} the pawn needs at least {k} neighbouring cells that are "
                f"empty or hold {COLOUR_NAMES[1 - player]} stones; {labels[t]} has {e + x}",
                "4.4",
            )
        return said(f"{labels[t]} is not in a straight line from the pawn at {labels[o]}", "4.1")

    # -- applying a decision ---------------------------------------------
    def _seen(self, actor: int, entry: int | tuple[int | None, ...]) -> Seen | tuple[Seen | None, ...]:
        """The decision in words (§3-§6): a pawn set up, picked or leaping, a stone placed (and whether it removes
        the opponent's stone there), a pass."""
        if not isinstance(entry, int):
            return super()._seen(actor, entry)
        labels = self.game.board.labels
        phase = self.phase
        if entry == self.game.pass_action:
            return Seen("has no legal move and passes")
        at = labels[entry]
        if phase == PICK:
            return Seen(f"picks the pawn on {at} to move")
        if phase == DEST:
            n = self.moves[self.origin][entry]
            return Seen(f"moves the pawn from {labels[self.origin]} to {at}: {n} stone{'s' if n > 1 else ''} to place")
        if phase == STONES:
            if self.content[entry] == STONE + 1 - self.to_move:
                return Seen(f"places a stone on {at}, removing the opponent's stone there")
            return Seen(f"places a stone on {at}")
        return Seen(f"puts a pawn on {at}")

    def _apply(self, action: int) -> None:
        phase = self.phase
        p = self.to_move
        content = self.content
        if phase == STONES:  # §5: one stone; an enemy stone there is removed first
            if content[action] == EMPTY:
                self.hit_empty = True
            content[action] = STONE + p
            self.reach.remove(action)
            self.turn_cells.append(action)
            self.left -= 1
            if self.left == 0:
                self._end_turn()
        elif phase == PICK:  # §4.1
            self.origin = action
            self.turn_cells = [action]
            self.phase = DEST
        elif phase == DEST:  # §4.1-§4.4: the pawn leaps; its reach is fixed now
            o = self.origin
            self.left = self.moves[o][action]
            content[o] = EMPTY
            content[action] = PAWN + p
            pawns = self.pawns[p]
            pawns[pawns.index(o)] = action
            self.dest = action
            enemy = STONE + 1 - p
            self.reach = [j for j in self.game.neighbours[action] if content[j] == EMPTY or content[j] == enemy]
            self.hit_empty = False
            self.turn_cells.append(action)
            self.phase = STONES
        elif phase == PASS:  # §6.1
            self.passes += 1
            self.last_cells = []
            self.to_move = 1 - p
            self.moves = self._moves_of(self.to_move)
            self.phase = PICK
        else:  # PLACE, §3.1
            content[action] = PAWN + p
            self.pawns[p].append(action)
            self.last_cells = [action]
            if len(self.pawns[1]) < 2:
                self.to_move = 1 - p
            else:  # §3.2: all four pawns are down
                second = self.game.params["first_mover"] == "second_placer"
                self._start_turn(1 if second else 0)

    def _end_turn(self) -> None:
        self.last_cells = self.turn_cells
        self.turn_cells = []
        self.origin = self.dest = -1
        self.reach = []
        self._start_turn(1 - self.to_move)

    def _start_turn(self, p: int) -> None:
        """Hand the turn to ``p``: a move, a forced pass, or the end of the game (§6)."""
        self.to_move = p
        moves = self._moves_of(p)
        if moves:
            self.moves = moves
            self.phase = PICK
            return
        self.moves = {}
        if self.game.params["end_rule"] == "both_blocked" and self._moves_of(1 - p):
            self.phase = PASS
            return
        self._finish()

    def _finish(self) -> None:
        """§7: compare scores; the higher wins, equal scores draw (or go to the tie-break, §7.3)."""
        self.phase = OVER
        g0, g1 = self.groups(0), self.groups(1)
        k0: list[int] = [self.score(0, g0)]
        k1: list[int] = [self.score(1, g1)]
        if self.game.params["tie_break"]:  # then the groups, largest first; having one beats lacking it
            k0 += g0
            k1 += g1
        self.winner = 0 if k0 > k1 else 1 if k1 > k0 else 2

    # -- scoring (§7) ------------------------------------------------------
    def groups(self, p: int) -> list[int]:
        """Sizes of seat ``p``'s connected groups of stones, largest first (§7)."""
        return group_sizes(self.game.neighbours, self.content, STONE + p)

    def score(self, p: int, sizes: list[int] | None = None) -> int:
        if sizes is None:
            sizes = self.groups(p)
        if self.game.params["scoring"] == "connected_stones":
            return sum(s for s in sizes if s >= 2)
        return sizes[0] if sizes else 0

    def play_random(self, rnd: Callable[[], float], plies: int) -> int:
        """The core's random playout (same draws, same moves), whole turns at a time over local tables.

        From the start of a move (§4.1) with room for a whole turn (at most 8
        decisions, §8) it plays pawn, landing cell and stones in one loop, and
        finds the next mover's moves with neighbour counts it keeps for the
        playout (empty cells and each colour's stones around every cell), so
        §4.4's test is two look-ups instead of a scan of the landing cell's
        neighbours. Setup, a turn already begun and the last few plies go the
        ordinary way.
        """
        played = 0
        while played < plies and self.phase != OVER:
            if self.phase == PICK and plies - played >= 8:
                played += self._random_turns(rnd, plies - played)
            else:
                played += super().play_random(rnd, 1)
        return played

    def _random_turns(self, rnd: Callable[[], float], plies: int) -> int:
        """Whole random turns from the start of a move, while at least 8 plies are left; the plies played."""
        game = self.game
        nbrs, rays, pass_action = game.neighbours, game.rays, game.pass_action
        both_blocked = game.params["end_rule"] == "both_blocked"
        content, pawns = self.content, self.pawns
        history, actors = self._history, self._actors
        around = [get(content) for get in game.around]  # per cell, its neighbours' contents
        empty = [r.count(EMPTY) for r in around]  # per cell: its empty neighbours
        stones = ([r.count(STONE) for r in around], [r.count(STONE + 1) for r in around])  # each seat's stones

        def dests_of(o: int, enemy: list[int], first: bool) -> dict[int, int]:
            """As ``_moves_of`` for the pawn on ``o`` (§4.1-§4.4; the vacated origin counts as empty).

            With ``first``, only whether it has a landing cell: at most one, found early.
            """
            dests: dict[int, int] = {}
            for ray in rays[o]:
                k = 0
                for t in ray:
                    c = content[t]
                    if c >= PAWN:
                        break
                    k += 1
                    if c:
                        continue
                    e = empty[t] + 1 if k == 1 else empty[t]
                    if e and e + enemy[t] >= k:
                        dests[t] = k
                        if first:
                            return dests
            return dests

        def movable(p: int) -> list[int]:
            """Seat ``p``'s pawns that can move, in cell order (the first decision of a move, §4.1)."""
            enemy = stones[1 - p]
            return sorted(o for o in pawns[p] if dests_of(o, enemy, True))

        p = self.to_move
        pick = sorted(self.moves)
        hit_empty, last_cells, passes = self.hit_empty, self.last_cells, self.passes
        played = 0
        over = False
        while plies - played >= 8:
            o = pick[int(rnd() * len(pick))]  # §4.1: the pawn
            dests = dests_of(o, stones[1 - p], False)
            legal = sorted(dests)  # §4.1-§4.4: where it lands
            t = legal[int(rnd() * len(legal))]
            left = dests[t]
            content[o] = EMPTY
            for j in nbrs[o]:
                empty[j] += 1
            content[t] = PAWN + p
            for j in nbrs[t]:
                empty[j] -= 1
            mine = pawns[p]
            mine[mine.index(o)] = t
            enemy_stone = STONE + 1 - p
            reach = sorted(j for j in nbrs[t] if content[j] == EMPTY or content[j] == enemy_stone)
            turn = [o, t]
            history += (o, t)
            actors += (p, p)
            own, theirs = stones[p], stones[1 - p]
            hit_empty = False
            while left:  # §5: the stones, the last on an empty cell if none was yet
                legal = reach if left > 1 or hit_empty else [c for c in reach if content[c] == EMPTY]
                a = legal[int(rnd() * len(legal))]
                if content[a] == EMPTY:
                    hit_empty = True
                    for j in nbrs[a]:
                        empty[j] -= 1
                        own[j] += 1
                else:
                    for j in nbrs[a]:
                        theirs[j] -= 1
                        own[j] += 1
                content[a] = STONE + p
                reach.remove(a)
                turn.append(a)
                history.append(a)
                actors.append(p)
                left -= 1
            played += len(turn)
            last_cells = turn
            p = 1 - p
            pick = movable(p)  # §6: the next mover moves, passes or the game ends
            if pick:
                continue
            if not (both_blocked and movable(1 - p)):
                over = True
                break
            if played == plies:  # no ply left for the pass: stop before it (§6.1)
                self.phase = PASS
                break
            history.append(pass_action)  # §6.1: a forced pass, drawn like any move
            actors.append(p)
            rnd()
            played += 1
            passes += 1
            last_cells = []
            p = 1 - p
            pick = movable(p)
        self.to_move, self.hit_empty, self.last_cells, self.passes = p, hit_empty, last_cells, passes
        self.origin = self.dest = -1
        self.left = 0
        self.reach = []
        self.turn_cells = []
        if over or self.phase == PASS:
            self.moves = {}
            if over:
                self._finish()
        else:
            enemy = stones[1 - p]
            self.moves = {o: dests_of(o, enemy, False) for o in pick}
        return played

    def clone(self) -> RadiusState:
        s = super().clone()
        s.pawns = [self.pawns[0][:], self.pawns[1][:]]
        return s

    # -- notation and views -----------------------------------------------
    def observation(self, player: int | None = None) -> dict[str, Any]:
        g = [self.groups(0), self.groups(1)]
        return {
            "board_side": self.game.params["board_side"],
            "scoring": self.game.params["scoring"],
            "stones": [c - STONE if STONE <= c < PAWN else -1 for c in self.content],
            "pawns": [sorted(self.pawns[0]), sorted(self.pawns[1])],
            "phase": self.phase,
            "to_move": self.current_player(),
            "origin": self.origin if self.phase in (DEST, STONES) else None,
            "destination": self.dest if self.phase == STONES else None,
            "stones_left": self.left if self.phase == STONES else 0,
            "must_hit_empty": self.phase == STONES and self.left == 1 and not self.hit_empty,
            "this_turn": self.turn_cells[:],
            "last_turn": self.last_cells[:],
            "passes": self.passes,
            "groups": g,
            "scores": [self.score(0, g[0]), self.score(1, g[1])],
            "winner": self.winner if self.winner in (0, 1) else None,
            "draw": self.winner == 2,
            "colours": list(COLOUR_NAMES),
        }

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """Stones and pawns from the viewer's side (a spectator's: seat 0's), then the turn in progress."""
        me = 0 if player is None else player
        n = self.game.n
        content = self.content
        t.bits("own_stones", [c == STONE + me for c in content])
        t.bits("other_stones", [c == STONE + 1 - me for c in content])
        t.bits("own_pawns", [c == PAWN + me for c in content])
        t.bits("other_pawns", [c == PAWN + 1 - me for c in content])
        t.one_of("phase", self.phase, PHASES)
        t.one_hot("to_move", None if self.phase == OVER else (self.to_move - me) % 2, 2)
        t.one_hot("origin", self.origin if self.phase in (DEST, STONES) else None, n)
        t.one_hot("destination", self.dest if self.phase == STONES else None, n)
        turn = set(self.turn_cells)
        t.bits("placed_this_turn", [i in turn for i in range(n)])
        t.counts("stones_left", [self.left if self.phase == STONES else 0], 6)
        t.bits("must_hit_empty", [self.phase == STONES and self.left == 1 and not self.hit_empty])
        # Each pass is followed by the other seat's move (§6), and each move puts a stone on an empty cell (§5), so
        # there are fewer passes than cells.
        t.counts("passes", [self.passes], n)
        g = [self.groups(me), self.groups(1 - me)]
        t.counts("scores", [self.score(me, g[0]), self.score(1 - me, g[1])], n)
        t.one_hot("winner", (self.winner - me) % 2 if self.winner in (0, 1) else None, 2)
        t.bits("draw", [self.winner == 2])


def _prompt(game: RadiusGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    labels = game.board.labels
    colours = obs["colours"]
    phase = obs["phase"]
    what = "largest group" if obs["scoring"] == "largest_group" else "connected stones"
    if phase == OVER:
        a, b = obs["scores"]
        if obs["draw"]:
            return f"Draw: {a} to {b} ({what})."
        w = obs["winner"]
        tie = " after the tie-break" if a == b else ""
        return f"{colours[w]} wins {max(a, b)} to {min(a, b)} ({what}){tie}."
    if not legal:
        return f"{colours[obs['to_move']]} to move."
    if phase == PLACE:
        placed = sum(len(x) for x in obs["pawns"])
        return f"Place a pawn on an empty cell ({placed} of 4 placed)."
    if phase == PICK:
        return "Choose one of your pawns to move."
    if phase == DEST:
        return f"Choose where the pawn on {labels[obs['origin']]} lands, in a straight line."
    if phase == STONES:
        k = obs["stones_left"]
        near = labels[obs["destination"]]
        if obs["must_hit_empty"]:
            return f"Place your last stone on an empty cell next to {near}: one stone must go on an empty cell."
        enemy = colours[1 - obs["to_move"]]
        return f"Place {k} more stone{'s' if k > 1 else ''} next to {near}, on empty cells or {enemy} stones."
    return "None of your pawns can move: you must pass."


@RadiusGame.draws_scene
def _scene(game: RadiusGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    labels = game.board.labels
    colours = obs["colours"]
    s = sc.new_scene(_prompt(game, obs, legal), game._viewbox)
    s["cells"] = [dict(c) for c in game._scene_cells]
    for i, o in enumerate(obs["stones"]):
        if o >= 0:
            s["pieces"].append(sc.piece(labels[i], o, "stone"))
    for seat in (0, 1):
        for i in obs["pawns"][seat]:
            s["pieces"].append(sc.piece(labels[i], seat, "pawn", label="P"))
    for i in obs["this_turn"]:
        s["highlights"].append({"at": labels[i], "kind": "selected"})
    for i in obs["last_turn"]:
        s["highlights"].append({"at": labels[i], "kind": "last"})
    for a, label in legal:
        if a < game.n:
            s["targets"].append({"at": labels[a], "action": a, "label": label})
    what = "largest group" if obs["scoring"] == "largest_group" else "connected stones"
    s["status"] = [f"{colours[k]}: {what} {obs['scores'][k]}, {sum(obs['groups'][k])} stones" for k in (0, 1)]
    if obs["phase"] == STONES:
        s["status"].append(f"stones to place: {obs['stones_left']}")
    s["players"] = [sc.player(k, f"seat {k} ({colours[k]})") for k in (0, 1)]
    return sc.finish_scene(s, legal)


RadiusGame.state_class = RadiusState
GAME_CLASS = RadiusGame
