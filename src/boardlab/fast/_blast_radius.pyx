# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Blast Radius's rules in C for the random rollouts (the pure-Python rules in ``games/blast_radius.py`` are the
reference; ``tests/fast/test_differential.py`` plays both side by side).

``play_random(state, rnd, plies)`` is ``BlastRadiusState.play_random``: the same draws, the same moves, and the
state left exactly as the pure-Python loop leaves it (every table, the history). ``Engine`` is the same rules one
move at a time, for the differential test.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc

include "_rng.pxi"

from ..core.game import win_loss

cdef enum:
    MAXN = 128


cdef class Tables:
    """One board's rings (cells at distance k from cell i), flattened for C."""

    cdef int n, depth
    cdef int *off    # off[i * (depth + 1) + k] .. off[i * (depth + 1) + k + 1]: ring k of cell i in cells
    cdef int *cells

    def __cinit__(self, rings):
        cdef int i, k, at = 0
        self.n = len(rings)
        self.depth = len(rings[0])
        self.off = <int *>PyMem_Malloc(self.n * (self.depth + 1) * sizeof(int))
        self.cells = <int *>PyMem_Malloc(self.n * self.n * sizeof(int))
        if not self.off or not self.cells:
            raise MemoryError()
        for i in range(self.n):
            for k in range(self.depth):
                self.off[i * (self.depth + 1) + k] = at
                for c in rings[i][k]:
                    self.cells[at] = c
                    at += 1
            self.off[i * (self.depth + 1) + self.depth] = at

    def __dealloc__(self):
        PyMem_Free(self.off)
        PyMem_Free(self.cells)


_TABLES = {}


cdef Tables tables_of(game):
    t = _TABLES.get(game.n)
    if t is None:
        t = _TABLES[game.n] = Tables(game.rings)
    return t


def supports(game) -> bool:
    """Whether this module can play ``game`` (every board of the game's options fits)."""
    return game.n <= MAXN


