"""Variant sweeps: the same games under every combination of option values, compared pairwise; or a search for the
setting nearest a target (``boardlab sweep``; docs/LAB-SCALE.md).

**Paired.** Game ``i`` of every variant gets the same seed (:func:`~boardlab.lab.simulate.game_seed`), so its chance
draws and its agents' random streams start the same; a difference between variants is measured game by game, which
is tighter than comparing two independent samples.

**Grid** (:func:`sweep`): every combination of the ``vary`` values. Each variant is compared with the first (the
*reference*) on the first-mover win rate and the mean length: the paired mean difference with a 95% interval
Bonferroni-corrected for the number of comparisons (each interval at ``1 - 0.05/m``), and a Holm-adjusted p-value.
The *most balanced* variant is the one whose measured value is nearest the target (by default a first-mover win rate
of 50%), named with its caveat: how many other variants the data cannot tell from it.

**Search** (:func:`search`): successive halving (Karnin, Koren & Somekh 2013; Jamieson & Talwalkar 2016) over the
candidates: every candidate plays a few games, the half farther from the target is dropped, the rest play twice as
many games (continuing the same paired seeds), until one remains; the winner is reported with its interval.

>>> r = sweep("blast-radius", {"board_side": [5, 7]}, games=6, seed=1)
>>> [v.options for v in r.variants]
[{'board_side': 5}, {'board_side': 7}]
>>> len(r.comparisons), r.comparisons[0].metric
(2, 'first_mover')
"""

from __future__ import annotations

import itertools
import math
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from statistics import NormalDist
from typing import TYPE_CHECKING, Any

from ..agents import make_agent
from ..core.game import Game
from ..games import make, make_cached
from .runner import run_jobs
from .simulate import GameSummary, SimulationResult, play_one, resolve_agents, wilson_interval

if TYPE_CHECKING:  # SQLAlchemy only for stored runs: the worker processes that import this module never need it
    from .store import RunStore


def _as_store(store: RunStore | str | None) -> RunStore | None:
    if isinstance(store, str):
        from .store import RunStore

        return RunStore(store)
    return store


def make_run_key(kind: str, params: Mapping[str, Any]) -> str:
    from .store import run_key

    return run_key(kind, params)


Progress = Callable[[int, int], None]

#: Metrics a target may name: what it measures, and whether it is a rate (0-1) or a number of moves.
METRICS = {
    "first_mover": "first mover's win rate",
    "draw_rate": "draw rate",
    "mean_length": "mean length (moves)",
    "median_length": "median length (moves)",
}
#: The same metrics as a player reads them (the /lab page's chooser), and which of them are rates (a share, 0-1).
METRIC_LABELS = {
    "first_mover": "first player's win rate",
    "draw_rate": "draw rate",
    "mean_length": "mean length in moves",
    "median_length": "median length in moves",
}
RATES = ("first_mover", "draw_rate")
#: What "most balanced" means unless told otherwise: a first-mover win rate of one half.
DEFAULT_TARGET = ("first_mover", 0.5)
#: Grids larger than this are refused (use a target search, or fewer values); a search takes up to MAX_SEARCH.
MAX_GRID = 64
MAX_SEARCH = 1024


def parse_values(text: str) -> list[str]:
    """``"5,7"`` → ``["5", "7"]``; ``"5..9"`` → ``["5", "6", "7", "8", "9"]``; ``"4..10:2"`` → every second.

    >>> parse_values("5..9:2"), parse_values("true,false")
    (['5', '7', '9'], ['true', 'false'])
    """
    text = text.strip()
    if ".." in text:
        lo, _, rest = text.partition("..")
        hi, _, step = rest.partition(":")
        try:
            a, b, s = int(lo), int(hi), int(step or 1)
        except ValueError:
            raise ValueError(f"a range must look like 5..9 or 4..10:2 (whole numbers); got {text!r}") from None
        if s < 1 or b < a:
            raise ValueError(f"the range {text!r} is empty")
        return [str(v) for v in range(a, b + 1, s)]
    values = [v.strip() for v in text.split(",") if v.strip()]
    if not values:
        raise ValueError("give at least one value, e.g. board_side=5,7")
    return values


