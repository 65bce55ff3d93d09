"""Chevrons (Rey Alicea, 2020): two-edge chevrons on a hexagon of triangles; enclosed areas are claimed.

Rules: ``docs/rules/chevrons.md``; clause numbers are cited as ``§n``.

Seat 0 is Red, who opens (§3); seat 1 is Blue. The board is the triangular
lattice inside a regular hexagon of side ``board_side`` (§1), from
:class:`boardlab.geometry.TriLattice`: points, unit edges and unit triangles.

A placement is two decisions by the same seat (§4), two segments of the
:class:`~boardlab.core.actions.ActionSpace`: ``first`` edge ``e`` (action
``e``, ``0 .. E-1``) chooses the chevron's first edge, then ``second`` edge
``f`` (action ``E + f``) its second edge, which must meet ``e`` at 120°. The
actions of the decision being made are labelled by the edge they name
(``c3-d4``: its two end points); those of the other decision by the space's
own labels (``first edge c3-d4``, ``second edge c3-d4``), so no two actions
ever share a label.

State tables are incremental: ``free[e]`` (edge unoccupied and not inside an
enclosed area), ``mates[e]`` (how many free edges meet ``e`` at 120°) and the
sorted list ``starts`` of free edges with at least one such mate: exactly the
legal first edges. After a placement only the areas touching the two new edges
can change, so at most four flood fills run, each stopping as soon as it meets
an uncovered border edge (§5).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.constants import TERMINAL
from ..core.game import Game, State
from ..core.hidden import Seen
from ..core.options import Option
from ..core.tensor import Tensor
from ..core.wording import said
from ..geometry.hexgrid import HEX_DIRECTIONS, SQRT3, HexBoard, bounding_box
from ..geometry.lattice import TriLattice

COLOUR_NAMES = ("Red", "Blue")
_ROWS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _tint(colour: str, amount: float = 0.4) -> str:
    """``#rrggbb`` mixed with white: ``amount`` of the colour."""
    rgb = [int(colour[k : k + 2], 16) for k in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - amount * (255 - c)):02X}" for c in rgb)


#: A claimed area's fill: a light tint of its owner's colour, so the cube and the owner's edges stay visible on it.
AREA_FILLS = tuple(_tint(sc.INK_OF[name]) for name in COLOUR_NAMES)


class _Board:
    """Geometry tables for one board side, shared by every game and state of that size."""

    def __init__(self, side: int) -> None:
        lat = TriLattice.hexagon(side)
        self.side = side
        self.lattice = lat
        self.num_edges = len(lat.edges)
        self.num_triangles = len(lat.triangles)
        self.point_labels: tuple[str, ...] = HexBoard.of_side(side + 1).labels
        self.edge_labels = tuple(f"{self.point_labels[i]}-{self.point_labels[j]}" for i, j in lat.edges)
        self.edge_by_label = {lab: e for e, lab in enumerate(self.edge_labels)}
        for e, (i, j) in enumerate(lat.edges):
            self.edge_by_label[f"{self.point_labels[j]}-{self.point_labels[i]}"] = e
        #: ``border[e]``: the edge lies on the hexagon's outline (it has one triangle).
        self.border = tuple(len(ts) == 1 for ts in lat.edge_triangles)
        #: ``tri_links[t]``: ``(edge, triangle across it or -1 at the border)`` for its three edges.
        self.tri_links = tuple(
            tuple((e, next((u for u in lat.edge_triangles[e] if u != t), -1)) for e in lat.triangle_edges[t])
            for t in range(self.num_triangles)
        )
        # §2: two edges form a chevron when they share an end point at 120°, i.e. they leave it in
        # lattice directions d and d±2.
        mates: list[list[int]] = [[] for _ in lat.edges]
        corner: dict[tuple[int, int], int] = {}
        for v, (q, r) in enumerate(lat.points):
            out = {}
            for d, (dq, dr) in enumerate(HEX_DIRECTIONS):
                w = lat.point_index.get((q + dq, r + dr))
                if w is not None:
                    out[d] = lat.edge_index[(min(v, w), max(v, w))]
            for d, e in out.items():
                f = out.get((d + 2) % 6)
                if f is not None:
                    mates[e].append(f)
                    mates[f].append(e)
                    corner[(e, f)] = corner[(f, e)] = v
        self.mates = tuple(tuple(sorted(m)) for m in mates)
        self.corner = corner
        self.num_chevrons = len(corner) // 2
        # Drawing: unit edges, y grows downwards, rows of points are horizontal.
        size = 1.0 / SQRT3
        self.xy = tuple(lat.xy(i, size) for i in range(len(lat.points)))
        self.tri_polygons = tuple(tuple(self.xy[i] for i in t) for t in lat.triangles)
        self.tri_centres = tuple(
            (sum(p[0] for p in poly) / 3.0, sum(p[1] for p in poly) / 3.0) for poly in self.tri_polygons
        )
        # Triangle labels: rows lettered from the top in capitals, numbered from the left (``A1``…).
        rows: dict[float, list[int]] = {}
        for t, poly in enumerate(self.tri_polygons):
            rows.setdefault(round(min(pt[1] for pt in poly), 6), []).append(t)
        labels = [""] * self.num_triangles
        for k, y in enumerate(sorted(rows)):
            for m, t in enumerate(sorted(rows[y], key=lambda t: self.tri_centres[t][0])):
                labels[t] = f"{_ROWS[k]}{m + 1}"
        self.tri_labels = tuple(labels)
        order = sorted(range(self.num_triangles), key=lambda t: (labels[t][0], int(labels[t][1:])))
        #: ``tri_rank[t]``: the triangle's place in reading order (for listing an area's triangles).
        self.tri_rank = tuple(order.index(t) for t in range(self.num_triangles))
        self.viewbox = bounding_box(list(self.xy), margin=0.5)


