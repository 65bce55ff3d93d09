"""MCTS iterations per second for every game, and boardlab's MCTS against OpenSpiel's on the same game.

1. ``mcts`` iterations per second per game: a search of fixed length from
   each of several positions along a seeded random game (the opening first),
   without tree reuse; ``opening it/s`` is the first position alone. Rates
   are iterations per CPU second of the benchmark's process (one core), so
   that other work on the machine does not lower them.
2. Like for like against OpenSpiel's own Python ``MCTSBot``
   (``open_spiel.python.algorithms.mcts``) on the same boardlab game through
   :mod:`boardlab.adapters.openspiel`: the same positions, the same clock (CPU
   seconds), uniform random rollouts through each side's own API, forced moves
   treated alike (see :func:`openspiel_rows`), on Blast Radius (sides 5 and 6),
   Cirque, Train Boiler (hidden information), Trivalent, Radius and Chevrons.
   The goal is 10x OpenSpiel's iterations per CPU second at every position
   measured. Where a game has compiled rollouts (``boardlab.fast``), ours use
   them, and a third row gives ours in pure Python against the same searches.

Run: ``python bench/run.py mcts`` (``--quick`` for a short run).
"""

from __future__ import annotations

import contextlib
import random
import time

import boardlab
from boardlab import fast
from boardlab.agents import MCTSAgent
from boardlab.core.constants import CHANCE, SIMULTANEOUS
from boardlab.core.game import Game, State
from boardlab.core.play import sample_chance
from boardlab.core.view import SeatView

#: Our UCT constant (values in 0..1) and OpenSpiel's for the same exploration (values in -1..1: twice as wide).
OUR_C = 0.7
THEIR_C = 2 * OUR_C


def decision_states(game: Game, count: int, seed: int = 0) -> list[tuple[State, int]]:
    """``count`` positions with a seat to decide, spread along seeded random games (the opening first)."""
    rng = random.Random(seed)
    out: list[tuple[State, int]] = []
    while len(out) < count:
        s = game.new_initial_state()
        k = 0
        while not s.is_terminal() and s.move_number() < game.max_game_length() and len(out) < count:
            cp = s.current_player()
            seats = [p for p in range(s.num_players) if s.legal_actions(p)] if cp == SIMULTANEOUS else [cp]
            if cp != CHANCE and len(s.legal_actions(seats[0])) > 1 and (not out or k % 4 == 0):
                out.append((s.clone(), seats[0]))
            k += 1
            if cp == CHANCE:
                s.apply_action(sample_chance(s, rng))
            elif cp == SIMULTANEOUS:
                s.apply_actions(
                    [rng.choice(s.legal_actions(p)) if s.legal_actions(p) else None for p in range(s.num_players)]
                )
            else:
                s.apply_action(rng.choice(s.legal_actions()))
    return out


def mcts_rate(game: Game, state: State, seat: int, seconds: float, pure: bool = False) -> float:
    """Iterations per CPU second of this process (robust to other load on the machine).

    ``pure``: with the compiled rollouts turned off (the pure-Python path).
    """
    agent = MCTSAgent(game, seat, 1, seconds=seconds, reuse=False, c=OUR_C)
    with fast.pure_python() if pure else contextlib.nullcontext():
        cpu = time.process_time()
        agent.step(SeatView(state, seat))
        return agent.last["iterations"] / max(time.process_time() - cpu, 1e-9)


def per_game_rows(quick: bool) -> list[dict]:
    seconds = 0.25 if quick else 1.0
    positions = 3 if quick else 6
    rows = []
    configs: list[tuple[str, dict]] = [(g, {}) for g in boardlab.games()]
    configs.insert(configs.index(("blast-radius", {})), ("blast-radius", {"board_side": 5}))
    for game_id, options in configs:
        game = boardlab.make(game_id, **options)
        states = decision_states(game, positions)
        rates = [mcts_rate(game, s, seat, seconds) for s, seat in states]
        rows.append(
            {
                "game": game_id + "".join(f" {k}={v}" for k, v in options.items()),
                "engine": "boardlab mcts" + (", compiled rollouts" if fast.compiled(game_id) else ""),
                "opening it/s": rates[0],
                "mean it/s": sum(rates) / len(rates),
                "note": f"{seconds:g} s searches from {len(rates)} positions",
            }
        )
    return rows


#: The games compared with OpenSpiel's MCTSBot. It searches the true state; so does ours on these: Train Boiler
#: hides information from spectators only (each player can work out every card, so a player's determinisation is
#: the true state), the rest have perfect information.
H2H_GAMES: list[tuple[str, dict]] = [
    ("blast-radius", {"board_side": 5}),
    ("blast-radius", {}),
    ("cirque", {}),
    ("train-boiler", {}),
    ("trivalent", {}),
    ("radius", {}),
    ("chevrons", {}),
]


