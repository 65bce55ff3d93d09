"""Declared game options: type, default, allowed values and a one-line description.

>>> spec = (Option("board_side", int, 6, (5, 6, 7), "Cells along each edge of the hexagon."),)
>>> validate_options("blast-radius", spec, {"board_side": "5"})
{'board_side': 5}

A value that is a code word (the API's value) carries a label in players' words for the screen:

>>> Option("scoring", str, "largest_group", ("largest_group", "all"), "", labels={"largest_group": "Largest group"}).label(
...     "largest_group")
'Largest group'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Option:
    """One option of a game. ``allowed`` is a tuple of values, or ``None`` for any value of ``type``.

    ``minimum``/``maximum`` bound numeric options without listing every value. ``labels`` names allowed values
    in players' words (``{"strict_both": "Both must fall"}``): the value stays what the API and records use, the
    label is what a player reads.
    """

    name: str
    type: type
    default: Any
    allowed: tuple[Any, ...] | None
    description: str
    minimum: float | None = None
    maximum: float | None = None
    labels: Mapping[Any, str] | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        stray = [v for v in (self.labels or {}) if self.allowed is None or v not in self.allowed]
        if stray:
            raise ValueError(f"option {self.name!r} labels {stray[0]!r}, which is not one of its allowed values")

    @classmethod
    def choice(cls, name: str, labels: Mapping[str, str], description: str, default: str | None = None) -> Option:
        """A word option: its values are the keys of ``labels`` (code words, in order), each with its label in
        players' words; the default is the first unless ``default`` says otherwise.

        >>> o = Option.choice("tie_break", {"draw": "A draw", "banked_food": "More banked food wins"}, "Equal scores.")
        >>> o.allowed, o.default, o.label("banked_food")
        (('draw', 'banked_food'), 'draw', 'More banked food wins')
        """
        values = tuple(labels)
        if default is not None and default not in values:
            raise ValueError(f"option {name!r}: default {default!r} is not one of {values!r}")
        return cls(name, str, values[0] if default is None else default, values, description, labels=dict(labels))

    @classmethod
    def flag(cls, name: str, default: bool, description: str) -> Option:
        """An on/off option.

        >>> Option.flag("pie", False, "The second player may swap.") == Option("pie", bool, False, (False, True),
        ...     "The second player may swap.")
        True
        """
        return cls(name, bool, default, (False, True), description)

    def label(self, value: Any) -> str:
        """The player-facing name of ``value``: its declared label, else the value with spaces for underscores."""
        if self.labels and value in self.labels:
            return self.labels[value]
        return str(value).replace("_", " ")

    @property
    def title(self) -> str:
        """The option's name in words: ``"when stuck"`` for ``when_stuck``, ``"phase 1 …"`` for ``phase1_…``."""
        return re.sub(r"([a-z])(\d)", r"\1 \2", self.name.replace("_", " "))

    def describe(self) -> dict[str, Any]:
        """A JSON-able description (used by the CLI, the lobby and the API)."""
        return {
            "name": self.name,
            "type": self.type.__name__,
            "default": self.default,
            "allowed": list(self.allowed) if self.allowed is not None else None,
            "labels": [self.label(v) for v in self.allowed] if self.allowed is not None else None,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "description": self.description,
        }

    def allowed_text(self) -> str:
        if self.allowed is not None:
            return ", ".join(repr(v) for v in self.allowed)
        if self.minimum is not None or self.maximum is not None:
            return f"{self.type.__name__} from {self.minimum} to {self.maximum}"
        return f"any {self.type.__name__}"

    def coerce(self, game_id: str, value: Any) -> Any:
        """Convert ``value`` (possibly a string from a command line or a form) and check it."""
        v = value
        try:
            if self.type is bool:
                if isinstance(v, str):
                    low = v.strip().lower()
                    if low in ("1", "true", "yes", "on"):
                        v = True
                    elif low in ("0", "false", "no", "off"):
                        v = False
                    else:
                        raise ValueError(v)
                elif not isinstance(v, bool):
                    raise ValueError(v)
            elif self.type is int:
                if isinstance(v, bool):
                    raise ValueError(v)
                if isinstance(v, float) and not v.is_integer():
                    raise ValueError(v)
                v = int(v)
            elif self.type is float:
                if isinstance(v, bool):
                    raise ValueError(v)
                v = float(v)
            elif self.type is str and not isinstance(v, str):
                raise ValueError(v)
        except (TypeError, ValueError):
            raise ValueError(
                f"option {self.name!r} of {game_id!r} must be {self.type.__name__}; got {value!r} "
                f"(allowed: {self.allowed_text()})"
            ) from None
        if self.allowed is not None and v not in self.allowed:
            raise ValueError(
                f"option {self.name!r} of {game_id!r} does not allow {value!r}; allowed: {self.allowed_text()}"
            )
        if (self.minimum is not None and v < self.minimum) or (self.maximum is not None and v > self.maximum):
            raise ValueError(
                f"option {self.name!r} of {game_id!r} must lie between {self.minimum} and {self.maximum}; got {value!r}"
            )
        return v


