"""The scene: how a view of the game looks, for generic front-ends.

A game's ``scene(observation, legal)`` returns a JSON-able dict, a :class:`Scene`.
Front-ends draw only the scene, so adding a game needs no front-end code. The
schema is the typed dicts below (:class:`Scene` and the types it names), which
are the one source of truth: :func:`scene_schema` exports them as JSON Schema
(committed as ``boardlab/web/scene.schema.json``, served at
``/static/scene.schema.json``; a test keeps the file equal to the types) and
:func:`check_scene` validates a scene against that schema (with ``jsonschema``), then checks what a
schema cannot (targets name places, every legal action is reachable).

Keys of a :class:`Scene` (optional ones marked *):

``viewbox``
    ``[x, y, width, height]`` of the board drawing (any unit; y grows downwards).
``cells`` (:class:`Cell`)
    places on the board: ``id``, ``center``, ``polygon`` (a hex, square or
    triangle) or ``None`` with a ``radius`` (a point, drawn as a small circle),
    ``fill``, ``label`` (a coordinate), ``kind`` (``cell`` | ``point`` |
    ``area``). An ``area`` is a shape laid over the cells it covers (a tile on
    the table): drawn above them as one piece of card, its label (a name) in
    its top-left corner; text front-ends leave it out (its cells show it). A
    geometry board makes its own: ``board.scene_cells(label=…, fill=…)``.
``edges`` (:class:`Edge`)
    segments ``from``–``to``: grid lines, edges one can claim, trails. An owned
    edge is drawn heavy, in its ``stroke`` colour when given, else its owner's.
``pieces`` (:class:`Piece`)
    at a cell, edge or item id: ``owner``, ``kind``, ``label``, ``height``,
    ``facing`` (degrees clockwise from up), ``face_down``, ``shape``, and
    *``colour`` for a piece whose colour is not its owner's, *``picture`` (a
    :class:`Picture` drawn on the piece instead of its label: the game's own art), *``icon`` (a
    built-in symbol, one of :data:`ICONS`: an elephant, a cavalryman; a drawing
    front-end shows it instead of the label, which text front-ends still print), *``name`` (what the piece is,
    in players' words: its tooltip, shown on hover and on a long press; *``detail``, words about it, is shown
    there when it has no name), *``badge`` (up to 3 characters in a small
    circle at its corner: a count, a ★ for a royal) and *``size`` (its radius in
    the viewbox's units, for a piece that covers more than one place). A face-down
    piece shows its owner's colour (so one sees whose it is) and nothing else.
``zones`` (:class:`Zone` of :class:`Item`)
    hands, piles, dice: ``id``, ``title``, ``owner``, ``items`` and *``columns``
    (the items form a grid that many wide, row by row, instead of one row that
    wraps). Zones are drawn in the order the scene lists them, whatever can be
    clicked, so the layout stays put from turn to turn. An item has
    ``id``, ``label``, ``kind`` (``card`` | ``token`` | ``die`` | ``coin`` |
    ``counter``), ``face_down``, ``detail`` and optionally *``value`` (a card's
    corner value; a die's 1-6 is drawn as pips), *``suit``, *``colour`` (its
    ink; on a face-down item, the colour of its back, for cards whose backs
    differ), *``owner`` (whose back a face-down card shows when it has no
    ``colour``, defaulting to the zone's owner), *``icon`` (as for a piece: drawn
    on the card's face or the token), *``name`` (its tooltip, on hover and a long
    press: what a card does, in full) and *``picture`` (:class:`Picture`: a mini-grid of filled
    cells, filled polygons and/or a few strokes: a tetromino, a fence, a symbol;
    with *``unit``, the item is drawn that many pixels per grid square, so a
    card's art is as large as the game asks and a turned card lies across).
``highlights`` (:class:`Highlight`)
    ``{"at": id, "kind": "last" | "selected" | "warning" | "hint"}``.
``targets`` (:class:`Target`)
    click targets ``{"at", "action", "label"}``, ``at`` naming a cell, an edge
    or a zone item. Several targets may share a place (a chooser then appears).
    A target with *``with`` (a zone item's id) is played in two clicks: that
    item (a troop to deploy), then the place ``at``; the item picked first
    keeps only its own targets on the board.
    A target with *``steps`` (ids of zone items and places) is played in
    several clicks: each of them in turn, then ``at`` (placing five units on
    five squares, one by one); after each click only the moves that began so
    stay on offer, and an item picked and then a place is drawn on that place
    until the move is played or begun again.
    *``confirm``: a warning; the front-end asks the player to confirm it first.
``buttons`` (:class:`Button`)
    ``{"action", "label"}`` and *``confirm``: legal actions with no place on the
    board (pass, lock, trade…). :func:`finish_scene` adds every legal action that has no
    target, so every legal action is always reachable.
``prompt``
    one sentence: what the viewer must do now, or what is happening.
*``status``
    short lines (scores, round, pool).
*``players`` (:class:`Player`)
    ``{"seat", "name", "colour", "detail"}`` per seat.
*``captions`` (:class:`Caption`)
    words drawn on the board ``{"at", "text"}`` (*``size`` in board units,
    *``anchor`` ``start`` | ``middle`` | ``end``): whose grid, which row.
*``scrolls``
    ``True`` for a board that is a window onto a larger table (tiles laid
    anywhere): rather than shrink its squares below a readable size on a
    narrow screen, a drawing front-end draws it larger and lets it scroll
    sideways (the web page keeps each square at least 25 px across).

A cell's ``label`` stays readable with pieces on the cell: a drawing front-end
writes it along the cell's bottom and stands the pieces above it. Several
pieces on one place stand side by side, none over another.

Colours are palette names (``seat0``…``seat3``, ``light``, ``dark``,
``blocked``, ``neutral``, ``zone`` (an area under a rule's shadow, e.g. an
exclusion zone), ``warning``, ``region0``…) or ``#rrggbb``.

>>> s = new_scene("Roll.", (0, 0, 1, 1))
>>> s["zones"] = [zone("dice", "Dice", [item("d1", "five", "die", value=5)])]
>>> check_scene(s, [])
[]
>>> s["zones"][0]["items"][0]["value"] = 1.5
>>> check_scene(s, [])
['zones[0].items[0].value: 1.5 is not an integer, a string or null']
"""

