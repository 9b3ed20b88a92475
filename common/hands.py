"""Hand values: the showdown ranking (R-S2) and who acts first (R-O1, R-O2).

Invariants:

- ``evaluate(cards)`` takes 5, 6 or 7 *distinct* cards and returns an ``int``;
  a higher int is a better hand (R-S2), equal hands get equal ints and suits
  never change it.  The int is ``category * 16**5`` plus five rank nibbles
  (0 = two .. 12 = ace), most significant first: the ranks that make the
  category, then the kickers.  Unused nibbles are 0.  Examples: a full house
  is (trips, pair, 0, 0, 0); two pair is (high pair, low pair, kicker, 0, 0);
  a straight is (top card, 0, ...) with A-2-3-4-5 topped by the five.
- The evaluator only sums the cards: by the encoding of ``common.cards`` the
  low 8 bits of the sum say which suit, if any, holds five or more of the cards,
  and the bits above (the rank key) how many cards of each rank there are.  Seven
  cards read the flush suit in a list of 256 and, without one, their value in a
  flat array indexed by the rank key (one read, no hashing; 31 MB, mostly unused);
  a flush (which leaves no room for quads or a full house) reads the flush suit's
  ranks as a bit mask.  Five and six cards, off the hot path, read a dict.
- The tables are built from the rank patterns, not by trying 5-card subsets, on
  first use (``_tables``): about a hundred milliseconds, nothing read from disk.
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
import functools
from array import array
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement, permutations, product
from typing import NamedTuple

from common.cards import RANK_KEYS, SUIT_BITS, SUIT_KEYS, Card, Rank, full_deck

__all__ = [
    "GROUPS",
    "Category",
    "HandRank",
    "best_five",
    "best_five_of",
    "bring_in_key",
    "category_of",
    "evaluate",
    "evaluator_tables",
    "floor_value",
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
_RANKS_DESC = tuple(range(12, -1, -1))


def _straight_top(mask: int) -> int:
    """Top rank of the best straight in a 13-bit rank mask, else -1 (wheel: FIVE)."""
    w = (mask << 1) | (mask >> 12)  # bit 0 is the ace played low
    run = w & (w >> 1) & (w >> 2) & (w >> 3) & (w >> 4)
    return run.bit_length() + 2 if run else -1


def _pack(ranks: Sequence[int]) -> int:
    """Ranks as nibbles, the first most significant."""
    out = 0
    for r in ranks:
        out = (out << 4) | r
    return out


# Every set of k ranks (k = 0..7) as (mask, rank key, packs, lowest rank),
# where packs[j] is the top j ranks packed as nibbles, highest first.
_RankSet = tuple[int, int, tuple[int, ...], int]


def _rank_sets() -> list[list[_RankSet]]:
    sets: list[list[_RankSet]] = [[(0, 0, (0,), 13)]]
    for _ in range(7):
        sets.append(
            [
                (mask | 1 << r, key + RANK_KEYS[r], (*packs, packs[-1] << 4 | r), r)
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


def _build_tables() -> tuple[dict[int, dict[int, int]], list[int]]:
    """The value of every way to hold 5, 6 or 7 cards without a flush, by the number of
    cards and then the rank key; and the flush values by the flush suit's rank mask."""
    straight_top = [_straight_top(m) for m in range(1 << 13)]
    sets = _rank_sets()
    straight = Category.STRAIGHT << _CAT

    flush = [0] * (1 << 13)
    for k in (5, 6, 7):
        for mask, _, packs, _ in sets[k]:
            top = straight_top[mask]
            if top >= 0:
                flush[mask] = Category.STRAIGHT_FLUSH << _CAT | top << 16
            else:
                flush[mask] = Category.FLUSH << _CAT | packs[5]

    by_count: dict[int, dict[int, int]] = {5: {}, 6: {}, 7: {}}
    for shape, category, made in _SHAPES:
        kickers = max(0, 5 - sum(shape[:made]))  # cards left to play after the kind
        for n, table in by_count.items():
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
                okey = sum(size * RANK_KEYS[r] for size, r in zip(shape, held, strict=True))
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
    return by_count, flush


_SuitBits = dict[int, int]
"""A card's rank bit if it is of one suit, else 0, for each of the 52 cards."""


