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

import math
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
    level tables have rows ``| level | spec | Elo | Elo 95% CI | …``. Where the
    file holds several tables (runs of different sizes), the best measured one
    (the narrowest mean interval over its levels) gives the ratings, and a level
    it lacks comes from the next table that has it, as that table's gap to the
    level the two tables share nearest to it in that table (each fit measures
    differences; its zero, ``random``, is the least well placed). Levels not
    measured yet are missing from the result (``{}`` when there is no file).

    >>> sorted(level_ratings("blast-radius"))
    ['easy', 'expert', 'hard', 'medium']
    """
    path = docs / f"{game_id}.md" if docs is not None else ai_notes_path(game_id)
    try:
        text = path.read_text(encoding="utf-8") if path is not None else ""
    except OSError:
        return {}
    tables = sorted(_level_tables(text), key=lambda t: sum(w for _e, w in t.values()) / len(t))
    out: dict[str, float] = {}
    for table in tables:
        shared = [lv for lv in table if lv in out]
        for level, (elo, _w) in table.items():
            if level in out:
                continue
            if shared:
                near = min(shared, key=lambda lv: abs(table[lv][0] - elo))
                out[level] = out[near] + (elo - table[near][0])
            else:
                out[level] = elo
    return out


def _level_tables(text: str) -> list[dict[str, tuple[float, float]]]:
    """Each Markdown table's level rows: level -> (Elo, width of its interval; ``inf`` without one)."""
    tables: list[dict[str, tuple[float, float]]] = []
    current: dict[str, tuple[float, float]] | None = None
    for line in text.splitlines():
        if not line.lstrip().startswith("|"):
            current = None
            continue
        if current is None:
            current = {}
            tables.append(current)
        cells = [c.strip().strip("`*") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0] in LEVELS and cells[0] not in current:
            elo = _signed(cells[2])
            if elo is not None:
                current[cells[0]] = (elo, _width(cells[3]) if len(cells) > 3 else math.inf)
    return [t for t in tables if t]


_NUMBER = r"([+\-−]?)\s*(\d+(?:\.\d+)?)"


def _signed(cell: str) -> float | None:
    m = re.fullmatch(_NUMBER, cell.strip())
    return None if m is None else float(m.group(2)) * (-1 if m.group(1) in ("-", "−") else 1)


def _width(cell: str) -> float:
    """The width of an interval cell ``+90 … +330`` (``inf`` when the cell is not one)."""
    parts = [p for p in re.split(r"\s*(?:…|\.\.\.)\s*", cell.strip()) if p]
    ends = [_signed(p) for p in parts]
    if len(ends) != 2 or None in ends:
        return math.inf
    lo, hi = ends
    assert lo is not None and hi is not None
    return abs(hi - lo)


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
