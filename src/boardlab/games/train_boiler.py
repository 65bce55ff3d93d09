"""Train Boiler: two engineers push one shared boiler temperature towards their own secret goals.

Rules: ``docs/rules/train-boiler.md``; clauses are cited as ``§n``.

Seat actions are ``play Heat Up!``, ``play Cool Down!`` and ``play Restore
Normal!`` (:data:`ACTIONS`): the stars on the goal cards do nothing once the
cards are dealt (§5.3), so a card is played by its kind. Chance actions, per
round: who draws the Heat Up! ★ card (0 or 1: that seat), who draws the Heat
Up! ★★ card (the same), then the deal (:data:`DEALS`: the numbers of Heat Up!,
Cool Down! and Restore Normal! cards in Orange's seven; Blue holds the rest).

What is hidden (§8): each goal draw splits two cards between the two players
and the deal splits all fourteen cards, so each player knows both players'
goals and both hands; only spectators do not. The ★ draw is public anyway
(the Hot player plays first); the ★★ draw and the deal are shown to both
seats and hidden from spectators until the round ends. The option ``view``
only changes what a player's screen shows (everything worked out, or only the
cards on the table in front of the player); the search uses what the player
can work out in both.
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb
from typing import Any

from .. import fast
from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.constants import CHANCE, TERMINAL
from ..core.game import Game, win_loss
from ..core.gametype import Chance, GameType, Information
from ..core.hidden import Seen
from ..core.options import Option
from ..core.phases import Phase, PhasedState, phase_table
from ..core.tensor import Tensor
from ..core.wording import and_list, said
from . import _tensors as tz

NAMES = ("Orange", "Blue")
#: The temperature track (§2), coldest first.
TRACK = ("Coldest", "Cold", "Normal", "Hot", "Hottest")
COLDEST, COLD, NORMAL, HOT, HOTTEST = range(5)
#: Card kinds (§1, §5.3): how many of each are dealt.
HEAT, COOL, RESTORE = range(3)
KINDS = ("Heat Up!", "Cool Down!", "Restore Normal!")
COUNTS = (6, 6, 2)
HAND = 7
ACTIONS = ActionSpace(Segment("play", (("card", KINDS),), "play {card}"))

#: §4.3: every possible hand of Orange (Heat, Cool, Restore), with its probability among the C(14, 7) deals.
DEALS = tuple(
    (h, c, HAND - h - c)
    for h in range(COUNTS[HEAT] + 1)
    for c in range(COUNTS[COOL] + 1)
    if 0 <= HAND - h - c <= COUNTS[RESTORE]
)
DEAL_WEIGHTS = tuple(
    comb(COUNTS[HEAT], h) * comb(COUNTS[COOL], c) * comb(COUNTS[RESTORE], r) / comb(sum(COUNTS), HAND)
    for h, c, r in DEALS
)
MAX_ROUNDS = {"best_of_3": 3, "until_two_wins": 9}


def hand_text(hand: tuple[int, ...]) -> str:
    parts = [f"{n} {KINDS[k]}" for k, n in enumerate(hand) if n]
    return and_list(parts) if parts else "no cards"


def after_play(temp: int, kind: int, dud: bool) -> int:
    """§3: the temperature after a card: one step up or down within the track, or back to Normal.

    >>> after_play(HOTTEST, HEAT, False), after_play(COLD, COOL, False), after_play(HOT, RESTORE, False)
    (4, 0, 2)
    >>> after_play(HOT, RESTORE, True)
    3
    """
    if kind == HEAT:
        return min(HOTTEST, temp + 1)
    if kind == COOL:
        return max(COLDEST, temp - 1)
    return temp if dud else NORMAL


def restore_is_dud(mine: int, other: int, rule: str) -> bool:
    """§3.4: Restore Normal! does nothing when both hands hold fewer than 3 cards.

    ``both_before`` counts the player's hand with the card still in it, ``both_after`` without.

    >>> restore_is_dud(2, 2, "both_before"), restore_is_dud(3, 2, "both_before"), restore_is_dud(3, 2, "both_after")
    (True, False, True)
    """
    if rule == "both_after":
        mine -= 1
    return mine < 3 and other < 3


def round_winner(temp: int, hot: int, hottest: int) -> int | None:
    """§6: who matches the final temperature: Hot or Cold (★), Hottest or Coldest (★★); Normal is a draw."""
    if temp == HOT:
        return hot
    if temp == COLD:
        return 1 - hot
    if temp == HOTTEST:
        return hottest
    if temp == COLDEST:
        return 1 - hottest
    return None


def goals_text(seat: int, hot: int, hottest: int) -> str:
    return f"{TRACK[HOT] if seat == hot else TRACK[COLD]} or {TRACK[HOTTEST] if seat == hottest else TRACK[COLDEST]}"


class TrainBoilerGame(Game):
    id = "train-boiler"
    title = "Train Boiler"
    summary = (
        "Two engineers play Heat Up!, Cool Down! and Restore Normal! cards on one shared boiler; whoever's goal "
        "the last card leaves it at wins the round. Best of three."
    )
    options = (
        Option.choice(
            "restore_rule",
            {"both_before": "Count the hand with the card", "both_after": "Count the hand without the card"},
            said(
                "Restore Normal! does nothing when both hands hold fewer than 3 cards, counting the player's hand "
                "with the card or without it.",
                "3.4",
            ),
        ),
        Option.choice(
            "view",
            {"deduced": "Everything you can work out", "table": "Only what lies in front of you"},
            said(
                "What a player's screen shows: everything a player can work out (both goals, both hands, every "
                "card played), or only what lies in front of him (his goals and hand, the last card played).",
                "8",
            ),
        ),
        Option.choice(
            "match",
            {"best_of_3": "Best of three rounds", "until_two_wins": "Until someone wins two rounds"},
            said("Best of three rounds (at most three), or rounds until someone has won two (at most nine).", "7"),
        ),
    )
    mechanics = ("cards", "hidden goals", "shared track", "memory", "rounds")
    playing_time = "5 min"
    game_type = GameType(chance=Chance.EXPLICIT, information=Information.IMPERFECT)
    seat_names = NAMES
    inventions = (
        "A Restore Normal! card does nothing when both hands hold fewer than 3 cards before it is played "
        "(option restore_rule).",
        "Best of three: at most three rounds, the first to win two wins; after three, more round wins wins, "
        "equal round wins is a draw (option match=until_two_wins plays on, at most nine rounds).",
        "Each round is set up afresh: new goal draws and a new deal.",
        "Cards are played by their kind: the stars on the goal cards do nothing once the cards are dealt.",
        "A player's screen shows what the player can work out: the other's goals and hand and every card "
        "played (option view=table shows only the cards in front of the player).",
        "Both players' goals are shown to everyone when a round ends.",
        "The card colours and symbols of the screen, and the temperature track drawn as five squares.",
    )
    num_chance_outcomes = len(DEALS)

    def _setup(self) -> None:
        self.action_space = ACTIONS
        self.restore_rule = self.params["restore_rule"]
        self.table_view = self.params["view"] == "table"
        self.max_rounds = MAX_ROUNDS[self.params["match"]]
        self.max_length = self.max_rounds * (3 + 2 * HAND) + 1  # per round: two goal draws, the deal, fourteen plays


class TrainBoilerState(PhasedState):
    game: TrainBoilerGame
    copied = ("hands", "plays", "wins", "results")

    def __init__(self, game: TrainBoilerGame, num_players: int) -> None:
        super().__init__(game, num_players)
        self.wins = [0, 0]
        self.results: list[dict[str, Any]] = []
        self.round = 0
        self.winner = -1
        self._new_round()

    def _new_round(self) -> None:
        """§4: fresh goal draws and a fresh deal; the temperature starts at Normal (§5.1)."""
        self.hot = -1  # who drew Heat Up! ★: goal Hot (the other: Cold)
        self.hottest = -1  # who drew Heat Up! ★★: goal Hottest (the other: Coldest)
        self.hands: list[tuple[int, ...]] = [(0, 0, 0), (0, 0, 0)]
        self.plays: list[tuple[int, int]] = []  # (seat, kind), in order
        self.temp = NORMAL
        self.to_move = -1
        self.phase = "star"

    def returns(self) -> list[float]:
        return win_loss(self.winner if self.phase == "over" else None)

    def match_over(self) -> bool:
        """§7: best of three: two round wins, or three rounds played; until_two_wins: two wins (or the limit)."""
        if max(self.wins) >= 2:
            return True
        return len(self.results) >= self.game.max_rounds

    # -- what a viewer may know (§8) ---------------------------------------------------
    def _viewer(self, player: int | None) -> int | None:
        if player is None:
            return None
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < 2:
            raise ValueError(f"no seat {player!r} in Train Boiler; seats are 0 and 1 (None: a spectator)")
        return player

    def play_random(self, rnd: Callable[[], float], plies: int) -> int:
        """The core's random playout; in C where the compiled rollouts are built (:mod:`boardlab.fast`): the same
        draws, the same moves, the same tables at the end."""
        compiled = fast.ACTIVE.get("train-boiler")
        if compiled is not None:
            return compiled.play_random(self, rnd, plies)
        return super().play_random(rnd, plies)

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The observation as numbers (docs/research/tensors-newer.md): seats from the viewer's."""
        o = self.observation(player)
        v = o["viewer"]
        tz.header(t, o, v, 2, PHASE_NAMES)
        t.counts("round", [o["round"]], self.game.max_rounds)
        t.one_of("temperature", o["temperature"], TRACK)
        t.one_hot("hot", tz.rel(o["hot"], v, 2), 2)
        hottest = tz.rotate(o["hottest"], v)
        t.bits("hottest_known", [h is not None for h in hottest])
        t.bits("hottest", [bool(h) for h in hottest])
        hands = tz.rotate(o["hands"], v)
        t.bits("hand_known", [h is not None for h in hands])
        for k, hand in enumerate(hands):
            t.scalars(f"hand{k}", [hand[name] / c if hand else 0.0 for name, c in zip(KINDS, COUNTS, strict=True)])
        t.counts("hand_sizes", tz.rotate(o["hand_sizes"], v), HAND)
        plays = [tz.rel(p["seat"], v, 2) * len(KINDS) + KINDS.index(p["card"]) for p in o["plays"]]
        tz.seq(t, "plays", plays, 2 * HAND, 2 * len(KINDS))
        t.counts("played", [o["played"]], 2 * HAND)
        t.counts("wins", tz.rotate(o["wins"], v), self.game.max_rounds)
        for r in range(self.game.max_rounds):
            res = o["results"][r] if r < len(o["results"]) else None
            t.bits(f"round{r + 1}_done", [res is not None])
            t.one_of(f"round{r + 1}_temperature", res["temperature"] if res else None, TRACK)
            t.one_hot(f"round{r + 1}_hot", tz.rel(res["hot"], v, 2) if res else None, 2)
            t.one_hot(f"round{r + 1}_hottest", tz.rel(res["hottest"], v, 2) if res else None, 2)
            t.one_hot(f"round{r + 1}_winner", tz.rel(res["winner"], v, 2) if res else None, 2)
        t.one_hot("winner", tz.rel(o["winner"], v, 2), 2)

    def observation(self, player: int | None = None) -> dict[str, Any]:
        v = self._viewer(player)
        table = self.game.table_view
        dealt = self.phase not in ("star", "double", "deal")

        def sees(seat: int) -> bool:  # whose hand and ★★ goal this viewer is shown
            return v is not None and (seat == v or not table)

        plays = [{"seat": p, "card": KINDS[k]} for p, k in self.plays]
        shown_plays = plays if not table else plays[-1:]
        return {
            "viewer": v,
            "view": self.game.params["view"],
            "round": len(self.results) + (0 if self.phase == "over" else 1),
            "max_rounds": self.game.max_rounds,
            "phase": self.phase,
            "to_move": self.current_player(),
            "temperature": TRACK[self.temp],
            "hot": self.hot if self.hot >= 0 else None,  # §5.1: public, the Hot player plays first
            "hottest": [(self.hottest == s) if (self.hottest >= 0 and sees(s)) else None for s in (0, 1)],
            "hands": [
                {KINDS[k]: n for k, n in enumerate(self.hands[s])} if (dealt and sees(s)) else None for s in (0, 1)
            ],
            "hand_sizes": [sum(h) for h in self.hands] if dealt else [0, 0],
            "plays": shown_plays,
            "played": len(self.plays),
            "wins": self.wins[:],
            "results": [dict(r) for r in self.results],
            "winner": self.winner if self.phase == "over" and self.winner >= 0 else None,
        }


