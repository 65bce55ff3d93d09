"""Observation tensors of the sixteen newer games (layouts in docs/RESEARCH.md).

For each game, every option value that may change the tensor and every player count, over a short random game:
the shape is fixed (that of ``observation_tensor_shape``) and the values finite; the tensor of each seat equals that
of several ``resample(seat)`` draws (nothing hidden leaks); and two states whose ``observation(seat)`` differ have
different tensors (the tensor holds all the seat may know). Observation fields that are only words for the screen
(a report, a reason) are left out of that comparison: ``PRESENTATION`` lists them. Then a few scenarios per game.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from typing import Any

import pytest

import boardlab
from boardlab.core.constants import CHANCE, SIMULTANEOUS
from state_checks import random_step

GAMES = (
    "tower-builders",
    "two-mayors",
    "monster-piles",
    "train-boiler",
    "fences",
    "common-cold-war",
    "kasta",
    "minopoly",
    "triad",
    "combat",
    "cirque",
    "mata-mosca",
    "flock-of-sheep",
    "elephant-monkey-mice",
    "mini-life",
    "greedy-fiefs",
)

#: Observation fields that are text for the screen, or that repeat other fields, per game (not compared).
PRESENTATION: dict[str, tuple[str, ...]] = {
    "two-mayors": ("why",),  # words for how the game was won
    "common-cold-war": ("report",),
    "triad": ("events", "end_reason"),  # the last lines of the log, and the end in words
    "combat": ("report", "end_reason"),  # this cycle's combat in words, and the end in words
    "mata-mosca": ("reason",),  # why the game ended, in words  # words for what the last tile did (the table shows it)
}

#: Steps of the random game; states checked against resample (every ``RESAMPLE_EVERY``-th) and draws per state.
STEPS = 90
#: Games whose opening takes long (Kasta lays out 72 dice first) are played further.
LONGER = {"kasta": 200}
RESAMPLE_EVERY = 12
DRAWS = 3
#: Every ``SIBLINGS_EVERY``-th state of the game, this many of its children are compared too.
SIBLINGS_EVERY = 3
SIBLINGS = 6
CHANCE_SIBLINGS = 2


def cases() -> list[tuple[str, dict[str, Any], int]]:
    """Each game with its defaults at each player count, then every other allowed value of each option (the lowest
    value of a ranged one) at the game's usual player count."""
    out: list[tuple[str, dict[str, Any], int]] = []
    for gid in GAMES:
        game = boardlab.make(gid)
        out += [(gid, {}, n) for n in range(game.min_players, game.max_players + 1)]
        for o in game.options:
            d = o.describe()
            values = d["allowed"] or [d["minimum"]]
            n = game.default_players or game.min_players
            out += [(gid, {d["name"]: v}, n) for v in values if v != d["default"]]
    return out


def informative(obs: dict[str, Any], gid: str) -> str:
    return json.dumps({k: v for k, v in obs.items() if k not in PRESENTATION.get(gid, ())}, sort_keys=True)


def children(s: boardlab.State, rng: random.Random, k: int) -> list[boardlab.State]:
    """Up to ``k`` states one step on from ``s`` by different actions: siblings differ in little, so they test that
    every field is in the tensor."""
    cp = s.current_player()
    if cp == SIMULTANEOUS:
        return []
    actions = [a for a, _ in s.chance_outcomes()] if cp == CHANCE else s.legal_actions()
    k = min(k, CHANCE_SIBLINGS) if cp == CHANCE else k
    out = []
    for a in rng.sample(actions, min(k, len(actions))):
        c = s.clone()
        c.apply_action(a)
        out.append(c)
    return out


def random_states(game: boardlab.Game, n: int, seed: int) -> list[boardlab.State]:
    """A random game of ``STEPS`` steps at most, with a few siblings of every ``SIBLINGS_EVERY``-th state."""
    rng = random.Random(seed)
    s = game.new_initial_state(n)
    states = [s.clone()]
    for i in range(LONGER.get(game.id, STEPS)):
        if s.is_terminal():
            break
        if i % SIBLINGS_EVERY == 0:
            states += children(s, rng, SIBLINGS)
        random_step(s, rng)
        states.append(s.clone())
    return states


@pytest.mark.parametrize(("gid", "options", "n"), cases(), ids=lambda x: json.dumps(x) if isinstance(x, dict) else x)
def test_tensor_shape_resample_and_information(gid: str, options: dict[str, Any], n: int) -> None:
    game = boardlab.make(gid, **options)
    shape = game.observation_tensor_shape(n)
    layout = game.observation_tensor_layout(n)
    assert sum(size for _, _, size in layout) == shape[0]
    assert all(a[1] + a[2] == b[1] for a, b in itertools.pairwise(layout))
    seen: dict[int | None, dict[tuple[float, ...], str]] = {p: {} for p in [*range(n), None]}
    rng = random.Random(7)
    for i, s in enumerate(random_states(game, n, seed=len(options) * 10 + n)):
        for p in seen:
            tensor = s.observation_tensor(p)
            assert len(tensor) == shape[0], f"{gid}: the tensor's size changed at step {i}"
            assert math.isfinite(sum(tensor))  # a NaN or an infinity anywhere would show in the sum
            obs = informative(s.observation(p), gid)
            other = seen[p].setdefault(tuple(tensor), obs)
            assert other == obs, f"{gid}, viewer {p}, step {i}: two observations, one tensor\n{other}\n{obs}"
            if p is not None and i % RESAMPLE_EVERY == RESAMPLE_EVERY - 1 and s.current_player() != CHANCE:
                for _ in range(DRAWS):
                    assert s.resample(p, rng).observation_tensor(p) == tensor, f"{gid}: the tensor of {p} leaks"


def test_every_newer_game_has_a_tensor() -> None:
    for gid in GAMES:
        s = boardlab.make(gid).new_initial_state()
        assert len(s.observation_tensor(0)) == boardlab.make(gid).observation_tensor_shape()[0] > 0


def field(game: boardlab.Game, s: boardlab.State, player: int | None, name: str) -> list[float]:
    """The values of one named field of ``player``'s tensor."""
    for fname, offset, size in game.observation_tensor_layout(s.num_players):
        if fname == name:
            return s.observation_tensor(player)[offset : offset + size]
    raise KeyError(name)
