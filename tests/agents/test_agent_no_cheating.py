"""No agent peeks: in every game with hidden information, redrawing what a seat cannot see (its observation
unchanged) never changes that seat's choice under a fixed seed.

The variants of a position are the game's own ``resample(seat, rng)``: complete states that the seat cannot
tell apart from the real one. An agent that read anything beyond its view (the other seats' cards, the
orders not yet revealed) would, sooner or later, decide differently on some variant.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from minigames import KuhnGame

import boardlab
from boardlab.agents import make_agent
from boardlab.core import hidden
from boardlab.core.constants import SIMULTANEOUS
from boardlab.core.game import Game, State
from boardlab.core.view import SeatView
from state_checks import random_step

SPECS = ("random", "greedy:playouts=2", "mcts:iterations=48", "easy")


def hidden_settings(game_id: str) -> list[dict[str, Any]]:
    """Option settings (the defaults, else each single option change) under which ``game_id`` hides information,
    as its declared game type says."""
    default = boardlab.make(game_id)
    if not default.perfect_information:
        return [{}]
    found: list[dict[str, Any]] = []
    for opt in default.options:
        for value in opt.allowed or ():
            if value != opt.default and not boardlab.make(game_id, **{opt.name: value}).perfect_information:
                found.append({opt.name: value})
    return found


HIDDEN = [(g, opts) for g in boardlab.games() for opts in hidden_settings(g)]


def decision_points(game: Game, seed: int, wanted: int) -> list[tuple[State, int]]:
    """``(state, seat)`` pairs where ``seat`` has a real choice, spread along seeded random games."""
    rng = random.Random(seed)
    found: list[tuple[State, int]] = []
    for _ in range(50):
        s = game.new_initial_state()
        while not s.is_terminal() and s.move_number() < game.max_game_length():
            cp = s.current_player()
            seats = range(s.num_players) if cp == SIMULTANEOUS else [cp] if cp >= 0 else []
            for p in seats:
                if len(s.legal_actions(p)) > 1 and rng.random() < 0.5:
                    found.append((s.clone(), p))
            random_step(s, rng)
        if len(found) >= 3 * wanted:
            break
    rng.shuffle(found)
    return found[:wanted]


def choice(spec: str, state: State, seat: int) -> int:
    return make_agent(spec, state.game, seat, seed=11).step(SeatView(state, seat))


def check_game(game: Game, positions: int, variants: int) -> None:
    points = decision_points(game, seed=5, wanted=positions)
    assert points, f"{game.id}: no position with a real choice found"
    differing = 0
    open_to_seats = True  # whether every seat saw every step exactly (only spectators kept out)
    for state, seat in points:
        open_to_seats = open_to_seats and all(
            hidden.exact_for(seen, p) for seen in hidden.seens_of(state) for p in range(state.num_players)
        )
        seen = json.dumps(state.observation(seat), sort_keys=True)
        everyone = json.dumps([state.observation(p) for p in range(state.num_players)], sort_keys=True)
        chosen = {spec: choice(spec, state, seat) for spec in SPECS}
        for k in range(variants):
            other = state.resample(seat, random.Random(1000 + k))
            assert json.dumps(other.observation(seat), sort_keys=True) == seen
            assert other.legal_actions(seat) == state.legal_actions(seat)
            views = json.dumps([other.observation(p) for p in range(other.num_players)], sort_keys=True)
            # a variant differs when some seat's view does, or (hidden from every seat alike, such as
            # face-down cave cards) when only its history does
            if views != everyone or other.history() != state.history():
                differing += 1
            for spec, action in chosen.items():
                assert choice(spec, other, seat) == action, (
                    f"{game.id}: {spec} at seat {seat} chose {action} on the real position but "
                    f"{choice(spec, other, seat)} on a variant it cannot tell apart (after {state.history()})"
                )
    if not differing and open_to_seats:  # every seat sees the whole game: only spectators are kept out
        pytest.skip(f"{game.id}: the seats hide nothing from one another, so there is nothing to peek at")
    assert differing, f"{game.id}: no variant differed in hidden information; the test would prove nothing"


@pytest.mark.parametrize(
    ("game_id", "options"), HIDDEN, ids=[g + "".join(f"-{v}" for v in o.values()) for g, o in HIDDEN]
)
def test_hidden_information_never_changes_a_choice(game_id: str, options: dict[str, Any]) -> None:
    game = boardlab.make(game_id, **options)
    assert not game.perfect_information, (
        f"{game_id} with {options} is typed perfect information, "
        "so SeatView.resample hands agents a copy of the real state"
    )
    check_game(game, positions=6, variants=3)


def test_no_cheating_on_kuhn_poker() -> None:
    check_game(KuhnGame(), positions=4, variants=3)
