"""The deal (R-D1..R-D6) and who acts first (R-O1..R-O4), on stacked decks."""

from __future__ import annotations

import pytest

from common.cards import parse_many
from common.engine import Hand
from common.events import Act, Ante, Deal
from tests.stacking import (
    acts,
    check_record,
    deal_order,
    deals,
    deck_for,
    new_hand,
    passive,
    play,
    shows,
    to_street,
)

# --------------------------------------------------------------- R-D1 antes


@pytest.mark.parametrize(
    ("stacks", "all_in"),
    [
        pytest.param({1: 600, 2: 600, 3: 600}, set(), id="everyone-antes-1"),
        pytest.param({1: 1, 2: 600, 3: 600}, {1}, id="last-chip-ante-is-all-in"),
        pytest.param({1: 600, 2: 2, 3: 1}, {3}, id="one-chip-left-after-ante-not-all-in"),
    ],
)
def test_R_D1_every_seat_antes_before_any_card(stacks: dict[int, int], all_in: set[int]) -> None:
    hand = new_hand(0, {1: "?? ?? 5c", 2: "?? ?? 6c", 3: "?? ?? 7c"}, stacks=stacks)
    antes = [e for e in hand.events if isinstance(e, Ante)]
    assert hand.events[: len(antes)] == antes
    assert [(e.seat, e.amount) for e in antes] == [(1, 1), (2, 1), (3, 1)]
    assert {e.seat for e in antes if e.all_in} == all_in
    passive(hand)
    check_record(hand)


# ------------------------------------------------------ R-D2, R-D3 the deal


@pytest.mark.parametrize(
    ("button", "seats", "first"),
    [
        pytest.param(0, [0, 2, 5], 2, id="btn0-3seats"),
        pytest.param(2, [0, 2, 5], 5, id="btn2-3seats"),
        pytest.param(5, [0, 2, 5], 0, id="btn5-wraps"),
        pytest.param(6, [0, 1, 2, 3, 4, 5, 6], 0, id="btn6-7seats"),
        pytest.param(3, [0, 1, 2, 3, 4, 5, 6], 4, id="btn3-7seats"),
        pytest.param(4, [1, 6], 6, id="btn-empty-seat"),
    ],
)
def test_R_D2_R_D3_cards_one_at_a_time_clockwise_after_button(
    button: int, seats: list[int], first: int
) -> None:
    cards = {s: "" for s in seats}
    deck = deck_for(button, cards)
    hand = Hand(stacks={s: 600 for s in seats}, button=button, deck=deck)
    hand.start()
    passive(hand)
    dealt = deals(hand)
    # Every card in the order of the pack, to the seat the rules say (R-D2).
    assert [(s, c) for s, _, c, _ in dealt] == [
        (s, str(card)) for (s, _), card in zip(deal_order(button, seats), deck, strict=False)
    ]
    assert dealt[0][0] == first
    n = len(seats)
    # Third street: down, down, up rounds; then one up card each; seventh down (R-D3).
    assert [(st, up) for _, st, _, up in dealt] == (
        [(3, False)] * 2 * n
        + [(3, True)] * n
        + [(4, True)] * n
        + [(5, True)] * n
        + [(6, True)] * n
        + [(7, False)] * n
    )
    first_act = next(i for i, e in enumerate(hand.events) if isinstance(e, Act))
    assert all(isinstance(e, Deal) for e in hand.events[n : n + 3 * n])
    assert first_act == n + 3 * n  # betting only after the third street's deal
    check_record(hand)


def test_R_D3_hole_cards_are_first_second_and_seventh() -> None:
    hand = new_hand(
        0, {1: "As Ks 2c 3c 4c 5c Qs", 2: "Ad Kd 7h 8h 9h Th Qd"}
    )  # down, down, up x4, down
    passive(hand)
    assert [str(c) for c in hand.seats[1].down] == ["As", "Ks", "Qs"]
    assert [str(c) for c in hand.seats[1].up] == ["2c", "3c", "4c", "5c"]
    assert [str(c) for c in hand.seats[2].down] == ["Ad", "Kd", "Qd"]
    check_record(hand)


