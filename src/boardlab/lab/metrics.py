"""Per-game measurements for the balance report: one played game in, one small JSON-able dict out.

Every function here is pure: it reads a finished game (its history, returns and
the evaluations at a few positions) and computes what ``docs/LAB.md`` defines.
:func:`play_balance_game` plays game ``index`` of a run; it is a top-level
function of one picklable job, so any runner (processes, Ray) can map it.

Pairing. Games come in *groups* of ``rotations`` games (the number of seats when
the run measures luck, else 1): the games of a group draw their chance outcomes
from one stream of uniform numbers (the k-th chance node of each game uses the
k-th number) and rotate the agents round the seats. So the groups hold the
chance fixed while the agents change places (the luck measure), and every agent
sits in every seat equally often.

>>> from boardlab.lab.metrics import lead_changes, drama, decisiveness
>>> lead_changes([[0.6, 0.4], [0.4, 0.6], [0.3, 0.7]])
0.5
>>> drama([[0.8, 0.2], [0.5, 0.5], [0.0, 1.0]], winners=[1])
(0.2, 0.6)
>>> decisiveness([[0.8, 0.2], [0.5, 0.5], [0.0, 1.0]], winners=[1])
0.6667
"""

from __future__ import annotations

import hashlib
import itertools
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..agents import make_agent
from ..core.constants import SIMULTANEOUS
from ..core.driver import agents_choose, pick_chance, play, replay
from ..core.game import Game, State
from ..core.record import outcome
from ..core.view import SeatView
from ..games import make_cached
from . import planners  # noqa: F401  (registers the scripted strategies the lab plays)

#: Deciles of a game's course over which the branching factor is averaged.
PHASES = 10


@dataclass(frozen=True)
class BalanceJob:
    """Game ``index`` of a balance run (picklable: ids and specs only)."""

    game_id: str
    options: dict[str, Any]
    num_players: int
    agents: tuple[str, ...]
    seed: int
    index: int
    rotations: int = 1
    probe_points: int = 8
    probe_playouts: int = 2


