"""The OpenSpiel adapter's cost per ply: the same random games through the core and through the adapter.

Each game plays the same seeded random games twice in one process: once through
the core's public API (``current_player``, ``legal_actions``, ``apply_action``,
``chance_outcomes`` sampled, ``apply_actions`` at simultaneous nodes), once
through ``boardlab.adapters.openspiel`` (the same calls on the ``pyspiel.State``,
as OpenSpiel's algorithms make them: ``is_terminal``, ``current_player``,
``legal_actions`` or ``chance_outcomes``, ``apply_action``). Both sides make
exactly the same moves. Rates are microseconds per ply per CPU second of this
process (``time.process_time``), the better of ``rounds`` alternating rounds.

Run: ``python bench/run.py adapter`` or ``PYTHONPATH=src python bench/bench_adapter.py [--quick]``.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

import boardlab
from boardlab.core.constants import CHANCE, SIMULTANEOUS

GAMES: list[tuple[str, dict]] = [
    ("blast-radius", {"board_side": 5}),
    ("blast-radius", {}),
    ("hamlet", {}),
    ("posies", {}),
    ("dragon-fight", {}),
]


def _pick(rng: random.Random, outcomes: list[tuple[int, float]]) -> int:
    x = rng.random()
    for a, p in outcomes:
        x -= p
        if x < 0:
            return a
    return outcomes[-1][0]


def core_games(game_id: str, options: dict, games: int, seed: int) -> int:
    """Plays ``games`` random games through the core; returns the plies played."""
    game = boardlab.make(game_id, **options)
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            cp = s.current_player()
            if cp == CHANCE:
                s.apply_action(_pick(rng, s.chance_outcomes()))
            elif cp == SIMULTANEOUS:
                s.apply_actions([rng.choice(s.legal_actions(p) or [None]) for p in range(s.num_players)])
            else:
                s.apply_action(rng.choice(s.legal_actions(cp)))
            plies += 1
    return plies


def spiel_games(game_id: str, options: dict, games: int, seed: int) -> int:
    """The same games through the adapter (a seat with nothing to decide has the one action 0, a pass, and
    draws a random number for it as the core side does for ``[None]``)."""
    import pyspiel

    from boardlab.adapters import openspiel as bos

    game = bos.load(game_id, **options)
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            cp = s.current_player()
            if cp == pyspiel.PlayerId.CHANCE:
                s.apply_action(_pick(rng, s.chance_outcomes()))
            elif cp == pyspiel.PlayerId.SIMULTANEOUS:
                s.apply_actions([rng.choice(s.legal_actions(p)) for p in range(s.num_players())])  # [0]: a pass
            else:
                s.apply_action(rng.choice(s.legal_actions(cp)))
            plies += 1
    return plies


def _rate(play: Callable[[str, dict, int, int], int], game_id: str, options: dict, games: int) -> tuple[float, int]:
    cpu = time.process_time()
    plies = play(game_id, options, games, 1)
    return (time.process_time() - cpu) / plies * 1e6, plies


def run(quick: bool) -> list[dict]:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return [{"game": "-", "note": "open-spiel is not installed (the openspiel extra)"}]
    games, rounds = (20, 3) if quick else (100, 5)
    rows = []
    for game_id, options in GAMES:
        if game_id not in boardlab.games():
            continue
        core: list[float] = []
        spiel: list[float] = []
        for _ in range(rounds):
            us, plies = _rate(core_games, game_id, options, games)
            core.append(us)
            us2, plies2 = _rate(spiel_games, game_id, options, games)
            assert plies2 == plies, "the adapter must make the same moves"
            spiel.append(us2)
        rows.append(
            {
                "game": game_id + "".join(f" {k}={v}" for k, v in options.items()),
                "core us/ply": min(core),
                "adapter us/ply": min(spiel),
                "overhead us/ply": min(spiel) - min(core),
                "ratio": min(spiel) / min(core),
                "note": f"{games} random games ({plies} plies), best of {rounds} rounds",
            }
        )
    return rows


if __name__ == "__main__":
    for row in run("--quick" in sys.argv):
        print(row)
