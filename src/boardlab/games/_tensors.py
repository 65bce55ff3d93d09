"""Small shared pieces for the games' observation tensors (see :mod:`boardlab.core.tensor`).

Seats are written relative to the viewer: the viewer's own seat first, then the
others in turn order (a spectator sees them in seat order). ``viewer`` always
records which seat is looking, so nothing absolute is lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from ..core.tensor import Tensor

#: Extra values after the seats in a ``mover`` field.
_SPECIAL = (CHANCE, SIMULTANEOUS, TERMINAL)


def order(viewer: int | None, n: int) -> list[int]:
    """The seats as the tensor lists them: the viewer first, then the others in turn."""
    v = viewer or 0
    return [(v + k) % n for k in range(n)]


def rel(seat: int | None, viewer: int | None, n: int) -> int | None:
    """Where ``seat`` stands in :func:`order` (``None`` for no seat or a negative one)."""
    if seat is None or seat < 0:
        return None
    return (seat - (viewer or 0)) % n


def rotate(values: Sequence[Any], viewer: int | None) -> list[Any]:
    """A per-seat list in :func:`order`."""
    n = len(values)
    return [values[s] for s in order(viewer, n)] if n else []


def viewer(t: Tensor, player: int | None, n: int) -> None:
    """Which seat looks (all zeros: a spectator)."""
    t.one_hot("viewer", player, n)


def mover(t: Tensor, name: str, cp: int | None, player: int | None, n: int) -> None:
    """Who decides: a seat relative to the viewer, or chance, all at once, nobody (over)."""
    if cp is None:
        index = None
    elif cp >= 0:
        index = rel(cp, player, n)
    else:
        index = n + _SPECIAL.index(cp)
    t.one_hot(name, index, n + len(_SPECIAL))


def turn(t: Tensor, phases: Sequence[str], o: dict[str, Any], v: int | None, n: int) -> None:
    """The fields a phased game's observation starts with: the viewer ``v``, the phase (one of ``phases``) and
    the seat to move, from the observation ``o`` (its ``phase`` and ``to_move``)."""
    viewer(t, v, n)
    t.one_hot("phase", phases.index(o["phase"]), len(phases))
    mover(t, "to_move", o["to_move"], v, n)


def seq(t: Tensor, name: str, codes: Sequence[int | None], length: int, kinds: int) -> None:
    """A sequence of at most ``length`` items, each one of ``kinds``: one one-hot row per slot."""
    if len(codes) > length:
        raise ValueError(f"field {name!r}: {len(codes)} items, at most {length}")
    row = [0.0] * (length * kinds)
    for i, c in enumerate(codes):
        if c is not None:
            if not 0 <= c < kinds:
                raise ValueError(f"field {name!r}: code {c} outside 0..{kinds - 1}")
            row[i * kinds + c] = 1.0
    t.scalars(name, row)


def one_hots(t: Tensor, name: str, codes: Sequence[int | None], kinds: int) -> None:
    """A fixed number of items, each one of ``kinds`` (``None``: all zeros)."""
    seq(t, name, codes, len(codes), kinds)


def counts_of(codes: Sequence[int], kinds: int) -> list[int]:
    """How many of each code."""
    out = [0] * kinds
    for c in codes:
        out[c] += 1
    return out


def ranks(t: Tensor, name: str, items: Sequence[int], size: int) -> None:
    """Which of ``size`` places an ordered list holds, and in what order: ``(k + 1) / size`` at its k-th item."""
    row = [0.0] * size
    for k, i in enumerate(items):
        row[i] = (k + 1) / size
    t.scalars(name, row)
