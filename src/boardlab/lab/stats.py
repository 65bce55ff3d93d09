"""Statistics for comparing agents: confidence intervals for rates and Elo ratings from results.

>>> lo, hi = wilson(45, 50)
>>> round(lo, 3), round(hi, 3)
(0.786, 0.957)
>>> round(binomial_lower_bound(29, 29, 0.95), 3)
0.902
>>> elo = fit_elo(["random", "mcts"], {("mcts", "random"): (9.0, 10)})
>>> elo.ratings["random"], round(elo.ratings["mcts"])
(0.0, 321)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

ELO_SCALE = 400.0 / math.log(10.0)  # Elo points per natural-log unit of strength


def wilson(successes: float, n: float, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a rate (``successes`` may be fractional, draws counting ½).

    ``(0.0, 1.0)`` when ``n`` is 0. The interval always holds the rate and lies in [0, 1]: rounding
    does not put the bound of 0 successes a hair above 0, nor that of ``n`` successes a hair below 1.
    """
    if n <= 0:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, successes / n))
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n))) / (1 + z2 / n)
    lo = 0.0 if successes <= 0 else min(p, max(0.0, centre - half))
    hi = 1.0 if successes >= n else max(p, min(1.0, centre + half))
    return (lo, hi)


def error_bars(rate: float, ci: Sequence[float]) -> tuple[float, float]:
    """The lengths below and above ``rate`` of its interval ``ci``, as a plot's error bars: never negative.

    >>> error_bars(0.0, (1e-18, 0.05))
    (0.0, 0.05)
    """
    lo, hi = ci
    return (max(0.0, rate - lo), max(0.0, hi - rate))


def _log_binom_pmf(k: int, n: int, p: float) -> float:
    if p <= 0.0:
        return 0.0 if k == 0 else -math.inf
    if p >= 1.0:
        return 0.0 if k == n else -math.inf
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(p) + (n - k) * math.log1p(-p)


