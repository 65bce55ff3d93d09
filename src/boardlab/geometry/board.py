"""Boards described as data, for games whose board pictures are missing.

A :class:`BoardData` holds nodes (cells or points) with positions, adjacency,
straight lines, colours, regions and blocked nodes, and optionally edges.
It loads from and saves to plain JSON-able dicts so that a corrected board can
replace ours without touching code.

>>> b = BoardData.from_dict({"nodes": [{"id": "a", "x": 0, "y": 0}, {"id": "b", "x": 1, "y": 0}],
...                          "adjacency": [["a", "b"]]})
>>> b.neighbours[b.index["a"]]
(1,)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.options import Option
from ..core.scene import cell
from .scene import PerCell, per_cell


def data_files(folder: Path, stem: str, ours: str) -> dict[str, Path]:
    """Name → data file: ``ours`` is ``<stem>.json``, then every designer's ``<stem>-<name>.json``, by name.

    So a designer supplies a board (or a card set) by dropping a file beside ours, with no code change.
    """
    files = {ours: folder / f"{stem}.json"}
    for path in sorted(folder.glob(f"{stem}-*.json")):
        files[path.stem.removeprefix(f"{stem}-")] = path
    return files


def data_file_option(name: str, folder: Path, stem: str, ours: str, description: str) -> Option:
    """An option whose values are the data files present when the game's module is loaded (:func:`data_files`)."""
    return Option(name, str, ours, tuple(data_files(folder, stem, ours)), description)


