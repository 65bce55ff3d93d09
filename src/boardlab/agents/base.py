"""The agent interface and the random agent.

An agent is anything with ``step(view) -> action`` (and optionally
``reset()``): it receives a :class:`~boardlab.core.view.SeatView`, never the
raw state, so it cannot see hidden information of other seats.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ..core.game import Game
from ..core.view import SeatView


class Agent(Protocol):
    name: str

    def step(self, view: SeatView) -> int: ...


class RandomAgent:
    """Uniformly random legal actions, from its own seeded RNG."""

    name = "random"

    def __init__(self, game: Game | None = None, seat: int = 0, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def step(self, view: SeatView) -> int:
        return self.rng.choice(view.legal_actions())


AgentFactory = Callable[[Game, int, "int | None", dict[str, str]], Agent]
_FACTORIES: dict[str, AgentFactory] = {}


def register_agent(name: str, factory: AgentFactory) -> None:
    """Make ``name`` usable as an agent spec (``name`` or ``name:key=value,…``)."""
    _FACTORIES[name] = factory


def agent_names() -> list[str]:
    return sorted(_FACTORIES)


def parse_agent_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"mcts:iterations=2000,c=1.4"`` → ``("mcts", {"iterations": "2000", "c": "1.4"})``."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    if rest:
        for part in rest.split(","):
            if "=" not in part:
                raise ValueError(f"agent parameter {part!r} in {spec!r} must look like key=value")
            k, v = part.split("=", 1)
            params[k.strip()] = v.strip()
    return name.strip().lower(), params


def make_agent(spec: str, game: Game, seat: int = 0, seed: int | None = None) -> Agent:
    """Build an agent from a spec; ``ValueError`` naming the known agents if unknown."""
    name, params = parse_agent_spec(spec)
    if name not in _FACTORIES:
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(agent_names())}")
    return _FACTORIES[name](game, seat, seed, params)


def _random_factory(game: Game, seat: int, seed: int | None, params: dict[str, str]) -> Agent:
    if params:
        raise ValueError(f"the random agent takes no parameters; got {', '.join(params)}")
    return RandomAgent(game, seat, seed)


register_agent("random", _random_factory)
