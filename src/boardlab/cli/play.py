"""``boardlab play GAME``: play in the terminal against agents, or hot-seat with friends.

The loop reads plain lines from stdin (no curses), so scripts and tests can
drive it. At a human seat's decision it draws that seat's view of the board
(:mod:`boardlab.terminal`) and the legal moves, then reads a move label or
one of the commands: ``help``, ``why MOVE``, ``undo``, ``board``, ``quit``.

Hidden information stays hidden: when two or more seats are human and the game
has hidden information, a seat's view is drawn only after a "pass the device"
screen. Moves are announced as the core's move log words them for the one
human seat (for everyone's public view when several humans share the screen or
only agents play): a card dealt face down reads "dealt a card", a public move
reads as itself (:mod:`boardlab.core.hidden`).
"""

from __future__ import annotations

import hashlib
import pathlib
import random
from collections.abc import Callable, Sequence
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from ..agents import Agent, make_agent
from ..core import driver
from ..core.errors import IllegalActionError, UnknownActionString
from ..core.game import Game, State
from ..core.hidden import Seen
from ..core.record import GameRecord
from ..core.view import SeatView
from ..core.wording import for_players, with_refs
from ..terminal import moves_text, render_scene
from .main import CliError, GameArg, GameOptions, Players, app, cli_errors, fail, load_game, stdin_reader

HUMAN = "human"
#: Legal moves listed under the board each turn (``help`` lists them all).
MOVES_SHOWN = 80
COMMANDS_HELP = (
    "Type a move as it is listed, or: help (legal moves), why MOVE (why a move is illegal), "
    "undo (take back your last move), board (draw the board again), quit."
)


class EndOfInput(Exception):
    """stdin ran out before the game ended."""


class Quit(Exception):
    """The player typed quit."""


def parse_seats(specs: Sequence[str], num_players: int) -> list[str]:
    """``["0=human", "1=mcts:iterations=100"]`` → one spec per seat (seat 0 human and others random by default)."""
    seats: list[str | None] = [None] * num_players
    for spec in specs:
        key, eq, value = spec.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key.isdigit() or not value:
            raise CliError(f"--seat {spec!r} must look like SEAT=AGENT, e.g. 0=human or 1=random")
        seat = int(key)
        if seat >= num_players:
            raise CliError(f"--seat {spec!r}: this game has seats 0-{num_players - 1}")
        if seats[seat] is not None:
            raise CliError(f"seat {seat} is given twice")
        seats[seat] = value.lower() if value.lower() == HUMAN else value
    if not specs:
        seats[0] = HUMAN
    return [s if s is not None else "random" for s in seats]


