"""The files a new game needs besides its three (module, rules document, tests): the lab writes them.

A registry-wide test that reads one of them calls :func:`need` first, so a game added without them fails with
the command that makes them (docs/ADDING_A_GAME.md, "Generate what the lab measures"), not a bare
``FileNotFoundError``.
"""

from __future__ import annotations

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: kind → (the file, relative to the repository, and the command that writes it), ``{g}`` the game's id.
GENERATED = {
    "balance": ("docs/balance/{g}.md", "python scripts/balance_all.py --kind random --only {g}"),
    "ai": ("docs/ai/{g}.md", "boardlab strength {g} --write"),
}


def command(kind: str, game_id: str) -> str:
    """The command that writes ``kind``'s file for ``game_id``.

    >>> command("ai", "high-swap")
    'boardlab strength high-swap --write'
    """
    return GENERATED[kind][1].format(g=game_id)


def need(kind: str, game_id: str) -> pathlib.Path:
    """The path of ``game_id``'s generated ``kind`` file; fails the test, naming the command, when it is missing."""
    path = ROOT / GENERATED[kind][0].format(g=game_id)
    if not path.is_file():
        pytest.fail(
            f"{game_id} has no {path.relative_to(ROOT)}: the lab writes it. Run `{command(kind, game_id)}` "
            "(docs/ADDING_A_GAME.md, 'Generate what the lab measures') and commit what it writes.",
            pytrace=False,
        )
    return path
