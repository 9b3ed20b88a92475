"""Hand ranking (R-S2), bring-in (R-O1) and showing hands (R-O2); every hand valued as
a brute-force oracle is in ``tests/test_hands_identity.py``."""

from __future__ import annotations

import dataclasses
import math
import random
from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common.cards import Card, full_deck, parse_many
from common.hands import (
    Category,
    HandRank,
    best_five,
    bring_in_key,
    category_of,
    evaluate,
    hand_name,
    lowest_card,
    rank_hand,
    showing_name,
    showing_value,
)
from tests import brute_hands as oracle

DECK = full_deck()


def ev(codes: str) -> int:
    return evaluate(parse_many(codes))


# --- R-S2: the order of hands -------------------------------------------------

BEATS = [
    pytest.param("7h 8h 9h Th Jh", "Ac Ad Ah As Kc", id="straight flush beats four of a kind"),
    pytest.param("Ah 2h 3h 4h 5h", "Ac Ad Ah As Kc", id="steel wheel beats four of a kind"),
    pytest.param("2c 2d 2h 2s 3c", "Ac Ad Ah Kc Ks", id="four of a kind beats full house"),
    pytest.param("2c 2d 2h 3s 3c", "Ah Kh Qh Jh 9h", id="full house beats flush"),
    pytest.param("2h 3h 4h 5h 7h", "Tc Jd Qh Ks Ac", id="flush beats straight"),
    pytest.param("Ac 2d 3h 4s 5c", "Ac Ad Ah Kc Qs", id="wheel beats three of a kind"),
    pytest.param("2c 2d 2h 3s 4c", "Ac Ad Kh Ks Qc", id="three of a kind beats two pair"),
    pytest.param("2c 2d 3h 3s 4c", "Ac Ad Kh Qs Jc", id="two pair beats one pair"),
    pytest.param("2c 2d 3h 4s 5c", "Ac Kd Qh Js 9c", id="one pair beats high card"),
    pytest.param("8c 9c Tc Jc Qc", "Ac 2c 3c 4c 5c", id="steel wheel is the lowest straight flush"),
    pytest.param("Tc Jc Qc Kc Ac", "9d Tc Jc Qc Kc", id="royal flush beats king high"),
    pytest.param("2c 3d 4h 5s 6c", "Ac 2d 3h 4s 5c", id="wheel is the lowest straight"),
    pytest.param("Tc Jd Qh Ks Ac", "9c Td Jh Qs Kc", id="ace high straight is the highest"),
    pytest.param("2c 2d 3h 4s 5c", "Qc Kd Ah 2s 3c", id="no wrap-around straight"),
    pytest.param("9c 9d 9h 9s Ac", "9c 9d 9h 9s Kc", id="four of a kind kicker"),
    pytest.param("Tc Td Th 2s 2c", "9c 9d 9h As Ac", id="full house trips rank first"),
    pytest.param("Tc Td Th 3s 3c", "Tc Td Th 2s 2c", id="full house then pair rank"),
    pytest.param("Ah Kh Qh Jh 9h", "Ah Kh Qh Jh 8h", id="flush fifth card"),
    pytest.param("Ah 7h 6h 5h 3h", "Kh Qh Jh Th 8h", id="flush high card first"),
    pytest.param("7c 7d 7h As 2c", "7c 7d 7h Ks Qc", id="three of a kind first kicker"),
    pytest.param("7c 7d 7h As 3c", "7c 7d 7h As 2c", id="three of a kind second kicker"),
    pytest.param("Ac Ad 2h 2s 3c", "Kc Kd Qh Qs Jc", id="two pair higher pair first"),
    pytest.param("Ac Ad 3h 3s 2c", "Ac Ad 2h 2s Kc", id="two pair then lower pair"),
    pytest.param("Jc Jd 4h 4s 3c", "Jc Jd 4h 4s 2c", id="two pair kicker"),
    pytest.param("Kc Kd 8h 2s 7c", "Qc Qd Ah Js 7d", id="one pair higher pair first"),
    pytest.param("Ac Ad Kh 3s 2c", "Ac Ad Qh Js Tc", id="one pair first kicker"),
    pytest.param("Ac Ad Kh Qs 3c", "Ac Ad Kh Qs 2c", id="one pair third kicker"),
    pytest.param("Ac Kd Qh Js 9c", "Ac Kd Qh Js 8c", id="high card fifth card"),
    pytest.param("Ac 3d 4h 5s 7c", "Kc Qd Jh Ts 8c", id="high card first card"),
    # Seven cards: the best five play, kickers included.
    pytest.param("Ac Ad Kh Qs Jc 3d 2h", "Ac Ad Kh Qs Tc 9d 8h", id="seven cards fifth card plays"),
    pytest.param("5h 6h 7h 8h 9h Th 2c", "Ah Kh Qh Jh 9h 8s 8c", id="seven cards hidden higher SF"),
    pytest.param("Kc Kd 9h 9s 4c 4d Ah", "Kc Kd 9h 9s 4c 4d Qh", id="three pairs: a single kicks"),
    pytest.param("Kc Kd 9h 9s 5c 5d 2h", "Kc Kd 9h 9s 4c 4d 3h", id="three pairs: the third kicks"),
]