# -- the phases ------------------------------------------------------------------------


def _star(s: TrainBoilerState, seat: int) -> None:
    """§4.1: the ★ cards: Heat Up! ★ gives the goal Hot, Cool Down! ★ the goal Cold."""
    s.hot = seat
    s.phase = "double"


def _star_seen(s: TrainBoilerState, actor: int, seat: int) -> Seen:
    return Seen(
        f"{NAMES[seat]} draws Heat Up! ★ (goal Hot, plays first) and {NAMES[1 - seat]} Cool Down! ★ (goal Cold)"
    )


def _double(s: TrainBoilerState, seat: int) -> None:
    """§4.2: the ★★ cards: Heat Up! ★★ adds the goal Hottest, Cool Down! ★★ the goal Coldest."""
    s.hottest = seat
    s.phase = "deal"


def _double_seen(s: TrainBoilerState, actor: int, seat: int) -> Seen:
    text = f"{NAMES[seat]} draws Heat Up! ★★ (also Hottest) and {NAMES[1 - seat]} Cool Down! ★★ (also Coldest)"
    return Seen("the ★★ cards are drawn in secret", {0: text, 1: text})


def _deal(s: TrainBoilerState, action: int) -> None:
    """§4.3: all fourteen cards shuffled and dealt, seven each; the Hot player plays first (§5.1)."""
    mine = DEALS[action]
    s.hands = [mine, tuple(COUNTS[k] - mine[k] for k in range(3))]
    s.to_move = s.hot
    s.phase = "play"