#: The board tables of a side, built once.
_board = cache(_Board)


class ChevronsGame(Game):
    id = "chevrons"
    title = "Chevrons"
    summary = "Lay chevrons on a hexagon of triangles; every area you close in with more of your edges is yours."
    options = (
        Option(
            "board_side",
            int,
            4,
            (3, 4, 5),
            said("Unit edges along each side of the hexagonal board: 3, 4 or 5 (54, 96 or 150 triangles).", "1"),
        ),
        Option.flag(
            "count_internal_edges",
            False,
            said("Edges lying inside a newly enclosed area (both sides in it) also count toward its majority.", "6.1"),
        ),
    )
    mechanics = ("triangular lattice", "edge placement", "territory")
    playing_time = "15 min"
    inventions = (
        "The board size is not in the rules: a hexagon of side 4 (96 triangles) is our choice; sides 3 and 5 "
        "are options. The board is our reconstruction from the text ('a hexagonal board made up of triangles').",
        "The board's outline is not a wall: an area is enclosed only when chevrons cover every outline edge it "
        "touches (otherwise the empty board would already be enclosed).",
        "Majorities count unit edges on the area's boundary (a chevron gives two), not chevrons; edges lying "
        "inside the area do not count unless the option count_internal_edges is on.",
        "Areas enclosed with a tie are closed to play and score for nobody; a tied final score is a draw.",
        "A placement is entered as two decisions: the first edge, then the second edge at 120 degrees to it.",
    )

    def _setup(self) -> None:
        self.board = _board(self.params["board_side"])
        self.num_edges = self.board.num_edges
        b = self.board
        edges = (("edge", b.edge_labels),)
        self.action_space = ActionSpace(
            Segment("first", edges, "first edge {edge}"), Segment("second", edges, "second edge {edge}")
        )
        #: The first action of the second-edge decision: edge ``f`` is ``second0 + f``.
        self.second0 = self.action_space.offset("second")
        # Only the corners are labelled: moves name edges by their corners (c2-c3); triangles are never named in
        # play, and labels on both would crowd the board.
        cells = b.lattice.scene_cells(1.0 / SQRT3, label=b.tri_labels, point_label=b.point_labels, point_radius=0.07)
        self._scene_cells = [dict(c, label=None) if c["kind"] == "cell" else c for c in cells]
        # Every placement covers two edges, so a game has at most E actions (§4, §7).
        self.max_length = self.num_edges


