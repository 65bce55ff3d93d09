"""Declared game options: type, default, allowed values and a one-line description.

>>> spec = (Option("board_side", int, 6, (5, 6, 7), "Cells along each edge of the hexagon."),)
>>> validate_options("blast-radius", spec, {"board_side": "5"})
{'board_side': 5}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One option of a game. ``allowed`` is a tuple of values, or ``None`` for any value of ``type``.

    ``minimum``/``maximum`` bound numeric options without listing every value.
    """

    name: str
    type: type
    default: Any
    allowed: tuple[Any, ...] | None
    description: str
    minimum: float | None = None
    maximum: float | None = None

    def describe(self) -> dict[str, Any]:
        """A JSON-able description (used by the CLI, the lobby and the API)."""
        return {
            "name": self.name,
            "type": self.type.__name__,
            "default": self.default,
            "allowed": list(self.allowed) if self.allowed is not None else None,
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
