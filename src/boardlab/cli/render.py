"""The terminal renderer for the CLI: :mod:`boardlab.terminal`, which the PettingZoo adapter shares."""

from __future__ import annotations

from ..terminal import (
    board_lines,
    board_text,
    item_text,
    moves_text,
    palette_colour,
    picture_text,
    piece_colour,
    piece_text,
    player_lines,
    render_scene,
    scene_text,
    seat_colour,
    seat_glyph,
    shade_legend,
    zone_lines,
)

__all__ = [
    "board_lines",
    "board_text",
    "item_text",
    "moves_text",
    "palette_colour",
    "picture_text",
    "piece_colour",
    "piece_text",
    "player_lines",
    "render_scene",
    "scene_text",
    "seat_colour",
    "seat_glyph",
    "shade_legend",
    "zone_lines",
]
