"""The designer's lab: simulate many games between agents and measure balance.

>>> from boardlab.lab import simulate
>>> result = simulate("blast-radius", games=20, agents=["random", "random"], options={"board_side": 5}, seed=1)
>>> result.games, sum(result.wins) + result.draws + result.no_winner + result.capped
(20, 20)
"""

from .simulate import GameSummary, SimulationResult, game_seed, play_one, simulate, wilson_interval

__all__ = ["GameSummary", "SimulationResult", "game_seed", "play_one", "simulate", "wilson_interval"]
