"""Exact analysis through OpenSpiel (boardlab.lab.exact), on the tests' own Kuhn poker (solved: value -1/18)."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")
from adapters import kuhn
from boardlab.adapters import openspiel as bos
from boardlab.lab import exact

KUHN = kuhn.KuhnGame.id


def test_tree_size_counts_histories_and_information_states() -> None:
    size = exact.tree_size(KUHN)
    # The root and 3 one-card deals (chance), then 9 betting histories (5 terminal) under each of the 6 deals.
    assert (size.histories, size.terminals, size.infostates, size.complete) == (58, 30, [6, 6], True)
    capped = exact.tree_size(KUHN, cap=20)
    assert not capped.complete and capped.histories == 20
    assert exact.estimate_histories(KUHN, samples=200) == pytest.approx(58, rel=0.25)


def test_cfr_finds_the_known_equilibrium_and_random_play_is_exploitable() -> None:
    sol = exact.solve(KUHN, iterations=60)
    assert sol.value == pytest.approx(-1 / 18, abs=0.01) and sol.exploitability < 0.02
    game = bos.load(KUHN)
    uniform = exact.agent_policy(game, "random", samples=300, seed=1)
    assert exact.exploitability_of(game, uniform) == pytest.approx(0.4583, abs=0.06)  # uniform Kuhn: 11/24
    shares = exact.action_frequencies(game, sol.policy)
    assert set(shares) == {0, 1} and sum(shares[0].values()) == pytest.approx(1.0)
    assert 0.0 < shares[0]["bet"] < 0.5  # the first seat bets (value-bets the King, bluffs the Jack) but mostly passes


def test_report_stops_at_the_cap_with_the_size_counted() -> None:
    r = exact.report("hamlet", cap=500)
    assert r["solved"] is False and r["size"].histories == 500 and not r["size"].complete
    assert "too large for a tabular solve" in exact.format_report(r)