def _deal_seen(s: TrainBoilerState, actor: int, action: int) -> Seen:
    mine = DEALS[action]
    other = tuple(COUNTS[k] - mine[k] for k in range(3))
    text = f"dealt {hand_text(mine)} to Orange, {hand_text(other)} to Blue"
    return Seen("dealt seven cards to each player", {0: text, 1: text})


def _deal_label(s: TrainBoilerState, player: int, action: int) -> str | None:
    if player == CHANCE and s.phase == "deal" and 0 <= action < len(DEALS):
        return f"Orange is dealt {hand_text(DEALS[action])}"
    if player == CHANCE and s.phase in ("star", "double") and action in (0, 1):
        return f"{NAMES[action]} draws the Heat Up! {'★' if s.phase == 'star' else '★★'} card"
    return None


def _play_legal(s: TrainBoilerState, seat: int) -> list[int]:
    """§5.3: play any card from your hand; passing is not allowed."""
    return [k for k in range(3) if s.hands[seat][k] > 0]


def _play_explain(s: TrainBoilerState, player: int, action: int) -> str | None:
    return said(f"you hold no {KINDS[action]} card", "5.3") if 0 <= action < 3 else None


def _play(s: TrainBoilerState, kind: int) -> None:
    """§3, §5: the card changes the temperature; after the fourteenth card the round is decided (§6)."""
    p = s.to_move
    dud = kind == RESTORE and restore_is_dud(sum(s.hands[p]), sum(s.hands[1 - p]), s.game.restore_rule)
    hand = list(s.hands[p])
    hand[kind] -= 1
    s.hands[p] = tuple(hand)
    s.temp = after_play(s.temp, kind, dud)
    s.plays.append((p, kind))
    s.to_move = 1 - p
    if len(s.plays) == 2 * HAND:
        _end_round(s)