import functools
import json
import math
import types
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    TypedDict,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

#: Seat colours (Okabe-Ito, colour-blind safe), also used by the front-ends.
SEAT_COLOURS = ("#D55E00", "#0072B2", "#009E73", "#CC79A7")
SEAT_COLOUR_NAMES = ("vermillion", "blue", "green", "purple")
#: The colour a seat called by a colour's name is drawn in, so each name is one colour and each colour one name
#: across the games ("Orange" is the first seat colour, the Okabe-Ito vermillion; "Red" is a true red). A test checks
#: every game's seat names against the colours its scene draws.
INK_OF = {
    "Orange": SEAT_COLOURS[0],
    "Blue": SEAT_COLOURS[1],
    "Green": SEAT_COLOURS[2],
    "Pink": SEAT_COLOURS[3],
    "Red": "#C62828",
    "Yellow": "#D9A400",
    "Black": "#2B2823",
    "White": "#F4F1EA",
}

Point = Sequence[float]

# -- the schema as types -------------------------------------------------------------
# ``Annotated[..., Words(...)]`` adds JSON Schema keywords (lengths, bounds, descriptions) to a type.


@dataclass(frozen=True)
class Words:
    """JSON Schema keywords added to an ``Annotated`` type: ``Words(minItems=2, maxItems=2)``."""

    items: tuple[tuple[str, Any], ...]

    def __init__(self, **words: Any) -> None:
        object.__setattr__(self, "items", tuple(words.items()))


