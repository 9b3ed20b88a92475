"""Every timer of the table on a fake clock (``server.timers.FakeClock``): the turn clock
and bank (R-C4), a dropped seat's grace (R-C1), the pauses between hands and after the
last one (R-T6: the last hand's showdown stays on the table before the standings cover
it), and the host's pause (R-C3), which holds those too.  No sockets and no sleeping: each test
advances the clock and looks at what every link was sent, so the times are exact.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from common.protocol import Act
from tests.serverkit import Link, advance, clocked_table, config, run, seat_to_act, seated, settle

pytestmark = pytest.mark.timeout(60)

DEFAULTS = {"check", "fold", "bring_in"}  # R-C2: check if it can, else fold; the bring-in brings in


def answer(link: Link, turn: dict[str, Any]) -> None:
    """Play the turn's first offered action (``fold`` when it is offered)."""
    names = [a["action"] for a in turn["legal"]]
    link.send(Act(turn["turn"], "fold" if "fold" in names else names[0]).encode())


async def until(table: Any, clock: Any, link: Link, done: Any, *, step: float = 0.5) -> None:
    """Advance the clock ``step`` at a time until ``done()`` (a few minutes at most)."""
    for _ in range(1000):
        if done():
            return
        await advance(table, clock, step, link)
    raise AssertionError("it never happened")


@run
async def test_r_c4_the_decision_seconds_then_the_bank_then_away(tmp_path: Path) -> None:
    cfg = config(
        tmp_path, computer=1, start_when=2, hands=12, turn_time=2, time_bank=30, bot_delay=1
    )
    table, clock = await clocked_table(cfg)
    (ann,) = seated(table, "ann")
    options = {"turn_time": 2, "time_bank": 30, "stand_in": False}
    assert ann.last("lobby")["options"] == options
    await until(table, clock, ann, lambda: ann.of_type("turn"), step=0.01)
    turn = ann.of_type("turn")[-1]
    assert (turn["time_left"], turn["bank"]) == (2.0, 30.0)
    clock_msg = ann.last("clock", seat=ann.seat)
    assert clock_msg["turn"] == turn["turn"] and clock_msg["running"] is True
    # Eight seconds: the two of the decision, then six of the bank.
    await advance(table, clock, 8, ann)
    assert not ann.of_type("seat_away")
    answer(ann, turn)
    await until(table, clock, ann, lambda: ann.of_type("turn")[-1] is not turn, step=0.01)
    turn2 = ann.of_type("turn")[-1]
    assert (turn2["time_left"], turn2["bank"]) == (2.0, 24.0)
    # She does nothing: 2 + 24 seconds later, and not a moment before, she is away.
    await advance(table, clock, 25.9, ann)
    assert not ann.of_type("seat_away")
    await advance(table, clock, 0.1, ann)
    away = ann.last("seat_away", seat=ann.seat)
    assert away == {"type": "seat_away", "seat": ann.seat, "away": True, "why": "clock",
                    "stand_in": False}  # fmt: skip
    # Away, her turns are played at once by the default, and she is sent none (R-C2).
    sent = len(ann.of_type("turn"))
    acts = len(ann.acts(ann.seat))
    await until(table, clock, ann, lambda: len(ann.acts(ann.seat)) >= acts + 3)
    assert all(a["action"] in DEFAULTS for a in ann.acts(ann.seat)[acts - 1 :])
    assert len(ann.of_type("turn")) == sent
    me = next(p for p in ann.last("table")["players"] if p["seat"] == ann.seat)
    assert (me["away"], me["away_why"]) == (True, "clock")
    # Back: from her next turn she plays again, with the bank she has left (none).
    ann.send({"type": "back"})
    await settle(table, ann)
    assert ann.last("seat_away", seat=ann.seat)["away"] is False
    await until(table, clock, ann, lambda: len(ann.of_type("turn")) > sent, step=0.1)
    turn3 = ann.of_type("turn")[-1]
    assert turn3["turn"] > turn2["turn"] and turn3["bank"] == 0
    table.shutdown()


