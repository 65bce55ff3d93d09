"""The coloured dice Kasta and Minopoly share: four colours of six-sided dice, numbered by colour then face.

A die's number is ``colour * FACES + face - 1`` (faces 1 to 6), so red 1 is 0 and blue 6 is 23.

>>> die_name(0), die_name(23), colour_of(7), face_of(7)
('red 1', 'blue 6', 1, 2)
"""

from __future__ import annotations

from typing import Any

from ..core import scene as sc

COLOURS = ("red", "yellow", "green", "blue")
INKS = ("#C62828", "#B8860B", "#2E7D32", "#1565C0")
FACES = 6
DICE = len(COLOURS) * FACES  # kinds of die


def colour_of(die: int) -> int:
    return die // FACES


def face_of(die: int) -> int:
    return die % FACES + 1


def die_name(die: int) -> str:
    return f"{COLOURS[colour_of(die)]} {face_of(die)}"


def die_item(id: str, die: int, detail: str | None = None) -> dict[str, Any]:
    """The die as a scene item: its number on a die in its colour."""
    return sc.item(id, die_name(die), "die", value=face_of(die), colour=INKS[colour_of(die)], detail=detail)


def die_piece(at: str, die: int, name: str, kind: str = "die") -> dict[str, Any]:
    """The die standing on the board's place ``at`` as a piece: its colour, its pips, ``name`` on hover."""
    face = face_of(die)
    return sc.piece(
        at,
        None,
        kind,
        label=str(face),
        shape="square",
        colour=INKS[colour_of(die)],
        picture=sc.die_picture(face),
        name=name,
    )
