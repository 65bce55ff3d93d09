"""Hamlet: seven role cards, three rounds, and the sole survivor decides who wins.

Rules: ``docs/rules/hamlet.md``; clause numbers are cited as ``§n``.

Cards are numbered 0-6 in the order of :data:`CARDS`. Seat actions are
``0 lock``, ``1 trade``, ``2 draw`` (§4b, §4c; :data:`ACTIONS`). Chance actions
are a card number (a deal or a draw, §4a, §7) or, before round 1 when the
option ``first`` is ``random``, the seat that goes first (§3a). The game moves
through the phases of :data:`PHASES` (coin, deal, first, second, draw, over),
named after the round's stage; each round's steps are its own
(:data:`ROUND_STEPS`).

Hidden information (§9) is kept per viewer as an event list inside each round
(seat 0, seat 1, spectator): an event carries a card only for the viewers
allowed to see it. Everything a viewer is shown (its hand, the opponent's card
when a trade told it, the cards it knows to lie in the pool) is computed from
that viewer's events alone, so a view can never contain more than the events
gave it. Each phase says what viewers see of a step (its ``seen``: deals and
draws private to the seat that gets the card, locks and draws public, a trade
both cards to both seats, a reveal public), which the move log is written
from, and the core's default resample redraws from it: the step that ends a
round pins the round (§9f: rounds are independent once their cards are
revealed, the next one starts from what is public) and a trade pins the
round so far for the two seats, so only the round under way is redrawn. (The
game's own resample, which enumerated each round's consistent steps, is gone:
the core's is faster, 1,700-4,600 resamples a second against 1,200-3,000 for
it, 200 calls on each position of ``bench/bench_resample.py hamlet`` as a
search makes them, per viewer.)
"""

from __future__ import annotations

from typing import Any

from ..core import scene as sc
from ..core import wording
from ..core.actions import ActionSpace, Segment
from ..core.constants import CHANCE, TERMINAL
from ..core.game import Game, win_loss
from ..core.gametype import Chance, GameType, Information
from ..core.hidden import Seen
from ..core.options import Option
from ..core.phases import Phase, PhasedState, phase_table
from ..core.tensor import Tensor
from ..core.wording import said

#: The seven roles (§1), by card number.
CARDS = ("Claudius", "Gertrude", "Hamlet", "Laertes", "Ophelia", "Polonius", "Rosencrantz & Guildenstern")
TITLES = (
    "King Claudius",
    "Queen Gertrude",
    "Prince Hamlet",
    "Knight Laertes",
    "Maiden Ophelia",
    "Advisor Polonius",
    "The Fools Rosencrantz and Guildenstern",
)
C, G, H, L, O, P, R = range(7)  # noqa: E741 (the initials of the roles)
#: ``DEFEATS[a]``: the cards that card ``a`` defeats (§2).
DEFEATS: tuple[frozenset[int], ...] = (
    frozenset({G, H, L, O, P}),
    frozenset({H, L, O, R}),
    frozenset({L, P, R}),
    frozenset({O, P, R}),
    frozenset({H, P, R}),
    frozenset({G, R}),
    frozenset({C}),
)
#: §8a: if one of these survives, the player who won more rounds wins; otherwise (§8b) the one who won fewer.
MORE_ROUNDS_WIN = frozenset({C, G, H, L})

# §2a: the relation is a complete tournament, so a round always has exactly one winner.
for _a in range(7):
    for _b in range(_a + 1, 7):
        if (_b in DEFEATS[_a]) == (_a in DEFEATS[_b]):
            raise RuntimeError(said(f"the defeats table must decide {CARDS[_a]} against {CARDS[_b]} one way", "2a"))

LOCK, TRADE, DRAW = 0, 1, 2
ACTION_NAMES = ("lock", "trade", "draw")
#: Seat actions (§4b, §4c): one segment, the move.
ACTIONS = ActionSpace(Segment("move", (("move", ACTION_NAMES),), "{move}"))
ROUNDS = 3

# Stages of a round (who decides: chance, the first player, the second player).
COIN, DEAL_FIRST, DEAL_SECOND, ACT_FIRST, DRAW_FIRST, ACT_SECOND, DRAW_SECOND, DONE = range(8)
STAGE_NAMES = ("coin", "deal", "deal", "first", "draw", "second", "draw", "over")
SPECTATOR = 2  # index of the spectator's event list
POOL = 2  # a location in the knowledge map: in the pool