#: ``[x, y]`` in the viewbox's units.
XY = Annotated[list[float], Words(minItems=2, maxItems=2)]
#: A palette name (``seat1``, ``light``, ``region3``…) or ``#rrggbb``.
Colour = Annotated[str, Words(description="a palette name (seat0, light, dark, region2...) or #rrggbb")]
ItemKind = Literal["card", "token", "die", "coin", "counter"]
#: The built-in symbols a piece or an item may show (``icon``), drawn by the front-ends from their own small set
#: (``web/js/icons.js``; a test keeps the two lists equal). The names are plain words for what is drawn.
Icon = Literal[
    # animals and figures
    "elephant", "monkey", "mouse", "flower", "dragon", "goblin", "horror",
    # troops, units and their things
    "cavalry", "infantry", "archer", "hero", "icbm", "aircraft", "submarine", "fleet", "spy", "gem",
    # characters
    "crown", "chalice", "skull", "sword", "scroll", "jester",
    # moves and blows
    "forward", "turn-around", "veer-left", "veer-right", "strafe-left", "strafe-right",
    "claw", "fire", "tail", "wing", "wound",
]  # fmt: skip
ICONS: tuple[str, ...] = get_args(Icon)
HighlightKind = Literal["last", "selected", "warning", "hint"]


class Cell(TypedDict):
    """A place on the board: a polygon (hex, square, triangle) or a point of ``radius``."""

    id: str
    center: XY
    polygon: list[XY] | None
    radius: float | None
    fill: Colour | None
    label: str | None
    kind: Literal["cell", "point", "area"]


Edge = TypedDict(
    "Edge",
    {"id": str, "from": XY, "to": XY, "owner": int | None, "stroke": Colour | None, "kind": str},
)
Edge.__doc__ = """A segment: a grid line, an edge one can claim, a trail (heavy when owned)."""


class Piece(TypedDict):
    """A piece at a cell, an edge or an item; face down it shows its owner's colour only."""

    at: str
    owner: int | None
    kind: str
    label: str | None
    height: Annotated[int, Words(minimum=1)]
    facing: float | None
    face_down: bool
    shape: str
    colour: NotRequired[Colour]
    picture: NotRequired["Picture"]
    detail: NotRequired[str]
    icon: NotRequired[Icon]
    name: NotRequired[str]
    badge: NotRequired[Annotated[str, Words(maxLength=3)]]
    size: NotRequired[Annotated[float, Words(exclusiveMinimum=0)]]


class Picture(TypedDict):
    """A small drawing on an item, on a ``grid`` of ``[columns, rows]`` unit squares (y down).

    ``cells``: the filled squares ``[column, row]``; ``fills``: filled polygons
    of ``[x, y]`` points; ``strokes``: polylines of ``[x, y]`` points in the
    same units (0…columns, 0…rows); ``colour``: their colour (default: the
    item's colour); ``stroke_colours``: optionally one colour per stroke, in
    order (a line drawing in several colours), overriding ``colour`` for the
    strokes it covers; ``unit``: on an item, the pixels per grid square it is
    drawn at (default: fitted into the item's usual figure).
    """

    grid: Annotated[list[int], Words(minItems=2, maxItems=2)]
    cells: NotRequired[list[Annotated[list[int], Words(minItems=2, maxItems=2)]]]
    fills: NotRequired[list[Annotated[list[XY], Words(minItems=3)]]]
    strokes: NotRequired[list[Annotated[list[XY], Words(minItems=2)]]]
    colour: NotRequired[Colour]
    stroke_colours: NotRequired[list[Colour]]
    unit: NotRequired[Annotated[float, Words(minimum=4)]]


class Item(TypedDict):
    """A card, token, die, coin or counter in a zone."""

    id: str
    label: str
    kind: ItemKind
    face_down: bool
    detail: str | None
    value: NotRequired[int | str | None]
    suit: NotRequired[str | None]
    colour: NotRequired[Colour | None]
    owner: NotRequired[int | None]
    picture: NotRequired[Picture | None]
    icon: NotRequired[Icon]
    name: NotRequired[str]


class Zone(TypedDict):
    """A row of items (a hand, a pile, dice), or with ``columns`` a grid that many items wide, filled row by row."""

    id: str
    title: str
    owner: int | None
    items: list[Item]
    columns: NotRequired[Annotated[int, Words(minimum=1)]]


class Highlight(TypedDict):
    at: str
    kind: HighlightKind


