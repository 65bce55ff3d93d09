"""The games' documents: rules (``docs/rules/<id>.md``), AI level notes (``docs/ai/<id>.md``), balance (``docs/balance``).

>>> text = rules_text("blast-radius")
>>> text.startswith("# Blast Radius")
True
>>> ai_notes_path("blast-radius").name
'blast-radius.md'

``docs/`` of the repository is the one source. Documents are looked up, in
order, in the directory named by the environment variable
``BOARDLAB_RULES_DIR`` (rules only), in the source tree's ``docs/<kind>`` (an
editable install or a checkout) and in the package data ``boardlab/docs/<kind>``,
where building the package (``setup.py``) copies them, so an installed wheel
finds them too.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import re
from importlib import resources

from .games import games

#: ``docs`` of the source tree this module was imported from (``src/boardlab/docs.py`` → repo root).
SOURCE_DOCS_DIR = pathlib.Path(__file__).resolve().parents[2] / "docs"
SOURCE_RULES_DIR = SOURCE_DOCS_DIR / "rules"


def document_dirs(kind: str) -> list[pathlib.Path]:
    """The directories searched, in order, for documents of ``kind`` (``"rules"``, ``"ai"`` or ``"balance"``)."""
    out: list[pathlib.Path] = []
    env = os.environ.get("BOARDLAB_RULES_DIR")
    if env and kind == "rules":
        out.append(pathlib.Path(env))
    out.append(SOURCE_DOCS_DIR / kind)
    with contextlib.suppress(ModuleNotFoundError, TypeError, ValueError):  # unusual loaders
        out.append(pathlib.Path(str(resources.files("boardlab").joinpath("docs", kind))))
    return out


def _candidates(game_id: str, kind: str = "rules") -> list[pathlib.Path]:
    return [d / f"{game_id}.md" for d in document_dirs(kind)]


def ai_notes_path(game_id: str) -> pathlib.Path | None:
    """The file of ``game_id``'s AI notes and measured level ratings (``docs/ai/<id>.md``), or ``None``."""
    for path in _candidates(game_id, "ai"):
        if path.is_file():
            return path
    return None


def balance_verdict(game_id: str) -> str | None:
    """The one-sentence balance verdict of ``docs/balance/<id>.md`` (its ``**Verdict.**`` line), or ``None``.

    The lab writes these files (``scripts/balance_all.py``); the lobby shows the sentence.

    >>> (balance_verdict("blast-radius") or "").endswith(").")
    True
    """
    for path in _candidates(game_id, "balance"):
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.startswith("**Verdict.**"):
                    return line.removeprefix("**Verdict.**").strip() or None
            return None
    return None


def measured_draws(game_id: str) -> bool | None:
    """Whether ``docs/balance/<id>.md`` measured any draw (a ``| draws |`` row above 0); ``None``: no report.

    >>> measured_draws("trivalent"), measured_draws("blast-radius")
    (True, False)
    """
    for path in _candidates(game_id, "balance"):
        if path.is_file():
            rates = []
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.startswith("| draws |"):
                    try:
                        rates.append(float(line.split("|")[2].split()[0]))
                    except (IndexError, ValueError):
                        continue
            return any(r > 0 for r in rates) if rates else None
    return None


def typical_moves(game_id: str) -> int | None:
    """How many moves a game typically lasts, as the lab measured it (``docs/balance/<id>.md``), or ``None``.

    The mean *decisions per game* of the report's last self-play section (the strongest AI's, *Hard self-play*,
    where the report has one: closer to people's games than random play), rounded.

    >>> 20 < (typical_moves("blast-radius") or 0) < 120
    True
    """
    for path in _candidates(game_id, "balance"):
        if path.is_file():
            found = re.findall(r"^\| decisions per game \| ([0-9.]+) \|", path.read_text(encoding="utf-8"), re.M)
            return max(1, round(float(found[-1]))) if found else None
    return None


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
