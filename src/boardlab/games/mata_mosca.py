"""Mata Mosca (Rey Alicea, a work in progress): sixteen flies against one spider on blue and red spots.

Rules: ``docs/rules/mata-mosca.md``; clause numbers are cited as ``§n``.

Seat 0 is the Flies, who move first; seat 1 is the Spider (§3). A turn is a
sequence of small decisions by the same seat, each a legal action on its own:

* the Flies (§4): the spot of the fly to move (segment ``fly``, labels the
  spots' names), then its destination (segment ``to``, ``to d5``); with
  ``split_steps`` a one-step move may be followed by a one-step move of
  another fly, or ``stop``;
* the Spider (§6): a step ``to <spot>`` or ``capture <spot>`` (the fly's
  spot); with ``multi_capture`` a capture may be followed by another, or
  ``stop``;
* a side that cannot move (§10, and the Spider with ``spider_stuck=pass``): ``pass``.

Action layout (:class:`~boardlab.core.actions.ActionSpace`): ``fly`` (one per
spot), ``to`` (one per spot), ``capture`` (one per spot), ``pass``, ``stop``.

The board is data (§1, §12): ``games/data/mata-mosca.json`` is our placeholder
(the designer's picture is missing); a designer's board goes in
``games/data/mata-mosca-<name>.json`` in the same format and is chosen with the
option ``board=<name>``. The file is read when the game object is made, never
during play. From its adjacency and straight lines the game derives every
table it needs: fly steps (blue to blue), spider steps (red to red), the blue
spots next to each red spot (§7), fly hops (three blue spots in a row, §4.3)
and spider captures (red, blue, red in a row, §6.2).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.constants import TERMINAL
from ..core.game import Game, win_loss
from ..core.hidden import Seen
from ..core.options import DataFiles, Option
from ..core.phases import Phase, PhasedState, phase_table
from ..core.tensor import Tensor
from ..core.wording import said
from ..geometry.board import NamedBoard
from ..geometry.hexgrid import bounding_box
from . import _tensors as tz

NAMES = ("Flies", "Spider")
FLIES, SPIDER_SEAT = 0, 1
COLOURS = ("#2b2823", "#c0392b")  # black flies, the red spider (§2)
DRAW = 2
CAPTURES_TO_WIN = 8  # §9

# Spot contents (§2).
EMPTY, FLY, COCOON, SPIDER = 0, 1, 2, 3

# Phases.
PICK = "choose a fly"  # §4
DEST = "move the fly"  # §4
PICK2 = "second fly"  # §4.4, split_steps
DEST2 = "move the second fly"
SPIDER_TURN = "spider"  # §6
CHAIN = "more captures"  # §6.3, multi_capture
FLIES_PASS = "flies pass"  # §10
SPIDER_PASS = "spider passes"  # §8.3, spider_stuck=pass
OVER = "over"


class Board(NamedBoard):
    """One board's tables (§1, §7): spots, steps, hops, captures, and the blue spots next to each red one."""

    def __init__(self, name: str, data: dict[str, Any]) -> None:
        super().__init__(name, data)
        board = self.data
        n = self.n
        bad = [board.ids[i] for i, c in enumerate(board.colours) if c not in ("blue", "red")]
        if bad:
            raise ValueError(f"Mata Mosca board {name!r}: spots {bad[:5]} are neither blue nor red")
        self.blue = tuple(c == "blue" for c in board.colours)
        palette: dict[str, str] = dict(data.get("colours", {}))
        self.fills = tuple(palette.get(str(c), "#86b4df" if c == "blue" else "#e79a9a") for c in board.colours)
        nb = board.neighbours
        self.fly_steps = tuple(tuple(j for j in nb[i] if self.blue[i] and self.blue[j]) for i in range(n))
        self.spider_steps = tuple(tuple(j for j in nb[i] if not self.blue[i] and not self.blue[j]) for i in range(n))
        self.near = tuple(tuple(j for j in nb[i] if not self.blue[i] and self.blue[j]) for i in range(n))
        hops: list[set[tuple[int, int]]] = [set() for _ in range(n)]
        captures: list[set[tuple[int, int]]] = [set() for _ in range(n)]
        for line in board.lines:
            for seq in (line, line[::-1]):
                for a, b, c in zip(seq, seq[1:], seq[2:], strict=False):
                    if self.blue[a] and self.blue[b] and self.blue[c]:
                        hops[a].add((b, c))  # §4.3: over b to c; also a straight two-step path (§4.2)
                    elif not self.blue[a] and self.blue[b] and not self.blue[c]:
                        captures[a].add((b, c))  # §6.2: over the fly at b to c
        self.hops = tuple(tuple(sorted(h)) for h in hops)
        self.captures = tuple(tuple(sorted(c)) for c in captures)
        start = data.get("start", {})
        try:
            self.start_flies = tuple(board.index[str(x)] for x in start["flies"])
            self.start_spider = board.index[str(start["spider"])]
        except KeyError as e:
            raise ValueError(f"Mata Mosca board {name!r}: 'start' needs 'flies' and 'spider' spots ({e})") from None
        if not all(self.blue[i] for i in self.start_flies) or self.blue[self.start_spider]:
            raise ValueError(f"Mata Mosca board {name!r}: flies start on blue spots, the spider on a red one")
        self.cells = board.scene_cells(0.26, fill=self.fills)
        edges = []
        for i in range(n):
            for j in nb[i]:
                if i < j:
                    if self.blue[i] == self.blue[j]:  # a line flies (blue) or the spider (red) move along
                        edges.append(
                            sc.edge(
                                f"{board.ids[i]}-{board.ids[j]}",
                                board.xy[i],
                                board.xy[j],
                                stroke=self.fills[i],
                                kind="line",
                            )
                        )
                    else:  # a red spot and a blue spot next to it (§7)
                        edges.append(sc.edge(f"{board.ids[i]}-{board.ids[j]}", board.xy[i], board.xy[j], kind="grid"))
        self.edges = edges
        self.viewbox = bounding_box(list(board.xy), margin=0.7)