def parse_vary(pairs: Sequence[str]) -> dict[str, list[str]]:
    """``["board_side=5,7", "pie=true,false"]`` → ``{"board_side": ["5", "7"], "pie": ["true", "false"]}``."""
    out: dict[str, list[str]] = {}
    for p in pairs:
        name, eq, values = p.partition("=")
        if not eq or not name.strip():
            raise ValueError(f"--vary {p!r} must look like name=v1,v2 or name=5..9")
        if name.strip() in out:
            raise ValueError(f"option {name.strip()!r} is varied twice")
        out[name.strip()] = parse_values(values)
    return out


def metric_name(text: str) -> str:
    """A metric as a target names it (``"first-mover"``, ``"median_length"``) → its key in :data:`METRICS`, or ``""``.

    >>> metric_name("first-mover"), metric_name("median-length"), metric_name("fun")
    ('first_mover', 'median_length', '')
    """
    metric = text.strip().replace("-", "_")
    if metric in ("first_mover_win_rate", "first"):
        metric = "first_mover"
    return metric if metric in METRICS else ""


def parse_target(text: str) -> tuple[str, float]:
    """``"first-mover=0.5"`` → ``("first_mover", 0.5)``; ``"median-length=40"`` → ``("median_length", 40.0)``."""
    name, eq, value = text.partition("=")
    metric = metric_name(name)
    if not eq or not metric:
        raise ValueError(
            f"a target must look like metric=value with metric one of {', '.join(m.replace('_', '-') for m in METRICS)};"
            f" got {text!r}"
        )
    try:
        v = float(value.rstrip("%")) / (100 if value.strip().endswith("%") else 1)
    except ValueError:
        raise ValueError(f"the target value must be a number; got {value!r}") from None
    return metric, v


def check_target(games: Sequence[Game], metric: str, target: float) -> None:
    """Refuse (``ValueError``) a metric or target the variants ``games`` cannot reach: a rate outside 0-1, a length
    outside 1 to the longest game the safety cap allows (the largest of the variants' ``max_game_length()``)."""
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; known: {', '.join(m.replace('_', '-') for m in METRICS)}")
    what = METRIC_LABELS[metric]
    if isinstance(target, bool) or not isinstance(target, (int, float)) or not math.isfinite(target):
        raise ValueError(f"the target {what} must be a number; got {target!r}")
    if metric in RATES:
        if not 0 <= target <= 1:
            raise ValueError(f"a target {what} is a share between 0 and 1 (0.5 is half the games); got {target:g}")
        return
    longest = max(g.max_game_length() for g in games)
    if not 1 <= target <= longest:
        raise ValueError(
            f"a target {what} must lie between 1 and {longest} (the longest these games may last); got {target:g}"
        )


def measure(r: SimulationResult, metric: str) -> tuple[float | None, tuple[float, float]]:
    """A metric of a simulation with its 95% interval (``None`` when no game measures it)."""
    if metric == "first_mover":
        return r.first_mover_win_rate, r.first_mover_interval
    if metric == "draw_rate":
        return (r.draws / r.finished if r.finished else None), wilson_interval(r.draws, r.finished)
    xs = sorted(r.lengths)
    if not xs:
        return None, (0.0, math.inf)
    if metric == "mean_length":
        m = statistics.fmean(xs)
        half = 1.959964 * (statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf)
        return m, (m - half, m + half)
    # the median's distribution-free interval: order statistics around n/2 from the binomial's normal approximation
    n = len(xs)
    k = 1.959964 * math.sqrt(n) / 2
    lo, hi = max(0, math.floor(n / 2 - k)), min(n - 1, math.ceil(n / 2 + k) - 1)
    return float(statistics.median(xs)), (float(xs[lo]), float(xs[hi]))


@dataclass
class Variant:
    """One combination of option values (``options``: the varied ones only) and its games."""

    options: dict[str, Any]
    result: SimulationResult

    def label(self) -> str:
        return variant_label(self.options)


