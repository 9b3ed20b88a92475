"""R-C2 (away), R-C3 (pause, taking a seat away, a computer standing in) and R-C4 (the turn
clock and time bank), on a table with no sockets whose every timer runs off a fake clock
(``tests.serverkit.clocked_table``): each test plays with ``Link`` clients and moves the
clock on instead of sleeping.  The exact clock, bank, grace and pause times are in
``tests/test_server_clocked.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from common.protocol import Act
from common.schema import SeatView
from server.net import Limits
from server.table import Table
from server.timers import FakeClock
from tests.hhcheck import problems
from tests.serverkit import Link, advance, choose, clocked_table, config, drive, run, settle

pytestmark = pytest.mark.timeout(90)

DEFAULTS = {"check", "fold", "bring_in"}  # R-C2: check if it can, else fold; the bring-in brings in


def player(msg: dict[str, Any], seat: int | None) -> dict[str, Any]:
    return next(p for p in msg["players"] if p["seat"] == seat)


async def seated(table: Table, *names: str) -> list[Link]:
    """A link for each name, said hello (and seated, if there is a seat) in that order."""
    links = [Link(table, name) for name in names]
    for link in links:
        link.hello()
    await settle(table, *links)
    return links


async def play(table: Table, clock: FakeClock, *links: Link, until: Any = None) -> None:
    """Random legal play by every link on its turn (``tests.serverkit.drive``), to the
    match's end or until ``until()``, which must come true before the end."""
    await drive(table, clock, list(links), random.Random(5), until=until)
    assert until is None or until(), "the match ended first"


def refused(link: Link, msg: dict[str, Any], code: str) -> None:
    """``msg`` is answered with an error of ``code`` that names it, and nothing else."""
    mark = len(link.log)
    link.send(msg)
    (err,) = link.log[mark:]
    assert (err["type"], err["code"], err["ref"]) == ("error", code, msg["type"]), (msg, err)
    assert err["message"]


def turned_since(link: Link, mark: int) -> bool:
    """``link`` has been sent a turn since its ``mark``-th message."""
    return any(m["type"] == "turn" for m in link.log[mark:])


def chips(link: Link) -> int:
    return sum(r["stack"] for r in link.last("standings")["standings"])


# ------------------------------------------------------------------ R-C4


@run
async def test_r_c4_clock_off_with_turn_time_zero(tmp_path: Path) -> None:
    cfg = config(tmp_path, computer=1, start_when=2, turn_time=0, time_bank=30)
    table, clock = await clocked_table(cfg)
    (ann,) = await seated(table, "ann")
    assert ann.of_type("lobby")[0]["options"]["turn_time"] is None
    await play(table, clock, until=lambda: ann.of_type("turn"))
    turn = ann.of_type("turn")[0]
    assert turn["time_left"] is None and turn["bank"] is None
    assert not ann.of_type("clock")
    table.shutdown()


# ------------------------------------------------------------------ R-C2


@run
async def test_r_c2_away_and_back_everyone_sees_it(tmp_path: Path) -> None:
    cfg = config(tmp_path, computer=1, start_when=3, hands=12, turn_time=600)
    table, clock = await clocked_table(cfg)
    ann, bob = await seated(table, "ann", "bob")
    assert ann.of_type("match_start")
    ann.send({"type": "away"})
    away = bob.last("seat_away", seat=ann.seat)
    assert away["away"] is True and away["why"] == "asked"
    mark = len(ann.log)
    await play(table, clock, ann, bob, until=lambda: len(ann.acts(ann.seat, mark)) >= 3)
    assert all(a["action"] in DEFAULTS for a in ann.acts(ann.seat, mark))
    assert not turned_since(ann, mark)
    assert player(bob.last("table"), ann.seat)["away"] is True
    ann.send({"type": "back"})
    assert bob.last("seat_away", seat=ann.seat) == {
        "type": "seat_away", "seat": ann.seat, "away": False, "why": None, "stand_in": False
    }  # fmt: skip
    # Her next turn is hers again, and she plays it.
    mark = len(ann.log)
    await play(table, clock, ann, bob, until=lambda: turned_since(ann, mark))
    await play(table, clock, ann, bob)
    assert ann.acts(ann.seat, mark) and chips(ann) == 3 * 600
    table.shutdown()


