"""A scene (see :mod:`boardlab.core.scene`) drawn as an RGB image, for the research adapters' ``rgb_array`` render.

The drawing follows the browser's (``web/js/render.js``): its palette, cells
and points, edges (heavy in the owner's colour when owned), highlights as
outlines, pieces as shapes in their seat's colour with their label (face down:
the owner's colour and ``?``), stacks offset. Above the board is the prompt;
below it the zones (one row of items each: cards with value and suit, dice,
tokens; face-down items show their back colour), the players and the status
lines. A scene without a board gives the whole picture to the zones.

The image always has the same size (:data:`SIZE`, or the ``size`` given), so
the frames of an episode make a video; text that does not fit is cut.
Drawing uses matplotlib's Agg canvas directly: no window, no global state.

>>> from boardlab.core import scene as sc
>>> s = sc.new_scene("Your move.", (0, 0, 2, 1))
>>> s["cells"] = [sc.cell("a1", (0.5, 0.5), polygon=[(0, 0), (1, 0), (1, 1), (0, 1)])]
>>> s["pieces"] = [sc.piece("a1", 0, label="2")]
>>> image = scene_image(s, size=(200, 160))
>>> image.shape, image.dtype.name
((160, 200, 3), 'uint8')
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib import patheffects
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyBboxPatch, Polygon, Rectangle

from ..core.scene import SEAT_COLOURS

#: The image's width and height in pixels.
SIZE = (640, 640)
#: The browser's palette names (``web/js/render.js``).
PALETTE = {
    "light": "#f4efe3",
    "dark": "#c9b99a",
    "blocked": "#8f8a80",
    "neutral": "#e8e2d4",
    "zone": "#d9d3c6",
    "warning": "#f3d6d6",
    "empty": "#f1ece1",
    "water": "#cfe3f1",
    "white": "#ffffff",
    "black": "#2b2823",
    "grey": "#a8a39a",
    "gray": "#a8a39a",
}
REGIONS = ("#cfe3f1", "#f6dcc4", "#d3ecd9", "#eadcef", "#f4efc1", "#dde3e8", "#f3d6d6", "#e2e8cf")
BACKGROUND = "#fbf8f1"
INK = "#2b2823"
CELL_FILL = "#efe9dc"
CELL_STROKE = "#a39a87"
POINT_FILL = "#ddd5c4"
EDGE_STROKE = "#b3aa98"
NEUTRAL = "#5b5750"
NEUTRAL_BACK = "#6d675d"
#: Highlight outlines: colour, an underlay colour (or None) and the width, in units of the cell spacing.
HIGHLIGHTS = {
    "last": ("#f0e442", "#1f2328", 0.13),
    "selected": ("#1f2328", None, 0.09),
    "warning": ("#8a1c1c", "#ffffff", 0.1),
    "hint": ("#5f6368", None, 0.06),
}
#: Suits drawn as their symbol, and red suits in red.
SUITS = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠"}
RED_SUITS = {"hearts", "diamonds", "♥", "♦"}


def colour(name: Any, fallback: str) -> str:
    """A ``#rrggbb`` colour for a scene palette name (``seat1``, ``light``, ``region3``, ``#123456``...)."""
    if not isinstance(name, str) or not name:
        return fallback
    if re.fullmatch(r"#[0-9a-fA-F]{3,8}", name):
        return name
    m = re.fullmatch(r"seat(\d+)", name)
    if m:
        return SEAT_COLOURS[int(m.group(1)) % len(SEAT_COLOURS)]
    m = re.fullmatch(r"region(\d+)", name)
    if m:
        return REGIONS[int(m.group(1)) % len(REGIONS)]
    return PALETTE.get(name, fallback)


def seat_colours(scene: dict[str, Any]) -> list[str]:
    """Each seat's colour: its player's colour in the scene, else the default seat colours."""
    out = list(SEAT_COLOURS)
    for k, p in enumerate(scene.get("players") or []):
        seat = p.get("seat", k)
        if isinstance(seat, int) and seat >= 0:
            while len(out) <= seat:
                out.append(SEAT_COLOURS[len(out) % len(SEAT_COLOURS)])
            out[seat] = colour(p.get("colour"), SEAT_COLOURS[seat % len(SEAT_COLOURS)])
    return out


