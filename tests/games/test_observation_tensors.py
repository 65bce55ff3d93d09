"""Observation tensors of the sixteen newer games (layouts in docs/RESEARCH.md).

For each game, every option value that may change the tensor and every player count, over a short random game:
the shape is fixed (that of ``observation_tensor_shape``) and every value in 0..1; the tensor of each seat equals that
of several ``resample(seat)`` draws (nothing hidden leaks); and two states whose ``observation(seat)`` differ have
different tensors (the tensor holds all the seat may know). Observation fields that are only words for the screen
(a report, a reason) are left out of that comparison: ``PRESENTATION`` lists them. Then a few scenarios per game.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

import boardlab
from boardlab.core.constants import CHANCE, SIMULTANEOUS
from boardlab.games.two_mayors import COPIES as COPIES_2M
from boardlab.games.two_mayors import KINDS as KINDS_2M
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
            assert min(tensor) >= 0.0 and max(tensor) <= 1.0, f"{gid}: a value outside 0..1 at step {i}"
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


def play_until(s: boardlab.State, done: Any, seed: int = 1, limit: int = 400) -> boardlab.State:
    """Random steps until ``done(s)``."""
    rng = random.Random(seed)
    for _ in range(limit):
        if done(s):
            return s
        random_step(s, rng)
    raise AssertionError("the position was not reached")


def hot(values: list[float]) -> int | None:
    """Where a one-hot field is set (``None``: nowhere)."""
    ones = [i for i, x in enumerate(values) if x == 1.0]
    assert len(ones) <= 1 and all(x in (0.0, 1.0) for x in values)
    return ones[0] if ones else None


# -- scenarios: a known position, a known field ---------------------------------------------------------


def test_tower_builders_each_player_sees_only_the_held_card_dealt_to_them() -> None:
    game = boardlab.make("tower-builders", dealer="orange")
    s = game.state_from_history([0, 4])  # a 1 floor to Orange, the Collapse to Blue
    assert hot(field(game, s, 0, "held")) == 0 and hot(field(game, s, 1, "held")) == 4
    assert hot(field(game, s, None, "held")) is None
    assert hot(field(game, s, 0, "to_move")) == 2  # chance draws next
    assert field(game, s, 0, "hand_sizes") == field(game, s, 1, "hand_sizes") == [0.5, 0.5]


def test_two_mayors_hand_is_the_viewers_own() -> None:
    game = boardlab.make("two-mayors", first="orange")
    s = play_until(game.new_initial_state(), lambda s: s.phase == "turn")
    for p in (0, 1):
        hand = s.observation(p)["hand"]
        assert field(game, s, p, "hand") == [hand.count(k) / c for k, c in zip(KINDS_2M, COPIES_2M, strict=True)]
    assert not any(field(game, s, None, "hand"))
    assert field(game, s, 0, "hand_sizes") == [4 / 12, 5 / 12] and field(game, s, 1, "hand_sizes") == [5 / 12, 4 / 12]


def test_monster_piles_a_looked_at_card_is_known_to_its_player_only() -> None:
    from boardlab.games.monster_piles import DECK

    game = boardlab.make("monster-piles")
    s = play_until(game.new_initial_state(), lambda s: s.observation(None)["held"] is not None)
    active = s.observation(None)["active"]
    assert hot(field(game, s, active, "held")) < DECK <= hot(field(game, s, 1 - active, "held"))


def test_train_boiler_table_view_shows_only_the_last_card() -> None:
    for view, shown in (("table", 1), ("deduced", 4)):
        game = boardlab.make("train-boiler", view=view)
        s = play_until(game.new_initial_state(), lambda s: s.observation(None)["played"] == 4)
        plays = field(game, s, 0, "plays")
        assert sum(plays) == shown and sum(plays[shown * 6 :]) == 0
        assert field(game, s, 0, "hand_known") == ([1.0, 0.0] if view == "table" else [1.0, 1.0])


def test_fences_and_common_cold_war_open_hands_from_each_seat() -> None:
    for gid in ("fences", "common-cold-war"):
        game = boardlab.make(gid)
        s = play_until(
            game.new_initial_state(), lambda s: any(s.observation(None)["hands"]) and s.current_player() >= 0
        )
        assert field(game, s, 0, "hand0") == field(game, s, 1, "hand1") and field(game, s, 0, "hand1") == field(
            game, s, 1, "hand0"
        )
        cp = s.current_player()
        assert hot(field(game, s, cp, "to_move")) == 0 and hot(field(game, s, 1 - cp, "to_move")) == 1


def test_kasta_hidden_hands_are_the_viewers_own() -> None:
    for hidden, known in ((True, [1.0, 0.0]), (False, [1.0, 1.0])):
        game = boardlab.make("kasta", hidden_hands=hidden)
        s = play_until(game.new_initial_state(), lambda s: s.phase == "give")
        assert field(game, s, 0, "hand_known") == known
        assert field(game, s, None, "hand_known") == ([0.0, 0.0] if hidden else [1.0, 1.0])
        assert field(game, s, 0, "pool") == field(game, s, 1, "pool") == field(game, s, None, "pool")


def test_minopoly_hands_and_board_from_each_seat() -> None:
    game = boardlab.make("minopoly")
    s = play_until(game.new_initial_state(), lambda s: s.phase == "place the dice")
    assert field(game, s, 0, "hand0") == field(game, s, 1, "hand1") != [0.0] * 10
    assert field(game, s, 0, "board") == field(game, s, 1, "board")


def test_triad_and_combat_the_other_sides_units_are_unknown() -> None:
    game = boardlab.make("triad")
    s = play_until(game.new_initial_state(), lambda s: s.phase == "turn")
    own = sum(u["owner"] == 0 for u in s.observation(0)["units"])
    assert sum(field(game, s, 0, "units0_kind")) == own >= 5 and sum(field(game, s, 0, "units1_kind")) == 0
    assert sum(field(game, s, None, "units0_kind")) == 0
    game = boardlab.make("combat", first="orange")
    s = game.new_initial_state()
    s.apply_action(s.legal_actions()[0])  # Orange places the Shieldbearer at front A, face down to Blue
    assert field(game, s, 0, "grid0")[:6] == [1.0, 0, 0, 0, 0, 0]
    assert field(game, s, 1, "grid1")[:6] == [0, 0, 0, 0, 0, 1.0]  # "face down"
    assert field(game, s, 0, "hand") == [0.0, 1.0, 1.0, 1.0, 1.0]


def test_cirque_stones_are_the_viewers_and_the_others() -> None:
    game = boardlab.make("cirque")
    s = game.new_initial_state()
    s.apply_action(5)
    assert field(game, s, 0, "stones")[10:12] == [1.0, 0.0] and field(game, s, 1, "stones")[10:12] == [0.0, 1.0]
    assert field(game, s, 0, "last_turn")[5] > 0 and hot(field(game, s, 0, "to_move")) == 1


def test_mata_mosca_and_flock_of_sheep_boards() -> None:
    game = boardlab.make("mata-mosca")
    s = game.new_initial_state()
    spots = field(game, s, 0, "spots")
    assert sum(spots[0::3]) == 16 and sum(spots[2::3]) == 1 and spots[3 * s.observation(0)["spider"] + 2] == 1.0
    game = boardlab.make("flock-of-sheep")
    s = play_until(game.new_initial_state(), lambda s: s.current_player() >= 0)
    assert field(game, s, 0, "sheep_dealt") == [1.0] * 12
    layout = game.observation_tensor_layout()
    viewer = next(size for name, _, size in layout if name == "viewer")
    assert s.observation_tensor(0)[viewer:] == s.observation_tensor(None)[viewer:]  # all public, seat 0 first


def test_elephant_monkey_mice_and_mini_life_a_move_shows() -> None:
    game = boardlab.make("elephant-monkey-mice")
    s = game.new_initial_state()
    s.apply_action(3)  # elephant to d1
    assert hot(field(game, s, 0, "elephant")[:25]) == 3 and hot(field(game, s, 1, "elephant")[25:]) == 3
    assert hot(field(game, s, 0, "last")[:25]) == 4 and hot(field(game, s, 0, "last")[25:]) == 3  # e1 to d1
    game = boardlab.make("mini-life")
    s = game.new_initial_state()
    s.apply_action(0)  # place a6 facing N
    i = s.observation(0)["last"][0]
    assert field(game, s, 0, "cells")[2 * i : 2 * i + 2] == [1.0, 0.0]
    assert field(game, s, 1, "cells")[2 * i : 2 * i + 2] == [0.0, 1.0]
    assert field(game, s, 0, "facing")[8 * i] == 1.0  # north


def test_greedy_fiefs_caves_lie_face_down_for_everyone() -> None:
    game = boardlab.make("greedy-fiefs")
    s = play_until(game.new_initial_state(), lambda s: s.current_player() >= 0)
    for p in (0, 1, None):
        assert [hot(field(game, s, p, "caves")[6 * k : 6 * k + 6]) for k in range(4)] == [1, 1, 1, 1]


def test_the_layouts_are_documented() -> None:
    """docs/research/tensors-newer.md lists every field of each game, with the sizes at each player count."""
    import re
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "research" / "tensors-newer.md").read_text()
    for gid in GAMES:
        section = text.split(f"### {gid}\n", 1)[1].split("\n### ", 1)[0]
        game = boardlab.make(gid)
        for n in range(game.min_players, game.max_players + 1):
            assert f"{game.observation_tensor_shape(n)[0]} ({n} players)" in section, (gid, n)
        for name, _, _ in game.observation_tensor_layout():
            assert f"`{re.sub(r'[0-9]+', '{k}', name)}`" in section, (gid, name)
