"""Showdown (R-S1..R-S5): who shows, in what order, and who takes each pot."""

from __future__ import annotations

import pytest

from common.events import Show
from tests.stacking import (
    acts,
    awards,
    check_record,
    new_hand,
    passive,
    play,
    shows,
    to_street,
)

# ------------------------------------------------------------------ R-S1


def test_R_S1_every_seat_still_in_shows_its_best_five() -> None:
    cards = {
        1: "2c 9d 9h Ks 4c 9s 3h",
        2: "Ac Ad 5h 6h 7h 8h Jd",
        3: "Qc Jc 6s 5s 3s 2s Ts",
    }
    hand = new_hand(0, cards, folded={2: 4})
    play(hand, "2:bring_in 3:call 1:call")  # 5h brings in
    play(hand, "1:bet 2:fold 3:call")  # seat 1 shows K-9 high; seat 2 folds
    passive(hand)
    shown = {e.seat: e for e in hand.events if isinstance(e, Show)}
    assert sorted(shown) == [1, 3]
    assert [str(c) for c in shown[1].cards] == cards[1].split()
    assert [str(c) for c in shown[1].best] == ["9s", "9h", "9d", "Ks", "4c"]
    assert shown[1].hand == "three of a kind, nines"
    assert [str(c) for c in shown[3].best] == ["Ts", "6s", "5s", "3s", "2s"]
    assert shown[3].hand == "flush, ten high"
    assert awards(hand) == [(3, 35, 0)]
    check_record(hand, {1: 585, 2: 595, 3: 620})


# ------------------------------------------------------------------ R-S2

# The order of hands is ``tests/test_hands.py``'s (BEATS, TIES); here, that the better
# hand takes the pot, whichever seat holds it, and only its best five count.
_HANDS = [
    ("full-house-beats-flush", "Ac Ad Ah Qs Qd 2c 3d", "2h 5h 9h Jh Kh 3c 4d", 1),
    ("six-high-straight-beats-wheel", "Ac 2d 3h 4s 5c 9d Jd", "2c 3d 4h 5s 6c Td Jh", 2),
    ("two-pair-second-pair", "Kc Kd 8h 8s Qc 5s 2d", "Kh Ks 9c 9d Jh 5d 2h", 2),
    ("best-five-of-seven-only", "Ac Ad Kc Kd Qh Qs 2c", "Ah As Kh Ks Jc Jd 3c", 1),
]


@pytest.mark.parametrize(("a", "b", "winner"), [h[1:] for h in _HANDS], ids=[h[0] for h in _HANDS])
def test_R_S2_better_hand_wins_heads_up(a: str, b: str, winner: int) -> None:
    hand = new_hand(0, {1: a, 2: b})
    passive(hand)
    assert awards(hand) == [(winner, 10, 0)]
    final = {1: 605, 2: 595} if winner == 1 else {1: 595, 2: 605}
    check_record(hand, final)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Ac Kd 9h 7s 5c 3d 2h", "Ad Kc 9s 7h 5d 3s 2s"),
        ("Ac Ad Kh Ks 2c 2d 9h", "Ah As Kc Kd 3c 4d 9s"),
    ],
    ids=["high-card", "unplayed-cards-do-not-count"],
)
def test_R_S2_suits_never_rank_a_hand(a: str, b: str) -> None:
    hand = new_hand(0, {1: a, 2: b})
    passive(hand)
    assert sorted(awards(hand)) == [(1, 5, 0), (2, 5, 0)]
    check_record(hand, {1: 600, 2: 600})


# ------------------------------------------------------------------ R-S3

_TIE_A = "Ac Kd Qh Jc 9s 3d 2c"
_TIE_B = "Ad Kc Qs Jd 9h 3c 2d"
_LOSER = "4h 5c 7d 8s Ts 2h 3h"


SPLIT_POT_ODD_CHIP = {
    "btn0-seat1-first": (0, {1: _TIE_A, 2: _TIE_B, 3: _LOSER}, [(1, 8, 0), (2, 7, 0)]),
    "btn1-seat2-first": (1, {1: _TIE_A, 2: _TIE_B, 3: _LOSER}, [(2, 8, 0), (1, 7, 0)]),
    "btn2-seat1-first-wraps": (2, {1: _TIE_A, 2: _TIE_B, 3: _LOSER}, [(1, 8, 0), (2, 7, 0)]),
    "btn5-seat6-first": (5, {6: _TIE_A, 0: _TIE_B, 3: _LOSER}, [(6, 8, 0), (0, 7, 0)]),
    "btn6-seat0-first": (6, {6: _TIE_A, 0: _TIE_B, 3: _LOSER}, [(0, 8, 0), (6, 7, 0)]),
}


