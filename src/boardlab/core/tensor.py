"""Observation tensors: what one seat may know, as a flat vector of fixed size.

Research interfaces (PettingZoo, OpenSpiel) want each seat's observation as
numbers of a fixed shape. A game writes its tensor in
``State._observation_tensor(player, t)`` by appending named fields to a
:class:`Tensor`, always the same fields in the same order, so the layout is
the same in every state of one game (with its options and player count).

Every value is in 0..1 (bits, one-hot rows, counts divided by their
maximum, scalars scaled so): the research adapters declare that range
(PettingZoo's ``Box(0, 1)``), and the builder refuses a value outside it.

The tensor must hold exactly what ``player`` may know: never anything that
``resample(player)`` could change (the conformance suite checks this), and
enough to tell apart the positions the seat can tell apart.

>>> t = Tensor()
>>> t.one_hot("to_move", 1, 2)
>>> t.bits("owned", [True, False, True])
>>> t.scalars("score", [3 / 10])
>>> t.values
[0.0, 1.0, 1.0, 0.0, 1.0, 0.3]
>>> t.layout()
[('to_move', 0, 2), ('owned', 2, 3), ('score', 5, 1)]
>>> t.one_hot("nobody", None, 3)   # no value: all zeros
>>> t.values[-3:]
[0.0, 0.0, 0.0]
>>> t.one_hot("bad", 3, 3)
Traceback (most recent call last):
...
ValueError: field 'bad': index 3 outside 0..2
>>> t.counts("passes", [3], 2)
Traceback (most recent call last):
...
ValueError: field 'passes': count 3 outside 0..2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


class Tensor:
    """A flat list of floats built from named fields, in the order they are added."""

    __slots__ = ("_fields", "values")

    def __init__(self) -> None:
        self.values: list[float] = []
        self._fields: list[tuple[str, int, int]] = []

    def _field(self, name: str, size: int) -> None:
        self._fields.append((name, len(self.values), size))

    def one_hot(self, name: str, index: int | None, size: int) -> None:
        """``size`` values, 1.0 at ``index`` (``None``: all 0.0)."""
        if index is not None and not 0 <= index < size:
            raise ValueError(f"field {name!r}: index {index} outside 0..{size - 1}")
        self._field(name, size)
        row = [0.0] * size
        if index is not None:
            row[index] = 1.0
        self.values.extend(row)

    def one_of(self, name: str, value: object, values: Sequence[object]) -> None:
        """``len(values)`` values, 1.0 at the place of ``value`` in ``values`` (a game's declared phases, say);
        ``None`` (where it is not one of ``values``): all 0.0.

        >>> t = Tensor()
        >>> t.one_of("phase", "move", ("place", "move", "over"))
        >>> t.one_of("held", None, ("king", "queen"))
        >>> t.values
        [0.0, 1.0, 0.0, 0.0, 0.0]
        >>> t.one_of("phase", "dance", ("place", "move", "over"))
        Traceback (most recent call last):
        ...
        ValueError: field 'phase': 'dance' is not one of ('place', 'move', 'over')
        """
        if value is None and None not in values:
            self.one_hot(name, None, len(values))
            return
        try:
            index = values.index(value)
        except ValueError:
            raise ValueError(f"field {name!r}: {value!r} is not one of {tuple(values)!r}") from None
        self.one_hot(name, index, len(values))

    def bits(self, name: str, flags: Iterable[bool]) -> None:
        """One value per flag: 1.0 where true."""
        row = [1.0 if f else 0.0 for f in flags]
        self._field(name, len(row))
        self.values.extend(row)

    def scalars(self, name: str, values: Iterable[float]) -> None:
        """Numbers in 0..1 (scale them: counts divided by their maximum); one outside is refused."""
        row = [float(v) for v in values]
        for v in row:
            if not 0.0 <= v <= 1.0:  # NaN too
                raise ValueError(f"field {name!r}: value {v} outside 0..1")
        self._field(name, len(row))
        self.values.extend(row)

    def counts(self, name: str, values: Iterable[int], maximum: int) -> None:
        """Whole numbers 0..``maximum``, each divided by ``maximum`` (one outside is refused)."""
        row = list(values)
        for v in row:
            if not 0 <= v <= maximum:
                raise ValueError(f"field {name!r}: count {v} outside 0..{maximum}")
        self.scalars(name, (v / maximum for v in row))

    def layout(self) -> list[tuple[str, int, int]]:
        """``[(field name, offset, size)]`` in order."""
        return list(self._fields)
