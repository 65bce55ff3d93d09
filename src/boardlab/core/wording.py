"""Text for players: a game's own words, with the rules' clauses and the seats it names kept as structure.

A game words prompts, explanations and logs in players' words. What developers and tests want besides, the clauses
of the rules document a sentence applies, travels beside the words, never in them: :func:`said` makes a
:class:`Said`, a ``str`` (so every string consumer keeps working) whose text has no "§" and whose ``clauses`` hold the
references. :func:`with_refs` gives the developers' form ("… (§4a)") for tests, error messages and the CLI's ``why``.

>>> why = said("Towers may not touch", "4a")
>>> str(why), why.clauses, with_refs(why)
('Towers may not touch', ('4a',), 'Towers may not touch (§4a)')

A game that has no names for its seats says :func:`seat` where it names one: a marker (the seat's default name,
"Player 2", between Unicode isolate marks) that survives formatting and joining and that :func:`for_players`
replaces by the seat's name at the table, or by the default name where there is none:

>>> for_players(f"Lock it, trade it with {seat(1)}, or draw from the pool.", ["Ann", "Bo"])
'Lock it, trade it with Bo, or draw from the pool.'
>>> for_players(f"{seat(0)} wins.")
'Player 1 wins.'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

#: The isolate marks around a seat's default name (:func:`seat`): invisible where a text is shown as it is.
SEAT_OPEN, SEAT_CLOSE = "\u2068", "\u2069"
_SEAT_MARK = re.compile(SEAT_OPEN + r"Player (\d+)" + SEAT_CLOSE)
#: "seat N" in text a game words by hand (the core's ``player_name``): a seat's name at a table.
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


class Said(str):
    """Words for players (never a "§" in them) and the clauses of the rules they apply, ``("4a", "6b-iii")``.

    A clause is written as the rules document numbers it, without the sign; a reference that is no clause ("option
    opening_action") as it is. Formatting or joining a ``Said`` gives a plain ``str``: the words stay, the
    references go; :func:`clauses_of` carries them on where a text is built from another (the core's "… is not
    legal: …")."""

    clauses: tuple[str, ...]

    def __new__(cls, text: str, clauses: Iterable[str] = ()) -> Said:
        if "§" in text:
            raise ValueError(f"a clause reference in players' words (give it as a clause): {text!r}")
        self = super().__new__(cls, text)
        self.clauses = tuple(clauses)
        return self

    def __getnewargs__(self) -> tuple[str, tuple[str, ...]]:  # type: ignore[override]
        return str(self), self.clauses

    def __repr__(self) -> str:
        return f"said({str.__repr__(self)}{''.join(', ' + repr(c) for c in self.clauses)})"


def said(text: str, *clauses: str) -> Said:
    """``text`` for players, applying ``clauses`` of the rules: ``said("the deck is empty: play your last card",
    "6")``. A clause may be given as ``"§6"`` too; the sign is dropped."""
    return Said(text, (c[1:] if c.startswith("§") else c for c in clauses))


def clauses_of(*texts: object) -> tuple[str, ...]:
    """The clauses ``texts`` apply (those that are :class:`Said`), in order, each once.

    >>> clauses_of(said("a", "4"), "b", said("c", "4", "5"))
    ('4', '5')
    """
    out: list[str] = []
    for t in texts:
        for c in t.clauses if isinstance(t, Said) else ():
            if c not in out:
                out.append(c)
    return tuple(out)


def _ref(clause: str) -> str:
    """A clause as developers cite it: "4a" is §4a, a range "4-8" §4-§8; another reference is as written."""
    if not clause[:1].isdigit():
        return clause
    return "-".join(("§" + part if part[:1].isdigit() else part) for part in re.split(r"-(?=\d)", clause))


def with_refs(text: str) -> str:
    """The developers' form of ``text``: its clauses after it in brackets (nothing added to a plain ``str``).

    >>> with_refs(said("take three dice first", "3.1", "4-8", "option action_first")), with_refs("ok")
    ('take three dice first (§3.1, §4-§8, option action_first)', 'ok')
    """
    refs = clauses_of(text)
    return f"{text} ({', '.join(map(_ref, refs))})" if refs else str(text)


def seat(n: int) -> str:
    """Where a game without names for its seats names seat ``n``: "Player n+1" marked for the table to name.

    >>> seat(1) == SEAT_OPEN + "Player 2" + SEAT_CLOSE
    True
    """
    return f"{SEAT_OPEN}Player {n + 1}{SEAT_CLOSE}"


def for_players(text: str, names: Sequence[str | None] = (), colours: Sequence[str | None] = ()) -> str:
    """``text`` as a player at a table reads it: each :func:`seat` the seat's name ``names[N]`` (its default name
    where that is ``None`` or missing), each "seat N" the core says likewise, one of a thing said in the singular
    ("1 point", not "1 points" nor "1 point(s)").

    ``colours`` are the colours (or the game's other names: Kasta's "Ada", Minopoly's "North") the game calls the
    seats by: where a seat's name is another (a name its player chose), the game's word for it reads as that name, so
    each seat has one name in every text ("the Spider", a piece, stays), and a name the text then says twice ("Blue
    (Blue)") is said once.

    >>> for_players("Orange's hand; Blue wins: Orange admitted the Assassin.", ["Alice", "Blue"], ["Orange", "Blue"])
    "Alice's hand; Blue wins: Alice admitted the Assassin."
    >>> for_players("Spider: capture a fly; the Spider passes.", ["Ann", "Bo"], ["Flies", "Spider"])
    'Bo: capture a fly; the Spider passes.'
    >>> for_players("Blue: 1 points; pool: 1 dice, 11 cards; lost 1 stone(s), 3 stone(s)")
    'Blue: 1 point; pool: 1 die, 11 cards; lost 1 stone, 3 stones'
    >>> for_players("seat 0 (Red) to move", ["Ann", "Bo"])
    'Ann (Red) to move'
    """
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
    if SEAT_OPEN in text:
        text = _SEAT_MARK.sub(lambda m: _name(names, int(m.group(1)) - 1) or f"Player {m.group(1)}", text)
    if names and ("seat" in text or "Seat" in text):
        text = _SEAT.sub(lambda m: _name(names, int(m.group(1))) or m.group(0), text)
    for n in {n for n in names if n}:
        text = text.replace(f"{n} ({n})", n)
    return str(text)


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
