"""Monte Carlo tree search for every kind of game the core describes.

One search handles them all, from a :class:`~boardlab.core.view.SeatView`:

* **Perfect information**: plain UCT. Every iteration starts from a copy of the
  position (``view.resample`` is a clone there); the tree is kept between moves
  and re-rooted by the public history, so work on the line actually played is
  not thrown away. A node remembers who acts there, its untried moves and its
  chance outcomes, so a descent needs the position only where it expands; it
  builds it from the nearest copy kept on a node above (a *snapshot*, left by
  earlier descents that had to replay several moves) instead of replaying the
  whole line from the root. The search is the same, only faster in deep trees.
* **Hidden information**: single-observer information-set MCTS (SO-ISMCTS,
  Cowling, Powley & Whitehouse 2012). Every iteration draws a fresh
  determinisation with ``view.resample(rng)`` (a complete state consistent with
  what this seat has observed) and descends the one tree, restricted to the
  actions legal in that determinisation; a child's exploration term counts
  how often it was *available* rather than how often its parent was visited.
  The tree is keyed by what this seat is *shown* of each move
  (``State.seen_of``): chance outcomes and other seats' moves it cannot tell
  apart share one child (SO-ISMCTS with partially observable moves), so its
  own later choices never depend on what it will not have seen. The agent
  never reads the real state.
* **Chance**: outcomes are drawn by their probabilities, every iteration; each
  outcome gets its own subtree.
* **Simultaneous moves**: decoupled UCT. Every seat that decides picks its own
  action by UCB on its own statistics, the joint action is applied, and the
  child is keyed by the joint action.
* **Several players and co-operation**: each node maximises the return of the
  seat that acts there (``returns()[seat]``), so multi-player games need no
  special case, and in a co-operative game, where every seat's return is the
  shared one, every seat maximises the shared return.

Rewards are not assumed to lie in ``[0, 1]``: the exploration term is scaled by
the spread of returns seen so far in the search, so a game scoring in points
explores like one scoring ±1.

Budget per move: ``iterations``, ``plies`` (game steps played in the tree and
the rollouts together, a measure of work that, unlike iterations, costs about
the same early in a game, where rollouts are long, as late, where they are
short) and/or ``seconds``; whichever ends first. With iteration and ply
budgets the agent is exactly reproducible from its seed; with a time budget
it depends on the machine's speed, as it must. ``clock="wall"`` (the default)
counts ``seconds`` on the wall clock, which is what a player waits for;
``clock="cpu"`` counts the searching process's CPU seconds instead, so that a
measurement of strength on a busy machine gives the agent the search it would
have on an idle one (the playing levels count theirs so). ``wall_seconds``, an
attribute rather than a spec parameter, adds a cap on the wall clock whatever
``clock`` counts: the server's per-move limit, which a player waits for.

**Modelling the other seats as random** (``opponents="random"``): every seat
but the searching one chooses uniformly among its legal moves inside the tree,
as a chance node would, instead of maximising its own return. The search is
then a best response to uniform random play, seeing only what its seat sees:
the lab uses it to place the ceiling of a fair agent against ``random``
(``docs/ai/README.md``); it is no way to play a person. The solver is off
with it: a position's value is then the mean over a random seat's moves, not
the best of them, which is what the solver proves.

Rollouts are uniformly random by default. A game may provide an evaluation,
``State.evaluate(seat) -> float`` (an estimate of ``returns()[seat]`` in the
same scale); with ``depth=k`` a rollout stops after ``k`` plies and scores the
position with it (or with ``returns()`` where the game has none). A game may set
the depth its levels use (``Game.rollout_depth``; ``depth=0`` in a spec plays
to the end again).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ..core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from ..core.game import Game, State
from ..core.hidden import exact_for, view_key
from ..core.view import SeatView
from .base import register_agent
from .params import AgentParams
from .rollout import random_rollout, sample_outcome

#: How ``seconds`` is counted: the wall clock (what a player waits for) or the process's CPU time.
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}

#: How the search takes the other seats' moves: each maximising its own return, or uniformly random.
OPPONENTS = ("search", "random")


class Node:
    """A tree node, and the edge statistics of the move that reached it.

    ``n`` counts visits, ``w`` sums the returns of ``mover`` (the seat whose
    decision led here; -1 after chance or a joint move); after each visit the
    backup also keeps ``q = w / n`` and ``e = 1 / sqrt(n)``, so that UCB's scan of
    the children is one multiply-add each (movers only). ``avail`` counts how
    often the move was legal when its parent was visited (hidden information
    only). ``untried`` (perfect information) holds the moves not yet expanded;
    ``seat_stats`` (simultaneous nodes) maps each seat's action to an
    :class:`Edge`. ``value`` holds the exact returns once the solver has
    proven them.
    """

    __slots__ = (
        "avail",
        "children",
        "cp",
        "e",
        "keys",
        "mover",
        "n",
        "outcomes",
        "q",
        "seat_stats",
        "snapshot",
        "untried",
        "value",
        "w",
    )

    def __init__(self, mover: int) -> None:
        self.mover = mover
        #: Perfect information only: who acts here, the chance outcomes here, and (on some nodes) a copy of
        #: the position, so that a descent need not replay every move from the root (see ``_descend_perfect``).
        self.cp: int | None = None
        self.outcomes: list[tuple[int, float]] | None = None
        self.snapshot: State | None = None
        self.n = 0
        self.w = 0.0
        self.q = 0.0
        self.e = 0.0
        self.avail = 0
        self.children: dict[Any, Node] = {}
        self.untried: list[int] | None = None
        self.seat_stats: dict[int, dict[int, Edge]] | None = None
        #: The exact returns under best play, once proven (perfect information only).
        self.value: list[float] | None = None
        #: Hidden information: another seat's moves here, each with its child key (what the searching seat is
        #: shown of it), computed once per move (see ``MCTSAgent._classes``).
        self.keys: dict[int, Any] | None = None


class Edge:
    """One seat's statistics for one of its actions at a simultaneous node (``q``, ``e``: as :class:`Node`'s)."""

    __slots__ = ("e", "n", "q", "w")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.q = 0.0
        self.e = 0.0


def _uct_child(node: Node, cp: int, ce: float) -> tuple[Any, Node]:
    """UCB1 over a fully expanded node's children for seat ``cp`` (a proven child counts at its value).

    A child's mean ``w / n`` and ``1 / sqrt(n)`` are the ones the backup keeps on it
    (``q``, ``e``); a lone child (a forced move) is taken without a look.
    """
    children = node.children
    if len(children) == 1:
        return next(iter(children.items()))
    k = ce * math.sqrt(math.log(node.n))
    best = -math.inf
    a: Any = -1
    child = node
    for b, ch in children.items():
        val = ch.value
        v = (ch.q if val is None else val[cp]) + k * ch.e
        if v > best:
            best, a, child = v, b, ch
    return a, child


def _proof_length(node: Node, umax: float, memo: dict[int, int]) -> int:
    """Moves from ``node`` (proven) to the end along its proof: the winner's quickest win, the loser's longest defence.

    At a node whose proven value is a win for the seat to move there, that seat takes its quickest proven
    win; elsewhere (every child proven) it takes the longest of the children that keep the proven value.
    ``memo`` holds the lengths already counted (by node id), so shared work is counted once.
    """
    known = memo.get(id(node))
    if known is not None:
        return known
    value = node.value
    assert value is not None
    kids = [ch for ch in node.children.values() if ch.value is not None]
    if not kids:  # a proven node without proven children is an end of the game
        memo[id(node)] = 0
        return 0
    mover = kids[0].mover
    if value[mover] >= umax:
        n = 1 + min(_proof_length(ch, umax, memo) for ch in kids if ch.value[mover] >= umax)  # type: ignore[index]
    else:
        n = 1 + max(_proof_length(ch, umax, memo) for ch in kids if ch.value[mover] == value[mover])  # type: ignore[index]
    memo[id(node)] = n
    return n


def _outcome_child(node: Node, key: Any, path: list[tuple[Any, int]]) -> tuple[Node, bool]:
    """The child of ``node`` after the chance outcome, modelled move or joint move ``key`` (made if new, and then
    ``True``: the descent stops there), added to ``path``."""
    child = node.children.get(key)
    new = child is None
    if new:
        child = node.children[key] = Node(-1)
    path.append((child, -1))
    return child, new


def _pick(moves: list[int], rng: random.Random) -> int:
    """One of a class of moves the searching seat cannot tell apart, uniformly (the class's first if alone)."""
    return moves[0] if len(moves) == 1 else moves[rng.randrange(len(moves))]


def evaluation_of(state: State, seat: int) -> float | None:
    """The game's own evaluation of ``state`` for ``seat``, or ``None`` if the game has none.

    Games opt in by overriding :meth:`State.evaluate`: an estimate of
    ``returns()[seat]`` in the same scale.
    """
    value = state.evaluate(seat)
    return None if value is None else float(value)


class MCTSAgent:
    """UCT / SO-ISMCTS / decoupled UCT; see the module documentation."""

    name = "mcts"

    def __init__(
        self,
        game: Game,
        seat: int = 0,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        plies: int | None = None,
        c: float = 0.7,
        reuse: bool = True,
        depth: int | None = None,
        solve: bool = True,
        name: str = "mcts",
        clock: str = "wall",
        opponents: str = "search",
        wall_seconds: float | None = None,
    ) -> None:
        if iterations is None and seconds is None and plies is None:
            iterations = 1000
        if iterations is not None and iterations < 1:
            raise ValueError(f"mcts iterations must be at least 1; got {iterations}")
        if plies is not None and plies < 1:
            raise ValueError(f"mcts plies must be at least 1; got {plies}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"mcts seconds must be positive; got {seconds}")
        if wall_seconds is not None and wall_seconds <= 0:
            raise ValueError(f"mcts wall_seconds must be positive; got {wall_seconds}")
        if c < 0:
            raise ValueError(f"mcts exploration constant c must be >= 0; got {c}")
        if depth is None:  # the game's own choice (0, to the end, unless it has an evaluation worth cutting to)
            depth = game.rollout_depth
        if depth < 0:
            raise ValueError(f"mcts rollout depth must be >= 0 (0: to the end); got {depth}")
        if clock not in CLOCKS:
            raise ValueError(f"mcts clock must be one of {', '.join(CLOCKS)}; got {clock!r}")
        if opponents not in OPPONENTS:
            raise ValueError(f"mcts opponents must be one of {', '.join(OPPONENTS)}; got {opponents!r}")
        self.game = game
        self.seat = seat
        self.name = name
        self.iterations = iterations
        self.seconds = seconds
        #: A cap on the wall clock whatever ``clock`` counts (a server's per-move limit; ``None``: none).
        self.wall_seconds = wall_seconds
        self.plies = plies
        self.clock = CLOCKS[clock]
        self.c = c
        self.reuse = reuse and game.perfect_information
        self.depth = depth
        #: The other seats choose uniformly in the tree (a best response to ``random``; see the module notes).
        self.random_others = opponents == "random"
        self.solve = solve and game.perfect_information and not self.random_others
        #: Hidden information: key the tree by what the searching seat is shown of each move (see ``_descend``);
        #: only the all-seeing agent that measures a game's ceiling (``agents/cheating.py``) turns it off.
        self.by_view = True
        self._viewer = seat
        # The best and worst returns there are, as the game type declares them (+1 win / -1 loss by default).
        self._umax = game.game_type.max_utility
        self._umin = game.game_type.min_utility
        self.rng = random.Random(seed)
        self.cap = game.max_game_length()
        self._root: Node | None = None
        self._root_history: list[Any] = []
        #: Statistics of the last move: iterations, plies, seconds, visits reused from the old tree, the root.
        self.last: dict[str, Any] = {}
        self._lo = math.inf
        self._hi = -math.inf

    def reset(self) -> None:
        self._root = None
        self._root_history = []

    # -- the move ---------------------------------------------------------
    def step(self, view: SeatView) -> int:
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action now")
        seat = view.seat
        if len(legal) == 1:
            self._advance_root(view)
            self.last = {"iterations": 0, "plies": 0, "seconds": 0.0, "reused": 0, "root": None}
            return legal[0]
        root = self._advance_root(view)
        reused = root.n
        start = self.clock()
        iterations, plies = self.search(view, root, start)
        elapsed = self.clock() - start
        action = self._best(root, seat, legal, view.is_simultaneous())
        self.last = {
            "iterations": iterations,
            "plies": plies,
            "seconds": elapsed,
            "reused": reused,
            "root": root,
        }
        return action

    def search(self, view: SeatView, root: Node, start: float | None = None) -> tuple[int, int]:
        """Run the budgeted iterations from ``root``; returns how many ran and the plies they played.

        With an iteration or ply budget the search stops early once the most
        visited root move leads the next by more than the iterations left (a
        ply budget leaves at most as many iterations as plies): the move
        chosen is then the one the full budget would choose.
        """
        if start is None:
            start = self.clock()
        deadline = math.inf if self.seconds is None else start + self.seconds
        # The wall-clock cap (a server's per-move limit) beside ``seconds`` on the agent's own clock.
        wall = time.perf_counter
        wall_deadline = math.inf if self.wall_seconds is None else wall() + self.wall_seconds
        limit = self.iterations if self.iterations is not None else 1 << 62
        ply_limit = self.plies if self.plies is not None else 1 << 62
        settle = self.iterations is not None or self.plies is not None
        base = view.move_number()
        plies = 0
        perfect = view.game.perfect_information
        resample = view.resample
        rng = self.rng
        clock = self.clock
        seat = self._viewer = view.seat
        simultaneous = view.is_simultaneous()
        legal = view.legal_actions()
        done = 0
        root_state = resample(rng) if perfect else None  # with perfect information: a copy, no randomness
        while done < limit and plies < ply_limit:
            if root_state is not None:
                plies += max(1, self._iterate_perfect(root, root_state) - base)
            else:
                d = resample(rng)
                self._iterate(root, d, perfect)
                plies += max(1, d.move_number() - base)
            done += 1
            if clock() >= deadline or (wall_deadline < math.inf and wall() >= wall_deadline):
                break
            if root.value is not None:  # solved
                break
            if (
                settle
                and done % 16 == 0
                and self._settled(root, seat, legal, simultaneous, min(limit - done, ply_limit - plies))
            ):
                break
        return done, plies

    @staticmethod
    def _settled(root: Node, seat: int, legal: list[int], simultaneous: bool, left: int) -> bool:
        """Whether no root move can overtake the most visited one in ``left`` more iterations."""
        if root.value is not None:
            return True
        stats: dict[Any, Any] = (root.seat_stats or {}).get(seat, {}) if simultaneous else root.children
        first = second = 0
        for a in legal:
            e = stats.get(a)
            n = e.n if e is not None else 0
            if n > first:
                first, second = n, first
            elif n > second:
                second = n
        return first - second > left

    def _advance_root(self, view: SeatView) -> Node:
        """The tree for the position in ``view``: the old one re-rooted where possible, else new."""
        if not self.reuse:
            return Node(-1)
        history = view.public_history()
        assert history is not None  # reuse is on only with perfect information
        old = self._root_history
        node = self._root
        if node is not None and len(history) >= len(old) and history[: len(old)] == old:
            for entry in history[len(old) :]:
                key = tuple(entry) if isinstance(entry, list) else entry
                node = node.children.get(key)
                if node is None:
                    break
        else:
            node = None
        if node is None:
            node = Node(-1)
        self._root = node
        self._root_history = history
        return node

    def _best(self, root: Node, seat: int, legal: list[int], simultaneous: bool) -> int:
        """The most visited of this seat's root moves (ties: the better mean, then the lower action).

        Where the solver has proven root moves: a proven win is taken, the quickest first; proven losses are
        avoided while any other move remains; and when every move is proven (the root is solved) the best
        proven value is played, and if that is a loss the move that resists longest under best play (an
        opponent that is not perfect may still go wrong on the way).
        """
        length: dict[int, int] = {}
        if simultaneous:
            stats: dict[Any, Any] = (root.seat_stats or {}).get(seat, {})
        else:
            stats = root.children
            proven = {a: ch.value[seat] for a, ch in stats.items() if ch.value is not None and a in legal}
            if proven:
                top = max(proven.values())
                if top >= self._umax or root.value is not None:  # a proven win, or all is known
                    legal = [a for a in legal if proven.get(a) == top]
                    if top >= self._umax or top <= self._umin:  # win soonest, lose latest
                        sign = 1 if top >= self._umax else -1
                        length = {a: sign * _proof_length(stats[a], self._umax, {}) for a in legal}
                else:  # avoid proven losses while anything else remains
                    legal = [a for a in legal if proven.get(a, math.inf) > self._umin] or legal
        best, key = legal[0], (math.inf, -1, -math.inf)
        for a in legal:
            e = stats.get(a)
            if e is None:
                continue
            k = (length.get(a, 0), -e.n, -(e.w / e.n) if e.n else math.inf)
            if k < key:
                best, key = a, k
        return best

    # -- one iteration ----------------------------------------------------
    def _iterate(self, root: Node, d: State, perfect: bool) -> None:
        """One iteration on ``d``, a fresh copy (or determinisation) of the root position."""
        path: list[tuple[Any, int]] = [(root, -1)]
        known = self._descend(root, d, perfect, path)
        self._backup(path, known, d)

    #: A descent that had to replay at least this many moves leaves a copy of the position where it stopped.
    SNAPSHOT_AFTER = 2

    def _iterate_perfect(self, root: Node, root_state: State) -> int:
        """One iteration with perfect information; returns the move number where it ended.

        The same iteration as :meth:`_iterate` (same random numbers, same tree,
        same statistics), but the descent walks the tree on what its nodes
        remember (who acts there, the untried moves, the chance outcomes) and
        builds the position only where it needs one: at the node it expands, by
        copying the nearest snapshot above it and replaying the moves since.
        Late in a game, where trees are deep, that replaces most of the
        replayed moves by one copy. ``root_state`` is never changed.
        """
        rng = self.rng
        lo, hi = self._lo, self._hi
        ce = self.c * (hi - lo) if hi > lo else self.c
        path: list[tuple[Any, int]] = [(root, -1)]
        node = root
        anchor = root.snapshot or root_state
        moves: list[int] = []  # applied since the anchor
        while True:
            if node.value is not None:  # proven: no need to look further
                self._backup(path, node.value, None)
                return anchor.move_number() + len(moves)
            cp = node.cp
            if (
                cp is None
                or (cp >= 0 and (node.untried or (self.random_others and cp != self._viewer)))
                or cp in (SIMULTANEOUS, TERMINAL)
            ):
                break  # the position is needed here (a seat modelled as random draws from its legal moves)
            if cp >= 0:
                a, child = _uct_child(node, cp, ce)
            else:  # chance
                outcomes = node.outcomes
                assert outcomes is not None
                a = sample_outcome(outcomes, rng)
                child = node.children.get(a)
                if child is None:
                    d = self._position(anchor, moves)
                    d.apply_legal(a)
                    child = node.children[a] = Node(-1)
                    path.append((child, -1))
                    self._backup(path, None, d)
                    return d.move_number()
            path.append((child, cp))
            moves.append(a)
            node = child
            if node.snapshot is not None:
                anchor, moves = node.snapshot, []
        d = self._position(anchor, moves)
        if len(moves) >= self.SNAPSHOT_AFTER and node.snapshot is None:
            node.snapshot = d.clone()
        if node.cp is None:
            node.cp = d.current_player()
            if node.cp == CHANCE:
                node.outcomes = d.chance_outcomes()
        known = self._descend(node, d, True, path)
        self._backup(path, known, d)
        return d.move_number()

    @staticmethod
    def _position(anchor: State, moves: list[int]) -> State:
        """A copy of ``anchor`` with ``moves`` (taken from the tree, so legal) applied."""
        d = anchor.clone()
        for a in moves:
            d.apply_legal(a)
        return d

    def _descend(self, node: Node, d: State, perfect: bool, path: list[tuple[Any, int]]) -> list[float] | None:
        """Select and expand from ``node`` (whose position ``d`` holds), applying the moves to ``d``.

        Extends ``path``; returns the proven returns where the descent reached a
        proven node (no rollout needed), else ``None``.
        """
        rng = self.rng
        lo, hi = self._lo, self._hi
        ce = self.c * (hi - lo) if hi > lo else self.c
        log, sqrt = math.log, math.sqrt
        solve = self.solve
        random_others, viewer = self.random_others, self._viewer
        known: list[float] | None = None
        while True:
            if node.value is not None:  # proven: no need to look further
                known = node.value
                break
            cp = d.current_player()
            if perfect and node.cp is None:
                node.cp = cp
                if cp == CHANCE:
                    node.outcomes = d.chance_outcomes()
            # A seat modelled as random (``opponents="random"``) is drawn like chance, below.
            modelled = random_others and cp >= 0 and cp != viewer
            if cp >= 0 and not modelled:
                if perfect:
                    untried = node.untried
                    if untried is None:
                        untried = node.untried = d.legal_actions()
                    if untried:
                        i = rng.randrange(len(untried))
                        untried[i], untried[-1] = untried[-1], untried[i]
                        a = untried.pop()
                        child = node.children[a] = Node(cp)
                        d.apply_legal(a)
                        path.append((child, cp))
                        if solve and d.is_terminal():
                            child.value = d.returns()
                        break
                    a, child = _uct_child(node, cp, ce)
                else:
                    legal = d.legal_actions()
                    children = node.children
                    # Another seat's moves that this seat is not shown exactly are one child per what it is
                    # shown (a class of moves): the tree follows the searching seat's information.
                    classes = self._classes(d, node, legal) if self.by_view and cp != self._viewer else None
                    keys = legal if classes is None else list(classes)
                    fresh = [b for b in keys if b not in children]
                    for b in keys:
                        ch = children.get(b)
                        if ch is not None:
                            ch.avail += 1
                    if fresh:
                        key = fresh[rng.randrange(len(fresh))]
                        a = key if classes is None else _pick(classes[key], rng)
                        child = children[key] = Node(cp)
                        child.avail = 1
                        d.apply_legal(a)
                        path.append((child, cp))
                        break
                    best = -math.inf
                    key = -1
                    child = node
                    for b in keys:
                        ch = children[b]
                        v = ch.w / ch.n + ce * sqrt(log(ch.avail) / ch.n)
                        if v > best:
                            best, key, child = v, b, ch
                    a = key if classes is None else _pick(classes[key], rng)
                d.apply_legal(a)
                path.append((child, cp))
                node = child
            elif cp == CHANCE or modelled:
                if modelled:  # the seat's move, uniformly among its legal ones
                    a = _pick(d.legal_actions(), rng)
                else:
                    a = sample_outcome(node.outcomes if perfect else d.chance_outcomes(), rng)  # type: ignore[arg-type]
                key = a if perfect or not self.by_view else self._key(d, a)
                d.apply_legal(a)
                node, new = _outcome_child(node, key, path)
                if new:
                    break
            elif cp == SIMULTANEOUS:
                stats = node.seat_stats
                if stats is None:
                    stats = node.seat_stats = {}
                joint: list[int | None] = []
                lnn = log(node.n) if node.n > 0 else 0.0
                for p in range(d.num_players):
                    legal = d.legal_actions(p)
                    if not legal:
                        joint.append(None)
                        continue
                    st = stats.get(p)
                    if st is None:
                        st = stats[p] = {}
                    fresh = [b for b in legal if b not in st]
                    if random_others and p != viewer:  # a seat modelled as random
                        a = _pick(legal, rng)
                        e = st.get(a)
                        if e is None:
                            e = st[a] = Edge()
                    elif fresh:
                        a = fresh[rng.randrange(len(fresh))]
                        e = st[a] = Edge()
                    else:
                        best = -math.inf
                        a = legal[0]
                        e = st[a]
                        for b in legal:
                            eb = st[b]
                            v = eb.w / eb.n + ce * sqrt(lnn / eb.n)
                            if v > best:
                                best, a, e = v, b, eb
                    joint.append(a)
                    path.append((e, p))
                key = tuple(joint) if perfect or not self.by_view else self._key(d, joint)
                d.apply_actions(joint)
                node, new = _outcome_child(node, key, path)
                if new:
                    break
            else:  # terminal inside the tree
                break
        return known

    def _key(self, d: State, entry: Any) -> Any:
        """The child key of ``entry`` (about to be applied to ``d``): itself where the searching seat sees it
        exactly, else what that seat is shown of it, so outcomes it cannot tell apart share one subtree."""
        seen = d.seen_of(entry)
        if exact_for(seen, self._viewer):
            return tuple(entry) if isinstance(entry, list) else entry
        return ("unseen", view_key(seen, self._viewer))

    def _classes(self, d: State, node: Node, legal: list[int]) -> dict[Any, list[int]] | None:
        """``legal`` grouped by what the searching seat is shown of each move (``None``: it sees them all).

        A move's key is computed on the first determinisation that offers it at ``node`` and kept there (what
        the seat is shown of a move depends on the public position, which every determinisation of the node
        shares); the class chosen is then played by one of its moves legal in this determinisation.
        """
        cache = node.keys
        if cache is None:
            cache = node.keys = {}
        classes: dict[Any, list[int]] = {}
        hidden = False
        for a in legal:
            key = cache.get(a)
            if key is None:
                key = cache[a] = self._key(d, a)
            hidden = hidden or type(key) is tuple
            classes.setdefault(key, []).append(a)
        return classes if hidden else None

    def _backup(self, path: list[tuple[Any, int]], known: list[float] | None, d: State | None) -> None:
        """Roll out from ``d`` unless the returns are ``known``, then update every node and edge on ``path``."""
        if known is None:
            assert d is not None
            ret = random_rollout(d, self.rng, self.cap, self.depth)
        else:
            ret = known
        lo, hi = self._lo, self._hi
        solve = self.solve
        for r in ret:
            if r < lo:
                lo = r
                if r < self._umin:  # returns beyond the assumed range: prove nothing by it
                    self._umin = -math.inf
            if r > hi:
                hi = r
                if r > self._umax:
                    self._umax = math.inf
        self._lo, self._hi = lo, hi
        sqrt = math.sqrt
        for obj, p in path:
            n = obj.n = obj.n + 1
            if p >= 0:
                w = obj.w = obj.w + ret[p]
                obj.q = w / n
                obj.e = 1.0 / sqrt(n)
        if solve and known is None and path[-1][0].value is not None:
            for i in range(len(path) - 2, -1, -1):
                above = path[i][0]
                if type(above) is not Node or not self._prove(above):
                    break

    def _prove(self, node: Node) -> bool:
        """Mark ``node`` proven if a child gives its mover the best return there is, or every child is proven.

        This is MCTS-Solver (Winands, Björnsson & Saito 2008) for ``n`` seats:
        the seat to move takes the proven child best for itself.
        """
        children = node.children
        if not children or node.value is not None:
            return False
        mover = next(iter(children.values())).mover
        if mover < 0:  # chance or a joint move: never proven
            return False
        complete = node.untried is not None and not node.untried
        best: list[float] | None = None
        for ch in children.values():
            v = ch.value
            if v is None:
                complete = False
                continue
            if v[mover] >= self._umax:
                node.value = v
                return True
            if best is None or v[mover] > best[mover]:
                best = v
        if complete and best is not None:
            node.value = best
            return True
        return False


def mcts_factory(game: Game, seat: int, seed: int | None, params: dict[str, str]) -> MCTSAgent:
    return make_mcts(game, seat, seed, AgentParams("mcts", params))


def make_mcts(game: Game, seat: int, seed: int | None, p: AgentParams, name: str = "mcts") -> MCTSAgent:
    iterations = p.int("iterations", None)
    seconds = p.float("seconds", None)
    plies = p.int("plies", None)
    agent = MCTSAgent(
        game,
        seat,
        seed,
        iterations=iterations,
        seconds=seconds,
        plies=plies,
        c=p.float("c", 0.7) or 0.0,
        reuse=p.bool("reuse", True),
        depth=p.int("depth", None),
        solve=p.bool("solve", True),
        name=name,
        clock=p.str("clock", "wall") or "wall",
        opponents=p.str("opponents", "search") or "search",
    )
    p.done()
    return agent


register_agent("mcts", mcts_factory)
