"""Square grids: cells ``(col, row)`` indexed row-major, chess-style labels, directions.

>>> g = SquareGrid(8, 8)
>>> g.label(g.index(0, 7))
'a1'
>>> g.ray(g.index(0, 0), (1, 1), 3) == g.index(3, 3)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.scene import cell
from .scene import PerCell, no_value, per_cell

ORTHOGONAL: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))  # N E S W (y down)
DIAGONAL: tuple[tuple[int, int], ...] = ((1, -1), (1, 1), (-1, 1), (-1, -1))  # NE SE SW NW
KING: tuple[tuple[int, int], ...] = ORTHOGONAL + DIAGONAL
DIRECTION_NAMES = {
    (0, -1): "N",
    (1, -1): "NE",
    (1, 0): "E",
    (1, 1): "SE",
    (0, 1): "S",
    (-1, 1): "SW",
    (-1, 0): "W",
    (-1, -1): "NW",
}


@dataclass(frozen=True)
class SquareGrid:
    """``cols`` × ``rows`` cells; ``(0, 0)`` is the top-left corner as drawn (y grows downwards).

    Labels follow chess: file letter from the left, rank number from the bottom.
    """

    cols: int
    rows: int

    def __len__(self) -> int:
        return self.cols * self.rows

    def index(self, col: int, row: int) -> int:
        return row * self.cols + col

    def coords(self, i: int) -> tuple[int, int]:
        return i % self.cols, i // self.cols

    def inside(self, col: int, row: int) -> bool:
        return 0 <= col < self.cols and 0 <= row < self.rows

    def label(self, i: int) -> str:
        c, r = self.coords(i)
        return f"{chr(ord('a') + c)}{self.rows - r}"

    def labels(self) -> tuple[str, ...]:
        return tuple(self.label(i) for i in range(len(self)))

    def parse(self, text: str) -> int:
        t = text.strip().lower()
        c = ord(t[0]) - ord("a")
        r = self.rows - int(t[1:])
        if not self.inside(c, r):
            raise ValueError(f"{text!r} is not a square of a {self.cols}x{self.rows} board")
        return self.index(c, r)

    def is_dark(self, i: int) -> bool:
        """Chess colouring: a1 is dark."""
        c, r = self.coords(i)
        return (c + (self.rows - 1 - r)) % 2 == 0

    def ray(self, i: int, direction: tuple[int, int], distance: int) -> int | None:
        """The cell ``distance`` steps from ``i`` along ``direction``, or ``None`` off the board."""
        c, r = self.coords(i)
        c += direction[0] * distance
        r += direction[1] * distance
        return self.index(c, r) if self.inside(c, r) else None

    def neighbours(self, i: int, directions: tuple[tuple[int, int], ...] = KING) -> list[int]:
        out = []
        for d in directions:
            j = self.ray(i, d, 1)
            if j is not None:
                out.append(j)
        return out

    def cell_polygon(self, i: int, size: float = 1.0) -> list[tuple[float, float]]:
        c, r = self.coords(i)
        x, y = c * size, r * size
        return [(x, y), (x + size, y), (x + size, y + size), (x, y + size)]

    def center(self, i: int, size: float = 1.0) -> tuple[float, float]:
        c, r = self.coords(i)
        return ((c + 0.5) * size, (r + 0.5) * size)

    def chess_fill(self, i: int) -> str:
        """``"dark"`` or ``"light"``, as a chessboard (a1 dark): a ``fill`` for :meth:`scene_cells`."""
        return "dark" if self.is_dark(i) else "light"

    def scene_cells(
        self, size: float = 1.0, *, label: PerCell = None, fill: PerCell = None, ids: PerCell = None
    ) -> list[dict[str, Any]]:
        """The scene's cells, squares of ``size``, ids (unless ``ids`` names them) and default labels the chess
        coordinates; cell ``i`` is drawn at column ``i % cols`` of row ``i // cols`` from the top.

        >>> g = SquareGrid(2, 2)
        >>> [(c["id"], c["fill"]) for c in g.scene_cells(fill=g.chess_fill)]
        [('a2', 'light'), ('b2', 'dark'), ('a1', 'dark'), ('b1', 'light')]
        >>> [(c["id"], c["label"]) for c in g.scene_cells(ids=["p0", "p1", "p2", "p3"], label="wxyz")][:2]
        [('p0', 'w'), ('p1', 'x')]
        """
        return [
            cell(
                per_cell(ids, i, self.label) or self.label(i),
                self.center(i, size),
                self.cell_polygon(i, size),
                label=per_cell(label, i, self.label),
                fill=per_cell(fill, i, no_value),
            )
            for i in range(len(self))
        ]