Target = TypedDict(
    "Target",
    {
        "at": str,
        "action": int,
        "label": str,
        "with": NotRequired[str],
        "steps": NotRequired[Annotated[list[str], Words(minItems=1)]],
        "confirm": NotRequired[str],
    },
)
Target.__doc__ = """A click target: the legal ``action`` played by clicking the place or item ``at`` (first the item
``with``; or first each of ``steps`` in turn). ``confirm``: a warning the front-end shows, asking the player to confirm, before it plays the action (a
move that loses at once)."""


class Button(TypedDict):
    """A legal ``action`` with no place on the board; ``confirm`` as for a :class:`Target`."""

    action: int
    label: str
    confirm: NotRequired[str]


class Player(TypedDict):
    seat: int
    name: str
    colour: Colour
    detail: str | None


class Caption(TypedDict):
    """Words drawn on the board at ``at``: ``size`` in board units, ``anchor`` where the text starts."""

    at: XY
    text: str
    size: NotRequired[Annotated[float, Words(minimum=0)]]
    anchor: NotRequired[Literal["start", "middle", "end"]]


class Scene(TypedDict):
    """What a front-end draws of one view of a game."""

    viewbox: Annotated[list[float], Words(minItems=4, maxItems=4)]
    cells: list[Cell]
    edges: list[Edge]
    pieces: list[Piece]
    zones: list[Zone]
    highlights: list[Highlight]
    targets: list[Target]
    buttons: list[Button]
    prompt: str
    status: NotRequired[list[str]]
    players: NotRequired[list[Player]]
    captions: NotRequired[list[Caption]]
    scrolls: NotRequired[bool]


# -- JSON Schema from the types ------------------------------------------------------------

_SIMPLE = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}


def _type_schema(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    origin = get_origin(tp)
    if origin is Annotated:
        base, *meta = get_args(tp)
        out = _type_schema(base, defs)
        for m in meta:
            if isinstance(m, Words):
                out = {**out, **dict(m.items)}
        return out
    if is_typeddict(tp):
        if tp.__name__ not in defs:
            defs[tp.__name__] = {}  # claimed before recursing
            defs[tp.__name__] = _object_schema(tp, defs)
        return {"$ref": f"#/$defs/{tp.__name__}"}
    if origin in (Union, types.UnionType):
        return {"anyOf": [_type_schema(a, defs) for a in get_args(tp)]}
    if origin is Literal:
        return {"enum": list(get_args(tp))}
    if origin is list:
        return {"type": "array", "items": _type_schema(get_args(tp)[0], defs)}
    if tp in _SIMPLE:
        return {"type": _SIMPLE[tp]}
    raise TypeError(f"no JSON Schema for {tp!r}")


def _object_schema(td: Any, defs: dict[str, Any]) -> dict[str, Any]:
    props: dict[str, Any] = {}
    required = []
    for key, hint in get_type_hints(td, include_extras=True).items():
        if get_origin(hint) is NotRequired:
            hint = get_args(hint)[0]
        else:
            required.append(key)
        props[key] = _type_schema(hint, defs)
    out: dict[str, Any] = {"type": "object"}
    if td.__doc__ and not td.__doc__.startswith(td.__name__ + "("):
        out["description"] = " ".join(td.__doc__.split())
    return {**out, "properties": props, "required": required, "additionalProperties": False}


def scene_schema() -> dict[str, Any]:
    """The JSON Schema of a :class:`Scene`, generated from the typed dicts above.

    >>> s = scene_schema()
    >>> s["$defs"]["Item"]["properties"]["kind"]
    {'enum': ['card', 'token', 'die', 'coin', 'counter']}
    >>> s["$defs"]["Item"]["required"]
    ['id', 'label', 'kind', 'face_down', 'detail']
    """
    defs: dict[str, Any] = {}
    top = _type_schema(Scene, defs)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://boardlab.invalid/scene.schema.json",
        "title": "boardlab scene",
        **top,
        "$defs": defs,
    }


def scene_schema_json() -> str:
    """The schema as the text of ``web/scene.schema.json`` (``python -m boardlab.core.scene`` prints it)."""
    return json.dumps(scene_schema(), indent=2, ensure_ascii=False) + "\n"