#: An event as one viewer saw it: (kind, seat, card, card2); -1 where the viewer saw no card.
Event = tuple[str, int, int, int]


def beats(a: int, b: int) -> bool:
    """Whether card ``a`` defeats card ``b`` (§2)."""
    return b in DEFEATS[a]


def _role_detail(c: int) -> str:
    wins = ", ".join(CARDS[d] for d in sorted(DEFEATS[c]))
    losses = ", ".join(CARDS[d] for d in range(7) if c in DEFEATS[d])
    survivor = "more" if c in MORE_ROUNDS_WIN else "fewer"
    defeat, lose = ("defeat", "lose") if c == R else ("defeats", "loses")  # the Fools are two
    return (
        f"{TITLES[c]} {defeat} {wins}; {lose} to {losses}. "
        f"If this card is the sole survivor, the player who won {survivor} rounds wins."
    )


ROLE_DETAILS = tuple(_role_detail(c) for c in range(7))


class _Round:
    """One round (§4): the pool, the two hands, the stage and what each viewer has seen."""

    __slots__ = ("events", "first", "hand", "number", "pool", "remaining", "stage", "steps", "winner")

    def __init__(self, number: int, first: int, remaining: tuple[int, ...]) -> None:
        self.number = number
        self.first = first
        self.remaining = remaining  # the cards in play at the start of the round (public)
        self.pool = list(remaining)  # sorted
        self.hand = [-1, -1]
        self.stage = DEAL_FIRST
        self.events: tuple[list[Event], list[Event], list[Event]] = ([], [], [])
        self.steps: list[int] = []  # this round's history entries, chance outcomes included
        self.winner = -1

    def clone(self) -> _Round:
        r = _Round.__new__(_Round)
        r.number, r.first, r.remaining, r.stage, r.winner = (
            self.number,
            self.first,
            self.remaining,
            self.stage,
            self.winner,
        )
        r.pool = self.pool[:]
        r.hand = self.hand[:]
        r.events = (self.events[0][:], self.events[1][:], self.events[2][:])
        r.steps = self.steps[:]
        return r

    @property
    def second(self) -> int:
        return 1 - self.first

    def actor(self) -> int:
        if self.stage == ACT_FIRST:
            return self.first
        if self.stage == ACT_SECOND:
            return self.second
        return CHANCE

    def outcomes(self, exchange: bool) -> list[int]:
        """The cards chance may give now: a deal (§4a) or a draw (§7a / §7b)."""
        if self.stage in (DEAL_FIRST, DEAL_SECOND):
            return self.pool[:]
        seat = self.first if self.stage == DRAW_FIRST else self.second
        if exchange:
            return self.pool[:]
        return sorted([*self.pool, self.hand[seat]])

    def _tell(self, kind: str, seat: int, card: int = -1, to: int = -1, card2: int = -1) -> None:
        """Record an event; ``card`` is shown only to viewer ``to`` (to everyone if ``to`` is -2)."""
        shown = (kind, seat, card, card2)
        e0, e1, e2 = self.events
        if to == -2:
            e0.append(shown)
            e1.append(shown)
            e2.append(shown)
            return
        masked = (kind, seat, -1, card2)
        e0.append(shown if to == 0 else masked)
        e1.append(shown if to == 1 else masked)
        e2.append(shown if to == SPECTATOR else masked)

    def apply(self, action: int, exchange: bool) -> None:
        """Apply the next step of the round: the stage says which (:data:`ROUND_STEPS`)."""
        self.steps.append(action)
        ROUND_STEPS[self.stage](self, action, exchange)

    def deal(self, card: int, exchange: bool) -> None:
        """§4a: a card from the pool to the first player, then to the second; each sees only its own."""
        seat = self.first if self.stage == DEAL_FIRST else self.second
        self.pool.remove(card)
        self.hand[seat] = card
        self._tell("dealt", seat, card, to=seat)
        self.stage = DEAL_SECOND if self.stage == DEAL_FIRST else ACT_FIRST

    def act_first(self, action: int, exchange: bool) -> None:
        """§4b: the first player locks (§5), trades (§6) or draws (§7)."""
        f, s = self.first, self.second
        if action == LOCK:  # §5
            self._tell("lock", f)
            self.stage = ACT_SECOND
        elif action == TRADE:  # §6
            self.hand[f], self.hand[s] = self.hand[s], self.hand[f]
            # §6b: each side sees the card it receives (and so knows the one it gave).
            self.events[f].append(("trade", f, self.hand[f], f))
            self.events[s].append(("trade", f, self.hand[s], s))
            self.events[SPECTATOR].append(("trade", f, -1, -1))
            self.stage = ACT_SECOND
        else:  # §7
            self._tell("draw", f)
            self.stage = DRAW_FIRST

    def act_second(self, action: int, exchange: bool) -> None:
        """§4c: the second player locks (§5), and the cards are revealed, or draws (§7)."""
        if action == LOCK:  # §5
            self._tell("lock", self.second)
            self._reveal()
        else:  # §7
            self._tell("draw", self.second)
            self.stage = DRAW_SECOND

    def drew(self, card: int, exchange: bool) -> None:
        """§7: the drawer alone sees the new card."""
        st = self.stage
        seat = self.first if st == DRAW_FIRST else self.second
        old = self.hand[seat]
        if exchange:  # §7a: take from the pool as it was, then give back the old card
            self.pool.remove(card)
            self.pool.append(old)
        else:  # §7b: the old card goes in first, so it may come back
            self.pool.append(old)
            self.pool.remove(card)
        self.pool.sort()
        self.hand[seat] = card
        self._tell("drew", seat, card, to=seat)
        if st == DRAW_FIRST:
            self.stage = ACT_SECOND
        else:
            self._reveal()

    def _reveal(self) -> None:
        """§4d: both cards are shown; the card that defeats the other wins the round."""
        f, s = self.first, self.second
        self.winner = f if beats(self.hand[f], self.hand[s]) else s
        self._tell("reveal", self.winner, self.hand[0], to=-2, card2=self.hand[1])
        self.stage = DONE


