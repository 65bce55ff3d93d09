"""Variant sweeps: paired games, corrected differences, the most balanced variant, and the search for a target."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardlab.cli.main import load_commands
from boardlab.lab.simulate import simulate
from boardlab.lab.store import RunStore
from boardlab.lab.sweep import compare, holm, parse_target, parse_values, parse_vary, search, sweep


def test_every_variant_plays_the_same_seeds_as_a_plain_simulation() -> None:
    r = sweep("blast-radius", {"board_side": ["5", "6"]}, games=8, seed=5)
    assert [v.options for v in r.variants] == [{"board_side": 5}, {"board_side": 6}]
    for v in r.variants:
        plain = simulate("blast-radius", 8, ["random"], options=v.options, seed=5, keep_games=True)
        assert v.result.to_dict() == plain.to_dict()
        assert [s.seed for s in v.result.summaries] == [s.seed for s in r.variants[0].result.summaries]


def test_differences_are_paired_and_corrected_for_the_number_of_comparisons() -> None:
    r = sweep("blast-radius", {"board_side": ["5", "6", "7"]}, games=40, seed=1)
    assert {(c.variant, c.metric) for c in r.comparisons} == {
        (v, m) for v in (1, 2) for m in ("first_mover", "mean_length")
    }
    longer = [c for c in r.comparisons if c.metric == "mean_length"]
    assert all(c.low > 0 for c in longer)  # bigger boards are longer, clearly
    assert all(c.p_holm is not None and c.p_holm < 0.05 for c in longer)
    # a Bonferroni interval is wider than a lone 95% one on the same pairs
    lone = compare([s.result.summaries for s in r.variants[:2]])
    c1 = next(c for c in r.comparisons if c.variant == 1 and c.metric == "mean_length")
    l1 = next(c for c in lone if c.metric == "mean_length")
    assert c1.difference == l1.difference and (c1.high - c1.low) > (l1.high - l1.low)
    assert holm([0.01, 0.04, 0.03]) == [0.03, 0.06, 0.06]


def test_the_most_balanced_variant_is_named_with_its_caveat() -> None:
    r = sweep("blast-radius", {"board_side": ["5", "7"]}, games=30, seed=2, metric="mean_length", target=40)
    assert r.best == 0  # side 5 is far nearer 40 moves than side 7
    assert "board_side=5" in r.verdict() and "random players" in r.caveat
    d = r.to_dict()
    assert d["best_options"] == {"board_side": 5} and json.loads(json.dumps(d)) == d


def test_search_halves_towards_the_target_and_reports_the_winner() -> None:
    r = search("blast-radius", {"board_side": ["5", "6", "7"]}, metric="median_length", target=120, games=40, seed=3)
    assert r.variants[r.best].options == {"board_side": 7}
    assert [rd["games"] for rd in r.rounds] == [20, 40]
    assert len(r.rounds[0]["candidates"]) == 3 and len(r.rounds[1]["candidates"]) == 2
    assert r.variants[r.best].result.games == 40 and "interval" in r.verdict()
    dropped = next(v for v in r.variants if v.options == {"board_side": 5})
    assert dropped.result.games == 20  # never played past the round that dropped it


def test_bad_sweeps_are_refused_before_any_game() -> None:
    with pytest.raises(ValueError, match="option 'size'"):
        sweep("blast-radius", {"size": ["5"]}, games=4)
    with pytest.raises(ValueError, match="both fixed and varied"):
        sweep("blast-radius", {"board_side": ["5"]}, base_options={"board_side": 5}, games=4)
    with pytest.raises(ValueError, match="listed twice"):
        sweep("blast-radius", {"board_side": ["5", "5"]}, games=4)
    with pytest.raises(ValueError, match="more than 64"):
        sweep("blast-radius", {"board_side": [str(i) for i in range(65)]}, games=4)
    with pytest.raises(ValueError, match="must look like name=v1,v2"):
        parse_vary(["board_side"])
    with pytest.raises(ValueError, match="a target must look like"):
        parse_target("fun=1")
    assert parse_values("4..10:3") == ["4", "7", "10"] and parse_target("first-mover=50%") == ("first_mover", 0.5)


def test_sweep_command_prints_the_table_and_resumes_from_the_store(tmp_path: Path) -> None:
    app = load_commands()
    env = {"BOARDLAB_LAB_DB": f"sqlite:///{tmp_path}/lab.db"}
    args = ["sweep", "blast-radius", "--vary", "board_side=5,6", "--games", "10", "--seed", "1"]
    res = CliRunner().invoke(app, args, env=env)
    assert res.exit_code == 0, res.output
    assert "board_side=6" in res.output and "Bonferroni" in res.output and "Nearest 50.0%" in res.output
    (info,) = RunStore(env["BOARDLAB_LAB_DB"]).runs()
    assert info.kind == "sweep" and info.done == 20 and info.status == "finished"
    again = CliRunner().invoke(app, [*args, "--json"], env=env)
    assert json.loads(again.output)["variants"][1]["options"] == {"board_side": 6}
    bad = CliRunner().invoke(app, ["sweep", "blast-radius", "--vary", "board_side=5..x"], env=env)
    assert bad.exit_code == 2 and "a range must look like" in bad.output


def test_sweep_command_refuses_a_target_its_games_cannot_reach(tmp_path: Path) -> None:
    app = load_commands()
    env = {"BOARDLAB_LAB_DB": f"sqlite:///{tmp_path}/lab.db"}
    base = ["sweep", "blast-radius", "--vary", "board_side=5,6", "--games", "4"]
    rate = CliRunner().invoke(app, [*base, "--target", "first-mover=1.5"], env=env)
    assert rate.exit_code == 2 and "between 0 and 1" in rate.output
    long = CliRunner().invoke(app, [*base, "--balanced", "median-length=100000"], env=env)
    assert long.exit_code == 2 and "must lie between 1 and" in long.output
    assert RunStore(env["BOARDLAB_LAB_DB"]).runs() == []  # nothing was played or stored
