"""Odds on request (common.odds, issue 19 point 2): a seat's chance of winning the pot
from what it has seen, next to the pot odds of the call in front of it.

Counted figures equal ``exact_share``'s fraction exactly, however the count is
sliced; sampled ones fall within their stated error (fixed seeds, and a bound of
twice the stated 95% half-width: about four standard errors); the work is done a
bounded slice at a time, and the clock never changes a figure; and no figure ever
uses a card the seat may not see (a property test over random hands and every
viewer, as the views are tested).  A share is the pot won at showdown, the best
hand winning and equal hands splitting (R-S1, R-S2, R-S3)."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from common.cards import parse_many
from common.engine import Hand
from common.equity import Estimate, deal_count, exact_share
from common.odds import (
    SAMPLE_CAP,
    OddsJob,
    PotOdds,
    Spot,
    _slices,
    combine,
    odds_words,
    percent,
    pot_odds,
    spot_of,
)
from common.views import seat_view
from tests.stacking import new_hand, play, to_street, unseen_swaps


def spot(mine: str, rivals: list[str], dead: str = "") -> Spot:
    return Spot(
        tuple(parse_many(mine)),
        tuple(tuple(parse_many(r)) for r in rivals),
        tuple(parse_many(dead)),
    )


class Ticks:
    """A clock that moves one tick each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


# ---- counted: each slice exact, the sum exactly exact_share's fraction

SEVENTH = spot("As Ad 7h 7c 2d 9s Kh", ["Kc Qs Jd Th"])
# Twenty cards out, so that a spot with two hands still to be dealt is small.
DEAD = "2c 2d 3c 3d 4c 4d 5c 6d 7c 8d 9c Td Jc Qd Kc 2h 3h 4h 5h 6h"
SIXTH_DEAD = spot("As Ah 7s 8s 9h Qs", ["Kd Ks Jh Th"], DEAD)


def test_seventh_street_heads_up_is_counted_to_the_fraction() -> None:
    job = OddsJob(SEVENTH, random.Random(1))
    assert job.exact
    result = job.run()
    want = exact_share(list(SEVENTH.mine), [list(r) for r in SEVENTH.rivals])
    assert job.fraction == want  # the Fraction itself, not a float near it
    assert result.exact and result.share == float(want) and result.half_width == 0
    assert job.slices > 10  # it was sliced: no one slice counted it all


@pytest.mark.parametrize("limit", [1, 40, 700, 10**9])
def test_every_slicing_sums_to_exact_share(limit: int) -> None:
    """Two hands to be dealt (ours one card, the rival's three): the slices fix our card,
    then, split finer, the rival's lowest card.  Every way of slicing gives the fraction."""
    sp = SIXTH_DEAD
    mine, rivals, dead = list(sp.mine), [list(r) for r in sp.rivals], list(sp.dead)
    want = exact_share(mine, rivals, dead)
    pieces = list(_slices(mine, rivals, dead, limit))
    assert sum(w for w, *_ in pieces) == 1  # the weights: a probability
    assert all(deal_count([m, *r], d) <= max(limit, 1) for _, m, r, d in pieces) or limit < 3
    job = OddsJob(sp, random.Random(1), budget=10**6, slice_deals=limit)
    job.run()
    assert job.fraction == want  # the job sums weight * exact_share over these slices


def test_lowest_card_slices_weigh_as_many_deals_as_they_hold() -> None:
    """One hand dealt three of ``u`` cards: slice ``i`` (its lowest card the ``i``-th)
    holds C(u - 1 - i, 2) of the C(u, 3) deals, and weighs just that."""
    mine, rivals = list(SEVENTH.mine), [list(r) for r in SEVENTH.rivals]
    pieces = list(_slices(mine, rivals, [], 1000))
    u = 52 - 11
    assert [w for w, *_ in pieces] == [
        Fraction(math.comb(u - 1 - i, 2), math.comb(u, 3)) for i in range(u - 2)
    ]
    assert sum(deal_count([m, *r], d) for _, m, r, d in pieces) == math.comb(u, 3)