#: The step of a round at each stage (a finished round takes none).
ROUND_STEPS = {
    DEAL_FIRST: _Round.deal,
    DEAL_SECOND: _Round.deal,
    ACT_FIRST: _Round.act_first,
    ACT_SECOND: _Round.act_second,
    DRAW_FIRST: _Round.drew,
    DRAW_SECOND: _Round.drew,
}


def knowledge(remaining: tuple[int, ...], events: list[Event], exchange: bool) -> dict[int, int]:
    """Where a viewer knows cards to be (seat 0, seat 1 or ``POOL``), from its own events only (§9).

    Cards absent from the map are unknown to the viewer (in the pool or in the
    opponent's hand); cards revealed at the end of the round are dropped. What
    follows by elimination counts as known (§9g).
    """
    loc = {c: POOL for c in remaining}  # §9d: before any deal the pool is the remaining cards
    dealt: set[int] = set()
    for kind, seat, card, card2 in events:
        if kind == "dealt":
            dealt.add(seat)
            if card >= 0:
                loc[card] = seat
            else:  # the opponent took some pool card: pool cards are no longer certain
                for c in [c for c, w in loc.items() if w == POOL]:
                    del loc[c]
        elif kind == "trade":  # §6b
            for c, w in list(loc.items()):
                if w in (0, 1):
                    loc[c] = 1 - w
            if card >= 0:
                loc[card] = card2
        elif kind == "drew":
            old = next((c for c, w in loc.items() if w == seat), -1)
            if card >= 0:  # the viewer drew: it knows what it gave back (§9c)
                if old >= 0 and (exchange or card != old):
                    loc[old] = POOL
                loc[card] = seat
            else:  # someone else drew an unseen card
                for c in [c for c, w in loc.items() if w == POOL]:
                    del loc[c]
                if old >= 0:
                    if exchange:  # §7a: it went back to the pool and cannot have come back
                        loc[old] = POOL
                    else:
                        del loc[old]
        elif kind == "reveal":
            loc.pop(card, None)
            loc.pop(card2, None)
            continue
        _eliminate(loc, remaining, dealt, len(remaining) - len(dealt))
    return loc