def _end_round(s: TrainBoilerState) -> None:
    """§6: whoever's goal the temperature ends at wins the round; Normal draws it; §7: the match goes on."""
    w = round_winner(s.temp, s.hot, s.hottest)
    if w is not None:
        s.wins[w] += 1
    s.results.append(
        {
            "round": len(s.results) + 1,
            "temperature": TRACK[s.temp],
            "hot": s.hot,
            "hottest": s.hottest,
            "winner": w,
        }
    )
    s._mark_irreversible()
    if s.match_over():
        s.winner = 0 if s.wins[0] > s.wins[1] else 1 if s.wins[1] > s.wins[0] else -1
        s.phase = "over"
    else:
        s._new_round()


def _play_seen(s: TrainBoilerState, actor: int, kind: int) -> Seen:
    p = s.to_move
    dud = kind == RESTORE and restore_is_dud(sum(s.hands[p]), sum(s.hands[1 - p]), s.game.restore_rule)
    temp = after_play(s.temp, kind, dud)
    text = f"plays {KINDS[kind]}: the boiler is {TRACK[temp]}"
    if dud:
        text += " (Restore Normal! has no effect: both hands hold fewer than 3 cards)"
    elif temp == s.temp:
        text += " (it cannot go further)" if kind != RESTORE else ""
    if len(s.plays) == 2 * HAND - 1:
        w = round_winner(temp, s.hot, s.hottest)
        goals = "; ".join(f"{NAMES[q]} aimed for {goals_text(q, s.hot, s.hottest)}" for q in (0, 1))
        outcome = "the round is a draw" if w is None else f"{NAMES[w]} wins the round"
        text += f". {goals}: {outcome}"
        # §8: the round's end shows both goals, and every card was played face up: it pins the round's draws
        return Seen(text, pins=tuple(range(len(s._history) + 1)))
    return Seen(text)