# -- checking a scene against the schema (jsonschema), in words ---------------------------------

_TYPE_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
    "array": "a list",
    "object": "an object",
}


def _is(value: Any, kind: str) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "null":
        return value is None
    if kind == "array":
        return isinstance(value, list)
    return isinstance(value, dict)


def _expected(schema: Mapping[str, Any]) -> str:
    if "$ref" in schema:
        return "an object"
    if "anyOf" in schema:
        words = [_expected(s) for s in schema["anyOf"]]
        return ", ".join(words[:-1]) + " or " + words[-1]
    if "enum" in schema:
        return "one of " + ", ".join(json.dumps(v) for v in schema["enum"])
    return _TYPE_WORDS.get(schema.get("type", ""), "something else")


@functools.cache
def _validators(text: str) -> tuple[Any, Any]:
    """A fast validator (``jsonschema_rs``) that says whether a value fits, and ``jsonschema``'s that says where not.

    Imported here, where scenes are checked: game modules import this module on every start.
    """
    import jsonschema
    import jsonschema_rs

    schema = json.loads(text)
    return jsonschema_rs.Draft202012Validator(schema), jsonschema.Draft202012Validator(schema)


def _where(error: Any) -> str:
    out = ""
    for step in error.absolute_path:
        out += f"[{step}]" if isinstance(step, int) else f".{step}" if out else str(step)
    return out or "scene"


def _words(error: Any) -> list[str]:
    """One schema error (a ``jsonschema.ValidationError``) as ``path: problem`` lines."""
    where, value, kind, schema = _where(error), error.instance, error.validator, error.schema
    if kind == "required":
        return [f"{where}: lacks {key!r}" for key in error.validator_value if key not in value]
    if kind == "additionalProperties":
        return [f"{where}: unknown key {key!r}" for key in value if key not in schema.get("properties", {})]
    if kind in ("minItems", "maxItems"):
        lo, hi = schema.get("minItems", 0), schema.get("maxItems")
        size = f"{lo}" if lo == hi else f"at least {lo}" if hi is None else f"{lo} to {hi}"
        return [f"{where}: has {len(value)} entries, not {size}"]
    if kind == "minimum":
        return [f"{where}: {value} is below {error.validator_value}"]
    if kind == "type":
        return [f"{where}: {_short(value)} is not {_TYPE_WORDS[error.validator_value]}"]
    if kind == "anyOf":
        fits = [k for k, s in enumerate(error.validator_value) if _shallow_fits(value, s)]
        if len(fits) == 1:  # the right kind, wrong inside: say what is wrong inside
            inner = [e for e in error.context if e.relative_schema_path[0] == fits[0]]
            return [line for e in inner for line in _words(e)]
    if kind in ("anyOf", "enum"):
        return [f"{where}: {_short(value)} is not {_expected(schema)}"]
    return [f"{where}: {error.message}"]


def schema_problems(value: Any, schema: Mapping[str, Any]) -> list[str]:
    """Where ``value`` breaks ``schema`` (Draft 2020-12, checked by ``jsonschema``), as ``path: problem`` lines."""
    fast, explaining = _validators(json.dumps(schema, sort_keys=True))
    try:
        if fast.is_valid(value):
            return []
    except ValueError:  # a str subclass (a game's ``Said``): the JSON it is sent as
        value = json.loads(json.dumps(value))
        if fast.is_valid(value):
            return []
    lines = [line for error in explaining.iter_errors(value) for line in _words(error)]
    return list(dict.fromkeys(lines))


def _shallow_fits(value: Any, schema: Mapping[str, Any]) -> bool:
    if "$ref" in schema:
        return isinstance(value, dict)
    if "enum" in schema or "anyOf" in schema:
        return False
    return _is(value, schema.get("type", ""))


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


@functools.cache
def _schema_once() -> dict[str, Any]:
    return scene_schema()


# -- builders ---------------------------------------------------------------------------


