"""The computer seats: legal, deterministic, view-only, and sensible play."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from common.cards import full_deck, parse_many
from common.engine import Hand
from server.brain import SOLID, STYLES, Style, choose_action, equity, starting_class
from tests.stacking import view_dict as seat_view

# ---------------------------------------------------------------- helpers


def stacked_deck(order: list[int], cards: dict[int, str]) -> list[Any]:
    """A pack dealing each seat its seven cards, in deal order down, down, up x4, down (R-D3).

    ``order`` is the deal order (clockwise from the seat after the button, R-D2).
    """
    dealt = {s: parse_many(cards[s]) for s in order}
    deck = [dealt[s][r] for r in range(7) for s in order]
    used = set(deck)
    return deck + [c for c in full_deck() if c not in used]


def seat(
    number: int,
    *,
    up: str,
    down: int = 2,
    hole: str | None = None,
    folded: bool = False,
    bet: int = 0,
    stack: int = 500,
    last_action: str | None = None,
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "seat": number,
        "stack": stack,
        "bet": bet,
        "in_pot": bet + 1,
        "folded": folded,
        "all_in": False,
        "up": up.split(),
        "down": down,
        "last_action": last_action,
    }
    if hole is not None:
        entry["hole"] = hole.split()
    return entry


def view(
    *,
    street: int,
    seats: list[dict[str, Any]],
    legal: list[tuple[str, int, int]],
    pot: int,
    high: int,
    you: int = 0,
    bring_in: int | None = None,
) -> dict[str, Any]:
    """A view built by hand, in the shape of ``common.views.seat_view``."""
    return {
        "street": street,
        "button": seats[-1]["seat"],
        "order": [s["seat"] for s in seats],
        "bring_in": bring_in,
        "to_act": you,
        "turn": 1,
        "high": high,
        "pot": pot,
        "pots": [],
        "over": False,
        "seats": seats,
        "awards": [],
        "you": you,
        "legal": [{"action": a, "put": p, "to": t, "all_in": False} for a, p, t in legal],
    }


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
    assert play_random_hands(hands=220, seed=11) > 1500


def test_deterministic_for_same_seed() -> None:
    rng = random.Random(5)
    deck = full_deck()
    rng.shuffle(deck)
    hand = Hand(stacks={0: 600, 2: 600, 3: 600, 5: 600}, button=0, deck=deck)
    hand.start()
    seen = 0
    while not hand.is_over:
        s = hand.to_act
        assert s is not None
        v = seat_view(hand, s)
        first = choose_action(v, random.Random(42))
        assert all(choose_action(v, random.Random(42)) == first for _ in range(3))
        hand.apply(s, first)
        seen += 1
    assert seen >= 4


def test_needs_nothing_but_the_view() -> None:
    """A view that went through JSON (no engine objects) gives the same choice."""
    deck = stacked_deck([1, 0], {0: "Ah Ad As 9c 3d 4h 5s", 1: "7c 2d 2c Kh Qs Jd Tc"})
    hand = Hand(stacks={0: 600, 1: 600}, button=0, deck=deck)
    hand.start()
    hand.apply(1, "bring_in")
    v = seat_view(hand, 0)
    plain = json.loads(json.dumps(v))
    snapshot = copy.deepcopy(plain)
    assert choose_action(plain, random.Random(3)) == choose_action(v, random.Random(3))
    assert plain == snapshot, "the bot must not change the view"


def test_no_legal_action_is_an_error() -> None:
    v = view(street=4, seats=[seat(0, up="Ah Kd", hole="2c 3d")], legal=[], pot=10, high=0)
    with pytest.raises(ValueError):
        choose_action(v, random.Random(1))


def test_single_button_is_pressed() -> None:
    v = view(
        street=3,
        seats=[seat(0, up="2c", hole="Ah Ad"), seat(1, up="Ks")],
        legal=[("bring_in", 2, 2)],
        pot=2,
        high=0,
        bring_in=0,
    )
    assert choose_action(v, random.Random(1)) == "bring_in"


# ---------------------------------------------------------------- sensible play


def test_folds_trash_facing_a_raise_on_third_street() -> None:
    v = view(
        street=3,
        seats=[
            seat(0, up="4h", hole="7c 2d"),
            seat(1, up="Ah", bet=20, last_action="raise"),
            seat(2, up="Kd", bet=10, last_action="complete"),
            seat(3, up="3s", bet=4, last_action="bring_in"),
        ],
        legal=[("fold", 0, 0), ("call", 20, 20), ("raise", 30, 30)],
        pot=38,
        high=20,
        bring_in=3,
    )
    assert choices(v).count("fold") >= 36


def test_folds_trash_facing_a_completion_heads_up() -> None:
    v = view(
        street=3,
        seats=[
            seat(0, up="3d", hole="8c 2h", bet=4, last_action="bring_in"),
            seat(1, up="Qs", bet=10, last_action="complete"),
        ],
        legal=[("fold", 0, 4), ("call", 6, 10), ("raise", 16, 20)],
        pot=16,
        high=10,
        bring_in=0,
    )
    assert choices(v).count("fold") >= 36


def test_rolled_up_trips_complete_from_the_engine() -> None:
    """Seat 1 has the 2c and brings in (R-O1); seat 0 holds rolled-up kings."""
    deck = stacked_deck([1, 0], {0: "Kc Kd Kh 9c 3d 4h 5s", 1: "7c 8d 2c Jh Qs Jd Tc"})
    hand = Hand(stacks={0: 600, 1: 600}, button=0, deck=deck)
    hand.start()
    assert hand.to_act == 1
    hand.apply(1, "bring_in")
    v = seat_view(hand, 0)
    assert all(a == "complete" for a in choices(v, 20))


def test_rolled_up_trips_raise_a_completion() -> None:
    v = view(
        street=3,
        seats=[
            seat(0, up="8s", hole="8c 8d"),
            seat(1, up="Ah", bet=10, last_action="complete"),
            seat(2, up="2c", bet=4, last_action="bring_in"),
        ],
        legal=[("fold", 0, 0), ("call", 10, 10), ("raise", 20, 20)],
        pot=17,
        high=10,
        bring_in=2,
    )
    assert all(a == "raise" for a in choices(v, 20))


def test_strong_bring_in_completes_and_weak_one_brings_in() -> None:
    legal = [("bring_in", 4, 4), ("complete", 10, 10)]
    others = [seat(1, up="Kd"), seat(2, up="9s")]
    strong = view(
        street=3,
        seats=[seat(0, up="2c", hole="2d 2h"), *others],
        legal=legal,
        pot=3,
        high=0,
        bring_in=0,
    )
    weak = view(
        street=3,
        seats=[seat(0, up="2c", hole="7d 9h"), *others],
        legal=legal,
        pot=3,
        high=0,
        bring_in=0,
    )
    assert all(a == "complete" for a in choices(strong, 20))
    assert all(a == "bring_in" for a in choices(weak, 20))


def test_full_house_on_the_river_bets_and_raises() -> None:
    seats = [
        seat(0, up="Qh Qs 7d 2c", down=3, hole="Qc 7s 9d"),
        seat(1, up="Ah Kh 5h 3s", down=3, bet=0),
    ]
    checked_to = view(
        street=7, seats=seats, legal=[("check", 0, 0), ("bet", 20, 20)], pot=120, high=0
    )
    assert all(a == "bet" for a in choices(checked_to, 20))
    seats[1] = seat(1, up="Ah Kh 5h 3s", down=3, bet=20, last_action="bet")
    facing = view(
        street=7,
        seats=seats,
        legal=[("fold", 0, 0), ("call", 20, 20), ("raise", 40, 40)],
        pot=140,
        high=20,
    )
    assert all(a == "raise" for a in choices(facing, 20))


def test_full_house_on_the_river_from_the_engine() -> None:
    """Rolled-up queens fill up by seventh street; the rival checks and calls along."""
    deck = stacked_deck([1, 0], {0: "Qc Qd Qh 7d 2c 9s 7s", 1: "3c 4d 2d Ah Kh 5h 8c"})
    hand = Hand(stacks={0: 600, 1: 600}, button=0, deck=deck)
    hand.start()
    rng = random.Random(9)
    while not hand.is_over:
        s = hand.to_act
        assert s is not None
        v = seat_view(hand, s)
        if s == 0:
            action = choose_action(v, rng)
            if hand.street == 7:
                assert action in ("bet", "raise")
        else:
            names = [a["action"] for a in v["legal"]]
            action = next(n for n in ("check", "bring_in", "call") if n in names)
        hand.apply(s, action)
    assert hand.final_stacks()[0] > 600


def test_calls_a_strong_draw_with_good_pot_odds() -> None:
    """Sixth street, four hearts and open-ended, a bet of 20 into 200 (odds 20:220)."""
    v = view(
        street=6,
        seats=[
            seat(0, up="9h 8h 2s Kc", hole="7h 4h"),
            seat(1, up="Jd Js 3c 5d", bet=20, last_action="bet"),
        ],
        legal=[("fold", 0, 0), ("call", 20, 20), ("raise", 40, 40)],
        pot=200,
        high=20,
    )
    assert "fold" not in choices(v, 30)


def test_folds_a_busted_draw_facing_a_bet_on_the_river() -> None:
    v = view(
        street=7,
        seats=[
            seat(0, up="9h 8h 2s Kc", down=3, hole="7h 4h 3d"),
            seat(1, up="Jd Js 3c 5d", down=3, bet=20, last_action="bet"),
        ],
        legal=[("fold", 0, 0), ("call", 20, 20), ("raise", 40, 40)],
        pot=200,
        high=20,
    )
    assert choices(v, 30).count("fold") >= 27


def test_never_folds_when_checking_is_free() -> None:
    v = view(
        street=5,
        seats=[
            seat(0, up="2c 7d 9s", hole="3h 4s"),
            seat(1, up="Ah Ad Kd"),
        ],
        legal=[("check", 0, 0), ("bet", 20, 20)],
        pot=60,
        high=0,
    )
    assert set(choices(v, 30)) <= {"check", "bet"}


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
    v = view(
        street=5,
        seats=[seat(0, up="2c 7d 9s", hole="3h 4s"), seat(1, up="Ah Ad Kd")],
        legal=[("check", 0, 0), ("bet", 20, 20)],
        pot=60,
        high=0,
    )
    picks = {choose_action(v, random.Random(s), style=wild) for s in range(30)}
    assert picks == {"check", "bet"}