@run
async def test_r_c1_grace_then_away_then_back_by_token(tmp_path: Path) -> None:
    cfg = config(tmp_path, computer=1, start_when=3, hands=12, grace=4, turn_time=0)
    table, clock = await clocked_table(cfg)
    ann, bob = seated(table, "ann", "bob")
    await settle(table, ann, bob)
    # Play until it is Bob's turn, then his link goes.
    while not bob.of_type("turn") or bob.of_type("turn")[-1]["turn"] != table.turns.turn_id:
        answer(ann, ann.of_type("turn")[-1])
        await settle(table, ann, bob)
    bob.drop()
    await settle(table, ann)
    assert ann.last("presence", seat=bob.seat) == {
        "type": "presence", "seat": bob.seat, "connected": False, "grace": 4
    }  # fmt: skip
    acts = len(ann.acts(bob.seat))
    await advance(table, clock, 3.9, ann)
    assert len(ann.acts(bob.seat)) == acts and not ann.of_type("seat_away")
    await advance(table, clock, 0.1, ann)
    assert ann.last("seat_away", seat=bob.seat)["why"] == "dropped"
    assert ann.acts(bob.seat)[-1]["action"] in DEFAULTS
    # His next turns are played at once: no grace for an away seat (R-C2).
    while seat_to_act(table) != ann.seat or len(ann.acts(bob.seat)) < acts + 2:
        if seat_to_act(table) == ann.seat:
            answer(ann, ann.of_type("turn")[-1])
        await advance(table, clock, 0, ann)
    # He comes back with his token: the away spell his drop began is over.
    back = Link(table, "bob")
    back.hello(token=bob.token)
    await settle(table, ann, back)
    assert ann.last("presence", seat=bob.seat)["connected"] is True
    assert ann.last("seat_away", seat=bob.seat) == {
        "type": "seat_away", "seat": bob.seat, "away": False, "why": None, "stand_in": False
    }  # fmt: skip
    table.shutdown()


@run
async def test_r_c3_a_pause_stops_the_clock_where_it_stood(tmp_path: Path) -> None:
    cfg = config(tmp_path, computer=1, start_when=2, hands=4, turn_time=2, time_bank=0)
    table, clock = await clocked_table(cfg)
    (ann,) = seated(table, "ann")
    await settle(table, ann)
    turn = ann.of_type("turn")[-1]
    await advance(table, clock, 1.5, ann)
    ann.send({"type": "pause"})
    await settle(table, ann)
    frozen = ann.last("clock", running=False)
    assert (frozen["turn"], frozen["time_left"], frozen["bank"]) == (turn["turn"], 0.5, 0)
    await advance(table, clock, 600, ann)  # paused: the clock stands still
    assert not ann.of_type("seat_away")
    ann.send({"type": "resume"})
    await settle(table, ann)
    running = ann.last("clock", running=True)
    assert (running["turn"], running["time_left"]) == (turn["turn"], 0.5)
    assert ann.of_type("turn")[-1]["turn"] == turn["turn"]  # the same turn, sent again
    await advance(table, clock, 0.4, ann)
    assert not ann.of_type("seat_away")
    await advance(table, clock, 0.1, ann)
    assert ann.last("seat_away", seat=ann.seat)["why"] == "clock"
    table.shutdown()


def _hands_dealt(link: Link) -> set[int]:
    return {m["hand"] for m in link.of_type("table")}


@run
async def test_the_pause_between_hands_and_a_pause_holding_the_deal(tmp_path: Path) -> None:
    cfg = config(tmp_path, computer=2, start_when=3, hands=4, hand_pause=5)
    table, clock = await clocked_table(cfg)
    (ann,) = seated(table, "ann")
    ann.send({"type": "away"})  # her seat plays itself: hands end on their own
    await advance(table, clock, 0, ann)
    while not ann.of_type("hand_end", hand=1):
        await advance(table, clock, 0, ann)
    assert _hands_dealt(ann) == {1}
    await advance(table, clock, 4.9, ann)
    assert _hands_dealt(ann) == {1}
    await advance(table, clock, 0.1, ann)
    assert 2 in _hands_dealt(ann)
    # R-C3: paused between hands, the next deal waits for the host's resume.
    while not ann.of_type("hand_end", hand=2):
        await advance(table, clock, 0, ann)
    ann.send({"type": "pause"})
    await advance(table, clock, 600, ann)
    assert _hands_dealt(ann) == {1, 2}
    ann.send({"type": "resume"})
    await advance(table, clock, 0.9, ann)
    assert _hands_dealt(ann) == {1, 2}
    await advance(table, clock, 0.1, ann)  # a second after the resume
    assert 3 in _hands_dealt(ann)
    table.shutdown()


