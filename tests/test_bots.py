"""The computer seats: legal, view-only, and sensible play (deterministic: every choice
as recorded, ``tests/test_brain_decisions.py``)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from common.cards import full_deck, parse_many
from common.engine import Hand
from server.brain import SOLID, STYLES, Style, choose_action, equity, starting_class
from tests.stacking import new_hand, passive_action, play, play_out, seat, view
from tests.stacking import view_dict as seat_view


def choices(v: dict[str, Any], runs: int = 40) -> list[str]:
    return [choose_action(v, random.Random(seed)) for seed in range(runs)]


# ---------------------------------------------------------------- always legal


def play_random_hands(hands: int, seed: int) -> int:
    """Hands at 2-7 seats with random stacks; the bot is asked at every decision.

    A third of the time a random legal action is played instead of the bot's,
    so the states reached are not only the ones the bot steers into.
    Returns the number of decisions checked.
    """
    rng = random.Random(seed)
    decisions = 0
    for h in range(hands):
        seats = rng.sample(range(7), rng.randint(2, 7))
        stacks = {s: rng.choice([600, 600, 600, 80, 25, 6, 2]) for s in seats}
        deck = full_deck()
        rng.shuffle(deck)
        hand = Hand(stacks=stacks, button=rng.choice(seats), deck=deck)
        hand.start()
        bot_rng = random.Random(seed * 1000 + h)
        steps = 0
        while not hand.is_over:
            s = hand.to_act
            assert s is not None
            v = seat_view(hand, s)
            action = choose_action(v, bot_rng)
            legal = [a["action"] for a in v["legal"]]
            assert action in legal, (action, legal)
            if "check" in legal:
                assert action != "fold"
            if rng.random() < 0.33:
                action = rng.choice(legal)
            hand.apply(s, action)
            decisions += 1
            steps += 1
            assert steps < 500, "hand does not finish"
        assert sum(hand.final_stacks().values()) == sum(stacks.values())
    return decisions


def test_always_legal_and_hands_finish() -> None:
    assert play_random_hands(hands=120, seed=11) > 800


def test_needs_nothing_but_the_view() -> None:
    """A view that went through JSON (no engine objects) gives the same choice."""
    hand = new_hand(0, {0: "Ah Ad As 9c 3d 4h 5s", 1: "7c 2d 2c Kh Qs Jd Tc"})
    play(hand, "1:bring_in")
    v = seat_view(hand, 0)
    plain = json.loads(json.dumps(v))
    snapshot = copy.deepcopy(plain)
    assert choose_action(plain, random.Random(3)) == choose_action(v, random.Random(3))
    assert plain == snapshot, "the bot must not change the view"


def test_no_legal_action_is_an_error() -> None:
    v = view(4, [seat(0, "Ah Kd", "2c 3d")], "", pot=10)
    with pytest.raises(ValueError):
        choose_action(v, random.Random(1))


def test_single_button_is_pressed() -> None:
    v = view(3, [seat(0, "2c", "Ah Ad"), seat(1, "Ks")], "bring_in 2/2", pot=2, bring_in=0)
    assert choose_action(v, random.Random(1)) == "bring_in"


# ---------------------------------------------------------------- sensible play

SENSIBLE = {
    "folds-trash-facing-a-raise-on-third": view(
        3,
        [
            seat(0, "4h", "7c 2d"),
            seat(1, "Ah", bet=20, last_action="raise"),
            seat(2, "Kd", bet=10, last_action="complete"),
            seat(3, "3s", bet=4, last_action="bring_in"),
        ],
        "fold 0/0, call 20/20, raise 30/30",
        pot=38,
        high=20,
        bring_in=3,
    ),
    "folds-trash-facing-a-completion-heads-up": view(
        3,
        [
            seat(0, "3d", "8c 2h", bet=4, last_action="bring_in"),
            seat(1, "Qs", bet=10, last_action="complete"),
        ],
        "fold 0/4, call 6/10, raise 16/20",
        pot=16,
        high=10,
        bring_in=0,
    ),
    "rolled-up-trips-raise-a-completion": view(
        3,
        [
            seat(0, "8s", "8c 8d"),
            seat(1, "Ah", bet=10, last_action="complete"),
            seat(2, "2c", bet=4, last_action="bring_in"),
        ],
        "fold 0/0, call 10/10, raise 20/20",
        pot=17,
        high=10,
        bring_in=2,
    ),
    "strong-bring-in-completes": view(
        3,
        [seat(0, "2c", "2d 2h"), seat(1, "Kd"), seat(2, "9s")],
        "bring_in 4/4, complete 10/10",
        pot=3,
        bring_in=0,
    ),
    "weak-bring-in-brings-in": view(
        3,
        [seat(0, "2c", "7d 9h"), seat(1, "Kd"), seat(2, "9s")],
        "bring_in 4/4, complete 10/10",
        pot=3,
        bring_in=0,
    ),
    "full-house-on-the-river-bets": view(
        7,
        [seat(0, "Qh Qs 7d 2c", "Qc 7s 9d", down=3), seat(1, "Ah Kh 5h 3s", down=3)],
        "check 0/0, bet 20/20",
        pot=120,
    ),
    "full-house-on-the-river-raises": view(
        7,
        [
            seat(0, "Qh Qs 7d 2c", "Qc 7s 9d", down=3),
            seat(1, "Ah Kh 5h 3s", down=3, bet=20, last_action="bet"),
        ],
        "fold 0/0, call 20/20, raise 40/40",
        pot=140,
        high=20,
    ),
    # Sixth street, four hearts and open-ended, a bet of 20 into 200 (odds 20:220).
    "calls-a-strong-draw-with-good-pot-odds": view(
        6,
        [
            seat(0, "9h 8h 2s Kc", "7h 4h"),
            seat(1, "Jd Js 3c 5d", bet=20, last_action="bet"),
        ],
        "fold 0/0, call 20/20, raise 40/40",
        pot=200,
        high=20,
    ),
    "folds-a-busted-draw-facing-a-bet-on-the-river": view(
        7,
        [
            seat(0, "9h 8h 2s Kc", "7h 4h 3d", down=3),
            seat(1, "Jd Js 3c 5d", down=3, bet=20, last_action="bet"),
        ],
        "fold 0/0, call 20/20, raise 40/40",
        pot=200,
        high=20,
    ),
    "checks-or-bets-when-checking-is-free": view(
        5, [seat(0, "2c 7d 9s", "3h 4s"), seat(1, "Ah Ad Kd")], "check 0/0, bet 20/20", pot=60
    ),
}

# The action counted, its least and most count in ``runs`` seeds.
EXPECTED = {
    "folds-trash-facing-a-raise-on-third": ("fold", 36, 40, 40),
    "folds-trash-facing-a-completion-heads-up": ("fold", 36, 40, 40),
    "rolled-up-trips-raise-a-completion": ("raise", 20, 20, 20),
    "strong-bring-in-completes": ("complete", 20, 20, 20),
    "weak-bring-in-brings-in": ("bring_in", 20, 20, 20),
    "full-house-on-the-river-bets": ("bet", 20, 20, 20),
    "full-house-on-the-river-raises": ("raise", 20, 20, 20),
    "calls-a-strong-draw-with-good-pot-odds": ("fold", 0, 0, 30),
    "folds-a-busted-draw-facing-a-bet-on-the-river": ("fold", 27, 30, 30),
    "checks-or-bets-when-checking-is-free": ("fold", 0, 0, 30),
}


@pytest.mark.parametrize("case", SENSIBLE)
def test_sensible_play(case: str) -> None:
    v = SENSIBLE[case]
    action, least, most, runs = EXPECTED[case]
    picks = choices(v, runs)
    assert least <= picks.count(action) <= most
    assert set(picks) <= {b["action"] for b in v["legal"]}


def test_rolled_up_trips_complete_from_the_engine() -> None:
    """Seat 1 has the 2c and brings in (R-O1); seat 0 holds rolled-up kings."""
    hand = new_hand(0, {0: "Kc Kd Kh 9c 3d 4h 5s", 1: "7c 8d 2c Jh Qs Jd Tc"})
    play(hand, "1:bring_in")
    assert all(a == "complete" for a in choices(seat_view(hand, 0), 20))


def test_full_house_on_the_river_from_the_engine() -> None:
    """Rolled-up queens fill up by seventh street; the rival checks and calls along."""
    hand = new_hand(0, {0: "Qc Qd Qh 7d 2c 9s 7s", 1: "3c 4d 2d Ah Kh 5h 8c"})
    rng = random.Random(9)

    def choose(s: int) -> str:
        if s == 1:
            return passive_action(hand, 1)
        action = choose_action(seat_view(hand, 0), rng)
        assert hand.street < 7 or action in ("bet", "raise")
        return action

    play_out(hand, choose)
    assert hand.final_stacks()[0] > 600


# ---------------------------------------------------------------- parts


@pytest.mark.parametrize(
    ("cards", "seen", "want"),
    [
        ("Kc Kd Kh", "", 4),
        ("Qs Qd 4c", "", 4),
        ("Qs Qd 4c", "Qh", 3),
        ("Ts Td 4c", "", 3),
        ("5s 5d Ac", "", 3),
        ("5s 5d 9c", "", 2),
        ("Ah Jh 4h", "", 3),
        ("Ah Jh 4h", "2h 7h 9h Kh", 1),
        ("9c Td Jh", "", 2),
        ("Ac Kd 4h", "", 1),
        ("7c 2d 4h", "", 0),
        ("8c 3d Jh", "", 0),
    ],
    ids=lambda x: x if isinstance(x, str) else None,
)
def test_starting_class(cards: str, seen: str, want: int) -> None:
    assert starting_class(parse_many(cards), parse_many(seen)) == want


def test_equity_splits_ties_and_sees_dead_cards() -> None:
    rng = random.Random(2)
    royal = parse_many("Ah Kh Qh Jh Th 2c 3d")
    # A royal flush can only tie (the rival's spades may make one too).
    assert equity(royal, [parse_many("As Ks Qs Js")], [], rng, 200) >= 0.5
    # Both play the board's straight: every sample is a tie or a win for us.
    mine = parse_many("2c 3d 9h Ts Jc Qd Kh")
    eq = equity(mine, [parse_many("9s Tc Jd Qh")], [], rng, 300)
    assert 0.5 <= eq <= 1.0
    # Quads against one rival: near certain.
    assert (
        equity(parse_many("7c 7d 7h 7s 2d 3d 9c"), [parse_many("Ac Kc Qc 3s")], [], rng, 200) > 0.9
    )


def test_styles_are_named_levels() -> None:
    assert STYLES["solid"] is SOLID
    assert isinstance(SOLID, Style) and SOLID.name == "solid"
    wild = Style(name="wild", blunder=1.0)
    v = SENSIBLE["checks-or-bets-when-checking-is-free"]
    picks = {choose_action(v, random.Random(s), style=wild) for s in range(30)}
    assert picks == {"check", "bet"}
