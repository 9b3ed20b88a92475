"""Short stacks, all in, the half rule and side pots (R-A1..R-A4, with R-B3/R-B6/R-B7),
on ``tests.stacking.table`` unless a test says otherwise: seat 1 brings in on third
street and acts first from fourth street on; buttons as ``legal`` writes them."""

from __future__ import annotations

import pytest

from common.engine import Pot
from tests.stacking import (
    acts,
    awards,
    check_record,
    legal,
    new_hand,
    offers,
    passive,
    play,
    returns,
    table,
)

# ------------------------------------------------------------------ R-A1


ALL_IN_FOR_LESS = {
    "call-completion-for-less": (3, {2: 8}, "1:complete 2:call", (2, "call", 7, 7)),
    "call-bring-in-for-less": (3, {2: 3}, "1:bring_in 2:call", (2, "call", 2, 2)),
    "bring-in-for-less": (3, {1: 3}, "1:bring_in", (1, "bring_in", 2, 2)),
    "complete-for-less": (3, {1: 8}, "1:complete", (1, "complete", 7, 7)),
    "bet-for-less": (4, {1: 11}, "1:bet", (1, "bet", 6, 6)),
    "raise-for-less": (4, {2: 20}, "1:bet 2:raise", (2, "raise", 15, 15)),
    "call-big-bet-for-less": (5, {3: 20}, "1:bet 2:call 3:call", (3, "call", 15, 15)),
}


@pytest.mark.parametrize(
    ("street", "stacks", "steps", "act"), ALL_IN_FOR_LESS.values(), ids=list(ALL_IN_FOR_LESS)
)
def test_R_A1_all_in_for_less_than_the_full_amount(
    street: int, stacks: dict[int, int], steps: str, act: tuple[int, str, int, int]
) -> None:
    hand = table(stacks, street=street)
    play(hand, steps)
    seat = act[0]
    assert acts(hand, street)[-1] == act
    assert hand.seats[seat].stack == 0 and hand.seats[seat].all_in
    passive(hand)
    # It keeps its cards, gets every card and never acts again.
    assert len(hand.seats[seat].cards) == 7 and not hand.seats[seat].folded
    assert [a for a in acts(hand) if a[0] == seat][-1] == act
    check_record(hand)


def test_R_A1_never_more_than_the_stack() -> None:
    offers(table({2: 8}), "1:complete", 2, "fold 0/0, call 7/7")


# ------------------------------------------------------------ R-A2, R-B3 third street


@pytest.mark.parametrize(
    ("stacks", "steps", "to_act", "buttons"),
    [
        ({2: 8}, "1:bring_in 2:complete", 3, "fold 0/0, call 7/7, complete 10/10"),
        ({2: 9}, "1:bring_in 2:complete", 3, "fold 0/0, call 8/8, complete 10/10"),
        ({2: 10}, "1:bring_in 2:complete", 3, "fold 0/0, call 9/9, raise 19/19"),
        ({2: 10}, "1:bring_in 2:complete 3:raise 4:call", 1, "fold 0/4, call 15/19, raise 25/29"),
        ({1: 4}, "1:bring_in 2:call", 3, "fold 0/0, call 3/3, complete 10/10"),
        ({1: 4, 2: 8}, "1:bring_in 2:complete", 3, "fold 0/0, call 7/7, complete 10/10"),
        ({1: 4, 2: 9}, "1:bring_in 2:complete", 3, "fold 0/0, call 8/8, raise 18/18"),
        # The seats after a short all-in that have not acted may still complete; the
        # bring-in seat and a caller of the bring-in have acted, so they only call or
        # fold (cardroom practice, read from R-A2), until a completion reopens it.
        ({3: 8}, "1:bring_in 2:call 3:complete", 4, "fold 0/0, call 7/7, complete 10/10"),
        ({3: 8}, "1:bring_in 2:call 3:complete 4:call", 1, "fold 0/4, call 3/7"),
        ({3: 8}, "1:bring_in 2:call 3:complete 4:call 1:call", 2, "fold 0/4, call 3/7"),
        ({3: 8}, "1:bring_in 2:call 3:complete 4:complete", 1, "fold 0/4, call 6/10, raise 16/20"),
    ],
    ids=[
        "all-in-to-7-lifts-3-not-completion",
        "all-in-to-8-lifts-4-not-completion",
        "all-in-to-9-lifts-5-is-completion",
        "after-all-in-completion-raise-by-10",
        "short-bring-in-3-next-may-complete",
        "short-bring-in-3-all-in-to-7-not-completion",
        "short-bring-in-3-all-in-to-8-is-completion",
        "unacted-seat-may-complete",
        "bring-in-seat-already-acted-call-or-fold",
        "caller-of-bring-in-call-or-fold",
        "completion-after-short-all-in-reopens",
    ],
)
def test_R_B3_R_A2_all_in_over_the_bring_in(
    stacks: dict[int, int], steps: str, to_act: int, buttons: str
) -> None:
    offers(table(stacks, n=4), steps, to_act, buttons)


