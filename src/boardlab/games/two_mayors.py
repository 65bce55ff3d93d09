"""Two Mayors: send a character to your rival's city gate and declare it as someone else.

Rules: ``docs/rules/two-mayors.md``; clause numbers are cited as ``§n``.

Seat 0 is Orange, seat 1 is Blue. Characters are numbered 0-4 in the order of
:data:`KINDS`. Seat actions (:data:`ACTIONS`): ``recruit`` (take a card from
the Countryside, §4a), ``send`` (a character placed on the gate, and the
character declared: ``5 * card + declared``, §4b), ``verdict`` (arrest or
admit, §5), ``name`` (the Blackmailer's named character, §7d) and ``pass``
(§3c). Chance outcomes are a character (a deal, a recruit or a Thief's steal,
weighted by how many of that character the deck, the Countryside or the robbed
hand holds), or, at the coin before the deal, the seat that goes first.

Hidden information goes through the core (``_seen``): a card dealt or
recruited is seen by its new owner; the card placed on a gate by its sender
until the verdict reveals it; a stolen card by both mayors (§9c). Declarations,
verdicts and revealed cards are public. The per-viewer move log comes from
that. ``resample`` is the game's own (see the section above ``_worlds``): the
posterior over the hidden cards when chance is fair and a hidden hand chooses
uniformly among its legal moves. The core's default search samples the same
worlds with an approximation of those weights; the conformance suite checks
that the two agree where the core's is exact (the deal).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from typing import Any

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

# -- §1 the characters, as data -----------------------------------------------------------------------
#: Name, copies, the corner letter and symbol the card is drawn with, its ink, and its effects (§7).
CHARACTERS: tuple[dict[str, Any], ...] = (
    {
        "name": "Peasant",
        "copies": 3,
        "value": "P",
        "suit": "☘",
        "colour": "#6b5a2e",
        "effect": "Arrest: no effect. Admit: no effect.",
    },
    {
        "name": "Thief",
        "copies": 3,
        "value": "T",
        "suit": "✂",
        "colour": "#0072B2",
        "effect": "Arrest: no effect. Admit: the sender steals a random card from the receiver's hand.",
    },
    {
        "name": "Sellsword",
        "copies": 3,
        "value": "S",
        "suit": "⚔",
        "colour": "#D55E00",
        "effect": "Arrest: no effect. Admit: if a Sellsword is already in the receiver's city, the sender wins.",
    },
    {
        "name": "Blackmailer",
        "copies": 2,
        "value": "B",
        "suit": "✉",
        "colour": "#7a4fa0",
        "effect": "Arrest: no effect. Admit: the sender names a character the receiver may not place on the next turn.",
    },
    {
        "name": "Assassin",
        "copies": 1,
        "value": "A",
        "suit": "☠",
        "colour": "#1f1d1a",
        "effect": "Arrest: the receiver wins. Admit: the sender wins.",
    },
)
KINDS = tuple(c["name"] for c in CHARACTERS)
COPIES = tuple(c["copies"] for c in CHARACTERS)
PEASANT, THIEF, SELLSWORD, BLACKMAILER, ASSASSIN = range(len(KINDS))
K = len(KINDS)
CARDS = sum(COPIES)  # 12
DEALS = (4, 5)  # §2b: the first mayor gets 4 cards, the other 5
PRISON_LIMIT = 3  # §8b

ACTIONS = ActionSpace(
    Segment("recruit", (), "recruit from the countryside"),
    Segment("send", (("card", KINDS), ("declared", KINDS)), "send {card} as {declared}"),
    Segment("verdict", (("verdict", ("arrest", "admit")),), "{verdict}"),
    Segment("name", (("who", KINDS),), "name {who}"),
    Segment("pass", (), "pass"),
)
RECRUIT = ACTIONS.encode("recruit")
SEND0 = ACTIONS.offset("send")
ARREST, ADMIT = ACTIONS.actions("verdict")
NAME0 = ACTIONS.offset("name")
PASS = ACTIONS.encode("pass")


def a_(kind: int) -> str:
    """The character with its article: ``an Assassin``, ``a Thief``."""
    return f"{'an' if KINDS[kind][0] in 'AEIOU' else 'a'} {KINDS[kind]}"


def declarations(hand: tuple[int, ...], card: int, barred: int = -1) -> list[int]:
    """§4b: what may be declared when ``card`` is placed from ``hand`` (counts by character).

    Rules 1 and 2: a character still in the hand, other than the one placed; rule 3: if
    the rest of the hand is empty or all the placed character, anything. ``barred``
    (with the option ``blackmail_bars_declare``) may not be declared either.

    >>> declarations((1, 1, 0, 0, 0), PEASANT)  # a Peasant placed, a Thief left: declare Thief
    [1]
    >>> declarations((2, 0, 0, 0, 0), PEASANT)  # only Peasants left: anything, Peasant included
    [0, 1, 2, 3, 4]
    """
    rest = list(hand)
    rest[card] -= 1
    if all(n == 0 for k, n in enumerate(rest) if k != card):  # §4b rule 3
        out = list(range(K))
    else:  # rules 1 and 2
        out = [k for k in range(K) if rest[k] and k != card]
    return [k for k in out if k != barred]


class TwoMayorsGame(Game):
    id = "two-mayors"
    title = "Two Mayors"
    summary = (
        "Send characters to your rival's city gate and declare them as someone else; your rival arrests or "
        "admits. Admit the Assassin or two Sellswords and you lose; arrest it, or fill the rival's prison, and you win."
    )
    options = (
        Option.choice(
            "first",
            {"random": "A coin decides", "orange": "Orange", "blue": "Blue"},
            said("Who is the first mayor: a coin or a name.", "2a"),
        ),
        Option.flag(
            "blackmail_bars_declare",
            False,
            said("Whether a Blackmailer's named character may also not be declared, not only not placed.", "7d"),
        ),
        Option.flag(
            "steal_public",
            False,
            said("Whether spectators see which card a Thief stole (the two mayors always do).", "9c"),
        ),
    )
    mechanics = ("cards", "bluffing", "hidden hands", "declarations")
    playing_time = "5 min"
    game_type = GameType(chance=Chance.EXPLICIT, information=Information.IMPERFECT)
    seat_names = NAMES
    inventions = (
        "The working title 'Two Mayors': the text has none.",
        "A coin decides the first mayor (the text leaves it to the players); option first names one.",
        "Cards taken from the face-down Countryside are taken at random.",
        "A mayor who can neither recruit nor place an allowed card passes (all cards barred by a Blackmailer, "
        "Countryside empty).",
        "A Blackmailer bars placing the named character only (option blackmail_bars_declare also bars declaring it).",
        "The stolen card is shown to both mayors and hidden from spectators (option steal_public shows it).",
        "The city has no size limit; the prison's third card ends the game.",
    )
    num_chance_outcomes = K
    # A coin, 9 deals, 3 recruits (2 entries each), 12 sends (with a verdict and a steal or a name),
    # and at most two passes around each recruit or send (§10).
    max_length = 1 + 9 + 3 * 2 + 12 * 3 + 2 * (3 + 12 + 1)

    def _setup(self) -> None:
        self.action_space = ACTIONS
        self.bars_declare: bool = self.params["blackmail_bars_declare"]
        self.fixed_first = {"random": -1, "orange": 0, "blue": 1}[self.params["first"]]


class TwoMayorsState(PhasedState):
    game: TwoMayorsGame
    copied = ("hands", "prisons", "cities", "deck")

    def __init__(self, game: TwoMayorsGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.deck = list(COPIES)  # §2b: undealt cards by character; after the deal, the Countryside
        self.hands: list[tuple[int, ...]] = [(0,) * K, (0,) * K]  # counts by character
        self.prisons: list[tuple[int, ...]] = [(), ()]
        self.cities: list[tuple[int, ...]] = [(), ()]
        self.first = game.fixed_first
        self.to_move = -1  # the Active Mayor
        self.gate = -1  # §4b: the card on the Passive Mayor's gate
        self.declared = -1
        self.barred = (-1, -1)  # §7d: (seat, character) it may not place during its next turn
        self.winner = -1
        self.why = ""
        self.phase = "coin" if self.first < 0 else "deal"

    # -- result (§8) ------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        return win_loss(self.winner) if self.phase == "over" else [0.0, 0.0]

    def _win(self, seat: int, why: str) -> None:
        """§8c: a win ends the game at once."""
        self.winner, self.why, self.phase = seat, why, "over"

    # -- helpers ----------------------------------------------------------------------------------
    def countryside(self) -> int:
        return sum(self.deck) if self.phase not in ("coin", "deal") else 0

    def barred_for(self, seat: int) -> int:
        return self.barred[1] if self.barred[0] == seat else -1

    def _give(self, seat: int, kind: int, delta: int = 1) -> None:
        h = list(self.hands[seat])
        h[kind] += delta
        self.hands[seat] = tuple(h)

    def sends(self, seat: int) -> list[int]:
        """§4b: every (card, declaration) the Active Mayor may send now."""
        hand, barred = self.hands[seat], self.barred_for(seat)
        declare_bar = barred if self.game.bars_declare else -1
        out = []
        for card in range(K):
            if hand[card] and card != barred:  # §7d: the named character may not be placed
                out += [SEND0 + K * card + d for d in declarations(hand, card, declare_bar)]
        return out

    def turn_legal(self, seat: int) -> list[int]:
        if seat != self.to_move:
            return []
        moves = ([RECRUIT] if sum(self.deck) else []) + self.sends(seat)  # §4
        return moves or [PASS]  # §3c

    def _end_turn(self) -> None:
        """§3b: turns alternate; a Blackmailer's bar lasts for the barred mayor's one turn (§7d)."""
        if self.barred[0] == self.to_move:
            self.barred = (-1, -1)
        self.to_move = 1 - self.to_move
        self.phase = "turn"

    # -- what a viewer knows (§9) -------------------------------------------------------------------
    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The observation as numbers (docs/research/tensors-newer.md): seats from the viewer's."""
        o = self.observation(player)
        v = o["viewer"]
        tz.header(t, o, v, 2, PHASE_NAMES)
        t.one_hot("first", tz.rel(o["first"], v, 2), 2)
        t.one_hot("active", tz.rel(o["active"], v, 2), 2)
        t.scalars("hand", [o["hand"].count(k) / c for k, c in zip(KINDS, COPIES, strict=True)])
        t.counts("hand_sizes", tz.rotate(o["hand_sizes"], v), CARDS)
        t.counts("countryside", [o["countryside"]], CARDS)
        gate = o["gate"]
        t.bits("gate", [gate is not None])
        t.one_hot("gate_declared", KINDS.index(gate["declared"]) if gate else None, K)
        t.one_hot("gate_card", KINDS.index(gate["card"]) if gate and gate["card"] else None, K)
        for name in ("prisons", "cities"):
            for k, row in enumerate(tz.rotate(o[name], v)):
                tz.seq(t, f"{name}{k}", [KINDS.index(c) for c in row], CARDS, K)
        barred = o["barred"]
        t.one_hot("barred_mayor", tz.rel(barred["mayor"], v, 2) if barred else None, 2)
        t.one_hot("barred_character", KINDS.index(barred["character"]) if barred else None, K)
        t.one_hot("winner", tz.rel(o["winner"], v, 2), 2)

    def observation(self, player: int | None = None) -> dict[str, Any]:
        v = player if player in (0, 1) else None
        am, pm = self.to_move, 1 - self.to_move
        gate = None
        if self.gate >= 0:
            gate = {
                "mayor": pm,
                "sender": am,
                "declared": KINDS[self.declared],
                "card": KINDS[self.gate] if v == am else None,
            }
        hand = [KINDS[k] for k in range(K) for _ in range(self.hands[v][k])] if v is not None else []
        bs, bk = self.barred
        return {
            "viewer": v,
            "phase": self.phase,
            "to_move": self.current_player(),
            "first": self.first if self.first >= 0 else None,
            "active": am if am >= 0 else None,
            "hand": hand,
            "hand_sizes": [sum(h) for h in self.hands],
            "countryside": self.countryside(),
            "gate": gate,
            "prisons": [[KINDS[k] for k in p] for p in self.prisons],
            "cities": [[KINDS[k] for k in c] for c in self.cities],
            "barred": {"mayor": bs, "character": KINDS[bk]} if bs >= 0 else None,
            "winner": self.winner if self.winner >= 0 else None,
            "why": self.why,
        }

    def clone(self) -> TwoMayorsState:
        s = super().clone()
        s.__dict__.pop("_worlds", None)  # resample's cache belongs to this position only
        return s

    def resample(self, player: int | None, rng: random.Random) -> TwoMayorsState:
        """A world ``player`` cannot tell from this one (see :func:`_resample`).

        Kept, measured faster than the core's default (``bench/bench_resample.py two-mayors``: 0.5-33 ms a call
        against the core's 7-770 ms, per viewer, 5 calls on each position of four seeded games; the core's search ran
        out of tries on 29 of 85 spectator calls with a budget of 2,000; and this one weighs a hidden hand's
        choices as the true posterior does, where the core's approximates).
        """
        return _resample(self, player, rng)


