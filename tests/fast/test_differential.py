"""The compiled rollouts (``boardlab.fast``) against the pure-Python rules, which stay the reference.

Three checks per accelerated game, each under the options its rules treat differently:

* **The rules, move by move.** The same seeded games are played on both paths side by side: the C engine is
  loaded once from the opening and then only given the same moves, so it keeps its own state. At every step
  the legal-action lists must be equal, the engine's tables equal to the Python state's, and at the end the
  results.
* **The rollouts.** ``play_random`` from positions along seeded games, compiled and pure Python from the same
  generator: the same plies and moves, every table of the state left behind equal, and the generator left at
  the same place (the compiled loop draws Python's own numbers, so searches stay the same too); also with a
  plain callable instead of a generator's ``random``.
* **The search.** ``mcts`` with the same seed and iterations makes the same move with the same visit counts
  on both paths.

Where the compiled modules are not built (no C compiler), the tests skip and say so; ``make test`` sets
``BOARDLAB_REQUIRE_FAST=1`` where a compiler exists, and then a missing module fails instead.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

import boardlab
from boardlab import fast
from boardlab.agents import MCTSAgent
from boardlab.core.constants import CHANCE
from boardlab.core.play import sample_chance
from boardlab.core.view import SeatView

#: Each accelerated game under the options its compiled rules read.
CASES: list[tuple[str, dict[str, Any]]] = [
    ("blast-radius", {}),
    ("blast-radius", {"board_side": 5, "pie": True}),
    ("blast-radius", {"board_side": 7}),
    ("cirque", {}),
    ("cirque", {"shape_fill": "any_stones", "exact_five": True}),
    ("train-boiler", {}),
    ("train-boiler", {"restore_rule": "both_after", "match": "until_two_wins"}),
]


@pytest.fixture(autouse=True)
def compiled_on() -> Any:
    """The compiled path on for these tests, even under ``BOARDLAB_PURE_PYTHON=1`` (they compare the two paths)."""
    saved = dict(fast.ACTIVE)
    fast.ACTIVE.update(fast._built)
    yield
    fast.ACTIVE.clear()
    fast.ACTIVE.update(saved)


def test_every_accelerated_game_is_tested() -> None:
    assert {g for g, _ in CASES} == set(fast.MODULES)
    assert set(fast.MODULES) <= set(boardlab.games())


def module(game_id: str):
    """The compiled module of ``game_id``, or a skip (a failure under ``BOARDLAB_REQUIRE_FAST=1``)."""
    if not fast.built(game_id):
        reason = f"the compiled rollouts of {game_id} are not built here: {fast.status()[game_id]}"
        if os.environ.get("BOARDLAB_REQUIRE_FAST") == "1":
            pytest.fail(reason + " (BOARDLAB_REQUIRE_FAST=1: build them with `make fast`)")
        pytest.skip(reason + "; `make fast` builds them where a C compiler exists")
    return fast._built[game_id]


def python_tables(state: Any, keys: list[str]) -> dict[str, Any]:
    return {k: getattr(state, k) for k in keys}


def all_tables(state: Any) -> dict[str, Any]:
    """Every attribute of a state but the game, in comparable form (sets sorted)."""
    out: dict[str, Any] = {}
    for k, v in vars(state).items():
        if k == "game":
            continue
        if isinstance(v, set):
            v = sorted(v)
        elif isinstance(v, list) and v and isinstance(v[0], list) and v[0] and isinstance(v[0][0], set):
            v = [[sorted(c) for c in row] for row in v]
        out[k] = v
    return out


def step_randomly(state: Any, rng: random.Random) -> int:
    if state.current_player() == CHANCE:
        a = sample_chance(state, rng)
    else:
        a = rng.choice(state.legal_actions())
    state.apply_action(a)
    return a


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=lambda x: str(x))
def test_rules_move_by_move(game_id: str, options: dict[str, Any]) -> None:
    mod = module(game_id)
    game = boardlab.make(game_id, **options)
    assert mod.supports(game) if hasattr(mod, "supports") else True
    games = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new_initial_state()
        engine = mod.Engine(game)
        engine.load(state)
        while True:
            snap = engine.snapshot()
            assert snap == python_tables(state, list(snap)), (seed, state.move_number())
            if state.is_terminal():
                assert engine.legal() == []
                break
            assert engine.legal() == state.legal_actions(), (seed, state.move_number())
            engine.apply(step_randomly(state, rng))
        assert engine.returns() == state.returns()
        games += 1
    assert games == 12


def positions(game: Any, seed: int, count: int) -> list[Any]:
    """``count`` positions along seeded random games, the opening first."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = game.new_initial_state()
        while not s.is_terminal() and len(out) < count:
            if rng.random() < 0.15:
                out.append(s.clone())
            step_randomly(s, rng)
        out.append(s.clone())  # the end too: a rollout from a finished game plays nothing
    return out


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=lambda x: str(x))
def test_rollouts_are_the_python_rollouts(game_id: str, options: dict[str, Any]) -> None:
    module(game_id)
    game = boardlab.make(game_id, **options)
    for k, s in enumerate(positions(game, 7, 40)):
        plies = (10**6, 1, 5, 17)[k % 4]
        mine, ref = s.clone(), s.clone()
        r_mine, r_ref = random.Random(k), random.Random(k)
        assert fast.compiled(game_id) is not None
        played = mine.play_random(r_mine.random, plies)
        with fast.pure_python():
            assert fast.compiled(game_id) is None
            assert ref.play_random(r_ref.random, plies) == played
        assert mine.history() == ref.history()
        assert all_tables(mine) == all_tables(ref)
        assert mine.returns() == ref.returns()
        assert r_mine.getstate() == r_ref.getstate()  # the same numbers drawn, no more, no fewer
        # A plain callable is called once per draw, as the pure-Python loop calls it.
        calls = Recorder(random.Random(k + 1).random)
        other = s.clone()
        other.play_random(calls, plies)
        replay = iter(calls.drawn)
        with fast.pure_python():
            again = s.clone()
            again.play_random(replay.__next__, plies)
        assert other.history() == again.history() and all_tables(other) == all_tables(again)
        assert next(replay, None) is None


class Recorder:
    """A plain callable source of random numbers that remembers what it gave."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.drawn: list[float] = []

    def __call__(self) -> float:
        self.drawn.append(self.source())
        return self.drawn[-1]


@pytest.mark.parametrize("game_id", sorted(fast.MODULES))
def test_search_is_the_same_search(game_id: str) -> None:
    module(game_id)
    game = boardlab.make(game_id)
    for s in positions(game, 3, 3):
        if s.is_terminal() or s.current_player() < 0 or len(s.legal_actions()) < 2:
            continue
        seat = s.current_player()
        results = []
        for pure in (False, True):
            agent = MCTSAgent(game, seat, 5, iterations=150, reuse=False)
            if pure:
                with fast.pure_python():
                    move = agent.step(SeatView(s, seat))
            else:
                move = agent.step(SeatView(s, seat))
            root = agent.last.get("root")
            visits = sorted((a, e.n) for a, e in root.children.items()) if root is not None else None
            results.append((move, agent.last["iterations"], agent.last["plies"], visits))
        assert results[0] == results[1]


def test_a_missing_module_leaves_pure_python() -> None:
    """With the accelerator off, every game plays its rollouts in Python, and says so."""
    with fast.pure_python():
        assert all(fast.compiled(g) is None for g in fast.MODULES)
        assert all(v != "compiled" for v in fast.status().values())
        s = boardlab.make("cirque").new_initial_state()
        assert s.play_random(random.Random(1).random, 10**6) > 0 and s.is_terminal()