def _suit_tables() -> dict[int, list[_SuitBits | None]]:
    """For 5, 6 and 7 cards: by the sum of their suit keys (below 256), the suit bits
    (``_SuitBits``) of the suit holding five or more of them, else None."""
    deck = full_deck()
    # Keyed by the ``Card``s themselves, which ``evaluate`` then finds by identity.
    bits: list[_SuitBits] = [
        {card: 1 << card.rank if card.suit == suit else 0 for card in deck} for suit in range(4)
    ]
    out: dict[int, list[_SuitBits | None]] = {}
    for n in (5, 6, 7):
        row: list[_SuitBits | None] = [None] * (1 << SUIT_BITS)
        for counts in product(range(n + 1), repeat=4):
            if sum(counts) == n:
                key = sum(c * k for c, k in zip(counts, SUIT_KEYS, strict=True))
                for suit, c in enumerate(counts):
                    if c >= 5:
                        row[key] = bits[suit]
        out[n] = row
    return out


class _Tables(NamedTuple):
    """What ``evaluate`` reads."""

    flush_suit: list[_SuitBits | None]
    """Seven cards' suit bits of the flush suit by the sum of their suit keys, else None."""
    rank_value: array[int]
    """Seven cards' value without a flush, by their rank key."""
    flush_value: list[int]
    """A flush's value by the mask of its suit's ranks (five to seven bits)."""
    fewer: dict[int, tuple[list[_SuitBits | None], dict[int, int]]]
    """For five and six cards: their ``flush_suit`` and their values by rank key."""


@functools.cache
def _tables() -> _Tables:
    """Every table ``evaluate`` reads, built on first use: about a hundred milliseconds,
    which an import of this module need not pay."""
    by_count, flush_value = _build_tables()
    suits = _suit_tables()
    sevens = by_count[7]
    # Every rank key of seven cards, used or not (7,825,760 of them, 49,205 used):
    # machine ints, read with no hashing, 31 MB.
    rank_value = array("i", [0]) * (max(sevens) + 1)
    for key, value in sevens.items():
        rank_value[key] = value
    fewer = {n: (suits[n], by_count[n]) for n in (5, 6)}
    return _Tables(suits[7], rank_value, flush_value, fewer)


assert SUIT_BITS == 8  # evaluate's literals


def evaluate(cards: Collection[Card]) -> int:
    """The value of the best five of 5-7 distinct cards; higher is better (R-S2).

    The cards are not checked for duplicates (this runs in the inner loop of
    simulations); a count other than 5-7 raises ``ValueError``.

    >>> from common.cards import parse_many
    >>> hex(evaluate(parse_many("Kc Kd 5h 5s 5c 2d 3d")))  # fives full of kings
    '0x63b000'
    """
    # Seven cards (the usual case) are added one by one, which is faster than ``sum``
    # on ints of a subclass, and with seven cards the count needs no check.
    try:
        a, b, c, d, e, f, g = cards
    except ValueError:
        return _evaluate_other(cards)
    s: int = a + b + c + d + e + f + g
    flush_suit, rank_value, flush_value, _ = _tables()
    bits = flush_suit[s & 0xFF]
    if bits is None:
        return rank_value[s >> 8]
    # A flush (one hand in thirty): the flush suit's ranks as a mask, still unrolled.
    return flush_value[bits[a] | bits[b] | bits[c] | bits[d] | bits[e] | bits[f] | bits[g]]


def _evaluate_other(cards: Collection[Card]) -> int:
    """``evaluate`` of other than seven cards: five or six, else ``ValueError``."""
    n = len(cards)
    if n != 5 and n != 6:
        raise ValueError(f"want 5 to 7 distinct cards, not {cards!r}")
    tables = _tables()
    suits, values = tables.fewer[n]
    s: int = sum(cards)
    value = values.get(s >> 8)
    if value is None:  # five of a rank, say
        raise ValueError(f"want 5 to 7 distinct cards, not {cards!r}")
    bits = suits[s & 0xFF]
    if bits is None:
        return value
    flushed = 0
    for card in cards:
        flushed |= bits[card]
    return tables.flush_value[flushed]


