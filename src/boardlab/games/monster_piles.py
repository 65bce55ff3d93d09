"""Monster Piles: build face-down piles of monsters whose backs show their class, then pick one to score.

Rules: ``docs/rules/monster-piles.md``; clauses are cited as ``§n``.

Cards are numbered 0-12, value minus one (:data:`CARDS`). Chance actions are a
card (0-12: the face of a card someone looks at, or of a card turned face up)
or a class (13-17: the back of the card that has just come to the top of the
deck, §5.1). Seat actions are the segments of :data:`ACTIONS`: ``place``
(a pile), ``power``, ``animal`` (a pile), ``discard``, ``move`` and ``look``
(a pile and a card of it, counted from the bottom), ``move_to`` and ``take``
(a pile).

The shuffle is dealt lazily, one explicit chance event at a time, and split in
two: when a card comes to the top of the deck chance draws its class (weighted
by how many cards of each class are still in the deck), and only when someone
first looks at the card, or it is turned face up, does chance draw which card
of that class it is (uniformly among the cards of the class nobody has seen
yet). The product of the two is exactly a uniform shuffle, and no face exists
in the state before someone sees it. Every card that has come off the deck is
a *token* here: its class, its face (or -1 while nobody has seen it), and who
knows the face (:data:`PUBLIC` once it is face up).

``resample`` is the fast equivalent of the core's: every seat decision is
public and the classes are public, so what a viewer cannot tell apart is only
which faces lie under the backs it has not seen; every such assignment is
equally likely (the number of cards left to draw from at each draw is public),
so it deals them anew uniformly, within each class.
"""

from __future__ import annotations

import random
from typing import Any

from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.chance import by_counts, equally_likely
from ..core.constants import CHANCE, TERMINAL
from ..core.game import Game
from ..core.gametype import Chance, GameType, Information
from ..core.hidden import Seen
from ..core.options import Option
from ..core.phases import Phase, PhasedState, phase_table
from ..core.tensor import Tensor
from ..core.wording import said, third_person
from . import _tensors as tz

# -- the cards (§1) ---------------------------------------------------------------

BRUTAL, UNDEAD, ANIMALS, CONSTRUCTS, DRAGONS = range(5)
#: The classes (§1): name, back colour, the colour it is drawn in, a symbol for the card's corner.
CLASSES = (
    ("Brutal Races", "brown", "#8b5a2b", "⚔"),
    ("Undead", "black", "#2b2823", "☠"),
    ("Animals", "green", "#2e7d32", "✿"),
    ("Constructs", "silver", "#7d8791", "⚙"),
    ("Dragons", "gold", "#c9a227", "♛"),
)
#: The thirteen cards (§1), by card number (value minus one): name, class.
CARDS = (
    ("Kobald", BRUTAL),
    ("Zombie", UNDEAD),
    ("Orc", BRUTAL),
    ("Possessed Fox", ANIMALS),
    ("Vampire", UNDEAD),
    ("Dire Wolf", ANIMALS),
    ("Flesh Golem", CONSTRUCTS),
    ("Dire Elephant", ANIMALS),
    ("Lich", UNDEAD),
    ("Black Dragon", DRAGONS),
    ("Iron Golem", CONSTRUCTS),
    ("Rakshasa", BRUTAL),
    ("Gold Dragon", DRAGONS),
)
DECK = len(CARDS)
CLASS_CARDS = tuple(tuple(c for c in range(DECK) if CARDS[c][1] == k) for k in range(len(CLASSES)))
CLASS_ACTION = DECK  # chance action of class k: DECK + k
POWERS = (
    "discard two cards from two different piles, face up",
    "only while another Undead card is in a pile: end the round at once",
    "put the top two cards of the deck on two different piles, unseen",
    "move one card from a pile to the top of another pile, unseen",
    "look at three cards in the piles, in secret",
)

NAMES = ("Orange", "Blue", "Green")
PILES = ("A", "B", "C")
PUBLIC = 1 << 8  # in a token's ``known`` mask: the face is up, everyone knows it
MAX_ROUNDS = 3
POSITIONS = tuple(str(k + 1) for k in range(DECK))


def value(card: int) -> int:
    return card + 1


def card_name(card: int) -> str:
    return f"{CARDS[card][0]} ({value(card)})"


def back_name(cls: int) -> str:
    return f"{CLASSES[cls][1]} back ({CLASSES[cls][0]})"


ACTIONS = ActionSpace(
    Segment("place", (("pile", PILES),), "place it on pile {pile}"),
    Segment("power", (), "use its power"),
    Segment("animal", (("pile", PILES),), "put the deck's top card on pile {pile}"),
    Segment("discard", (("pile", PILES), ("card", POSITIONS)), "discard card {card} of pile {pile}"),
    Segment("move", (("pile", PILES), ("card", POSITIONS)), "move card {card} of pile {pile}"),
    Segment("move_to", (("pile", PILES),), "move it onto pile {pile}"),
    Segment("look", (("pile", PILES), ("card", POSITIONS)), "look at card {card} of pile {pile}"),
    Segment("take", (("pile", PILES),), "take pile {pile}"),
)
PLACE, POWER, ANIMAL, MOVE_TO, TAKE = ACTIONS.offsets("place", "power", "animal", "move_to", "take")


def _card_action(segment: str, pile: int, pos: int) -> int:
    return ACTIONS.encode(segment, pile, pos)


def marker_taken(sizes: list[int], gained: set[int], diff: int) -> bool:
    """§9: whether a pile that gained a card now has at least ``diff`` more cards than some other pile.

    >>> marker_taken([3, 4, 6], {2}, 3), marker_taken([3, 5, 5], {1}, 3)
    (True, False)
    """
    low = min(sizes)
    return any(sizes[p] - low >= diff for p in gained)


