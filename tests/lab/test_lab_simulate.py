"""The simulation engine and its statistics (boardlab.lab), used by the CLI, the server and designers."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.games.blast_radius import BlastRadiusGame
from boardlab.lab import GameSummary, SimulationResult, game_seed, simulate, wilson_interval


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(51, 100)
    assert (round(lo, 3), round(hi, 3)) == (0.413, 0.606)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(0, 20)
    assert lo == 0.0 and 0.1 < hi < 0.2
    lo, hi = wilson_interval(20, 20)
    assert hi == 1.0 and 0.8 < lo < 0.9
    assert wilson_interval(500, 1000, z=2.576)[0] < wilson_interval(500, 1000)[0]


def test_reproducible_and_independent_of_workers() -> None:
    kw = {"options": {"board_side": 5}, "seed": 12}
    a = simulate("blast-radius", 16, ["random", "random"], **kw)
    b = simulate("blast-radius", 16, ["random"], **kw)
    c = simulate("blast-radius", 16, ["random"], workers=2, **kw)
    assert a.to_dict() == b.to_dict() == c.to_dict()
    assert simulate("blast-radius", 16, **{**kw, "seed": 13}).to_dict() != a.to_dict()
    # A game's seed depends only on the run's seed and the game's index.
    assert game_seed(12, 3) == game_seed(12, 3) != game_seed(12, 4)


def test_statistics_add_up() -> None:
    r = simulate("blast-radius", 40, options={"board_side": 5}, seed=2, keep_games=True)
    assert r.games == r.finished == 40 and r.capped == 0
    assert sum(r.wins) == 40 and r.draws == 0 and r.no_winner == 0
    assert r.first_mover_games == 40 and r.first_mover_wins == r.wins[0]
    assert len(r.lengths) == 40 and r.min_length <= r.median_length <= r.max_length
    assert r.mean_length == pytest.approx(sum(s.length for s in r.summaries) / 40)
    assert all(s.first_mover == 0 for s in r.summaries)
    d = r.to_dict()
    assert {"games", "wins", "draws", "mean_length", "median_length", "max_length", "capped"} <= set(d)


def test_capped_games_count_as_no_result() -> None:
    class Short(BlastRadiusGame):
        def max_game_length(self) -> int:
            return 6

    r = simulate(Short(board_side=5), 5, seed=1)
    assert r.capped == 5 and r.finished == 0
    assert r.wins == [0, 0] and r.draws == 0 and r.no_winner == 0
    assert r.lengths == [] and r.mean_length is None and r.first_mover_win_rate is None


def test_aggregation_of_draws_shared_wins_and_simultaneous_starts() -> None:
    games = [
        GameSummary(0, 1, 10, False, [0.0, 0.0, 0.0], [], True, 0),  # draw
        GameSummary(1, 2, 12, False, [1.0, 1.0, 1.0], [0, 1, 2], False, 0),  # shared (cooperative) win
        GameSummary(2, 3, 8, False, [-1.0, -1.0, -1.0], [], False, 1),  # cooperative loss
        GameSummary(3, 4, 30, True, None, [], False, 2),  # capped
        GameSummary(4, 5, 20, False, [-1.0, 1.0, -1.0], [1], False, None),  # simultaneous first decision
    ]
    r = SimulationResult.from_games("g", {}, 3, ["random"] * 3, 0, games)
    assert r.games == 5 and r.finished == 4 and r.capped == 1
    assert r.wins == [1, 2, 1] and r.draws == 1 and r.no_winner == 1
    assert r.first_mover_games == 3 and r.first_mover_wins == 1
    assert r.lengths == [10, 12, 8, 20] and r.median_length == 11.0 and r.max_length == 20


def test_bad_arguments_fail_before_playing() -> None:
    with pytest.raises(ValueError, match="unknown agent 'wizard'"):
        simulate("blast-radius", 3, ["wizard"])
    with pytest.raises(ValueError, match="3 agents given for 2 seats"):
        simulate("blast-radius", 3, ["random"] * 3)
    with pytest.raises(ValueError, match="positive integer"):
        simulate("blast-radius", 0)
    with pytest.raises(ValueError, match="workers"):
        simulate("blast-radius", 3, workers=0)
    with pytest.raises(ValueError, match="unknown option"):
        simulate("blast-radius", 3, options={"size": 5})
    with pytest.raises(ValueError, match="played by 2 players"):
        simulate("blast-radius", 3, num_players=3)
    with pytest.raises(ValueError, match="either"):
        simulate(boardlab.make("blast-radius"), 3, options={"board_side": 5})


def test_progress_is_reported() -> None:
    seen: list[tuple[int, int]] = []
    simulate("blast-radius", 4, options={"board_side": 5}, seed=1, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
