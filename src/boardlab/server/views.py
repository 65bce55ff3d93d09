"""What one seat (or a spectator) sees of a table: the JSON the browser renders.

Everything here is built from ``state.observation(seat)`` / ``state.scene(seat)``,
the core's per-viewer move log and public table facts. Hidden information is
never put in another seat's view: the move log is what the game says each
viewer saw of each step (:mod:`boardlab.core.hidden`), everything once the game
is over, and sealed simultaneous choices are reported only as "submitted".
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.constants import SIMULTANEOUS, TERMINAL
from ..core.driver import advance, next_decision, result_text
from ..core.hidden import SeenLog
from ..core.record import outcome
from ..core.scene import SEAT_COLOURS
from ..core.wording import COLOUR_WORDS, for_players
from . import clock as clocks
from .chance import SEEDED_NOTICE
from .endings import ending_text
from .errors import bad_request
from .seatnames import agent_label, base_name, is_given

if TYPE_CHECKING:
    from .live import LiveTable


#: Board geometry by id (JSON text), bounded; and per game the last shapes seen with their id.
_GEOMETRY_TEXT: OrderedDict[str, str] = OrderedDict()
_LAST: dict[int, tuple[tuple[list[Any], ...], str]] = {}
MAX_GEOMETRIES = 512
#: A game's name for a seat that repeats its number: "seat 0 (Red)" (the players list says the colour alone).
_SEAT_AND_COLOUR = re.compile(r"^[Ss]eat \d+ \((.*)\)$")
#: Each live table's per-entry ``Seen`` list, extended as moves come (by table id), bounded.
_SEEN: OrderedDict[str, SeenLog] = OrderedDict()
MAX_SEEN_LOGS = 1024


def compact_scene(scene: dict[str, Any], slot: int = 0) -> dict[str, Any]:
    """The scene with its cell and edge shapes replaced by a geometry id (live views only).

    Shapes (ids, centres, polygons, radii, labels, kinds, edge ends) rarely
    change during a game but make up most of a scene's bytes; they are sent
    once (``GET /api/geometry/{id}``, or a ``geometry`` WebSocket message) and
    each view carries only what changes: ``cell_fills`` and ``edge_styles``
    (``[owner, stroke]``), in the same order. The browser puts them back
    together, so the renderer still sees exactly the game's scene. ``slot``
    (one per game object) only speeds up recognising shapes seen before: they
    are compared for equality, never assumed.
    """
    cells = scene.get("cells") or []
    edges = scene.get("edges") or []
    if not cells and not edges:
        return scene
    parts = (
        [c["id"] for c in cells],
        [c["center"] for c in cells],
        [c["polygon"] for c in cells],
        [c["radius"] for c in cells],
        [c["label"] for c in cells],
        [c["kind"] for c in cells],
        [e["id"] for e in edges],
        [e["from"] for e in edges],
        [e["to"] for e in edges],
        [e["kind"] for e in edges],
    )
    last = _LAST.get(slot)
    if last is not None and last[0] == parts and last[1] in _GEOMETRY_TEXT:
        gid = last[1]
    else:
        shapes = {
            "cells": [{k: v for k, v in c.items() if k != "fill"} for c in cells],
            "edges": [{k: v for k, v in e.items() if k not in ("owner", "stroke")} for e in edges],
        }
        text = json.dumps(shapes, separators=(",", ":"))
        gid = hashlib.sha256(text.encode()).hexdigest()[:20]
        _GEOMETRY_TEXT[gid] = text[:-1] + f',"id":"{gid}"}}'
        _GEOMETRY_TEXT.move_to_end(gid)
        while len(_GEOMETRY_TEXT) > MAX_GEOMETRIES:
            _GEOMETRY_TEXT.popitem(last=False)
        _LAST[slot] = (parts, gid)
        if len(_LAST) > 4 * MAX_GEOMETRIES:
            _LAST.clear()
    out = {k: v for k, v in scene.items() if k not in ("cells", "edges")}
    out["geometry"] = gid
    out["cell_fills"] = [c.get("fill") for c in cells]
    out["edge_styles"] = [[e.get("owner"), e.get("stroke")] for e in edges]
    return out


def geometry_text(gid: str) -> str | None:
    """The JSON of a geometry sent in views (``None`` if unknown here)."""
    return _GEOMETRY_TEXT.get(gid)


def seat_name(table: LiveTable, seat: int) -> str:
    return str(table.seats[seat]["name"])


def seat_colour_word(table: LiveTable, scene: dict[str, Any], seat: int) -> str | None:
    """The colour the game calls ``seat`` by now: its declared seat name, else the colour the scene's players list
    says ("seat 0 (Red)": Red; a pie rule may have swapped it), else ``None``."""
    if seat < len(table.game.seat_names) and table.game.seat_names[seat]:
        return base_name(table.game, seat)
    players = scene.get("players") or []
    p = next((x for x in players if isinstance(x, dict) and x.get("seat") == seat), None)
    if p is None and len(players) == table.state.num_players and isinstance(players[seat], dict):
        p = players[seat]
    m = _SEAT_AND_COLOUR.match(str((p or {}).get("name") or ""))
    return m.group(1) if m and m.group(1) in COLOUR_WORDS else None  # "seat 0 (you)" names no colour


def table_names(table: LiveTable, scene: dict[str, Any]) -> tuple[list[str], list[str | None]]:
    """Each seat's one name at the table, and the colour the game calls it by.

    The name is the one its player chose, else the game's colour for the seat ("Red"), else "Player 2": the banner,
    the log, the scene's words and the seat list all say it, and the game's own colour words for a seat whose player
    chose a name read as that name (:func:`~boardlab.core.wording.for_players`).
    """
    colours = [seat_colour_word(table, scene, s) for s in range(table.state.num_players)]
    names = []
    for s, spec in enumerate(table.seats):
        given = is_given(spec.get("name"), table.game, s, spec)
        names.append((colours[s] or base_name(table.game, s)) if given else str(spec["name"]))
    return names, colours


def listed_name(table: LiveTable, seat: int, names: list[str]) -> str:
    """The seat list's name: the table's name for the seat, an unnamed AI seat's level after it ("Red (hard AI)")."""
    spec = table.seats[seat]
    if spec["kind"] == "ai" and is_given(spec.get("name"), table.game, seat, spec):
        return f"{names[seat]} ({agent_label(spec.get('agent'))} AI)"
    return names[seat]


