"""The Wilson intervals behind every rate the lab reports, and the plots' error bars drawn from them."""

from __future__ import annotations

import pathlib

import balance_games  # noqa: F401  (registers the test games)
from hypothesis import example, given, settings
from hypothesis import strategies as st

from boardlab.lab.balance import balance
from boardlab.lab.plots import plot_balance
from boardlab.lab.report import to_html
from boardlab.lab.simulate import simulate, wilson_interval
from boardlab.lab.stats import error_bars, wilson


@st.composite
def outcomes(draw: st.DrawFn) -> tuple[int, int]:
    n = draw(st.integers(min_value=1, max_value=5000))
    return draw(st.integers(min_value=0, max_value=n)), n


@settings(max_examples=300, deadline=None, derandomize=True)
@given(outcomes())
@example((0, 69))  # the lower bound of 0 successes came out at 3.5e-18, above the estimate 0
@example((4, 4))  # the upper bound of n successes came out at 0.9999999999999999, below the estimate 1
@example((0, 600))
def test_the_interval_holds_the_estimate_within_0_and_1_and_its_error_bars_are_not_negative(
    case: tuple[int, int],
) -> None:
    k, n = case
    for successes, (lo, hi) in (
        (k, wilson_interval(k, n)),  # the lab's rates
        (k, wilson(k, n)),
        (k - 0.5 if k else k, wilson(k - 0.5 if k else k, n)),  # scores, a draw counting one half
    ):
        rate = successes / n
        assert 0.0 <= lo <= rate <= hi <= 1.0, (successes, n, lo, hi)
        below, above = error_bars(rate, (lo, hi))
        assert below >= 0.0 and above >= 0.0
        assert below == rate - lo and above == hi - rate
    assert wilson_interval(0, n)[0] == 0.0 and wilson_interval(n, n)[1] == 1.0


def test_a_seat_that_never_wins_is_plotted() -> None:
    # Greedy Nim: the second player always wins, so the first wins 0 of 69, where the old bound sat above 0 and
    # matplotlib refused the negative error bar (the HTML report and `boardlab simulate --plot` both crashed).
    r = balance("test-nim", agents=["greedy"], games=69, seed=0, probe_points=0)
    assert r.outcomes["first_mover"]["count"] == 0 and r.outcomes["first_mover"]["ci95"][0] == 0.0
    assert "data:image/png;base64," in to_html(r)


def test_plot_balance_draws_a_seat_that_never_wins(tmp_path: pathlib.Path) -> None:
    result = simulate("test-nim", 69, ["greedy"], seed=0)
    assert result.wins[0] == 0
    path = plot_balance(result, tmp_path / "balance.png")
    assert path.stat().st_size > 0
