"""Agents: every front-end and the simulator name them by spec.

Specs: ``random``, ``greedy``, ``mcts``, ``mcts:iterations=2000``,
``mcts:seconds=1``, or a level (``easy``, ``medium``, ``hard``, ``expert``),
built with :func:`make_agent`. Every agent sees only a
:class:`~boardlab.core.view.SeatView`. See ``docs/ai/README.md``.
"""

from .base import Agent, RandomAgent, agent_names, make_agent, parse_agent_spec, register_agent
from .greedy import GreedyAgent
from .levels import (
    LEVELS,
    level_figures,
    level_head_to_head,
    level_intervals,
    level_names,
    level_note,
    level_ratings,
    level_seconds,
    level_spec,
)
from .mcts import MCTSAgent

__all__ = [
    "LEVELS",
    "Agent",
    "GreedyAgent",
    "MCTSAgent",
    "RandomAgent",
    "agent_names",
    "level_figures",
    "level_head_to_head",
    "level_intervals",
    "level_names",
    "level_note",
    "level_ratings",
    "level_seconds",
    "level_spec",
    "make_agent",
    "parse_agent_spec",
    "register_agent",
]
