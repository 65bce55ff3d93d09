"""Chance outcomes of the two usual kinds, as ``[(action, probability)]`` for ``State._chance_outcomes``.

>>> equally_likely([4, 7])
[(4, 0.5), (7, 0.5)]
>>> by_counts([2, 0, 1, 1])   # a deck of two cards of kind 0, one of kind 2, one of kind 3
[(0, 0.5), (2, 0.25), (3, 0.25)]
>>> by_counts([1, 3], first=10)
[(10, 0.25), (11, 0.75)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def equally_likely(actions: Iterable[int]) -> list[tuple[int, float]]:
    """Each of ``actions`` (none twice), all equally likely: any card not yet dealt, say."""
    listed = list(actions)
    return [(a, 1 / len(listed)) for a in listed]


def by_counts(counts: Sequence[int], first: int = 0) -> list[tuple[int, float]]:
    """Action ``first + k`` with probability ``counts[k] / sum(counts)``, for each kind ``k`` with a count: the
    kind of a card drawn from a deck that holds ``counts[k]`` cards of each kind."""
    total = sum(counts)
    return [(first + k, c / total) for k, c in enumerate(counts) if c]
