"""Tower Builders: draw one, play one; build your tower, collapse theirs.

Rules: ``docs/rules/tower-builders.md``; clause numbers are cited as ``§n``.

Seat 0 is Orange, seat 1 is Blue. Seat actions (:data:`ACTIONS`): segment
``play`` (the card drawn this turn, or the card held), ``face_down`` (a caught
player's forced play, §9c) and ``call`` (call a cheat or let it pass, §9b;
only with the option ``cheating``). Chance outcomes are a card kind, 0-4 in
the order of :data:`KINDS` (a deal or a draw, weighted by how many of that
kind are left in the deck), or, at the coin before the deal, the seat that
deals (0 or 1). The order of the deck is never state: each draw takes any
remaining card, equally likely.

Hidden information goes through the core (``_seen``): a deal and a draw are
seen by the player who gets the card; a play shows the card to everyone, and
by default also whether it was the card drawn or the card held (§8); a card
placed face down is known to its owner only. The per-viewer move log comes from
that, and so does ``resample`` where slots are hidden (the core's search); with
public slots the game's own is a faster equal of it (``TowerBuildersState.resample``).
"""

from __future__ import annotations

import random
from typing import Any

from ..core import hidden
from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.chance import by_counts
from ..core.constants import CHANCE, TERMINAL
from ..core.game import Game, win_loss
from ..core.gametype import Chance, GameType, Information
from ..core.hidden import Seen
from ..core.options import Option
from ..core.phases import Phase, PhasedState, phase_table
from ..core.tensor import Tensor
from ..core.wording import said
from . import _tensors as tz

NAMES = ("Orange", "Blue")

# -- §1 the cards: one deck of fourteen, as data --------------------------------------------------
#: The deck by kind: name, floors it adds to a tower, copies, the corner value and ink it is drawn with.
DECK: tuple[dict[str, Any], ...] = (
    {"name": "1 floor", "floors": 1, "copies": 4, "value": "1", "colour": "#1f1d1a"},
    {"name": "2 floors", "floors": 2, "copies": 4, "value": "2", "colour": "#0072B2"},
    {"name": "5 floors", "floors": 5, "copies": 2, "value": "5", "colour": "#009E73"},
    {"name": "10 floors", "floors": 10, "copies": 2, "value": "10", "colour": "#7a4fa0"},
    {"name": "Collapse", "floors": 0, "copies": 2, "value": "✕", "colour": "#b3261e"},
)
KINDS = tuple(k["name"] for k in DECK)
FLOORS = tuple(k["floors"] for k in DECK)
COPIES = tuple(k["copies"] for k in DECK)
COLLAPSE = KINDS.index("Collapse")
CARDS = sum(COPIES)  # 14
#: A tower or discard entry is a kind, or ``DOWN + kind`` for a card lying face down (§9c).
DOWN = len(KINDS)

# -- seat actions --------------------------------------------------------------------------------
SLOTS = ("drawn", "held")
ACTIONS = ActionSpace(
    Segment("play", (("card", SLOTS),), "play the {card} card"),
    Segment("face_down", (), "place the held card face down"),
    Segment("call", (("call", ("call a cheat", "make no call")),), "{call}"),
)
PLAY_DRAWN, PLAY_HELD = ACTIONS.actions("play")
FACE_DOWN = ACTIONS.encode("face_down")
CALL, NO_CALL = ACTIONS.actions("call")


def floors(entries: tuple[int, ...]) -> int:
    """§7: the floors of a tower: face-up floor cards count, face-down ones do not."""
    return sum(FLOORS[e] for e in entries if e < DOWN)


