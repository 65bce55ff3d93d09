"""Posies and Hamlet on core/phases.py: action numbers, what each viewer's move log shows, and resample.

(The rules scenarios are tests/games/test_posies.py and test_hamlet.py, unchanged.)
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import boardlab
from boardlab.core import hidden
from boardlab.core.constants import CHANCE
from boardlab.core.wording import for_players
from boardlab.games.hamlet import DRAW, LOCK, TRADE, C, H, L, O
from boardlab.games.posies import COLOURS, PosiesState
from state_checks import random_step


def texts(state: boardlab.State, viewer: int | None) -> list[str]:
    """The log as a table with no names for its seats reads it."""
    return [for_players(line["text"]) for line in state.move_log(viewer)]


# -- Hamlet ------------------------------------------------------------------------------------------


def test_hamlet_action_numbers_and_phases() -> None:
    game = boardlab.make("hamlet", first="seat0")
    assert game.num_distinct_actions() == 3
    assert [game.action_space.label(a) for a in range(3)] == ["lock", "trade", "draw"]
    s = game.new_initial_state()
    assert s.phase == "deal" and s.action_to_string(CHANCE, H) == "Hamlet"
    for a in (H, C):
        s.apply_action(a)
    assert s.phase == "first" and s.legal_moves() == [(LOCK, "lock"), (TRADE, "trade"), (DRAW, "draw")]
    s.apply_action(LOCK)
    assert s.phase == "second" and s.legal_actions() == [LOCK, DRAW]
    coin = boardlab.make("hamlet").new_initial_state()
    assert coin.phase == "coin" and coin.action_to_string(CHANCE, 1) == "seat 1 goes first"


def test_hamlet_locks_and_draws_are_public_deals_and_draws_private() -> None:
    s = boardlab.make("hamlet", first="seat0").state_from_history([H, C, DRAW, O])
    assert texts(s, None) == [
        "dealt a card to Player 1",
        "dealt a card to Player 2",
        "chose to draw",
        "Player 1 drew a card",
    ]
    assert texts(s, 0)[0] == "dealt Hamlet to Player 1" and texts(s, 0)[3] == "Player 1 drew Ophelia"
    assert texts(s, 1)[1] == "dealt Claudius to Player 2" and texts(s, 1)[3] == "Player 1 drew a card"
    assert not any("cannot see" in t for v in (0, 1, None) for t in texts(s, v))
    s.apply_action(LOCK)  # the second player locks: both cards are shown to everyone (§4d)
    reveal = "locked; Player 1 showed Ophelia, Player 2 showed Claudius: Player 2 wins the round"
    assert all(texts(s, v)[-1] == reveal for v in (0, 1, None))


def test_hamlet_trade_shows_each_seat_what_it_saw() -> None:
    s = boardlab.make("hamlet", first="seat0").state_from_history([L, O, TRADE])
    both = "traded: Player 1 now holds Ophelia, Player 2 holds Laertes"
    assert texts(s, 0)[-1] == both and texts(s, 1)[-1] == both
    assert texts(s, None)[-1] == "traded cards"


@pytest.mark.parametrize(
    ("history", "viewers"),
    [([H, C, DRAW, O, LOCK], (0, 1)), ([L, O, TRADE, DRAW], (0, 1)), ([H, C, LOCK], (None,))],
)
def test_hamlet_resample_override_draws_what_the_core_default_draws(
    history: list[int], viewers: tuple[int | None, ...]
) -> None:
    s = boardlab.make("hamlet", first="seat0").state_from_history(history)
    rng = random.Random(5)
    for viewer in viewers:
        ours = Counter(tuple(s.resample(viewer, rng).history()) for _ in range(300))
        core = Counter(tuple(hidden.resample(s, viewer, rng).history()) for _ in range(300))
        assert set(ours) == set(core), viewer
        for h in ours:  # the same worlds, equally often (a loose bound: 300 draws each)
            assert abs(ours[h] - core[h]) < 0.1 * 300 + 4 * (core[h] ** 0.5), (viewer, h)


# -- Posies ------------------------------------------------------------------------------------------


def test_posies_action_numbers_are_points() -> None:
    for board in ("t51", "h51"):
        game = boardlab.make("posies", board=board)
        t = game.tables
        assert game.num_distinct_actions() == t.n
        assert [game.action_space.label(i) for i in range(t.n)] == list(t.labels)


def test_posies_log_summarises_the_deal_and_keeps_draws_private() -> None:
    game = boardlab.make("posies", variant="hidden_colour")
    s = game.new_initial_state()
    rng = random.Random(2)
    while s.move_number() < len(game.tables.playable) + 3:
        random_step(s, rng)
    assert isinstance(s, PosiesState)
    drawn = [COLOURS[c] for c in s.hidden]
    assert texts(s, None)[:3] == [
        "The board was dealt.",
        "Player 1 drew a posy in secret",
        "Player 2 drew a posy in secret",
    ]
    assert texts(s, 0)[1:3] == [f"Player 1 drew {drawn[0]}", "Player 2 drew a posy in secret"]
    assert texts(s, 1)[1:3] == ["Player 1 drew a posy in secret", f"Player 2 drew {drawn[1]}"]
    assert s.move_log(None)[0]["steps"] == len(game.tables.playable)
    base = boardlab.make("posies").new_initial_state()
    while base.move_number() < len(game.tables.playable) + 1:
        random_step(base, rng)
    assert texts(base, None)[0] == "The board was dealt." and len(texts(base, None)) == 2


def test_posies_resample_keeps_the_real_history_and_matches_the_core_default() -> None:
    game = boardlab.make("posies", variant="hidden_colour")
    s = game.new_initial_state(3)
    rng = random.Random(4)
    while s.move_number() < len(game.tables.playable) + 5:
        random_step(s, rng)
    before = s.history()
    for viewer in (0, None):
        ours = Counter(tuple(s.resample(viewer, rng).hidden) for _ in range(300))
        core = Counter(tuple(hidden.resample(s, viewer, rng).hidden) for _ in range(300))
        assert set(ours) == set(core)
        for h in ours:
            assert abs(ours[h] - core[h]) < 0.1 * 300 + 4 * (core[h] ** 0.5), (viewer, h)
    r = s.resample(1, rng)
    assert s.history() == before  # the real game's history is never touched
    replayed = game.state_from_history(r.history(), 3)  # the copy's own history replays to it
    assert replayed.hidden == r.hidden and replayed.observation(1) == s.observation(1)
