"""The table and the match (R-T0..R-T7) and a dropped seat's default action (R-C1)."""

from __future__ import annotations

import random

import pytest

from common.cards import Card, deal_cards, full_deck, parse_many, shuffled_deck
from common.engine import Hand, clockwise
from common.events import STAKES, Ante
from common.match import DEFAULT_HANDS, HAND_COUNTS, START_STACK, Match, SeatInfo
from tests.stacking import acts, check_record, deck_for, new_hand, passive, play, table


def _seats(*numbers: int) -> dict[int, SeatInfo]:
    return {s: SeatInfo(name=f"P{s}") for s in numbers}


def _check_match_hand(match: Match) -> None:
    assert match.hand is not None and match.hand.is_over
    check_record(match.hand)


def _play_passive(match: Match) -> None:
    hand = match.hand
    assert hand is not None
    while not hand.is_over:
        kinds = [a.kind.value for a in hand.legal_actions()]
        kind = next(k for k in ("check", "call", "bring_in") if k in kinds)
        assert hand.to_act is not None
        match.apply(hand.to_act, kind)


# ------------------------------------------------------------------ R-T0


CLOCKWISE = {
    "after-6-wraps-to-0": ([0, 1, 2, 3, 4, 5, 6], 6, [0, 1, 2, 3, 4, 5, 6]),
    "after-2": ([0, 1, 2, 3, 4, 5, 6], 2, [3, 4, 5, 6, 0, 1, 2]),
    "sparse": ([0, 2, 5], 2, [5, 0, 2]),
    "heads-up-after-6": ([1, 6], 6, [1, 6]),
    "empty-button": ([1, 6], 3, [6, 1]),
}


@pytest.mark.parametrize(("seats", "after", "order"), CLOCKWISE.values(), ids=list(CLOCKWISE))
def test_R_T0_clockwise_is_increasing_seat_number_wrapping_6_to_0(
    seats: list[int], after: int, order: list[int]
) -> None:
    assert clockwise(seats, after=after) == order


# ------------------------------------------------------------------ R-T1


NOT_A_HAND = {
    "one-seat": {0: 600},
    "eight-seats": {s: 600 for s in range(8)},
    "no-seat-7": {0: 600, 7: 600},
    "seat-without-chips": {0: 600, 1: 0},
}


@pytest.mark.parametrize("stacks", NOT_A_HAND.values(), ids=list(NOT_A_HAND))
def test_R_T1_R_T5_a_hand_needs_two_to_seven_seats_0_to_6_with_chips(
    stacks: dict[int, int],
) -> None:
    with pytest.raises(ValueError):
        Hand(stacks=stacks, button=0, deck=shuffled_deck(random.Random(0)))


@pytest.mark.parametrize("n", [2, 7], ids=["two", "seven"])
def test_R_T1_two_to_seven_seats_play(n: int) -> None:
    hand = new_hand(0, {s: "" for s in range(n)})
    passive(hand)
    check_record(hand)


@pytest.mark.parametrize("seats", [[0], list(range(8))], ids=["one-seat", "eight-seats"])
def test_R_T1_a_match_needs_two_to_seven_seats(seats: list[int]) -> None:
    with pytest.raises(ValueError):
        Match(seats=_seats(*seats), rng=random.Random(0))


# ------------------------------------------------------------------ R-T2


def test_R_T2_a_seed_replays_the_same_pack_and_each_hand_is_shuffled_anew() -> None:
    assert shuffled_deck(random.Random(5)) == shuffled_deck(random.Random(5))
    deck = shuffled_deck(random.Random(5))
    assert len(set(deck)) == 52
    match = Match(seats=_seats(0, 1, 2), rng=random.Random(1))
    rng = random.Random(9)
    first = match.next_hand(rng=rng)
    cards1 = [c for st in first.seats.values() for c in st.cards]
    _play_passive(match)
    second = match.next_hand(rng=rng)
    cards2 = [c for st in second.seats.values() for c in st.cards]
    assert cards1 != cards2


