"""New Rule (author unknown): a cooperative game of pennies compressed and dispersed on a chessboard.

Rules: ``docs/rules/new-rule.md``; clause numbers are cited as ``§n``.

Every seat plays for the same team (§7). A turn is a sequence of small
decisions: the seat chooses a square (§4a), then for every penny that leaves
it the coin is flipped (a chance node, §4b) and the seat chooses one of the
four directions the coin allows (§4c). Settling between rounds (§5) works the
same way, decided by the round's settler.

Actions (the :class:`~boardlab.core.actions.ActionSpace` ``ACTIONS``):

* segment ``square`` (``0 … 63``): a square, row-major from the top-left as
  drawn (``a8`` is 0, ``h1`` is 63), labelled like chess squares;
* segment ``direction`` (``64 … 71``): a direction, clockwise from north:
  ``N NE E SE S SW W NW`` (even: orthogonal, odd: diagonal);
* chance outcomes (``COIN``): ``0`` heads and ``1`` tails.

The state is incremental: ``counts`` per square, ``multi`` (squares holding 2+
pennies) and the pool are updated move by move; rays from every square in
every direction are precomputed, so a move is a table look-up.
"""

from __future__ import annotations

from typing import Any

from ..core import scene as sc
from ..core import wording
from ..core.actions import ActionSpace, Segment
from ..core.constants import CHANCE, TERMINAL
from ..core.game import Game, State
from ..core.gametype import Chance, GameType, Utility
from ..core.hidden import Seen
from ..core.options import Option
from ..core.tensor import Tensor
from ..core.wording import said
from ..geometry.squaregrid import SquareGrid

SIZE = 8
SQUARES = SIZE * SIZE
PENNIES = 100
SETUP_PENNIES = 8
MAX_ROUNDS = 25
SETTLE_AT = 4  # §5: squares with this many pennies or more are settled
BLOB_MIN = 5  # §6a: the blob needs at least this many stacks
BLOCK = 3  # §6a: the goal is a 3×3 block
LOSS_MULTI = 4  # §6b-ii: at most this many stacks loses
HEAVY_MIN = 20  # §6a (win=heavy): the blob's 3×3 block must hold at least this many pennies

DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
DIRECTION_STEPS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))  # (dx, dy), y down
GRID = SquareGrid(SIZE, SIZE)
LABELS = GRID.labels()
ACTIONS = ActionSpace(
    Segment("square", (("square", LABELS),), "{square}"),
    Segment("direction", (("direction", DIRECTION_NAMES),), "{direction}"),
)
DIR0 = ACTIONS.offset("direction")  # action of the first direction
NUM_ACTIONS = ACTIONS.size
COIN = ActionSpace(Segment("coin", (("face", ("heads", "tails")),), "{face}"))
HEADS, TAILS = COIN.encode("coin", 0), COIN.encode("coin", 1)
ORTHOGONAL_ACTIONS = [DIR0 + k for k in range(0, 8, 2)]
DIAGONAL_ACTIONS = [DIR0 + k for k in range(1, 8, 2)]

# Phases of the state machine.
SETUP_FLIP, SETUP_PLACE, CHOOSE_SQUARE, FLIP, DIRECTION, SETTLE_CHOOSE, OVER = range(7)
PHASE_NAMES = ("setup-flip", "setup-place", "choose-square", "flip", "direction", "settle-choose", "over")

COORDS = tuple(GRID.coords(i) for i in range(SQUARES))
DARK = tuple(GRID.is_dark(i) for i in range(SQUARES))
DARK_SQUARES = [i for i in range(SQUARES) if DARK[i]]
LIGHT_SQUARES = [i for i in range(SQUARES) if not DARK[i]]
ALL_SQUARES = list(range(SQUARES))
#: ``RAYS[s][k]``: the squares 1, 2, … steps from ``s`` in direction ``k`` until the edge.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            GRID.index(COORDS[s][0] + dx * d, COORDS[s][1] + dy * d)
            for d in range(1, SIZE)
            if GRID.inside(COORDS[s][0] + dx * d, COORDS[s][1] + dy * d)
        )
        for dx, dy in DIRECTION_STEPS
    )
    for s in range(SQUARES)
)
#: The 36 blocks of 3×3 squares the blob may lie in (§6a), each as its nine squares.
BLOCKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(GRID.index(c0 + dc, r0 + dr) for dr in range(BLOCK) for dc in range(BLOCK))
    for r0 in range(SIZE - BLOCK + 1)
    for c0 in range(SIZE - BLOCK + 1)
)


