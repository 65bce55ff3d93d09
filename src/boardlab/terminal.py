"""Draw a scene (see :mod:`boardlab.core.scene`) in a terminal, for every game alike.

Used by the CLI (``boardlab play``, ``boardlab replay``) and by the PettingZoo adapter's text rendering, so it
lives outside both (``boardlab.cli.render`` names the same functions).

The board is rasterised onto a character grid from the cells' ``center``
coordinates: the smallest distance between two cells becomes one column step
(wide enough for a cell's text), and rows keep the drawing's proportions
(a character is about twice as tall as wide), so hexagonal boards look
hexagonal and square boards square. Each cell shows its piece (a seat glyph in
the seat's colour, plus the piece's label, e.g. a tower's height), or, when
empty, its coordinate (or ``·`` when the coordinates are printed along the
edges). Fills colour a cell's background; an empty cell in a zone (e.g. an
exclusion zone) is shaded ``░``, a blocked one ``▓``, so they show without colour
too. Highlights bracket their place as the browser outlines it: the last move
``[ ]``, a selection ``< >``, a warning ``! !``, a hint ``( )``; places the mover
may play are underlined.
Below the board come the zones (hands, piles, tokens, dice), the players, the
status lines and the prompt. A card shows its value and suit (``[7♥]``), in its
colour; a die its face and number (``⟨⚄ 5⟩``); a picture is drawn in block or
braille characters (``▀█▀``, a T tetromino). Face-down pieces and items are
``▒``, in their owner's colour.

Glyphs differ per seat (``● ○ ▲ ■``), so a board stays legible without colour.

>>> from boardlab.core import scene as sc
>>> s = sc.new_scene("Your move.", (0, 0, 2, 1))
>>> s["cells"] = [sc.cell("a1", (0.5, 0.5), label="a1"), sc.cell("b1", (1.5, 0.5), label="b1")]
>>> s["pieces"] = [sc.piece("a1", 0, label="2")]
>>> print(board_text(s))
●2  b1
"""

from __future__ import annotations

import io
import itertools
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.style import Style
from rich.text import Text

from .core.scene import SEAT_COLOURS
from .core.wording import SEAT_OPEN, for_players

#: Terminal characters are about this many times taller than wide.
ASPECT = 2.0
#: Boards taller than this many lines are drawn one line per row of cells.
MAX_LINES = 40
#: The widest text a cell shows.
MAX_SLOT = 5

SEAT_GLYPHS = ("●", "○", "▲", "■", "◆", "★")
NEUTRAL_GLYPH = "◇"
FACE_DOWN = "▒"
ARROWS = "↑↗→↘↓↙←↖"
HIGHLIGHT_MARKS = {"last": ("[", "]"), "selected": ("<", ">"), "warning": ("!", "!"), "hint": ("(", ")")}
#: Which highlight of a place shows first (a place with two shows the first's left mark, the second's right one),
#: and the colour of each, as the browser draws them (last: yellow, selected: ink, warning: red, hint: grey).
HIGHLIGHT_ORDER = ("selected", "warning", "last", "hint")
HIGHLIGHT_INK = {"last": "yellow", "selected": "bright_white", "warning": "red", "hint": "grey50"}
#: Empty cells filled with these palette names are shaded, so they show without colour too
#: (``zone``: under a rule's shadow, e.g. Blast Radius's exclusion zones; ``blocked``: no play there).
SHADES = {"zone": "░", "blocked": "▓"}
SHADE_NAMES = {"zone": "in a zone (e.g. an exclusion zone)", "blocked": "blocked"}
ITEM_BRACKETS = {"card": ("[", "]"), "token": ("(", ")"), "coin": ("(", ")"), "die": ("⟨", "⟩"), "counter": ("", "")}

#: Background colours for cell fills named by the scene palette.
PALETTE = {
    "light": "#e8d9b5",
    "dark": "#a07850",
    "blocked": "#303030",
    "neutral": "#8a8a8a",
    "zone": "#4a4a5e",
    "warning": "#8b1a1a",
}
REGION_COLOURS = ("#3b6e8f", "#7a5c9e", "#4f8a4f", "#9e7a3b", "#8f3b5e", "#3b8f84", "#6b6b3b", "#5e5e8f")


