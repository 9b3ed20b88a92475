"""A subclass of ``Hand`` with its own ``_deal_street`` (as ``scripts/bench_bots.py``'s
fixed-cards hand has) deals every street itself; the plain hand deals and opens each
street in one pass.  Both must play alike: the same events for the same choices
(R-D2..R-D5 dealing, R-O1..R-O3 who acts first, R-A4 returns, R-S1..R-S5 showdowns).
"""

from __future__ import annotations

import random

import pytest

from common.cards import deal_cards
from common.engine import Hand
from common.events import Event


class CountingHand(Hand):
    """Deals as the plain hand does, through the hook, counting the streets dealt."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.dealt_streets: list[int] = []

    def _deal_street(self, street: int, out: list[Event]) -> None:
        self.dealt_streets.append(street)
        super()._deal_street(street, out)


def _play(cls: type[Hand], seats: int, seed: int, stack: int) -> tuple[Hand, list[Event]]:
    rng = random.Random(seed)
    deck = deal_cards(rng, 7 * seats)
    hand = cls(stacks=dict.fromkeys(range(seats), stack), button=seed % seats, deck=deck)
    events = list(hand.start())
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        events += hand.apply(seat, rng.choice(hand.legal_actions()).kind)
    return hand, events


def test_only_a_subclass_that_deals_its_own_way_is_marked() -> None:
    assert not Hand._deals_itself
    assert CountingHand._deals_itself


@pytest.mark.parametrize("seats", [2, 4, 7])
@pytest.mark.parametrize("stack", [13, 600])  # short stacks: all-ins and run-outs (R-D5)
def test_the_hook_deals_every_street_and_plays_as_the_plain_hand(seats: int, stack: int) -> None:
    for seed in range(150):
        plain, want = _play(Hand, seats, seed, stack)
        hooked, got = _play(CountingHand, seats, seed, stack)
        assert got == want, f"seed {seed}"
        assert isinstance(hooked, CountingHand)
        assert hooked.dealt_streets == list(range(3, hooked.street + 1)), f"seed {seed}"
        assert hooked.final_stacks() == plain.final_stacks()