@pytest.mark.parametrize("count", [1, 5, 6, 14, 28, 49, 52])
def test_R_T2_a_hands_cards_are_the_top_of_the_pack_that_seed_shuffles(count: int) -> None:
    # The cards dealt for a hand are exactly what ``rng.sample`` of the pack draws,
    # so a seed deals the same hands whichever way they are drawn.
    for seed in range(40):
        rng, same = random.Random(seed), random.Random(seed)
        assert deal_cards(rng, count) == same.sample(full_deck(), count)
        assert rng.random() == same.random()  # and leaves the generator where sample does
    dealt = deal_cards(random.SystemRandom(), count)
    assert len(set(dealt)) == count


# ------------------------------------------------------------------ R-T3


def test_R_T3_stakes_and_starting_stacks() -> None:
    assert START_STACK == 600
    assert STAKES.to_dict() == {"ante": 1, "bring_in": 4, "small_bet": 10, "big_bet": 20}
    assert [STAKES.bet_for(s) for s in (3, 4, 5, 6, 7)] == [10, 10, 20, 20, 20]
    match = Match(seats=_seats(0, 3, 5), rng=random.Random(2))
    assert match.stacks == {0: 600, 3: 600, 5: 600}
    hand = match.next_hand(rng=random.Random(3))
    assert [(e.seat, e.amount) for e in hand.events if isinstance(e, Ante)] == [
        (s, 1) for s in hand.order
    ]
    assert all(hand.seats[s].start_stack == 600 for s in hand.order)


# ------------------------------------------------------------------ R-T4


def test_R_T4_a_match_is_4_8_or_12_hands_8_by_default() -> None:
    assert HAND_COUNTS == (4, 8, 12)
    assert DEFAULT_HANDS == 8
    assert Match(seats=_seats(0, 1), rng=random.Random(0)).hands == 8


@pytest.mark.parametrize("hands", [4, 8, 12])
def test_R_T4_R_T6_the_match_ends_after_its_last_hand(hands: int) -> None:
    match = Match(seats=_seats(0, 1, 2), rng=random.Random(hands), hands=hands)
    rng = random.Random(100 + hands)
    played = 0
    while not match.is_over:
        match.next_hand(rng=rng)
        _play_passive(match)
        played += 1
        _check_match_hand(match)
    assert played == hands == match.hands_played
    with pytest.raises(RuntimeError):
        match.next_hand(rng=rng)


@pytest.mark.parametrize("hands", [1, 5, 13], ids=lambda h: f"{h}-hands")
def test_R_T4_other_match_lengths_are_refused(hands: int) -> None:
    with pytest.raises(ValueError):
        Match(seats=_seats(0, 1), rng=random.Random(0), hands=hands)


# ------------------------------------------ R-T5, R-T6, R-T7 busting out


_LOSER = "3c 4d 2c 7h 8s 9d Jc"  # jack high, lowest up card: brings in
_WINNER = "Ac Ad Kh Ks 5c 6c Qd"  # two pair, aces and kings


def test_R_T5_R_T6_R_T7_busted_seats_are_out_and_the_match_stops() -> None:
    match = Match(seats=_seats(0, 2, 4), rng=random.Random(3), hands=4, stack=5)
    b = match.button
    a, w, c = clockwise([0, 2, 4], after=b)
    # Hand 1: seat a brings in all in, w calls all in, c folds: a busts.
    hand = match.next_hand(deck_for(b, {a: _LOSER, w: _WINNER, c: "?? ?? Ts"}, folded={c: 3}))
    for seat, kind in ((a, "bring_in"), (w, "call"), (c, "fold")):
        assert hand.to_act == seat
        match.apply(seat, kind)
    assert hand.is_over
    _check_match_hand(match)
    assert match.stacks == {a: 0, w: 11, c: 4}
    assert match.seats_in == sorted([w, c])
    assert not match.is_over
    # Hand 2: the button moves clockwise past the busted seat (R-T7) and the
    # busted seat is not dealt in (R-T5).
    hand = match.next_hand(deck_for(w, {c: _LOSER, w: _WINNER}))
    assert match.button == w
    assert hand.order == (c, w)
    assert a not in hand.seats
    for seat, kind in ((c, "bring_in"), (w, "call")):
        assert hand.to_act == seat
        match.apply(seat, kind)
    assert hand.is_over
    _check_match_hand(match)
    # R-T6: fewer than two seats have a chip: the match is over after 2 of 4 hands.
    assert match.stacks[w] == 15 and match.stacks[c] == 0
    assert match.is_over and match.hands_played == 2
    with pytest.raises(RuntimeError):
        match.next_hand(rng=random.Random(0))
    standings = [(s.place, s.seat, s.stack, s.net, s.winner) for s in match.standings()]
    assert standings == [
        (1, w, 15, 10, True),
        (2, min(a, c), 0, -5, False),
        (2, max(a, c), 0, -5, False),
    ]