def seat_colour(seat: int | None) -> str | None:
    if seat is None or seat < 0:
        return None
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_glyph(seat: int | None) -> str:
    if seat is None or seat < 0:
        return NEUTRAL_GLYPH
    return SEAT_GLYPHS[seat % len(SEAT_GLYPHS)]


def piece_colour(p: dict[str, Any]) -> str | None:
    """A piece's own ``colour`` when the scene gives one, else its owner's seat colour (face down: the owner's)."""
    if p.get("face_down"):
        return seat_colour(p.get("owner"))
    return palette_colour(p.get("colour")) or seat_colour(p.get("owner"))


def palette_colour(name: str | None) -> str | None:
    """A ``#rrggbb`` colour for a scene palette name (``seat1``, ``light``, ``region3``, ``#123456``…)."""
    if not name:
        return None
    if re.fullmatch(r"#[0-9a-fA-F]{6}", name):
        return name
    m = re.fullmatch(r"seat(\d+)", name)
    if m:
        return seat_colour(int(m.group(1)))
    m = re.fullmatch(r"region(\d+)", name)
    if m:
        return REGION_COLOURS[int(m.group(1)) % len(REGION_COLOURS)]
    return PALETTE.get(name)


def _text_on(bg: str) -> str:
    r, g, b = (int(bg[i : i + 2], 16) for i in (1, 3, 5))
    return "#101010" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#f0f0f0"


def _arrow(facing: float | None) -> str:
    if facing is None:
        return ""
    return ARROWS[round((facing % 360) / 45) % 8]


def piece_text(p: dict[str, Any]) -> str:
    """A piece as text: seat glyph (``▒`` face down) + label + facing arrow."""
    if p.get("face_down"):
        return FACE_DOWN
    return f"{seat_glyph(p.get('owner'))}{p.get('label') or ''}{_arrow(p.get('facing'))}"


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


_LABEL_RE = re.compile(r"^([A-Za-z]+)(\d+)$")


@dataclass
class _Placed:
    cell: dict[str, Any]
    line: int
    col: int


class _Canvas:
    def __init__(self) -> None:
        self.chars: dict[tuple[int, int], tuple[str, Style | None]] = {}

    def put(self, line: int, col: int, text: str, style: Style | None = None, *, over: bool = True) -> None:
        for k, ch in enumerate(text):
            key = (line, col + k)
            if over or key not in self.chars:
                self.chars[key] = (ch, style)

    def lines(self) -> list[Text]:
        if not self.chars:
            return []
        rows: dict[int, dict[int, tuple[str, Style | None]]] = {}
        for (ln, c), v in self.chars.items():
            rows.setdefault(ln, {})[c] = v
        c0 = min(c for _, c in self.chars)
        out = []
        for ln in range(min(rows), max(rows) + 1):
            row = rows.get(ln, {})
            t = Text(no_wrap=True, overflow="ignore")
            run: list[str] = []
            run_style: Style | None = None
            for c in range(c0, max(row, default=c0 - 1) + 1):
                ch, style = row.get(c, (" ", None))
                if style is not run_style and run:
                    t.append("".join(run), run_style)
                    run = []
                run_style = style
                run.append(ch)
            if run:
                t.append("".join(run), run_style)
            out.append(t)
        return out


def _min_distance(points: Sequence[tuple[float, float]]) -> float:
    best = math.inf
    pts = sorted(points)
    for i, (x, y) in enumerate(pts):  # sweep by x: stop once dx alone exceeds the best
        for x2, y2 in pts[i + 1 :]:
            if x2 - x >= best:
                break
            d = math.hypot(x2 - x, y2 - y)
            if 1e-9 < d < best:
                best = d
    return best


def _levels(values: Iterable[float], tol: float) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > tol:
            out.append(v)
    return out


