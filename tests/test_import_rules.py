"""Import rules of the package's layers, read from the source with ``ast`` (README, "Design").

* the core imports nothing from the games, agents, server, CLI or lab (records find games through a lookup);
* the server's modules make no import cycle (``tables`` imports ``views``, never the reverse; the parts of
  ``tables`` never import the package that puts them together), type-checking imports included;
* outside ``server/tables/`` the server calls only the platform's public methods (never ``platform._write``);
* adapters never import the CLI, not even through another module: what they draw comes from a non-CLI module;
* agents import no private (underscore) name from the lab;
* no import cycle at run time in the core (the game module imports the driver, which names the game module's
  types only for type checking) or between the lab's balance and report modules (the report reads a
  ``BalanceReport``; the balance module never imports the report), nor anywhere else in the package.

An import under ``if TYPE_CHECKING:`` never runs, so it makes no cycle at run time; imports inside functions
run, so they count.
"""

from __future__ import annotations

import ast
import functools
import pathlib
from collections.abc import Callable, Iterator

import boardlab

SRC = pathlib.Path(boardlab.__file__).resolve().parent


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in SRC.rglob("*.py")}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _nodes(tree: ast.AST, runtime: bool) -> Iterator[ast.AST]:
    """Every node, leaving out ``if TYPE_CHECKING:`` bodies when ``runtime``."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if runtime and isinstance(node, ast.If) and _is_type_checking(node):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))


@functools.cache
def imports(name: str, runtime: bool = True) -> list[tuple[str, str | None]]:
    """``(module, imported name or None)`` for each import in module ``name``, modules made absolute."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[tuple[str, str | None]] = []
    for node in _nodes(ast.parse(path.read_text(encoding="utf-8")), runtime):
        if isinstance(node, ast.Import):
            out += [(a.name, None) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join([*base, node.module] if node.module else base)
            else:
                mod = node.module or ""
            out += [(mod, a.name) for a in node.names]
    return out


@functools.cache
def graph(runtime: bool = True) -> dict[str, set[str]]:
    """Module -> the boardlab modules it imports (``from pkg import sub`` counts as importing ``pkg.sub``)."""
    out: dict[str, set[str]] = {}
    for name in MODULES:
        edges = set()
        for mod, what in imports(name, runtime):
            if what is not None and f"{mod}.{what}" in MODULES:
                edges.add(f"{mod}.{what}")
            elif mod in MODULES:
                edges.add(mod)
        out[name] = edges - {name}
    return out


def reach(g: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(g[start])
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(g.get(m, ()))
    return seen


def offending(package: str, rule: Callable[[str, str | None], bool]) -> list[str]:
    """``module imports name`` for every import (type-checking ones too) under ``package`` that ``rule`` flags."""
    return sorted(
        f"{name} imports {mod}{'' if what is None else '.' + what}"
        for name in MODULES
        if name.startswith(package)
        for mod, what in imports(name, runtime=False)
        if rule(mod, what)
    )


def test_the_reader_resolves_relative_lazy_and_type_checking_imports() -> None:
    """So the rules below can fail: relative imports resolve, lazy ones count, type-checking ones only when asked."""
    assert "boardlab.core.driver" in graph()["boardlab.core.game"]
    assert ("boardlab.lab.balance", "BalanceReport") in imports("boardlab.lab.report", runtime=False)
    assert ("boardlab.lab.balance", "BalanceReport") not in imports("boardlab.lab.report")
    assert "boardlab.games" in graph()["boardlab.lab.balance"]


def test_core_imports_nothing_from_games_or_agents() -> None:
    outside = ("boardlab.games", "boardlab.agents", "boardlab.server", "boardlab.cli", "boardlab.lab")
    bad = offending("boardlab.core", lambda mod, _: mod.startswith(outside))
    assert not bad, f"core must not import these: {bad}"


def test_the_import_check_sees_relative_and_type_checking_imports() -> None:
    """So the checks can fail: ``from ...games import make_cached`` resolves, and so does an import under
    ``if TYPE_CHECKING:`` when type-checking imports are asked for."""
    assert ("boardlab.games", "make_cached") in imports("boardlab.server.tables.base")
    assert ("boardlab.server.tables.moves", "Moves") in imports("boardlab.server.tables")
    assert ("boardlab.server.live", "LiveTable") in imports("boardlab.server.views", runtime=False)


def test_server_modules_import_no_cycle() -> None:
    g = graph(runtime=False)
    server = {m for m in g if m.startswith("boardlab.server.")}
    inside = {m: g[m] & server for m in server}
    tables = {m for m in server if m == "boardlab.server.tables" or m.startswith("boardlab.server.tables.")}
    assert "boardlab.server.views" in inside["boardlab.server.tables.broadcast"]
    assert not inside["boardlab.server.views"] & tables
    cycles = sorted(m for m in server if m in reach(inside, m))
    assert not cycles, f"server modules in an import cycle: {cycles}"


def test_adapters_never_import_the_cli() -> None:
    bad = offending("boardlab.adapters", lambda mod, _: mod == "boardlab.cli" or mod.startswith("boardlab.cli."))
    assert not bad, bad
    g = graph()  # nor through another module: loading the PettingZoo adapter loads no CLI code
    assert "boardlab.adapters.pettingzoo" in g
    for adapter in (m for m in g if m.startswith("boardlab.adapters")):
        assert not {m for m in reach(g, adapter) if m == "boardlab.cli" or m.startswith("boardlab.cli.")}, adapter


def test_agents_import_no_private_name_from_the_lab() -> None:
    bad = offending(
        "boardlab.agents", lambda mod, what: mod.startswith("boardlab.lab") and (what or "").startswith("_")
    )
    assert not bad, bad


def test_the_driver_and_the_game_module_make_no_cycle() -> None:
    g = graph()
    assert "boardlab.core.game" not in reach(g, "boardlab.core.driver")
    core = [m for m in g if m.startswith("boardlab.core.")]
    cycles = sorted(m for m in core if m in reach({k: {v for v in e if v in core} for k, e in g.items()}, m))
    assert not cycles, f"core modules in an import cycle: {cycles}"


def test_the_balance_module_never_imports_its_report() -> None:
    everything = graph(runtime=False)
    assert "boardlab.lab.report" not in everything["boardlab.lab.balance"]
    g = graph()
    assert not (
        "boardlab.lab.report" in reach(g, "boardlab.lab.balance")
        and "boardlab.lab.balance" in reach(g, "boardlab.lab.report")
    )


def test_no_import_cycle_at_run_time_anywhere() -> None:
    """No module of the package imports itself back through others when it runs (imports inside functions count;
    type-checking imports do not)."""
    g = graph()
    assert "boardlab.core.driver" in reach(g, "boardlab.core.game")  # (the graph follows imports)
    cycles = sorted(m for m in g if m in reach(g, m))
    assert not cycles, f"modules in an import cycle at run time: {cycles}"


def test_the_server_uses_only_the_platforms_public_methods() -> None:
    """Outside ``server/tables/``, code reaches the live tables through :class:`Platform`'s public methods, never its
    private ones (``platform._write``): how the platform stores and broadcasts a change stays its own."""
    bad = []
    for name, path in MODULES.items():
        if not name.startswith("boardlab.server.") or name.startswith("boardlab.server.tables"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                owner = node.value
                if (isinstance(owner, ast.Name) and owner.id == "platform") or (
                    isinstance(owner, ast.Attribute) and owner.attr == "platform"
                ):
                    bad.append(f"{name}:{node.lineno} platform.{node.attr}")
    assert "boardlab.server.app" in MODULES and "boardlab.server.account_routes" in MODULES
    assert not bad, bad