def variant_label(options: Mapping[str, Any]) -> str:
    """``{"board_side": 5, "pie": True}`` → ``"board_side=5, pie=true"`` (as on a command line)."""
    return ", ".join(f"{k}={_show(v)}" for k, v in options.items())


@dataclass
class Comparison:
    """A variant against the reference on one metric: paired mean difference, corrected interval, Holm p-value."""

    variant: int
    metric: str
    pairs: int
    difference: float | None
    low: float | None
    high: float | None
    p_holm: float | None = None


@dataclass
class SweepResult:
    game: str
    base_options: dict[str, Any]
    varied: list[str]
    agents: list[str]
    seed: int
    games: int
    metric: str
    target: float
    variants: list[Variant]
    comparisons: list[Comparison]
    best: int | None
    caveat: str
    #: For a search: every round's candidates (variant indices), games each and measured values.
    rounds: list[dict[str, Any]] = field(default_factory=list)

    def verdict(self) -> str:
        """One sentence naming the most balanced variant (or the search's winner) with its interval and caveat."""
        if self.best is None:
            return f"No variant could be measured on the {METRICS[self.metric]}. {self.caveat}".strip()
        v = self.variants[self.best]
        value, (lo, hi) = measure(v.result, self.metric)
        what = METRICS[self.metric]
        return (
            f"Nearest {_fmt(self.target, self.metric)} {what}: {v.label()} at {_fmt(value, self.metric)} "
            f"(95% interval {_fmt(lo, self.metric)}-{_fmt(hi, self.metric)}, {v.result.finished} games). {self.caveat}"
        ).strip()

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "base_options": self.base_options,
            "varied": self.varied,
            "agents": self.agents,
            "seed": self.seed,
            "games": self.games,
            "metric": self.metric,
            "target": self.target,
            "variants": [
                {
                    "options": v.options,
                    "value": measure(v.result, self.metric)[0],
                    "ci95": list(measure(v.result, self.metric)[1]),
                    "result": v.result.to_dict(),
                }
                for v in self.variants
            ],
            "comparisons": [asdict(c) for c in self.comparisons],
            "best": self.best,
            "best_options": self.variants[self.best].options if self.best is not None else None,
            "caveat": self.caveat,
            "verdict": self.verdict(),
            "rounds": self.rounds,
        }


def _show(v: Any) -> str:
    return "true" if v is True else "false" if v is False else str(v)


def goal_text(metric: str, target: float) -> str:
    """What a sweep looks for, as a player reads it: ``"first player's win rate nearest 50.0%"``."""
    return f"{METRIC_LABELS[metric]} nearest {_fmt(target, metric)}"


def _fmt(x: float | None, metric: str) -> str:
    if x is None:
        return "—"
    return f"{x:.1%}" if metric in ("first_mover", "draw_rate") else f"{x:.1f}"


def _variants(
    game_id: str, base: Mapping[str, Any], vary: Mapping[str, Sequence[Any]], limit: int = MAX_GRID
) -> list[tuple[Game, dict]]:
    """Every combination as (game, varied options as the game reads them); a bad value fails here, before any game."""
    if not vary:
        raise ValueError("give at least one option to vary, e.g. --vary board_side=5,7")
    names = list(vary)
    overlap = set(names) & set(base)
    if overlap:
        raise ValueError(f"option {sorted(overlap)[0]!r} is both fixed and varied")
    combos = list(itertools.product(*(vary[n] for n in names)))
    if len(combos) > limit:
        hint = "search for a target (--target) or vary fewer values" if limit == MAX_GRID else "vary fewer values"
        raise ValueError(f"{len(combos)} combinations is more than {limit}; {hint}")
    out: list[tuple[Game, dict]] = []
    seen: set[str] = set()
    for combo in combos:
        g = make(game_id, **{**base, **dict(zip(names, combo))})
        varied = {n: g.params[n] for n in names}
        key = repr(sorted(varied.items()))
        if key in seen:
            raise ValueError(f"the variant {varied} is listed twice")
        seen.add(key)
        out.append((g, varied))
    return out