@pytest.mark.parametrize(("better", "worse"), BEATS)
def test_R_S2_better_hand_wins(better: str, worse: str) -> None:
    assert ev(better) > ev(worse)


TIES = [
    pytest.param("Ah Kh Qh Jh 9h", "As Ks Qs Js 9s", id="suits never rank: flushes"),
    pytest.param("Ac Ad Kh Qs Jc", "Ah As Kc Qd Jh", id="suits never rank: pairs"),
    pytest.param("Tc Jd Qh Ks As", "Th Jh Qs Kc Ad", id="suits never rank: straights"),
    pytest.param("5h 4h 3h 2h Ah", "5s 4s 3s 2s As", id="suits never rank: steel wheels"),
    pytest.param("Ac Ad Kh Qs Jc 3d 2h", "Ah As Kc Qd Jh 4c 3c", id="cards outside the best five"),
    pytest.param("Ac Ad Ah As Kc Qd Jh", "Ac Ad Ah As Kd 2c 3h", id="quads with one kicker only"),
    pytest.param("Ah Kh Qh Jh 9h 2h", "Ah Kh Qh Jh 9h 3h", id="six suited cards best five"),
    pytest.param("Ac Ad Ah Ks Kc Qd Qh", "Ac Ad Ah Ks Kc Qd Jh", id="full house ignores the rest"),
    pytest.param("6c 7d 8h 9s Tc Jd", "7c 8d 9h Ts Jc 2d", id="six cards two straights"),
]


@pytest.mark.parametrize(("one", "other"), TIES)
def test_R_S2_equal_hands_are_equal(one: str, other: str) -> None:
    assert ev(one) == ev(other)


NAMES = [
    ("9h Th Jh Qh 8h", Category.STRAIGHT_FLUSH, "straight flush, queen high"),
    ("Ts Js Qs Ks As", Category.STRAIGHT_FLUSH, "royal flush"),
    ("Ad 2d 3d 4d 5d", Category.STRAIGHT_FLUSH, "straight flush, five high"),
    ("9c 9d 9h 9s 2c", Category.FOUR_OF_A_KIND, "four of a kind, nines"),
    ("Kc Kd Kh 5s 5c", Category.FULL_HOUSE, "full house, kings full of fives"),
    ("Ac 9c 7c 4c 2c", Category.FLUSH, "flush, ace high"),
    ("6c 7d 8h 9s Tc", Category.STRAIGHT, "straight, ten high"),
    ("Ac 2d 3h 4s 5c", Category.STRAIGHT, "straight, five high"),
    ("7c 7d 7h Ks 2c", Category.THREE_OF_A_KIND, "three of a kind, sevens"),
    ("Jc Jd 4h 4s Ac", Category.TWO_PAIR, "two pair, jacks and fours"),
    ("Ac Ad 9h 4s 2c", Category.ONE_PAIR, "one pair, aces"),
    ("2c 2d 9h 4s Ac", Category.ONE_PAIR, "one pair, twos"),
    ("6c 6d 9h 4s Ac", Category.ONE_PAIR, "one pair, sixes"),
    ("Kc 9d 7h 4s 2c", Category.HIGH_CARD, "high card, king"),
    ("Ac Ad Ah 6s 6c 6d 2h", Category.FULL_HOUSE, "full house, aces full of sixes"),
]


