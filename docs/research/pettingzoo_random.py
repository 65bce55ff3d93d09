"""A random policy on a boardlab game through PettingZoo's AEC API (README, "For researchers").

Run it as ``python docs/research/pettingzoo_random.py [GAME] [SEED]``; the test suite runs it too.
"""

from __future__ import annotations

import sys

from boardlab.adapters.pettingzoo import env as make_env


def play(game_id: str = "dragon-fight", seed: int = 0) -> dict[str, float]:
    """One episode of uniformly random legal moves; each agent's total reward."""
    env = make_env(game_id)
    env.reset(seed=seed)
    for k, agent in enumerate(env.agents):
        env.action_space(agent).seed(seed + k)  # each agent's space draws its own moves
    totals = dict.fromkeys(env.agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            action = None  # a finished agent steps once with None, then leaves env.agents
        else:
            action = env.action_space(agent).sample(obs["action_mask"])  # only legal moves
        env.step(action)
    env.close()
    return totals


if __name__ == "__main__":
    game = sys.argv[1] if len(sys.argv) > 1 else "dragon-fight"
    print(play(game, int(sys.argv[2]) if len(sys.argv) > 2 else 0))
