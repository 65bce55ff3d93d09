"""Hex grids in axial coordinates ``(q, r)`` (third cube coordinate ``s = -q - r``).

>>> hex_distance((0, 0), (2, -1))
2
>>> len(hexhex_cells(6))
91
>>> len(ring((0, 0), 2))
12

Layout is "pointy-top": rows of constant ``r`` run left to right, row ``r``
shifted right by half a cell per step down.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..core.scene import cell
from .scene import PerCell, no_value, per_cell

Hex = tuple[int, int]

#: The six axial neighbour offsets, clockwise from east.
HEX_DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
SQRT3 = math.sqrt(3.0)


def hex_distance(a: Hex, b: Hex) -> int:
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_neighbours(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in HEX_DIRECTIONS]


def ring(center: Hex, radius: int) -> list[Hex]:
    """Cells at exactly ``radius`` from ``center`` (``[center]`` for radius 0), in walking order."""
    if radius == 0:
        return [center]
    q, r = center[0] + HEX_DIRECTIONS[4][0] * radius, center[1] + HEX_DIRECTIONS[4][1] * radius
    out = []
    for d in range(6):
        dq, dr = HEX_DIRECTIONS[d]
        for _ in range(radius):
            out.append((q, r))
            q, r = q + dq, r + dr
    return out


def disc(center: Hex, radius: int) -> list[Hex]:
    """Cells within ``radius`` of ``center`` (including it)."""
    return [c for k in range(radius + 1) for c in ring(center, k)]


def hexhex_cells(side: int) -> list[Hex]:
    """The cells of a hexagonal board with ``side`` cells along each edge, in reading order."""
    n = side - 1
    return sorted(
        ((q, r) for r in range(-n, n + 1) for q in range(-n, n + 1) if abs(q + r) <= n),
        key=lambda c: (c[1], c[0]),
    )


def hex_to_pixel(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """Centre of a pointy-top hex of circumradius ``size``; y grows downwards."""
    q, r = h
    return (size * SQRT3 * (q + r / 2.0), size * 1.5 * r)


def hex_corners(h: Hex, size: float = 1.0) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hex, clockwise from the top."""
    cx, cy = hex_to_pixel(h, size)
    return [
        (cx + size * math.cos(math.radians(a)), cy + size * math.sin(math.radians(a)))
        for a in (-90, -30, 30, 90, 150, 210)
    ]


@dataclass(frozen=True)
class HexBoard:
    """A hexhex board of ``side``: cells indexed ``0..n-1`` in reading order.

    Labels are ``a1``…: rows lettered from the top, cells numbered from the left.
    Precomputed tables: ``index``, ``neighbours`` (by index), ``labels``.
    """

    side: int
    cells: tuple[Hex, ...]
    index: dict[Hex, int]
    labels: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]

    @classmethod
    def of_side(cls, side: int) -> HexBoard:
        cells = tuple(hexhex_cells(side))
        index = {c: i for i, c in enumerate(cells)}
        n = side - 1
        labels = []
        for q, r in cells:
            row = r + n
            first_q = max(-n, -n - r)
            labels.append(f"{row_letters(row)}{q - first_q + 1}")
        neighbours = tuple(tuple(index[x] for x in hex_neighbours(c) if x in index) for c in cells)
        return cls(side, cells, index, tuple(labels), neighbours)

    def __len__(self) -> int:
        return len(self.cells)

    def distance(self, i: int, j: int) -> int:
        return hex_distance(self.cells[i], self.cells[j])

    def ring_indices(self, i: int, radius: int) -> tuple[int, ...]:
        """Board cells at exactly ``radius`` from cell ``i``."""
        idx = self.index
        return tuple(idx[c] for c in ring(self.cells[i], radius) if c in idx)

    def rings_table(self, max_radius: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """``table[i][k]``: cells at distance exactly ``k`` from cell ``i``, for ``k <= max_radius``."""
        return tuple(tuple(self.ring_indices(i, k) for k in range(max_radius + 1)) for i in range(len(self.cells)))

    def border(self) -> tuple[int, ...]:
        return tuple(i for i, nb in enumerate(self.neighbours) if len(nb) < 6)

    def cell_polygons(self, size: float = 1.0) -> list[list[tuple[float, float]]]:
        return [hex_corners(c, size) for c in self.cells]

    def scene_cells(self, size: float = 1.0, *, label: PerCell = None, fill: PerCell = None) -> list[dict[str, Any]]:
        """The scene's cells, hexes of circumradius ``size``, ids and default labels the coordinates.

        >>> c = HexBoard.of_side(2).scene_cells(fill=lambda i: "light" if i == 0 else None)[0]
        >>> c["id"], c["label"], c["fill"], len(c["polygon"])
        ('a1', 'a1', 'light', 6)
        """
        out = []
        for i, poly in enumerate(self.cell_polygons(size)):
            lab = self.labels[i]
            cx, cy = polygon_center(poly)
            out.append(
                cell(
                    lab,
                    (cx, cy),
                    poly,
                    label=per_cell(label, i, self.labels.__getitem__),
                    fill=per_cell(fill, i, no_value),
                )
            )
        return out


def row_letters(i: int) -> str:
    """Column or row ``i`` (from 0) as letters: a … z, then aa, ab, …

    >>> row_letters(0), row_letters(25), row_letters(26)
    ('a', 'z', 'aa')
    """
    letters = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        letters = chr(ord("a") + rem) + letters
    return letters


def polygon_center(poly: list[tuple[float, float]]) -> tuple[float, float]:
    """The mean of a polygon's corners (its centre, for the regular shapes boards use)."""
    return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))


def bounding_box(points: Iterable[tuple[float, float]], margin: float = 0.0) -> tuple[float, float, float, float]:
    """``(min_x, min_y, width, height)`` around ``points`` plus ``margin``."""
    xs, ys = zip(*points, strict=True)
    return (min(xs) - margin, min(ys) - margin, max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * margin)