# -- the phases -----------------------------------------------------------------------------------------


def _coin(s: TwoMayorsState, seat: int) -> None:
    s.first = seat  # §2a
    s.phase = "deal"


def _deck(s: TwoMayorsState) -> list[tuple[int, float]]:
    """§2b, §4a: any card left, equally likely, so a character by how many of it are left."""
    return by_counts(s.deck)


def _deal_to(s: TwoMayorsState) -> int:
    """§2b: the first mayor's 4 cards, then the other's 5."""
    return s.first if sum(s.hands[s.first]) < DEALS[0] else 1 - s.first


def _deal(s: TwoMayorsState, kind: int) -> None:
    seat = _deal_to(s)
    s.deck[kind] -= 1
    s._give(seat, kind)
    if sum(s.hands[1 - s.first]) == DEALS[1]:  # §2c: the 3 left are the Countryside; §3a
        s.to_move = s.first
        s.phase = "turn"


def _turn(s: TwoMayorsState, action: int) -> None:
    if action == RECRUIT:  # §4a
        s.phase = "recruit"
    elif action == PASS:  # §3c
        s._end_turn()
    else:  # §4b
        card, declared = divmod(action - SEND0, K)
        s._give(s.to_move, card, -1)
        s.gate, s.declared = card, declared
        s.phase = "verdict"


