"""The designer's balance report: ``boardlab balance GAME`` (see ``docs/LAB.md`` for every metric).

>>> r = balance("blast-radius", options={"board_side": 5}, games=6, seed=1, probe_points=2)
>>> r.to_dict()["outcomes"]["finished"], len(r.samples) > 0, r.verdict.endswith(")."), "n = 6" in r.verdict
(6, True, True, True)

A run plays ``games`` games of one lineup of agents (one spec per seat, or one
for all), measures each (:mod:`boardlab.lab.metrics`) and aggregates: outcomes
with 95% Wilson intervals, length, decisions and branching, tension, luck
(chance games), the value of information (hidden-information games), sample
games and plain sentences. ``ladder=[level, …]`` repeats the self-play metrics
at each level (skill drift). A report is JSON (:meth:`BalanceReport.to_dict`),
Markdown and a self-contained HTML page (:mod:`boardlab.lab.report`).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..agents import make_agent
from ..core.gametype import Chance, Information
from ..core.record import GameRecord
from ..games import make
from .metrics import INFORMED, BalanceJob, play_balance_game
from .runner import run_jobs
from .simulate import resolve_agents, wilson_interval

Progress = Callable[[int, int], None]

#: Share of finished games above which a seat, the first player or a team "wins (nearly) every game".
DOMINANT = 0.95
#: A winning game this much shorter than random play's median (as a share of it) is a "quick" win.
QUICK = 1 / 3
#: Interval half-width above which a rate is "too few games to tell" (a 6-point edge either way still fits).
TOO_WIDE = 0.06
#: Fewest paired groups for a luck estimate, and fewest games for the value of information, worth a sentence.
MIN_GROUPS = 20


def _rate(k: float, n: int) -> dict[str, Any]:
    lo, hi = wilson_interval(round(k), n) if n else (0.0, 1.0)
    return {"count": k, "n": n, "rate": k / n if n else None, "ci95": [lo, hi]}


def _percentile(xs: Sequence[int], q: float) -> float | None:
    if not xs:
        return None
    s = sorted(xs)
    k = min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))
    return float(s[k])


def _histogram(xs: Sequence[int], bins: int = 20) -> dict[str, list[float]]:
    if not xs:
        return {"edges": [], "counts": []}
    lo, hi = min(xs), max(xs)
    width = max(1, math.ceil((hi - lo + 1) / bins))
    edges = list(range(lo, hi + width + 1, width))
    counts = [0] * (len(edges) - 1)
    for x in xs:
        counts[min(len(counts) - 1, (x - lo) // width)] += 1
    return {"edges": [float(e) for e in edges], "counts": [float(c) for c in counts]}


def outcome_stats(
    games: Sequence[dict[str, Any]], num_players: int, cooperative: bool, specs: Sequence[str]
) -> dict[str, Any]:
    """Wins by seat, by first mover, by agent (when agents differ), by pie-rule chooser; draws, team wins, capped."""
    done = [g for g in games if not g["capped"]]
    n = len(done)
    wins = [sum(p in g["winners"] for g in done) for p in range(num_players)]
    draws = sum(g["draw"] for g in done)
    out: dict[str, Any] = {
        "games": len(games),
        "finished": n,
        "capped": len(games) - n,
        "wins": wins,
        "win_rates": [w / n if n else None for w in wins],
        "win_ci95": [list(wilson_interval(w, n)) for w in wins],
        "draws": _rate(draws, n),
        "no_winner": sum(not g["winners"] and not g["draw"] for g in done),
    }
    if cooperative:
        out["team_wins"] = _rate(sum(bool(g["winners"]) for g in done), n)
    fm = [g for g in done if g["first_mover"] is not None]
    out["first_mover"] = None if cooperative else _rate(sum(g["first_mover"] in g["winners"] for g in fm), len(fm))
    if not cooperative:
        won = [g for g in fm if g["winners"]]
        out["first_mover_decided"] = _rate(sum(g["first_mover"] in g["winners"] for g in won), len(won))
        decided = [g for g in done if g["winners"]]
        out["player1_decided"] = _rate(sum(0 in g["winners"] for g in decided), len(decided))
    if len(set(specs)) > 1 and not cooperative:
        by_agent: dict[str, list[float]] = {}
        for g in done:
            for p, a in enumerate(g["agents"]):
                score = 1.0 if p in g["winners"] else 0.5 if g["draw"] else 0.0
                by_agent.setdefault(specs[a], []).append(score)
        out["by_agent"] = {k: _rate(sum(v), len(v)) for k, v in by_agent.items()}
    offered = [g for g in done if g["chooser"] is not None]
    if offered:
        swapped = [g for g in offered if g["swapped"]]
        out["pie"] = {
            "offered": len(offered),
            "swapped": _rate(len(swapped), len(offered)),
            "chooser_wins": _rate(sum(g["chooser"] in g["winners"] for g in offered), len(offered)),
            "first_mover_wins_if_swapped": _rate(sum(g["first_mover"] in g["winners"] for g in swapped), len(swapped)),
            "first_mover_wins_if_kept": _rate(
                sum(g["first_mover"] in g["winners"] for g in offered if not g["swapped"]), len(offered) - len(swapped)
            ),
        }
    return out


def length_stats(games: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Length in actions (history entries, chance included) over finished games; decisions and branching."""
    done = [g for g in games if not g["capped"]]
    lengths = [g["length"] for g in done]
    decisions = sum(g["decisions"] for g in games)
    choices = sum(g["choices"] for g in games)
    phases = len(games[0]["phase_branching"]) if games else 0
    by_phase = []
    for d in range(phases):
        s = sum(g["phase_branching"][d][0] for g in games)
        c = sum(g["phase_branching"][d][1] for g in games)
        by_phase.append(s / c if c else None)
    won = [g["length"] for g in done if g["winners"]]
    return {
        "mean": statistics.fmean(lengths) if lengths else None,
        "median": float(statistics.median(lengths)) if lengths else None,
        "p95": _percentile(lengths, 0.95),
        "min": min(lengths) if lengths else None,
        "max": max(lengths) if lengths else None,
        "median_win": float(statistics.median(won)) if won else None,
        "histogram": _histogram(lengths),
        "decisions_per_game": decisions / len(games) if games else None,
        "decision_moves": choices / decisions if decisions else None,
        "branching": sum(s for g in games for s, _ in g["phase_branching"]) / decisions if decisions else None,
        "branching_by_phase": by_phase,
    }


