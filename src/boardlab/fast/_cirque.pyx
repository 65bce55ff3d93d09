# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Cirque's rules in C for the random rollouts (the pure-Python rules in ``games/cirque.py`` are the reference;
``tests/fast/test_differential.py`` plays both side by side).

``play_random(state, rnd, plies)`` is the core's playout on a ``CirqueState``: the same draws, the same moves,
and the state left exactly as the pure-Python rules leave it. ``Engine`` is the same rules one move at a time.
Squares are bits of two 64-bit words, so a board may have up to 128 squares (larger boards play in Python).
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint64_t

include "_rng.pxi"

from ..core.game import win_loss

cdef enum:
    MAXN = 128
    MAXSHAPES = 128
    MAXTHROUGH = 4096

cdef extern from *:
    """
    static inline int bl_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int bl_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    """
    int bl_popcount64(unsigned long long x) nogil
    int bl_ctz64(unsigned long long x) nogil


cdef class Board:
    """One board's tables, for C: partner masks (§4, §5), shapes (§6), the lines through each square (§8)."""

    cdef int n, nshapes, exact, any_fill
    cdef uint64_t partner[MAXN][2]
    cdef int shape_of[MAXN]
    cdef int shape_size[MAXSHAPES]
    cdef int through_off[MAXN + 1]
    cdef int through_line[MAXTHROUGH]  # an index into lines
    cdef int through_k[MAXTHROUGH]
    cdef list lines  # the lines as tuples (for ``state.line``)
    cdef int *line_cells
    cdef int *line_off

    def __cinit__(self, game):
        b = game.board
        cdef int i, k, at = 0, c
        self.n = b.n
        self.nshapes = len(b.shape_size)
        self.exact = 1 if game.params["exact_five"] else 0
        self.any_fill = 1 if game.params["shape_fill"] == "any_stones" else 0
        for i in range(self.n):
            m = b.partner_mask[i]
            self.partner[i][0] = m & 0xFFFFFFFFFFFFFFFF
            self.partner[i][1] = m >> 64
            self.shape_of[i] = b.shape_of[i]
        for i in range(self.nshapes):
            self.shape_size[i] = b.shape_size[i]
        index = {}
        self.lines = []
        for i in range(self.n):
            for line, _ in b.lines_through[i]:
                if line not in index:
                    index[line] = len(self.lines)
                    self.lines.append(line)
        total = sum(len(line) for line in self.lines)
        self.line_cells = <int *>PyMem_Malloc((total + 1) * sizeof(int))
        self.line_off = <int *>PyMem_Malloc((len(self.lines) + 1) * sizeof(int))
        if not self.line_cells or not self.line_off:
            raise MemoryError()
        for k, line in enumerate(self.lines):
            self.line_off[k] = at
            for c in line:
                self.line_cells[at] = c
                at += 1
        self.line_off[len(self.lines)] = at
        at = 0
        for i in range(self.n):
            self.through_off[i] = at
            for line, k in b.lines_through[i]:
                if at >= MAXTHROUGH:
                    raise ValueError("too many lines for the compiled rollouts")
                self.through_line[at] = index[line]
                self.through_k[at] = k
                at += 1
        self.through_off[self.n] = at

    def __dealloc__(self):
        PyMem_Free(self.line_cells)
        PyMem_Free(self.line_off)


_BOARDS = {}


cdef Board board_of(game):
    key = (game.params["board"], game.params["exact_five"], game.params["shape_fill"])
    b = _BOARDS.get(key)
    if b is None:
        b = _BOARDS[key] = Board(game)
    return b


_FITS = {}


def supports(game) -> bool:
    """Whether this module can play ``game`` (a board of at most 128 squares, few enough lines)."""
    name = game.params["board"]
    fits = _FITS.get(name)
    if fits is None:
        b = game.board
        fits = _FITS[name] = (
            game.n <= MAXN and len(b.shape_size) <= MAXSHAPES and sum(len(t) for t in b.lines_through) <= MAXTHROUGH
        )
    return fits


