"""Sets of small numbers (cells, cards, seats) kept as the bits of one ``int``.

>>> bits(0b10110)
[1, 2, 4]
>>> bits(0)
[]
"""

from __future__ import annotations


def bits(mask: int) -> list[int]:
    """The set bits of ``mask`` (not negative), lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
