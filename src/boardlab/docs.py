"""The games' rules documents (``docs/rules/<id>.md``), for the CLI, the server and the lobby.

>>> text = rules_text("blast-radius")
>>> text.startswith("# Blast Radius")
True

Documents are looked up, in order, in the directory named by the environment
variable ``BOARDLAB_RULES_DIR``, in the source tree's ``docs/rules`` (an
editable install or a checkout) and in the package data ``boardlab/docs/rules``
(an installed wheel that ships them).
"""

from __future__ import annotations

import os
import pathlib
from importlib import resources

from .games import games

#: ``docs/rules`` of the source tree this module was imported from (``src/boardlab/docs.py`` → repo root).
SOURCE_RULES_DIR = pathlib.Path(__file__).resolve().parents[2] / "docs" / "rules"


def _candidates(game_id: str) -> list[pathlib.Path]:
    name = f"{game_id}.md"
    out: list[pathlib.Path] = []
    env = os.environ.get("BOARDLAB_RULES_DIR")
    if env:
        out.append(pathlib.Path(env) / name)
    out.append(SOURCE_RULES_DIR / name)
    try:
        packaged = resources.files("boardlab").joinpath("docs", "rules", name)
        out.append(pathlib.Path(str(packaged)))
    except (ModuleNotFoundError, TypeError, ValueError):  # pragma: no cover - unusual loaders
        pass
    return out


def rules_path(game_id: str) -> pathlib.Path | None:
    """The file holding ``game_id``'s rules, or ``None`` if none is installed.

    Raises ``ValueError`` (listing the known games) for an unknown game id.
    """
    _check_game(game_id)
    for path in _candidates(game_id):
        if path.is_file():
            return path
    return None


def rules_text(game_id: str) -> str:
    """The rules document of ``game_id`` (Markdown).

    Raises ``ValueError`` for an unknown game, and ``FileNotFoundError`` naming
    the places searched when the game exists but its document cannot be found.
    """
    path = rules_path(game_id)
    if path is None:
        places = ", ".join(str(p.parent) for p in _candidates(game_id))
        raise FileNotFoundError(f"no rules document for {game_id!r} (looked in {places})")
    return path.read_text(encoding="utf-8")


def _check_game(game_id: str) -> None:
    known = games()
    if game_id not in known:
        raise ValueError(f"unknown game {game_id!r}; known games: {', '.join(known)}")