def _eliminate(loc: dict[int, int], remaining: tuple[int, ...], dealt: set[int], pool_size: int) -> None:
    """§9g: the cards in play are the two hands and the pool, so counting can place the unknown ones."""
    unknown = [c for c in remaining if c not in loc]
    if not unknown:
        return
    open_hands = dealt - set(loc.values())
    if not open_hands:  # both hands known: everything else is in the pool
        for c in unknown:
            loc[c] = POOL
    elif len(open_hands) == 1 and sum(w == POOL for w in loc.values()) == pool_size:
        (loc[unknown[0]],) = open_hands  # the pool is known: the one hand not known holds the last card


class HamletGame(Game):
    id = "hamlet"
    title = "Hamlet"
    summary = (
        "Lock, trade or draw a hidden role card over three rounds; the one card left at the end decides "
        "whether winning rounds wins the game."
    )
    options = (
        Option.choice(
            "draw",
            {
                "exchange": "Take a pool card, then return yours",
                "discard_then_draw": "Put yours in first (it may come back)",
            },
            said(
                "A draw takes a pool card, then returns yours (never your own back); or yours goes in first and may "
                "come back.",
                "7",
            ),
        ),
        Option.choice(
            "first",
            {"random": "A coin flip", "seat0": "The first seat"},
            said("Who goes first in round 1: a coin flip or the first seat.", "3a"),
        ),
    )
    mechanics = ("cards", "bluffing", "rounds")
    game_type = GameType(chance=Chance.EXPLICIT, information=Information.IMPERFECT)
    playing_time = "5 min"
    inventions = (
        "The rules say 'Player 1' goes first in round 1 without saying who that is: we flip a coin "
        "(option first=seat0 makes it the first seat).",
        "A draw takes a card from the pool before the old card goes back, so it never returns the drawer's own "
        "card (option draw=discard_then_draw puts the old card in first).",
        "Cards are dealt to the round's first player before the second; the order changes nothing.",
        "What each player knows after a trade (both cards) and after a draw is our reading of a physical game.",
    )
    num_chance_outcomes = 7
    # The longest game: a coin, then per round two deals, two moves and two draws.
    max_length = 1 + ROUNDS * 6

    def _setup(self) -> None:
        self.exchange = self.params["draw"] == "exchange"
        self.action_space = ACTIONS


