"""``boardlab simulate`` (issue 2 §5 and the "Done when" check on Blast Radius side 5)."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from boardlab.cli.main import load_commands, split_agent_specs
from boardlab.lab import wilson_interval

app = load_commands()
runner = CliRunner()
KEYS = {"games", "wins", "draws", "mean_length", "median_length", "max_length", "capped"}


def test_blast_radius_side_5_matches_the_independent_statistics() -> None:
    # The check: first mover wins about 0.51, mean length about 46 plies (an independent
    # implementation, 1000 games). 0.51 must lie in our sample's 99% interval; the mean within 1.5 plies.
    args = ["simulate", "blast-radius", "--games", "1000", "--option", "board_side=5",
            "--agents", "random,random", "--seed", "1", "--json"]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    assert set(stats) >= KEYS
    assert stats["games"] == 1000 and stats["capped"] == 0 and stats["draws"] == 0
    assert sum(stats["wins"]) == 1000
    lo, hi = wilson_interval(stats["wins"][0], 1000, z=2.576)
    assert lo <= 0.51 <= hi, stats
    assert stats["first_mover_wins"] == stats["wins"][0]
    assert abs(stats["mean_length"] - 46) <= 1.5, stats
    assert stats["median_length"] <= stats["max_length"] <= 1220


def test_installed_command_prints_one_json_object() -> None:
    exe = pathlib.Path(sys.executable).parent / "boardlab"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "boardlab.cli.main"]
    proc = subprocess.run(
        [*cmd, "simulate", "blast-radius", "--games", "30", "--option", "board_side=5", "--seed", "4", "--json"],
        capture_output=True, text=True, timeout=60, env=dict(os.environ, NO_COLOR="1"),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    stats = json.loads(proc.stdout)  # exactly one JSON object on stdout, nothing else
    assert set(stats) >= KEYS and stats["games"] == 30


def test_workers_do_not_change_the_results() -> None:
    base = ["simulate", "blast-radius", "--games", "24", "--option", "board_side=5", "--seed", "7", "--json"]
    one = json.loads(runner.invoke(app, base).stdout)
    two = json.loads(runner.invoke(app, [*base, "--workers", "2"]).stdout)
    assert one == two


def test_human_readable_report() -> None:
    result = runner.invoke(app, ["simulate", "blast-radius", "-g", "20", "-o", "board_side=5", "--seed", "3"])
    assert result.exit_code == 0, result.output
    out = result.output
    for text in ("win rate", "95% CI", "draws: 0", "capped (stopped by the safety cap", "first mover wins",
                 "length in plies", "seed 3"):  # fmt: skip
        assert text in out, text


def test_per_game_details() -> None:
    result = runner.invoke(app, ["simulate", "blast-radius", "-g", "3", "-o", "board_side=5", "--json", "--per-game"])
    stats = json.loads(result.stdout)
    assert [g["index"] for g in stats["per_game"]] == [0, 1, 2]
    assert all(g["length"] > 0 and not g["capped"] for g in stats["per_game"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "nope"], "unknown game 'nope'"),
        (["simulate", "blast-radius", "--agents", "random,wizard"], "unknown agent 'wizard'"),
        (["simulate", "blast-radius", "--agents", "random,random,random"], "3 agents given for 2 seats"),
        (["simulate", "blast-radius", "--option", "pie=maybe"], "option 'pie'"),
        (["simulate", "blast-radius", "--games", "0"], "Invalid value for '--games'"),
        (["simulate", "blast-radius", "--agents", "random:depth=3"], "takes no parameters"),
    ],
)
def test_bad_input(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_split_agent_specs_keeps_parameters_together() -> None:
    assert split_agent_specs(["random,random"]) == ["random", "random"]
    assert split_agent_specs(["mcts:iterations=200,c=1.4,random"]) == ["mcts:iterations=200,c=1.4", "random"]
    assert split_agent_specs(["random", "mcts:iterations=5"]) == ["random", "mcts:iterations=5"]
