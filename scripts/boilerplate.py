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
* converting a board to scene cells: statements and loops that build ``sc.cell(...)`` by hand;

and what the core declares for every game (issue 25, item 4):

* scene wrappers: a ``scene`` method (the core's calls the function a game marks ``@MyGame.draws_scene``);
* phase tensors: ``t.one_hot(..., NAMES.index(...), len(NAMES))`` (``Tensor.one_of`` takes the declared names),
  and the viewer / phase / mover lines a phased game's tensor starts with (``games._tensors.header``);
* bit copies: a game's own ``bits`` / ``_bits`` (``boardlab.core.bitmask.bits``);
* size methods: ``max_game_length`` / ``max_chance_outcomes`` (data: ``max_length``, ``num_chance_outcomes``);
* data-file options: a game's own ``board_files`` / ``board_option`` / ``load_board`` (``core.options.DataFiles``);
* spelled-out options: ``Option(name, bool, d, (False, True), ...)`` and word options that list their values
  twice, in ``allowed`` and in ``labels`` (``Option.flag``, ``Option.choice``);
* offset rows: three or more ``X = space.offset("x")`` statements in a row (``ActionSpace.offsets``);
* terminal tests: an ``is_terminal`` of one ``return`` (the core's is ``current_player() == TERMINAL``);
* restated defaults: ``min_players = 2``, ``max_players = 2``, ``rules_version = "1"``, ``game_type = GameType()``;
* hand-written chance draws: ``[(c, 1 / len(left)) for c in left]`` and ``[(k, c / n) for k, c in enumerate(...)
  if c]`` (``core.chance.equally_likely``, ``by_counts``).

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


SIZE_METHODS = {"max_game_length", "max_chance_outcomes"}
BITS_FUNCTIONS = {"bits", "_bits"}
DATA_FILE_FUNCTIONS = {"board_files", "board_option", "load_board"}
PHASE_TENSOR = re.compile(r"one_hot\(.*\b(\w+)\.index\(.*len\(\1\)")
OFFSET = re.compile(r"^\s*[\w.]+ = \w+(\.\w+)*\.offset\(")
#: The categories, in the order the table prints them.
CATEGORIES = (
    "methods",
    "phase dispatch",
    "scene cells",
    "scene wrappers",
    "phase tensors",
    "bits",
    "sizes",
    "data files",
    "options",
    "offsets",
    "terminal",
    "defaults",
    "chance",
)
DEFAULT_LINE = re.compile(r'^    (min_players = 2|max_players = 2|rules_version = "1"|game_type = GameType\(\))$')
CHANCE_LIST = re.compile(r"\[\(\w+, 1(\.0)? / len\(|\[\(\w+( \+ \w+)?, \w+ / \w+\) for \w+, \w+ in enumerate\(")


def _spelled_out_option(node: ast.AST) -> bool:
    """``Option(name, bool, d, (False, True), ...)``, or a word option whose ``labels`` repeat ``allowed``."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Option"):
        return False
    args = node.args
    if len(args) != 5 or not isinstance(args[1], ast.Name):
        return False
    try:
        allowed = ast.literal_eval(args[3])
    except ValueError:
        return False
    if args[1].id == "bool":
        return allowed == (False, True)
    labels = next((k.value for k in node.keywords if k.arg == "labels"), None)
    return args[1].id == "str" and isinstance(labels, ast.Dict) and len(labels.keys) == len(allowed)


def span(node: ast.AST) -> set[int]:
    return set(range(node.lineno, node.end_lineno + 1))  # type: ignore[attr-defined]


def boilerplate_lines(path: pathlib.Path) -> tuple[int, dict[str, int]]:
    text = path.read_text()
    lines = text.splitlines()
    tree = ast.parse(text)
    cats: dict[str, set[int]] = {k: set() for k in CATEGORIES}
    for i, line in enumerate(lines, 1):
        if PHASE_TENSOR.search(line):
            cats["phase tensors"].add(i)
        if DEFAULT_LINE.match(line):
            cats["defaults"].add(i)
        if CHANCE_LIST.search(line):
            cats["chance"].add(i)
        if "tz.viewer(" in line and i + 2 <= len(lines) and '"phase"' in lines[i] and "tz.mover(" in lines[i + 1]:
            cats["phase tensors"] |= {i, i + 1, i + 2}  # the header every phased game writes (tz.header)
    for i in range(len(lines)):
        run = 0
        while i + run < len(lines) and OFFSET.match(lines[i + run]):
            run += 1
        if run >= 3 and not (i and OFFSET.match(lines[i - 1])):
            cats["offsets"] |= set(range(i + 1, i + run + 1))
    for node in ast.walk(tree):
        if _spelled_out_option(node):
            cats["options"] |= span(node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name == "is_terminal" and len(node.body) == 1 and isinstance(node.body[0], ast.Return):
                cats["terminal"] |= span(node)
            elif node.name == "scene" and node.col_offset > 0:
                cats["scene wrappers"] |= span(node)
            elif node.name in SIZE_METHODS:
                cats["sizes"] |= span(node)
            elif node.name in BITS_FUNCTIONS:
                cats["bits"] |= span(node)
            elif node.name in DATA_FILE_FUNCTIONS and node.col_offset == 0:
                cats["data files"] |= span(node)
            elif node.name in BOILER_METHODS or node.name.startswith(BOILER_PREFIXES):
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
    return len(code), counted


def main(argv: list[str]) -> int:
    root = pathlib.Path(argv[1] if len(argv) > 1 else "src/boardlab/games")
    total_code = total_boiler = 0
    totals = dict.fromkeys(CATEGORIES, 0)
    short = "methods / dispatch / cells / scene / phase tensor / bits / sizes / data / options / offsets / terminal / defaults / chance"
    print(f"{'module':<20} {'lines':>6} {'boilerplate':>11}  ({short})")
    for path in sorted(root.glob("*.py")):
        if path.name == "__init__.py":
            continue
        code, cats = boilerplate_lines(path)
        b = sum(cats.values())
        total_code += code
        total_boiler += b
        for k in CATEGORIES:
            totals[k] += cats[k]
        parts = " / ".join(str(cats[k]) for k in CATEGORIES)
        print(f"{path.stem:<20} {code:>6} {b:>11}  ({parts})")
    parts = " / ".join(str(totals[k]) for k in CATEGORIES)
    print(f"{'total':<20} {total_code:>6} {total_boiler:>11}  ({parts})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