def evaluator_tables() -> tuple[Sequence[Mapping[int, int] | None], Sequence[int], Sequence[int]]:
    """``(flush_suit, rank_value, flush_value)``, the tables ``evaluate`` reads for seven
    cards, for loops that sum cards themselves (``common.equity``: the known cards' sum
    kept, the dealt cards' plain ints added).  With ``s`` the sum of seven distinct
    cards, ``bits = flush_suit[s & 0xFF]`` is None without a flush, and then the value
    is ``rank_value[s >> 8]``; with a flush it is ``flush_value`` of the seven cards'
    ``bits[card]`` or-ed.  Read only.
    """
    flush_suit, rank_value, flush_value, _ = _tables()
    return flush_suit, rank_value, flush_value


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

    The cards that make the category come first (trips before the pair of a full
    house, the higher pair first), then the kickers, high to low; a wheel reads
    5-4-3-2-A.  Of equal hands the higher suits of a rank play, whatever the order of
    ``cards`` (tests/test_hands_identity.py: the fives of trying every subset).

    >>> from common.cards import parse_many
    >>> " ".join(map(str, best_five(parse_many("2c 9d 9h Ks 4c 9s 3h"))))
    '9s 9h 9d Ks 4c'
    """
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"want 5 to 7 distinct cards, not {cards!r}")
    return best_five_of(cards, evaluate(cards))


def best_five_of(cards: Collection[Card], value: int) -> list[Card]:
    """``best_five(cards)`` for 5-7 distinct cards whose ``evaluate`` value is ``value``
    (known already: a showdown has it), with no second evaluation."""
    key = _BRING_IN_KEYS  # rank * 4 + suit
    ordered = sorted(cards, key=key.__getitem__, reverse=True)
    category = value >> _CAT
    if category == Category.FLUSH or category == Category.STRAIGHT_FLUSH:
        suits = [key[c] & 3 for c in ordered]
        suit = max(suits, key=suits.count)  # five or more of one suit
        ordered = [c for c, s in zip(ordered, suits, strict=True) if s == suit]
    if category == Category.STRAIGHT or category == Category.STRAIGHT_FLUSH:
        top = value >> 16 & 15
        by_rank = {key[c] >> 2: c for c in reversed(ordered)}  # the highest suit stays
        low = Rank.ACE if top == Rank.FIVE else top - 4
        return [by_rank[top], by_rank[top - 1], by_rank[top - 2], by_rank[top - 3], by_rank[low]]
    need = {value >> 16 - 4 * i & 15: n for i, n in enumerate(GROUPS[category])}
    size = dict(need)
    picked = []
    for card in ordered:
        rank = key[card] >> 2
        if need.get(rank):
            need[rank] -= 1
            picked.append(card)
    return sorted(picked, key=lambda c: (size[key[c] >> 2], key[c]), reverse=True)


GROUPS: Mapping[int, tuple[int, ...]] = {
    Category.HIGH_CARD: (1, 1, 1, 1, 1),
    Category.ONE_PAIR: (2, 1, 1, 1),
    Category.TWO_PAIR: (2, 2, 1),
    Category.THREE_OF_A_KIND: (3, 1, 1),
    Category.FLUSH: (1, 1, 1, 1, 1),
    Category.FULL_HOUSE: (3, 2),
    Category.FOUR_OF_A_KIND: (4, 1),
}
"""How many cards each rank named by a value plays, in the value's order (every
category but the straights, whose value names only the top card).  Read only."""


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


def _showing_groups(ranks: Sequence[int]) -> tuple[Category, list[int]]:
    """The showing kind of up cards' ranks and the distinct ranks, the kind's first,
    then high to low (R-O2)."""
    groups = sorted({(ranks.count(rank), rank) for rank in ranks}, reverse=True)
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
    # The rank key of the cards' sum and their count name the kind and ranks; the
    # highest card is the largest int (``common.cards``).
    by_ranks = _showing_values()[(sum(up_cards) >> SUIT_BITS) << 3 | len(up_cards)]
    return by_ranks << 2 | _BRING_IN_KEYS[max(up_cards)] & 3


@functools.cache
def _showing_values() -> dict[int, int]:
    """``showing_value`` but for the suit, for every way to show one to four ranks
    (2,379), by the rank key of the cards' sum and their count."""
    out = {}
    for n in range(1, 5):
        for ranks in combinations_with_replacement(range(13), n):
            kind, groups = _showing_groups(ranks)
            value = int(kind)
            for i in range(4):
                value = value << 4 | (groups[i] + 1 if i < len(groups) else 0)
            out[sum(RANK_KEYS[r] for r in ranks) << 3 | n] = value
    return out


def showing_name(up_cards: Collection[Card]) -> str:
    """The showing hand in the words of the hand history, for the table log.

    >>> from common.cards import parse_many
    >>> showing_name(parse_many("8c 8d Ah")), showing_name(parse_many("Kh Qh Jh Th"))
    ('one pair, eights', 'high card, king')
    """
    return hand_name(floor_value(up_cards))


def floor_value(up: Collection[Card]) -> int:
    """The least a seat showing ``up`` (one to four up cards) can end with, as an
    ``evaluate`` value: its up cards' pattern (quads, trips, two pair, a pair or high
    cards) with its other up cards as kickers and twos in the slots left.  Any five of
    its final cards that hold the up cards are worth at least this (R-S2)."""
    if not 1 <= len(up) <= 4:
        raise ValueError(f"want 1 to 4 up cards, not {up!r}")
    kind, ranks = _showing_groups([card.rank for card in up])
    return kind << _CAT | _pack([*ranks, 0, 0, 0, 0][:5])
