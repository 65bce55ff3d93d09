"""Games go through the template: they fill in hooks and leave the public checks to the core."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.core.game import State

#: Public methods a game is meant to define (``core/game.py``'s list of hooks) or may speed up
#: (``clone`` with nested tables, ``play_random`` checked move for move by the conformance suite).
HOOKS = {"current_player", "is_terminal", "returns", "observation", "resample", "clone", "play_random", "evaluate"}
PUBLIC = {n for n, v in vars(State).items() if not n.startswith("_") and callable(v)}


def overridden(game_id: str) -> set[str]:
    cls = boardlab.make(game_id).state_class
    return {n for n in PUBLIC for k in cls.__mro__ if k is not State and k is not object and n in vars(k)}


@pytest.mark.parametrize("game_id", boardlab.games())
def test_no_game_overrides_the_public_checks(game_id: str) -> None:
    assert overridden(game_id) <= HOOKS, f"{game_id} overrides {sorted(overridden(game_id) - HOOKS)}"


def test_blast_radius_refuses_through_the_core() -> None:
    """The checks it once did itself are the core's: same refusals, state unchanged."""
    s = boardlab.make("blast-radius", board_side=5).new_initial_state()
    s.apply_action(0)
    before = (s.history(), s.observation(None))
    for bad in (0, 1, -1, 61, 62, True, "3"):
        with pytest.raises(boardlab.IllegalActionError):
            s.apply_action(bad)  # type: ignore[arg-type]
    with pytest.raises(boardlab.OutOfTurnError):
        s.apply_action(30, player=0)
    assert (s.history(), s.observation(None)) == before
    assert s.legal_actions(0) == [] and s.legal_actions(1) == s.legal_actions()
