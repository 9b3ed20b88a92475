"""The evaluator's values are exactly what they were (R-S2): ``common.hands`` against
its frozen former self (``tests/hands_before.py``), on every rank count, every one-suit
hand, random hands, and the codes ``common.equity`` sums (``code_tables``).

A random million seven-card hands is behind the ``slow`` marker
(``pytest -m slow tests/test_hands_identity.py``)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest

from common import hands
from common.cards import Card, full_deck
from tests import hands_before as before

DECK = full_deck()


def _rank_counts(n: int) -> list[tuple[int, ...]]:
    return [
        ranks
        for ranks in combinations_with_replacement(range(13), n)
        if max(Counter(ranks).values()) <= 4
    ]


def _by_codes(cards: list[Card]) -> int:
    """The value as ``common.equity`` computes it, from summed codes."""
    code, flush_suit, hi_index, lo_index, slot, flush_value = hands.code_tables()
    codes = [code[c] for c in cards]
    s = sum(codes)
    suit = flush_suit[s & 0xFFF]
    if not suit:
        return slot[hi_index[s >> 29] + lo_index[s >> 12 & 0x1FFFF]]
    return flush_value[sum(c for c in codes if c & suit) >> 12]


@pytest.mark.parametrize("n", [5, 6, 7])
def test_every_rank_count_is_valued_as_before(n: int) -> None:
    """Every way to hold n cards without a flush, suits dealt round-robin: every value
    of every category and so every boundary between two categories."""
    for ranks in _rank_counts(n):
        cards = [DECK[13 * (i % 4) + r] for i, r in enumerate(ranks)]
        want = before.evaluate(cards)
        assert hands.evaluate(cards) == want, cards
        if n == 7:
            assert _by_codes(cards) == want, cards


@pytest.mark.parametrize("n", [5, 6, 7])
def test_every_one_suit_hand_is_valued_as_before(n: int) -> None:
    """Every flush and straight flush of n cards of one suit (each suit alike)."""
    for suit in range(4):
        for cards in combinations(DECK[13 * suit : 13 * suit + 13], n):
            hand = list(cards)
            want = before.evaluate(hand)
            assert hands.evaluate(hand) == want, hand
            if n == 7:
                assert _by_codes(hand) == want, hand


def _random_identity(count: int, seed: int) -> None:
    rng = random.Random(seed)
    new, old = hands.evaluate, before.evaluate
    for _ in range(count):
        cards = rng.sample(DECK, 7)
        assert new(cards) == old(cards), cards


def test_random_hands_are_valued_as_before() -> None:
    _random_identity(40_000, 1)
    rng = random.Random(2)
    for _ in range(20_000):
        cards = rng.sample(DECK, rng.choice((5, 6, 7)))
        assert hands.evaluate(cards) == before.evaluate(cards), cards
    for _ in range(5_000):
        cards = rng.sample(DECK, 7)
        assert _by_codes(cards) == before.evaluate(cards), cards


@pytest.mark.slow
def test_a_million_random_hands_are_valued_as_before() -> None:
    _random_identity(1_000_000, 20)


def _hands_of_every_kind(rng: random.Random) -> list[list[Card]]:
    """Random hands, hands with five or more of a suit, and hands of few ranks
    (pairs, trips, quads, straights)."""
    out = [rng.sample(DECK, rng.choice((5, 6, 7))) for _ in range(8_000)]
    for _ in range(3_000):
        n = rng.choice((5, 6, 7))
        suit = rng.randrange(4)
        suited = rng.sample(DECK[13 * suit : 13 * suit + 13], rng.randint(5, n))
        rest = [c for c in DECK if c not in suited]
        out.append(suited + rng.sample(rest, n - len(suited)))
    for _ in range(3_000):
        low = rng.randrange(-1, 9)  # -1: the ace plays low
        window = [c for c in DECK if (c.rank - low) % 13 < 6]
        out.append(rng.sample(window, rng.choice((5, 6, 7))))
    return out


def test_best_five_and_names_as_before() -> None:
    rng = random.Random(3)
    for cards in _hands_of_every_kind(rng):
        rng.shuffle(cards)
        new, old = hands.rank_hand(cards), before.rank_hand(cards)
        assert (new.value, int(new.category), new.best, new.name) == (
            old.value,
            int(old.category),
            old.best,
            old.name,
        ), cards


@pytest.mark.parametrize("count", [0, 1, 4, 8, 9, 12, 13])
def test_a_wrong_count_is_refused_as_before(count: int) -> None:
    """Not five to seven cards: ValueError, whatever the suits (12 and 13 cards hold
    eight of one suit, which overflows the suit counts)."""
    cards = DECK[:count] if count < 12 else DECK[: count - 4] + DECK[13:17]
    with pytest.raises(ValueError, match="5 to 7"):
        hands.evaluate(cards)
    with pytest.raises(ValueError, match="5 to 7"):
        before.evaluate(cards)


_TABLES = (
    "_FLUSH_SUIT",
    "_CHECKED_SUIT",
    "_RANK_VALUE",
    "_FLUSH_VALUE",
    "_HI_INDEX",
    "_LO_INDEX",
    "_SLOT_VALUE",
    "_FLUSH_BY_CODE",
)


def _by_evaluator_tables(cards: list[Card]) -> int:
    """The value as ``evaluator_tables`` documents it."""
    flush_suit, rank_value, flush_value = hands.evaluator_tables()
    s = sum(cards)
    suit = flush_suit[s & 0xFFF]
    if not suit:
        return rank_value[s >> 12]
    return flush_value[sum(c for c in cards if c & suit) >> 12]


_FIRST_READS = {
    "seven cards": lambda cards: hands.evaluate(cards),
    "a seven-card flush": lambda cards: hands.evaluate(
        [c for c in DECK if c.suit == 0][:5] + cards[:2]
    ),
    "five cards": lambda cards: hands.evaluate(cards[:5]),
    "six cards": lambda cards: hands.evaluate(cards[:6]),
    "best five": lambda cards: hands.best_five(cards),
    "code tables": lambda cards: _by_codes(cards),
    "evaluator tables": lambda cards: _by_evaluator_tables(cards),
}


@pytest.mark.parametrize("first", list(_FIRST_READS))
def test_the_tables_are_built_on_first_use_whatever_reads_first(
    first: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Import leaves the tables unbuilt; whichever entry point reads first builds them
    all, and it and every later read get the old evaluator's values."""
    monkeypatch.setattr(hands, "_BUILT", False)
    for name in _TABLES:
        monkeypatch.setattr(hands, name, hands._Unbuilt(name))
    cards = random.Random(first).sample(DECK, 7)
    got = _FIRST_READS[first](cards)
    assert hands._BUILT
    assert not any(isinstance(getattr(hands, name), hands._Unbuilt) for name in _TABLES)
    want = {
        "seven cards": lambda: before.evaluate(cards),
        "a seven-card flush": lambda: before.evaluate(
            [c for c in DECK if c.suit == 0][:5] + cards[:2]
        ),
        "five cards": lambda: before.evaluate(cards[:5]),
        "six cards": lambda: before.evaluate(cards[:6]),
        "best five": lambda: before.best_five(cards),
        "code tables": lambda: before.evaluate(cards),
        "evaluator tables": lambda: before.evaluate(cards),
    }[first]()
    assert got == want
    assert hands.evaluate(cards) == before.evaluate(cards)
