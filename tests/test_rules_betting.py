"""Betting (R-B1..R-B9): the buttons offered, their amounts and when a round ends, on
``tests.stacking.table`` (three seats unless a test says otherwise): seat 1 brings in on
third street and acts first from fourth street on; buttons as ``legal`` writes them."""

from __future__ import annotations

import pytest

from common.events import IllegalAction
from tests.stacking import acts, check_record, legal, offers, passive, play, table

# ------------------------------------------------------------------ R-B1


def test_R_B1_every_button_names_its_amount() -> None:
    hand = table()
    assert [a.describe() for a in hand.legal_actions()] == ["bring in 4", "complete to 10"]
    play(hand, "1:bring_in")
    assert [a.describe() for a in hand.legal_actions()] == ["fold", "call 4", "complete to 10"]


@pytest.mark.parametrize(
    ("steps", "seat", "action"),
    [
        pytest.param("", 1, "fold", id="bring-in-may-not-fold"),
        pytest.param("", 1, "check", id="bring-in-may-not-check"),
        pytest.param("", 2, "call", id="not-your-turn"),
        pytest.param("1:bring_in", 2, "raise", id="no-raise-before-completion"),
        pytest.param("1:bring_in", 2, "bet", id="no-bet-on-third"),
        pytest.param("1:bring_in", 2, "shove", id="no-such-action"),
    ],
)
def test_R_B1_illegal_action_is_refused_and_changes_nothing(
    steps: str, seat: int, action: str
) -> None:
    hand = table()
    play(hand, steps)
    before = (len(hand.events), hand.to_act, legal(hand), hand.pot_total, hand.turn)
    with pytest.raises(IllegalAction):
        hand.apply(seat, action)
    assert (len(hand.events), hand.to_act, legal(hand), hand.pot_total, hand.turn) == before


# ------------------------------------------------------------------ R-B2


@pytest.mark.parametrize(
    ("stack", "buttons"),
    [
        pytest.param(600, "bring_in 4/4, complete 10/10", id="bring-in-4-or-complete-10"),
        pytest.param(12, "bring_in 4/4, complete 10/10", id="11-left-complete-10"),
        pytest.param(8, "bring_in 4/4, complete 7/7", id="7-left-completes-all-in"),
        pytest.param(5, "bring_in 4/4", id="4-left-brings-in-all-in"),
        pytest.param(4, "bring_in 3/3", id="3-left-brings-in-3-all-in"),
        pytest.param(2, "bring_in 1/1", id="1-left-brings-in-1-all-in"),
    ],
)
def test_R_B2_bring_in_or_complete_never_check_or_fold(stack: int, buttons: str) -> None:
    hand = table({1: stack})
    assert hand.to_act == 1
    assert legal(hand) == buttons
    play(hand, "1:bring_in")
    assert acts(hand) == [(1, "bring_in", min(4, stack - 1), min(4, stack - 1))]
    assert hand.seats[1].all_in is (stack <= 5)
    passive(hand)
    check_record(hand)


# ------------------------------------------------------------------ R-B3, R-B4