class TowerBuildersGame(Game):
    id = "tower-builders"
    title = "Tower Builders"
    summary = (
        "Draw a card, play one of your two: floors go on your tower, a Collapse destroys the other tower. "
        "No card may be held for more than three turns. The taller tower wins."
    )
    options = (
        Option.choice(
            "dealer",
            {"random": "A coin decides", "orange": "Orange", "blue": "Blue"},
            said("Who shuffles and deals: a coin, or a named player (to swap dealers between games).", "2a"),
        ),
        Option("hold_limit", int, 3, (2, 3, 4), said("A card may be held for this many of your turns at most.", "5")),
        Option(
            "slot_public",
            bool,
            True,
            (True, False),
            said("Whether everyone sees if a play was the card just drawn or the card held.", "8b"),
        ),
        Option.flag(
            "cheating",
            False,
            said("The table variant: the hold limit is not enforced, but a cheat who is called is caught.", "9"),
        ),
        Option.choice(
            "tie",
            {"draw": "A draw", "dealer_loses": "The dealer loses"},
            said("Equal towers at the end: a draw, or the dealer loses.", "7c"),
        ),
    )
    mechanics = ("cards", "hidden hand", "draw one, play one", "take that")
    playing_time = "2-5 min"
    game_type = GameType(chance=Chance.EXPLICIT, information=Information.IMPERFECT)
    seat_names = NAMES
    inventions = (
        "A coin decides the dealer of a single game (the text lets a player volunteer); option dealer names one.",
        "How the hold limit is counted: a card's age is the number of your turns that ended with it in your hand; "
        "at age hold_limit - 1 it must be played on your next turn.",
        "The hold limit is enforced by the game by default; the table's 'cheat and get caught' rule is the option "
        "cheating, with a call made at the start of your turn.",
        "Equal towers are a draw (option tie=dealer_loses instead).",
        "Whether a play was the card drawn or the card held is public by default (option slot_public).",
        "A wrong call has no penalty; a call is offered only once the opponent could hold a card too long.",
    )
    num_chance_outcomes = len(KINDS)
    # A coin, 2 deals, 12 draws, 14 plays and (with cheating) at most one call before each play.
    max_length = 1 + 2 + (CARDS - 2) + CARDS + CARDS

    def _setup(self) -> None:
        self.action_space = ACTIONS
        self.cheating: bool = self.params["cheating"]
        self.limit: int = self.params["hold_limit"]
        self.slot_public: bool = self.params["slot_public"] and not self.cheating  # §9a
        self.fixed_dealer = {"random": -1, "orange": 0, "blue": 1}[self.params["dealer"]]


