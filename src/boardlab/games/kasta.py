"""Kasta (Rey Alicea, 2020): take three dice, give three away, throw the rest out; the lowest score wins.

Rules: ``docs/rules/kasta.md``; clause numbers are cited as ``§n``.

A die is a number 0-23, ``colour * 6 + face - 1`` (colours in the order of
:data:`COLOURS`). The pool is an 8 × 9 grid of places (§1), indexed in reading
order and labelled ``a1`` (top left) … ``i8``; its rectangular rings are the
layers, the border first (§2).

Chance actions are dice: the die that lands on the next place of the pool
while it is laid out (§1.2: one chance step per place, in reading order). Seat
actions are the segments of :data:`ACTIONS`: ``take`` and ``give`` a place
(§3.1, §3.2), the kind of the optional action (§4), ``end turn``, the die to
discard or to turn (by its kind, colour and face), the face it is turned to,
and the pattern to discard (by its index in :data:`SETS`).

Hidden information exists only under the option ``hidden_hands`` (§9): then
the face a die is turned to is seen by its owner alone, and every viewer's
view of the others' hands is their size, until the round's end shows every
hand. Everything else (the pool, takes, gifts, the rack) is public. ``resample`` is the game's own: it
redraws those faces exactly as the core's replaying resample would, without its search (see "resample" below).
"""

from __future__ import annotations

import functools
import itertools
import random
from typing import Any

from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.constants import CHANCE, TERMINAL
from ..core.errors import IllegalActionError
from ..core.game import Game
from ..core.gametype import Chance, GameType, Information, Utility, when
from ..core.hidden import Seen
from ..core.options import Option
from ..core.phases import Phase, PhasedState, phase_table
from ..core.tensor import Tensor
from ..core.wording import said
from ..geometry.squaregrid import SquareGrid
from . import _tensors as tz
from ._dice import COLOURS, DICE, FACES, colour_of, die_item, die_name, die_piece, face_of

# -- the dice and the pool (§1, §2) -------------------------------------------------------------