# ------------------------------------------------------ R-D4 a fold ends the deal


def _fold_on(hand: Hand, seat: int, street: int) -> None:
    """Play to ``street``; there the first seat wagers, ``seat`` folds, the rest call."""
    if street > 3:
        to_street(hand, street)
    first = True
    while hand.street == street and not hand.is_over:
        s = hand.to_act
        assert s is not None
        kinds = [a.kind.value for a in hand.legal_actions()]
        if first:
            kind = "bring_in" if "bring_in" in kinds else "bet"
            first = False
        elif s == seat:
            kind = "fold"
        else:
            kind = "call" if "call" in kinds else "check"
        hand.apply(s, kind)


@pytest.mark.parametrize("street", [3, 4, 5, 6], ids=lambda s: f"fold-on-{s}th")
def test_R_D4_folded_seat_is_dealt_nothing_more(street: int) -> None:
    cards = {
        1: "2c 3c 4d 5d 6h 7h 8s",
        2: "9c Tc Jd Qd Kh Ah 2s",
        3: "3h 4h 9s Ts Js Qs Ks",
    }
    # Seat 3 never acts first here: seat 1 brings in (4d) and seat 2 shows the best.
    hand = Hand(
        stacks={1: 600, 2: 600, 3: 600},
        button=0,
        deck=deck_for(0, cards, folded={3: street}),
    )
    hand.start()
    _fold_on(hand, 3, street)
    passive(hand)
    got = [(st, c) for s, st, c, _ in deals(hand) if s == 3]
    assert max(st for st, _ in got) == street
    assert [c for _, c in got] == cards[3].split()[:street]
    # The seats still in get exactly their stacked cards.
    for s in (1, 2):
        assert [c for x, _, c, _ in deals(hand) if x == s] == cards[s].split()
    check_record(hand)


def test_R_D4_all_in_seat_is_dealt_every_card() -> None:
    hand = new_hand(0, {1: "?? ?? 2c", 2: "?? ?? 9c", 3: "?? ?? Tc"}, stacks={1: 3})
    play(hand, "1:bring_in 2:call 3:call")
    passive(hand)
    assert len([d for d in deals(hand) if d[0] == 1]) == 7
    check_record(hand)


# ---------------------------------------------------------- R-D5 run-outs


@pytest.mark.parametrize(
    ("stacks", "button"),
    [
        pytest.param({1: 1, 2: 600}, 0, id="heads-up-one-all-in"),
        pytest.param({1: 1, 2: 1, 3: 600}, 0, id="three-seats-two-all-in"),
        pytest.param({1: 600, 2: 1, 3: 1, 4: 1}, 6, id="big-stack-has-lowest-card"),
    ],
)
def test_R_D5_no_bring_in_when_all_but_one_all_in_on_ante(
    stacks: dict[int, int], button: int
) -> None:
    ups = ["2c", "9d", "Th", "Js"]
    cards = {s: f"?? ?? {ups[i]}" for i, s in enumerate(sorted(stacks))}
    hand = new_hand(button, cards, stacks=stacks)
    assert hand.is_over
    assert acts(hand) == []
    assert hand.bring_in_seat is None
    assert all(len(hand.seats[s].cards) == 7 for s in stacks)
    assert len(shows(hand)) == len(stacks)
    record = check_record(hand)
    assert sum(f["stack"] for f in record["final"]) == sum(stacks.values())


@pytest.mark.parametrize(
    ("stacks", "steps", "last_street"),
    [
        ({1: 600, 2: 11}, "1:bring_in 2:complete 1:call", 3),
        ({1: 600, 2: 5, 3: 11}, "1:bring_in 2:call 3:complete 1:call", 3),
        ({1: 600, 2: 20, 3: 600}, "1:bring_in 2:call 3:call 1:bet 2:raise 3:fold 1:call", 4),
    ],
    ids=["heads-up-completion-all-in", "two-all-in-one-matches", "fold-leaves-one"],
)
def test_R_D5_run_out_when_one_seat_can_bet_and_has_matched(
    stacks: dict[int, int], steps: str, last_street: int
) -> None:
    cards = {1: "?? ?? 2c 2d", 2: "?? ?? 9c 8d", 3: "?? ?? Tc 7d"}
    hand = new_hand(0, {s: cards[s] for s in stacks}, stacks=stacks)
    play(hand, steps)
    assert hand.is_over
    assert not any(acts(hand, street) for street in range(last_street + 1, 8))
    live = [s for s in stacks if not hand.seats[s].folded]
    assert all(len(hand.seats[s].cards) == 7 for s in live)
    check_record(hand)


