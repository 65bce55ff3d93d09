"""Shared board geometry: hex grids, square grids, triangular lattices and boards as data."""

from .board import BoardData, group_sizes
from .hexgrid import (
    HEX_DIRECTIONS,
    HexBoard,
    disc,
    hex_corners,
    hex_distance,
    hex_neighbours,
    hex_to_pixel,
    hexhex_cells,
    ring,
)
from .lattice import TriLattice
from .squaregrid import DIAGONAL, KING, ORTHOGONAL, SquareGrid

__all__ = [
    "DIAGONAL",
    "HEX_DIRECTIONS",
    "KING",
    "ORTHOGONAL",
    "BoardData",
    "HexBoard",
    "SquareGrid",
    "TriLattice",
    "disc",
    "group_sizes",
    "hex_corners",
    "hex_distance",
    "hex_neighbours",
    "hex_to_pixel",
    "hexhex_cells",
    "ring",
]
