"""Agents: every front-end and the simulator name them by spec (``random``, …)."""

from .base import Agent, RandomAgent, agent_names, make_agent, parse_agent_spec, register_agent

__all__ = ["Agent", "RandomAgent", "agent_names", "make_agent", "parse_agent_spec", "register_agent"]
