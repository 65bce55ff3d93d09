"""Blast Radius (Mark Steere, 2024): towers on a hexhex board, exclusion zones and blasts.

Rules: ``docs/rules/blast-radius.md``; clause numbers are cited as ``§n``.

Seat 0 is Red, who opens (§3); seat 1 is Blue. The action space has two
segments: ``cell``, a cell index in reading order (labels ``a1``…), then
``swap``, the one action ``len(board)``, legal only with the pie rule (§3.2).

Speed matters here (random playouts drive the designer's lab), so the state
keeps incremental tables: ``cover[i]`` counts the towers whose exclusion zone
holds cell ``i``, ``free`` is the sorted list of empty cells outside every zone
(§4a; cells leave it by bisection), and distance rings around every cell are
precomputed per board. It goes through the core's template like every game:
``_legal_actions``, a constant-time ``_is_legal`` (two table look-ups for a
placement) and one ``_apply``; only ``play_random``, the search agents'
rollout, is its own loop (in C where the compiled rollouts are built, ``boardlab.fast``).
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable
from functools import cache
from typing import Any

from .. import fast
from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.constants import TERMINAL
from ..core.game import Game, State, win_loss
from ..core.hidden import Seen
from ..core.options import Option
from ..core.tensor import Tensor
from ..core.wording import and_list, said
from ..geometry.hexgrid import HexBoard, bounding_box

COLOUR_NAMES = ("Red", "Blue")
Table = tuple[tuple[tuple[int, ...], ...], ...]
_RING_SETS: dict[int, tuple[tuple[frozenset[int], ...], ...]] = {}


@cache
def _board(side: int) -> tuple[HexBoard, Table, Table]:
    """The board, ``rings[i][k]`` (cells at distance k from i) and ``zones[i][k]`` (distance 1..k)."""
    board = HexBoard.of_side(side)
    rings = board.rings_table(2 * side)
    zones = tuple(tuple(tuple(c for r in rs[1 : k + 1] for c in r) for k in range(len(rs))) for rs in rings)
    _RING_SETS[side] = tuple(tuple(frozenset(r) for r in rs) for rs in rings)
    return (board, rings, zones)


class BlastRadiusGame(Game):
    id = "blast-radius"
    title = "Blast Radius"
    summary = "Place pieces to form the smallest tower possible; growing towers blast every tower in their zone."
    options = (
        Option("board_side", int, 6, (5, 6, 7), said("Cells along each edge of the hexagonal board.", "1")),
        Option.flag("pie", False, said("After Red's opening piece, Blue may swap sides.", "3.2")),
    )
    mechanics = ("hex board", "placement", "captures")
    playing_time = "10 min"
    inventions = (
        "The board size is not in the rules summary: side 6 (91 cells) follows the reference implementation; "
        "sides 5 and 7 are options.",
    )

    def _setup(self) -> None:
        self.board, self.rings, self.zones = _board(self.params["board_side"])
        self.ring_sets = _RING_SETS[self.params["board_side"]]
        self.pie = bool(self.params["pie"])
        self.n = len(self.board)
        self.action_space = ActionSpace(
            Segment("cell", (("cell", self.board.labels),), "{cell}"), Segment("swap", (), "swap")
        )
        self.swap_action = self.action_space.encode("swap")  # = n, after every cell (§3.2)
        polys = self.board.cell_polygons(1.0)
        self._scene_cells = self.board.scene_cells()
        self._viewbox = bounding_box([pt for p in polys for pt in p], margin=0.6)
        self.max_length = 20 * self.n


class BlastRadiusState(State):
    game: BlastRadiusGame
    copied = ("height", "owner", "cover", "free", "occupied", "towers")

    def __init__(self, game: BlastRadiusGame, num_players: int) -> None:
        super().__init__(game, num_players)
        n = game.n
        self.height = [0] * n
        self.owner = [-1] * n
        self.cover = [0] * n
        self.free = list(range(n))
        self.occupied: set[int] = set()
        self.towers = [0, 0]
        #: ``stacks[p][h]``: the cells of seat ``p``'s towers of height ``h`` (§4b looks up the smallest).
        self.stacks: list[list[set[int]]] = [[set()], [set()]]
        self.red = 0  # seat playing Red; 1 after a pie swap
        self.ply = 0
        self.to_move = 0
        self.winner = -1

    # -- turn order and result (§3, §6) -----------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.winner >= 0 else self.to_move

    def returns(self) -> list[float]:
        return win_loss(self.winner)

    # -- legal moves (§4) -------------------------------------------------
    def _smallest_height(self, player: int) -> int:
        for h, cells in enumerate(self.stacks[player]):
            if cells:
                return h
        return 0

    def _smallest_towers(self, player: int) -> list[int]:
        for cells in self.stacks[player]:
            if cells:
                return sorted(cells)
        return []

    def _legal_actions(self, player: int) -> list[int]:
        free = self.free
        if self.ply == 1 and self.game.pie:  # §3.2: Blue may swap instead of placing
            return [*free, self.game.swap_action]
        if free:  # §4a
            return free[:]
        return self._smallest_towers(player)  # §4b

    def _is_legal(self, player: int, action: int) -> bool:
        n = self.game.n
        if 0 <= action < n:
            if self.free:  # §4a: an empty hex outside every zone
                return not self.height[action] and not self.cover[action]
            for cells in self.stacks[player]:  # §4b: one of the player's smallest towers
                if cells:
                    return action in cells
            return False
        return action == n and self.ply == 1 and self.game.pie  # §3.2

    def _explain(self, player: int, action: int) -> str | None:
        board = self.game.board
        if action == self.game.swap_action:
            return said("swapping sides is allowed only as Blue's first move, with the pie rule", "3.2")
        if self.owner[action] not in (-1, player):
            return said("that hex holds your opponent's tower; pieces go only on empty hexes or your own towers", "4")
        if self.height[action] == 0 and self.cover[action]:
            sources = [
                board.labels[j]
                for k in range(1, 2 * board.side)
                for j in self.game.rings[action][k]
                if self.height[j] >= k
            ]
            return said(f"it lies in the exclusion zone of the tower at {', '.join(sources)}", "2")
        if self.free:
            return said("while an empty hex lies outside every exclusion zone you must place there", "4a")
        return said(f"you must grow one of your smallest towers (height {self._smallest_height(player)})", "4b")

    # -- applying a move (§4, §5, §6) -------------------------------------
    def _apply(self, action: int) -> None:
        game = self.game
        free, cover, height, owner = self.free, self.cover, self.height, self.owner
        p = self.to_move
        st = self.stacks[p]
        if free and action != game.swap_action:  # §4a: a new tower on a free hex
            height[action] = 1
            owner[action] = p
            if len(st) > 1:
                st[1].add(action)
            else:
                st.append({action})
            self.towers[p] += 1
            del free[bisect_left(free, action)]
            self.occupied.add(action)
            for j in game.rings[action][1]:  # its zone (distance 1) covers the hexes around it
                c = cover[j]
                cover[j] = c + 1
                if c == 0 and not height[j]:
                    del free[bisect_left(free, j)]
        elif free:  # §3.2: the swap, offered only as the second move (hexes are still free then)
            self._swap()
            return
        else:  # §4b: no hex is free, so one of the mover's smallest towers grows by one
            h = height[action] + 1
            height[action] = h
            if len(st) <= h:
                st.append(set())
            st[h].add(action)
            st[h - 1].discard(action)
            occupied, towers, stacks = self.occupied, self.towers, self.stacks
            for j in occupied & game.ring_sets[action][h]:  # §5: its zone now reaches distance h: blast
                k, o = height[j], owner[j]  # tower j comes off, and the zone it cast shrinks
                towers[o] -= 1
                stacks[o][k].discard(j)
                height[j] = 0
                owner[j] = -1
                occupied.discard(j)
                for x in game.zones[j][k]:
                    c = cover[x] - 1
                    cover[x] = c
                    if c == 0 and not height[x]:
                        insort(free, x)
                if cover[j] == 0:
                    insort(free, j)
            if free:
                for j in game.rings[action][h]:
                    c = cover[j]
                    cover[j] = c + 1
                    if c == 0 and not height[j]:
                        del free[bisect_left(free, j)]
            else:  # no hex is free, so none can stop being free
                for j in game.rings[action][h]:
                    cover[j] += 1
        ply = self.ply = self.ply + 1
        opponent = self.to_move = 1 - p
        if ply > 1 and not self.towers[opponent]:  # §6: the mover has blasted the last opposing tower
            self.winner = p

    def _seen(self, actor: int, entry: int | tuple[int | None, ...]) -> Seen | tuple[Seen | None, ...]:
        """The move in words: a tower built, or one that grows, how high, and which towers its blast removes (§3.2,
        §4, §5); the notation (``c5``, ``swap``) stays the moves' labels."""
        if not isinstance(entry, int):
            return super()._seen(actor, entry)
        labels = self.game.board.labels
        if entry == self.game.swap_action:
            return Seen("swaps sides, taking over the opening tower")
        if self.free:
            return Seen(f"builds a tower on {labels[entry]}")
        h = self.height[entry] + 1
        hit = sorted(labels[j] for j in self.occupied & self.game.ring_sets[entry][h])
        text = f"grows the tower on {labels[entry]} to height {h}"
        if hit:
            text += f" and blasts the {'tower' if len(hit) == 1 else 'towers'} on {and_list(hit)}"
        return Seen(text)

    def _swap(self) -> None:
        """§3.2: the opening piece changes hands; the first seat, now Blue, moves."""
        for i in range(self.game.n):
            if self.owner[i] == 0:
                self.owner[i] = 1
        self.towers = [self.towers[1], self.towers[0]]
        self.stacks = [self.stacks[1], self.stacks[0]]
        self.red = 1
        self.to_move = 0
        self.ply += 1

    def play_random(self, rnd: Callable[[], float], plies: int) -> int:
        """The core's random playout (same draws, same moves) as one loop over local tables.

        Search agents spend most of their time here; this runs about 1.3 times as
        fast as the checked ``legal_actions``/``apply_action`` round trip, by
        drawing from the free hexes or the smallest towers directly and keeping
        ``_apply``'s placement (§4a), growth (§4b), blasts (§5) and end test (§6)
        in one loop over local tables. With the compiled rollouts built
        (:mod:`boardlab.fast`), the same loop runs in C: same draws, same moves,
        same tables at the end.
        """
        compiled = fast.ACTIVE.get("blast-radius")
        if compiled is not None and self.game.n <= 128:
            return compiled.play_random(self, rnd, plies)
        played = 0
        while played < plies and self.winner < 0 and self.ply <= 1 and self.game.pie:
            played += super().play_random(rnd, 1)  # the pie offer (§3.2) goes the ordinary way
        if played >= plies or self.winner >= 0:
            return played
        game = self.game
        rings, zones, ring_sets = game.rings, game.zones, game.ring_sets
        height, owner, cover, free = self.height, self.owner, self.cover, self.free
        occupied, towers, stacks = self.occupied, self.towers, self.stacks
        history, actors = self._history, self._actors
        p, ply = self.to_move, self.ply
        while played < plies:
            st = stacks[p]
            if free:  # §4a: a new tower on a free hex
                k = int(rnd() * len(free))
                a = free[k]
                height[a] = 1
                owner[a] = p
                if len(st) > 1:
                    st[1].add(a)
                else:
                    st.append({a})
                towers[p] += 1
                del free[k]
                occupied.add(a)
                for j in rings[a][1]:
                    c = cover[j]
                    cover[j] = c + 1
                    if c == 0 and not height[j]:
                        del free[bisect_left(free, j)]
            else:  # §4b: grow one of the smallest towers
                for smallest in st:
                    if smallest:
                        break
                cells = sorted(smallest)
                a = cells[int(rnd() * len(cells))]
                h = height[a] + 1
                height[a] = h
                if len(st) <= h:
                    st.append(set())
                st[h].add(a)
                smallest.discard(a)
                for j in occupied & ring_sets[a][h]:  # §5: blast every tower at distance h
                    k, o = height[j], owner[j]
                    towers[o] -= 1
                    stacks[o][k].discard(j)
                    height[j] = 0
                    owner[j] = -1
                    occupied.discard(j)
                    for x in zones[j][k]:
                        c = cover[x] - 1
                        cover[x] = c
                        if c == 0 and not height[x]:
                            insort(free, x)
                    if cover[j] == 0:
                        insort(free, j)
                if free:
                    for j in rings[a][h]:
                        c = cover[j]
                        cover[j] = c + 1
                        if c == 0 and not height[j]:
                            del free[bisect_left(free, j)]
                else:
                    for j in rings[a][h]:
                        cover[j] += 1
            history.append(a)
            actors.append(p)
            played += 1
            ply += 1
            p = 1 - p
            if ply > 1 and towers[p] == 0:  # §6: the mover has blasted the last opposing tower
                self.winner = 1 - p
                break
        self.to_move, self.ply = p, ply
        return played

    def _rebuild_tables(self) -> None:
        """Recompute ``cover``, ``free``, ``stacks`` and ``towers`` from ``height``/``owner``.

        Only for setting up positions by hand (tests, analysis): such a state has
        no history, so it cannot be replayed or saved.
        """
        game = self.game
        self.cover = [0] * game.n
        self.stacks = [[set()], [set()]]
        self.towers = [0, 0]
        self.occupied = {i for i, h in enumerate(self.height) if h}
        for i, h in enumerate(self.height):
            if h:
                p = self.owner[i]
                self.towers[p] += 1
                while len(self.stacks[p]) <= h:
                    self.stacks[p].append(set())
                self.stacks[p][h].add(i)
                for x in game.zones[i][h]:
                    self.cover[x] += 1
        self.free = [i for i in range(game.n) if self.height[i] == 0 and self.cover[i] == 0]

    def clone(self) -> BlastRadiusState:
        s = super().clone()
        s.stacks = [[set(c) for c in st] for st in self.stacks]
        return s

    # -- notation and views -----------------------------------------------
    def colour_of(self, seat: int) -> str:
        return COLOUR_NAMES[0 if seat == self.red else 1]

    def observation(self, player: int | None = None) -> dict[str, Any]:
        last = None
        if self._history:
            a = self._history[-1]
            assert isinstance(a, int)
            last = self._action_to_string(self._actors[-1], a)
        return {
            "board_side": self.game.params["board_side"],
            "height": self.height[:],
            "owner": self.owner[:],
            "zone": [c > 0 for c in self.cover],
            "colours": [self.colour_of(0), self.colour_of(1)],
            "to_move": self.current_player(),
            "ply": self.ply,
            "last": last,
            "winner": self.winner,
            "pieces": [sum(h for h, o in zip(self.height, self.owner, strict=True) if o == s) for s in (0, 1)],
        }

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The board from the viewer's side (a spectator sees it from seat 0's), then turn, colours and the pie."""
        me = 0 if player is None else player
        t.bits("own_pieces", [o == me for o in self.owner])
        t.bits("other_pieces", [o == 1 - me for o in self.owner])
        # A tower taller than the board's diameter would have blasted every other tower (§5): the game is over.
        t.counts("height", self.height, 2 * (self.game.params["board_side"] - 1))
        t.bits("exclusion_zone", [c > 0 for c in self.cover])
        t.one_hot("to_move", None if self.winner >= 0 else (self.to_move - me) % 2, 2)
        t.one_hot("plays_red", 0 if self.red == me else 1, 2)
        t.bits("swap_available", [self.game.pie and self.ply == 1])
        t.one_hot("winner", None if self.winner < 0 else (self.winner - me) % 2, 2)
        t.counts("ply", [self.ply], self.game.max_game_length())


def _colour(name: str) -> str:
    """Red pieces are drawn red and Blue blue, whoever plays them (§3.2)."""
    return sc.INK_OF[name]


@BlastRadiusGame.draws_scene
def _scene(game: BlastRadiusGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    labels = game.board.labels
    colours = obs["colours"]
    if obs["winner"] >= 0:
        prompt = f"{colours[obs['winner']]} wins: only their pieces remain."
    elif legal:
        if any(a == game.swap_action for a, _ in legal):
            prompt = "Place a piece on an empty hex outside every exclusion zone, or swap sides."
        elif obs["height"][legal[0][0]] == 0:
            prompt = "Place a piece on an empty hex outside every exclusion zone."
        else:
            prompt = "No empty hex is free: grow one of your smallest towers."
    else:
        prompt = f"{colours[obs['to_move']]} to move."
    s = sc.new_scene(prompt, game._viewbox)
    s["cells"] = [
        dict(c, fill="zone" if obs["zone"][i] and not obs["height"][i] else None)
        for i, c in enumerate(game._scene_cells)
    ]
    for i, h in enumerate(obs["height"]):
        if h:
            o = obs["owner"][i]
            s["pieces"].append(
                sc.piece(labels[i], o, "tower", label=str(h) if h > 1 else None, height=h, colour=_colour(colours[o]))
            )
    if obs["last"] and obs["last"] != "swap":
        s["highlights"].append({"at": obs["last"], "kind": "last"})
    for a, label in legal:
        if a < game.n:
            s["targets"].append({"at": labels[a], "action": a, "label": label})
    counts = [f"{n} piece" if n == 1 else f"{n} pieces" for n in obs["pieces"]]
    # players count moves: the one being played now, or at the end how many were played (a swap is a move)
    made = obs["ply"]
    turn = f"{made} moves played" if obs["to_move"] == TERMINAL else f"move {made + 1}"
    s["status"] = [f"{colours[k]}: {counts[k]}" for k in (0, 1)] + [turn]
    s["players"] = [sc.player(k, f"seat {k} ({colours[k]})", colour=_colour(colours[k])) for k in (0, 1)]
    return sc.finish_scene(s, legal)


BlastRadiusGame.state_class = BlastRadiusState
GAME_CLASS = BlastRadiusGame