@pytest.mark.parametrize(
    ("button", "cards", "awarded"), SPLIT_POT_ODD_CHIP.values(), ids=list(SPLIT_POT_ODD_CHIP)
)
def test_R_S3_split_pot_odd_chip_clockwise_from_button(
    button: int, cards: dict[int, str], awarded: list[tuple[int, int, int]]
) -> None:
    hand = new_hand(button, cards)
    passive(hand)  # 3 antes + 3 x 4 = 15, split 8 / 7
    assert awards(hand) == awarded
    check_record(hand)


def test_R_S3_three_way_split_two_odd_chips() -> None:
    # 4 seats: antes 4 + bring-in/calls 16 = 20; three tie: 7, 7, 6.
    cards = {
        1: "Ac Kd Qh Jc 9s 3d 2c",
        2: "Ad Kc Qs Jd 9h 3c 2d",
        3: "Ah Ks Qd Jh 9c 3s 2h",
        4: "4h 5c 7d 8c Tc Kh Qc",
    }
    hand = new_hand(2, cards)
    passive(hand)
    assert awards(hand) == [(3, 7, 0), (1, 7, 0), (2, 6, 0)]
    check_record(hand)


def test_R_S3_side_pot_split_main_pot_to_all_in_seat() -> None:
    # Seat 2 is all in at 5; seats 1 and 3 tie and split the side pot, seat 2
    # has the best hand and takes the main pot.
    cards = {
        1: "Ac Kd 2c Jc 9s 3d Qh",
        2: "7c 7d 7h 8c 8d 3s 4s",
        3: "Ad Kc 2d Jd 9h 3c Qs",
    }
    hand = new_hand(0, cards, stacks={2: 5})
    play(hand, "1:bring_in 2:call 3:complete 1:call")
    passive(hand)
    # Main: 5 x 3 = 15 to seat 2; side: 6 + 6 = 12 split 6 / 6.
    assert awards(hand) == [(2, 15, 0), (1, 6, 1), (3, 6, 1)]
    check_record(hand, {1: 595, 2: 15, 3: 595})


# ------------------------------------------------------------------ R-S4


@pytest.mark.parametrize(
    ("street", "steps", "winner"),
    [
        pytest.param(3, "1:bring_in 2:fold 3:fold", 1, id="third"),
        pytest.param(4, "1:bet 2:fold 3:fold", 1, id="fourth"),
        pytest.param(7, "1:check 2:bet 3:fold 1:fold", 2, id="seventh"),
    ],
)
def test_R_S4_last_seat_takes_the_pot_without_showing(street: int, steps: str, winner: int) -> None:
    cards = {1: "?? ?? 2c 2d 3c 4d", 2: "?? ?? Kd 5h 7c 8d", 3: "?? ?? Ah 6h 9c Td"}
    hand = new_hand(0, cards)
    if street > 3:
        to_street(hand, street)
    play(hand, steps)
    assert hand.is_over
    assert shows(hand) == []
    assert [a[0] for a in awards(hand)] == [winner]
    check_record(hand)


# ------------------------------------------------------------------ R-S5

# Seat 2 shows a pair of nines from fourth street: it acts first on 4th-7th.
_SHOW_CARDS = {
    1: "Ac Kc 2c 5d 8h Js 3d",
    2: "Ad Kd 9c 9d 4h 6s Qh",
    3: "Ah Kh Tc 7d 3h 4s 5c",
}


# With seat 2 all in on third street, seat 3 acts first on seventh street (R-O3), and the
# best showing hand (seat 2's) shows first only if no one bet.
SHOWING_ORDER_AFTER_BETTING = {
    "last-raiser-first": ({}, "2:check 3:bet 1:raise 2:call 3:call", [1, 2, 3]),
    "raiser-first-then-clockwise": ({}, "2:bet 3:raise 1:call 2:call", [3, 1, 2]),
    "bettor-first": ({}, "2:bet 3:call 1:call", [2, 3, 1]),
    "check-then-bet": ({}, "2:check 3:check 1:bet 2:call 3:call", [1, 2, 3]),
    "last-reraiser-first-folded-skipped": ({}, "2:bet 3:raise 1:fold 2:raise 3:call", [2, 3]),
    "no-bet-first-to-act-first": ({}, "2:check 3:check 1:check", [2, 3, 1]),
    "all-check-all-in-best-showing-first": ({2: 5}, "3:check 1:check", [2, 3, 1]),
    "all-in-best-showing-bettor-first": ({2: 5}, "3:bet 1:call", [3, 1, 2]),
    "all-in-best-showing-bettor-after-check-first": ({2: 5}, "3:check 1:bet 3:call", [1, 2, 3]),
}


@pytest.mark.parametrize(
    ("stacks", "seventh", "order"),
    SHOWING_ORDER_AFTER_BETTING.values(),
    ids=list(SHOWING_ORDER_AFTER_BETTING),
)
def test_R_S5_order_of_showing_after_seventh_street_betting(
    stacks: dict[int, int], seventh: str, order: list[int]
) -> None:
    hand = new_hand(0, _SHOW_CARDS, stacks=stacks)
    to_street(hand, 7)
    assert hand.seats[2].all_in == bool(stacks)
    assert hand.to_act == (3 if stacks else 2)
    play(hand, seventh)
    assert hand.is_over
    assert shows(hand) == order
    check_record(hand)