def destination(square: int, direction: int, distance: int) -> int:
    """The square ``distance`` steps from ``square`` along direction ``direction`` (0-7), or -1 off the board."""
    ray = RAYS[square][direction]
    return ray[distance - 1] if distance <= len(ray) else -1


def spread(squares: list[int]) -> tuple[int, int, int, int]:
    """``(min col, min row, max col, max row)`` of a non-empty list of squares."""
    cols = [COORDS[s][0] for s in squares]
    rows = [COORDS[s][1] for s in squares]
    return min(cols), min(rows), max(cols), max(rows)


def block_text(box: tuple[int, int, int, int]) -> str:
    """The corner labels of a box, e.g. ``a1-c3``."""
    c0, r0, c1, r1 = box
    return f"{LABELS[GRID.index(c0, r1)]}-{LABELS[GRID.index(c1, r0)]}"


class NewRuleGame(Game):
    id = "new-rule"
    title = "New Rule"
    summary = "Cooperative: compress squares of pennies so they disperse by coin flips, and gather a 3×3 blob in time."
    min_players = 1
    max_players = 4
    default_players = 1
    options = (
        Option.choice(
            "win",
            {
                "blob": "Blob: 2+ pennies all in one 3×3 block",
                "full": "Full: exactly the nine squares of a block",
                "literal": "Literal: every penny in a block (never happens)",
                "heavy": "Heavy: a blob with 20+ pennies",
            },
            said(
                "Blob: every square with 2+ pennies lies in one 3×3 block, at least 5 of them; "
                "full: the squares with 2+ pennies are exactly the nine squares of one 3×3 block; "
                "heavy: a blob whose 3×3 block also holds at least 20 pennies, more than setup can bring; "
                "literal: all pennies on the board in a 3×3 block, which can never happen.",
                "6a",
            ),
        ),
        Option.flag(
            "settle_dynamic",
            False,
            said("Settling also disperses squares that reach 4+ pennies during the settling itself.", "5d"),
        ),
        Option.flag(
            "win_before_loss",
            True,
            said("When the win and a loss condition hold at the same check, the players win.", "6c"),
        ),
    )
    mechanics = ("chance (coin flips)", "square board", "multi-step turns")
    game_type = GameType(chance=Chance.EXPLICIT, utility=Utility.IDENTICAL)
    action_space = ACTIONS  # the same for every option setting
    playing_time = "20 min"
    #: The AI's playouts stop after 8 steps and score the position with ``evaluate``: random play nearly always
    #: scatters the stacks and loses, so playouts to the end tell the search almost nothing (docs/ai/new-rule.md).
    rollout_depth = 8
    inventions = (
        "The default win (option win=blob): every square holding 2+ pennies lies in one 3×3 block and there are at "
        "least 5 such squares. The text's own goal (all pennies in a 3×3 block) can never be met, because no square "
        "is ever emptied; it is kept as win=literal. The stricter option win=full (the stacks fill one 3×3 block "
        "exactly) is our reading too. So is win=heavy (a blob whose block also holds at least 20 pennies), which "
        "the lab proposed so that a planned setup no longer wins on the first turn.",
        "Who decides during settling: one seat per round, the settler, rotating with the round (the first seat "
        "settles round 1, the second round 2, …).",
        "The player count is capped at 4 (the text says 1+).",
        "Win and loss are checked only after a whole turn and after a whole settling, never during setup.",
    )
    num_chance_outcomes = COIN.size
    # Setup (2 entries per penny); at most 28 turns (the pool, PENNIES - SQUARES - SETUP_PENNIES), each at most
    # one square choice and a flip and a direction per penny on the board; at most 25 settlings of at most 64
    # squares (3 entries each).
    max_length = 2 * SETUP_PENNIES + (PENNIES - SQUARES - SETUP_PENNIES) * (1 + 2 * PENNIES) + MAX_ROUNDS * SQUARES * 3


