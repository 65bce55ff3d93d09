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

import itertools
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

    Where the file's ``boardlab strength`` block has a head-to-head table (:func:`level_head_to_head`), two
    neighbouring levels (``random`` below ``easy``, or the weakest level measured) are told apart when the
    stronger-named one's head-to-head score interval lies wholly above 0.5; a level keeps its figure (from the
    block's own Elo table) only when it is told apart from the level below it and from the level above it (if
    that one was measured). This judges the difference the two played out, not two ratings whose intervals both
    carry the uncertainty of every link down to ``random``. Without such a table (older runs), a level keeps
    its figure only when its 95% Elo interval lies wholly above the next weaker measured level's and wholly below
    the next stronger one's. Either way, where the data do not order two neighbours, neither shows a number (a
    figure would claim an order, or contradict the names), and a figure that would not rise above the one shown
    below it is dropped: the figures kept rise with the levels.
    """
    text = _notes_text(game_id, docs)
    block = _block(text)
    duels = _head_to_head_rows(block)
    figures: dict[str, float] = {}
    if duels:
        tables = _level_tables(block)
        ratings = tables[0] if tables else {}
        order = [lv for lv in LEVELS if lv in ratings]
        chain = ["random", *order]

        def apart(weaker: str, stronger: str) -> bool:
            row = duels.get((stronger, weaker))
            return row is not None and row[2] > 0.5

        for i, level in enumerate(order, start=1):
            above = i == len(chain) - 1 or apart(level, chain[i + 1])
            if apart(chain[i - 1], level) and above:
                figures[level] = ratings[level][0]
    else:
        measured = level_intervals(game_id, docs)
        order = [lv for lv in LEVELS if lv in measured]
        for i, level in enumerate(order):
            _elo, lo, hi = measured[level]
            below = i == 0 or measured[order[i - 1]][2] < lo
            above = i == len(order) - 1 or hi < measured[order[i + 1]][1]
            if below and above:
                figures[level] = measured[level][0]
    rising: dict[str, float] = {}
    for level in LEVELS:
        if level in figures and all(figures[level] > v for v in rising.values()):
            rising[level] = figures[level]
    return rising


def level_head_to_head(
    game_id: str, docs: pathlib.Path | None = None
) -> dict[tuple[str, str], tuple[float, int, float, float]]:
    """The head-to-head rows of the file's ``boardlab strength`` block: ``(stronger, weaker) -> (score, games, low,
    high)``, the stronger-named level's score against the other with its 95% interval (``{}`` without such rows).

    >>> row = level_head_to_head("cirque")[("easy", "random")]
    >>> row[0] > 0.5 and row[2] > 0.5
    True
    """
    return _head_to_head_rows(_block(_notes_text(game_id, docs)))


def level_note(game_id: str, luck: bool = False, docs: pathlib.Path | None = None) -> str:
    """Words for the level menu where the measurement does not tell levels apart (``""`` where it does, or has no
    head-to-head table). ``luck``: whether the game has chance or hidden information.

    Each pair of neighbouring levels that the block's head-to-head games did not tell apart is named with its
    number of games: "play about alike" where the interval confines the stronger-named's score to 0.3–0.7 (a gap
    of at most about 150 Elo either way), else "not told apart yet". Where the game has luck and even the
    strongest level measured scores surely below :data:`LUCK_CAP` against random moves (or not clearly above
    0.5), and no level clearly beat the level below it, the note says that luck decides more than skill.
    """
    rows = level_head_to_head(game_id, docs)
    if not rows:
        return ""
    measured = [lv for lv in LEVELS if any(lv in pair for pair in rows)]
    chain = ["random", *measured]
    against_random = [(lv, rows[(lv, "random")]) for lv in reversed(measured) if (lv, "random") in rows]
    level_pairs = [rows.get((b, a)) for a, b in itertools.pairwise(measured)]
    alike = bool(level_pairs) and all(r is None or r[2] <= 0.5 for r in level_pairs)
    if luck and against_random and alike:
        best, (score, games, lo, hi) = against_random[0]  # the strongest-named level that played random
        if lo <= 0.5 or hi < LUCK_CAP:
            counts = sorted(r[1] for r in level_pairs if r is not None)
            span = f"{counts[0]}" if counts[0] == counts[-1] else f"{counts[0]} to {counts[-1]}"
            return (
                f"In this game luck decides more than skill: {best} won {score:.0%} of {_games(games)} against "
                f"random moves, and no level clearly beat the level below it ({span} games a pairing)."
            )
    parts: list[str] = []
    for weaker, stronger in itertools.pairwise(chain):
        row = rows.get((stronger, weaker))
        if row is None or row[2] > 0.5:
            continue
        score, games, lo, hi = row
        them = (
            f"{weaker.capitalize()} and {stronger}"
            if weaker != "random"
            else f"{stronger.capitalize()} and random moves"
        )
        if hi < 0.5:
            parts.append(f"{them}: {weaker} won more often in {_games(games)}.")
        elif lo >= 0.3 and hi <= 0.7:
            parts.append(f"{them} play about alike here ({_games(games)}, no clear winner).")
        else:
            parts.append(f"{them}: not told apart yet ({_games(games)}).")
    return " ".join(parts)


#: Where even the strongest level's score against random moves is surely below this (its 95% interval ends
#: below it) and no level beat the one below it, the level note says that luck decides more than skill.
LUCK_CAP = 0.75


def _games(n: int) -> str:
    return f"{n} measured game" + ("" if n == 1 else "s")


def _notes_text(game_id: str, docs: pathlib.Path | None) -> str:
    path = docs / f"{game_id}.md" if docs is not None else ai_notes_path(game_id)
    try:
        return path.read_text(encoding="utf-8") if path is not None else ""
    except OSError:
        return ""


#: The markers of the block ``boardlab strength`` writes (:mod:`boardlab.agents.strength` writes them from these).
BLOCK_BEGIN, BLOCK_END = "<!-- strength:begin", "<!-- strength:end -->"


def _block(text: str) -> str:
    """The ``boardlab strength`` block of a notes file (``""`` without one)."""
    start = text.find(BLOCK_BEGIN)
    end = text.find(BLOCK_END, start + 1)
    return text[start:end] if start >= 0 and end > start else ""


def _head_to_head_rows(text: str) -> dict[tuple[str, str], tuple[float, int, float, float]]:
    """Rows ``| `hard` against `medium` | 24 | 0.708 (17 of 24) | 0.508–0.851 | …``: (stronger, weaker) -> row."""
    out: dict[tuple[str, str], tuple[float, int, float, float]] = {}
    for line in text.splitlines():
        if not line.lstrip().startswith("|"):
            continue
        cells = [c.strip().replace("`", "") for c in line.strip().strip("|").split("|")]
        if len(cells) < 4:
            continue
        m = re.fullmatch(r"([\w-]+) against ([\w-]+)", cells[0])
        games = re.match(r"(\d+)", cells[1])
        score = re.match(r"(\d+(?:\.\d+)?)", cells[2])
        ci = re.fullmatch(r"(\d+(?:\.\d+)?)\s*[–-]\s*(\d+(?:\.\d+)?)", cells[3])
        if m and games and score and ci:
            out[(m.group(1), m.group(2))] = (
                float(score.group(1)),
                int(games.group(1)),
                float(ci.group(1)),
                float(ci.group(2)),
            )
    return out


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
