"""Typed access to an agent spec's ``key=value`` parameters, with clear errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class AgentParams:
    """The parameters of one agent spec; :meth:`done` refuses any that were not used."""

    def __init__(self, agent: str, params: dict[str, str]) -> None:
        self.agent = agent
        self.params = dict(params)
        self.used: set[str] = set()

    def _get(self, key: str) -> str | None:
        self.used.add(key)
        return self.params.get(key)

    def _number(self, key: str, default: T | None, kind: Callable[[str], T], what: str) -> T | None:
        v = self._get(key)
        if v is None:
            return default
        try:
            return kind(v)
        except ValueError:
            raise ValueError(f"{self.agent} parameter {key} must be {what}; got {v!r}") from None

    def int(self, key: str, default: int | None) -> int | None:
        return self._number(key, default, int, "an integer")

    def float(self, key: str, default: float | None) -> float | None:
        return self._number(key, default, float, "a number")

    def bool(self, key: str, default: bool) -> bool:
        v = self._get(key)
        if v is None:
            return default
        low = v.lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"{self.agent} parameter {key} must be true or false; got {v!r}")

    def str(self, key: str, default: str | None) -> str | None:
        v = self._get(key)
        return default if v is None else v

    def done(self) -> None:
        """Refuse parameters this agent does not know (naming the ones it does)."""
        unknown = sorted(set(self.params) - self.used)
        if unknown:
            known = ", ".join(sorted(self.used)) or "none"
            raise ValueError(f"unknown {self.agent} parameter(s) {', '.join(unknown)}; known: {known}")