def test_a_stepped_count_is_the_same_count() -> None:
    job = OddsJob(SEVENTH, random.Random(1))
    steps = 0
    while not job.step(3.0, Ticks()):
        steps += 1
    assert steps > 5
    assert job.fraction == exact_share(list(SEVENTH.mine), [list(SEVENTH.rivals[0])])


# ---- sampled: within the stated error, pooled correctly


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sampling_falls_within_its_stated_error(seed: int) -> None:
    sp = SIXTH_DEAD
    want = float(exact_share(list(sp.mine), [list(r) for r in sp.rivals], list(sp.dead)))
    job = OddsJob(sp, random.Random(seed), budget=0)  # sampled, though it could be counted
    assert not job.exact
    got = job.run()
    assert not got.exact and got.half_width <= 0.01
    assert abs(got.share - want) <= 2 * got.half_width  # about 4 standard errors


def test_seven_seats_third_street_to_one_point() -> None:
    sp = spot("As Ad 7h", ["Kc", "Qs", "9d", "5h", "2c", "Jh"])
    got = OddsJob(sp, random.Random(5)).run()
    assert not got.exact and got.half_width <= 0.01 and got.deals <= SAMPLE_CAP
    assert 0.2 < got.share < 0.45  # aces against six: about a third


def test_combine_pools_as_one_run() -> None:
    """Batches summarised as ``equity`` summarises them (mean, standard error) and
    combined give the mean and standard error of all their values together."""
    rng = random.Random(9)
    values = [rng.choice([0.0, 1.0, 0.5, 1 / 3]) for _ in range(997)]

    def summary(xs: list[float]) -> Estimate:
        n = len(xs)
        mean = sum(xs) / n
        var = max(sum(x * x for x in xs) / n - mean * mean, 0.0) * n / (n - 1)
        return Estimate(mean, math.sqrt(var / n), n, False)

    whole = summary(values)
    cuts = [0, 20, 21 + 40, 300, 650, 997]
    parts = [summary(values[a:b]) for a, b in zip(cuts, cuts[1:], strict=False)]
    pooled = combine(parts)
    assert pooled.deals == whole.deals
    assert pooled.share == pytest.approx(whole.share, abs=1e-12)
    assert pooled.stderr == pytest.approx(whole.stderr, rel=1e-9)


def test_the_clock_never_changes_a_figure() -> None:
    """The RNG decides the figures; the clock only how much is done per step."""
    sp = spot("Ah Kh 7h 2h", ["Qc Jc", "9s 9d", "4d 5d"])
    whole = OddsJob(sp, random.Random(4)).run()
    job = OddsJob(sp, random.Random(4))
    while not job.step(2.5, Ticks()):
        pass
    assert job.result == whole


def test_a_step_starts_no_slice_it_cannot_fit() -> None:
    """Each slice costs one tick of this clock (read before and after it), and a step
    counts on half as much again as the mean slice: with five ticks to spend it starts
    at 1, ends its first slice at 3 (3.5 with the next: it fits), its second at 5 (6.5
    with a third: it does not)."""
    job = OddsJob(spot("As Ad 7h", ["Kc", "Qs", "9d"]), random.Random(1))
    job.step(5.0, Ticks())
    assert job.slices == 2
    job.step(0.0, Ticks())  # even no time at all moves it on by one slice
    assert job.slices == 3
    job.step(9.0, Ticks())  # 1; 3 (3.5); 5 (6.5); 7 (8.5); 9 (10.5 > 10): four more
    assert job.slices == 7


# ---- what the seat may know, and the price of a call


def four_way() -> Hand:
    hand = new_hand(
        0,
        {0: "As Ad 7h", 1: "Kc Kd 2c", 2: "Qs Qh 9d", 3: "5h 5c 3s"},
    )
    play(hand, "1:bring_in 2:complete 3:fold")  # 3 folds its 3s up
    return hand