@pytest.mark.parametrize(("codes", "category", "name"), NAMES)
def test_R_S2_category_and_name(codes: str, category: Category, name: str) -> None:
    hand = rank_hand(parse_many(codes))
    assert hand.category is category is category_of(hand.value)
    assert hand.name == name == hand_name(hand.value)


VALUES = [
    pytest.param("Kc Kd Kh 5s 5c", 0x6B3000, id="full house: trips then pair"),
    pytest.param("Jc Jd 4h 4s Ac", 0x29_2C00, id="two pair: high, low, kicker"),
    pytest.param("Ac 2d 3h 4s 5c", 0x430000, id="wheel: five high"),
    pytest.param("Ac Ad 9h 4s 2c", 0x1C_7200, id="one pair: pair then kickers"),
    pytest.param("Kc 9d 7h 4s 2c", 0x0B_7520, id="high card: five ranks"),
]


@pytest.mark.parametrize(("codes", "value"), VALUES)
def test_value_encoding(codes: str, value: int) -> None:
    """category * 16**5 + five rank nibbles, most significant first."""
    assert ev(codes) == value


BEST = [
    pytest.param("2c 9d 9h Ks 4c 9s 3h", "9s 9h 9d Ks 4c", id="trips then kickers"),
    pytest.param("Ah 2c 3d 4s 5h Kc Kd", "5h 4s 3d 2c Ah", id="wheel reads 5-4-3-2-A"),
    pytest.param("5c 5d Kh Ks Kc 2d 2h", "Ks Kh Kc 5d 5c", id="full house trips first"),
    pytest.param("Jc Jd 4h 4s Ac Qd 2c", "Jd Jc 4s 4h Ac", id="two pair high pair first"),
    pytest.param("Ah Kh 2h 7h 9h 3h Kd", "Ah Kh 9h 7h 3h", id="flush high to low"),
    pytest.param("9c Tc Jc Qc Kc Ac 8c", "Ac Kc Qc Jc Tc", id="royal flush"),
    pytest.param("8d 9h 6c 7s Ts Jd 2c", "Jd Ts 9h 8d 7s", id="highest straight"),
]


@pytest.mark.parametrize(("codes", "best"), BEST)
def test_R_S1_best_five(codes: str, best: str) -> None:
    assert best_five(parse_many(codes)) == parse_many(best)


def test_best_five_does_not_depend_on_card_order() -> None:
    cards = parse_many("Kc Kd 9h 9s 4c 4d Qh")  # which four? either: choose one way
    rng = random.Random(3)
    chosen = best_five(cards)
    for _ in range(20):
        rng.shuffle(cards)
        assert best_five(cards) == chosen