#: The boards (§1, §12): ours is ``games/data/mata-mosca.json``; a designer's ``mata-mosca-<name>.json`` beside it is
#: the option value ``<name>``.
BOARDS = DataFiles(Path(__file__).with_name("data"), "mata-mosca", "placeholder", Board)


class MataMoscaGame(Game):
    id = "mata-mosca"
    title = "Mata Mosca"
    summary = (
        "Sixteen flies against one spider: the flies try to hem the spider in, the spider cocoons eight flies. "
        "A work in progress by its designer; the board is a stand-in (the designer's picture is missing)."
    )
    options = (
        BOARDS.option(
            "board",
            said("The board: our stand-in, or a board the designer drew, once it is added to the game.", "1", "12"),
        ),
        Option.flag(
            "split_steps", False, said("The Flies may split their two steps between two flies, one step each.", "4.4")
        ),
        Option.flag("straight_only", False, said("A fly's two-step move must go straight, not turn.", "4.2")),
        Option.flag("multi_capture", False, said("After a capture the Spider may capture again.", "6.3")),
        Option.flag("cut_off", True, said("The Flies win when the spider is cut off from every live fly.", "8.2")),
        Option.choice(
            "spider_stuck",
            {"flies_win": "The Spider loses", "pass": "The Spider passes"},
            said("A spider that cannot move loses, or passes.", "8.3"),
        ),
        Option.choice(
            "flies_stuck",
            {"pass": "The Flies pass", "lose": "The Flies lose"},
            said("Flies that cannot move pass, or lose the game.", "10"),
        ),
        Option(
            "turn_limit", int, 200, (100, 200, 400), said("Turns (of both sides) after which the game is a draw.", "11")
        ),
    )
    mechanics = ("asymmetric", "hunt", "movement", "jump captures", "spots and lines")
    playing_time = "15 min"
    seat_names = NAMES
    inventions = (
        "The designer marks Mata Mosca as a work in progress: these rules may change.",
        "The board: the designer's picture is missing. Ours is a placeholder, an 8 by 8 board of spots, blue and "
        "red as on a checkerboard; flies move diagonally on blue, the spider diagonally on red and captures along "
        "rows and columns (option board; a designer's board is a data file, see the rules).",
        "The starting position: the flies on the blue spots of the four top rows, the spider on e1.",
        "One fly moves per turn (option split_steps); a two-step move may turn (option straight_only).",
        "One capture per turn (option multi_capture); a capture may not land on a surrounded spot.",
        "'Cut off from the remaining flies': no spot the spider can reach is next to a live fly (option cut_off).",
        "A spider that cannot move loses (option spider_stuck); flies that cannot move pass (option flies_stuck).",
        "The game is a draw after 200 turns (option turn_limit).",
    )

    def _setup(self) -> None:
        self.board = BOARDS.load(self.params["board"])
        self.n = self.board.n
        spots = (("spot", self.board.labels),)
        self.action_space = ActionSpace(
            Segment("fly", spots, "{spot}"),
            Segment("to", spots, "to {spot}"),
            Segment("capture", spots, "capture {spot}"),
            Segment("pass", (), "pass"),
            Segment("stop", (), "stop"),
        )
        self.to_base = self.n
        self.capture_base = 2 * self.n
        self.pass_action = self.action_space.encode("pass")
        self.stop_action = self.action_space.encode("stop")
        # §11: at most turn_limit turns of at most 4 decisions (split steps) or 1 + captures (chains).
        self.max_length = self.params["turn_limit"] * (4 + CAPTURES_TO_WIN) + 1


