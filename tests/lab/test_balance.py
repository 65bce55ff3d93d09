"""The balance report (boardlab.lab.balance): statistics on games with known answers, the formats, the CLI."""

from __future__ import annotations

import json
import pathlib
import re

import balance_games  # noqa: F401  (registers the test games)
import pytest
from typer.testing import CliRunner

from boardlab.cli.main import load_commands
from boardlab.core.record import GameRecord
from boardlab.lab.balance import BalanceReport, balance, luck_share
from boardlab.lab.metrics import decisiveness, drama, lead_changes, probe_indices
from boardlab.lab.report import to_html, to_markdown

app = load_commands()
runner = CliRunner()


def test_a_coin_flip_gives_one_half_within_its_interval_and_all_luck() -> None:
    r = balance("test-coin", games=400, seed=3)
    fm = r.outcomes["first_mover"]
    lo, hi = fm["ci95"]
    assert fm["n"] == 400 and lo <= 0.5 <= hi and hi - lo < 0.1
    assert r.outcomes["wins"][0] + r.outcomes["wins"][1] == 400
    assert r.verdict.startswith("Balanced: the first player wins") and "n = 400, random vs random" in r.verdict
    # Each deal is played twice with the agents swapped; the coin alone decides, so chance explains everything.
    assert r.luck is not None and r.luck["groups"] == 200 and r.luck["share"] == pytest.approx(1.0)
    assert r.value_of_information is None  # nothing is hidden
    assert r.length["decision_moves"] == 0.0 and r.length["branching"] == 1.0  # "go" is no choice


def test_a_forced_first_player_win_gives_one_and_is_flagged() -> None:
    r = balance("test-forced", games=30, seed=1)
    fm = r.outcomes["first_mover"]
    assert fm["rate"] == 1.0 and fm["ci95"][1] == 1.0 and fm["ci95"][0] > 0.85
    assert r.luck is None  # no chance
    assert [f["kind"] for f in r.flags] == ["dominant"]
    assert r.verdict.startswith("A forced win: the first player wins 100%")
    assert r.length["decision_moves"] == 1.0 and r.length["branching"] == 2.0


def test_too_few_games_to_tell_is_said() -> None:
    r = balance("test-coin", games=12, seed=0)
    assert r.verdict.startswith("Too few games to tell")
    assert any("too few games to tell" in s for s in r.sentences)
    assert any("too few deals to rely on" in s for s in r.sentences)


def test_luck_is_none_of_the_outcome_when_the_die_is_ignored() -> None:
    r = balance("test-dice", games=200, seed=2, probe_points=0)
    assert r.luck is not None and r.luck["groups"] == 100
    assert r.luck["share"] is not None and r.luck["share"] < 0.1
    assert r.outcomes["draws"]["count"] > 0  # equal picks draw
    assert any("are draws" in s for s in r.sentences)
    # A third of the games are drawn: the first player wins a third of all games but half of those with a winner,
    # which is what the verdict weighs (no "second-player advantage").
    assert r.outcomes["first_mover"]["ci95"][1] < 0.45
    decided = r.outcomes["first_mover_decided"]
    assert decided["ci95"][0] <= 0.5 <= decided["ci95"][1]
    assert "of the games with a winner" in r.verdict and "Second-player" not in r.verdict


def test_luck_share_on_hand_made_groups() -> None:
    def game(group: int, returns: list[float]) -> dict:
        return {"group": group, "returns": returns, "capped": False}

    all_luck = [game(g, [s, -s]) for g in range(10) for s in [(-1) ** g] * 2]
    assert luck_share(all_luck, 2)["share"] == pytest.approx(1.0)
    no_luck = [game(g, r) for g in range(10) for r in ([1, -1], [-1, 1])]  # the agent in seat 0 decides
    assert luck_share(no_luck, 2)["share"] == pytest.approx(0.0)


def test_value_of_information_on_a_guessing_game() -> None:
    r = balance("test-guess", games=4, seed=5, voi_games=200, probe_points=0)
    voi = r.value_of_information
    assert voi is not None and voi["agent"] == "greedy" and voi["games"] == 200
    lo, hi = voi["score"]["ci95"]
    assert lo <= 0.75 <= hi and lo > 0.6, voi
    assert any(s.startswith("Seeing the hidden information, greedy scores") for s in r.sentences)