@pytest.mark.parametrize(
    ("stack", "buttons"),
    [(7, "fold 0/0, call 6/6, raise 16/16"), (8, "fold 0/0, call 7/7, raise 17/17")],
    ids=["complete-all-in-to-6", "complete-all-in-to-7"],
)
def test_R_B3_R_A2_bring_in_seat_completes_all_in_for_less(stack: int, buttons: str) -> None:
    # Read literally (R-B3): the highest total was 0, the all-in lifts it by 6
    # or 7 (5 or more), so it counts as the completion and the next raise is
    # to that total plus 10 (R-B7).  Judged from the bring-in amount (4) the
    # lift would be under 5; RULES.md does not say so, and the engine follows
    # the literal reading.
    offers(table({1: stack}), "1:complete", 2, buttons)


# R-A2: an all-in that reaches the full amount (the completion to 10, the bet
# of 10 or 20) is full even when it lifts the highest total by less than half
# a bet: it opens the street, reopens it for seats that had acted and counts
# toward the cap.  One chip short of it stays short.  Five seats; stacks are set
# so that the short seats are all in for the totals named.
@pytest.mark.parametrize(
    ("street", "stacks", "steps", "tos", "buttons"),
    [
        (3, {2: 8, 3: 11}, "2:complete 3:complete", [4, 7, 10], "call 10/10, raise 20/20"),
        (3, {2: 7, 3: 11}, "2:complete 3:complete", [4, 6, 10], "call 10/10, raise 20/20"),
        (3, {2: 8, 3: 10}, "2:complete 3:complete", [4, 7, 9], "call 9/9, complete 10/10"),
        (4, {2: 8, 3: 12, 4: 15}, "2:bet 3:bet 4:bet", [0, 3, 7, 10], "call 10/10, raise 20/20"),
        (4, {2: 9, 3: 15}, "2:bet 3:bet", [0, 4, 10], "call 10/10, raise 20/20"),
        (4, {2: 8, 3: 12, 4: 14}, "2:bet 3:bet 4:bet", [0, 3, 7, 9], "call 9/9, bet 10/10"),
        (5, {2: 14, 3: 23, 4: 25}, "2:bet 3:bet 4:bet", [0, 9, 18, 20], "call 20/20, raise 40/40"),
        (5, {2: 14, 3: 23, 4: 24}, "2:bet 3:bet 4:bet", [0, 9, 18, 19], "call 19/19, bet 20/20"),
    ],
    ids=[
        "third-4-7-10-reaches-the-completion",
        "third-4-6-10-reaches-the-completion",
        "third-4-7-9-one-short-stays-short",
        "fourth-3-7-10-reaches-the-bet",
        "fourth-4-10-is-the-bet",
        "fourth-3-7-9-one-short-stays-short",
        "fifth-9-18-20-reaches-the-bet",
        "fifth-9-18-19-one-short-stays-short",
    ],
)
def test_R_A2_all_in_reaching_the_full_amount_is_full(
    street: int, stacks: dict[int, int], steps: str, tos: list[int], buttons: str
) -> None:
    hand = table(stacks, n=5, street=street)
    play(hand, ("1:bring_in " if street == 3 else "1:check ") + steps)
    assert [a[3] for a in acts(hand, street)] == tos
    nxt = len(tos) + 1  # seats 1, 2, ... acted in turn
    assert hand.to_act == nxt
    assert legal(hand) == "fold 0/0, " + buttons
    play(hand, " ".join(f"{s}:call" for s in range(nxt, 6)))
    # Seat 1 has acted: a full wager since reopens it (R-A2), a short one does not.
    bet = 10 if street < 5 else 20
    high, mine = tos[-1], tos[0]
    want = f"fold 0/{mine}, call {high - mine}/{high}"
    if high == bet:
        want += f", raise {high + bet - mine}/{high + bet}"
    offers(hand, "", 1, want)