def _recruit(s: TwoMayorsState, kind: int) -> None:
    s.deck[kind] -= 1  # §4a: the card goes to the hand and the turn ends
    s._give(s.to_move, kind)
    s._end_turn()


def _verdict(s: TwoMayorsState, action: int) -> None:
    """§5-§8: the card is revealed, its effect resolved, then it goes to prison or city."""
    am, pm, card = s.to_move, 1 - s.to_move, s.gate
    s.gate, s.declared = -1, -1
    s._mark_irreversible()  # §6: the card is shown
    if action == ARREST:
        if card == ASSASSIN:  # §7a
            s._win(pm, f"{NAMES[pm]} arrested the Assassin")
            return
        s.prisons[pm] = (*s.prisons[pm], card)  # §6a
        if len(s.prisons[pm]) >= PRISON_LIMIT:  # §8b
            s._win(am, f"{NAMES[pm]}'s prison holds {PRISON_LIMIT} cards")
            return
        s._end_turn()
        return
    if card == ASSASSIN:  # §7a
        s._win(am, f"{NAMES[pm]} admitted the Assassin")
        return
    if card == SELLSWORD and SELLSWORD in s.cities[pm]:  # §7b: checked before the card moves in
        s._win(am, f"{NAMES[pm]} admitted a second Sellsword")
        return
    s.cities[pm] = (*s.cities[pm], card)  # §6b
    if card == THIEF and sum(s.hands[pm]):  # §7c
        s.phase = "steal"
    elif card == BLACKMAILER:  # §7d
        s.phase = "name"
    else:
        s._end_turn()


