"""``boardlab strength`` sequential pairings and stored games, and what the level menu reads from the result.

A sequential pairing stops as soon as its head-to-head interval excludes an even score (never before, and never
later than the first whole round where it does), else at its cap; stored games are reused, not played again; the
head-to-head table it writes is what decides which Elo figures the lobby shows and the words it gives where the
games do not tell levels apart.
"""

from __future__ import annotations

import json
import pathlib

import pytest
from minigames import DuelGame

from boardlab.agents import LEVELS, level_figures, level_head_to_head, level_note
from boardlab.agents.strength import (
    GameStore,
    head_to_head,
    measure_strength,
    play_pairing,
    separated,
    strength_markdown,
    write_strength,
)


@pytest.fixture(autouse=True)
def small_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Levels of a few dozen plies: the tiny game needs no more, and the tests stay quick on a loaded machine."""
    for level, plies in (("easy", 40), ("medium", 60), ("hard", 80), ("expert", 100)):
        monkeypatch.setitem(LEVELS, level, {"plies": str(plies), "seconds": "0.25", "clock": "cpu"})


def test_a_lopsided_pairing_stops_at_the_first_round_that_separates_it() -> None:
    game = DuelGame()  # easy picks 2 and steals ties; random loses most games
    results, pr = play_pairing(game, ("random", "easy"), 2, seed=1, games=2, max_games=40, confidence=0.99)
    assert pr.stopped == "separated" and pr.games == len(results) < 40 and pr.games % 2 == 0
    assert separated(pr.points, pr.games, 0.99) and pr.verdict() == "yes"
    for k in range(2, pr.games, 2):  # no earlier whole round was separated already
        assert not separated(*head_to_head(results[:k], "random", "easy"), 0.99), k
    assert [r.seats for r in results[:2]] == [["random", "easy"], ["easy", "random"]]  # seats alternated


def test_an_even_pairing_plays_to_its_cap_and_says_so() -> None:
    game = DuelGame()  # two searches both pick 2, and seat 1 steals the tie: each wins exactly its seat-1 games
    results, pr = play_pairing(game, ("easy", "medium"), 2, seed=1, games=2, max_games=12, confidence=0.99)
    assert (pr.stopped, pr.games, pr.points) == ("cap", 12, 6.0) and pr.verdict() == "no"
    fixed, fpr = play_pairing(game, ("easy", "medium"), 2, seed=1, games=4)
    assert (fpr.stopped, fpr.games) == ("fixed", 4)
    assert [r.returns for r in fixed] == [r.returns for r in results[:4]]  # game i is the same game either way


def test_stored_games_are_reused_and_a_longer_run_plays_on_from_them(tmp_path: pathlib.Path) -> None:
    game, store = DuelGame(), GameStore(tmp_path / "games" / "duel.jsonl")
    first, pr1 = play_pairing(game, ("easy", "medium"), 2, seed=3, games=4, store=store)
    assert pr1.reused == 0 and len(store.path.read_text().splitlines()) == 4
    again, pr2 = play_pairing(game, ("easy", "medium"), 2, seed=3, games=2, max_games=8, store=store)
    assert pr2.reused == 4 and pr2.games == 8 and len(store.path.read_text().splitlines()) == 8
    assert [r.returns for r in again[:4]] == [r.returns for r in first]
    only, pr3 = play_pairing(game, ("easy", "medium"), 2, seed=3, games=2, max_games=20, store=store, play_new=False)
    assert (pr3.stopped, pr3.games, pr3.reused) == ("stored", 8, 8) and [r.returns for r in only] == [
        r.returns for r in again
    ]
    # another seed, or another budget, is another key: nothing of these is reused
    _, other = play_pairing(game, ("easy", "medium:plies=900"), 2, seed=3, games=2, store=store)
    assert other.reused == 0
    row = json.loads(store.path.read_text().splitlines()[-1])
    assert row["key"]["budgets"][1].startswith("mcts:plies=60,") and row["key"]["budgets"][1].endswith(",plies=900")
    assert row["game"]["cpu_seconds"] >= 0


def test_the_written_block_decides_the_figures_and_the_menu_s_words(tmp_path: pathlib.Path) -> None:
    game = DuelGame()
    report = measure_strength(game, ["easy", "medium"], games=2, seed=1, max_games=40, store=tmp_path / "g.jsonl")
    report.command = "boardlab strength test-duel --levels easy,medium --games 2 --max-games 40 --store"
    block = strength_markdown(report)
    assert "until the 99% interval of its head-to-head score excluded an even score" in block
    assert (
        "| `medium` against `easy` | 40 | 0.500 (20 of 40) | 0.352–0.648 | no | cap |" in block
        and "CPU minutes" in block in block
    )
    write_strength(tmp_path / "test-duel.md", block)
    rows = level_head_to_head("test-duel", docs=tmp_path)
    assert rows[("medium", "easy")] == (0.5, 40, 0.352, 0.648) and rows[("easy", "random")][2] > 0.5
    # easy is told apart from random but not from medium: no figure; the menu says the two play alike
    assert level_figures("test-duel", docs=tmp_path) == {}
    assert level_note("test-duel", docs=tmp_path) == (
        "Easy and medium play about alike here (40 measured games, no clear winner)."
    )


BLOCK = """# X

