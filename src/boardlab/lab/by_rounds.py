"""Games solved exactly by their public positions: Hamlet's rounds (``docs/ai/exact.md``).

Hamlet decomposes at every round start (checked against ``games/hamlet.py``,
see ``docs/ai/exact.md``): nobody holds a card, every earlier card is revealed,
and the rest of the game is a function of the round, the cards still in play,
who goes first and the score alone. :func:`hamlet_position` is that public key;
:class:`boardlab.lab.subgames.Induction` solves the 185 subgames (the coin, 2
round-1 games, 42 round-2 and 140 round-3 games) by CFR+ from the last round
back, and measures best responses the same way.

* :func:`solve` runs the induction for a game of :data:`BOUNDARIES`.
* :func:`level_strategies` turns an agent (``random``, ``easy``, a level) into a
  strategy per subgame: at each information state, the frequencies of its moves
  over ``samples`` seeded calls, asked with a ``SeatView`` of one state of that
  information state (as :func:`boardlab.lab.exact.agent_policy` does). An MCTS
  level searches over the whole log, earlier rounds included, so the answer at
  an information state could depend on how the round's position was reached:
  it is asked at one history per position (the first the enumeration met).
  ``rounds`` limits it to some rounds, the equilibrium playing the others.
* :func:`choice_shares`: how often each move is chosen, by round, by who goes
  first and by the card held, under a strategy (weighted by how often the
  decision is reached).
* :func:`report` / :func:`format_report`: the value, the exploitability of the
  equilibrium and of each level, and the equilibrium's locking, trading and
  drawing; ``python -m boardlab.lab.exact hamlet`` prints it.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import boardlab
from boardlab.agents import make_agent
from boardlab.core.game import Game, State
from boardlab.core.view import SeatView

from .subgames import Boundary, Induction, Strategy, Tree


def hamlet_position(state: State) -> Hashable | None:
    """A Hamlet state's public key at the start of a round (before its first deal), else ``None``:
    (round, cards still in play, who goes first, rounds won by each seat)."""
    from boardlab.games.hamlet import HamletState

    if not isinstance(state, HamletState) or not state.rounds or state.is_terminal() or state.rounds[-1].steps:
        return None
    r = state.rounds[-1]
    return (r.number, r.remaining, r.first, tuple(state.wins))


def _hamlet_describe(state: State, seat: int) -> tuple[int, str, str]:
    """(round, who decides, card held) at a Hamlet decision, in the game's words."""
    from boardlab.games.hamlet import ACTION_NAMES, CARDS

    r = state.rounds[-1]  # type: ignore[attr-defined]
    if seat == r.first:
        who = "first player"
    else:
        done = [k for k, s, _, _ in r.events[2] if k in ACTION_NAMES]
        who = f"second player, after a {done[0]}"
    return r.number, who, CARDS[r.hand[seat]]


#: Games with public positions: the boundary function and how a decision is described.
BOUNDARIES: dict[str, tuple[Boundary, Callable[[State, int], tuple[int, str, str]]]] = {
    "hamlet": (hamlet_position, _hamlet_describe),
}


def solve(game_id: str, iterations: int = 5000, target: float = 1e-5, **options: Any) -> Induction:
    """Backward induction by CFR+ over the game's public positions (each tree to ``target`` exploitability)."""
    game = boardlab.make(game_id, **options)
    boundary = BOUNDARIES[game_id][0]
    ind = Induction(game.new_initial_state(2), boundary, iterations, target)
    ind.solve()
    return ind


def tree_strategy(tree: Tree, game: Game, spec: str, samples: int, seed: int = 0) -> Strategy:
    """An agent's move frequencies at each information state of ``tree`` (``random`` exactly: uniform)."""
    if spec == "random":
        return tree.uniform()
    out = np.zeros(tree.slots)
    for i, state in enumerate(tree.info_state):
        seat = int(tree.info_seat[i])
        s0, n = int(tree.info_start[i]), int(tree.info_size[i])
        legal = [int(a) for a in tree.slot_action[s0 : s0 + n]]
        for k in range(samples):
            agent = make_agent(spec, game, seat, seed=seed + k)
            out[s0 + legal.index(agent.step(SeatView(state.clone(), seat)))] += 1.0 / samples
    return out


def level_strategies(
    ind: Induction, game: Game, spec: str, samples: int = 4, seed: int = 0, rounds: set[int] | None = None
) -> dict[Hashable, Strategy]:
    """The agent's strategy in every subgame whose round is in ``rounds`` (all when ``None``); the equilibrium's
    in the others."""
    eq = ind.strategies()
    out: dict[Hashable, Strategy] = {}
    for key, t in ind.trees.items():
        number = _round_of(t)
        if rounds is None or number in rounds:
            out[key] = tree_strategy(t, game, spec, samples, seed)
        else:
            out[key] = eq[key]
    return out


