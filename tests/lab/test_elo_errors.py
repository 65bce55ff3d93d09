"""Elo standard errors (lab/stats.py): the inverse of the observed information, infinite where results leave a gap."""

from __future__ import annotations

import math

import pytest

from boardlab.lab.stats import ELO_SCALE, fit_elo


def test_two_agents_have_the_closed_form_error() -> None:
    fit = fit_elo(["random", "b"], {("b", "random"): (30.0, 40)}, prior_draws=0)
    p = 30 / 40  # the fitted win probability is the observed rate
    assert fit.stderr["b"] == pytest.approx(ELO_SCALE / math.sqrt(40 * p * (1 - p)), rel=1e-9)
    assert fit.stderr["random"] == 0.0


def test_errors_are_infinite_for_agents_the_results_do_not_connect() -> None:
    anchored = fit_elo(["random", "b", "c", "d"], {("random", "b"): (3.0, 10), ("c", "d"): (5.0, 10)})
    assert anchored.stderr["random"] == 0.0
    assert all(math.isinf(anchored.stderr[n]) for n in "bcd")
    free = fit_elo(["a", "b", "c", "d"], {("a", "b"): (3.0, 10), ("c", "d"): (5.0, 10)}, anchor=None)
    assert all(math.isinf(v) for v in free.stderr.values())


def test_mean_fixed_errors_are_the_pseudo_inverse_of_the_information() -> None:
    fit = fit_elo(["a", "b", "c"], {("a", "b"): (3.0, 10), ("c", "b"): (5.0, 10)}, anchor=None)
    assert [round(fit.stderr[n], 6) for n in "abc"] == [82.702702, 51.229046, 79.261207]