def sweep_job(
    game_id: str, variants: list[dict[str, Any]], num_players: int, agents: list[str], seed: int, job: tuple[int, int]
) -> dict[str, Any]:
    """The runner's job ``(variant, game index)``: that game's summary as a dict."""
    v, i = job
    return asdict(play_one(make_cached(game_id, **variants[v]), num_players, agents, seed, i))


def _setup(
    game_id: str,
    vary: Mapping[str, Sequence[Any]],
    base_options: Mapping[str, Any] | None,
    agents: Sequence[str],
    players: int | None,
    games: int,
    limit: int = MAX_GRID,
) -> tuple[list[tuple[Game, dict]], int, list[str]]:
    if isinstance(games, bool) or not isinstance(games, int) or games < 2:
        raise ValueError(f"a sweep needs at least 2 games per variant; got {games!r}")
    variants = _variants(game_id, dict(base_options or {}), vary, limit)
    first = variants[0][0]
    n = first.resolve_num_players(players)
    specs = resolve_agents(list(agents), n)
    for g, _ in variants:
        g.resolve_num_players(n)
        for p, spec in enumerate(specs):
            make_agent(spec, g, p, 0)
    return variants, n, specs


def _play(
    game_id: str,
    variants: list[tuple[Game, dict]],
    n: int,
    specs: list[str],
    seed: int,
    jobs: list[tuple[int, int]],
    *,
    workers: int,
    backend: str,
    address: str | None,
    progress: Progress | None,
    store: RunStore | None,
    key_params: dict[str, Any],
) -> list[GameSummary]:
    run_key = None
    if store is not None:
        run_key = make_run_key("sweep", key_params)
        store.open_run(run_key, kind="sweep", params=key_params, total=len(jobs))
    fn = partial(sweep_job, game_id, [dict(g.params) for g, _ in variants], n, specs, seed)
    done = run_jobs(
        fn, jobs, workers=workers, backend=backend, address=address, progress=progress, store=store, run_key=run_key
    )
    return [GameSummary(**d) for d in done]


def _asked(game_id, base_options, vary, specs, seed, games, metric, target) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """What a sweep or a search was asked, as the first fields of its :class:`SweepResult`."""
    return {
        "game": game_id,
        "base_options": dict(base_options or {}),
        "varied": list(vary),
        "agents": specs,
        "seed": seed,
        "games": games,
        "metric": metric,
        "target": target,
    }


def _key_params(game_id, variants, n, specs, seed, extra) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    return {
        "game": game_id,
        "rules_version": variants[0][0].rules_version,
        "variants": [dict(g.params) for g, _ in variants],
        "num_players": n,
        "agents": specs,
        "seed": seed,
        **extra,
    }


def _grid_extra(games: int, metric: str, target: float) -> dict[str, Any]:
    """A grid's own key parameters: its games, and what "most balanced" means unless it is the default (so the keys
    of grids stored before the metric was chosen stay theirs, and two grids differing only in it never collide)."""
    if (metric, target) == DEFAULT_TARGET:
        return {"games": games}
    return {"games": games, "metric": metric, "target": float(target)}


def sweep_plan(
    game_id: str,
    vary: Mapping[str, Sequence[Any]],
    *,
    games: int,
    agents: Sequence[str] = ("random",),
    base_options: Mapping[str, Any] | None = None,
    players: int | None = None,
    seed: int = 0,
    metric: str = "first_mover",
    target: float = 0.5,
) -> tuple[str, dict[str, Any]]:
    """The stored run :func:`sweep` would play for these arguments: ``(run key, its parameters)``, without playing.

    The parameters hold every variant's full options (``"variants"``), ``"games"`` each and the agents, and
    ``"metric"``/``"target"`` unless they are the default (a first-mover win rate of 0.5); the run has
    ``len(variants) * games`` jobs. Bad arguments raise ``ValueError`` as :func:`sweep` does, and a target its
    variants cannot reach (:func:`check_target`) too.
    """
    variants, n, specs = _setup(game_id, vary, base_options, agents, players, games)
    check_target([g for g, _ in variants], metric, target)
    params = _key_params(game_id, variants, n, specs, seed, _grid_extra(games, metric, target))
    return make_run_key("sweep", params), params


