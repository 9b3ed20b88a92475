"""The one equity engine (common.equity): counted shares equal a brute-force count,
sampled ones fall within their stated error, and bad spots are refused.

A share is the pot a seat takes at showdown, the best hand winning (R-S1, R-S2)
and equal hands splitting it evenly (R-S3), averaged over the cards to come."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

import pytest

from common.cards import Card, full_deck, parse_many
from common.equity import (
    Estimate,
    all_equities,
    deal_count,
    equity,
    exact_share,
    exact_shares,
    sample_share,
)
from common.hands import evaluate


def brute_force(hands: Sequence[Sequence[Card]], dead: Sequence[Card]) -> list[Fraction]:
    """Every way to give each seat its missing cards, compared with ``evaluate``."""
    seen = {c for h in hands for c in h} | set(dead)
    unseen = [c for c in full_deck() if c not in seen]
    totals = [Fraction(0)] * len(hands)
    deals = 0

    def deal(i: int, pool: list[Card], done: list[list[Card]]) -> None:
        nonlocal deals
        if i == len(hands):
            values = [evaluate(h) for h in done]
            best = max(values)
            winners = [s for s, v in enumerate(values) if v == best]
            for s in winners:
                totals[s] += Fraction(1, len(winners))  # R-S3: equal hands split
            deals += 1
            return
        for extra in combinations(pool, 7 - len(hands[i])):
            rest = [c for c in pool if c not in extra]
            deal(i + 1, rest, [*done, [*hands[i], *extra]])

    deal(0, unseen, [])
    return [t / deals for t in totals]


def cards(text: str) -> list[Card]:
    return parse_many(text)


# Twenty cards out of play, so that brute force stays quick.
DEAD = cards("2c 2d 3c 3d 4c 4d 5c 6d 7c 8d 9c Td Jc Qd Kc 2h 3h 4h 5h 6h")


def test_seventh_street_heads_up_counts_exactly() -> None:
    """Seventh street: the rival's three hidden cards, every way they can lie."""
    mine = cards("As Ks Qs Js 8h 8s 9d")  # R-S2: a spade flush
    rival = cards("Ah Ad 7s 7d")  # two pair showing, full house possible
    assert exact_share(mine, [rival], []) == brute_force([mine, rival], [])[0]
    assert exact_share(mine, [rival], DEAD) == brute_force([mine, rival], DEAD)[0]
    e = equity(mine, [rival], DEAD, random.Random(0))
    assert e.exact and e.stderr == 0 and e.half_width == 0
    assert e.share == float(brute_force([mine, rival], DEAD)[0])


def test_sixth_street_heads_up_counts_exactly() -> None:
    mine = cards("Ts 9s 8h 7s 6c Ac")  # open-ended straight draw
    rival = cards("Kh Kd 9h 8c")  # a pair of kings up
    want = brute_force([mine, rival], DEAD)
    assert exact_shares([mine, rival], DEAD) == [want[0], want[1]]
    e = equity(mine, [rival], DEAD, random.Random(0))
    assert e.exact and e.deals == deal_count([mine, rival], DEAD)
    assert e.share == float(want[0])


def test_three_way_seventh_street_with_ties_counts_exactly() -> None:
    """Board-like hands that often tie: shares are split evenly (R-S3)."""
    a = cards("Ac Ad Kh Ks Qc Qd 7s")
    b = cards("Ah As Kd Jh 5d 6s")  # all known but its last card
    c = cards("Kc 9d 9h 9s")
    dead = DEAD[:12]
    want = brute_force([a, b, c], dead)
    assert exact_shares([a, b, c], dead) == want
    assert sum(want) == 1