class MataMoscaState(PhasedState):
    game: MataMoscaGame
    copied = ("content", "moved", "last")

    def __init__(self, game: MataMoscaGame, num_players: int) -> None:
        super().__init__(game, num_players)
        b = game.board
        self.content = [EMPTY] * game.n
        for i in b.start_flies:  # §2
            self.content[i] = FLY
        self.content[b.start_spider] = SPIDER
        self.spider = b.start_spider
        self.captures = 0
        self.turns = 0  # finished turns (§11)
        self.chosen = -1  # the fly being moved (§4)
        self.moved: list[int] = []  # spots this turn's moves touched, in order
        self.last: list[int] = []  # the previous turn's
        self.first_fly = -1  # with split_steps: where the first fly went
        #: The flies that may move now and where (§4), or the Spider's legal actions (§6); replaced, never
        #: changed in place, so copies may share them.
        self.table: dict[int, dict[int, int]] = {}
        self.spider_legal: list[int] = []
        self.winner = -1
        self.reason = ""
        self.phase = PICK
        self._start_flies_turn()

    def returns(self) -> list[float]:
        if self.winner < 0:
            return [0.0, 0.0]
        return win_loss(self.winner if self.winner in (0, 1) else None)

    # -- the log in words ---------------------------------------------------------------
    def _seen(self, actor: int, entry: int | tuple[int | None, ...]) -> Seen | tuple[Seen | None, ...]:
        """The decision in words (§4, §6, §10): which fly moves where, the spider's step or capture, a stop, a pass."""
        if not isinstance(entry, int):
            return super()._seen(actor, entry)
        return Seen(_words(self, entry))

    # -- the board's questions (§4, §6, §7, §8) ----------------------------------
    def surrounded(self, r: int) -> bool:
        """§7: every blue spot next to red spot ``r`` holds a fly or a cocoon (missing spots count as edge)."""
        content = self.content
        return all(content[b] in (FLY, COCOON) for b in self.game.board.near[r])

    def fly_moves(self, f: int, one_step_only: bool = False) -> dict[int, int]:
        """Where the fly at ``f`` may go, with the steps each costs (§4.1-§4.3); cocoons block (§5)."""
        b = self.game.board
        content = self.content
        out: dict[int, int] = {}
        for m in b.fly_steps[f]:
            if content[m] == EMPTY:
                out[m] = 1  # §4.1
        if one_step_only:
            return out
        straight = self.game.params["straight_only"]
        for m in list(out):  # §4.2: two steps through an empty spot, not back to the start
            nexts = [c for mid, c in b.hops[f] if mid == m] if straight else b.fly_steps[m]
            for t in nexts:
                if t != f and content[t] == EMPTY and t not in out:
                    out[t] = 2
        for over, land in b.hops[f]:  # §4.3: a hop over a live fly
            if content[over] == FLY and content[land] == EMPTY and land not in out:
                out[land] = 2
        return out

    def fly_table(self, one_step_only: bool = False, skip: int = -1) -> dict[int, dict[int, int]]:
        """Every fly that can move (but ``skip``), with its moves (§4): computed once per step of a turn."""
        out = {}
        for i, c in enumerate(self.content):
            if c == FLY and i != skip:
                m = self.fly_moves(i, one_step_only)
                if m:
                    out[i] = m
        return out

    def spider_moves(self) -> list[int]:
        """The Spider's legal actions from its spot (§6, §7)."""
        game = self.game
        b = game.board
        content = self.content
        s = self.spider
        out = [] if self.phase == CHAIN else [game.to_base + r for r in b.spider_steps[s] if not self.surrounded(r)]
        for fly, land in b.captures[s]:
            if content[fly] == FLY and content[land] == EMPTY and not self.surrounded(land):
                out.append(game.capture_base + fly)
        return sorted(out)

    def cut_off(self) -> bool:
        """§8.2: no red spot the spider can reach (stepping onto spots that are not surrounded) is next to a fly."""
        b = self.game.board
        content = self.content
        seen = {self.spider}
        stack = [self.spider]
        while stack:
            r = stack.pop()
            if any(content[f] == FLY for f in b.near[r]):
                return False
            for t in b.spider_steps[r]:
                if t not in seen and not self.surrounded(t):
                    seen.add(t)
                    stack.append(t)
        return True

    # -- turns ---------------------------------------------------------------------------
    def _finish(self, winner: int, reason: str) -> None:
        self.winner = winner
        self.reason = reason
        self.phase = OVER
        self.last = self.moved
        self.moved = []

    def _flies_checks(self) -> bool:
        """After a fly moves: §8.1, §8.2. True when the game ended."""
        if self.surrounded(self.spider):
            self._finish(FLIES, "the spider is surrounded")
            return True
        if self.game.params["cut_off"] and self.cut_off():
            self._finish(FLIES, "the spider is cut off from the flies")
            return True
        return False

    def _end_turn(self, next_side: int) -> None:
        self.turns += 1
        self.last = self.moved
        self.moved = []
        self.chosen = self.first_fly = -1
        if self.turns >= self.game.params["turn_limit"]:  # §11
            self._finish(DRAW, f"{self.turns} turns have been played")
        elif next_side == SPIDER_SEAT:
            self._start_spider_turn()
        else:
            self._start_flies_turn()

    def _start_flies_turn(self) -> None:
        self.table = self.fly_table()
        if self.table:
            self.phase = PICK
        elif self.game.params["flies_stuck"] == "lose":  # §10
            self._finish(SPIDER_SEAT, "the flies cannot move")
        else:
            self.phase = FLIES_PASS

    def _start_spider_turn(self) -> None:
        self.phase = SPIDER_TURN
        self.spider_legal = self.spider_moves()
        if self.spider_legal:
            return
        if self.game.params["spider_stuck"] == "flies_win":  # §8.3
            self._finish(FLIES, "the spider cannot move")
        else:
            self.phase = SPIDER_PASS

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The observation as numbers (docs/research/tensors-newer.md): each spot's piece, the moves of two turns."""
        o = self.observation(player)
        n = self.game.n
        tz.header(t, o, player, 2, PHASE_NAMES)
        tz.one_hots(t, "spots", [c - 1 if c != EMPTY else None for c in o["spots"]], 3)
        t.one_hot("chosen", o["chosen"] if o["chosen"] >= 0 else None, n)
        t.counts("captures", [o["captures"]], CAPTURES_TO_WIN)
        t.counts("flies_left", [o["flies_left"]], len(self.game.board.start_flies))
        t.counts("turns", [o["turns"]], o["turn_limit"] + 1)
        tz.seq(t, "this_turn", o["this_turn"], MAX_MOVED, n)
        tz.seq(t, "last_turn", o["last_turn"], MAX_MOVED, n)
        t.one_hot("winner", tz.rel(o["winner"], player, 2), 2)
        t.bits("draw", [o["draw"]])

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {
            "board": self.game.params["board"],
            "spots": self.content[:],
            "spider": self.spider,
            "phase": self.phase,
            "to_move": self.current_player(),
            "chosen": self.chosen,
            "captures": self.captures,
            "flies_left": self.content.count(FLY),
            "turns": self.turns,
            "turn_limit": self.game.params["turn_limit"],
            "this_turn": self.moved[:],
            "last_turn": self.last[:],
            "winner": self.winner if self.winner in (0, 1) else None,
            "draw": self.winner == DRAW,
            "reason": self.reason,
        }


