"""Compiled rollouts: an optional accelerator for a few games' random playouts (``State.play_random``).

The pure-Python rules stay the reference. A game listed in :data:`MODULES` has a Cython module here
(``_<game>.pyx``, built into a C extension when the package is installed with a C compiler at hand) that plays
its random rollouts in C: the same random numbers drawn from the caller's generator, the same moves, and the
state left exactly as the pure-Python loop leaves it. So a search with the compiled rollouts makes the same moves
as without them, only faster. Where a module was not built (no compiler, a platform without wheels) the game
plays its rollouts in Python, as before; nothing else changes.

``tests/fast/test_differential.py`` plays the same seeded games on both paths and compares every legal-action
list, state and result. Set ``BOARDLAB_PURE_PYTHON=1`` to turn the accelerator off for a whole process, or use
:func:`pure_python` for a block of code.

>>> sorted(MODULES)
['blast-radius', 'cirque', 'train-boiler']
"""

from __future__ import annotations

import contextlib
import importlib
import os
from collections.abc import Iterator
from types import ModuleType

#: Game id → its compiled module in this package (one per game).
MODULES: dict[str, str] = {
    "blast-radius": "_blast_radius",
    "cirque": "_cirque",
    "train-boiler": "_train_boiler",
}

#: The environment variable that turns every accelerator off (any value but "" or "0").
OFF_VARIABLE = "BOARDLAB_PURE_PYTHON"

_built: dict[str, ModuleType] = {}
_missing: dict[str, str] = {}
for _game, _name in MODULES.items():
    try:
        _built[_game] = importlib.import_module(f"{__name__}.{_name}")
    except ImportError as exc:  # not built here: the game plays its rollouts in Python
        _missing[_game] = f"not built ({exc})"

#: The compiled modules in use now, by game id (the games' ``play_random`` looks here on every call).
ACTIVE: dict[str, ModuleType] = {} if os.environ.get(OFF_VARIABLE, "") not in ("", "0") else dict(_built)


def compiled(game_id: str) -> ModuleType | None:
    """The compiled module that plays ``game_id``'s rollouts now, or ``None`` (pure Python)."""
    return ACTIVE.get(game_id)


def built(game_id: str) -> bool:
    """Whether ``game_id``'s compiled module was built and imports here (whether or not it is turned off)."""
    return game_id in _built


def status() -> dict[str, str]:
    """Each accelerated game: ``"compiled"``, or why it plays its rollouts in Python."""
    out = {}
    for game in MODULES:
        if game in ACTIVE:
            out[game] = "compiled"
        elif game in _built:
            out[game] = f"built, turned off ({OFF_VARIABLE} or pure_python())"
        else:
            out[game] = _missing[game]
    return out


@contextlib.contextmanager
def pure_python() -> Iterator[None]:
    """Turn every accelerator off inside the block (the pure-Python rollouts, for comparisons)."""
    saved = dict(ACTIVE)
    ACTIVE.clear()
    try:
        yield
    finally:
        ACTIVE.clear()
        ACTIVE.update(saved)