def _cell_contents(scene: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    by_place: dict[str, list[dict[str, Any]]] = {}
    for p in scene.get("pieces", []):
        by_place.setdefault(p["at"], []).append(p)
    return by_place


def _axis_legend(placed: list[_Placed]) -> tuple[dict[int, str], dict[int, str], bool]:
    """Row and column coordinates when the labels decompose along screen rows/columns.

    Returns ``(row_legend, column_legend, complete)``; ``complete`` when the
    two legends together name every cell (then cells need not show labels).
    """
    parts: list[tuple[_Placed, tuple[str, str]]] = []
    for p in placed:
        m = _LABEL_RE.match(p.cell.get("label") or "")
        if not m:
            return {}, {}, False
        parts.append((p, (m.group(1), m.group(2))))
    if len(parts) < 2:
        return {}, {}, False

    def constant_part(key: str) -> int | None:
        for k in (0, 1):
            groups: dict[int, set[str]] = {}
            for p, pr in parts:
                groups.setdefault(getattr(p, key), set()).add(pr[k])
            values = [next(iter(v)) for v in groups.values() if len(v) == 1]
            if len(values) == len(groups) and len(set(values)) == len(values) and len(groups) > 1:
                return k
        return None

    rk = constant_part("line")
    ck = constant_part("col")
    rows = {p.line: pr[rk] for p, pr in parts} if rk is not None else {}
    cols = {p.col: pr[ck] for p, pr in parts} if ck is not None else {}
    complete = rk is not None and ck is not None and rk != ck
    if not complete:
        cols = {}
    return rows, cols, complete


def _area_names(scene: dict[str, Any], cells: list[dict[str, Any]]) -> dict[str, str]:
    """An area's name (a laid tile's) shown on the cell under its top-left corner: cell id -> name."""
    out: dict[str, str] = {}
    for a in scene.get("cells", []):
        if a.get("kind") != "area" or not a.get("label") or not a.get("polygon"):
            continue
        xs, ys = [q[0] for q in a["polygon"]], [q[1] for q in a["polygon"]]
        inside = [c for c in cells if min(xs) < c["center"][0] < max(xs) and min(ys) < c["center"][1] < max(ys)]
        if inside:
            corner = min(inside, key=lambda c: (c["center"][1] - min(ys)) + (c["center"][0] - min(xs)))
            out[corner["id"]] = a["label"]
    return out


def board_lines(scene: dict[str, Any]) -> list[Text]:
    """The board of ``scene`` (cells, edges, pieces, highlights) as lines of styled text."""
    # an area (a tile laid over cells) is shown by the cells it covers
    cells = [c for c in scene.get("cells", []) if c.get("center") is not None and c.get("kind") != "area"]
    edges = scene.get("edges", [])
    if not cells and not edges:
        return []
    contents = _cell_contents(scene)
    highlights = _highlight_kinds(scene)
    targets = {t["at"] for t in scene.get("targets", [])}

    centres = [(float(c["center"][0]), float(c["center"][1])) for c in cells]
    d = _min_distance(centres) if len(centres) > 1 else math.inf
    if not math.isfinite(d):
        lengths = [math.hypot(e["to"][0] - e["from"][0], e["to"][1] - e["from"][1]) for e in edges]
        d = min((x for x in lengths if x > 1e-9), default=1.0)

    # Texts of the cells, before layout, to size a cell's slot.
    texts: dict[str, str] = {}
    for c in cells:
        ps = contents.get(c["id"], [])
        texts[c["id"]] = _clip("".join(piece_text(p) for p in ps), MAX_SLOT) if ps else ""
    named = _area_names(scene, cells)
    for cid, name in named.items():
        if not texts[cid]:
            texts[cid] = _clip(name, MAX_SLOT)
    label_width = max((len(c.get("label") or "") for c in cells), default=1)

    def layout(slot: int) -> tuple[list[_Placed], float, float, float, float, int]:
        step = slot + 1 + (slot + 1) % 2  # even, so half steps (hex rows) fall on whole columns
        sx = step / d
        tol = d * 1e-3
        ys = [y for _, y in centres] or [e[k][1] for e in edges for k in ("from", "to")]
        levels = _levels(ys, tol)
        gaps = [b - a for a, b in itertools.pairwise(levels)]
        sy = sx / ASPECT
        if gaps:
            g = min(gaps)
            if all(abs(x / g - round(x / g)) < 0.05 for x in gaps):  # rows on a lattice: keep them evenly spaced
                per = max(1, round(g * sx / ASPECT))
                if (levels[-1] - levels[0]) / g * per + 1 > MAX_LINES:
                    per = 1
                sy = per / g
        x0 = min([x for x, _ in centres] + [min(e["from"][0], e["to"][0]) for e in edges])
        y0 = min([y for _, y in centres] + [min(e["from"][1], e["to"][1]) for e in edges])
        placed = [
            _Placed(c, round((y - y0) * sy), round((x - x0) * sx)) for c, (x, y) in zip(cells, centres, strict=True)
        ]
        return placed, sx, sy, x0, y0, step

    # Lay out once to find out whether coordinates can go along the edges.
    slot = max(2, min(MAX_SLOT, max((len(t) for t in texts.values()), default=1), label_width))
    placed, *_ = layout(slot)
    rows, cols, complete = _axis_legend(placed)
    if not complete:  # empty cells show their label
        slot = max(slot, min(MAX_SLOT, label_width))
    else:
        slot = max(2, min(MAX_SLOT, max((len(t) for t in texts.values()), default=1)))
    placed, sx, sy, x0, y0, step = layout(slot)
    # Make sure no two cells on one line overlap (irregular boards): widen until they fit.
    for _ in range(8):
        by_line: dict[int, list[int]] = {}
        for p in placed:
            by_line.setdefault(p.line, []).append(p.col)
        if all(b - a >= step for cs in by_line.values() for a, b in zip(sorted(cs), sorted(cs)[1:])):
            break
        d /= 1.25
        placed, sx, sy, x0, y0, step = layout(slot)
    rows, cols, complete = _axis_legend(placed)

    canvas = _Canvas()
    # Edges first: cells are drawn over them.
    for e in edges:
        _draw_edge(canvas, e, sx, sy, x0, y0)
    half = slot // 2
    for p in placed:
        c = p.cell
        ps = contents.get(c["id"], [])
        bg = palette_colour(c.get("fill"))
        text = texts[c["id"]]
        if ps:
            shown = next((q for q in ps if not q.get("face_down")), ps[0])
            fg = piece_colour(shown) or (_text_on(bg) if bg else None)
            style = Style(color=fg, bgcolor=bg, bold=True)
        elif c["id"] in named:  # the name of the area (a laid tile) lying over this cell
            style = Style(color=_text_on(bg) if bg else None, bgcolor=bg, bold=True)
        elif c.get("fill") in SHADES:  # an excluded or blocked cell: shaded, with or without colour
            text = SHADES[c["fill"]] * slot
            style = Style(color=_text_on(bg) if bg else "grey50", bgcolor=bg, dim=True)
        else:
            text = "·" if complete or not c.get("label") else _clip(c["label"], slot)
            style = Style(color=_text_on(bg) if bg else "grey50", bgcolor=bg, dim=not bg)
        if c["id"] in targets:  # a place the mover may play (the browser marks it with a dot)
            style += Style(underline=True, dim=False)
        start = p.col - half
        if bg:
            canvas.put(p.line, start, " " * slot, Style(bgcolor=bg))
        canvas.put(p.line, start + max(0, slot - len(text)) // 2, text, style)
        _mark(canvas, highlights.get(c["id"]), p.line, start - 1, start + slot)
    # Pieces standing on edges sit at the edge's midpoint.
    for e in edges:
        for piece in contents.get(e["id"], []):
            mx = (e["from"][0] + e["to"][0]) / 2
            my = (e["from"][1] + e["to"][1]) / 2
            t = piece_text(piece)
            canvas.put(
                round((my - y0) * sy),
                round((mx - x0) * sx) - len(t) // 2,
                t,
                Style(color=piece_colour(piece), bold=True),
            )
    # Highlighted edges: marks either side of the midpoint (around a piece standing there).
    for e in edges:
        if e["id"] in highlights:
            mx = (e["from"][0] + e["to"][0]) / 2
            my = (e["from"][1] + e["to"][1]) / 2
            w = max((len(piece_text(q)) for q in contents.get(e["id"], [])), default=1)
            col = round((mx - x0) * sx) - w // 2
            _mark(canvas, highlights[e["id"]], round((my - y0) * sy), col - 1, col + w)

    lines = canvas.lines()
    if not lines:
        return []
    all_lines = [k[0] for k in canvas.chars]
    all_cols = [k[1] for k in canvas.chars]
    l0, c0 = min(all_lines), min(all_cols)
    width = max(all_cols) - c0 + 1
    legend = Style(color="cyan", dim=True)
    out: list[Text] = []
    pad = max((len(v) for v in rows.values()), default=0)
    if cols:
        head = Text(no_wrap=True, overflow="ignore")
        head.append(" " * (pad + 1 if pad else 0))
        axis = [" "] * width
        for col, v in cols.items():
            for k, ch in enumerate(v):
                if 0 <= col - c0 + k < width:
                    axis[col - c0 + k] = ch
        head.append("".join(axis).rstrip(), legend)
        out.append(head)
    for i, t in enumerate(lines):
        ln = l0 + i
        row = Text(no_wrap=True, overflow="ignore")
        if pad:
            row.append(rows.get(ln, "").rjust(pad) + " ", legend)
        row.append_text(t)
        if pad and ln in rows:
            row.append(" " * (width - len(t)) + " " + rows[ln], legend)
        row.rstrip()
        out.append(row)
    if cols:
        out.append(out[0].copy())
    return out


def _highlight_kinds(scene: dict[str, Any]) -> dict[str, list[str]]:
    """Each highlighted place's kinds, first the one that shows first (:data:`HIGHLIGHT_ORDER`)."""
    out: dict[str, list[str]] = {}
    for h in scene.get("highlights", []):
        kind = h.get("kind", "last")
        kinds = out.setdefault(h["at"], [])
        if kind not in kinds:
            kinds.append(kind)
    rank = {k: i for i, k in enumerate(HIGHLIGHT_ORDER)}
    for kinds in out.values():
        kinds.sort(key=lambda k: rank.get(k, len(rank)))
    return out


def _mark(canvas: _Canvas, kinds: list[str] | None, line: int, left_col: int, right_col: int) -> None:
    """Bracket a place by its highlights: the first kind's left mark, the last kind's right mark, in their colours."""
    if not kinds:
        return
    first, last = kinds[0], kinds[-1]
    left = HIGHLIGHT_MARKS.get(first, HIGHLIGHT_MARKS["hint"])[0]
    right = HIGHLIGHT_MARKS.get(last, HIGHLIGHT_MARKS["hint"])[1]
    canvas.put(line, left_col, left, Style(color=HIGHLIGHT_INK.get(first, "grey50"), bold=True))
    canvas.put(line, right_col, right, Style(color=HIGHLIGHT_INK.get(last, "grey50"), bold=True))


def shade_legend(scene: dict[str, Any]) -> Text | None:
    """What the shaded cells on the board mean (only the shades it shows), or ``None``."""
    used = {c.get("fill") for c in scene.get("cells", [])} & set(SHADES)
    pieces = {p.get("at") for p in scene.get("pieces", [])}
    used = {f for f in used if any(c.get("fill") == f and c["id"] not in pieces for c in scene.get("cells", []))}
    if not used:
        return None
    return Text("   ".join(f"{SHADES[f]} {SHADE_NAMES[f]}" for f in SHADES if f in used), Style(dim=True))


def _draw_edge(canvas: _Canvas, e: dict[str, Any], sx: float, sy: float, x0: float, y0: float) -> None:
    (ax, ay), (bx, by) = e["from"], e["to"]
    c1, l1 = (ax - x0) * sx, (ay - y0) * sy
    c2, l2 = (bx - x0) * sx, (by - y0) * sy
    dc, dl = c2 - c1, l2 - l1
    heavy = e.get("owner") is not None
    if abs(dl) < 0.5:
        ch = "━" if heavy else "─"
    elif abs(dc) < 0.5:
        ch = "┃" if heavy else "│"
    elif (dc > 0) == (dl > 0):
        ch = "╲"
    else:
        ch = "╱"
    colour = palette_colour(e.get("stroke")) or (seat_colour(e["owner"]) if heavy else None) or "grey42"
    style = Style(color=colour, bold=heavy)
    n = max(1, math.ceil(max(abs(dc), abs(dl)) * 2))
    for k in range(n + 1):
        t = k / n
        canvas.put(round(l1 + dl * t), round(c1 + dc * t), ch, style, over=False)


def zone_lines(scene: dict[str, Any]) -> list[Text]:
    """One line per zone: title (owner), then its items; a zone with ``columns`` one line per row of its grid."""
    pieces = _cell_contents(scene)
    marked = {h["at"] for h in scene.get("highlights", [])}
    explained: set[tuple[str, str]] = set()  # an item's detail is printed once per scene
    out = []
    for z in scene.get("zones", []):
        t = Text()
        owner = z.get("owner")
        if owner is not None and owner >= 0:
            t.append(seat_glyph(owner) + " ", Style(color=seat_colour(owner), bold=True))
        t.append(f"{z.get('title') or z.get('id')}:", Style(bold=True))
        if not z.get("items"):
            t.append(" —", Style(dim=True))
        columns = z.get("columns")
        for k, it in enumerate(z.get("items", [])):
            left, right = ITEM_BRACKETS.get(it.get("kind", "card"), ("[", "]"))
            label = item_text(it)
            t.append("\n   " if columns and k % columns == 0 else " ")
            if it.get("face_down"):
                back = it.get("owner") if it.get("owner") is not None else owner  # whose back it shows
                ink = palette_colour(it.get("colour")) or seat_colour(
                    back
                )  # a back of its own colour, else the owner's
                style = Style(color=ink, reverse=it["id"] in marked)
            else:
                style = Style(color=palette_colour(it.get("colour")) or _suit_ink(it), reverse=it["id"] in marked)
            t.append(f"{left}{label}{right}", style)
            for p in pieces.get(it["id"], []):
                t.append(piece_text(p), Style(color=piece_colour(p), bold=True))
            detail = it.get("detail")
            if detail and (label, detail) not in explained:
                explained.add((label, detail))
                t.append(f" {detail}", Style(dim=True))
        out.append(t)
    return out


SUIT_GLYPHS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}
RED_SUITS = {"hearts", "diamonds", "♥", "♦"}
DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def _suit(it: dict[str, Any]) -> str:
    suit = it.get("suit")
    return SUIT_GLYPHS.get(str(suit).lower(), str(suit)) if suit else ""


def _suit_ink(it: dict[str, Any]) -> str | None:
    suit = str(it.get("suit") or "").lower()
    return "#d04040" if suit in RED_SUITS else None


def item_text(it: dict[str, Any]) -> str:
    """An item as text inside its brackets.

    >>> item_text({"kind": "card", "label": "seven of hearts", "value": 7, "suit": "hearts"})
    '7♥'
    >>> item_text({"kind": "die", "label": "five", "value": 5})
    '⚄ 5'
    >>> item_text({"kind": "card", "label": "T", "picture": {"grid": [3, 2], "cells": [[0, 0], [1, 0], [2, 0], [1, 1]]}})
    'T ▀█▀'
    >>> item_text({"kind": "card", "label": "secret", "face_down": True})
    '▒▒'
    """
    if it.get("face_down"):
        return FACE_DOWN * 2
    value = it.get("value")
    kind = it.get("kind", "card")
    if kind == "die" and isinstance(value, int) and 1 <= value <= len(DIE_FACES):
        text = f"{DIE_FACES[value - 1]} {value}"
    elif value is not None or it.get("suit"):
        text = f"{'' if value is None else value}{_suit(it)}"
    else:
        text = str(it.get("label", ""))
    pic = it.get("picture")
    return f"{text} {picture_text(pic)}" if pic else text


def picture_text(pic: dict[str, Any]) -> str:
    """A picture in one line of text: half blocks for a grid of at most two rows, else braille
    (a unit square is 2×2 dots; groups of two rows of squares are joined by ``/``).

    >>> picture_text({"grid": [2, 3], "cells": [[0, 0], [0, 1], [0, 2], [1, 2]]})  # an L
    '⣿⠀/⠛⠛'
    >>> picture_text({"grid": [2, 1], "strokes": [[[0, 0.5], [2, 0.5]]]})
    '⠒⠒'
    """
    cols, rows = (int(x) for x in pic["grid"])
    filled = {(int(c), int(r)) for c, r in pic.get("cells", ())}
    if rows <= 2 and not pic.get("strokes"):
        top_bottom = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
        return "".join(top_bottom[((c, 0) in filled, (c, 1) in filled)] for c in range(cols))
    dots = {(2 * c + dx, 2 * r + dy) for c, r in filled for dx in (0, 1) for dy in (0, 1)}
    for stroke in pic.get("strokes", ()):
        for (ax, ay), (bx, by) in itertools.pairwise(stroke):
            n = max(1, math.ceil(max(abs(bx - ax), abs(by - ay)) * 4))
            for k in range(n + 1):
                x, y = ax + (bx - ax) * k / n, ay + (by - ay) * k / n
                dots.add((min(2 * cols - 1, int(x * 2)), min(2 * rows - 1, int(y * 2))))
    bits = (
        (0, 0, 0x01),
        (0, 1, 0x02),
        (0, 2, 0x04),
        (1, 0, 0x08),
        (1, 1, 0x10),
        (1, 2, 0x20),
        (0, 3, 0x40),
        (1, 3, 0x80),
    )
    lines = []
    for y0 in range(0, 2 * rows, 4):
        lines.append(
            "".join(
                chr(0x2800 + sum(b for dx, dy, b in bits if (x0 + dx, y0 + dy) in dots)) for x0 in range(0, 2 * cols, 2)
            )
        )
    return "/".join(lines)


def player_lines(scene: dict[str, Any]) -> list[Text]:
    out = []
    for p in scene.get("players", []):
        t = Text()
        seat = p.get("seat")
        colour = palette_colour(p.get("colour")) or seat_colour(seat)
        t.append(seat_glyph(seat) + " ", Style(color=colour, bold=True))
        t.append(str(p.get("name") or f"seat {seat}"))
        if p.get("detail"):
            t.append(f" — {p['detail']}", Style(dim=True))
        out.append(t)
    return out


def moves_text(labels: Sequence[str], title: str = "Moves") -> Text:
    t = Text()
    t.append(f"{title} ({len(labels)}): ", Style(bold=True))
    t.append(", ".join(labels) if labels else "none")
    return t


#: How the terminal calls seats ("seat 0 (human)"): a game's :func:`~boardlab.core.wording.seat` reads so here.
_TERMINAL_SEATS = [f"seat {k}" for k in range(16)]


def _seats_named(x: Any) -> Any:
    """``x`` (a scene or a part of it) with each seat a game marked for the table called as the terminal calls it."""
    if isinstance(x, str):
        return for_players(x, _TERMINAL_SEATS) if SEAT_OPEN in x else x
    if isinstance(x, dict):
        return {k: _seats_named(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_seats_named(v) for v in x]
    return x


def render_scene(
    scene: dict[str, Any], moves: Sequence[str] | None = None, *, title: str | None = None
) -> RenderableType:
    """Everything in ``scene`` (board, zones, players, status, prompt) and, if given, the legal ``moves``."""
    scene = _seats_named(scene)
    parts: list[RenderableType] = []
    if title:
        parts.append(Text(title, Style(bold=True, underline=True)))
    parts.extend(board_lines(scene))
    legend = shade_legend(scene)
    if legend is not None:
        parts.append(legend)
    zones = zone_lines(scene)
    if zones:
        parts.append(Text(""))
        parts.extend(zones)
    players = player_lines(scene)
    if players:
        parts.append(Text(""))
        parts.extend(players)
    if scene.get("status"):
        parts.append(Text(" · ".join(str(s) for s in scene["status"]), Style(dim=True)))
    if scene.get("prompt"):
        parts.append(Text(str(scene["prompt"]), Style(bold=True)))
    if moves is not None:
        parts.append(moves_text(list(moves)))
    return Group(*parts)


def board_text(scene: dict[str, Any]) -> str:
    """The board alone as plain text (no colours), e.g. for tests and logs."""
    return "\n".join(t.plain.rstrip() for t in board_lines(scene))


def scene_text(scene: dict[str, Any], moves: Sequence[str] | None = None, width: int = 120) -> str:
    """:func:`render_scene` as plain text."""
    console = Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False, legacy_windows=False)
    console.print(render_scene(scene, moves), soft_wrap=False)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    return "\n".join(line.rstrip() for line in out.splitlines())
