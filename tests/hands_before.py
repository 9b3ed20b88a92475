"""Today's evaluator, frozen: ``common.hands`` as it was before its tables were
rebuilt for speed, kept so that the tests (and scripts/bench_eval.py) can prove the
new one gives identical values and best fives.  Not used by the game.  The cards'
int values have changed since (``common.cards``); this module sums their former
values (``OLD_VALUE``), which it computes itself.

The original module docstring follows.

Hand values: the showdown ranking (R-S2) and who acts first (R-O1, R-O2).

Invariants:

- ``evaluate(cards)`` takes 5, 6 or 7 *distinct* cards and returns an ``int``;
  a higher int is a better hand (R-S2), equal hands get equal ints and suits
  never change it.  The int is ``category * 16**5`` plus five rank nibbles
  (0 = two .. 12 = ace), most significant first: the ranks that make the
  category, then the kickers.  Unused nibbles are 0.  Examples: a full house
  is (trips, pair, 0, 0, 0); two pair is (high pair, low pair, kicker, 0, 0);
  a straight is (top card, 0, ...) with A-2-3-4-5 topped by the five.
- The evaluator only sums the cards: by the encoding of ``common.cards`` the
  low 12 bits of the sum count each suit and the bits above count each rank
  in base 5.  A list indexed by the suit counts says whether there is a flush;
  without one, a dict keyed by the rank counts gives the value.  Seven cards
  holding a flush can hold neither quads nor a full house (either needs three
  cards beside the five suited ones), so the flush path only looks at the
  flush suit's ranks.
- The tables are built at import from the rank patterns, not by trying
  5-card subsets, and take a few tens of milliseconds; nothing is read from
  disk.
- ``showing_value(up_cards)`` never ties for two seats' up cards (R-O2): when
  all ranks are equal, the suit of the highest card decides.

>>> from common.cards import parse_many
>>> hand = rank_hand(parse_many("Ah Kh Qh Jh Th 2c 2d"))
>>> hand.name, hand.category.name
('royal flush', 'STRAIGHT_FLUSH')
>>> evaluate(parse_many("5c 4d 3h 2s Ac")) < evaluate(parse_many("6c 5d 4h 3s 2c"))
True
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

from common.cards import Card, Rank, full_deck

SUIT_BITS = 12
"""Bits of a card's former value given to the suit field (4 suits x 3 bits)."""
OLD_VALUE: dict[int, int] = {
    card: 5**card.rank << SUIT_BITS | 1 << 3 * card.suit for card in full_deck()
}
"""Each card's former int value: ``1 << 3 * suit`` in the low 12 bits, ``5**rank`` above."""

__all__ = [
    "Category",
    "HandRank",
    "best_five",
    "bring_in_key",
    "category_of",
    "evaluate",
    "evaluator_tables",
    "hand_name",
    "lowest_card",
    "rank_hand",
    "showing_name",
    "showing_value",
]


