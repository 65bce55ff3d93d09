"""The registry of games. Each game lives in its own module, named by its id
(``blast-radius`` → ``blast_radius.py``), which defines ``GAME_CLASS``.

Modules are found by file name and imported on first use, so adding a game is
adding its module.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections import OrderedDict
from typing import Any

from ..core.game import Game
from ..core.record import use_registry

_classes: dict[str, type[Game]] = {}
#: The one cache of game objects by (id, options as canonical JSON), shared by the server, its AI workers and the lab.
_made: OrderedDict[tuple[str, str], Game] = OrderedDict()
MAX_CACHED_GAMES = 256


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


def make_cached(game_id: str, **options: Any) -> Game:
    """:func:`make`, kept for reuse: one shared game object per id and options (games never change once set up).

    Bounded (least recently used go first). ``ValueError`` as :func:`make`, and for options that are not plain
    JSON values.
    """
    try:
        key = (game_id, json.dumps(options, sort_keys=True))
    except (TypeError, ValueError):
        raise ValueError("options must be a JSON object of plain values") from None
    game = _made.get(key)
    if game is None:
        game = make(game_id, **options)
        _made[key] = game
        _made[(game.id, json.dumps(game.params, sort_keys=True))] = game
        while len(_made) > MAX_CACHED_GAMES:
            _made.popitem(last=False)
    _made.move_to_end(key)
    return game


use_registry(make)
