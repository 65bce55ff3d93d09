"""Random playouts per second and plies per second on one core (per CPU second), for every registered game.

Driven through the public API only: ``legal_actions`` / ``apply_action`` (and
``chance_outcomes`` / ``apply_actions`` where the game has chance or
simultaneous moves), from a fresh ``new_initial_state()`` each game.

Each game is timed in five slices of one CPU second (``--quick``: three short
ones): ``playouts/s`` is over all of them, ``best slice`` is the fastest one
(timeit's convention: slower slices measure the host's interference, and this
shared machine's speed drifts by ±20% within minutes), and ``slowest slice``
shows the spread. The plain reference implementation is timed the same way in
the same run.

Beside the public API, two more rates per game, the same way: ``rollout/s``,
random games through ``State.play_random`` (the search agents' rollout) in pure
Python, and ``compiled/s``, the same through the compiled rollouts
(``boardlab.fast``) where the game has them and they are built (else ``-``);
``compiled / API`` is the compiled rate over the public API's.
"""

from __future__ import annotations

import contextlib
import random
import time

import boardlab
from boardlab import fast
from boardlab.core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from boardlab.core.play import sample_chance


def play_one(game: boardlab.Game, rng: random.Random) -> int:
    """One random game from a fresh initial state through the public API; returns its plies."""
    choice = rng.choice
    s = game.new_initial_state()
    plies = 0
    while True:
        cp = s.current_player()
        if cp == TERMINAL:
            return plies
        if cp >= 0:
            s.apply_action(choice(s.legal_actions()))
        elif cp == CHANCE:
            s.apply_action(sample_chance(s, rng))
        elif cp == SIMULTANEOUS:
            s.apply_actions([choice(s.legal_actions(p)) if s.legal_actions(p) else None for p in range(s.num_players)])
        plies += 1


def playouts(game: boardlab.Game, seconds: float, seed: int = 0) -> tuple[int, int, float, float]:
    """Play random games for ``seconds`` of CPU time: (games, plies, CPU seconds, wall seconds).

    Rates are per CPU second of this process (``time.process_time``), so a busy
    machine that takes the core away now and then does not lower them.
    """
    rng = random.Random(seed)
    games = plies = 0
    start = time.process_time()
    wall = time.perf_counter()
    deadline = start + seconds
    while time.process_time() < deadline:
        plies += play_one(game, rng)
        games += 1
    return games, plies, time.process_time() - start, time.perf_counter() - wall


def rollouts(game: boardlab.Game, seconds: float, seed: int = 0, compiled: bool = False) -> tuple[int, int, float]:
    """Random games through ``State.play_random`` for ``seconds`` of CPU time: (games, plies, CPU seconds).

    ``compiled``: with the game's compiled rollouts (``boardlab.fast``); else pure Python.
    """
    rnd = random.Random(seed).random
    cap = game.max_game_length()
    games = plies = 0
    with contextlib.nullcontext() if compiled else fast.pure_python():
        start = time.process_time()
        deadline = start + seconds
        while time.process_time() < deadline:
            plies += game.new_initial_state().play_random(rnd, cap)
            games += 1
        return games, plies, time.process_time() - start


def playouts_n(game: boardlab.Game, n: int, seed: int = 0) -> int:
    """Exactly ``n`` seeded random games (the same moves in every tree with the same rules); returns the plies."""
    rng = random.Random(seed)
    return sum(play_one(game, rng) for _ in range(n))


def reference_playouts(side: int, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """The plain reference implementation (bench/reference_blast_radius.py): games, plies, CPU seconds."""
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).with_name("reference_blast_radius.py")
    spec = importlib.util.spec_from_file_location("reference_blast_radius", path)
    assert spec and spec.loader
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    rng = random.Random(seed)
    cells = ref.cells_of(side)
    games = plies = 0
    start = time.process_time()
    while time.process_time() < start + seconds:
        plies += ref.play(cells, rng)[1]
        games += 1
    return games, plies, time.process_time() - start


def _sliced(measure, slices: int, seconds: float) -> dict:
    """Time ``measure(seconds) -> (games, plies, cpu)`` ``slices`` times: overall, best and slowest rates."""
    runs = [measure(seconds) for _ in range(slices)]
    games = sum(r[0] for r in runs)
    plies = sum(r[1] for r in runs)
    cpu = sum(r[2] for r in runs)
    rates = [r[0] / r[2] for r in runs]
    return {
        "playouts/s": games / cpu,
        "best slice": max(rates),
        "slowest slice": min(rates),
        "plies/s": plies / cpu,
        "mean plies": plies / max(1, games),
    }


def run(quick: bool) -> list[dict]:
    slices, seconds = (3, 0.34) if quick else (5, 1.0)
    rows = []
    configs: list[tuple[str, dict]] = [(g, {}) for g in boardlab.games()]
    configs += [("blast-radius", {"board_side": 5}), ("blast-radius", {"board_side": 7})]
    for game_id, options in sorted(configs, key=lambda c: (c[0], sorted(c[1].items()))):
        game = boardlab.make(game_id, **options)
        seeds = iter(range(slices))
        row = _sliced(lambda t, g=game, it=seeds: playouts(g, t, seed=next(it))[:3], slices, seconds)
        seeds = iter(range(slices))
        rollout = _sliced(lambda t, g=game, it=seeds: rollouts(g, t, seed=next(it)), slices, seconds)
        row["rollout/s"] = rollout["playouts/s"]
        module = fast.compiled(game_id)
        if module is not None and getattr(module, "supports", lambda g: True)(game):
            seeds = iter(range(slices))
            done = _sliced(lambda t, g=game, it=seeds: rollouts(g, t, seed=next(it), compiled=True), slices, seconds)
            row["compiled/s"] = done["playouts/s"]
            row["compiled / API"] = f"{done['playouts/s'] / row['playouts/s']:.1f}x"
        else:
            row["compiled/s"] = row["compiled / API"] = "-"
        rows.append({"game": game_id + "".join(f" {k}={v}" for k, v in options.items()), **row})
    seeds = iter(range(slices))
    row = _sliced(lambda t: reference_playouts(6, t, seed=next(seeds)), slices, seconds)
    rows.append(
        {
            "game": "blast-radius, plain reference (same run)",
            **row,
            "rollout/s": "-",
            "compiled/s": "-",
            "compiled / API": "-",
        }
    )
    return rows
