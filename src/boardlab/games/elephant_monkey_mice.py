"""Elephant, Monkey & Mice: a 5x5 race of three animals, with forced retreats inside the turn.

Rules: ``docs/rules/elephant-monkey-mice.md``; clause numbers are cited as ``§n``.

Seat 0 is White (home row 1), seat 1 is Black (home row 5). A square is
``5 * y + x`` with ``x`` 0..4 the column ``a``..``e`` and ``y`` 0..4 the row
``1``..``5``. Perfect information, no chance.

A turn is a sequence of small decisions (§3, the phases of :data:`PHASES`):

* ``turn`` (the mover): ``elephant to <square>``, ``monkey to <square>``,
  ``mouse <from>-<to>``, ``add a mouse on <square>`` or, with no legal move,
  ``pass``;
* ``extra mouse`` (the mover, after a Mouse move, §6.4): ``extra mouse on
  <square>`` or ``no extra mouse``; then, with an empty reserve, ``take the
  mouse from <square>`` (phase ``take``);
* ``elephant retreat`` / ``monkey retreat`` (the piece's OWNER, who is not
  always the mover, §7): ``retreat to <square>``. A forced retreat with a
  single square is made at once, without a decision.

The action space is the segments ``elephant`` (0-24), ``monkey`` (25-49),
``mouse`` (50-674, ``from * 25 + to``), ``add`` (675-699), ``extra``
(700-724), ``no_extra`` (725), ``take`` (726-750), ``retreat`` (751-775)
and ``pass`` (776).
"""

from __future__ import annotations

from typing import Any

from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.constants import TERMINAL
from ..core.game import Game, win_loss
from ..core.hidden import Seen
from ..core.options import Option
from ..core.phases import Phase, PhasedState, phase_table
from ..core.tensor import Tensor
from ..core.wording import said
from ..geometry.squaregrid import SquareGrid
from . import _tensors as tz

SIZE = 5
NAMES = ("White", "Black")
INK = ("#f4f1ea", "#2b2823")  # the pieces' colours on screen: white and black counters
LABELS = tuple(f"{'abcde'[s % SIZE]}{s // SIZE + 1}" for s in range(SIZE * SIZE))
HOME = (0, SIZE - 1)  # §1: each seat's home row
FORWARD = (1, -1)  # the y step toward the opponent's home row
KING = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
#: §2: (monkey, mouse, elephant) columns on the home row, from White's left, for option ``setup``.
SETUPS = {"corners": (0, 2, 4), "inner": (1, 2, 3)}
MONKEY_GOAL, ELEPHANT_GOAL, MOUSE_GOAL = 1, 2, 4  # §9: the three goal flags
ALL_GOALS = 7
NO = -1

# Phases (§3).
TURN = "turn"
EXTRA = "extra mouse"
TAKE = "take"
ELEPHANT_RETREAT = "elephant retreat"
MONKEY_RETREAT = "monkey retreat"
OVER = "over"


def sq(x: int, y: int) -> int:
    return y * SIZE + x


def step(s: int, dx: int, dy: int, k: int = 1) -> int:
    """The square ``k`` steps from ``s`` along ``(dx, dy)``, or ``NO`` off the board."""
    x, y = s % SIZE + k * dx, s // SIZE + k * dy
    return sq(x, y) if 0 <= x < SIZE and 0 <= y < SIZE else NO


