"""The evaluator's values are the best of every five (R-S2): ``common.hands`` against a
brute-force oracle (``tests/brute_hands.py``: each five-card subset valued plainly), on
every rank count, every one-suit hand, random hands of 5, 6 and 7 cards, and the
plain-int partial sums ``common.equity`` keeps (``evaluator_tables``); and the card keys
the evaluator sums are what it needs.

A random million seven-card hands is behind the ``slow`` marker
(``pytest -m slow tests/test_hands_identity.py``)."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest

from common import hands
from common.cards import RANK_KEYS, SUIT_BITS, SUIT_KEYS, Card, full_deck, parse_many
from tests import brute_hands as oracle

DECK = full_deck()


def _rank_counts(n: int) -> list[tuple[int, ...]]:
    return [
        ranks
        for ranks in combinations_with_replacement(range(13), n)
        if max(Counter(ranks).values()) <= 4
    ]


def _looked_up(s: int, cards: list[int]) -> int:
    """The value of seven cards summing to ``s``, as ``evaluator_tables`` documents it."""
    flush_suit, rank_value, flush_value = hands.evaluator_tables()
    bits = flush_suit[s & 0xFF]
    if bits is None:
        return rank_value[s >> 8]
    flushed = 0
    for c in cards:
        flushed |= bits[c]
    return flush_value[flushed]


def _by_codes(cards: list[Card]) -> int:
    """The value as ``common.equity`` computes it (``evaluator_tables``): three known
    cards summed once as plain ints, the others added to that sum."""
    codes = [int(c) for c in cards]
    known = codes[0] + codes[1] + codes[2]
    return _looked_up(known + sum(codes[3:]), codes)


def test_card_keys_name_every_way_to_hold_the_cards() -> None:
    """The sums ``evaluate`` reads: each way to hold exactly n cards (1 to 7, at most
    four of a rank) has its own rank key, each way to spread 5-7 cards over the suits
    whose suit keys sum alike has the same flush suit (or none); every card is below
    2**30 and the cards' ints order them by rank, then suit (R-O1)."""
    for n in range(1, 8):
        keys = [sum(RANK_KEYS[r] for r in ranks) for ranks in _rank_counts(n)]
        assert len(set(keys)) == len(keys), n
    for n in (5, 6, 7):
        flush_of: dict[int, int] = {}
        for suits in combinations_with_replacement(range(4), n):
            fives = [s for s in range(4) if suits.count(s) >= 5]
            key = sum(SUIT_KEYS[s] for s in suits)
            assert key < 1 << SUIT_BITS
            assert flush_of.setdefault(key, fives[0] if fives else -1) == (
                fives[0] if fives else -1
            ), suits
    by_rank = sorted(DECK, key=lambda c: (c.rank, c.suit))
    assert sorted(DECK) == by_rank
    assert int(by_rank[-1]) < 1 << 30
    assert all(int(c) == RANK_KEYS[c.rank] << SUIT_BITS | SUIT_KEYS[c.suit] for c in DECK)
    assert all(DECK), "a card that is the int 0 would be falsy"


@pytest.mark.parametrize("n", [5, 6, 7])
def test_every_rank_count_is_valued_as_the_oracle(n: int) -> None:
    """Every way to hold n cards without a flush, suits dealt round-robin: every value
    of every category and so every boundary between two categories."""
    for ranks in _rank_counts(n):
        cards = [DECK[13 * (i % 4) + r] for i, r in enumerate(ranks)]
        want = oracle.value(cards)
        assert hands.evaluate(cards) == want, cards
        if n == 7:
            assert _by_codes(cards) == want, cards


@pytest.mark.parametrize("n", [5, 6, 7])
def test_every_one_suit_hand_is_valued_as_the_oracle(n: int) -> None:
    """Every flush and straight flush of n cards of one suit (each suit alike)."""
    for suit in range(4):
        for cards in combinations(DECK[13 * suit : 13 * suit + 13], n):
            hand = list(cards)
            want = oracle.value(hand)
            assert hands.evaluate(hand) == want, hand
            if n == 7:
                assert _by_codes(hand) == want, hand


@pytest.mark.parametrize("n", [5, 6, 7])
def test_random_hands_of_each_size_are_valued_as_the_oracle(n: int) -> None:
    rng = random.Random(n)
    for _ in range(4_000):
        cards = rng.sample(DECK, n)
        want = oracle.value(cards)
        assert hands.evaluate(cards) == want, cards
        assert hands.evaluate(tuple(cards)) == want, cards
        if n == 7:
            assert _by_codes(cards) == want, cards


@pytest.mark.slow
def test_a_million_random_hands_are_valued_as_the_oracle() -> None:
    rng = random.Random(20)
    for _ in range(1_000_000):
        cards = rng.sample(DECK, 7)
        assert hands.evaluate(cards) == oracle.value(cards), cards


