"""Helpers shared by tests: a fingerprint of everything observable about a state, and random steps."""

from __future__ import annotations

import json
import random
from typing import Any

import boardlab
from boardlab.core.constants import CHANCE, SIMULTANEOUS
from boardlab.core.game import State
from boardlab.core.play import sample_chance


def fingerprint(state: State) -> str:
    """Everything observable about a state, for equality checks."""
    n = state.num_players
    cp = state.current_player()
    data: dict[str, Any] = {
        "history": state.history(),
        "current": cp,
        "terminal": state.is_terminal(),
        "returns": state.returns() if state.is_terminal() else None,
        "obs": [state.observation(p) for p in range(n)] + [state.observation(None)],
        "legal": [state.legal_actions(p) for p in range(n)],
        "chance": state.chance_outcomes() if cp == CHANCE else None,
    }
    return json.dumps(data, sort_keys=True)


def random_step(state: State, rng: random.Random) -> object:
    cp = state.current_player()
    if cp == CHANCE:
        a: object = sample_chance(state, rng)
        state.apply_action(a)  # type: ignore[arg-type]
    elif cp == SIMULTANEOUS:
        a = [rng.choice(state.legal_actions(p)) if state.legal_actions(p) else None for p in range(state.num_players)]
        state.apply_actions(a)  # type: ignore[arg-type]
    else:
        a = rng.choice(state.legal_actions())
        state.apply_action(a)  # type: ignore[arg-type]
    return a


def all_games() -> list[str]:
    return boardlab.games()
