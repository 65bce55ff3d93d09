"""``boardlab strength``: the measurement end to end at tiny budgets, and what it writes into docs/ai."""

from __future__ import annotations

import pathlib
import time

import pytest
from minigames import KuhnGame, TeamGame
from typer.testing import CliRunner

from boardlab.agents import level_ratings
from boardlab.agents.cheating import CheatingMCTS
from boardlab.agents.strength import BEGIN, END, measure_strength, strength_markdown, write_strength
from boardlab.cli.main import load_commands
from boardlab.core.view import SeatView


def test_the_command_measures_a_game_and_writes_its_table_between_markers(tmp_path: pathlib.Path) -> None:
    notes = tmp_path / "blast-radius.md"
    notes.write_text("# Blast Radius: AI strength\n\nIntro prose.\n\n## Older runs\n\n| easy | `x` | +999 | |\n")
    args = ["strength", "blast-radius", "-o", "board_side=5", "--levels", "easy", "--games", "2"]
    result = CliRunner().invoke(load_commands(), [*args, "--write", "--docs", str(tmp_path)])
    assert result.exit_code == 0, result.output
    text = notes.read_text()
    assert text.startswith("# Blast Radius: AI strength\n\nIntro prose.\n") and "## Older runs" in text
    assert text.index(BEGIN) < text.index(END) < text.index("## Older runs")
    assert "boardlab strength blast-radius --levels easy --games 2" in text
    assert "No chance and no hidden information" in text
    ratings = level_ratings("blast-radius", docs=tmp_path)
    assert set(ratings) == {"easy"} and ratings["easy"] != 999  # the new table is the one read
    # a second run replaces the block, prose and older tables stay
    again = CliRunner().invoke(load_commands(), [*args, "--seed", "2", "--write", "--docs", str(tmp_path)])
    assert again.exit_code == 0, again.output
    text2 = notes.read_text()
    assert text2.count(BEGIN) == 1 and "--seed 2" in text2 and "## Older runs" in text2


def test_bad_levels_are_refused() -> None:
    result = CliRunner().invoke(load_commands(), ["strength", "blast-radius", "--levels", "easy,godlike"])
    assert result.exit_code != 0 and "godlike" in result.output


def test_hidden_information_gets_a_ceiling_and_hard_its_interval() -> None:
    report = measure_strength(KuhnGame(), ["easy"], games=2, seed=3, target="easy")
    assert report.target_vs_random is not None and report.target_vs_random.games == 2
    assert report.ceiling is not None and report.ceiling.games == 2
    lo, hi = report.ceiling.ci95
    assert 0.0 <= lo <= report.ceiling.rate <= hi <= 1.0
    block = strength_markdown(report)
    assert "**Easy against random:**" in block and "**Ceiling**" in block and "`easy`'s budget" in block


def test_the_cheating_agent_reads_the_true_state() -> None:
    """Kuhn poker: holding the Queen against a bet, the seer calls the Jack and folds to the King."""
    game = KuhnGame()
    chosen = {}
    for theirs in (0, 2):
        state = game.new_initial_state(2)
        state.apply_action(theirs)  # seat 0's card
        state.apply_action(1)  # seat 1 holds the Queen
        state.apply_action(1)  # seat 0 bets
        chosen[theirs] = CheatingMCTS(game, 1, 5, iterations=200).step(SeatView(state, 1))
    assert chosen == {0: 1, 2: 0}  # call the Jack, fold to the King


def test_write_strength_adds_the_block_to_a_file_without_sections(tmp_path: pathlib.Path) -> None:
    p = tmp_path / "x.md"
    p.write_text("# X\n\nprose\n")
    write_strength(p, f"{BEGIN}\nT\n{END}")
    assert p.read_text() == f"# X\n\nprose\n\n{BEGIN}\nT\n{END}\n"


def test_a_co_operative_game_reports_win_rates_per_player_count() -> None:
    report = measure_strength(TeamGame(), ["easy"], games=2, seed=1, players=[2])
    assert list(report.win_rates) == [2]
    easy, rnd = report.win_rates[2]["easy"], report.win_rates[2]["random"]
    assert easy.points == easy.games == 2  # both pick 2: found by the search every time
    assert rnd.games == 2 and report.target_vs_random is None and report.ceiling is None
    block = strength_markdown(report)
    assert "| 2 | easy | `mcts:plies=1500,seconds=0.25,clock=cpu` | 2 of 2 | 1.000 |" in block


def test_the_levels_caps_count_cpu_seconds_and_the_table_says_so() -> None:
    report = measure_strength(KuhnGame(), ["easy", "expert"], games=2, seed=1, target="easy", cpu_clock=True)
    assert set(report.tournament["agents"]) == {"random", "easy", "expert"}
    block = strength_markdown(report)
    assert "| expert | `mcts:plies=250000,seconds=3,clock=cpu` |" in block
    assert "capped by CPU seconds a move (`easy` 0.25 s, `medium` 0.5 s, `hard` 1.5 s, `expert` 3 s" in block
    assert "load average" in block


def test_the_mcts_clock_is_wall_or_cpu() -> None:
    from boardlab.agents.base import make_agent
    from boardlab.games import make_cached

    game = make_cached("blast-radius")
    assert make_agent("mcts:seconds=0.01,clock=cpu", game, 0, seed=1).clock is time.process_time
    assert make_agent("mcts:seconds=0.01", game, 0, seed=1).clock is time.perf_counter
    assert all(make_agent(level, game, 0, seed=1).clock is time.process_time for level in ("easy", "expert"))
    with pytest.raises(ValueError, match="clock must be one of wall, cpu"):
        make_agent("mcts:clock=sundial", game, 0, seed=1)


def test_a_hidden_information_game_without_its_ceiling_is_not_called_perfect_information(
    tmp_path: pathlib.Path,
) -> None:
    # Two Mayors hides information; run without the ceiling, the block must not call it a game of perfect
    # information (and the command on file says the ceiling was left out).
    args = ["strength", "two-mayors", "--levels", "easy", "--games", "2", "--no-ceiling", "--write"]
    result = CliRunner().invoke(load_commands(), [*args, "--docs", str(tmp_path)])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "two-mayors.md").read_text()
    assert "perfect information" not in text
    assert "**Ceiling:** not measured in this run (`--no-ceiling`). The game hides information" in text
    assert "boardlab strength two-mayors --levels easy --games 2 --seed 1 --no-ceiling" in text
    report = measure_strength(KuhnGame(), ["easy"], games=2, seed=3, target="easy", ceiling=False)
    assert report.ceiling is None and report.hidden and report.chance
    assert "what caps them is what they cannot see and the draws still to come." in strength_markdown(report)


def test_docs_ai_never_calls_a_hidden_information_game_perfect_information() -> None:
    from boardlab.games import games, make_cached

    docs = pathlib.Path(__file__).resolve().parents[2] / "docs" / "ai"
    for g in games():
        if not make_cached(g).perfect_information:
            block = (docs / f"{g}.md").read_text(encoding="utf-8").partition(BEGIN)[2].partition(END)[0]
            assert "perfect information" not in block, g