def _side(side: int):
    return lambda s: side


# -- the Flies (§4, §5, §10) ----------------------------------------------------------------


def _pick_legal(s: MataMoscaState, player: int) -> list[int]:
    return list(s.table)


def _pick2_legal(s: MataMoscaState, player: int) -> list[int]:
    return [*s.table, s.game.stop_action]


def _dest_legal(s: MataMoscaState, player: int) -> list[int]:
    base = s.game.to_base
    return sorted(base + t for t in s.table[s.chosen])


def _pick(s: MataMoscaState, action: int) -> None:
    s.chosen = action
    s.phase = DEST if s.phase == PICK else DEST2


def _move_fly(s: MataMoscaState, action: int) -> None:
    t = action - s.game.to_base
    f = s.chosen
    steps = s.table[f][t]
    s.content[f] = EMPTY
    s.content[t] = FLY
    s.moved += [f, t]
    second = s.phase == DEST2
    s.chosen = -1
    if s._flies_checks():
        return
    if not second and steps == 1 and s.game.params["split_steps"]:
        s.table = s.fly_table(True, skip=t)
        if s.table:
            s.first_fly = t
            s.phase = PICK2  # §4.4: another fly may take the second step
            return
    s._end_turn(SPIDER_SEAT)


def _stop_flies(s: MataMoscaState, action: int) -> None:
    s._end_turn(SPIDER_SEAT)