# R-B3: after the bring-in, fold, call or complete (no raise: R-B1's table refuses one);
# R-B4: after the completion, fold, call or raise by 10.
@pytest.mark.parametrize(
    ("steps", "to_act", "buttons"),
    [
        ("1:bring_in", 2, "fold 0/0, call 4/4, complete 10/10"),
        ("1:bring_in 2:call", 3, "fold 0/0, call 4/4, complete 10/10"),
        ("1:bring_in 2:fold", 3, "fold 0/0, call 4/4, complete 10/10"),
        ("1:bring_in 2:complete", 3, "fold 0/0, call 10/10, raise 20/20"),
        ("1:bring_in 2:complete 3:call", 1, "fold 0/4, call 6/10, raise 16/20"),
        ("1:bring_in 2:call 3:complete", 1, "fold 0/4, call 6/10, raise 16/20"),
        ("1:bring_in 2:call 3:complete 1:call", 2, "fold 0/4, call 6/10, raise 16/20"),
        ("1:bring_in 2:complete 3:raise", 1, "fold 0/4, call 16/20, raise 26/30"),
        ("1:complete", 2, "fold 0/0, call 10/10, raise 20/20"),
    ],
    ids=[
        "first-after-bring-in",
        "after-a-call",
        "after-a-fold",
        "raise-by-10-after-completion",
        "bring-in-owes-the-rest",
        "bring-in-owes-the-rest-after-call",
        "caller-of-bring-in-owes-the-rest",
        "bring-in-faces-a-raise",
        "bring-in-seat-completes",
    ],
)
def test_R_B3_R_B4_before_the_completion_no_raise_after_it_raise_by_10(
    steps: str, to_act: int, buttons: str
) -> None:
    offers(table(), steps, to_act, buttons)


# ------------------------------------------------------------------ R-B5


@pytest.mark.parametrize(
    ("street", "bet"), [(4, 10), (5, 20), (6, 20), (7, 20)], ids=lambda x: str(x)
)
def test_R_B5_check_or_bet_one_bet_of_the_street(street: int, bet: int) -> None:
    hand = table(street=street)
    assert hand.to_act == 1
    assert legal(hand) == f"check 0/0, bet {bet}/{bet}"
    play(hand, "1:check")
    assert legal(hand) == f"check 0/0, bet {bet}/{bet}"  # no fold when check is free
    play(hand, "2:bet")
    assert legal(hand) == f"fold 0/0, call {bet}/{bet}, raise {2 * bet}/{2 * bet}"
    play(hand, "3:call")
    # Check-raise is allowed.
    assert legal(hand) == f"fold 0/0, call {bet}/{bet}, raise {2 * bet}/{2 * bet}"
    play(hand, "1:raise 2:call 3:call")
    passive(hand)
    check_record(hand)


def test_R_B5_open_pair_on_fourth_street_still_bets_10() -> None:
    hand = table(street=4)
    assert [str(c) for c in hand.seats[1].up] == ["2c", "2d"]
    assert legal(hand) == "check 0/0, bet 10/10"


def test_R_B5_fold_not_offered_when_checking_is_free() -> None:
    hand = table(street=4)
    assert "fold" not in legal(hand)
    with pytest.raises(IllegalAction):
        hand.apply(1, "fold")


# ------------------------------------------------------------------ R-B6


@pytest.mark.parametrize(
    ("street", "steps", "to_act", "buttons"),
    [
        (3, "1:bring_in 2:complete 3:raise 1:raise 2:raise", 3, "fold 0/20, call 20/40"),
        (3, "1:complete 2:raise 3:raise 1:raise", 2, "fold 0/20, call 20/40"),
        (4, "1:bet 2:raise 3:raise 1:raise", 2, "fold 0/20, call 20/40"),
        (4, "1:check 2:bet 3:raise 1:raise 2:raise", 3, "fold 0/20, call 20/40"),
        (6, "1:bet 2:raise 3:raise 1:raise", 2, "fold 0/40, call 40/80"),
    ],
    ids=[
        "third-bring-in-not-counted",
        "third-bring-in-seat-completes",
        "fourth-bet-and-3-raises",
        "fourth-check-raise-counts",
        "sixth-big-bets",
    ],
)
def test_R_B6_cap_one_bet_and_three_raises_with_three_seats(
    street: int, steps: str, to_act: int, buttons: str
) -> None:
    offers(table(street=street), steps, to_act, buttons)


def test_R_B6_capped_seat_may_call_all_in() -> None:
    hand = table({3: 26})
    play(hand, "1:bring_in 2:complete 3:raise 1:raise 2:raise")
    assert legal(hand) == "fold 0/20, call 5/25"