def openspiel_rows(quick: bool) -> list[dict]:
    """Like for like: both searches from the same positions, the same clock, the same rollout policy.

    * Positions: every fourth decision along a seeded random game (the opening
      first), only where the seat has a choice (two legal moves or more), so
      neither search skips a forced move at its root; inside the tree both
      expand every move, forced ones included.
    * Rollouts: uniform random to the end of the game through each side's own
      API: ours ``State.play_random`` (the core's playout; these three games
      have their own loops, with the same moves), OpenSpiel's ``RandomRolloutEvaluator``
      (``clone``, ``legal_actions``, ``apply_action`` through the adapter, with
      numpy's ``RandomState.choice``). A third column runs OpenSpiel's search
      with our rollout (an evaluator calling ``play_random`` on the boardlab
      state inside the adapter's), which separates the search from the rollout.
    * Both: no tree reuse, their solvers on, the same exploration (c = 0.7 on
      values in 0..1 is OpenSpiel's 1.4 on values in -1..1).
    * Clock: ``time.process_time`` (CPU seconds of this process) around each
      search; a rate is the root's iterations over those seconds (OpenSpiel's
      root visit count; our ``last["iterations"]``). Ours runs ``seconds``; theirs
      a simulation count sized from their previous rate to take about as long.
      The three searches of a position run one after another.
    """
    try:
        import numpy as np
        from open_spiel.python.algorithms import mcts as os_mcts

        from boardlab.adapters import openspiel as bos
    except ImportError:
        return [
            {"game": "-", "engine": "openspiel MCTSBot", "note": "open-spiel is not installed (the openspiel extra)"}
        ]

    class OurRollout(os_mcts.Evaluator):
        """OpenSpiel's evaluator interface over our rollout: uniform random, ``State.play_random``."""

        def __init__(self, seed: int) -> None:
            self.rnd = random.Random(seed).random

        def evaluate(self, state):
            inner = state.boardlab_state.clone()
            inner.play_random(self.rnd, inner.game.max_game_length())
            return np.array(inner.returns())

        def prior(self, state):
            if state.is_chance_node():
                return state.chance_outcomes()
            legal = state.legal_actions()
            return [(a, 1.0 / len(legal)) for a in legal]

    seconds = 0.3 if quick else 1.0
    count = 3 if quick else 6
    rows = []
    for game_id, options in H2H_GAMES:
        game = boardlab.make(game_id, **options)
        spiel = bos.load(game_id, **options)
        label = game_id + "".join(f" {k}={v}" for k, v in options.items())
        rng = np.random.RandomState(0)
        evaluators = {"openspiel": os_mcts.RandomRolloutEvaluator(1, rng), "openspiel, our rollout": OurRollout(0)}
        rates: dict[str, list[float]] = {"boardlab": [], "openspiel": [], "openspiel, our rollout": []}
        compiled = fast.compiled(game_id) is not None
        if compiled:
            rates["boardlab, pure Python"] = []
        sims = {k: 200 for k in evaluators}
        for s, seat in decision_states(game, count):
            rates["boardlab"].append(mcts_rate(game, s, seat, seconds))
            if compiled:
                rates["boardlab, pure Python"].append(mcts_rate(game, s, seat, seconds, pure=True))
            for name, evaluator in evaluators.items():
                spiel_state = spiel.new_initial_state()
                for h in s.history():
                    spiel_state.apply_action(h)
                bot = os_mcts.MCTSBot(
                    spiel, THEIR_C, sims[name], evaluator, solve=game.perfect_information, random_state=rng
                )
                cpu = time.process_time()
                root = bot.mcts_search(spiel_state)
                rate = root.explore_count / max(time.process_time() - cpu, 1e-9)
                rates[name].append(rate)
                sims[name] = max(20, int(rate * seconds))
        pairs = [("boardlab", "openspiel"), ("boardlab", "openspiel, our rollout")]
        if compiled:
            pairs.append(("boardlab, pure Python", "openspiel"))
        for mine, name in pairs:
            ours = rates[mine]
            ratio = sorted(a / b for a, b in zip(ours, rates[name], strict=True))
            rows.append(
                {
                    "game": label,
                    "engine": f"{'compiled' if compiled and mine == 'boardlab' else 'python'} vs {name}",
                    "opening it/s": f"{ours[0]:,.0f} / {rates[name][0]:,.0f}",
                    "mean it/s": f"{sum(ours) / len(ours):,.0f} / {sum(rates[name]) / len(ours):,.0f}",
                    "ratio min": ratio[0],
                    "ratio median": ratio[len(ratio) // 2],
                    "ratio max": ratio[-1],
                    "10x everywhere": ratio[0] >= 10,
                    "per position": " ".join(
                        f"{a:,.0f}/{b:,.0f}={a / b:.1f}x" for a, b in zip(ours, rates[name], strict=True)
                    ),
                    "note": f"{len(ours)} positions, {seconds:g} CPU s each; ours / theirs it per CPU s",
                }
            )
    return rows


def run(quick: bool) -> list[dict]:
    return per_game_rows(quick) + openspiel_rows(quick)


if __name__ == "__main__":  # the OpenSpiel comparison alone: PYTHONPATH=src python bench/bench_mcts.py [--quick]
    import sys

    for row in openspiel_rows("--quick" in sys.argv):
        print(row)