class HamletState(PhasedState):
    game: HamletGame
    copied = ("wins",)

    def __init__(self, game: HamletGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.rounds: list[_Round] = []
        self.coin = -1  # the chance step choosing the first player (§3a), or -1
        self.wins = [0, 0]
        self.winner = -1
        self.survivor = -1
        if game.params["first"] == "seat0":
            self.rounds.append(_Round(1, 0, tuple(range(7))))
        #: The current phase (see :data:`PHASES`), named as the observation's ``stage``.
        self.phase = STAGE_NAMES[self.stage()]

    # -- turn order and result (§4, §8) ------------------------------------
    def returns(self) -> list[float]:
        return win_loss(self.winner)

    def stage(self) -> int:
        if self.winner >= 0:
            return DONE
        return self.rounds[-1].stage if self.rounds else COIN

    def step(self, action: int) -> None:
        """Apply a step of the current round (§4-§7); at its end, score it and start the next (§4d-§4f, §8)."""
        r = self.rounds[-1]
        stage = r.stage
        r.steps.append(action)
        ROUND_STEPS[stage](r, action, self.game.exchange)  # as r.apply, one call less
        if stage == ACT_FIRST and action == TRADE:
            self._mark_irreversible()  # both seats now know both cards (§6b)
        if r.stage == DONE:
            self._mark_irreversible()  # the cards were revealed (§4d)
            self.wins[r.winner] += 1
            left = tuple(c for c in r.remaining if c not in r.hand)  # §4e
            if r.number < ROUNDS:
                self.rounds.append(_Round(r.number + 1, r.winner, left))  # §4f
            else:
                self._finish(left)
                self.phase = "over"
                return
        self.phase = STAGE_NAMES[self.rounds[-1].stage]

    def _finish(self, left: tuple[int, ...]) -> None:
        """§8: the one card left is the sole survivor and decides the winner."""
        (self.survivor,) = left
        more = 0 if self.wins[0] > self.wins[1] else 1
        self.winner = more if self.survivor in MORE_ROUNDS_WIN else 1 - more

    def clone(self) -> HamletState:
        s = super().clone()
        s.rounds = [r.clone() for r in self.rounds]
        return s

    # -- hidden information (§9) ----------------------------------------------
    def _viewer(self, player: int | None) -> int:
        if player is None:
            return SPECTATOR
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < 2:
            raise ValueError(f"no seat {player!r} in Hamlet; seats are 0 and 1 (None: a spectator)")
        return player

    def observation(self, player: int | None = None) -> dict[str, Any]:
        v = self._viewer(player)
        exchange = self.game.exchange
        results = []
        removed: list[str] = []
        events: list[dict[str, Any]] = []
        for r in self.rounds:
            for kind, seat, card, card2 in r.events[v]:
                e: dict[str, Any] = {"round": r.number, "event": kind}
                if kind == "reveal":
                    e["winner"] = seat
                    e["cards"] = [CARDS[card], CARDS[card2]]
                else:
                    e["seat"] = seat
                    if kind in ("dealt", "drew", "trade"):
                        e["card"] = CARDS[card] if card >= 0 else None
                events.append(e)
            if r.stage == DONE:
                results.append(
                    {
                        "round": r.number,
                        "first": r.first,
                        "cards": [CARDS[r.hand[0]], CARDS[r.hand[1]]],
                        "winner": r.winner,
                    }
                )
                removed += [CARDS[r.hand[r.first]], CARDS[r.hand[r.second]]]
        hands: list[str | None] = [None, None]
        pool_known: list[str] = []
        dealt = [False, False]
        actions: list[dict[str, Any]] = []
        cur = self.rounds[-1] if self.rounds else None
        if cur is not None and cur.stage != DONE:
            for c, where in sorted(knowledge(cur.remaining, cur.events[v], exchange).items()):
                if where == POOL:
                    pool_known.append(CARDS[c])
                else:
                    hands[where] = CARDS[c]
            dealt = [cur.hand[0] >= 0, cur.hand[1] >= 0]
            actions = [
                {"seat": seat, "action": kind}
                for kind, seat, _, _ in cur.events[SPECTATOR]
                if kind in ("lock", "trade", "draw")
            ]
        return {
            "viewer": player,
            "round": cur.number if cur is not None else 1,
            "rounds_total": ROUNDS,
            "first": cur.first if cur is not None else None,
            "stage": STAGE_NAMES[self.stage()],
            "to_move": self.current_player(),
            "wins": self.wins[:],
            "hands": hands,
            "dealt": dealt,
            "pool_size": len(cur.pool) if cur is not None else 7,
            "pool_known": pool_known,
            "round_actions": actions,
            "results": results,
            "removed": removed,
            "events": events,
            "survivor": CARDS[self.survivor] if self.survivor >= 0 else None,
            "winner": self.winner if self.winner >= 0 else None,
            "draw_rule": self.game.params["draw"],
        }

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """From the viewer's side (a spectator: seat 0's, knowing no hand): the round, its stage and moves,
        where the viewer knows each card to be (its own events only, §9), and every revealed round."""
        v = self._viewer(player)
        me = 0 if v == SPECTATOR else v

        def rel(seat: int | None) -> int | None:
            return None if seat is None or seat < 0 else (seat - me) % 2

        cur = self.rounds[-1] if self.rounds else None
        live = cur is not None and cur.stage != DONE
        t.one_hot("round", cur.number - 1 if cur is not None else 0, ROUNDS)
        t.one_hot("stage", self.stage(), len(STAGE_NAMES))
        seat = self.current_player()
        t.one_hot("to_move", rel(seat) if seat >= 0 else None, 2)
        t.one_hot("first", rel(cur.first) if cur is not None else None, 2)
        t.counts("wins", [self.wins[me], self.wins[1 - me]], ROUNDS)
        loc = knowledge(cur.remaining, cur.events[v], self.game.exchange) if live and cur is not None else {}
        t.bits("in_play", [live and cur is not None and c in cur.remaining for c in range(7)])
        t.bits("own_hand", [loc.get(c) == me for c in range(7)])
        t.bits("other_hand", [loc.get(c) == 1 - me for c in range(7)])
        t.bits("in_pool", [loc.get(c) == POOL for c in range(7)])
        t.bits("dealt", [live and cur is not None and cur.hand[s] >= 0 for s in (me, 1 - me)])
        t.counts("pool_size", [len(cur.pool) if cur is not None else 7], 7)
        events = cur.events[SPECTATOR] if live and cur is not None else []
        acted = [(s, ACTION_NAMES.index(k)) for k, s, _, _ in events if k in ACTION_NAMES]
        for k in range(2):  # the first and the second player's move this round
            s, a = acted[k] if k < len(acted) else (None, None)
            t.one_hot(f"move_{k + 1}_seat", rel(s), 2)
            t.one_hot(f"move_{k + 1}", a, len(ACTION_NAMES))
        done = [r for r in self.rounds if r.stage == DONE]
        for k in range(ROUNDS):
            r = done[k] if k < len(done) else None
            t.one_hot(f"round_{k + 1}_own_card", r.hand[me] if r else None, 7)
            t.one_hot(f"round_{k + 1}_other_card", r.hand[1 - me] if r else None, 7)
            t.one_hot(f"round_{k + 1}_first", rel(r.first) if r else None, 2)
            t.one_hot(f"round_{k + 1}_winner", rel(r.winner) if r else None, 2)
        t.one_hot("survivor", self.survivor if self.survivor >= 0 else None, 7)
        t.one_hot("winner", rel(self.winner) if self.winner >= 0 else None, 2)


# -- the phases (§3-§8) -----------------------------------------------------------
# The state is in the phase named after its stage; each phase says who decides
# and what they may do, and every step of a round is the round's (ROUND_STEPS).


def _coin(s: HamletState, seat: int) -> None:
    """§3a: the coin says who goes first in round 1."""
    s.coin = seat
    s.rounds.append(_Round(1, seat, tuple(range(7))))
    s.phase = STAGE_NAMES[DEAL_FIRST]


def _coin_label(s: HamletState, player: int, action: int) -> str | None:
    return f"seat {action} goes first" if player == CHANCE and action in (0, 1) else None


def _card_label(s: HamletState, player: int, action: int) -> str | None:
    return CARDS[action] if player == CHANCE and 0 <= action < 7 else None


def _cards(s: HamletState) -> list[tuple[int, float]]:
    """§4a a deal, §7a / §7b a draw: uniform over the cards chance may give."""
    cards = s.rounds[-1].outcomes(s.game.exchange)
    p = 1.0 / len(cards)
    return [(c, p) for c in cards]


def _explain_second(s: HamletState, player: int, action: int) -> str | None:
    if action == TRADE:
        return said("only the player who goes first in a round may trade; you may lock or draw", "4c")
    return None


def _over_prompt(game: HamletGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    w, wins = obs["winner"], obs["wins"]
    rule = "more" if CARDS.index(obs["survivor"]) in MORE_ROUNDS_WIN else "fewer"
    return (
        f"{'You win' if w == obs['viewer'] else f'{wording.seat(w)} wins'}: the sole survivor is {obs['survivor']}, "
        f"so the player who won {rule} rounds wins ({wins[0]}-{wins[1]})."
    )


def _waiting(obs: dict[str, Any], moves: str) -> str:
    return f"Round {obs['round']}: waiting for {wording.seat(obs['to_move'])} to {moves}."


def _first_prompt(game: HamletGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    viewer = obs["viewer"]
    if not legal or viewer is None:
        return _waiting(obs, "lock, trade or draw")
    return (
        f"Round {obs['round']}: you go first with {obs['hands'][viewer]}. "
        f"Lock it, trade it with {wording.seat(1 - viewer)}, or draw from the pool."
    )


def _second_prompt(game: HamletGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    viewer = obs["viewer"]
    if not legal or viewer is None:
        return _waiting(obs, "lock or draw")
    done = obs["round_actions"][0]["action"] if obs["round_actions"] else "lock"
    past = {"lock": "locked", "trade": "traded with you", "draw": "drew"}[done]
    return f"Round {obs['round']}: {wording.seat(1 - viewer)} {past}. You hold {obs['hands'][viewer]}: lock it or draw from the pool."


def _draw_prompt(game: HamletGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    drawer = obs["round_actions"][-1]["seat"]
    who = "you draw" if drawer == obs["viewer"] else f"{wording.seat(drawer)} draws"
    return f"Round {obs['round']}: {who} a card from the pool."


# What each viewer is shown of a step (§9); texts follow the actor's name in a log.
def _deal_seen(s: HamletState, actor: int, card: int) -> Seen:
    """§4a, §9b: a deal is seen by the seat that gets the card alone."""
    r = s.rounds[-1]
    seat = r.first if r.stage == DEAL_FIRST else r.second
    return Seen(f"dealt a card to {wording.seat(seat)}", {seat: f"dealt {CARDS[card]} to {wording.seat(seat)}"})


def _move_seen(s: HamletState, actor: int, action: int) -> Seen:
    """§5-§7: locks and draws are public; a trade shows each seat both cards (§6b); the last lock reveals (§4d)."""
    r = s.rounds[-1]
    if action == TRADE:
        f, o = r.first, r.second
        text = f"traded: {wording.seat(f)} now holds {CARDS[r.hand[o]]}, {wording.seat(o)} holds {CARDS[r.hand[f]]}"
        return Seen("traded cards", {f: text, o: text}, private_pins=tuple(range(len(s._history))))  # §6b
    if action == LOCK:
        if r.stage == ACT_SECOND:
            return Seen(f"locked; {_round_end(r.first, r.hand)}", pins=_round_pins(s))
        return Seen("locked their card")
    return Seen("chose to draw")


def _drew_seen(s: HamletState, actor: int, card: int) -> Seen:
    """§7, §9c: the drawer alone sees the new card; the second player's draw ends the round (§4d)."""
    r = s.rounds[-1]
    seat = r.first if r.stage == DRAW_FIRST else r.second
    public, private = f"{wording.seat(seat)} drew a card", f"{wording.seat(seat)} drew {CARDS[card]}"
    if r.stage == DRAW_SECOND:
        hands = r.hand[:]
        hands[seat] = card
        end = _round_end(r.first, hands)
        public, private = f"{public}; {end}", f"{private}; {end}"
        return Seen(public, {seat: private}, pins=_round_pins(s))
    return Seen(public, {seat: private})


def _round_pins(s: HamletState) -> tuple[int, ...]:
    """§4d: the step that ends a round shows both cards, and the next round starts from what is public, so
    nothing later depends on the round's hidden steps beyond that: it pins every step so far (this one too)."""
    return tuple(range(len(s._history) + 1))


def _round_end(first: int, hands: list[int]) -> str:
    """§4d: both cards are shown; the one that defeats the other wins the round."""
    winner = first if beats(hands[first], hands[1 - first]) else 1 - first
    return f"{wording.seat(0)} showed {CARDS[hands[0]]}, {wording.seat(1)} showed {CARDS[hands[1]]}: {wording.seat(winner)} wins the round"


PHASES = phase_table(
    Phase(
        "coin",
        CHANCE,
        outcomes=lambda s: [(0, 0.5), (1, 0.5)],  # §3a
        apply=_coin,
        label=_coin_label,  # the notation records keep; the log names the seat for the table
        seen=lambda s, actor, action: Seen(f"{wording.seat(action)} goes first"),
        prompt=lambda game, obs, legal: "Chance decides who goes first.",
    ),
    Phase(
        "deal",
        CHANCE,
        outcomes=_cards,
        apply=HamletState.step,
        label=_card_label,
        seen=_deal_seen,
        prompt=lambda game, obs, legal: f"Round {obs['round']}: each player is dealt a random role card.",
    ),
    Phase(
        "first",
        lambda s: s.rounds[-1].first,
        legal=lambda s, seat: [LOCK, TRADE, DRAW],  # §4b
        apply=HamletState.step,
        seen=_move_seen,
        prompt=_first_prompt,
    ),
    Phase(
        "second",
        lambda s: s.rounds[-1].second,
        legal=lambda s, seat: [LOCK, DRAW],  # §4c
        apply=HamletState.step,
        explain=_explain_second,
        seen=_move_seen,
        prompt=_second_prompt,
    ),
    Phase(
        "draw",
        CHANCE,
        outcomes=_cards,
        apply=HamletState.step,
        label=_card_label,
        seen=_drew_seen,
        prompt=_draw_prompt,
    ),
    Phase("over", TERMINAL, prompt=_over_prompt),
)
HamletState.phases = PHASES


# -- the scene -----------------------------------------------------------------


#: The picture on each role card (by card number): a crown for the King, the poisoned cup for the Queen, Yorick's
#: skull for the Prince, a sword for the Knight, a flower for Ophelia, a scroll for the Advisor, a fool's cap.
ICONS = ("crown", "chalice", "skull", "sword", "flower", "scroll", "jester")
#: Each card's ink: royal purple, the poison's red, black, steel, green, brown, the fools' motley orange.
INKS = ("#6a3d9a", "#b3261e", "#2b2823", "#44546a", "#2e7d4f", "#7a5230", "#c25e00")
#: The short names the list of who defeats whom uses.
SHORT_NAMES = tuple("R & G" if c == CARDS[R] else c for c in CARDS)


def _card(id: str, c: str | None, detail: str | None = None) -> dict[str, Any]:
    """A role card: its picture and name; what it defeats, in full, is its tooltip (hover, long press)."""
    if c is None:
        return sc.item(id, "role card", face_down=True)
    k = CARDS.index(c)
    return sc.item(id, c, detail=detail, icon=ICONS[k], colour=INKS[k], name=ROLE_DETAILS[k])


def _beats(c: int) -> str:
    """What card ``c`` defeats and who wins if it survives alone, in a line: "beats Laertes, Polonius, R & G"."""
    wins = ", ".join(SHORT_NAMES[d] for d in sorted(DEFEATS[c]))
    return f"beats {wins}; alone at the end: {'more' if c in MORE_ROUNDS_WIN else 'fewer'} rounds win"


def _rounds(n: int) -> str:
    return f"{n} round{'' if n == 1 else 's'} won"


@HamletGame.draws_scene
def _scene(game: HamletGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    viewer = obs["viewer"]
    hands = obs["hands"]
    wins = obs["wins"]
    rnd = obs["round"]
    first = obs["first"]
    prompt = PHASES[obs["stage"]].prompt(game, obs, legal)  # type: ignore[misc]
    s = sc.new_scene(prompt)
    seats = [viewer, 1 - viewer] if viewer is not None else [0, 1]
    for seat in seats:
        title = "Your card" if seat == viewer else f"{wording.seat(seat)}'s card"
        if obs["winner"] is None and first is not None:
            title += " (goes first)" if seat == first else " (goes second)"
        items = [_card(f"hand{seat}-card", hands[seat])] if obs["dealt"][seat] else []
        s["zones"].append(sc.zone(f"hand{seat}", title, items, owner=seat))
    if obs["winner"] is None:
        known = obs["pool_known"]
        n = obs["pool_size"]
        pool = [_card(f"pool{i}", c) for i, c in enumerate(known)]
        pool += [_card(f"pool{i}", None) for i in range(len(known), n)]
        title = f"Pool: {n} card{'s' if n != 1 else ''}, shuffled"
        if known:
            title += " (you know the face-up ones are there)"
        s["zones"].append(sc.zone("pool", title, pool))
    for res in obs["results"]:
        k, w = res["round"], res["winner"]
        cards = res["cards"]
        defeats = "defeat" if cards[w] == CARDS[R] else "defeats"
        title = f"Round {k}: {wording.seat(w)} won, {cards[w]} {defeats} {cards[1 - w]} (removed)"
        items = [_card(f"round{k}-seat{seat}", cards[seat], f"{wording.seat(seat)}'s card") for seat in (0, 1)]
        s["zones"].append(sc.zone(f"round{k}", title, items))
    if obs["survivor"] is not None:
        s["zones"].append(sc.zone("survivor", "Sole survivor", [_card("survivor", obs["survivor"])]))
    s["zones"].append(sc.zone("roles", "The roles: who defeats whom", [dict(i) for i in _ROLE_ITEMS]))
    s["status"] = [f"Round {rnd} of {obs['rounds_total']}" if obs["winner"] is None else "Game over"] + [
        f"{wording.seat(k)}{' (you)' if k == viewer else ''}: {_rounds(wins[k])}" for k in (0, 1)
    ]
    if obs["winner"] is None:
        s["status"].append(f"Pool: {obs['pool_size']} card{'s' if obs['pool_size'] != 1 else ''}")
    s["players"] = [
        sc.player(
            k,
            f"seat {k}" + (" (you)" if k == viewer else ""),
            _rounds(wins[k]) + (", goes first" if k == first and obs["winner"] is None else ""),
        )
        for k in (0, 1)
    ]
    return sc.finish_scene(s, legal)


_ROLE_ITEMS = tuple(_card(f"role{c}", CARDS[c], _beats(c)) for c in range(7))

HamletGame.state_class = HamletState
GAME_CLASS = HamletGame
