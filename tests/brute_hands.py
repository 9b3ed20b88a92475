"""An independent oracle for ``common.hands``: every hand of 5-7 cards valued by trying
each of its five-card subsets (21 of seven cards) with a plain five-card evaluator.

Slow and obvious on purpose: it shares nothing with the evaluator's tables, so the
tests that hold ``common.hands`` to it can catch a mistake in them (R-S2).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Collection, Sequence
from itertools import combinations

from common.cards import Card

WHEEL = [12, 3, 2, 1, 0]  # A-5-4-3-2: the ace plays low


def five_value(cards: Sequence[Card]) -> int:
    """The value of exactly five cards, as ``common.hands.evaluate`` encodes it: the
    category above five rank nibbles, the ranks that make it first, then the kickers."""
    return _five(tuple(sorted(card.rank for card in cards)), len({c.suit for c in cards}) == 1)


@functools.cache  # by the ranks and whether they are suited: 7,462 fives in all
def _five(ranks: tuple[int, ...], flush: bool) -> int:
    counts = Counter(ranks)
    # Ranks by how many of each, then high to low: the category's ranks, then kickers.
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    straight = len(order) == 5 and (order[0] - order[4] == 4 or order == WHEEL)
    if straight:
        order = [3 if order == WHEEL else order[0]]
    if straight and flush:
        category = 8
    elif shape[0] == 4:
        category = 7
    elif shape[:2] == [3, 2]:
        category = 6
    elif flush:
        category = 5
    elif straight:
        category = 4
    elif shape[0] == 3:
        category = 3
    elif shape[:2] == [2, 2]:
        category = 2
    elif shape[0] == 2:
        category = 1
    else:
        category = 0
    nibbles = 0
    for rank in (order + [0] * 5)[:5]:
        nibbles = nibbles << 4 | rank
    return category << 20 | nibbles


def value(cards: Collection[Card]) -> int:
    """The best value of any five of 5-7 cards."""
    held = [(card.rank, card.suit) for card in cards]
    return max(
        _five(tuple(sorted(r for r, _ in five)), len({s for _, s in five}) == 1)
        for five in combinations(held, 5)
    )


def best_five(cards: Collection[Card]) -> list[Card]:
    """The five cards that play, in the table's display order (R-S1): of the fives worth
    the most, the one with the highest cards (rank, then suit); the cards making the
    category first, then the kickers, high to low; a wheel as 5-4-3-2-A."""
    best = max(combinations(sorted(cards, reverse=True), 5), key=five_value)
    if five_value(best) >> 20 in (4, 8):  # a straight: high to low, the wheel's ace last
        return [*best[1:], best[0]] if best[0].rank == 12 and best[1].rank == 3 else list(best)
    counts = Counter(card.rank for card in best)
    return sorted(best, key=lambda c: (counts[c.rank], c), reverse=True)