def unit_of(scene: dict[str, Any]) -> float:
    """The typical spacing of neighbouring places (sizes pieces, labels and strokes), as the browser finds it."""
    centres = [c["center"] for c in scene.get("cells") or []]
    best = math.inf
    for i, a in enumerate(centres[:160]):
        for j, b in enumerate(centres):
            d = math.hypot(a[0] - b[0], a[1] - b[1])
            if i != j and 1e-9 < d < best:
                best = d
    if math.isinf(best):
        vb = scene.get("viewbox") or [0, 0, 10, 10]
        best = min(vb[2], vb[3]) / 8 or 1.0
    return best


def scene_image(scene: dict[str, Any], size: Sequence[int] = SIZE) -> np.ndarray:
    """The scene drawn as an ``(height, width, 3)`` ``uint8`` RGB image of ``size`` = ``(width, height)`` pixels."""
    width, height = int(size[0]), int(size[1])
    dpi = 100
    fig = Figure(figsize=(width / dpi, height / dpi), dpi=dpi, facecolor=BACKGROUND)
    canvas = FigureCanvasAgg(fig)
    seats = seat_colours(scene)
    board = bool(scene.get("cells") or scene.get("edges"))
    text_h = 0.3 if board else 0.9
    prompt = fig.add_axes((0.0, 0.93, 1.0, 0.07))
    _text_axes(prompt)
    prompt.text(0.02, 0.5, _clip(scene.get("prompt") or "", width // 8), va="center", fontsize=11, color=INK)
    if board:
        _draw_board(fig.add_axes((0.02, 0.02 + text_h, 0.96, 0.9 - text_h)), scene, seats, height * (0.9 - text_h))
    panel = fig.add_axes((0.02, 0.01, 0.96, text_h))
    _text_axes(panel)
    _draw_panel(panel, scene, seats, width, height * text_h)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[:, :, :3].copy()


def _text_axes(ax: Any) -> None:
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.axis("off")


def _clip(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[: max(1, chars - 1)] + "…"


def _owner_colour(owner: Any, seats: list[str]) -> str:
    if not isinstance(owner, int) or owner < 0:
        return NEUTRAL
    return seats[owner] if owner < len(seats) else SEAT_COLOURS[owner % len(SEAT_COLOURS)]


def _draw_board(ax: Any, scene: dict[str, Any], seats: list[str], height_px: float) -> None:
    """Cells, edges, highlights and pieces in the viewbox's units (y down)."""
    x0, y0, w, h = (float(v) for v in scene.get("viewbox") or (0, 0, 1, 1))
    ax.set_xlim(x0, x0 + w)
    ax.set_ylim(y0 + h, y0)
    ax.set_aspect("equal", adjustable="box")
    ax.axis("off")
    u = unit_of(scene)
    # points per viewbox unit: the axes keep the drawing's proportions inside their box
    box_w, box_h = ax.get_position().width * ax.figure.get_figwidth(), height_px / ax.figure.dpi
    per_unit = 72 * min(box_w / w, box_h / h) if w and h else 72.0
    places: dict[str, tuple[float, float, dict[str, Any] | None, dict[str, Any] | None]] = {}
    for c in scene.get("cells") or []:
        cx, cy = c["center"]
        places[c["id"]] = (cx, cy, c, None)
        if c.get("polygon"):
            ax.add_patch(
                Polygon(
                    c["polygon"],
                    closed=True,
                    fc=colour(c.get("fill"), CELL_FILL),
                    ec=CELL_STROKE,
                    lw=u * 0.03 * per_unit,
                )
            )
            if c.get("label"):
                ax.text(
                    cx,
                    cy + u * 0.3,
                    c["label"],
                    ha="center",
                    va="center",
                    fontsize=max(3.0, u * 0.2 * per_unit),
                    color="#8a8170",
                )
        else:
            r = c.get("radius") or u * 0.12
            ax.add_patch(
                Circle(
                    (cx, cy), r, fc=colour(c.get("fill"), POINT_FILL), ec="#8a8170", lw=u * 0.03 * per_unit, zorder=3
                )
            )
    for e in scene.get("edges") or []:
        (ax_, ay), (bx, by) = e["from"], e["to"]
        places[e["id"]] = ((ax_ + bx) / 2, (ay + by) / 2, None, e)
        owned = e.get("owner") is not None
        stroke = colour(e.get("stroke"), _owner_colour(e.get("owner"), seats) if owned else EDGE_STROKE)
        lw = u * (0.13 if owned else 0.025 if e.get("kind") == "grid" else 0.045) * per_unit
        ax.plot([ax_, bx], [ay, by], color=stroke, lw=lw, solid_capstyle="round", zorder=2)
    for hl in scene.get("highlights") or []:
        place = places.get(hl["at"])
        if place is not None:
            _outline(ax, place, u, per_unit, *HIGHLIGHTS.get(hl.get("kind"), HIGHLIGHTS["hint"]))
    at_place: dict[str, list[dict[str, Any]]] = {}
    for p in scene.get("pieces") or []:
        if p.get("at") in places:
            at_place.setdefault(p["at"], []).append(p)
    for at, pieces in at_place.items():
        cx, cy, c, e = places[at]
        base = (
            u * 0.22
            if e is not None
            else u * 0.34
            if c and c.get("polygon")
            else max(u * 0.3, (c or {}).get("radius") or 0)
        )
        if len(pieces) == 1:
            _piece(ax, pieces[0], cx, cy, base, u, per_unit, seats)
            continue
        r = base / math.sqrt(len(pieces)) * 1.05
        for k, p in enumerate(pieces):
            a = 2 * math.pi * k / len(pieces) - math.pi / 2
            _piece(ax, p, cx + math.cos(a) * base * 0.55, cy + math.sin(a) * base * 0.55, r, u, per_unit, seats)


def _outline(ax: Any, place: tuple, u: float, per_unit: float, stroke: str, under: str | None, width: float) -> None:
    cx, cy, c, e = place
    for ink, w, z in ((under, width * 1.6, 4), (stroke, width, 5)):
        if ink is None:
            continue
        lw = w * u * per_unit
        if c is not None and c.get("polygon"):
            ax.add_patch(Polygon(c["polygon"], closed=True, fill=False, ec=ink, lw=lw, joinstyle="round", zorder=z))
        elif c is not None:
            ax.add_patch(Circle((cx, cy), (c.get("radius") or u * 0.2) + u * 0.12, fill=False, ec=ink, lw=lw, zorder=z))
        elif e is not None:
            (fx, fy), (tx, ty) = e["from"], e["to"]
            ax.plot([fx, tx], [fy, ty], color=ink, lw=lw * 1.6, solid_capstyle="round", alpha=0.9, zorder=z)


def _shape(kind: str, cx: float, cy: float, r: float, **style: Any) -> Any:
    if kind in ("square", "cube"):
        return Rectangle((cx - r * 0.85, cy - r * 0.85), r * 1.7, r * 1.7, **style)
    if kind == "triangle":
        return Polygon(
            [(cx, cy - r), (cx + r * 0.95, cy + r * 0.7), (cx - r * 0.95, cy + r * 0.7)], closed=True, **style
        )
    if kind == "diamond":
        return Polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], closed=True, **style)
    if kind in ("hex", "hexagon"):
        corners = [
            (cx + r * math.cos(math.pi / 3 * k + math.pi / 6), cy + r * math.sin(math.pi / 3 * k + math.pi / 6))
            for k in range(6)
        ]
        return Polygon(corners, closed=True, **style)
    return Circle((cx, cy), r, **style)


def _piece(
    ax: Any, p: dict[str, Any], cx: float, cy: float, r: float, u: float, per_unit: float, seats: list[str]
) -> None:
    """One piece: its shape in its colour (face down: the owner's, marked), a stack's lower layers, facing, label."""
    face_down = bool(p.get("face_down"))
    owner = p.get("owner")
    fill = (
        (_owner_colour(owner, seats) if owner is not None else NEUTRAL_BACK)
        if face_down
        else colour(p.get("colour"), _owner_colour(owner, seats))
    )
    height = max(1, int(p.get("height") or 1))
    shape = p.get("shape") or "disc"
    lw = u * 0.035 * per_unit
    for k in range(min(height, 4) - 1, 0, -1):
        ax.add_patch(
            _shape(shape, cx + k * r * 0.12, cy + k * r * 0.16, r, fc=fill, ec=INK, lw=lw, alpha=0.75, zorder=6)
        )
    if shape == "ring":
        ax.add_patch(Circle((cx, cy), r, fill=False, ec=fill, lw=r * 0.45 * per_unit, zorder=7))
    else:
        ax.add_patch(_shape(shape, cx, cy, r, fc=fill, ec=INK, lw=lw, zorder=7))
    if face_down and shape != "ring":
        ax.add_patch(
            _shape(shape, cx, cy, r * 0.68, fill=False, ec="#ffffff", lw=u * 0.03 * per_unit, ls="--", zorder=8)
        )
    facing = p.get("facing")
    if facing is not None and not face_down:
        a = math.radians(float(facing))
        tip = [(0.0, -r * 1.32), (r * 0.38, -r * 0.82), (-r * 0.38, -r * 0.82)]
        rotated = [(cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)) for x, y in tip]
        ax.add_patch(Polygon(rotated, closed=True, fc=INK, ec="none", zorder=8))
    label = "?" if face_down else p.get("label")
    if not label and height > 1:
        label = str(height)
    if label:
        text = str(label)
        size = r * (1.05 if len(text) <= 2 else 0.7 if len(text) <= 4 else 0.5) * per_unit
        ax.text(
            cx,
            cy,
            text,
            ha="center",
            va="center",
            fontsize=max(3.0, size),
            fontweight="bold",
            color="#ffffff",
            zorder=9,
            path_effects=[patheffects.withStroke(linewidth=max(0.5, size * 0.16), foreground="#1f1d1a")],
        )