def new_scene(prompt: str = "", viewbox: Sequence[float] = (0, 0, 1, 1)) -> dict[str, Any]:
    return {
        "viewbox": [round(float(v), 3) for v in viewbox],
        "cells": [],
        "edges": [],
        "pieces": [],
        "zones": [],
        "highlights": [],
        "targets": [],
        "buttons": [],
        "prompt": prompt,
        "status": [],
        "players": [],
    }


def _pt(p: Point) -> list[float]:
    return [round(float(p[0]), 3), round(float(p[1]), 3)]


def cell(
    id: str,
    center: Point,
    polygon: Iterable[Point] | None = None,
    *,
    label: str | None = None,
    fill: str | None = None,
    radius: float | None = None,
    kind: str = "cell",
) -> dict[str, Any]:
    return {
        "id": id,
        "center": _pt(center),
        "polygon": [_pt(p) for p in polygon] if polygon is not None else None,
        "radius": radius,
        "fill": fill,
        "label": label,
        "kind": kind,
    }


def edge(
    id: str, a: Point, b: Point, *, owner: int | None = None, stroke: str | None = None, kind: str = "edge"
) -> dict[str, Any]:
    return {"id": id, "from": _pt(a), "to": _pt(b), "owner": owner, "stroke": stroke, "kind": kind}


def piece(
    at: str,
    owner: int | None,
    kind: str = "piece",
    *,
    label: str | None = None,
    height: int = 1,
    facing: float | None = None,
    face_down: bool = False,
    shape: str = "disc",
    colour: str | None = None,
    picture: dict[str, Any] | None = None,
    detail: str | None = None,
    icon: str | None = None,
    name: str | None = None,
    badge: str | None = None,
    size: float | None = None,
) -> dict[str, Any]:
    """A :class:`Piece`; the optional keys are present only when given. With ``picture`` or ``icon`` it is drawn
    as that art on its shape (``label`` stays its text form).

    >>> piece("c3", 0, "elephant", icon="elephant", name="White's Elephant", badge="★")["icon"]
    'elephant'
    """
    p: dict[str, Any] = {
        "at": at,
        "owner": owner,
        "kind": kind,
        "label": label,
        "height": height,
        "facing": facing,
        "face_down": face_down,
        "shape": shape,
    }
    for key, v in (("colour", colour), ("picture", picture), ("detail", detail), ("icon", icon), ("name", name)):
        if v is not None:
            p[key] = v
    if badge is not None:
        p["badge"] = badge
    if size is not None:
        p["size"] = round(float(size), 3)
    return p


def caption(at: Point, text: str, *, size: float | None = None, anchor: str | None = None) -> dict[str, Any]:
    """A :class:`Caption`: words on the board (a grid's owner, a row's name).

    >>> caption((1.5, -0.2), "Orange", size=0.3)
    {'at': [1.5, -0.2], 'text': 'Orange', 'size': 0.3}
    """
    c: dict[str, Any] = {"at": _pt(at), "text": text}
    if size is not None:
        c["size"] = round(float(size), 3)
    if anchor is not None:
        c["anchor"] = anchor
    return c


#: Where a die's pips lie on a 6 x 6 grid, by face (1-6).
_PIP_SPOTS = {
    1: ((3, 3),),
    2: ((1.5, 1.5), (4.5, 4.5)),
    3: ((1.5, 1.5), (3, 3), (4.5, 4.5)),
    4: ((1.5, 1.5), (4.5, 1.5), (1.5, 4.5), (4.5, 4.5)),
    5: ((1.5, 1.5), (4.5, 1.5), (3, 3), (1.5, 4.5), (4.5, 4.5)),
    6: ((1.5, 1.2), (4.5, 1.2), (1.5, 3), (4.5, 3), (1.5, 4.8), (4.5, 4.8)),
}


def die_picture(face: int, colour: str = "#ffffff") -> dict[str, Any]:
    """A die's face as a :class:`Picture` (its pips, white by default), for a die standing on the board as a piece
    (an item of kind ``die`` draws its own pips).

    >>> len(die_picture(5)["fills"])
    5
    """
    octagon = [(0.62 * math.cos(math.pi * k / 4), 0.62 * math.sin(math.pi * k / 4)) for k in range(8)]
    spots = _PIP_SPOTS[int(face)]
    return picture((6, 6), fills=[[(x + dx, y + dy) for dx, dy in octagon] for x, y in spots], colour=colour)