def binomial_upper_tail(k: int, n: int, p: float) -> float:
    """P(X ≥ k) for X ~ Binomial(n, p)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return min(1.0, sum(math.exp(_log_binom_pmf(i, n, p)) for i in range(k, n + 1)))


def binomial_lower_bound(successes: int, n: int, confidence: float = 0.95) -> float:
    """One-sided exact (Clopper–Pearson) lower confidence bound on a success probability.

    The smallest ``p`` not rejected at level ``1 - confidence`` after
    ``successes`` in ``n`` trials: with ``successes == n``, ``(1 - confidence) ** (1 / n)``.
    """
    if not 0 <= successes <= n:
        raise ValueError(f"successes must lie in 0..n; got {successes} of {n}")
    if successes == 0:
        return 0.0
    alpha = 1.0 - confidence
    lo, hi = 0.0, 1.0
    for _ in range(100):  # P(X >= k | p) grows with p: bisect for alpha
        mid = (lo + hi) / 2
        if binomial_upper_tail(successes, n, mid) < alpha:
            lo = mid
        else:
            hi = mid
    return lo


@dataclass
class EloFit:
    """Elo ratings (``anchor`` at 0) with standard errors and 95% intervals."""

    ratings: dict[str, float]
    stderr: dict[str, float]
    anchor: str | None

    def ci95(self, name: str) -> tuple[float, float]:
        r, se = self.ratings[name], self.stderr[name]
        return (r - 1.96 * se, r + 1.96 * se)


def fit_elo(
    names: Sequence[str],
    results: Mapping[tuple[str, str], tuple[float, int]],
    anchor: str | None = "random",
    prior_draws: float = 1.0,
) -> EloFit:
    """Maximum-likelihood Elo ratings (Bradley–Terry) from pairwise results.

    ``results[(a, b)] = (score of a against b, games)``, a draw scoring ½.
    Every pair that met also gets ``prior_draws`` virtual draws, so a clean
    sweep gives a large but finite gap rather than an infinite one (with one
    virtual draw, 20–0 reads as about +645). Ratings are relative: ``anchor``
    (``random`` by default, if present) is fixed at 0, else their mean is 0.
    Standard errors come from the observed information at the optimum.
    """
    names = list(names)
    idx = {n: i for i, n in enumerate(names)}
    m = len(names)
    if len(set(names)) != m:
        raise ValueError("agent names must be distinct")
    wins = [[0.0] * m for _ in range(m)]  # wins[i][j]: score of i against j
    games = [[0.0] * m for _ in range(m)]
    for (a, b), (score, n) in results.items():
        if a not in idx or b not in idx:
            raise ValueError(f"result for unknown agent in {(a, b)!r}")
        i, j = idx[a], idx[b]
        if i == j or n <= 0:
            continue
        if not 0 <= score <= n:
            raise ValueError(f"score {score} of {a} against {b} is outside 0..{n}")
        wins[i][j] += score
        wins[j][i] += n - score
        games[i][j] += n
        games[j][i] += n
    for i in range(m):
        for j in range(m):
            if i != j and games[i][j] > 0 and prior_draws > 0:
                wins[i][j] += prior_draws / 2
                games[i][j] += prior_draws
    if anchor not in idx:
        anchor = None
    # Minorisation–maximisation (Hunter 2004) on gamma = exp(theta).
    gamma = [1.0] * m
    total = [sum(row) for row in wins]
    for _ in range(20000):
        new = []
        for i in range(m):
            denom = sum(games[i][j] / (gamma[i] + gamma[j]) for j in range(m) if j != i and games[i][j] > 0)
            new.append(max(total[i], 1e-9) / denom if denom > 0 else gamma[i])
        mean_log = sum(math.log(g) for g in new) / m
        new = [g / math.exp(mean_log) for g in new]
        change = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, gamma, strict=True))
        gamma = new
        if change < 1e-10:
            break
    theta = [math.log(g) for g in gamma]
    shift = theta[idx[anchor]] if anchor is not None else sum(theta) / m
    ratings = {n: (theta[i] - shift) * ELO_SCALE for n, i in idx.items()}
    # Observed information (negative Hessian of the log-likelihood in theta).
    info = [[0.0] * m for _ in range(m)]
    for i in range(m):
        for j in range(m):
            if i != j and games[i][j] > 0:
                p = gamma[i] / (gamma[i] + gamma[j])
                v = games[i][j] * p * (1 - p) / 2  # each pair is counted from both sides
                info[i][i] += v
                info[j][j] += v
                info[i][j] -= v
                info[j][i] -= v
    stderr = _stderrs(info, idx[anchor] if anchor is not None else None)
    return EloFit(
        ratings=ratings,
        stderr={n: stderr[i] * ELO_SCALE for n, i in idx.items()},
        anchor=anchor,
    )


def _stderrs(info: list[list[float]], fixed: int | None) -> list[float]:
    """Standard errors of theta with one coordinate fixed (or their mean fixed); ``inf`` where results do not tie
    the ratings down (agents that never met, directly or through others)."""
    m = len(info)
    if m == 1:
        return [0.0]
    a = np.array(info, dtype=float)
    if fixed is None:
        # Fix the mean: the covariance on the sum-to-zero subspace is the pseudo-inverse of the information.
        if np.linalg.matrix_rank(a) < m - 1:
            return [math.inf] * m
        return [math.sqrt(max(0.0, v)) for v in np.diag(np.linalg.pinv(a))]
    keep = [i for i in range(m) if i != fixed]
    sub = a[np.ix_(keep, keep)]
    out = [0.0] * m
    singular = np.linalg.matrix_rank(sub) < m - 1
    variances = [math.inf] * len(keep) if singular else list(np.diag(np.linalg.inv(sub)))
    for k, i in enumerate(keep):
        out[i] = math.sqrt(max(0.0, variances[k]))
    return out
