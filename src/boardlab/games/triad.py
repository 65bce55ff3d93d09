"""Triad: two nuclear superpowers, seven hidden unit cards each, a 5x5 board of ocean and home rows.

Rules: ``docs/rules/triad.md``; clause numbers are cited as ``§n``.

Squares are numbered ``5 * row + column`` (rows 1-5 are 0-4, columns a-e are
0-4). Orange's home row is row 1, Blue's row 5 (§1). The unit mix, the home
row and the kill table are data (``games/data/triad.json``), our reading of a
text that gives none of them exactly (§1c, §9).

Seat actions are the segments of the game's action space:

* ``split`` (3): how the two ammunition cards are shared between the two
  Defence Centres (§3b);
* ``deploy`` (``5 ** 5``): the unit types on squares a-e of the home row (§3c);
* ``move`` (``25 * from + to``), ``flip`` (a square), ``attack`` (a surfaced
  Submarine's target), ``fire`` (a Defence Centre's target) (§4-§8);
* ``pay`` / ``spare``: whether a probed unit's owner pays an ammunition to
  destroy the Spy (§7d); ``pass`` when nothing else is legal (§10b).

Chance actions: ``0-14`` the two unit types drawn as ammunition (a pair, §3a),
``15``/``16`` Orange / Blue moves first (option ``first``, §3d).

Hidden information (§2): which units became ammunition and which unit stands
on which square are known to their owner only, until an engagement, a
surfacing or a destruction reveals a unit (then both remember it). ``_seen``
keeps the draw and the deployment private and every later step public (a move
names squares, never the unit), with each step's outcome in its public text;
the core's log and resample follow from it. ``resample`` is a faster version:
it redraws the opponent's unrevealed units and ammunition and keeps the first
draw whose replay gives the same public events; for a spectator it deals each
side on its own before checking the two deals together. A seat's legal moves
never depend on what it cannot see: a Defence Centre may fire at any adjacent
enemy unit, and a shot at a submerged Submarine misses (§8).
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from importlib import resources
from itertools import combinations_with_replacement
from typing import Any

from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.constants import CHANCE, TERMINAL
from ..core.game import Game, win_loss
from ..core.gametype import Chance, GameType, Information
from ..core.hidden import Seen
from ..core.hidden import resample as core_resample
from ..core.options import Option
from ..core.phases import Phase, PhasedState, phase_table
from ..core.tensor import Tensor
from ..core.wording import said, third_person
from . import _tensors as tz

NAMES = ("Orange", "Blue")
SIZE = 5
COLS = "abcde"


def _data() -> dict[str, Any]:
    return json.loads(resources.files("boardlab.games").joinpath("data/triad.json").read_text())


DATA = _data()
UNITS: tuple[str, ...] = tuple(DATA["units"])
ICBM, AIRCRAFT, SUB, FLEET, SPY = range(5)
SHORT = ("IC", "AC", "SB", "FL", "SP")
#: What the browser draws on each unit (by unit index), and the mark of a unit's state.
UNIT_ICONS = ("icbm", "aircraft", "submarine", "fleet", "spy")
STATE_BADGES = {"spent": "✕", "launched": "!", "surfaced": "▲"}
HOME_KINDS = tuple(k for k, _ in DATA["home_row"])  # §1b, by column
HOME_VALUES = tuple(v for _, v in DATA["home_row"])
DC_NAME = "Defence Centre"
KILLS = {a: frozenset(d) for a, d in DATA["kills"].items()}
BREAKS = {a: frozenset(d) for a, d in DATA["structure_breakers"].items()}
BONUS = int(DATA["icbm_city_bonus"])
#: §3a: the ammunition draw's outcomes, pairs of unit types.
PAIRS = tuple(combinations_with_replacement(range(5), 2))
COIN = len(PAIRS)  # chance 15, 16: who moves first
SPLITS = ("2 left, 0 right", "1 left, 1 right", "0 left, 2 right")
SPLIT_AMMO = ((2, 0), (1, 1), (0, 2))
#: ``resample``'s deals tried (per side, for a spectator) and a spectator's rounds before the core's search.
RESAMPLE_TRIES = 2000
RESAMPLE_ROUNDS = 50
DIRS8 = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
DIAG = ((-1, -1), (-1, 1), (1, -1), (1, 1))
ORTHO = ((-1, 0), (1, 0), (0, -1), (0, 1))


def sq_name(sq: int) -> str:
    return f"{COLS[sq % SIZE]}{sq // SIZE + 1}"


SQUARES = tuple(sq_name(s) for s in range(SIZE * SIZE))


def home_row(p: int) -> int:
    return 0 if p == 0 else SIZE - 1


def forward(p: int) -> int:
    return 1 if p == 0 else -1


def step(sq: int, dr: int, dc: int) -> int:
    r, c = divmod(sq, SIZE)
    r, c = r + dr, c + dc
    return r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else -1


#: ``STEP_TABLE[dr, dc][sq]``: :func:`step` for every square, computed once.
STEP_TABLE: dict[tuple[int, int], tuple[int, ...]] = {
    (dr, dc): tuple(step(sq, dr, dc) for sq in range(SIZE * SIZE)) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
}
#: The step tables of the eight, the diagonal and the orthogonal directions, in the order of ``DIRS8``, ``DIAG``
#: and ``ORTHO``.
DIRS8_STEPS = tuple(STEP_TABLE[d] for d in DIRS8)
DIAG_STEPS = tuple(STEP_TABLE[d] for d in DIAG)
ORTHO_STEPS = tuple(STEP_TABLE[d] for d in ORTHO)

#: ``STRUCTURE[sq]``: ``(owner, column)`` of the home-row structure on ``sq``, or ``None`` (§1b).
STRUCTURE: tuple[tuple[int, int] | None, ...] = tuple(
    (0, s % SIZE) if s // SIZE == 0 else (1, s % SIZE) if s // SIZE == SIZE - 1 else None for s in range(SIZE * SIZE)
)
DC_SQUARES = tuple(tuple(home_row(p) * SIZE + c for c in range(SIZE) if HOME_KINDS[c] == DC_NAME) for p in (0, 1))


def _ammo_words(left: int, right: int) -> str:
    if not right:
        return "puts both ammunition behind the left Defence Centre"
    if not left:
        return "puts both ammunition behind the right Defence Centre"
    return "puts one ammunition behind each Defence Centre"


def words(action: int) -> str:
    """A move as the log tells it after the seat's name ("moves the unit on e5 to c3"); the typed notation stays
    the label ("move e5 to c3")."""
    name, idx = ACTIONS.decode(action)
    if name == "split":
        return _ammo_words(*SPLIT_AMMO[idx[0]])
    if name == "deploy":
        return "places its units, left to right: " + ", ".join(UNITS[k] for k in idx)
    if name == "move":
        return f"moves the unit on {SQUARES[idx[0]]} to {SQUARES[idx[1]]}"
    if name == "flip":
        return f"flips the Submarine on {SQUARES[idx[0]]}"
    if name == "attack":
        return f"fires the Submarine on {SQUARES[idx[0]]} at {SQUARES[idx[1]]}"
    if name == "fire":
        return f"fires the Defence Centre on {SQUARES[idx[0]]} at {SQUARES[idx[1]]}"
    return third_person(ACTIONS.label(action))


def _deploy_label(*kinds: int) -> str:
    return "deploy " + ", ".join(UNITS[k] for k in kinds)


def _move_label(a: int, b: int) -> str:
    return f"move {SQUARES[a]} to {SQUARES[b]}"


def _attack_label(a: int, b: int) -> str:
    return f"submarine {SQUARES[a]} fires at {SQUARES[b]}"


def _fire_label(a: int, b: int) -> str:
    return f"defence centre {SQUARES[a]} fires at {SQUARES[b]}"


ACTIONS = ActionSpace(
    Segment("split", (("split", SPLITS),), "ammo {split}"),
    Segment("deploy", tuple((c, UNITS) for c in COLS), _deploy_label),
    Segment("move", (("from", 25), ("to", 25)), _move_label),
    Segment("flip", (("at", SQUARES),), "flip the submarine at {at}"),
    Segment("attack", (("from", 25), ("to", 25)), _attack_label),
    Segment("fire", (("from", 25), ("to", 25)), _fire_label),
    Segment("pay", (), "pay an ammunition to destroy the Spy"),
    Segment("spare", (), "let the Spy go"),
    Segment("pass", (), "pass"),
)
SPLIT, DEPLOY, MOVE, FLIP, ATTACK, FIRE, PAY, SPARE, PASS = ACTIONS.offsets(
    "split", "deploy", "move", "flip", "attack", "fire", "pay", "spare", "pass"
)


def deploy_action(kinds: tuple[int, ...]) -> int:
    return ACTIONS.encode("deploy", *kinds)


@functools.cache
def deploy_actions(hand: tuple[int, ...]) -> tuple[int, ...]:
    """The sorted deploy actions of the units in ``hand`` (§3c), kept once worked out: a search asks often."""
    return tuple(sorted(deploy_action(k) for k in arrangements(hand)))


def arrangements(hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct order of the unit types in ``hand`` (§3c)."""
    out: set[tuple[int, ...]] = set()

    def go(prefix: tuple[int, ...], rest: list[int]) -> None:
        if not rest:
            out.add(prefix)
            return
        for k in sorted(set(rest)):
            r = rest[:]
            r.remove(k)
            go((*prefix, k), r)

    go((), list(hand))
    return sorted(out)


