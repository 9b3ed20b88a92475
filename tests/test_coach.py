"""The coach's lines (client.coach) on stacked decks, each with its rule id (RULES.md).

Every hand is seen as one seat sees it: ``common.views.seat_view`` for that viewer and
the events through ``event_view``, as the server sends them.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from client.coach import MAX_LINES, CoachLine, card_words
from tests.stacking import new_hand, play, to_street, unseen_swaps
from tests.test_coach_facts import lines_of as seen

SUITS = "; equal ranks: clubs lowest, then diamonds, hearts, spades"
SIDE_POT = "Cy is all in for 9: the {} above it is a side pot Cy cannot win"
THREE = {0: "?? ?? Kh", 1: "?? ?? Qd", 2: "?? ?? 2c"}
FOURTH = {0: "?? ?? Kh Kd", 1: "?? ?? 2c 9d", 2: "?? ?? 5d 6h"}

# Each case: the button, the cards (as ``new_hand`` takes them), the stacks that differ
# from 600, the street played to, the steps then played, the viewer, the focus (a button
# the viewer points at), which line ("all", the first 0, the last -1, or the one of a rule
# id) and what it says.
CASES = {
    "R-O1 the bring-in by suit": (
        0, {0: "?? ?? 2h", 1: "?? ?? Kd", 2: "?? ?? 2c"}, {}, 3, "", 0, None, "all",
        [("R-O1", "Cy brings in: the 2 of clubs is the lowest up card" + SUITS)]),
    # Issue 33: the 2 of diamonds under the 2 of hearts made "diamonds rank lowest".
    "R-O1 equal ranks without clubs still say clubs rank lowest": (
        2, {0: "?? ?? 2d", 1: "?? ?? 2h", 2: "?? ?? Kc"}, {}, 3, "", 1, None, "all",
        [("R-O1", "Ada brings in: the 2 of diamonds is the lowest up card" + SUITS)]),
    # Issue 33: Ada brings in with the 2 of hearts, Bo calls, Cy completes, Ada folds: the
    # bring-in was Ada's lowest card, not Bo's three of clubs "all in" with 596 chips.
    **{f"R-O1 the bring-in line after the bring-in folds, seen by {v}": (
        2, {0: "?? ?? 2h", 1: "?? ?? 3c", 2: "?? ?? Ac"}, {}, 3,
        "0:bring_in 1:call 2:complete 0:fold", v, None, 0,
        ("R-O1", f"{who}: the 2 of hearts is the lowest up card"))
       for v, who in ((0, "You bring in"), (1, "Ada brings in"), (2, "Ada brings in"))},
    # Ada's kings open fourth street; she folds to two raises: she still acted first for
    # her kings, and Bo (who has chips) is not "all in".
    "R-O2 the first seat folds later in the street": (
        2, {0: "?? ?? Kh Kd", 1: "?? ?? 2c 9d", 2: "?? ?? 5d 6h"}, {}, 4,
        "0:bet 1:raise 2:raise 0:fold", 2, None, 0,
        ("R-O2", "Ada acts first: Ada's pair of kings is the best hand showing")),
    # Bo's 5-6-7-8 showing counts only as high cards; Ada's threes are the best showing.
    "R-O2 the opener against a straight showing, fourth street": (
        0, {0: "?? ?? 3c 3d", 1: "?? ?? 5h 6s", 2: "?? ?? 2c 9d"}, {}, 4, "", 1, None, -1,
        ("R-O2", "Ada acts first: Ada's pair of threes is the best hand showing")),
    "R-O2 the opener against four to a straight up, sixth street": (
        0, {0: "?? ?? 3c 3d Kc Qd", 1: "?? ?? 5h 6s 7h 8c", 2: "?? ?? 2c 9d Jh 4s"}, {}, 6,
        "", 2, None, -1,
        ("R-O2", "Ada acts first: Ada's pair of threes is the best hand showing; "
                 "Bo's 5-6-7-8 showing count only as high cards")),
    "R-B6 raises count to the cap": (
        0, THREE, {}, 3, "2:bring_in 0:complete", 1, "raise", -1,
        ("R-B6", "Raise to 20: 10 to call and 10 more; two raises left before the cap")),
    "R-B6 the raise that reaches the cap": (
        0, THREE, {}, 3, "2:bring_in 0:complete 1:raise 2:raise", 0, "raise", -1,
        ("R-B6", "Raise to 40: 20 to call and 10 more; that reaches the cap: after it, "
                 "only calls")),
    "R-B6 heads-up, no cap": (
        0, {0: "?? ?? Kh", 1: "?? ?? 2c"}, {}, 3,
        "1:bring_in 0:complete 1:raise 0:raise 1:raise", 0, "raise", -1,
        ("R-B6", "Raise to 50: 10 to call and 10 more; heads-up: raising has no cap")),
    "R-B5 no fold button when checking is free": (
        0, {0: "?? ?? Kh 3c", 1: "?? ?? 2c 9d", 2: "?? ?? 5d 6h"}, {}, 4, "", 0, None, -1,
        ("R-B5", "No fold button: nothing to call, so checking is free")),
    # Fourth street: Ada bets 10, Bo is all in to 13: short of half a bet more.
    "R-A2 an all-in raise short of half a bet": (
        0, FOURTH, {1: 18}, 4, "0:bet 1:raise", 2, None, "R-A2",
        ("R-A2", "Bo's all-in to 13 adds 3, less than half a bet (5): not a raise; "
                 "who already acted may only call or fold")),
    # Fourth street: Bo opens all in for 4, less than half of 10: Cy may still bet 10.
    "R-A2 an all-in opening bet short of half a bet": (
        0, {0: "?? ?? 3c 4d", 1: "?? ?? Kh Kd", 2: "?? ?? 5d 6h"}, {1: 9}, 4, "1:bet", 0, None,
        "R-A2",
        ("R-A2", "Bo's all-in to 4 adds 4, less than half a bet (5): not a bet; the next "
                 "seat may still bet 10")),
    # Cy (19 chips) calls to 10 and still has chips: no side pot is said.
    "R-A3 no side pot while the short stack still has chips": (
        0, THREE, {2: 19}, 3, "2:bring_in 0:complete 1:call 2:call", 0, None, "all",
        [("R-O2", "You act first: your king high is the best hand showing"),
         ("R-B5", "No fold button: nothing to call, so checking is free")]),
    # Cy calls all in for 4 more (9 in all); the line lasts into fourth street, where Ada
    # (the king) acts first.
    "R-A3 a side pot": (
        0, THREE, {2: 9}, 3, "2:bring_in 0:complete 1:call 2:call", 1, None, "all",
        [("R-A3", SIDE_POT.format(4)),
         ("R-O2", "Ada acts first: Ada's king high is the best hand showing")]),
    "R-A3 the side pot grows on fourth street": (
        0, THREE, {2: 9}, 3, "2:bring_in 0:complete 1:call 2:call 0:bet 1:call", 1, None, 0,
        ("R-A3", SIDE_POT.format(24))),
    "R-S5 the last full bet on seventh street shows first": (
        0, {0: "Ah Kh Qh Jh 2c 3d 9s", 1: "2s 2d 7c 8d 4c 5h 6s", 2: "Tc Td 9c 3s 4d 5s 8s"},
        {}, 7, "0:check 1:bet 2:call 0:call", 0, None, 0,
        ("R-S5", "Bo shows first (the last full bet or raise on seventh street), then "
                 "clockwise")),
    "R-S1 the best five at the showdown": (
        0, {0: "Ah Kh Qh Jh 2c 3d 9s", 1: "2s 2d 7c 8d 4c 5h 6s", 2: "Tc Td 9c 3s 4d 5s 8s"},
        {}, 7, "0:check 1:bet 2:call 0:call", 0, None, 1,
        ("R-S1", "Your best five: A-K-Q-J-9 (high card, ace)")),
    "R-S5 when all check, the best showing hand shows first": (
        0, {0: "?? ?? 5c 6d 8h 9s ??", 1: "?? ?? Ac Ad 2h 3s ??"}, {}, 7, "1:check 0:check", 0,
        None, 0,
        ("R-S5", "Bo shows first (nothing was bet on seventh street: the best showing hand "
                 "shows first), then clockwise")),
    "R-S4 the last seat takes the pot without showing": (
        0, THREE, {}, 3, "2:bring_in 0:complete 1:fold 2:fold", 1, None, -1,
        ("R-S4", "Ada takes the pot without showing: every other seat folded")),
}  # fmt: skip


@pytest.mark.parametrize(
    "button, cards, stacks, street, steps, viewer, focus, which, want",
    list(CASES.values()),
    ids=list(CASES),
)
def test_the_coach_says_the_rule(button, cards, stacks, street, steps, viewer, focus, which, want):
    hand = new_hand(button, cards, stacks=stacks)
    if street > 3:
        to_street(hand, street)
    play(hand, steps)
    lines = seen(hand, viewer, focus)
    assert len(lines) <= MAX_LINES
    if which == "all":
        assert [(ln.rule, ln.text) for ln in lines] == want
    elif isinstance(which, str):
        assert next(ln for ln in lines if ln.rule == which) == CoachLine(want[1], want[0])
    else:
        assert lines[which] == CoachLine(want[1], want[0])


def test_card_words_and_our_own_bring_in_r_o1_r_b2() -> None:
    assert card_words("2c") == "2 of clubs" and card_words("Th") == "10 of hearts"
    hand = new_hand(0, {0: "?? ?? 2h", 1: "?? ?? Kd", 2: "?? ?? 2c"})
    own = seen(hand, 2, focus="bring_in")
    assert own[0] == CoachLine("You bring in: the 2 of clubs is the lowest up card" + SUITS, "R-O1")
    assert own[1].rule == "R-B2" and own[1].text.startswith("Bring in for 4")


# ---- no leak: a card the viewer may not see never changes what the coach says


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 5), st.data())
def test_unseen_cards_never_change_the_lines(seed: int, seats: int, data: st.DataObject) -> None:
    for hand, again, viewer in unseen_swaps(seed, seats, [600, 600, 30, 12, 8], data):
        for focus in (None, "raise", "call", "bet", "complete", "bring_in", "check", "fold"):
            assert seen(again, viewer, focus) == seen(hand, viewer, focus)
