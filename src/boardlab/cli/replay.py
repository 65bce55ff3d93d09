"""``boardlab replay RECORD.json``: step through a game record from the spectator's view.

Commands (one per line): Enter or ``n`` next, ``p`` previous, a number to jump
to the position after that many moves, ``s`` start, ``e`` end, ``q`` quit.
``--log`` prints the whole move log and the final position without asking.
"""

from __future__ import annotations

import pathlib
from collections.abc import Callable
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from ..core.constants import CHANCE, SIMULTANEOUS
from ..core.driver import ReplayError
from ..core.driver import replay as replay_history
from ..core.endings import check_ended, ending_text
from ..core.game import State
from ..core.hidden import log_lines, seat_label, seens_of
from ..core.record import GameRecord
from ..games import make_cached
from ..terminal import render_scene
from .main import CliError, app, cli_errors, stdin_reader
from .play import result_text

#: Moves of the log shown above each position.
LOG_SHOWN = 8
REPLAY_HELP = "Enter or n: next · p: previous · NUMBER: jump · s: start · e: end · q: quit"


def load_record(path: pathlib.Path) -> GameRecord:
    """Read and check a record file; ``CliError`` with a one-line reason if it is unusable."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"no such record file: {path}") from None
    except IsADirectoryError:
        raise CliError(f"{path} is a directory, not a record file") from None
    except UnicodeDecodeError:
        raise CliError(f"{path} is not a text file") from None
    try:
        return GameRecord.from_json(text, make_cached)
    except ValueError as e:
        raise CliError(f"{path} is not a usable game record: {e}") from None


def move_words(state: State) -> list[str]:
    """The move log of a finished or unfinished record, one line per step, everything shown (who, then the move).

    A record holds every secret already, so its replay shows each step exactly
    (the core's log with ``reveal=True``; README, "Records and hidden information").
    """
    out = []
    for line in log_lines(seens_of(state), state.actors(), None, reveal=True, names=seat_names(state)):
        actor = line["actor"]
        who = "together" if actor == SIMULTANEOUS else "chance" if actor == CHANCE else seat_label(state.game, actor)
        out.append(f"{who}: {line['text']}")
    return out


def seat_names(state: State) -> list[str]:
    return [seat_label(state.game, p) for p in range(state.num_players)]


def _states(record: GameRecord) -> list[State]:
    """Every state of the record, checking each step; ``CliError`` naming the first bad one."""
    game = make_cached(record.game, **record.options)
    if record.rules_version != game.rules_version:
        raise CliError(
            f"the record was made under {record.game} rules version {record.rules_version}; "
            f"this is version {game.rules_version}"
        )
    out: list[State] = []
    try:
        final = replay_history(game, record.history, record.num_players, on_step=lambda s, _: out.append(s.clone()))
    except ReplayError as e:
        raise CliError(f"the record cannot be replayed: move {e.step + 1} ({e.entry!r}): {e.reason}") from None
    out.append(final)
    return out


class Replay:
    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.states = _states(record)
        self.log = move_words(self.states[-1])
        n = record.num_players
        seats = record.seats if len(record.seats) == n else [f"seat {p}" for p in range(n)]
        self.names = [f"seat {p} ({s})" if s != f"seat {p}" else s for p, s in enumerate(seats)]

    def __len__(self) -> int:
        return len(self.log)

    def show(self, console: Console, k: int) -> None:
        state = self.states[k]
        total = len(self.log)
        console.print()
        console.print(
            render_scene(state.scene(None), title=f"{state.game.title} · position {k} of {total}"), soft_wrap=True
        )
        start = max(0, k - LOG_SHOWN)
        if k:
            console.print(Text("Moves:", style="bold"))
        for i in range(start, k):
            line = Text(f"{i + 1:>4}. {self.log[i]}")
            if i == k - 1:
                line.stylize("bold")
            console.print(line)
        if k < total:
            console.print(Text(f"next: {k + 1}. {self.log[k]}", style="dim"))
        ended = check_ended(self.record.meta, state.num_players, len(self.record.history)) if k == total else None
        if state.is_terminal():
            console.print(Text(f"Game over. {result_text(state, self.names)}", style="bold"))
        elif ended is not None:  # the table ended it after the last move (resign, draw, abort, claim, time)
            console.print(Text(f"Game over. {ending_text(state.game, ended, self.names)}", style="bold"))
        elif k == total:
            console.print(Text("End of the record (the game was not finished).", style="bold"))

    def run(self, console: Console, read: Callable[[], str | None], start: int = 0) -> None:
        k = max(0, min(start, len(self)))
        self.show(console, k)
        while True:
            console.print(f"[{REPLAY_HELP}] > ", end="", markup=False)
            console.file.flush()
            line = read()
            if line is None:
                console.print()
                return
            cmd = line.strip().lower()
            if cmd in ("q", "quit", "exit"):
                return
            if cmd in ("", "n", "next"):
                if k >= len(self):
                    console.print("Already at the end (q quits).")
                    continue
                k += 1
            elif cmd in ("p", "prev", "previous", "b", "back"):
                if k == 0:
                    console.print("Already at the start.")
                    continue
                k -= 1
            elif cmd in ("s", "start"):
                k = 0
            elif cmd in ("e", "end"):
                k = len(self)
            elif cmd.isdigit():
                if int(cmd) > len(self):
                    console.print(f"The record has {len(self)} moves; give 0 to {len(self)}.")
                    continue
                k = int(cmd)
            else:
                console.print(f"Unknown command {line.strip()!r}. {REPLAY_HELP}", markup=False)
                continue
            self.show(console, k)


@app.command()
def replay(
    path: Annotated[pathlib.Path, typer.Argument(metavar="RECORD.json", help="A game record (JSON).")],
    start: Annotated[int, typer.Option("--start", min=0, help="Start at the position after this many moves.")] = 0,
    log: Annotated[bool, typer.Option("--log", help="Print the move log and the final position; do not ask.")] = False,
) -> None:
    """Step through a game record: Enter/n next, p previous, a number jumps, q quits."""
    console = Console(highlight=False, markup=False)
    with cli_errors():
        rec = load_record(path)
        viewer = Replay(rec)
    opts = ", ".join(f"{k}={v}" for k, v in rec.options.items())
    console.print(Text.assemble((rec.game, "bold"), f" ({opts}) · {', '.join(viewer.names)} · {len(viewer)} moves"))
    if log:
        for i, words in enumerate(viewer.log):
            console.print(f"{i + 1:>4}. {words}", markup=False)
        viewer.show(console, len(viewer))
        return
    viewer.run(console, stdin_reader(), start)
