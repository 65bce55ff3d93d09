"""The scene: how a view of the game looks, for generic front-ends.

A game's ``scene(observation, legal)`` returns a JSON-able dict with these keys
(front-ends render only this, so adding a game needs no front-end code):

``viewbox``
    ``[x, y, width, height]`` of the board drawing (any unit; y grows downwards).
``cells``
    places on the board: ``{"id", "center": [x, y], "polygon": [[x, y], …] | None,
    "radius": r | None, "fill": colour | None, "label": coordinate | None,
    "kind": "cell" | "point"}``. A polygon draws a hex, square or triangle; a
    point (vertex) is drawn as a small circle of ``radius``.
``edges``
    segments: ``{"id", "from": [x, y], "to": [x, y], "owner", "stroke", "kind"}``:
    grid lines, edges one can claim, trails. An owned edge is drawn heavy, in
    its ``stroke`` colour when given, else its owner's seat colour.
``pieces``
    ``{"at": cell or edge id, "owner": seat | None, "kind", "label", "height",
    "facing": degrees clockwise from up | None, "face_down", "shape"}``, and
    optionally ``"colour"``: a palette name or ``#rrggbb`` for a piece whose
    colour is not its owner's (neutral pieces of several colours).
``zones``
    card and dice areas: ``{"id", "title", "owner", "items": [{"id", "label",
    "kind": "card" | "token" | "die" | "coin" | "counter", "face_down", "detail"}]}``.
``highlights``
    ``{"at": id, "kind": "last" | "selected" | "warning" | "hint"}``.
``targets``
    click targets: ``{"at": id, "action": int, "label"}``, ``at`` naming a cell,
    an edge or a zone item. Several targets may share a place (a chooser then
    appears).
``buttons``
    ``{"action", "label"}``: legal actions with no place on the board (pass,
    lock, trade…). :func:`finish_scene` adds every legal action that has no
    target, so every legal action is always reachable.
``prompt``
    one sentence: what the viewer must do now, or what is happening.
``status``
    short lines (scores, round, pool).
``players``
    ``{"seat", "name", "colour", "detail"}`` per seat.

Colours are palette names (``seat0``…``seat3``, ``light``, ``dark``,
``blocked``, ``neutral``, ``zone`` (an area under a rule's shadow, e.g. an
exclusion zone), ``warning``, ``region0``…) or ``#rrggbb``. A piece may carry
its own ``colour`` (e.g. neutral pieces of several colours, or a colour that is
not its seat's); players carry ``colour`` too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

#: Seat colours (Okabe-Ito, colour-blind safe), also used by the front-ends.
SEAT_COLOURS = ("#D55E00", "#0072B2", "#009E73", "#CC79A7")
SEAT_COLOUR_NAMES = ("vermillion", "blue", "green", "purple")

Point = Sequence[float]


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
) -> dict[str, Any]:
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
    if colour is not None:
        p["colour"] = colour
    return p


def item(
    id: str, label: str, kind: str = "card", *, face_down: bool = False, detail: str | None = None
) -> dict[str, Any]:
    return {"id": id, "label": label, "kind": kind, "face_down": face_down, "detail": detail}


def zone(id: str, title: str, items: list[dict[str, Any]], owner: int | None = None) -> dict[str, Any]:
    return {"id": id, "title": title, "owner": owner, "items": items}


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


def check_scene(scene: dict[str, Any], legal: Sequence[tuple[int, str]]) -> list[str]:
    """Problems with a scene (empty list when it is well formed); used by the conformance suite."""
    problems: list[str] = []
    try:
        json.dumps(scene)
    except (TypeError, ValueError) as e:
        return [f"scene is not JSON-able: {e}"]
    for key in ("viewbox", "cells", "edges", "pieces", "zones", "highlights", "targets", "buttons", "prompt"):
        if key not in scene:
            problems.append(f"scene lacks {key!r}")
    if problems:
        return problems
    places = {c["id"] for c in scene["cells"]} | {e["id"] for e in scene["edges"]}
    items = {i["id"] for z in scene["zones"] for i in z["items"]}
    legal_actions = {a for a, _ in legal}
    reachable = set()
    for t in scene["targets"]:
        if t["at"] not in places and t["at"] not in items:
            problems.append(f"target {t} names no cell, edge or item")
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
        if p["at"] not in places and p["at"] not in items:
            problems.append(f"piece at unknown place {p['at']!r}")
    return problems
