"""Seats' names: the ones the server gives seats nobody named, and the checks on the names people choose.

The server names an unnamed seat with the game's colour for it (declared in ``Game.seat_names``, else the one its
opening scene names: Blast Radius's "seat 0 (Red)"), else "Player 1", "Player 2" …; an AI seat adds its
level ("Blue (hard AI)"), never the agent's parameters. Players read these names in the banner, the seat list, the log
and the game's own words (where the game says "seat 1", the table says "Player 2"); "Seat 0" is how a programmer
counts, not a player.

A chosen name is read as people will see it (:func:`clean_name`): NFKC-normalised, with no invisible or
text-direction characters, and no other seat at the table may hold the same name, compared without case
(:func:`name_key`), so nobody can pass for another player.

>>> from boardlab.games import make_cached
>>> given_name(make_cached("cirque"), 1, "ai", "hard:seconds=0.5"), given_name(make_cached("hamlet"), 0, "human", None)
('Blue (hard AI)', 'Player 1')
>>> base_name(make_cached("blast-radius"), 0), base_name(make_cached("trivalent"), 1)
('Red', 'Orange')
>>> clean_name("  Ａnn   Lee "), name_key("ANN") == name_key("ann")
('Ann Lee', True)
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from ..agents import parse_agent_spec
from ..core.game import Game
from ..core.wording import COLOUR_WORDS

#: The longest name, in characters (after normalisation).
NAME_MAX = 32
#: Unicode categories a name may not contain: controls (Cc), format characters (Cf: zero-width characters and the
#: bidirectional marks, embeddings, overrides and isolates), surrogates, private-use and unassigned code points, and
#: line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: Unicode's default-ignorable code points outside those categories (DerivedCoreProperties.txt): they draw nothing.
#: Hangul fillers, the combining grapheme joiner, Khmer inherent vowels, Mongolian and other variation selectors.
INVISIBLE = frozenset(
    {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x3164, 0xFFA0}
    | set(range(0xFE00, 0xFE10))
    | set(range(0xE0100, 0xE01F0))
)


def clean_name(raw: Any) -> str:
    """A chosen name as people will read it (NFKC, runs of spaces made one); ``ValueError``, in players' words, for a
    name that is empty, too long, or holds characters that draw nothing, turn the text around or could be markup."""
    name = " ".join(unicodedata.normalize("NFKC", str(raw)).split())
    if len(name) > NAME_MAX:
        raise ValueError(f"a name is at most {NAME_MAX} characters; this one has {len(name)}")
    if any(unicodedata.category(ch) in REFUSED_CATEGORIES or ord(ch) in INVISIBLE for ch in name):
        raise ValueError("a name may not contain invisible characters or characters that change the text's direction")
    if "<" in name or ">" in name:
        raise ValueError("a name may not contain < or >")
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in name):
        raise ValueError("a name needs at least one visible letter, digit or sign")
    return name


def name_key(name: str) -> str:
    """What two names are compared by: the same key, the same name to a reader (NFKC, then case folded)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def holder(names: Sequence[Any], name: str, skip: int | None = None) -> int | None:
    """The seat (other than ``skip``) whose name reads as ``name``, else ``None``."""
    key = name_key(name)
    return next((s for s, other in enumerate(names) if s != skip and name_key(str(other)) == key), None)


def agent_label(agent: str | None) -> str:
    """An AI seat's level as players read it: the level or agent's name without its parameters (``hard``)."""
    try:
        name = parse_agent_spec(str(agent or ""))[0]
    except ValueError:
        name = ""
    return name or "computer"


#: ``(game id, options, players)`` -> the colour each seat's player list entry names at the start of a game
_OPENING: dict[tuple[str, str, int], tuple[str | None, ...]] = {}
_SEAT_AND_COLOUR = re.compile(r"^[Ss]eat \d+ \((.*)\)$")


def opening_colours(game: Game, players: int) -> tuple[str | None, ...]:
    """The colour a game that declares no seat names calls each seat by at the start, as its scene's players list
    says it ("seat 0 (Red)": Red), so the lobby, the create answer and the open tables say what the table will say;
    ``None`` for a seat it calls by no colour (Hamlet's "seat 1")."""
    key = (game.id, json.dumps(game.params, sort_keys=True, default=str), players)
    if key not in _OPENING:
        words: list[str | None] = [None] * players
        try:
            state = game.new_initial_state(players)
            scene = game.scene(state.observation(None), [])
            for k, p in enumerate((scene.get("players") or [])[:players]):
                m = _SEAT_AND_COLOUR.match(str(p.get("name") or "") if isinstance(p, dict) else "")
                words[k] = m.group(1) if m and m.group(1) in COLOUR_WORDS else None
        except Exception:  # a game whose opening cannot be drawn for a spectator names its seats by number
            pass
        _OPENING[key] = tuple(words)
    return _OPENING[key]


def base_name(game: Game, seat: int) -> str:
    """The seat's name without its kind: the game's colour for it (capitalised; declared, else the one its opening
    scene names), else ``Player N`` counted from 1."""
    names = game.seat_names
    if 0 <= seat < len(names) and names[seat]:
        colour = str(names[seat])
        return colour[:1].upper() + colour[1:]
    players = min(max(game.min_players, seat + 1), game.max_players)
    colours = opening_colours(game, players) if 0 <= seat < players else ()
    if seat < len(colours) and colours[seat]:
        return str(colours[seat])
    return f"Player {seat + 1}"


def given_name(game: Game, seat: int, kind: str, agent: str | None) -> str:
    """The name the server gives an unnamed seat: ``Red``, ``Player 2`` or, for an AI, ``Red (hard AI)``."""
    base = base_name(game, seat)
    return base if kind == "human" else f"{base} ({agent_label(agent)} AI)"


def is_given(name: Any, game: Game, seat: int, spec: dict[str, Any]) -> bool:
    """Whether ``name`` is one the server gave (now, or as tables stored before: ``Seat 0``, ``Seat 0 (random AI)``,
    ``Red (hard:seconds=0.5 AI)``)."""
    if name in (None, ""):
        return True
    agent = spec.get("agent")
    if spec["kind"] == "human":
        return name in (f"Seat {seat}", f"Player {seat + 1}", given_name(game, seat, "human", None))
    old = (f"Seat {seat} ({agent} AI)", f"{base_name(game, seat)} ({agent} AI)")
    old += (f"Player {seat + 1} ({agent_label(agent)} AI)",)
    return name in (*old, given_name(game, seat, spec["kind"], agent))
