"""MCTS iterations per second for every game, and boardlab's MCTS against OpenSpiel's on the same game.

1. ``mcts`` iterations per second per game: a search of fixed length from
   each of several positions along a seeded random game (the opening first),
   without tree reuse; ``opening it/s`` is the first position alone. Rates
   are iterations per CPU second of the benchmark's process (one core), so
   that other work on the machine does not lower them.
2. Same game, same process: boardlab's ``mcts`` and OpenSpiel's own Python
   ``MCTSBot`` (``open_spiel.python.algorithms.mcts``, random rollouts, its
   solver on), which drives the same boardlab game through
   :mod:`boardlab.adapters.openspiel`. Iterations per CPU second of each from
   the opening, measured in turns;
   then a match, seats alternated, with equal time per move: boardlab's agent
   gets ``seconds=t``; OpenSpiel's bot has no time budget, so before every move
   its simulation count is set to ``t`` times its own rate on its previous
   (unsolved) move, the first calibrated on the opening, and both sides' mean
   time per move is reported so the equality can be checked. Iterations are
   counted as each search reports them (OpenSpiel's root visit count).

Run: ``python bench/run.py mcts`` (``--quick`` for a short run).
"""

from __future__ import annotations

import random
import time

import boardlab
from boardlab.agents import MCTSAgent
from boardlab.core.constants import CHANCE, SIMULTANEOUS
from boardlab.core.game import Game, State
from boardlab.core.play import sample_chance
from boardlab.core.view import SeatView

H2H_GAME = ("blast-radius", {"board_side": 5})


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


def mcts_rate(game: Game, state: State, seat: int, seconds: float) -> float:
    """Iterations per CPU second of this process (robust to other load on the machine)."""
    agent = MCTSAgent(game, seat, 1, seconds=seconds, reuse=False)
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
                "engine": "boardlab mcts",
                "opening it/s": rates[0],
                "mean it/s": sum(rates) / len(rates),
                "note": f"{seconds:g} s searches from {len(rates)} positions",
            }
        )
    return rows


def openspiel_rows(quick: bool) -> list[dict]:
    try:
        import numpy as np
        from open_spiel.python.algorithms import mcts as os_mcts

        from boardlab.adapters import openspiel as bos
    except ImportError:
        return [
            {"game": "-", "engine": "openspiel MCTSBot", "note": "open-spiel is not installed (the openspiel extra)"}
        ]

    game_id, options = H2H_GAME
    game = boardlab.make(game_id, **options)
    spiel = bos.load(game_id, **options)
    label = game_id + "".join(f" {k}={v}" for k, v in options.items())
    rate_seconds = 1.0 if quick else 3.0
    per_move = 0.1 if quick else 0.25
    matches = 2 if quick else 10
    rng = np.random.RandomState(0)

    def os_bot(sims: int) -> os_mcts.MCTSBot:
        return os_mcts.MCTSBot(spiel, 2.0, max(1, sims), os_mcts.RandomRolloutEvaluator(1, rng), random_state=rng)

    # Iterations per CPU second from the opening, measured in turns (ours, theirs, ours, theirs) so that
    # both see the same machine; the better of each pair counts.
    opening = game.new_initial_state()
    cpu = time.process_time()
    root = os_bot(50).mcts_search(spiel.new_initial_state())
    theirs = root.explore_count / (time.process_time() - cpu)
    ours = 0.0
    for _ in range(2):
        ours = max(ours, mcts_rate(game, opening, 0, rate_seconds))
        cpu = time.process_time()
        root = os_bot(int(theirs * rate_seconds)).mcts_search(spiel.new_initial_state())
        theirs = max(theirs, root.explore_count / (time.process_time() - cpu))

    # The same positions for both: every fourth decision along a seeded random game, opening included;
    # OpenSpiel's simulation count is sized to take about the same time as our search.
    positions = decision_states(game, 3 if quick else 8)
    pos_ours = pos_theirs = 0.0
    per_position = []
    for s, seat in positions:
        a = mcts_rate(game, s, seat, rate_seconds / 3)
        spiel_state = spiel.new_initial_state()
        for h in s.history():
            spiel_state.apply_action(h)
        cpu = time.process_time()
        root = os_bot(int(theirs * rate_seconds / 3)).mcts_search(spiel_state)
        b = root.explore_count / max(time.process_time() - cpu, 1e-9)
        per_position.append(a / b)
        pos_ours += a / len(positions)
        pos_theirs += b / len(positions)
    ratios = sorted(per_position)

    # The match: equal time per move, seats alternated.
    wins = 0
    our_time = our_moves = their_time = their_moves = 0
    our_iters = their_iters = 0
    for m in range(matches):
        ours_seat = m % 2
        agent = MCTSAgent(game, ours_seat, m, seconds=per_move)
        their_rate = theirs
        state = spiel.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player()
            if seat == ours_seat:
                inner = bos.from_spiel(state)
                t = time.perf_counter()
                action = agent.step(SeatView(inner, seat))
                our_time += time.perf_counter() - t
                our_moves += 1
                our_iters += agent.last.get("iterations", 0) if agent.last else 0
                agent.last = {}
            else:
                t = time.perf_counter()
                root = os_bot(int(their_rate * per_move)).mcts_search(state)
                action = root.best_child().action  # what MCTSBot.step plays
                dt = time.perf_counter() - t
                their_time += dt
                their_moves += 1
                their_iters += root.explore_count
                if root.outcome is None:  # a solved root stops early and says nothing of the rate
                    their_rate = root.explore_count / dt
            state.apply_action(action)
        wins += state.returns()[ours_seat] > 0
    our_match = our_iters / max(our_time, 1e-9)
    their_match = their_iters / max(their_time, 1e-9)
    return [
        {
            "game": label,
            "engine": "boardlab mcts",
            "opening it/s": ours,
            "mean it/s": our_match,
            "positions it/s": pos_ours,
            "note": f"{ours / theirs:.1f}x OpenSpiel's it/s at the opening, {ratios[0]:.1f}-{ratios[-1]:.1f}x "
            f"(median {ratios[len(ratios) // 2]:.1f}x) at {len(ratios)} positions along a game, "
            f"{our_match / their_match:.1f}x in the match; "
            f"won {wins}/{matches} against it at {per_move:g} s/move ({our_time / max(1, our_moves):.3f} s/move used)",
        },
        {
            "game": label,
            "engine": "openspiel MCTSBot",
            "opening it/s": theirs,
            "mean it/s": their_match,
            "positions it/s": pos_theirs,
            "note": f"same game through the adapter; {their_time / max(1, their_moves):.3f} s/move used",
        },
    ]


def run(quick: bool) -> list[dict]:
    return per_game_rows(quick) + openspiel_rows(quick)