def test_R_D5_seat_that_has_not_matched_still_acts() -> None:
    # Seat 2 completes all in to 10: seat 1 is the only one who can bet but has
    # not matched, so it still gets to call or fold (and may not raise, R-B9).
    hand = new_hand(0, {1: "?? ?? 2c", 2: "?? ?? 9c"}, stacks={2: 11})
    play(hand, "1:bring_in 2:complete")
    assert hand.to_act == 1
    assert [a.kind.value for a in hand.legal_actions()] == ["fold", "call"]


# -------------------------------------------------------- R-D6 49 cards


def test_R_D6_seven_seats_to_showdown_use_49_cards() -> None:
    seats = list(range(7))
    deck = deck_for(3, {s: "" for s in seats})[:49]
    hand = Hand(stacks={s: 600 for s in seats}, button=3, deck=deck)
    hand.start()
    passive(hand)
    assert len(deals(hand)) == 49
    assert len(shows(hand)) == 7
    check_record(hand)


# -------------------------------------------------------- R-O1 bring-in


@pytest.mark.parametrize(
    ("ups", "bring_in"),
    [
        pytest.param({1: "2c", 2: "2d", 3: "2h"}, 1, id="2c-lowest"),
        pytest.param({1: "2s", 2: "2h", 3: "2d"}, 3, id="2d-below-2h-and-2s"),
        pytest.param({1: "3c", 2: "2s", 3: "Ac"}, 2, id="rank-before-suit"),
        pytest.param({1: "5h", 2: "5s", 3: "5d"}, 3, id="equal-rank-diamonds-lowest"),
        pytest.param({1: "5s", 2: "5c", 3: "9c"}, 2, id="clubs-lowest-suit"),
        pytest.param({1: "Ac", 2: "Kh", 3: "As"}, 2, id="ace-is-high"),
        pytest.param({1: "Td", 2: "Jc", 3: "Tc"}, 3, id="ten-clubs-below-ten-diamonds"),
        pytest.param({1: "4s", 2: "2c", 3: "3c"}, 2, id="two-of-clubs-lowest-of-all"),
    ],
)
def test_R_O1_lowest_up_card_brings_in(ups: dict[int, str], bring_in: int) -> None:
    hand = new_hand(0, {s: f"?? ?? {c}" for s, c in ups.items()})
    assert hand.bring_in_seat == bring_in
    assert hand.to_act == bring_in
    assert {a.kind.value for a in hand.legal_actions()} == {"bring_in", "complete"}
    passive(hand)
    check_record(hand)


ALL_IN_ON_ANTE = {
    "next-clockwise": (0, {1: "2c", 2: "9c", 3: "Tc"}, {1: 1}, 2),
    "wraps-past-button": (0, {1: "9c", 2: "Tc", 3: "2c"}, {3: 1}, 1),
    "skips-two-all-in": (0, {1: "2c", 2: "9c", 3: "Tc", 4: "Jc"}, {1: 1, 2: 1}, 3),
    "wraps-6-to-0": (5, {6: "2c", 0: "9c", 2: "Tc"}, {6: 1}, 0),
}


@pytest.mark.parametrize(
    ("button", "ups", "stacks", "bring_in"), ALL_IN_ON_ANTE.values(), ids=list(ALL_IN_ON_ANTE)
)
def test_R_O3_all_in_on_ante_lowest_card_next_clockwise_brings_in(
    button: int, ups: dict[int, str], stacks: dict[int, int], bring_in: int
) -> None:
    hand = new_hand(button, {s: f"?? ?? {c}" for s, c in ups.items()}, stacks=stacks)
    assert hand.bring_in_seat == bring_in
    assert hand.to_act == bring_in
    assert [a.kind.value for a in hand.legal_actions()] == ["bring_in", "complete"]
    passive(hand)
    check_record(hand)