def _round_of(t: Tree) -> int:
    """The round of a tree's decisions (0 for a tree with none, such as the coin)."""
    if not t.info_state:
        return 0
    return int(t.info_state[0].rounds[-1].number)  # type: ignore[attr-defined]


def choice_shares(
    ind: Induction, strategies: dict[Hashable, Strategy], describe: Callable[[State, int], tuple[int, str, str]]
) -> dict[tuple[int, str, str], dict[str, float]]:
    """Per (round, who decides, card held): each move's share, weighted by how often the decision is reached
    when both seats follow ``strategies``; the card ``"any"`` sums over the cards. Each row carries its
    reach (``"reach"``: the expected number of such decisions per game)."""
    from .subgames import reach_of

    pos_reach = ind.reach(strategies)
    acc: dict[tuple[int, str, str], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for key, t in ind.trees.items():
        if pos_reach[key] == 0.0 or not t.slots:
            continue
        r = reach_of(t, strategies[key]) * pos_reach[key]
        # The reach of each information state: the sum over its histories (the decision nodes).
        dec = np.flatnonzero(t.slot >= 0)
        node_info = np.full(t.size, -1, dtype=np.int64)
        node_info[t.parent[dec]] = t.slot_info[t.slot[dec]]
        nodes = np.flatnonzero(node_info >= 0)
        info_reach = np.bincount(node_info[nodes], weights=r[nodes], minlength=len(t.info_start))
        sigma = strategies[key]
        for i, state in enumerate(t.info_state):
            w = info_reach[i]
            if w == 0.0:
                continue
            seat = int(t.info_seat[i])
            number, who, card = describe(state, seat)
            s0, n = int(t.info_start[i]), int(t.info_size[i])
            for k in range(n):
                label = state.action_to_string(seat, int(t.slot_action[s0 + k]))
                for c in (card, "any"):
                    acc[(number, who, c)][label] += w * sigma[s0 + k]
            for c in (card, "any"):
                acc[(number, who, c)]["reach"] += w
    out = {}
    for row, shares in sorted(acc.items()):
        total = shares["reach"]
        out[row] = {k: (v if k == "reach" else v / total) for k, v in shares.items()}
    return out


@dataclass
class LevelResult:
    """A level's exploitability (whole game, or its ``rounds`` with the equilibrium elsewhere), its value
    against the equilibrium from each seat, and the CPU seconds its strategy took."""

    spec: str
    rounds: str
    exploitability: float
    against_equilibrium: tuple[float, float]
    samples: int
    seconds: float


@dataclass
class Report:
    game: str
    options: dict[str, Any]
    value: float
    first_values: dict[int, float]
    exploitability: float
    trees: int
    histories: int
    information_states: int
    iterations: int
    worst_tree_gap: float
    lp_gap: float | None  # the largest |CFR+ value - LP value| over the round games (None without SciPy)
    lp_first_values: dict[int, float] | None  # the exact values by LP induction, by who goes first in round 1
    seconds: float
    shares: dict[tuple[int, str, str], dict[str, float]]
    levels: list[LevelResult] = field(default_factory=list)


def _lp_check(ind: Induction) -> tuple[float | None, dict[int, float] | None]:
    """CFR+'s worst error against the LP per round game, and the round-1 values by LP induction alone."""
    try:
        import scipy  # noqa: F401  (with the openspiel extra)
    except ImportError:
        return None, None
    exact = ind.exact_values()
    return ind.lp_gap(), {k[2]: v for k, v in exact.items() if isinstance(k, tuple) and k[0] == 1}


def level_result(ind: Induction, game: Game, spec: str, samples: int, rounds: set[int] | None) -> LevelResult:
    """Exploitability of ``spec`` (in ``rounds``; the equilibrium elsewhere) and its value against the
    equilibrium, as each seat."""
    cpu = time.process_time()
    lv = level_strategies(ind, game, spec, samples, rounds=rounds)
    eq = ind.strategies()
    k = ind.root_key
    gap = ind.exploitability(lv)
    # The level as seat 0 against the equilibrium as seat 1, and the other way round (each seat's own return).
    as0 = ind.values({key: _mix(t, lv[key], eq[key], 0) for key, t in ind.trees.items()})[k]
    as1 = -ind.values({key: _mix(t, lv[key], eq[key], 1) for key, t in ind.trees.items()})[k]
    label = "all" if rounds is None else ", ".join(str(r) for r in sorted(rounds)) + " (equilibrium after)"
    return LevelResult(spec, label, gap, (as0, as1), samples, time.process_time() - cpu)


def _mix(t: Tree, mine: Strategy, other: Strategy, seat: int) -> Strategy:
    """``mine`` at ``seat``'s information states, ``other`` at the other seat's."""
    return np.where(t.info_seat[t.slot_info] == seat, mine, other)


def report(
    game_id: str,
    levels: tuple[str, ...] = ("random",),
    round_one_levels: tuple[str, ...] = ("random", "easy", "medium"),
    samples: int = 4,
    iterations: int = 5000,
    target: float = 1e-5,
    **options: Any,
) -> Report:
    """Solve the game by its public positions; measure each of ``levels`` over the whole game and each of
    ``round_one_levels`` in round 1 only (the equilibrium playing rounds 2 and 3)."""
    cpu = time.process_time()
    ind = solve(game_id, iterations, target, **options)
    game = boardlab.make(game_id, **options)
    eq = ind.strategies()
    firsts = {k[2]: p.value for k, p in ind.positions.items() if isinstance(k, tuple) and k[0] == 1}
    lp_gap, lp_firsts = _lp_check(ind)
    out = Report(
        game=game_id,
        options=options,
        value=ind.positions[ind.root_key].value,
        first_values=firsts,
        exploitability=ind.exploitability(eq),
        trees=len(ind.trees),
        histories=sum(t.size for t in ind.trees.values()),
        information_states=sum(len(t.info_start) for t in ind.trees.values()),
        iterations=sum(p.solution.iterations for p in ind.positions.values()),
        worst_tree_gap=max(p.solution.exploitability for p in ind.positions.values()),
        lp_gap=lp_gap,
        lp_first_values=lp_firsts,
        seconds=time.process_time() - cpu,
        shares=choice_shares(ind, eq, BOUNDARIES[game_id][1]),
    )
    # The cheap round-1 measures first; each row is printed (to stderr) as soon as it is measured.
    for spec, rounds in [(s, {1}) for s in round_one_levels] + [(s, None) for s in levels]:
        out.levels.append(level_result(ind, game, spec, samples, rounds))
        print(level_row(out.levels[-1]), file=sys.stderr, flush=True)
    return out


def _gap(x: float) -> str:
    return f"{x:.4f}" if abs(x) >= 1e-3 else f"{x:.1e}"


def level_row(lv: LevelResult) -> str:
    """A level's row of the report's table."""
    calls = f"{lv.samples} call{'' if lv.samples == 1 else 's'} per information state"
    spec = lv.spec if lv.spec == "random" else f"{lv.spec} ({calls})"
    a0, a1 = lv.against_equilibrium
    return f"| {spec} | {lv.rounds} | {_gap(lv.exploitability)} | {a0:+.4f} / {a1:+.4f} | {lv.seconds:.0f} |"


def format_report(r: Report) -> str:
    """The report in Markdown."""
    opts = "".join(f" {k}={v}" for k, v in r.options.items())
    lines = [
        f"## {r.game}{opts}: solved by rounds",
        "",
        f"{r.trees} subgames ({r.histories:,} histories, {r.information_states:,} information states), "
        f"CFR+ {r.iterations:,} iterations in all, {r.seconds:.1f} CPU s; worst subgame's exploitability "
        f"{r.worst_tree_gap:.1e}"
        + (
            f"; each round game's value is within {r.lp_gap:.1e} of its exact value (sequence-form LP)."
            if r.lp_gap is not None
            else "."
        ),
        "",
        f"Equilibrium value for the first seat: {r.value:+.5f}"
        + "".join(f"; {v:+.5f} when seat {s} goes first in round 1" for s, v in sorted(r.first_values.items()))
        + ".",
        f"Exploitability of the composed equilibrium (best responses by the same induction): {r.exploitability:.1e}.",
    ]
    if r.lp_first_values is not None:
        lines.append(
            "Exact values by LP induction: "
            + "; ".join(f"{v:+.6f} when seat {s} goes first in round 1" for s, v in sorted(r.lp_first_values.items()))
            + "."
        )
    lines += [
        "",
        "| policy | rounds | exploitability | its return as seat 0 / seat 1 against the equilibrium | CPU s |",
        "|---|---|---:|---:|---:|",
        f"| equilibrium (CFR+) | all | {_gap(r.exploitability)} | {r.value:+.4f} / {-r.value:+.4f} | {r.seconds:.0f} |",
    ]
    lines += [level_row(lv) for lv in r.levels]
    lines += ["", "Equilibrium's choices (share of the decisions; reach: decisions per game):", ""]
    lines += ["| round | who | card | lock | trade | draw | reach |", "|---|---|---|---:|---:|---:|---:|"]
    for (number, who, card), row in r.shares.items():
        cells = [f"{row[m]:.1%}" if m in row else "" for m in ("lock", "trade", "draw")]
        lines.append(f"| {number} | {who} | {card} | {' | '.join(cells)} | {row['reach']:.3f} |")
    return "\n".join(lines)
