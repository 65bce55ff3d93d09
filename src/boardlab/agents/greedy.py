"""The greedy agent: one ply of lookahead.

For each legal action it looks at the position after it, on a determinisation
drawn with ``view.resample`` (the position itself, copied, in perfect-
information games), and scores it for its own seat:

* with the game's own evaluation, ``State.evaluate(seat) -> float``, where the
  game provides one (once per action with perfect information, averaged over
  ``playouts`` determinisations where information is hidden);
* otherwise by the mean return of ``playouts`` uniformly random playouts.

At a simultaneous decision the other seats' actions in the lookahead are drawn
at random. Ties are broken by the agent's own seeded RNG.
"""

from __future__ import annotations

import math
import random

from ..core.constants import SIMULTANEOUS
from ..core.game import Game, State
from ..core.view import SeatView
from .base import register_agent
from .mcts import evaluation_of
from .params import AgentParams
from .rollout import has_evaluation, random_rollout


class GreedyAgent:
    name = "greedy"

    def __init__(self, game: Game, seat: int = 0, seed: int | None = None, *, playouts: int = 4) -> None:
        if playouts < 1:
            raise ValueError(f"greedy playouts must be at least 1; got {playouts}")
        self.game = game
        self.seat = seat
        self.playouts = playouts
        self.rng = random.Random(seed)
        self.cap = game.max_game_length()

    def step(self, view: SeatView) -> int:
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action now")
        if len(legal) == 1:
            return legal[0]
        seat = view.seat
        rng = self.rng
        best: list[int] = []
        best_value = -math.inf
        samples: int | None = None
        for a in legal:
            total = 0.0
            k = 0
            while samples is None or k < samples:
                d = self._after(view, a)
                value = None if d.is_terminal() else evaluation_of(d, seat)
                if samples is None:  # decided on the first look: the game evaluates, or we play out
                    has_eval = value is not None or (d.is_terminal() and has_evaluation(d))
                    samples = 1 if has_eval and view.game.perfect_information else self.playouts
                if value is None:
                    value = d.returns()[seat] if d.is_terminal() else random_rollout(d, rng, self.cap)[seat]
                total += value
                k += 1
            mean = total / k
            if mean > best_value:
                best, best_value = [a], mean
            elif mean == best_value:
                best.append(a)
        return best[0] if len(best) == 1 else rng.choice(best)

    def _after(self, view: SeatView, action: int) -> State:
        d = view.resample(self.rng)
        if d.current_player() == SIMULTANEOUS:
            joint: list[int | None] = []
            for p in range(d.num_players):
                if p == view.seat:
                    joint.append(action)
                else:
                    legal = d.legal_actions(p)
                    joint.append(self.rng.choice(legal) if legal else None)
            d.apply_actions(joint)
        else:
            d.apply_action(action)
        return d


def greedy_factory(game: Game, seat: int, seed: int | None, params: dict[str, str]) -> GreedyAgent:
    p = AgentParams("greedy", params)
    agent = GreedyAgent(game, seat, seed, playouts=p.int("playouts", 4) or 0)
    p.done()
    return agent


register_agent("greedy", greedy_factory)
