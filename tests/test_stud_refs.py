"""The benchmark's reference players (``scripts/stud_refs.py``): legal, deterministic
given the RNG and what they observed, and each one plays as it says."""

from __future__ import annotations

import copy
import random

import pytest

from scripts.stud_refs import LAG, POOL, TAG, YARDSTICKS, Steamer
from tests.record_decisions import random_point
from tests.stacking import seat, view
from tests.stacking import view_dict as seat_view

PLAYERS = {**POOL, **YARDSTICKS}


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_every_reference_plays_only_legal_actions_and_the_same_given_its_rng(name: str) -> None:
    """R-B1, R-B5: an offered button, never a fold when checking is free; the engine takes
    it; the view is left as it was; a twin with the same RNG state makes the same choice.
    (Fewer random deals per decision for the players that sample: what they choose from
    is the same.)"""
    player, twin = PLAYERS[name](), PLAYERS[name]()
    for p in (player, twin):
        if hasattr(p, "samples"):
            p.samples = 100
    for seed in range(150):
        hand, rng_seed = random_point(seed)
        while not hand.is_over:
            s = hand.to_act
            assert s is not None
            v = seat_view(hand, s)
            before = copy.deepcopy(v)
            rng, twin_rng = random.Random(rng_seed + s), random.Random(rng_seed + s)
            choice = player(v, rng)
            names = [a["action"] for a in v["legal"]]
            assert choice in names and not ("check" in names and choice == "fold")
            assert v == before
            assert twin(before, twin_rng) == choice and twin_rng.getstate() == rng.getstate()
            hand.apply(s, choice)
        if hasattr(player, "observe"):
            for p in (player, twin):
                p.observe(seat_view(hand, min(hand.final_stacks())))


CHECKED_TO = "check 0/0, bet 20/20"
FACING = "fold 0/0, call 20/20, raise 40/40"
STRONG = ("As Ad", "Ac Kd 7h", "2c 5d 9s")  # trip aces against nothing
DEAD = ("2h 3s", "7d 8c Jh", "Ks Kd Kc")  # jack high against trip kings showing
MIDDLE = ("9h 3s", "9d 8c 2h", "Tc 5d 4s")  # nines against a ten showing
SCARY = ("2h 3s", "Jd 8d 4d", "Tc 5c 9s")  # three to a flush showing, over nothing


@pytest.mark.parametrize(
    ("name", "cards", "buttons", "want", "least"),
    [
        ("tag", STRONG, CHECKED_TO, "bet", 10),
        ("tag", DEAD, FACING, "fold", 10),
        ("rock", STRONG, CHECKED_TO, "bet", 10),
        ("rock", MIDDLE, CHECKED_TO, "check", 10),  # not far enough ahead to bet
        ("tag", MIDDLE, CHECKED_TO, "bet", 10),  # the solid player bets it
        ("loose", MIDDLE, FACING, "call", 10),  # one pair: calls down
        ("loose", STRONG, FACING, "raise", 2),  # raises its good hands, sometimes
        ("loose", STRONG, FACING, "call", 2),
        ("lag", SCARY, CHECKED_TO, "bet", 4),  # bluffs a scary board often
        ("tag", SCARY, CHECKED_TO, "check", 7),  # seldom
        ("bound", STRONG, CHECKED_TO, "bet", 10),  # wagers when more likely than not to win
        ("bound", DEAD, CHECKED_TO, "check", 10),
        ("bound", DEAD, FACING, "call", 10),  # and never folds
        ("caller", STRONG, CHECKED_TO, "check", 10),
    ],
)
def test_each_reference_plays_as_it_says(
    name: str, cards: tuple[str, str, str], buttons: str, want: str, least: int
) -> None:
    """Fifth street heads-up: at least ``least`` of ten seeds make the choice ``want``."""
    hole, up, rival_up = cards
    high = 20 if "call" in buttons else 0
    rival = seat(1, rival_up, bet=high, last_action="bet" if high else "check")
    v = view(5, [seat(0, up, hole), rival], buttons, pot=80 + high, high=high)
    got = [PLAYERS[name]()(v, random.Random(seed)) for seed in range(10)]
    assert got.count(want) >= least, got


def test_the_steamer_plays_loose_after_losing_a_pot_until_a_new_night() -> None:
    steamer = Steamer()
    end = view(7, [seat(0, "Ac Kd 7h 2s", "As Ad 3c", down=3), seat(1, "2c 5d 9s 9h")], "", pot=120)
    end["over"] = True
    end["seats"][0]["in_pot"] = 60
    end["awards"] = [{"seat": 1, "amount": 120, "pot": 0}]
    assert steamer.current() is TAG
    steamer.observe(end)  # lost 60 chips
    assert steamer.current() is LAG
    quiet = copy.deepcopy(end)
    quiet["seats"][0]["in_pot"] = 1  # folded on third street: only the ante lost
    for _ in range(Steamer.hands):
        assert steamer.current() is LAG
        steamer.observe(quiet)
    assert steamer.current() is TAG
    steamer.observe(end)
    steamer.reset()
    assert steamer.current() is TAG
