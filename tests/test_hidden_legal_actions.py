"""Conformance: a seat's legal actions depend only on what it knows (defects issue, item 11).

For every game with hidden information (the registry's and the worked example's; a game that hides something only
under an option value, with that value): along random games from several seeds, at decisions spread over each game,
worlds the deciding seat cannot tell from the true one offer that seat the same legal actions. The worlds come from
two samplers: the core's resample (``core/hidden.py``), which keeps every step the seat saw and redraws the rest
among the steps that would have shown it the same, knowing nothing of legal moves; and the game's own
(``SeatView.resample``, what agents search), which a game may write faster and which must not hide a leak by
drawing only the worlds that agree with it. A world that shows the seat another observation is a different bug
(test_conformance.py), asserted here too.

The core's search grows with the history: it is bounded (``BUDGET``), a search that gives up is skipped, and the
check asks that some redrawn world was compared wherever something was hidden from the deciding seat. A random
Triad game has only about two decisions where a leak through its legal moves could show (an unrevealed enemy unit
beside a loaded Defence Centre), so a slow part checks every decision of two whole games (under a minute);
it catches the leak of Triad's rules version 1 (no shot at a submerged Submarine, §8 of docs/rules/triad.md), which
tests/games/test_triad.py pins down.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import boardlab
from boardlab.core import hidden
from boardlab.core.constants import SIMULTANEOUS
from boardlab.core.view import SeatView
from example_games import EXAMPLE_GAMES
from state_checks import random_step

#: The core's search: candidates tried per world before it gives up (then the world is skipped).
BUDGET = 2_000
#: Random games per case and player count, decisions checked per game (spread over it), worlds drawn per decision.
SEEDS = (0, 1, 2)
DECISIONS = 10
WORLDS = 2
#: Games whose decisions are many and whose core search is slow (long games): besides the check above, a slow part
#: checks every decision of the games of these seeds, with this many worlds each.
EVERY_DECISION: dict[str, tuple[tuple[int, ...], int]] = {"triad": ((0, 1), 4)}


def hidden_cases() -> list[tuple[str, dict[str, Any]]]:
    """Every game that hides something at its defaults, and every game that hides something only under an option
    value, with that value."""
    out = []
    for game_id in boardlab.games() + EXAMPLE_GAMES:
        if not boardlab.make(game_id).perfect_information:
            out.append((game_id, {}))
            continue
        for opt in boardlab.make(game_id).options:
            values = [v for v in opt.allowed or () if v != opt.default]
            out += [
                (game_id, {opt.name: v})
                for v in values
                if not boardlab.make(game_id, **{opt.name: v}).perfect_information
            ]
    return out


def cases() -> list[Any]:
    out = []
    for game_id, options in hidden_cases():
        for sampler in ("core", "own"):
            out.append(pytest.param(game_id, options, sampler, id=f"{game_id}-{options}-{sampler}"))
        if game_id in EVERY_DECISION and not options:
            slow = pytest.mark.slow
            out.append(pytest.param(game_id, options, "core-every", marks=slow, id=f"{game_id}-core-every-decision"))
    return out


def deciders(s: boardlab.State) -> list[int]:
    """The seats that decide now."""
    cp = s.current_player()
    if cp >= 0:
        return [cp]
    if cp == SIMULTANEOUS:
        return [p for p in range(s.num_players) if s.legal_actions(p)]
    return []


def spread(items: list[Any], limit: int) -> list[Any]:
    """At most ``limit`` of ``items``, evenly spaced."""
    if len(items) <= limit:
        return items
    step = (len(items) - 1) / (limit - 1)
    return [items[round(i * step)] for i in range(limit)]


def decisions(game: boardlab.Game, n: int, seed: int, limit: int | None) -> list[tuple[boardlab.State, int]]:
    """``(state, seat)`` at the decisions of one random game: every one, or ``limit`` spread over the game."""
    s = game.new_initial_state(n)
    play = random.Random(seed)
    out = []
    while not s.is_terminal() and s.move_number() < game.max_game_length():
        out += [(s.clone(), p) for p in deciders(s)]
        random_step(s, play)
    return out if limit is None else spread(out, limit)


@pytest.mark.parametrize(("game_id", "options", "sampler"), cases())
def test_worlds_the_actor_cannot_tell_apart_have_the_same_legal_actions(
    game_id: str, options: dict[str, Any], sampler: str
) -> None:
    game = boardlab.make(game_id, **options)
    if sampler == "core-every":
        (seeds, worlds), limit = EVERY_DECISION[game_id], None
    else:
        seeds, worlds, limit = SEEDS, WORLDS, DECISIONS
    hiding = compared = 0
    for n in range(game.min_players, min(game.max_players, game.min_players + 1) + 1):
        for seed in seeds:
            rng = random.Random(seed)  # the worlds' draws, one stream per game
            for s, p in decisions(game, n, seed, limit):
                hiding += not all(hidden.exact_for(seen, p) for seen in hidden.seens_of(s))
                legal = s.legal_actions(p)
                obs = json.dumps(s.observation(p), sort_keys=True)
                for _ in range(worlds):
                    if sampler == "own":
                        world = SeatView(s, p).resample(rng)
                    else:
                        try:
                            world = hidden.resample(s, p, rng, budget=BUDGET)
                        except hidden.ResampleError:
                            continue
                    where = f"{game_id} {options}, {n} players, seed {seed}, seat {p}, history {s.history()}"
                    assert json.dumps(world.observation(p), sort_keys=True) == obs, f"{where}: observation differs"
                    assert world.legal_actions(p) == legal, (
                        f"{where}: a world the seat cannot tell apart, {world.history()}, has other legal actions"
                    )
                    compared += world.history() != s.history()
    # A game may hide nothing from a seat when it decides (Dragon Fight's orders are shown once both are given,
    # Train Boiler's goals are hidden from spectators only): then there is nothing to redraw.
    assert compared or not hiding, "something was hidden from the deciding seat, yet no world was redrawn"