def _steal_outcomes(s: TwoMayorsState) -> list[tuple[int, float]]:
    """§7c: a random card of the Passive Mayor's hand."""
    return by_counts(s.hands[1 - s.to_move])


def _steal(s: TwoMayorsState, kind: int) -> None:
    s._give(1 - s.to_move, kind, -1)
    s._give(s.to_move, kind)
    s._end_turn()


def _name(s: TwoMayorsState, action: int) -> None:
    s.barred = (1 - s.to_move, action - NAME0)  # §7d
    s._end_turn()


def _card_label(s: TwoMayorsState, player: int, action: int) -> str | None:
    return KINDS[action] if player == CHANCE and 0 <= action < K else None


def _coin_label(s: TwoMayorsState, player: int, action: int) -> str | None:
    return f"{NAMES[action]} goes first" if player == CHANCE and action in (0, 1) else None


# What each viewer is shown of a step (§9); texts follow the actor's name in a log.
def _deal_seen(s: TwoMayorsState, actor: int, kind: int) -> Seen:
    seat = _deal_to(s)
    return Seen(f"dealt a card to {NAMES[seat]}", {seat: f"dealt {a_(kind)} to {NAMES[seat]}"})


def _turn_seen(s: TwoMayorsState, actor: int, action: int) -> Seen:
    """§9a: a declaration is public; the card placed is seen by its sender only."""
    if action == RECRUIT:
        return Seen("recruits from the countryside")
    if action == PASS:
        return Seen("passes: no card may be played")
    card, declared = divmod(action - SEND0, K)
    gate = f"{NAMES[1 - s.to_move]}'s gate"
    return Seen(
        f"places a card on {gate}, declaring {a_(declared)}",
        {s.to_move: f"places {a_(card)} on {gate}, declaring {a_(declared)}"},
    )


def _recruit_seen(s: TwoMayorsState, actor: int, kind: int) -> Seen:
    p = NAMES[s.to_move]
    return Seen(f"{p} takes a card from the countryside", {s.to_move: f"{p} takes {a_(kind)} from the countryside"})