def picture(
    grid: tuple[int, int],
    cells: Iterable[tuple[int, int]] = (),
    strokes: Iterable[Iterable[Point]] = (),
    colour: str | None = None,
    stroke_colours: Iterable[str] | None = None,
    *,
    fills: Iterable[Iterable[Point]] = (),
    unit: float | None = None,
) -> dict[str, Any]:
    """A :class:`Picture`: filled ``cells``, ``fills`` and/or ``strokes`` on a ``grid`` of ``(columns, rows)``.

    >>> picture((3, 2), cells=[(0, 0), (1, 0), (2, 0), (1, 1)])  # a T tetromino
    {'grid': [3, 2], 'cells': [[0, 0], [1, 0], [2, 0], [1, 1]]}
    >>> picture((1, 1), strokes=[[(0, 0), (1, 0)], [(0, 1), (1, 1)]], stroke_colours=["#d04040", "seat1"])
    {'grid': [1, 1], 'strokes': [[[0.0, 0.0], [1.0, 0.0]], [[0.0, 1.0], [1.0, 1.0]]], 'stroke_colours': ['#d04040', 'seat1']}
    """
    p: dict[str, Any] = {"grid": [int(grid[0]), int(grid[1])]}
    filled = [[int(c), int(r)] for c, r in cells]
    lines = [[_pt(q) for q in s] for s in strokes]
    shapes = [[_pt(q) for q in f] for f in fills]
    if filled:
        p["cells"] = filled
    if shapes:
        p["fills"] = shapes
    if lines:
        p["strokes"] = lines
    if colour is not None:
        p["colour"] = colour
    if stroke_colours is not None:
        p["stroke_colours"] = list(stroke_colours)
    if unit is not None:
        p["unit"] = float(unit)
    return p


def item(
    id: str,
    label: str,
    kind: str = "card",
    *,
    face_down: bool = False,
    detail: str | None = None,
    value: int | str | None = None,
    suit: str | None = None,
    colour: str | None = None,
    owner: int | None = None,
    picture: dict[str, Any] | None = None,
    icon: str | None = None,
    name: str | None = None,
) -> dict[str, Any]:
    """An :class:`Item`; the optional keys are present only when given (older scenes stay as they were).

    ``owner`` colours a face-down card's back (default: its zone's owner), unless
    ``colour`` gives the back a colour of its own. A die's
    ``value`` 1-6 is drawn as pips.
    """
    it: dict[str, Any] = {"id": id, "label": label, "kind": kind, "face_down": face_down, "detail": detail}
    optional = (
        ("value", value), ("suit", suit), ("colour", colour), ("owner", owner),
        ("picture", picture), ("icon", icon), ("name", name),
    )  # fmt: skip
    for key, v in optional:
        if v is not None:
            it[key] = v
    return it


def zone(
    id: str, title: str, items: list[dict[str, Any]], owner: int | None = None, *, columns: int | None = None
) -> dict[str, Any]:
    """A :class:`Zone`; with ``columns``, its items are drawn as a grid that many wide (a city of 5x5 places)."""
    z: dict[str, Any] = {"id": id, "title": title, "owner": owner, "items": items}
    if columns is not None:
        z["columns"] = columns
    return z


def player(seat: int, name: str, detail: str | None = None, colour: str | None = None) -> dict[str, Any]:
    """A seat as shown; ``colour`` defaults to the seat's palette colour."""
    return {
        "seat": seat,
        "name": name,
        "colour": colour or SEAT_COLOURS[seat % len(SEAT_COLOURS)],
        "detail": detail,
    }


def finish_scene(scene: dict[str, Any], legal: Sequence[tuple[int, str]]) -> dict[str, Any]:
    """Add a button for every legal action that has no click target; drop targets that are not legal."""
    legal_map = dict(legal)
    scene["targets"] = [t for t in scene["targets"] if t["action"] in legal_map]
    targeted = {t["action"] for t in scene["targets"]}
    have = {b["action"] for b in scene["buttons"]}
    scene["buttons"] = [b for b in scene["buttons"] if b["action"] in legal_map]
    for a, label in legal:
        if a not in targeted and a not in have:
            scene["buttons"].append({"action": a, "label": label})
    return scene