def test_R_A2_R_B6_all_in_completion_counts_toward_the_cap() -> None:
    # 4 -> 7 -> 10 all in: the completion (1 of 4), then three raises reach the cap.
    hand = table({2: 8, 3: 11}, n=5)
    play(hand, "1:bring_in 2:complete 3:complete 4:raise 5:raise")
    assert legal(hand) == "fold 0/4, call 26/30, raise 36/40"
    offers(hand, "1:raise", 4, "fold 0/20, call 20/40")


# ------------------------------------------------------------ R-A2 later streets


def test_R_A2_short_all_in_opening_bet_is_not_a_bet() -> None:
    # Seat 2 has 3 chips on fourth street and bets them: not a bet (3 < 5).
    hand = table({2: 8}, street=4)
    assert hand.seats[2].stack == 3
    play(hand, "1:check")
    assert legal(hand) == "check 0/0, bet 3/3"
    play(hand, "2:bet")
    # The next seat may call the 3 or make the full bet of 10.
    assert legal(hand) == "fold 0/0, call 3/3, bet 10/10"
    # Seat 1 checked before the short all-in: it has acted, no full bet came
    # since, so it may only call or fold (R-A2); its call ends the street.
    play(hand, "3:call")
    assert hand.to_act == 1 and legal(hand) == "fold 0/0, call 3/3"
    play(hand, "1:call")
    assert hand.street == 5
    passive(hand)
    check_record(hand)


def test_R_A2_full_bet_after_short_all_in_opening_reopens() -> None:
    hand = table({2: 8}, street=4)
    play(hand, "1:check 2:bet 3:bet")
    assert acts(hand, 4)[-1] == (3, "bet", 10, 10)
    assert legal(hand) == "fold 0/0, call 10/10, raise 20/20"
    play(hand, "1:raise 3:call")
    assert hand.street == 5
    passive(hand)
    check_record(hand)


@pytest.mark.parametrize(
    ("street", "stacks", "steps", "buttons"),
    [
        (4, {2: 18}, "1:bet 2:raise 3:call", "fold 0/10, call 3/13"),
        (4, {2: 18}, "1:bet 2:raise 3:raise", "fold 0/10, call 13/23, raise 23/33"),
        (4, {2: 19}, "1:bet 2:raise 3:call", "fold 0/10, call 4/14"),
        (4, {2: 20}, "1:bet 2:raise 3:call", "fold 0/10, call 5/15, raise 15/25"),
        (5, {2: 34}, "1:bet 2:raise 3:call", "fold 0/20, call 9/29"),
        (5, {2: 35}, "1:bet 2:raise 3:call", "fold 0/20, call 10/30, raise 30/50"),
    ],
    ids=[
        "fourth-10-to-13-only-call",
        "fourth-full-raise-after-it-reopens",
        "fourth-10-to-14-lifts-4-only-call",
        "fourth-10-to-15-lifts-5-full-raise",
        "fifth-20-to-29-lifts-9-only-call",
        "fifth-20-to-30-lifts-10-full-raise",
    ],
)
def test_R_A2_short_all_in_raise_does_not_reopen(
    street: int, stacks: dict[int, int], steps: str, buttons: str
) -> None:
    offers(table(stacks, street=street), steps, 1, buttons)


