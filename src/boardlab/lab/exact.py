"""Exact analysis of small games through OpenSpiel: size, equilibrium, and how exploitable each AI level is.

Everything goes through :mod:`boardlab.adapters.openspiel` (the ``openspiel``
extra), whose information-state strings are perfect recall, so OpenSpiel's
tabular algorithms apply unchanged:

* :func:`tree_size` counts the game tree (histories, terminal histories and
  information states per seat) by depth-first search, up to a cap.
* :func:`solve` runs OpenSpiel's ``CFRSolver`` and gives the average policy,
  the first seat's value under it and its exploitability (OpenSpiel's
  ``exploitability``: the mean over seats of what a best response gains).
* :func:`agent_policy` turns any boardlab agent (``random``, a level such as
  ``hard``) into an OpenSpiel ``TabularPolicy``: at every information state of
  every seat, the frequencies of the agent's moves over ``samples`` seeded
  calls, the agent seeing only its ``SeatView`` there (as in play).
* :func:`action_frequencies`: how often each seat takes each move, per decision,
  when both follow a policy (reach-weighted): a game's bluffing, locking or
  betting rates in its own words.
* :func:`report` puts these together; ``python -m boardlab.lab.exact GAME
  [option=value ...]`` prints it, or the counted size and why it stops when the
  game is larger than ``cap`` histories.

A tabular solve holds every information state in memory and visits every
history per CFR iteration, in Python: it fits games of up to about 10^5
histories in minutes. ``docs/ai/exact.md`` gives the sizes of the
hidden-information games. A larger game that splits at public positions
(Hamlet, at every round start) is solved by those positions instead, without
OpenSpiel: :mod:`boardlab.lab.by_rounds` over :mod:`boardlab.lab.subgames`
(``python -m boardlab.lab.exact hamlet`` prints that report).
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import boardlab
from boardlab.agents import make_agent
from boardlab.core.view import SeatView

#: The largest tree :func:`report` solves (histories).
DEFAULT_CAP = 200_000


def _spiel(game_id: str, options: dict[str, Any]) -> Any:
    from boardlab.adapters import openspiel as bos

    return bos.load(game_id, **options)


@dataclass
class TreeSize:
    """The counted game tree; ``complete`` is false when the count stopped at the cap."""

    histories: int = 0
    terminals: int = 0
    infostates: list[int] = field(default_factory=list)
    complete: bool = True


def tree_size(game_id: str, cap: int = DEFAULT_CAP, **options: Any) -> TreeSize:
    """Histories, terminal histories and information states per seat, counted up to ``cap`` histories."""
    game = _spiel(game_id, options)
    seen: list[set[str]] = [set() for _ in range(game.num_players())]
    out = TreeSize()
    stack = [game.new_initial_state()]
    while stack:
        if out.histories >= cap:
            out.complete = False
            break
        s = stack.pop()
        out.histories += 1
        if s.is_terminal():
            out.terminals += 1
            continue
        if s.is_simultaneous_node():
            raise ValueError(f"{game_id} has simultaneous moves: count its sequential games only")
        if s.is_chance_node():
            actions = [a for a, _ in s.chance_outcomes()]
        else:
            seat = s.current_player()
            seen[seat].add(s.information_state_string(seat))
            actions = s.legal_actions()
        for a in actions:
            child = s.clone()
            child.apply_action(a)
            stack.append(child)
    out.infostates = [len(x) for x in seen]
    return out


def estimate_histories(game_id: str, samples: int = 1000, seed: int = 0, **options: Any) -> float:
    """Knuth's unbiased estimate of the number of histories: the mean, over random paths from the root, of the
    sum along the path of the product of the branching factors so far (chance and decisions alike).

    Quick where :func:`tree_size` would take hours; the estimate's spread is wide when a few rare paths are long.
    """
    import random

    game = boardlab.make(game_id, **options)
    rng = random.Random(seed)
    total = 0.0
    for _ in range(samples):
        s = game.new_initial_state()
        weight, nodes = 1.0, 1.0
        while not s.is_terminal():
            if s.is_simultaneous_node():
                parts = [s.legal_actions(p) or [None] for p in range(s.num_players)]
                for p in parts:
                    weight *= len(p)
                s.apply_actions([rng.choice(p) for p in parts])
            else:
                actions = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
                weight *= len(actions)
                s.apply_action(rng.choice(actions))
            nodes += weight
        total += nodes
    return total / samples


@dataclass
class Solution:
    """An approximate equilibrium: ``policy`` (OpenSpiel's ``TabularPolicy``), the first seat's value under it,
    its exploitability, and the CFR iterations and CPU seconds it took."""

    policy: Any
    value: float
    exploitability: float
    iterations: int
    seconds: float


def solve(game_id: str, iterations: int = 200, **options: Any) -> Solution:
    """OpenSpiel's CFR (average policy after ``iterations``) on the game through the adapter."""
    from open_spiel.python.algorithms import cfr, exploitability

    game = _spiel(game_id, options)
    cpu = time.process_time()
    solver = cfr.CFRSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    value = policy_value(game, policy)[0]
    gap = exploitability.exploitability(game, policy)
    return Solution(policy, value, gap, iterations, time.process_time() - cpu)


def policy_value(game: Any, policy: Any) -> list[float]:
    """Each seat's expected return when every seat follows ``policy``."""
    from open_spiel.python.algorithms import expected_game_score

    return [float(v) for v in expected_game_score.policy_value(game.new_initial_state(), [policy] * game.num_players())]


def agent_policy(game: Any, spec: str, samples: int = 8, seed: int = 0) -> Any:
    """An agent as a ``TabularPolicy``: its move frequencies over ``samples`` seeded calls at each information state.

    The agent is built for the seat to move and asked with a ``SeatView`` of one
    state of the information state (any state of it: the agent sees only what the
    seat may see). A deterministic agent gives one move with probability 1.
    """
    from open_spiel.python import policy as os_policy

    tabular = os_policy.TabularPolicy(game)
    inner_game = game.boardlab_game
    for key, index in tabular.state_lookup.items():
        state = tabular.states[index]  # OpenSpiel keeps one state per information state
        seat = state.current_player()
        inner = state.boardlab_state
        legal = state.legal_actions()
        counts = dict.fromkeys(legal, 0)
        for k in range(samples):
            agent = make_agent(spec, inner_game, seat, seed=seed + k)
            counts[agent.step(SeatView(inner.clone(), seat))] += 1
        row = tabular.action_probability_array[index]
        row[:] = 0.0
        for a, c in counts.items():
            row[a] = c / samples
        del key
    return tabular


def exploitability_of(game: Any, policy: Any) -> float:
    """OpenSpiel's exploitability of ``policy`` (mean over seats of a best response's gain)."""
    from open_spiel.python.algorithms import exploitability

    return float(exploitability.exploitability(game, policy))


def action_frequencies(game: Any, policy: Any) -> dict[int, dict[str, float]]:
    """Per seat, each move's share of that seat's decisions when all follow ``policy`` (weighted by reach).

    Moves are named by their labels (``"lock"``, ``"bet"``); shares of one seat sum to 1.
    """
    totals: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))

    def walk(state: Any, reach: float) -> None:
        if state.is_terminal() or reach == 0.0:
            return
        if state.is_chance_node():
            for a, p in state.chance_outcomes():
                walk(state.child(a), reach * p)
            return
        seat = state.current_player()
        for a, p in policy.action_probabilities(state).items():
            if p > 0:
                totals[seat][state.action_to_string(seat, a)] += reach * p
                walk(state.child(a), reach * p)

    walk(game.new_initial_state(), 1.0)
    out = {}
    for seat, row in sorted(totals.items()):
        s = sum(row.values())
        out[seat] = {label: v / s for label, v in sorted(row.items())}
    return out