def group_seed(seed: int, group: int) -> int:
    """The chance seed of group ``group`` of a run seeded ``seed`` (63 bits, stable across platforms)."""
    digest = hashlib.sha256(f"boardlab-balance/{seed}/{group}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def agent_seed(chance_seed: int, agent: int) -> int:
    """Agent ``agent``'s seed in a group: the same whichever seat it holds (it carries its stream round)."""
    digest = hashlib.sha256(f"boardlab-balance-agent/{chance_seed}/{agent}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seat_agents(num_players: int, rotation: int) -> list[int]:
    """Which agent (index into the run's specs) holds each seat in ``rotation``.

    >>> seat_agents(2, 0), seat_agents(2, 1), seat_agents(3, 1)
    ([0, 1], [1, 0], [1, 2, 0])
    """
    return [(p + rotation) % num_players for p in range(num_players)]


def probe_indices(length: int, points: int) -> list[int]:
    """``points`` history positions spread evenly over a game of ``length`` entries (before each), distinct.

    >>> probe_indices(100, 4), probe_indices(3, 8)
    ([0, 25, 50, 75], [0, 1, 2])
    """
    if length <= 0 or points <= 0:
        return []
    return sorted({(k * length) // points for k in range(points)})


def leaders(values: Sequence[float]) -> frozenset[int]:
    top = max(values)
    return frozenset(p for p, v in enumerate(values) if v >= top - 1e-9)


def lead_changes(evals: Sequence[Sequence[float]]) -> float | None:
    """Share of steps between consecutive probed positions where the set of leading seats changes (Ludii's LeadChange)."""
    if len(evals) < 2:
        return None
    sets = [leaders(e) for e in evals]
    return sum(a != b for a, b in itertools.pairwise(sets)) / (len(sets) - 1)


def drama(evals: Sequence[Sequence[float]], winners: Sequence[int]) -> tuple[float, float] | None:
    """``(mean, max)`` over probed positions of how far the eventual winner was behind the leader (Ludii's Drama)."""
    if not evals or not winners:
        return None
    gaps = [max(e) - max(e[w] for w in winners) for e in evals]
    return (round(statistics.fmean(gaps), 4), round(max(gaps), 4))


def decisiveness(evals: Sequence[Sequence[float]], winners: Sequence[int]) -> float | None:
    """The share of the game (in probed positions) played before the winner first passed every loser's best (Ludii's DecisivenessMoves).

    The threshold is the highest evaluation a seat that did not win ever reached; 1.0 when the winner never
    passed it before the end.
    """
    if not evals or not winners:
        return None
    losers = [p for p in range(len(evals[0])) if p not in winners]
    if not losers:
        return None
    threshold = max(e[p] for e in evals for p in losers)
    for k, e in enumerate(evals):
        if max(e[w] for w in winners) > threshold:
            return round(k / len(evals), 4)
    return 1.0


def evaluate_position(state: State, playouts: int, rng: random.Random) -> list[float]:
    """Each seat's expected result here on a 0-1 scale: the game's own evaluation, else the mean of random playouts.

    An analysis from the whole state (the lab is a spectator who sees everything; no agent ever gets this).
    """
    gt = state.game.game_type
    lo, hi = gt.min_utility, gt.max_utility
    span = (hi - lo) or 1.0
    n = state.num_players
    if state.is_terminal():
        return [(r - lo) / span for r in state.returns()]
    own = [state.evaluate(p) for p in range(n)]
    if all(v is not None for v in own):
        return [min(1.0, max(0.0, (float(v) - lo) / span)) for v in own]  # type: ignore[arg-type]
    cap = state.game.max_game_length()
    totals = [0.0] * n
    for _ in range(playouts):
        s = state.clone()
        s.play_random(rng.random, max(0, cap - s.move_number()))
        rets = s.returns() if s.is_terminal() else [0.0] * n
        for p in range(n):
            totals[p] += (rets[p] - lo) / span
    return [t / playouts for t in totals]


#: Prefix of an agent spec that the lab gives the hidden information (for the value of information only).
INFORMED = "informed+"


class InformedView(SeatView):
    """A seat's view whose ``resample`` returns the true state: the lab's measuring device, never a player."""

    __slots__ = ()

    def resample(self, rng: random.Random) -> State:
        return self._state.clone()


class Informed:
    """An agent that searches the true state instead of determinisations (value-of-information runs only)."""

    def __init__(self, inner: Any, spec: str) -> None:
        self.inner = inner
        self.name = f"{INFORMED}{spec}"

    def step(self, view: SeatView) -> int:
        return self.inner.step(InformedView(view._state, view.seat))


def _agent(spec: str, game: Game, seat: int, seed: int) -> Any:
    if spec.startswith(INFORMED):
        inner = spec[len(INFORMED) :]
        return Informed(make_agent(inner, game, seat, seed), inner)
    return make_agent(spec, game, seat, seed)


def _swap_offer(state: State, seat: int) -> bool:
    return any(state.action_to_string(seat, a) == "swap" for a in state.legal_actions(seat))


def play_balance_game(job: BalanceJob) -> dict[str, Any]:
    """Play one game of a balance run and measure it (see :mod:`boardlab.lab.metrics` and ``docs/LAB.md``)."""
    game = make_cached(job.game_id, **job.options)
    return measure_game(game, job)


def measure_game(game: Game, job: BalanceJob) -> dict[str, Any]:
    n = job.num_players
    group, rotation = divmod(job.index, job.rotations)
    cs = group_seed(job.seed, group)
    holders = seat_agents(n, rotation) if job.rotations > 1 else list(range(n))
    stream = n * (rotation // n)  # more rotations than seats (one seat): fresh agent streams
    players = [_agent(job.agents[a], game, p, agent_seed(cs, a + stream)) for p, a in enumerate(holders)]
    chance_rng = random.Random(cs)
    state = game.new_initial_state(n)
    decisions = choices = 0
    phase_sum = [0] * PHASES
    phase_n = [0] * PHASES
    branching: list[int] = []
    chooser: int | None = None
    swapped = False
    seat_decisions = 0

    def on_step(st: State, entry: object) -> None:
        nonlocal decisions, choices, chooser, swapped, seat_decisions
        cp = st.current_player()
        if cp < 0 and cp != SIMULTANEOUS:
            return
        seats = [cp] if cp >= 0 else [p for p in range(n) if st.legal_actions(p)]
        for p in seats:
            k = len(st.legal_actions(p))
            branching.append(k)
            decisions += 1
            choices += k > 1
        if cp >= 0 and seat_decisions < 4:
            seat_decisions += 1
            if chooser is None and _swap_offer(st, cp):
                chooser = cp
                swapped = st.action_to_string(cp, entry) == "swap"  # type: ignore[arg-type]

    result = play(state, agents_choose(players), lambda st: pick_chance(st, chance_rng.random()), on_step=on_step)
    capped = result == "capped"
    length = state.move_number()
    # Branching over the course of the game: each decision falls in a decile of the game.
    for i, k in enumerate(branching):
        d = min(PHASES - 1, i * PHASES // max(1, len(branching)))
        phase_sum[d] += k
        phase_n[d] += 1
    first = next((a for a in state.actors() if a >= 0 or a == SIMULTANEOUS), None)
    res = None if capped else outcome(state.returns())
    out: dict[str, Any] = {
        "index": job.index,
        "group": group,
        "rotation": rotation,
        "agents": holders,
        "chance_seed": cs,
        "length": length,
        "capped": capped,
        "returns": None if res is None else res["returns"],
        "winners": [] if res is None else res["winners"],
        "draw": False if res is None else res["draw"],
        "first_mover": first if first is not None and first >= 0 else None,
        "chooser": chooser,
        "swapped": swapped,
        "decisions": decisions,
        "choices": choices,
        "phase_branching": [[s, c] for s, c in zip(phase_sum, phase_n, strict=True)],
        "history": state.history(),
        "tension": None,
    }
    if res is not None and not game.cooperative and job.probe_points > 0 and res["winners"]:
        out["tension"] = _tension(game, state, n, job, res["winners"], cs)
    return out


def _tension(game: Game, final: State, n: int, job: BalanceJob, winners: list[int], cs: int) -> dict[str, Any]:
    idx = set(probe_indices(final.move_number(), job.probe_points))
    rng = random.Random(cs ^ 0x5EED)
    evals: list[list[float]] = []

    def on_step(st: State, _entry: object) -> None:
        if st.move_number() in idx:
            evals.append(evaluate_position(st, job.probe_playouts, rng))

    replay(game, final.history(), n, on_step=on_step)
    evals.append(evaluate_position(final, job.probe_playouts, rng))
    dr = drama(evals, winners)
    return {
        "lead_changes": lead_changes(evals),
        "drama": None if dr is None else dr[0],
        "drama_max": None if dr is None else dr[1],
        "decisiveness": decisiveness(evals, winners),
        "points": len(evals),
    }