def test_R_A2_short_all_in_does_not_count_toward_the_cap() -> None:
    # Bet 10, raise 20, raise 30, seat 4 all in to 33 (short).  Only two raises
    # are full, so seat 1 may still raise (to 43); that is the cap.
    hand = table({4: 38}, n=4, street=4)
    assert hand.seats[4].stack == 33
    play(hand, "1:bet 2:raise 3:raise 4:raise")
    assert legal(hand) == "fold 0/10, call 23/33, raise 33/43"
    offers(hand, "1:raise", 2, "fold 0/20, call 23/43")


def test_R_A2_several_short_all_ins_never_add_up_to_a_raise() -> None:
    # 10 -> 13 -> 16 -> 19: three short all-ins, each lifting 3.
    hand = table({2: 18, 3: 21, 4: 24}, n=5, street=4)
    play(hand, "1:bet 2:raise 3:raise 4:raise")
    assert [a[3] for a in acts(hand, 4)] == [10, 13, 16, 19]
    # Seat 5 has not acted: it may raise, to 19 + 10.
    assert hand.to_act == 5
    assert legal(hand) == "fold 0/0, call 19/19, raise 29/29"
    # Seat 1 has acted and faced no full raise: call or fold; its call ends the street.
    play(hand, "5:call")
    assert hand.to_act == 1 and legal(hand) == "fold 0/10, call 9/19"
    play(hand, "1:call")
    assert hand.street == 5
    passive(hand)
    check_record(hand)


# ------------------------------------------------------------------ R-A3

# Seat 2 has the best hand ... seat 1 the worst.
_SIDE_POT_CARDS = {
    1: "Jd 5h 2c 2d 3h Tc Kc",  # one pair, twos
    2: "Ah Kh Qh Jh 5c 6d Th",  # royal flush
    3: "Qs Qd Qc 9s 8h 4d 9d",  # full house, queens full of nines
    4: "3s 5s 7s Js 6h 4c Ks",  # flush, king high
    5: "Td 9h 8d 7h 6c 2h Kd",  # straight, ten high
}


def _swap(a: int, b: int) -> dict[int, str]:
    cards = dict(_SIDE_POT_CARDS)
    cards[a], cards[b] = cards[b], cards[a]
    return cards


@pytest.mark.parametrize(
    ("cards", "awarded", "final"),
    [
        (_SIDE_POT_CARDS, [(2, 55), (3, 60), (4, 15), (5, 40)], [549, 55, 60, 15, 589]),
        (_swap(2, 5), [(5, 55), (5, 60), (5, 15), (5, 40)], [549, 0, 0, 0, 719]),
        (_swap(2, 3), [(3, 55), (3, 60), (4, 15), (5, 40)], [549, 0, 115, 15, 589]),
    ],
    ids=["shortest-stack-best", "deep-stack-best", "middle-stack-best"],
)
def test_R_A3_three_all_in_levels_make_side_pots(
    cards: dict[int, str], awarded: list[tuple[int, int]], final: list[int]
) -> None:
    hand = new_hand(0, cards, stacks={2: 11, 3: 26, 4: 31})
    play(hand, "1:bring_in 2:complete 3:call 4:call 5:call 1:call")
    assert hand.pots() == [Pot(55, (1, 2, 3, 4, 5))]
    play(hand, "1:bet 3:raise 4:raise 5:call 1:call")
    assert acts(hand, 4)[1:3] == [(3, "raise", 15, 15), (4, "raise", 20, 20)]
    fourth = [Pot(55, (1, 2, 3, 4, 5)), Pot(60, (1, 3, 4, 5)), Pot(15, (1, 4, 5))]
    assert hand.pots() == fourth
    play(hand, "1:bet 5:call")
    assert hand.street == 6
    assert hand.pots() == [*fourth, Pot(40, (1, 5))]
    play(hand, "1:check 5:check 1:check 5:check")
    assert hand.is_over
    assert awards(hand) == [(seat, amount, pot) for pot, (seat, amount) in enumerate(awarded)]
    assert returns(hand) == []
    check_record(hand, dict(zip(range(1, 6), final, strict=True)))


