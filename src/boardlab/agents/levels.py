"""Playing levels: ``easy``, ``medium``, ``hard``, ``expert``, each an MCTS budget.

A level is usable wherever an agent is named (``--seat 1=hard``,
``--agents expert,random``) and accepts the same parameters as ``mcts``
(``hard:seconds=0.5`` adds a time cap to its iterations). Each level's strength is
measured per game as an Elo rating against ``random`` (Elo 0) and recorded,
with the command that measured it, in ``docs/ai/<game>.md``.

Budgets are *plies* per move: game steps played by the search, in the tree
and in its rollouts together. That is a measure of work, so a level plays the
same moves on every machine, and unlike a count of iterations it costs about
as much early in a game, where rollouts are long, as late, where they are
short and tactics decide (an early iteration can cost forty plies, a late one
five). ``expert`` also stops at 1.5 s per move so that it always answers
within 2 s (it is then reproducible only where its plies fit in that time).
``hard`` and below finish well inside 2 s in the reference games.
"""

from __future__ import annotations

from ..core.game import Game
from .base import register_agent
from .mcts import MCTSAgent, make_mcts
from .params import AgentParams

#: Level name → MCTS parameters (as spec strings would give them).
LEVELS: dict[str, dict[str, str]] = {
    "easy": {"plies": "1500"},
    "medium": {"plies": "5000"},
    "hard": {"plies": "20000"},
    "expert": {"plies": "250000", "seconds": "1.5"},
}


def level_spec(level: str) -> str:
    """The ``mcts:…`` spec a level stands for."""
    return "mcts:" + ",".join(f"{k}={v}" for k, v in LEVELS[level].items())


def _factory(level: str):
    def make(game: Game, seat: int, seed: int | None, params: dict[str, str]) -> MCTSAgent:
        merged = {**LEVELS[level], **params}
        return make_mcts(game, seat, seed, AgentParams(level, merged), name=level)

    return make


for _level in LEVELS:
    register_agent(_level, _factory(_level))
