"""A game's measured AI strength, from one call: ``boardlab strength GAME``.

:func:`measure_strength` plays

* matches between ``random`` and the levels (:func:`boardlab.lab.tournament.run_tournament`; a ladder of
  neighbouring levels plus ``hard`` against ``random``, or every pair, see :func:`pairings`): every level's
  Elo (``random`` = 0) with its 95% interval;
* from them, ``hard`` against ``random``: its score with a 95% Wilson interval (the goal is 0.95);
* where the game has hidden information and opponents, the *ceiling*: an agent that sees everything
  (:class:`~boardlab.agents.cheating.CheatingMCTS`, ``hard``'s budget over the true state) against
  ``random``, the same number of games, seats alternated, the same chance seeds as ``hard``'s games against
  ``random``; with perfect information such an agent is ``hard`` itself, and the table says so;
* in a co-operative game, each level's win rate (a return above 0) for every player count asked for.

:func:`strength_markdown` words the result as the block that :func:`write_strength` puts into
``docs/ai/<game>.md`` between :data:`BEGIN` and :data:`END` (the prose around it stays; a file without the
markers gets the block before its first ``##`` section, so it is the table that
:func:`boardlab.agents.levels.level_ratings` reads first).
"""

from __future__ import annotations

import itertools
import json
import os
import pathlib
import platform
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..core.driver import agents_choose, play
from ..core.game import Game
from ..games import make_cached
from ..lab.stats import wilson
from ..lab.tournament import GameResult, TournamentResult, play_one, run_tournament, schedule, stable_seed
from .base import make_agent
from .cheating import CheatingMCTS
from .levels import BLOCK_BEGIN, BLOCK_END, LEVELS, level_spec

BEGIN = BLOCK_BEGIN + " (written by `boardlab strength`; edit the prose outside these markers) -->"
END = BLOCK_END

#: The levels measured by default, weakest first.
DEFAULT_LEVELS = ("easy", "medium", "hard", "expert")


@dataclass
class Score:
    """Points out of games (a draw is half), with a 95% Wilson interval."""

    points: float
    games: int

    @property
    def rate(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.points, self.games)

    def words(self) -> str:
        lo, hi = self.ci95
        return f"{self.rate:.3f} ({self.points:g} of {self.games}; 95% CI {lo:.3f}–{hi:.3f})"


@dataclass
class PairResult:
    """One pairing's games head to head: ``stronger``'s points (the stronger-named level) against ``weaker``."""

    weaker: str
    stronger: str
    points: float
    games: int
    #: Why the pairing stopped: ``separated`` (its stopping interval excluded an even score), ``cap`` (the most
    #: games allowed), ``budget`` (this run's CPU seconds for it were spent), ``fixed`` (the games asked for),
    #: ``stored`` (the stored games alone, none played).
    stopped: str = "fixed"
    #: Of its games, how many were read from the store rather than played by this run.
    reused: int = 0
    #: The CPU seconds its games took (stored ones as the store records them; ``None``: not counted).
    cpu_seconds: float | None = None

    @property
    def score(self) -> Score:
        return Score(self.points, self.games)

    def verdict(self) -> str:
        """``yes`` (the stronger-named is stronger at 95%), ``reversed`` (it is weaker), or ``no``."""
        lo, hi = self.score.ci95
        return "yes" if lo > 0.5 else "reversed" if hi < 0.5 else "no"


