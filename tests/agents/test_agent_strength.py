"""Playing strength, with exact binomial confidence bounds rather than luck.

Every game is seeded; seats alternate. A claim "wins at least a fraction q" is
tested one-sidedly: the exact (Clopper–Pearson) 95% lower bound on the win rate
must reach q. With every game won that takes 29 games for q = 0.9
(0.05 ** (1 / 29) = 0.902), so the ``hard`` test plays 30, in three chunks that
pytest-xdist can spread over workers; each chunk must win all its games, and
together they carry the bound. ``docs/ai/blast-radius.md`` records a longer run.
"""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.agents import make_agent
from boardlab.core.play import play_game
from boardlab.lab.stats import binomial_lower_bound


def match(game: boardlab.Game, spec: str, other: str, games: int, seed: int) -> tuple[int, int]:
    """``spec`` against ``other``, seats alternated; returns (wins of ``spec``, games)."""
    wins = 0
    for i in range(games):
        me = i % 2
        seats = [other, other]
        seats[me] = spec
        agents = [make_agent(s, game, p, seed * 1000 + 10 * i + p) for p, s in enumerate(seats)]
        state, capped = play_game(game.new_initial_state(), agents, random.Random(seed * 1000 + i))
        assert not capped
        wins += state.returns()[me] > 0
    return wins, games


HARD_CHUNKS = 3
HARD_GAMES = 10


def test_thirty_straight_wins_bound_the_rate_above_ninety_percent() -> None:
    total = HARD_CHUNKS * HARD_GAMES
    assert binomial_lower_bound(total, total, 0.95) >= 0.9
    assert binomial_lower_bound(total - 1, total, 0.95) < 0.9  # so every game must be won


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(HARD_CHUNKS))
def test_hard_wins_blast_radius_against_random(chunk: int) -> None:
    """``hard`` wins at least 90% of Blast Radius games (board side 5) against ``random``."""
    game = boardlab.make("blast-radius", board_side=5)
    wins, games = match(game, "hard", "random", HARD_GAMES, seed=100 + chunk)
    assert wins == games, f"hard won {wins} of {games}: the 30-game bound needs every game"


@pytest.mark.skipif("dragon-fight" not in boardlab.games(), reason="Dragon Fight has not landed")
def test_mcts_beats_random_clearly_in_dragon_fight() -> None:
    wins, games = match(boardlab.make("dragon-fight"), "mcts:iterations=100", "random", 12, seed=7)
    assert binomial_lower_bound(wins, games, 0.95) > 0.6, f"{wins} wins of {games}"


def test_mcts_beats_greedy() -> None:
    """On the Blast Radius board of side 5: better than even, at 95% confidence (10 wins of 12 or more)."""
    wins, games = match(boardlab.make("blast-radius", board_side=5), "mcts:iterations=300", "greedy", 12, seed=9)
    assert binomial_lower_bound(wins, games, 0.95) > 0.5, f"{wins} wins of {games}"