def _verdict_seen(s: TwoMayorsState, actor: int, action: int) -> Seen:
    """§6: the verdict reveals the card to everyone, with its effect."""
    after = s.clone()
    _verdict(after, action)
    card = s.gate
    text = f"{'arrests' if action == ARREST else 'admits'} {a_(card)}"
    if card != s.declared:
        text += f" (declared as {a_(s.declared)})"
    if after.phase == "over":
        text += f": {after.why}, {NAMES[after.winner]} wins"
    elif after.phase == "steal":
        text += f": {NAMES[s.to_move]} steals a card"
    elif after.phase == "name":
        text += f": {NAMES[s.to_move]} names a character"
    return Seen(text, pins=(len(s._history) - 1,))  # the card just placed on the gate


def _steal_seen(s: TwoMayorsState, actor: int, kind: int) -> Seen:
    """§9c: both mayors see the stolen card; spectators only with ``steal_public``."""
    am, pm = NAMES[s.to_move], NAMES[1 - s.to_move]
    exact = f"{am} steals {a_(kind)} from {pm}"
    if s.game.params["steal_public"]:
        return Seen(exact)
    return Seen(f"{am} steals a card from {pm}", {0: exact, 1: exact})


def _name_seen(s: TwoMayorsState, actor: int, action: int) -> Seen:
    kind = action - NAME0
    return Seen(f"names {KINDS[kind]}: {NAMES[1 - s.to_move]} may not place {a_(kind)} next turn")


def _explain_turn(s: TwoMayorsState, player: int, action: int) -> str | None:
    if action == RECRUIT:
        return said("the countryside is empty", "4a")
    if action == PASS:
        return said("you may pass only when you can neither recruit nor place a card", "3c")
    if action in (ARREST, ADMIT) or action >= NAME0:
        return said("it is your turn: recruit, or place a card on the other gate and declare it", "4")
    card, declared = divmod(action - SEND0, K)
    hand = s.hands[player]
    if not hand[card]:
        return said(f"you hold no {KINDS[card]}", "4b")
    if card == s.barred_for(player):
        return said(f"a Blackmailer barred you from placing {a_(card)} this turn", "7d")
    if s.game.bars_declare and declared == s.barred_for(player):
        return said(f"a Blackmailer barred you from declaring {a_(declared)} this turn", "7d")
    if declared == card:
        return said("you may not declare the character you place while you hold another", "4b rule 1")
    return said("you may declare only a character still in your hand", "4b rule 2")


def _explain_other(s: TwoMayorsState, player: int, action: int) -> str | None:
    if s.phase == "verdict":
        return said("arrest or admit the card on your gate", "5")
    return said("name the character your rival may not place on the next turn", "7d")