<!-- strength:begin (written by `boardlab strength`) -->
| pairing | games | score | 95% CI | told apart | stopped |
|---------|------:|------:|-------:|------------|---------|
| `easy` against `random` | {n} | 0.950 (19 of 20) | {easy} | yes | separated |
| `medium` against `easy` | 40 | 0.800 (32 of 40) | 0.652–0.895 | yes | separated |
| `hard` against `medium` | 60 | 0.450 (27 of 60) | 0.330–0.576 | no | cap |
| `hard` against `random` | 60 | {hard} | {hardci} | no | cap |

| level | spec | Elo | Elo 95% CI | score | score 95% CI |
|-------|------|----:|-----------:|------:|-------------:|
| random | `random` | +0 | anchor | 0.1 | 0–1 |
| easy | `e` | +300 | -100 … +700 | 0.5 | 0–1 |
| medium | `m` | +540 | -100 … +1100 | 0.5 | 0–1 |
| hard | `h` | +505 | -100 … +1100 | 0.5 | 0–1 |
<!-- strength:end -->

| level | spec | Elo | Elo 95% CI |
|-------|------|----:|-----------:|
| easy | `e` | +900 | +890 … +910 |
"""


def test_figures_follow_the_head_to_head_games_not_the_ratings_intervals(tmp_path: pathlib.Path) -> None:
    (tmp_path / "x.md").write_text(
        BLOCK.format(n=20, easy="0.764–0.991", hard="0.917 (55 of 60)", hardci="0.819–0.964"), encoding="utf-8"
    )
    # the Elo intervals overlap, but easy and medium each beat the level below; hard did not beat medium
    assert level_figures("x", docs=tmp_path) == {"easy": 300.0}
    assert level_note("x", luck=True, docs=tmp_path) == (
        "Medium and hard play about alike here (60 measured games, no clear winner)."
    )


LUCK = """<!-- strength:begin (written by `boardlab strength`) -->
| pairing | games | score | 95% CI | told apart | stopped |
|---------|------:|------:|-------:|------------|---------|
| `easy` against `random` | 100 | 0.590 (59 of 100) | 0.492–0.681 | no | cap |
| `medium` against `easy` | 100 | 0.500 (50 of 100) | 0.404–0.596 | no | cap |
| `hard` against `medium` | 56 | 0.482 (27 of 56) | 0.357–0.610 | no | budget |
| `expert` against `hard` | 6 | 0.500 (3 of 6) | 0.188–0.812 | no | budget |
| `hard` against `random` | 78 | {hard} | {hardci} | yes | budget |

| level | spec | Elo | Elo 95% CI | score | score 95% CI |
|-------|------|----:|-----------:|------:|-------------:|
| easy | `e` | +60 | -10 … +130 | 0.5 | 0–1 |
<!-- strength:end -->
"""


def test_where_luck_caps_every_level_and_none_beats_the_one_below_the_menu_says_luck_decides(
    tmp_path: pathlib.Path,
) -> None:
    (tmp_path / "x.md").write_text(LUCK.format(hard="0.622 (48.5 of 78)", hardci="0.511–0.721"), encoding="utf-8")
    assert level_figures("x", docs=tmp_path) == {}
    assert level_note("x", luck=True, docs=tmp_path) == (
        "In this game luck decides more than skill: hard won 62% of 78 measured games against random moves, "
        "and no level clearly beat the level below it (6 to 100 games a pairing)."
    )
    # without luck the same games say only which levels were not told apart, pair by pair
    note = level_note("x", luck=False, docs=tmp_path)
    assert note.startswith("Easy and random moves play about alike here (100 measured games, no clear winner).")
    assert note.endswith("Hard and expert: not told apart yet (6 measured games).")
    # a strongest level that surely wins more than the cap against random: the game is not called one of luck
    (tmp_path / "x.md").write_text(LUCK.format(hard="0.900 (70 of 78)", hardci="0.810–0.950"), encoding="utf-8")
    assert not level_note("x", luck=True, docs=tmp_path).startswith("In this game luck")


def test_the_stored_games_alone_make_a_table_even_where_a_pairing_has_none(tmp_path: pathlib.Path) -> None:
    game, path = DuelGame(), tmp_path / "g.jsonl"
    play_pairing(game, ("random", "easy"), 2, seed=1, games=6, store=GameStore(path))
    report = measure_strength(game, ["easy", "hard"], games=2, seed=1, max_games=20, store=path, play_new=False)
    assert [(p.stronger, p.games, p.stopped) for p in report.pairs] == [
        ("easy", 6, "stored"),
        ("hard", 0, "stored"),
        ("hard", 0, "stored"),
    ]
    assert report.ceiling is None and report.target_vs_random is None  # nothing was played
    block = strength_markdown(report)
    assert "| `hard` against `easy` | 0 | – | – | not played | stored | – |" in block
    assert len(path.read_text().splitlines()) == 6


def test_a_pairing_s_cpu_budget_stops_it_at_a_whole_round_and_the_store_plays_on_later(tmp_path: pathlib.Path) -> None:
    game, store = DuelGame(), GameStore(tmp_path / "g.jsonl")
    _, pr = play_pairing(game, ("easy", "medium"), 2, seed=1, games=2, max_games=40, store=store, cpu_budget=0.0)
    assert (pr.stopped, pr.games) == ("budget", 2)  # the fewest games, then the spent budget stops it
    _, more = play_pairing(game, ("easy", "medium"), 2, seed=1, games=2, max_games=6, store=store, cpu_budget=60.0)
    assert (more.stopped, more.games, more.reused) == ("cap", 6, 2)