def _tie_deck() -> list[Card]:
    # Two seats get the same ranks whoever is dealt first: every pot splits.
    a = parse_many("Ac Kc Qh 9c 7h 5c 3h")
    b = parse_many("Ad Kd Qs 9d 7s 5d 3s")
    deck = [c for pair in zip(a, b, strict=True) for c in pair]
    return deck + [c for c in shuffled_deck(random.Random(0)) if c not in deck]


def test_R_T6_seats_tied_for_the_most_share_the_win() -> None:
    match = Match(seats=_seats(2, 5), rng=random.Random(4), hands=4)
    for _ in range(4):
        match.next_hand(_tie_deck())
        _play_passive(match)
        _check_match_hand(match)
    assert match.is_over
    assert match.stacks == {2: 600, 5: 600}
    assert [(s.place, s.seat, s.winner) for s in match.standings()] == [
        (1, 2, True),
        (1, 5, True),
    ]


def test_R_T6_standings_most_chips_first() -> None:
    match = Match(seats=_seats(0, 1, 2), rng=random.Random(6), hands=4)
    match.stacks = {0: 500, 1: 800, 2: 500}
    got = [(s.place, s.seat, s.stack, s.net, s.winner) for s in match.standings()]
    assert got == [(1, 1, 800, 200, True), (2, 0, 500, -100, False), (2, 2, 500, -100, False)]


# ------------------------------------------------------------------ R-T7


def test_R_T7_first_button_is_drawn_at_random() -> None:
    buttons = {Match(seats=_seats(1, 3, 5), rng=random.Random(k)).button for k in range(40)}
    assert buttons == {1, 3, 5}


@pytest.mark.parametrize("seed", [0, 1, 2], ids=lambda s: f"seed-{s}")
def test_R_T7_button_moves_clockwise_after_every_hand(seed: int) -> None:
    match = Match(seats=_seats(1, 3, 6), rng=random.Random(seed), hands=8)
    rng = random.Random(seed + 50)
    buttons = []
    while not match.is_over:
        hand = match.next_hand(rng=rng)
        buttons.append(hand.button)
        _play_passive(match)
    for prev, nxt in zip(buttons, buttons[1:], strict=False):
        assert nxt == clockwise([1, 3, 6], after=prev)[0]
    assert len(buttons) == 8


# ------------------------------------------------------------------ R-C1


DEFAULT_ACTIONS = {
    "bring-in-seat-brings-in": (3, "", "bring_in"),
    "facing-bring-in-folds": (3, "1:bring_in", "fold"),
    "checks-if-free": (4, "", "check"),
    "facing-bet-folds": (4, "1:bet", "fold"),
    "after-check-checks": (5, "1:check", "check"),
}


@pytest.mark.parametrize(
    ("street", "steps", "default"), DEFAULT_ACTIONS.values(), ids=list(DEFAULT_ACTIONS)
)
def test_R_C1_dropped_seat_checks_if_it_can_else_folds(
    street: int, steps: str, default: str
) -> None:
    # Cardroom practice where RULES.md is silent: the bring-in seat can neither
    # check nor fold (R-B2), so it brings in.
    hand = table(street=street)
    play(hand, steps)
    seat = hand.to_act
    assert seat is not None
    assert hand.default_action(seat).value == default
    hand.apply(seat, hand.default_action(seat))
    assert acts(hand)[-1][:2] == (seat, default)
    passive(hand)
    check_record(hand)