def barred_piles(sizes: list[int], remaining: list[int], most: str, tie: str) -> set[int]:
    """§10.2: the remaining piles the marker holder may not take.

    ``most``: ``remaining`` compares the remaining piles, ``overall`` all of
    them; ``tie``: ``bar_all_tied`` bars every pile tied for the most,
    ``no_restriction`` bars none when the most is shared. A holder barred
    from every remaining pile may take any of them.

    >>> barred_piles([2, 5, 4], [0, 2], "remaining", "bar_all_tied"), barred_piles([2, 5, 4], [0, 2], "overall", "bar_all_tied")
    ({2}, set())
    """
    field = range(len(sizes)) if most == "overall" else remaining
    top = max(sizes[p] for p in field)
    biggest = [p for p in field if sizes[p] == top]
    if tie == "no_restriction" and len(biggest) > 1:
        return set()
    barred = {p for p in biggest if p in remaining}
    return set() if barred >= set(remaining) else barred


def share_returns(totals: list[int]) -> list[float]:
    """§11: the highest total wins; tied highest totals share the win (zero-sum, within [-1, 1]).

    >>> share_returns([30, 20]), share_returns([30, 30, 20]), share_returns([10, 40, 20])
    ([1.0, -1.0], [0.5, 0.5, -1.0], [-0.5, 1.0, -0.5])
    """
    n = len(totals)
    best = max(totals)
    k = totals.count(best)
    if k == n:
        return [0.0] * n
    return [(n - k) / (n - 1) if t == best else -k / (n - 1) for t in totals]


class MonsterPilesGame(Game):
    id = "monster-piles"
    title = "Monster Piles"
    summary = (
        "Thirteen monsters, their classes shown on their backs: place each card face down on a pile or use its "
        "power, then choose a pile without looking and score its cards."
    )
    max_players = 3
    options = (
        Option(
            "marker_diff",
            int,
            3,
            (3, 2),
            said(
                "How many more cards than another pile a pile must have, after a card lands on it, for the active "
                "player to take the marker: 3 as the rules' example shows, or 2 as their sentence says.",
                "9",
            ),
        ),
        Option.choice(
            "marker_sources",
            {"any_gain": "Every pile that gained a card", "place_only": "Only the pile a card was placed on"},
            said(
                "Which piles are checked for the marker: every pile that gained a card this turn (a placed card, "
                "Animals, Constructs), or only the pile a card was placed on.",
                "9",
            ),
        ),
        Option.choice(
            "undead_condition",
            {"any_other": "One other Undead card", "all_other": "Both other Undead cards"},
            said("An Undead power needs another Undead card in a pile, or both others.", "8.2"),
        ),
        Option.flag(
            "partial_powers",
            False,
            said(
                "Whether a Brutal Races or Animals power may be used when only one card can be discarded or moved.",
                "8.6",
            ),
        ),
        Option.choice(
            "marker_tie",
            {"bar_all_tied": "None of the tied piles", "no_restriction": "Any pile"},
            said("When piles tie for the most cards: the marker holder may take none of them, or any pile.", "10.2"),
        ),
        Option.choice(
            "marker_most",
            {"remaining": "Among the piles still to choose", "overall": "Among all the piles"},
            said(
                "The pile with the most cards is counted among the piles still to choose from, or among all the piles.",
                "10.2",
            ),
        ),
    )
    mechanics = ("cards", "hidden cards", "visible card backs", "memory", "pile choice")
    playing_time = "10 min"
    game_type = GameType(chance=Chance.EXPLICIT, information=Information.IMPERFECT)
    seat_names = NAMES
    inventions = (
        "Seat order is turn order: the rules' 'the player to your right' is the next seat.",
        "The first round's start player is the first seat, and the start player moves one seat on each round.",
        "The marker is taken when a pile has at least 3 more cards than another pile after a card lands on it, "
        "as the rules' worked example shows, not 2 as their sentence says (option marker_diff).",
        "Every pile that gained a card this turn is checked for the marker, after Animals and Constructs too; "
        "a discard never gives the marker (option marker_sources).",
        "An Undead power needs at least one other Undead card in a pile (option undead_condition).",
        "A power that cannot be carried out in full cannot be used: the card must be placed "
        "(option partial_powers); a Dragon looks at every pile card when there are fewer than three.",
        "A card moved by a Construct goes on top of the other pile.",
        "The marker holder may take no pile tied for the most cards, unless every remaining pile is so tied "
        "(options marker_tie, marker_most).",
        "Tied highest totals share the win.",
        "The class symbols drawn on the cards and the colours they are drawn in.",
    )
    num_chance_outcomes = DECK + len(CLASSES)
    # Per round: 13 backs and at most 13 looks; at most 13 turns of at most 7 entries (a Dragon's
    # power and its three peeks is the longest); two pile choices and 13 cards turned up.
    max_length = MAX_ROUNDS * (13 + 13 + 13 * 7 + 2 + 13)

    def _setup(self) -> None:
        self.action_space = ACTIONS
        self.diff = self.params["marker_diff"]
        self.place_only = self.params["marker_sources"] == "place_only"
        self.all_undead = self.params["undead_condition"] == "all_other"
        self.partial = self.params["partial_powers"]


