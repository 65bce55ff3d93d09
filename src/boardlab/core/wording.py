"""Text for players: a game's own words with the table's names in them and without developers' references.

Game modules word prompts, explanations and logs for every front-end and keep references to their rules
document's clauses ("(§4.2)") for developers and tests; where a game has no names for its seats it says "seat 1".
:func:`for_players` turns such text into what a player reads at a table: clause references dropped, "seat N" the
name of that seat at the table. The engine's own text is unchanged (records, tests and the CLI's ``why`` still give
the references).

>>> for_players("Lock it, trade it with seat 1, or draw from the pool (§4.2).", ["Ann", "Bo"])
'Lock it, trade it with Bo, or draw from the pool.'
>>> for_players("You lose: 25 rounds have been played (§6b-iii).")
'You lose: 25 rounds have been played.'
>>> for_players("§4a: towers may not touch; seat 0 (Red) to move", ["Ann", "Bo"])
'towers may not touch; Ann (Red) to move'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: A clause reference in brackets, "(§4.2)", "(§6b-iii, §7)", or at the start of a sentence, "§4a: ".
_CLAUSE_IN_BRACKETS = re.compile(r"\s*\((?:see )?§[^)]*\)")
_CLAUSE_LEADING = re.compile(r"(?:(?<=^)|(?<=[.;:!?]\s))§[\w.\-]+(?:,\s*§[\w.\-]+)*:\s*")
_CLAUSE_BARE = re.compile(r"\s*§[\w.\-]*\w")
_SEAT = re.compile(r"\b[Ss]eat (\d+)\b")
#: Count nouns games use, and their singular where it is not the plural less its "s": "1 points" reads "1 point".
_SINGULAR = {"dice": "die", "posies": "posy", "pennies": "penny", "flies": "fly", "sheep": "sheep"}
_COUNTED = ("points", "cards", "troops", "tiles", "squares", "stones", "pieces", "turns", "moves", "rounds", "cocoons",
            "groups", "cells", "fences", "chevrons", "spots", "ants", "lines", "votes", "coins", "tricks", "units",
            "edges", "patterns", "steps", "cycles", *_SINGULAR)  # fmt: skip
_ONE_OF = re.compile(r"(?<![\d.,-])\b1 (" + "|".join(_COUNTED) + r")\b")
_MAYBE_PLURAL = re.compile(r"\b(\d+) ([a-z]+)\(s\)")
#: A game's one-word name for a seat ("Red", "Ada", "North"): the words a chosen name may replace.
_SEAT_WORD = re.compile(r"[A-Z][a-z]+")
#: The colours games call seats by: where a player chose a name, it replaces the game's colour word for that seat.
COLOUR_WORDS = frozenset({"Red", "Orange", "Yellow", "Green", "Blue", "Pink", "Purple", "Black", "White"})


def for_players(text: str, names: Sequence[str | None] = (), colours: Sequence[str | None] = ()) -> str:
    """``text`` without clause references, each "seat N" replaced by ``names[N]`` (kept where that is ``None``), one
    of a thing said in the singular ("1 point", not "1 points" nor "1 point(s)").

    ``colours`` are the colours (or the game's other names: Kasta's "Ada", Minopoly's "North") the game calls the
    seats by: where a seat's name is another (a name its player chose), the game's word for it reads as that name, so
    each seat has one name in every text ("the Spider", a piece, stays), and a name the text then says twice ("Blue
    (seat 0)" for a seat called Blue) is said once.

    >>> for_players("Orange's hand; Blue wins: Orange admitted the Assassin.", ["Alice", "Blue"], ["Orange", "Blue"])
    "Alice's hand; Blue wins: Alice admitted the Assassin."
    >>> for_players("Spider: capture a fly; the Spider passes.", ["Ann", "Bo"], ["Flies", "Spider"])
    'Bo: capture a fly; the Spider passes.'
    >>> for_players("Blue (seat 0) wins, largest group 5.", ["Blue", "Orange"], ["Blue", "Orange"])
    'Blue wins, largest group 5.'
    >>> for_players("Blue: 1 points; pool: 1 dice, 11 cards; lost 1 stone(s), 3 stone(s)")
    'Blue: 1 point; pool: 1 die, 11 cards; lost 1 stone, 3 stones'
    """
    if "§" in text:
        text = _CLAUSE_IN_BRACKETS.sub("", text)
        text = _CLAUSE_LEADING.sub("", text)
        text = _CLAUSE_BARE.sub("", text)
    renamed = {c: n for c, n in zip(colours, names) if c and n and n != c and _SEAT_WORD.fullmatch(c)}
    if renamed:
        # a colour is the seat's name wherever it stands; another of the game's names for a seat (Kasta's "Ada",
        # Minopoly's "North", Mata Mosca's "Spider") is it except as a thing: "the Spider moves" is a piece
        words = re.compile(
            r"\b(?:"
            + "|".join(rf"{re.escape(c)}" if c in COLOUR_WORDS else rf"(?<!the ){re.escape(c)}" for c in renamed)
            + r")\b"
        )
        text = words.sub(lambda m: renamed[m.group(0)], text)
    if "1 " in text:
        text = _ONE_OF.sub(lambda m: "1 " + _SINGULAR.get(m.group(1), m.group(1)[:-1]), text)
    if "(s)" in text:
        text = _MAYBE_PLURAL.sub(lambda m: f"{m.group(1)} {m.group(2)}{'' if m.group(1) == '1' else 's'}", text)
    if names and ("seat" in text or "Seat" in text):
        text = _SEAT.sub(lambda m: _name(names, int(m.group(1))) or m.group(0), text)
        for n in {n for n in names if n}:
            text = text.replace(f"{n} ({n})", n)
    return text


def _name(names: Sequence[str | None], seat: int) -> str | None:
    return names[seat] if seat < len(names) else None


def and_list(words: Sequence[str]) -> str:
    """Words joined as a player writes a list: ``a``, ``a and b``, ``a, b and c``.

    >>> and_list(["d6"]), and_list(["d6", "f4"]), and_list(["d6", "f4", "f6"])
    ('d6', 'd6 and f4', 'd6, f4 and f6')
    """
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


#: Verbs whose third person is not the plain rule's.
_IRREGULAR = {"have": "has", "do": "does", "go": "goes", "be": "is"}


def third_person(phrase: str) -> str:
    """An imperative move label as a log line after the seat's name: its first word, a verb, in the third person.

    >>> third_person("draw four dice"), third_person("pass"), third_person("carry it"), third_person("touch b2")
    ('draws four dice', 'passes', 'carries it', 'touches b2')
    """
    verb, _, rest = phrase.partition(" ")
    if not verb.isalpha() or not verb.islower():
        return phrase
    if verb in _IRREGULAR:
        verb = _IRREGULAR[verb]
    elif verb.endswith(("s", "sh", "ch", "x", "z")):
        verb += "es"
    elif verb.endswith("y") and verb[-2:-1] not in "aeiou":
        verb = verb[:-1] + "ies"
    else:
        verb += "s"
    return f"{verb} {rest}" if rest else verb