@dataclass(frozen=True)
class BoardFiles:
    """A game's board files in ``folder``: ours, ``<stem>.json``, then every designer's ``<stem>-<name>.json``;
    the option ``board`` chooses one by name (:func:`data_files`, :func:`data_file_option`)."""

    folder: Path
    stem: str
    ours: str

    def files(self) -> dict[str, Path]:
        return data_files(self.folder, self.stem, self.ours)

    def option(self, description: str) -> Option:
        """The option ``board``: its values are the board files present when the game's module is loaded."""
        return data_file_option("board", self.folder, self.stem, self.ours, description)

    def read(self, name: str) -> dict[str, Any]:
        """The board called ``name``, as the JSON of its file."""
        return json.loads(self.files()[name].read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def group_sizes(neighbours: Sequence[Sequence[int]], content: Sequence[Any], value: Any) -> list[int]:
    """Sizes of the connected groups of nodes whose ``content`` is ``value``, largest first.

    >>> group_sizes(((1,), (0, 2), (1,), ()), ["x", "x", "o", "x"], "x")
    [2, 1]
    """
    seen = [False] * len(content)
    sizes = []
    for i, c in enumerate(content):
        if c != value or seen[i]:
            continue
        seen[i] = True
        stack = [i]
        size = 0
        while stack:
            j = stack.pop()
            size += 1
            for k in neighbours[j]:
                if not seen[k] and content[k] == value:
                    seen[k] = True
                    stack.append(k)
        sizes.append(size)
    sizes.sort(reverse=True)
    return sizes


@dataclass(frozen=True)
class BoardData:
    """A board as data. Node ``i`` has ``ids[i]``, position ``xy[i]`` and neighbours ``neighbours[i]``.

    ``lines``: ordered straight sequences of node indices. ``colours``/``regions``:
    per-node labels (or ``None``). ``blocked``: node indices that take no piece.
    ``edges``: index pairs (for games played on edges). ``source`` says where the
    design comes from; ``unverified`` marks our reconstruction.
    """

    ids: tuple[str, ...]
    xy: tuple[tuple[float, float], ...]
    neighbours: tuple[tuple[int, ...], ...]
    lines: tuple[tuple[int, ...], ...] = ()
    colours: tuple[str | None, ...] = ()
    regions: tuple[str | None, ...] = ()
    blocked: frozenset[int] = frozenset()
    edges: tuple[tuple[int, int], ...] = ()
    source: str = ""
    unverified: bool = False
    index: dict[str, int] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not self.index:
            object.__setattr__(self, "index", {k: i for i, k in enumerate(self.ids)})

    def __len__(self) -> int:
        return len(self.ids)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BoardData:
        nodes = data["nodes"]
        ids = tuple(str(n["id"]) for n in nodes)
        index = {k: i for i, k in enumerate(ids)}
        if len(index) != len(ids):
            raise ValueError("board node ids must be unique")
        adj: list[set[int]] = [set() for _ in ids]
        for a, b in data.get("adjacency", []):
            ia, ib = index[str(a)], index[str(b)]
            adj[ia].add(ib)
            adj[ib].add(ia)
        return cls(
            ids=ids,
            xy=tuple((float(n["x"]), float(n["y"])) for n in nodes),
            neighbours=tuple(tuple(sorted(s)) for s in adj),
            lines=tuple(tuple(index[str(x)] for x in line) for line in data.get("lines", [])),
            colours=tuple(n.get("colour") for n in nodes),
            regions=tuple(n.get("region") for n in nodes),
            blocked=frozenset(index[str(x)] for x in data.get("blocked", [])),
            edges=tuple((index[str(a)], index[str(b)]) for a, b in data.get("edges", [])),
            source=str(data.get("source", "")),
            unverified=bool(data.get("unverified", False)),
            index=index,
        )

    def to_dict(self) -> dict[str, Any]:
        nodes = []
        for i, k in enumerate(self.ids):
            n: dict[str, Any] = {"id": k, "x": self.xy[i][0], "y": self.xy[i][1]}
            if self.colours and self.colours[i] is not None:
                n["colour"] = self.colours[i]
            if self.regions and self.regions[i] is not None:
                n["region"] = self.regions[i]
            nodes.append(n)
        return {
            "nodes": nodes,
            "adjacency": [[self.ids[i], self.ids[j]] for i, nb in enumerate(self.neighbours) for j in nb if i < j],
            "lines": [[self.ids[i] for i in line] for line in self.lines],
            "blocked": [self.ids[i] for i in sorted(self.blocked)],
            "edges": [[self.ids[a], self.ids[b]] for a, b in self.edges],
            "source": self.source,
            "unverified": self.unverified,
        }

    def scene_cells(self, radius: float = 0.3, *, label: PerCell = None, fill: PerCell = None) -> list[dict[str, Any]]:
        """The scene's cells: a point of ``radius`` per node, ids and default labels the node ids.

        The default ``fill`` marks blocked nodes ``"blocked"``.

        >>> b = BoardData.from_dict({"nodes": [{"id": "a", "x": 0, "y": 0}], "blocked": ["a"]})
        >>> b.scene_cells(0.2)
        [{'id': 'a', 'center': [0.0, 0.0], 'polygon': None, 'radius': 0.2, 'fill': 'blocked', 'label': 'a', 'kind': 'point'}]
        """
        return [
            cell(
                k,
                self.xy[i],
                None,
                label=per_cell(label, i, self.ids.__getitem__),
                fill=per_cell(fill, i, self._blocked_fill),
                radius=radius,
                kind="point",
            )
            for i, k in enumerate(self.ids)
        ]

    def _blocked_fill(self, i: int) -> str | None:
        return "blocked" if i in self.blocked else None

    def connected_groups(self, members: set[int] | frozenset[int]) -> list[set[int]]:
        """Connected components of ``members`` under the board's adjacency."""
        seen: set[int] = set()
        groups = []
        for start in members:
            if start in seen:
                continue
            group = {start}
            stack = [start]
            seen.add(start)
            while stack:
                x = stack.pop()
                for y in self.neighbours[x]:
                    if y in members and y not in seen:
                        seen.add(y)
                        group.add(y)
                        stack.append(y)
            groups.append(group)
        return groups