def _flies_pass(s: MataMoscaState, action: int) -> None:
    s._end_turn(SPIDER_SEAT)


def _explain_pick(s: MataMoscaState, player: int, action: int) -> str | None:
    game = s.game
    labels = game.board.labels
    if action == game.pass_action:
        return said("the Flies pass only when no fly can move", "10")
    if action == game.stop_action:
        return None if s.phase == PICK2 else said("stop ends a turn only after a first one-step move", "4.4")
    if action >= game.n:
        return said("first choose the fly to move", "4")
    c = s.content[action]
    if c == COCOON:
        return said(f"the cocoon on {labels[action]} never moves again", "5")
    if c != FLY:
        return said(f"{labels[action]} holds no fly", "4")
    if s.phase == PICK2 and action == s.first_fly:
        return said("the second step of a split turn moves another fly", "4.4")
    return said(f"the fly on {labels[action]} has no empty spot to reach", "4", "5")


def _explain_dest(s: MataMoscaState, player: int, action: int) -> str | None:
    game = s.game
    labels = game.board.labels
    if not game.to_base <= action < game.capture_base:
        return said(f"choose where the fly on {labels[s.chosen]} goes", "4")
    t = action - game.to_base
    if s.content[t] != EMPTY:
        return said(f"{labels[t]} is not empty", "4")
    if not game.board.blue[t]:
        return said(f"flies move only on blue spots; {labels[t]} is red", "4")
    if s.phase == DEST2:
        return said("the second fly of a split turn moves one step", "4.4")
    return said(
        f"{labels[t]} is not one or two steps along blue lines from {labels[s.chosen]} through empty spots, "
        "nor a hop over a fly; cocoons block",
        "4",
        "5",
    )


# -- the Spider (§6, §7, §8.3) ------------------------------------------------------------------


def _spider_legal(s: MataMoscaState, player: int) -> list[int]:
    return [*s.spider_legal, s.game.stop_action] if s.phase == CHAIN else list(s.spider_legal)


def _spider_move(s: MataMoscaState, action: int) -> None:
    game = s.game
    b = game.board
    s.content[s.spider] = EMPTY
    if action >= game.capture_base:  # §6.2: jump over the fly, which becomes a cocoon
        fly = action - game.capture_base
        land = next(c for f, c in b.captures[s.spider] if f == fly)
        s.content[fly] = COCOON
        s.captures += 1
        s.moved += [s.spider, fly, land]
    else:  # §6.1
        land = action - game.to_base
        s.moved += [s.spider, land]
    s.content[land] = SPIDER
    s.spider = land
    if s.captures >= CAPTURES_TO_WIN:  # §9
        s._finish(SPIDER_SEAT, f"the spider has cocooned {s.captures} flies")
        return
    if game.params["cut_off"] and s.cut_off():  # §8.2
        s._finish(FLIES, "the spider is cut off from the flies")
        return
    if action >= game.capture_base and game.params["multi_capture"]:
        s.phase = CHAIN
        s.spider_legal = s.spider_moves()
        if s.spider_legal:
            return  # §6.3: it may capture again, or stop
    s._end_turn(FLIES)