# A unit: [owner, kind, square, launched, surfaced, spent, known, start column]; square -1 once destroyed.
OWNER, KIND, SQ, LAUNCHED, SURFACED, SPENT, KNOWN, START = range(8)


def defender_key(u: list[Any]) -> str:
    """The kill table's column for a unit (§9)."""
    if u[KIND] == ICBM:
        return "launched ICBM" if u[LAUNCHED] else "ICBM"
    if u[KIND] == SUB:
        return "surfaced Submarine" if u[SURFACED] else "submerged Submarine"
    return UNITS[u[KIND]]


class TriadGame(Game):
    id = "triad"
    title = "Triad"
    summary = (
        "Two superpowers, seven hidden unit cards each: ICBMs, Aircraft, Submarines, a Fleet and a Spy cross the "
        "ocean to destroy the enemy's cities and defence centres. Most points wins."
    )
    options = (
        Option(
            "mix",
            str,
            "I2A2S1F1P1",
            tuple(DATA["mixes"]),
            said(
                "The seven units of each side: two ICBMs and two Aircraft (I2A2S1F1P1) or two ICBMs and two "
                "Submarines (I2S2A1F1P1), one each of the rest.",
                "1c",
            ),
            labels={"I2A2S1F1P1": "Two ICBMs and two Aircraft", "I2S2A1F1P1": "Two ICBMs and two Submarines"},
        ),
        Option.choice(
            "first",
            {"random": "Chance decides", "orange": "Orange", "blue": "Blue"},
            said("Who moves first: chance, Orange or Blue.", "3d"),
        ),
        Option(
            "turn_cap",
            int,
            200,
            None,
            said("Turns after which the game ends and is scored as it stands.", "10c"),
            minimum=10,
            maximum=1000,
        ),
    )
    rules_version = "2"  # 2: a Defence Centre may fire at a submerged Submarine, and misses (§8)
    replays_versions = ("1",)  # version 2 only allows a shot version 1 refused: a version-1 game replays unchanged
    mechanics = ("hidden units", "bluffing", "area scoring")
    playing_time = "7 min"
    game_type = GameType(chance=Chance.EXPLICIT, information=Information.IMPERFECT)
    seat_names = NAMES
    inventions = (
        "The unit mix: two ICBMs, two Aircraft, one Submarine, one Fleet, one Spy (option mix offers two "
        "Submarines and one Aircraft instead); the rules say only 'either 1 or 2 of each'.",
        "The kill table and the engagement procedure: the mover destroys the defender if it can; otherwise an "
        "Aircraft or Fleet defender destroys the mover if it can; otherwise the mover goes back.",
        "A unit's structure attack (a city, a defence centre) happens only once no enemy unit stands on it.",
        "An ICBM steps forward, straight or diagonally, twice a move; a launched ICBM that cannot move is lost.",
        "Adjacent means the eight surrounding squares, for Submarine attacks and Defence Centre fire.",
        "A Defence Centre firing at an unrevealed ICBM with one ammunition left spends it and misses.",
        "A Defence Centre may fire at a submerged Submarine: the shot reveals it, misses and spends the ammunition.",
        "Destroying a Spy costs the destroyer an ammunition, paid automatically when it has one; a probed unit's "
        "owner chooses whether to pay.",
        "The ammunition is taken from the Defence Centre holding the most (the left one on a tie).",
        "The ammunition split is public and chosen before the units are placed; Orange sets up first.",
        "Who moves first is drawn by chance (option first).",
        "A player with no legal action passes; two passes in a row end the game; the game also ends after "
        "turn_cap turns (200 by default).",
        "Equal scores are a draw.",
    )
    num_chance_outcomes = COIN + 2

    def _setup(self) -> None:
        self.action_space = ACTIONS
        mix = DATA["mixes"][self.params["mix"]]
        self.cards: tuple[int, ...] = tuple(k for k in range(5) for _ in range(mix[UNITS[k]]))  # §1c
        counts = [mix[u] for u in UNITS]
        total = len(self.cards) * (len(self.cards) - 1) / 2
        pair_p = []
        for a, b in PAIRS:
            n = counts[a] * (counts[a] - 1) / 2 if a == b else counts[a] * counts[b]
            pair_p.append(n / total)
        self.pair_outcomes = [(i, p) for i, p in enumerate(pair_p) if p > 0]
        # Two draws, two splits, two deployments, a coin, then at most turn_cap turns of at most two entries.
        self.max_length = 7 + 2 * self.params["turn_cap"] + 1


