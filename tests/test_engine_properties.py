"""Property tests: random seats, stacks, packs and legal actions.

After every step: chips are conserved (R-A1), no stack goes negative, no card
is dealt twice (R-T2), fold is never offered when checking is free (R-B5),
and no seat view holds a card that seat may not see.  Every hand ends, and
its ``stud-hh/1`` line passes ``tests/hhcheck.py``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.cards import shuffled_deck
from common.engine import Hand
from common.events import ActionKind, Deal, IllegalAction, Show
from common.views import event_view
from tests.stacking import check_record
from tests.stacking import view_dict as seat_view

STACKS = st.one_of(st.integers(1, 30), st.integers(1, 700))


@st.composite
def tables(draw: st.DrawFn) -> tuple[dict[int, int], int, int]:
    seats = draw(st.lists(st.integers(0, 6), min_size=2, max_size=7, unique=True))
    stacks = {s: draw(STACKS) for s in seats}
    button = draw(st.integers(0, 6))
    seed = draw(st.integers(0, 2**32))
    return stacks, button, seed


def _visible_cards(hand: Hand, viewer: int | None) -> set[str]:
    """Every card ``viewer`` may know now: up cards, its own down cards, shown hands."""
    cards: set[str] = set()
    shown = {e.seat for e in hand.events if isinstance(e, Show)}
    for s, state in hand.seats.items():
        cards |= {str(c) for c in state.up}
        if s == viewer or s in shown:
            cards |= {str(c) for c in state.down}
    return cards


def _cards_in(value: object) -> set[str]:
    from common.cards import RANK_CHARS, SUIT_CHARS

    found: set[str] = set()
    if isinstance(value, str):
        if len(value) == 2 and value[0] in RANK_CHARS and value[1] in SUIT_CHARS:
            found.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            found |= _cards_in(v)
    elif isinstance(value, list | tuple):
        for v in value:
            found |= _cards_in(v)
    return found


def _check_step(hand: Hand, total: int, checked: int) -> None:
    """The invariants after a step; the events from ``checked`` on are the new ones (each
    event is checked against what its viewer may know when it happens, which only grows)."""
    chips = sum(s.stack for s in hand.seats.values()) + hand.pot_total
    assert chips == total, "chips are conserved (R-A1)"
    assert all(s.stack >= 0 for s in hand.seats.values())
    dealt = [str(e.card) for e in hand.events if isinstance(e, Deal)]
    assert len(dealt) == len(set(dealt)), "no card is dealt twice"
    kinds = [a.kind for a in hand.legal_actions()]
    if ActionKind.CHECK in kinds:
        assert ActionKind.FOLD not in kinds, "no fold when checking is free (R-B5)"
    for viewer in [*hand.seats, None]:
        view = seat_view(hand, viewer)
        allowed = _visible_cards(hand, viewer)
        assert _cards_in(view) <= allowed, f"seat {viewer} sees a card it may not"
        for event in hand.events[checked:]:
            assert _cards_in(event_view(event, viewer).to_dict()) <= allowed


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.data())
def test_random_hands_keep_every_invariant(table, data) -> None:
    stacks, button, seed = table
    rng = random.Random(seed)
    hand = Hand(stacks=stacks, button=button, deck=shuffled_deck(rng))
    total = sum(stacks.values())
    hand.start()
    _check_step(hand, total, 0)
    steps = 0
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        legal = hand.legal_actions()
        assert legal, "a seat to act always has a choice"
        choice = data.draw(st.sampled_from(legal), label="action")
        checked = len(hand.events)
        hand.apply(seat, choice.kind)
        _check_step(hand, total, checked)
        steps += 1
        assert steps < 200, "every hand ends"
    assert hand.to_act is None and hand.pot_total == 0
    check_record(hand)


@settings(max_examples=60, deadline=None)
@given(tables(), st.data())
def test_illegal_actions_change_nothing(table, data) -> None:
    stacks, button, seed = table
    hand = Hand(stacks=stacks, button=button, deck=shuffled_deck(random.Random(seed)))
    hand.start()
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        legal = {a.kind for a in hand.legal_actions()}
        before = (seat_view(hand, seat), len(hand.events), hand.turn)
        wrong_kind = data.draw(st.sampled_from(sorted(set(ActionKind) - legal) or ["nap"]))
        with pytest.raises(IllegalAction) as info:
            hand.apply(seat, wrong_kind)
        assert f"seat {seat}" in str(info.value) and "legal:" in str(info.value)
        other = data.draw(st.sampled_from([s for s in stacks if s != seat]))
        with pytest.raises(IllegalAction):
            hand.apply(other, sorted(legal)[0])
        assert (seat_view(hand, seat), len(hand.events), hand.turn) == before
        hand.apply(seat, data.draw(st.sampled_from(sorted(legal))))
