"""A computer seat's memory of the people it plays lasts the night (issue 21, point 1).

The memory (``server.brain.rivals``) is kept across the matches of the scoreboard's
night (``server.records``, ``server.night``) and cleared when a new night starts; it
knows people by name, so one who changes seats is still known; it never learns from a
card its seat did not see (R-S1); the same view, memory and random state give the same
choice.  A server restarted the same evening carries the scoreboard on, but its brains
start fresh (nothing of the memory is on disk) and remember from there to the night's
end.
"""

from __future__ import annotations

import asyncio
import copy
import json
import random
from datetime import datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from common.cards import full_deck
from common.engine import Hand
from common.match import SeatKind
from scripts import bot_deviations
from scripts.bench_bots import START, Night, deal_cards, parity, play_hand, run_chunk
from server import records
from server.brain import Brain, brain
from server.lobby import ComputerChairs
from server.seats import Seat
from server.table import Table
from server.timers import FakeClock
from tests.serverkit import Link, config, drive, run, seated, settle
from tests.stacking import view_dict as seat_view

NAME = "Friday's table"


class _Tomorrow(datetime):
    """The clock of the scoreboard, a day on: the next evening, a new night."""

    @classmethod
    def now(cls, tz: tzinfo | None = None) -> _Tomorrow:
        t = datetime.now(tz) + timedelta(days=1)
        return cls(*t.timetuple()[:6], t.microsecond, t.tzinfo)


def _table(tmp: Path) -> tuple[Table, FakeClock]:
    """A table on a fake clock whose one computer seat (6) is a shark with its own brain."""
    clock = FakeClock(pump=asyncio.get_running_loop().call_soon)
    cfg = config(tmp, name=NAME, computer=1, computer_levels=("shark",))
    return Table(cfg, chooser=None, clock=clock), clock


async def _match(table: Table, clock: FakeClock, ann: Link, seed: int) -> None:
    ann.send({"type": "start"})
    await drive(table, clock, [ann], random.Random(seed))
    assert not table.dealer.life.running


def _shark(table: Table) -> Brain:
    shark = table.seats[6].brain
    assert isinstance(shark, Brain) and shark.level.id == "shark"
    return shark


# ---------------------------------------------------------------- the table's night