#: The columns of a grid sweep's table (``boardlab sweep`` and the /lab page).
GRID_COLUMNS = ["variant", "first mover wins", "vs first (corrected)", "mean length", "vs first (corrected)"]


def grid_table(d: Mapping[str, Any]) -> dict[str, Any]:
    """A grid sweep's table as text, from :meth:`SweepResult.to_dict`: ``{"columns", "rows", "note"}``.

    Each row: the variant, its first-mover win rate (95% interval), the paired difference from the first variant
    (Bonferroni-corrected interval, ``*`` when the Holm-adjusted p < 0.05), its mean length and that difference.
    """
    by = {(c["variant"], c["metric"]): c for c in d["comparisons"]}
    rows = []
    for i, v in enumerate(d["variants"]):
        res = v["result"]
        fm, (lo, hi), ml = res["first_mover_win_rate"], res["first_mover_ci95"], res["mean_length"]
        cells = [variant_label(v["options"]), "—" if fm is None else f"{fm:.1%} ({lo:.1%}-{hi:.1%})"]
        for metric in ("first_mover", "mean_length"):
            c = by.get((i, metric))
            if i == 0:
                cells.append("reference")
            elif c is None or c["difference"] is None:
                cells.append("—")
            else:
                sig = " *" if c["p_holm"] is not None and c["p_holm"] < 0.05 else ""
                if metric == "first_mover":
                    cells.append(f"{c['difference']:+.1%} ({c['low']:+.1%} to {c['high']:+.1%}){sig}")
                else:
                    cells.append(f"{c['difference']:+.1f} ({c['low']:+.1f} to {c['high']:+.1f}){sig}")
            if metric == "first_mover":
                cells.append("—" if ml is None else f"{ml:.1f}")
        rows.append(cells)
    note = (
        f"Paired games (the same seeds in every variant); intervals 95% with a Bonferroni correction for "
        f"{len(d['comparisons'])} comparisons; * : Holm-adjusted p < 0.05."
    )
    return {"columns": list(GRID_COLUMNS), "rows": rows, "note": note}


def sweep(
    game_id: str,
    vary: Mapping[str, Sequence[Any]],
    *,
    games: int = 200,
    agents: Sequence[str] = ("random",),
    base_options: Mapping[str, Any] | None = None,
    players: int | None = None,
    seed: int = 0,
    metric: str = "first_mover",
    target: float = 0.5,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
    store: RunStore | str | None = None,
) -> SweepResult:
    """Play ``games`` paired games of every combination of ``vary`` and compare each with the first.

    ``vary`` maps option names to values (strings as on a command line, or typed). ``metric``/``target`` choose
    what "most balanced" means (nearest a first-mover win rate of 0.5 by default; see :data:`METRICS`).
    ``store``: finished games are stored and a rerun resumes. Bad arguments raise ``ValueError`` before any game.
    """
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; known: {', '.join(METRICS)}")
    variants, n, specs = _setup(game_id, vary, base_options, agents, players, games)
    check_target([g for g, _ in variants], metric, target)
    store = _as_store(store)
    jobs = [(v, i) for v in range(len(variants)) for i in range(games)]
    params = _key_params(game_id, variants, n, specs, seed, _grid_extra(games, metric, target))
    play = partial(
        _play, game_id, variants, n, specs, seed, workers=workers, backend=backend, address=address, store=store
    )
    summaries = play(jobs, progress=progress, key_params=params)
    per_variant = [summaries[v * games : (v + 1) * games] for v in range(len(variants))]
    results = [
        Variant(varied, SimulationResult.from_games(game_id, dict(g.params), n, specs, seed, s, keep_games=True))
        for (g, varied), s in zip(variants, per_variant)
    ]
    comparisons = compare(per_variant)
    best, caveat = _most_balanced(results, metric, target)
    out = SweepResult(
        **_asked(game_id, base_options, vary, specs, seed, games, metric, target),
        variants=results,
        comparisons=comparisons,
        best=best,
        caveat=caveat,
    )
    if store is not None:
        store.finish(make_run_key("sweep", params), out.to_dict())
    return out