def dist(a: int, b: int) -> int:
    """Squares apart, counting diagonal steps as one (§1)."""
    return max(abs(a % SIZE - b % SIZE), abs(a // SIZE - b // SIZE))


ADJ = tuple(tuple(t for d in KING if (t := step(s, *d)) != NO) for s in range(SIZE * SIZE))
#: ``LINES[s]``: for each direction, the squares 1, 2 and 3 steps away (``NO`` off the board).
LINES = tuple(tuple(tuple(step(s, dx, dy, k) for k in (1, 2, 3)) for dx, dy in KING) for s in range(SIZE * SIZE))
ROW = tuple(s // SIZE for s in range(SIZE * SIZE))
#: ``DIST[a][b]``: :func:`dist`, as a table.
DIST = tuple(tuple(dist(a, b) for b in range(SIZE * SIZE)) for a in range(SIZE * SIZE))
#: ``REACH[s]``: for each direction, the squares 1 and 2 steps away that are on the board (§5.1).
REACH = tuple(tuple(tuple(t for t in line[:2] if t != NO) for line in lines) for lines in LINES)
#: ``BESIDE[s]``: the squares west and east of ``s`` that are on the board (§6.4).
BESIDE = tuple(tuple(t for dx in (-1, 1) if (t := step(s, dx, 0)) != NO) for s in range(SIZE * SIZE))
#: ``HOME_ADDS[p]``: for each square of ``p``'s home row, the square behind it a Mouse added there comes from.
HOME_ADDS = tuple(tuple((sq(x, HOME[p]), sq(x, HOME[p]) - FORWARD[p] * SIZE) for x in range(SIZE)) for p in (0, 1))
#: ``PATHS[a][b]``: for a square the Monkey on ``a`` can reach in one move (§5.1), the squares it passes
#: through and stops on; ``()`` where it cannot.
PATHS = tuple(
    tuple(next((line[: line.index(b) + 1] for line in REACH[a] if b in line), ()) for b in range(SIZE * SIZE))
    for a in range(SIZE * SIZE)
)

ACTIONS = ActionSpace(
    Segment("elephant", (("to", LABELS),), "elephant to {to}"),
    Segment("monkey", (("to", LABELS),), "monkey to {to}"),
    Segment("mouse", (("from", LABELS), ("to", LABELS)), "mouse {from}-{to}"),
    Segment("add", (("square", LABELS),), "add a mouse on {square}"),
    Segment("extra", (("square", LABELS),), "extra mouse on {square}"),
    Segment("no_extra", (), "no extra mouse"),
    Segment("take", (("square", LABELS),), "take the mouse from {square}"),
    Segment("retreat", (("square", LABELS),), "retreat to {square}"),
    Segment("pass", (), "pass"),
)
ELEPHANT, MONKEY, MOUSE, ADD, EXTRA_AT, NO_EXTRA, TAKE_AT, RETREAT, PASS = ACTIONS.offsets(
    "elephant", "monkey", "mouse", "add", "extra", "no_extra", "take", "retreat", "pass"
)
N = SIZE * SIZE


class ElephantMonkeyMiceGame(Game):
    id = "elephant-monkey-mice"
    title = "Elephant, Monkey & Mice"
    summary = (
        "Race your Elephant, Monkey and a Mouse to the far row; mice chase elephants, elephants scare monkeys, "
        "monkeys fling mice."
    )
    options = (
        Option.choice(
            "mode",
            {"short": "Short: reach the far row", "long": "Long: reach it, turn Royal, come home"},
            said("Short game: reach the far row; long game: reach it, turn Royal, and come home again.", "9"),
        ),
        Option.choice(
            "setup",
            {"corners": "Corners and middle of the home row", "inner": "The three inner squares"},
            said(
                "Monkey, Mouse and Elephant start on the home row's corners and middle, or on its three inner squares.",
                "2",
            ),
        ),
        Option.choice(
            "flung",
            {"reserve": "Back to its owner's reserve", "removed": "Out of the game"},
            said("A Mouse flung off the board goes back to its owner's reserve, or out of the game.", "5.4"),
        ),
        Option("turn_limit", int, 200, (100, 200, 400), said("The game is a draw after this many turns.", "10")),
    )
    mechanics = ("square board", "movement", "forced retreats", "race")
    playing_time = "5-10 min"
    seat_names = NAMES
    inventions = (
        "The game's name: the text gives none; 'Elephant, Monkey & Mice' is a working title.",
        "White moves first.",
        "The exact starting squares (a1, c1, e1 for White by default; option setup = inner puts them on b1, c1, d1).",
        "A Mouse added on the home row pushes an Elephant straight away in the adding player's forward direction.",
        "A Mouse move that would leave the Elephant it lands on with no square to retreat to is not allowed.",
        "A flung Mouse returns to its owner's reserve (option flung).",
        "When both players complete their goal in the same turn, the player whose turn it is wins.",
        "A player with no legal action passes; the game is a draw after 200 turns (option turn_limit).",
    )

    def _setup(self) -> None:
        self.action_space = ACTIONS
        self.long = self.params["mode"] == "long"
        self.columns = SETUPS[self.params["setup"]]
        self.to_reserve = self.params["flung"] == "reserve"
        self.turn_limit = self.params["turn_limit"]
        grid = SquareGrid(SIZE, SIZE)
        self._cells = grid.scene_cells(fill=grid.chess_fill)
        # §10: at most turn_limit turns of at most 5 decisions each (move, extra mouse, take, two retreats).
        self.max_length = 5 * self.turn_limit + 5


class ElephantMonkeyMiceState(PhasedState):
    game: ElephantMonkeyMiceGame
    copied = ("elephant", "monkey", "mice", "reserve", "royal", "goals")

    def __init__(self, game: ElephantMonkeyMiceGame, num_players: int) -> None:
        super().__init__(game, num_players)
        m, c, e = game.columns
        # §2: White's left is column a; Black sits opposite, so Black's left is column e.
        self.monkey = [sq(m, 0), sq(SIZE - 1 - m, SIZE - 1)]
        self.elephant = [sq(e, 0), sq(SIZE - 1 - e, SIZE - 1)]
        #: Each seat's mice on the board: ``(square, royal)`` tuples (own mice never share a square, §5.3).
        self.mice: list[tuple[tuple[int, bool], ...]] = [((sq(c, 0), False),), ((sq(SIZE - 1 - c, SIZE - 1), False),)]
        self.reserve = [3, 3]
        #: ``royal[seat]``: (elephant, monkey) Royal flags (§8).
        self.royal: list[tuple[bool, bool]] = [(False, False), (False, False)]
        self.goals = [0, 0]  # §9: the goal flags reached so far
        self.phase = TURN
        self.to_move = 0
        self.turns = 0
        self.decider = 0  # who decides in the current phase
        self.options: tuple[int, ...] = ()  # a pending retreat's squares (§7)
        self.retreating = NO  # whose piece retreats
        self.origin = NO  # §6.4: the moved Mouse's original square, while the extra mouse is pending
        self.moved_to = NO  # where that Mouse went
        self.extra_at = NO  # the chosen extra mouse's square, while the mouse to take is chosen
        self.winner = NO  # a seat, or 2 for a draw
        self.last: tuple[int, ...] = ()

    # -- what stands where -----------------------------------------------------------
    def mouse_squares(self, seat: int) -> list[int]:
        return [s for s, _ in self.mice[seat]]

    def has_mouse(self, s: int) -> bool:
        return any(m == s for seat in (0, 1) for m, _ in self.mice[seat])

    def elephant_can_go(self, seat: int, t: int) -> bool:
        """§4.1: a square an Elephant of ``seat`` may stand on after a move or a retreat."""
        return t != self.elephant[1 - seat] and not self.has_mouse(t)

    def monkey_can_go(self, seat: int, t: int) -> bool:
        """§5.2: a square the Monkey of ``seat`` may stop on: two or more squares from the opposing Elephant."""
        return dist(t, self.elephant[1 - seat]) >= 2

    def mouse_can_go(self, seat: int, t: int, ignore: int = NO) -> bool:
        """§6.2: not onto the opposing Monkey, the own Elephant or another own Mouse (``ignore``: a Mouse
        that has left)."""
        if t == self.monkey[1 - seat] or t == self.elephant[seat]:
            return False
        return not any(m == t and m != ignore for m, _ in self.mice[seat])

    def retreat_squares(self, seat: int, away: tuple[int, int], vacated: int = NO, arrived: int = NO) -> list[int]:
        """§7.1: where the Elephant of ``seat``, pushed by a Mouse moving ``away``, must go: straight on if it
        can, else any square next to it it could move to; ``vacated``/``arrived``: a Mouse not yet moved."""
        e = self.elephant[seat]

        def ok(t: int) -> bool:
            if t in (NO, arrived) or t == self.elephant[1 - seat]:
                return False
            mice = sum(1 for side in (0, 1) for m, _ in self.mice[side] if m == t)
            return mice == (1 if t == vacated else 0)

        straight = step(e, *away)
        if ok(straight):
            return [straight]
        return sorted(t for t in ADJ[e] if ok(t))

    def monkey_retreat_squares(self, seat: int) -> list[int]:
        """§7.2: the nearest legal squares for a scared Monkey: next to it, else two, else three steps in a
        straight line, never through the opposing Elephant."""
        m, foe = self.monkey[seat], self.elephant[1 - seat]
        near = [t for t in ADJ[m] if t != foe and dist(t, foe) >= 2]
        if near:
            return sorted(near)
        for k in (2, 3):
            out = []
            for line in LINES[m]:
                path = line[:k]
                if NO in path or foe in path:
                    continue
                if dist(path[-1], foe) >= 2:
                    out.append(path[-1])
            if out:
                return sorted(out)
        far = [t for t in range(N) if dist(t, foe) >= 2]
        best = min(dist(m, t) for t in far)
        return [t for t in far if dist(m, t) == best]

    # -- legal actions ---------------------------------------------------------------
    def turn_actions(self, p: int) -> list[int]:
        """§3: every action that starts a turn for ``p``."""
        out: list[int] = []
        e, m = self.elephant[p], self.monkey[p]
        foe_e, foe_m = self.elephant[1 - p], self.monkey[1 - p]
        own = [s for s, _ in self.mice[p]]
        mice = {s for s, _ in self.mice[1 - p]}
        mice.update(own)
        for t in ADJ[e]:  # §4.1: not onto the other Elephant or a Mouse
            if t != foe_e and t not in mice:
                out.append(ELEPHANT + t)
        far = DIST[foe_e]
        for line in REACH[m]:  # §5.1, §5.2: not onto or over the other Elephant, nor next to it
            for t in line:
                if t == foe_e:
                    break
                if far[t] >= 2:
                    out.append(MONKEY + t)
        for f in own:  # §6.1, §6.2: not onto the other Monkey, the own Elephant or another own Mouse
            for t in ADJ[f]:
                if t != foe_m and t != e and t not in own and (t != foe_e or self._push_ok(p, f, t, vacated=f)):
                    out.append(MOUSE + f * N + t)
        if self.reserve[p]:  # §6.5
            for t, frm in HOME_ADDS[p]:
                if t != foe_m and t != e and t not in own and (t != foe_e or self._push_ok(p, frm, t)):
                    out.append(ADD + t)
        out.sort()
        return out

    def _turn_is_legal(self, p: int, a: int) -> bool:
        """Whether ``a`` is in :meth:`turn_actions` (or is the pass that stands for none), without listing them."""
        if a < MONKEY:  # §4.1
            return a >= 0 and a - ELEPHANT in ADJ[self.elephant[p]] and self.elephant_can_go(p, a - ELEPHANT)
        if a < MOUSE:  # §5.1, §5.2
            t = a - MONKEY
            path, foe_e = PATHS[self.monkey[p]][t], self.elephant[1 - p]
            return bool(path) and foe_e not in path and DIST[t][foe_e] >= 2
        if a < ADD:  # §6.1, §6.2, §7.1
            f, t = divmod(a - MOUSE, N)
            return (
                t in ADJ[f]
                and any(s == f for s, _ in self.mice[p])
                and self.mouse_can_go(p, t, ignore=f)
                and self._push_ok(p, f, t, vacated=f)
            )
        if a < EXTRA_AT:  # §6.5
            t = a - ADD
            return (
                self.reserve[p] > 0
                and ROW[t] == HOME[p]
                and self.mouse_can_go(p, t)
                and self._push_ok(p, t - FORWARD[p] * SIZE, t)
            )
        return a == PASS and not self.turn_actions(p)  # §3.2

    def _push_ok(self, p: int, frm: int, t: int, vacated: int = NO) -> bool:
        """§7.1: a Mouse of ``p`` arriving on ``t`` (from ``frm``) may push the opposing Elephant only where it
        has a square to go to."""
        if t != self.elephant[1 - p]:
            return True
        away = (t % SIZE - frm % SIZE, t // SIZE - frm // SIZE)
        return bool(self.retreat_squares(1 - p, away, vacated=vacated, arrived=t))

    def extra_squares(self) -> list[int]:
        """§6.4: the squares beside the moved Mouse's original square that an extra Mouse may take."""
        p = self.to_move
        if not self.reserve[p] and len(self.mice[p]) < 2:
            return []
        return [t for t in BESIDE[self.origin] if self.mouse_can_go(p, t) and self._push_ok(p, self.origin, t)]

    def _legal_turn(self, player: int) -> list[int]:
        acts = self.turn_actions(player)
        return acts if acts else [PASS]

    def _legal_extra(self, player: int) -> list[int]:
        return [EXTRA_AT + t for t in self.extra_squares()] + [NO_EXTRA]

    def _extra_is_legal(self, player: int, a: int) -> bool:
        return a == NO_EXTRA or (EXTRA_AT <= a < NO_EXTRA and a - EXTRA_AT in self.extra_squares())

    def _legal_take(self, player: int) -> list[int]:
        return sorted(TAKE_AT + s for s in self.mouse_squares(player) if s != self.moved_to)

    def _legal_retreat(self, player: int) -> list[int]:
        return [RETREAT + t for t in self.options]

    # -- applying ----------------------------------------------------------------------
    def _apply_turn(self, a: int) -> None:
        p = self.to_move
        if a == PASS:  # §3.2
            self.last = ()
            self._end_turn()
            return
        if a < MONKEY:  # §4
            t = a - ELEPHANT
            self.last = (self.elephant[p], t)
            self.elephant[p] = t
            self._mark()
            self._scare(1 - p)
            self._continue()
        elif a < MOUSE:  # §5
            t = a - MONKEY
            self.last = (self.monkey[p], t)
            self.monkey[p] = t
            self._fling(p, t)
            self._mark()
            self._continue()
        elif a < ADD:  # §6.1
            f, t = divmod(a - MOUSE, N)
            self.mice[p] = tuple((t if s == f else s, r) for s, r in self.mice[p])
            self.last = (f, t)
            self.origin, self.moved_to = f, t
            self._mark()
            self._arrive(p, f, t)
        else:  # add, §6.5
            t = a - ADD
            self.reserve[p] -= 1
            self.mice[p] = (*self.mice[p], (t, False))
            self.last = (t,)
            self._mark()
            self._arrive(p, t - FORWARD[p] * SIZE, t)

    def _arrive(self, p: int, frm: int, t: int) -> None:
        """A Mouse of ``p`` has arrived on ``t`` from ``frm``: an Elephant there is pushed away (§7.1)."""
        if t == self.elephant[1 - p]:
            away = (t % SIZE - frm % SIZE, t // SIZE - frm // SIZE)
            options = self.retreat_squares(1 - p, away)
            if len(options) > 1:
                self._ask(ELEPHANT_RETREAT, 1 - p, options)
                return
            self._elephant_to(1 - p, options[0])
        self._continue()

    def _elephant_to(self, seat: int, t: int) -> None:
        self.elephant[seat] = t
        self._mark()
        self._scare(1 - seat)

    def _scare(self, seat: int) -> None:
        """§7.2: the Monkey of ``seat`` next to (or under) the opposing Elephant retreats."""
        if dist(self.monkey[seat], self.elephant[1 - seat]) > 1:
            return
        options = self.monkey_retreat_squares(seat)
        if len(options) > 1:
            self._ask(MONKEY_RETREAT, seat, options)
            return
        self._monkey_to(seat, options[0])

    def _monkey_to(self, seat: int, t: int) -> None:
        self.monkey[seat] = t
        self._fling(seat, t)
        self._mark()

    def _fling(self, seat: int, t: int) -> None:
        """§5.4: a Monkey stopping on an opposing Mouse flings it off the board."""
        foe = 1 - seat
        if any(s == t for s, _ in self.mice[foe]):
            self.mice[foe] = tuple(m for m in self.mice[foe] if m[0] != t)
            if self.game.to_reserve:
                self.reserve[foe] += 1

    def _ask(self, phase: str, seat: int, options: list[int]) -> None:
        self.phase, self.decider, self.retreating, self.options = phase, seat, seat, tuple(options)

    def _apply_retreat(self, a: int) -> None:
        t = a - RETREAT
        seat, phase = self.retreating, self.phase
        self.phase, self.options, self.retreating = TURN, (), NO
        if phase == ELEPHANT_RETREAT:
            self._elephant_to(seat, t)
        else:
            self._monkey_to(seat, t)
        self._continue()

    def _continue(self) -> None:
        """After every forced retreat of a step: offer the extra Mouse (§6.4), or end the turn."""
        if self.phase in (ELEPHANT_RETREAT, MONKEY_RETREAT):
            return
        if self.origin != NO:
            if self.extra_squares():
                self.phase, self.decider = EXTRA, self.to_move
                return
            self.origin = self.moved_to = NO
        self._end_turn()

    def _apply_extra(self, a: int) -> None:
        p = self.to_move
        if a == NO_EXTRA:
            self.origin = self.moved_to = NO
            self._end_turn()
            return
        t = a - EXTRA_AT
        if not self.reserve[p]:  # §6.4: every Mouse is on the board, so one of them moves here
            self.extra_at = t
            self.phase = TAKE
            return
        self.reserve[p] -= 1
        self._place_extra(p, t)

    def _apply_take(self, a: int) -> None:
        p = self.to_move
        s = a - TAKE_AT
        self.mice[p] = tuple(m for m in self.mice[p] if m[0] != s)
        t, self.extra_at = self.extra_at, NO
        self._place_extra(p, t)

    def _place_extra(self, p: int, t: int) -> None:
        """§6.4: the extra Mouse takes the status of the Mouse that made it and may push an Elephant."""
        royal = dict(self.mice[p])[self.moved_to]
        frm = self.origin
        self.mice[p] = (*self.mice[p], (t, royal))
        self.last = (*self.last, t)
        self.origin = self.moved_to = NO
        self.phase = TURN
        self._mark()
        self._arrive(p, frm, t)

    def _mark(self) -> None:
        """§8, §9: pieces on the far row turn Royal; goal flags once set stay set."""
        long = self.game.long
        royal, goals = self.royal, self.goals
        for seat in (0, 1):
            far = HOME[1 - seat]
            e_row, m_row = ROW[self.elephant[seat]], ROW[self.monkey[seat]]
            er, mr = royal[seat]
            if (e_row == far and not er) or (m_row == far and not mr):
                er, mr = er or e_row == far, mr or m_row == far
                royal[seat] = (er, mr)
            mice = self.mice[seat]
            for s, r in mice:
                if ROW[s] == far and not r:
                    mice = self.mice[seat] = tuple((s, r or ROW[s] == far) for s, r in mice)
                    break
            g = goals[seat]
            if g == ALL_GOALS:
                continue
            if long:
                goal_row = HOME[seat]
                if m_row == goal_row and mr:
                    g |= MONKEY_GOAL
                if e_row == goal_row and er:
                    g |= ELEPHANT_GOAL
                for s, r in mice:
                    if r and ROW[s] == goal_row:
                        g |= MOUSE_GOAL
                        break
            else:
                if m_row == far:
                    g |= MONKEY_GOAL
                if e_row == far:
                    g |= ELEPHANT_GOAL
                for s, _ in mice:
                    if ROW[s] == far:
                        g |= MOUSE_GOAL
                        break
            goals[seat] = g

    def _end_turn(self) -> None:
        """§9: at the end of a turn a player with all three goals wins (the mover first); §10: the limit."""
        p = self.to_move
        self.phase = TURN
        self.turns += 1
        done = [self.goals[s] == ALL_GOALS for s in (0, 1)]
        if done[p] or done[1 - p]:
            self.winner = p if done[p] else 1 - p
            self.phase = OVER
            return
        if self.turns >= self.game.turn_limit:
            self.winner = 2
            self.phase = OVER
            return
        self.to_move = self.decider = 1 - p

    # -- the log in words ------------------------------------------------------------------
    def _seen(self, actor: int, entry: int | tuple[int | None, ...]) -> Seen | tuple[Seen | None, ...]:
        """The step in words after the seat's name ("moves the Monkey to c1", "moves a Mouse from c1 to b1"); the
        label (``monkey to c1``, ``mouse c1-b1``) is the notation (§3-§7)."""
        if not isinstance(entry, int) or entry not in ACTIONS:
            return super()._seen(actor, entry)
        seg, idx = ACTIONS.decode(entry)
        at = [LABELS[i] for i in idx]
        words = {
            "elephant": lambda: f"moves the Elephant to {at[0]}",
            "monkey": lambda: f"moves the Monkey to {at[0]}",
            "mouse": lambda: f"moves a Mouse from {at[0]} to {at[1]}",
            "add": lambda: f"adds a Mouse from the reserve on {at[0]}",
            "extra": lambda: f"puts an extra Mouse on {at[0]}",
            "no_extra": lambda: "puts no extra Mouse down",
            "take": lambda: f"takes the Mouse from {at[0]} to be the extra Mouse",
            "retreat": lambda: f"retreats the {'Elephant' if self.phase == ELEPHANT_RETREAT else 'Monkey'} to {at[0]}",
            "pass": lambda: "cannot move and passes",
        }
        return Seen(words[seg]())

    # -- the rest of the hooks -------------------------------------------------------------
    def returns(self) -> list[float]:
        return win_loss(self.winner) if self.phase == OVER else [0.0, 0.0]

    def evaluate(self, seat: int) -> float | None:
        """For search cut-offs: goals reached, plus each missing part's progress toward the far row (short
        game) or the Royal pieces won (long game)."""
        return max(-0.9, min(0.9, (self._progress(seat) - self._progress(1 - seat)) / 3))

    def _progress(self, s: int) -> float:
        g = self.goals[s]
        done = float(bin(g).count("1"))
        if self.game.long:
            er, mr = self.royal[s]
            return done + 0.25 * (er + mr + any(r for _, r in self.mice[s]))
        far = HOME[1 - s]

        def part(bit: int, squares: list[int]) -> float:
            if g & bit:
                return 0.0
            return 0.5 * (1 - min((abs(ROW[q] - far) for q in squares), default=SIZE - 1) / (SIZE - 1))

        return (
            done
            + part(MONKEY_GOAL, [self.monkey[s]])
            + part(ELEPHANT_GOAL, [self.elephant[s]])
            + part(MOUSE_GOAL, self.mouse_squares(s))
        )

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The observation as numbers (docs/research/tensors-newer.md): seats from the viewer's, squares as they lie."""
        o = self.observation(player)
        v = player
        tz.viewer(t, v, 2)
        t.one_of("phase", o["phase"], PHASE_NAMES)
        t.one_hot("turn_of", tz.rel(o["to_move"], v, 2), 2)
        tz.mover(t, "to_move", o["decider"], v, 2)
        tz.one_hots(t, "elephant", tz.rotate(o["elephant"], v), N)
        tz.one_hots(t, "monkey", tz.rotate(o["monkey"], v), N)
        for k, mice in enumerate(tz.rotate(o["mice"], v)):
            tz.seq(t, f"mice{k}", [m[0] for m in mice], MAX_MICE, N)
            t.bits(f"mice{k}_royal", [i < len(mice) and mice[i][1] for i in range(MAX_MICE)])
        t.counts("reserve", tz.rotate(o["reserve"], v), MAX_MICE - 1)
        t.bits("royal", [r for pair in tz.rotate(o["royal"], v) for r in pair])
        t.bits("goals", [bool(g >> b & 1) for g in tz.rotate(o["goals"], v) for b in range(ALL_GOALS.bit_length())])
        t.one_hot("retreating", tz.rel(o["retreating"], v, 2), 2)
        t.one_hot("origin", o["origin"], N)
        t.counts("turns", [o["turns"]], o["turn_limit"] + 1)
        tz.seq(t, "last", o["last"], MAX_LAST, N)
        t.one_hot("winner", tz.rel(o["winner"], v, 2), 2)
        t.bits("draw", [o["draw"]])

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {
            "viewer": player,
            "phase": self.phase,
            "to_move": self.to_move,
            "decider": self.current_player(),
            "mode": self.game.params["mode"],
            "elephant": self.elephant[:],
            "monkey": self.monkey[:],
            "mice": [[list(m) for m in self.mice[s]] for s in (0, 1)],
            "reserve": self.reserve[:],
            "royal": [list(r) for r in self.royal],
            "goals": self.goals[:],
            "retreating": self.retreating if self.phase in (ELEPHANT_RETREAT, MONKEY_RETREAT) else None,
            "origin": self.origin if self.origin != NO else None,
            "turns": self.turns,
            "turn_limit": self.game.turn_limit,
            "last": list(self.last),
            "winner": self.winner if self.winner in (0, 1) else None,
            "draw": self.winner == 2,
        }


# -- explanations (the rules' words) --------------------------------------------------------


def _explain_turn(s: ElephantMonkeyMiceState, p: int, a: int) -> str | None:
    if a == PASS:
        return said("you may pass only when you have no legal action", "3.2")
    if a >= EXTRA_AT:
        return said("that choice comes only after a Mouse move or during a retreat; first move a piece", "3")
    seg, idx = ACTIONS.decode(a)
    foe = 1 - p
    if seg == "elephant":
        t = idx[0]
        if dist(t, s.elephant[p]) != 1:
            return said("the Elephant moves one square in any direction", "4.1")
        if t == s.elephant[foe]:
            return said("the Elephant may not move onto the other Elephant", "4.1")
        return said("the Elephant may not move onto a square with a Mouse", "4.1")
    if seg == "monkey":
        t, m = idx[0], s.monkey[p]
        dx, dy = t % SIZE - m % SIZE, t // SIZE - m // SIZE
        if t == m or not (dx == 0 or dy == 0 or abs(dx) == abs(dy)) or max(abs(dx), abs(dy)) > 2:
            return said("the Monkey moves one or two squares in one straight line", "5.1")
        if s.elephant[foe] in (step(m, (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)), t):
            return said("the Monkey may not move onto or over the other Elephant", "5.1")
        return said("the Monkey is too afraid to stop next to the other Elephant", "5.2")
    if seg == "mouse":
        f, t = idx
        if f not in s.mouse_squares(p):
            return said(f"you have no Mouse on {LABELS[f]}", "6.1")
        if t not in ADJ[f]:
            return said("a Mouse moves one square in any direction", "6.1")
        if t == s.monkey[foe]:
            return said("a Mouse may not move onto the other Monkey", "6.2")
        if t == s.elephant[p]:
            return said("a Mouse may not move onto its own Elephant", "6.2")
        if t in s.mouse_squares(p):
            return said("a Mouse may not move onto another of its own Mice", "6.2")
        return said("the Elephant there would have no square to retreat to", "7.1")
    t = idx[0]
    if not s.reserve[p]:
        return said("you have no Mouse in reserve to add", "6.5")
    if ROW[t] != HOME[p]:
        return said("a Mouse is added on your own home row", "6.5")
    if t == s.elephant[foe]:
        return said("the Elephant there would have no square to retreat to", "7.1")
    return said("a Mouse may not be added onto the other Monkey, your Elephant or your Mouse", "6.2", "6.5")


def _explain_extra(s: ElephantMonkeyMiceState, p: int, a: int) -> str | None:
    if EXTRA_AT <= a < NO_EXTRA:
        return said(
            "the extra Mouse goes beside the moved Mouse's old square, on a square a Mouse may enter "
            f"(here {', '.join(LABELS[t] for t in s.extra_squares()) or 'none'})",
            "6.4",
        )
    return said("choose where the extra Mouse goes, or take no extra mouse", "6.4")


def _explain_take(s: ElephantMonkeyMiceState, p: int, a: int) -> str | None:
    return said("every Mouse is on the board: choose one of your other Mice to move to the new square", "6.4")


def _explain_retreat(s: ElephantMonkeyMiceState, p: int, a: int) -> str | None:
    where = ", ".join(LABELS[t] for t in s.options)
    if s.phase == ELEPHANT_RETREAT:
        return said(f"the Elephant must retreat, and can go only to {where}", "7.1")
    return said(f"the Monkey must retreat to one of the nearest safe squares: {where}", "7.2")


# -- prompts -----------------------------------------------------------------------------------


def _who(obs: dict[str, Any]) -> str:
    return NAMES[obs["decider"]] if obs["decider"] in (0, 1) else NAMES[obs["to_move"]]


def _mine(obs: dict[str, Any]) -> bool:
    return obs["viewer"] is not None and obs["viewer"] == obs["decider"]


def _turn_prompt(game: ElephantMonkeyMiceGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    if not _mine(obs):
        return f"{_who(obs)} to move."
    if legal and legal[0][0] == PASS:
        return "You have no legal action: pass."
    return "Move your Elephant, your Monkey or a Mouse, or add a Mouse on your home row."


def _extra_prompt(game: ElephantMonkeyMiceGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    if not _mine(obs):
        return f"{_who(obs)} may place an extra Mouse."
    return "Place an extra Mouse beside your Mouse's old square, or take none."


def _take_prompt(game: ElephantMonkeyMiceGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    if not _mine(obs):
        return f"{_who(obs)} chooses which Mouse moves to the new square."
    return "All your Mice are on the board: choose the one that moves to the new square."


def _retreat_prompt(piece: str) -> Any:
    def prompt(game: ElephantMonkeyMiceGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
        if not _mine(obs):
            return f"{_who(obs)}'s {piece} must retreat: {_who(obs)} chooses where."
        return f"Your {piece} must retreat: choose the square."

    return prompt


def _over_prompt(game: ElephantMonkeyMiceGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    if obs["draw"]:
        return f"Draw: the turn limit of {obs['turn_limit']} turns was reached."
    return f"{NAMES[obs['winner']]} wins: all three goals reached."


def _mover(s: ElephantMonkeyMiceState) -> int:
    return s.to_move


def _decider(s: ElephantMonkeyMiceState) -> int:
    return s.decider


PHASES = phase_table(
    Phase(
        TURN,
        _mover,
        legal=ElephantMonkeyMiceState._legal_turn,
        is_legal=ElephantMonkeyMiceState._turn_is_legal,
        apply=ElephantMonkeyMiceState._apply_turn,
        explain=_explain_turn,
        prompt=_turn_prompt,
    ),
    Phase(
        EXTRA,
        _mover,
        legal=ElephantMonkeyMiceState._legal_extra,
        is_legal=ElephantMonkeyMiceState._extra_is_legal,
        apply=ElephantMonkeyMiceState._apply_extra,
        explain=_explain_extra,
        prompt=_extra_prompt,
    ),
    Phase(
        TAKE,
        _mover,
        legal=ElephantMonkeyMiceState._legal_take,
        apply=ElephantMonkeyMiceState._apply_take,
        explain=_explain_take,
        prompt=_take_prompt,
    ),
    Phase(
        ELEPHANT_RETREAT,
        _decider,
        legal=ElephantMonkeyMiceState._legal_retreat,
        apply=ElephantMonkeyMiceState._apply_retreat,
        explain=_explain_retreat,
        prompt=_retreat_prompt("Elephant"),
    ),
    Phase(
        MONKEY_RETREAT,
        _decider,
        legal=ElephantMonkeyMiceState._legal_retreat,
        apply=ElephantMonkeyMiceState._apply_retreat,
        explain=_explain_retreat,
        prompt=_retreat_prompt("Monkey"),
    ),
    Phase(OVER, TERMINAL, prompt=_over_prompt),
)
ElephantMonkeyMiceState.phases = PHASES


# -- the scene ------------------------------------------------------------------------------------
GOAL_WORDS = ((MONKEY_GOAL, "Monkey"), (ELEPHANT_GOAL, "Elephant"), (MOUSE_GOAL, "a Mouse"))


#: Each animal's letter, shape and name on the board.
LOOKS = {
    "elephant": ("E", "square", "Elephant"),
    "monkey": ("M", "triangle", "Monkey"),
    "mouse": ("m", "disc", "Mouse"),
}


def _animal_piece(kind: str, at: int, seat: int, royal: bool) -> dict[str, Any]:
    letter, shape, word = LOOKS[kind]
    star = "★" if royal else ""
    return sc.piece(
        LABELS[at],
        seat,
        kind,
        label=letter + star,
        shape=shape,
        colour=INK[seat],
        icon=kind,
        badge=star or None,
        name=f"{NAMES[seat]}'s {word}" + (", a Royal" if royal else ""),
    )


@ElephantMonkeyMiceGame.draws_scene
def _scene(game: ElephantMonkeyMiceGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    s = sc.new_scene(PHASES[obs["phase"]].prompt(game, obs, legal), (-0.12, -0.12, SIZE + 0.24, SIZE + 0.24))  # type: ignore[misc]
    s["cells"] = [dict(c) for c in game._cells]
    for seat in (0, 1):
        er, mr = obs["royal"][seat]
        animals = [("elephant", obs["elephant"][seat], er), ("monkey", obs["monkey"][seat], mr)]
        animals += [("mouse", m, royal) for m, royal in obs["mice"][seat]]
        s["pieces"] += [_animal_piece(kind, at, seat, royal) for kind, at, royal in animals]
        reserve = [
            sc.item(f"reserve{seat}-{k}", "a Mouse in reserve", "token", colour=INK[seat], icon="mouse")
            for k in range(obs["reserve"][seat])
        ]
        s["zones"].append(sc.zone(f"reserve{seat}", f"{NAMES[seat]}'s reserve", reserve, owner=seat))
    for t in obs["last"]:
        s["highlights"].append({"at": LABELS[t], "kind": "last"})
    if obs["origin"] is not None:
        s["highlights"].append({"at": LABELS[obs["origin"]], "kind": "selected"})
    for a, label in legal:
        seg, idx = ACTIONS.decode(a)
        if seg in ("elephant", "monkey", "add", "extra", "take", "retreat"):
            s["targets"].append({"at": LABELS[idx[0]], "action": a, "label": label})
        elif seg == "mouse":
            s["targets"].append({"at": LABELS[idx[1]], "action": a, "label": label})
    for seat in (0, 1):
        got = [w for bit, w in GOAL_WORDS if obs["goals"][seat] & bit]
        where = "home again as Royals" if obs["mode"] == "long" else "the far row"
        s["status"].append(
            f"{NAMES[seat]}: {', '.join(got) if got else 'nothing'} reached {where} (of Monkey, Elephant, a Mouse)"
        )
    s["status"].append(f"turn {obs['turns'] + 1} of at most {obs['turn_limit']}")
    s["players"] = [sc.player(k, NAMES[k], colour=INK[k]) for k in (0, 1)]
    return sc.finish_scene(s, legal)


ElephantMonkeyMiceGame.state_class = ElephantMonkeyMiceState
PHASE_NAMES = tuple(PHASES)
#: Mice a side has (one on the board, three in reserve); squares the last move lists (a Mouse's move and its extra).
MAX_MICE = 4
MAX_LAST = 3

GAME_CLASS = ElephantMonkeyMiceGame