cdef class Engine:
    """The rules' state as C arrays; ``load`` / ``store`` move it from and to a ``CirqueState``."""

    cdef Board b
    cdef signed char stone[MAXN]
    cdef uint64_t empty[2]
    cdef int filled[MAXSHAPES]
    cdef int own[2 * MAXSHAPES]
    cdef int to_move, turn, left, bonus, forfeited, winner
    cdef int placed[MAXN]
    cdef int nplaced
    cdef int last[MAXN]
    cdef int nlast
    cdef int line_id, line_lo, line_hi
    cdef object line  # the state's line when the engine has not made one
    cdef list moves, actors

    def __init__(self, game):
        self.b = board_of(game)

    cpdef load(self, state):
        cdef int i
        b = self.b
        cdef list stone = state.stone
        for i in range(b.n):
            self.stone[i] = stone[i]
        e = state.empty
        self.empty[0] = e & 0xFFFFFFFFFFFFFFFF
        self.empty[1] = e >> 64
        filled, own = state.filled, state.own
        for i in range(b.nshapes):
            self.filled[i] = filled[i]
            self.own[2 * i] = own[2 * i]
            self.own[2 * i + 1] = own[2 * i + 1]
        self.to_move, self.turn, self.left = state.to_move, state.turn, state.left
        self.bonus, self.forfeited, self.winner = state.bonus, state.forfeited, state.winner
        self.nplaced = len(state.placed)
        for i in range(self.nplaced):
            self.placed[i] = state.placed[i]
        self.nlast = len(state.last)
        for i in range(self.nlast):
            self.last[i] = state.last[i]
        self.line_id = -1
        self.line = state.line
        self.moves, self.actors = [], []

    cdef object line_tuple(self):
        if self.line_id < 0:
            return self.line
        return tuple(self.b.lines[self.line_id][self.line_lo : self.line_hi + 1])

    cpdef store(self, state):
        """Write the tables back as the pure-Python rules keep them, and the moves played since ``load``."""
        cdef int i
        b = self.b
        state.stone = [self.stone[i] for i in range(b.n)]
        state.empty = (<object>self.empty[1] << 64) | <object>self.empty[0]
        state.filled = [self.filled[i] for i in range(b.nshapes)]
        state.own = [self.own[i] for i in range(2 * b.nshapes)]
        state.to_move, state.turn, state.left = self.to_move, self.turn, self.left
        state.bonus, state.forfeited, state.winner = self.bonus, self.forfeited, self.winner
        state.placed = [self.placed[i] for i in range(self.nplaced)]
        state.last = [self.last[i] for i in range(self.nlast)]
        state.line = self.line_tuple()
        state._history.extend(self.moves)
        state._actors.extend(self.actors)
        self.moves, self.actors = [], []

    # -- the rules --------------------------------------------------------
    cdef inline void open_mask(self, uint64_t *m):
        """The squares the next stone may take (§4, §5): empty, and fit with every stone of this turn."""
        cdef int i, a
        m[0] = self.empty[0]
        m[1] = self.empty[1]
        for i in range(self.nplaced):
            a = self.placed[i]
            m[0] &= self.b.partner[a][0]
            m[1] &= self.b.partner[a][1]

    cdef bint five_through(self, int i, int p):
        """§8: a run of five or more of p's stones through i (exactly five with exact_five); sets the line."""
        cdef Board b = self.b
        cdef int q, line, k, lo, hi, start, size, run
        for q in range(b.through_off[i], b.through_off[i + 1]):
            line = b.through_line[q]
            k = b.through_k[q]
            start = b.line_off[line]
            size = b.line_off[line + 1] - start
            lo = k
            while lo > 0 and self.stone[b.line_cells[start + lo - 1]] == p:
                lo -= 1
            hi = k
            while hi + 1 < size and self.stone[b.line_cells[start + hi + 1]] == p:
                hi += 1
            run = hi - lo + 1
            if run == 5 or (run > 5 and not b.exact):
                self.line_id, self.line_lo, self.line_hi = line, lo, hi
                return True
        return False

    cdef void finish(self, int winner):
        cdef int i
        self.winner = winner
        for i in range(self.nplaced):
            self.last[i] = self.placed[i]
        self.nlast = self.nplaced
        self.nplaced = 0
        self.left = 0

    cdef void step(self, int a):
        """Apply the legal stone a (the pure-Python ``_apply``)."""
        cdef Board b = self.b
        cdef int p = self.to_move, shape = b.shape_of[a], i
        cdef uint64_t m[2]
        self.stone[a] = p
        self.empty[a >> 6] &= ~((<uint64_t>1) << (a & 63))
        self.placed[self.nplaced] = a
        self.nplaced += 1
        self.filled[shape] += 1
        self.own[2 * shape + p] += 1
        self.left -= 1
        if self.five_through(a, p):
            self.finish(p)
            return
        if self.filled[shape] == b.shape_size[shape] and (self.own[2 * shape + p] == b.shape_size[shape] or b.any_fill):
            self.left += 1
            self.bonus += 1
        if not self.empty[0] and not self.empty[1]:
            self.finish(2)  # §9: a draw
            return
        self.open_mask(m)
        if self.left == 0 or (not m[0] and not m[1]):  # §3, §7: the turn ends
            self.forfeited = self.left
            for i in range(self.nplaced):
                self.last[i] = self.placed[i]
            self.nlast = self.nplaced
            self.nplaced = 0
            self.to_move = 1 - self.to_move
            self.turn += 1
            self.left = 2
            self.bonus = 0

    cdef int kth(self, uint64_t *m, int k):
        """The k-th square (from 0, lowest first) of the mask m."""
        cdef int c0 = bl_popcount64(m[0])
        cdef uint64_t w
        if k >= c0:
            k -= c0
            w = m[1]
            while k:
                w &= w - 1
                k -= 1
            return 64 + bl_ctz64(w)
        w = m[0]
        while k:
            w &= w - 1
            k -= 1
        return bl_ctz64(w)

    # -- one move at a time (the differential test) ------------------------
    def legal(self) -> list:
        cdef uint64_t m[2]
        cdef int i
        if self.winner >= 0:
            return []
        self.open_mask(m)
        return [i for i in range(self.b.n) if (m[i >> 6] >> (i & 63)) & 1]

    def apply(self, int a) -> None:
        if a not in self.legal():
            raise ValueError(f"illegal stone {a}")
        self.step(a)

    def returns(self) -> list:
        return win_loss(self.winner if self.winner in (0, 1) else None) if self.winner >= 0 else [0.0, 0.0]

    def snapshot(self) -> dict:
        b = self.b
        return {
            "stone": [self.stone[i] for i in range(b.n)],
            "empty": (<object>self.empty[1] << 64) | <object>self.empty[0],
            "filled": [self.filled[i] for i in range(b.nshapes)],
            "own": [self.own[i] for i in range(2 * b.nshapes)],
            "to_move": self.to_move,
            "turn": self.turn,
            "left": self.left,
            "bonus": self.bonus,
            "forfeited": self.forfeited,
            "placed": [self.placed[i] for i in range(self.nplaced)],
            "last": [self.last[i] for i in range(self.nlast)],
            "winner": self.winner,
            "line": self.line_tuple(),
        }

    # -- the rollout --------------------------------------------------------
    cdef int rollout(self, Draws rnd, int plies) except -1:
        """The core's random playout: ``legal[int(rnd() * len(legal))]`` each stone; returns the plies played."""
        cdef uint64_t m[2]
        cdef int played = 0, p, a, count
        cdef list moves = self.moves, actors = self.actors
        while played < plies and self.winner < 0:
            p = self.to_move
            self.open_mask(m)
            count = bl_popcount64(m[0]) + bl_popcount64(m[1])
            if count == 0:
                raise IndexError("no legal stone")
            a = self.kth(m, <int>(rnd.next() * count))
            self.step(a)
            moves.append(a)
            actors.append(p)
            played += 1
        return played


cdef Engine _engine(game):
    return Engine(game)


include "_play_random.pxi"