@pytest.mark.parametrize("message", ["away", "leave"])
@run
async def test_r_c2_a_seat_away_or_gone_is_played_by_default_and_the_table_never_waits(
    tmp_path: Path, message: str
) -> None:
    """Stepping away, or leaving mid-match (the seat is away at once, no grace: R-C1's
    grace is 600 s here), with only computers left: the match plays to its end."""
    cfg = config(tmp_path, computer=2, start_when=3, hands=4, turn_time=600, grace=600)
    table, clock = await clocked_table(cfg)
    (ann,) = await seated(table, "ann")
    cy = Link(table, "cy")
    cy.hello(watch=True)
    ann.send({"type": message})
    assert cy.last("seat_away", seat=ann.seat)["why"] == "asked"
    await play(table, clock)
    assert cy.last("standings")["hands_played"] == 4 and chips(cy) == 3 * 600
    assert all(a["action"] in DEFAULTS for a in cy.acts(ann.seat))
    # Every away spell ends with the match.
    assert not any(s["away"] for s in cy.last("lobby", running=False)["seats"])
    table.shutdown()


# ------------------------------------------------------------------ R-C3


@run
async def test_r_c3_pause_finishes_the_hand_stops_the_clock_and_resume_deals(
    tmp_path: Path,
) -> None:
    cfg = config(tmp_path, computer=1, start_when=3, hands=4, turn_time=2, time_bank=0)
    table, clock = await clocked_table(cfg)
    ann, bob = await seated(table, "ann", "bob")
    await play(table, clock, ann, bob, until=lambda: table.turns.to_act is table.seats[ann.seat])
    turn = ann.of_type("turn")[-1]
    ann.send({"type": "pause"})
    assert bob.last("paused") == {"type": "paused", "paused": True, "name": "ann"}
    frozen = bob.last("clock", running=False)
    assert frozen["seat"] == ann.seat and frozen["turn"] == turn["turn"]
    acts = len(bob.acts(ann.seat))
    await advance(table, clock, 10, ann, bob)  # five times her clock
    assert len(bob.acts(ann.seat)) == acts, "the clock ran while paused"
    assert not ann.of_type("seat_away")
    # They play on while paused; the hand in play is finished, and no new one comes.
    await play(table, clock, ann, bob, until=lambda: ann.of_type("hand_end"))
    await advance(table, clock, 10, ann, bob)  # hand_pause is 0: an unpaused table deals at once
    assert {m["hand"] for m in ann.of_type("table")} == {1}
    watcher = Link(table, "watcher")
    watcher.hello(watch=True)
    assert watcher.last("lobby")["paused"] is True
    ann.send({"type": "resume"})
    assert bob.last("paused") == {"type": "paused", "paused": False, "name": "ann"}
    await settle(table, ann, bob)
    assert ann.of_type("table", hand=2)
    await play(table, clock, ann, bob)
    assert ann.last("standings")["hands_played"] == 4 and chips(ann) == 3 * 600
    table.shutdown()