def report(
    game_id: str,
    levels: tuple[str, ...] = ("random", "easy", "medium", "hard"),
    iterations: int = 200,
    samples: int = 8,
    cap: int = DEFAULT_CAP,
    **options: Any,
) -> dict[str, Any]:
    """Size, equilibrium value and exploitability, each level's exploitability, the equilibrium's move shares.

    Stops after the count (``{"size": …, "solved": False}``) when the tree has more than ``cap`` histories.
    """
    size = tree_size(game_id, cap, **options)
    out: dict[str, Any] = {"game": game_id, "options": options, "size": size, "solved": False}
    if not size.complete:
        return out
    game = _spiel(game_id, options)
    sol = solve(game_id, iterations, **options)
    out.update(solved=True, solution=sol, shares=action_frequencies(game, sol.policy), levels={})
    for level in levels:
        cpu = time.process_time()
        pol = agent_policy(game, level, samples)
        out["levels"][level] = (exploitability_of(game, pol), policy_value(game, pol)[0], time.process_time() - cpu)
    return out


def format_report(r: dict[str, Any]) -> str:
    """The report in a few lines of Markdown."""
    size: TreeSize = r["size"]
    opts = "".join(f" {k}={v}" for k, v in r["options"].items())
    lines = [f"## {r['game']}{opts}", ""]
    if not size.complete:
        lines.append(
            f"More than {size.histories:,} histories (the count stopped there; information states seen so far: "
            f"{', '.join(f'{n:,}' for n in size.infostates)}): too large for a tabular solve here."
        )
        return "\n".join(lines)
    sol: Solution = r["solution"]
    lines += [
        f"Histories {size.histories:,} ({size.terminals:,} terminal); information states per seat "
        f"{', '.join(f'{n:,}' for n in size.infostates)}.",
        "",
        f"CFR, {sol.iterations} iterations ({sol.seconds:.1f} CPU s): first seat's value {sol.value:+.4f}, "
        f"exploitability {sol.exploitability:.4f}.",
        "",
        "| policy | exploitability | first seat's value in self-play |",
        "|---|---:|---:|",
        f"| equilibrium (CFR) | {sol.exploitability:.4f} | {sol.value:+.4f} |",
    ]
    for level, (gap, value, _) in r["levels"].items():
        lines.append(f"| {level} | {gap:.4f} | {value:+.4f} |")
    lines += ["", "Equilibrium move shares (per decision of each seat):", ""]
    for seat, row in r["shares"].items():
        lines.append(f"- seat {seat}: " + ", ".join(f"{label} {v:.1%}" for label, v in row.items()))
    return "\n".join(lines)


