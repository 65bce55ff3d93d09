"""High Swap (boardlab's worked example, 2026): two cards each, one swap each, the higher total wins.

Rules: ``docs/examples/high-swap.md``; clause numbers are cited as ``§n``. The
walk-through of this file is ``docs/ADDING_A_GAME.md``. Copied into
``src/boardlab/games/high_swap.py`` (with its rules as ``docs/rules/high-swap.md``)
it is a registered game; here it is only tested, never listed in the lobby.

Seat 0 is Orange, seat 1 is Blue (§2). The action space is segment ``draw``
(from the deck, or the top of the discard pile), segment ``stand`` and segment
``discard`` (one action per card); chance outcomes are card numbers. A card is
``2 * (value - 1) + suit`` (suit 0 hearts, 1 spades).
"""

from __future__ import annotations

from typing import Any

from boardlab.core import scene as sc
from boardlab.core.actions import ActionSpace, Segment
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.game import Game, State, win_loss
from boardlab.core.gametype import Chance, GameType, Information
from boardlab.core.hidden import Seen
from boardlab.core.options import Option
from boardlab.core.tensor import Tensor
from boardlab.core.wording import said, third_person

NAMES = ("Orange", "Blue")
SUITS = ("hearts", "spades")
DEAL, TURN, DRAW, DISCARD, OVER = "deal", "turn", "draw", "discard", "over"
STEPS = (DEAL, TURN, DRAW, DISCARD, OVER)


def value(card: int) -> int:
    return card // 2 + 1


def card_name(card: int) -> str:
    """The card's words: ``card_name(9)`` is ``'5 of spades'``."""
    return f"{value(card)} of {SUITS[card % 2]}"


class HighSwapGame(Game):
    id = "high-swap"
    title = "High Swap"
    summary = "Two hidden cards each; draw one, discard one; the higher total wins."
    options = (Option("top_value", int, 6, (5, 6, 8), said("The highest card value in each suit.", "1")),)
    mechanics = ("cards", "hidden hands", "draw and discard")
    playing_time = "2 min"
    game_type = GameType(chance=Chance.EXPLICIT, information=Information.IMPERFECT)
    seat_names = NAMES
    inventions = ("The whole game: a worked example for docs/ADDING_A_GAME.md.",)
    max_length = 16  # §6: 5 chance entries to start, then at most 3 entries a turn

    def _setup(self) -> None:
        self.cards = 2 * self.params["top_value"]  # §1
        names = tuple(card_name(c) for c in range(self.cards))
        self.action_space = ActionSpace(
            Segment("draw", (("source", ("the deck", "the discard pile")),), "draw from {source}"),
            Segment("stand", (), "stand"),
            Segment("discard", (("card", names),), "discard {card}"),
        )
        self.draw_deck, self.draw_pile = self.action_space.actions("draw")
        self.stand = self.action_space.encode("stand")
        self.num_chance_outcomes = self.cards  # a deal is one of the cards


