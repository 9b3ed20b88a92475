"""The coach's lines (client.coach) on stacked decks, each with its rule id (RULES.md).

Every hand is seen as one seat sees it: ``common.views.seat_view`` for that viewer and
the events through ``event_view``, as the server sends them.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from client.coach import MAX_LINES, CoachLine, card_words
from tests.stacking import new_hand, play, to_street, unseen_swaps
from tests.test_coach_facts import lines_of as seen

NAMES = {0: "Ada", 1: "Bo", 2: "Cy", 3: "Di", 4: "Eve"}


def texts(lines: list[CoachLine]) -> list[tuple[str, str]]:
    return [(ln.rule, ln.text) for ln in lines]


def test_card_words() -> None:
    assert card_words("2c") == "2 of clubs" and card_words("Th") == "10 of hearts"


def test_bring_in_by_suit_r_o1() -> None:
    # Two twos up: the two of clubs is lower than the two of hearts (R-O1).
    hand = new_hand(0, {0: "?? ?? 2h", 1: "?? ?? Kd", 2: "?? ?? 2c"})
    assert hand.to_act == 2
    lines = seen(hand, 0)
    suits = "; equal ranks: clubs lowest, then diamonds, hearts, spades"
    assert texts(lines) == [("R-O1", "Cy brings in: the 2 of clubs is the lowest up card" + suits)]
    own = seen(hand, 2, focus="bring_in")
    assert own[0] == CoachLine("You bring in: the 2 of clubs is the lowest up card" + suits, "R-O1")
    assert own[1].rule == "R-B2" and own[1].text.startswith("Bring in for 4")
    assert len(own) <= MAX_LINES


def test_equal_ranks_without_clubs_still_say_clubs_rank_lowest_r_o1() -> None:
    # Issue 33: the 2 of diamonds under the 2 of hearts made "diamonds rank lowest".
    hand = new_hand(2, {0: "?? ?? 2d", 1: "?? ?? 2h", 2: "?? ?? Kc"})
    assert texts(seen(hand, 1)) == [
        (
            "R-O1",
            "Ada brings in: the 2 of diamonds is the lowest up card; equal ranks: clubs lowest, "
            "then diamonds, hearts, spades",
        )
    ]


def test_the_bring_in_line_after_the_bring_in_folds_r_o1() -> None:
    # Issue 33: Ada brings in with the 2 of hearts, Bo calls, Cy completes, Ada folds: the
    # bring-in was Ada's lowest card, not Bo's three of clubs "all in" with 596 chips.
    hand = new_hand(2, {0: "?? ?? 2h", 1: "?? ?? 3c", 2: "?? ?? Ac"})
    play(hand, "0:bring_in 1:call 2:complete 0:fold")
    for viewer, who in ((0, "You bring in"), (1, "Ada brings in"), (2, "Ada brings in")):
        line = seen(hand, viewer)[0]
        assert line == CoachLine(f"{who}: the 2 of hearts is the lowest up card", "R-O1")


def test_the_first_seat_folds_later_in_the_street_r_o2() -> None:
    # Ada's kings show best and open fourth street; she folds to two raises: she still
    # acted first for her kings, and Bo (who has chips) is not "all in".
    hand = new_hand(2, {0: "?? ?? Kh Kd", 1: "?? ?? 2c 9d", 2: "?? ?? 5d 6h"})
    to_street(hand, 4)
    play(hand, "0:bet 1:raise 2:raise 0:fold")
    assert seen(hand, 2)[0] == CoachLine(
        "Ada acts first: Ada's pair of kings is the best hand showing", "R-O2"
    )


def test_opener_with_straight_showing_r_o2() -> None:
    # Fourth street onwards: Bo's 5-6-7-8 showing counts only as high cards; Ada's pair of
    # threes is the best showing hand (R-O2).
    cards = {0: "?? ?? 3c 3d", 1: "?? ?? 5h 6s", 2: "?? ?? 2c 9d"}
    hand = new_hand(0, cards)
    to_street(hand, 4)
    assert hand.to_act == 0
    line = seen(hand, 1)[-1]
    assert line == CoachLine(
        "Ada acts first: Ada's pair of threes is the best hand showing", "R-O2"
    )
    # On sixth street, four to a straight up still counts only as high cards.
    cards = {0: "?? ?? 3c 3d Kc Qd", 1: "?? ?? 5h 6s 7h 8c", 2: "?? ?? 2c 9d Jh 4s"}
    hand = new_hand(0, cards)
    to_street(hand, 6)
    assert hand.to_act == 0
    assert seen(hand, 2)[-1] == CoachLine(
        "Ada acts first: Ada's pair of threes is the best hand showing; "
        "Bo's 5-6-7-8 showing count only as high cards",
        "R-O2",
    )


def test_raise_counts_to_the_cap_r_b6() -> None:
    hand = new_hand(0, {0: "?? ?? Kh", 1: "?? ?? Qd", 2: "?? ?? 2c"})
    play(hand, "2:bring_in 0:complete")
    line = seen(hand, 1, focus="raise")[-1]
    assert line == CoachLine(
        "Raise to 20: 10 to call and 10 more; two raises left before the cap", "R-B6"
    )
    play(hand, "1:raise 2:raise")
    assert seen(hand, 0, focus="raise")[-1] == CoachLine(
        "Raise to 40: 20 to call and 10 more; that reaches the cap: after it, only calls", "R-B6"
    )


def test_heads_up_no_cap_r_b6() -> None:
    hand = new_hand(0, {0: "?? ?? Kh", 1: "?? ?? 2c"})
    play(hand, "1:bring_in 0:complete 1:raise 0:raise 1:raise")
    line = seen(hand, 0, focus="raise")[-1]
    assert line == CoachLine(
        "Raise to 50: 10 to call and 10 more; heads-up: raising has no cap", "R-B6"
    )


def test_no_fold_button_when_checking_is_free_r_b5() -> None:
    hand = new_hand(0, {0: "?? ?? Kh 3c", 1: "?? ?? 2c 9d", 2: "?? ?? 5d 6h"})
    to_street(hand, 4)
    me = hand.to_act
    assert me is not None
    assert seen(hand, me)[-1] == CoachLine(
        "No fold button: nothing to call, so checking is free", "R-B5"
    )


def test_half_rule_r_a2() -> None:
    # Fourth street: Ada bets 10, Bo is all in to 13: short of half a bet more (R-A2).
    hand = new_hand(0, {0: "?? ?? Kh Kd", 1: "?? ?? 2c 9d", 2: "?? ?? 5d 6h"}, stacks={1: 18})
    to_street(hand, 4)
    play(hand, "0:bet")
    assert [a.kind.value for a in hand.legal_actions()][:3] == ["fold", "call", "raise"]
    play(hand, "1:raise")
    said = seen(hand, 2)
    rules = [ln.rule for ln in said]
    assert "R-A2" in rules
    half = next(ln for ln in said if ln.rule == "R-A2")
    assert half.text == (
        "Bo's all-in to 13 adds 3, less than half a bet (5): not a raise; "
        "who already acted may only call or fold"
    )


def test_side_pot_r_a3() -> None:
    hand = new_hand(0, {0: "?? ?? Kh", 1: "?? ?? Qd", 2: "?? ?? 2c"}, stacks={2: 19})
    play(hand, "2:bring_in 0:complete 1:call 2:call")
    # Cy (stack 19: ante 1, then 18) is all in: Ada and Bo each put 10, Cy 18 in all;
    # the third street ends with the pot as it stands.
    view_lines = seen(hand, 0)
    allin = [ln for ln in view_lines if ln.rule == "R-A3"]
    assert allin == [] or allin[0].text.startswith("Cy is all in")
    hand = new_hand(0, {0: "?? ?? Kh", 1: "?? ?? Qd", 2: "?? ?? 2c"}, stacks={2: 9})
    play(hand, "2:bring_in 0:complete 1:call 2:call")  # Cy calls all in for 4 more: 9
    # The side pot's line lasts into fourth street, where Ada (the king) acts first.
    assert texts(seen(hand, 1)) == [
        ("R-A3", "Cy is all in for 9: the 4 above it is a side pot Cy cannot win"),
        ("R-O2", "Ada acts first: Ada's king high is the best hand showing"),
    ]
    play(hand, "0:bet 1:call")
    assert hand.to_act != 1
    assert seen(hand, 1)[0] == CoachLine(
        "Cy is all in for 9: the 24 above it is a side pot Cy cannot win", "R-A3"
    )


def test_show_order_and_five_cards_r_s5_r_s1() -> None:
    cards = {
        0: "Ah Kh Qh Jh 2c 3d 9s",
        1: "2s 2d 7c 8d 4c 5h 6s",
        2: "Tc Td 9c 3s 4d 5s 8s",
    }
    hand = new_hand(0, cards)
    to_street(hand, 7)
    first = hand.to_act
    assert first is not None
    later = [s for s in (1, 2, 0) if s != first]
    play(hand, f"{first}:check {later[0]}:bet {later[1]}:call {first}:call")
    assert hand.is_over
    lines = seen(hand, 0)
    assert lines[0] == CoachLine(
        f"{NAMES[later[0]]} shows first (the last full bet or raise on seventh street), "
        "then clockwise",
        "R-S5",
    )
    assert lines[1] == CoachLine("Your best five: A-K-Q-J-9 (high card, ace)", "R-S1")


def test_show_order_when_all_check_r_s5() -> None:
    cards = {0: "?? ?? 5c 6d 8h 9s ??", 1: "?? ?? Ac Ad 2h 3s ??"}
    hand = new_hand(0, cards)
    to_street(hand, 7)
    while not hand.is_over:
        assert hand.to_act is not None
        hand.apply(hand.to_act, "check")
    lines = seen(hand, 0)
    assert lines[0] == CoachLine(
        "Bo shows first (nothing was bet on seventh street: the best showing hand shows "
        "first), then clockwise",
        "R-S5",
    )


# ---- no leak: a card the viewer may not see never changes what the coach says


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 5), st.data())
def test_unseen_cards_never_change_the_lines(seed: int, seats: int, data: st.DataObject) -> None:
    for hand, again, viewer in unseen_swaps(seed, seats, [600, 600, 30, 12, 8], data):
        for focus in (None, "raise", "call", "bet", "complete", "bring_in", "check", "fold"):
            assert seen(again, viewer, focus) == seen(hand, viewer, focus)


def test_half_rule_opening_bet_r_a2() -> None:
    # Fourth street: Bo opens all in for 4, less than half of 10: not a bet; Cy may
    # still bet the full 10 (R-A2).
    hand = new_hand(0, {0: "?? ?? 3c 4d", 1: "?? ?? Kh Kd", 2: "?? ?? 5d 6h"}, stacks={1: 9})
    to_street(hand, 4)
    assert hand.to_act == 1
    play(hand, "1:bet")
    half = next(ln for ln in seen(hand, 0) if ln.rule == "R-A2")
    assert half.text == (
        "Bo's all-in to 4 adds 4, less than half a bet (5): not a bet; the next seat may "
        "still bet 10"
    )


def test_the_last_seat_takes_the_pot_without_showing_r_s4() -> None:
    hand = new_hand(0, {0: "?? ?? Kh", 1: "?? ?? Qd", 2: "?? ?? 2c"})
    play(hand, "2:bring_in 0:complete 1:fold 2:fold")
    assert hand.is_over
    assert seen(hand, 1)[-1] == CoachLine(
        "Ada takes the pot without showing: every other seat folded", "R-S4"
    )
