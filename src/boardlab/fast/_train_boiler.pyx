# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Train Boiler's rules in C for the random rollouts (the pure-Python rules in ``games/train_boiler.py`` are the
reference; ``tests/fast/test_differential.py`` plays both side by side).

A hidden-information game: a search plays its rollouts on a determinisation (a complete state), so the rollout
is the complete game's rules, chance included (the goal draws and the deal, drawn by their probabilities with
one number each, as the core's ``draw_outcome``). ``play_random(state, rnd, plies)`` is the core's playout on a
``TrainBoilerState``: the same draws, the same moves, and the state left exactly as the pure-Python rules leave
it. ``Engine`` is the same rules one move at a time.
"""

include "_rng.pxi"

from ..core.game import win_loss

cdef enum:
    STAR = 0
    DOUBLE = 1
    DEAL = 2
    PLAY = 3
    OVER = 4
    MAXDEALS = 64
    CHANCE_SEAT = -1
    TERMINAL_SEAT = -4

PHASES = ("star", "double", "deal", "play", "over")
_CODE = {name: k for k, name in enumerate(PHASES)}


cdef class Engine:
    """The rules' state in C; ``load`` / ``store`` move it from and to a ``TrainBoilerState``."""

    cdef int after_rule, max_rounds, ndeals
    cdef int deal[MAXDEALS][3]
    cdef double weight[MAXDEALS]
    cdef int counts[3]
    cdef int phase, hot, hottest, temp, to_move, winner, nplays, barrier, moves_at
    cdef int hands[2][3]
    cdef int plays[14][2]
    cdef int wins[2]
    cdef list results
    cdef object track
    cdef list moves, actors

    def __init__(self, game):
        from ..games import train_boiler as tb

        cdef int k, j
        self.after_rule = 1 if game.restore_rule == "both_after" else 0
        self.max_rounds = game.max_rounds
        self.ndeals = len(tb.DEALS)
        if self.ndeals > MAXDEALS or tb.HAND != 7 or len(tb.COUNTS) != 3:
            raise ValueError("Train Boiler's tables do not fit the compiled rollouts")
        for k in range(self.ndeals):
            for j in range(3):
                self.deal[k][j] = tb.DEALS[k][j]
            self.weight[k] = tb.DEAL_WEIGHTS[k]
        for j in range(3):
            self.counts[j] = tb.COUNTS[j]
        self.track = tb.TRACK

    cpdef load(self, state):
        cdef int s, k
        self.phase = _CODE[state.phase]
        self.hot, self.hottest, self.temp = state.hot, state.hottest, state.temp
        self.to_move, self.winner = state.to_move, state.winner
        for s in range(2):
            for k in range(3):
                self.hands[s][k] = state.hands[s][k]
            self.wins[s] = state.wins[s]
        self.nplays = len(state.plays)
        for k in range(self.nplays):
            self.plays[k][0], self.plays[k][1] = state.plays[k]
        self.results = state.results[:]
        self.barrier = state._barrier
        self.moves_at = len(state._history)
        self.moves, self.actors = [], []

    cpdef store(self, state):
        """Write the tables back as the pure-Python rules keep them, and the moves played since ``load``."""
        cdef int k
        state.phase = PHASES[self.phase]
        state.hot, state.hottest, state.temp = self.hot, self.hottest, self.temp
        state.to_move, state.winner = self.to_move, self.winner
        state.hands = [(self.hands[0][0], self.hands[0][1], self.hands[0][2]),
                       (self.hands[1][0], self.hands[1][1], self.hands[1][2])]
        state.wins = [self.wins[0], self.wins[1]]
        state.plays = [(self.plays[k][0], self.plays[k][1]) for k in range(self.nplays)]
        state.results = self.results[:]
        state._barrier = self.barrier
        state._history.extend(self.moves)
        state._actors.extend(self.actors)
        self.moves_at += len(self.moves)
        self.moves, self.actors = [], []

    # -- the rules --------------------------------------------------------
    cdef int current(self):
        if self.phase == PLAY:
            return self.to_move
        return TERMINAL_SEAT if self.phase == OVER else CHANCE_SEAT

    cdef int draw(self, double x):
        """The chance outcome ``x`` picks (the core's ``draw_outcome``)."""
        cdef double acc = 0.0
        cdef int k
        if self.phase == DEAL:
            for k in range(self.ndeals):
                acc += self.weight[k]
                if x < acc:
                    return k
            return self.ndeals - 1
        return 0 if x < 0.5 else 1

    cdef void new_round(self):
        self.hot = -1
        self.hottest = -1
        self.hands[0][0] = self.hands[0][1] = self.hands[0][2] = 0
        self.hands[1][0] = self.hands[1][1] = self.hands[1][2] = 0
        self.nplays = 0
        self.temp = 2
        self.to_move = -1
        self.phase = STAR

    cdef int round_winner(self):
        if self.temp == 3:
            return self.hot
        if self.temp == 1:
            return 1 - self.hot
        if self.temp == 4:
            return self.hottest
        if self.temp == 0:
            return 1 - self.hottest
        return -1

    cdef void step(self, int a, int moves_before):
        """Apply the legal action a; ``moves_before`` is the history's length before it."""
        cdef int p, mine, other, w, k
        cdef bint dud
        if self.phase == STAR:
            self.hot = a
            self.phase = DOUBLE
        elif self.phase == DOUBLE:
            self.hottest = a
            self.phase = DEAL
        elif self.phase == DEAL:
            for k in range(3):
                self.hands[0][k] = self.deal[a][k]
                self.hands[1][k] = self.counts[k] - self.deal[a][k]
            self.to_move = self.hot
            self.phase = PLAY
        else:  # PLAY
            p = self.to_move
            mine = self.hands[p][0] + self.hands[p][1] + self.hands[p][2]
            other = self.hands[1 - p][0] + self.hands[1 - p][1] + self.hands[1 - p][2]
            if self.after_rule:
                mine -= 1
            dud = a == 2 and mine < 3 and other < 3
            self.hands[p][a] -= 1
            if a == 0:
                if self.temp < 4:
                    self.temp += 1
            elif a == 1:
                if self.temp > 0:
                    self.temp -= 1
            elif not dud:
                self.temp = 2
            self.plays[self.nplays][0] = p
            self.plays[self.nplays][1] = a
            self.nplays += 1
            self.to_move = 1 - p
            if self.nplays == 14:  # §6: the round is decided
                w = self.round_winner()
                if w >= 0:
                    self.wins[w] += 1
                self.results.append({
                    "round": len(self.results) + 1,
                    "temperature": self.track[self.temp],
                    "hot": self.hot,
                    "hottest": self.hottest,
                    "winner": w if w >= 0 else None,
                })
                self.barrier = moves_before + 1
                if self.wins[0] >= 2 or self.wins[1] >= 2 or len(self.results) >= self.max_rounds:
                    self.winner = 0 if self.wins[0] > self.wins[1] else 1 if self.wins[1] > self.wins[0] else -1
                    self.phase = OVER
                else:
                    self.new_round()

    cdef int legal_into(self, int *out):
        cdef int k, n = 0, p = self.to_move
        for k in range(3):
            if self.hands[p][k] > 0:
                out[n] = k
                n += 1
        return n

    # -- one move at a time (the differential test) ------------------------
    def current_player(self) -> int:
        return self.current()

    def legal(self) -> list:
        cdef int buf[3]
        cdef int n, k
        if self.phase == PLAY:
            n = self.legal_into(buf)
            return [buf[k] for k in range(n)]
        if self.phase == OVER:
            return []
        return list(range(self.ndeals)) if self.phase == DEAL else [0, 1]

    def apply(self, int a) -> None:
        if a not in self.legal():
            raise ValueError(f"illegal action {a}")
        chance = self.phase != PLAY
        self.step(a, self.moves_at)
        self.moves_at += 1
        if chance:
            self.barrier = self.moves_at

    def returns(self) -> list:
        return win_loss(self.winner if self.phase == OVER else None)

    def snapshot(self) -> dict:
        return {
            "phase": PHASES[self.phase],
            "hot": self.hot,
            "hottest": self.hottest,
            "temp": self.temp,
            "to_move": self.to_move,
            "winner": self.winner,
            "hands": [tuple(self.hands[0]), tuple(self.hands[1])],
            "wins": [self.wins[0], self.wins[1]],
            "plays": [(self.plays[k][0], self.plays[k][1]) for k in range(self.nplays)],
            "results": self.results[:],
            "_barrier": self.barrier,
        }

    # -- the rollout --------------------------------------------------------
    cdef int rollout(self, Draws rnd, int plies) except -1:
        """The core's random playout: chance by its probabilities, ``legal[int(rnd() * len(legal))]`` else."""
        cdef int buf[3]
        cdef int played = 0, p, a, n
        cdef int at = self.moves_at
        cdef list moves = self.moves, actors = self.actors
        while played < plies and self.phase != OVER:
            if self.phase == PLAY:
                p = self.to_move
                n = self.legal_into(buf)
                if n == 0:
                    raise IndexError("no legal card")
                a = buf[<int>(rnd.next() * n)]
                self.step(a, at)
                actors.append(p)
            else:
                a = self.draw(rnd.next())
                self.step(a, at)
                actors.append(CHANCE_SEAT)
                self.barrier = at + 1
            moves.append(a)
            at += 1
            played += 1
        return played


_ENGINES = {}


cdef Engine _engine(game):
    """A fresh engine with the game's tables (copied from a cached one: the deal table is read once per game)."""
    key = (game.restore_rule, game.max_rounds)
    proto = _ENGINES.get(key)
    if proto is None:
        proto = _ENGINES[key] = Engine(game)
    return _copy(proto)


cdef Engine _copy(Engine proto):
    cdef Engine e = Engine.__new__(Engine)
    e.after_rule, e.max_rounds, e.ndeals = proto.after_rule, proto.max_rounds, proto.ndeals
    e.deal = proto.deal
    e.weight = proto.weight
    e.counts = proto.counts
    e.track = proto.track
    return e


include "_play_random.pxi"
