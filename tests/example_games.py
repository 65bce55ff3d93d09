"""The worked example of ``docs/ADDING_A_GAME.md`` (``docs/examples/*.py``), loaded and registered for tests only.

Each example module is a complete game module, as it would sit in ``src/boardlab/games/``. Loading it here puts
its class in the registry's cache, so ``boardlab.make(id)`` finds it (and game records replay it), while
``boardlab.games()`` never lists it: the lobby, ``boardlab list`` and the browser tests do not see it. The
conformance suite adds :data:`EXAMPLE_GAMES` to the registered games and runs every check on them.
"""

from __future__ import annotations

import importlib.util
import pathlib
import sys
from types import ModuleType

from boardlab.games import _classes as registered  # the registry's cache of game classes by id

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"


def load_example(stem: str) -> ModuleType:
    """Import ``docs/examples/<stem>.py`` (once) and register its ``GAME_CLASS`` under its id."""
    name = f"example_{stem}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{stem}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # before running it: pickling (agents' worker processes) finds the classes
        spec.loader.exec_module(module)
        cls = module.GAME_CLASS
        assert cls.id.replace("-", "_") == stem, (
            f"{stem}.py declares id {cls.id!r}: the registry finds games by file name"
        )
        registered[cls.id] = cls
    return sys.modules[name]


#: The example games' ids, in file order.
EXAMPLE_GAMES: list[str] = [load_example(p.stem).GAME_CLASS.id for p in sorted(EXAMPLES.glob("*.py"))]


def rules_document(game_id: str) -> pathlib.Path:
    """A game's rules document: ``docs/rules/<id>.md``, or ``docs/examples/<id>.md`` for an example."""
    folder = "examples" if game_id in EXAMPLE_GAMES else "rules"
    return ROOT / "docs" / folder / f"{game_id}.md"