def _item_text(it: dict[str, Any]) -> str:
    if it.get("face_down"):
        return "?"
    value, suit = it.get("value"), it.get("suit")
    if it.get("kind") == "card" and value is not None:
        return f"{value}{SUITS.get(str(suit), suit or '')}"
    if it.get("kind") == "die" and value is not None:
        return str(value)
    return str(it.get("label") or "")


def _draw_panel(ax: Any, scene: dict[str, Any], seats: list[str], width_px: int, height_px: float) -> None:
    """Zones (one row of items each), then the players and the status lines, top down; what does not fit is cut."""
    line = 16.0 / height_px  # one text line, in the panel's 0..1 height
    row = 34.0 / height_px  # one zone row
    y = 1.0
    chars = width_px // 7
    for z in scene.get("zones") or []:
        if y - row < 0:
            return
        owner_ink = _owner_colour(z.get("owner"), seats) if z.get("owner") is not None else INK
        ax.text(0.0, y - row / 2, _clip(z.get("title") or "", 18), va="center", fontsize=8, color=owner_ink)
        x = 0.2
        step = 40.0 / width_px
        for it in z.get("items") or []:
            if x + step > 1.0:
                ax.text(x, y - row / 2, "…", va="center", fontsize=9, color=INK)
                break
            face_down = bool(it.get("face_down"))
            back = colour(
                it.get("colour"),
                _owner_colour(it.get("owner", z.get("owner")), seats)
                if it.get("owner", z.get("owner")) is not None
                else NEUTRAL_BACK,
            )
            fc = (
                back
                if face_down
                else "#ffffff"
                if it.get("kind") in ("card", "die")
                else colour(it.get("colour"), "#e8e2d4")
            )
            ax.add_patch(
                FancyBboxPatch(
                    (x, y - row * 0.9),
                    step * 0.85,
                    row * 0.8,
                    boxstyle="round,pad=0,rounding_size=0.004",
                    fc=fc,
                    ec=INK,
                    lw=0.6,
                )
            )
            text = _item_text(it)
            ink = "#c62828" if str(it.get("suit")) in RED_SUITS else "#ffffff" if face_down else INK
            ax.text(x + step * 0.425, y - row / 2, _clip(text, 5), ha="center", va="center", fontsize=7, color=ink)
            x += step
        y -= row
    lines = [
        f"{p.get('name', '')}" + (f": {p['detail']}" if p.get("detail") else "") for p in scene.get("players") or []
    ]
    inks = [_owner_colour(p.get("seat", k), seats) for k, p in enumerate(scene.get("players") or [])]
    lines += list(scene.get("status") or [])
    inks += [INK] * len(scene.get("status") or [])
    for text, ink in zip(lines, inks, strict=True):
        if y - line < 0:
            return
        ax.text(0.0, y - line / 2, _clip(text, chars), va="center", fontsize=8, color=ink)
        y -= line