def test_the_spot_is_what_the_seat_has_seen() -> None:
    view = seat_view(four_way(), 0)
    sp = spot_of(view)
    assert sp is not None
    assert sp.mine == tuple(parse_many("As Ad 7h"))
    assert sp.rivals == (tuple(parse_many("2c")), tuple(parse_many("9d")))  # up cards only
    assert sp.dead == tuple(parse_many("3s"))  # the folded seat's up card
    assert spot_of(seat_view(four_way(), None)) is None  # a watcher has no odds
    assert spot_of(seat_view(four_way(), 3)) is None  # nor a seat that folded


def test_pot_odds_of_the_call() -> None:
    hand = four_way()
    view = seat_view(hand, 0)  # seat 0 faces the completion to 10
    odds = pot_odds(view)
    assert odds == PotOdds(10, 4 + 4 + 10)  # the antes, the bring-in, the completion
    assert odds.words() == "Call 10 to win 18: you need 35.7%"
    assert odds.need == Fraction(10, 28)
    assert pot_odds(seat_view(hand, 1)) is None  # not its turn: no call in front of it


def test_pot_odds_call_20_to_win_246() -> None:
    odds = PotOdds(20, 246)
    assert odds.words() == "Call 20 to win 246: you need 7.5%"
    assert odds.verdict(Estimate(0.31, 0.004, 9000, False)) == (
        "More than you need: the pot pays for the call"
    )
    assert odds.verdict(Estimate(0.05, 0.004, 9000, False)) == (
        "Less than you need: the pot does not pay for it"
    )
    # 7.5% is within 7% +- 1 point: too close to tell.
    assert odds.verdict(Estimate(0.07, 0.004, 9000, False)) == "About what you need: a close call"
    assert odds.verdict(Estimate(0.0751, 0.0, 100, True)) == (
        "Less than you need: the pot does not pay for it"  # counted: 7.51% < 20/266
    )


def test_an_all_in_call_wins_only_what_it_matches_r_a3() -> None:
    hand = new_hand(0, {0: "As Ad 7h", 1: "Kc Kd 2c", 2: "Qs Qh 9d"}, stacks={0: 7})
    play(hand, "1:bring_in 2:complete")  # 10 to seat 0, who has 6 left after its ante
    odds = pot_odds(seat_view(hand, 0))
    # Seat 0 ends with 7 in: it can win 7 of each seat's chips (1 + 4 and 1 + 10).
    assert odds == PotOdds(6, 1 + 5 + 7)


def test_words() -> None:
    assert odds_words(Estimate(0.3138, 0.004, 9000, False), 3) == (
        "You win about 31% (±1) against 3 seats"
    )
    assert odds_words(Estimate(0.6365, 0.0, 10660, True), 1) == (
        "You win 63.6% against 1 seat (every card counted)"
    )
    assert percent(0.0002) == "<1%" and percent(0.9999, 1) == ">99.9%"


def test_the_readout_on_a_stacked_spot_seventh_street() -> None:
    """Heads-up on seventh street, facing a bet: counted, and priced."""
    hand = new_hand(0, {0: "As Ad 7h 7c 2d 9s Kh", 1: "Kc Qs Jd Th 4c 3c 2s"})
    to_street(hand, 7)
    first = hand.to_act
    assert first is not None
    play(hand, f"{first}:bet")
    other = 1 - first
    view = seat_view(hand, other)
    sp = spot_of(view)
    assert sp is not None
    got = OddsJob(sp, random.Random(1)).run()
    want = exact_share(list(sp.mine), [list(r) for r in sp.rivals], list(sp.dead))
    assert got.exact and got.share == float(want)
    odds = pot_odds(view)
    assert odds is not None and odds.call == 20


# ---- no leak: a card the seat may not see changes nothing the odds show


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 6), st.data())
def test_unseen_cards_never_change_the_odds(seed: int, seats: int, data: st.DataObject) -> None:
    def figures(hand: Hand, viewer: int) -> tuple[Any, ...]:
        view = seat_view(hand, viewer)
        sp = spot_of(view)
        # A small cap keeps the test quick; the figures are the job's all the same.
        result = OddsJob(sp, random.Random(7), cap=300).run() if sp is not None else None
        return sp, result, pot_odds(view)

    for hand, again, viewer in unseen_swaps(seed, seats, [600, 600, 30, 12], data):
        assert figures(again, viewer) == figures(hand, viewer)
