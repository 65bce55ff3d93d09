"""Count the lines each game module spends on boilerplate: code that says nothing about the game's rules.

Boilerplate here is, by the name of the function or method that holds it:

* copying and bookkeeping: overrides of ``clone``;
* hidden information plumbing: ``resample`` overrides and helpers named ``_consistent*``;
* action numbering and labels: ``num_distinct_actions``, ``max_chance_outcomes``, ``_action_to_string``,
  ``_label*``, ``order_label`` and similar label helpers;
* overrides of the core's public checked methods (``legal_actions``, ``apply_action``, ``apply_actions``,
  ``history``, ``string_to_action``, ``action_to_string``), which bypass the template;
* phase dispatch: lines of ``if``/``elif`` that test the current phase or stage inside the hooks
  (``_legal_actions``, ``_is_legal``, ``_explain``, ``_apply``, ``_action_to_string``);
* converting a board to scene cells: statements and loops that build ``sc.cell(...)`` by hand.

Usage: ``python scripts/boilerplate.py [src/boardlab/games]`` prints one row per module and the total.
"""

from __future__ import annotations

import ast
import pathlib
import re
import sys

BOILER_METHODS = {
    "clone",
    "resample",
    "num_distinct_actions",
    "max_chance_outcomes",
    "_action_to_string",
    "legal_actions",
    "apply_action",
    "apply_actions",
    "history",
    "string_to_action",
    "action_to_string",
}
BOILER_PREFIXES = ("_consistent", "_label", "order_label")
DISPATCH_HOOKS = {"_legal_actions", "_is_legal", "_explain", "_apply", "_action_to_string", "current_player"}
PHASE_TEST = re.compile(r"^\s*(if|elif)\b.*\b(self\.)?(phase|stage|setup|choosing\w*|_phase)\b")


def _is_cell_call(node: ast.AST) -> bool:
    """A call of the scene module's ``cell`` (``sc.cell(...)``): one scene cell built by hand."""
    f = getattr(node, "func", None)
    return (
        isinstance(node, ast.Call)
        and isinstance(f, ast.Attribute)
        and f.attr == "cell"
        and (isinstance(f.value, ast.Name) and f.value.id == "sc")
    )


def span(node: ast.AST) -> set[int]:
    return set(range(node.lineno, node.end_lineno + 1))  # type: ignore[attr-defined]


def boilerplate_lines(path: pathlib.Path) -> tuple[int, dict[str, int]]:
    text = path.read_text()
    lines = text.splitlines()
    tree = ast.parse(text)
    cats: dict[str, set[int]] = {"methods": set(), "phase dispatch": set(), "scene cells": set()}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name in BOILER_METHODS or node.name.startswith(BOILER_PREFIXES):
                cats["methods"] |= span(node)
            elif node.name in DISPATCH_HOOKS:
                for i in span(node):
                    if PHASE_TEST.search(lines[i - 1]):
                        cats["phase dispatch"].add(i)
        if isinstance(node, ast.stmt) and not isinstance(node, ast.FunctionDef | ast.ClassDef | ast.If):
            body = getattr(node, "body", None)
            if body is None and any(_is_cell_call(n) for n in ast.walk(node)):
                cats["scene cells"] |= span(node)  # a statement that builds scene cells
            elif isinstance(node, ast.For) and any(_is_cell_call(n) for n in ast.walk(node)):
                cats["scene cells"] |= span(node)
    code = {i + 1 for i, line in enumerate(lines) if line.strip() and not line.strip().startswith("#")}
    counted = {k: len(v & code) for k, v in cats.items()}
    counted["methods"] = len(cats["methods"] & code)
    return len(code), counted


def main(argv: list[str]) -> int:
    root = pathlib.Path(argv[1] if len(argv) > 1 else "src/boardlab/games")
    total_code = total_boiler = 0
    print(f"{'module':<18} {'lines':>10} {'boilerplate':>11}  (methods / phase dispatch / scene cells)")
    for path in sorted(root.glob("*.py")):
        if path.name == "__init__.py":
            continue
        code, cats = boilerplate_lines(path)
        b = sum(cats.values())
        total_code += code
        total_boiler += b
        parts = " / ".join(str(cats[k]) for k in ("methods", "phase dispatch", "scene cells"))
        print(f"{path.stem:<18} {code:>10} {b:>11}  ({parts})")
    print(f"{'total':<18} {total_code:>10} {total_boiler:>11}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