@run
async def test_r_c3_host_takes_a_seat_away_for_the_rest_of_the_match(tmp_path: Path) -> None:
    cfg = config(tmp_path, computer=1, start_when=3, hands=4, turn_time=600)
    table, clock = await clocked_table(cfg)
    ann, bob = await seated(table, "ann", "bob")
    await play(table, clock, ann, until=lambda: table.turns.to_act is table.seats[bob.seat])
    turn = bob.of_type("turn")[-1]  # the table waits on Bob ...
    ann.send({"type": "take_seat", "seat": bob.seat})  # ... and the host has had enough
    taken = bob.last("seat_away", seat=bob.seat)
    assert taken["why"] == "taken" and taken["away"] is True
    await settle(table, ann, bob)
    assert bob.acts(bob.seat)
    # Bob can only watch now.
    for msg in ({"type": "back"}, {"type": "away"}, Act(turn["turn"], "fold").encode()):
        refused(bob, msg, "seat_taken")
    await play(table, clock, ann, bob)
    assert all(a["action"] in DEFAULTS for a in bob.acts(bob.seat))
    assert not [m for m in bob.log if m["type"] == "turn" and m["turn"] > turn["turn"]]
    assert chips(bob) == 3 * 600
    # The match is over: the seat is Bob's again for the next one.
    lobby = bob.last("lobby", running=False)
    assert [s["away"] for s in lobby["seats"]] == [False, False, False]
    table.shutdown()


@run
async def test_r_c3_stand_in_plays_an_away_seat_and_gives_it_back(tmp_path: Path) -> None:
    asked: list[int] = []

    def chooser(view: SeatView, rng: random.Random) -> str:
        assert view.you is not None
        asked.append(view.you)
        return choose(view, rng)

    cfg = config(tmp_path, computer=1, start_when=3, hands=12, turn_time=600, stand_in=True)
    table, clock = await clocked_table(cfg, chooser=chooser)
    ann, bob = await seated(table, "ann", "bob")
    assert ann.last("lobby")["options"]["stand_in"] is True
    ann.send({"type": "away"})
    at = len(bob.log)
    assert bob.last("seat_away", seat=ann.seat)["stand_in"] is True
    await play(table, clock, bob, until=lambda: len(bob.acts(ann.seat, at)) >= 3)
    assert asked.count(ann.seat) >= 3  # the computer brain chose for her seat
    assert player(bob.last("table"), ann.seat)["stand_in"] is True
    assert player(bob.last("table"), ann.seat)["kind"] == "human"  # still her seat, her chips
    ann.send({"type": "back"})
    assert bob.last("seat_away", seat=ann.seat)["away"] is False
    await settle(table, ann, bob)
    asked_then = asked.count(ann.seat)
    mark = len(ann.log)
    await play(table, clock, ann, bob)
    assert turned_since(ann, mark) and ann.acts(ann.seat, mark)
    assert asked.count(ann.seat) == asked_then  # the person plays from here on
    assert chips(ann) == 3 * 600
    table.shutdown()


@run
async def test_r_c3_the_host_terminal_of_a_headless_server(tmp_path: Path) -> None:
    cfg = config(tmp_path, computer=1, start_when=3, hands=4, turn_time=600)
    table, clock = await clocked_table(cfg)
    assert table.console("pause").startswith("refused")  # no match yet
    assert table.console("stand-in on") == "ok"
    assert "commands" in table.console("dance")
    ann, bob = await seated(table, "ann", "bob")
    assert ann.of_type("lobby")[0]["options"]["stand_in"] is True
    assert ann.of_type("match_start")
    assert table.console("stand-in off").startswith("refused")
    assert table.console("pause") == "ok"
    assert ann.last("paused")["paused"] is True
    assert table.console("pause").startswith("refused")
    assert table.console("take 6").startswith("refused")  # a computer seat
    assert table.console("take x").startswith("usage")
    assert table.console(f"take {bob.seat}") == "ok"
    assert ann.last("seat_away", seat=bob.seat)["why"] == "taken"
    assert "paused" in table.console("status") and "taken" in table.console("status")
    assert table.console("resume") == "ok"
    await play(table, clock, ann)
    assert chips(ann) == 3 * 600
    table.shutdown()


# ------------------------------------------------------------------ bad input