def to_act(table: LiveTable) -> list[int]:
    """Seats that must decide now (at a simultaneous node: those that have not submitted)."""
    d = next_decision(table.state)
    if d.kind == "simultaneous":
        return [s for s in d.seats if s not in table.pending]
    return list(d.seats)


def log_entries(
    table: LiveTable, viewer: int | None, words: tuple[list[str], list[str | None]] | None = None
) -> list[list[Any]]:
    """The move log in words, as far as ``viewer`` may know it: ``[actor, text]`` per line of the core's log.

    ``actor`` is a seat, ``-1`` (chance) or ``-2`` (everyone at once); the browser
    names seats from the view's seat list. The text is what the game says
    ``viewer`` saw of that step (``State.move_log``); everything once the game is
    over. A game's setup chance may be summarised in one line. ``words`` are :func:`table_names` (else the seats'
    chosen names).
    """
    state = table.state
    log = _SEEN.get(table.id)
    if log is None or log.game is not state.game or log.num_players != state.num_players:
        log = SeenLog(state.game, state.num_players)
    _SEEN[table.id] = log
    _SEEN.move_to_end(table.id)
    while len(_SEEN) > MAX_SEEN_LOGS:
        _SEEN.popitem(last=False)
    chosen, colours = words if words is not None else ([str(x) for x in table.names()], [])
    names = ["you" if s == viewer else str(chosen[s]) for s in range(state.num_players)]
    rows = log_rows(log.lines(state, viewer), names)
    out = [[actor, for_players(str(text), chosen, colours)] for actor, text in rows]
    if table.ending is not None:  # how the table ended it: the log's last line (a platform event, not a move)
        seat = table.ending.get("seat")
        out.append([seat if isinstance(seat, int) else SIMULTANEOUS, ending_text(state.game, table.ending, chosen)])
    return out


