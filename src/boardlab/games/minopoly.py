"""Minopoly (Rey Alicea, 2018): roll four dice, drop them on the board as a tetromino, see the most buildings.

Rules: ``docs/rules/minopoly.md``; clause numbers are cited as ``§n``.

The board is 5 × 5; cells are indexed in reading order from South's side
(``a1`` … ``e1`` is South's edge, row 5 North's). A die is a number 0-23,
``colour * 6 + face - 1``. The five cards are the tetrominoes of
:data:`CARDS`, numbered 0-4.

Chance actions: the dealer (a seat) and each card dealt (a card number) at
the start (§2); a die drawn from the bag and thrown (a die number, §4.1); the
face of a die thrown again (0-5 for faces 1-6, §4.2). Seat actions are the
segments of :data:`ACTIONS`: ``pass`` (§3), ``hold`` a die of the throw by its
slot, ``roll`` the others, ``stop`` throwing (§4.2), the ``card`` to play (§5)
and ``put`` a die of the throw on a cell (§5.2), one at a time.

Everything is public (§1): the cards are face up and the bag's contents can be
counted.
"""

from __future__ import annotations

import itertools
from typing import Any

from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.chance import equally_likely
from ..core.constants import CHANCE, TERMINAL
from ..core.game import Game, win_loss
from ..core.gametype import Chance, GameType
from ..core.hidden import Seen
from ..core.options import Option
from ..core.phases import Phase, PhasedState, phase_table
from ..core.tensor import Tensor
from ..core.wording import said, third_person
from ..geometry.squaregrid import SquareGrid
from . import _tensors as tz
from ._dice import COLOURS, DICE, FACES, colour_of, die_item, die_name, die_piece, face_of

# -- components (§1) ----------------------------------------------------------------------------

SIZE = 5
CELLS = SIZE * SIZE
#: The city as drawn: row 5 (North's side) at the top; a lot's id names its index in the game (row 1 first).
CITY = SquareGrid(SIZE, SIZE)
CITY_IDS = tuple(f"c{(SIZE - 1 - j // SIZE) * SIZE + j % SIZE}" for j in range(CELLS))
CELL_NAMES = tuple(f"{'abcde'[i % SIZE]}{i // SIZE + 1}" for i in range(CELLS))
PER_COLOUR = 6  # §1: 24 dice, 6 of each colour
ROUNDS = 4  # §7
SEATS = ("South", "North")
#: The five tetromino cards (§1), each as its cells (column, row) in one orientation.
CARDS: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = (
    ("I", ((0, 0), (1, 0), (2, 0), (3, 0))),
    ("O", ((0, 0), (1, 0), (0, 1), (1, 1))),
    ("T", ((0, 0), (1, 0), (2, 0), (1, 1))),
    ("S", ((1, 0), (2, 0), (0, 1), (1, 1))),
    ("L", ((0, 0), (0, 1), (0, 2), (1, 2))),
)
CARD_NAMES = tuple(name for name, _ in CARDS)
RUNS = (frozenset({1, 2, 3, 4}), frozenset({2, 3, 4, 5}), frozenset({3, 4, 5, 6}))  # §6.2