class HighSwapState(State):
    game: HighSwapGame
    copied = ("deck", "hands", "pile")  # lists of ints or tuples: one level deep is a full copy

    def __init__(self, game: HighSwapGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.deck = list(range(game.cards))  # §3.1: undealt cards, in no order (chance draws any)
        self.hands: list[tuple[int, ...]] = [(), ()]
        self.pile: list[int] = []  # face up, top last
        self.step = DEAL
        self.to_move = 0

    # -- turn order and result (§3, §4, §5) --------------------------------
    def current_player(self) -> int:
        if self.step in (DEAL, DRAW):
            return CHANCE
        return TERMINAL if self.step == OVER else self.to_move

    def returns(self) -> list[float]:
        if self.step != OVER:
            return [0.0, 0.0]
        a, b = self.totals()
        return win_loss(0 if a > b else 1 if b > a else None)  # §5.2: equal totals draw

    def totals(self) -> list[int]:
        return [sum(value(c) for c in hand) for hand in self.hands]

    # -- legal moves (§3, §4) ----------------------------------------------
    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(c, 1 / len(self.deck)) for c in self.deck]  # §3.1, §4.1: any undealt card, equally likely

    def _legal_actions(self, player: int) -> list[int]:
        if self.step == TURN:  # §4.1
            return [self.game.draw_deck, self.game.draw_pile, self.game.stand]
        space = self.game.action_space
        return sorted(space.encode("discard", c) for c in self.hands[player])  # §4.2

    def _explain(self, player: int, action: int) -> str | None:
        if self.step == TURN:
            return said("first draw a card or stand", "4.1")
        if action in self.game.action_space.actions("discard"):
            return said("you can discard only a card in your hand", "4.2")
        return said("you have drawn: now discard one of your three cards", "4.2")

    # -- applying a decision -----------------------------------------------
    def _apply(self, action: int) -> None:
        game, p = self.game, self.to_move
        if self.step in (DEAL, DRAW):  # chance: a card leaves the deck
            self.deck.remove(action)
            dealt = len(self.hands[0]) + len(self.hands[1])
            if self.step == DRAW:
                self._give(p, action)
                self.step = DISCARD
            elif dealt < 4:  # §3.1: Orange, Blue, Orange, Blue
                self._give(dealt % 2, action)
            else:  # §3.2: the top card starts the discard pile
                self.pile.append(action)
                self.step = TURN
        elif action == game.draw_deck:  # §4.1
            self.step = DRAW
        elif action == game.draw_pile:
            self._give(p, self.pile.pop())
            self.step = DISCARD
        else:  # stand, or §4.2: discard a card face up
            if action != game.stand:
                card = game.action_space.decode(action)[1][0]
                self.hands[p] = tuple(c for c in self.hands[p] if c != card)
                self.pile.append(card)
            self._end_turn()

    def _give(self, seat: int, card: int) -> None:
        self.hands[seat] = tuple(sorted((*self.hands[seat], card)))

    def _end_turn(self) -> None:
        if self.to_move == 0:  # §3.3: Orange, then Blue, one turn each
            self.to_move, self.step = 1, TURN
        else:  # §5.1: the showdown reveals both hands
            self.step = OVER
            self._mark_irreversible()

    # -- hidden information (§3.1, §4.1, §5.1) ----------------------------
    def _action_to_string(self, player: int, action: int) -> str:
        return card_name(action) if player == CHANCE else super()._action_to_string(player, action)

    def _seen(self, actor: int, entry: Any) -> Seen | tuple[Seen | None, ...]:
        if actor == CHANCE:
            dealt = len(self.hands[0]) + len(self.hands[1])
            if self.step == DEAL and dealt == 4:
                return Seen(f"turned up the {card_name(entry)}")  # §3.2: everyone sees it
            seat = self.to_move if self.step == DRAW else dealt % 2
            return Seen(f"dealt a card to {NAMES[seat]}", {seat: f"dealt the {card_name(entry)} to {NAMES[seat]}"})
        said = third_person(self.action_to_string(actor, entry))  # "draw from the deck": "draws from the deck"
        if actor == 1 and (self.step == DISCARD or entry == self.game.stand):  # the last decision: §5.1
            hands = list(self.hands)
            if entry != self.game.stand:
                card = self.game.action_space.decode(entry)[1][0]
                hands[1] = tuple(c for c in hands[1] if c != card)
            shown = "; ".join(f"{NAMES[s]} shows {' and '.join(card_name(c) for c in hands[s])}" for s in (0, 1))
            return Seen(f"{said}; {shown}", pins=tuple(range(len(self._history) + 1)))  # pins every deal
        return Seen(said)

    def observation(self, player: int | None = None) -> dict[str, Any]:
        over = self.step == OVER
        return {
            "viewer": player,
            "step": self.step,
            "to_move": self.current_player(),
            "hand": list(self.hands[player]) if player in (0, 1) else None,
            "hand_sizes": [len(h) for h in self.hands],
            "shown": [list(h) for h in self.hands] if over else None,  # §5.1
            "totals": self.totals() if over else None,
            "pile": self.pile[:],
            "deck": len(self.deck),
        }

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        me = 0 if player is None else player  # seats from the viewer's side (a spectator: seat 0's)
        over, cards = self.step == OVER, range(self.game.cards)
        t.one_of("step", self.step, STEPS)
        t.one_hot("to_move", (self.to_move - me) % 2 if self.step in (TURN, DISCARD) else None, 2)
        t.bits("own_hand", [player is not None and c in self.hands[me] for c in cards])
        t.bits("other_hand", [over and c in self.hands[1 - me] for c in cards])  # §5.1: shown at the end
        t.counts("hand_sizes", [len(self.hands[me]), len(self.hands[1 - me])], 3)
        t.bits("pile", [c in self.pile for c in cards])
        t.one_hot("pile_top", self.pile[-1] if self.pile else None, self.game.cards)
        t.counts("deck", [len(self.deck)], self.game.cards)


# -- the scene: the viewer's hand at the bottom, face up; the other hand as backs in its owner's colour --
def _card(card: int) -> dict[str, Any]:
    return sc.item(f"card{card}", card_name(card), value=value(card), suit=SUITS[card % 2])


def _prompt(obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    if obs["totals"] is not None:
        a, b = obs["totals"]
        return f"Draw at {a}." if a == b else f"{NAMES[0 if a > b else 1]} wins, {max(a, b)} to {min(a, b)}."
    if not legal:
        return "Chance deals a card." if obs["to_move"] == CHANCE else f"{NAMES[obs['to_move']]} to play."
    if obs["step"] == TURN:
        return "Draw from the deck or the discard pile, or stand."
    return "Discard one of your three cards."


@HighSwapGame.draws_scene
def _scene(game: HighSwapGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    viewer = obs["viewer"]
    s = sc.new_scene(_prompt(obs, legal))
    seats = (1 - viewer, viewer) if viewer in (0, 1) else (0, 1)
    for seat in seats:
        if obs["shown"] is not None:
            items = [_card(c) for c in obs["shown"][seat]]
        elif seat == viewer:
            items = [_card(c) for c in obs["hand"]]
        else:
            items = [sc.item(f"back{seat}-{k}", "a card", face_down=True) for k in range(obs["hand_sizes"][seat])]
        title = "Your hand" if seat == viewer else f"{NAMES[seat]}'s hand"
        s["zones"].append(sc.zone(f"hand{seat}", title, items, owner=seat))
    deck = [sc.item(f"deck{k}", "a card", face_down=True) for k in range(obs["deck"])]
    s["zones"].append(sc.zone("deck", f"Deck: {obs['deck']} cards", deck))
    s["zones"].append(sc.zone("pile", "Discard pile (top last)", [_card(c) for c in obs["pile"]]))
    for a, label in legal:  # click a card to discard it, the deck or the pile to draw; stand is a button
        segment, indices = game.action_space.decode(a)
        if segment == "discard":
            s["targets"].append({"at": f"card{indices[0]}", "action": a, "label": label})
        elif segment == "draw":
            at = "deck0" if a == game.draw_deck else f"card{obs['pile'][-1]}"
            s["targets"].append({"at": at, "action": a, "label": label})
    s["status"] = [f"{NAMES[k]}: {obs['hand_sizes'][k]} cards" for k in (0, 1)]
    s["players"] = [sc.player(k, NAMES[k]) for k in (0, 1)]
    return sc.finish_scene(s, legal)


HighSwapGame.state_class = HighSwapState
GAME_CLASS = HighSwapGame