def seat_detail(
    scene: dict[str, Any], seat: int, name: str, names: list[str], colours: Sequence[str | None] = ()
) -> str:
    """What the game says of ``seat`` beside its name in the players list, in players' words: its colour or side
    ("Red", not "seat 0 (Red)"), then the game's detail ("3 cards in hand"); nothing said twice, nor the name again
    (Trivalent's "Blue" seat is not "Blue · Blue")."""
    players = scene.get("players") or []
    p = players[seat] if len(players) == len(names) and isinstance(players[seat], dict) else {}
    own = _SEAT_AND_COLOUR.sub(r"\1", str(p.get("name") or ""))
    own = "" if own == "you" else own[: -len(" (you)")] if own.endswith(" (you)") else own  # the list says "you"
    parts: list[str] = []
    for x in (own, for_players(str(p.get("detail") or ""), names, colours)):
        if x and x.lower() not in (name.lower(), f"seat {seat}") and x.lower() not in (y.lower() for y in parts):
            parts.append(x)
    return " · ".join(parts)


def log_rows(lines: list[dict[str, Any]], names: list[str]) -> list[list[Any]]:
    """The core's log lines as the browser shows them: ``[actor, text]``, a simultaneous step's parts named."""
    out: list[list[Any]] = []
    for line in lines:
        if line["actor"] == SIMULTANEOUS:
            parts = [f"{names[s]}: {text}" for s, text in enumerate(line["parts"]) if text is not None]
            out.append([line["actor"], "revealed together — " + "; ".join(parts)])
        else:
            out.append([line["actor"], line["text"]])
    return out


def log_after(table: LiveTable, viewer: int | None) -> list[int]:
    """For each line of ``viewer``'s log (:func:`log_entries`), how many history entries lie behind it.

    The table page asks for the position after a line with that number (:func:`position_view`); a setup
    line that sums up several chance entries stands for all of them.
    """
    log = _SEEN.get(table.id)
    if log is None or log.game is not table.state.game or log.num_players != table.state.num_players:
        log_entries(table, viewer)
        log = _SEEN[table.id]
    after = [line["step"] + line.get("steps", 1) for line in log.lines(table.state, viewer)]
    return [*after, table.state.move_number()] if table.ending is not None else after


def position_view(table: LiveTable, viewer: int | None, step: int) -> dict[str, Any]:
    """The position after the first ``step`` history entries of a live table, as ``viewer`` saw it then.

    Only that viewer's observation of that earlier state is drawn (a spectator's when ``viewer`` is ``None``):
    what a seat saw at the time, never a card hidden from it, however the game went on. Nothing can be
    played from it (no targets). ``ApiError`` 400 for a step outside ``0..moves so far``.
    """
    state = table.state
    history = state.history()
    if not 0 <= step <= len(history):
        raise bad_request(f"step must lie between 0 and {len(history)}; got {step}")
    past = advance(state.game.new_initial_state(state.num_players), history[:step])
    scene = state.game.scene(past.observation(viewer), [])
    return {"step": step, "steps": len(history), "seat": viewer, "scene": scene}


