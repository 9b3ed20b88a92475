"""Third-street cards: how good a starting hand is, and which ones a sound player folds.

Invariants:

- Pure functions of the cards (and the other cards showing); no randomness.
- ``starting_class`` is 0 (trash) to 4 (premium); a card a hand needs that is
  already showing elsewhere never makes it better.
- ``is_trash`` is the opposite end: no pair, no three-flush, no three-straight
  and fewer than two cards queen or better.
"""

from __future__ import annotations

from collections.abc import Sequence

from common.cards import Card, full_deck

__all__ = ["HIGH_CARDS", "RANK_OF", "SUIT_OF", "is_trash", "starting_class"]

RANK_OF: dict[Card, int] = {c: int(c.rank) for c in full_deck()}
"""Each card's rank as a plain int (faster than ``Card.rank`` in inner loops)."""
SUIT_OF: dict[Card, int] = {c: int(c.suit) for c in full_deck()}

HIGH_CARDS = 7
"""Rank of a nine: the lowest card counted "high" for a draw."""
_QUEEN, _TEN, _JACK, _ACE = 10, 8, 9, 12


def starting_class(cards: Sequence[Card], seen: Sequence[Card]) -> int:
    """How good three third-street cards are, 0 (trash) to 4 (premium).

    4: rolled-up trips, or a live pair of queens or better.  3: a pair of tens
    or jacks, a small pair with an ace, three live suited cards with a jack or
    better.  2: other pairs, three live suited cards, three live connected
    cards.  1: weaker draws and two live cards queen or better.  ``seen`` are
    the other cards showing; a card we need that is showing makes it worse.

    >>> from common.cards import parse_many
    >>> starting_class(parse_many("Ks Kd Kh"), []), starting_class(parse_many("7c 2d 4h"), [])
    (4, 0)
    """
    ranks = sorted((c.rank for c in cards), reverse=True)
    out_rank = [0] * 13
    out_suit = [0] * 4
    for c in seen:
        out_rank[c.rank] += 1
        out_suit[c.suit] += 1
    best = 0
    if ranks[0] == ranks[2]:
        return 4
    pair = ranks[1] if ranks[1] in (ranks[0], ranks[2]) else None
    if pair is not None:
        kicker = ranks[2] if pair == ranks[0] else ranks[0]
        if pair >= _QUEEN:
            best = 4
        elif pair >= _TEN or kicker == _ACE:
            best = 3
        else:
            best = 2
        if out_rank[pair]:
            best -= 1  # fewer ways to trips
        return max(best, 1)
    suits = {c.suit for c in cards}
    if len(suits) == 1:
        gone = out_suit[next(iter(suits))]
        best = max(best, (3 if ranks[0] >= _JACK else 2) - (gone >= 2) - (gone >= 4))
    span = _straight_span(ranks)
    if span is not None:
        needed = _straight_needs(ranks)
        dead = sum(out_rank[r] for r in needed) / max(len(needed), 1)
        value = 2 if span <= 3 and ranks[0] >= HIGH_CARDS else 1
        best = max(best, value - (dead >= 2))
    high = [r for r in ranks if r >= _QUEEN and out_rank[r] == 0]
    if len(high) >= 2 or (ranks[0] == _ACE and ranks[1] >= _TEN and out_rank[_ACE] == 0):
        best = max(best, 1)
    return best


def _straight_span(ranks: Sequence[int]) -> int | None:
    """Top minus bottom of three distinct ranks that fit in a straight, else ``None``."""
    if len(set(ranks)) < 3:
        return None
    span = ranks[0] - ranks[2]
    if span <= 4:
        return span
    if ranks[0] == _ACE and ranks[1] <= 3:  # A-5-x: the wheel
        return ranks[1] + 1
    return None


def _straight_needs(ranks: Sequence[int]) -> list[int]:
    low = max(ranks[2] - (4 - (ranks[0] - ranks[2])), 0)
    return [r for r in range(low, min(low + 5, 13)) if r not in ranks]


def is_trash(three: Sequence[Card]) -> bool:
    """Third-street cards a sound player folds: no pair, no three-flush or three-straight,
    fewer than two cards queen or better.

    >>> from common.cards import parse_many
    >>> is_trash(parse_many("2c 7d Kh")), is_trash(parse_many("2c 7c Kc"))
    (True, False)
    """
    r = sorted((RANK_OF[c] for c in three), reverse=True)
    if r[0] == r[1] or r[1] == r[2]:
        return False
    if SUIT_OF[three[0]] == SUIT_OF[three[1]] == SUIT_OF[three[2]]:
        return False
    if r[0] - r[2] <= 4 or (r[0] == 12 and r[1] <= 3):
        return False
    return not (r[1] >= 10)