def test_R_B6_all_in_seats_count_toward_three_seats() -> None:
    # Seat 3 is all in from third street; seats 1 and 2 are still capped.
    hand = table({3: 5})
    play(hand, "1:bring_in 2:call 3:call")
    assert hand.seats[3].all_in
    play(hand, "1:bet 2:raise 1:raise 2:raise")
    assert legal(hand) == "fold 0/30, call 10/40"
    passive(hand)
    check_record(hand)


@pytest.mark.parametrize("street", [3, 4, 5, 7], ids=lambda s: f"street-{s}")
def test_R_B6_heads_up_no_cap(street: int) -> None:
    hand = table(n=2, street=street)
    bet = 10 if street <= 4 else 20
    first = "1:complete" if street == 3 else "1:bet"
    play(hand, first + " 2:raise 1:raise 2:raise 1:raise 2:raise 1:raise")
    assert hand.to_act == 2
    assert legal(hand) == f"fold 0/{6 * bet}, call {bet}/{7 * bet}, raise {2 * bet}/{8 * bet}"
    play(hand, "2:raise 1:call")
    passive(hand)
    check_record(hand)


@pytest.mark.parametrize(
    ("street", "steps", "to_act", "buttons"),
    [
        (4, "1:bet 2:raise 3:raise 1:raise 2:fold", 3, "fold 0/30, call 10/40, raise 20/50"),
        (
            3,
            "1:bring_in 2:complete 3:raise 1:raise 2:raise 3:fold",
            1,
            "fold 0/30, call 10/40, raise 20/50",
        ),
    ],
    ids=["fourth-fold-after-cap", "third-fold-after-cap"],
)
def test_R_B6_cap_lifts_when_a_fold_leaves_two(
    street: int, steps: str, to_act: int, buttons: str
) -> None:
    offers(table(street=street), steps, to_act, buttons)


# ------------------------------------------------------------------ R-B7


@pytest.mark.parametrize(
    ("street", "stacks", "steps", "to_act", "buttons"),
    [
        (4, {}, "1:bet 2:call", 3, "fold 0/0, call 10/10, raise 20/20"),
        (4, {}, "1:bet 2:raise", 3, "fold 0/0, call 20/20, raise 30/30"),
        (4, {2: 18}, "1:bet 2:raise", 3, "fold 0/0, call 13/13, raise 23/23"),
        (5, {2: 33}, "1:bet 2:raise", 3, "fold 0/0, call 28/28, raise 48/48"),
        (3, {3: 14}, "1:bring_in 2:complete 3:raise", 1, "fold 0/4, call 9/13, raise 19/23"),
    ],
    ids=[
        "raise-to-highest-plus-bet",
        "reraise-to-30",
        "rules-example-10-13-23",
        "fifth-20-28-48",
        "third-complete-10-all-in-13-then-23",
    ],
)
def test_R_B7_raise_to_highest_total_plus_one_bet(
    street: int,
    stacks: dict[int, int],
    steps: str,
    to_act: int,
    buttons: str,
) -> None:
    offers(table(stacks, street=street), steps, to_act, buttons)


# ------------------------------------------------------------------ R-B8


def test_R_B8_everyone_calls_bring_in_round_ends_without_bring_in_seat() -> None:
    hand = table()
    play(hand, "1:bring_in 2:call 3:call")
    assert acts(hand, 3) == [(1, "bring_in", 4, 4), (2, "call", 4, 4), (3, "call", 4, 4)]
    assert hand.street == 4
    assert hand.to_act == 1
    assert hand.pot_total == 15