def _first_mover_won(s: GameSummary) -> float | None:
    if s.capped or s.first_mover is None:
        return None
    return 1.0 if s.first_mover in s.winners else 0.0


def _length(s: GameSummary) -> float | None:
    return None if s.capped else float(s.length)


PAIRED = {"first_mover": _first_mover_won, "mean_length": _length}


def compare(per_variant: list[list[GameSummary]], alpha: float = 0.05) -> list[Comparison]:
    """Every variant after the first against the first, on each paired metric (Bonferroni intervals, Holm p-values).

    >>> a = [GameSummary(i, 0, 10, False, [1, -1], [0], False, 0) for i in range(4)]
    >>> b = [GameSummary(i, 0, 12, False, [-1, 1], [1], False, 0) for i in range(4)]
    >>> [(c.metric, c.difference) for c in compare([a, b])]
    [('first_mover', -1.0), ('mean_length', 2.0)]
    """
    comps: list[Comparison] = []
    m = max(1, (len(per_variant) - 1) * len(PAIRED))
    z = NormalDist().inv_cdf(1 - alpha / (2 * m))
    pvalues: list[float] = []
    for v in range(1, len(per_variant)):
        for metric, f in PAIRED.items():
            diffs = []
            for a, b in zip(per_variant[v], per_variant[0]):
                x, y = f(a), f(b)
                if x is not None and y is not None:
                    diffs.append(x - y)
            if not diffs:
                comps.append(Comparison(v, metric, 0, None, None, None))
                pvalues.append(1.0)
                continue
            d = statistics.fmean(diffs)
            se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
            comps.append(Comparison(v, metric, len(diffs), d, d - z * se, d + z * se))
            if se == 0:
                pvalues.append(0.0 if d != 0 else 1.0)
            elif math.isinf(se):
                pvalues.append(1.0)
            else:
                pvalues.append(2 * (1 - NormalDist().cdf(abs(d) / se)))
    for c, p in zip(comps, holm(pvalues)):
        c.p_holm = p
    return comps


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of ``pvalues`` (same order).

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    out = [0.0] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(pvalues) - rank) * pvalues[i]))
        out[i] = round(running, 12)
    return out


def _most_balanced(variants: list[Variant], metric: str, target: float) -> tuple[int | None, str]:
    measured = [(i, *measure(v.result, metric)) for i, v in enumerate(variants)]
    measured = [(i, x, ci) for i, x, ci in measured if x is not None]
    if not measured:
        return None, "These games never measure it (e.g. no first mover, or every game capped)."
    best, _, (lo, hi) = min(measured, key=lambda t: (abs(t[1] - target), t[0]))
    gap_hi = max(abs(lo - target), abs(hi - target))  # the farthest the best may truly be from the target
    close = [i for i, _, (l2, h2) in measured if i != best and _distance_low(l2, h2, target) <= gap_hi]
    caveat = f"Measured with {', '.join(sorted(set(variants[best].result.agents)))} players"
    if close:
        names = "; ".join(variants[i].label() for i in close[:3]) + (" …" if len(close) > 3 else "")
        caveat += f"; {len(close)} other variant{'s' if len(close) > 1 else ''} ({names}) cannot be told apart from it"
        caveat += " at this number of games"
    if not lo <= target <= hi:
        caveat += f"; even this one is not at the target ({_fmt(target, metric)} lies outside its interval)"
    return best, caveat + "."


def _distance_low(lo: float, hi: float, target: float) -> float:
    """The nearest a value in [lo, hi] comes to the target."""
    return 0.0 if lo <= target <= hi else min(abs(lo - target), abs(hi - target))