@run
async def test_r_c2_r_c3_bad_input_to_the_new_messages_is_refused_and_changes_nothing(
    tmp_path: Path,
) -> None:
    table, clock = await clocked_table(config(tmp_path, computer=1, hands=4, turn_time=600))
    ann, bob = await seated(table, "ann", "bob")  # Ann is the host
    cy = Link(table, "cy")
    cy.hello(watch=True)
    options = ann.last("lobby")["options"]
    # In the lobby: nothing to step away from or pause; only the host sets the table.
    for msg, code in (({"type": "away"}, "no_match"), ({"type": "back"}, "not_away"),
                      ({"type": "pause"}, "no_match"), ({"type": "resume"}, "no_match"),
                      ({"type": "take_seat", "seat": bob.seat}, "no_match")):  # fmt: skip
        refused(ann, msg, code)
    refused(bob, {"type": "options", "turn_time": 5}, "not_host")
    refused(cy, {"type": "options", "turn_time": 5}, "not_host")
    refused(cy, {"type": "away"}, "not_seated")
    for bad in ({"turn_time": "30"}, {"turn_time": True}, {"turn_time": -1},
                {"turn_time": 10**6}, {"time_bank": [90]}, {"stand_in": 1},
                {"time_bank": float("nan")}):  # fmt: skip
        refused(ann, {"type": "options", **bad}, "bad_message")
    assert cy.last("lobby")["options"] == options
    ann.send({"type": "start"})
    await settle(table, ann, bob, cy)
    assert bob.of_type("match_start")
    # During the match.
    refused(bob, {"type": "pause"}, "not_host")
    refused(bob, {"type": "take_seat", "seat": ann.seat}, "not_host")
    refused(cy, {"type": "pause"}, "not_seated")
    refused(cy, {"type": "back"}, "not_seated")
    for msg, code in (({"type": "resume"}, "not_paused"),
                      ({"type": "options", "stand_in": True}, "match_running"),
                      ({"type": "take_seat"}, "bad_message"),
                      ({"type": "take_seat", "seat": "1"}, "bad_message"),
                      ({"type": "take_seat", "seat": 9}, "bad_seat"),
                      ({"type": "take_seat", "seat": 6}, "bad_seat"),  # a computer seat
                      ({"type": "take_seat", "seat": 3}, "bad_seat"),  # an empty seat
                      ({"type": "take_seat", "seat": ann.seat}, "bad_seat")):  # fmt: skip
        refused(ann, msg, code)
    refused(bob, {"type": "back"}, "not_away")
    bob.send({"type": "away"})
    refused(bob, {"type": "away"}, "already_away")
    await settle(table, ann, bob, cy)
    refused(bob, Act(0, "fold").encode(), "not_your_turn")  # away: played for it
    ann.send({"type": "pause"})
    refused(ann, {"type": "pause"}, "already_paused")
    ann.send({"type": "take_seat", "seat": bob.seat})
    refused(ann, {"type": "take_seat", "seat": bob.seat}, "seat_taken")
    ann.send({"type": "resume"})
    # Nothing refused changed anything: the match plays to the end, no chip lost.
    await play(table, clock, ann, bob)
    assert chips(ann) == 3 * 600
    assert [m["paused"] for m in cy.of_type("paused")] == [True, False]
    assert [m["why"] for m in cy.of_type("seat_away")] == ["asked", "taken"]
    table.shutdown()


# ------------------------------------------------------------------ the whole night