class TowerBuildersState(PhasedState):
    game: TowerBuildersGame
    copied = ("deck", "held", "age", "towers", "caught", "streak")

    def __init__(self, game: TowerBuildersGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.deck = list(COPIES)  # §2b: cards left in the deck, by kind; no order
        self.held = [-1, -1]  # each player's held card (a kind), -1 for none
        self.age = [0, 0]  # §5a: turns each held card has been kept
        self.streak = [0, 0]  # §9b: turns since each held card was last replaced in everyone's sight
        self.caught = [False, False]  # §9c: a right call waits for the offender's next play
        self.towers: list[tuple[int, ...]] = [(), ()]  # bottom first
        self.discard: tuple[tuple[int, int], ...] = ()  # (entry, owner), in the order discarded
        self.drawn = -1  # the card the player to move drew this turn
        self.dealer = game.fixed_dealer
        self.to_move = -1
        self.winner = -1
        self.phase = "coin" if self.dealer < 0 else "deal"

    # -- result (§7) ---------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return [floors(t) for t in self.towers]

    def returns(self) -> list[float]:
        if self.phase != "over":
            return [0.0, 0.0]
        return win_loss(self.winner if self.winner >= 0 else None)

    def _finish(self) -> None:
        """§7: the taller tower of face-up floors wins; equal towers draw, or the dealer loses."""
        a, b = self.scores()
        if a != b:
            self.winner = 0 if a > b else 1
        elif self.game.params["tie"] == "dealer_loses":
            self.winner = 1 - self.dealer
        self.phase = "over"

    # -- turns (§2d, §3, §6) ----------------------------------------------------------------------
    def _start_turn(self) -> None:
        p = self.to_move
        if self.held[p] < 0:  # §6: nobody holds a card any more
            self._finish()
        elif self.game.cheating and self.held[1 - p] >= 0 and self.streak[1 - p] >= self.game.limit:
            self.phase = "call"  # §9b
        else:
            self.phase = "draw" if sum(self.deck) else "last"

    def due(self, seat: int) -> bool:
        """§5b: whether ``seat``'s held card must be played at its next draw (the limit is enforced)."""
        return not self.game.cheating and self.age[seat] >= self.game.limit - 1

    def play_legal(self, seat: int) -> list[int]:
        if seat != self.to_move:
            return []
        if self.caught[seat]:  # §9c
            return [FACE_DOWN]
        if self.phase == "last" or self.due(seat):  # §6, §5b
            return [PLAY_HELD]
        return [PLAY_DRAWN, PLAY_HELD]  # §3b

    def play(self, action: int) -> None:
        """§3b, §4: play one card; the other is (or stays) the held card."""
        p, o = self.to_move, 1 - self.to_move
        if action == FACE_DOWN:  # §9c: the caught card goes face down; the drawn card is held
            self.towers[p] = (*self.towers[p], DOWN + self.held[p])
            self.held[p], self.age[p], self.streak[p], self.caught[p] = self.drawn, 0, 0, False
        else:
            if action == PLAY_DRAWN:
                card = self.drawn
                self.age[p] += 1  # §5a: the held card survives another turn
            else:
                card = self.held[p]
                self.held[p], self.age[p] = self.drawn, 0
            self.streak[p] += 1
            if card == COLLAPSE:  # §4b: the other tower and the Collapse go to the discard pile
                self.discard = (*self.discard, *((e, o) for e in self.towers[o]), (COLLAPSE, p))
                self.towers[o] = ()
            else:  # §4a
                self.towers[p] = (*self.towers[p], card)
        self.drawn = -1
        self._mark_irreversible()  # the played card is shown
        self.to_move = o
        self._start_turn()

    def _parse_action(self, player: int, text: str) -> int | None:
        """Also accept ``play the drawn card``, ``play held``, ``drawn``, ``held``."""
        words = set(text.lower().split())
        if "drawn" in words:
            return PLAY_DRAWN
        if "held" in words and "face" not in words:
            return PLAY_HELD
        return None

    def resample(self, player: int | None, rng: random.Random) -> TowerBuildersState:
        """A world ``player`` cannot tell from this one; with public slots, a faster equal of the core's.

        With ``slot_public`` (and no cheating) every card a player ever played is known with the deal or draw
        it came from, so what a viewer has not seen is only the cards in other hands now: the held card (and
        a card just drawn) of each player it is not. They and the deck are a random arrangement of the cards
        the viewer has not seen, so they are drawn from those, by count. Otherwise the core's search redraws
        the history (which card was played from which slot is then hidden too).

        Kept, measured faster than the core's default (``bench/bench_resample.py tower-builders``: 0.10-0.31 ms
        a call against the core's 14-74 ms, per viewer, 5 calls on each position of four seeded games; with
        slot_public; otherwise this is the core's).
        """
        game = self.game
        if game.cheating or not game.slot_public:
            return hidden.resample(self, player, rng)  # type: ignore[return-value]
        unseen = list(self.deck)
        origin: dict[int, int] = {}  # history index of each unplayed card's deal or draw -> its seat's slot
        r = TowerBuildersState(game, self.num_players)
        slots: list[list[int]] = [[-1, -1], [-1, -1]]  # per seat: the history index of the held and drawn card
        for i, entry in enumerate(self._history):
            assert isinstance(entry, int)
            phase = r.phase
            if phase == "deal":
                slots[_deal_to(r)][0] = i
            elif phase == "draw":
                slots[r.to_move][1] = i
            elif phase in ("play", "last"):
                held, drawn = slots[r.to_move]
                slots[r.to_move] = [drawn, -1] if entry == PLAY_HELD else [held, -1]
            r.apply_legal(entry)
        for seat in (0, 1):
            if seat == player:
                continue
            for i, card in zip(slots[seat], (self.held[seat], self.drawn if seat == self.to_move else -1)):
                if i >= 0 and card >= 0:
                    origin[i] = card
                    unseen[card] += 1
        history = list(self._history)
        for i in sorted(origin):
            n = sum(unseen)
            x = rng.random() * n
            k = 0
            while x >= unseen[k] or not unseen[k]:
                x -= unseen[k]
                k += 1
            unseen[k] -= 1
            history[i] = k
        out = TowerBuildersState(game, self.num_players)
        for entry in history:
            out.apply_legal(entry)  # type: ignore[arg-type]
        return out

    # -- what a viewer knows (§8) -------------------------------------------------------------------
    def _entry(self, entry: int, owner: int, viewer: int | None) -> dict[str, Any]:
        if entry < DOWN:
            return {"card": KINDS[entry], "face_down": False}
        return {"card": KINDS[entry - DOWN] if viewer == owner else None, "face_down": True}

    def observation(self, player: int | None = None) -> dict[str, Any]:
        v = player if player in (0, 1) else None
        game = self.game
        mine = v is not None and v == self.to_move and self.phase in ("play", "last")
        hand: list[str] = []
        if v is not None and self.held[v] >= 0:
            hand.append(KINDS[self.held[v]])
        drawn = KINDS[self.drawn] if mine and self.drawn >= 0 else None
        hand_sizes = [int(self.held[k] >= 0) + int(k == self.to_move and self.drawn >= 0) for k in (0, 1)]
        ages: list[int | None] = [
            self.age[k] if self.held[k] >= 0 and (k == v or game.slot_public) else None for k in (0, 1)
        ]
        towers = [[self._entry(e, k, v) for e in self.towers[k]] for k in (0, 1)]
        discard = [{**self._entry(e, owner, v), "owner": owner} for e, owner in self.discard]
        # The kinds this viewer has not seen: the deck and whatever the others hold or laid face down.
        unseen = list(COPIES)
        shown = [e for t in self.towers for e in t if e < DOWN] + [e for e, _ in self.discard if e < DOWN]
        if v is not None:
            shown += [e - DOWN for e in self.towers[v] if e >= DOWN]
            shown += [e - DOWN for e, owner in self.discard if e >= DOWN and owner == v]
            shown += [self.held[v]] if self.held[v] >= 0 else []
            shown += [self.drawn] if mine and self.drawn >= 0 else []
        for e in shown:
            unseen[e] -= 1
        over = self.phase == "over"
        return {
            "viewer": v,
            "phase": self.phase,
            "to_move": self.current_player(),
            "dealer": self.dealer if self.dealer >= 0 else None,
            "deck": sum(self.deck),
            "hand": hand,
            "drawn": drawn,
            "hand_sizes": hand_sizes,
            "ages": ages,
            "due": [self.held[k] >= 0 and (k == v or game.slot_public) and self.due(k) for k in (0, 1)],
            "caught": self.caught[:],
            "towers": towers,
            "scores": self.scores(),
            "discard": discard,
            "unseen": {KINDS[k]: n for k, n in enumerate(unseen) if n},
            "hold_limit": game.limit,
            "cheating": game.cheating,
            "winner": (self.winner if self.winner >= 0 else None) if over else None,
            "over": over,
        }

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The observation as numbers (docs/research/tensors-newer.md): seats from the viewer's."""
        o = self.observation(player)
        v = o["viewer"]
        tz.header(t, o, v, 2, PHASE_NAMES)
        t.one_hot("dealer", tz.rel(o["dealer"], v, 2), 2)
        t.counts("deck", [o["deck"]], CARDS)
        t.one_of("held", o["hand"][0] if o["hand"] else None, KINDS)
        t.one_of("drawn", o["drawn"] or None, KINDS)
        t.counts("hand_sizes", tz.rotate(o["hand_sizes"], v), 2)
        ages = tz.rotate(o["ages"], v)
        t.bits("age_known", [a is not None for a in ages])
        t.counts("ages", [a or 0 for a in ages], CARDS)
        t.bits("due", tz.rotate(o["due"], v))
        t.bits("caught", tz.rotate(o["caught"], v))
        for k, tower in enumerate(tz.rotate(o["towers"], v)):
            tz.seq(t, f"tower{k}", [_entry_code(e) for e in tower], CARDS, ENTRY_CODES)
        codes = [_entry_code(e) * 2 + (tz.rel(e["owner"], v, 2) or 0) for e in o["discard"]]
        tz.seq(t, "discard", codes, CARDS, ENTRY_CODES * 2)
        t.counts("scores", tz.rotate(o["scores"], v), sum(f * c for f, c in zip(FLOORS, COPIES, strict=True)))
        t.scalars("unseen", [o["unseen"].get(k, 0) / c for k, c in zip(KINDS, COPIES, strict=True)])
        t.one_hot("winner", tz.rel(o["winner"], v, 2), 2)
        t.bits("over", [o["over"]])


#: A tower or discard entry in a tensor: a face-up kind, ``DOWN + kind`` face down and known, ``2 * DOWN`` unknown.
ENTRY_CODES = 2 * DOWN + 1


def _entry_code(e: dict[str, Any]) -> int:
    if e["card"] is None:
        return 2 * DOWN
    return KINDS.index(e["card"]) + (DOWN if e["face_down"] else 0)


# -- the phases ------------------------------------------------------------------------------------


def _coin(s: TowerBuildersState, seat: int) -> None:
    s.dealer = seat  # §2a
    s.phase = "deal"


def _cards(s: TowerBuildersState) -> list[tuple[int, float]]:
    """§2b, §3a: any card left in the deck, equally likely, so a kind by how many of it are left."""
    return by_counts(s.deck)


def _deal_to(s: TowerBuildersState) -> int:
    """§2b: the dealer deals to themselves first, then to the other player."""
    return s.dealer if s.held[s.dealer] < 0 else 1 - s.dealer


def _deal(s: TowerBuildersState, kind: int) -> None:
    seat = _deal_to(s)
    s.deck[kind] -= 1
    s.held[seat] = kind
    if s.held[1 - seat] >= 0:  # §2d: the player who did not deal goes first
        s.to_move = 1 - s.dealer
        s._start_turn()


def _draw(s: TowerBuildersState, kind: int) -> None:
    s.deck[kind] -= 1  # §3a
    s.drawn = kind
    s.phase = "play"


def _call(s: TowerBuildersState, action: int) -> None:
    """§9b-§9d: a call is right when the other player's held card is over the limit."""
    o = 1 - s.to_move
    if action == CALL:
        if s.age[o] >= s.game.limit:
            s.caught[o] = True
        s._mark_irreversible()
    s.phase = "draw" if sum(s.deck) else "last"


def _card_label(s: TowerBuildersState, player: int, action: int) -> str | None:
    return KINDS[action] if player == CHANCE and 0 <= action < len(KINDS) else None


def _coin_label(s: TowerBuildersState, player: int, action: int) -> str | None:
    return f"{NAMES[action]} deals" if player == CHANCE and action in (0, 1) else None


def _play_label(s: TowerBuildersState, player: int, action: int) -> str | None:
    """The play in the card's own words for the player who holds it: ``play the drawn 5 floors``."""
    if player != s.to_move:
        return None
    if action == PLAY_DRAWN and s.drawn >= 0:
        return f"play the drawn {KINDS[s.drawn]}"
    if action == PLAY_HELD and s.held[player] >= 0:
        return f"play the held {KINDS[s.held[player]]}"
    return None


# What each viewer is shown of a step (§8); texts follow the actor's name in a log.
def _coin_seen(s: TowerBuildersState, actor: int, seat: int) -> Seen:
    return Seen(f"{NAMES[seat]} deals the cards")


def _deal_seen(s: TowerBuildersState, actor: int, kind: int) -> Seen:
    """§2b, §8a: each player sees only the card dealt to them."""
    seat = _deal_to(s)
    return Seen(f"dealt a card to {NAMES[seat]}", {seat: f"dealt {KINDS[kind]} to {NAMES[seat]}"})


def _draw_seen(s: TowerBuildersState, actor: int, kind: int) -> Seen:
    """§3a, §8a: only the drawer sees the card drawn."""
    p = s.to_move
    return Seen(f"{NAMES[p]} drew a card", {p: f"{NAMES[p]} drew {KINDS[kind]}"})


def _call_seen(s: TowerBuildersState, actor: int, action: int) -> Seen:
    o = NAMES[1 - s.to_move]
    if action == NO_CALL:
        return Seen("made no call")
    if s.age[1 - s.to_move] >= s.game.limit:
        return Seen(f"called a cheat: {o} has held a card too long and is caught")
    return Seen(f"called a cheat: wrongly, {o}'s held card is within the limit")


def _play_seen(s: TowerBuildersState, actor: int, action: int) -> Seen:
    """§8b: the card played is public; which card it was (drawn or held) only with ``slot_public``."""
    p, o = s.to_move, 1 - s.to_move
    if action == FACE_DOWN:
        text = "placed the held card face down on the tower (caught)"
        public, private = text, f"{text}; it is {KINDS[s.held[p]]}"
    else:
        card = s.drawn if action == PLAY_DRAWN else s.held[p]
        what = KINDS[card]
        if card == COLLAPSE:
            n = len(s.towers[o])
            what += f": {NAMES[o]}'s tower of {n} card{'s' if n != 1 else ''} falls" if n else " on an empty tower"
        if s.phase == "last":
            public = private = f"played the last card, {what}"
        else:
            private = f"played the {SLOTS[action - PLAY_DRAWN]} card, {what}"
            public = private if s.game.slot_public else f"played {what}"
    end = _end_text(s, action)
    if end:
        public, private = f"{public}; {end}", f"{private}; {end}"
    return Seen(public) if public == private else Seen(public, {p: private})


def _end_text(s: TowerBuildersState, action: int) -> str:
    """The final play (§6) ends the game: the scores (§7)."""
    after = s.clone()
    after.play(action)
    if after.phase != "over":
        return ""
    a, b = after.scores()
    result = "a draw" if after.winner < 0 else f"{NAMES[after.winner]} wins"
    return f"game over, Orange {a} floors, Blue {b}: {result}"


def _explain_play(s: TowerBuildersState, player: int, action: int) -> str | None:
    if s.caught[player]:
        return said("you were caught holding a card too long: place it face down on your tower", "9c")
    if action == FACE_DOWN:
        return said("only a player caught holding a card too long places it face down", "9c")
    if action in (CALL, NO_CALL):
        return said("a call is made at the start of a turn, before the draw", "9b")
    if s.phase == "last":
        return said("the deck is empty: play your last card", "6")
    if action == PLAY_DRAWN and s.due(player):
        return said(f"your held card has been held for {s.age[player]} turns: play it now", "5b")
    return None


def _explain_call(s: TowerBuildersState, player: int, action: int) -> str | None:
    return said("first call a cheat or make no call, then draw", "9b")


def _prompt(game: TowerBuildersGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    phase, v = obs["phase"], obs["viewer"]
    if phase == "over":
        a, b = obs["scores"]
        w = obs["winner"]
        result = "A draw" if w is None else ("You win" if w == v else f"{NAMES[w]} wins")
        return f"{result}: Orange {a} floors, Blue {b}."
    if phase == "coin":
        return "A coin decides who deals."
    if phase == "deal":
        return "Each player is dealt one card."
    cp = obs["to_move"]
    if not legal:
        if phase == "draw":
            return f"{NAMES[cp]} draws a card." if cp >= 0 else "A card is drawn."
        who = NAMES[cp] if cp >= 0 else "The player to move"
        return f"Waiting for {who} to {'call or not' if phase == 'call' else 'play'}."
    if phase == "call":
        return f"Do you think {NAMES[1 - v]} has held a card too long? Call a cheat, or make no call."
    if obs["caught"][v]:
        return "You were caught: place your held card face down on your tower."
    if phase == "last":
        return "The deck is empty: play your last card."
    if len(legal) == 1:
        return f"Your held {obs['hand'][0]} has been held long enough: play it now."
    return "Play the card you drew or the card you hold."


PHASES = phase_table(
    Phase("coin", CHANCE, outcomes=lambda s: [(0, 0.5), (1, 0.5)], apply=_coin, label=_coin_label, seen=_coin_seen),
    Phase("deal", CHANCE, outcomes=_cards, apply=_deal, label=_card_label, seen=_deal_seen),
    Phase(
        "call",
        lambda s: s.to_move,
        legal=lambda s, p: [CALL, NO_CALL] if p == s.to_move else [],
        apply=_call,
        explain=_explain_call,
        seen=_call_seen,
    ),
    Phase("draw", CHANCE, outcomes=_cards, apply=_draw, label=_card_label, seen=_draw_seen),
    *(  # a turn, and the last turn once the deck is empty: played alike
        Phase(
            name,
            lambda s: s.to_move,
            legal=TowerBuildersState.play_legal,
            apply=TowerBuildersState.play,
            explain=_explain_play,
            label=_play_label,
            seen=_play_seen,
        )
        for name in ("play", "last")
    ),
    Phase("over", TERMINAL),
)
TowerBuildersState.phases = PHASES
PHASE_NAMES = tuple(PHASES)


# -- the scene: cards drawn as cards, the other hand and face-down cards as backs in their owner's colour --


def _card(id: str, kind: int, detail: str | None = None) -> dict[str, Any]:
    k = DECK[kind]
    suit = None if kind == COLLAPSE else "⌂"
    return sc.item(id, k["name"], value=k["value"], suit=suit, colour=k["colour"], detail=detail)


def _entry_item(id: str, e: dict[str, Any], owner: int) -> dict[str, Any]:
    if e["face_down"]:
        detail = f"face down, scores nothing ({e['card']})" if e["card"] else "face down, scores nothing"
        return sc.item(id, "a face-down card", face_down=True, owner=owner, detail=detail)
    return _card(id, KINDS.index(e["card"]))


@TowerBuildersGame.draws_scene
def _scene(game: TowerBuildersGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    v = obs["viewer"]
    s = sc.new_scene(_prompt(game, obs, legal))
    seats = (1 - v, v) if v is not None else (0, 1)
    limit = obs["hold_limit"]
    for seat in seats:
        name = "Your" if seat == v else f"{NAMES[seat]}'s"
        if seat == v:
            items = []
            if obs["hand"]:
                age = obs["ages"][seat]
                detail = f"your held card, kept {age} turn{'s' if age != 1 else ''} (at most {limit})"
                items.append(_card(f"hand{seat}-held", KINDS.index(obs["hand"][0]), detail))
            if obs["drawn"] is not None:
                items.append(_card(f"hand{seat}-drawn", KINDS.index(obs["drawn"]), "the card you drew this turn"))
        else:
            items = [
                sc.item(f"hand{seat}-{k}", "a card", face_down=True, owner=seat) for k in range(obs["hand_sizes"][seat])
            ]
        title = f"{name} hand"
        age = obs["ages"][seat]
        if seat != v and age is not None:
            title += f" (held card kept {age} turn{'s' if age != 1 else ''})"
        if obs["caught"][seat]:
            title += " (caught: the held card goes face down)"
        hand = sc.zone(f"hand{seat}", title, items, owner=seat)
        tower_items = [_entry_item(f"tower{seat}-{i}", e, seat) for i, e in enumerate(obs["towers"][seat])]
        tower = sc.zone(f"tower{seat}", f"{name} tower: {obs['scores'][seat]} floors (bottom first)", tower_items, seat)
        s["zones"] += [hand, tower] if seat != v else [tower, hand]
        if seat == seats[0]:
            deck = [sc.item(f"deck{k}", "a card", face_down=True) for k in range(obs["deck"])]
            s["zones"].append(sc.zone("deck", f"Deck: {obs['deck']} card{'s' if obs['deck'] != 1 else ''}", deck))
            discard = [_entry_item(f"discard{i}", e, e["owner"]) for i, e in enumerate(obs["discard"])]
            s["zones"].append(sc.zone("discard", "Discarded, out of the game", discard))
    for a, label in legal:
        if a == PLAY_DRAWN:
            s["targets"].append({"at": f"hand{v}-drawn", "action": a, "label": label})
        elif a in (PLAY_HELD, FACE_DOWN):
            s["targets"].append({"at": f"hand{v}-held", "action": a, "label": label})
    s["status"] = [f"{NAMES[k]}: {obs['scores'][k]} floors" for k in (0, 1)]
    s["status"].append(f"Deck: {obs['deck']}")
    if obs["unseen"]:
        s["status"].append("Not yet seen: " + ", ".join(f"{n}× {k}" for k, n in obs["unseen"].items()))
    dealer = obs["dealer"]
    s["players"] = [
        sc.player(
            k,
            NAMES[k] + (" (you)" if k == v else ""),
            f"{obs['scores'][k]} floors" + (", dealer" if k == dealer else ""),
        )
        for k in (0, 1)
    ]
    return sc.finish_scene(s, legal)


TowerBuildersGame.state_class = TowerBuildersState
GAME_CLASS = TowerBuildersGame