def halving_plan(candidates: int, games: int, start_games: int | None = None) -> list[tuple[int, int]]:
    """A search's rounds as ``(candidates, games each)``: round 0 plays ``start_games`` (default: ``games`` halved once
    per later round, at least 10), each later round keeps half the candidates and doubles their games, until one is
    left or they have ``games``.

    >>> halving_plan(3, 40), halving_plan(8, 40), halving_plan(3, 4, start_games=2)
    ([(3, 20), (2, 40)], [(8, 10), (4, 20), (2, 40)], [(3, 2), (2, 4)])
    """
    rounds_needed = max(1, math.ceil(math.log2(candidates))) if candidates > 1 else 1
    r0 = start_games or max(10, games // 2 ** (rounds_needed - 1))
    plan: list[tuple[int, int]] = []
    alive, r = candidates, min(r0, games)
    while True:
        plan.append((alive, r))
        if alive == 1 or r >= games:
            return plan
        alive, r = max(1, math.ceil(alive / 2)), min(games, r * 2)


def plan_games(plan: Sequence[tuple[int, int]]) -> int:
    """The games a search's rounds play in all (each round continues the games of the one before)."""
    return sum(a * (b - (plan[j - 1][1] if j else 0)) for j, (a, b) in enumerate(plan))


def _search_params(game_id, variants, n, specs, seed, metric, target, games, plan) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    extra = {"games": games, "metric": metric, "target": float(target), "plan": [list(p) for p in plan]}
    return _key_params(game_id, variants, n, specs, seed, extra)


def search_plan(
    game_id: str,
    vary: Mapping[str, Sequence[Any]],
    *,
    metric: str,
    target: float,
    games: int,
    start_games: int | None = None,
    agents: Sequence[str] = ("random",),
    base_options: Mapping[str, Any] | None = None,
    players: int | None = None,
    seed: int = 0,
) -> tuple[str, dict[str, Any]]:
    """The stored search :func:`search` would run (kind ``search``): ``(run key, its parameters)``, without playing.

    The parameters hold every candidate's full options (``"variants"``), ``"games"`` (the most a candidate plays),
    ``"metric"``, ``"target"`` and ``"plan"`` (:func:`halving_plan`); the run has :func:`plan_games` jobs. Bad
    arguments raise ``ValueError`` as :func:`search` does, and so do a target the candidates cannot reach
    (:func:`check_target`) and a single candidate (there is nothing to search).
    """
    variants, n, specs = _setup(game_id, vary, base_options, agents, players, games, MAX_SEARCH)
    check_target([g for g, _ in variants], metric, target)
    if len(variants) < 2:
        raise ValueError(
            f"a search chooses between settings, and {variant_label(variants[0][1])} is the only one; give more values"
        )
    params = _search_params(
        game_id, variants, n, specs, seed, metric, target, games, halving_plan(len(variants), games, start_games)
    )
    return make_run_key("search", params), params


#: A stored search reports its progress at most this often (seconds), and at the end of every round.
PROGRESS_SECONDS = 0.25


def search(
    game_id: str,
    vary: Mapping[str, Sequence[Any]],
    *,
    metric: str,
    target: float,
    games: int = 400,
    start_games: int | None = None,
    agents: Sequence[str] = ("random",),
    base_options: Mapping[str, Any] | None = None,
    players: int | None = None,
    seed: int = 0,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
    store: RunStore | str | None = None,
) -> SweepResult:
    """Successive halving toward ``metric`` = ``target`` over every combination of ``vary``.

    Round 0 plays ``start_games`` games of every candidate (default: ``games`` halved once per later round, at least
    10); each round keeps the half nearest the target and doubles its games (the same paired seeds, continued),
    until one candidate is left or it has ``games`` games (:func:`halving_plan`). ``progress(done, total)`` counts
    games over all rounds. ``store``: every round's games are stored (a rerun resumes), and the search itself as a
    run of kind ``search`` under :func:`search_plan`'s key (its progress over all rounds, then its result).
    """
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; known: {', '.join(METRICS)}")
    variants, n, specs = _setup(game_id, vary, base_options, agents, players, games, MAX_SEARCH)
    check_target([g for g, _ in variants], metric, target)
    store = _as_store(store)
    k = len(variants)
    plan = halving_plan(k, games, start_games)
    total = plan_games(plan)
    parent = None
    if store is not None:
        sparams = _search_params(game_id, variants, n, specs, seed, metric, target, games, plan)
        parent = make_run_key("search", sparams)
        store.open_run(parent, kind="search", params=sparams, total=total)
    play = partial(
        _play, game_id, variants, n, specs, seed, workers=workers, backend=backend, address=address, store=store
    )
    reported = [0.0]

    def report(done: int, force: bool = False) -> None:
        if progress is not None:
            progress(done, total)
        now = time.monotonic()
        if parent is not None and (force or now - reported[0] >= PROGRESS_SECONDS):
            reported[0] = now
            store.set_progress(parent, done)  # type: ignore[union-attr]

    played: dict[int, list[GameSummary]] = {v: [] for v in range(k)}
    candidates = list(range(k))
    rounds: list[dict[str, Any]] = []
    done_before = 0
    for j, (_, r) in enumerate(plan):
        start = len(played[candidates[0]])
        jobs = [(v, i) for v in candidates for i in range(start, r)]
        shown = (lambda d, t, base=done_before: report(base + d)) if progress or parent else None
        params = _key_params(game_id, variants, n, specs, seed, {"search_round": j, "jobs": jobs})
        got = play(jobs, progress=shown, key_params=params)
        done_before += len(jobs)
        report(done_before, force=True)
        for (v, _), s in zip(jobs, got):
            played[v].append(s)
        scored = []
        for v in candidates:
            res = SimulationResult.from_games(game_id, dict(variants[v][0].params), n, specs, seed, played[v])
            x, _ = measure(res, metric)
            scored.append((math.inf if x is None else abs(x - target), v, x))
        scored.sort()
        rounds.append({"games": r, "candidates": [{"options": variants[v][1], "value": x} for _, v, x in scored]})
        if j + 1 < len(plan):
            candidates = sorted(v for _, v, _ in scored[: plan[j + 1][0]])
    winner = scored[0][1]  # nearest the target in the last round
    results = [
        Variant(
            varied, SimulationResult.from_games(game_id, dict(g.params), n, specs, seed, played[v], keep_games=True)
        )
        for v, (g, varied) in enumerate(variants)
    ]
    value, (lo, hi) = measure(results[winner].result, metric)
    caveat = f"Successive halving over {k} candidates, {total} games in all; measured with {', '.join(sorted(set(specs)))} players"
    if value is not None and not lo <= target <= hi:
        caveat += f"; the target ({_fmt(target, metric)}) lies outside the winner's interval"
    out = SweepResult(
        **_asked(game_id, base_options, vary, specs, seed, games, metric, target),
        variants=results,
        comparisons=[],
        best=winner if value is not None else None,
        caveat=caveat + ".",
        rounds=rounds,
    )
    if parent is not None:
        store.finish(parent, out.to_dict())  # type: ignore[union-attr]
    return out


#: The columns of a search's table of rounds (``boardlab sweep --target`` and the /lab page).
ROUND_COLUMNS = ["round", "games each", "candidates, nearest the target first"]


def rounds_table(d: Mapping[str, Any]) -> dict[str, Any]:
    """A search's rounds as text, from :meth:`SweepResult.to_dict`: ``{"columns", "rows", "note"}``.

    Each row: the round (from 1), the games each of its candidates had played, and its candidates with their
    measured values, nearest the target first (``boardlab sweep --target`` prints a row as
    ``round 1 (20 games each): …``). The note says how a round follows from the one before.
    """
    metric = d["metric"]
    rows = [
        [
            str(j + 1),
            str(rd["games"]),
            "; ".join(
                f"{', '.join(f'{k}={v}' for k, v in c['options'].items())}: {_fmt(c['value'], metric)}"
                for c in rd["candidates"]
            ),
        ]
        for j, rd in enumerate(d["rounds"])
    ]
    note = (
        "Successive halving: each round keeps the half nearest the target, and they play on from the same seeds "
        "(paired games); the winner is the nearest in the last round."
    )
    return {"columns": list(ROUND_COLUMNS), "rows": rows, "note": note}


def round_line(row: Sequence[str]) -> str:
    """A row of :func:`rounds_table` as ``boardlab sweep --target`` prints it."""
    return f"round {row[0]} ({row[1]} games each): {row[2]}"