PER_COLOUR = 18  # §1.1: 72 dice, 18 of each colour
ROWS, COLS = 8, 9
PLACES = ROWS * COLS
LETTERS = "abcdefghi"
PLACE_NAMES = tuple(f"{LETTERS[i % COLS]}{i // COLS + 1}" for i in range(PLACES))
#: §2: the layer of each place: 0 the border ring, 1 the ring inside it, ... 3 the 2 × 3 centre.
LAYER = tuple(min(i // COLS, i % COLS, ROWS - 1 - i // COLS, COLS - 1 - i % COLS) for i in range(PLACES))
#: The pool as drawn: 8 rows of 9 places, a1 at the top left, its layers (rings) shaded in turn.
POOL = SquareGrid(COLS, ROWS)
POOL_IDS = tuple(f"p{i}" for i in range(PLACES))
LAYER_FILLS = tuple("#f4efe3" if LAYER[i] % 2 == 0 else "#e4dac3" for i in range(PLACES))
LAYERS = max(LAYER) + 1
LAYER_SIZES = tuple(LAYER.count(k) for k in range(LAYERS))  # 30, 22, 14, 6
LAYER_PLACES = tuple(tuple(i for i in range(PLACES) if LAYER[i] == k) for k in range(LAYERS))
ROUNDS = 3  # §7
MAX_ROUNDS = 10  # §8.3: our cap on tie-breaking rounds
SEATS = ("Ada", "Ben", "Cleo", "Dan")


def _die(colour: int, face: int) -> int:
    return colour * FACES + face - 1


def _set_table() -> tuple[tuple[str, tuple[int, ...]], ...]:
    """§5: every pattern of four dice, as (name, the four dice sorted)."""
    out: list[tuple[str, tuple[int, ...]]] = []
    for c in range(len(COLOURS)):  # §5.1 four alike
        for f in range(1, FACES + 1):
            out.append((f"four {COLOURS[c]} {f}s", (_die(c, f),) * 4))
    for f in range(1, FACES + 1):  # §5.2 one number in every colour
        out.append((f"four {f}s in four colours", tuple(_die(c, f) for c in range(4))))
    for c in range(len(COLOURS)):  # §5.3 a run in one colour
        for a in range(1, 4):
            out.append((f"{COLOURS[c]} run {a}-{a + 3}", tuple(_die(c, a + k) for k in range(4))))
    for a in range(1, 4):  # §5.4 a run in four colours
        for perm in itertools.permutations(range(4)):
            dice = tuple(_die(perm[k], a + k) for k in range(4))
            name = ", ".join(die_name(d) for d in dice)
            out.append((f"run {a}-{a + 3} of {name}", tuple(sorted(dice))))
    return tuple(out)


#: §5: the patterns, by index; each is its name and its four dice.
SETS = _set_table()
#: Per pattern, the dice it needs as (die, how many).
SET_NEEDS = tuple(tuple(sorted({d: dice.count(d) for d in dice}.items())) for _, dice in SETS)
#: The patterns of four different dice (§5.2-§5.4), as (index, bit mask of the dice); the others are four alike.
SET_MASKS = tuple((k, sum(1 << d for d in dice)) for k, (_, dice) in enumerate(SETS) if len(set(dice)) == 4)
#: The four-alike patterns (§5.1), as (index, die).
SET_ALIKE = tuple((k, dice[0]) for k, (_, dice) in enumerate(SETS) if len(set(dice)) == 1)

KINDS = ("discard a die", "turn a die", "discard a pattern")
KIND_DISCARD, KIND_TURN, KIND_SET = range(3)

#: Seat actions (§3-§6).
ACTIONS = ActionSpace(
    Segment("take", (("place", PLACE_NAMES),), "take {place}"),
    Segment("give", (("place", PLACE_NAMES),), "give {place}"),
    Segment("kind", (("kind", KINDS),), "{kind}"),
    Segment("end", (), "end turn"),
    Segment("discard", (("die", tuple(die_name(d) for d in range(DICE))),), "discard {die}"),
    Segment("turn", (("die", tuple(die_name(d) for d in range(DICE))),), "turn {die}"),
    Segment("face", (("face", tuple(str(f) for f in range(1, FACES + 1))),), "to {face}"),
    Segment("set", (("pattern", tuple(name for name, _ in SETS)),), "pattern {pattern}"),
)
TAKE0, GIVE0, KIND0, END, DISCARD0, TURN0, FACE0, SET0 = ACTIONS.offsets(
    "take", "give", "kind", "end", "discard", "turn", "face", "set"
)

# Phases (named as the observation and the prompt name them).
FORM = "laying out the pool"  # §1.2
TAKE = "take"  # §3.1
GIVE = "give"  # §3.2
ACT = "optional action"  # §4
DISCARD = "discard a die"  # §4.1
TURN = "turn a die"  # §4.2
FACE = "choose a face"  # §4.2
SET = "discard a pattern"  # §4.3
FINAL = "last patterns"  # §6.2
OVER = "over"


def patterns_in(hand: list[int]) -> list[int]:
    """§5: the patterns a hand (24 counts, by kind of die) holds."""
    mask = 0
    for d, m in enumerate(hand):
        if m:
            mask |= 1 << d
    out = [k for k, d in SET_ALIKE if hand[d] >= 4] if max(hand) >= 4 else []
    out += [k for k, need in SET_MASKS if mask & need == need]
    return sorted(out)


def ranked_returns(totals: list[int], seats: list[int]) -> list[float]:
    """§8: the lowest total among ``seats`` wins; winners share +1, every other seat shares -1."""
    n = len(totals)
    best = min(totals[k] for k in seats)
    winners = [k for k in seats if totals[k] == best]
    if len(winners) == n:
        return [0.0] * n
    w, rest = 1.0 / len(winners), -1.0 / (n - len(winners))
    return [w if k in winners else rest for k in range(n)]


class KastaGame(Game):
    id = "kasta"
    title = "Kasta"
    summary = (
        "Take three dice from the edge of the pool and give three to your neighbour; throw out a die, "
        "turn one, or discard a pattern of four. The lowest pip total after three rounds wins."
    )
    max_players = 4
    default_players = 2
    options = (
        Option.flag(
            "hidden_hands",
            False,
            said(
                "Hands are open (default) or hidden: the face a die is turned to is then seen by its owner "
                "alone until the round's end.",
                "9",
            ),
        ),
        Option.flag(
            "opening_action",
            True,
            said(
                "The optional action is allowed on each player's first turn of a round (default), or only from "
                "the second turn on.",
                "4",
            ),
        ),
        Option.flag(
            "action_first",
            False,
            said("The optional action comes after taking and giving (default), or may also come before taking.", "4"),
        ),
        Option.choice(
            "final_patterns",
            {"one": "One pattern", "any": "Any number of patterns"},
            said("At the end of a round each player may discard one pattern (default) or any number.", "6.2"),
        ),
        Option.flag(
            "rotate_first",
            True,
            said("The first player moves one seat to the left each round (default), or stays the same.", "3.4"),
        ),
        Option.choice(
            "tie_rounds",
            {"everyone": "Everyone plays on", "tied_only": "Only the tied players play on"},
            said(
                "A tie for the lowest total after round 3 is broken by more rounds for everyone (default) or for "
                "the tied players only.",
                "8.2",
            ),
        ),
    )
    mechanics = ("dice", "drafting", "set collection", "take that")
    playing_time = "20 min"
    game_type = GameType(
        chance=Chance.EXPLICIT,
        utility=Utility.ZERO_SUM,
        variants=(when("hidden_hands", (True,), information=Information.IMPERFECT),),
    )
    seat_names = SEATS
    setup_text = "The pool of 72 dice was laid out."
    inventions = (
        said("18 dice of each colour: red, yellow, green and blue.", "1.1"),
        said(
            "The pool is laid out at random, one place at a time in reading order, each colour in proportion to "
            "the dice left and every face equally likely.",
            "1.2",
        ),
        said("The layers are the rectangular rings of the pool: 30, 22, 14 and 6 dice.", "2"),
        said(
            "Ada starts the first round; the first player moves one seat to the left each round (option rotate_first).",
            "3.4",
        ),
        said(
            "A turn is entered as single decisions: three takes, three gifts, then the optional action "
            "(its kind, its die, the new face).",
            "3",
            "4",
        ),
        said(
            "The optional action is allowed on every turn, the first included (option opening_action), after the "
            "gifts (option action_first), and also on the turn that empties the pool.",
            "4",
            "6",
        ),
        said(
            "After the pool is empty each player, in turn order from the next one, may discard one pattern "
            "(option final_patterns).",
            "6.2",
        ),
        said(
            "A tie for the lowest total is broken by further rounds for everyone (option tie_rounds); after 10 "
            "rounds in all, the tied players share the win.",
            "8",
        ),
        said("Open hands by default; hidden hands hide only the faces dice are turned to (option hidden_hands).", "9"),
    )
    num_chance_outcomes = DICE
    # §10: per round 72 chance steps, 12 turns of at most 10 decisions, and at most 11 last decisions a seat.
    max_length = MAX_ROUNDS * (PLACES + 12 * 10 + 4 * 11) + 10

    def _setup(self) -> None:
        self.action_space = ACTIONS
        self.hidden = bool(self.params["hidden_hands"])


class KastaState(PhasedState):
    game: KastaGame
    copied = ("pool", "layer_left", "remaining", "hands", "rack", "totals", "turns_done", "round_scores")

    def __init__(self, game: KastaGame, num_players: int) -> None:
        super().__init__(game, num_players)
        n = num_players
        self.pool = [-1] * PLACES  # the die on each place, -1 when taken
        self.layer_left = [0] * LAYERS
        self.remaining = [PER_COLOUR] * len(COLOURS)  # dice of each colour still to lay out (§1.2)
        self.form_pos = 0
        self.hands = [0] * (DICE * n)  # hands[seat * 24 + die]: how many of that die the seat holds
        self.rack = [0] * DICE  # the discarded dice (§4)
        self.totals = [0] * n
        self.round_scores: list[tuple[int, ...]] = []  # per finished round, each seat's pips (§7)
        self.turns_done = [0] * n  # turns each seat has finished this round
        self.round = 1
        self.active: tuple[int, ...] = tuple(range(n))  # the seats playing this round (§8.2)
        self.first = 0  # who starts this round (§3.4)
        self.to_move = 0
        self.taken = 0  # dice taken this turn (§3.1)
        self.given = 0  # dice given this turn (§3.2)
        self.acted = False  # the optional action is done (§4)
        self.selected = -1  # the die being turned (§4.2)
        self.final_left: tuple[int, ...] = ()  # seats still to take their last turn (§6.2)
        self.last_hands: tuple[int, ...] = ()  # the hands as the last round ended (§7)
        self.phase = FORM
        self._returns = [0.0] * n

    # -- bookkeeping -------------------------------------------------------------------------
    def returns(self) -> list[float]:
        return self._returns[:]

    def hand(self, seat: int) -> list[int]:
        """The seat's dice, by kind: 24 counts."""
        return self.hands[seat * DICE : (seat + 1) * DICE]

    def pips(self, seat: int) -> int:
        """§7: the pips showing on the seat's dice."""
        base = seat * DICE
        return sum(self.hands[base + d] * face_of(d) for d in range(DICE))

    def current_layer(self) -> int:
        """§2: the outermost layer that still holds dice (LAYERS when the pool is empty)."""
        for k in range(LAYERS):
            if self.layer_left[k]:
                return k
        return LAYERS

    def pool_empty(self) -> bool:
        return not any(self.layer_left)

    def next_seat(self, seat: int) -> int:
        """§3.3: the next playing seat to the left."""
        act = self.active
        return act[(act.index(seat) + 1) % len(act)]

    def held_sets(self, seat: int) -> list[int]:
        """§5: the patterns the seat's hand holds."""
        return patterns_in(self.hands[seat * DICE : (seat + 1) * DICE])

    def may_act(self) -> bool:
        """§4: whether the optional action is still open to the seat to move this turn."""
        if self.acted:
            return False
        return self.game.params["opening_action"] or self.turns_done[self.to_move] > 0

    # -- the course of a round (§1, §3, §6, §7, §8) ------------------------------------------
    def _start_turn(self, seat: int) -> None:
        self.to_move = seat
        self.taken = self.given = 0
        self.acted = False
        self.selected = -1
        self.phase = TAKE

    def _end_turn(self) -> None:
        p = self.to_move
        self.turns_done[p] += 1
        if self.pool_empty():  # §6.1: the round's last turn; §6.2 every playing seat may discard patterns
            order = self.active
            k = order.index(p)
            self.final_left = order[k + 1 :] + order[: k + 1]
            self._next_final()
        else:
            self._start_turn(self.next_seat(p))

    def _next_final(self) -> None:
        """§6.2: the next seat with a last turn to take; a seat with open hands and no pattern has none."""
        while self.final_left:
            seat = self.final_left[0]
            if self.game.hidden or self.held_sets(seat):
                self.to_move = seat
                self.phase = FINAL
                return
            self.final_left = self.final_left[1:]
        self._end_round()

    def _end_round(self) -> None:
        """§7: score the round; §8: the game ends, or another round is laid out."""
        n = self.num_players
        scores = tuple(self.pips(k) if k in self.active else 0 for k in range(n))
        self.round_scores.append(scores)
        self.last_hands = tuple(self.hands)  # §7: every hand is shown for scoring
        for k in range(n):
            self.totals[k] += scores[k]
        if self.game.hidden:
            self._mark_irreversible()  # §9: every hand is shown
        contenders = list(range(n)) if self.game.params["tie_rounds"] == "everyone" else list(self.active)
        best = min(self.totals[k] for k in contenders)
        lowest = [k for k in contenders if self.totals[k] == best]
        if self.round >= ROUNDS and (len(lowest) == 1 or self.round >= MAX_ROUNDS):
            self.phase = OVER
            self._returns = ranked_returns(self.totals, lowest)
            return
        if self.round >= ROUNDS and self.game.params["tie_rounds"] == "tied_only":
            self.active = tuple(lowest)  # §8.2
        self.round += 1
        if self.game.params["rotate_first"]:
            nxt = (self.first + 1) % n
            while nxt not in self.active:
                nxt = (nxt + 1) % n
            self.first = nxt
        elif self.first not in self.active:
            self.first = self.active[0]
        self.pool = [-1] * PLACES
        self.layer_left = [0] * LAYERS
        self.remaining = [PER_COLOUR] * len(COLOURS)
        self.form_pos = 0
        self.hands = [0] * (DICE * n)
        self.rack = [0] * DICE
        self.turns_done = [0] * n
        self.final_left = ()
        self.phase = FORM

    def _after_action(self) -> None:
        """§4: the optional action is done; the turn goes on (it came first) or ends."""
        self.acted = True
        self.selected = -1
        if self.given == 3:
            self._end_turn()
        else:
            self.phase = TAKE

    # -- what a viewer sees ------------------------------------------------------------------
    def _visible_hand(self, seat: int, viewer: int | None) -> bool:
        return not self.game.hidden or seat == viewer or self.phase == OVER

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The observation as numbers (docs/research/tensors-newer.md): seats from the viewer's, places as they lie."""
        o = self.observation(player)
        v, n = o["viewer"], self.num_players
        tz.header(t, o, v, n, PHASE_NAMES)
        t.counts("round", [o["round"]], MAX_ROUNDS)
        t.bits("active", [s in o["active"] for s in tz.order(v, n)])
        t.one_hot("first", tz.rel(o["first"], v, n), n)
        tz.one_hots(t, "pool", [d if d >= 0 else None for d in o["pool"]], DICE)
        t.one_hot("layer", o["layer"], LAYERS + 1)
        t.counts("to_lay_out", [o["to_lay_out"]], PLACES)
        hands = tz.rotate(o["hands"], v)
        t.bits("hand_known", [h is not None for h in hands])
        for k, hand in enumerate(hands):
            t.counts(f"hand{k}", hand or [0] * DICE, PER_COLOUR)
        t.counts("hand_sizes", tz.rotate(o["hand_sizes"], v), PLACES)
        t.counts("rack", o["rack"], PER_COLOUR)
        t.counts("totals", tz.rotate(o["totals"], v), MAX_PIPS * MAX_ROUNDS)
        for r in range(MAX_ROUNDS):
            scores = o["round_scores"][r] if r < len(o["round_scores"]) else None
            t.bits(f"round{r + 1}_done", [scores is not None])
            t.counts(f"round{r + 1}_scores", tz.rotate(scores, v) if scores else [0] * n, MAX_PIPS)
        t.counts("taken", [o["taken"]], 3)
        t.counts("given", [o["given"]], 3)
        t.bits("acted", [o["acted"]])
        t.bits("may_act", [o["may_act"]])
        t.one_hot("selected", o["selected"] if o["selected"] >= 0 else None, DICE)
        tz.seq(t, "final_left", [tz.rel(s, v, n) for s in o["final_left"]], n, n)
        returns = tz.rotate(o["returns"] or [-1.0] * n, v)
        t.bits("over", [o["returns"] is not None])
        t.scalars("returns", [(r + 1) / 2 for r in returns])

    def observation(self, player: int | None = None) -> dict[str, Any]:
        n = self.num_players
        viewer = player if player is not None and 0 <= player < n else None
        hands = [self.hand(k) if self._visible_hand(k, viewer) else None for k in range(n)]
        return {
            "viewer": viewer,
            "num_players": n,
            "phase": self.phase,
            "round": self.round,
            "active": list(self.active),
            "first": self.first,
            "to_move": self.current_player(),
            "pool": self.pool[:],
            "layer": self.current_layer(),
            "to_lay_out": PLACES - self.form_pos if self.phase == FORM else 0,
            "hands": hands,
            "hand_sizes": [sum(self.hand(k)) for k in range(n)],
            "rack": self.rack[:],
            "totals": self.totals[:],
            "round_scores": [list(r) for r in self.round_scores],
            "taken": self.taken,
            "given": self.given,
            "acted": self.acted,
            "may_act": self.phase in (TAKE, GIVE) and self.may_act(),
            "selected": self.selected,
            "final_left": list(self.final_left),
            "hidden_hands": self.game.hidden,
            "returns": self._returns[:] if self.phase == OVER else None,
        }

    def resample(self, player: int | None, rng: random.Random) -> KastaState:
        """A world ``player`` cannot tell from this one: the secret faces redrawn (§9; see :func:`_resample`).

        Kept, measured faster than the core's default (``bench/bench_resample.py kasta``: 2.5-3.1 ms a call
        against the core's 17-24 ms, per viewer, 5 calls on each position of four seeded games; under hidden_hands; a
        random rollout takes about 35 ms).
        """
        if not self.game.hidden:
            return self.clone()
        return _resample(self, player, rng)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE and 0 <= action < DICE:
            return f"{PLACE_NAMES[self.form_pos] if self.form_pos < PLACES else 'pool'} {die_name(action)}"
        return super()._action_to_string(player, action)


# -- the phases (§1-§6) ---------------------------------------------------------------------------


def _to_move(s: KastaState) -> int:
    return s.to_move


# §1.2 the pool is laid out: one chance step per place, a die of a colour in proportion to what is left.
def _form_outcomes(s: KastaState) -> list[tuple[int, float]]:
    return list(_outcomes_for(tuple(s.remaining)))


@functools.cache
def _outcomes_for(rem: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    left = sum(rem)
    return tuple((c * FACES + f, rem[c] / left / FACES) for c in range(len(COLOURS)) if rem[c] for f in range(FACES))


def _form(s: KastaState, die: int) -> None:
    pos = s.form_pos
    s.pool[pos] = die
    s.layer_left[LAYER[pos]] += 1
    s.remaining[colour_of(die)] -= 1
    s.form_pos = pos + 1
    if s.form_pos == PLACES:
        s._start_turn(s.first)


def _form_seen(s: KastaState, actor: int, die: int) -> Seen:
    return Seen(f"A {die_name(die)} is laid on {PLACE_NAMES[s.form_pos]}")


# §3.1 take three dice, §3.2 give three dice, each from the outermost layer that holds dice (§2).
def _layer_places(s: KastaState, offset: int) -> list[int]:
    layer = s.current_layer()
    if layer == LAYERS:
        return []
    pool = s.pool
    return [offset + i for i in LAYER_PLACES[layer] if pool[i] >= 0]


def _take_legal(s: KastaState, player: int) -> list[int]:
    out = _layer_places(s, TAKE0)
    if s.game.params["action_first"] and s.taken == 0 and s.may_act():  # §4: the optional action may come first
        out += _kinds(s, s.to_move)
    return out


def _is_in_layer(s: KastaState, i: int) -> bool:
    return 0 <= i < PLACES and s.pool[i] >= 0 and LAYER[i] == s.current_layer()


def _take_is_legal(s: KastaState, player: int, action: int) -> bool:
    if TAKE0 <= action < TAKE0 + PLACES:
        return _is_in_layer(s, action - TAKE0)
    return action in _take_legal(s, player)


def _take(s: KastaState, action: int) -> None:
    if action >= KIND0:
        _choose_kind(s, action)
        return
    i = action - TAKE0
    die = s.pool[i]
    s.pool[i] = -1
    s.layer_left[LAYER[i]] -= 1
    s.hands[s.to_move * DICE + die] += 1
    s.taken += 1
    if s.taken == 3:
        s.phase = GIVE


def _explain_place(s: KastaState, player: int, action: int, verb: str, clause: str) -> str | None:
    seg, idx = ACTIONS.decode(action)
    if seg not in ("take", "give"):
        return None
    i = idx[0]
    if s.pool[i] < 0:
        return said(f"there is no die at {PLACE_NAMES[i]} any more", clause)
    return said(
        f"you must {verb} from the outermost layer that still holds dice; {PLACE_NAMES[i]} lies further in", clause, "2"
    )


def _explain_take(s: KastaState, player: int, action: int) -> str | None:
    seg = ACTIONS.decode(action)[0]
    if seg == "give":
        return said(f"first take three dice for yourself ({3 - s.taken} to go)", "3.1")
    if seg == "kind":
        if not s.may_act():
            return said(
                "the optional action is not allowed on your first turn of a round", "4", "option opening_action"
            )
        if s.taken:
            return said("the optional action comes after your gifts now", "4")
        return said("the optional action comes after taking and giving", "4", "option action_first")
    return _explain_place(s, player, action, "take", "3.1") or said("take three dice from the pool first", "3.1")


def _give_legal(s: KastaState, player: int) -> list[int]:
    return _layer_places(s, GIVE0)


def _give_is_legal(s: KastaState, player: int, action: int) -> bool:
    return GIVE0 <= action < GIVE0 + PLACES and _is_in_layer(s, action - GIVE0)


def _give(s: KastaState, action: int) -> None:
    i = action - GIVE0
    die = s.pool[i]
    s.pool[i] = -1
    s.layer_left[LAYER[i]] -= 1
    s.hands[s.next_seat(s.to_move) * DICE + die] += 1
    s.given += 1
    if s.given == 3:
        if s.may_act():
            s.phase = ACT
        else:
            s._end_turn()


def _explain_give(s: KastaState, player: int, action: int) -> str | None:
    seg = ACTIONS.decode(action)[0]
    if seg == "take":
        return said(f"you have taken your three dice; now give three to {SEATS[s.next_seat(s.to_move)]}", "3.2")
    return _explain_place(s, player, action, "give", "3.2") or said("give three dice from the pool first", "3.2")


# §4 the optional action: its kind, then the die (and the new face), or end the turn.
def _kinds(s: KastaState, player: int) -> list[int]:
    base = player * DICE
    holds = any(s.hands[base : base + DICE])
    out = [KIND0 + KIND_DISCARD, KIND0 + KIND_TURN] if holds else []
    if s.held_sets(player):
        out.append(KIND0 + KIND_SET)
    return out


def _act_legal(s: KastaState, player: int) -> list[int]:
    return [*_kinds(s, player), END]


def _choose_kind(s: KastaState, action: int) -> None:
    if action == END:
        s._after_action()
        return
    s.phase = (DISCARD, TURN, SET)[action - KIND0]


def _explain_act(s: KastaState, player: int, action: int) -> str | None:
    if action == KIND0 + KIND_SET:
        return said("your dice hold no pattern of four", "5")
    seg = ACTIONS.decode(action)[0]
    if seg in ("discard", "turn", "set"):
        return said("first choose the kind of optional action, or end your turn", "4")
    return said("choose an optional action or end your turn", "4")


def _hand_dice(s: KastaState, player: int, offset: int) -> list[int]:
    base = player * DICE
    return [offset + d for d in range(DICE) if s.hands[base + d]]


def _discard(s: KastaState, action: int) -> None:  # §4.1
    d = action - DISCARD0
    s.hands[s.to_move * DICE + d] -= 1
    s.rack[d] += 1
    s._after_action()


def _turn(s: KastaState, action: int) -> None:  # §4.2: the die to turn
    s.selected = action - TURN0
    s.phase = FACE


def _face_legal(s: KastaState, player: int) -> list[int]:
    f = face_of(s.selected)
    return [FACE0 + k for k in range(FACES) if k + 1 != f]


def _face(s: KastaState, action: int) -> None:  # §4.2: the face it now shows
    d = s.selected
    base = s.to_move * DICE
    s.hands[base + d] -= 1
    s.hands[base + _die(colour_of(d), action - FACE0 + 1)] += 1
    s._after_action()


def _explain_face(s: KastaState, player: int, action: int) -> str | None:
    if FACE0 <= action < FACE0 + FACES:
        return said(f"turn the die to another face: it already shows {face_of(s.selected)}", "4.2")
    return said(f"choose the face to turn the {die_name(s.selected)} to", "4.2")


def _explain_die(verb: str, clause: str) -> Any:
    def explain(s: KastaState, player: int, action: int) -> str | None:
        seg, idx = ACTIONS.decode(action)
        if seg in ("discard", "turn"):
            return said(f"you hold no {die_name(idx[0])}", clause)
        return said(f"choose a die of your hand to {verb}", clause)

    return explain


def _sets_legal(s: KastaState, player: int) -> list[int]:
    return [SET0 + k for k in s.held_sets(player)]


def _discard_set(s: KastaState, k: int) -> None:
    base = s.to_move * DICE
    for d, m in SET_NEEDS[k]:
        s.hands[base + d] -= m
        s.rack[d] += m


def _set(s: KastaState, action: int) -> None:  # §4.3
    _discard_set(s, action - SET0)
    s._after_action()


def _explain_set(s: KastaState, player: int, action: int) -> str | None:
    if SET0 <= action < SET0 + len(SETS):
        return said("your dice do not hold that pattern", "5")
    return said("choose the pattern of four dice to discard", "4.3", "5")


# §6.2 the last turns: discard a pattern (one, or any number with final_patterns=any), or keep the dice.
def _final_legal(s: KastaState, player: int) -> list[int]:
    return [END, *_sets_legal(s, player)]


def _final(s: KastaState, action: int) -> None:
    if action != END:
        _discard_set(s, action - SET0)
        if s.game.params["final_patterns"] == "any" and (s.game.hidden or s.held_sets(s.to_move)):
            return  # the same seat may discard another
    s.final_left = s.final_left[1:]
    s._next_final()


def _explain_final(s: KastaState, player: int, action: int) -> str | None:
    if SET0 <= action < SET0 + len(SETS):
        return said("your dice do not hold that pattern", "5")
    return said("the pool is empty: discard a pattern of four dice, or end your turn to keep your dice", "6.2")


# -- who sees what (§9) ---------------------------------------------------------------------------


def _round_end_text(s: KastaState, actor: int, action: int) -> str | None:
    """The round's result, when ``action`` ends the round: every hand shown and scored (§7, §9)."""
    if sum(s.layer_left) > (1 if s.phase == GIVE else 0):
        return None  # §6.1: only a step that leaves the pool empty can end the round
    after = s.clone()
    try:
        after.apply_action(action)
    except IllegalActionError:
        return None
    if len(after.round_scores) == len(s.round_scores):
        return None
    parts = []
    for k in s.active:
        dice = [die_name(d) for d in range(DICE) for _ in range(after.last_hands[k * DICE + d])]
        pips = after.round_scores[-1][k]
        parts.append(f"{SEATS[k]} keeps {', '.join(dice) if dice else 'no dice'} ({pips} pips)")
    return f"round {s.round} ends: " + "; ".join(parts)


def _words(s: KastaState, actor: int, action: int) -> str:
    """A sentence for a seat's ``action`` about to be played in ``s`` (§3-§6), after the seat's name in the log; the
    notation (``take a4``, ``turn red 3``, ``to 5``) stays the moves' labels."""
    seg, idx = ACTIONS.decode(action)
    if seg == "take":
        return f"takes the {die_name(s.pool[idx[0]])} from {PLACE_NAMES[idx[0]]}"
    if seg == "give":
        return f"gives the {die_name(s.pool[idx[0]])} on {PLACE_NAMES[idx[0]]} to {SEATS[s.next_seat(actor)]}"
    if seg == "kind":
        return f"chooses to {KINDS[idx[0]]}"
    if seg == "end":
        return "ends the turn"
    if seg == "discard":
        return f"discards a {die_name(idx[0])} to the rack"
    if seg == "turn":
        return f"picks a {die_name(idx[0])} to turn"
    if seg == "face":
        return f"turns it to {idx[0] + 1}"
    return f"discards the pattern {SETS[idx[0]][0]}"


def _shown(s: KastaState, end: str | None) -> tuple[int, ...]:
    """§7, §9: the step that ends a round shows every hand, and nothing after it depends on a secret face of the
    round beyond what it shows: it pins every step so far (this one too)."""
    return tuple(range(len(s._history) + 1)) if end else ()


def _public_seen(s: KastaState, actor: int, action: int) -> Seen:
    text = _words(s, actor, action)
    end = _round_end_text(s, actor, action)
    return Seen(f"{text}; {end}" if end else text, pins=_shown(s, end))


def _face_seen(s: KastaState, actor: int, action: int) -> Seen:
    """§9: with hidden hands the new face is seen by the die's owner alone."""
    text = _words(s, actor, action)
    end = _round_end_text(s, actor, action)
    if end:
        text = f"{text}; {end}"
    if not s.game.hidden:
        return Seen(text)
    secret = f"turned it in secret; {end}" if end else "turned it in secret"
    return Seen(secret, {actor: text}, pins=_shown(s, end))


# -- resample (§9) ------------------------------------------------------------------------------------
#
# The only secret is the face a die is turned to (§4.2), seen by its owner alone. Everything a viewer is shown
# of the others' hands follows from public events: dice taken and given (added), discarded, turned or discarded
# in a pattern (removed: a removal is legal only while the hand holds the die). The round's end shows every hand
# and pins the round's steps (``_shown``), so the core keeps a finished round as it was, and so does this: only
# the round under way is redrawn. A secret face keeps the die's colour and only changes one seat's hand, so the
# secret faces fall into independent blocks, one per (seat, colour), and within a block the constraint is:
# after each public removal, every face is held at least as often as it was removed. The core's default
# resample draws each secret face, in history order, uniformly among
# the faces from which a consistent completion exists; since the blocks are independent this is the same as
# drawing each block's faces in order, uniformly among the faces its own constraints can still complete,
# which is what :func:`_resample` does, exactly and without search. One position couples a seat's colours:
# when the last step is its choice to discard a pattern (§4.3) and the pattern is not named yet, its hand must
# hold one, and a pattern may mix colours; that seat's blocks of this round are then drawn together (_Joint).


class _Block:
    """The secret faces of one seat's dice of one colour in the round under way (faces are 0-5 here)."""

    __slots__ = ("banned", "colour", "low", "memo", "net", "old", "seat", "steps")

    def __init__(self, seat: int, colour: int) -> None:
        self.seat, self.colour = seat, colour
        self.net = [0] * FACES  # public additions minus removals, per face
        self.low: list[list[int]] = [[0] * FACES]  # low[k]: each face's least count among the first k secret dice
        self.banned: list[int] = []  # per secret die, the face it was turned from (§4.2: not allowed)
        self.steps: list[int] = []  # per secret die, its history index
        self.old: list[int] = []  # per secret die, the face it really shows
        self.memo: dict[tuple[int, tuple[int, ...]], list[int]] = {}

    def add(self, face: int) -> None:
        self.net[face] += 1

    def remove(self, face: int, m: int) -> None:
        self.net[face] -= m
        low = self.low[-1]
        if -self.net[face] > low[face]:
            low[face] = -self.net[face]

    def secret(self, banned: int, step: int, face: int) -> None:
        self.banned.append(banned)
        self.steps.append(step)
        self.old.append(face)
        self.low.append([0] * FACES)

    def options(self, k: int, c: tuple[int, ...]) -> list[int]:
        """The faces the ``k``-th secret die may show, the first ``k`` showing ``c``, with a consistent completion."""
        key = (k, c)
        got = self.memo.get(key)
        if got is None:
            got = []
            for f in range(FACES):
                if f != self.banned[k]:
                    nxt = (*c[:f], c[f] + 1, *c[f + 1 :])
                    if self._feasible(k + 1, nxt):
                        got.append(f)
            self.memo[key] = got
        return got

    def _feasible(self, k: int, c: tuple[int, ...]) -> bool:
        low = self.low[k]
        if any(c[f] < low[f] for f in range(FACES)):
            return False
        return k == len(self.steps) or bool(self.options(k, c))

    def draw(self, rng: random.Random) -> list[tuple[_Block, list[int]]]:
        c = (0,) * FACES
        out = []
        for k in range(len(self.steps)):
            opts = self.options(k, c)
            f = opts[int(rng.random() * len(opts))]
            out.append(f)
            c = (*c[:f], c[f] + 1, *c[f + 1 :])
        return [(self, out)]


class _Joint:
    """One seat's secret faces of this round, all colours together, when its last step chose to discard a pattern.

    §4.3: that choice is legal only while the hand holds a pattern (§5), and a pattern may mix colours, so the
    seat's blocks are no longer independent until the pattern itself is named. Its faces are drawn in history
    order, each uniformly among those with a completion that keeps every block's constraints and leaves a
    pattern in the hand.
    """

    def __init__(self, blocks: list[_Block], hand: list[int]) -> None:
        self.blocks = blocks
        self.order = sorted(((b.steps[t], k, t) for k, b in enumerate(blocks) for t in range(len(b.steps))))
        self.hand = hand[:]  # the hand without its secret dice
        for b in blocks:
            for f in b.old:
                self.hand[b.colour * FACES + f] -= 1
        self.memo: dict[tuple[int, tuple[tuple[int, ...], ...]], list[int]] = {}

    def options(self, j: int, cs: tuple[tuple[int, ...], ...]) -> list[int]:
        key = (j, cs)
        got = self.memo.get(key)
        if got is None:
            _, k, t = self.order[j]
            b = self.blocks[k]
            low = b.low[t + 1]
            got = []
            for f in range(FACES):
                if f == b.banned[t]:
                    continue
                c = cs[k]
                c = (*c[:f], c[f] + 1, *c[f + 1 :])
                if any(c[g] < low[g] for g in range(FACES)):
                    continue
                nxt = (*cs[:k], c, *cs[k + 1 :])
                if self._feasible(j + 1, nxt):
                    got.append(f)
            self.memo[key] = got
        return got

    def _feasible(self, j: int, cs: tuple[tuple[int, ...], ...]) -> bool:
        if j < len(self.order):
            return bool(self.options(j, cs))
        hand = self.hand[:]
        for b, c in zip(self.blocks, cs):
            for f in range(FACES):
                hand[b.colour * FACES + f] += c[f]
        return bool(patterns_in(hand))

    def draw(self, rng: random.Random) -> list[tuple[_Block, list[int]]]:
        cs = tuple((0,) * FACES for _ in self.blocks)
        out: list[list[int]] = [[] for _ in self.blocks]
        for j, (_, k, _) in enumerate(self.order):
            opts = self.options(j, cs)
            f = opts[int(rng.random() * len(opts))]
            out[k].append(f)
            c = cs[k]
            cs = (*cs[:k], (*c[:f], c[f] + 1, *c[f + 1 :]), *cs[k + 1 :])
        return list(zip(self.blocks, out))


def _blocks(s: KastaState, viewer: int | None) -> list[_Block | _Joint]:
    """Replay the history and gather the blocks of secret faces ``viewer`` did not see (see above)."""
    n = s.num_players
    r = KastaState(s.game, n)
    blocks: dict[tuple[int, int], _Block] = {}  # this round's, by (seat, colour)

    def block(seat: int, colour: int) -> _Block | None:
        if seat == viewer:
            return None
        b = blocks.get((seat, colour))
        if b is None:
            b = blocks[(seat, colour)] = _Block(seat, colour)
        return b

    def add(seat: int, die: int) -> None:
        b = block(seat, colour_of(die))
        if b is not None:
            b.add(die % FACES)

    def remove(seat: int, die: int, m: int) -> None:
        b = block(seat, colour_of(die))
        if b is not None:
            b.remove(die % FACES, m)

    for i, entry in enumerate(s._history):
        assert isinstance(entry, int)
        phase, p = r.phase, r.to_move
        if phase == TAKE and TAKE0 <= entry < TAKE0 + PLACES:
            add(p, r.pool[entry - TAKE0])
        elif phase == GIVE:
            add(r.next_seat(p), r.pool[entry - GIVE0])
        elif phase == DISCARD:
            remove(p, entry - DISCARD0, 1)
        elif phase == TURN:
            remove(p, entry - TURN0, 1)
        elif phase == FACE:
            d = r.selected
            b = block(p, colour_of(d))
            if b is not None:
                b.secret(d % FACES, i, entry - FACE0)
        elif phase in (SET, FINAL) and entry >= SET0:
            for d, m in SET_NEEDS[entry - SET0]:
                remove(p, d, m)
        rounds = len(r.round_scores)
        r.apply_legal(entry)
        if len(r.round_scores) > rounds:  # §7, §9: every hand is shown, which pins the round
            blocks = {}
    out: list[_Block | _Joint] = []
    p = r.to_move
    if r.phase == SET and p != viewer:  # §4.3: the seat chose to discard a pattern and has not named it yet
        mine = [b for (seat, _), b in blocks.items() if seat == p and b.steps]
        if mine:
            out.append(_Joint(mine, s.hand(p)))
        out += [b for (seat, _), b in blocks.items() if seat != p and b.steps]
    else:
        out += [b for b in blocks.values() if b.steps]
    return out


def _resample(s: KastaState, viewer: int | None, rng: random.Random) -> KastaState:
    """Redraw every secret face ``viewer`` did not see, block by block, as the core's default would (see above).

    The blocks are kept for the last position and viewer asked (a search asks again and again); the world is
    the state itself with the secret faces rewritten in its history and in the hands.
    """
    key = (tuple(s._history), viewer)
    cached = s.__dict__.get("_secret_blocks")
    if cached is None or cached[0] != key:
        cached = (key, _blocks(s, viewer))
        s.__dict__["_secret_blocks"] = cached
    items: list[_Block | _Joint] = cached[1]
    r = s.clone()
    for item in items:
        for b, faces in item.draw(rng):
            base = b.seat * DICE + b.colour * FACES
            for step, old, new in zip(b.steps, b.old, faces):
                r._history[step] = FACE0 + new
                r.hands[base + old] -= 1
                r.hands[base + new] += 1
    return r


# -- prompts ---------------------------------------------------------------------------------------


def _waiting(obs: dict[str, Any]) -> str:
    cp = obs["to_move"]
    return f"{SEATS[cp]} to move." if 0 <= cp < len(SEATS) else "Waiting."


def _take_prompt(game: KastaGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    if not legal:
        return _waiting(obs)
    more = " (or begin with your optional action)" if any(a >= KIND0 for a, _ in legal) else ""
    return f"Take a die for yourself from the outer layer: {3 - obs['taken']} to go{more}."


def _give_prompt(game: KastaGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    if not legal:
        return _waiting(obs)
    active = obs["active"]
    to = active[(active.index(obs["to_move"]) + 1) % len(active)]
    return f"Give a die from the outer layer to {SEATS[to]}: {3 - obs['given']} to go."


def _prompt(text: str) -> Any:
    return lambda game, obs, legal: text if legal else _waiting(obs)


def _over_prompt(game: KastaGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    r = obs["returns"]
    best = max(r)
    winners = [SEATS[k] for k, x in enumerate(r) if x == best]
    if len(winners) == len(r):
        return "The game is over: a draw."
    verb = "wins" if len(winners) == 1 else "share the win"
    return f"The game is over: {' and '.join(winners)} {verb} with the lowest total."


def _move(name: str, prompt: Any, *, seen: Any = _public_seen, **hooks: Any) -> Phase:
    """A phase in which the seat to move decides, seen by all unless ``seen`` says otherwise; a text ``prompt`` is
    the mover's sentence (see :func:`_prompt`)."""
    return Phase(name, _to_move, seen=seen, prompt=_prompt(prompt) if isinstance(prompt, str) else prompt, **hooks)


PHASES = phase_table(
    Phase(
        FORM,
        CHANCE,
        outcomes=_form_outcomes,
        apply=_form,
        seen=_form_seen,
        prompt=lambda game, obs, legal: f"The pool is being laid out: {obs['to_lay_out']} dice to go.",
    ),
    _move(
        TAKE,
        _take_prompt,
        legal=_take_legal,
        is_legal=_take_is_legal,
        apply=_take,
        explain=_explain_take,
    ),
    _move(
        GIVE,
        _give_prompt,
        legal=_give_legal,
        is_legal=_give_is_legal,
        apply=_give,
        explain=_explain_give,
    ),
    _move(
        ACT,
        "Choose an optional action: discard a die, turn a die, discard a pattern; or end your turn.",
        legal=_act_legal,
        apply=_choose_kind,
        explain=_explain_act,
    ),
    _move(
        DISCARD,
        "Choose the die to discard to the rack.",
        legal=lambda s, p: _hand_dice(s, p, DISCARD0),
        apply=_discard,
        explain=_explain_die("discard", "4.1"),
    ),
    _move(
        TURN,
        "Choose the die to turn to another face.",
        legal=lambda s, p: _hand_dice(s, p, TURN0),
        apply=_turn,
        explain=_explain_die("turn", "4.2"),
    ),
    _move(
        FACE,
        "Choose the face the die will show.",
        legal=_face_legal,
        apply=_face,
        explain=_explain_face,
        seen=_face_seen,
    ),
    _move(
        SET,
        "Choose the pattern of four dice to discard.",
        legal=_sets_legal,
        apply=_set,
        explain=_explain_set,
    ),
    _move(
        FINAL,
        "The pool is empty: discard a pattern of four dice, or end your turn and keep your dice.",
        legal=_final_legal,
        apply=_final,
        explain=_explain_final,
    ),
    Phase(OVER, TERMINAL, prompt=_over_prompt),
)
KastaState.phases = PHASES


# -- the scene ---------------------------------------------------------------------------------


@KastaGame.draws_scene
def _scene(game: KastaGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    phase = obs["phase"]
    s = sc.new_scene(PHASES[phase].prompt(game, obs, legal), (0, 0, 1, 1))  # type: ignore[misc]
    viewer = obs["viewer"]
    layer = obs["layer"]
    pool = obs["pool"]
    # §1.2-§2: the pool is drawn as a board of 8 rows of 9 places, a1 at the top left, its layers (rings) shaded
    # in turn; a die in the pool stands on its place as a piece (its colour, its pips)
    s["viewbox"] = [-0.1, -0.1, COLS + 0.2, ROWS + 0.2]
    s["cells"] = POOL.scene_cells(ids=POOL_IDS, label=PLACE_NAMES, fill=LAYER_FILLS)
    for i in range(PLACES):
        d = pool[i]
        if d >= 0:
            s["pieces"].append(die_piece(f"p{i}", d, f"{die_name(d)} on {PLACE_NAMES[i]}"))
            if LAYER[i] == layer and phase in (TAKE, GIVE):
                s["highlights"].append({"at": f"p{i}", "kind": "hint"})
    first_item: dict[tuple[int, int], str] = {}
    for k in range(obs["num_players"]):
        hand = obs["hands"][k]
        name = "Your dice" if k == viewer else f"{SEATS[k]}'s dice"
        items = []
        if hand is None:
            items = [sc.item(f"h{k}-{j}", "a die", "die", face_down=True) for j in range(obs["hand_sizes"][k])]
        else:
            for d in range(DICE):
                for j in range(hand[d]):
                    if j == 0:
                        first_item[(k, d)] = f"h{k}-{d}-0"
                    items.append(die_item(f"h{k}-{d}-{j}", d))
        pips = sum(face_of(d) * m for d, m in enumerate(hand)) if hand is not None else None
        title = f"{name} ({pips} pips)" if pips is not None else f"{name} ({obs['hand_sizes'][k]} dice)"
        s["zones"].append(sc.zone(f"hand{k}", title, items, owner=k))
    rack = [die_item(f"rack{d}", d, f"×{m}") for d, m in enumerate(obs["rack"]) if m]
    s["zones"].append(sc.zone("rack", f"The rack ({sum(obs['rack'])} dice discarded)", rack))
    cp = obs["to_move"]
    if obs["selected"] >= 0 and (cp, obs["selected"]) in first_item:
        s["highlights"].append({"at": first_item[(cp, obs["selected"])], "kind": "selected"})
    for a, label in legal:
        seg, idx = ACTIONS.decode(a)
        if seg in ("take", "give"):
            s["targets"].append({"at": f"p{idx[0]}", "action": a, "label": label})
        elif seg in ("discard", "turn") and (cp, idx[0]) in first_item:
            s["targets"].append({"at": first_item[(cp, idx[0])], "action": a, "label": label})
    rounds = f"Round {obs['round']} of {ROUNDS}" if obs["round"] <= ROUNDS else f"Round {obs['round']} (tie-break)"
    s["status"] = [rounds, f"Pool: {sum(1 for d in pool if d >= 0)} dice, layer {min(layer, LAYERS - 1) + 1}"]
    s["status"] += [f"{SEATS[k]}: total {obs['totals'][k]}" for k in range(obs["num_players"])]
    s["players"] = [
        sc.player(
            k,
            SEATS[k] + (" (you)" if k == viewer else ""),
            "to move" if cp == k else (None if k in obs["active"] else "sits out"),
        )
        for k in range(obs["num_players"])
    ]
    return sc.finish_scene(s, legal)


KastaGame.state_class = KastaState
PHASE_NAMES = tuple(KastaState.phases)
#: The most pips a hand can hold (every die showing six).
MAX_PIPS = PLACES * FACES

GAME_CLASS = KastaGame
