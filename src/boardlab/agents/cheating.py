"""A *cheating* MCTS that searches the true state: used only to measure a game's luck ceiling.

:class:`CheatingMCTS` is the one agent in boardlab that reads the real state
behind its :class:`~boardlab.core.view.SeatView` (every hidden card and tile),
and it is named so. It is never registered as an agent spec, so no front-end,
server seat or tournament can name it; only the strength measurement
(:mod:`boardlab.agents.strength`) builds it, to show how often *an agent that
sees everything* beats ``random``: with hidden information or chance a game
may cap what any fair agent can reach, and this is the number ``hard`` is
judged against. It does not see the future: chance is still drawn by its
probabilities in its search, as in the fair agent.
"""

from __future__ import annotations

import random
from typing import Any

from ..core.game import Game, State
from ..core.view import SeatView
from .mcts import MCTSAgent


class _AllSeeingView(SeatView):
    """A view whose "resample" is a copy of the true state (the cheat), and whose history is public."""

    __slots__ = ()

    def resample(self, rng: random.Random) -> State:
        return self._state.clone()


class CheatingMCTS:
    """MCTS (the same search, budget and seed as :class:`MCTSAgent`) over the true state, never a redraw."""

    name = "cheating-mcts"

    def __init__(self, game: Game, seat: int = 0, seed: int | None = None, **mcts: Any) -> None:
        # Every iteration copies the true state, so the search is UCT over the real position (no tree reuse:
        # the tree is keyed for the perfect-information path only when the game has perfect information).
        self.inner = MCTSAgent(game, seat, seed, **mcts)
        # It sees every move exactly, so its tree is keyed by the moves themselves, not by a seat's view of them.
        self.inner.by_view = False

    def step(self, view: SeatView) -> int:
        return self.inner.step(_AllSeeingView(view._state, view.seat))
