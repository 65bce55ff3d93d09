"""The levels' budgets hold: plies capped by CPU seconds, ``expert`` never searching less than ``hard``.

A level's think time is bounded in CPU seconds in every game, however slow its steps (a ply budget alone turns a
slow game into seconds): a game whose every step costs a fixed slice of CPU time shows it, and the slowest
reference games per ``hard`` decision (measured: Fences about 1 s, Combat, Flock of Sheep and Triad about half
a second) hold ``hard`` to 2 CPU seconds.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import boardlab
from boardlab.agents import LEVELS, MCTSAgent, level_figures, level_names, level_seconds, make_agent
from boardlab.core.constants import TERMINAL
from boardlab.core.game import Game, State
from boardlab.core.view import SeatView
from boardlab.server.ai import check_server_agent, level_think_seconds
from boardlab.server.tables import Settings


class SlowRaceGame(Game):
    """Two seats take turns picking 0–3 for 24 plies; seat 0 wins when the sum is even. Each step costs ``cost``.

    The cost is spent as CPU time (``burn="cpu"``) or as sleep (``burn="sleep"``: wall time, almost no CPU).
    """

    id = "test-slow-race"
    mechanics = ("test",)
    playing_time = "1 min"
    cost = 1.5e-4
    burn = "cpu"

    def num_distinct_actions(self) -> int:
        return 4

    def max_game_length(self) -> int:
        return 24

    def scene(self, observation: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
        return {}


class SlowRaceState(State):
    def __init__(self, game: Game, num_players: int) -> None:
        super().__init__(game, num_players)
        self.picks: list[int] = []

    def current_player(self) -> int:
        return len(self.picks) % 2 if len(self.picks) < 24 else TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1, 2, 3]

    def _apply(self, action: int) -> None:
        cost = self.game.cost  # type: ignore[attr-defined]
        if self.game.burn == "sleep":  # type: ignore[attr-defined]
            time.sleep(cost)
        else:
            end = time.process_time() + cost
            while time.process_time() < end:
                pass
        self.picks = [*self.picks, action]

    def returns(self) -> list[float]:
        even = sum(self.picks) % 2 == 0
        return [1.0, -1.0] if even else [-1.0, 1.0]

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {"picks": self.picks}


SlowRaceGame.state_class = SlowRaceState


def _cpu_decision(spec: str, state: State, seat: int) -> tuple[float, int]:
    """One decision of ``spec`` at ``state``: its CPU seconds and the plies it searched."""
    agent = make_agent(spec, state.game, seat, 1)
    assert isinstance(agent, MCTSAgent)
    start = time.process_time()
    agent.step(SeatView(state, seat))
    return time.process_time() - start, agent.last["plies"]


@pytest.fixture(scope="module")
def slow_searches() -> dict[str, tuple[float, int]]:
    """``hard`` and ``expert`` at the first decision of a game whose 20,000 plies cost over 2 CPU seconds."""
    state = SlowRaceGame().new_initial_state()
    return {level: _cpu_decision(level, state, 0) for level in ("hard", "expert")}


def test_every_level_has_a_cap_in_cpu_seconds_and_expert_more_than_hard_of_both() -> None:
    caps = [level_seconds(level) for level in level_names()]
    plies = [int(LEVELS[level]["plies"]) for level in level_names()]
    assert all(LEVELS[level].get("clock") == "cpu" for level in level_names())
    assert caps == sorted(caps) and len(set(caps)) == len(caps)  # each level thinks longer than the one below
    assert plies == sorted(plies) and len(set(plies)) == len(plies)
    assert level_seconds("expert") > level_seconds("hard") and plies[-1] > plies[-2]


def test_hard_stops_at_its_cpu_cap_in_a_slow_game(slow_searches: dict[str, tuple[float, int]]) -> None:
    seconds, plies = slow_searches["hard"]
    assert seconds <= level_seconds("hard") + 0.25
    assert plies < int(LEVELS["hard"]["plies"])  # the cap, not the plies, ended this search


def test_expert_searches_at_least_as_much_as_hard_in_a_slow_game(slow_searches: dict[str, tuple[float, int]]) -> None:
    hard_plies = slow_searches["hard"][1]
    expert_seconds, expert_plies = slow_searches["expert"]
    assert expert_plies >= hard_plies
    assert expert_seconds <= level_seconds("expert") + 0.25


def _positions(game: Game, moves: list[int], seed: int) -> list[State]:
    """Positions after ``moves[i]`` random moves (chance drawn at random), each a seat's decision."""
    rng = random.Random(seed)
    out = []
    for n in moves:
        s = game.new_initial_state()
        played = 0
        while not s.is_terminal():
            cp = s.current_player()
            if cp == boardlab.CHANCE:
                s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            elif played >= n and len(s.legal_actions(cp) if cp >= 0 else [0, 1]) > 1:
                break
            elif cp == boardlab.SIMULTANEOUS:
                s.apply_actions([rng.choice(s.legal_actions(p)) if s.legal_actions(p) else None for p in range(2)])
                played += 1
            else:
                s.apply_action(rng.choice(s.legal_actions()))
                played += 1
        assert not s.is_terminal()
        out.append(s)
    return out