def test_tension_metrics_on_known_series() -> None:
    evals = [[0.8, 0.2], [0.6, 0.4], [0.0, 1.0]]
    assert lead_changes(evals) == 0.5  # the leader changes once in two steps
    assert lead_changes([[0.8, 0.2], [0.5, 0.5], [0.0, 1.0]]) == 1.0  # a tie is a change of the leading set
    assert drama(evals, [1]) == (0.2667, 0.6)  # the winner was 0.6 behind, then 0.2, then ahead
    assert drama(evals, [0]) == (0.3333, 1.0)
    assert decisiveness(evals, [1]) == 0.6667  # the loser reached 0.8; the winner passed it at the last third
    assert decisiveness([[0.3, 0.7], [0.0, 1.0]], [1]) == 0.0  # led from the start
    assert probe_indices(10, 4) == [0, 2, 5, 7]


def test_skill_ladder_shows_the_drift_on_nim() -> None:
    r = balance("test-nim", games=80, seed=4, ladder=["random", "greedy"])
    assert r.ladder is not None and [row["level"] for row in r.ladder] == ["random", "greedy"]
    by = {row["level"]: row for row in r.ladder}
    rnd = by["random"]["outcomes"]["first_mover"]
    assert rnd["ci95"][0] <= 0.25 <= rnd["ci95"][1]  # random play: the first player wins 1/4
    assert by["greedy"]["outcomes"]["first_mover"]["rate"] == 0.0  # good play: the second player always wins
    assert any(f["kind"] == "dominant" and "player 2" in f["text"] for f in by["greedy"]["flags"])
    # The random level of the ladder is the same run as a random report with the same seed.
    assert by["random"]["outcomes"] == r.outcomes
    md, page = to_markdown(r), to_html(r)
    assert "Skill ladder" in md and "| greedy |" in md
    assert page.count("data:image/png;base64,") == 2  # outcomes and the skill drift


def test_report_formats_and_samples() -> None:
    r = balance("test-nim", games=20, seed=1)
    data = json.loads(json.dumps(r.to_dict()))
    assert data["verdict"] == r.verdict and data["outcomes"]["finished"] == 20
    assert BalanceReport.from_dict(data).to_dict() == data
    md = to_markdown(r)
    assert md.startswith("# Balance: Nim of three (test game)\n\n**Verdict.** ")
    assert "| wins, first mover |" in md and "## Sample games" in md
    page = to_html(r)
    assert page.startswith("<!doctype html>") and "data:image/png;base64," in page
    assert not re.search(r"(src|href)=['\"]https?:", page)  # self-contained
    labels = [s["label"] for s in r.samples]
    assert "shortest win, player 1" in labels and "longest win, player 2" in labels
    for s in r.samples:
        record = GameRecord.from_dict(s["record"])
        state = record.replay()
        assert state.is_terminal() and state.move_number() == s["length"]
    wins1 = [s for s in r.samples if s["label"].endswith("player 1")]
    assert wins1[0]["length"] <= wins1[-1]["length"]


def test_bad_input_is_refused_before_playing() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        balance("no-such-game")
    with pytest.raises(ValueError, match="unknown agent"):
        balance("test-nim", agents=["nobody"])
    with pytest.raises(ValueError, match="unknown agent"):
        balance("test-nim", ladder=["random", "nobody"])
    with pytest.raises(ValueError, match="positive integer"):
        balance("test-nim", games=0)


def test_workers_do_not_change_the_report() -> None:
    kw = {"options": {"board_side": 5}, "games": 6, "seed": 9, "probe_points": 2}
    assert balance("blast-radius", **kw).to_dict() == balance("blast-radius", workers=2, **kw).to_dict()


def test_a_stored_run_resumes_to_the_same_report(tmp_path: pathlib.Path) -> None:
    url = f"sqlite:///{tmp_path / 'runs.db'}"
    first = balance("test-nim", games=10, seed=3, store=url)
    again = balance("test-nim", games=10, seed=3, store=url)  # every game comes from the store
    assert first.to_dict() == again.to_dict() == balance("test-nim", games=10, seed=3).to_dict()