class TriadState(PhasedState):
    game: TriadGame
    copied = ("at", "intact", "ammo", "ammo_cards", "hand", "split", "score", "events", "entries")

    def __init__(self, game: TriadGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.units: list[list[Any]] = []
        self.at = [-1] * (SIZE * SIZE)  # the unit on each square
        self.intact = [STRUCTURE[s] is not None for s in range(SIZE * SIZE)]
        self.ammo = [0] * (SIZE * SIZE)  # on Defence Centre squares
        self.ammo_cards: list[tuple[int, ...]] = [(), ()]
        self.hand: list[tuple[int, ...]] = [(), ()]
        self.split = [-1, -1]
        self.score = [0, 0]
        self.setup_seat = 0
        self.to_move = 0
        self.turns = 0
        self.passes = 0
        self.probe: tuple[int, int, int] | None = None  # (spy, defender, spy's origin)
        self.events: list[str] = []
        self.entries = [-1, -1, -1, -1]  # history indices of the two draws and the two deployments
        self.winner = -1
        self.over = False
        self.end_reason = ""
        self.phase = "ammo"

    def clone(self) -> TriadState:
        s = super().clone()  # the lists in ``copied``, shallow
        s.units = [u[:] for u in self.units]
        return s

    # -- setup (§3) ------------------------------------------------------------------------
    def draw_ammo(self, pair: int) -> None:
        """§3a: two of the seat's seven units, drawn at random, become its ammunition."""
        p = self.setup_seat
        self.entries[p] = len(self._history)
        self.ammo_cards[p] = PAIRS[pair]
        rest = list(self.game.cards)
        for k in PAIRS[pair]:
            rest.remove(k)
        self.hand[p] = tuple(rest)
        if p == 0:
            self.setup_seat = 1
        else:
            self.setup_seat = 0
            self.phase = "split"

    def choose_split(self, action: int) -> None:
        """§3b: the ammunition goes 2/0, 1/1 or 0/2 to the two Defence Centres, face down."""
        p = self.setup_seat
        self.split[p] = action - SPLIT
        for sq, n in zip(DC_SQUARES[p], SPLIT_AMMO[action - SPLIT], strict=True):
            self.ammo[sq] = n
        self.phase = "deploy"

    def deploy(self, action: int) -> None:
        """§3c: the five other units go face down on the five home squares; Submarines start submerged."""
        p = self.setup_seat
        self.entries[2 + p] = len(self._history)
        kinds = ACTIONS.decode(action)[1]
        row = home_row(p)
        for c, k in enumerate(kinds):
            sq = row * SIZE + c
            self.at[sq] = len(self.units)
            self.units.append([p, k, sq, False, False, False, False, c])
        self.hand[p] = ()
        if p == 0:
            self.setup_seat = 1
            self.phase = "split"
        elif self.game.params["first"] == "random":
            self.phase = "coin"
        else:
            self._begin(0 if self.game.params["first"] == "orange" else 1)

    def coin(self, action: int) -> None:
        self._begin(action - COIN)

    def _begin(self, seat: int) -> None:
        """§3d: the first player takes the first turn."""
        self.to_move = seat
        self.phase = "turn"

    # -- helpers -------------------------------------------------------------------------------
    def _say(self, text: str) -> None:
        self.events.append(text)

    def unit_at(self, sq: int) -> list[Any] | None:
        i = self.at[sq] if sq >= 0 else -1
        return self.units[i] if i >= 0 else None

    def _name(self, u: list[Any]) -> str:
        return f"{NAMES[u[OWNER]]}'s {UNITS[u[KIND]]}"

    def enemy_structure(self, sq: int, p: int) -> bool:
        """An intact structure of ``p``'s opponent stands on ``sq``."""
        st = STRUCTURE[sq]
        return st is not None and st[0] != p and self.intact[sq]

    def blocked(self, sq: int, p: int) -> bool:
        """§5: own units and spent units block a square."""
        u = self.unit_at(sq)
        return u is not None and (u[OWNER] == p or u[SPENT])

    def _reveal(self, *units: list[Any]) -> None:
        for u in units:
            u[KNOWN] = True

    def _destroy(self, u: list[Any]) -> None:
        self.at[u[SQ]] = -1
        u[SQ] = -1
        u[KNOWN] = True

    def _place(self, u: list[Any], sq: int) -> None:
        self.at[u[SQ]] = -1
        u[SQ] = sq
        self.at[sq] = self.units.index(u)

    def ammo_total(self, p: int) -> int:
        return sum(self.ammo[s] for s in DC_SQUARES[p] if self.intact[s])

    def _pay(self, p: int) -> None:
        """Take one ammunition from ``p``'s Defence Centre holding the most (the left one on a tie)."""
        best = max((s for s in DC_SQUARES[p] if self.intact[s]), key=lambda s: (self.ammo[s], -s))
        self.ammo[best] -= 1

    # -- legal moves (§4-§8) ---------------------------------------------------------------------
    def unit_moves(self, i: int) -> list[int]:
        """The squares unit ``i`` may move to (§5)."""
        u = self.units[i]
        if u[SQ] < 0 or u[SPENT]:
            return []
        p, k, sq = u[OWNER], u[KIND], u[SQ]
        at, units, intact = self.at, self.units, self.intact
        out: list[int] = []
        if k == ICBM:  # §5a: two steps, each one row forward, straight or diagonally
            f = forward(p)
            seen: set[int] = set()
            for d1 in (-1, 0, 1):
                q1 = STEP_TABLE[f, d1][sq]
                if q1 < 0:
                    continue
                j = at[q1]
                if j >= 0:
                    v = units[j]
                    if v[OWNER] == p or v[SPENT]:
                        continue  # blocked
                    seen.add(q1)  # it detonates there
                    continue
                st = STRUCTURE[q1]
                if st is not None and st[0] != p and intact[q1]:
                    seen.add(q1)
                    continue
                for d2 in (-1, 0, 1):
                    q2 = STEP_TABLE[f, d2][q1]
                    if q2 >= 0:
                        j = at[q2]
                        if j < 0 or not (units[j][OWNER] == p or units[j][SPENT]):
                            seen.add(q2)
            return sorted(seen)
        if k in (AIRCRAFT, FLEET):  # §5b, §5c
            for line in DIAG_STEPS if k == AIRCRAFT else ORTHO_STEPS:
                q = line[sq]
                if q >= 0:
                    j = at[q]
                    if j < 0 or not (units[j][OWNER] == p or units[j][SPENT]):
                        out.append(q)
        elif k == SUB:  # §5d: submerged only, onto squares without units
            if not u[SURFACED]:
                for line in DIRS8_STEPS:
                    q = line[sq]
                    if q >= 0 and at[q] < 0:
                        out.append(q)
        else:  # §5e: the Spy slides like a chess queen
            for line in DIRS8_STEPS:
                q = line[sq]
                while q >= 0:
                    j = at[q]
                    if j >= 0:
                        if not (units[j][OWNER] == p or units[j][SPENT]):
                            out.append(q)
                        break
                    out.append(q)
                    st = STRUCTURE[q]
                    if st is not None and st[0] != p and intact[q]:
                        break
                    q = line[q]
        return sorted(out)

    def turn_actions(self, p: int) -> list[int]:
        """§4: one unit's move, a flip, a Submarine's attack or a Defence Centre's shot; §4b forced ICBMs."""
        launched = [
            i for i, u in enumerate(self.units) if u[OWNER] == p and u[KIND] == ICBM and u[LAUNCHED] and u[SQ] >= 0
        ]
        out: list[int] = []
        if launched:
            for i in launched:
                out += [MOVE + 25 * self.units[i][SQ] + q for q in self.unit_moves(i)]
            if out:
                return sorted(out)
        for i, u in enumerate(self.units):
            if u[OWNER] != p or u[SQ] < 0 or u[SPENT]:
                continue
            sq = u[SQ]
            out += [MOVE + 25 * sq + q for q in self.unit_moves(i)]
            if u[KIND] == SUB:
                out.append(FLIP + sq)
                if u[SURFACED]:  # §7b
                    for line in DIRS8_STEPS:
                        q = line[sq]
                        if q < 0:
                            continue
                        v = self.unit_at(q)
                        if (v is not None and v[OWNER] != p and not v[SPENT]) or (
                            v is None and self.enemy_structure(q, p)
                        ):
                            out.append(ATTACK + 25 * sq + q)
        out += self.fire_actions(p)
        return sorted(out) if out else [PASS]

    def fire_actions(self, p: int) -> list[int]:
        """§8: ``p``'s Defence Centre shots: at every adjacent enemy unit, whatever it is, so that the shots never tell
        ``p`` what an unrevealed unit is (a shot at a submerged Submarine misses, ``_fire``)."""
        out: list[int] = []
        for d in DC_SQUARES[p]:
            if not self.intact[d] or self.ammo[d] <= 0:
                continue
            for line in DIRS8_STEPS:
                q = line[d]
                v = self.unit_at(q) if q >= 0 else None
                if v is not None and v[OWNER] != p and not v[SPENT]:
                    out.append(FIRE + 25 * d + q)
        return out

    # -- resolving a turn (§6-§9) -------------------------------------------------------------------
    def play(self, action: int) -> None:
        known = sum(u[KNOWN] for u in self.units)
        self._play(action)
        if sum(u[KNOWN] for u in self.units) != known:
            self._mark_irreversible()  # a unit was revealed: no undo across it

    def _play(self, action: int) -> None:
        p = self.to_move
        if action == PASS:
            self.passes += 1
            self._say(f"{NAMES[p]} has no legal action and passes.")
            self._end_turn(p)
            return
        self.passes = 0
        seg, (a, *rest) = ACTIONS.decode(action)
        if seg == "flip":
            self._flip(self.unit_at(a))  # type: ignore[arg-type]
        elif seg == "move":
            self._move(self.at[a], rest[0])
        elif seg == "attack":
            self._sub_attack(self.unit_at(a), rest[0])  # type: ignore[arg-type]
        else:
            self._fire(a, rest[0])
        if self.phase == "turn":
            self._end_turn(p)

    def _flip(self, u: list[Any]) -> None:
        """§4c: a Submarine surfaces (turning face up) or submerges."""
        u[SURFACED] = not u[SURFACED]
        u[KNOWN] = True
        self._say(f"{self._name(u)} at {SQUARES[u[SQ]]} {'surfaces' if u[SURFACED] else 'submerges'}.")

    def _move(self, i: int, q: int) -> None:
        u = self.units[i]
        origin = u[SQ]
        if u[KIND] == ICBM:
            u[LAUNCHED] = True  # §5a
            if self.at[q] >= 0 or self.enemy_structure(q, u[OWNER]):
                self._detonate(u, q)
            else:
                self._place(u, q)
            return
        v = self.unit_at(q)
        if v is not None:
            self._engage(u, v, origin)
            return
        self._place(u, q)
        if self.enemy_structure(q, u[OWNER]) and u[KIND] != SUB:  # §7b: a Submarine attacks only surfaced
            self._strike_structure(u, q)

    def _engage(self, x: list[Any], y: list[Any], origin: int) -> None:
        """§6: both units are revealed; the mover destroys the defender, or a defender hits back, or it bounces."""
        self._reveal(x, y)
        q = y[SQ]
        meet = f"{self._name(x)} from {SQUARES[origin]} meets {self._name(y)} at {SQUARES[q]}"
        p = x[OWNER]
        if x[KIND] == SPY:  # §7d: a probe
            if self._can_kill_spy(y) and self.ammo_total(y[OWNER]) > 0:
                self._say(f"{meet}: a probe.")
                self.probe = (self.units.index(x), self.units.index(y), origin)
                self.phase = "probe"
                return
            self._say(f"{meet}: a probe; the Spy returns to {SQUARES[origin]}.")
            return
        if defender_key(y) in KILLS[UNITS[x[KIND]]]:
            if y[KIND] == SPY and not self._spy_tax(p):
                self._say(f"{meet}: {NAMES[p]} has no ammunition to destroy the Spy; it returns to {SQUARES[origin]}.")
                return
            self._destroy(y)
            self._place(x, q)
            self._say(f"{meet} and destroys it.")
            if self.enemy_structure(q, p):
                self._strike_structure(x, q)
            return
        if y[KIND] in (AIRCRAFT, FLEET) and defender_key(x) in KILLS[UNITS[y[KIND]]]:  # §6b: contact defence
            self._destroy(x)
            self._say(f"{meet} and is destroyed.")
            return
        self._say(f"{meet}: neither can destroy the other; it returns to {SQUARES[origin]}.")

    def _can_kill_spy(self, y: list[Any]) -> bool:
        """§7d: a probed unit able to destroy a Spy: an Aircraft, a Fleet or a surfaced Submarine."""
        return y[KIND] in (AIRCRAFT, FLEET) or (y[KIND] == SUB and y[SURFACED])

    def _spy_tax(self, p: int) -> bool:
        """§7c: destroying a Spy costs its destroyer one ammunition, paid when it has one."""
        if self.ammo_total(p) <= 0:
            return False
        self._pay(p)
        return True

    def resolve_probe(self, action: int) -> None:
        assert self.probe is not None
        si, yi, origin = self.probe
        spy, y = self.units[si], self.units[yi]
        self.probe = None
        if action == PAY:
            self._pay(y[OWNER])
            self._destroy(spy)
            self._say(f"{NAMES[y[OWNER]]} pays an ammunition: the Spy is destroyed.")
        else:
            self._say(f"{NAMES[y[OWNER]]} lets the Spy go; it returns to {SQUARES[origin]}.")
        self.phase = "turn"
        self._end_turn(spy[OWNER])

    def _detonate(self, x: list[Any], q: int) -> None:
        """§5a, §6c: an ICBM detonates on entering an enemy unit's or an intact enemy structure's square."""
        p = x[OWNER]
        origin = x[SQ]
        x[KNOWN] = True
        head = f"{self._name(x)} from {SQUARES[origin]} detonates at {SQUARES[q]}"
        y = self.unit_at(q)
        self.at[origin] = -1
        x[SQ] = -1
        if y is not None:
            y[KNOWN] = True
            if y[KIND] == AIRCRAFT:
                self._say(f"{head}: {self._name(y)} there shoots it down.")
                return
            if defender_key(y) not in KILLS["ICBM"]:
                self._say(f"{head}: {self._name(y)} there survives.")
                return
            if y[KIND] == SPY and not self._spy_tax(p):
                self._say(f"{head}: {NAMES[p]} has no ammunition to destroy the Spy there, which survives.")
                return
            self._destroy(y)
            head += f", destroying {self._name(y)}"
        if self.enemy_structure(q, p):
            x[SQ] = q
            self.at[q] = self.units.index(x)
            self._say(head + ".")
            self._strike_structure(x, q)
        else:
            self._say(head + ".")

    def _strike_structure(self, x: list[Any], q: int) -> None:
        """§9b: a unit on an intact enemy structure destroys it if it can, and stays there, spent."""
        kind = HOME_KINDS[q % SIZE]
        if kind not in BREAKS[UNITS[x[KIND]]]:
            return
        x[KNOWN] = True
        x[SPENT] = True
        self.intact[q] = False
        self.ammo[q] = 0
        points = HOME_VALUES[q % SIZE] + (BONUS if x[KIND] == ICBM and kind != DC_NAME else 0)
        self.score[x[OWNER]] += points
        self._say(
            f"{self._name(x)} destroys {NAMES[1 - x[OWNER]]}'s {kind} at {SQUARES[q]} "
            f"({points} point{'s' if points != 1 else ''}) and stays there, spent."
        )

    def _sub_attack(self, s: list[Any], q: int) -> None:
        """§7b: a surfaced Submarine attacks an adjacent enemy unit or structure."""
        p = s[OWNER]
        y = self.unit_at(q)
        head = f"{self._name(s)} at {SQUARES[s[SQ]]} fires at {SQUARES[q]}"
        if y is None:
            self._say(head + ".")
            self._place(s, q)
            self._strike_structure(s, q)
            return
        y[KNOWN] = True
        if defender_key(y) not in KILLS["Submarine"]:
            self._say(f"{head}: {self._name(y)} there survives.")
        elif y[KIND] == SPY and not self._spy_tax(p):
            self._say(f"{head}: {NAMES[p]} has no ammunition to destroy the Spy there.")
        else:
            self._destroy(y)
            self._say(f"{head} and destroys {self._name(y)}.")

    def _fire(self, d: int, q: int) -> None:
        """§8: a Defence Centre spends one ammunition (two for an ICBM) to destroy an adjacent enemy unit; a shot at a
        submerged Submarine reveals it and misses, the ammunition spent (§8: the shooter could not know)."""
        y = self.unit_at(q)
        assert y is not None
        y[KNOWN] = True
        owner = STRUCTURE[d][0]  # type: ignore[index]
        head = f"{NAMES[owner]}'s Defence Centre at {SQUARES[d]} fires at {SQUARES[q]}"
        if defender_key(y) not in KILLS[DC_NAME]:
            self.ammo[d] -= 1
            why = "is submerged and cannot be hit" if y[KIND] == SUB else "cannot be hit"
            self._say(f"{head}: {self._name(y)} there {why}; the shot misses.")
            return
        cost = 2 if y[KIND] == ICBM else 1
        if self.ammo[d] < cost:
            self.ammo[d] = 0
            self._say(f"{head}: {self._name(y)} there needs two ammunition; the shot is wasted.")
            return
        self.ammo[d] -= cost
        self._destroy(y)
        self._say(f"{head} and destroys {self._name(y)}.")

    def _end_turn(self, p: int) -> None:
        """§4b launched ICBMs that cannot move are lost; §10 the end."""
        for i, u in enumerate(self.units):
            if u[KIND] == ICBM and u[LAUNCHED] and u[SQ] >= 0 and not u[SPENT] and not self.unit_moves(i):
                self._say(f"{self._name(u)} at {SQUARES[u[SQ]]} has nowhere to go and is lost.")
                self._destroy(u)
        self.turns += 1
        active = [any(u[OWNER] == k and u[SQ] >= 0 and not u[SPENT] for u in self.units) for k in (0, 1)]
        if not all(active):
            out = " and ".join(NAMES[k] for k in (0, 1) if not active[k])
            self._finish(f"{out} {'have' if not any(active) else 'has'} no units left to use")
        elif self.passes >= 2:
            self._finish("both players passed")
        elif self.turns >= self.game.params["turn_cap"]:
            self._finish(f"the turn limit ({self.turns} turns) is reached")
        else:
            self.to_move = 1 - p

    def _finish(self, why: str) -> None:
        """§11: the higher score wins; equal scores draw."""
        self.over = True
        self.phase = "over"
        a, b = self.score
        self.winner = 0 if a > b else 1 if b > a else -1
        result = f"{NAMES[self.winner]} wins" if self.winner >= 0 else "a draw"
        self.end_reason = f"{why}; score {a}-{b}, {result}"
        self._say(f"The game ends: {self.end_reason}.")

    def returns(self) -> list[float]:
        return win_loss(self.winner) if self.over else [0.0, 0.0]

    # -- views (§2) -----------------------------------------------------------------------------
    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The observation as numbers (docs/research/tensors-newer.md): seats from the viewer's, squares as they lie."""
        o = self.observation(player)
        v = o["viewer"]
        tz.header(t, o, v, 2, PHASE_NAMES)
        t.one_hot("setup_seat", tz.rel(o["setup_seat"], v, 2), 2)
        for k, seat in enumerate(tz.order(v, 2)):
            units = [u for u in o["units"] if u["owner"] == seat]  # in the order they started
            tz.seq(t, f"units{k}_at", [SQUARES.index(u["at"]) for u in units], MAX_UNITS, SIZE * SIZE)
            kinds = [UNITS.index(u["unit"]) if u["unit"] else None for u in units]
            tz.seq(t, f"units{k}_kind", kinds, MAX_UNITS, len(UNITS))
            pad = [False] * (MAX_UNITS - len(units))
            t.bits(f"units{k}_launched_known", [u["launched"] is not None for u in units] + pad)
            for flag in ("launched", "surfaced", "spent", "known"):
                t.bits(f"units{k}_{flag}", [bool(u[flag]) for u in units] + pad)
            tz.seq(t, f"lost{k}", [UNITS.index(x) for x in o["lost"][seat]], MAX_UNITS, len(UNITS))
        t.bits("intact", [SQUARES[s] in o["intact"] for s in range(SIZE * SIZE)])
        t.counts("ammo", [o["ammo"][SQUARES[s]] for p in (0, 1) for s in DC_SQUARES[p]], 2)
        tz.one_hots(t, "split", [SPLITS.index(x) if x else None for x in tz.rotate(o["split"], v)], len(SPLITS))
        tz.seq(t, "my_ammo", [UNITS.index(x) for x in o["my_ammo"] or []], 2, len(UNITS))
        tz.seq(t, "hand", [UNITS.index(x) for x in o["hand"] or []], MAX_UNITS, len(UNITS))
        t.counts("score", tz.rotate(o["score"], v), MAX_SCORE)
        t.counts("turns", [o["turns"]], o["turn_cap"] + 1)
        t.one_hot("winner", tz.rel(o["winner"], v, 2), 2)
        t.bits("over", [o["over"]])

    def observation(self, player: int | None = None) -> dict[str, Any]:
        if player is not None and player not in (0, 1):
            raise ValueError(f"no seat {player!r} in Triad; seats are 0 and 1 (None: a spectator)")
        units = []
        for u in sorted(self.units, key=lambda u: (u[OWNER], u[START])):
            if u[SQ] < 0:
                continue
            shown = u[OWNER] == player or u[KNOWN]
            units.append(
                {
                    "owner": u[OWNER],
                    "at": SQUARES[u[SQ]],
                    "unit": UNITS[u[KIND]] if shown else None,
                    "launched": bool(u[LAUNCHED]) if shown else None,
                    "surfaced": bool(u[SURFACED]),
                    "spent": bool(u[SPENT]),
                    "known": bool(u[KNOWN]),
                }
            )
        lost = [[UNITS[u[KIND]] for u in self.units if u[OWNER] == k and u[SQ] < 0] for k in (0, 1)]
        return {
            "viewer": player,
            "phase": self.phase,
            "to_move": self.current_player(),
            "setup_seat": self.setup_seat,
            "units": units,
            "lost": lost,
            "intact": [SQUARES[s] for s in range(SIZE * SIZE) if STRUCTURE[s] is not None and self.intact[s]],
            "ammo": {SQUARES[s]: self.ammo[s] for p in (0, 1) for s in DC_SQUARES[p]},
            "split": [SPLITS[k] if k >= 0 else None for k in self.split],
            "my_ammo": [UNITS[k] for k in self.ammo_cards[player]] if player is not None else None,
            "hand": [UNITS[k] for k in self.hand[player]] if player is not None else None,
            "score": self.score[:],
            "turns": self.turns,
            "turn_cap": self.game.params["turn_cap"],
            "events": self.events[-6:],
            "winner": self.winner if self.winner >= 0 else None,
            "over": self.over,
            "end_reason": self.end_reason,
        }

    def _seen(self, actor: int, entry: int | tuple[int | None, ...]) -> Seen:
        assert isinstance(entry, int)
        news = ""
        if self.phase in ("turn", "probe"):  # only a turn's steps have outcomes to tell
            after = self.clone()
            after._apply(entry)
            news = " ".join(after.events[len(self.events) :])
        if self.phase == "ammo":  # §2a: the owner alone sees its ammunition
            p = self.setup_seat
            a, b = PAIRS[entry]
            return Seen(
                f"{NAMES[p]} draws two units as ammunition",
                {p: f"{NAMES[p]} draws {UNITS[a]} and {UNITS[b]} as ammunition"},
            )
        if self.phase == "deploy":
            p = self.setup_seat
            return Seen(
                f"places its units face down{'. ' + news if news else ''}",
                {p: f"{words(entry)}{'. ' + news if news else ''}"},
            )
        said = words(entry) if actor >= 0 else self._action_to_string(actor, entry)
        return Seen(f"{said}. {news}" if news else said)

    def resample(self, player: int | None, rng: random.Random) -> TriadState:
        """A world the viewer cannot tell from this one (see the module docstring).

        Each hidden side's cards are dealt again: its revealed units keep their
        types, the other cards are shuffled over the ammunition and the
        unrevealed starting squares; the history is rewritten to match and
        replayed, and a deal is kept only when its public events come out the
        same (a seat's legal moves depend on nothing else it cannot see, §8). A
        spectator sees both deployments hidden: each side is dealt on its own
        first (with the other side's real deal), then the two deals are checked
        together, which is the same rejection sampling made fast. After that
        many tries, the core's own resample.

        Kept, measured faster than the core's default (``bench/bench_resample.py triad``: 9.9 ms a call against
        the core's 1,215 ms for seat 0 over the positions of four seeded games; a deployment is one entry whose
        units are revealed one by one, which no pin can say, so the core searches by replay).
        """
        hidden = [o for o in (0, 1) if o != player and self.entries[o] >= 0]
        if not hidden:
            return self.clone()
        if len(hidden) == 1:
            for _ in range(RESAMPLE_TRIES):
                s = self._replay(self._redeal(hidden[0], list(self._history), rng), hidden)
                if s is not None:
                    return s
        else:
            for _ in range(RESAMPLE_ROUNDS):
                history = list(self._history)
                for o in hidden:
                    deal = self._deal_one(o, rng)
                    if deal is None:
                        break
                    for i in (self.entries[o], self.entries[2 + o]):
                        if i >= 0:
                            history[i] = deal[i]
                else:
                    s = self._replay(history, hidden)
                    if s is not None:
                        return s
        return core_resample(self, player, rng)  # type: ignore[return-value]

    def _deal_one(self, o: int, rng: random.Random) -> list[Any] | None:
        """A history with side ``o`` alone redealt that replays to the same events (the other side's real deal)."""
        for _ in range(RESAMPLE_TRIES):
            history = self._redeal(o, list(self._history), rng)
            if self._replay(history, [o], passes=False) is not None:
                return history
        return None

    def _redeal(self, o: int, history: list[Any], rng: random.Random) -> list[Any]:
        cards = list(self.game.cards)
        placed = self.entries[2 + o] >= 0
        fixed: dict[int, int] = {}
        if placed:
            for u in self.units:
                if u[OWNER] == o and u[KNOWN]:
                    fixed[u[START]] = u[KIND]
                    cards.remove(u[KIND])
        rng.shuffle(cards)
        a, b = sorted(cards[:2])
        history[self.entries[o]] = PAIRS.index((a, b))
        if placed:
            rest = iter(cards[2:])
            kinds = tuple(fixed[c] if c in fixed else next(rest) for c in range(SIZE))
            history[self.entries[2 + o]] = deploy_action(kinds)
        return history

    def _replay(self, history: list[Any], hidden: list[int], passes: bool = True) -> TriadState | None:
        """Replay ``history``; ``None`` as soon as a hidden side's step is illegal or an event differs. ``passes=False``
        does not check a hidden side's passes (whether it had nothing legal depends on the other side's units too)."""
        s = self.game.new_initial_state(self.num_players)
        assert isinstance(s, TriadState)
        n = 0
        for i, a in enumerate(history):
            cp = s.current_player()
            if cp != self._actors[i]:
                return None
            if cp in hidden and s.phase == "turn" and (passes or a != PASS) and not s._plausible(cp, a):
                return None
            s._apply(a)
            s._history.append(a)
            s._actors.append(cp)
            m = len(s.events)
            if m > n:
                if s.events[n:] != self.events[n:m]:
                    return None
                n = m
        if s.events != self.events:
            return None
        s._barrier = self._barrier
        return s

    def _plausible(self, p: int, action: int) -> bool:
        """Whether ``action`` is legal for ``p`` here: the same test as the legal list, for one action."""
        seg, idx = ACTIONS.decode(action)
        if seg == "pass":
            return self.turn_actions(p) == [PASS]
        launched = [
            i for i, u in enumerate(self.units) if u[OWNER] == p and u[KIND] == ICBM and u[LAUNCHED] and u[SQ] >= 0
        ]
        forced = [i for i in launched if self.unit_moves(i)]
        if seg == "move":
            i = self.at[idx[0]]
            if i < 0 or self.units[i][OWNER] != p or (forced and i not in forced):
                return False
            return idx[1] in self.unit_moves(i)
        if forced:
            return False
        if seg in ("flip", "attack"):
            u = self.unit_at(idx[0])
            return u is not None and u[OWNER] == p and u[KIND] == SUB and (seg == "flip" or u[SURFACED])
        return action in self.turn_actions(p)


# -- the phases --------------------------------------------------------------------------------


def _chance_label(s: TriadState, player: int, action: int) -> str | None:
    if player != CHANCE:
        return None
    if action >= COIN:
        return f"{NAMES[action - COIN]} moves first"
    a, b = PAIRS[action]
    return f"{UNITS[a]} and {UNITS[b]} drawn"


def _deploy_legal(s: TriadState, p: int) -> list[int]:
    return list(deploy_actions(s.hand[p])) if p == s.setup_seat else []


def _turn_explain(s: TriadState, p: int, action: int) -> str | None:
    launched = any(u[OWNER] == p and u[KIND] == ICBM and u[LAUNCHED] and u[SQ] >= 0 for u in s.units)
    if launched and action in ACTIONS:
        return said("a launched ICBM must be moved every turn until it detonates", "4b")
    seg, idx = ACTIONS.decode(action)
    if seg == "move":
        u = s.unit_at(idx[0])
        if u is None or u[OWNER] != p:
            return said(f"you have no unit at {SQUARES[idx[0]]}", "4")
        return said(f"your {UNITS[u[KIND]]} cannot move to {SQUARES[idx[1]]}", "5")
    if seg == "fire":
        return said(
            "a Defence Centre fires only with ammunition, at an enemy unit on one of the eight squares around it", "8"
        )
    if seg in ("flip", "attack"):
        return said("only your own Submarine flips, and only a surfaced one attacks an adjacent enemy", "4c", "7b")
    return said("make one move, flip, attack or shot", "4")


def _prompt(kind: str) -> Callable[[Any, dict[str, Any], list[tuple[int, str]]], str]:
    def prompt(game: Any, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
        if kind == "over":
            w = obs["winner"]
            if w is None:
                return f"Draw: {obs['end_reason']}."
            return f"{'You win' if w == obs['viewer'] else NAMES[w] + ' wins'}: {obs['end_reason']}."
        if kind == "chance":
            return "Chance draws the ammunition and who moves first."
        if not legal:
            return f"Waiting for {NAMES[obs['to_move']]}." if obs["to_move"] in (0, 1) else "Waiting."
        return {
            "split": "Share your two ammunition cards between your Defence Centres (left is b, right is d): click one for each card.",
            "deploy": "Place your five units on your home row, from left to right: click a unit, then its square.",
            "turn": "Your turn: click a square to move a unit there, attack or fire at it; a Submarine's square flips it.",
            "probe": "An enemy Spy probed your unit: pay an ammunition to destroy it, or let it go.",
        }[kind]

    return prompt


PHASES = phase_table(
    Phase(
        "ammo",
        CHANCE,
        outcomes=lambda s: s.game.pair_outcomes,
        apply=TriadState.draw_ammo,
        label=_chance_label,
        prompt=_prompt("chance"),
    ),
    Phase(
        "split",
        lambda s: s.setup_seat,
        legal=lambda s, p: [SPLIT, SPLIT + 1, SPLIT + 2] if p == s.setup_seat else [],
        apply=TriadState.choose_split,
        explain=lambda s, p, a: said("first share your ammunition between your Defence Centres", "3b"),
        prompt=_prompt("split"),
    ),
    Phase(
        "deploy",
        lambda s: s.setup_seat,
        legal=_deploy_legal,
        apply=TriadState.deploy,
        explain=lambda s, p, a: said("place exactly the five units you hold, one on each home square", "3c"),
        prompt=_prompt("deploy"),
    ),
    Phase(
        "coin",
        CHANCE,
        outcomes=lambda s: [(COIN, 0.5), (COIN + 1, 0.5)],
        apply=TriadState.coin,
        label=_chance_label,
        prompt=_prompt("chance"),
    ),
    Phase(
        "turn",
        lambda s: s.to_move,
        legal=lambda s, p: s.turn_actions(p) if p == s.to_move else [],
        apply=TriadState.play,
        explain=_turn_explain,
        prompt=_prompt("turn"),
    ),
    Phase(
        "probe",
        lambda s: s.units[s.probe[1]][OWNER],
        legal=lambda s, p: [PAY, SPARE],
        apply=TriadState.resolve_probe,
        explain=lambda s, p, a: said("decide whether to pay an ammunition to destroy the probing Spy", "7d"),
        prompt=_prompt("probe"),
    ),
    Phase("over", TERMINAL, prompt=_prompt("over")),
)
TriadState.phases = PHASES


# -- the scene -----------------------------------------------------------------------------------


def _cell(sq: int) -> str:
    return f"sq-{SQUARES[sq]}"


def _tray(viewer: int, k: int, flip: bool) -> int:
    """§3c: where the viewer's ``k``-th unit to place waits: the row in front of its home row, left to right as the
    viewer sees it (the ocean is empty until both sides have set up)."""
    return (home_row(viewer) + forward(viewer)) * SIZE + (SIZE - 1 - k if flip else k)


def _deploy_target(
    obs: dict[str, Any], viewer: int, action: int, kinds: tuple[int, ...], label: str, flip: bool
) -> dict[str, Any]:
    """§3c: a deployment played as placements, left to right as the viewer sees the home row: a waiting unit (the
    first one of its type not yet placed), then its square, five times (the last square plays it)."""
    hand = [UNITS.index(n) for n in obs["hand"]]
    used: set[int] = set()
    clicks: list[str] = []
    for col in range(SIZE - 1, -1, -1) if flip else range(SIZE):
        k = next(j for j, kind in enumerate(hand) if kind == kinds[col] and j not in used)
        used.add(k)
        clicks += [_cell(_tray(viewer, k, flip)), _cell(home_row(viewer) * SIZE + col)]
    return {"at": clicks[-1], "action": action, "label": label, "steps": clicks[:-1]}


def _split_targets(viewer: int, action: int, k: int, label: str) -> list[dict[str, Any]]:
    """§3b: the ammunition shared in two clicks, a Defence Centre for each card (one each: either way round)."""
    left, right = (_cell(sq) for sq in DC_SQUARES[viewer])
    clicks = {(2, 0): [(left, left)], (1, 1): [(left, right), (right, left)], (0, 2): [(right, right)]}
    return [{"at": b, "action": action, "label": label, "steps": [a]} for a, b in clicks[SPLIT_AMMO[k]]]


@TriadGame.draws_scene
def _scene(game: TriadGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    viewer = obs["viewer"]
    prompt = PHASES[obs["phase"]].prompt(None, obs, legal)  # type: ignore[misc]
    s = sc.new_scene(prompt, (-0.1, -0.1, SIZE + 0.2, SIZE + 0.2))
    flip = viewer == 1  # each player sees its own home row at the bottom
    intact = set(obs["intact"])
    for sq in range(SIZE * SIZE):
        r, c = divmod(sq, SIZE)
        x = (SIZE - 1 - c) if flip else c
        y = r if flip else SIZE - 1 - r
        poly = [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]
        st = STRUCTURE[sq]
        if st is None:
            fill, label = "region1", SQUARES[sq]
        else:
            kind = HOME_KINDS[c]
            fill = "light" if SQUARES[sq] in intact else "blocked"
            label = {"Minor City": "City", "Defence Centre": "DC", "Capitol": "Capitol"}[kind]
        s["cells"].append(sc.cell(_cell(sq), (x + 0.5, y + 0.5), poly, label=label, fill=fill))
    for u in obs["units"]:
        at = f"sq-{u['at']}"
        if u["unit"] is None:
            s["pieces"].append(sc.piece(at, u["owner"], "unit", face_down=True, shape="square"))
            continue
        label = SHORT[UNITS.index(u["unit"])]
        state = ""
        if u["spent"]:
            label += "x"
            state = ", spent"
        elif u["launched"]:
            label += "!"
            state = ", launched"
        elif u["surfaced"]:
            label += "^"
            state = ", surfaced"
        facing = (0.0 if (u["owner"] == 0) != flip else 180.0) if u["launched"] else None
        s["pieces"].append(
            sc.piece(
                at,
                u["owner"],
                u["unit"],
                label=label,
                shape="square",
                facing=facing,
                icon=UNIT_ICONS[UNITS.index(u["unit"])],
                badge=STATE_BADGES.get(state.lstrip(", ")),
                name=f"{NAMES[u['owner']]}'s {u['unit']}{state}",
            )
        )
    for a, label in legal:
        seg, idx = ACTIONS.decode(a)
        if seg in ("move", "attack", "fire"):
            s["targets"].append({"at": _cell(idx[1]), "action": a, "label": label})
        elif seg == "flip":
            s["targets"].append({"at": _cell(idx[0]), "action": a, "label": label})
        elif seg == "deploy" and viewer is not None and obs["hand"]:
            s["targets"].append(_deploy_target(obs, viewer, a, idx, label, flip))
        elif seg == "split" and viewer is not None:
            s["targets"] += _split_targets(viewer, a, idx[0], label)
    if viewer is not None and obs["hand"]:
        # the units still to place wait in front of the home row, drawn there until placed (§3c)
        for k, n in enumerate(obs["hand"]):
            s["pieces"].append(
                sc.piece(
                    _cell(_tray(viewer, k, flip)),
                    viewer,
                    n,
                    label=SHORT[UNITS.index(n)],
                    shape="square",
                    icon=UNIT_ICONS[UNITS.index(n)],
                    name=f"Your {n}, to place on your home row",
                )
            )
    for p in (0, 1):
        items = []
        for d in DC_SQUARES[p]:
            n = obs["ammo"][SQUARES[d]]
            items += [
                sc.item(f"ammo-{SQUARES[d]}-{k}", f"ammunition at {SQUARES[d]}", face_down=True) for k in range(n)
            ]
        title = f"{NAMES[p]}'s ammunition"
        if p == viewer and obs["my_ammo"]:
            title += f" (drawn: {' and '.join(obs['my_ammo'])})"
        s["zones"].append(sc.zone(f"ammo{p}", title, items, owner=p))
    s["status"] = [
        f"Score: {NAMES[0]} {obs['score'][0]}, {NAMES[1]} {obs['score'][1]}",
        f"Turn {obs['turns']} of at most {obs['turn_cap']}",
    ]
    for p in (0, 1):
        if obs["lost"][p]:
            s["status"].append(f"{NAMES[p]} lost: {', '.join(obs['lost'][p])}")
    s["status"] += obs["events"][-3:]
    s["players"] = [
        sc.player(p, NAMES[p] + (" (you)" if p == viewer else ""), f"{obs['score'][p]} points") for p in (0, 1)
    ]
    return sc.finish_scene(s, legal)


TriadGame.state_class = TriadState
PHASE_NAMES = tuple(PHASES)
#: Units a side has; the most points a side can score (every enemy structure, each city by an ICBM).
MAX_UNITS = 7
MAX_SCORE = sum(HOME_VALUES) + BONUS * SIZE

GAME_CLASS = TriadGame
