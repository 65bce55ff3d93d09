"""The tournament (schedule, scores, Elo, JSON, CLI) and the statistics behind it."""

from __future__ import annotations

import json
import math

import pytest
from minigames import LotteryGame, TeamGame, ThreeWayGame
from typer.testing import CliRunner

import boardlab
from boardlab.agents import level_names, level_ratings
from boardlab.cli.main import app, load_commands
from boardlab.lab.stats import binomial_lower_bound, binomial_upper_tail, fit_elo, wilson
from boardlab.lab.tournament import run_tournament, schedule
from generated_docs import command, need


def test_level_ratings_read_the_ai_docs(tmp_path) -> None:
    (tmp_path / "g.md").write_text(
        "| agent | spec | Elo | Elo 95% CI |\n|---|---|---:|---:|\n| random | `random` | +0 | anchor |\n"
        "| easy | `mcts:plies=1500` | +212 | +90 … +330 |\n| hard | `mcts:plies=20000` | −40 | x |\n"
    )
    assert level_ratings("g", tmp_path) == {"easy": 212.0, "hard": -40.0}
    assert level_ratings("absent", tmp_path) == {}
    # a later run with expert, better measured: its ratings win, and the first table's hard is not used
    two = (
        "| level | spec | Elo | Elo 95% CI |\n|---|---|---:|---:|\n"
        "| easy | `e` | +300 | +200 … +400 |\n| hard | `h` | +500 | +400 … +600 |\n| expert | `x` | +700 | +500 … +900 |\n"
        "\nprose\n\n"
        "| level | spec | Elo | Elo 95% CI |\n|---|---|---:|---:|\n"
        "| easy | `e` | +100 | -300 … +500 |\n| medium | `m` | +250 | -150 … +650 |\n"
    )
    (tmp_path / "g.md").write_text(two)
    # medium comes from the second table, as its gap (+150) over the level nearest it there (easy)
    assert level_ratings("g", tmp_path) == {"easy": 300.0, "hard": 500.0, "expert": 700.0, "medium": 450.0}
    assert level_names() == ["easy", "medium", "hard", "expert"]


@pytest.mark.parametrize("game_id", boardlab.games())
def test_every_level_of_every_game_has_a_measured_elo(game_id: str) -> None:
    """docs/ai/<game>.md rates every level (`boardlab strength GAME --write` adds a new game's table)."""
    need("ai", game_id)
    missing = sorted(set(level_names()) - set(level_ratings(game_id)))
    assert not missing, f"docs/ai/{game_id}.md does not rate {missing}: run `{command('ai', game_id)}`"


def test_wilson_and_exact_bounds() -> None:
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and 0.69 < lo < 0.73
    assert wilson(0, 0) == (0.0, 1.0)
    assert binomial_lower_bound(29, 29, 0.95) == pytest.approx(0.05 ** (1 / 29), abs=1e-9)
    assert binomial_lower_bound(0, 10) == 0.0
    # 45 of 50 with the bound at p: P(X >= 45 | p) = 5% exactly.
    p = binomial_lower_bound(45, 50, 0.95)
    assert binomial_upper_tail(45, 50, p) == pytest.approx(0.05, rel=1e-6)
    with pytest.raises(ValueError):
        binomial_lower_bound(11, 10)


def test_elo_fit_recovers_known_gaps() -> None:
    # 76% against random is +200 Elo; a chain a > b > random adds up.
    expected = 1 / (1 + 10 ** (-200 / 400))
    fit = fit_elo(
        ["random", "a", "b"],
        {("a", "random"): (expected * 10000, 10000), ("b", "a"): (expected * 10000, 10000)},
        prior_draws=0,
    )
    assert fit.ratings["random"] == 0.0
    assert fit.ratings["a"] == pytest.approx(200, abs=1)
    assert fit.ratings["b"] == pytest.approx(400, abs=2)
    assert fit.stderr["a"] < 10 and fit.stderr["random"] == 0.0
    lo, hi = fit.ci95("b")
    assert lo < 400 < hi
    sweep = fit_elo(["random", "x"], {("x", "random"): (20.0, 20)})
    assert math.isfinite(sweep.ratings["x"]) and sweep.ratings["x"] > 500
    no_anchor = fit_elo(["p", "q"], {("p", "q"): (5.0, 10)}, anchor=None)
    assert no_anchor.ratings["p"] == pytest.approx(-no_anchor.ratings["q"])