class DataFiles(Generic[T]):
    """A game's data files of one kind (boards, card sets), each an option value: ours, then a designer's.

    Ours is ``<folder>/<stem>.json`` (option value ``ours``); a designer supplies another by dropping
    ``<stem>-<name>.json`` beside it (option value ``name``), with no code change. :meth:`option` is the game's
    option, its values the files present when the module is loaded; :meth:`load` reads one file once and builds
    it with ``build(name, data)``.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "maze.json").write_text('{"size": 4}')
    >>> _ = (folder / "maze-tall.json").write_text('{"size": 9}')
    >>> boards = DataFiles(folder, "maze", "ours", lambda name, data: (name, data["size"]))
    >>> list(boards.files())
    ['ours', 'tall']
    >>> boards.option("board", "The board.").allowed
    ('ours', 'tall')
    >>> boards.load("tall")
    ('tall', 9)
    """

    def __init__(self, folder: Path, stem: str, ours: str, build: Callable[[str, Any], T]) -> None:
        self.stem = stem
        self.ours = ours
        self.build = build
        self._built: dict[str, T] = {}
        self.folder = folder

    @property
    def folder(self) -> Path:
        """Where the files lie; setting it (a test's own folder) forgets what was loaded."""
        return self._folder

    @folder.setter
    def folder(self, folder: Path) -> None:
        self._folder = Path(folder)
        self._built.clear()

    def files(self) -> dict[str, Path]:
        """Name → data file: ``ours`` is ``<stem>.json``, then every designer's ``<stem>-<name>.json``, by name."""
        files = {self.ours: self.folder / f"{self.stem}.json"}
        for path in sorted(self.folder.glob(f"{self.stem}-*.json")):
            files[path.stem.removeprefix(f"{self.stem}-")] = path
        return files

    def option(self, name: str, description: str) -> Option:
        """An option whose values are the data files present now (ours the default)."""
        return Option(name, str, self.ours, tuple(self.files()), description)

    def load(self, name: str) -> T:
        """The thing built from file ``name``, read once."""
        if name not in self._built:
            data = json.loads(self.files()[name].read_text(encoding="utf-8"))
            self._built[name] = self.build(name, data)
        return self._built[name]


def validate_options(game_id: str, spec: Iterable[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """Return every declared option with its value: given ones checked and coerced, the others defaulted.

    Raises ``ValueError`` naming an unknown option and listing the known ones.
    """
    spec = tuple(spec)
    by_name = {o.name: o for o in spec}
    unknown = [k for k in given if k not in by_name]
    if unknown:
        known = ", ".join(by_name) or "none"
        raise ValueError(f"unknown option {unknown[0]!r} for {game_id!r}; known options: {known}")
    return {o.name: (o.coerce(game_id, given[o.name]) if o.name in given else o.default) for o in spec}


def check_json_types(game_id: str, spec: Iterable[Option], given: Mapping[str, Any]) -> None:
    """``ValueError`` unless every given option is already of its JSON type (no ``"6"`` for 6, no ``1`` for true).

    For values that arrive as JSON (the web API, records), where a string for a number is a mistake to report,
    not text to convert as it is on a command line. Unknown names are left to :func:`validate_options`.

    >>> check_json_types("blast-radius", [Option("board_side", int, 6, (5, 6, 7), "")], {"board_side": "6"})
    Traceback (most recent call last):
    ...
    ValueError: option 'board_side' of 'blast-radius' is a number (int), not '6'
    """
    kinds = {bool: (bool,), int: (int,), float: (int, float), str: (str,)}
    words = {bool: "true or false", int: "a number (int)", float: "a number", str: "a string"}
    for o in spec:
        if o.name not in given:
            continue
        v = given[o.name]
        if not isinstance(v, kinds.get(o.type, (object,))) or (isinstance(v, bool) and o.type is not bool):
            raise ValueError(f"option {o.name!r} of {game_id!r} is {words.get(o.type, o.type.__name__)}, not {v!r}")


def parse_option_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """``["board_side=5", "pie=true"]`` → ``{"board_side": "5", "pie": "true"}``."""
    out: dict[str, str] = {}
    for p in pairs:
        if "=" not in p:
            raise ValueError(f"option {p!r} must look like name=value")
        k, v = p.split("=", 1)
        out[k.strip()] = v.strip()
    return out


_SETTING = re.compile(r"\b([a-z][a-z0-9_]*)=([\w-]+(?:\.\d+)?)")
_WORD = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|\b[a-z0-9]*[0-9][a-z0-9]*\b|\b[a-z]+\b")


def in_players_words(text: str, spec: Iterable[Option]) -> str:
    """``text`` (a game's notes) with its options and their code-word values in players' words.

    ``name=value`` reads "“name words: label”", a bare option name "“name words”", and an allowed value that is a
    code word its label; other words are left alone.

    >>> spec = [Option("score_by", str, "sheep", ("sheep", "tiles"), "", labels={"tiles": "Number of tiles"})]
    >>> in_players_words("Counts sheep (option score_by; score_by=tiles counts tiles).", spec)
    'Counts sheep (option “score by”; “score by: Number of tiles” counts tiles).'
    """
    by_name = {o.name: o for o in spec}

    def setting(m: re.Match[str]) -> str:
        o = by_name.get(m.group(1))
        if o is None:
            return m.group(0)
        raw = m.group(2)
        value: Any = next((v for v in o.allowed or () if str(v).lower() == raw.lower()), raw)
        if o.type is bool and isinstance(value, bool):
            return f"“{o.title}” {'on' if value else 'off'}"
        return f"“{o.title}: {o.label(value)}”"

    values = {str(v): o for o in spec for v in o.allowed or () if isinstance(v, str) and ("_" in v or v[-1].isdigit())}

    def word(m: re.Match[str]) -> str:
        w = m.group(0)
        if w in by_name and "_" in w:
            return f"“{by_name[w].title}”"
        if w in values:
            return values[w].label(w)
        return w

    return _WORD.sub(word, _SETTING.sub(setting, text))