def test_rank_hand_is_a_frozen_value() -> None:
    hand = rank_hand(parse_many("Jc Jd 4h 4s Ac Qd 2c"))
    assert hand == HandRank(
        value=ev("Jc Jd 4h 4s Ac"),
        category=Category.TWO_PAIR,
        best=tuple(parse_many("Jd Jc 4s 4h Ac")),
        name="two pair, jacks and fours",
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        hand.value = 0  # type: ignore[misc]
    assert not hasattr(hand, "__dict__")


# --- R-S2: every hand --------------------------------------------------------


def test_every_five_card_hand() -> None:
    """All 2,598,960 hands: the known count of each category and 7,462 distinct values.
    A hand's value depends only on its ranks and whether it is one suit (``test_properties``),
    so each set of ranks is valued once unsuited (suits dealt round-robin) and, for five
    different ranks, once suited, and counted as often as suits can be dealt to it."""
    categories: Counter[Category] = Counter()
    values = set()
    for ranks in combinations_with_replacement(range(13), 5):
        counts = Counter(ranks).values()
        if max(counts) > 4:
            continue
        ways = math.prod(math.comb(4, n) for n in counts)
        unsuited = evaluate([DECK[13 * (i % 4) + r] for i, r in enumerate(ranks)])
        values.add(unsuited)
        if len(counts) == 5:
            suited = evaluate([DECK[r] for r in ranks])
            values.add(suited)
            categories[category_of(suited)] += 4
            ways -= 4
        categories[category_of(unsuited)] += ways
    assert categories == {
        Category.STRAIGHT_FLUSH: 40,
        Category.FOUR_OF_A_KIND: 624,
        Category.FULL_HOUSE: 3744,
        Category.FLUSH: 5108,
        Category.STRAIGHT: 10200,
        Category.THREE_OF_A_KIND: 54912,
        Category.TWO_PAIR: 123552,
        Category.ONE_PAIR: 1098240,
        Category.HIGH_CARD: 1302540,
    }
    assert len(values) == 7462


def test_seven_cards_with_a_flush_hold_no_full_house_or_quads() -> None:
    """Why the flush path can ignore rank counts: a flush needs five ranks, and
    no 7-card rank multiset with five ranks makes a full house or quads."""
    for ranks in combinations_with_replacement(range(13), 7):
        counts = sorted(Counter(ranks).values(), reverse=True)
        if len(counts) >= 5:
            assert counts[0] < 3 or (counts[0] == 3 and counts[1] < 2)


# Each hand valued as the brute-force oracle: tests/test_hands_identity.py.
_hands = st.integers(5, 7).flatmap(
    lambda n: st.lists(st.sampled_from(DECK), min_size=n, max_size=n, unique=True)
)


@given(_hands, st.permutations(range(4)), st.randoms(use_true_random=False))
def test_properties(cards: list[Card], suits: list[int], rng: random.Random) -> None:
    """R-S2 as properties: the best five play, suits never rank, order never matters."""
    value = evaluate(cards)
    assert value == oracle.value(cards)
    assert value == max(evaluate(five) for five in combinations(cards, 5))
    renamed = [DECK[13 * suits[c.suit] + c.rank] for c in cards]
    assert evaluate(renamed) == value
    shuffled = rng.sample(cards, len(cards))
    assert evaluate(shuffled) == value
    best = best_five(shuffled)
    assert set(best) <= set(cards) and len(set(best)) == 5
    assert evaluate(best) == value
    assert best == best_five(cards)


# --- R-O1: the bring-in -------------------------------------------------------

LOWER = [
    pytest.param("2c", "2d", id="clubs below diamonds"),
    pytest.param("2d", "2h", id="diamonds below hearts"),
    pytest.param("2h", "2s", id="hearts below spades"),
    pytest.param("2s", "3c", id="rank before suit"),
    pytest.param("Ks", "Ac", id="ace is high"),
    pytest.param("9c", "Tc", id="nine below ten"),
]


@pytest.mark.parametrize(("lower", "higher"), LOWER)
def test_R_O1_bring_in_order(lower: str, higher: str) -> None:
    assert bring_in_key(Card(lower)) < bring_in_key(Card(higher))


LOWEST = [
    pytest.param("Ks 2c 9d", "2c", id="two of clubs lowest"),
    pytest.param("4s 4c 4h", "4c", id="equal ranks: clubs"),
    pytest.param("7h 7d Ac", "7d", id="equal ranks: diamonds before hearts"),
    pytest.param("Ah Kc Qd Js Th 9c 8d", "8d", id="seven seats"),
]


@pytest.mark.parametrize(("codes", "lowest"), LOWEST)
def test_R_O1_lowest_card(codes: str, lowest: str) -> None:
    assert lowest_card(parse_many(codes)) is Card(lowest)


def test_R_O1_two_of_clubs_is_the_lowest_card() -> None:
    assert lowest_card(DECK) is Card("2c")
    assert sorted(DECK, key=bring_in_key)[0] is Card("2c")
    assert len({bring_in_key(c) for c in DECK}) == 52


def test_lowest_card_of_nothing() -> None:
    with pytest.raises(ValueError):
        lowest_card([])


# --- R-O2: showing hands ------------------------------------------------------

SHOWING = [
    pytest.param("3c 3d 3h", "7c 7d 8h", id="example: 3-3-3 beats 7-7-8"),
    pytest.param("7c 7d 8h", "Ac Kd Qh", id="example: 7-7-8 beats A-K-Q"),
    pytest.param("2c 2d 2h 2s", "Ac Ad Ah Ks", id="four of a kind beats three"),
    pytest.param("2c 2d 2h 3s", "Ac Ad Kh Ks", id="three of a kind beats two pair"),
    pytest.param("2c 2d 3h 3s", "Ac Ad Kh Qs", id="two pair beats one pair"),
    pytest.param("2c 2d", "Ac Kd", id="one pair beats high cards"),
    pytest.param("2c 2d 3h 4s", "5h 6h 7h 8h", id="straight flush showing is high cards"),
    pytest.param("9c 2d", "8h 7h", id="high cards from the top"),
    pytest.param("Kc Kd 2h 2s", "Qc Qd Jh Js", id="two pair: higher pair first"),
    pytest.param("Kc Kd 3h 3s", "Kh Ks 2c 2d", id="two pair: then the lower pair"),
    pytest.param("8c 8d Ah", "8h 8s Kc", id="one pair: then the others"),
    pytest.param("8c 8d Ah 3c", "8h 8s Ac 2s", id="one pair: down to the last card"),
    pytest.param("Tc Td Th 4c", "9c 9d 9h As", id="three of a kind: the rank first"),
    pytest.param("Ac 5d 4h", "Kc Qd Jh", id="high cards: highest first"),
    pytest.param("Ac Qd 3h 2s", "As Jd Th 9s", id="high cards: then the next"),
    pytest.param("Ks 7c", "Kh 7s", id="equal ranks: suit of the highest card"),
    pytest.param("As Ac", "Ah Ad", id="equal pairs: the higher suit of the two"),
    pytest.param("7c 7d Ah", "7h 7s Ac", id="equal ranks: highest card may be a kicker"),
    pytest.param("Qs Qc 5c 5d", "Qh Qd 5h 5s", id="equal two pair: suit of the highest"),
    pytest.param("9s", "9h", id="one card each"),
]


@pytest.mark.parametrize(("better", "worse"), SHOWING)
def test_R_O2_showing_hand_acts_first(better: str, worse: str) -> None:
    assert showing_value(parse_many(better)) > showing_value(parse_many(worse))


SHOWING_NAMES = [
    pytest.param("9c 9d 9h 9s", "four of a kind, nines", id="four of a kind"),
    pytest.param("7c 7d 7h Ks", "three of a kind, sevens", id="three of a kind"),
    pytest.param("Jc 4d Jh 4s", "two pair, jacks and fours", id="two pair"),
    pytest.param("8c 8d Ah", "one pair, eights", id="one pair"),
    pytest.param("Kh Qh Jh Th", "high card, king", id="a straight flush showing"),
]


@pytest.mark.parametrize(("codes", "name"), SHOWING_NAMES)
def test_R_O2_showing_name(codes: str, name: str) -> None:
    assert showing_name(parse_many(codes)) == name


@pytest.mark.parametrize("codes", ["", "Ac Kc Qc Jc Tc"], ids=["no cards", "five cards"])
def test_showing_wants_one_to_four_cards(codes: str) -> None:
    with pytest.raises(ValueError, match="1 to 4"):
        showing_value(parse_many(codes))


def _showing_reference(up: list[Card]) -> tuple[int, list[int], int]:
    """R-O2 read literally: kind, ranks that make it then the rest high to low,
    then the suit of the highest card (highest rank, then highest suit)."""
    counts = Counter(int(c.rank) for c in up)
    shape = sorted(counts.values(), reverse=True)
    kind = {4: 4, 3: 3}.get(shape[0], 2 if shape[:2] == [2, 2] else shape[0] - 1)
    ranks = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    highest = max(up, key=lambda c: (c.rank, c.suit))
    return kind, ranks, int(highest.suit)


@given(
    st.integers(1, 4).flatmap(
        lambda n: st.lists(st.sampled_from(DECK), min_size=2 * n, max_size=2 * n, unique=True)
    )
)
def test_showing_order_matches_the_rule_and_never_ties(cards: list[Card]) -> None:
    """Two seats' up cards (disjoint, same number) never tie, and the order is R-O2's."""
    n = len(cards) // 2
    one, other = cards[:n], cards[n:]
    assert showing_value(one) != showing_value(other)
    ours = showing_value(one) > showing_value(other)
    assert ours == (_showing_reference(one) > _showing_reference(other))