def derived_seed(seed: int, *parts: object) -> int:
    digest = hashlib.sha256("/".join(["boardlab-play", str(seed), *map(str, parts)]).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def find_action(state: State, seat: int, text: str) -> int | None:
    """The action of ``seat`` labelled ``text``, legal or not (``None`` if no action has that label)."""
    try:
        return state.string_to_action(seat, text)
    except IllegalActionError:
        pass
    key = " ".join(text.strip().lower().split())
    n = state.game.num_distinct_actions()
    if n <= 200_000:
        for a in range(n):
            try:
                label = state.action_to_string(seat, a)
            except Exception:  # labels of impossible actions may not exist
                continue
            if " ".join(str(label).strip().lower().split()) == key:
                return a
    if key.isdigit() and int(key) < n:
        return int(key)
    return None


def result_text(state: State, names: Sequence[str]) -> str:
    """The game's result in words (:func:`boardlab.core.driver.result_text`, as onlookers see it), with the returns."""
    returns = state.returns()
    what = driver.result_text(state.game, returns, names)
    return f"{what} (returns: {', '.join(f'{float(r):g}' for r in returns)})"


class PlaySession:
    """One game at the terminal. ``read()`` returns the next input line, or ``None`` at end of input."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[str],
        *,
        seed: int,
        console: Console,
        read: Callable[[], str | None],
        num_players: int | None = None,
    ) -> None:
        self.game = game
        self.state = game.new_initial_state(num_players if num_players is not None else len(seats))
        self.seats = list(seats)
        if len(self.seats) != self.state.num_players:
            raise ValueError(f"give one seat spec per player: {len(self.seats)} for {self.state.num_players} players")
        self.seed = seed
        self.console = console
        self.read = read
        self.rng = random.Random(seed)
        self.humans = [p for p, s in enumerate(self.seats) if s == HUMAN]
        self.agents: dict[int, Agent] = {
            p: make_agent(spec, game, p, derived_seed(seed, "agent", p))
            for p, spec in enumerate(self.seats)
            if spec != HUMAN
        }
        self.names = [f"seat {p} ({spec})" for p, spec in enumerate(self.seats)]
        self.seat_words = [f"seat {p}" for p in range(len(self.seats))]  # what a game's seat(n) reads here
        #: Hot-seat with hidden information: views only after a "pass the device" screen.
        self.guarded = len(self.humans) > 1 and not game.perfect_information
        #: What undo may take back (:func:`boardlab.core.driver.undo_point`): one human is a game against the AI.
        self.mode = "hotseat" if len(self.humans) > 1 else "ai"
        self.viewer: int | None = None

    # -- output and input -------------------------------------------------
    def say(self, text: str) -> None:
        """Print plain text (labels may hold brackets: no markup), a seat a game names called as the terminal calls it."""
        self.console.print(for_players(text, self.seat_words), markup=False, highlight=False)

    def ask(self, prompt: str) -> str:
        self.console.print(prompt, end="", markup=False, highlight=False)
        self.console.file.flush()
        line = self.read()
        if line is None:
            self.console.print()
            raise EndOfInput
        return line.strip()

    # -- the loop ---------------------------------------------------------
    def run(self) -> str:
        """Play to the end. Returns ``"over"``, ``"capped"``, ``"quit"`` or ``"eof"``."""
        cap = self.game.max_game_length()
        try:
            while not self.state.is_terminal():
                if self.state.move_number() >= cap:
                    self.say(f"The game reached the safety cap of {cap} moves (max_game_length) and stops unfinished.")
                    return "capped"
                self.step()
        except Quit:
            self.say("Game abandoned.")
            return "quit"
        except EndOfInput:
            self.say("Input ended before the game did: game abandoned.")
            return "eof"
        self.show_end()
        return "over"

    def step(self) -> None:
        """One decision (:func:`boardlab.core.driver.next_decision`), applied through the driver."""
        state = self.state
        decision = driver.next_decision(state)
        if decision.kind == "chance":
            a = driver.sample_chance(state, self.rng)
            text = self.words(state.seen_of(a))
            driver.apply_entry(state, a)
            self.announce("chance", text)
        elif decision.kind == "simultaneous":
            joint: list[int | None] = []
            deciding = [p for p in self.humans if p in decision.seats]
            for p in range(state.num_players):
                if p not in decision.seats:
                    joint.append(None)
                elif p in self.agents:
                    joint.append(self.agent_action(p))
                else:
                    # Choices made at once are secret until revealed, even in perfect-information games.
                    choice = self.human_decision(p, secret=len(deciding) > 1)
                    if choice is None:  # undone: the position changed, start this step again
                        return
                    joint.append(choice)
            seen = state.seen_of(joint)
            driver.apply_entry(state, joint)
            parts = seen if isinstance(seen, tuple) else ()
            shown = [f"{self.names[p]}: {self.words(part)}" for p, part in enumerate(parts) if part is not None]
            self.say("Revealed: " + "; ".join(shown))
        elif decision.kind == "seat" and decision.seats[0] in self.agents:
            cp = decision.seats[0]
            a = self.agent_action(cp)
            text = self.words(state.seen_of(a))
            driver.apply_entry(state, a)
            self.announce(self.names[cp], text)
        elif decision.kind == "seat":
            a = self.human_decision(decision.seats[0])
            if a is not None:
                driver.apply_entry(state, a)

    def words(self, seen: Seen | tuple[Seen | None, ...]) -> str:
        """What the screen's reader may be told of a step: the one human seat, else everyone (a spectator)."""
        viewer = self.humans[0] if len(self.humans) == 1 else None
        if isinstance(seen, Seen):
            return seen.text_for(viewer)
        return "; ".join(part.text_for(viewer) for part in seen if part is not None)

    def announce(self, who: str, text: str) -> None:
        self.console.print(Text.assemble(f"{who}: ", (for_players(text, self.seat_words), "bold")))
        if not self.humans:  # watching agents play: draw every position
            self.show(None)

    def agent_action(self, seat: int) -> int:
        a = self.agents[seat].step(SeatView(self.state, seat))
        if a not in self.state.legal_actions(seat):
            raise CliError(
                f"agent {self.seats[seat]!r} at seat {seat} chose {a!r}, which is not legal: "
                f"{self.state.explain_illegal(seat, a)}",
                1,
            )
        return a

    # -- human turns ------------------------------------------------------
    def show(self, seat: int | None) -> None:
        state = self.state
        scene = state.scene(seat)
        moves = None
        if seat is not None:
            labels = [label for _, label in state.legal_moves(seat)]
            moves = labels if len(labels) <= MOVES_SHOWN else [*labels[:MOVES_SHOWN], f"… {len(labels)} in all"]
        title = f"{self.game.title} · move {state.move_number() + 1}"
        if seat is not None:
            title += f" · {self.names[seat]} to decide"
        self.console.print()
        self.console.print(render_scene(scene, moves, title=title), soft_wrap=True)

    def reveal_to(self, seat: int, secret: bool = False) -> None:
        """In guarded hot-seat play (or a ``secret`` choice), hide the screen until ``seat`` has the device."""
        if (self.guarded or secret) and self.viewer != seat:
            self.console.clear()
            self.console.print("\n" * 3, end="")
            self.ask(f"Pass the device to {self.names[seat]} — press Enter when only they can see the screen. ")
            self.console.clear()
        self.viewer = seat

    def human_decision(self, seat: int, secret: bool = False) -> int | None:
        """Read commands until ``seat`` gives a legal move; ``None`` when an undo changed the position."""
        self.reveal_to(seat, secret)
        self.show(seat)
        state = self.state
        while True:
            line = self.ask(f"{self.names[seat]} > ")
            if not line:
                continue
            word, _, rest = line.partition(" ")
            command = word.lower()
            if command in ("help", "?", "moves"):
                self.say(COMMANDS_HELP)
                self.console.print(moves_text([label for _, label in state.legal_moves(seat)], "Legal moves"))
            elif command == "why":
                self.why(seat, rest.strip())
            elif command == "undo":
                if self.undo(seat):
                    return None
            elif command in ("quit", "exit"):
                raise Quit
            elif command in ("board", "show"):
                self.show(seat)
            else:
                try:
                    return state.string_to_action(seat, line)
                except UnknownActionString:
                    a = find_action(state, seat, line)
                    if a is not None:
                        self.say(state.explain_illegal(seat, a))
                    else:
                        self.say(f"{line!r} is neither a legal move nor a command; type help for the list.")

    def why(self, seat: int, text: str) -> None:
        if not text:
            self.say("Usage: why MOVE (for example: why " + self._example(seat) + ")")
            return
        a = find_action(self.state, seat, text)
        if a is None:
            self.say(f"{text!r} is not a move of this game.")
        else:  # the developers' form: the rules' clauses after the reason
            self.say(with_refs(self.state.explain_illegal(seat, a)))

    def _example(self, seat: int) -> str:
        legal = self.state.legal_moves(seat)
        return legal[0][1] if legal else "MOVE"

    def undo(self, seat: int) -> bool:
        """Take back what :func:`boardlab.core.driver.undo_point` allows (against agents or hot-seat)."""
        state = self.state
        point = driver.undo_point(state, seat, self.mode, self.humans)
        if point is None:
            self.say(driver.undo_refusal(state, seat, self.mode))
            return False
        taken = state.move_number() - point
        self.state = driver.replay(self.game, state.history()[:point], state.num_players)
        self.say(f"Took back {taken} move{'s' if taken != 1 else ''}.")
        return True

    # -- the end ----------------------------------------------------------
    def show_end(self) -> None:
        if self.guarded:
            self.console.clear()
        self.console.print()
        self.console.print(render_scene(self.state.scene(None), title=f"{self.game.title} · game over"), soft_wrap=True)
        self.console.print(Text.assemble(("Game over.", "bold"), " ", result_text(self.state, self.names)))

    def record(self) -> GameRecord:
        return GameRecord.from_state(self.state, seats=self.seats, seed=self.seed, front_end="boardlab play")


def write_record(record: GameRecord, path: pathlib.Path) -> None:
    path.write_text(record.to_json(indent=2) + "\n", encoding="utf-8")


@app.command()
def play(
    game_id: GameArg,
    seat: Annotated[
        list[str] | None,
        typer.Option(
            "--seat",
            "-s",
            metavar="SEAT=AGENT",
            help="Who plays a seat: human, or an agent spec (random, …). Default: seat 0 human, the others random.",
        ),
    ] = None,
    option: GameOptions = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for chance and the agents (random if not given).")
    ] = None,
    players: Players = None,
    record: Annotated[
        pathlib.Path | None,
        typer.Option("--record", help="Write the game record (JSON) to this file at the end, even if abandoned."),
    ] = None,
) -> None:
    """Play a game in the terminal: type moves as labels; help, why MOVE, undo and quit are commands."""
    console = Console(highlight=False, markup=False)
    seat = seat or []
    with cli_errors():
        game = load_game(game_id, option or [])
        if players is None and seat:
            highest = max((int(s.split("=", 1)[0]) for s in seat if s.split("=", 1)[0].strip().isdigit()), default=-1)
            n = game.resolve_num_players(max(highest + 1, game.default_players or game.min_players))
        else:
            n = game.resolve_num_players(players)
        seats = parse_seats(seat, n)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        session = PlaySession(game, seats, seed=seed, console=console, read=stdin_reader(), num_players=n)
    opts = ", ".join(f"{k}={v}" for k, v in game.params.items())
    console.print(Text.assemble((game.title, "bold"), f" ({opts}) · seed {seed} · " + ", ".join(session.names)))
    if session.humans:
        console.print(COMMANDS_HELP)
    with cli_errors():
        end = session.run()
    rec = session.record()
    if record is not None:
        try:
            write_record(rec, record)
        except OSError as e:
            fail(f"could not write the record: {e}", 1)
        console.print(f"Record written to {record}.")
    elif session.humans and end in ("over", "capped"):  # quit abandons: nothing to ask
        try:
            answer = session.ask("Save the game record? File name (Enter to skip): ")
        except EndOfInput:
            answer = ""
        if answer:
            try:
                write_record(rec, pathlib.Path(answer))
            except OSError as e:
                fail(f"could not write the record: {e}", 1)
            console.print(f"Record written to {answer}.")
    if end == "eof":
        raise typer.Exit(1)
