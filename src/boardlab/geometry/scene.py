"""Boards drawing themselves: the per-cell choices behind every board's ``scene_cells``.

A board's ``scene_cells(label=..., fill=...)`` returns the scene's ``cells``
(see :mod:`boardlab.core.scene`), one per board cell in index order, so games
no longer convert their boards themselves. ``label`` and ``fill`` are each
either ``None`` (the board's default), a sequence indexed by cell, or a
function of the cell index.

>>> per_cell(None, 2, lambda i: f"c{i}")
'c2'
>>> per_cell(("x", "y", "z"), 1, lambda i: None)
'y'
>>> per_cell(lambda i: "dark" if i % 2 else None, 3, lambda i: None)
'dark'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

#: What a board's ``scene_cells`` takes for ``label`` and ``fill``.
PerCell = Sequence[str | None] | Callable[[int], str | None] | None


def per_cell(spec: PerCell, i: int, default: Callable[[int], str | None]) -> str | None:
    """Cell ``i``'s value from ``spec`` (``None``: ``default(i)``)."""
    if spec is None:
        return default(i)
    if callable(spec):
        return spec(i)
    return spec[i]


def no_value(i: int) -> None:
    return None