@pytest.mark.parametrize(
    ("game_id", "moves"), [("fences", [0, 6]), ("combat", [0]), ("flock-of-sheep", [0]), ("triad", [6])]
)
def test_hard_thinks_at_most_two_cpu_seconds_a_decision_in_the_slowest_games(game_id: str, moves: list[int]) -> None:
    game = boardlab.make(game_id)
    for state in _positions(game, moves, 1):
        cp = state.current_player()
        seat = cp if cp >= 0 else next(p for p in range(state.num_players) if state.legal_actions(p))
        seconds, _plies = _cpu_decision("hard", state, seat)
        assert seconds <= 2.0, f"{game_id}: hard thought {seconds:.2f} CPU s"


def test_the_server_caps_a_search_on_the_wall_clock_whatever_the_level_counts() -> None:
    """A level counts CPU seconds; the server's per-move limit counts what a player waits for."""
    game = SlowRaceGame()
    game.burn, game.cost = "sleep", 2e-3  # steps that take time but almost no CPU
    agent = make_agent("expert", game, 0, 1)
    assert isinstance(agent, MCTSAgent)
    agent.wall_seconds = 0.3
    start = time.perf_counter()
    agent.step(SeatView(game.new_initial_state(), 0))
    assert time.perf_counter() - start < 0.3 + 0.2


def test_the_levels_fit_in_the_servers_move_limit() -> None:
    limit = Settings().ai_move_seconds
    assert all(level_seconds(level) < limit for level in level_names())
    assert level_think_seconds(limit) == {level: level_seconds(level) for level in level_names()}
    for level in level_names():
        check_server_agent(level, limit)  # every level is a server seat as it stands


def _ladder(*rows: tuple[str, int, int, int]) -> str:
    lines = ["| level | spec | Elo | Elo 95% CI |", "|---|---|---:|---:|", "| random | `random` | +0 | anchor |"]
    lines += [f"| {lv} | `x` | {elo:+d} | {lo:+d} … {hi:+d} |" for lv, elo, lo, hi in rows]
    return "\n".join(lines) + "\n"


def test_a_figure_is_shown_only_where_its_interval_separates_the_levels(tmp_path) -> None:
    # easy and medium overlap: neither gets a number; hard and expert stand clear of their neighbours
    (tmp_path / "g.md").write_text(
        _ladder(("easy", 100, 0, 200), ("medium", 180, 120, 240), ("hard", 500, 400, 600), ("expert", 800, 700, 900))
    )
    assert level_figures("g", tmp_path) == {"hard": 500.0, "expert": 800.0}
    # a weaker-named level measured clearly stronger: no number for either (it would contradict the names)
    (tmp_path / "g.md").write_text(_ladder(("easy", 600, 500, 700), ("medium", 100, 0, 200), ("hard", 900, 800, 999)))
    assert level_figures("g", tmp_path) == {"hard": 900.0}
    # well separated throughout: every figure, rising with the levels
    (tmp_path / "g.md").write_text(_ladder(("easy", 100, 50, 150), ("medium", 300, 250, 350), ("hard", 500, 450, 550)))
    assert level_figures("g", tmp_path) == {"easy": 100.0, "medium": 300.0, "hard": 500.0}
    assert level_figures("absent", tmp_path) == {}


@pytest.mark.parametrize("game_id", boardlab.games())
def test_the_figures_of_every_game_rise_with_the_levels(game_id: str) -> None:
    figures = level_figures(game_id)
    shown = [figures[level] for level in level_names() if level in figures]
    assert shown == sorted(shown) and len(set(shown)) == len(shown), figures
