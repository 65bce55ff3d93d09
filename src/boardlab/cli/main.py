"""The ``boardlab`` command: one typer app; each command group lives in its own module.

Command modules (``info``, ``play``, ``simulate``, ``sweep``, ``replay``, ``tournament``,
``serve``) import :data:`app` and register their commands on it. They share
the helpers below: :func:`cli_errors` turns bad input into one clear line on
stderr and a non-zero exit (never a traceback), :func:`load_game` builds a game
from ``--option name=value`` pairs, :func:`split_agent_specs` reads
``--agents``.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from ..core.errors import IllegalActionError
from ..core.game import Game
from ..core.options import parse_option_pairs
from ..games import make

#: The parameters most commands share.
GameArg = Annotated[str, typer.Argument(metavar="GAME", help="A game id (see boardlab list).")]
GameOptions = Annotated[list[str] | None, typer.Option("--option", "-o", metavar="NAME=VALUE", help="A game option.")]
Players = Annotated[int | None, typer.Option("--players", "-n", help="Number of players (default: the game's).")]

app = typer.Typer(
    name="boardlab",
    help="Small board and card games: play them, pit AIs against them, measure their balance.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

COMMAND_MODULES = ("info", "play", "simulate", "sweep", "balance", "replay", "tournament", "strength", "serve")

#: Exit status for bad input (unknown game, option, agent, malformed file…), as click uses for usage errors.
EXIT_BAD_INPUT = 2


class CliError(Exception):
    """A failure to report as one line and a non-zero exit status."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.code = code


def err_console() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``error: message`` on stderr and exit with ``code``."""
    err_console().print(Text.assemble(("error:", "bold red"), " ", message))
    raise typer.Exit(code)


@contextmanager
def cli_errors() -> Iterator[None]:
    """Report the errors a user can cause (bad names, values, files) as one line, never a traceback.

    Set ``BOARDLAB_DEBUG=1`` to see the traceback instead.
    """
    try:
        yield
    except typer.Exit:
        raise
    except CliError as e:
        _maybe_reraise()
        fail(str(e), e.code)
    except IllegalActionError as e:
        _maybe_reraise()
        fail(e.explanation)
    except (ValueError, FileNotFoundError, IsADirectoryError, PermissionError, UnicodeDecodeError) as e:
        _maybe_reraise()
        fail(_message(e))
    except OSError as e:
        _maybe_reraise()
        fail(_message(e), 1)


def _message(e: BaseException) -> str:
    if isinstance(e, OSError) and e.filename is not None:
        return f"{e.strerror or e}: {e.filename}"
    return str(e).strip() or type(e).__name__


def _maybe_reraise() -> None:
    if os.environ.get("BOARDLAB_DEBUG"):
        raise


def stdin_reader() -> Callable[[], str | None]:
    """A function returning the next line of stdin (without its newline), or ``None`` at end of input.

    On a terminal it uses ``input()`` with line editing; otherwise plain reads, so scripts and tests can
    drive the interactive commands.
    """
    interactive = sys.stdin is not None and sys.stdin.isatty()
    if interactive:
        with suppress(ImportError):  # line editing and history for input(), where available
            import readline  # noqa: F401

    def read() -> str | None:
        if interactive:
            try:
                return input()
            except EOFError:
                return None
        line = sys.stdin.readline()
        return None if line == "" else line.rstrip("\r\n")

    return read


def load_game(game_id: str, option_pairs: Sequence[str] = ()) -> Game:
    """``boardlab.make(game_id, **options)`` from ``["name=value", …]``; ``ValueError`` on any bad part."""
    options: dict[str, Any] = parse_option_pairs(option_pairs)
    return make(game_id, **options)


def split_agent_specs(values: Sequence[str]) -> list[str]:
    """``["mcts:iterations=200,c=1.4,random"]`` → ``["mcts:iterations=200,c=1.4", "random"]``.

    Specs are separated by commas; a part that looks like ``key=value`` (and
    names no agent) continues the parameters of the spec before it.
    """
    specs: list[str] = []
    for value in values:
        for part in value.split(","):
            part = part.strip()
            if not part:
                continue
            if specs and "=" in part and ":" not in part and ":" in specs[-1]:
                specs[-1] += "," + part
            else:
                specs.append(part)
    return specs


def load_commands() -> typer.Typer:
    """Import every command module present (registering its commands) and return :data:`app`."""
    for name in COMMAND_MODULES:
        try:
            importlib.import_module(f"{__package__}.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"{__package__}.{name}":
                continue  # that command is not part of this installation
            _broken_command(name, e)
        except Exception as e:  # one broken command must not take the others down
            _broken_command(name, e)
    return app


def _broken_command(name: str, e: Exception) -> None:
    _maybe_reraise()
    err_console().print(Text(f"warning: the {name!r} command is unavailable: {type(e).__name__}: {e}", style="yellow"))


def main() -> None:
    load_commands()
    try:
        app()
    except KeyboardInterrupt:
        err_console().print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