def _prompt(game: TwoMayorsGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    phase, v, am = obs["phase"], obs["viewer"], obs["active"]
    if phase == "over":
        w = obs["winner"]
        return f"{'You win' if w == v else NAMES[w] + ' wins'}: {obs['why']}."
    if phase == "coin":
        return "A coin decides the first mayor."
    if phase == "deal":
        return "The cards are dealt: 4 to the first mayor, 5 to the other, 3 to the countryside."
    gate = obs["gate"]
    if phase == "verdict":
        if legal:
            return f"{NAMES[am]} sends you a card declared as {a_(KINDS.index(gate['declared']))}: arrest or admit?"
        return f"{NAMES[1 - am]} decides: arrest or admit the card declared as {gate['declared']}."
    if phase == "recruit":
        return f"{NAMES[am]} takes a card from the countryside."
    if phase == "steal":
        return f"{NAMES[am]}'s Thief steals a card from {NAMES[1 - am]}."
    if phase == "name":
        return "Name a character your rival may not place next turn." if legal else f"{NAMES[am]} names a character."
    if not legal:
        return f"{NAMES[am]}'s turn."
    if legal == [(PASS, "pass")]:
        return "You can play no card: pass."
    return "Recruit from the countryside, or send a card to your rival's gate and declare a character."


PHASES = phase_table(
    Phase("coin", CHANCE, outcomes=lambda s: [(0, 0.5), (1, 0.5)], apply=_coin, label=_coin_label),
    Phase("deal", CHANCE, outcomes=_deck, apply=_deal, label=_card_label, seen=_deal_seen),
    Phase(
        "turn",
        lambda s: s.to_move,
        legal=TwoMayorsState.turn_legal,
        apply=_turn,
        explain=_explain_turn,
        seen=_turn_seen,
    ),
    Phase("recruit", CHANCE, outcomes=_deck, apply=_recruit, label=_card_label, seen=_recruit_seen),
    Phase(
        "verdict",
        lambda s: 1 - s.to_move,
        legal=lambda s, p: [ARREST, ADMIT] if p == 1 - s.to_move else [],
        apply=_verdict,
        explain=_explain_other,
        seen=_verdict_seen,
    ),
    Phase("steal", CHANCE, outcomes=_steal_outcomes, apply=_steal, label=_card_label, seen=_steal_seen),
    Phase(
        "name",
        lambda s: s.to_move,
        legal=lambda s, p: [NAME0 + k for k in range(K)] if p == s.to_move else [],
        apply=_name,
        explain=_explain_other,
        seen=_name_seen,
    ),
    Phase("over", TERMINAL),
    prompt=_prompt,
)
TwoMayorsState.phases = PHASES
PHASE_NAMES = tuple(PHASES)


# -- resample -------------------------------------------------------------------------------------------
# What a viewer does not see is who got which card: the other mayor's dealt and recruited cards (every card
# for a spectator), the card on the viewer's own gate until the verdict, and (for a spectator) a stolen card.
# Every card a mayor places is revealed by the verdict that follows, so the hidden part of a world is small:
# the multiset of each hidden deal, the card of each hidden recruit or steal, and a card waiting on the gate.
# ``_worlds`` lists every such assignment that makes the whole history legal, with its probability: the deck
# draws a viewer did not see are a uniformly random arrangement of the cards it has not seen drawn, a steal
# takes any card of the robbed hand, and a mayor whose hand is hidden chooses uniformly among its legal moves
# (so a declaration shows the declarer could make it, §9b). A resample draws one by its weight and orders
# each hidden deal at random; the cases are small enough to list, once per position and viewer.

#: One world: weight, the multiset dealt to each seat (counts, or None where seen), recruit, steal and gate cards.
Hands = tuple[tuple[int, ...], tuple[int, ...]]
World = tuple[float, tuple[tuple[int, ...] | None, ...], tuple[int, ...], tuple[int, ...], int]


def _multisets(pool: tuple[int, ...], n: int) -> list[tuple[tuple[int, ...], float]]:
    """Every draw of ``n`` cards from ``pool`` (counts by character), with its hypergeometric probability."""
    from math import comb

    total = comb(sum(pool), n)
    out: list[tuple[tuple[int, ...], float]] = []

    def rec(k: int, left: int, acc: tuple[int, ...], w: int) -> None:
        if k == K:
            if left == 0:
                out.append((acc, w / total))
            return
        for m in range(min(left, pool[k]) + 1):
            rec(k + 1, left - m, (*acc, m), w * comb(pool[k], m))

    rec(0, n, (), 1)
    return out


def _events(s: TwoMayorsState, v: int | None) -> tuple[list[tuple[Any, ...]], tuple[int, ...], list[int]]:
    """The history as the light model below reads it, the cards ``v`` has not seen drawn, and hidden deal sizes."""
    r = TwoMayorsState(s.game, s.num_players)
    seen = list(COPIES)
    deals = [0, 0]
    events: list[tuple[Any, ...]] = []
    history = s._history
    for i, entry in enumerate(history):
        assert isinstance(entry, int)
        phase, am = r.phase, r.to_move
        if phase == "deal":
            seat = _deal_to(r)
            if seat == v:
                seen[entry] -= 1
                events.append(("known", seat, entry))
            else:
                deals[seat] += 1
                events.append(("deal", seat, deals[seat] == 1))
        elif phase == "recruit":
            if am == v:
                seen[entry] -= 1
                events.append(("known", am, entry))
            else:
                events.append(("recruit", am))
        elif phase == "steal":
            public = v is not None or s.game.params["steal_public"]
            events.append(("steal", am, entry if public else -1))
        elif phase == "turn":
            pending = i == len(history) - 1 and entry not in (RECRUIT, PASS)
            events.append(("turn", am, entry, r.barred_for(am), sum(r.deck) > 0, pending and am != v))
        r.apply_legal(entry)
    return events, tuple(seen), deals


def _moves(hand: tuple[int, ...], barred: int, bars_declare: bool, recruit: bool) -> int:
    """How many moves a mayor with ``hand`` has at the start of a turn (§3c: none means a pass)."""
    n = int(recruit)
    for card in range(K):
        if hand[card] and card != barred:
            n += len(declarations(hand, card, barred if bars_declare else -1))
    return n


def _worlds(s: TwoMayorsState, v: int | None) -> list[World]:
    events, pool0, deal_sizes = _events(s, v)
    bars_declare = s.game.bars_declare
    worlds: list[World] = []
    dealt: list[tuple[int, ...] | None] = [None, None]

    def add(hand: tuple[int, ...], kind: int, d: int = 1) -> tuple[int, ...]:
        h = list(hand)
        h[kind] += d
        return tuple(h)

    def rec(
        i: int, hands: Hands, pool: tuple[int, ...], w: float, rs: tuple[int, ...], ss: tuple[int, ...], x: int
    ) -> None:
        while i < len(events):
            e = events[i]
            kind = e[0]
            if kind == "known":
                hands = (add(hands[0], e[2]), hands[1]) if e[1] == 0 else (hands[0], add(hands[1], e[2]))
            elif kind == "deal":
                if e[2]:  # the first hidden deal to this seat: every multiset of its hidden deals at once
                    seat = e[1]
                    for m, p in _multisets(pool, deal_sizes[seat]):
                        h = tuple(a + b for a, b in zip(hands[seat], m))
                        nh = (h, hands[1]) if seat == 0 else (hands[0], h)
                        dealt[seat] = m
                        rec(i + 1, nh, tuple(a - b for a, b in zip(pool, m)), w * p, rs, ss, x)
                    dealt[seat] = None
                    return
            elif kind == "recruit":
                n = sum(pool)
                for k in range(K):
                    if pool[k]:
                        seat = e[1]
                        h = add(hands[seat], k)
                        nh = (h, hands[1]) if seat == 0 else (hands[0], h)
                        rec(i + 1, nh, add(pool, k, -1), w * pool[k] / n, (*rs, k), ss, x)
                return
            elif kind == "steal":
                thief, victim = e[1], 1 - e[1]
                vh = hands[victim]
                n = sum(vh)
                options = [e[2]] if e[2] >= 0 else range(K)
                for k in options:
                    if vh[k]:
                        new = [hands[0], hands[1]]
                        new[victim] = add(vh, k, -1)
                        new[thief] = add(hands[thief], k)
                        rec(i + 1, (new[0], new[1]), pool, w * vh[k] / n, rs, (*ss, k) if e[2] < 0 else ss, x)
                return
            else:  # a turn: the move must be legal for the hand; a hidden hand chose uniformly
                _, seat, action, barred, recruit, pending = e
                hand = hands[seat]
                moves = _moves(hand, barred, bars_declare, recruit)
                if action == PASS and moves:
                    return
                if seat != v:
                    w /= moves or 1
                if action not in (RECRUIT, PASS):
                    card, declared = divmod(action - SEND0, K)
                    cards = [c for c in range(K) if hand[c] and c != barred] if pending else [card]
                    for c in cards:
                        if (
                            hand[c]
                            and c != barred
                            and declared in declarations(hand, c, barred if bars_declare else -1)
                        ):
                            h = add(hand, c, -1)
                            nh = (h, hands[1]) if seat == 0 else (hands[0], h)
                            rec(i + 1, nh, pool, w, rs, ss, c if pending else x)
                    return
            i += 1
        worlds.append((w, (dealt[0], dealt[1]), rs, ss, x))

    rec(0, ((0,) * K, (0,) * K), pool0, 1.0, (), (), -1)
    return worlds


def _resample(s: TwoMayorsState, player: int | None, rng: random.Random) -> TwoMayorsState:
    """Draw a world from :func:`_worlds` by weight and rebuild its history (the seen entries unchanged)."""
    key = (tuple(s._history), player)
    cached = s.__dict__.get("_worlds")
    if cached is None or cached[0] != key:  # kept for the last position and viewer asked (search asks again)
        worlds = _worlds(s, player)
        total, cumulative = 0.0, []
        for world in worlds:
            total += world[0]
            cumulative.append(total)
        cached = (key, (worlds, cumulative, total))
        s.__dict__["_worlds"] = cached
    worlds, cumulative, total = cached[1]
    if not worlds:  # cannot happen for a legal history; the core's search is the safe answer
        from ..core import hidden

        return hidden.resample(s, player, rng)  # type: ignore[return-value]
    _, dealt, recruits, steals, gate = worlds[min(bisect_right(cumulative, rng.random() * total), len(worlds) - 1)]
    orders = [[k for k in range(K) for _ in range(m[k])] if m is not None else [] for m in dealt]
    for order in orders:
        rng.shuffle(order)
    r = TwoMayorsState(s.game, s.num_players)
    ri = si = 0
    for entry in s._history:
        assert isinstance(entry, int)
        phase = r.phase
        if phase == "deal":
            seat = _deal_to(r)
            if seat != player:
                entry = orders[seat].pop()
        elif phase == "recruit" and r.to_move != player:
            entry, ri = recruits[ri], ri + 1
        elif phase == "steal" and player is None and not s.game.params["steal_public"]:
            entry, si = steals[si], si + 1
        elif phase == "turn" and gate >= 0 and len(r._history) == len(s._history) - 1:
            entry = SEND0 + K * gate + (entry - SEND0) % K
        r.apply_legal(entry)
    return r


# -- the scene ------------------------------------------------------------------------------------------


def _card(id: str, kind: int, detail: str | None = None) -> dict[str, Any]:
    c = CHARACTERS[kind]
    return sc.item(id, c["name"], value=c["value"], suit=c["suit"], colour=c["colour"], detail=detail)


@TwoMayorsGame.draws_scene
def _scene(game: TwoMayorsGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    v = obs["viewer"]
    s = sc.new_scene(_prompt(game, obs, legal))
    seats = (1 - v, v) if v is not None else (0, 1)
    gate = obs["gate"]
    first_of: dict[int, str] = {}
    for seat in seats:
        name = "Your" if seat == v else f"{NAMES[seat]}'s"
        if seat == v:
            items = []
            for i, kind in enumerate(obs["hand"]):
                k = KINDS.index(kind)
                first_of.setdefault(k, f"hand{seat}-{i}")
                items.append(_card(f"hand{seat}-{i}", k))
        else:
            items = [
                sc.item(f"hand{seat}-{i}", "a character card", face_down=True, owner=seat)
                for i in range(obs["hand_sizes"][seat])
            ]
        n = obs["hand_sizes"][seat]
        hand = sc.zone(f"hand{seat}", f"{name} hand: {n} card{'s' if n != 1 else ''}", items, owner=seat)
        gate_items = []
        title = f"{name} city gate"
        if gate is not None and gate["mayor"] == seat:
            declared = gate["declared"]
            title += f": a card declared as {a_(KINDS.index(declared))}"
            if gate["card"] is not None:
                gate_items.append(_card(f"gate{seat}", KINDS.index(gate["card"]), f"declared as {declared}"))
            else:
                gate_items.append(sc.item(f"gate{seat}", f"declared {declared}", face_down=True, owner=gate["sender"]))
        prison = sc.zone(
            f"prison{seat}",
            f"{name} prison: {len(obs['prisons'][seat])} of {PRISON_LIMIT}",
            [_card(f"prison{seat}-{i}", KINDS.index(c)) for i, c in enumerate(obs["prisons"][seat])],
            owner=seat,
        )
        city = sc.zone(
            f"city{seat}",
            f"{name} city",
            [_card(f"city{seat}-{i}", KINDS.index(c)) for i, c in enumerate(obs["cities"][seat])],
            owner=seat,
        )
        gate_zone = sc.zone(f"gate{seat}", title, gate_items, owner=seat)
        if seat == seats[0]:
            s["zones"] += [hand, prison, city, gate_zone]
            country = [sc.item(f"country{i}", "a face-down card", face_down=True) for i in range(obs["countryside"])]
            s["zones"].append(sc.zone("countryside", "Countryside (face down)", country))
        else:
            s["zones"] += [gate_zone, city, prison, hand]
    s["zones"].append(
        sc.zone("reference", "The characters", [_card(f"ref{k}", k, CHARACTERS[k]["effect"]) for k in range(K)])
    )
    for a, label in legal:
        if SEND0 <= a < SEND0 + K * K:
            card = (a - SEND0) // K
            if card in first_of:
                s["targets"].append({"at": first_of[card], "action": a, "label": label})
        elif a == RECRUIT and obs["countryside"]:
            s["targets"].append({"at": "country0", "action": a, "label": label})
        elif NAME0 <= a < NAME0 + K:
            s["targets"].append({"at": f"ref{a - NAME0}", "action": a, "label": label})
    barred = obs["barred"]
    s["status"] = [f"{NAMES[k]}: {obs['hand_sizes'][k]} in hand, {len(obs['prisons'][k])} in prison" for k in (0, 1)]
    s["status"].append(f"Countryside: {obs['countryside']} card{'s' if obs['countryside'] != 1 else ''}")
    if barred is not None:
        s["status"].append(f"{NAMES[barred['mayor']]} may not place {a_(KINDS.index(barred['character']))} this turn")
    am = obs["active"]
    s["players"] = [
        sc.player(k, NAMES[k] + (" (you)" if k == v else ""), "active mayor" if k == am else None) for k in (0, 1)
    ]
    return sc.finish_scene(s, legal)


TwoMayorsGame.state_class = TwoMayorsState
GAME_CLASS = TwoMayorsGame