@dataclass
class StrengthReport:
    game_id: str
    options: dict[str, Any]
    levels: list[str]
    games: int
    seed: int
    num_players: int
    cooperative: bool
    #: Whether the game has chance or hidden information.
    luck: bool = False
    #: Whether the game has hidden information (its ceiling is then an agent that sees everything), and chance.
    hidden: bool = False
    chance: bool = False
    tournament: dict[str, Any] | None = None
    target_vs_random: Score | None = None
    #: The level measured against random on its own (``hard``), and its score.
    target: str = "hard"
    #: The cheating agent (``target``'s budget over the true state) against ``random``; ``None``: not measured.
    ceiling: Score | None = None
    #: Co-operative games: player count -> level -> share of games won.
    win_rates: dict[int, dict[str, Score]] = field(default_factory=dict)
    seconds: float = 0.0
    #: Whether time caps counted CPU seconds, and the load average when the run ended.
    cpu_clock: bool = False
    load: float | None = None
    command: str = ""
    schedule: str = "ladder"
    #: Each pairing played, weaker-named first, as its head-to-head result.
    pairs: list[PairResult] = field(default_factory=list)
    #: Sequential pairings: ``(fewest games, most games, confidence of the stopping interval)``; ``None``: fixed.
    sequential: tuple[int, int, float] | None = None
    #: Sequential pairings: the CPU seconds each might spend in the run (``None``: no bound).
    pair_cpu_seconds: float | None = None
    #: The file the games are stored in and reused from (``None``: not stored).
    store: str | None = None


def has_luck(game: Game) -> bool:
    """Whether the game has chance or hidden information (a fair agent may then be capped below 1.0)."""
    t = game.game_type
    return t.chance.value != "none" or not game.perfect_information