def button(action: int, label: str, *, confirm: str | None = None) -> dict[str, Any]:
    """A :class:`Button`; ``confirm`` is a warning the player confirms before the action is played.

    >>> button(7, "fly north", confirm="Your dragon flies off the board: you lose at once.")["confirm"]
    'Your dragon flies off the board: you lose at once.'
    """
    b: dict[str, Any] = {"action": action, "label": label}
    if confirm:
        b["confirm"] = confirm
    return b


# -- checking a scene ---------------------------------------------------------------------


def check_scene(scene: dict[str, Any], legal: Sequence[tuple[int, str]]) -> list[str]:
    """Problems with a scene (empty list when it is well formed); used by the conformance suite.

    First the scene must fit :func:`scene_schema` (types, keys, lengths); then
    targets and pieces must name places or items, ids must be unique, every legal
    action must be reachable (a target or a button), and pictures must stay on
    their grid.
    """
    try:
        json.dumps(scene, allow_nan=False)
    except (TypeError, ValueError) as e:
        return [f"scene is not JSON-able: {e}"]
    problems = schema_problems(scene, _schema_once())
    if problems:
        return problems[:20]
    places = {c["id"] for c in scene["cells"]} | {e["id"] for e in scene["edges"]}
    items = [i for z in scene["zones"] for i in z["items"]]
    item_ids = {i["id"] for i in items}
    if len(places) != len(scene["cells"]) + len(scene["edges"]):
        problems.append("two cells or edges share an id")
    if len(item_ids) != len(items):
        problems.append("two zone items share an id")
    legal_actions = {a for a, _ in legal}
    reachable = set()
    for t in scene["targets"]:
        if t["at"] not in places and t["at"] not in item_ids:
            problems.append(f"target {t} names no cell, edge or item")
        if "with" in t and t["with"] not in item_ids:
            problems.append(f"target {t} is played with no zone item")
        for step in t.get("steps", ()):
            if step not in places and step not in item_ids:
                problems.append(f"target {t['label']!r} has a step {step!r} that names no cell, edge or item")
        if t["action"] not in legal_actions:
            problems.append(f"target {t} is not a legal action")
        reachable.add(t["action"])
    for b in scene["buttons"]:
        if b["action"] not in legal_actions:
            problems.append(f"button {b} is not a legal action")
        reachable.add(b["action"])
    missing = legal_actions - reachable
    if missing:
        problems.append(f"legal actions with neither target nor button: {sorted(missing)[:10]}")
    for p in scene["pieces"]:
        if p["at"] not in places and p["at"] not in item_ids:
            problems.append(f"piece at unknown place {p['at']!r}")
        if p.get("picture"):
            problems += _picture_problems(p["picture"], f"piece at {p['at']!r}")
    for i in items:
        problems += _item_problems(i)
    return problems


def _item_problems(it: Mapping[str, Any]) -> list[str]:
    out = []
    value = it.get("value")
    if it["kind"] == "die" and value is not None and not (isinstance(value, int) and value >= 1):
        out.append(f"die {it['id']!r} shows {value!r}, not a whole number from 1")
    pic = it.get("picture")
    if pic:
        out += _picture_problems(pic, repr(it["id"]))
    return out


def _picture_problems(pic: Mapping[str, Any], whose: str) -> list[str]:
    out = []
    cols, rows = pic["grid"]
    if any(not (0 <= c < cols and 0 <= r < rows) for c, r in pic.get("cells", ())):
        out.append(f"picture of {whose} fills a square off its {cols}x{rows} grid")
    points = [q for part in ("strokes", "fills") for s in pic.get(part, ()) for q in s]
    if any(not (0 <= x <= cols and 0 <= y <= rows) for x, y in points):
        out.append(f"picture of {whose} draws off its {cols}x{rows} grid")
    return out


if __name__ == "__main__":  # regenerate web/scene.schema.json
    print(scene_schema_json(), end="")