USAGE = (
    "usage: python -m boardlab.lab.exact GAME [option=value ...] [--cap=N] [--iterations=N]\n"
    "       (a game solved by rounds, such as hamlet: [--levels=random,easy] [--round1=hard] [--samples=N]\n"
    "        [--iterations=N per subgame] [--target=EXPLOITABILITY per subgame])"
)


def main(argv: list[str]) -> int:
    if not argv:
        print(USAGE)
        return 2
    game_id, rest = argv[0], argv[1:]
    kw: dict[str, Any] = {}
    options: dict[str, Any] = {}
    for arg in rest:
        name, _, value = arg.partition("=")
        if name in ("--cap", "--iterations", "--samples"):
            kw[name[2:]] = int(value)
        elif name == "--target":
            kw["target"] = float(value)
        elif name in ("--levels", "--round1"):
            kw["levels" if name == "--levels" else "round_one_levels"] = tuple(v for v in value.split(",") if v)
        elif name.startswith("--") or not value:
            print(f"unknown argument {arg!r}\n{USAGE}")
            return 2
        else:
            options[name] = value
    opts = {o.name: o for o in boardlab.make(game_id).options}
    typed = {k: (v.lower() == "true" if opts[k].type is bool else opts[k].type(v)) for k, v in options.items()}
    from . import by_rounds

    if game_id in by_rounds.BOUNDARIES:
        kw.pop("cap", None)
        print(by_rounds.format_report(by_rounds.report(game_id, **kw, **typed)))
        return 0
    for name in ("target", "round_one_levels"):
        kw.pop(name, None)
    print(format_report(report(game_id, **kw, **typed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