def tension_stats(games: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    ts = [g["tension"] for g in games if g.get("tension")]
    if not ts:
        return None

    def mean(key: str) -> float | None:
        xs = [t[key] for t in ts if t[key] is not None]
        return statistics.fmean(xs) if xs else None

    return {
        "games": len(ts),
        "points": max(t["points"] for t in ts),
        "lead_changes": mean("lead_changes"),
        "drama": mean("drama"),
        "drama_max": max((t["drama_max"] or 0.0) for t in ts),
        "decisiveness": mean("decisiveness"),
    }


def luck_share(
    games: Sequence[dict[str, Any]], rotations: int, seed: int = 0, resamples: int = 400
) -> dict[str, Any] | None:
    """The share of the variance of the seats' results that the chance outcomes explain, with a bootstrap interval.

    Each group plays the same chance outcomes ``rotations`` times with the agents moved round the seats. Per
    seat, the group's mean result varies only with chance; what varies within a group is the agents' doing.
    ``share = between / (between + within)``; ``None`` when results never vary or no group is complete.
    """
    groups: dict[int, list[dict[str, Any]]] = {}
    for g in games:
        groups.setdefault(g["group"], []).append(g)
    full = [gs for gs in groups.values() if len(gs) == rotations and not any(g["capped"] for g in gs)]
    if len(full) < 2 or rotations < 2:
        return None
    rows = [[g["returns"] for g in gs] for gs in full]

    def share(sample: Sequence[list[list[float]]]) -> float | None:
        k = len(sample[0][0])
        between = within = 0.0
        for p in range(k):
            means = [statistics.fmean(r[p] for r in grp) for grp in sample]
            centre = statistics.fmean(means)
            between += statistics.fmean((m - centre) ** 2 for m in means)
            within += statistics.fmean(
                statistics.fmean((r[p] - m) ** 2 for r in grp) for grp, m in zip(sample, means, strict=True)
            )
        # The mean of a group of R results carries 1/R of the within-group variance: take it out of "between".
        between = max(0.0, between - within / (rotations - 1))
        total = between + within
        return None if total <= 1e-12 else between / total

    point = share(rows)
    if point is None:
        return {"groups": len(full), "share": None, "ci95": None}
    rng = random.Random(seed)
    boots = sorted(x for x in (share([rng.choice(rows) for _ in rows]) for _ in range(resamples)) if x is not None)
    ci = [boots[int(0.025 * len(boots))], boots[min(len(boots) - 1, int(0.975 * len(boots)))]] if boots else None
    return {"groups": len(full), "share": point, "ci95": ci}


def informed_score(games: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """How the informed agent (agent 0) scores against the same agent without the hidden information: 1 a win, ½ a tie."""
    points = 0.0
    count = 0
    for g in games:
        if g["capped"]:
            continue
        seat = g["agents"].index(0)
        mine = g["returns"][seat]
        for p, r in enumerate(g["returns"]):
            if p != seat:
                points += 1.0 if mine > r else 0.5 if mine == r else 0.0
                count += 1
    return _rate(points, count)


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _pm(r: dict[str, Any]) -> str:
    lo, hi = r["ci95"]
    rate = r["rate"] or 0.0
    return f"{_pct(rate)} ± {_pct(max(rate - lo, hi - rate))}"


def _n(k: int) -> str:
    return f"{k:,}"


def lineup_text(specs: Sequence[str]) -> str:
    return " vs ".join(specs) if len(specs) > 1 else f"{specs[0]} alone"


def degenerate_flags(
    outcomes: dict[str, Any],
    length: dict[str, Any],
    label: str,
    reference_length: float | None,
    self_play: bool = False,
) -> list[dict[str, str]]:
    """Flags for a level that wins (nearly) every game, or wins in very few moves (see ``docs/LAB.md``).

    ``self_play``: every seat of a competitive game plays ``label``, so a quick win is a quick game between
    equals, which good play alone can explain; the flag then says so.

    >>> oc = {"finished": 8, "wins": [4, 4], "first_mover": None}
    >>> [f["text"] for f in degenerate_flags(oc, {"median_win": 60}, "hard", 300, self_play=True)]  # doctest: +ELLIPSIS
    ['Games between hard players are won in 60 actions (median), against 300 for a game of random play: ...']
    """
    flags: list[dict[str, str]] = []
    n = outcomes["finished"]
    if n >= 5:
        team = outcomes.get("team_wins")
        if team is not None and team["rate"] is not None and team["rate"] >= DOMINANT:
            flags.append({"kind": "dominant", "text": f"{label} wins {_pm(team)} of games (n = {_n(n)})."})
        fm = outcomes.get("first_mover")
        if fm is not None and fm["rate"] is not None and fm["n"] >= 5 and fm["rate"] >= DOMINANT:
            flags.append(
                {
                    "kind": "dominant",
                    "text": f"With {label}, the first player wins {_pm(fm)} of games (n = {_n(fm['n'])}).",
                }
            )
        for p, w in enumerate(outcomes["wins"]):
            if team is None and w / n >= DOMINANT and (fm is None or p != 0):
                flags.append({"kind": "dominant", "text": f"With {label}, player {p + 1} wins {_pct(w / n)} of games."})
    mw = length.get("median_win")
    if mw is not None and reference_length and mw <= QUICK * reference_length:
        if self_play:
            text = (
                f"Games between {label} players are won in {mw:g} actions (median), against {reference_length:g} "
                "for a game of random play: either good play settles this game early or there is a short cut to "
                "victory; the shortest sample games show which."
            )
        else:
            text = (
                f"{label} wins in {mw:g} actions (median of its wins), against {reference_length:g} for a game of "
                "random play: a short cut to victory."
            )
        flags.append({"kind": "quick", "text": text})
    return flags


def sentences(
    game_title: str,
    specs: Sequence[str],
    num_players: int,
    cooperative: bool,
    outcomes: dict[str, Any],
    length: dict[str, Any],
    tension: dict[str, Any] | None,
    luck: dict[str, Any] | None,
    voi: dict[str, Any] | None,
    flags: Sequence[dict[str, str]],
) -> list[str]:
    """What a designer reads first, in plain words, each figure with its interval and n."""
    who = lineup_text(specs)
    n = outcomes["finished"]
    out: list[str] = []
    if n == 0:
        return [f"No game of {game_title} finished ({outcomes['capped']} stopped by the safety cap)."]
    if cooperative or num_players == 1:
        team = outcomes["team_wins"] if cooperative else _rate(outcomes["wins"][0], n)
        whom = "The team" if num_players > 1 else "The player"
        out.append(f"{whom} wins {_pm(team)} of games (n = {_n(n)}, {who}).")
    else:
        subject, rate, of = balance_rate(outcomes)
        fair = 1 / num_players
        lo, hi = rate["ci95"]
        base = f"{subject.capitalize()} wins {_pm(rate)} of {of} (n = {_n(rate['n'])}, {who})"
        if not rate["n"]:
            out.append(f"No game had a winner (n = {_n(n)}, {who}).")
        elif lo > fair:
            out.append(f"{base}: more than the fair share of {_pct(fair)}.")
        elif hi < fair:
            out.append(f"{base}: less than the fair share of {_pct(fair)}.")
        elif max(rate["rate"] - lo, hi - rate["rate"]) > TOO_WIDE:
            what = "moving first matters" if subject == "the first player" else "a seat is favoured"
            out.append(f"{base}; too few games to tell whether {what} (any share from {_pct(lo)} to {_pct(hi)} fits).")
        else:
            out.append(f"{base}: balanced within the interval.")
        if subject != "the first player":
            out.append("Every game opens with a simultaneous decision: there is no first player.")
        if outcomes["draws"]["count"]:
            out.append(f"{_pm(outcomes['draws'])} of games are draws.")
        pie = outcomes.get("pie")
        if pie:
            out.append(
                f"With the swap offered, the chooser swaps in {_pm(pie['swapped'])} of games and wins "
                f"{_pm(pie['chooser_wins'])}."
            )
    if outcomes["capped"]:
        out.append(f"{_n(outcomes['capped'])} of {_n(outcomes['games'])} games hit the safety cap (no result).")
    if length["median"] is not None:
        out.append(
            f"A game lasts {length['median']:g} actions (median; 95% within {length['p95']:g}), with a real "
            f"choice in {_pct(length['decision_moves'] or 0)} of decisions."
        )
    if tension and tension["decisiveness"] is not None:
        out.append(
            f"The winner is clear {_pct(tension['decisiveness'])} of the way through a game on average; "
            f"the lead changes at {_pct(tension['lead_changes'] or 0)} of the probed moments."
        )
    if luck is not None and luck["share"] is not None:
        lo, hi = luck["ci95"] or (luck["share"], luck["share"])
        text = f"Chance explains {_pct(luck['share'])} of the results ({_pct(lo)}-{_pct(hi)}, {luck['groups']} paired deals)"
        out.append(text + ("." if luck["groups"] >= MIN_GROUPS else "; too few deals to rely on."))
    if voi is not None:
        v = voi["score"]
        text = f"Seeing the hidden information, {voi['agent']} scores {_pm(v)} against itself (n = {_n(voi['games'])})"
        out.append(text + ("." if voi["games"] >= MIN_GROUPS else "; too few games to rely on."))
    out.extend(f["text"] for f in flags)
    return out


def verdict(
    outcomes: dict[str, Any], specs: Sequence[str], num_players: int, cooperative: bool, flags: Sequence[dict[str, str]]
) -> str:
    """One sentence for the lobby: balanced, an advantage, too few games to tell, or a degenerate strategy."""
    who = lineup_text(specs)
    n = outcomes["finished"]
    if n == 0:
        return f"No game finished in {outcomes['games']} tries ({who})."
    dominant = next((f for f in flags if f["kind"] == "dominant"), None)
    quick = next((f for f in flags if f["kind"] == "quick"), None)
    if cooperative or num_players == 1:
        team = outcomes["team_wins"] if cooperative else _rate(outcomes["wins"][0], n)
        head = "Solved by planning" if dominant and quick else "Too easy" if dominant else "A challenge"
        whom = "the team" if num_players > 1 else "the player"
        return f"{head}: {whom} wins {_pm(team)} of games (n = {_n(n)}, {who})."
    subject, rate, of = balance_rate(outcomes)
    if not rate["n"]:
        return f"No winner: no game of {_n(n)} had one ({who})."
    lo, hi = rate["ci95"]
    fair = 1 / num_players
    first = subject == "the first player"
    if dominant:
        head = "A forced win" if first else "A favoured seat"
    elif lo > fair:
        head = "First-player advantage" if first else "A favoured seat"
    elif hi < fair:
        head = (
            ("Second-player advantage" if num_players == 2 else "First-player disadvantage")
            if first
            else "A favoured seat"
        )
    elif max(rate["rate"] - lo, hi - rate["rate"]) > TOO_WIDE:
        head = "Too few games to tell"
    else:
        head = "Balanced"
    return f"{head}: {subject} wins {_pm(rate)} of {of} (n = {_n(rate['n'])}, {who})."


def balance_rate(outcomes: dict[str, Any]) -> tuple[str, dict[str, Any], str]:
    """What the verdict weighs: the first player's share of the games that have a winner (draws left out, so a
    drawish game is not mistaken for a second-player advantage); with no first player, player 1's share."""
    fm = outcomes.get("first_mover_decided")
    if fm is not None and fm["n"]:
        return "the first player", fm, "games" if fm["n"] == outcomes["finished"] else "the games with a winner"
    p1 = outcomes["player1_decided"]
    return "player 1", p1, "games" if p1["n"] == outcomes["finished"] else "the games with a winner"


@dataclass
class BalanceReport:
    """A balance run's measurements; :meth:`to_dict` is its JSON.

    Its Markdown and HTML are :func:`boardlab.lab.report.to_markdown` and
    :func:`~boardlab.lab.report.to_html` of it: the report module reads this one, never the reverse.
    """

    game: str
    title: str
    options: dict[str, Any]
    rules_version: str
    num_players: int
    agents: list[str]
    seed: int
    games: int
    cooperative: bool
    outcomes: dict[str, Any]
    length: dict[str, Any]
    tension: dict[str, Any] | None
    luck: dict[str, Any] | None
    value_of_information: dict[str, Any] | None
    flags: list[dict[str, str]]
    sentences: list[str]
    verdict: str
    samples: list[dict[str, Any]] = field(default_factory=list)
    ladder: list[dict[str, Any]] | None = None
    command: str | None = None
    #: How many of ``flags`` (the first ones) are this lineup's own; the rest come from the ladder.
    own_flags: int | None = None
    per_game: list[dict[str, Any]] = field(default_factory=list, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "title": self.title,
            "options": dict(self.options),
            "rules_version": self.rules_version,
            "num_players": self.num_players,
            "agents": list(self.agents),
            "seed": self.seed,
            "games": self.games,
            "cooperative": self.cooperative,
            "verdict": self.verdict,
            "sentences": list(self.sentences),
            "flags": list(self.flags),
            "outcomes": self.outcomes,
            "length": self.length,
            "tension": self.tension,
            "luck": self.luck,
            "value_of_information": self.value_of_information,
            "ladder": self.ladder,
            "samples": list(self.samples),
            "command": self.command,
            "own_flags": self.own_flags,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BalanceReport:
        """A report back from :meth:`to_dict` (without its per-game measurements)."""
        names = {f for f in cls.__dataclass_fields__ if f != "per_game"}
        return cls(**{k: data.get(k) for k in names})

    def refreshed(self) -> BalanceReport:
        """The report with its verdict and sentences worded again from its figures (for reports stored earlier).

        Fills the decided-game rates of an older report from its totals, where they follow from them (every
        finished game had a first mover; every game with a winner had one winner).
        """
        oc = dict(self.outcomes)
        if not self.cooperative and "player1_decided" not in oc:
            decided = oc["finished"] - oc["draws"]["count"] - oc["no_winner"]
            fm = oc.get("first_mover")
            if fm is not None and fm["n"] == oc["finished"]:
                oc["first_mover_decided"] = _rate(fm["count"], decided)
            elif fm is not None:
                oc["first_mover_decided"] = _rate(0, 0)
            oc["player1_decided"] = _rate(oc["wins"][0], decided)
        flags = list(self.flags)
        said = sentences(
            self.title,
            self.agents,
            self.num_players,
            self.cooperative,
            oc,
            self.length,
            self.tension,
            self.luck,
            self.value_of_information,
            flags,
        )
        main_flags = flags[: self.own_flags] if self.own_flags is not None else [] if self.ladder else flags
        return replace(
            self,
            outcomes=oc,
            sentences=said,
            verdict=verdict(oc, self.agents, self.num_players, self.cooperative, main_flags),
        )


def _samples(
    game_id: str,
    options: dict[str, Any],
    rules_version: str,
    n: int,
    specs: Sequence[str],
    games: Sequence[dict[str, Any]],
    cooperative: bool,
) -> list[dict[str, Any]]:
    """Shortest and longest win per seat (per team result when co-operative), and the biggest comebacks."""
    done = [g for g in games if not g["capped"]]
    picks: list[tuple[str, dict[str, Any]]] = []
    if cooperative or n == 1:
        for label, sel in (("win", [g for g in done if g["winners"]]), ("loss", [g for g in done if not g["winners"]])):
            if sel:
                picks.append((f"shortest {label}", min(sel, key=lambda g: (g["length"], g["index"]))))
                picks.append((f"longest {label}", max(sel, key=lambda g: (g["length"], -g["index"]))))
    else:
        for p in range(n):
            sel = [g for g in done if p in g["winners"]]
            if sel:
                picks.append((f"shortest win, player {p + 1}", min(sel, key=lambda g: (g["length"], g["index"]))))
                picks.append((f"longest win, player {p + 1}", max(sel, key=lambda g: (g["length"], -g["index"]))))
        comebacks = sorted(
            (g for g in done if g.get("tension") and (g["tension"]["drama_max"] or 0) > 0),
            key=lambda g: (-g["tension"]["drama_max"], g["index"]),
        )
        for g in comebacks[:2]:
            picks.append((f"comeback ({g['tension']['drama_max']:.2f} behind)", g))
    out = []
    seen: set[tuple[str, int]] = set()
    for label, g in picks:
        if (label, g["index"]) in seen:
            continue
        seen.add((label, g["index"]))
        seats = [specs[a] for a in g["agents"]]
        rec = GameRecord(game_id, dict(options), rules_version, n, g["history"], seats)
        out.append({"label": label, "index": g["index"], "length": g["length"], "record": rec.to_dict()})
    return out


def balance(
    game_id: str,
    *,
    options: Mapping[str, Any] | None = None,
    agents: Sequence[str] = ("random",),
    games: int = 200,
    players: int | None = None,
    seed: int = 0,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
    store: Any = None,
    ladder: Sequence[str] | None = None,
    probe_points: int = 8,
    probe_playouts: int = 2,
    probe_games: int | None = None,
    voi_games: int | None = None,
    reference_length: float | None = None,
    command: str | None = None,
    keep_games: bool = False,
) -> BalanceReport:
    """Play ``games`` games of ``game_id`` between ``agents`` and measure their balance (``docs/LAB.md``).

    ``ladder``: also run self-play at each of these levels (skill drift), ``games`` each. ``voi_games``: games
    for the value of information in hidden-information games (default ``games``; 0 skips it). ``probe_points``:
    positions evaluated per game for tension (0 skips it), in the first ``probe_games`` games (default: all). ``reference_length``: random play's median length,
    for the quick-win flag (default: measured on a few random games when the agents are not all random).
    ``store`` (a :class:`~boardlab.lab.store.RunStore` or a database URL) keeps every finished game under a key
    made of the run's parameters, so a killed run resumes where it stopped (:func:`boardlab.lab.runner.run_jobs`).
    Bad arguments raise ``ValueError`` before any game is played.
    """
    g = make(game_id, **dict(options or {}))
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"the number of games must be a positive integer; got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"the seed must be an integer; got {seed!r}")
    n = g.resolve_num_players(players)
    specs = resolve_agents(list(agents), n)
    for p, spec in enumerate(specs):
        make_agent(spec, g, p, 0)
    for level in ladder or ():
        make_agent(level, g, 0, 0)
    opts = dict(g.params)
    gt = g.game_type
    chance = gt.chance is not Chance.NONE
    rotations = max(2, n) if chance else (n if len(set(specs)) > 1 else 1)
    has_voi = gt.information is Information.IMPERFECT and voi_games != 0
    plan: list[tuple[str, list[BalanceJob]]] = []

    def jobs_for(lineup: Sequence[str], count: int, rot: int, probes: int) -> list[BalanceJob]:
        def points(i: int) -> int:
            return probes if probe_games is None or i < probe_games else 0

        return [BalanceJob(g.id, opts, n, tuple(lineup), seed, i, rot, points(i), probe_playouts) for i in range(count)]

    plan.append(("main", jobs_for(specs, games, rotations, probe_points)))
    voi_agent = next((s for s in specs if s != "random"), "greedy")
    if has_voi:
        count = voi_games if voi_games is not None else games
        plan.append(("voi", jobs_for([INFORMED + voi_agent] + [voi_agent] * (n - 1), count, n, 0)))
    for level in ladder or ():
        plan.append((f"ladder:{level}", jobs_for([level] * n, games, max(2, n) if chance else 1, probe_points)))
    if reference_length is None and (set(specs) != {"random"}) and "ladder:random" not in {k for k, _ in plan}:
        plan.append(("reference", jobs_for(["random"] * n, min(games, 40), 1, 0)))
    all_jobs = [j for _, js in plan for j in js]
    key = None
    if store is not None:
        digest = hashlib.sha256(
            json.dumps(
                [
                    g.id,
                    opts,
                    n,
                    [(k, len(js), js[0].agents if js else None) for k, js in plan],
                    seed,
                    probe_points,
                    probe_playouts,
                ],
                sort_keys=True,
            ).encode()
        ).hexdigest()
        key = f"balance/{g.id}/{digest[:16]}"
    results = run_jobs(
        play_balance_game,
        all_jobs,
        workers=workers,
        backend=backend,
        address=address,
        progress=progress,
        store=store,
        run_key=key,
    )
    parts: dict[str, list[dict[str, Any]]] = {}
    k = 0
    for name, js in plan:
        parts[name] = results[k : k + len(js)]
        k += len(js)

    ref = reference_length
    if ref is None:
        ref_games = (
            parts.get("reference") or parts.get("ladder:random") or (parts["main"] if set(specs) == {"random"} else [])
        )
        ref = length_stats(ref_games)["median"] if ref_games else None

    def summarise(lineup: Sequence[str], gs: list[dict[str, Any]], rot: int) -> dict[str, Any]:
        oc = outcome_stats(gs, n, g.cooperative, lineup)
        ln = length_stats(gs)
        label = lineup_text(lineup) if len(set(lineup)) > 1 else lineup[0]
        self_play = len(lineup) > 1 and len(set(lineup)) == 1 and not g.cooperative
        fl = degenerate_flags(oc, ln, label, None if set(lineup) == {"random"} else ref, self_play)
        return {
            "outcomes": oc,
            "length": ln,
            "tension": tension_stats(gs),
            "luck": luck_share(gs, rot, seed) if chance else None,
            "flags": fl,
        }

    main = summarise(specs, parts["main"], rotations)
    voi = None
    if has_voi:
        voi = {
            "agent": voi_agent,
            "games": sum(not x["capped"] for x in parts["voi"]),
            "score": informed_score(parts["voi"]),
        }
    ladder_rows = None
    if ladder:
        ladder_rows = []
        for level in ladder:
            s = summarise([level] * n, parts[f"ladder:{level}"], max(2, n) if chance else 1)
            ladder_rows.append(
                {
                    "level": level,
                    "verdict": verdict(s["outcomes"], [level] * n, n, g.cooperative, s["flags"]),
                    **s,
                }
            )
    flags = list(main["flags"])
    for row in ladder_rows or ():
        flags.extend(f for f in row["flags"] if f not in flags)
    said = sentences(
        g.title, specs, n, g.cooperative, main["outcomes"], main["length"], main["tension"], main["luck"], voi, flags
    )
    return BalanceReport(
        game=g.id,
        title=g.title,
        options=opts,
        rules_version=g.rules_version,
        num_players=n,
        agents=list(specs),
        seed=seed,
        games=games,
        cooperative=g.cooperative,
        outcomes=main["outcomes"],
        length=main["length"],
        tension=main["tension"],
        luck=main["luck"],
        value_of_information=voi,
        flags=flags,
        sentences=said,
        verdict=verdict(main["outcomes"], specs, n, g.cooperative, main["flags"]),
        samples=_samples(g.id, opts, g.rules_version, n, specs, parts["main"], g.cooperative),
        ladder=ladder_rows,
        command=command,
        own_flags=len(main["flags"]),
        per_game=parts["main"] if keep_games else [],
    )