def _hands_of_every_kind(rng: random.Random) -> list[list[Card]]:
    """Random hands, hands with five or more of a suit, hands of few ranks (pairs, trips,
    quads, straights) and a few whose best five is easy to get wrong."""
    out = [
        parse_many(text)
        for text in (
            "Ah 2c 3d 4s 5h Kd Kc",  # wheel
            "Ah 2h 3h 4h 5h 6h Kd",  # straight flush over a wheel
            "9s 9h 9d 4c 4d 4h Ks",  # two trips
            "7c 7d 7h 7s 2c 2d 2h",  # quads beside trips
            "Jc Jd 4h 4s 9c 9d Ah",  # three pairs
            "Tc Jc Qc Kc Ac 9c 8c",  # royal flush
            "2c 3c 4c 5c 7c 9d Jh",  # flush
        )
    ]
    out += [rng.sample(DECK, rng.choice((5, 6, 7))) for _ in range(3_000)]
    for _ in range(1_500):
        n = rng.choice((5, 6, 7))
        suit = rng.randrange(4)
        suited = rng.sample(DECK[13 * suit : 13 * suit + 13], rng.randint(5, n))
        rest = [c for c in DECK if c not in suited]
        out.append(suited + rng.sample(rest, n - len(suited)))
    for _ in range(1_500):
        low = rng.randrange(-1, 9)  # -1: the ace plays low
        window = [c for c in DECK if (c.rank - low) % 13 < 6]
        out.append(rng.sample(window, rng.choice((5, 6, 7))))
    return out


def test_best_five_and_category_as_the_oracle() -> None:
    """What the showdown shows (R-S1): ``rank_hand``'s best five (``best_five_of`` the
    value, as the engine's ``Show``) is the oracle's, cards and order."""
    rng = random.Random(3)
    for cards in _hands_of_every_kind(rng):
        rng.shuffle(cards)
        got, value = hands.rank_hand(cards), oracle.value(cards)
        want = (value, hands.Category(value >> 20), tuple(oracle.best_five(cards)))
        assert (got.value, got.category, got.best) == want, cards
        assert got.name == hands.hand_name(value)


@pytest.mark.parametrize(
    "codes",
    ["", "2c", "Ac Kd Qh Js", "Ac Kd Qh Js Tc 9c 8c 7c"]
    + [" ".join(map(str, DECK[:n])) for n in (8, 9)]
    + [" ".join(map(str, DECK[: n - 4] + DECK[13:17])) for n in (12, 13)],
    ids=["0", "1", "4", "8", "8-of-a-suit", "9", "12", "13"],
)
def test_a_wrong_count_is_refused(codes: str) -> None:
    """Not five to seven cards: ValueError from ``evaluate`` and ``best_five``, whatever
    the suits (12 and 13 cards hold eight of one suit, which overflows the suit counts)."""
    cards = parse_many(codes)
    with pytest.raises(ValueError, match="5 to 7"):
        hands.evaluate(cards)
    with pytest.raises(ValueError, match="5 to 7"):
        hands.best_five(cards)


def _flush_with(cards: list[Card]) -> list[Card]:
    return [c for c in DECK if c.suit == 0][:5] + cards[:2]


_FIRST_READS = {  # each entry point that may read the tables first, and the oracle's answer
    "seven cards": (hands.evaluate, oracle.value),
    "a seven-card flush": (
        lambda cards: hands.evaluate(_flush_with(cards)),
        lambda cards: oracle.value(_flush_with(cards)),
    ),
    "five cards": (lambda cards: hands.evaluate(cards[:5]), lambda cards: oracle.value(cards[:5])),
    "six cards": (lambda cards: hands.evaluate(cards[:6]), lambda cards: oracle.value(cards[:6])),
    "best five": (hands.best_five, oracle.best_five),
    "partial sums": (_by_codes, oracle.value),
    # the value as ``evaluator_tables`` documents it, on the ``Card``s themselves
    "evaluator tables": (lambda cards: _looked_up(sum(cards), cards), oracle.value),
}


def test_importing_builds_no_table() -> None:
    code = "import common.hands as h; print(h._tables.cache_info().currsize)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"


@pytest.mark.parametrize("first", list(_FIRST_READS))
def test_the_tables_are_built_on_first_use_whatever_reads_first(first: str) -> None:
    """Whichever entry point reads first builds the tables, and it and every later read
    get the oracle's values."""
    hands._tables.cache_clear()
    cards = random.Random(first).sample(DECK, 7)
    read, want = _FIRST_READS[first]
    got = read(cards)
    assert hands._tables.cache_info().currsize == 1
    assert got == want(cards)
    assert hands.evaluate(cards) == oracle.value(cards)
