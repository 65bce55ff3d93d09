"""Round-robin tournaments between agents, with win rates, confidence intervals and Elo ratings.

>>> import boardlab
>>> r = run_tournament(boardlab.make("blast-radius", board_side=5), ["random", "greedy:playouts=1"], games=2, seed=1)
>>> r.to_json()["agents"], r.to_json()["games"]
(['random', 'greedy:playouts=1'], 2)

Schedule. For a game of ``k`` seats:

* every ``k``-subset of the agents (every pair, for two seats) is a *lineup*;
  with fewer agents than seats, the one lineup repeats them in turn
  (``A, B, A, B`` for two agents on four seats);
* each lineup plays ``games`` games, rotating the seats every game, so every
  agent sits in every seat equally often when ``games`` is a multiple of ``k``
  (use an even number of games for two-player games);
* the ``k`` rotations of a round share one chance seed, so luck is shared out
  between the seatings as well as between the agents.

Scoring. In each game, every two seats held by different agents are compared:
the higher return scores 1, equal returns score ½ each (a two-player game is
a win, a loss or a draw). An agent's *score* is its fraction of points over
all its comparisons, with a 95% Wilson interval; Elo ratings are fitted to the
pairwise points (:func:`boardlab.lab.stats.fit_elo`), ``random`` at 0.

Co-operative games (and games played by one seat) have no opponents: every
agent instead plays ``games`` games holding every seat, and game ``g`` of one agent is compared with game
``g`` of each other agent (the same chance seed): the higher shared return
scores 1, equal ½. Scores and Elo then read the same way ("how often this
team does better than that one"), and ``mean_return`` gives each team's
average result.

Games stopped by the safety cap count with the returns at that point (usually
a draw) and are counted in ``capped``. Every game is seeded from ``seed``, so a
tournament is reproducible (for agents with iteration budgets), also when run
on several processes (``jobs``).
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..agents.base import make_agent, parse_agent_spec
from ..core.driver import agents_choose, play
from ..core.game import Game
from ..games import make_cached
from .stats import fit_elo, wilson

Progress = Callable[[int, int], None]


@dataclass
class GameResult:
    """One game: who sat where, the returns, its length, whether the safety cap stopped it."""

    lineup: int
    index: int
    seats: list[str]
    returns: list[float]
    length: int
    capped: bool


@dataclass
class TournamentResult:
    game_id: str
    options: dict[str, Any]
    agents: list[str]
    games: int
    seed: int
    num_players: int
    cooperative: bool
    results: list[GameResult] = field(default_factory=list)

    # -- aggregation ------------------------------------------------------
    def pairwise(self) -> dict[tuple[str, str], tuple[float, int]]:
        """``(a, b) -> (points of a against b, comparisons)`` with ``a`` before ``b`` in ``agents``."""
        order = {a: i for i, a in enumerate(self.agents)}
        table: dict[tuple[str, str], list[float]] = {}

        def add(a: str, b: str, ra: float, rb: float) -> None:
            if order[a] > order[b]:
                a, b, ra, rb = b, a, rb, ra
            cell = table.setdefault((a, b), [0.0, 0])
            cell[0] += 1.0 if ra > rb else 0.5 if ra == rb else 0.0
            cell[1] += 1

        if self.cooperative:
            by_agent: dict[str, dict[int, float]] = {}
            for r in self.results:
                by_agent.setdefault(r.seats[0], {})[r.index] = r.returns[0]
            for a, b in itertools.combinations(self.agents, 2):
                ga, gb = by_agent.get(a, {}), by_agent.get(b, {})
                for g in sorted(set(ga) & set(gb)):
                    add(a, b, ga[g], gb[g])
        else:
            for r in self.results:
                for s, t in itertools.combinations(range(len(r.seats)), 2):
                    if r.seats[s] != r.seats[t]:
                        add(r.seats[s], r.seats[t], r.returns[s], r.returns[t])
        return {k: (v[0], int(v[1])) for k, v in table.items()}

    def summary(self) -> dict[str, Any]:
        pw = self.pairwise()
        points = dict.fromkeys(self.agents, 0.0)
        count = dict.fromkeys(self.agents, 0)
        for (a, b), (pa, n) in pw.items():
            points[a] += pa
            points[b] += n - pa
            count[a] += n
            count[b] += n
        score = {a: points[a] / count[a] if count[a] else 0.0 for a in self.agents}
        ci = {a: list(wilson(points[a], count[a])) for a in self.agents}
        names = self.agents
        anchor = next((a for a in names if parse_agent_spec(a)[0] == "random"), None)
        fit = fit_elo(names, pw, anchor=anchor)
        seat_returns: dict[str, list[float]] = {a: [] for a in self.agents}
        for r in self.results:
            for s, a in enumerate(r.seats):
                seat_returns[a].append(r.returns[s])
        return {
            "score": score,
            "ci95": ci,
            "elo": fit.ratings,
            "elo_ci95": {a: list(fit.ci95(a)) for a in names},
            "elo_anchor": fit.anchor,
            "comparisons": count,
            "pairwise": {f"{a} vs {b}": {"score": p / n, "points": p, "games": n} for (a, b), (p, n) in pw.items()},
            "mean_return": {a: sum(v) / len(v) if v else 0.0 for a, v in seat_returns.items()},
        }

    def to_json(self) -> dict[str, Any]:
        """``{"agents", "games", "score", "elo", "ci95", …}`` (the ``--json`` output)."""
        s = self.summary()
        lengths = [r.length for r in self.results]
        return {
            "game": self.game_id,
            "options": self.options,
            "players": self.num_players,
            "seed": self.seed,
            "agents": list(self.agents),
            "games": self.games,
            "total_games": len(self.results),
            "score": s["score"],
            "elo": s["elo"],
            "ci95": s["ci95"],
            "elo_ci95": s["elo_ci95"],
            "elo_anchor": s["elo_anchor"],
            "pairwise": s["pairwise"],
            "mean_return": s["mean_return"],
            "capped": sum(r.capped for r in self.results),
            "mean_length": sum(lengths) / len(lengths) if lengths else 0.0,
        }


def schedule(agents: Sequence[str], seats: int, games: int, cooperative: bool) -> list[tuple[int, int, list[str]]]:
    """Every game to play: ``(lineup, game index, agent per seat)``."""
    plan: list[tuple[int, int, list[str]]] = []
    if cooperative:
        for li, a in enumerate(agents):
            plan += [(li, g, [a] * seats) for g in range(games)]
        return plan
    if len(agents) >= seats:
        lineups = [list(c) for c in itertools.combinations(agents, seats)]
    else:
        lineups = [[agents[i % len(agents)] for i in range(seats)]]
    for li, lineup in enumerate(lineups):
        for g in range(games):
            r = g % seats
            plan.append((li, g, lineup[r:] + lineup[:r]))
    return plan


def stable_seed(*parts: object) -> int:
    """A 63-bit seed derived from ``parts`` (stable across platforms and processes)."""
    digest = hashlib.sha256(b"boardlab-tournament/" + "/".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def play_one(
    game: Game, num_players: int, seed: int, lineup: int, index: int, seats: list[str], cooperative: bool
) -> GameResult:
    """Play one scheduled game (fresh agents, everything seeded)."""
    k = len(seats)
    round_ = index if cooperative else index // k
    chance = random.Random(stable_seed(seed, "chance", lineup if not cooperative else 0, round_))
    agents = [make_agent(spec, game, s, stable_seed(seed, "agent", lineup, index, s)) for s, spec in enumerate(seats)]
    state = game.new_initial_state(num_players)
    capped = play(state, agents_choose(agents), chance) == "capped"
    return GameResult(lineup, index, list(seats), [float(x) for x in state.returns()], state.move_number(), capped)


def _play_job(args: tuple[str, dict[str, Any], int, int, int, int, list[str], bool]) -> GameResult:
    game_id, options, num_players, seed, lineup, index, seats, coop = args
    return play_one(make_cached(game_id, **options), num_players, seed, lineup, index, seats, coop)


def run_tournament(
    game: Game,
    agents: Sequence[str],
    games: int,
    seed: int = 0,
    num_players: int | None = None,
    progress: Progress | None = None,
    jobs: int = 1,
) -> TournamentResult:
    """Play the round robin (see the module documentation) and return every result."""
    agents = [a.strip() for a in agents]
    if len(agents) < 2:
        raise ValueError("a tournament needs at least two agents")
    if len(set(agents)) != len(agents):
        dup = sorted({a for a in agents if agents.count(a) > 1})
        raise ValueError(f"each agent may be named once; repeated: {', '.join(dup)}")
    if games < 1:
        raise ValueError(f"the number of games must be at least 1; got {games}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1; got {jobs}")
    n = game.resolve_num_players(num_players)
    for spec in agents:  # refuse unknown agents or parameters before playing anything
        make_agent(spec, game, 0, 0)
    coop = bool(game.cooperative) or n == 1  # a one-seat game has no opponent either
    plan = schedule(agents, n, games, coop)
    result = TournamentResult(game.id, dict(game.params), agents, games, seed, n, coop)
    total = len(plan)
    if progress:
        progress(0, total)
    if jobs == 1:
        for i, (li, g, seats) in enumerate(plan):
            result.results.append(play_one(game, n, seed, li, g, seats, coop))
            if progress:
                progress(i + 1, total)
    else:
        work = [(game.id, dict(game.params), n, seed, li, g, seats, coop) for li, g, seats in plan]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for i, r in enumerate(pool.map(_play_job, work)):
                result.results.append(r)
                if progress:
                    progress(i + 1, total)
    return result
