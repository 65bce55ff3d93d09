"""Pictures of positions: the rules pages' diagrams and the lobby's picture of each game.

A picture is a position's *scene* (:mod:`boardlab.core.scene`), drawn in the
browser by the same renderer as a table (``web/js/render.js``), so a diagram
looks exactly like the game. Positions are named as data, never drawn by hand:
a game, its options and number of players, and how the game got there, either
a list of moves by their labels (chance outcomes too, as the move log words
them) or a number of moves of seeded random play.

A rules document asks for a diagram with a fenced block whose language is
``position``, one ``key: value`` per line::

    ```position
    moves: e5; d4; e4
    options: board_side=5
    players: 2
    caption: Blue's three stones...
    ```

Keys: ``moves`` (labels separated by ``;``), or ``random`` (a number of moves)
with ``seed``; ``options`` (``name=value`` separated by spaces), ``players``,
``view`` (the seat whose view is drawn; default the spectator's, so a diagram
never shows a hand the rules do not mean to show) and ``caption``. The page
shows the caption and the last move in words under the picture.

Every picture is the view of a spectator or of the named seat, built by the
game's own ``scene(observation, [])``: hidden information stays hidden.
"""

from __future__ import annotations

import html
import json
import random
import re
from functools import lru_cache
from typing import Any

from ..core.driver import apply_entry, next_decision, sample_chance
from ..core.game import State
from ..core.wording import COLOUR_WORDS, for_players
from ..docs import typical_moves
from ..games import make_cached
from .seatnames import base_name
from .views import scene_words

#: How far into a typical game the lobby's picture is taken (a share of its measured length in moves).
PICTURE_SHARE = 0.4
#: The lobby picture's seed (any fixed number: the same picture every time).
PICTURE_SEED = 7


class PositionError(ValueError):
    """A ``position`` block that names no reachable position (an unknown key, move or option)."""


def parse_block(text: str) -> dict[str, str]:
    """The ``key: value`` lines of a ``position`` block (keys lower-case; blank lines and ``#`` comments skipped)."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        key = key.strip().lower()
        if not sep or key not in ("moves", "random", "seed", "options", "players", "view", "caption"):
            raise PositionError(f"a position block line must be 'key: value' with a known key; got {line!r}")
        out[key] = value.strip()
    return out


def _options(game_id: str, text: str) -> dict[str, Any]:
    game = make_cached(game_id)
    declared = {o.name: o for o in game.options}
    out: dict[str, Any] = {}
    for pair in text.split():
        name, _, value = pair.partition("=")
        if name not in declared:
            raise PositionError(f"{game_id} has no option {name!r}")
        try:
            out[name] = declared[name].coerce(game_id, value)
        except ValueError as e:  # the option's own message
            raise PositionError(str(e)) from e
    return out


#: How many more steps random play takes, past the moves asked for, to finish the turn it is in.
TURN_STEPS = 30


def _random_moves(state: State, moves: int, seed: int) -> None:
    """Play ``moves`` decisions of random play, or to the end; chance in between (and after) drawn too.

    A turn of several steps (a piece, then its stones) is played to its end, so a diagram never stops
    half-way through one: after the moves asked for, the seat that made the last one goes on while it is
    still to play (at most :data:`TURN_STEPS` more steps).
    """
    rng = random.Random(seed)
    made = 0
    last: tuple[int, ...] | None = None
    while not state.is_terminal():
        d = next_decision(state)
        if d.kind == "chance":
            apply_entry(state, sample_chance(state, rng))
            continue
        if made >= moves and (d.kind != "seat" or d.seats != last or made >= moves + TURN_STEPS):
            break
        last = d.seats if d.kind == "seat" else None
        if d.kind == "seat":
            apply_entry(state, rng.choice(state.legal_actions(d.seats[0])))
        else:
            joint = [rng.choice(state.legal_actions(p)) if p in d.seats else None for p in range(state.num_players)]
            apply_entry(state, joint)
        made += 1


def _listed_moves(state: State, labels: list[str]) -> None:
    for k, label in enumerate(labels, 1):
        if state.is_terminal():
            raise PositionError(f"move {k} ({label!r}) comes after the end of the game")
        d = next_decision(state)
        try:
            if d.kind == "simultaneous":
                parts = [p.strip() for p in label.split("|")]
                if len(parts) != len(d.seats):
                    raise PositionError(f"move {k}: give one choice per player, separated by '|'")
                joint: list[int | None] = [None] * state.num_players
                for seat, part in zip(d.seats, parts, strict=True):
                    joint[seat] = state.string_to_action(seat, part)
                apply_entry(state, joint)
            else:
                player = d.seats[0] if d.kind == "seat" else None
                apply_entry(state, state.string_to_action(player, label))
        except PositionError:
            raise
        except Exception as e:
            raise PositionError(f"move {k} ({label!r}) is not legal there: {e}") from e


def position(game_id: str, block: dict[str, str]) -> State:
    """The state a parsed ``position`` block names."""
    game = make_cached(game_id, **_options(game_id, block.get("options", "")))
    players = int(block["players"]) if block.get("players") else game.default_players or game.min_players
    state = game.new_initial_state(players)
    if "moves" in block:
        _listed_moves(state, [m.strip() for m in block["moves"].split(";") if m.strip()])
    else:
        _random_moves(state, int(block.get("random") or 0), int(block.get("seed") or 0))
    return state


_SEAT_AND_COLOUR = re.compile(r"^[Ss]eat \d+ \((.*)\)$")


def seat_words(state: State, scene: dict[str, Any]) -> tuple[list[str], list[str | None]]:
    """Each seat's name as a table names an unnamed human seat ("Red", else "Player 2"), and its colour word."""
    players = scene.get("players") or []
    names: list[str] = []
    colours: list[str | None] = []
    for seat in range(state.num_players):
        declared = seat < len(state.game.seat_names) and bool(state.game.seat_names[seat])
        p = players[seat] if seat < len(players) and isinstance(players[seat], dict) else {}
        m = _SEAT_AND_COLOUR.match(str(p.get("name") or ""))
        colour = base_name(state.game, seat) if declared else m.group(1) if m and m.group(1) in COLOUR_WORDS else None
        colours.append(colour)
        names.append(colour or base_name(state.game, seat))
    return names, colours