class MonsterPilesState(PhasedState):
    game: MonsterPilesGame
    copied = (
        "classes",
        "faces",
        "known",
        "drawn_at",
        "piles",
        "discards",
        "totals",
        "results",
        "takers",
        "picked",
        "gained",
        "reveal_queue",
    )

    def __init__(self, game: MonsterPilesGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.round = 0
        self.totals = [0] * num_players
        self.results: list[dict[str, Any]] = []  # finished rounds, all public
        self._new_round()

    # -- the round (§4) ---------------------------------------------------------
    def _new_round(self) -> None:
        """§4: the thirteen cards shuffled into the deck, the piles empty, the marker set aside."""
        n = self.num_players
        self.start = self.round % n
        self.to_move = self.start
        self.classes: list[int] = []  # per token (a card off the deck): its class
        self.faces: list[int] = []  # its card, -1 while nobody has seen it
        self.known: list[int] = []  # who knows the face: seat bits, PUBLIC
        self.drawn_at: list[tuple[int, ...]] = []  # the history entries that show the face
        self.in_deck = DECK  # cards in the deck, the exposed top card included
        self.top = -1  # the token on top of the deck (its back is seen), -1 when none is exposed
        self.held = -1  # the token the active player looked at
        self.piles: list[tuple[int, ...]] = [() for _ in range(n)]  # bottom first
        self.discards: list[int] = []
        self.marker = -1
        self.takers = [-1] * n
        self.chooser = -1
        self.power = -1  # the class whose power is being used
        self.picked: list[int] = []  # tokens picked so far by the power
        self.first_pile = -1  # Brutal Races and Animals: the pile of the first card; Constructs: the source
        self.steps_left = 0  # cards still to discard, put or look at
        self.gained: list[int] = []  # piles that gained a card this turn (§9)
        self.reveal_queue: list[int] = []
        self.after_expose = "look"
        self.after_reveal = ""
        self.phase = "expose"

    # -- what follows from the state -------------------------------------------
    def unexposed(self, cls: int) -> int:
        """Cards of ``cls`` still in the deck under the exposed top card (their backs unseen)."""
        return len(CLASS_CARDS[cls]) - self.classes.count(cls)

    def unseen_faces(self, cls: int) -> list[int]:
        """The cards of ``cls`` whose face nobody has seen: chance draws a face among them."""
        taken = {f for f in self.faces if f >= 0}
        return [c for c in CLASS_CARDS[cls] if c not in taken]

    def pile_cards(self) -> int:
        return sum(len(p) for p in self.piles)

    def where(self, token: int) -> tuple[int, int]:
        for p, pile in enumerate(self.piles):
            if token in pile:
                return p, pile.index(token)
        raise ValueError(f"token {token} is in no pile")

    def knows(self, viewer: int | None, token: int) -> bool:
        mask = self.known[token]
        return bool(mask & PUBLIC) or (viewer is not None and bool(mask & (1 << viewer)))

    def power_available(self, cls: int) -> bool:
        """§8: whether the held card's power can be used now (§8.6: otherwise it must be placed)."""
        nonempty = sum(1 for p in self.piles if p)
        if cls == BRUTAL:
            return nonempty >= 2 or (self.game.partial and nonempty == 1)
        if cls == UNDEAD:
            others = sum(1 for p in self.piles for t in p if self.classes[t] == UNDEAD)
            return others >= (2 if self.game.all_undead else 1)
        if cls == ANIMALS:
            return self.in_deck >= 2 or (self.game.partial and self.in_deck == 1)
        return nonempty >= 1  # Constructs and Dragons need a card in a pile

    def returns(self) -> list[float]:
        if self.phase != "over":
            return [0.0] * self.num_players
        return share_returns(self.totals)

    def winners(self) -> list[int]:
        best = max(self.totals)
        return [p for p in range(self.num_players) if self.totals[p] == best]

    # -- hidden information ---------------------------------------------------
    def _viewer(self, player: int | None) -> int | None:
        if player is None:
            return None
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.num_players:
            raise ValueError(f"no seat {player!r} in this game of Monster Piles (None: a spectator)")
        return player

    def _token_view(self, viewer: int | None, t: int) -> dict[str, Any]:
        face = self.faces[t] if self.knows(viewer, t) else -1
        return {"class": self.classes[t], "card": face if face >= 0 else None}

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The observation as numbers (docs/research/tensors-newer.md): seats from the viewer's, piles as they lie."""
        o = self.observation(player)
        v, n = o["viewer"], self.num_players
        tz.header(t, o, v, n, PHASE_NAMES)
        t.counts("round", [o["round"]], MAX_ROUNDS)
        t.one_hot("start", tz.rel(o["start"], v, n), n)
        t.one_hot("active", tz.rel(o["active"], v, n), n)
        t.counts("deck", [o["deck"]], DECK)
        t.one_hot("top", o["top"], len(CLASSES))
        t.one_hot("held", _token_code(o["held"]) if o["held"] else None, TOKEN_CODES)
        for p in range(n):
            tz.seq(t, f"pile{PILES[p]}", [_token_code(x) for x in o["piles"][p]], DECK, TOKEN_CODES)
        tz.seq(t, "discards", [_token_code(x) for x in o["discards"]], DECK, TOKEN_CODES)
        t.one_hot("marker", tz.rel(o["marker"], v, n), n)
        power = o["power"]
        t.one_hot("power", power["class"] if power else None, len(CLASSES))
        t.one_hot("power_first_pile", power["first_pile"] if power else None, n)
        t.counts("power_left", [power["left"] if power else 0], MAX_PICKED)
        picked = [
            len(PILES) * DECK if x["pile"] is None else x["pile"] * DECK + x["card"]
            for x in (power or {}).get("picked", [])
        ]
        tz.seq(t, "power_picked", picked, MAX_PICKED, len(PILES) * DECK + 1)
        tz.one_hots(t, "takers", [tz.rel(x, v, n) for x in o["takers"]], n)
        t.one_hot("chooser", tz.rel(o["chooser"], v, n), n)
        t.counts("totals", tz.rotate(o["totals"], v), MAX_SCORE * n)
        for r in range(n):
            res = o["results"][r] if r < len(o["results"]) else None
            t.bits(f"round{r + 1}_done", [res is not None])
            t.one_hot(f"round{r + 1}_start", tz.rel(res["start"], v, n) if res else None, n)
            for p in range(n):
                faces = [f if f >= 0 else DECK for f in res["piles"][p]] if res else []
                tz.seq(t, f"round{r + 1}_pile{PILES[p]}", faces, DECK, DECK + 1)
            takers = [tz.rel(x, v, n) for x in res["takers"]] if res else [None] * n
            tz.one_hots(t, f"round{r + 1}_takers", takers, n)
            t.counts(f"round{r + 1}_scores", tz.rotate(res["scores"], v) if res else [0] * n, MAX_SCORE)
            faces = [f if f >= 0 else DECK for f in res["discards"]] if res else []
            tz.seq(t, f"round{r + 1}_discards", faces, DECK, DECK + 1)
            t.counts(f"round{r + 1}_deck", [res["deck"] if res else 0], DECK)
        winners = o["winners"] or []
        t.bits("winners", [s in winners for s in tz.order(v, n)])

    def observation(self, player: int | None = None) -> dict[str, Any]:
        v = self._viewer(player)
        power: dict[str, Any] | None = None
        if self.power >= 0:
            picked = []
            for t in self.picked:
                if t in self.discards:
                    picked.append({"pile": None, "card": None})
                else:
                    pile, pos = self.where(t)
                    picked.append({"pile": pile, "card": pos})
            power = {
                "class": self.power,
                "first_pile": self.first_pile if self.first_pile >= 0 else None,
                "left": self.steps_left,
                "picked": picked,
            }
        return {
            "viewer": v,
            "players": self.num_players,
            "round": min(self.round + 1, self.num_players),
            "rounds": self.num_players,
            "start": self.start,
            "active": self.to_move,
            "to_move": self.current_player(),
            "phase": self.phase,
            "deck": self.in_deck,
            "top": self.classes[self.top] if self.top >= 0 else None,
            "held": self._token_view(v, self.held) if self.held >= 0 else None,
            "piles": [[self._token_view(v, t) for t in pile] for pile in self.piles],
            "discards": [self._token_view(v, t) for t in self.discards],
            "marker": self.marker if self.marker >= 0 else None,
            "power": power,
            "takers": [t if t >= 0 else None for t in self.takers],
            "chooser": self.chooser if self.chooser >= 0 else None,
            "totals": self.totals[:],
            "results": [dict(r) for r in self.results],
            "winners": self.winners() if self.phase == "over" else None,
        }

    def resample(self, player: int | None, rng: random.Random) -> MonsterPilesState:
        """A state ``player`` cannot tell from this one: the faces it has not seen dealt anew, class by class.

        Kept, measured faster than the core's default (``bench/bench_resample.py monster-piles``: 0.03-0.7 ms a
        call against the core's 8-93 ms, per viewer, 5 calls on each position of four seeded games).
        """
        v = self._viewer(player)
        s = self.clone()
        history = s._history
        for cls in range(len(CLASSES)):
            redraw = [t for t, c in enumerate(self.classes) if c == cls and self.faces[t] >= 0 and not self.knows(v, t)]
            if not redraw:
                continue
            seen = {self.faces[t] for t, c in enumerate(self.classes) if c == cls and self.knows(v, t)}
            free = [c for c in CLASS_CARDS[cls] if c not in seen]
            for t, face in zip(redraw, rng.sample(free, len(redraw)), strict=False):
                s.faces[t] = face
                for i in self.drawn_at[t]:
                    history[i] = face
        return s

    # -- applying: the steps of a turn (§6-§9) ------------------------------------
    def _end_action(self) -> None:
        """§6: the marker check (§9), then scoring if the deck is empty, else the next player's turn."""
        if self.gained:
            sizes = [len(p) for p in self.piles]
            if marker_taken(sizes, set(self.gained), self.game.diff):
                self.marker = self.to_move
        self.gained = []
        self.power, self.picked, self.first_pile, self.steps_left = -1, [], -1, 0
        if self.in_deck == 0:
            self._start_scoring()
        else:
            self.to_move = (self.to_move + 1) % self.num_players
            self.phase = "look"

    def _expose_or(self, then: str) -> None:
        """The card under the one just taken comes to the top: chance shows its back (§5.1), then ``then``."""
        if self.in_deck > 0:
            self.after_expose = then
            self.phase = "expose"
        else:
            self._continue(then)

    def _continue(self, then: str) -> None:
        if then == "end":
            self._end_action()
        else:
            self.phase = then

    def _reveal(self, tokens: list[int], then: str) -> None:
        """Turn ``tokens`` face up, one chance entry each (a face nobody has seen is drawn then)."""
        self.reveal_queue = tokens[:]
        self.after_reveal = then
        if tokens:
            self.phase = "reveal"
        else:
            self._after_reveal()

    def _after_reveal(self) -> None:
        if self.after_reveal == "round_end":
            self._end_round()
        elif self.after_reveal == "brutal" and self.steps_left > 0:
            self.phase = "brutal"
        else:
            self._end_action()

    def _start_scoring(self) -> None:
        """§10.1: piles are chosen in turn order from the start player; the last player gets the last pile."""
        self.power, self.picked, self.first_pile, self.steps_left, self.gained = -1, [], -1, 0, []
        self.chooser = self.start
        self.phase = "choose"
        self._auto_take()

    def _auto_take(self) -> None:
        remaining = [p for p in range(self.num_players) if self.takers[p] < 0]
        if len(remaining) == 1:
            self.takers[remaining[0]] = self.chooser
            self.chooser = -1
            self._mark_irreversible()
            self._reveal([t for pile in self.piles for t in pile], "round_end")

    def _end_round(self) -> None:
        """§10.3: each player scores the cards of the pile taken; §3: the next round, or the end (§11)."""
        scores = [0] * self.num_players
        for p, seat in enumerate(self.takers):
            scores[seat] = sum(value(self.faces[t]) for t in self.piles[p])
        for seat in range(self.num_players):
            self.totals[seat] += scores[seat]
        self.results.append(
            {
                "round": min(self.round + 1, self.num_players),
                "start": self.start,
                "piles": [[self.faces[t] for t in pile] for pile in self.piles],
                "takers": self.takers[:],
                "scores": scores,
                "discards": [self.faces[t] for t in self.discards],
                "deck": self.in_deck,
            }
        )
        self.round += 1
        if self.round < self.num_players:
            self._new_round()
        else:
            self.phase = "over"

    def legal_picks(self, segment: str, exclude_pile: int = -1, exclude: tuple[int, ...] = ()) -> list[int]:
        return [
            _card_action(segment, p, k)
            for p, pile in enumerate(self.piles)
            if p != exclude_pile
            for k, t in enumerate(pile)
            if t not in exclude
        ]


# -- the phases -------------------------------------------------------------------


def _expose_outcomes(s: MonsterPilesState) -> list[tuple[int, float]]:
    """§5.1: the new top card's class, weighted by the cards of each class still in the deck."""
    return by_counts([s.unexposed(k) for k in range(len(CLASSES))], first=CLASS_ACTION)


def _expose(s: MonsterPilesState, action: int) -> None:
    s.classes.append(action - CLASS_ACTION)
    s.faces.append(-1)
    s.known.append(0)
    s.drawn_at.append(())
    s.top = len(s.classes) - 1
    s._continue(s.after_expose)


def _chance_label(s: MonsterPilesState, player: int, action: int) -> str | None:
    if player != CHANCE:
        return None
    if 0 <= action < DECK:
        return card_name(action)
    if CLASS_ACTION <= action < CLASS_ACTION + len(CLASSES):
        return f"a {back_name(action - CLASS_ACTION)}"
    return None


def _expose_seen(s: MonsterPilesState, actor: int, action: int) -> Seen:
    return Seen(f"the top card of the deck shows a {back_name(action - CLASS_ACTION)}")


def _face_draw(s: MonsterPilesState, t: int) -> list[tuple[int, float]]:
    """The face of token ``t`` as someone sees it: the one it has, or any card of its class nobody has seen."""
    if s.faces[t] >= 0:
        return [(s.faces[t], 1.0)]
    return equally_likely(s.unseen_faces(s.classes[t]))


def _look_outcomes(s: MonsterPilesState) -> list[tuple[int, float]]:
    """§6.1: the card the active player looks at: any card of its class nobody has seen."""
    return _face_draw(s, s.top)


def _set_face(s: MonsterPilesState, t: int, face: int, mask: int) -> None:
    """Token ``t`` shows ``face`` to ``mask``; the history entry is remembered (``resample`` redraws it)."""
    s.faces[t] = face
    s.drawn_at[t] = (*s.drawn_at[t], len(s._history))
    s.known[t] |= mask


def _look(s: MonsterPilesState, face: int) -> None:
    """§6.1: the active player takes the top card and looks at it; the next card's back shows (§5.1)."""
    t = s.top
    _set_face(s, t, face, 1 << s.to_move)
    s.held, s.top = t, -1
    s.in_deck -= 1
    s._expose_or("turn")


def _look_seen(s: MonsterPilesState, actor: int, face: int) -> Seen:
    who = NAMES[s.to_move]
    back = CLASSES[s.classes[s.top]][1]
    return Seen(
        f"{who} looks at the top card of the deck ({back} back)",
        {s.to_move: f"{who} looks at the top card of the deck: {card_name(face)}"},
    )


def _turn_legal(s: MonsterPilesState, seat: int) -> list[int]:
    """§6.2: place the card on any pile (§7), or use its power where it can be used (§8)."""
    legal = [PLACE + p for p in range(s.num_players)]
    if s.power_available(s.classes[s.held]):
        legal.append(POWER)
    return legal


def _turn_explain(s: MonsterPilesState, player: int, action: int) -> str | None:
    if action == POWER:
        return said(f"the {CLASSES[s.classes[s.held]][0]} power cannot be used now: {_unavailable(s)}", "8")
    if PLACE <= action < PLACE + len(PILES):
        return said(f"there are only {s.num_players} piles", "2")
    return said("first place the card you looked at, or use its power", "6.2")


def _unavailable(s: MonsterPilesState) -> str:
    cls = s.classes[s.held]
    if cls == BRUTAL:
        return "it needs cards in two different piles"
    if cls == UNDEAD:
        return "it needs " + ("both other Undead cards" if s.game.all_undead else "another Undead card") + " in a pile"
    if cls == ANIMALS:
        return "it needs two cards in the deck"
    return "it needs a card in a pile"


def _turn(s: MonsterPilesState, action: int) -> None:
    t = s.held
    if action != POWER:  # §7: face down on top of a pile
        p = action - PLACE
        s.piles[p] = (*s.piles[p], t)
        s.held = -1
        s.gained = [p]
        s._end_action()
        return
    # §8: the card is discarded face up (its face was seen when looked at) and its power is used
    s.held = -1
    s.discards.append(t)
    s.known[t] |= PUBLIC
    cls = s.classes[t]
    s.power, s.picked, s.first_pile = cls, [], -1
    nonempty = sum(1 for p in s.piles if p)
    if cls == BRUTAL:  # §8.1
        s.steps_left = min(2, nonempty)
        s.phase = "brutal"
    elif cls == UNDEAD:  # §8.2
        s._start_scoring()
    elif cls == ANIMALS:  # §8.3
        s.steps_left = min(2, s.in_deck)
        s.phase = "animal"
    elif cls == CONSTRUCTS:  # §8.4
        s.steps_left = 1
        s.phase = "construct"
    else:  # §8.5
        s.steps_left = min(3, s.pile_cards())
        s.phase = "dragon"


def _turn_seen(s: MonsterPilesState, actor: int, action: int) -> Seen:
    if action == POWER:
        t = s.held
        cls = s.classes[t]
        text = f"uses the power of the {card_name(s.faces[t])}"
        return Seen(text + (": the round ends" if cls == UNDEAD else ""))
    return Seen(f"places the {CLASSES[s.classes[s.held]][1]}-backed card on pile {PILES[action - PLACE]}")


def _brutal_legal(s: MonsterPilesState, seat: int) -> list[int]:
    """§8.1: any card of any pile; the second from another pile than the first."""
    return s.legal_picks("discard", s.first_pile)


def _brutal(s: MonsterPilesState, action: int) -> None:
    _, (p, k) = ACTIONS.decode(action)
    t = s.piles[p][k]
    s.piles[p] = s.piles[p][:k] + s.piles[p][k + 1 :]
    s.discards.append(t)
    s.picked.append(t)
    s.first_pile = p
    s.steps_left -= 1
    s._reveal([t], "brutal")


def _pick_explain(what: str):  # type: ignore[no-untyped-def]
    def explain(s: MonsterPilesState, player: int, action: int) -> str | None:
        if what == "brutal" and s.first_pile >= 0:
            return said(f"the second card must come from another pile than pile {PILES[s.first_pile]}", "8.1")
        if what == "dragon":
            return said("look at a card in a pile that you have not looked at with this power", "8.5")
        return said(f"{what}: choose a card that is in a pile", "8")

    return explain


def _reveal_label_seen(s: MonsterPilesState, actor: int, face: int) -> Seen:
    t = s.reveal_queue[0]
    if s.after_reveal == "round_end":
        p, k = s.where(t)
        return Seen(f"card {k + 1} of pile {PILES[p]} is turned up: {card_name(face)}")
    return Seen(f"the discarded card is turned up: {card_name(face)}")


def _reveal_apply(s: MonsterPilesState, face: int) -> None:
    t = s.reveal_queue.pop(0)
    _set_face(s, t, face, PUBLIC)
    if not s.reveal_queue:
        s._after_reveal()


def _animal_legal(s: MonsterPilesState, seat: int) -> list[int]:
    """§8.3: the deck's top card on a pile; the second on another pile than the first."""
    return [ANIMAL + p for p in range(s.num_players) if p != s.first_pile]


def _animal(s: MonsterPilesState, action: int) -> None:
    p = action - ANIMAL
    t = s.top
    s.piles[p] = (*s.piles[p], t)
    s.top = -1
    s.in_deck -= 1
    s.first_pile = p
    if not s.game.place_only:  # §9: a pile that gained a card by Animals is checked too
        s.gained.append(p)
    s.steps_left -= 1
    s._expose_or("animal" if s.steps_left > 0 else "end")


def _animal_seen(s: MonsterPilesState, actor: int, action: int) -> Seen:
    return Seen(f"puts the {CLASSES[s.classes[s.top]][1]}-backed top card of the deck on pile {PILES[action - ANIMAL]}")


def _construct_legal(s: MonsterPilesState, seat: int) -> list[int]:
    return s.legal_picks("move")


def _construct(s: MonsterPilesState, action: int) -> None:
    _, (p, k) = ACTIONS.decode(action)
    s.picked = [s.piles[p][k]]
    s.first_pile = p
    s.phase = "construct_to"


def _construct_to_legal(s: MonsterPilesState, seat: int) -> list[int]:
    """§8.4: onto the top of another pile."""
    return [MOVE_TO + p for p in range(s.num_players) if p != s.first_pile]


def _construct_to(s: MonsterPilesState, action: int) -> None:
    q = action - MOVE_TO
    (t,) = s.picked
    p = s.first_pile
    s.piles[p] = tuple(x for x in s.piles[p] if x != t)
    s.piles[q] = (*s.piles[q], t)
    s.gained = [] if s.game.place_only else [q]  # §9
    s._end_action()


def _dragon_legal(s: MonsterPilesState, seat: int) -> list[int]:
    """§8.5: any pile card not looked at yet with this power."""
    return s.legal_picks("look", exclude=tuple(s.picked))


def _dragon(s: MonsterPilesState, action: int) -> None:
    _, (p, k) = ACTIONS.decode(action)
    s.picked.append(s.piles[p][k])
    s.phase = "peek"


def _peek_outcomes(s: MonsterPilesState) -> list[tuple[int, float]]:
    """§8.5: the card looked at shows its face (drawn now if nobody has seen it)."""
    return _face_draw(s, s.picked[-1])


def _peek(s: MonsterPilesState, face: int) -> None:
    _set_face(s, s.picked[-1], face, 1 << s.to_move)
    s.steps_left -= 1
    if s.steps_left > 0:
        s.phase = "dragon"
    else:
        s._end_action()


def _peek_seen(s: MonsterPilesState, actor: int, face: int) -> Seen:
    who = NAMES[s.to_move]
    p, k = s.where(s.picked[-1])
    return Seen(
        f"{who} looks at card {k + 1} of pile {PILES[p]} in secret",
        {s.to_move: f"{who} looks at card {k + 1} of pile {PILES[p]} in secret: {card_name(face)}"},
    )


def _choose_legal(s: MonsterPilesState, seat: int) -> list[int]:
    """§10.1-§10.2: any pile not taken yet; the marker holder not the one with the most cards."""
    remaining = [p for p in range(s.num_players) if s.takers[p] < 0]
    if seat == s.marker:
        sizes = [len(p) for p in s.piles]
        barred = barred_piles(sizes, remaining, s.game.params["marker_most"], s.game.params["marker_tie"])
        remaining = [p for p in remaining if p not in barred]
    return [TAKE + p for p in remaining]


def _choose_explain(s: MonsterPilesState, player: int, action: int) -> str | None:
    if TAKE <= action < TAKE + s.num_players:
        if s.takers[action - TAKE] >= 0:
            return said(f"pile {PILES[action - TAKE]} is taken already", "10.1")
        return said("you hold the marker, so you may not take the pile with the most cards", "10.2")
    return said("choose a pile to take", "10.1")


def _choose(s: MonsterPilesState, action: int) -> None:
    s.takers[action - TAKE] = s.chooser
    s.chooser = (s.chooser + 1) % s.num_players
    s._auto_take()


def _plain_seen(s: MonsterPilesState, actor: int, action: int) -> Seen:
    """A public power step (§8) in words after the seat's name ("discards card 2 of pile A"); its label is the notation."""
    return Seen(third_person(s.action_to_string(actor, action)))


def _choose_seen(s: MonsterPilesState, actor: int, action: int) -> Seen:
    return Seen(f"takes pile {PILES[action - TAKE]}")


def _move_legal_explain(s: MonsterPilesState, player: int, action: int) -> str | None:
    return said("choose another pile than the one the card comes from", "8.3", "8.4")


def _chance(name: str, prompt, **hooks: Any) -> Phase:
    """A chance phase (a card is drawn or turned); ``prompt(obs)`` says what happens."""
    return Phase(name, CHANCE, label=_chance_label, prompt=lambda game, obs, legal: prompt(obs), **hooks)


def _mover(name: str, prompt, **hooks: Any) -> Phase:
    """A phase in which the seat to move decides; ``prompt(obs, legal)`` is its sentence."""
    return Phase(name, lambda s: s.to_move, prompt=lambda game, obs, legal: prompt(obs, legal), **hooks)


def _power(name: str, text: str, **hooks: Any) -> Phase:
    """A step of a card's power in which the mover picks a pile or a card, prompted with ``text``."""
    return _mover(name, lambda obs, legal: _power_prompt(obs, legal, text), **hooks)


PHASES = phase_table(
    _chance(
        "expose",
        lambda obs: "The next card of the deck shows its back.",
        outcomes=_expose_outcomes,
        apply=_expose,
        seen=_expose_seen,
    ),
    _chance(
        "look",
        lambda obs: f"{NAMES[obs['active']]} looks at the top card of the deck.",
        outcomes=_look_outcomes,
        apply=_look,
        seen=_look_seen,
    ),
    _mover(
        "turn",
        lambda obs, legal: _turn_prompt(obs, legal),
        legal=_turn_legal,
        apply=_turn,
        explain=_turn_explain,
        seen=_turn_seen,
    ),
    _power(
        "brutal",
        "Discard a card from a pile",
        legal=_brutal_legal,
        apply=_brutal,
        seen=_plain_seen,
        explain=_pick_explain("brutal"),
    ),
    _chance(
        "reveal",
        lambda obs: "A card is turned face up.",
        outcomes=lambda s: _face_draw(s, s.reveal_queue[0]),
        apply=_reveal_apply,
        seen=_reveal_label_seen,
    ),
    _power(
        "animal",
        "Put the deck's top card on a pile, unseen",
        legal=_animal_legal,
        apply=_animal,
        explain=_move_legal_explain,
        seen=_animal_seen,
    ),
    _power(
        "construct",
        "Choose a card in a pile to move",
        legal=_construct_legal,
        apply=_construct,
        seen=_plain_seen,
        explain=_pick_explain("construct"),
    ),
    _power(
        "construct_to",
        "Choose the pile to move it onto",
        legal=_construct_to_legal,
        apply=_construct_to,
        seen=_plain_seen,
        explain=_move_legal_explain,
    ),
    _power(
        "dragon",
        "Choose a card in a pile to look at in secret",
        legal=_dragon_legal,
        apply=_dragon,
        seen=_plain_seen,
        explain=_pick_explain("dragon"),
    ),
    _chance(
        "peek",
        lambda obs: f"{NAMES[obs['active']]} looks at a card in secret.",
        outcomes=_peek_outcomes,
        apply=_peek,
        seen=_peek_seen,
    ),
    Phase(
        "choose",
        lambda s: s.chooser,
        legal=_choose_legal,
        apply=_choose,
        explain=_choose_explain,
        seen=_choose_seen,
        prompt=lambda game, obs, legal: _choose_prompt(obs, legal),
    ),
    Phase("over", TERMINAL, prompt=lambda game, obs, legal: _over_prompt(obs)),
)
MonsterPilesState.phases = PHASES


# -- prompts ------------------------------------------------------------------------


def _you(obs: dict[str, Any], seat: int) -> str:
    return "you" if seat == obs["viewer"] else NAMES[seat]


def _turn_prompt(obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    held = obs["held"]
    if not legal or held is None or held["card"] is None:
        return f"{NAMES[obs['active']]} looked at a {back_name(held['class']) if held else 'card'}: place it or use its power."
    cls = CARDS[held["card"]][1]
    power = "" if any(a == POWER for a, _ in legal) else " (its power cannot be used now)"
    return (
        f"You hold the {card_name(held['card'])}: place it face down on a pile, or use its power "
        f"({CLASSES[cls][0]}: {POWERS[cls]}){power}."
    )


def _power_prompt(obs: dict[str, Any], legal: list[tuple[int, str]], what: str) -> str:
    if not legal:
        return f"{NAMES[obs['active']]} is using the {CLASSES[obs['power']['class']][0]} power."
    return f"{what} ({obs['power']['left']} to go)."


def _choose_prompt(obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    if not legal:
        return f"Scoring: {NAMES[obs['chooser']]} chooses a pile."
    marker = " You hold the marker: not the pile with the most cards." if obs["marker"] == obs["viewer"] else ""
    return f"Scoring: take a pile without looking at it; its cards are your points this round.{marker}"


def _over_prompt(obs: dict[str, Any]) -> str:
    w = obs["winners"]
    totals = ", ".join(f"{NAMES[p]} {obs['totals'][p]}" for p in range(obs["players"]))
    if len(w) == obs["players"]:
        return f"A draw: {totals}."
    who = " and ".join(NAMES[p] for p in w)
    verb = "win" if len(w) > 1 or (obs["viewer"] in w) else "wins"
    if obs["viewer"] in w and len(w) == 1:
        who = "You"
    return f"{who} {verb} ({totals})."


# -- the scene ------------------------------------------------------------------------


def _face(id: str, card: int, detail: str | None = None) -> dict[str, Any]:
    cls = CARDS[card][1]
    return sc.item(id, card_name(card), value=value(card), suit=CLASSES[cls][3], colour=CLASSES[cls][2], detail=detail)


def _back(id: str, cls: int) -> dict[str, Any]:
    return sc.item(id, back_name(cls), face_down=True, colour=CLASSES[cls][2])


def _token_item(id: str, tv: dict[str, Any]) -> dict[str, Any]:
    return _face(id, tv["card"]) if tv["card"] is not None else _back(id, tv["class"])


@MonsterPilesGame.draws_scene
def _scene(game: MonsterPilesGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    n = obs["players"]
    prompt = PHASES[obs["phase"]].prompt(game, obs, legal)  # type: ignore[misc]
    s = sc.new_scene(prompt)
    zones = s["zones"]
    if obs["phase"] != "over":
        deck = obs["deck"]
        items = [_back("deck-top", obs["top"])] if obs["top"] is not None else []
        title = f"Deck: {deck} card{'s' if deck != 1 else ''}"
        if obs["top"] is not None:
            title += f", a {back_name(obs['top'])} on top"
        zones.append(sc.zone("deck", title, items))
        if obs["held"] is not None:
            who = "Your card" if obs["active"] == obs["viewer"] else f"{NAMES[obs['active']]}'s card"
            zones.append(sc.zone("held", who, [_token_item("held", obs["held"])], owner=obs["active"]))
        for p in range(n):
            pile = obs["piles"][p]
            items = [_token_item(f"pile{p}-{k}", tv) for k, tv in enumerate(pile)]
            backs = ", ".join(CLASSES[tv["class"]][1] for tv in pile)
            title = f"Pile {PILES[p]}: {len(pile)} card{'s' if len(pile) != 1 else ''}"
            if pile:
                title += f" (from the bottom: {backs})"
            taker = obs["takers"][p]
            if taker is not None:
                title += f", taken by {NAMES[taker]}"
            zones.append(sc.zone(f"pile{p}", title, items, owner=taker))
        if obs["discards"]:
            items = [_token_item(f"discard{k}", tv) for k, tv in enumerate(obs["discards"])]
            zones.append(sc.zone("discards", "Discards (face up)", items))
        marker = obs["marker"]
        marker_item = sc.item(
            "marker", "marker", "token", owner=marker, colour=None if marker is None else f"seat{marker}"
        )
        zones.append(
            sc.zone(
                "marker",
                "Marker: " + ("set aside" if marker is None else f"held by {NAMES[marker]}"),
                [marker_item],
                owner=marker,
            )
        )
    for r in obs["results"]:
        for p, cards in enumerate(r["piles"]):
            seat = r["takers"][p]
            items = [_face(f"r{r['round']}-{p}-{k}", c) for k, c in enumerate(cards)]
            title = f"Round {r['round']}: pile {PILES[p]}, {NAMES[seat]} scored {r['scores'][seat]}"
            zones.append(sc.zone(f"round{r['round']}-pile{p}", title, items, owner=seat))
    zones.append(
        sc.zone(
            "classes",
            "The classes and their powers",
            [
                sc.item(
                    f"class{k}",
                    f"{name} ({back} back)",
                    "token",
                    detail=f"{', '.join(card_name(c) for c in CLASS_CARDS[k])}: {POWERS[k]}.",
                    colour=ink,
                )
                for k, (name, back, ink, _) in enumerate(CLASSES)
            ],
        )
    )
    # Click a pile card to discard, move or look at it; piles are chosen with buttons.
    for a, label in legal:
        segment, idx = ACTIONS.decode(a)
        if segment in ("discard", "move", "look"):
            s["targets"].append({"at": f"pile{idx[0]}-{idx[1]}", "action": a, "label": label})
    power = obs["power"]
    if power is not None:
        for pick in power["picked"]:
            if pick["pile"] is not None:
                s["highlights"].append({"at": f"pile{pick['pile']}-{pick['card']}", "kind": "selected"})
    status = [f"Round {obs['round']} of {obs['rounds']}, started by {NAMES[obs['start']]}"]
    status += [f"{NAMES[p]}: {obs['totals'][p]} points" for p in range(n)]
    s["status"] = status
    s["players"] = [
        sc.player(p, NAMES[p] + (" (you)" if p == obs["viewer"] else ""), f"{obs['totals'][p]} points")
        for p in range(n)
    ]
    return sc.finish_scene(s, legal)


MonsterPilesGame.state_class = MonsterPilesState
PHASE_NAMES = tuple(PHASES)
#: A token in a tensor: its card when the viewer knows it, else ``DECK + class`` (the back only).
TOKEN_CODES = DECK + len(CLASSES)
#: The most cards a power picks at once; the most points of one pile (every card).
MAX_PICKED = 3
MAX_SCORE = sum(value(c) for c in range(DECK))


def _token_code(x: dict[str, Any]) -> int:
    return x["card"] if x["card"] is not None else DECK + x["class"]


GAME_CLASS = MonsterPilesGame