class ChevronsState(State):
    game: ChevronsGame
    copied = ("owner", "free", "mates", "starts", "area", "areas", "score")

    def __init__(self, game: ChevronsGame, num_players: int) -> None:
        super().__init__(game, num_players)
        b = game.board
        ne = b.num_edges
        self.owner = [-1] * ne  # edge -> seat whose chevron covers it
        self.free = [True] * ne  # unoccupied and not inside an enclosed area (§4.2)
        self.mates = [len(m) for m in b.mates]  # free edges meeting it at 120°
        self.starts = [e for e in range(ne) if self.mates[e]]  # legal first edges, sorted
        self.area = [-1] * b.num_triangles  # triangle -> index into ``areas`` once enclosed
        #: Enclosed areas in the order claimed: ``(owner or -1, triangles, (red edges, blue edges))``.
        self.areas: list[tuple[int, tuple[int, ...], tuple[int, int]]] = []
        self.score = [0, 0]
        self.first = -1  # the first edge of the chevron being placed (§4.1)
        self.last: tuple[int, int] | None = None
        self.placements = 0
        self.to_move = 0
        self.over = False

    # -- turn order and result (§3, §7, §8) ---------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.over else self.to_move

    def returns(self) -> list[float]:
        if not self.over or self.score[0] == self.score[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.score[0] > self.score[1] else [-1.0, 1.0]

    # -- legal moves (§4) -------------------------------------------------
    def _legal_actions(self, player: int) -> list[int]:
        if self.first < 0:
            return self.starts[:]
        second0 = self.game.second0
        free = self.free
        return [second0 + f for f in self.game.board.mates[self.first] if free[f]]

    def _is_legal(self, player: int, action: int) -> bool:
        ne = self.game.num_edges
        if self.first < 0:
            return 0 <= action < ne and self.free[action] and self.mates[action] > 0
        f = action - self.game.second0
        return 0 <= f < ne and self.free[f] and f in self.game.board.mates[self.first]

    def _explain(self, player: int, action: int) -> str | None:
        b = self.game.board
        ne = self.game.num_edges
        e = action if self.first < 0 else action - self.game.second0
        if not 0 <= e < ne:
            if self.first < 0:
                return said("choose the chevron's first edge first", "4.1")
            return said(f"choose the second edge of the chevron started at {b.edge_labels[self.first]}", "4.1")
        if self.owner[e] >= 0:
            return said(f"that edge already holds {COLOUR_NAMES[self.owner[e]]}'s chevron", "4.2")
        if not self.free[e]:
            return said("that edge lies inside an enclosed area", "4.2")
        if self.first < 0:
            return said("no free edge meets it at 120°, so no chevron can use it", "4.1")
        return said(f"it does not meet {b.edge_labels[self.first]} at 120°", "2")

    def _seen(self, actor: int, entry: int | tuple[int | None, ...]) -> Seen | tuple[Seen | None, ...]:
        """The move in words: the chevron's two edges, and for one that encloses areas who claims each and how big
        it is (§4, §5, §6); the notation (``c2-c3``) stays the moves' labels."""
        seen = super()._seen(actor, entry)
        if not isinstance(entry, int) or not isinstance(seen, Seen):
            return seen
        if self.first < 0:
            return Seen(f"draws the first edge of a chevron, {seen.public}")
        seen = Seen(f"draws the second edge, {seen.public}")
        after = self.clone()
        after.apply_action(entry)
        claims = []
        for owner, triangles, _ in after.areas[len(self.areas) :]:
            size = f"{len(triangles)} {'triangle' if len(triangles) == 1 else 'triangles'}"
            claims.append(f"{COLOUR_NAMES[owner]} claims {size}" if owner >= 0 else f"{size} stay neutral (a tie)")
        return Seen(f"{seen.public}: {'; '.join(claims)}") if claims else seen

    # -- applying a move (§4, §5, §6) -------------------------------------
    def _apply(self, action: int) -> None:
        if self.first < 0:  # §4.1: the first edge; the same seat chooses the second next
            self.first = action
            return
        game = self.game
        b = game.board
        p = self.to_move
        e, f = self.first, action - game.second0
        self.first = -1
        self.owner[e] = p
        self.owner[f] = p
        self._close(e)
        self._close(f)
        self.last = (e, f)
        self.placements += 1
        # §5: only areas touching the new edges can have changed. A triangle reached from an open area is in it.
        seen: set[int] = set()
        open_: set[int] = set()
        for x in (e, f):
            for t in b.lattice.edge_triangles[x]:
                if t not in seen and t not in open_ and self.area[t] < 0:
                    comp = self._enclosed_area(t, open_)
                    if comp is not None:
                        seen.update(comp)
                        self._claim(comp)
        if not self.starts:  # §7: nobody can place a chevron any more
            self.over = True
        self.to_move = 1 - p

    def _close(self, e: int) -> None:
        """Edge ``e`` stops being available (covered, or inside an enclosed area)."""
        self.free[e] = False
        starts = self.starts
        mates = self.mates
        if mates[e]:
            starts.remove(e)
        for g in self.game.board.mates[e]:
            m = mates[g] - 1
            mates[g] = m
            if m == 0 and self.free[g]:
                starts.remove(g)

    def _enclosed_area(self, t: int, reached: set[int] | None = None) -> list[int] | None:
        """The area of triangle ``t`` if it is enclosed (§5), else ``None`` (stops at the first open border).

        When the area is open, the triangles visited (all in the same open area) are added to ``reached``.
        """
        links = self.game.board.tri_links
        owner = self.owner
        comp = [t]
        seen = {t}
        i = 0
        while i < len(comp):
            for e, u in links[comp[i]]:
                if owner[e] < 0:
                    if u < 0:
                        if reached is not None:
                            reached |= seen
                        return None  # an uncovered border edge: the area is open
                    if u not in seen:
                        seen.add(u)
                        comp.append(u)
            i += 1
        return comp

    def _claim(self, comp: list[int]) -> None:
        """§6: the colour with more edges on the area's boundary puts a cube in it."""
        links = self.game.board.tri_links
        owner = self.owner
        internal = self.game.params["count_internal_edges"]
        inside = set(comp)
        counts = [0, 0]
        for t in comp:
            for e, u in links[t]:
                o = owner[e]
                if o >= 0 and (u not in inside or (internal and t < u)):
                    counts[o] += 1
        winner = 0 if counts[0] > counts[1] else 1 if counts[1] > counts[0] else -1
        k = len(self.areas)
        self.areas.append((winner, tuple(sorted(comp)), (counts[0], counts[1])))
        if winner >= 0:
            self.score[winner] += len(comp)
        free = self.free
        for t in comp:
            self.area[t] = k
            for e, _ in links[t]:
                if free[e]:
                    self._close(e)

    # -- notation and views -----------------------------------------------
    def _action_to_string(self, player: int, action: int) -> str:
        space = self.game.action_space
        if action not in space:
            return super()._action_to_string(player, action)
        segment, (e,) = space.decode(action)
        if segment == ("first" if self.first < 0 else "second"):  # the decision being made: just the edge
            return self.game.board.edge_labels[e]
        return space.label(action)

    def _parse_action(self, player: int, text: str) -> int | None:
        """Edge labels are accepted with their end points in either order (``d4-c3`` for ``c3-d4``)."""
        e = self.game.board.edge_by_label.get("".join(str(text).split()).lower())
        if e is None:
            return None
        space = self.game.action_space
        return space.encode("second" if self.first >= 0 else "first", e)

    def observation(self, player: int | None = None) -> dict[str, Any]:
        b = self.game.board
        areas = []
        for owner, tris, counts in self.areas:
            areas.append(
                {
                    "owner": owner,
                    "triangles": [b.tri_labels[t] for t in sorted(tris, key=b.tri_rank.__getitem__)],
                    "cube": b.tri_labels[_cube_triangle(b, tris)],
                    "edges": list(counts),
                }
            )
        return {
            "board_side": b.side,
            "edges": self.owner[:],
            "areas": areas,
            "selected": b.edge_labels[self.first] if self.first >= 0 else None,
            "last": [b.edge_labels[x] for x in self.last] if self.last else None,
            "to_move": self.current_player(),
            "placements": self.placements,
            "score": self.score[:],
            "open_triangles": sum(1 for a in self.area if a < 0),
            "over": self.over,
        }

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """Edges and enclosed triangles from the viewer's side (a spectator's: seat 0's), the chevron begun, scores."""
        me = 0 if player is None else player
        b = self.game.board
        t.bits("own_edges", [o == me for o in self.owner])
        t.bits("other_edges", [o == 1 - me for o in self.owner])
        t.bits("closed_edges", [o < 0 and not f for o, f in zip(self.owner, self.free)])
        owners = [self.areas[a][0] if a >= 0 else None for a in self.area]
        t.bits("own_area", [o == me for o in owners])
        t.bits("other_area", [o == 1 - me for o in owners])
        t.bits("tied_area", [o == -1 for o in owners])
        t.one_hot("first_edge", self.first if self.first >= 0 else None, b.num_edges)
        t.one_hot("to_move", None if self.over else (self.to_move - me) % 2, 2)
        t.counts("placements", [self.placements], self.game.max_game_length())
        t.counts("score", [self.score[me], self.score[1 - me]], b.num_triangles)
        t.bits("over", [self.over])


def _cube_triangle(b: _Board, tris: tuple[int, ...]) -> int:
    """Where the claiming cube sits: the area's triangle nearest its centre (ties: lowest index)."""
    cx = sum(b.tri_centres[t][0] for t in tris) / len(tris)
    cy = sum(b.tri_centres[t][1] for t in tris) / len(tris)
    return min(tris, key=lambda t: ((b.tri_centres[t][0] - cx) ** 2 + (b.tri_centres[t][1] - cy) ** 2, t))


@ChevronsGame.draws_scene
def _scene(game: ChevronsGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    b = game.board
    space = game.action_space
    score = obs["score"]
    if obs["over"]:
        if score[0] == score[1]:
            result = f"Draw, {score[0]}-{score[1]}"
        else:
            w = 0 if score[0] > score[1] else 1
            result = f"{COLOUR_NAMES[w]} wins {score[w]}-{score[1 - w]}"
        prompt = f"{result}: no chevron can be placed."
    else:
        mover = COLOUR_NAMES[obs["to_move"]]
        if not legal:
            prompt = f"{mover} to move."
        elif obs["selected"] is None:
            prompt = f"{mover}: choose the first edge of your chevron."
        else:
            prompt = f"{mover}: choose the second edge, meeting {obs['selected']} at 120°."
    s = sc.new_scene(prompt, b.viewbox)
    tri_index = {lab: t for t, lab in enumerate(b.tri_labels)}
    fills: list[str | None] = [None] * b.num_triangles
    for area in obs["areas"]:
        fill = AREA_FILLS[area["owner"]] if area["owner"] >= 0 else "neutral"
        for lab in area["triangles"]:
            fills[tri_index[lab]] = fill
        label = "=" if area["owner"] < 0 else str(len(area["triangles"]))
        s["pieces"].append(
            sc.piece(area["cube"], area["owner"] if area["owner"] >= 0 else None, "cube", label=label, shape="square")
        )
    s["cells"] = [dict(c, fill=fills[t]) if t < b.num_triangles else c for t, c in enumerate(game._scene_cells)]
    lat = b.lattice
    for e, (i, j) in enumerate(lat.edges):
        o = obs["edges"][e]
        s["edges"].append(
            sc.edge(
                b.edge_labels[e], b.xy[i], b.xy[j], owner=o if o >= 0 else None, kind="chevron" if o >= 0 else "line"
            )
        )
    if obs["selected"] is not None:
        s["highlights"].append({"at": obs["selected"], "kind": "selected"})
    for lab in obs["last"] or ():
        s["highlights"].append({"at": lab, "kind": "last"})
    for a, label in legal:
        if a in space:
            _, (e,) = space.decode(a)
            s["targets"].append({"at": b.edge_labels[e], "action": a, "label": label})
    s["status"] = [f"{COLOUR_NAMES[k]}: {score[k]} triangles" for k in (0, 1)] + [
        f"open: {obs['open_triangles']} triangles",
        f"placements: {obs['placements']}",
    ]
    s["players"] = [sc.player(k, f"seat {k} ({COLOUR_NAMES[k]})", colour=sc.INK_OF[COLOUR_NAMES[k]]) for k in (0, 1)]
    return sc.finish_scene(s, legal)


ChevronsGame.state_class = ChevronsState
GAME_CLASS = ChevronsGame
