"""The ``boardlab`` command: one typer app; each command group lives in its own module.

Command modules (``info``, ``play``, ``simulate``, ``replay``, ``tournament``,
``serve``) import :data:`app` and register their commands on it.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="boardlab",
    help="Small board and card games: play them, pit AIs against them, measure their balance.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

COMMAND_MODULES = ("info", "play", "simulate", "replay", "tournament", "serve")


def _load_commands() -> None:
    for name in COMMAND_MODULES:
        try:
            importlib.import_module(f"{__package__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__package__}.{name}":
                raise


def main() -> None:
    _load_commands()
    app()


if __name__ == "__main__":
    main()