def test_all_cards_known_matches_counting() -> None:
    """The analysis: every hole card known, each seat's chance at once."""
    a = cards("Ah Ad Kc Ks 7h 2c")
    b = cards("Qc Jd 9s 9d 2d 3h")
    c = cards("Tc Th 5s 5d 8c 8h")
    got = all_equities([a, b, c], [], random.Random(1))
    want = brute_force([a, b, c], [])
    assert all(e.exact for e in got)
    assert [e.share for e in got] == [float(w) for w in want]
    # one seat against the others' full hands is the same number
    assert equity(b, [a, c], [], random.Random(1)).share == float(want[1])
    # seventh street, everything known: one deal, the winner takes it all (R-S1)
    full = [a + cards("3c"), b + cards("4s"), c + cards("6h")]
    assert [e.share for e in all_equities(full, [], random.Random(1))] == [
        float(w) for w in brute_force(full, [])
    ]


def test_sampling_falls_within_its_stated_error() -> None:
    """Sampled (budget 0) against the counted answer; a fixed seed: it cannot flake."""
    mine = cards("Ts 9s 8h 7s 6c Ac")
    rival = cards("Kh Kd 9h 8c")
    exact = float(exact_share(mine, [rival], DEAD))
    e = equity(mine, [rival], DEAD, random.Random(7), budget=0)
    assert not e.exact and e.half_width <= 0.01
    assert abs(e.share - exact) <= e.half_width
    # a looser target stops sooner, and still states its error honestly
    loose = equity(mine, [rival], DEAD, random.Random(7), budget=0, target=0.03)
    assert loose.deals < e.deals and abs(loose.share - exact) <= loose.half_width


def test_all_equities_sampled_within_error() -> None:
    a = cards("Ah Ad Kc Ks 7h 2c")
    b = cards("Qc Jd 9s 9d 2d 3h")
    c = cards("Tc Th 5s 5d 8c 8h")
    want = exact_shares([a, b, c])
    got = all_equities([a, b, c], [], random.Random(3), budget=0)
    assert all(not e.exact and e.half_width <= 0.01 for e in got)
    assert abs(sum(e.share for e in got) - 1) < 1e-9
    assert all(abs(e.share - float(w)) <= e.half_width for e, w in zip(got, want, strict=True))
    # one seat sampled against the others (its own cards completed several ways a deal)
    one = equity(b, [a, c], [], random.Random(3), budget=0)
    assert not one.exact and one.half_width <= 0.01
    assert abs(one.share - float(want[1])) <= one.half_width


def test_seven_seats_third_street_to_one_point() -> None:
    mine = cards("Ah Kh Qh")
    rivals = [cards(x) for x in ("2c", "3d", "4s", "9h", "Tc", "Jd")]
    e = equity(mine, rivals, [], random.Random(11))
    assert not e.exact and e.half_width <= 0.01 and 0.2 < e.share < 0.4


def test_same_rng_state_same_result() -> None:
    mine = cards("Ah Kh Qh 2c")
    rivals = [cards("Ks Qs Js"), cards("7d 7c 8c")]
    a, b = random.Random(5), random.Random(5)
    assert equity(mine, rivals, [], a) == equity(mine, rivals, [], b)
    assert a.getstate() == b.getstate()
    assert sample_share(mine, rivals, [], a, 300) == sample_share(mine, rivals, [], b, 300)
    assert a.getstate() == b.getstate()
    before = random.Random(9)
    after = random.Random(9)
    exact = equity(cards("As Ks Qs Js 8h 8s 9d"), [cards("Ah Ad 7s 7d")], [], after)
    assert exact.exact and after.getstate() == before.getstate()  # counting draws nothing


class Recorder:
    """A flat range that records the hidden cards each deal gives its rival."""

    def __init__(self) -> None:
        self.seen: list[list[Card]] = []

    def weight(self, hidden: Sequence[Card]) -> float:
        self.seen.append(list(hidden))
        return 1.0


def test_no_card_is_dealt_twice() -> None:
    mine = cards("Ah Kh Qh 2c")
    rivals = [cards("Ks Qs Js"), cards("7d 7c 8c")]
    dead = cards("9c 9d")
    known = {c for h in [mine, *rivals] for c in h} | set(dead)
    one, two = Recorder(), Recorder()
    plain = sample_share(mine, rivals, dead, random.Random(2), 400)
    weighted = sample_share(mine, rivals, dead, random.Random(2), 400, [one, two])
    assert weighted == plain  # a weight of 1 for every deal: the same float
    assert len(one.seen) == len(two.seen) == 400
    for a, b in zip(one.seen, two.seen, strict=True):
        assert len(a) == len(b) == 4
        dealt = a + b
        assert all(isinstance(c, Card) for c in dealt)
        assert len(set(dealt)) == 8 and not set(dealt) & known


