"""Playing levels: ``easy``, ``medium``, ``hard``, ``expert``, each an MCTS budget.

A level is usable wherever an agent is named (``--seat 1=hard``,
``--agents expert,random``) and accepts the same parameters as ``mcts``
(``hard:seconds=0.5`` sets its time cap to 0.5 s). Each level's strength is
measured per game as an Elo rating against ``random`` (Elo 0) and recorded,
with the command that measured it, in ``docs/ai/<game>.md`` (shipped in the
package as data, so an installed wheel reads the same ratings).

A level's budget is *plies* per move, capped by *CPU seconds* per move;
whichever ends first ends the search:

* Plies are game steps played by the search, in the tree and in its
  rollouts together. That is a measure of work, so where the plies fit in
  the time a level plays the same moves on every machine (and the measured
  Elo ratings keep their meaning), and unlike a count of iterations it costs
  about as much early in a game, where rollouts are long, as late, where they
  are short and tactics decide (an early iteration can cost forty plies, a
  late one five).
* The cap in CPU seconds (``clock=cpu``: the searching process's own CPU
  time, so other jobs on the machine do not shorten the search) bounds the
  think time in every game, however slow its steps: a ply budget alone turns
  a slow game into seconds. In the reference games, ``hard``'s plies take
  about 1 s of CPU at most (Fences, the slowest per decision; most take under
  0.3 s), so its cap of 1.5 s cuts only slower games and ``hard`` stays
  reproducible where it was measured.

``expert`` has both more plies and more seconds than ``hard`` (3 s against
1.5 s), so it never searches less than ``hard``: where ``hard`` stops at its
cap, ``expert`` goes on for as long again. Its 3 s keep it inside the server's
per-move limit (5 s on the wall clock, :mod:`boardlab.server.ai`) with room for
a loaded machine. :func:`level_seconds` gives each level's cap, the think time
the lobby shows.
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
    "easy": {"plies": "1500", "seconds": "0.25", "clock": "cpu"},
    "medium": {"plies": "5000", "seconds": "0.5", "clock": "cpu"},
    "hard": {"plies": "20000", "seconds": "1.5", "clock": "cpu"},
    "expert": {"plies": "250000", "seconds": "3", "clock": "cpu"},
}


def level_names() -> list[str]:
    """The levels, weakest first."""
    return list(LEVELS)


def level_seconds(level: str) -> float:
    """The most CPU seconds ``level`` thinks per move (its cap; in most games it answers sooner).

    >>> level_seconds("hard")
    1.5
    """
    return float(LEVELS[level]["seconds"])


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
    return {level: elo for level, (elo, _lo, _hi) in level_intervals(game_id, docs).items()}


def level_intervals(game_id: str, docs: pathlib.Path | None = None) -> dict[str, tuple[float, float, float]]:
    """Each measured level's Elo and the ends of its 95% interval: ``level -> (elo, low, high)``.

    The ratings are :func:`level_ratings`'; a level taken from another table is
    moved with its interval by the same gap. A level whose table gives no interval has
    ``(elo, -inf, inf)``.
    """
    path = docs / f"{game_id}.md" if docs is not None else ai_notes_path(game_id)
    try:
        text = path.read_text(encoding="utf-8") if path is not None else ""
    except OSError:
        return {}
    tables = sorted(_level_tables(text), key=lambda t: sum(hi - lo for _e, lo, hi in t.values()) / len(t))
    out: dict[str, tuple[float, float, float]] = {}
    for table in tables:
        shared = [lv for lv in table if lv in out]
        for level, (elo, lo, hi) in table.items():
            if level in out:
                continue
            gap = 0.0
            if shared:
                near = min(shared, key=lambda lv: abs(table[lv][0] - elo))
                gap = out[near][0] - table[near][0]
            out[level] = (elo + gap, lo + gap, hi + gap)
    return out


def level_figures(game_id: str, docs: pathlib.Path | None = None) -> dict[str, float]:
    """The Elo figures the lobby may show beside the levels: only those the measurement separates.

    A measured level keeps its figure only when its 95% interval lies wholly
    above the interval of the next weaker measured level and wholly below the
    next stronger one's. Where two neighbours' intervals overlap, or the
    weaker-named level measured stronger, neither shows a number: the data do not
    order them, and a figure would claim an order (or contradict the names).
    The figures kept therefore rise with the levels.

    >>> level_figures("cirque")  # every interval overlaps its neighbours'
    {}
    """
    measured = level_intervals(game_id, docs)
    order = [lv for lv in LEVELS if lv in measured]
    figures: dict[str, float] = {}
    for i, level in enumerate(order):
        _elo, lo, hi = measured[level]
        below = i == 0 or measured[order[i - 1]][2] < lo
        above = i == len(order) - 1 or hi < measured[order[i + 1]][1]
        if below and above:
            figures[level] = measured[level][0]
    return figures


def _level_tables(text: str) -> list[dict[str, tuple[float, float, float]]]:
    """Each Markdown table's level rows: level -> (Elo, low, high; ``-inf``, ``inf`` without an interval)."""
    tables: list[dict[str, tuple[float, float, float]]] = []
    current: dict[str, tuple[float, float, float]] | None = None
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
                lo, hi = _interval(cells[3]) if len(cells) > 3 else (-math.inf, math.inf)
                current[cells[0]] = (elo, lo, hi)
    return [t for t in tables if t]


_NUMBER = r"([+\-−]?)\s*(\d+(?:\.\d+)?)"


def _signed(cell: str) -> float | None:
    m = re.fullmatch(_NUMBER, cell.strip())
    return None if m is None else float(m.group(2)) * (-1 if m.group(1) in ("-", "−") else 1)


def _interval(cell: str) -> tuple[float, float]:
    """The ends of an interval cell ``+90 … +330`` (``-inf``, ``inf`` when the cell is not one)."""
    parts = [p for p in re.split(r"\s*(?:…|\.\.\.)\s*", cell.strip()) if p]
    ends = [_signed(p) for p in parts]
    if len(ends) != 2 or None in ends:
        return -math.inf, math.inf
    lo, hi = ends
    assert lo is not None and hi is not None
    return min(lo, hi), max(lo, hi)


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