cdef class Engine:
    """The rules' state as C arrays; ``load`` / ``store`` move it from and to a ``BlastRadiusState``."""

    cdef Tables t
    cdef int n, pie, swap
    cdef int height[MAXN]
    cdef int owner[MAXN]
    cdef int cover[MAXN]
    cdef int free[MAXN]
    cdef int nfree
    cdef int towers[2]
    cdef int stacklen[2]
    cdef int red, ply, to_move, winner
    cdef int moves_cap
    cdef list moves, actors

    def __init__(self, game):
        self.t = tables_of(game)
        self.n = game.n
        self.pie = 1 if game.pie else 0
        self.swap = game.swap_action
        self.moves, self.actors = [], []

    cpdef load(self, state):
        cdef int i
        cdef list height = state.height, owner = state.owner, cover = state.cover, free = state.free
        for i in range(self.n):
            self.height[i] = height[i]
            self.owner[i] = owner[i]
            self.cover[i] = cover[i]
        self.nfree = len(free)
        for i in range(self.nfree):
            self.free[i] = free[i]
        self.towers[0], self.towers[1] = state.towers
        self.stacklen[0], self.stacklen[1] = len(state.stacks[0]), len(state.stacks[1])
        self.red, self.ply, self.to_move, self.winner = state.red, state.ply, state.to_move, state.winner
        self.moves, self.actors = [], []

    cpdef store(self, state):
        """Write the tables back as the pure-Python rules keep them, and the moves played since ``load``."""
        cdef int i, p
        n = self.n
        state.height = [self.height[i] for i in range(n)]
        state.owner = [self.owner[i] for i in range(n)]
        state.cover = [self.cover[i] for i in range(n)]
        state.free = [self.free[i] for i in range(self.nfree)]
        state.occupied = {i for i in range(n) if self.height[i]}
        state.towers = [self.towers[0], self.towers[1]]
        stacks = [[set() for _ in range(self.stacklen[0])], [set() for _ in range(self.stacklen[1])]]
        for i in range(n):
            if self.height[i]:
                stacks[self.owner[i]][self.height[i]].add(i)
        state.stacks = stacks
        state.red, state.ply, state.to_move, state.winner = self.red, self.ply, self.to_move, self.winner
        state._history.extend(self.moves)
        state._actors.extend(self.actors)
        self.moves, self.actors = [], []

    # -- the rules --------------------------------------------------------
    cdef int smallest(self, int p, int *out):
        """Seat p's smallest towers, in cell order, into ``out``; returns how many (§4b)."""
        cdef int i, h, best = 1 << 30, k = 0
        for i in range(self.n):
            h = self.height[i]
            if h and self.owner[i] == p:
                if h < best:
                    best = h
                    k = 0
                if h == best:
                    out[k] = i
                    k += 1
        return k

    cdef inline void unfree(self, int x):
        """Cell x leaves the sorted free list."""
        cdef int lo = 0, hi = self.nfree, mid
        while lo < hi:
            mid = (lo + hi) >> 1
            if self.free[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        self.nfree -= 1
        while lo < self.nfree:
            self.free[lo] = self.free[lo + 1]
            lo += 1

    cdef inline void refree(self, int x):
        """Cell x joins the sorted free list."""
        cdef int k = self.nfree
        while k > 0 and self.free[k - 1] > x:
            self.free[k] = self.free[k - 1]
            k -= 1
        self.free[k] = x
        self.nfree += 1

    cdef void do_swap(self):
        """§3.2: the opening piece changes hands; the first seat, now Blue, moves."""
        cdef int i, x
        for i in range(self.n):
            if self.owner[i] == 0:
                self.owner[i] = 1
        x = self.towers[0]
        self.towers[0] = self.towers[1]
        self.towers[1] = x
        x = self.stacklen[0]
        self.stacklen[0] = self.stacklen[1]
        self.stacklen[1] = x
        self.red = 1
        self.to_move = 0
        self.ply += 1

    cdef void place(self, int a, int p):
        """§4a: a new tower on the free hex a."""
        cdef Tables t = self.t
        cdef int j, c, q, e, base = a * (t.depth + 1)
        self.height[a] = 1
        self.owner[a] = p
        if self.stacklen[p] < 2:
            self.stacklen[p] = 2
        self.towers[p] += 1
        self.unfree(a)
        e = t.off[base + 2]
        for q in range(t.off[base + 1], e):
            j = t.cells[q]
            c = self.cover[j]
            self.cover[j] = c + 1
            if c == 0 and not self.height[j]:
                self.unfree(j)

    cdef void grow(self, int a, int p):
        """§4b, §5: tower a grows by one and blasts every tower at distance h."""
        cdef Tables t = self.t
        cdef int h = self.height[a] + 1, j, k, o, x, c, q, r, base, jb
        cdef int d1 = t.depth + 1
        self.height[a] = h
        if self.stacklen[p] <= h:
            self.stacklen[p] = h + 1
        base = a * d1
        if h < t.depth:
            for q in range(t.off[base + h], t.off[base + h + 1]):
                j = t.cells[q]
                k = self.height[j]
                if not k:
                    continue
                o = self.owner[j]
                self.towers[o] -= 1
                self.height[j] = 0
                self.owner[j] = -1
                jb = j * d1
                for r in range(t.off[jb + 1], t.off[jb + (k + 1 if k + 1 <= t.depth else t.depth)]):
                    x = t.cells[r]
                    c = self.cover[x] - 1
                    self.cover[x] = c
                    if c == 0 and not self.height[x]:
                        self.refree(x)
                if self.cover[j] == 0:
                    self.refree(j)
            for q in range(t.off[base + h], t.off[base + h + 1]):
                j = t.cells[q]
                c = self.cover[j]
                self.cover[j] = c + 1
                if c == 0 and not self.height[j] and self.nfree:
                    self.unfree(j)

    cdef int step(self, int a) except -1:
        """Apply the legal move a (the pure-Python ``_apply``)."""
        cdef int p = self.to_move
        if self.nfree and a == self.swap:
            self.do_swap()
            return 0
        if self.nfree:
            self.place(a, p)
        else:
            self.grow(a, p)
        self.ply += 1
        self.to_move = 1 - p
        if self.ply > 1 and not self.towers[1 - p]:
            self.winner = p
        return 0

    # -- one move at a time (the differential test) ------------------------
    def legal(self) -> list:
        cdef int buf[MAXN]
        cdef int k, i
        if self.winner >= 0:
            return []
        if self.ply == 1 and self.pie:
            return [self.free[i] for i in range(self.nfree)] + [self.swap]
        if self.nfree:
            return [self.free[i] for i in range(self.nfree)]
        k = self.smallest(self.to_move, buf)
        return [buf[i] for i in range(k)]

    def apply(self, int a) -> None:
        if a not in self.legal():
            raise ValueError(f"illegal move {a}")
        self.step(a)

    def returns(self) -> list:
        return win_loss(self.winner)

    def snapshot(self) -> dict:
        n = self.n
        return {
            "height": [self.height[i] for i in range(n)],
            "owner": [self.owner[i] for i in range(n)],
            "cover": [self.cover[i] for i in range(n)],
            "free": [self.free[i] for i in range(self.nfree)],
            "towers": [self.towers[0], self.towers[1]],
            "red": self.red,
            "ply": self.ply,
            "to_move": self.to_move,
            "winner": self.winner,
        }

    # -- the rollout --------------------------------------------------------
    cdef int rollout(self, Draws rnd, int plies) except -1:
        """The core's random playout: ``legal[int(rnd() * len(legal))]`` each move; returns the plies played."""
        cdef int buf[MAXN]
        cdef int played = 0, p, a, k, count
        cdef list moves = self.moves, actors = self.actors
        while played < plies and self.winner < 0:
            p = self.to_move
            if self.ply == 1 and self.pie:
                count = self.nfree + 1
                k = <int>(rnd.next() * count)
                a = self.free[k] if k < self.nfree else self.swap
            elif self.nfree:
                k = <int>(rnd.next() * self.nfree)
                a = self.free[k]
            else:
                count = self.smallest(p, buf)
                if count == 0:
                    raise IndexError("no legal move")
                k = <int>(rnd.next() * count)
                a = buf[k]
            self.step(a)
            moves.append(a)
            actors.append(p)
            played += 1
        return played


cdef Engine _engine(game):
    return Engine(game)


include "_play_random.pxi"
