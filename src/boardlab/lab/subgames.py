"""Exact analysis by public subgames: a compact game tree, CFR+, best responses, and backward induction.

A two-seat zero-sum game whose play passes through *public positions* (states
that both seats know exactly, and from which the rest of the game depends on
nothing but the position) splits into subgames: one from each public position
to the next ones. Each subgame is solved with the next positions' values as
its payoffs, last positions first (backward induction). The composed strategy
is an equilibrium of the whole game to within the sum of the subgames' errors
along a path, and a best response to any strategy that plays each subgame by
what happened in it alone is found by the same induction.

* :func:`build_tree` enumerates one subgame through the core API (``clone``,
  ``chance_outcomes``, ``seen_of``, ``apply_action``) into flat arrays. A
  seat's information-state key is what it was shown of every step since the
  subgame's start (the actor, and per step whether it saw it exactly and the
  text, as :func:`boardlab.core.hidden.view_key` gives) and its observation:
  the same record as the OpenSpiel adapter's information-state strings, so it
  is perfect recall and never tells apart histories the seat cannot.
* :func:`cfr_plus` solves a tree (CFR+: regret matching+, alternating updates,
  linearly weighted average), vectorised with numpy over the tree's levels.
* :func:`best_response` and :func:`evaluate`: a seat's best-response value
  against a strategy, and both seats' value when they follow one.
* :class:`Induction` runs the backward induction from a root state with a
  ``boundary`` function (a state's public key when a new subgame starts there,
  else ``None``), memoising each public position by its key.

Values are the first seat's return throughout (the game must be zero-sum
between two seats: it is checked at every terminal history).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.constants import CHANCE
from ..core.game import State
from ..core.hidden import seens_of, view_key

#: A public position's key, or ``None`` where no new subgame starts.
Boundary = Callable[[State], Hashable | None]
#: A strategy for one tree: each slot's probability (a slot is one action of one information state).
Strategy = np.ndarray

LEAF = -4


def information_key(state: State, seat: int, start: int = 0) -> Hashable:
    """The seat's information-state key at ``state``, counting the history from entry ``start`` on.

    :func:`build_tree` builds the same keys step by step; this one replays the history (slower).
    """
    seens = seens_of(state)[start:]
    steps = tuple((actor, view_key(seen, seat)) for actor, seen in zip(state.actors()[start:], seens, strict=True))
    return steps, json.dumps(state.observation(seat), sort_keys=True)


@dataclass
class Tree:
    """One subgame as flat arrays; nodes are in breadth-first order, so each depth is a contiguous range.

    ``parent``, ``player`` (a seat, ``CHANCE`` or ``LEAF``), ``prob`` (the chance probability of the step into
    the node; 1 otherwise) and ``slot`` (the slot of the step into the node when a seat took it; -1 otherwise)
    are per node. Slots of one information state are contiguous: ``info_start``/``info_size``/``info_seat``
    per information state, ``slot_info`` and ``slot_action`` per slot. ``leaves`` are the leaf nodes; a leaf is
    terminal (``leaf_value``, the first seat's return) or the start of another subgame (``leaf_key``, the
    position's key; its value comes from that subgame). ``positions`` holds one state for each such key and
    ``info_state`` one state of each information state (what an agent is asked at).
    """

    key: Hashable
    parent: np.ndarray
    player: np.ndarray
    prob: np.ndarray
    slot: np.ndarray
    levels: list[tuple[int, int]]
    info_start: np.ndarray
    info_size: np.ndarray
    info_seat: np.ndarray
    info_depth: np.ndarray
    info_keys: list[Hashable]
    info_state: list[State]
    slot_info: np.ndarray
    slot_action: np.ndarray
    leaves: np.ndarray
    leaf_value: np.ndarray
    leaf_key: list[Hashable | None]
    positions: dict[Hashable, State] = field(default_factory=dict)

    @property
    def size(self) -> int:
        return len(self.parent)

    @property
    def slots(self) -> int:
        return len(self.slot_info)

    def leaf_values(self, continuation: Callable[[Hashable], float]) -> np.ndarray:
        """Every leaf's value: the return at a terminal leaf, ``continuation(key)`` at a position."""
        out = self.leaf_value.copy()
        for i, k in enumerate(self.leaf_key):
            if k is not None:
                out[i] = continuation(k)
        return out

    def uniform(self) -> Strategy:
        """Every information state's moves equally likely."""
        return 1.0 / self.info_size[self.slot_info]


def build_tree(root: State, boundary: Boundary | None = None, key: Hashable = "root") -> Tree:
    """Enumerate the subgame from ``root`` to the next public positions (``boundary``) or the end.

    Raises ``ValueError`` for a simultaneous node, a game that is not zero-sum between two seats, or an
    information state whose histories differ in length or in legal moves (not perfect recall).
    """
    if root.num_players != 2:
        raise ValueError("the subgame solver is for two seats")
    parent: list[int] = []
    player: list[int] = []
    prob: list[float] = []
    slot: list[int] = []
    levels: list[tuple[int, int]] = []
    infos: dict[Hashable, int] = {}
    info_start: list[int] = []
    info_size: list[int] = []
    info_seat: list[int] = []
    info_depth: list[int] = []
    info_keys: list[Hashable] = []
    info_state: list[State] = []
    info_legal: list[list[int]] = []
    slot_info: list[int] = []
    slot_action: list[int] = []
    leaves: list[int] = []
    leaf_value: list[float] = []
    leaf_key: list[Hashable | None] = []
    positions: dict[Hashable, State] = {}
    empty: tuple[Any, ...] = ()
    # A frontier entry: (state, parent node, prob, slot, each seat's steps seen so far).
    frontier: list[tuple[State, int, float, int, tuple[tuple[Any, ...], ...]]] = [(root, -1, 1.0, -1, (empty, empty))]
    depth = 0
    while frontier:
        levels.append((len(parent), len(parent) + len(frontier)))
        nxt: list[tuple[State, int, float, int, tuple[tuple[Any, ...], ...]]] = []
        for s, par, p, sl, seen in frontier:
            node = len(parent)
            parent.append(par)
            prob.append(p)
            slot.append(sl)
            where = boundary(s) if boundary is not None and par >= 0 else None
            if where is not None or s.is_terminal():
                player.append(LEAF)
                leaves.append(node)
                if where is not None:
                    leaf_key.append(where)
                    leaf_value.append(np.nan)
                    positions.setdefault(where, s)
                else:
                    r = s.returns()
                    if abs(r[0] + r[1]) > 1e-9:
                        raise ValueError(f"not zero-sum: returns {r}")
                    leaf_key.append(None)
                    leaf_value.append(float(r[0]))
                continue
            if s.is_simultaneous_node():
                raise ValueError("simultaneous moves are not supported by the subgame solver")
            actor = s.current_player()
            player.append(actor)
            if actor == CHANCE:
                steps = s.chance_outcomes()
                first = -1
            else:
                legal = s.legal_actions(actor)
                ikey = (seen[actor], json.dumps(s.observation(actor), sort_keys=True))
                info = infos.get(ikey)
                if info is None:
                    info = infos[ikey] = len(info_start)
                    info_start.append(len(slot_info))
                    info_size.append(len(legal))
                    info_seat.append(actor)
                    info_depth.append(depth)
                    info_keys.append(ikey)
                    info_state.append(s)
                    info_legal.append(legal)
                    slot_info.extend([info] * len(legal))
                    slot_action.extend(legal)
                elif info_legal[info] != legal or info_depth[info] != depth:
                    raise ValueError("an information state with different legal moves or depths (not perfect recall)")
                steps = [(a, 1.0) for a in legal]
                first = info_start[info]
            for k, (a, q) in enumerate(steps):
                shown = s.seen_of(a)
                child = s.clone()
                child.apply_action(a)
                grown = tuple(seen[v] + ((actor, view_key(shown, v)),) for v in (0, 1))
                nxt.append((child, node, q, first + k if first >= 0 else -1, grown))
        frontier = nxt
        depth += 1
    return Tree(
        key=key,
        parent=np.array(parent, dtype=np.int64),
        player=np.array(player, dtype=np.int64),
        prob=np.array(prob),
        slot=np.array(slot, dtype=np.int64),
        levels=levels,
        info_start=np.array(info_start, dtype=np.int64),
        info_size=np.array(info_size, dtype=np.int64),
        info_seat=np.array(info_seat, dtype=np.int64),
        info_depth=np.array(info_depth, dtype=np.int64),
        info_keys=info_keys,
        info_state=info_state,
        slot_info=np.array(slot_info, dtype=np.int64),
        slot_action=np.array(slot_action, dtype=np.int64),
        leaves=np.array(leaves, dtype=np.int64),
        leaf_value=np.array(leaf_value),
        leaf_key=leaf_key,
        positions=positions,
    )


# -- passes over a tree ------------------------------------------------------------


def _parent_seat(t: Tree) -> np.ndarray:
    """Per node, who took the step into it (a seat or ``CHANCE``; ``LEAF`` for the root)."""
    out = np.full(t.size, LEAF, dtype=np.int64)
    out[1:] = t.player[t.parent[1:]]
    return out


def _step_weights(t: Tree, sigma: Strategy) -> np.ndarray:
    """Per node, the probability of the step into it under ``sigma`` (chance's at chance steps)."""
    w = t.prob.copy()
    dec = t.slot >= 0
    w[dec] = sigma[t.slot[dec]]
    return w


def _reach(t: Tree, factor: np.ndarray) -> np.ndarray:
    """The product of ``factor`` along each node's path from the root."""
    r = np.ones(t.size)
    for a, b in t.levels[1:]:
        r[a:b] = r[t.parent[a:b]] * factor[a:b]
    return r


def _values(t: Tree, leaf: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Each node's value (the first seat's) when every step into a node has probability ``weight``."""
    v = np.zeros(t.size)
    v[t.leaves] = leaf
    for (pa, pb), (a, b) in zip(reversed(t.levels[:-1]), reversed(t.levels[1:]), strict=True):
        v[pa:pb] += np.bincount(t.parent[a:b] - pa, weights=v[a:b] * weight[a:b], minlength=pb - pa)
    return v


def regret_matching(t: Tree, regret: np.ndarray) -> Strategy:
    """Each information state's moves in proportion to their positive regrets (uniform where none is)."""
    pos = np.maximum(regret, 0.0)
    total = np.add.reduceat(pos, t.info_start) if t.slots else pos
    per = total[t.slot_info]
    uniform = 1.0 / t.info_size[t.slot_info]
    return np.where(per > 0, pos / np.where(per > 0, per, 1.0), uniform)


def normalise(t: Tree, weights: np.ndarray) -> Strategy:
    """Weights per slot made into probabilities per information state (uniform where all are zero)."""
    return regret_matching(t, weights)


def evaluate(t: Tree, leaf: np.ndarray, sigma: Strategy) -> float:
    """The first seat's value when both seats follow ``sigma``."""
    return float(_values(t, leaf, _step_weights(t, sigma))[0])


def best_response(t: Tree, leaf: np.ndarray, sigma: Strategy, seat: int) -> tuple[float, Strategy]:
    """The first seat's value when ``seat`` best-responds to the other seat's part of ``sigma``, and the
    best response (``sigma`` with ``seat``'s slots replaced by its pure choices).

    ``seat`` 0 maximises the value, seat 1 minimises it. Every information state's histories have one depth
    (:func:`build_tree` checks it), so a level-by-level pass from the leaves decides each one at once.
    """
    pseat = _parent_seat(t)
    w = _step_weights(t, sigma)
    mine = pseat == seat
    w_other = np.where(mine, 1.0, w)
    cf = _reach(t, w_other)  # the other seat's and chance's reach
    sign = 1.0 if seat == 0 else -1.0
    out = sigma.copy()
    v = np.zeros(t.size)
    v[t.leaves] = leaf
    depth_infos: dict[int, np.ndarray] = {}
    seat_infos = np.flatnonzero(t.info_seat == seat)
    for d in np.unique(t.info_depth[seat_infos]) if len(seat_infos) else []:
        depth_infos[int(d)] = seat_infos[t.info_depth[seat_infos] == d]
    for d in range(len(t.levels) - 1, 0, -1):
        a, b = t.levels[d]
        pa, pb = t.levels[d - 1]
        infos = depth_infos.get(d - 1)
        if infos is not None:
            sel = np.flatnonzero(mine[a:b]) + a
            q = np.bincount(t.slot[sel], weights=cf[t.parent[sel]] * v[sel] * sign, minlength=t.slots)
            for i in infos:
                s0, n = int(t.info_start[i]), int(t.info_size[i])
                best = s0 + int(np.argmax(q[s0 : s0 + n]))
                out[s0 : s0 + n] = 0.0
                out[best] = 1.0
            w[sel] = out[t.slot[sel]]
        v[pa:pb] += np.bincount(t.parent[a:b] - pa, weights=v[a:b] * w[a:b], minlength=pb - pa)
    return float(v[0]), out


def exploitability(t: Tree, leaf: np.ndarray, sigma: Strategy) -> float:
    """The mean over the two seats of what a best response gains against ``sigma`` (OpenSpiel's measure)."""
    return (best_response(t, leaf, sigma, 0)[0] - best_response(t, leaf, sigma, 1)[0]) / 2


def reach_of(t: Tree, sigma: Strategy) -> np.ndarray:
    """Each node's probability of being reached (chance and both seats) under ``sigma``."""
    return _reach(t, _step_weights(t, sigma))


@dataclass
class CFRResult:
    """A tree's solution: the average strategy, the first seat's value under it, its exploitability in the
    tree (the leaves' values taken as given), the iterations run and the CPU seconds."""

    strategy: Strategy
    value: float
    exploitability: float
    iterations: int
    seconds: float


def cfr_plus(
    t: Tree, leaf: np.ndarray, iterations: int = 1000, target: float = 0.0, check_every: int = 50
) -> CFRResult:
    """CFR+ on a tree: stops after ``iterations``, or once the average strategy's exploitability (measured every
    ``check_every`` iterations) is at most ``target``."""
    cpu = time.process_time()
    pseat = _parent_seat(t)
    regret = np.zeros(t.slots)
    avg = np.zeros(t.slots)
    seats = [pseat == s for s in (0, 1)]
    seat_slots = [t.info_seat[t.slot_info] == s for s in (0, 1)]
    it = 0
    gap = float("inf")
    strategy = t.uniform()
    while it < iterations:
        it += 1
        for seat in (0, 1):
            sigma = regret_matching(t, regret)
            w = _step_weights(t, sigma)
            v = _values(t, leaf, w)
            cf = _reach(t, np.where(seats[seat], 1.0, w))
            own = _reach(t, np.where(seats[seat], w, 1.0))
            sel = np.flatnonzero(seats[seat])
            par = t.parent[sel]
            sign = 1.0 if seat == 0 else -1.0
            inst = np.bincount(t.slot[sel], weights=sign * (v[sel] - v[par]) * cf[par], minlength=t.slots)
            regret = np.where(seat_slots[seat], np.maximum(regret + inst, 0.0), regret)
            avg += it * np.bincount(t.slot[sel], weights=own[par] * sigma[t.slot[sel]], minlength=t.slots)
        if it % check_every == 0 or it == iterations:
            strategy = normalise(t, avg)
            gap = exploitability(t, leaf, strategy)
            if gap <= target:
                break
    strategy = normalise(t, avg) if t.slots else strategy
    if not t.slots:
        gap = 0.0
    return CFRResult(strategy, evaluate(t, leaf, strategy), gap, it, time.process_time() - cpu)


# -- backward induction ---------------------------------------------------------


@dataclass
class Position:
    """A solved public position: its tree, the equilibrium strategy and value, and the solve's figures."""

    tree: Tree
    solution: CFRResult
    value: float


class Induction:
    """Backward induction over public positions from ``root`` (see the module documentation).

    ``positions`` maps each key met to its :class:`Position`; :meth:`solve` fills it, children first.
    """

    def __init__(
        self, root: State, boundary: Boundary, iterations: int = 2000, target: float = 1e-4, check_every: int = 50
    ) -> None:
        self.root = root
        self.boundary = boundary
        self.iterations = iterations
        self.target = target
        self.check_every = check_every
        self.trees: dict[Hashable, Tree] = {}
        self.positions: dict[Hashable, Position] = {}
        self.order: list[Hashable] = []  # keys, each after every position it leads to

    @property
    def root_key(self) -> Hashable:
        return self.boundary(self.root) or "root"

    def build(self) -> None:
        """Enumerate every subgame reachable from the root (no solving); ``order`` lists them leaves first."""
        seen: set[Hashable] = set()

        def visit(key: Hashable, state: State) -> None:
            seen.add(key)
            tree = build_tree(state, self.boundary, key)
            self.trees[key] = tree
            for k, s in tree.positions.items():
                if k not in seen:
                    visit(k, s)
            self.order.append(key)

        if not self.trees:
            visit(self.root_key, self.root)

    def solve(self) -> float:
        """Solve every position by CFR+ (to ``target`` exploitability in its tree); the root's value."""
        self.build()
        for key in self.order:
            if key in self.positions:
                continue
            t = self.trees[key]
            sol = cfr_plus(
                t, t.leaf_values(lambda k: self.positions[k].value), self.iterations, self.target, self.check_every
            )
            self.positions[key] = Position(t, sol, sol.value)
        return self.positions[self.root_key].value

    def lp_gap(self) -> float:
        """The largest difference, over the solved positions, between CFR+'s value and the exact value of the
        same round game by :func:`sequence_form_value` (the same leaf values)."""
        worst = 0.0
        for p in self.positions.values():
            t = p.tree
            exact = sequence_form_value(t, t.leaf_values(lambda k: self.positions[k].value))
            worst = max(worst, abs(exact - p.value))
        return worst

    def exact_values(self) -> dict[Hashable, float]:
        """Every position's exact value: the backward induction with :func:`sequence_form_value` for each tree."""
        self.build()
        out: dict[Hashable, float] = {}
        for key in self.order:
            t = self.trees[key]
            out[key] = sequence_form_value(t, t.leaf_values(out.__getitem__))
        return out

    def strategies(self) -> dict[Hashable, Strategy]:
        """The equilibrium's strategy in each tree."""
        return {k: p.solution.strategy for k, p in self.positions.items()}

    def values(self, strategies: dict[Hashable, Strategy]) -> dict[Hashable, float]:
        """Each position's value when both seats follow ``strategies`` (a strategy per tree)."""
        out: dict[Hashable, float] = {}
        for key in self.order:
            t = self.trees[key]
            out[key] = evaluate(t, t.leaf_values(out.__getitem__), strategies[key])
        return out

    def best_response_values(self, strategies: dict[Hashable, Strategy], seat: int) -> dict[Hashable, float]:
        """Each position's first-seat value when ``seat`` best-responds to the other seat's ``strategies``.

        Exact for strategies that play each tree by what was seen in it alone (as these are)."""
        out: dict[Hashable, float] = {}
        for key in self.order:
            t = self.trees[key]
            out[key] = best_response(t, t.leaf_values(out.__getitem__), strategies[key], seat)[0]
        return out

    def exploitability(self, strategies: dict[Hashable, Strategy]) -> float:
        """The whole game's exploitability of ``strategies``: the mean over seats of a best response's gain."""
        k = self.root_key
        return (self.best_response_values(strategies, 0)[k] - self.best_response_values(strategies, 1)[k]) / 2

    def reach(self, strategies: dict[Hashable, Strategy]) -> dict[Hashable, float]:
        """Each position's probability of being reached from the root under ``strategies``."""
        out: dict[Hashable, float] = dict.fromkeys(self.order, 0.0)
        out[self.root_key] = 1.0
        for key in reversed(self.order):  # parents before children
            t = self.trees[key]
            if out[key] == 0.0:
                continue
            r = reach_of(t, strategies[key])
            for node, k in zip(t.leaves, t.leaf_key, strict=True):
                if k is not None:
                    out[k] += out[key] * r[node]
        return out

    def information_states(self) -> Iterator[tuple[Hashable, Tree, int]]:
        """Every (position, tree, information state) pair."""
        for key in self.order:
            t = self.trees[key]
            for i in range(len(t.info_start)):
                yield key, t, i


def sequence_form_value(t: Tree, leaf: np.ndarray) -> float:
    """The tree's exact equilibrium value for the first seat, by the sequence-form linear program (SciPy's HiGHS,
    which comes with the ``openspiel`` extra): an independent check of :func:`cfr_plus`.

    With realisation plans ``x`` (seat 0) and ``y`` (seat 1) over each seat's sequences of moves, the value is
    max over ``x`` of min over ``y`` of ``x·A·y``; the inner minimum is replaced by its dual, so one LP in ``x``
    and seat 1's information-state values ``v`` gives it: maximise ``v₀`` subject to ``Fᵀv ≤ Aᵀx``,
    ``Ex = e``, ``x ≥ 0``.
    """
    if not t.slots:  # chance alone (Hamlet's coin)
        return evaluate(t, leaf, np.zeros(0))
    from scipy import sparse
    from scipy.optimize import linprog

    seat_slots = [np.flatnonzero(t.info_seat[t.slot_info] == s) for s in (0, 1)]
    seq_of_slot = np.zeros(t.slots, dtype=np.int64)  # a slot's sequence number among its seat's (0: none yet)
    for s in (0, 1):
        seq_of_slot[seat_slots[s]] = np.arange(1, len(seat_slots[s]) + 1)
    pseat = _parent_seat(t)
    seq = np.zeros((2, t.size), dtype=np.int64)
    for a, b in t.levels[1:]:
        par = t.parent[a:b]
        for s in (0, 1):
            mine = pseat[a:b] == s
            seq[s, a:b] = np.where(mine, seq_of_slot[np.maximum(t.slot[a:b], 0)], seq[s, par])
    chance = _reach(t, t.prob)
    n = [len(seat_slots[s]) + 1 for s in (0, 1)]
    lv = t.leaves
    a_mat = sparse.coo_matrix((chance[lv] * leaf, (seq[0, lv], seq[1, lv])), shape=(n[0], n[1])).tocsr()
    # Each information state's parent sequence: the seat's sequence at any of its histories.
    dec = np.flatnonzero(t.slot >= 0)
    info_node = np.zeros(len(t.info_start), dtype=np.int64)
    info_node[t.slot_info[t.slot[dec]]] = t.parent[dec]

    def constraints(s: int) -> Any:
        infos = np.flatnonzero(t.info_seat == s)
        rows, cols, vals = [0], [0], [1.0]
        for r, i in enumerate(infos, start=1):
            rows.append(r)
            cols.append(int(seq[s, info_node[i]]))
            vals.append(-1.0)
            for k in range(int(t.info_size[i])):
                rows.append(r)
                cols.append(int(seq_of_slot[t.info_start[i] + k]))
                vals.append(1.0)
        return sparse.coo_matrix((vals, (rows, cols)), shape=(len(infos) + 1, n[s])).tocsr()

    e_mat, f_mat = constraints(0), constraints(1)
    m1 = f_mat.shape[0]
    # Variables: x (n0, >= 0), then v (m1, free).
    a_ub = sparse.hstack([-a_mat.T, f_mat.T]).tocsr()
    a_eq = sparse.hstack([e_mat, sparse.csr_matrix((e_mat.shape[0], m1))]).tocsr()
    b_eq = np.zeros(e_mat.shape[0])
    b_eq[0] = 1.0
    c = np.zeros(n[0] + m1)
    c[n[0]] = -1.0
    bounds = [(0, None)] * n[0] + [(None, None)] * m1
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(n[1]), A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs")
    if res.status != 0:
        raise RuntimeError(f"the sequence-form LP failed: {res.message}")
    return float(-res.fun)
