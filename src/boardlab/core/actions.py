"""Action numbers as named segments: :class:`ActionSpace` and :class:`Segment`.

A game's seat actions are ``0 .. space.size - 1``. The space is a row of
segments laid out one after another in declaration order; inside a segment an
action is a mixed-radix number over the segment's dims with the FIRST dim
most significant. So a segment ``order`` of dims ``movement`` (6 values) and
``attack`` (4 values) holds ``offset + 4 * movement + attack``:

>>> space = ActionSpace(
...     Segment("order", (("movement", ("left", "right", "up")), ("attack", 4)), "{movement} + {attack}"),
...     Segment("pass", (), "pass"),
... )
>>> space.size
13
>>> space.encode("order", 2, 1)
9
>>> space.decode(9)
('order', (2, 1))
>>> space.label(9), space.label(12)
('up + 1', 'pass')
>>> space.segment_of(12).name, space.offset("pass")
('pass', 12)

A dim is ``(name, size)`` or ``(name, names)``; a label format shows a dim by
its name where the dim has names (``{movement}`` above) and by its index
otherwise, and a label may instead be a function of the indices. Every label
of a space is distinct and none is a bare number (checked when the space is
built; a game whose labels repeat across segments that are never legal
together passes ``distinct_labels=False``), so typing a label finds its action.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

Dim = tuple[str, int | Sequence[str]]
Label = str | Callable[..., str]


@dataclass(frozen=True)
class Segment:
    """One named block of actions: the product of ``dims``, labelled by ``label``.

    ``label`` is a :meth:`str.format` template over the dim names (a dim with
    names is shown by name, else by index) or a function called with the
    indices in dim order (a module-level one: games and states are pickled
    by multiprocessing and by OpenSpiel).

    >>> s = Segment("place", (("cell", ("a1", "b1")),), "place {cell}")
    >>> s.size, s.label_of((1,))
    (2, 'place b1')
    """

    name: str
    dims: tuple[Dim, ...]
    label: Label
    radices: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        dims = tuple((str(n), v if isinstance(v, int) else tuple(v)) for n, v in self.dims)
        object.__setattr__(self, "dims", dims)
        radices = tuple(v if isinstance(v, int) else len(v) for _, v in dims)
        if any(r < 1 for r in radices):
            raise ValueError(f"segment {self.name!r}: every dim needs at least one value; got {radices}")
        names = [n for n, _ in dims]
        if len(set(names)) != len(names):
            raise ValueError(f"segment {self.name!r}: dim names repeat: {names}")
        object.__setattr__(self, "radices", radices)

    @property
    def size(self) -> int:
        n = 1
        for r in self.radices:
            n *= r
        return n

    def index_of(self, indices: Sequence[int]) -> int:
        """The position of ``indices`` inside this segment (first dim most significant)."""
        if len(indices) != len(self.radices):
            raise ValueError(f"segment {self.name!r} takes {len(self.radices)} indices; got {tuple(indices)}")
        k = 0
        for (dim, _), r, i in zip(self.dims, self.radices, indices):
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < r:
                raise ValueError(f"segment {self.name!r}: {dim} must be 0-{r - 1}; got {i!r}")
            k = k * r + i
        return k

    def indices_of(self, k: int) -> tuple[int, ...]:
        """The dim indices of position ``k`` inside this segment."""
        out = []
        for r in reversed(self.radices):
            k, i = divmod(k, r)
            out.append(i)
        return tuple(reversed(out))

    def label_of(self, indices: Sequence[int]) -> str:
        if callable(self.label):
            return self.label(*indices)
        values = {n: (v[i] if not isinstance(v, int) else i) for (n, v), i in zip(self.dims, indices)}
        return self.label.format(**values)


class ActionSpace:
    """Segments laid out one after another in declaration order (see the module documentation)."""

    def __init__(self, *segments: Segment, distinct_labels: bool = True) -> None:
        if not segments:
            raise ValueError("an action space needs at least one segment")
        names = [s.name for s in segments]
        if len(set(names)) != len(names):
            raise ValueError(f"segment names repeat: {names}")
        self.segments: tuple[Segment, ...] = segments
        offsets, n = [], 0
        for s in segments:
            offsets.append(n)
            n += s.size
        self.size: int = n
        self._offsets: tuple[int, ...] = tuple(offsets)
        self._by_name: dict[str, tuple[int, Segment]] = {s.name: (o, s) for o, s in zip(offsets, segments)}
        labels = self.labels
        seen: dict[str, int] = {}
        for a, text in enumerate(labels):
            key = " ".join(text.lower().split())
            if not key or key.lstrip("-").isdigit() or key.startswith("#"):
                raise ValueError(f"action {a} has label {text!r}: a label must be words, not a number")
            if distinct_labels and key in seen:
                raise ValueError(f"actions {seen[key]} and {a} share the label {text!r}")
            seen[key] = a

    def __repr__(self) -> str:
        return f"ActionSpace({', '.join(s.name for s in self.segments)}; size {self.size})"

    def __len__(self) -> int:
        return self.size

    def __contains__(self, action: object) -> bool:
        return isinstance(action, int) and not isinstance(action, bool) and 0 <= action < self.size

    def segment(self, name: str) -> Segment:
        return self._entry(name)[1]

    def offset(self, name: str) -> int:
        """The first action of segment ``name``."""
        return self._entry(name)[0]

    def offsets(self, *names: str) -> tuple[int, ...]:
        """The first action of each segment named, in the order named (for a module's constants)."""
        return tuple(self.offset(name) for name in names)

    def actions(self, name: str) -> range:
        """Every action of segment ``name``, in order."""
        o, s = self._entry(name)
        return range(o, o + s.size)

    def encode(self, segment_name: str, *indices: int) -> int:
        """The action of ``indices`` in segment ``segment_name``; ``ValueError`` if out of range."""
        o, s = self._entry(segment_name)
        return o + s.index_of(indices)

    def decode(self, action: int) -> tuple[str, tuple[int, ...]]:
        """``(segment name, indices)`` of ``action``; ``ValueError`` outside the space."""
        s, k = self._locate(action)
        return s.name, s.indices_of(k)

    def segment_of(self, action: int) -> Segment:
        return self._locate(action)[0]

    def label(self, action: int) -> str:
        """The label of ``action`` (precomputed)."""
        if action not in self:
            raise ValueError(f"{action!r} is not an action (actions are 0-{self.size - 1})")
        return self.labels[action]

    @cached_property
    def labels(self) -> tuple[str, ...]:
        """Every label, indexed by action."""
        out: list[str] = []
        for s in self.segments:
            out.extend(s.label_of(s.indices_of(k)) for k in range(s.size))
        return tuple(out)

    def describe(self) -> list[dict[str, object]]:
        """JSON-able layout: each segment's name, first action, size and dims (for docs and tools)."""
        return [
            {
                "segment": s.name,
                "first": o,
                "size": s.size,
                "dims": [[n, r] for (n, _), r in zip(s.dims, s.radices)],
            }
            for o, s in zip(self._offsets, self.segments)
        ]

    def _entry(self, name: str) -> tuple[int, Segment]:
        try:
            return self._by_name[name]
        except KeyError:
            raise ValueError(f"no segment {name!r}; segments: {', '.join(self._by_name)}") from None

    def _locate(self, action: int) -> tuple[Segment, int]:
        if action not in self:
            raise ValueError(f"{action!r} is not an action (actions are 0-{self.size - 1})")
        i = bisect_right(self._offsets, action) - 1
        return self.segments[i], action - self._offsets[i]