@run
async def test_friends_night_away_for_three_hands_a_pause_and_a_drop_history_is_valid(
    tmp_path: Path,
) -> None:
    """Issue 8's "done when": two people, one computer seat and a watcher play a whole match;
    Bob's link goes black mid-hand (no close: it just stops, R-C1) and he comes back by
    token, the host pauses once, Bob stays away for three hands; the history file passes
    ``tests/hhcheck.py``."""
    cfg = config(tmp_path, computer=1, hands=8, turn_time=600, grace=4)
    table, clock = await clocked_table(cfg)
    ann = Link(table, "ann")
    ann.hello()
    bob = Link(table, "bob", limits=Limits(heartbeat_every=2, link_timeout=12))
    bob.hello(heartbeat=True)  # says it sends a frame every few seconds
    cy = Link(table, "cy")
    cy.hello(watch=True)
    ann.send({"type": "start"})
    # Hand 1: Bob plays once, then his link goes black; the server finds it gone.
    await play(table, clock, ann, bob, until=lambda: bob.acts(bob.seat))
    await play(table, clock, ann, until=lambda: cy.of_type("presence", connected=False))
    assert cy.last("presence")["seat"] == bob.seat
    bob, gone = Link(table, "bob"), bob
    bob.hello(token=gone.token)
    # The host pauses once, during hand 2, and resumes once it is over.
    await play(table, clock, ann, bob, until=lambda: cy.of_type("table", hand=2))
    ann.send({"type": "pause"})
    await play(table, clock, ann, bob, until=lambda: cy.of_type("hand_end", hand=2))
    ann.send({"type": "resume"})
    # Hands 3, 4 and 5: Bob is away.
    await play(table, clock, ann, bob, until=lambda: cy.of_type("table", hand=3))
    bob.send({"type": "away"})
    await play(table, clock, ann, bob, until=lambda: cy.of_type("table", hand=6))
    bob.send({"type": "back"})
    await play(table, clock, ann, bob)
    assert [m["paused"] for m in cy.of_type("paused")] == [True, False]
    assert [m["away"] for m in cy.of_type("seat_away", seat=bob.seat)][-2:] == [True, False]
    result = bob.last("standings")
    assert cy.last("standings") == result and result["hands_played"] == 8
    assert chips(bob) == 3 * 600
    away_hands = {m["hand"] for m in cy.of_type("table") if player(m, bob.seat)["away"]}
    assert {3, 4, 5} <= away_hands <= {1, 3, 4, 5, 6}
    (history,) = tmp_path.glob("*.jsonl")
    records = [json.loads(line) for line in history.read_text().splitlines()]
    assert [r["hand"] for r in records] == list(range(1, 9))
    for record in records:
        assert problems(record) == []
    table.shutdown()


# ------------------------------------------------------------------ protocol 1


@run
async def test_a_protocol_1_client_still_plays_with_the_default_clock_and_no_new_types(
    tmp_path: Path,
) -> None:
    table, clock = await clocked_table(config(tmp_path, computer=1, start_when=3, hands=4))
    old, new = Link(table, "old"), Link(table, "new")
    assert old.hello(protocol=1)["protocol"] == 1
    assert new.hello()["protocol"] == 2
    await play(table, clock, new, until=lambda: old.of_type("turn"))
    # R-C4's default clock: 30 s a decision and the 90 s bank.
    turn = old.of_type("turn")[0]
    assert (turn["time_left"], turn["bank"]) == (30, 90)
    new.send({"type": "away"})  # something happens that protocol 2 has a message for
    assert new.last("seat_away", seat=new.seat)
    await play(table, clock, old, new)
    assert chips(old) == 3 * 600
    assert not {m["type"] for m in old.log} & {"seat_away", "paused", "clock"}
    assert new.of_type("clock")
    table.shutdown()


@run
async def test_a_protocol_1_seat_away_by_its_clock_is_back_when_it_says_anything(
    tmp_path: Path,
) -> None:
    cfg = config(tmp_path, computer=1, start_when=3, hands=12, turn_time=2, time_bank=0)
    table, clock = await clocked_table(cfg)
    old, new = Link(table, "old"), Link(table, "new")
    old.hello(protocol=1)
    new.hello()
    await play(table, clock, new, until=lambda: old.of_type("turn"))
    await advance(table, clock, 2, old, new)  # ... and lets it run out
    assert new.last("seat_away", seat=old.seat)["why"] == "clock"
    mark = len(old.log)
    old.send({"type": "ping", "id": 5})  # all a protocol 1 client can say
    assert new.last("seat_away", seat=old.seat)["away"] is False
    await play(table, clock, new, until=lambda: turned_since(old, mark))
    assert old.of_type("turn")[-1]["bank"] == 0
    assert not {m["type"] for m in old.log} & {"seat_away", "paused", "clock"}
    table.shutdown()