def _normal(cells: set[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    x0 = min(c for c, _ in cells)
    y0 = min(r for _, r in cells)
    return tuple(sorted((c - x0, r - y0) for c, r in cells))


def orientations(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """§5.2: every rotation and reflection of a shape, without repeats."""
    out: set[tuple[tuple[int, int], ...]] = set()
    shape = set(cells)
    for _ in range(4):
        shape = {(r, -c) for c, r in shape}  # a quarter turn
        out.add(_normal(shape))
        out.add(_normal({(-c, r) for c, r in shape}))  # its mirror image
    return tuple(sorted(out))


def _placements(card: int) -> tuple[tuple[int, ...], ...]:
    """§5.2: every way the card's shape lies on the board, as its cells in increasing order."""
    out = set()
    for shape in orientations(CARDS[card][1]):
        w = 1 + max(c for c, _ in shape)
        h = 1 + max(r for _, r in shape)
        for x in range(SIZE - w + 1):
            for y in range(SIZE - h + 1):
                out.add(tuple(sorted((y + r) * SIZE + x + c for c, r in shape)))
    return tuple(sorted(out))


#: Per card, its placements on the empty board (I 20, O 16, T 48, S 48, L 96).
PLACEMENTS = tuple(_placements(k) for k in range(len(CARDS)))
#: Per card, bit masks of its placements (bit c: cell c).
PLACEMENT_MASKS = tuple(tuple(sum(1 << c for c in p) for p in ps) for ps in PLACEMENTS)


def _prefixes(card: int) -> dict[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """Per card: for the cells filled so far (in increasing order), each placement's next cell and the mask of
    the cells it still needs (§5.2)."""
    out: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    for p in PLACEMENTS[card]:
        for k in range(4):
            out.setdefault(p[:k], []).append((p[k], sum(1 << c for c in p[k:])))
    return {key: tuple(v) for key, v in out.items()}


PREFIXES = tuple(_prefixes(k) for k in range(len(CARDS)))
#: Per card, a picture of its shape (§1).
PICTURES = tuple(sc.picture((1 + max(c for c, _ in cells), 1 + max(r for _, r in cells)), cells) for _, cells in CARDS)


# -- scoring (§6) ---------------------------------------------------------------------------------


def column(board: list[int] | tuple[int, ...], col: int, seat: int) -> list[int]:
    """The dice of a column as ``seat`` looks along it, nearest first (South from row 1, North from row 5)."""
    rows = range(SIZE) if seat == 0 else range(SIZE - 1, -1, -1)
    return [board[r * SIZE + col] for r in rows if board[r * SIZE + col] >= 0]


def seen(dice: list[int]) -> int:
    """§6.1: how many buildings one sees along a column: each strictly taller than all nearer ones."""
    top = 0
    n = 0
    for d in dice:
        f = face_of(d)
        if f > top:
            n += 1
            top = f
    return n


def column_bonus(dice: list[int], stack: bool = False) -> int:
    """§6.2: the bonus a column's dice offer (some four of them, seen or not); one bonus unless ``stack``."""
    best = five = 0
    for four in itertools.combinations(dice, 4):
        colours = {colour_of(d) for d in four}
        mixed = len(colours) in (1, 4)
        if not mixed:
            continue
        five = 5
        if frozenset(face_of(d) for d in four) in RUNS:
            best = 10
    if stack:
        return best + five
    return best or five


def round_score(board: list[int] | tuple[int, ...], stack: bool = False) -> tuple[tuple[int, int], ...]:
    """§6: each seat's (buildings seen, bonus points) for a board."""
    seen_by = [0, 0]
    bonus = [0, 0]
    for col in range(SIZE):
        n = [seen(column(board, col, k)) for k in (0, 1)]
        seen_by[0] += n[0]
        seen_by[1] += n[1]
        if n[0] != n[1]:  # §6.3: only the seat that sees more in this column may score its bonus
            k = 0 if n[0] > n[1] else 1
            bonus[k] += column_bonus(column(board, col, 0), stack)
    return ((seen_by[0], bonus[0]), (seen_by[1], bonus[1]))


# -- actions -------------------------------------------------------------------------------------


def _hold_label(k: int) -> str:
    return f"hold die {k + 1}"


def _put_label(k: int, c: int) -> str:
    return f"put die {k + 1} on {CELL_NAMES[c]}"


ACTIONS = ActionSpace(
    Segment("pass", (), "pass"),
    Segment("draw", (), "draw four dice"),
    Segment("hold", (("slot", 4),), _hold_label),
    Segment("roll", (), "roll again"),
    Segment("stop", (), "use these dice"),
    Segment("card", (("card", CARD_NAMES),), "play the {card} card"),
    Segment("put", (("slot", 4), ("cell", CELL_NAMES)), _put_label),
)
PASS, DRAW_DICE, HOLD0, ROLL, STOP, CARD0, PUT0 = ACTIONS.offsets("pass", "draw", "hold", "roll", "stop", "card", "put")

# Phases
DEALER = "choosing the dealer"  # §2.1
DEAL = "dealing"  # §2.2
START = "start of a turn"  # §3
DRAW = "drawing"  # §4.1
KEEP = "keep or roll"  # §4.2
REROLL = "rolling"  # §4.2
CARD = "choose a card"  # §5.1
PUT = "place the dice"  # §5.2
OVER = "over"


class MinopolyGame(Game):
    id = "minopoly"
    title = "Minopoly"
    summary = (
        "Draw four dice from the bag, throw up to three times, and place them on a 5 × 5 city as a tetromino; "
        "score the buildings you can see from your side."
    )
    options = (
        Option.flag(
            "locked_keeps",
            False,
            said(
                "Dice held after a throw may be thrown again later (default), or stay held for the rest of the turn .",
                "4.2",
            ),
        ),
        Option.flag(
            "stack_bonuses",
            False,
            said("A column gives at most one bonus, 10 or 5 (default), or both when it has both.", "6.2"),
        ),
        Option.flag(
            "redeal_each_round",
            False,
            said("The cards stay where they are between rounds (default), or are shuffled and dealt again.", "7"),
        ),
    )
    mechanics = ("dice", "re-rolls", "tetromino placement", "line of sight")
    playing_time = "25 min"
    game_type = GameType(chance=Chance.EXPLICIT)
    seat_names = SEATS
    setup_text = "The dealer was chosen and the cards were dealt."
    inventions = (
        said("24 dice, 6 of each colour: red, yellow, green and blue.", "1"),
        said("The dealer is chosen at random; the other player starts the first round.", "2.1"),
        said("The card shapes are the five free tetrominoes I, O, T, S and L.", "1"),
        said("A player who cannot place either card passes before drawing any dice.", "3"),
        said("Throws: dice held after one throw may be thrown again after the next (option locked_keeps).", "4.2"),
        said("The played card becomes the new spare.", "5.3"),
        said("A die is seen only if it is strictly taller than every die nearer to the player.", "6.1"),
        said(
            "A column gives at most one bonus (option stack_bonuses), judged on all its dice, and none when both "
            "players see as many dice in it.",
            "6.2",
            "6.3",
        ),
        said("Cards keep their places between rounds (option redeal_each_round).", "7"),
        said("Equal totals after four rounds are a draw.", "8"),
    )
    num_chance_outcomes = DICE
    # §9: per round at most 6 placements of at most 35 steps each and 8 passes; deals.
    max_length = ROUNDS * (6 * 35 + 8 + 6) + 10

    def _setup(self) -> None:
        self.action_space = ACTIONS


class MinopolyState(PhasedState):
    game: MinopolyGame
    copied = ("board", "bag", "dice", "held", "totals", "scores", "placed", "slots_used", "dealt")

    def __init__(self, game: MinopolyGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.board = [-1] * CELLS
        self.filled = 0  # the board's filled cells as a bit mask
        self.bag = [PER_COLOUR] * len(COLOURS)
        self.hands: tuple[tuple[int, ...], ...] = ((), ())  # each seat's two cards, in the order received
        self.spare = -1
        self.dealt: list[int] = []  # cards dealt so far this deal (§2.2)
        self.dealer = -1
        self.starter = 0  # who starts the current round (§2.1, §7)
        self.to_move = 0
        self.round = 1
        self.passes = 0  # consecutive passes (§3)
        self.dice: list[int] = []  # the throw (§4)
        self.held: list[bool] = []
        self.last_hold = -1  # the last die held since the last throw (holds go in slot order)
        self.throws = 0
        self.rerolling: tuple[int, ...] = ()  # slots still to be thrown again (§4.2)
        self.card = -1  # the card being played (§5.1)
        self.placed: list[int] = []  # cells filled this turn, in increasing order (§5.2)
        self.slots_used: list[int] = []
        self.totals = [0, 0]
        self.scores: list[tuple[tuple[int, int], ...]] = []  # per finished round, each seat's (seen, bonus)
        self.last_cells: tuple[int, ...] = ()
        self.phase = DEALER

    # -- bookkeeping -------------------------------------------------------------------------
    def returns(self) -> list[float]:
        if self.phase != OVER:
            return [0.0, 0.0]
        a, b = self.totals
        return win_loss(0 if a > b else 1 if b > a else None)  # §8

    def playable(self, card: int) -> list[tuple[int, ...]]:
        """§5.2: the placements of ``card`` on the empty cells."""
        filled = self.filled
        return [p for p, m in zip(PLACEMENTS[card], PLACEMENT_MASKS[card]) if not m & filled]

    def can_place(self, card: int) -> bool:
        filled = self.filled
        return any(not m & filled for m in PLACEMENT_MASKS[card])

    def _start_turn(self, seat: int) -> None:
        """§3: the turn begins; a player who can place neither card (or finds the bag short) must pass."""
        self.to_move = seat
        self.dice, self.held, self.throws, self.last_hold = [], [], 0, -1
        self.card = -1
        self.placed, self.slots_used = [], []
        self.phase = START

    def _end_turn(self) -> None:
        self._start_turn(1 - self.to_move)

    def _end_round(self) -> None:
        """§6: score the board; §7 clear it for the next round, or §8 the game ends."""
        score = round_score(self.board, self.game.params["stack_bonuses"])
        self.scores.append(score)
        for k in (0, 1):
            self.totals[k] += score[k][0] + score[k][1]
        if self.round == ROUNDS:
            self.phase = OVER
            return
        self.round += 1
        self.board = [-1] * CELLS
        self.filled = 0  # the board's filled cells as a bit mask
        self.bag = [PER_COLOUR] * len(COLOURS)
        self.passes = 0
        self.last_cells = ()
        self.starter = 1 - self.starter  # §7: the start player rotates
        if self.game.params["redeal_each_round"]:
            self.dealt = []
            self.phase = DEAL
        else:
            self._start_turn(self.starter)

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The observation as numbers (docs/research/tensors-newer.md): seats from the viewer's, the board as it lies."""
        o = self.observation(player)
        v = o["viewer"]
        tz.header(t, o, v, 2, PHASE_NAMES)
        t.counts("round", [o["round"]], ROUNDS)
        t.one_hot("starter", tz.rel(o["starter"], v, 2), 2)
        t.one_hot("dealer", tz.rel(o["dealer"], v, 2), 2)
        tz.one_hots(t, "board", [d if d >= 0 else None for d in o["board"]], DICE)
        t.counts("bag", o["bag"], PER_COLOUR)
        for k, hand in enumerate(tz.rotate(o["hands"], v)):
            tz.seq(t, f"hand{k}", hand, 2, len(CARDS))
        t.one_hot("spare", o["spare"] if o["spare"] >= 0 else None, len(CARDS))
        tz.seq(t, "dice", o["dice"], SLOTS, DICE)
        t.bits("held", [k < len(o["held"]) and o["held"][k] for k in range(SLOTS)])
        t.counts("throws", [o["throws"]], 3)
        t.one_hot("card", o["card"] if o["card"] >= 0 else None, len(CARDS))
        t.bits("placed", [c in o["placed"] for c in range(CELLS)])
        tz.seq(t, "slots_used", o["slots_used"], SLOTS, SLOTS)
        t.counts("passes", [o["passes"]], 2)
        t.counts("totals", tz.rotate(o["totals"], v), ROUNDS * (CELLS + MAX_BONUS))
        for r in range(ROUNDS):
            score = tz.rotate(o["scores"][r], v) if r < len(o["scores"]) else None
            t.bits(f"round{r + 1}_done", [score is not None])
            t.counts(f"round{r + 1}_seen", [x[0] for x in score] if score else [0, 0], CELLS)
            t.counts(f"round{r + 1}_bonus", [x[1] for x in score] if score else [0, 0], MAX_BONUS)
        t.bits("last_cells", [c in o["last_cells"] for c in range(CELLS)])
        t.bits("over", [o["returns"] is not None])
        t.scalars("returns", [(r + 1) / 2 for r in tz.rotate(o["returns"] or [-1.0, -1.0], v)])

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {
            "viewer": player if player in (0, 1) else None,
            "phase": self.phase,
            "round": self.round,
            "to_move": self.current_player(),
            "starter": self.starter,
            "dealer": self.dealer,
            "board": self.board[:],
            "bag": self.bag[:],
            "hands": [list(h) for h in self.hands],
            "spare": self.spare,
            "dice": self.dice[:],
            "held": self.held[:],
            "throws": self.throws,
            "card": self.card,
            "placed": self.placed[:],
            "slots_used": self.slots_used[:],
            "passes": self.passes,
            "totals": self.totals[:],
            "scores": [[list(x) for x in r] for r in self.scores],
            "last_cells": list(self.last_cells),
            "returns": self.returns() if self.phase == OVER else None,
        }

    def _action_to_string(self, player: int, action: int) -> str:
        if player >= 0 and action in ACTIONS:
            seg, idx = ACTIONS.decode(action)
            if seg in ("hold", "put") and idx[0] < len(self.dice):
                name = die_name(self.dice[idx[0]])
                return f"hold {name}" if seg == "hold" else f"put {name} on {CELL_NAMES[idx[1]]}"
            if seg == "roll" and self.dice:
                free = [die_name(d) for d, h in zip(self.dice, self.held) if not h]
                return "roll " + (", ".join(free) if len(free) < 4 else "all four") + " again"
        return super()._action_to_string(player, action)

    def _seen(self, actor: int, entry: int | tuple[int | None, ...]) -> Seen | tuple[Seen | None, ...]:
        """A seat's step in words, after its name in the log ("draws four dice", "puts blue 3 on c2"); the
        notation (the label, "put blue 3 on c2") is unchanged; a die drawn says whose throw it is (§4.1, §4.2)."""
        if actor == CHANCE and self.phase in (DRAW, REROLL) and isinstance(entry, int) and 0 <= entry < DICE:
            verb = "draws and throws" if self.phase == DRAW else "throws a die again:"
            return Seen(f"{SEATS[self.to_move]} {verb} a {die_name(entry)}")
        if actor < 0 or not isinstance(entry, int):
            return super()._seen(actor, entry)
        if entry == PASS:
            return Seen("cannot place either card and passes")
        return Seen(third_person(self.action_to_string(actor, entry)))


# -- the phases -------------------------------------------------------------------------------------


def _to_move(s: MinopolyState) -> int:
    return s.to_move


# §2.1 a random dealer; the other player starts. §2.2 two cards to each player, the fifth is the spare.
def _dealer(s: MinopolyState, seat: int) -> None:
    s.dealer = seat
    s.starter = 1 - seat
    s.phase = DEAL


def _deal_outcomes(s: MinopolyState) -> list[tuple[int, float]]:
    left = [c for c in range(len(CARDS)) if c not in s.dealt]
    return equally_likely(left)


def _deal(s: MinopolyState, card: int) -> None:
    s.dealt.append(card)
    if len(s.dealt) == 4:  # South, South, North, North; the last card left is the spare
        s.hands = (tuple(s.dealt[:2]), tuple(s.dealt[2:]))
        s.spare = next(c for c in range(len(CARDS)) if c not in s.dealt)
        s._start_turn(s.starter)


def _deal_label(s: MinopolyState, player: int, action: int) -> str | None:
    if player == CHANCE and 0 <= action < len(CARDS):
        return f"the {CARD_NAMES[action]} card to {SEATS[len(s.dealt) // 2]}"
    return None


# §3 a player who can place neither card must pass; two passes in a row end the round.
def _start_legal(s: MinopolyState, player: int) -> list[int]:
    if sum(s.bag) >= 4 and any(s.can_place(c) for c in s.hands[player]):
        return [DRAW_DICE]
    return [PASS]


def _start(s: MinopolyState, action: int) -> None:
    if action == DRAW_DICE:
        s.phase = DRAW
        return
    s.passes += 1
    if s.passes >= 2:
        s._end_round()
    else:
        s._end_turn()


def _explain_start(s: MinopolyState, player: int, action: int) -> str | None:
    if action == PASS:
        return said("one of your cards fits on the board, so you may not pass: draw four dice", "3")
    if action == DRAW_DICE:
        return said("neither of your cards fits on the empty cells, so you must pass", "3")
    return said("begin your turn: draw four dice, or pass if neither card fits", "3")


# §4.1 draw four dice from the bag and throw them: one chance step per die.
def _draw_outcomes(s: MinopolyState) -> list[tuple[int, float]]:
    bag = s.bag
    left = sum(bag)
    return [(c * FACES + f, bag[c] / left / FACES) for c in range(len(COLOURS)) if bag[c] for f in range(FACES)]


def _draw(s: MinopolyState, die: int) -> None:
    s.bag[colour_of(die)] -= 1
    s.dice.append(die)
    s.held.append(False)
    s.passes = 0
    if len(s.dice) == 4:
        _thrown(s)


def _thrown(s: MinopolyState) -> None:
    """A throw is complete: sort the dice (held ones keep their mark); a third throw is final (§4.2)."""
    s.throws += 1
    pairs = sorted(zip(s.dice, s.held))
    s.dice = [d for d, _ in pairs]
    s.held = [h if s.game.params["locked_keeps"] else False for _, h in pairs]
    s.last_hold = -1
    s.phase = KEEP if s.throws < 3 else CARD


def _chance_die_label(s: MinopolyState, player: int, action: int) -> str | None:
    if player == CHANCE and 0 <= action < DICE:
        return f"drew and threw {die_name(action)}"
    return None


# §4.2 after a throw: hold dice (one at a time, in order), throw the others again, or stop.
def _hold_candidates(s: MinopolyState) -> list[int]:
    out = []
    prev = -2
    for k, (d, h) in enumerate(zip(s.dice, s.held)):
        if k <= s.last_hold or h:
            continue
        if prev >= 0 and s.dice[prev] == d:  # an identical free die before it is held first
            continue
        out.append(k)
        prev = k
    return out


def _keep_legal(s: MinopolyState, player: int) -> list[int]:
    out = [HOLD0 + k for k in _hold_candidates(s)]
    if not all(s.held):
        out.append(ROLL)
    out.append(STOP)
    return out


def _keep(s: MinopolyState, action: int) -> None:
    if action == STOP:
        s.phase = CARD
    elif action == ROLL:
        s.rerolling = tuple(k for k, h in enumerate(s.held) if not h)
        s.phase = REROLL
    else:
        k = action - HOLD0
        s.held[k] = True
        s.last_hold = k


def _explain_keep(s: MinopolyState, player: int, action: int) -> str | None:
    seg = ACTIONS.decode(action)[0]
    if seg == "hold":
        return said("hold dice in order from the left; a die already held stays held until the next throw", "4.2")
    if seg == "roll":
        return said("every die is held: use these dice", "4.2")
    return said("hold dice, throw the others again, or use these dice", "4.2")


def _reroll_outcomes(s: MinopolyState) -> list[tuple[int, float]]:
    return [(f, 1 / FACES) for f in range(FACES)]


def _reroll(s: MinopolyState, face: int) -> None:
    k = s.rerolling[0]
    s.dice[k] = colour_of(s.dice[k]) * FACES + face
    s.rerolling = s.rerolling[1:]
    if not s.rerolling:
        _thrown(s)


def _reroll_label(s: MinopolyState, player: int, action: int) -> str | None:
    if player == CHANCE and 0 <= action < FACES and s.rerolling:
        colour = COLOURS[colour_of(s.dice[s.rerolling[0]])]
        return f"threw the {colour} die again: {action + 1}"
    return None


# §5.1 play one of your cards that fits.
def _card_legal(s: MinopolyState, player: int) -> list[int]:
    return sorted(CARD0 + c for c in s.hands[player] if s.can_place(c))


def _choose_card(s: MinopolyState, action: int) -> None:
    s.card = action - CARD0
    s.phase = PUT


def _explain_card(s: MinopolyState, player: int, action: int) -> str | None:
    if ACTIONS.decode(action)[0] != "card":
        return said("choose the card to play", "5.1")
    c = action - CARD0
    if c not in s.hands[player]:
        return said(f"the {CARD_NAMES[c]} card is not one of yours", "5.1")
    return said(f"the {CARD_NAMES[c]} shape fits nowhere on the empty cells", "5.2")


# §5.2 put the dice on the cells of one placement of the card, one die at a time, cells in reading order.
def _next_cells(s: MinopolyState) -> list[int]:
    filled = s.filled
    return sorted({c for c, m in PREFIXES[s.card].get(tuple(s.placed), ()) if not m & filled})


def _put_legal(s: MinopolyState, player: int) -> list[int]:
    free = []
    for k, d in enumerate(s.dice):
        if k in s.slots_used or any(s.dice[j] == d and j not in s.slots_used for j in range(k)):
            continue
        free.append(k)
    cells = _next_cells(s)
    return sorted(PUT0 + k * CELLS + c for k in free for c in cells)


def _put(s: MinopolyState, action: int) -> None:
    k, cell = divmod(action - PUT0, CELLS)
    s.board[cell] = s.dice[k]
    s.filled |= 1 << cell
    s.placed.append(cell)
    s.slots_used.append(k)
    if len(s.placed) == 4:  # §5.3: the card becomes the spare; the old spare joins the player's hand
        p = s.to_move
        hand = list(s.hands[p])
        hand[hand.index(s.card)] = s.spare
        s.spare = s.card
        s.hands = (tuple(hand), s.hands[1]) if p == 0 else (s.hands[0], tuple(hand))
        s.last_cells = tuple(s.placed)
        s._end_turn()


def _explain_put(s: MinopolyState, player: int, action: int) -> str | None:
    if ACTIONS.decode(action)[0] != "put":
        return said(f"place the four dice as the {CARD_NAMES[s.card]} shape", "5.2")
    k, cell = ACTIONS.decode(action)[1]
    if k in s.slots_used:
        return said("that die is already on the board", "5.2")
    if s.board[cell] >= 0:
        return said(f"{CELL_NAMES[cell]} already holds a die", "5.2")
    return said(
        f"the {CARD_NAMES[s.card]} shape cannot cover {CELL_NAMES[cell]} with the cells already filled this "
        "turn, fully on the board and on empty cells; cells are filled in reading order",
        "5.2",
    )


# -- prompts ---------------------------------------------------------------------------------------


def _waiting(obs: dict[str, Any]) -> str:
    cp = obs["to_move"]
    return f"{SEATS[cp]} to move." if cp in (0, 1) else "Waiting."


def _prompt(text: str) -> Any:
    return lambda game, obs, legal: text if legal else _waiting(obs)


def _keep_prompt(game: MinopolyGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    if not legal:
        return _waiting(obs)
    return f"Throw {obs['throws']} of 3: hold dice and throw the others again, or use these dice."


def _over_prompt(game: MinopolyGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    a, b = obs["totals"]
    if a == b:
        return f"The game is over: a draw at {a} points each."
    w = 0 if a > b else 1
    return f"The game is over: {SEATS[w]} wins, {max(a, b)} points to {min(a, b)}."


PHASES = phase_table(
    Phase(
        DEALER,
        CHANCE,
        outcomes=lambda s: [(0, 0.5), (1, 0.5)],
        apply=_dealer,
        label=lambda s, p, a: f"{SEATS[a]} deals" if p == CHANCE and a in (0, 1) else None,
        prompt=lambda game, obs, legal: "Choosing the dealer.",
    ),
    Phase(
        DEAL,
        CHANCE,
        outcomes=_deal_outcomes,
        apply=_deal,
        label=_deal_label,
        prompt=lambda game, obs, legal: "Dealing the cards.",
    ),
    Phase(
        START,
        _to_move,
        legal=_start_legal,
        apply=_start,
        explain=_explain_start,
        prompt=lambda game, obs, legal: (
            "Draw four dice from the bag."
            if legal and legal[0][0] == DRAW_DICE
            else "Neither of your cards fits on the board: you must pass."
            if legal
            else _waiting(obs)
        ),
    ),
    Phase(
        DRAW,
        CHANCE,
        outcomes=_draw_outcomes,
        apply=_draw,
        label=_chance_die_label,
        prompt=lambda game, obs, legal: f"{SEATS[obs['to_move'] if obs['to_move'] in (0, 1) else 0]} draws four dice.",
    ),
    Phase(KEEP, _to_move, legal=_keep_legal, apply=_keep, explain=_explain_keep, prompt=_keep_prompt),
    Phase(
        REROLL,
        CHANCE,
        outcomes=_reroll_outcomes,
        apply=_reroll,
        label=_reroll_label,
        prompt=lambda game, obs, legal: "Throwing again.",
    ),
    Phase(
        CARD,
        _to_move,
        legal=_card_legal,
        apply=_choose_card,
        explain=_explain_card,
        prompt=_prompt("Choose the card to play."),
    ),
    Phase(
        PUT,
        _to_move,
        legal=_put_legal,
        apply=_put,
        explain=_explain_put,
        prompt=_prompt("Put a die on a cell of the shape (cells in reading order: a1, b1, ... e5)."),
    ),
    Phase(OVER, TERMINAL, prompt=_over_prompt),
)
MinopolyState.phases = PHASES


# -- the scene ---------------------------------------------------------------------------------


def _card_item(id: str, card: int, owner: int | None = None, detail: str | None = None) -> dict[str, Any]:
    return sc.item(
        id, f"{CARD_NAMES[card]} card", "card", value=CARD_NAMES[card], picture=PICTURES[card], detail=detail
    )


@MinopolyGame.draws_scene
def _scene(game: MinopolyGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    phase = obs["phase"]
    s = sc.new_scene(PHASES[phase].prompt(game, obs, legal), (0, 0, 1, 1))  # type: ignore[misc]
    viewer = obs["viewer"]
    board = obs["board"]
    # §1: the city is a board of 5 x 5 lots, row 5 (North's side) at the top; a die on a lot is a building,
    # drawn as the die itself (its colour, its pips), with its name (and height) as its tooltip
    s["viewbox"] = [-0.15, -0.5, SIZE + 0.3, SIZE + 0.95]
    s["cells"] = CITY.scene_cells(ids=CITY_IDS, fill=lambda j: "light")
    for i in range(CELLS):
        if board[i] >= 0:
            d = board[i]
            name = f"{die_name(d)} on {CELL_NAMES[i]}: a building {face_of(d)} high"
            s["pieces"].append(die_piece(f"c{i}", d, name, kind="building"))
        if i in obs["last_cells"] or i in obs["placed"]:
            s["highlights"].append({"at": f"c{i}", "kind": "last"})
    s["captions"] = [
        sc.caption((SIZE / 2, -0.27), f"{SEATS[1]}'s side", size=0.24),
        sc.caption((SIZE / 2, SIZE + 0.26), f"{SEATS[0]}'s side", size=0.24),
    ]
    dice = []
    for k, d in enumerate(obs["dice"]):
        if k in obs["slots_used"]:
            continue
        held = obs["held"][k]
        dice.append(die_item(f"d{k}", d, "held" if held else None))
        if held:
            s["highlights"].append({"at": f"d{k}", "kind": "selected"})
    cp = obs["to_move"]
    if obs["dice"]:
        thrower = f"{SEATS[cp]}'s" if cp in (0, 1) else "The"
        s["zones"].append(
            sc.zone("throw", f"{thrower} throw ({obs['throws']} of 3)", dice, owner=cp if cp in (0, 1) else None)
        )
    for k in (0, 1):
        items = [_card_item(f"card{c}", c) for c in obs["hands"][k]]
        title = "Your cards" if k == viewer else f"{SEATS[k]}'s cards"
        s["zones"].append(sc.zone(f"cards{k}", title, items, owner=k))
    if obs["spare"] >= 0:
        s["zones"].append(sc.zone("spare", "Spare card", [_card_item(f"card{obs['spare']}", obs["spare"])]))
    if obs["card"] >= 0:
        s["highlights"].append({"at": f"card{obs['card']}", "kind": "selected"})
    for a, label in legal:
        seg, idx = ACTIONS.decode(a)
        if seg == "hold":
            s["targets"].append({"at": f"d{idx[0]}", "action": a, "label": label})
        elif seg == "card":
            s["targets"].append({"at": f"card{idx[0]}", "action": a, "label": label})
        elif seg == "put":
            s["targets"].append({"at": f"c{idx[1]}", "action": a, "label": label})
    bag = obs["bag"]
    s["status"] = [f"Round {min(obs['round'], ROUNDS)} of {ROUNDS}", f"Bag: {sum(bag)} dice"]
    s["status"] += [f"{SEATS[k]}: {obs['totals'][k]} points" for k in (0, 1)]
    if obs["scores"]:
        last = obs["scores"][-1]
        s["status"].append(
            "Last round: " + ", ".join(f"{SEATS[k]} saw {last[k][0]} + bonus {last[k][1]}" for k in (0, 1))
        )
    s["players"] = [
        sc.player(k, SEATS[k] + (" (you)" if k == viewer else ""), "to move" if cp == k else None) for k in (0, 1)
    ]
    return sc.finish_scene(s, legal)


MinopolyGame.state_class = MinopolyState
PHASE_NAMES = tuple(PHASES)
#: Dice in a throw; the most bonus points one board gives a seat (10 and 5 in every column).
SLOTS = 4
MAX_BONUS = 15 * SIZE

GAME_CLASS = MinopolyGame