@pytest.mark.parametrize(
    ("button", "cards", "order"),
    [
        (0, {1: "?? ?? 2c 5d 8h Js", 2: "?? ?? 9c Ts 4h 6s", 3: "?? ?? Tc Td 3h 4s"}, [3, 1, 2]),
        (0, {1: "?? ?? 2c 5d 8h Js", 2: "?? ?? Ac Ts 4h 6s", 3: "?? ?? Tc 9d 3h 4s"}, [2, 3, 1]),
        (0, {1: "?? ?? 2c 5d 8h 8s", 2: "?? ?? Ac Ts 4h 6s", 3: "?? ?? Tc 9d 3h 4s"}, [1, 2, 3]),
    ],
    ids=["pair-showing-first", "ace-high-showing-first", "all-in-bring-in-seat-shows-first"],
)
def test_R_S5_no_betting_on_seventh_best_showing_hand_first(
    button: int, cards: dict[int, str], order: list[int]
) -> None:
    # Seat 1 brings in all in, seat 2 completes, seat 3 calls all in: run out.
    hand = new_hand(button, cards, stacks={1: 5, 3: 11})
    play(hand, "1:bring_in 2:complete 3:call")
    assert hand.is_over
    assert acts(hand, 7) == []
    assert shows(hand) == order
    check_record(hand)


@pytest.mark.parametrize(
    ("stack", "seventh", "order"),
    [
        (10, "2:check 3:check 1:bet 2:call 3:call", [2, 3, 1]),
        (30, "2:bet 3:call 1:raise 2:call 3:call", [2, 3, 1]),
    ],
    ids=["short-all-in-bet-is-no-bet", "short-all-in-raise-is-no-raise"],
)
def test_R_S5_R_A2_short_all_in_on_seventh_is_not_a_bet(
    stack: int, seventh: str, order: list[int]
) -> None:
    hand = new_hand(0, _SHOW_CARDS, stacks={1: stack})
    to_street(hand, 7)
    assert hand.seats[1].stack == stack - 5
    play(hand, seventh)
    short = (1, "bet", 5, 5) if stack == 10 else (1, "raise", 25, 25)  # lifts 5 < 10
    assert short in acts(hand, 7)
    check_record(hand)
    assert shows(hand) == order


# R-S5 as settled: the last seat *still in* that made a full bet or raise shows
# first; with none still in but chips put in, the first seat still in clockwise
# from the seat that acted first on seventh street; the best showing hand only
# when no chip went in on seventh street.  Seat 1 (pair of twos) acts first.
_ALLIN_CARDS = {
    1: "?? ?? 2c 2d 3c 4d",
    2: "?? ?? Kd 5h 7c 8d",
    3: "?? ?? Ah 6h 9c Td",
    4: "?? ?? Qs 7s Jc 3h",
}


@pytest.mark.parametrize(
    ("stacks", "seventh", "order"),
    [
        ({2: 68}, "1:bet 2:raise 3:raise 1:call 2:raise 3:fold 1:call", [2, 1]),
        ({2: 68}, "1:bet 2:raise 3:raise 1:call 2:raise 3:call 1:call", [3, 1, 2]),
        ({1: 50}, "1:bet 2:raise 3:call 1:raise 2:call 3:fold", [2, 1]),
        ({2: 9, 4: 600}, "1:check 2:bet 3:call 4:call 1:fold", [2, 3, 4]),
        ({2: 9, 4: 600}, "1:check 2:bet 3:call 4:call 1:call", [1, 2, 3, 4]),
        ({2: 9, 4: 600}, "1:check 2:bet 3:bet 4:call 1:fold", [3, 4, 2]),
        ({2: 9, 4: 600}, "1:check 2:check 3:check 4:check", [1, 2, 3, 4]),
    ],
    ids=[
        "last-full-raiser-folds-earlier-raiser-still-in-first",
        "last-full-raiser-still-in-first",
        "short-all-in-after-raise-then-raiser-folds",
        "only-a-short-all-in-first-to-act-folded-next-still-in",
        "only-a-short-all-in-first-to-act-still-in",
        "full-bet-after-short-all-in-first",
        "no-betting-best-showing-hand-first",
    ],
)
def test_R_S5_R_A2_last_full_wager_still_in_else_first_to_act(
    stacks: dict[int, int], seventh: str, order: list[int]
) -> None:
    seats = (1, 2, 3, 4) if 4 in stacks else (1, 2, 3)
    hand = new_hand(0, {s: _ALLIN_CARDS[s] for s in seats}, stacks=stacks)
    to_street(hand, 7)
    assert hand.to_act == 1
    play(hand, seventh)
    assert hand.is_over
    assert shows(hand) == order
    check_record(hand)