class NewRuleState(State):
    game: NewRuleGame
    copied = ("counts", "pending", "settled")

    def __init__(self, game: NewRuleGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.counts = [1] * SQUARES  # §2a
        self.pool = PENNIES - SQUARES  # §2b
        self.removed = 0
        self.multi = 0  # squares holding 2+ pennies
        self.phase = SETUP_FLIP
        self.to_move = 0
        self.placed = 0  # setup pennies placed (§2c)
        self.coin = -1  # the coin showing now (HEADS / TAILS), -1 before any flip
        self.round = 1
        self.turns = 0
        self.seat_in_round = 0
        self.settling = False
        self.settler = 0
        self.active = -1  # square being compressed or settled
        self.pending: list[int] = []  # §5: squares still to settle this round
        self.settled: list[int] = []  # squares settled this round (for settle_dynamic)
        self.outcome = 0  # 1 win, -1 loss
        self.reason = ""
        self.last_from = -1
        self.last_to = -1  # -1 with last_from set: the penny left the board
        self.last_dir = -1

    # -- turn order and result (§3, §7) -------------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase in (SETUP_FLIP, FLIP):
            return CHANCE
        if phase == OVER:
            return TERMINAL
        return self.to_move

    def returns(self) -> list[float]:
        return [float(self.outcome)] * self.num_players

    # -- legal moves (§2c, §4, §5) ---------------------------------------------
    def _legal_actions(self, player: int) -> list[int]:
        phase = self.phase
        if phase == CHOOSE_SQUARE:
            return ALL_SQUARES[:]
        if phase == DIRECTION:
            return (ORTHOGONAL_ACTIONS if self.coin == HEADS else DIAGONAL_ACTIONS)[:]
        if phase == SETUP_PLACE:
            return (DARK_SQUARES if self.coin == HEADS else LIGHT_SQUARES)[:]
        return sorted(self.pending)  # SETTLE_CHOOSE

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(HEADS, 0.5), (TAILS, 0.5)]

    def _is_legal(self, player: int, action: int) -> bool:
        phase = self.phase
        if phase == CHOOSE_SQUARE:
            return 0 <= action < SQUARES
        if phase == DIRECTION:
            return DIR0 <= action < NUM_ACTIONS and (action - DIR0) % 2 == self.coin
        if phase == SETUP_PLACE:
            return 0 <= action < SQUARES and DARK[action] == (self.coin == HEADS)
        return action in self.pending

    def _explain(self, player: int, action: int) -> str | None:
        phase = self.phase
        is_square = 0 <= action < SQUARES
        if phase in (SETUP_PLACE, CHOOSE_SQUARE, SETTLE_CHOOSE) and not is_square:
            return said("choose a square now; directions come after the coin is flipped", "4")
        if phase == DIRECTION and is_square:
            kind = (
                "orthogonal direction (N, E, S or W)" if self.coin == HEADS else "diagonal direction (NE, SE, SW or NW)"
            )
            return said(f"choose an {kind} for the penny leaving {LABELS[self.active]}", "4c")
        if phase == SETUP_PLACE:
            side = "heads: a dark" if self.coin == HEADS else "tails: a light"
            return said(f"the coin showed {side} square must take this penny", "2c")
        if phase == DIRECTION:
            if self.coin == HEADS:
                return said("the coin showed heads: the penny moves orthogonally (N, E, S or W)", "4b")
            return said("the coin showed tails: the penny moves diagonally (NE, SE, SW or NW)", "4b")
        if phase == SETTLE_CHOOSE:
            names = ", ".join(LABELS[s] for s in self.pending)
            return said(f"only squares still waiting to settle may be chosen: {names}", "5a")
        return None

    # -- applying a move ---------------------------------------------------------
    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase in (FLIP, SETUP_FLIP):  # §2c, §4b
            self.coin = action
            self.phase = DIRECTION if phase == FLIP else SETUP_PLACE
        elif phase == DIRECTION:
            self._move(action - DIR0)
        elif phase == CHOOSE_SQUARE:  # §4a
            self.pool -= 1
            self._add(action)
            self.active = action
            self.last_from, self.last_to, self.last_dir = action, action, -1
            self.phase = FLIP  # the square now holds 2 or more: no square is ever empty (§2a)
        elif phase == SETUP_PLACE:  # §2c
            self.pool -= 1
            self._add(action)
            self.last_from, self.last_to, self.last_dir = action, action, -1
            self.placed += 1
            if self.placed == SETUP_PENNIES:
                self.phase = CHOOSE_SQUARE
                self.to_move = 0
            else:
                self.phase = SETUP_FLIP
                self.to_move = self.placed % self.num_players
        else:  # SETTLE_CHOOSE (§5b)
            self.pending.remove(action)
            self._settle(action)

    def _add(self, square: int) -> None:
        c = self.counts[square] + 1
        self.counts[square] = c
        if c == 2:
            self.multi += 1

    def _move(self, direction: int) -> None:
        """Move one penny out of the active square, as far as it holds pennies (§4d, §4e)."""
        s = self.active
        counts = self.counts
        c = counts[s]
        target = destination(s, direction, c)
        counts[s] = c - 1
        if c == 2:
            self.multi -= 1
        if target < 0:
            self.removed += 1
        else:
            self._add(target)
        self.last_from, self.last_to, self.last_dir = s, target, direction
        if self.settling:
            self._next_settle()
        elif c - 1 >= 2:  # §4f
            self.phase = FLIP
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        self.turns += 1
        self.active = -1
        if self._check_end(round_complete=False):
            return
        self.seat_in_round += 1
        if self.seat_in_round < self.num_players:  # §3
            self.to_move = self.seat_in_round
            self.phase = CHOOSE_SQUARE
            return
        # §5: the round's turns are over; settle.
        self.settling = True
        self.settler = (self.round - 1) % self.num_players
        self.to_move = self.settler
        self.settled = []
        self.pending = [s for s in range(SQUARES) if self.counts[s] >= SETTLE_AT]  # §5a snapshot
        self._next_settle()

    def _next_settle(self) -> None:
        if self.game.params["settle_dynamic"]:  # §5d
            done = set(self.settled)
            self.pending = [s for s in range(SQUARES) if self.counts[s] >= SETTLE_AT and s not in done]
        if len(self.pending) > 1:
            self.phase = SETTLE_CHOOSE
            self.active = -1
        elif self.pending:  # §5b: a sole square needs no choice
            self._settle(self.pending.pop())
        else:
            self._end_round()

    def _settle(self, square: int) -> None:
        self.settled.append(square)
        self.active = square
        self.phase = FLIP

    def _end_round(self) -> None:
        self.settling = False
        self.active = -1
        self.pending = []
        if self._check_end(round_complete=True):
            return
        self.round += 1
        self.seat_in_round = 0
        self.to_move = 0
        self.phase = CHOOSE_SQUARE

    # -- the end (§6) ------------------------------------------------------------
    def goal(self) -> tuple[bool, str]:
        """Whether the goal of option ``win`` holds now (§6a), and a short reason."""
        stacks = [s for s in range(SQUARES) if self.counts[s] >= 2]
        rule = self.game.params["win"]
        if rule == "literal":
            box = spread([s for s in range(SQUARES) if self.counts[s] > 0])
            if box[2] - box[0] < BLOCK and box[3] - box[1] < BLOCK:
                return True, f"every penny lies within {block_text(box)}"
            return False, "pennies lie outside any 3×3 block (every square keeps one)"
        if not stacks:
            return False, "no square holds 2+ pennies"
        box = spread(stacks)
        w, h = box[2] - box[0] + 1, box[3] - box[1] + 1
        n = len(stacks)
        if w > BLOCK or h > BLOCK:
            return False, f"the {n} stacks span {w}×{h} squares"
        if rule == "full":
            if n == BLOCK * BLOCK:
                return True, f"the stacks fill {block_text(box)}"
            return False, f"{n} of the 9 squares of a 3×3 block are stacks"
        if n < BLOB_MIN:
            return False, f"only {n} squares hold 2+ pennies ({BLOB_MIN} needed)"
        if rule == "heavy":
            # Every square of the board holds a penny (§2a, never emptied), so any 3×3 block around the stacks
            # holds their pennies and one penny on each of its other squares.
            weight = sum(self.counts[q] for q in stacks) + BLOCK * BLOCK - n
            if weight < HEAVY_MIN:
                return (
                    False,
                    f"the {n} stacks in {block_text(box)} hold {weight} pennies with their block ({HEAVY_MIN} needed)",
                )
            return True, f"all {n} stacks lie within {block_text(box)}, holding {weight} pennies with their block"
        return True, f"all {n} stacks lie within {block_text(box)}"

    def evaluate(self, seat: int) -> float | None:
        """How near the team is to its goal (option ``win``, §6a), for the search's cut-off playouts.

        The best 3×3 block's share of the stacks the goal needs inside it (5 for ``blob`` and ``heavy``, 9 for
        ``full``; for ``heavy`` also its share of the 20 pennies), divided by one more than the stacks outside
        it, on the scale of the result: -0.9 (nothing gathered) to +0.9 (the goal held; a finished game is
        scored by its result). ``literal`` can never be won, so every position scores as the loss.
        """
        if self.phase == OVER:
            return float(self.outcome)
        rule = self.game.params["win"]
        if rule == "literal":
            return -1.0
        counts = self.counts
        need = BLOCK * BLOCK if rule == "full" else BLOB_MIN
        stacks = self.multi
        best = 0.0
        for block in BLOCKS:
            inside = 0
            weight = 0
            for q in block:
                c = counts[q]
                weight += c
                if c >= 2:
                    inside += 1
            share = min(inside, need) / need
            if rule == "heavy":
                share *= min(weight, HEAVY_MIN) / HEAVY_MIN
            value = share / (1 + stacks - inside)
            if value > best:
                best = value
        return 0.9 * (2 * best - 1)

    def losses(self, round_complete: bool) -> list[str]:
        """The loss conditions that hold now (§6b)."""
        out = []
        if self.pool == 0:
            out.append(said("the pool is empty", "6b-i"))
        if self.multi <= LOSS_MULTI:
            out.append(said(f"only {self.multi} squares hold more than one penny", "6b-ii"))
        if round_complete and self.round >= MAX_ROUNDS:
            out.append(said(f"{MAX_ROUNDS} rounds have been played", "6b-iii"))
        return out

    def _check_end(self, round_complete: bool) -> bool:
        params = self.game.params
        won, why = self.goal()
        lost = self.losses(round_complete)
        if won and (params["win_before_loss"] or not lost):  # §6c
            self.outcome = 1
            self.reason = said(f"the blob is complete: {why}", "6a")
        elif lost:
            self.outcome = -1
            self.reason = "; ".join(lost)
        else:
            return False
        self.phase = OVER
        self.to_move = TERMINAL
        return True

    def _recount(self) -> None:
        """Recompute ``multi`` from ``counts`` (for tests that build positions directly)."""
        self.multi = sum(1 for c in self.counts if c >= 2)

    # -- the log in words --------------------------------------------------------
    def _seen(self, actor: int, entry: int | tuple[int | None, ...]) -> Seen | tuple[Seen | None, ...]:
        """The step in words (§2c, §4, §5): the coin's face and what it allows, a penny placed or added, a penny
        moved and where it lands, a square settled; the notation (``a7``, ``NE``, ``heads``) stays the labels."""
        if not isinstance(entry, int):
            return super()._seen(actor, entry)
        phase = self.phase
        if actor == CHANCE:
            face = "heads" if entry == HEADS else "tails"
            if phase == SETUP_FLIP:
                return Seen(
                    f"The coin shows {face}: the next penny goes on a {'dark' if entry == HEADS else 'light'} square"
                )
            move = "orthogonally" if entry == HEADS else "diagonally"
            return Seen(f"The coin shows {face}: the penny moves {move}")
        if phase == DIRECTION:
            k = entry - DIR0
            c = self.counts[self.active]
            target = destination(self.active, k, c)
            where = f"to {LABELS[target]}" if target >= 0 else "off the board"
            way = ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")[k]
            return Seen(f"moves a penny {c} square{'s' if c != 1 else ''} {way} from {LABELS[self.active]}, {where}")
        if phase == SETTLE_CHOOSE:
            return Seen(f"settles the stack on {LABELS[entry]} next")
        if phase == SETUP_PLACE:
            return Seen(f"places a penny on {LABELS[entry]}")
        return Seen(f"adds a penny from the pool to {LABELS[entry]}")

    # -- notation and views ------------------------------------------------------
    def _action_to_string(self, player: int, action: int) -> str:
        if player != CHANCE:
            return super()._action_to_string(player, action)  # the square or the direction (ACTIONS)
        if action not in COIN:
            return str(action)
        face = COIN.label(action)
        if self.phase == SETUP_FLIP:
            return f"{face} ({'dark' if action == HEADS else 'light'})"
        if self.phase == FLIP:
            return f"{face} ({'orthogonal' if action == HEADS else 'diagonal'})"
        return face

    def observation(self, player: int | None = None) -> dict[str, Any]:
        goal, goal_text = self.goal()
        distance = self.counts[self.active] if self.active >= 0 and self.phase in (FLIP, DIRECTION) else 0
        return {
            "num_players": self.num_players,
            "win_rule": self.game.params["win"],
            "counts": self.counts[:],
            "pool": self.pool,
            "removed": self.removed,
            "multi": self.multi,
            "goal": goal,
            "goal_text": goal_text,
            "phase": PHASE_NAMES[self.phase],
            "to_move": self.current_player(),
            "round": self.round,
            "max_rounds": MAX_ROUNDS,
            "turns": self.turns,
            "setup_placed": self.placed,
            "coin": ("heads", "tails")[self.coin] if self.coin >= 0 else None,
            "settling": self.settling,
            "settler": self.settler,
            "active": LABELS[self.active] if self.active >= 0 else None,
            "distance": distance,
            "pending": [LABELS[s] for s in self.pending],
            "last_from": LABELS[self.last_from] if self.last_from >= 0 else None,
            "last_to": LABELS[self.last_to] if self.last_to >= 0 else None,
            "last_dir": DIRECTION_NAMES[self.last_dir] if self.last_dir >= 0 else None,
            "outcome": self.outcome,
            "reason": self.reason,
        }

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The pennies per square (as planes of at least 2, 3 and 4, and the count), the pool, the turn in
        progress and the settling; seats are counted from the viewer (a spectator: from seat 0)."""
        me = 0 if player is None else player
        n = self.num_players
        counts = self.counts
        for k in (2, 3, SETTLE_AT):
            t.bits(f"at_least_{k}", [c >= k for c in counts])
        t.counts("pennies", counts, PENNIES - SQUARES)
        t.counts("pool", [self.pool], PENNIES - SQUARES)
        t.counts("removed", [self.removed], PENNIES)
        t.one_hot("phase", self.phase, len(PHASE_NAMES))
        seat = self.current_player()
        t.one_hot("to_move", (seat - me) % n if seat >= 0 else None, n)
        t.counts("round", [self.round], MAX_ROUNDS)
        t.counts("turns", [self.turns], PENNIES - SQUARES)
        t.counts("setup_placed", [self.placed], SETUP_PENNIES)
        t.one_hot("coin", self.coin if self.coin >= 0 else None, 2)
        t.bits("settling", [self.settling])
        t.one_hot("settler", (self.settler - me) % n if self.settling else None, n)
        t.one_hot("active", self.active if self.active >= 0 else None, SQUARES)
        pending, settled = set(self.pending), set(self.settled)
        t.bits("pending", [s in pending for s in range(SQUARES)])
        t.bits("settled", [s in settled for s in range(SQUARES)])
        t.one_hot("outcome", {1: 0, -1: 1}.get(self.outcome), 2)  # win, loss


# -- the scene -------------------------------------------------------------------
_CELLS = GRID.scene_cells(fill=GRID.chess_fill)
_INDEX = {label: i for i, label in enumerate(LABELS)}


def _prompt(obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    phase = obs["phase"]
    if phase == "over":
        return ("You win: " if obs["outcome"] > 0 else "You lose: ") + obs["reason"] + "."
    coin = obs["coin"] or ""
    d = obs["distance"]
    k = obs["setup_placed"] + 1
    if phase == "setup-flip":
        return (
            f"Setup: the coin is flipped for penny {k} of {SETUP_PENNIES} (heads: a dark square, tails: a light one)."
        )
    if phase == "flip":
        return f"The coin is flipped for the penny leaving {obs['active']}: heads moves it {d} squares orthogonally, tails diagonally."
    who = wording.seat(obs["to_move"])
    mine = bool(legal)
    if phase == "setup-place":
        colour = "dark" if coin == "heads" else "light"
        if mine:
            return f"{coin.capitalize()}: place penny {k} of {SETUP_PENNIES} on any {colour} square."
        return f"{who} places setup penny {k} of {SETUP_PENNIES} on a {colour} square."
    if phase == "direction":
        how = "orthogonally" if coin == "heads" else "diagonally"
        when = "Settling, " if obs["settling"] else ""
        if mine:
            text = f"{when}{coin}: move a penny {d} squares {how} from {obs['active']} — choose a direction."
        else:
            text = f"{when}{who} chooses the direction for a penny leaving {obs['active']} ({d} squares {how})."
        return text[0].upper() + text[1:]
    if phase == "settle-choose":
        if mine:
            return "Settling: choose the next square with 4+ pennies to disperse one penny from."
        return f"Settling: {who} chooses the next square to disperse."
    if mine:
        return f"Round {obs['round']}: choose a square to compress (a penny from the pool goes on it)."
    return f"Round {obs['round']}: {who} chooses a square to compress."


@NewRuleGame.draws_scene
def _scene(game: NewRuleGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    s = sc.new_scene(_prompt(obs, legal), (-0.5, -0.5, SIZE + 1, SIZE + 1))
    s["cells"] = [dict(c) for c in _CELLS]
    for i, c in enumerate(obs["counts"]):
        if c:
            s["pieces"].append(sc.piece(LABELS[i], None, "penny", label=str(c), height=c))
    s["zones"].append(sc.zone("pool", "Pool", [sc.item("pool-pennies", f"{obs['pool']} pennies", "counter")]))
    s["zones"].append(sc.zone("out", "Out of play", [sc.item("out-pennies", f"{obs['removed']} pennies", "counter")]))
    if obs["coin"] is not None:
        s["zones"].append(sc.zone("coin", "Coin", [sc.item("coin-face", obs["coin"], "coin")]))
    if obs["last_from"] is not None:
        s["highlights"].append({"at": obs["last_from"], "kind": "last"})
        if obs["last_to"] is not None and obs["last_to"] != obs["last_from"]:
            s["highlights"].append({"at": obs["last_to"], "kind": "last"})
    if obs["active"] is not None:
        s["highlights"].append({"at": obs["active"], "kind": "selected"})
    for label in obs["pending"]:
        s["highlights"].append({"at": label, "kind": "hint"})
    if obs["phase"] == "direction":
        src = _INDEX[obs["active"]]
        for a, label in legal:
            target = destination(src, a - DIR0, obs["distance"])
            if target >= 0:
                s["targets"].append({"at": LABELS[target], "action": a, "label": f"{label} to {LABELS[target]}"})
            else:
                s["buttons"].append({"action": a, "label": f"{label} (off the board)"})
    else:
        for a, label in legal:
            if 0 <= a < SQUARES:
                s["targets"].append({"at": LABELS[a], "action": a, "label": label})
    met = "yes" if obs["goal"] else "no"
    goal = f"Goal ({obs['win_rule']}): {met}, {obs['goal_text']}"
    s["status"] = [
        f"Round {obs['round']} of {obs['max_rounds']}",
        f"Pool: {obs['pool']} pennies",
        f"Squares with 2+ pennies: {obs['multi']}",
        goal,
        f"Out of play: {obs['removed']}",
    ]
    for k in range(obs["num_players"]):
        detail = "settles this round" if obs["settling"] and k == obs["settler"] else None
        s["players"].append(sc.player(k, f"seat {k}", detail))
    return sc.finish_scene(s, legal)


NewRuleGame.state_class = NewRuleState
GAME_CLASS = NewRuleGame