@run
async def test_memory_lasts_the_nights_matches_and_clears_at_a_new_night(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, clock = _table(tmp_path)
    (ann,) = seated(table, "Ann")
    shark = _shark(table)
    await _match(table, clock, ann, 1)
    assert shark.memory.rivals["Ann"].dealt == 4 and shark.memory.hands == 4
    await _match(table, clock, ann, 2)  # a rematch, the same night
    assert _shark(table) is shark
    assert shark.memory.rivals["Ann"].dealt == 8 and shark.memory.hands == 8
    assert table.records.night.played == 2
    evening = table.records.night.evening

    last_night = shark.memory
    monkeypatch.setattr(records, "datetime", _Tomorrow)  # the next evening
    ann.send({"type": "start"})
    await settle(table, ann)
    assert table.records.night.evening != evening  # the scoreboard's new night...
    assert shark.memory is not last_night and shark.memory.hands == 0  # ...forgets
    assert shark.memory.rival(0).dealt == 0
    await drive(table, clock, [ann], random.Random(3))
    assert shark.memory.rivals["Ann"].dealt == 4
    assert table.records.night.played == 1

    # Nothing of the memory reaches a client: no message names a model's counts.
    said = json.dumps(ann.log)
    assert "dealt" not in said and "folded_to_us" not in said and "rivals" not in said


@run
async def test_a_new_level_and_a_restart_start_fresh_and_then_remember_the_night(
    tmp_path: Path,
) -> None:
    table, clock = _table(tmp_path)
    (ann,) = seated(table, "Ann")
    await _match(table, clock, ann, 1)
    assert _shark(table).memory.hands == 4
    ann.send({"type": "level", "seat": 6, "level": "shark"})  # the host picks anew
    fresh = _shark(table)
    assert fresh.memory.hands == 0
    await _match(table, clock, ann, 2)
    assert fresh.memory.rivals["Ann"].dealt == 4

    # The same evening, restarted: the scoreboard carries on, the brains start fresh.
    again, clock = _table(tmp_path)
    assert again.records.night.played == 2
    (ann,) = seated(again, "Ann")
    shark = _shark(again)
    assert shark.memory.hands == 0
    await _match(again, clock, ann, 3)
    await _match(again, clock, ann, 4)
    assert shark.memory.rivals["Ann"].dealt == 8


@run
async def test_a_resumed_match_remembers_on_into_the_nights_next_match(tmp_path: Path) -> None:
    table, clock = _table(tmp_path)
    links = [Link(table, "Ann")]
    links[0].hello()
    links[0].send({"type": "start"})
    await drive(table, clock, links, random.Random(1), until=lambda: table.dealer.hand_no >= 3)
    other = tmp_path / "again"
    other.mkdir()
    (other / table.journal.path.name).write_bytes(table.journal.path.read_bytes())
    again, clock = _table(other)
    assert again.resume()
    shark = _shark(again)
    assert shark.memory.hands == 0  # a fresh brain: the killed one's memory is gone
    ann = Link(again, "Ann")
    assert ann.hello(token=links[0].token)["type"] == "welcome"
    await drive(again, clock, [ann], random.Random(2))
    learned = shark.memory.hands
    assert learned >= 1
    ann.send({"type": "start"})
    await settle(again, ann)
    assert again.dealer.life.running and shark.memory.hands >= learned  # the same night: kept


# ---------------------------------------------------------------- by name, not by seat


def _hand(seats: list[int], button: int, deck: list[Any], choose: Any) -> Hand:
    """A hand dealt from ``deck`` and played to its end by ``choose(hand, seat)``."""
    hand = Hand(stacks={s: 600 for s in seats}, button=button, deck=deck)
    hand.start()
    while not hand.is_over:
        s = hand.to_act
        assert s is not None
        hand.apply(s, choose(hand, s))
    return hand


def _shuffled(rng: random.Random) -> list[Any]:
    deck = full_deck()
    rng.shuffle(deck)
    return deck


def _play(chairs: ComputerChairs, seats: dict[int, Seat], deals: int, seed: int) -> None:
    """``deals`` hands at ``seats``: the computer seat's brain plays, people call or check,
    and every brain sees its seat's view of each end (``ComputerChairs.hand_over``)."""
    rng = random.Random(seed)
    order = sorted(seats)

    def choose(hand: Hand, s: int) -> str:
        seat = seats[s]
        if seat.brain is None:
            return _script(hand, s, 8)
        assert seat.rng is not None
        return seat.brain(seat_view(hand, s), seat.rng)

    for d in range(deals):
        chairs.hand_over(_hand(order, order[d % len(order)], _shuffled(rng), choose))


def test_a_person_who_changes_seats_is_known_by_name() -> None:
    seats: dict[int, Seat] = {}
    chairs = ComputerChairs(seats, own_brains=True)
    ann = Seat(0, "Ann", SeatKind.HUMAN)
    seats[0] = ann
    ada = Seat(6, "Ada", SeatKind.COMPUTER, rng=random.Random(1), level="shark")
    chairs.seat([ada], night="2026-11-27")
    shark = seats[6].brain
    assert isinstance(shark, Brain)
    chairs.match_starts("2026-11-27")
    _play(chairs, seats, 5, 1)
    model = shark.memory.rivals["Ann"]
    assert model.dealt == 5

    del seats[0]  # Ann moves to seat 3 for the next match; Bob takes seat 0
    ann.seat = 3
    seats[3] = ann
    seats[0] = Seat(0, "Bob", SeatKind.HUMAN)
    chairs.match_starts("2026-11-27")
    _play(chairs, seats, 4, 2)
    assert shark.memory.rivals["Ann"] is model and model.dealt == 9
    assert shark.memory.rivals["Bob"].dealt == 4
    assert set(shark.memory.rivals) == {"Ann", "Bob"}  # no model under a seat number

    chairs.match_starts("2026-11-28")
    assert shark.memory.rivals == {} and shark.memory.hands == 0


# ---------------------------------------------------------------- what the seat saw


def _script(hand: Hand, s: int, fold_on: int) -> str:
    """A rival whose play ignores its cards: calls, and folds to a wager from ``fold_on``."""
    names = [a.kind.value for a in hand.legal_actions(s)]
    if hand.street >= fold_on and "fold" in names:
        return "fold"
    return next(a for a in ("check", "call", "bring_in") if a in names)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), fold_on=st.integers(3, 7))
