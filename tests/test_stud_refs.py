"""The benchmark's reference opponents (``scripts/stud_refs.py``): legal, deterministic
given the RNG, and each one plays as it says."""

from __future__ import annotations

import copy
import random

import pytest

from scripts.stud_refs import REFERENCES, YARDSTICKS, EquityPlayer, ScareBluffer, StationBound
from tests.record_decisions import random_point
from tests.stacking import seat, view
from tests.stacking import view_dict as seat_view

PLAYERS = {**REFERENCES, **YARDSTICKS}


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_every_reference_plays_only_legal_actions(name: str) -> None:
    """R-B1, R-B5: an offered button, never a fold when checking is free; the engine takes it.
    (Fewer random deals per decision for the players that sample: what they choose from is
    the same.)"""
    player = PLAYERS[name]()
    if hasattr(player, "samples"):
        player.samples = 100
    for seed in range(150):
        hand, rng_seed = random_point(seed)
        while not hand.is_over:
            s = hand.to_act
            assert s is not None
            v = seat_view(hand, s)
            before = copy.deepcopy(v)
            choice = player(v, random.Random(rng_seed + s))
            names = [a["action"] for a in v["legal"]]
            assert choice in names
            if "check" in names:
                assert choice != "fold"
            assert v == before
            hand.apply(s, choice)


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_every_reference_is_deterministic_given_its_rng(name: str) -> None:
    for seed in range(40):
        hand, rng_seed = random_point(seed)
        if hand.is_over:
            continue
        v = seat_view(hand, hand.to_act)
        a_rng, b_rng = random.Random(rng_seed), random.Random(rng_seed)
        a = PLAYERS[name]()(v, a_rng)
        b = PLAYERS[name]()(copy.deepcopy(v), b_rng)
        assert a == b
        assert a_rng.getstate() == b_rng.getstate()


CHECKED_TO = "check 0/0, bet 20/20"
FACING = "fold 0/0, call 20/20, raise 40/40"


def _fifth(hole: str, up: str, rival_up: str, buttons: str, high: int) -> dict:
    rival = seat(1, rival_up, bet=high, last_action="bet" if high else "check")
    return view(5, [seat(0, up, hole), rival], buttons, pot=80 + high, high=high)


def test_the_equity_player_bets_a_big_edge_and_folds_a_dead_hand() -> None:
    strong = _fifth("As Ad", "Ac Kd 7h", "2c 5d 9s", CHECKED_TO, 0)
    beaten = _fifth("2h 3s", "7d 8c Jh", "Ks Kd Kc", FACING, 20)
    for seed in range(10):
        assert EquityPlayer()(strong, random.Random(seed)) == "bet"
        assert EquityPlayer()(beaten, random.Random(seed)) == "fold"


def test_the_scare_bluffer_bets_a_paired_board_whatever_it_holds() -> None:
    scary = _fifth("2h 3s", "Kd Kc 7h", "9c 5d 4s", CHECKED_TO, 0)
    quiet = _fifth("2h 3s", "Kd 8c 7h", "9c 5d 4s", CHECKED_TO, 0)
    bets = sum(ScareBluffer()(scary, random.Random(seed)) == "bet" for seed in range(40))
    assert bets >= 25
    assert all(ScareBluffer()(quiet, random.Random(seed)) == "check" for seed in range(10))


def test_the_station_bound_wagers_when_ahead_and_never_folds() -> None:
    """Against a rival that only calls: a wager exactly when more likely than not to win,
    else check (or call: it never folds, R-B5 aside)."""
    ahead = _fifth("As Ad", "Ac Kd 7h", "2c 5d 9s", CHECKED_TO, 0)
    behind = _fifth("2h 3s", "7d 8c Jh", "Ks Kd Kc", CHECKED_TO, 0)
    beaten = _fifth("2h 3s", "7d 8c Jh", "Ks Kd Kc", FACING, 20)
    for seed in range(5):
        assert StationBound()(ahead, random.Random(seed)) == "bet"
        assert StationBound()(behind, random.Random(seed)) == "check"
        assert StationBound()(beaten, random.Random(seed)) == "call"