def test_new_rules_planned_setup_is_flagged_as_degenerate() -> None:
    # docs/rules/new-rule.md: a team that places its setup pennies in one block wins on its first turn.
    r = balance("new-rule", agents=["new-rule-plan"], games=8, players=2, seed=0, probe_points=0)
    assert r.outcomes["team_wins"]["count"] == 8
    kinds = {f["kind"] for f in r.flags}
    assert kinds == {"dominant", "quick"}, r.flags
    assert r.verdict.startswith("Solved by planning: the team wins 100%")
    assert r.length["median_win"] is not None and r.length["median_win"] < 40
    plain = balance("new-rule", games=8, players=2, seed=0, probe_points=0)
    assert plain.outcomes["team_wins"]["count"] == 0 and plain.flags == []
    assert plain.verdict.startswith("A challenge: the team wins 0%")


def test_a_quick_win_in_self_play_is_worded_as_a_quick_game_between_equals() -> None:
    # Both seats play the same agent: a short game can be good play on both sides, and the flag says so; a mixed
    # lineup's quick win is a short cut. The reference length is given so that every game counts as quick.
    same = balance("test-nim", agents=["greedy"], games=6, seed=1, probe_points=0, reference_length=1000)
    mixed = balance("test-nim", agents=["greedy", "random"], games=6, seed=1, probe_points=0, reference_length=1000)
    [q1] = [f["text"] for f in same.flags if f["kind"] == "quick"]
    [q2] = [f["text"] for f in mixed.flags if f["kind"] == "quick"]
    assert q1.startswith("Games between greedy players are won in") and "good play settles this game" in q1
    assert q2.startswith("greedy vs random wins in") and q2.endswith("a short cut to victory.")
    assert q1 in same.sentences


def test_cli_writes_the_three_formats(tmp_path: pathlib.Path) -> None:
    args = ["balance", "test-nim", "--games", "20", "--seed", "2", "--ladder", "random,greedy", "--out", str(tmp_path)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].startswith(("Balanced", "Too few", "Second-player", "First-player"))
    data = json.loads((tmp_path / "test-nim.json").read_text())
    assert data["games"] == 20 and [row["level"] for row in data["ladder"]] == ["random", "greedy"]
    md = (tmp_path / "test-nim.md").read_text()
    assert data["verdict"] in md
    links = re.findall(r"\]\((samples/[^)]+)\)", md)
    assert links and all((tmp_path / link).is_file() for link in links)
    assert "data:image/png;base64," in (tmp_path / "test-nim.html").read_text()
    bad = runner.invoke(app, ["balance", "test-nim", "--agents", "nobody"])
    assert bad.exit_code == 2 and "error:" in bad.output and "unknown agent" in bad.output


def test_each_sample_game_is_linked_to_its_own_record(tmp_path: pathlib.Path) -> None:
    # The two comebacks share a label ("comeback (1.00 behind)"): each still links to its own record file.
    result = runner.invoke(app, ["balance", "test-nim", "--games", "20", "--seed", "2", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "test-nim.json").read_text())
    labels = [s["label"] for s in data["samples"]]
    assert len(set(labels)) < len(labels)  # the case in point
    md = (tmp_path / "test-nim.md").read_text()
    linked = re.findall(r"^- \[([^\]]+)\]\((samples/[^)]+)\): game (\d+), (\d+) actions$", md, re.M)
    assert len(linked) == len(data["samples"])
    assert len({link for _, link, _, _ in linked}) == len(linked)  # one file per sample
    assert sorted(link for _, link, _, _ in linked) == sorted(
        f"samples/{p.name}" for p in (tmp_path / "samples").iterdir()
    )  # and every file written is linked
    for (label, link, index, length), sample in zip(linked, data["samples"], strict=True):
        assert (label, int(index), int(length)) == (sample["label"], sample["index"], sample["length"])
        assert json.loads((tmp_path / link).read_text()) == sample["record"]
