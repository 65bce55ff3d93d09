"""The games' own random playouts (``State.play_random`` overrides, the search agents' rollouts).

Blast Radius, Trivalent and Radius play whole stretches of a random game in
one loop over their own tables. These property tests, over seeds, positions
and ply limits, check that such a loop is the core's playout: the same random
numbers give the same moves (each one a legal move, as a replay through the
public, checked API shows), the state it leaves has every table the ordinary
moves would have built, and the game ends with the same returns. A test of the
move distribution checks that every legal move is equally likely.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardlab
from boardlab.core.game import State

#: The games with their own playout, under the options their loops treat differently.
CASES: list[tuple[str, dict[str, Any]]] = [
    ("blast-radius", {"board_side": 5}),
    ("blast-radius", {"pie": True}),
    ("trivalent", {}),
    ("trivalent", {"pie": False, "triple": "star"}),
    ("trivalent", {"column_rule": "off"}),
    ("trivalent", {"column_rule": "global"}),
    ("radius", {}),
    ("radius", {"end_rule": "mover_blocked", "board_side": 4}),
    ("radius", {"first_mover": "second_placer", "scoring": "connected_stones", "tie_break": True}),
]


def tables(s: State) -> dict[str, Any]:
    """Every attribute of the state but the game and per-decision caches, in comparable form."""
    out: dict[str, Any] = {}
    for k, v in vars(s).items():
        if k in ("game", "_legal"):
            continue
        if isinstance(v, bytearray):
            v = list(v)
        elif isinstance(v, list) and v and isinstance(v[0], list) and v[0] and isinstance(v[0][0], set):
            v = [[sorted(c) for c in row] for row in v]  # Blast Radius's stacks: sets per height
        elif isinstance(v, set):
            v = sorted(v)
        out[k] = v
    return out


def position(game: boardlab.Game, seed: int, moves: int) -> State:
    """A position ``moves`` random moves into a seeded game (or its end)."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    for _ in range(moves):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=lambda x: str(x))
@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 120), plies=st.one_of(st.integers(1, 40), st.just(10**6)))
def test_own_playout_is_the_core_playout(game_id: str, options: dict, seed: int, moves: int, plies: int) -> None:
    game = boardlab.make(game_id, **options)
    assert type(game.new_initial_state()).play_random is not State.play_random
    s = position(game, seed, moves)
    mine, ref = s.clone(), s.clone()
    played = mine.play_random(random.Random(seed).random, plies)
    assert played == State.play_random(ref, random.Random(seed).random, plies)
    assert mine.history() == ref.history()
    assert tables(mine) == tables(ref)
    assert played == plies or mine.is_terminal()
    # Every move was legal: the checked API replays them, to the same position and the same returns.
    replay = s.clone()
    for a in mine.history()[s.move_number() :]:
        assert a in replay.legal_actions()
        replay.apply_action(a)
    assert tables(replay) == tables(mine)
    if mine.is_terminal():
        assert replay.is_terminal() and replay.returns() == mine.returns()
    else:  # and the state it leaves plays on like any other
        assert mine.legal_actions() == replay.legal_actions()
        mine.play_random(random.Random(seed + 1).random, 10**6)
        replay.play_random(random.Random(seed + 1).random, 10**6)
        assert mine.history() == replay.history() and mine.returns() == replay.returns()


#: Where each game's own loop takes over at once (elsewhere it plays the ordinary way first).
FAST_HERE = {
    "blast-radius": lambda s: True,
    "trivalent": lambda s: not s.placed and not s.swap_available(),
    "radius": lambda s: s.phase == "pawn",
}


@pytest.mark.parametrize("game_id", list(FAST_HERE))
def test_own_playout_draws_every_legal_move_equally_often(game_id: str) -> None:
    """The first and second moves of playouts from one position, over 2,000 seeds: each legal move turns up
    about equally often (within 5 standard deviations of the uniform count). The position is one where the
    game's own loop starts at once (the start of a turn, with a choice) and the playouts are 8 plies, so the
    moves counted are the loop's."""
    game = boardlab.make(game_id)
    s = position(game, 5, 12)
    while len(s.legal_actions()) < 2 or not FAST_HERE[game_id](s):
        s.apply_action(s.legal_actions()[0])
    legal = s.legal_actions()
    firsts: Counter[int] = Counter()
    seconds: Counter[tuple[int, int]] = Counter()
    runs = 2000
    for seed in range(runs):
        c = s.clone()
        c.play_random(random.Random(seed).random, 8)
        h = c.history()[s.move_number() :]
        firsts[h[0]] += 1
        seconds[(h[0], h[1])] += 1
    assert set(firsts) == set(legal)
    expected = runs / len(legal)
    for a in legal:
        assert abs(firsts[a] - expected) < 5 * (expected * (1 - 1 / len(legal))) ** 0.5, (a, firsts[a], expected)
    top = firsts.most_common(1)[0][0]  # the second move after the most frequent first move
    after = s.clone()
    after.apply_action(top)
    second_legal = after.legal_actions()
    counts = [seconds[(top, b)] for b in second_legal]
    assert sum(counts) == firsts[top]
    exp2 = firsts[top] / len(second_legal)
    for b, k in zip(second_legal, counts, strict=True):
        assert abs(k - exp2) < 5 * (exp2 * (1 - 1 / len(second_legal))) ** 0.5 + 1, (b, k, exp2)