def scene_words(
    scene: dict[str, Any], names: Sequence[str | None], colours: Sequence[str | None] = ()
) -> dict[str, Any]:
    """The scene with the table's names in its words (:meth:`LiveTable.names`: chosen, else "Player 2"): status
    lines, zone titles, card details and names, pieces' names and the words on the board (captions).

    Only text a player reads is touched (never ids, labels or targets, which name actions); with no names the
    scene is the game's own, unchanged.

    >>> s = {"status": ["seat 1: 2 rounds"], "zones": [{"id": "z", "title": "Seat 1's card", "items": []}]}
    >>> scene_words(s, [None, "Bo"])["zones"][0]["title"], scene_words(s, [None, "Bo"])["status"]
    ("Bo's card", ['Bo: 2 rounds'])
    >>> scene_words({"players": [{"seat": 1, "name": "seat 1 (Orange)"}]}, ["Ann", "Bo"], ["Blue", "Orange"])["players"]
    [{'seat': 1, 'name': 'Bo'}]
    >>> scene_words(s, [None, None]) is s
    True
    """
    if not any(names):
        return scene

    out = dict(scene)
    status = scene.get("status")
    if isinstance(status, list):
        out["status"] = [for_players(x, names, colours) if isinstance(x, str) else x for x in status]
    elif isinstance(status, str):
        out["status"] = for_players(status, names, colours)
    zones = []
    for zone in scene.get("zones") or []:
        z = dict(zone)
        if isinstance(z.get("title"), str):
            z["title"] = for_players(z["title"], names, colours)
        z["items"] = [_words_of(item, ("detail", "name"), names, colours) for item in zone.get("items") or []]
        zones.append(z)
    if "zones" in scene:
        out["zones"] = zones
    if "captions" in scene:  # words on the board: "Orange's troops"
        out["captions"] = [_words_of(c, ("text",), names, colours) for c in scene.get("captions") or []]
    if "pieces" in scene:  # a piece's tooltip: "White's Elephant"
        out["pieces"] = [_words_of(p, ("detail", "name"), names, colours) for p in scene.get("pieces") or []]
    if "players" in scene:  # the seats as a piece's tooltip names its owner: "stone (Bo)", not "seat 1 (Orange)"
        out["players"] = [_words_of(p, ("name", "detail"), names, colours) for p in scene.get("players") or []]
    return out


def _words_of(part: Any, keys: tuple[str, ...], names: list[str | None], colours: list[str]) -> Any:
    """``part`` (a scene's item, piece or caption) with its player-read texts under ``keys`` in the table's names."""
    if not isinstance(part, dict) or not any(isinstance(part.get(k), str) for k in keys):
        return part
    return {**part, **{k: for_players(part[k], names, colours) for k in keys if isinstance(part.get(k), str)}}


def seat_colours(table: LiveTable, scene: dict[str, Any]) -> list[str]:
    """Each seat's colour: the scene's ``players`` entry for that seat, else the seat's palette colour."""
    n = table.state.num_players
    cols = [SEAT_COLOURS[s % len(SEAT_COLOURS)] for s in range(n)]
    for k, p in enumerate(scene.get("players") or []):
        if not isinstance(p, dict):
            continue
        seat = p.get("seat", k)
        c = p.get("colour")
        if isinstance(seat, int) and 0 <= seat < n and isinstance(c, str) and c:
            cols[seat] = c
    return cols


