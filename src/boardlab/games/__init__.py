"""The registry of games. Each game lives in its own module, named by its id
(``blast-radius`` → ``blast_radius.py``), which defines ``GAME_CLASS``.

Modules are found by file name and imported on first use, so adding a game is
adding its module.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from ..core.game import Game

_classes: dict[str, type[Game]] = {}


def _module_names() -> dict[str, str]:
    return {
        m.name.replace("_", "-"): m.name
        for m in pkgutil.iter_modules(__path__)
        if not m.name.startswith("_") and not m.ispkg
    }


def games() -> list[str]:
    """Registered game ids, sorted."""
    return sorted(_module_names())


def game_class(game_id: str) -> type[Game]:
    """The :class:`Game` subclass of ``game_id``; ``ValueError`` listing the known ids if unknown."""
    if game_id not in _classes:
        modules = _module_names()
        if game_id not in modules:
            raise ValueError(f"unknown game {game_id!r}; known games: {', '.join(sorted(modules))}")
        module = importlib.import_module(f"{__name__}.{modules[game_id]}")
        cls = module.GAME_CLASS
        if cls.id != game_id:
            raise RuntimeError(f"module {modules[game_id]} declares id {cls.id!r}, expected {game_id!r}")
        _classes[game_id] = cls
    return _classes[game_id]


def make(game_id: str, **options: Any) -> Game:
    """The game ``game_id`` with ``options``; ``ValueError`` naming what is unknown or not allowed."""
    if not isinstance(game_id, str):
        raise ValueError(f"a game id is a string; got {game_id!r}")
    return game_class(game_id)(**options)