def test_a_night_memory_never_learns_from_a_card_its_seat_did_not_see(
    seed: int, fold_on: int
) -> None:
    """R-S1: a hand in which the rival folds, played twice with its down cards swapped for
    cards nobody is dealt, leaves the shark's memory (built over an earlier match) equal."""
    base = brain("shark")
    base.meet({0: "Ada", 1: "Ann"})
    rng = random.Random(seed)

    def earlier(hand: Hand, s: int) -> str:
        return base(seat_view(hand, 0), rng) if s == 0 else _script(hand, s, 8)

    for _ in range(6):  # an earlier match of the night
        deck = _shuffled(rng)
        base.observe(seat_view(_hand([0, 1], rng.randint(0, 1), deck, earlier), 0))
    deck = _shuffled(rng)
    button = rng.randint(0, 1)

    def memory_after(cards: list[str]) -> tuple[Any, list[str]]:
        shark = copy.deepcopy(base)
        choice_rng = random.Random(seed + 1)
        played = []

        def choose(hand: Hand, s: int) -> str:
            a = shark(seat_view(hand, 0), choice_rng) if s == 0 else _script(hand, s, fold_on)
            played.append(a)
            return a

        end = seat_view(_hand([0, 1], button, cards, choose), 0)
        assume(not any(e.get("shown") for e in end["seats"] if e["seat"] == 1))
        shark.observe(end)
        return shark.memory, played

    first = Hand(stacks={0: 600, 1: 600}, button=button, deck=list(deck))
    first.start()
    rival = next(e for e in seat_view(first, 1)["seats"] if e["seat"] == 1)
    hidden = rival["hole"]  # the rival's down cards: seat 0 sees them only if shown
    assert len(hidden) == 2
    swapped = list(deck)
    for k, card in enumerate(hidden):  # each for a card of the pack's tail, never dealt
        i, j = [str(c) for c in swapped].index(card), len(swapped) - 1 - k
        swapped[i], swapped[j] = swapped[j], swapped[i]
    assert swapped != deck
    a, played_a = memory_after(deck)
    b, played_b = memory_after(swapped)
    assert played_a == played_b and a == b


def test_the_same_view_memory_and_random_state_give_the_same_choice() -> None:
    shark = brain("shark")
    shark.meet({0: "Ada", 1: "Ann", 2: "Bob"})
    rng = random.Random(4)

    def choose(hand: Hand, s: int) -> str:
        if s != 0:
            return _script(hand, s, 6)
        view = seat_view(hand, 0)
        twin, twin_rng = copy.deepcopy(shark), copy.deepcopy(rng)
        a = shark(view, rng)
        assert twin(view, twin_rng) == a and twin_rng.getstate() == rng.getstate()
        assert twin.memory == shark.memory
        return a

    for d in range(10):  # a night's memory of two people
        shark.observe(seat_view(_hand([0, 1, 2], d % 3, _shuffled(rng), choose), 0))
    assert set(shark.memory.rivals) == {"Ann", "Bob"}


# ---------------------------------------------------------------- the strength bench's nights
# (issue 21, point 2): its players sit in the table's own computer seats, keep their memory
# over a night's matches, forget it at the next night, and draw from random sources made
# for the night, so a night's result does not depend on the nights before; and they play
# as at a real table, decision for decision (issue 35, point 4).


def test_the_bench_plays_the_hands_of_a_real_table_decision_for_decision() -> None:
    """Two matches of a night at a ``Table`` (a person's seat played by tag, the shark
    and two pool members in computer seats), replayed by the bench's ``Night``."""
    hands, decisions = parity("shark", "tag", ["lag", "steamer"], matches=2, hands=4, seed=3)
    assert hands == 8 and decisions >= 8 * 4


def test_a_bench_night_keeps_memory_over_its_matches_and_forgets_at_the_next() -> None:
    table = Night({0: "shark", 1: "tag"})
    shark = table.players[0]
    assert isinstance(shark, Brain)
    for night in ("first", "second"):
        table.begin(night, {0: random.Random(1), 1: random.Random(2)})
        for match in range(2):
            table.chairs.match_starts(table.night)
            assert shark.memory.hands == 4 * match  # kept over the night, reset at a new one
            for h in range(4):
                cards = deal_cards(1, 4 * match + h, 2)
                play_hand(table, button=h % 2, cards=cards)
        assert set(shark.memory.rivals) == {"tag 1"} and shark.memory.rivals["tag 1"].dealt == 8


def test_a_nights_result_does_not_depend_on_the_nights_before_it() -> None:
    both = run_chunk("shark", "tag", 2, 3, 0, 2, 2, 4)
    assert both == run_chunk("shark", "tag", 2, 3, 0, 1, 2, 4) + run_chunk(
        "shark", "tag", 2, 3, 1, 1, 2, 4
    )


def test_deviations_roll_out_every_legal_action_the_same_way_twice() -> None:
    """``scripts/bot_deviations.py`` plays out each legal action of every decision it
    samples: a fold costs what the seat had put in (at least its ante), and the same
    night gives the same figures."""
    samples = bot_deviations.run("shark", "tag", 2, seed=1, night=0, rate=1.0, matches=1, hands=2)
    assert len(samples) >= 4
    for where, chosen, values in samples:
        assert chosen in values and len(values) >= 2, where
        assert "fold" not in values or values["fold"] < 0
        assert all(-START <= v <= START for v in values.values())
    again = bot_deviations.run("shark", "tag", 2, seed=1, night=0, rate=1.0, matches=1, hands=2)
    assert again == samples