def _spider_stop(s: MataMoscaState, action: int) -> None:
    if action == s.game.stop_action:
        s._end_turn(FLIES)
    else:
        _spider_move(s, action)


def _spider_pass(s: MataMoscaState, action: int) -> None:
    s._end_turn(FLIES)


def _explain_spider(s: MataMoscaState, player: int, action: int) -> str | None:
    game = s.game
    b = game.board
    labels = b.labels
    here = labels[s.spider]
    if action == game.pass_action:
        return said("the Spider passes only when it cannot move", "8.3")
    if action == game.stop_action:
        return None if s.phase == CHAIN else said("stop ends a turn only after a capture", "6.3")
    if game.to_base <= action < game.capture_base:
        t = action - game.to_base
        if s.phase == CHAIN:
            return said("after a capture the Spider may only capture again, or stop", "6.3")
        if t not in b.spider_steps[s.spider]:
            return said(f"the spider steps one spot along a red line from {here}", "6.1")
        return said(f"{labels[t]} is surrounded by flies, cocoons and the edge: the spider may not go there", "7")
    if action >= game.capture_base:
        f = action - game.capture_base
        pair = [c for fly, c in b.captures[s.spider] if fly == f]
        if not pair:
            return said(f"the spider captures a fly next to {here}, jumping in a straight line to a red spot", "6.2")
        if s.content[f] != FLY:
            return said(f"{labels[f]} holds no live fly to capture", "5", "6.2")
        return said(f"the spot beyond, {labels[pair[0]]}, is surrounded", "7")
    return said("the Spider moves with 'to <spot>' or 'capture <spot>'", "6")


# -- the log in words ----------------------------------------------------------------------


def _words(s: MataMoscaState, action: int) -> str:
    """A sentence for ``action`` about to be played in ``s`` (the log's line; the notation stays the label)."""
    game = s.game
    b = game.board
    labels = b.labels
    if action == game.pass_action:
        return "The Flies cannot move and pass" if s.phase == FLIES_PASS else "The spider cannot move and passes"
    if action == game.stop_action:
        return "The Flies end the turn after one step" if s.phase == PICK2 else "The spider stops capturing"
    if action < game.n:
        return f"The fly on {labels[action]} is picked to move"
    if action < game.capture_base:
        t = labels[action - game.to_base]
        if s.phase in (DEST, DEST2):
            return f"The fly on {labels[s.chosen]} moves to {t}"
        return f"The spider moves from {labels[s.spider]} to {t}"
    fly = action - game.capture_base
    land = next(c for f, c in b.captures[s.spider] if f == fly)
    return (
        f"The spider jumps from {labels[s.spider]} over the fly on {labels[fly]} to {labels[land]}; the fly becomes "
        f"a cocoon ({s.captures + 1} of {CAPTURES_TO_WIN})"
    )


# -- prompts --------------------------------------------------------------------------------