def test_weights_weigh_each_deal() -> None:
    """A range that rules out every hidden pair but aces: the rival has aces."""

    class Aces:
        def weight(self, hidden: Sequence[Card]) -> float:
            return 1.0 if sum(c.rank == 12 for c in hidden) >= 2 else 0.0

    mine = cards("Kc Kd 5s 6h")
    rival = cards("2s 3s")
    shares = [sample_share(mine, [rival], [], random.Random(4), 3000, w) for w in (None, [Aces()])]
    assert shares[1] < shares[0]
    assert sample_share(mine, [rival], [], random.Random(4), 5, [Zero()]) == 0.5


class Zero:
    def weight(self, hidden: Sequence[Card]) -> float:
        return 0.0


@pytest.mark.parametrize(
    ("hands", "dead"),
    [
        (["As Ks", "As Qd"], ""),  # a card in two hands
        (["As As"], ""),  # twice in one hand
        (["As Ks", "Qd Jd"], "Ks"),  # dead and in a hand
        (["As Ks Qs Js Ts 9s 8s 7s", "2c"], ""),  # eight cards
    ],
)
def test_bad_input_is_refused(hands: list[str], dead: str) -> None:
    hs = [cards(h) for h in hands]
    for call in (
        lambda: equity(hs[0], hs[1:], cards(dead), random.Random(0)),
        lambda: all_equities(hs, cards(dead), random.Random(0)),
        lambda: exact_shares(hs, cards(dead)),
        lambda: sample_share(hs[0], hs[1:], cards(dead), random.Random(0), 10),
    ):
        with pytest.raises(ValueError):
            call()


def test_not_enough_cards_is_refused() -> None:
    eight = [cards("2c")] * 1 + [[c] for c in full_deck()[1:9]]
    with pytest.raises(ValueError):
        deal_count(eight, full_deck()[9:20])


def test_estimate_half_width() -> None:
    assert Estimate(0.5, 0.0, 10, True).half_width == 0
    assert Estimate(0.0, 0.0, 1000, False).half_width == pytest.approx(0.003)
    assert Estimate(0.5, 0.01, 100_000, False).half_width == pytest.approx(0.0196, rel=1e-3)


def test_one_seat_sampled_against_several_rivals_within_error() -> None:
    """Seat 0 sampled (each shuffle read as several deals, a deal stopping at a rival
    that beats us) against the counted answer: three rivals missing one card each."""
    mine = cards("Ts 9s 8h 7s 6c Ac")
    rivals = [cards("Qs Js 3s 2s 7h 7d"), cards("Th Tc Jd Jh As 4s"), cards("Kh Kd 9h 8c 5s 5d")]
    dead = DEAD[:14]
    exact = float(exact_share(mine, rivals, dead))
    for seed in (1, 2, 3):
        e = equity(mine, rivals, dead, random.Random(seed), budget=0)
        assert not e.exact and e.half_width <= 0.01
        assert abs(e.share - exact) <= e.half_width


def test_layouts_are_rearrangements() -> None:
    """Each layout reads the shuffled cards in another order, every card once: so each
    deal it gives is as uniform as the shuffle (common.equity._sample_mine)."""
    from common.equity import VARIANTS, _layouts

    for k, used in ((43, 40), (48, 18), (24, 4), (14, 5), (7, 7)):
        layouts = _layouts(k, used)
        assert layouts[0] is None and 1 <= len(layouts) <= VARIANTS
        firsts = {tuple(range(used))}
        for order in layouts[1:]:
            assert order is not None and sorted(order) == list(range(k))
            firsts.add(order[:used])
        assert len(firsts) == len(layouts)  # no two layouts deal alike
    assert len(_layouts(43, 40)) == VARIANTS
