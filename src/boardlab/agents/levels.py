"""Playing levels: ``easy``, ``medium``, ``hard``, ``expert``, each an MCTS budget.

A level is usable wherever an agent is named (``--seat 1=hard``,
``--agents expert,random``) and accepts the same parameters as ``mcts``
(``hard:seconds=0.5`` adds a time cap to its iterations). Each level's strength is
measured per game as an Elo rating against ``random`` (Elo 0) and recorded,
with the command that measured it, in ``docs/ai/<game>.md`` (shipped in the
package as data, so an installed wheel reads the same ratings).

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

import pathlib
import re

from ..core.game import Game
from ..docs import ai_notes_path
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


def level_names() -> list[str]:
    """The levels, weakest first."""
    return list(LEVELS)


def level_ratings(game_id: str, docs: pathlib.Path | None = None) -> dict[str, float]:
    """The measured Elo (``random`` = 0) of each level in ``game_id``, from ``docs/ai/<game>.md``.

    The file is found as :func:`boardlab.docs.ai_notes_path` finds it (the source
    tree, else the installed package data), or in the directory ``docs``. Its
    level table has rows ``| level | spec | Elo | …``; levels not measured yet
    are missing from the result (``{}`` when there is no file).

    >>> sorted(level_ratings("blast-radius"))
    ['easy', 'expert', 'hard', 'medium']
    """
    path = docs / f"{game_id}.md" if docs is not None else ai_notes_path(game_id)
    try:
        text = path.read_text(encoding="utf-8") if path is not None else ""
    except OSError:
        return {}
    out: dict[str, float] = {}
    for line in text.splitlines():
        if not line.lstrip().startswith("|"):
            continue
        cells = [c.strip().strip("`*") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0] in LEVELS and cells[0] not in out:
            m = re.fullmatch(r"([+\-−]?)\s*(\d+(?:\.\d+)?)", cells[2])
            if m:
                out[cells[0]] = float(m.group(2)) * (-1 if m.group(1) in ("-", "−") else 1)
    return out


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