class Category(enum.IntEnum):
    """Kinds of hand, worst first (R-S2)."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


_CAT = 20  # the category sits above five 4-bit rank nibbles
_SUIT_MASK = (1 << SUIT_BITS) - 1
_RANKS_DESC = tuple(range(12, -1, -1))
_POW5 = tuple(5**r for r in range(13))


def _straight_top(mask: int) -> int:
    """Top rank of the best straight in a 13-bit rank mask, else -1 (wheel: FIVE)."""
    w = (mask << 1) | (mask >> 12)  # bit 0 is the ace played low
    run = w & (w >> 1) & (w >> 2) & (w >> 3) & (w >> 4)
    return run.bit_length() + 2 if run else -1


def _pack(ranks: tuple[int, ...]) -> int:
    """Ranks as nibbles, the first most significant."""
    out = 0
    for r in ranks:
        out = (out << 4) | r
    return out


# Every set of k ranks (k = 0..7) as (mask, base-5 key, packs, lowest rank),
# where packs[j] is the top j ranks packed as nibbles, highest first.
_RankSet = tuple[int, int, tuple[int, ...], int]


def _rank_sets() -> list[list[_RankSet]]:
    sets: list[list[_RankSet]] = [[(0, 0, (0,), 13)]]
    for _ in range(7):
        sets.append(
            [
                (mask | 1 << r, key + _POW5[r], (*packs, packs[-1] << 4 | r), r)
                for mask, key, packs, low in sets[-1]
                for r in range(low - 1, -1, -1)
            ]
        )
    return sets


# Every way to hold ranks more than once in at most 7 cards: the group sizes
# (largest first; the other cards are singles), the category they make when
# there is no straight or flush, and how many of the held ranks name it.
_SHAPES: tuple[tuple[tuple[int, ...], Category, int], ...] = (
    ((), Category.HIGH_CARD, 0),
    ((2,), Category.ONE_PAIR, 1),
    ((2, 2), Category.TWO_PAIR, 2),
    ((2, 2, 2), Category.TWO_PAIR, 2),
    ((3,), Category.THREE_OF_A_KIND, 1),
    ((3, 2), Category.FULL_HOUSE, 2),
    ((3, 2, 2), Category.FULL_HOUSE, 2),
    ((3, 3), Category.FULL_HOUSE, 2),
    ((4,), Category.FOUR_OF_A_KIND, 1),
    ((4, 2), Category.FOUR_OF_A_KIND, 1),
    ((4, 3), Category.FOUR_OF_A_KIND, 1),
)


def _build_tables() -> tuple[list[int], dict[int, int], dict[int, int]]:
    """Flush-suit list, rank-count table and flush table (see the module docstring)."""
    flush_suit = [0] * (1 << SUIT_BITS)
    for suit in range(4):
        shift = 3 * suit
        for i in range(1 << SUIT_BITS):
            if (i >> shift) & 7 >= 5:
                flush_suit[i] = 1 << shift

    straight_top = [_straight_top(m) for m in range(1 << 13)]
    sets = _rank_sets()
    straight = Category.STRAIGHT << _CAT

    flush: dict[int, int] = {}
    for k in (5, 6, 7):
        for mask, key, packs, _ in sets[k]:
            top = straight_top[mask]
            if top >= 0:
                flush[key] = Category.STRAIGHT_FLUSH << _CAT | top << 16
            else:
                flush[key] = Category.FLUSH << _CAT | packs[5]

    table: dict[int, int] = {}
    for shape, category, made in _SHAPES:
        kickers = max(0, 5 - sum(shape[:made]))  # cards left to play after the kind
        for n in (5, 6, 7):
            k = n - sum(shape)  # singles
            if k < 0:
                continue
            j = min(kickers, k)  # singles that play
            shift = _CAT - 4 * (made + j)
            for held in permutations(_RANKS_DESC, len(shape)):
                # Equal-sized groups are taken highest first, so that each rank
                # multiset comes up exactly once.
                if any(
                    shape[i] == shape[i + 1] and held[i] < held[i + 1]
                    for i in range(len(shape) - 1)
                ):
                    continue
                omask = sum(1 << r for r in held)
                okey = sum(size * _POW5[r] for size, r in zip(shape, held, strict=True))
                head = category << _CAT | _pack(held[:made]) << _CAT - 4 * made
                singles = [s for s in sets[k] if not s[0] & omask]
                if kickers and len(shape) > made:
                    # Quads beside a pair or trips, or three pairs: the kicker is
                    # the best other rank, held or single.  Here k <= 1, so
                    # packs[-1] is the single's rank, or 0 when there is none.
                    okick = max(held[made:])
                    kpos = _CAT - 4 * made - 4
                    table.update(
                        {
                            okey + key: head | max(okick, packs[-1]) << kpos
                            for _, key, packs, _ in singles
                        }
                    )
                elif len(shape) + k >= 5:  # five ranks: maybe a straight
                    table.update(
                        {
                            okey + key: straight | top << 16
                            if (top := straight_top[smask | omask]) >= 0
                            else head | packs[j] << shift
                            for smask, key, packs, _ in singles
                        }
                    )
                else:
                    table.update(
                        {okey + key: head | packs[j] << shift for _, key, packs, _ in singles}
                    )
    return flush_suit, table, flush


_FLUSH_SUIT, _RANK_VALUE, _FLUSH_VALUE = _build_tables()


def evaluate(cards: Collection[Card]) -> int:
    """The value of the best five of 5-7 distinct cards; higher is better (R-S2).

    The cards are not checked for duplicates (this runs in the inner loop of
    simulations); a count other than 5-7 raises ``ValueError``.

    >>> from common.cards import parse_many
    >>> hex(evaluate(parse_many("Kc Kd 5h 5s 5c 2d 3d")))  # fives full of kings
    '0x63b000'
    """
    old = [OLD_VALUE[card] for card in cards]
    s = sum(old)
    suit = _FLUSH_SUIT[s & _SUIT_MASK]
    if not suit:
        try:
            return _RANK_VALUE[s >> SUIT_BITS]
        except KeyError:
            raise ValueError(f"want 5 to 7 distinct cards, not {cards!r}") from None
    if s >> SUIT_BITS not in _RANK_VALUE:
        raise ValueError(f"want 5 to 7 distinct cards, not {cards!r}")
    flushed = 0
    for card in old:
        if card & suit:
            flushed += card
    return _FLUSH_VALUE[flushed >> SUIT_BITS]


def evaluator_tables() -> tuple[Sequence[int], Mapping[int, int], Mapping[int, int]]:
    """The three tables ``evaluate`` looks values up in, for loops that sum cards themselves.

    ``(flush_suit, rank_value, flush_value)``: with ``s`` the sum of 5-7 distinct
    cards' former values (``OLD_VALUE``), ``flush_suit[s & 0xFFF]`` is the suit bit
    of a flush (0 for none); without one the value is ``rank_value[s >> SUIT_BITS]``, with one it is
    ``flush_value[f >> SUIT_BITS]`` where ``f`` sums only the cards of that suit
    (``card & suit``).  Read only: they are ``evaluate``'s own.
    """
    return _FLUSH_SUIT, _RANK_VALUE, _FLUSH_VALUE


def category_of(value: int) -> Category:
    """The category of an ``evaluate`` value."""
    return Category(value >> _CAT)


_WORDS = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
# hand-history.md does not spell out the plural of two; we say "twos", not
# "deuces", so that every plural is the word plus "s" (or "es" for "sixes").
_PLURALS = tuple(word + ("es" if word == "six" else "s") for word in _WORDS)


def hand_name(value: int) -> str:
    """The hand's name as the hand history writes it (``stud-hh/1``).

    >>> from common.cards import parse_many
    >>> hand_name(evaluate(parse_many("Jc Jd 4h 4s 9c")))
    'two pair, jacks and fours'
    """
    category = category_of(value)
    a, b = value >> 16 & 15, value >> 12 & 15  # the two leading ranks
    if category is Category.STRAIGHT_FLUSH:
        return "royal flush" if a == Rank.ACE else f"straight flush, {_WORDS[a]} high"
    return {
        Category.FOUR_OF_A_KIND: f"four of a kind, {_PLURALS[a]}",
        Category.FULL_HOUSE: f"full house, {_PLURALS[a]} full of {_PLURALS[b]}",
        Category.FLUSH: f"flush, {_WORDS[a]} high",
        Category.STRAIGHT: f"straight, {_WORDS[a]} high",
        Category.THREE_OF_A_KIND: f"three of a kind, {_PLURALS[a]}",
        Category.TWO_PAIR: f"two pair, {_PLURALS[a]} and {_PLURALS[b]}",
        Category.ONE_PAIR: f"one pair, {_PLURALS[a]}",
        Category.HIGH_CARD: f"high card, {_WORDS[a]}",
    }[category]


def best_five(cards: Collection[Card]) -> list[Card]:
    """The five cards the table plays for this hand (R-S1), in display order.

    The cards that make the category come first (trips before the pair of a
    full house, the higher pair first), then the kickers, high to low; a wheel
    reads 5-4-3-2-A.  Where equal hands could be picked (suits differ), the
    choice does not depend on the order of ``cards``.

    >>> from common.cards import parse_many
    >>> " ".join(map(str, best_five(parse_many("2c 9d 9h Ks 4c 9s 3h"))))
    '9s 9h 9d Ks 4c'
    """
    ordered = sorted(cards, key=bring_in_key, reverse=True)
    if not 5 <= len(ordered) <= 7:
        raise ValueError(f"want 5 to 7 distinct cards, not {cards!r}")
    best = max(combinations(ordered, 5), key=evaluate)
    value = evaluate(best)
    if category_of(value) in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        if value >> 16 & 15 == Rank.FIVE:  # wheel: the ace plays low
            return [*best[1:], best[0]]
        return list(best)
    counts = Counter(card.rank for card in best)
    return sorted(best, key=lambda c: (counts[c.rank], bring_in_key(c)), reverse=True)


@dataclass(frozen=True, slots=True)
class HandRank:
    """A hand at showdown: its value (compare these), kind, best five and name."""

    value: int
    category: Category
    best: tuple[Card, ...]
    name: str


def rank_hand(cards: Collection[Card]) -> HandRank:
    """Everything the showdown needs about 5-7 cards (R-S1, R-S2)."""
    value = evaluate(cards)
    return HandRank(
        value=value,
        category=category_of(value),
        best=tuple(best_five(cards)),
        name=hand_name(value),
    )


_BRING_IN_KEYS: dict[int, int] = {card: card.rank * 4 + card.suit for card in full_deck()}


def bring_in_key(card: Card) -> int:
    """Lower for the lower card: rank first, then clubs < diamonds < hearts < spades (R-O1)."""
    return _BRING_IN_KEYS[card]


def lowest_card(cards: Collection[Card]) -> Card:
    """The lowest card for the bring-in (R-O1); the two of clubs is the lowest of all."""
    if not cards:
        raise ValueError("no cards to compare")
    return min(cards, key=bring_in_key)


def _showing_groups(up_cards: Collection[Card]) -> tuple[Category, list[int]]:
    """The showing kind and its distinct ranks, kind first then high to low (R-O2)."""
    if not 1 <= len(up_cards) <= 4:
        raise ValueError(f"want 1 to 4 up cards, not {up_cards!r}")
    counts = Counter(card.rank for card in up_cards)
    groups = sorted(((n, rank) for rank, n in counts.items()), reverse=True)
    top = groups[0][0]
    if top == 4:
        kind = Category.FOUR_OF_A_KIND
    elif top == 3:
        kind = Category.THREE_OF_A_KIND
    elif top == 2:
        kind = Category.TWO_PAIR if len(groups) > 1 and groups[1][0] == 2 else Category.ONE_PAIR
    else:
        kind = Category.HIGH_CARD  # straights and flushes showing count as high cards
    return kind, [rank for _, rank in groups]


def showing_value(up_cards: Collection[Card]) -> int:
    """Higher for the better showing hand, which acts first from fourth street (R-O2).

    Only quads, trips, two pair, one pair and high cards count; within a kind
    the ranks making it come first, then the others high to low; when all
    ranks are equal, the suit of the highest card (highest rank, then highest
    suit) decides, so two seats never tie.  Hands with different numbers of
    cards compare consistently too (a missing card ranks below a two).

    >>> from common.cards import parse_many
    >>> v = [showing_value(parse_many(h)) for h in ("3c 3d 3h", "7s 7h 8c", "As Ks Qs")]
    >>> v[0] > v[1] > v[2]
    True
    """
    if not 1 <= len(up_cards) <= 4:
        raise ValueError(f"want 1 to 4 up cards, not {up_cards!r}")
    # The kind and ranks depend only on how many of each rank show, which the
    # card sum spells in base 5: remember them (at most 2,380 such counts).
    counts = sum(OLD_VALUE[card] for card in up_cards) >> SUIT_BITS
    value = _SHOWING_BY_COUNTS.get(counts)
    if value is None:
        kind, ranks = _showing_groups(up_cards)
        value = int(kind)
        for i in range(4):
            value = value << 4 | (ranks[i] + 1 if i < len(ranks) else 0)
        _SHOWING_BY_COUNTS[counts] = value
    return value << 2 | (max(map(_BRING_IN_KEYS.__getitem__, up_cards)) & 3)


_SHOWING_BY_COUNTS: dict[int, int] = {}


def showing_name(up_cards: Collection[Card]) -> str:
    """The showing hand in the words of the hand history, for the table log.

    >>> from common.cards import parse_many
    >>> showing_name(parse_many("8c 8d Ah")), showing_name(parse_many("Kh Qh Jh Th"))
    ('one pair, eights', 'high card, king')
    """
    kind, ranks = _showing_groups(up_cards)
    a = ranks[0]
    return {
        Category.FOUR_OF_A_KIND: f"four of a kind, {_PLURALS[a]}",
        Category.THREE_OF_A_KIND: f"three of a kind, {_PLURALS[a]}",
        Category.TWO_PAIR: f"two pair, {_PLURALS[a]} and {_PLURALS[ranks[-1]]}",
        Category.ONE_PAIR: f"one pair, {_PLURALS[a]}",
        Category.HIGH_CARD: f"high card, {_WORDS[a]}",
    }[kind]