@run
async def test_r_t6_the_final_pause_before_the_standings(tmp_path: Path) -> None:
    cfg = config(tmp_path, computer=2, start_when=3, hands=4, hand_pause=1, final_pause=30)
    table, clock = await clocked_table(cfg)
    (ann,) = seated(table, "ann")
    ann.send({"type": "away"})
    while not ann.of_type("hand_end", hand=4):
        await advance(table, clock, 1, ann)
    assert not ann.of_type("standings") and table.dealer.life.running
    await advance(table, clock, 29.9, ann)
    assert not ann.of_type("standings") and table.dealer.life.running  # the showdown shows
    # A comeback during the pause still gets the table, with the last hand.
    back = Link(table, "back")
    assert back.hello(token=ann.token)["seat"] == ann.seat
    assert (back.last("table")["hand"], back.last("table")["view"]["over"]) == (4, True)
    await advance(table, clock, 0.1, back)
    assert back.last("standings")["hands_played"] == 4
    assert back.last("lobby")["running"] is False
    table.shutdown()


@run
async def test_r_c3_a_pause_holds_the_standings_until_the_host_resumes(tmp_path: Path) -> None:
    cfg = config(tmp_path, computer=2, start_when=3, hands=4, hand_pause=1, final_pause=2)
    table, clock = await clocked_table(cfg)
    (ann,) = seated(table, "ann")
    ann.send({"type": "away"})
    while not ann.of_type("table", hand=4):
        await advance(table, clock, 1, ann)
    ann.send({"type": "pause"})  # during the last hand, which is played out
    while not ann.of_type("hand_end", hand=4):
        await advance(table, clock, 1, ann)
    await advance(table, clock, 10, ann)  # five times the final pause
    assert not ann.of_type("standings") and table.dealer.life.running
    ann.send({"type": "resume"})
    await advance(table, clock, 0.9, ann)
    assert not ann.of_type("standings")
    await advance(table, clock, 0.1, ann)  # a second after the resume
    assert ann.last("standings")["hands_played"] == 4
    assert ann.last("lobby")["running"] is False
    table.shutdown()


@run
async def test_computer_seats_pause_before_they_choose(tmp_path: Path) -> None:
    cfg = config(tmp_path, computer=2, start_when=3, hands=4, bot_delay=2)
    table, clock = await clocked_table(cfg)
    (ann,) = seated(table, "ann")
    ann.send({"type": "away"})
    await settle(table, ann)
    to_act = seat_to_act(table)
    assert to_act is not None and to_act != ann.seat  # a computer seat
    await advance(table, clock, 1.19, ann)
    assert not ann.acts(to_act)
    await advance(table, clock, 1.62, ann)
    assert ann.acts(to_act)
    table.shutdown()


@run
async def test_a_seat_for_the_next_match_has_nothing_to_step_away_from_or_take(
    tmp_path: Path,
) -> None:
    """A seat taken once a match has begun watches it and plays from the next one: it is
    in no away spell of this match, so ``away`` and the host's ``take_seat`` are refused
    (R-C2, R-C3), ``back`` finds it not away, and its lobby entry still says ``next``."""
    cfg = config(tmp_path, computer=1, start_when=2, hands=4, bot_delay=1)
    table, clock = await clocked_table(cfg)
    (ann,) = seated(table, "ann")
    await settle(table, ann)
    assert table.dealer.life.running
    (dan,) = seated(table, "dan")
    await settle(table, ann, dan)
    for msg, code in (({"type": "away"}, "no_match"), ({"type": "back"}, "not_away")):
        dan.send(msg)
        assert dan.last("error")["code"] == code
    ann.send({"type": "take_seat", "seat": dan.seat})
    assert ann.last("error") == {
        "type": "error", "code": "bad_seat", "ref": "take_seat",
        "message": "this seat plays from the next match: it has nothing to take away yet",
    }  # fmt: skip
    assert not ann.of_type("seat_away") and not dan.of_type("seat_away")
    entry = next(s for s in ann.last("lobby")["seats"] if s["seat"] == dan.seat)
    assert entry["next"] is True and entry["away"] is False
    table.shutdown()