def ceiling_game(game: Game, num_players: int, seed: int, index: int, budget: str) -> float:
    """One ceiling game: the cheating agent (``budget``: a level) against ``random``; its points (1, ½ or 0).

    The cheater sits in seat ``index % num_players``; the chance seed is shared by the rotations of a round.
    """
    cheat_seat = index % num_players
    chance = random.Random(stable_seed(seed, "chance", 0, index // num_players))
    kwargs: dict[str, Any] = {
        k: (float(v) if k == "seconds" else v if k == "clock" else int(v)) for k, v in LEVELS[budget].items()
    }
    agents: list[Any] = []
    for s in range(num_players):
        agent_seed = stable_seed(seed, "agent", "ceiling", index, s)
        if s == cheat_seat:
            agents.append(CheatingMCTS(game, s, agent_seed, name="cheating-" + budget, **kwargs))
        else:
            agents.append(make_agent("random", game, s, agent_seed))
    state = game.new_initial_state(num_players)
    play(state, agents_choose(agents), chance)
    r = state.returns()
    mine, best_other = r[cheat_seat], max(x for s, x in enumerate(r) if s != cheat_seat)
    return 1.0 if mine > best_other else 0.5 if mine == best_other else 0.0


def _ceiling_job(args: tuple[str, dict[str, Any], int, int, int, str]) -> float:
    game_id, options, num_players, seed, index, budget = args
    return ceiling_game(make_cached(game_id, **options), num_players, seed, index, budget)


#: How the pairings are chosen (see :func:`pairings`).
SCHEDULES = ("ladder", "all")


def pairings(specs: Sequence[str], target: str, schedule: str = "ladder") -> list[tuple[str, str]]:
    """The pairings to play: every pair (``all``), or neighbours weakest first plus ``target`` against the first.

    >>> pairings(["random", "easy", "hard", "expert"], "hard")
    [('random', 'easy'), ('easy', 'hard'), ('hard', 'expert'), ('random', 'hard')]
    """
    if schedule == "all":
        return list(itertools.combinations(specs, 2))
    out = list(itertools.pairwise(specs))
    if target in specs and (specs[0], target) not in out:
        out.append((specs[0], target))
    return out


def _budget(spec: str) -> str:
    """What a spec plays, spelt out (a level's MCTS budget), so that stored games of another budget are not reused."""
    name, _, extra = spec.partition(":")
    return level_spec(name) + ("," + extra if extra else "") if name in LEVELS else spec


class GameStore:
    """The games :func:`measure_strength` played, one JSON line each, appended as each game ends.

    A line holds the pairing's key (game, options, players, seed, the two agents and their budgets) and the game
    (its index in the pairing, who sat where, the returns, its length, whether the safety cap stopped it, and the
    CPU seconds it took). A later run with the same key reuses the stored games (indices ``0 … k-1``, in order,
    without gaps) and plays on from index ``k``, so a measurement grows instead of starting over; a pairing whose
    budgets changed has another key and starts afresh.
    """

    def __init__(self, path: pathlib.Path | str) -> None:
        self.path = pathlib.Path(path)

    @staticmethod
    def key(game: Game, num_players: int, seed: int, pair: Sequence[str]) -> dict[str, Any]:
        return {
            "game": game.id,
            "options": {k: v for k, v in sorted(dict(game.params).items())},
            "players": num_players,
            "seed": seed,
            "agents": list(pair),
            "budgets": [_budget(a) for a in pair],
        }

    def games(self, key: dict[str, Any]) -> list[GameResult]:
        """The stored games of ``key``: indices 0, 1, … as far as they run without a gap."""
        return [r for r, _cpu in self.games_and_seconds(key)]

    def games_and_seconds(self, key: dict[str, Any]) -> list[tuple[GameResult, float]]:
        """:meth:`games`, each with the CPU seconds it took."""
        found: dict[int, tuple[GameResult, float]] = {}
        want = json.dumps(key, sort_keys=True, default=str)
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                row = json.loads(line)
                if json.dumps(row["key"], sort_keys=True, default=str) != want:
                    continue
                g = row["game"]
                found.setdefault(
                    int(g["index"]),
                    (
                        GameResult(
                            0,
                            int(g["index"]),
                            list(g["seats"]),
                            [float(x) for x in g["returns"]],
                            int(g["length"]),
                            bool(g["capped"]),
                        ),
                        float(g.get("cpu_seconds", 0.0)),
                    ),
                )
        out: list[tuple[GameResult, float]] = []
        while len(out) in found:
            out.append(found[len(out)])
        return out

    def add(self, key: dict[str, Any], result: GameResult, seconds: float) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        row = {
            "key": key,
            "game": {
                "index": result.index,
                "seats": result.seats,
                "returns": result.returns,
                "length": result.length,
                "capped": result.capped,
                "cpu_seconds": round(seconds, 3),
            },
        }
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(row, default=str) + "\n")


def head_to_head(results: Sequence[GameResult], weaker: str, stronger: str) -> tuple[float, int]:
    """``stronger``'s points against ``weaker`` over ``results`` (every two seats they hold compared), and the count."""
    points, count = 0.0, 0
    for r in results:
        for s, t in itertools.combinations(range(len(r.seats)), 2):
            pair = {r.seats[s], r.seats[t]}
            if pair != {weaker, stronger}:
                continue
            mine, theirs = (r.returns[s], r.returns[t]) if r.seats[s] == stronger else (r.returns[t], r.returns[s])
            points += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            count += 1
    return points, count


def z_value(confidence: float) -> float:
    """The normal quantile of a two-sided interval of ``confidence``: ``z_value(0.95)`` is about 1.96."""
    from statistics import NormalDist

    if not 0.0 < confidence < 1.0:
        raise ValueError(f"the confidence must lie between 0 and 1; got {confidence}")
    return NormalDist().inv_cdf(1.0 - (1.0 - confidence) / 2.0)


def separated(points: float, games: int, confidence: float) -> bool:
    """Whether the Wilson interval of ``points`` of ``games`` at ``confidence`` excludes an even score (0.5)."""
    lo, hi = wilson(points, games, z_value(confidence))
    return games > 0 and (lo > 0.5 or hi < 0.5)


def play_pairing(
    game: Game,
    pair: tuple[str, str],
    num_players: int,
    seed: int,
    games: int,
    max_games: int | None = None,
    confidence: float = 0.99,
    store: GameStore | None = None,
    play_new: bool = True,
    cpu_budget: float | None = None,
) -> tuple[list[GameResult], PairResult]:
    """One pairing (``pair`` = weaker-named, stronger-named), game ``i`` seated and seeded as
    :func:`~boardlab.lab.tournament.run_tournament` seats and seeds it.

    Fixed (``max_games`` ``None`` or at most ``games``): ``games`` games. Sequential: at least ``games``, then
    round after round (``num_players`` games, the seats rotated) until the Wilson interval at ``confidence`` of the
    head-to-head score excludes 0.5, or ``max_games`` are played. Games in ``store`` are reused first (all of them
    up to the cap count, stored earlier by whatever rule); new games are appended to it as they end.
    ``play_new=False`` plays none: the stored games alone. ``cpu_budget``: a sequential pairing also stops, at a
    whole round, once the games this run played for it took so many CPU seconds (an expensive pairing then gets
    what the budget buys, and a later run with the store plays on from there).
    """
    weaker, stronger = pair
    cap = max(games, max_games or 0)
    sequential = cap > games
    key = GameStore.key(game, num_players, seed, pair)
    stored = store.games_and_seconds(key)[:cap] if store is not None else []
    results = [r for r, _cpu in stored]
    seconds = sum(cpu for _r, cpu in stored)
    reused = len(results)
    stopped = "fixed"
    spent = 0.0
    while True:
        points, count = head_to_head(results, weaker, stronger)
        whole_round = len(results) % num_players == 0
        if len(results) >= cap:
            stopped = "cap" if sequential else "fixed"
            break
        if sequential and len(results) >= games and whole_round and separated(points, count, confidence):
            stopped = "separated"
            break
        if not play_new:
            stopped = "stored"
            break
        if sequential and cpu_budget is not None and whole_round and spent >= cpu_budget and len(results) >= games:
            stopped = "budget"
            break
        i = len(results)
        seats = schedule(list(pair), num_players, i + 1, False)[i][2]
        t0 = time.process_time()
        r = play_one(game, num_players, seed, 0, i, seats, False)
        took = time.process_time() - t0
        spent += took
        seconds += took
        if store is not None:
            store.add(key, r, took)
        results.append(r)
    points, count = head_to_head(results, weaker, stronger)
    return results, PairResult(weaker, stronger, points, count, stopped, reused, seconds)


def measure_strength(
    game: Game,
    levels: Sequence[str] = DEFAULT_LEVELS,
    games: int = 10,
    seed: int = 1,
    workers: int = 1,
    players: Sequence[int] | None = None,
    ceiling: bool = True,
    target: str = "hard",
    schedule: str = "ladder",
    log: Callable[[str], None] | None = None,
    cpu_clock: bool = False,
    max_games: int | None = None,
    stop_confidence: float = 0.99,
    store: pathlib.Path | str | None = None,
    play_new: bool = True,
    pair_cpu_seconds: float | None = None,
) -> StrengthReport:
    """Measure ``levels`` in ``game`` (see the module documentation); ``games`` per pairing.

    ``target`` is the level whose score against ``random`` is reported on its own (the goal is 0.95) and
    whose budget the all-seeing ceiling agent gets. ``schedule`` is ``"ladder"`` (each level against the next
    weaker one, and ``target`` against ``random``: every rating linked at a fraction of the games) or
    ``"all"`` (every pair); see :func:`pairings`. ``log`` is told each part's result as it ends (a long run
    shows its progress). The levels' time caps count the searching process's CPU seconds (``clock=cpu``), so
    that a busy machine does not cut a search short; ``cpu_clock`` makes a level whose cap counted the wall clock
    count CPU seconds too (:func:`clocked`; every level counts CPU seconds now).

    ``max_games`` above ``games`` makes each pairing sequential (:func:`play_pairing`): from ``games`` on, it stops
    once its head-to-head interval at ``stop_confidence`` excludes an even score, else at ``max_games``; so close
    pairings get many games and lopsided ones few. ``store`` (a ``.jsonl`` file, :class:`GameStore`) keeps every
    game and a later run reuses them; ``play_new=False`` measures the stored games alone; ``pair_cpu_seconds``
    bounds the CPU seconds a sequential pairing may spend in this run (:func:`play_pairing`). (Co-operative games
    play ``games`` per level as before.)
    """
    say = log or (lambda _line: None)
    if schedule not in SCHEDULES:
        raise ValueError(f"unknown schedule {schedule!r}; schedules: {', '.join(SCHEDULES)}")
    levels = [lv.strip() for lv in levels if lv.strip() and lv.strip() != "random"]
    unknown = [lv for lv in levels if lv not in LEVELS]
    if unknown:
        raise ValueError(f"unknown level(s) {', '.join(unknown)}; levels: {', '.join(LEVELS)}")
    if not levels:
        raise ValueError("name at least one level to measure")
    if target not in LEVELS:
        raise ValueError(f"unknown target level {target!r}; levels: {', '.join(LEVELS)}")
    start = time.perf_counter()
    n = game.resolve_num_players(None)
    report = StrengthReport(game.id, dict(game.params), levels, games, seed, n, bool(game.cooperative), has_luck(game))
    report.target = target
    report.cpu_clock = cpu_clock
    report.hidden = not game.perfect_information
    report.chance = game.game_type.chance.value != "none"
    specs = ["random", *(clocked(lv) if cpu_clock else lv for lv in levels)]
    if game.cooperative:
        counts = [game.resolve_num_players(k) for k in sorted(set(players or [n]))]
        for k in counts:
            result = run_tournament(game, specs, games, seed=seed, num_players=k, jobs=workers)
            say(f"{k} player(s): {result.to_json()['mean_return']}")
            if report.tournament is None:
                report.tournament = result.to_json()
                report.num_players = k
            won = {spec: 0.0 for spec in specs}
            for r in result.results:
                won[r.seats[0]] += 1.0 if r.returns[0] > 0 else 0.0
            report.win_rates[k] = {spec: Score(won[spec], games) for spec in specs}
    else:
        result = TournamentResult(game.id, dict(game.params), specs, games, seed, n, False)
        kept = GameStore(store) if store is not None else None
        sequential = max_games is not None and max_games > games
        if sequential:
            z_value(stop_confidence)  # refuse a confidence outside (0, 1) before playing
            report.sequential = (games, int(max_games or games), stop_confidence)
            report.pair_cpu_seconds = pair_cpu_seconds
        report.store = str(store) if store is not None else None
        for pair in pairings(specs, target, schedule):
            if workers > 1 and kept is None and not sequential:
                part_results = run_tournament(game, list(pair), games, seed=seed, num_players=n, jobs=workers).results
                pts, cnt = head_to_head(part_results, pair[0], pair[1])
                pr = PairResult(pair[0], pair[1], pts, cnt)
            else:
                part_results, pr = play_pairing(
                    game,
                    (pair[0], pair[1]),
                    n,
                    seed,
                    games,
                    max_games,
                    stop_confidence,
                    kept,
                    play_new,
                    pair_cpu_seconds,
                )
            result.results += part_results
            report.pairs.append(pr)
            say(f"{pair[1]} against {pair[0]}: {pr.score.words()}, {pr.stopped}, {pr.reused} reused")
        report.tournament = result.to_json()
        report.schedule = schedule
        cell = report.tournament["pairwise"].get(f"random vs {target}")
        if target in levels and cell is not None:
            report.target_vs_random = Score(cell["games"] - cell["points"], cell["games"])
        if ceiling and play_new and not game.perfect_information:
            if workers <= 1:  # in this process (also a game that is not registered)
                points = [ceiling_game(game, n, seed, i, target) for i in range(games)]
            else:
                work = [(game.id, dict(game.params), n, seed, i, target) for i in range(games)]
                with ProcessPoolExecutor(max_workers=workers) as pool:
                    points = list(pool.map(_ceiling_job, work))
            report.ceiling = Score(sum(points), games)
            say(f"ceiling: {report.ceiling.words()}")
    report.seconds = time.perf_counter() - start
    try:
        report.load = os.getloadavg()[0]
    except OSError:  # no load average on this system
        report.load = None
    return report


#: The parameter that makes a level's time cap count CPU seconds.
CPU_CLOCK = "clock=cpu"


def clocked(level: str) -> str:
    """``level``, with its time cap (if it has one) counted in CPU seconds.

    The levels count their caps so already, so a level is itself:

    >>> clocked("expert"), clocked("hard")
    ('expert', 'hard')
    """
    budget = LEVELS.get(level, {})
    return f"{level}:{CPU_CLOCK}" if "seconds" in budget and budget.get("clock") != "cpu" else level


def _budget_sentence() -> str:
    """What the levels' budgets mean for the table (plies, capped in CPU seconds)."""
    caps = ", ".join(f"`{lv}` {float(b['seconds']):g} s" for lv, b in LEVELS.items() if "seconds" in b)
    return (
        f"The budgets are plies, capped by CPU seconds a move ({caps}; counted for the searching process alone, "
        "so other jobs on the machine do not shorten a search): where the plies fit in the cap, the moves do not "
        "depend on the machine's speed."
    )


def level_name(spec: str) -> str:
    """The level a (possibly clocked) spec plays: ``expert:clock=cpu`` is ``expert``."""
    return spec.split(":", 1)[0] if spec.endswith(":" + CPU_CLOCK) else spec


def _elo(value: float) -> str:
    """A rating as the tables show it (``+0``, never ``-0``)."""
    return f"{round(value) + 0:+d}"


def _level_cell(name: str) -> str:
    level = level_name(name)
    extra = "," + CPU_CLOCK if level != name else ""
    return f"`{level_spec(level)}{extra}`" if level in LEVELS else f"`{name}`"


def strength_markdown(report: StrengthReport) -> str:
    """The block for ``docs/ai/<game>.md`` (between the markers, markers included)."""
    opts = ", ".join(f"{k}={v}" for k, v in report.options.items()) or "none"
    lines = [
        BEGIN,
        "## Measured strength",
        "",
        f"Measured with `{report.command or 'boardlab strength ' + report.game_id}` "
        f"({report.seconds / 60:.1f} minutes of wall time"
        + (
            f", the pairings' games {sum(p.cpu_seconds or 0.0 for p in report.pairs) / 60:.1f} CPU minutes "
            "(stored ones included)"
            if report.store and report.pairs
            else ""
        )
        + f"; options: {opts}; "
        f"Python {platform.python_version()}; {os.cpu_count()} CPUs"
        + (f", load average {report.load:.1f} at the end" if report.load is not None else "")
        + "). "
        + _budget_sentence(),
        "",
    ]
    t = report.tournament
    assert t is not None
    if report.cooperative:
        lines += [
            f"{report.games} games per level and player count, every seat held by the level, the same chance "
            "seeds for every level; a game is won when the shared return is above 0.",
            "",
            "| players | level | spec | won | win rate | 95% CI |",
            "|--------:|-------|------|----:|---------:|-------:|",
        ]
        for k, row in report.win_rates.items():
            for name, sc in row.items():
                lo, hi = sc.ci95
                lines.append(
                    f"| {k} | {level_name(name)} | {_level_cell(name)} | {sc.points:g} of {sc.games} | {sc.rate:.3f} "
                    f"| {lo:.3f}–{hi:.3f} |"
                )
        lines += [
            "",
            f"Elo with {report.num_players} player(s): game *g* of one level is compared with game *g* of "
            "another (the same deal); the better shared return scores 1, equal ½.",
            "",
        ]
    else:
        played = ", ".join(f"{a}–{b}" for a, b in pairings(["random", *report.levels], report.target, report.schedule))
        if report.sequential is not None:
            least, most, conf = report.sequential
            how = (
                f"each played until the {conf * 100:g}% interval of its head-to-head score excluded an even score "
                f"(checked after every round of seats from {least} games on) or {most} games were played"
                + (
                    f" or the run had spent {report.pair_cpu_seconds / 60:g} CPU minutes on it (*budget*)"
                    if report.pair_cpu_seconds
                    else ""
                )
            )
        else:
            how = f"{report.games} games each"
        lines += [
            f"Pairings {played}: {how}, seats alternated, {report.num_players} players, "
            "a draw counts half; the score column is over all of an agent's games."
            + (
                f" Every game is stored in `{report.store}`, and a later run with the same seed and budgets reuses them."
                if report.store
                else ""
            ),
            "",
        ]
        if report.pairs:
            lines += [
                "Head to head: the stronger-named level's score against the other, with its 95% Wilson interval; "
                "*told apart* is `yes` where the interval lies wholly above 0.5 (the lobby shows a level's Elo only "
                "where it is told apart from the levels beside it).",
                "",
                "| pairing | games | score | 95% CI | told apart | stopped | CPU s a game |",
                "|---------|------:|------:|-------:|------------|---------|-------------:|",
            ]
            for pr in report.pairs:
                sc = pr.score
                lo, hi = sc.ci95
                reused = f" ({pr.reused} stored)" if pr.reused else ""
                if not pr.games:
                    lines.append(
                        f"| `{level_name(pr.stronger)}` against `{level_name(pr.weaker)}` | 0 | – | – | not played "
                        f"| {pr.stopped} | – |"
                    )
                    continue
                lines.append(
                    f"| `{level_name(pr.stronger)}` against `{level_name(pr.weaker)}` | {pr.games}{reused} "
                    f"| {sc.rate:.3f} ({sc.points:g} of {sc.games}) | {lo:.3f}–{hi:.3f} | {pr.verdict()} | {pr.stopped} "
                    + (f"| {pr.cpu_seconds / pr.games:.1f} |" if pr.cpu_seconds is not None else "| – |")
                )
            lines.append("")
    lines += [
        "Elo fitted to all pairings by maximum likelihood, `random` = 0, one virtual draw per pairing.",
        "",
        "| level | spec | Elo | Elo 95% CI | score | score 95% CI |",
        "|-------|------|----:|-----------:|------:|-------------:|",
    ]
    for a in sorted(t["agents"], key=lambda a: t["elo"][a]):
        lo, hi = t["elo_ci95"][a]
        ci = "anchor" if a == t["elo_anchor"] else f"{lo:+.0f} … {hi:+.0f}"
        slo, shi = t["ci95"][a]
        lines.append(
            f"| {level_name(a)} | {_level_cell(a)} | {_elo(t['elo'][a])} | {ci} | {t['score'][a]:.3f} | {slo:.3f}–{shi:.3f} |"
        )
    lines.append("")
    if report.target_vs_random is not None:
        lines.append(f"**{report.target.capitalize()} against random:** {report.target_vs_random.words()}.")
    if report.ceiling is not None:
        lines.append(
            f"**Ceiling** (an agent that sees every hidden card, with `{report.target}`'s budget, against random; "
            f"it does not see future draws): {report.ceiling.words()}."
        )
    elif not report.cooperative:
        lines.append(_no_ceiling_words(report, t))
    lines.append(END)
    return "\n".join(lines)


def _no_ceiling_words(report: StrengthReport, t: dict[str, Any]) -> str:
    """Why no cheating ceiling was measured, and what stands for it."""
    if not report.luck:
        return "No chance and no hidden information: nothing caps a strong agent below 1.0 here."
    best = max((a for a in t["agents"] if a != "random"), key=lambda a: t["elo"][a])
    cell = t["pairwise"].get(f"random vs {best}")
    top = (
        f" The strongest level measured, `{best}`, scored {Score(cell['games'] - cell['points'], cell['games']).words()} against random."
        if cell
        else ""
    )
    if report.hidden:
        return (
            "**Ceiling:** not measured in this run"
            + (
                " (the stored games alone, `--stored-only`)"
                if "--stored-only" in report.command
                else " (`--no-ceiling`)"
            )
            + ". The game hides information, so an agent "
            "that sees everything may do better than the fair levels; what caps them is what they cannot see"
            + (" and the draws still to come." if report.chance else ".")
            + top
        )
    return (
        "**Ceiling:** perfect information, so an agent that sees everything is the fair agent itself; what "
        "caps it is the draws still to come." + top
    )


def write_strength(path: pathlib.Path, block: str) -> None:
    """Put ``block`` into ``path`` between the markers (replacing the old block), else before the first ``##``."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if BEGIN in text and END in text:
        head, _, rest = text.partition(BEGIN)
        _, _, tail = rest.partition(END)
        new = head + block + tail
    else:
        i = text.find("\n## ")
        if i < 0:
            new = text.rstrip("\n") + ("\n\n" if text else "") + block + "\n"
        else:
            new = text[: i + 1] + block + "\n\n" + text[i + 1 :]
    path.write_text(new, encoding="utf-8")