def test_schedule_swaps_seats_fairly() -> None:
    plan = schedule(["a", "b", "c"], seats=2, games=4, cooperative=False)
    assert len(plan) == 12
    for x, y in (("a", "b"), ("a", "c"), ("b", "c")):
        seatings = [seats for _, _, seats in plan if set(seats) == {x, y}]
        assert seatings.count([x, y]) == seatings.count([y, x]) == 2
    three = schedule(["a", "b"], seats=3, games=3, cooperative=False)
    for seat in range(3):
        assert sorted(s[seat] for _, _, s in three) == ["a", "a", "b"]
    team = schedule(["a", "b"], seats=2, games=2, cooperative=True)
    assert [s for _, _, s in team] == [["a", "a"], ["a", "a"], ["b", "b"], ["b", "b"]]


def test_tournament_scores_and_is_reproducible() -> None:
    game = boardlab.make("blast-radius", board_side=5)
    r = run_tournament(game, ["random", "mcts:iterations=20"], games=2, seed=2)
    data = r.to_json()
    assert data["agents"] == ["random", "mcts:iterations=20"] and data["games"] == 2 and data["total_games"] == 2
    assert set(data) >= {"agents", "games", "score", "elo", "ci95"}
    assert data["score"]["random"] + data["score"]["mcts:iterations=20"] == pytest.approx(1.0)
    assert data["elo"]["random"] == 0.0 and data["elo"]["mcts:iterations=20"] > 0
    lo, hi = data["ci95"]["mcts:iterations=20"]
    assert lo <= data["score"]["mcts:iterations=20"] <= hi
    assert [g.seats[0] for g in r.results] == ["random", "mcts:iterations=20"]
    assert run_tournament(game, ["random", "mcts:iterations=20"], games=2, seed=2).to_json() == data
    parallel = run_tournament(game, ["random", "mcts:iterations=20"], games=2, seed=2, jobs=2)
    assert parallel.to_json() == data


def test_cooperative_tournament_compares_teams() -> None:
    r = run_tournament(TeamGame(), ["random", "mcts:iterations=100"], games=6, seed=1)
    data = r.to_json()
    assert all(len(set(g.seats)) == 1 for g in r.results)
    assert data["mean_return"]["mcts:iterations=100"] == 1.0  # the team always finds 2, 2
    assert data["score"]["mcts:iterations=100"] > data["score"]["random"]


def test_one_seat_games_compare_like_teams() -> None:
    data = run_tournament(LotteryGame(), ["random", "mcts:iterations=50"], games=20, seed=1).to_json()
    assert data["pairwise"]["random vs mcts:iterations=50"]["games"] == 20
    assert data["mean_return"]["mcts:iterations=50"] > data["mean_return"]["random"]


def test_multiplayer_tournament_compares_every_two_seats() -> None:
    r = run_tournament(ThreeWayGame(), ["random", "mcts:iterations=60"], games=3, seed=1)
    data = r.to_json()
    assert data["players"] == 3
    assert data["pairwise"]["random vs mcts:iterations=60"]["games"] == 6  # two cross pairs per game
    assert data["score"]["mcts:iterations=60"] > 0.5


@pytest.mark.parametrize(
    ("agents", "games", "message"),
    [(["random"], 2, "at least two"), (["random", "random"], 2, "once"), (["random", "nope"], 2, "unknown agent")],
)
def test_tournament_refuses_bad_input(agents: list[str], games: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run_tournament(boardlab.make("blast-radius"), agents, games)


def test_cli_tournament_json_and_table() -> None:
    load_commands()
    runner = CliRunner()
    args = ["tournament", "blast-radius", "--agents", "random,greedy:playouts=1", "--games", "2"]
    res = runner.invoke(app, [*args, "--option", "board_side=5", "--seed", "4", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["agents"] == ["random", "greedy:playouts=1"] and data["games"] == 2
    assert set(data["score"]) == set(data["elo"]) == set(data["ci95"]) == set(data["agents"])
    table = runner.invoke(app, [*args, "--option", "board_side=5"])
    assert table.exit_code == 0 and "Elo" in table.stdout and "greedy:playouts=1" in table.stdout
    md = runner.invoke(
        app, ["tournament", "blast-radius", "--agents", "random,easy", "-g", "1", "-o", "board_side=5", "--markdown"]
    )
    assert (
        md.exit_code == 0
        and "| easy | `mcts:plies=" in md.stdout
        and "| random | `random` | +0 | anchor |" in md.stdout
    )
    bad = runner.invoke(app, ["tournament", "blast-radius", "--agents", "random,wizard", "--games", "2"])
    assert bad.exit_code == 2 and "unknown agent 'wizard'" in bad.output