def _play_prompt(game: TrainBoilerGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    v = obs["viewer"]
    if not legal or v is None:
        return f"The boiler is {obs['temperature']}: {NAMES[obs['to_move']]} plays a card."
    goals = f"{'Hot' if obs['hot'] == v else 'Cold'} or {'Hottest' if obs['hottest'][v] else 'Coldest'}"
    return f"The boiler is {obs['temperature']}; you aim for {goals}. Play a card from your hand."


def _over_prompt(game: TrainBoilerGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    w, wins = obs["winner"], obs["wins"]
    score = f"{wins[0]}-{wins[1]} in rounds"
    if w is None:
        return f"The match is a draw ({score})."
    return f"{'You win' if w == obs['viewer'] else NAMES[w] + ' wins'} the match ({score})."


PHASES = phase_table(
    Phase(
        "star",
        CHANCE,
        outcomes=lambda s: [(0, 0.5), (1, 0.5)],
        apply=_star,
        label=_deal_label,
        seen=_star_seen,
        prompt=lambda game, obs, legal: f"Round {obs['round']}: the ★ goal cards are drawn.",
    ),
    Phase(
        "double",
        CHANCE,
        outcomes=lambda s: [(0, 0.5), (1, 0.5)],
        apply=_double,
        label=_deal_label,
        seen=_double_seen,
        prompt=lambda game, obs, legal: f"Round {obs['round']}: the ★★ goal cards are drawn.",
    ),
    Phase(
        "deal",
        CHANCE,
        outcomes=lambda s: list(zip(range(len(DEALS)), DEAL_WEIGHTS, strict=True)),
        apply=_deal,
        label=_deal_label,
        seen=_deal_seen,
        prompt=lambda game, obs, legal: f"Round {obs['round']}: the cards are shuffled and dealt.",
    ),
    Phase(
        "play",
        lambda s: s.to_move,
        legal=_play_legal,
        apply=_play,
        explain=_play_explain,
        seen=_play_seen,
        prompt=_play_prompt,
    ),
    Phase("over", TERMINAL, prompt=_over_prompt),
)
TrainBoilerState.phases = PHASES
PHASE_NAMES = tuple(PHASES)


# -- the scene ----------------------------------------------------------------------------

CARD_LOOK = (("+1", "▲", "#c0392b"), ("−1", "▼", "#1f6fb2"), ("N", "●", "#2e7d32"))
TRACK_FILLS = ("#1f6fb2", "#8fbbe0", "#e8e2d4", "#f0a58a", "#c0392b")


def _card(id: str, kind: int) -> dict[str, Any]:
    value, suit, ink = CARD_LOOK[kind]
    return sc.item(id, KINDS[kind], value=value, suit=suit, colour=ink)


def _hand_items(seat: int, obs: dict[str, Any], legal: list[tuple[int, str]]) -> list[dict[str, Any]]:
    hand = obs["hands"][seat]
    if hand is None:
        return [sc.item(f"hand{seat}-{k}", "a card", face_down=True) for k in range(obs["hand_sizes"][seat])]
    items = []
    for kind, name in enumerate(KINDS):
        items += [_card(f"hand{seat}-{kind}-{k}", kind) for k in range(hand[name])]
    return items


@TrainBoilerGame.draws_scene
def _scene(game: TrainBoilerGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    v = obs["viewer"]
    prompt = PHASES[obs["phase"]].prompt(game, obs, legal)  # type: ignore[misc]
    s = sc.new_scene(prompt, (0, 0, 5, 1.3))
    for k, name in enumerate(TRACK):  # §2: the track, drawn as five squares
        square = [(k + 0.05, 0.05), (k + 0.95, 0.05), (k + 0.95, 0.95), (k + 0.05, 0.95)]
        s["cells"].append(sc.cell(f"t{k}", (k + 0.5, 0.5), square, label=name, fill=TRACK_FILLS[k]))
    s["pieces"].append(
        sc.piece(f"t{TRACK.index(obs['temperature'])}", None, "temperature", label=obs["temperature"], colour="dark")
    )
    seats = [v, 1 - v] if v is not None else [0, 1]
    for seat in seats:
        goals = []
        if obs["hot"] is not None:
            hot = obs["hot"] == seat
            goals.append(
                sc.item(
                    f"goal{seat}-1",
                    f"{KINDS[HEAT if hot else COOL]} ★",
                    value="★",
                    suit=CARD_LOOK[HEAT if hot else COOL][1],
                    colour=CARD_LOOK[HEAT if hot else COOL][2],
                    detail=f"goal: {'Hot' if hot else 'Cold'}",
                )
            )
        top = obs["hottest"][seat]
        if top is not None:
            kind = HEAT if top else COOL
            goals.append(
                sc.item(
                    f"goal{seat}-2",
                    f"{KINDS[kind]} ★★",
                    value="★★",
                    suit=CARD_LOOK[kind][1],
                    colour=CARD_LOOK[kind][2],
                    detail=f"goal: {'Hottest' if top else 'Coldest'}",
                )
            )
        elif obs["hot"] is not None:
            goals.append(sc.item(f"goal{seat}-2", "a ★★ goal card", face_down=True))
        who = "Your" if seat == v else f"{NAMES[seat]}'s"
        s["zones"].append(sc.zone(f"goals{seat}", f"{who} goals", goals, owner=seat))
        title = f"{who} hand ({obs['hand_sizes'][seat]} cards)"
        s["zones"].append(sc.zone(f"hand{seat}", title, _hand_items(seat, obs, legal), owner=seat))
    played = obs["played"]
    shown = obs["plays"]
    items = [sc.item(f"played{k}", "a played card", face_down=True) for k in range(played - len(shown))]
    for k, p in enumerate(shown, start=played - len(shown)):
        card = _card(f"played{k}", KINDS.index(p["card"]))
        card["owner"] = p["seat"]
        items.append(card)
    s["zones"].append(sc.zone("played", f"Played cards ({played}, the last on the right)", items))
    if played:
        s["highlights"].append({"at": f"played{played - 1}", "kind": "last"})
    for r in obs["results"]:
        w = r["winner"]
        text = "a draw" if w is None else f"{NAMES[w]} won"
        goals = "; ".join(f"{NAMES[q]}: {goals_text(q, r['hot'], r['hottest'])}" for q in (0, 1))
        s["status"].append(f"Round {r['round']}: {r['temperature']}, {text} ({goals})")
    s["status"][:0] = [f"Boiler: {obs['temperature']}", f"Round wins: Orange {obs['wins'][0]}, Blue {obs['wins'][1]}"]
    if v is not None and obs["hands"][v] is not None:
        for kind, name in enumerate(KINDS):
            a = kind
            if any(x == a for x, _ in legal):
                for k in range(obs["hands"][v][name]):
                    s["targets"].append({"at": f"hand{v}-{kind}-{k}", "action": a, "label": f"play {name}"})
    s["players"] = [
        sc.player(q, NAMES[q] + (" (you)" if q == v else ""), f"{obs['wins'][q]} round wins") for q in (0, 1)
    ]
    return sc.finish_scene(s, legal)


TrainBoilerGame.state_class = TrainBoilerState
GAME_CLASS = TrainBoilerGame