@pytest.mark.parametrize(
    ("street", "steps", "next_street"),
    [
        pytest.param(3, "1:bring_in 2:complete 3:call 1:call", 4, id="completion-called"),
        pytest.param(3, "1:bring_in 2:fold 3:call", 4, id="bring-in-called-after-fold"),
        pytest.param(4, "1:check 2:check 3:check", 5, id="all-check"),
        pytest.param(4, "1:check 2:bet 3:call 1:call", 5, id="bet-called"),
        pytest.param(4, "1:bet 2:raise 3:call 1:call", 5, id="raise-called"),
        pytest.param(7, "1:check 2:check 3:check", 8, id="seventh-ends-in-showdown"),
    ],
)
def test_R_B8_round_ends_when_all_acted_and_matched(
    street: int, steps: str, next_street: int
) -> None:
    hand = table(street=street)
    play(hand, steps)
    if next_street == 8:
        assert hand.is_over
    else:
        assert hand.street == next_street
        assert acts(hand, next_street) == []
    passive(hand)
    check_record(hand)


def test_R_B8_round_goes_on_until_raise_is_answered() -> None:
    hand = table(street=4)
    play(hand, "1:bet 2:call 3:raise")
    assert hand.street == 4 and hand.to_act == 1
    play(hand, "1:call")
    assert hand.street == 4 and hand.to_act == 2
    play(hand, "2:call")
    assert hand.street == 5


# ------------------------------------------------------------------ R-B9


NO_BET_OR_RAISE = {
    "other-short-all-in": ({2: 8}, "1:bring_in 2:complete", "fold 0/4, call 3/7"),
    "other-completed-all-in": ({2: 11}, "1:bring_in 2:complete", "fold 0/4, call 6/10"),
    "bring-in-seat-cannot-complete-if-no-one-can-answer": ({2: 4}, "", "bring_in 4/4"),
    "other-raised-all-in": ({2: 21}, "1:complete 2:raise", "fold 0/10, call 10/20"),
}


@pytest.mark.parametrize(
    ("stacks", "steps", "buttons"), NO_BET_OR_RAISE.values(), ids=list(NO_BET_OR_RAISE)
)
def test_R_B9_no_bet_or_raise_when_every_other_seat_is_all_in(
    stacks: dict[int, int], steps: str, buttons: str
) -> None:
    hand = table(stacks, n=2)
    play(hand, steps)
    assert hand.to_act == 1
    assert legal(hand) == buttons
    passive(hand)
    check_record(hand)


def test_R_B9_three_seats_both_others_all_in() -> None:
    hand = table({2: 5, 3: 9})
    play(hand, "1:bring_in 2:call 3:complete")
    assert legal(hand) == "fold 0/4, call 4/8"
    passive(hand)
    check_record(hand)


def test_R_B9_later_street_other_seat_all_in_for_less_than_a_bet() -> None:
    hand = table({2: 11}, n=2, street=4)  # seat 2 has 6 left on fourth street
    assert hand.seats[2].stack == 6
    play(hand, "1:bet 2:call")
    assert hand.is_over  # run out: the bet of 10 was called for 6, 4 went back
    assert acts(hand, 5) == []
    check_record(hand)


BRING_IN_SEAT_ONLY = {
    "others-have-4-only-bring-in": ({2: 5, 3: 5}, "bring_in 4/4"),
    "one-other-has-5-may-complete": ({2: 5, 3: 6}, "bring_in 4/4, complete 10/10"),
    "one-other-has-5-other-short-may-complete": ({2: 6, 3: 2}, "bring_in 4/4, complete 10/10"),
    "others-short-of-the-bring-in-only-bring-in": ({2: 3, 3: 4}, "bring_in 4/4"),
}


@pytest.mark.parametrize(
    ("stacks", "buttons"), BRING_IN_SEAT_ONLY.values(), ids=list(BRING_IN_SEAT_ONLY)
)
def test_R_B9_bring_in_seat_only_brings_in_when_no_one_could_put_in_more(
    stacks: dict[int, int], buttons: str
) -> None:
    # R-B9: for the bring-in seat the level is the bring-in (4); stacks here
    # are before the ante of 1.
    hand = table(stacks)
    assert hand.to_act == 1
    assert legal(hand) == buttons
    passive(hand)
    check_record(hand)