def test_R_A3_folded_chips_stay_in_the_pots_they_reached() -> None:
    # Seat 3 puts in 11 and folds on fourth; seat 2 is all in at 11.
    hand = new_hand(0, {s: _SIDE_POT_CARDS[s] for s in (1, 2, 3)}, stacks={2: 11})
    play(hand, "1:bring_in 2:complete 3:call 1:call 1:bet 3:fold")
    # The bet of 10 went back to seat 1; the pot is 33, seat 2 contends for all of it.
    assert returns(hand) == [(1, 10)]
    assert hand.is_over
    assert awards(hand) == [(2, 33, 0)]
    check_record(hand, {1: 589, 2: 33, 3: 589})


# ------------------------------------------------------------------ R-A4


@pytest.mark.parametrize(
    ("street", "steps", "back", "award", "final"),
    [
        (3, "1:bring_in 2:fold 3:fold", (1, 4), (1, 3), [602, 599, 599]),
        (3, "1:bring_in 2:complete 3:fold 1:fold", (2, 6), (2, 11), [595, 606, 599]),
        (3, "1:complete 2:fold 3:fold", (1, 10), (1, 3), [602, 599, 599]),
        (3, "1:bring_in 2:complete 3:raise 1:fold 2:fold", (3, 10), (3, 27), [595, 589, 616]),
        (4, "1:bet 2:fold 3:fold", (1, 10), (1, 15), [610, 595, 595]),
        (4, "1:bet 2:raise 3:fold 1:fold", (2, 10), (2, 35), [585, 620, 595]),
        (7, "1:check 2:bet 3:fold 1:fold", (2, 20), (2, 15), [595, 610, 595]),
    ],
    ids=[
        "everyone-folds-to-bring-in-4-back",
        "rules-example-completion-6-back",
        "bring-in-seat-completes-10-back",
        "raise-uncalled-10-back",
        "fourth-bet-uncalled",
        "fourth-raise-uncalled",
        "seventh-bet-uncalled",
    ],
)
def test_R_A4_uncalled_chips_go_back(
    street: int, steps: str, back: tuple[int, int], award: tuple[int, int], final: list[int]
) -> None:
    hand = table(street=street)
    play(hand, steps)
    assert hand.is_over
    assert returns(hand) == [back]
    assert awards(hand) == [(*award, 0)]
    check_record(hand, {1: final[0], 2: final[1], 3: final[2]})


@pytest.mark.parametrize(
    ("stacks", "steps", "returned"),
    [
        ({2: 8}, "1:bring_in 2:complete 3:fold 1:call", []),
        ({2: 8}, "1:complete 2:call 3:fold", [(1, 3)]),
        ({2: 3}, "1:bring_in 2:call 3:fold", [(1, 2)]),
    ],
    ids=["short-all-in-called", "completion-called-for-7-3-back", "bring-in-called-for-2-2-back"],
)
def test_R_A4_part_of_a_bet_called_all_in_for_less_goes_back(
    stacks: dict[int, int], steps: str, returned: list[tuple[int, int]]
) -> None:
    hand = table(stacks)
    play(hand, steps)
    assert hand.is_over  # run out: only seat 1 could still bet
    assert returns(hand) == returned
    check_record(hand)