def _prompt_for(text: str):
    def prompt(game: MataMoscaGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
        if not legal:
            return f"{NAMES[obs['to_move']]} to move."
        chosen = game.board.labels[obs["chosen"]] if obs["chosen"] >= 0 else ""
        return text.format(chosen=chosen, captures=obs["captures"])

    return prompt


def _over_prompt(game: MataMoscaGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    if obs["draw"]:
        return f"A draw: {obs['reason']}."
    return f"{NAMES[obs['winner']]} {'win' if obs['winner'] == 0 else 'wins'}: {obs['reason']}."  # the Flies win


def _turn(name: str, side: int, legal, apply, explain, text: str) -> Phase:
    """A phase in which ``side`` decides, prompted with ``text`` (see :func:`_prompt_for`)."""
    return Phase(name, _side(side), legal=legal, apply=apply, explain=explain, prompt=_prompt_for(text))


def _pass_turn(name: str, side: int, apply, why: str, text: str) -> Phase:
    """A phase in which ``side`` cannot move and passes; ``why`` is what any other action is told."""
    return _turn(name, side, lambda s, p: [s.game.pass_action], apply, lambda s, p, a: why, text)


PHASES = phase_table(
    _turn(
        PICK,
        FLIES,
        _pick_legal,
        _pick,
        _explain_pick,
        "Flies: choose a fly to move one or two steps, or to hop over a fly.",
    ),
    _turn(DEST, FLIES, _dest_legal, _move_fly, _explain_dest, "Flies: choose where the fly on {chosen} goes."),
    _turn(
        PICK2,
        FLIES,
        _pick2_legal,
        lambda s, a: _stop_flies(s, a) if a == s.game.stop_action else _pick(s, a),
        _explain_pick,
        "Flies: move another fly one step, or stop.",
    ),
    _turn(DEST2, FLIES, _dest_legal, _move_fly, _explain_dest, "Flies: choose the one step of the fly on {chosen}."),
    _pass_turn(
        FLIES_PASS,
        FLIES,
        _flies_pass,
        said("no fly can move: the Flies must pass", "10"),
        "No fly can move: the Flies pass.",
    ),
    _turn(
        SPIDER_TURN,
        SPIDER_SEAT,
        _spider_legal,
        _spider_move,
        _explain_spider,
        "Spider: step along a red line, or capture a fly next to you ({captures} of 8 so far).",
    ),
    _turn(
        CHAIN,
        SPIDER_SEAT,
        _spider_legal,
        _spider_stop,
        _explain_spider,
        "Spider: capture again, or stop ({captures} of 8 so far).",
    ),
    _pass_turn(
        SPIDER_PASS,
        SPIDER_SEAT,
        _spider_pass,
        said("the spider cannot move: it must pass", "8.3"),
        "The spider cannot move: it passes.",
    ),
    Phase(OVER, TERMINAL, prompt=_over_prompt),
)
MataMoscaState.phases = PHASES


@MataMoscaGame.draws_scene
def _scene(game: MataMoscaGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    b = game.board
    labels = b.labels
    prompt = PHASES[obs["phase"]].prompt
    s = sc.new_scene(prompt(game, obs, legal) if prompt else "", b.viewbox)
    s["cells"] = [dict(c) for c in b.cells]
    s["edges"] = [dict(e) for e in b.edges]
    for i, c in enumerate(obs["spots"]):
        if c == FLY:
            s["pieces"].append(sc.piece(labels[i], FLIES, "fly", label="F"))
        elif c == COCOON:
            s["pieces"].append(sc.piece(labels[i], FLIES, "cocoon", label="C", colour="#f7f4ec"))
        elif c == SPIDER:
            s["pieces"].append(sc.piece(labels[i], SPIDER_SEAT, "spider", label="S", shape="diamond"))
    if obs["chosen"] >= 0:
        s["highlights"].append({"at": labels[obs["chosen"]], "kind": "selected"})
    for i in obs["this_turn"]:
        s["highlights"].append({"at": labels[i], "kind": "selected"})
    for i in obs["last_turn"]:
        s["highlights"].append({"at": labels[i], "kind": "last"})
    for a, label in legal:
        segment, idx = game.action_space.decode(a)
        if segment in ("fly", "to", "capture"):
            s["targets"].append({"at": labels[idx[0]], "action": a, "label": label})
    s["status"] = [
        f"Cocoons: {obs['captures']} of 8",
        f"Flies free: {obs['flies_left']}",
        f"Turn {obs['turns'] + 1} of {obs['turn_limit']}",
        f"Board: {b.title}" + (" (a stand-in: the designer's board is missing)" if b.unverified else ""),
        "Mata Mosca is a work in progress by its designer.",
    ]
    s["players"] = [sc.player(k, NAMES[k], colour=COLOURS[k]) for k in (0, 1)]
    return sc.finish_scene(s, legal)


MataMoscaGame.state_class = MataMoscaState
PHASE_NAMES = tuple(PHASES)
#: The most spots one turn's moves list: the spider's start, fly and landing spot of each capture.
MAX_MOVED = 3 * CAPTURES_TO_WIN

GAME_CLASS = MataMoscaGame
