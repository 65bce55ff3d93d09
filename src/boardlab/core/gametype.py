"""What kind of game a game is, declared in OpenSpiel's terms: :class:`GameType`.

Each game class declares one ``game_type``; where an option changes the kind
of game (a variant with hidden information), the declaration says so as data
with :func:`when`. Every game object holds its type resolved for its own
options, so nothing needs to guess the type by playing or by reading prose:

>>> declared = GameType(
...     chance=Chance.EXPLICIT,
...     variants=(when("variant", ("hidden_colour",), information=Information.IMPERFECT),),
... )
>>> declared.resolve({"variant": "base"}).perfect_information
True
>>> hidden = declared.resolve({"variant": "hidden_colour"})
>>> hidden.information, hidden.chance, hidden.utility_sum
(<Information.IMPERFECT: 'imperfect'>, <Chance.EXPLICIT: 'explicit'>, 0.0)
>>> hidden.tags()
['chance', 'hidden information']
>>> declared.variant_texts()
['hidden information with variant: hidden colour']

The defaults are those of most boardlab games: sequential, no chance, perfect
information, zero-sum, returns between -1 (a loss) and +1 (a win).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from .options import Option


class Dynamics(StrEnum):
    """Whether seats take turns (``SEQUENTIAL``) or some decisions are made at once (``SIMULTANEOUS``)."""

    SEQUENTIAL = "sequential"
    SIMULTANEOUS = "simultaneous"


class Chance(StrEnum):
    """``NONE``: no chance node ever (OpenSpiel's deterministic); ``EXPLICIT``: chance nodes with outcomes."""

    NONE = "none"
    EXPLICIT = "explicit"


class Information(StrEnum):
    """``PERFECT``: every seat sees the whole state; ``IMPERFECT``: some seat lacks something."""

    PERFECT = "perfect"
    IMPERFECT = "imperfect"


class Utility(StrEnum):
    """How returns relate: they sum to 0, to a constant, to anything, or are the same for all (co-operative)."""

    ZERO_SUM = "zero-sum"
    CONSTANT_SUM = "constant-sum"
    GENERAL_SUM = "general-sum"
    IDENTICAL = "identical"


@dataclass(frozen=True)
class Variant:
    """The type changes ``changes`` (field name, value) when option ``option`` takes one of ``values``."""

    option: str
    values: tuple[Any, ...]
    changes: tuple[tuple[str, Any], ...]

    def applies(self, params: Mapping[str, Any]) -> bool:
        if self.option not in params:
            raise ValueError(f"the game type depends on option {self.option!r}, which the game does not have")
        return params[self.option] in self.values

    def describe(self) -> dict[str, Any]:
        return {"option": self.option, "values": list(self.values), "changes": dict(self.changes)}

    def text(self, option: Option | None = None) -> str:
        """In players' words, the values by their labels where ``option`` (the declared option) gives them:
        ``"hidden information with variant: hidden colour"``, ``"hidden information with hidden hands"``."""
        what = ", ".join(_tag(name, value) for name, value in self.changes)
        name = self.option.replace("_", " ")
        if self.values in ((True,), (False,)):
            return f"{what} {'with' if self.values[0] else 'without'} {name}"
        label = option.label if option is not None else (lambda v: str(v).replace("_", " "))
        return f"{what} with {name}: {' or '.join(label(v) for v in self.values)}"


def when(option: str, values: Sequence[Any], **changes: Any) -> Variant:
    """A :class:`Variant`: with ``option`` in ``values``, these fields of the type change.

    >>> when("variant", ("hidden_colour",), information=Information.IMPERFECT).text()
    'hidden information with variant: hidden colour'
    """
    allowed = {f.name for f in fields(GameType)} - {"variants"}
    for name in changes:
        if name not in allowed:
            raise ValueError(f"a variant cannot change {name!r}; it can change: {', '.join(sorted(allowed))}")
    checked = {k: _KINDS.get(k, float)(x) for k, x in changes.items()}  # "imperfect" -> Information.IMPERFECT
    return Variant(option, tuple(values), tuple(checked.items()))


@dataclass(frozen=True)
class GameType:
    """A game's kind in OpenSpiel's terms (see the module documentation).

    ``constant_sum`` is the sum of every returns vector under
    ``Utility.CONSTANT_SUM``; ``min_utility``/``max_utility`` bound every
    seat's return. ``variants`` are applied in order by :meth:`resolve`.
    """

    dynamics: Dynamics = Dynamics.SEQUENTIAL
    chance: Chance = Chance.NONE
    information: Information = Information.PERFECT
    utility: Utility = Utility.ZERO_SUM
    min_utility: float = -1.0
    max_utility: float = 1.0
    constant_sum: float = 0.0
    variants: tuple[Variant, ...] = ()

    def __post_init__(self) -> None:
        for name, kind in _KINDS.items():
            object.__setattr__(self, name, kind(getattr(self, name)))
        object.__setattr__(self, "min_utility", float(self.min_utility))
        object.__setattr__(self, "max_utility", float(self.max_utility))
        object.__setattr__(self, "constant_sum", float(self.constant_sum))
        if self.min_utility > self.max_utility:
            raise ValueError(f"min_utility {self.min_utility} is above max_utility {self.max_utility}")
        if self.utility is Utility.ZERO_SUM and self.constant_sum != 0.0:
            raise ValueError("a zero-sum game's returns sum to 0; use Utility.CONSTANT_SUM for another sum")

    def resolve(self, params: Mapping[str, Any]) -> GameType:
        """The type for these option values: every applicable variant applied, none left over."""
        out = replace(self, variants=())
        for v in self.variants:
            if v.applies(params):
                out = replace(out, **dict(v.changes))
        return out

    @property
    def perfect_information(self) -> bool:
        return self.information is Information.PERFECT

    def values_of(self, name: str) -> set[Any]:
        """Every value field ``name`` takes under some option setting (this one and what variants set).

        >>> sorted(GameType(variants=(when("v", (1,), information="imperfect"),)).values_of("information"))
        [<Information.IMPERFECT: 'imperfect'>, <Information.PERFECT: 'perfect'>]
        """
        return {getattr(self, name)} | {x for v in self.variants for k, x in v.changes if k == name}

    @property
    def cooperative(self) -> bool:
        """Identical returns for every seat: they win or lose together."""
        return self.utility is Utility.IDENTICAL

    @property
    def utility_sum(self) -> float | None:
        """What every returns vector sums to, where the utility fixes it (OpenSpiel's ``utility_sum``)."""
        if self.utility is Utility.ZERO_SUM:
            return 0.0
        if self.utility is Utility.CONSTANT_SUM:
            return self.constant_sum
        return None

    def tags(self) -> list[str]:
        """Short words for listings: the information, and what else sets the type apart from
        a plain two-sided game of skill (turns, no chance, zero-sum).

        >>> GameType().tags()
        ['perfect information']
        >>> GameType(dynamics="simultaneous", information="imperfect", utility="identical").tags()
        ['simultaneous decisions', 'hidden information', 'co-operative']
        """
        out = []
        if self.dynamics is Dynamics.SIMULTANEOUS:
            out.append(_tag("dynamics", self.dynamics))
        if self.chance is Chance.EXPLICIT:
            out.append(_tag("chance", self.chance))
        out.append(_tag("information", self.information))
        if self.utility is not Utility.ZERO_SUM:
            out.append(_tag("utility", self.utility))
        return out

    def variant_texts(self, options: Sequence[Option] = ()) -> list[str]:
        """Each variant in words, naming only what it changes from this declaration; ``options`` (the game's) name
        the values in players' words."""
        by_name = {o.name: o for o in options}
        out = []
        for v in self.variants:
            changed = tuple((k, x) for k, x in v.changes if getattr(self, k) != x) or v.changes
            out.append(replace(v, changes=changed).text(by_name.get(v.option)))
        return out

    def describe(self, options: Sequence[Option] = ()) -> dict[str, Any]:
        """JSON-able form (for metadata, the lobby and records); ``options`` as for :meth:`variant_texts`."""
        return {
            "dynamics": str(self.dynamics),
            "chance": str(self.chance),
            "information": str(self.information),
            "utility": str(self.utility),
            "min_utility": self.min_utility,
            "max_utility": self.max_utility,
            "utility_sum": self.utility_sum,
            "tags": self.tags(),
            "variants": [{**v.describe(), "text": t} for v, t in zip(self.variants, self.variant_texts(options))],
        }


_KINDS: dict[str, type] = {"dynamics": Dynamics, "chance": Chance, "information": Information, "utility": Utility}

_TAGS: dict[tuple[str, str], str] = {
    ("dynamics", "sequential"): "turns",
    ("dynamics", "simultaneous"): "simultaneous decisions",
    ("chance", "none"): "no chance",
    ("chance", "explicit"): "chance",
    ("information", "perfect"): "perfect information",
    ("information", "imperfect"): "hidden information",
    ("utility", "zero-sum"): "zero-sum",
    ("utility", "constant-sum"): "constant-sum",
    ("utility", "general-sum"): "general-sum",
    ("utility", "identical"): "co-operative",
}


def _tag(name: str, value: Any) -> str:
    return _TAGS.get((name, str(value)), f"{name.replace('_', ' ')} {value}")