# ----------------------------------------------------- R-O2 showing hands


# Every order of showing hands is ``tests/test_hands.py``'s SHOWING; here, that the
# engine asks the best showing hand first, on each street and with three seats.
SHOWING_FIRST = {
    "pair-beats-high-cards": (4, {1: "2c 2d", 2: "Ah Kh"}, 1),
    "higher-pair": (4, {1: "9c 9d", 2: "Tc Td"}, 2),
    "rules-example-three-seats": (5, {1: "As Ks Qs", 2: "7c 7d 8c", 3: "3c 3d 3h"}, 3),
    "pair-beats-straight-flush-showing": (6, {1: "5h 6h 7h 8h", 2: "2c 2d 3s 4c"}, 2),
    "two-of-highest-rank-higher-suit": (6, {1: "9h 9d 4s 2h", 2: "9s 9c 4d 2c"}, 2),
}


@pytest.mark.parametrize(
    ("street", "ups", "first"), SHOWING_FIRST.values(), ids=list(SHOWING_FIRST)
)
def test_R_O2_best_showing_hand_acts_first(street: int, ups: dict[int, str], first: int) -> None:
    hand = new_hand(0, {s: f"?? ?? {c}" for s, c in ups.items()})
    to_street(hand, street)
    assert hand.to_act == first
    assert acts(hand, street) == []
    passive(hand)
    check_record(hand)


def test_R_O2_R_O3_all_in_best_showing_next_clockwise_acts_first() -> None:
    # Seat 2 completes all in on third street and shows the best hand on fourth.
    cards = {1: "?? ?? 2c 5d", 2: "?? ?? 9c 9d", 3: "?? ?? Tc 6h", 4: "?? ?? Jc 7h"}
    hand = new_hand(0, cards, stacks={2: 11})
    play(hand, "1:bring_in 2:complete 3:call 4:call 1:call")
    assert hand.street == 4
    assert hand.to_act == 3
    passive(hand)
    check_record(hand)


def test_R_O3_folded_seats_do_not_count() -> None:
    # Seat 2 (best showing) folds on third street; the next best (seat 4) opens,
    # not the seat clockwise after the folded one.
    cards = {1: "?? ?? 2c 5d", 2: "?? ?? 9c 9d", 3: "?? ?? Tc 6h", 4: "?? ?? Jc 7h"}
    hand = Hand(stacks={s: 600 for s in cards}, button=0, deck=deck_for(0, cards, folded={2: 3}))
    hand.start()
    play(hand, "1:bring_in 2:fold 3:call 4:call")
    assert hand.street == 4
    assert hand.to_act == 4
    passive(hand)
    check_record(hand)


@pytest.mark.parametrize(
    ("stacks", "steps", "order"),
    [
        ({}, "1:check 2:check 3:check 4:check", [1, 2, 3, 4]),
        ({3: 5}, "1:bet 2:call 4:call", [1, 2, 4]),
        ({}, "1:bet 2:fold 3:call 4:raise 1:call 3:call", [1, 2, 3, 4, 1, 3]),
    ],
    ids=["clockwise", "skips-all-in", "skips-folded"],
)
def test_R_O4_turn_passes_clockwise_skipping_folded_and_all_in(
    stacks: dict[int, int], steps: str, order: list[int]
) -> None:
    cards = {1: "?? ?? 2c Ad", 2: "?? ?? 9c 5h", 3: "?? ?? Tc 6h", 4: "?? ?? Jc 7h"}
    hand = new_hand(0, cards, stacks=stacks)
    play(hand, "1:bring_in 2:call 3:call 4:call")
    assert hand.street == 4
    play(hand, steps)
    assert [a[0] for a in acts(hand, 4)] == order
    passive(hand)
    check_record(hand)


def test_R_O1_uses_the_card_objects_the_rules_name() -> None:
    # The stacked deck really deals what the scenario says.
    hand = new_hand(0, {1: "As Kd 2c", 2: "Ah Kh 3c"})
    assert hand.seats[1].cards == parse_many("As Kd 2c")
