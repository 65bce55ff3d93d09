"""Triangular lattices: the points, unit edges and unit triangles of a hexagon of side ``n``.

Points are axial hex coordinates within distance ``n`` of the centre (the
triangular lattice is the set of hex centres), so a hexagon of side ``n`` has
``3n²+3n+1`` points, ``9n²+3n`` edges and ``6n²`` triangles.

>>> t = TriLattice.hexagon(3)
>>> len(t.points), len(t.edges), len(t.triangles)
(37, 90, 54)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.scene import cell
from .hexgrid import HEX_DIRECTIONS, Hex, hex_to_pixel, hexhex_cells
from .scene import PerCell, no_value, per_cell


@dataclass(frozen=True)
class TriLattice:
    """Points, edges (point index pairs, sorted) and triangles (point index triples, sorted).

    ``edge_index[(i, j)]`` and ``triangle_edges[t]`` (its three edge indices) are precomputed,
    as are ``point_edges[i]`` (edges at a point) and ``edge_triangles[e]`` (1 or 2 triangles).
    """

    n: int
    points: tuple[Hex, ...]
    point_index: dict[Hex, int]
    edges: tuple[tuple[int, int], ...]
    edge_index: dict[tuple[int, int], int]
    triangles: tuple[tuple[int, int, int], ...]
    triangle_edges: tuple[tuple[int, int, int], ...]
    point_edges: tuple[tuple[int, ...], ...]
    edge_triangles: tuple[tuple[int, ...], ...]

    @classmethod
    def hexagon(cls, n: int) -> TriLattice:
        points = tuple(hexhex_cells(n + 1))
        index = {p: i for i, p in enumerate(points)}
        edges = sorted(
            {
                tuple(sorted((index[p], index[(p[0] + dq, p[1] + dr)])))
                for p in points
                for dq, dr in HEX_DIRECTIONS
                if (p[0] + dq, p[1] + dr) in index
            }
        )
        edge_index = {e: k for k, e in enumerate(edges)}
        tris = set()
        for p in points:
            for d in range(6):
                a = (p[0] + HEX_DIRECTIONS[d][0], p[1] + HEX_DIRECTIONS[d][1])
                b = (p[0] + HEX_DIRECTIONS[(d + 1) % 6][0], p[1] + HEX_DIRECTIONS[(d + 1) % 6][1])
                if a in index and b in index:
                    tris.add(tuple(sorted((index[p], index[a], index[b]))))
        triangles = tuple(sorted(tris))
        tri_edges = tuple(
            (edge_index[(t[0], t[1])], edge_index[(t[0], t[2])], edge_index[(t[1], t[2])]) for t in triangles
        )
        point_edges: list[list[int]] = [[] for _ in points]
        for k, (i, j) in enumerate(edges):
            point_edges[i].append(k)
            point_edges[j].append(k)
        edge_tris: list[list[int]] = [[] for _ in edges]
        for t, es in enumerate(tri_edges):
            for e in es:
                edge_tris[e].append(t)
        return cls(
            n,
            points,
            index,
            tuple(edges),  # type: ignore[arg-type]
            edge_index,  # type: ignore[arg-type]
            triangles,  # type: ignore[arg-type]
            tri_edges,
            tuple(tuple(x) for x in point_edges),
            tuple(tuple(x) for x in edge_tris),
        )

    def xy(self, i: int, size: float = 1.0) -> tuple[float, float]:
        """Drawing position of point ``i``."""
        return hex_to_pixel(self.points[i], size)

    def scene_cells(
        self,
        size: float = 1.0,
        *,
        label: PerCell = None,
        fill: PerCell = None,
        point_label: PerCell = None,
        point_radius: float | None = None,
    ) -> list[dict[str, Any]]:
        """The scene's cells: the triangles (ids ``label``, default ``t0``…), then, when
        ``point_radius`` is given, the points as small circles (ids ``point_label``, default ``p0``…).

        >>> cells = TriLattice.hexagon(1).scene_cells(point_radius=0.1)
        >>> len(cells), cells[0]["id"], cells[6]["kind"], cells[6]["id"]
        (13, 't0', 'point', 'p0')
        """
        xy = [self.xy(i, size) for i in range(len(self.points))]
        out = []
        for t, tri in enumerate(self.triangles):
            poly = [xy[i] for i in tri]
            centre = (sum(p[0] for p in poly) / 3.0, sum(p[1] for p in poly) / 3.0)
            name = per_cell(label, t, _named("t"))
            out.append(cell(str(name), centre, poly, label=name, fill=per_cell(fill, t, no_value)))
        if point_radius is not None:
            for v, p in enumerate(xy):
                name = per_cell(point_label, v, _named("p"))
                out.append(cell(str(name), p, None, label=name, radius=point_radius, kind="point"))
        return out


def _named(prefix: str) -> Callable[[int], str]:
    return lambda i: f"{prefix}{i}"