def build_view(table: LiveTable, seat: int | None, *, can_undo: bool = False) -> dict[str, Any]:
    state = table.state
    cp = state.current_player()
    terminal = cp == TERMINAL or table.over  # over by the rules, or a seat lost on time
    acting = [] if terminal else to_act(table)
    # once the game is over nobody is still choosing (a choice left pending shows nowhere)
    pending = {} if terminal else table.pending
    submitted_seats = sorted(pending)
    mine_pending = pending.get(seat) if seat is not None else None
    if seat is not None and seat in acting:
        legal = state.legal_moves(seat)
        scene = state.game.scene(state.observation(seat), legal)
    else:
        legal = []
        scene = state.game.scene(state.observation(seat), [])
    result = outcome(table.returns()) if terminal else None
    if result is not None and table.aborted:  # no result: nobody won, nobody lost, and it is no draw
        result = {**result, "draw": False, "aborted": True}
    colours = seat_colours(table, scene)
    thinking = sorted(table.thinking)
    chosen, colour_words = table_names(table, scene)
    listed = [listed_name(table, s, chosen) for s in range(state.num_players)]
    game_scene, scene = scene, scene_words(scene, chosen, colour_words)
    seats = [
        {
            "seat": s,
            "name": listed[s],
            "kind": spec["kind"],
            "agent": spec.get("agent"),
            "colour": colours[s],
            "present": spec["kind"] == "ai" or s in table.present_anywhere,
            "thinking": s in table.thinking,
            "to_act": s in acting,
            "submitted": s in pending,
            "you": s == seat,
            "detail": seat_detail(game_scene, s, chosen[s], chosen, colour_words),  # the game's own words for the seat
        }
        for s, spec in enumerate(table.seats)
    ]
    prompt = for_players(str(scene.get("prompt") or ""), chosen, colour_words)  # the banner's words
    rematch = table.rematch_for(seat) if terminal else None
    if terminal and table.ending is not None and table.forfeit is None:  # the players ended it: say how
        text = ending_text(table.game, table.ending, chosen)
        title = "Game aborted" if table.aborted else result_text(table.game, table.returns(), chosen, seat)
        banner = {"kind": "result", "title": title, "detail": text}
    elif terminal:
        lost = table.forfeit
        detail = f"{chosen[lost]} ran out of time." if lost is not None else prompt
        banner = {"kind": "result", "title": result_text(table.game, table.returns(), chosen, seat), "detail": detail}
    elif seat is not None and seat in acting:
        title = "Your turn" if cp >= 0 else "Your choice (secret until everyone has chosen)"
        banner = {"kind": "turn", "title": title, "detail": prompt}
    elif mine_pending is not None:
        waiting = [listed[s] for s in acting]
        who = " and ".join(waiting) if waiting else "the other players"
        others = "the other player" if len(acting) == 1 else "the other players"
        banner = {
            "kind": "submitted",
            "title": f"Waiting for {others}",
            "detail": f"You chose {state.action_to_string(seat, mine_pending)}; waiting for {who}. "
            "Choices are revealed together.",
        }
    elif thinking:
        names = " and ".join(listed[s] for s in thinking)
        banner = {
            "kind": "think",
            "title": f"{names} {'is' if len(thinking) == 1 else 'are'} thinking…",
            "detail": prompt,
        }
    elif acting:
        names = " and ".join(listed[s] for s in acting)
        verb = "to choose" if cp == SIMULTANEOUS else "to move"
        banner = {"kind": "wait", "title": f"Waiting for {names} {verb}", "detail": prompt}
    else:
        banner = {"kind": "wait", "title": "Waiting", "detail": prompt}
    return {
        "table": table.summary(),
        "revision": table.revision,
        "move_number": state.move_number(),
        "seat": seat,
        "seats": seats,
        "current": cp,
        "to_act": acting,
        "your_turn": seat is not None and seat in acting,
        "submitted": state.action_to_string(seat, mine_pending) if mine_pending is not None else None,
        "submitted_seats": submitted_seats,
        "thinking": thinking,
        "terminal": terminal,
        "result": result,
        "banner": banner,
        "scene": compact_scene(scene, id(table.game)),
        "legal": [[a, label] for a, label in legal],
        "can_undo": can_undo,
        "undo_label": "Withdraw my choice" if mine_pending is not None else "Undo",
        "log": log_entries(table, seat, (chosen, colour_words)),
        "log_after": log_after(table, seat),
        "record_available": terminal or table.game.perfect_information,
        "notes": list(table.notes[-5:]),
        "rematch": rematch,
        "spectator": seat is None,
        "open": table.open_watch is not None,
        "free_seats": table.free_seats(),
        "clock": clock_view(table, acting),
        "seed_notice": SEEDED_NOTICE if table.chance_key is None else None,
    }


def clock_view(table: LiveTable, acting: list[int]) -> dict[str, Any] | None:
    """The turn clock as the page shows it: per seat the seconds left now, and which seats' time is running."""
    c = table.clock
    if c is None:
        return None
    now = time.time()
    running = [s for s in acting if table.seats[s]["kind"] == "human"] if c.get("since") is not None else []
    return {
        "kind": c["kind"],
        "seconds": c["seconds"],
        "left": [round(clocks.remaining(c, s, running, now), 2) for s in range(len(table.seats))],
        "running": running,
        "text": clocks.describe(c),
        "rule": table.game.timeout_rule(),
    }
