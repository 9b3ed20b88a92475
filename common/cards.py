"""Cards, ranks, suits and the pack.

A card is written as two characters, rank then suit (``"As"``, ``"Td"``,
``"2c"``), exactly as in the ``stud-hh/1`` hand-history format.

Invariants:

- There are exactly 52 ``Card`` objects; ``parse`` and ``Card(code)`` hand out
  those same objects, so cards compare and hash as the ints they are.
- A ``Card`` *is* an ``int`` built for the hand evaluator (``common.hands``):
  ``RANK_KEYS[rank] << SUIT_BITS | SUIT_KEYS[suit]``, so that the sum of 5 to 7
  cards says which suit holds five of them, if one does, and how many cards of each
  rank there are.  Every card is below ``2**30`` (one digit of a CPython int, which
  adds fastest).  The value grows with the rank, then the suit: cards compare as
  the bring-in orders them (R-O1), ranks from 2 (0) to ace (12), suits clubs (0),
  diamonds, hearts, spades (3).

>>> card = parse("As")
>>> str(card), card.rank, card.suit
('As', <Rank.ACE: 12>, <Suit.SPADES: 3>)
>>> parse("2c") < parse("2d") < parse("3c")  # ints, ordered by rank then suit
True
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable

__all__ = [
    "RANK_CHARS",
    "SUIT_CHARS",
    "Card",
    "Rank",
    "Suit",
    "deal_cards",
    "full_deck",
    "parse",
    "parse_many",
    "shuffled_deck",
]

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"

SUIT_BITS = 8
"""Bits of a card's value given to the suit key (``SUIT_KEYS``); the rank key sits above."""
RANK_KEYS = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
"""Rank keys, two to ace: for each ``n`` of 1 to 7, every way to hold exactly ``n``
cards (at most four of a rank) sums to its own key (``tests/test_hands_identity.py``).
Seven cards sum to at most 7,825,759 (four aces and three kings)."""
SUIT_KEYS = (1, 2, 25, 34)
"""Suit keys, clubs to spades: for each count of 5, 6 or 7 cards, the sum of their
keys (below 256) says which suit holds five or more of them, if one does.  No key
is 0, so no card is the int 0 (``2c`` would be falsy)."""


class Rank(enum.IntEnum):
    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12


class Suit(enum.IntEnum):
    """Suits in bring-in order, lowest first (R-O1)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3


_BY_CODE: dict[str, Card] = {}


class Card(int):
    """One of the 52 cards; an ``int`` (see the module docstring) that prints as ``"As"``."""

    __slots__ = ()

    def __new__(cls, code: str) -> Card:
        try:
            return _BY_CODE[code]
        except (KeyError, TypeError):
            raise ValueError(f"not a card: {code!r} (want rank 2-9TJQKA then suit cdhs)") from None

    @property
    def code(self) -> str:
        return _CODE_OF[int(self)]

    @property
    def rank(self) -> Rank:
        return _RANK_OF[int(self)]

    @property
    def suit(self) -> Suit:
        return _SUIT_OF[int(self)]

    def __str__(self) -> str:
        return _CODE_OF[int(self)]

    def __repr__(self) -> str:
        return f"Card({_CODE_OF[int(self)]!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[str]]:
        return (Card, (str(self),))

    # ``int`` formats and copies would lose the card's identity.
    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


_CODE_OF: dict[int, str] = {}
_RANK_OF: dict[int, Rank] = {}
_SUIT_OF: dict[int, Suit] = {}

for _rank in Rank:
    for _suit in Suit:
        _value = RANK_KEYS[_rank] << SUIT_BITS | SUIT_KEYS[_suit]
        _code = RANK_CHARS[_rank] + SUIT_CHARS[_suit]
        _card = int.__new__(Card, _value)
        _BY_CODE[_code] = _card
        _CODE_OF[_value] = _code
        _RANK_OF[_value] = _rank
        _SUIT_OF[_value] = _suit

_FULL_DECK: tuple[Card, ...] = tuple(_BY_CODE[r + s] for s in SUIT_CHARS for r in RANK_CHARS)


def parse(code: str) -> Card:
    """The card written ``code`` (``"As"``); ``ValueError`` if it is not one."""
    return Card(code)


def parse_many(codes: str | Iterable[str]) -> list[Card]:
    """Cards from ``"As Kd 2c"`` (spaces optional: ``"AsKd2c"``) or a list of codes."""
    if isinstance(codes, str):
        text = codes.replace(" ", "").replace(",", "")
        if len(text) % 2:
            raise ValueError(f"not a list of cards: {codes!r}")
        return [Card(text[i : i + 2]) for i in range(0, len(text), 2)]
    return [Card(code) for code in codes]


def full_deck() -> list[Card]:
    """A new, ordered pack of 52 cards (R-T2)."""
    return list(_FULL_DECK)


def shuffled_deck(rng: random.Random) -> list[Card]:
    """A pack shuffled by ``rng``: a ``secrets.SystemRandom`` at the table (R-T2),
    a seeded ``random.Random`` only where a seed was asked for."""
    deck = list(_FULL_DECK)
    rng.shuffle(deck)
    return deck


def deal_cards(rng: random.Random, count: int) -> list[Card]:
    """The first ``count`` cards of a pack shuffled by ``rng`` (R-T2): only the cards a
    hand can use are drawn (seven seats use at most 49, R-D6).

    The same cards as ``rng.sample(_FULL_DECK, count)``, drawn sooner: ``_draw`` makes
    ``sample``'s pool draws (six or more cards, a plain or system ``Random``) without a
    Python call for each, where this Python's ``sample`` draws so (checked at import).
    """
    if _SAME_DRAWS and 6 <= count <= 52 and type(rng) in _POOL_DRAWN:
        return _draw(rng, count)
    return rng.sample(_FULL_DECK, count)


_DRAWS = tuple((left, left.bit_length()) for left in range(52, 0, -1))
"""For each draw from the pool, the cards left in it and the bits ``getrandbits`` takes."""
_POOL_DRAWN = (random.Random, random.SystemRandom)


def _draw(rng: random.Random, count: int) -> list[Card]:
    """``rng.sample(_FULL_DECK, count)`` for 6 <= count <= 52: ``sample``'s pool method,
    with ``_randbelow_with_getrandbits`` written inline."""
    pool = list(_FULL_DECK)
    getrandbits = rng.getrandbits
    out: list[Card] = []
    append = out.append
    for left, bits in _DRAWS[:count]:
        j = getrandbits(bits)
        while j >= left:
            j = getrandbits(bits)
        append(pool[j])
        pool[j] = pool[left - 1]
    return out


_SAME_DRAWS = all(
    _draw(random.Random(seed), count) == random.Random(seed).sample(_FULL_DECK, count)
    for seed, count in ((0, 52), (1, 6), (2, 49))
)
"""Whether this Python's ``sample`` draws as ``_draw`` does (3.11 to 3.13 do)."""