def _last_move(state: State, viewer: int | None, names: list[str], colours: list[str | None]) -> str:
    log = state.move_log(viewer)
    if not log:
        return ""
    last = log[-1]
    actor = last.get("actor")
    who = names[actor] if isinstance(actor, int) and 0 <= actor < len(names) else ""
    text = for_players(str(last.get("text") or ""), names, colours)
    if who and who.lower() in text.lower().split(" ")[:2]:  # "The spider moves…" names its actor itself
        who = ""
    return f"{who} {text}".strip().rstrip(".")


def _scene(state: State, viewer: int | None) -> tuple[dict[str, Any], list[str], list[str | None]]:
    """The viewer's scene (nothing to click), its words naming the seats as a table does."""
    scene = state.game.scene(state.observation(viewer), [])
    names, colours = seat_words(state, scene)
    return scene_words(scene, names, colours), names, colours


def diagram(game_id: str, text: str) -> dict[str, Any]:
    """A ``position`` block's picture: ``{"scene", "caption", "last_move"}`` (``PositionError`` if bad)."""
    block = parse_block(text)
    state = position(game_id, block)
    view = block.get("view")
    viewer = int(view) if view not in (None, "") else None
    scene, names, colours = _scene(state, viewer)
    return {"scene": scene, "caption": block.get("caption", ""), "last_move": _last_move(state, viewer, names, colours)}


def _script_json(data: Any) -> str:
    """JSON safe inside ``<script type="application/json">`` (no ``</script>``, no HTML comment)."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c").replace(">", "\\u003e")


def diagram_html(game_id: str, text: str) -> str:
    """A ``position`` block as the rules page's figure: the scene for the renderer, the caption and the last move.

    A block that names no position is shown as a note in the page (the document needs fixing), never an error page.
    """
    try:
        d = _cached_diagram(game_id, text)
    except (PositionError, ValueError) as e:
        return f"<p class='diagram-error'>This diagram could not be drawn: {html.escape(str(e))}</p>\n"
    caption = html.escape(d["caption"])
    last = html.escape(d["last_move"])
    lines = (f"<span class='caption'>{caption}</span>" if caption else "") + (
        f" <span class='last-move'>Last move: {last}.</span>" if last else ""
    )
    label = html.escape(d["caption"] or "A position of the game")
    return (
        f"<figure class='diagram' role='img' aria-label='{label}'>"
        "<div class='diagram-view'><div class='board-wrap'></div><div class='zones'></div></div>"
        f"<script type='application/json' class='diagram-scene'>{_script_json(d['scene'])}</script>"
        f"<figcaption>{lines}</figcaption></figure>\n"
    )


@lru_cache(maxsize=256)
def _cached_diagram(game_id: str, text: str) -> dict[str, Any]:
    return diagram(game_id, text)


@lru_cache(maxsize=64)
def game_picture(game_id: str) -> dict[str, Any]:
    """The lobby's picture of a game: the spectator's view some way into a seeded random game, at default options.

    Taken :data:`PICTURE_SHARE` of the way through a typical game (its measured length, docs/balance), so the
    board shows pieces in play rather than an empty start.
    """
    typical = typical_moves(game_id) or 20
    moves = max(1, round(typical * PICTURE_SHARE))
    state = position(game_id, {"random": str(moves), "seed": str(PICTURE_SEED)})
    return _scene(state, None)[0]
