"""R-C2 (away), R-C3 (pause, taking a seat away, a computer standing in) and R-C4 (the turn
clock and time bank), over real sockets on loopback.

No test measures how long something took: each waits for what must happen.  Where a
test must let time pass (a clock running out, a pause that holds), the server runs off
a fake clock (``tests.serverkit.fake_clock``) that the test advances instead of sleeping.
The exact clock, bank, grace and pause times are in ``tests/test_server_clocked.py``.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from common.protocol import Act, Ping
from common.schema import SeatView
from server.app import TableServer
from tests.hhcheck import problems
from tests.serverkit import (
    UNIT,
    Client,
    choose,
    config,
    fake_clock,
    roundtrip,
    run,
    running,
    take_turns,
    until,
)
from tests.wiretap import WireTap

pytestmark = pytest.mark.timeout(90)

DEFAULTS = {"check", "fold", "bring_in"}


async def seated(port: int, *names: str) -> list[Client]:
    """A client for each name, said hello (and seated, if there is a seat) in that order."""
    clients = [Client(name) for name in names]
    for client in clients:
        await client.hello(port)
    return clients  # R-C2: check if it can, else fold; the bring-in brings in


async def until_acts(client: Client, seat: int, count: int, start: int = 0) -> list[dict[str, Any]]:
    """Wait until ``client`` has seen ``count`` acts of ``seat`` (from ``start``)."""
    assert await until(lambda: len(client.acts(seat, start)) >= count, timeout=200 * UNIT)
    return client.acts(seat, start)


def player(msg: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(p for p in msg["players"] if p["seat"] == seat)


# ------------------------------------------------------------------ R-C4


@run
async def test_r_c4_clock_off_with_turn_time_zero(tmp_path: Path) -> None:
    cfg = config(tmp_path, computer=1, start_when=2, turn_time=0, time_bank=30)
    async with running(cfg) as (_server, port):
        (ann,) = await seated(port, "ann")
        assert (await ann.expect("lobby"))["options"]["turn_time"] is None
        turn = await ann.expect("turn")
        assert turn["time_left"] is None and turn["bank"] is None
        assert not ann.of_type("clock")
        await ann.close()


# ------------------------------------------------------------------ R-C2


@run
async def test_r_c2_away_and_back_everyone_sees_it(tmp_path: Path) -> None:
    cfg = config(
        tmp_path, computer=1, start_when=3, hands=12, turn_time=600
    )  # turns left after "back"
    async with running(cfg) as (_server, port):
        ann, bob = await seated(port, "ann", "bob")
        bob_task = asyncio.create_task(take_turns([bob]))
        await ann.expect("match_start")
        ann.send({"type": "away"})
        _, away = await bob.seen("seat_away", seat=ann.seat)
        assert away["away"] is True and away["why"] == "asked"
        mark = len(ann.log)
        acts = await until_acts(ann, ann.seat, 3)
        assert all(a["action"] in DEFAULTS for a in acts)
        assert not [m for m in ann.log[mark:] if m["type"] == "turn"]
        _, table = await bob.seen("table", mark)
        assert player(table, ann.seat)["away"] is True
        ann.send({"type": "back"})
        at, back = await bob.seen("seat_away", seat=ann.seat, away=False)
        assert back["why"] is None
        # Her next turn is hers again.
        turn = await ann.expect("turn", timeout=200 * UNIT)
        ann.send(Act(turn["turn"], turn["legal"][-1]["action"]).encode())
        mine = await ann.play()
        await bob_task
        assert sum(r["stack"] for r in mine["standings"]) == 3 * 600


@run
async def test_r_c2_an_away_seat_alone_with_computers_does_not_make_the_table_wait(
    tmp_path: Path,
) -> None:
    cfg = config(tmp_path, computer=2, start_when=3, hands=4, turn_time=600)
    async with running(cfg) as (_server, port):
        (ann,) = await seated(port, "ann")
        await ann.expect("match_start")
        ann.send({"type": "away"})
        standings = await ann.expect("standings", timeout=400 * UNIT)
        assert standings["hands_played"] == 4
        assert all(a["action"] in DEFAULTS for a in ann.acts(ann.seat))
        # Every away spell ends with the match.
        lobby = await ann.expect("lobby", running=False)
        assert not any(s["away"] for s in lobby["seats"])


@run
async def test_r_c3_pause_finishes_the_hand_stops_the_clock_and_resume_deals(
    tmp_path: Path,
) -> None:
    cfg = config(tmp_path, computer=1, start_when=3, hands=4, turn_time=2 * UNIT, time_bank=0)
    clock = fake_clock()  # the server's time moves only when this test says so
    async with running(cfg, clock=clock) as (_server, port):
        ann, bob = await seated(port, "ann", "bob")
        bob_task = asyncio.create_task(take_turns([bob]))
        turn = await ann.expect("turn")
        ann.send({"type": "pause"})
        _, paused = await bob.seen("paused")
        assert paused == {"type": "paused", "paused": True, "name": "ann"}
        _, frozen = await bob.seen("clock", running=False)
        assert frozen["seat"] == ann.seat and frozen["turn"] == turn["turn"]
        clock.advance(10 * UNIT)  # five times her clock
        await roundtrip(bob)
        assert not bob.acts(ann.seat), "the clock ran while paused"
        assert not [m for m in ann.log if m["type"] == "seat_away"]
        # She plays on while paused; the hand in play is finished, and no new one comes.
        ann.send(Act(turn["turn"], "fold" if "fold" in {a["action"] for a in turn["legal"]}
                     else turn["legal"][0]["action"]).encode())  # fmt: skip
        while not ann.of_type("hand_end"):
            try:
                t = await ann.expect("turn", "hand_end", timeout=4 * UNIT)
            except TimeoutError:
                continue
            if t["type"] == "turn":
                ann.send(Act(t["turn"], t["legal"][0]["action"]).encode())
        clock.advance(10 * UNIT)  # hand_pause is 0: an unpaused table deals at once
        await roundtrip(ann)
        assert {m["hand"] for m in ann.of_type("table")} == {1}
        lobby = await _lobby_of(port)
        assert lobby["paused"] is True
        ann.send({"type": "resume"})
        _, resumed = await bob.seen("paused", paused=False)
        assert resumed["name"] == "ann"
        await ann.seen("table", hand=2)
        mine = await ann.play()
        await bob_task
        assert mine["hands_played"] == 4
        assert sum(r["stack"] for r in mine["standings"]) == 3 * 600


async def _lobby_of(port: int) -> dict[str, Any]:
    watcher = Client("watcher")
    await watcher.hello(port, watch=True)
    lobby = await watcher.expect("lobby")
    await watcher.close()
    return lobby


@run
async def test_r_c3_host_takes_a_seat_away_for_the_rest_of_the_match(tmp_path: Path) -> None:
    cfg = config(tmp_path, computer=1, start_when=3, hands=4, turn_time=600)
    async with running(cfg) as (_server, port):
        ann, bob = await seated(port, "ann", "bob")
        ann_task = asyncio.create_task(take_turns([ann]))
        turn = await bob.expect("turn")  # the table waits on Bob ...
        ann.send({"type": "take_seat", "seat": bob.seat})  # ... and the host has had enough
        _, taken = await bob.seen("seat_away", seat=bob.seat)
        assert taken["why"] == "taken" and taken["away"] is True
        await until_acts(bob, bob.seat, 1)
        # Bob can only watch now.
        for msg, code in (({"type": "back"}, "seat_taken"),
                          ({"type": "away"}, "seat_taken"),
                          (Act(turn["turn"], "fold").encode(), "seat_taken")):  # fmt: skip
            bob.send(msg)
            assert (await bob.expect("error"))["code"] == code
        result = await bob.expect("standings", timeout=400 * UNIT)
        assert all(a["action"] in DEFAULTS for a in bob.acts(bob.seat))
        assert not [m for m in bob.log if m["type"] == "turn" and m["turn"] > turn["turn"]]
        await ann_task
        assert sum(r["stack"] for r in result["standings"]) == 3 * 600
        # The match is over: the seat is Bob's again for the next one.
        lobby = await bob.expect("lobby", running=False)
        assert [s["away"] for s in lobby["seats"]] == [False, False, False]


@run
async def test_r_c3_stand_in_plays_an_away_seat_and_gives_it_back(tmp_path: Path) -> None:
    asked: list[int] = []

    def chooser(view: SeatView, rng: random.Random) -> str:
        assert view.you is not None
        asked.append(view.you)
        return choose(view, rng)

    cfg = config(tmp_path, computer=1, start_when=3, hands=12, turn_time=600, stand_in=True)
    server = TableServer(cfg, chooser=chooser)
    port = await server.start()
    try:
        ann, bob = await seated(port, "ann", "bob")
        bob_task = asyncio.create_task(take_turns([bob]))
        await ann.expect("match_start", timeout=200 * UNIT)  # a loaded machine is slow
        assert (await ann.seen("lobby"))[1]["options"]["stand_in"] is True
        ann.send({"type": "away"})
        at, away = await bob.seen("seat_away", seat=ann.seat)
        assert away["stand_in"] is True
        await until_acts(bob, ann.seat, 3, at)
        assert asked.count(ann.seat) >= 3  # the computer brain chose for her seat
        _, table = await bob.seen("table", at)
        assert player(table, ann.seat)["stand_in"] is True
        assert player(table, ann.seat)["kind"] == "human"  # still her seat, her chips
        ann.send({"type": "back"})
        await bob.seen("seat_away", at + 1, seat=ann.seat, away=False)
        turn = await ann.expect("turn", timeout=200 * UNIT)
        asked_then = asked.count(ann.seat)
        ann.send(Act(turn["turn"], turn["legal"][0]["action"]).encode())
        mine = await ann.play()
        assert asked.count(ann.seat) == asked_then  # the person plays from here on
        await bob_task
        assert sum(r["stack"] for r in mine["standings"]) == 3 * 600
    finally:
        await server.stop()


# ------------------------------------------------------------------ bad input


@run
async def test_r_c2_r_c3_bad_input_to_the_new_messages_is_refused_and_changes_nothing(
    tmp_path: Path,
) -> None:
    cfg = config(tmp_path, computer=1, hands=4, turn_time=600)
    async with running(cfg) as (_server, port):
        ann, bob, cy = Client("ann"), Client("bob"), Client("cy")
        await ann.hello(port)  # the host
        await bob.hello(port)
        await cy.hello(port, watch=True)
        options = (await ann.expect("lobby"))["options"]

        async def refused(who: Client, msg: dict[str, Any], code: str) -> None:
            who.send(msg)
            err = await who.expect("error")
            assert err["code"] == code, (msg, err)
            assert err["message"] and err["ref"] == msg["type"]

        # In the lobby: nothing to step away from or pause; only the host sets the table.
        await refused(ann, {"type": "away"}, "no_match")
        await refused(ann, {"type": "back"}, "not_away")
        await refused(ann, {"type": "pause"}, "no_match")
        await refused(ann, {"type": "resume"}, "no_match")
        await refused(ann, {"type": "take_seat", "seat": bob.seat}, "no_match")
        await refused(bob, {"type": "options", "turn_time": 5}, "not_host")
        await refused(cy, {"type": "options", "turn_time": 5}, "not_host")
        await refused(cy, {"type": "away"}, "not_seated")
        for bad in ({"turn_time": "30"}, {"turn_time": True}, {"turn_time": -1},
                    {"turn_time": 10**6}, {"time_bank": [90]}, {"stand_in": 1},
                    {"time_bank": float("nan")}):  # fmt: skip
            await refused(ann, {"type": "options", **bad}, "bad_message")
        assert (await _lobby_of(port))["options"] == options
        ann.send({"type": "start"})
        await ann.expect("match_start")
        await bob.expect("match_start")
        # During the match.
        await refused(bob, {"type": "pause"}, "not_host")
        await refused(bob, {"type": "take_seat", "seat": ann.seat}, "not_host")
        await refused(cy, {"type": "pause"}, "not_seated")
        await refused(cy, {"type": "back"}, "not_seated")
        await refused(ann, {"type": "resume"}, "not_paused")
        await refused(ann, {"type": "options", "stand_in": True}, "match_running")
        await refused(ann, {"type": "take_seat"}, "bad_message")
        await refused(ann, {"type": "take_seat", "seat": "1"}, "bad_message")
        await refused(ann, {"type": "take_seat", "seat": 9}, "bad_seat")
        await refused(ann, {"type": "take_seat", "seat": 6}, "bad_seat")  # a computer seat
        await refused(ann, {"type": "take_seat", "seat": 3}, "bad_seat")  # an empty seat
        await refused(ann, {"type": "take_seat", "seat": ann.seat}, "bad_seat")
        await refused(bob, {"type": "back"}, "not_away")
        bob.send({"type": "away"})
        await refused(bob, {"type": "away"}, "already_away")
        await refused(bob, Act(0, "fold").encode(), "not_your_turn")  # away: played for it
        ann.send({"type": "pause"})
        await refused(ann, {"type": "pause"}, "already_paused")
        ann.send({"type": "take_seat", "seat": bob.seat})
        await refused(ann, {"type": "take_seat", "seat": bob.seat}, "seat_taken")
        ann.send({"type": "resume"})
        # Nothing refused changed anything: the match plays to the end, no chip lost.
        for c in (ann, bob, cy):
            assert not [m for m in c.log if m["type"] == "error" and m.get("ref") == "hello"]
        bob_task = asyncio.create_task(take_turns([bob]))
        mine = await ann.play()
        await bob_task
        assert sum(r["stack"] for r in mine["standings"]) == 3 * 600
        assert [m["paused"] for m in cy.of_type("paused")] == [True, False]
        assert [m["why"] for m in cy.of_type("seat_away")] == ["asked", "taken"]


# ------------------------------------------------------------------ the whole night


@run
async def test_friends_night_away_for_three_hands_a_pause_and_a_drop_history_is_valid(
    tmp_path: Path,
) -> None:
    """Issue 8's "done when": two people, one computer seat and a watcher play a whole match;
    Bob stays away for three hands, the host pauses once, Bob's link goes black mid-hand
    (no close: a proxy swallows everything, R-C1) and he comes back by token; the
    history file passes ``tests/hhcheck.py``."""
    cfg = config(
        tmp_path,
        computer=1,
        hands=8,
        turn_time=600,
        grace=4 * UNIT,
        heartbeat_every=2 * UNIT,
        link_timeout=12 * UNIT,
    )
    async with running(cfg) as (_server, port):
        proxy = WireTap(port).start()
        ann, bob, cy = Client("ann"), Client("bob"), Client("cy")
        await ann.hello(port)
        await bob.hello(proxy.port, heartbeat=True)  # pings while its link lives

        async def bob_pings() -> None:
            while True:
                bob.send(Ping(1).encode())
                await asyncio.sleep(UNIT)

        pinger = asyncio.create_task(bob_pings())
        await cy.hello(port, watch=True)
        ann.send({"type": "start"})
        ann_task = asyncio.create_task(take_turns([ann]))
        await bob.expect("match_start")

        async def bob_plays_until(hand: int, who: Client) -> None:
            while True:
                msg = await who.expect("turn", "table", timeout=400 * UNIT)
                if msg["type"] == "table" and msg["hand"] >= hand:
                    return
                if msg["type"] == "turn":
                    who.send(Act(msg["turn"], msg["legal"][0]["action"]).encode())

        # Hand 1: Bob plays; his link goes black mid-hand, the server finds it
        # gone (R-C1), and he comes back with his token.
        turn = await bob.expect("turn", timeout=200 * UNIT)
        bob.send(Act(turn["turn"], turn["legal"][-1]["action"]).encode())
        while True:  # until the act has landed and it is someone else's turn
            msg = await bob.expect("table", "turn", timeout=200 * UNIT)
            if msg["type"] == "turn":
                bob.send(Act(msg["turn"], msg["legal"][-1]["action"]).encode())
            elif msg["view"]["to_act"] != bob.seat:
                break
        proxy.swallow()
        await cy.seen("presence", seat=bob.seat, connected=False, timeout=200 * UNIT)
        pinger.cancel()
        proxy.close()
        bob2 = Client("bob")
        await bob2.hello(port, token=bob.token)
        # The host pauses once, during hand 2, and resumes once it is over.
        await bob_plays_until(2, bob2)
        ann.send({"type": "pause"})
        await cy.seen("paused", paused=True)
        await _until_hand_end(cy, 2, bob2)
        ann.send({"type": "resume"})
        # Hands 3, 4 and 5: Bob is away.
        await bob_plays_until(3, bob2)
        bob2.send({"type": "away"})
        await cy.seen("seat_away", seat=bob2.seat, away=True)
        await cy.seen("table", hand=6)
        bob2.send({"type": "back"})
        await cy.seen("seat_away", seat=bob2.seat, away=False)
        result = await bob2.play()
        await ann_task
        watched = await cy.expect("standings", timeout=400 * UNIT)
        assert watched == result and result["hands_played"] == 8
        assert sum(r["stack"] for r in result["standings"]) == 3 * 600
        away_hands = {
            m["hand"] for m in cy.log if m["type"] == "table" and player(m, bob2.seat)["away"]
        }
        assert {3, 4, 5} <= away_hands <= {3, 4, 5, 6}
        (history,) = tmp_path.glob("*.jsonl")
        records = [json.loads(line) for line in history.read_text().splitlines()]
        assert [r["hand"] for r in records] == list(range(1, 9))
        for record in records:
            assert problems(record) == []


async def _until_hand_end(watcher: Client, hand: int, player_client: Client) -> None:
    """Answer ``player_client``'s turns until ``watcher`` has seen hand ``hand`` end."""
    while not any(m["hand"] == hand for m in watcher.of_type("hand_end")):
        try:
            msg = await player_client.expect("turn", timeout=4 * UNIT)
        except TimeoutError:
            continue
        player_client.send(Act(msg["turn"], msg["legal"][0]["action"]).encode())


# ------------------------------------------------------------------ protocol 1


@run
async def test_a_protocol_1_client_still_plays_with_the_default_clock_and_no_new_types(
    tmp_path: Path,
) -> None:
    cfg = config(tmp_path, computer=1, start_when=3, hands=4)
    async with running(cfg) as (_server, port):
        old, new = Client("old"), Client("new")
        welcome = await old.hello(port, protocol=1)
        assert welcome["protocol"] == 1
        assert (await new.hello(port))["protocol"] == 2
        new_task = asyncio.create_task(take_turns([new]))
        turn = await old.expect("turn")
        # R-C4's default clock: 30 s a decision and the 90 s bank.
        assert 25 < turn["time_left"] <= 30 and turn["bank"] == pytest.approx(90, abs=1)
        old.send(Act(turn["turn"], turn["legal"][0]["action"]).encode())
        new.send({"type": "away"})  # something happens that protocol 2 has a message for
        await new.seen("seat_away", seat=new.seat)
        result = await old.play()
        await new_task
        assert sum(r["stack"] for r in result["standings"]) == 3 * 600
        types = {m["type"] for m in old.log}
        assert not types & {"seat_away", "paused", "clock"}
        assert "clock" in {m["type"] for m in new.log}


@run
async def test_r_c3_the_host_terminal_of_a_headless_server(tmp_path: Path) -> None:
    cfg = config(tmp_path, computer=1, start_when=3, hands=4, turn_time=600)
    async with running(cfg) as (server, port):
        table = server.table
        assert table.console("pause").startswith("refused")  # no match yet
        assert table.console("stand-in on") == "ok"
        assert "commands" in table.console("dance")
        ann, bob = Client("ann"), Client("bob")
        await ann.hello(port)
        assert (await ann.expect("lobby"))["options"]["stand_in"] is True
        await bob.hello(port)
        await ann.expect("match_start")
        assert table.console("stand-in off").startswith("refused")
        assert table.console("pause") == "ok"
        assert (await ann.seen("paused"))[1]["paused"] is True
        assert table.console("pause").startswith("refused")
        assert table.console("take 6").startswith("refused")  # a computer seat
        assert table.console("take x").startswith("usage")
        assert table.console(f"take {bob.seat}") == "ok"
        assert (await ann.seen("seat_away", seat=bob.seat))[1]["why"] == "taken"
        assert "paused" in table.console("status") and "taken" in table.console("status")
        assert table.console("resume") == "ok"
        result = await ann.play()
        assert sum(r["stack"] for r in result["standings"]) == 3 * 600


@run
async def test_r_c2_leaving_mid_match_makes_the_seat_away_at_once(tmp_path: Path) -> None:
    cfg = config(tmp_path, computer=1, start_when=3, hands=4, grace=600)
    async with running(cfg) as (_server, port):
        ann, bob = await seated(port, "ann", "bob")
        await bob.expect("match_start")
        bob.send({"type": "leave"})
        _, away = await ann.seen("seat_away", seat=bob.seat)
        assert away["why"] == "asked"
        result = await ann.play()
        assert sum(r["stack"] for r in result["standings"]) == 3 * 600
        assert all(a["action"] in DEFAULTS for a in ann.acts(bob.seat))


@run
async def test_a_protocol_1_seat_away_by_its_clock_is_back_when_it_says_anything(
    tmp_path: Path,
) -> None:
    cfg = config(
        tmp_path, computer=1, start_when=3, hands=12, turn_time=2 * UNIT, time_bank=0,
        bot_delay=UNIT,
    )  # fmt: skip
    async with running(cfg) as (_server, port):
        old, new = Client("old"), Client("new")
        await old.hello(port, protocol=1)
        await new.hello(port)
        new_task = asyncio.create_task(take_turns([new]))
        await old.expect("turn")  # ... and lets it run out
        at, away = await new.seen("seat_away", seat=old.seat, timeout=200 * UNIT)
        assert away["why"] == "clock"
        mark = len(old.log)
        old.send({"type": "ping", "id": 5})  # all a protocol 1 client can say
        await new.seen("seat_away", at + 1, seat=old.seat, away=False)
        turn = await old.seen("turn", mark, timeout=200 * UNIT)
        assert turn[1]["bank"] == 0
        new_task.cancel()
        assert not {m["type"] for m in old.log} & {"seat_away", "paused", "clock"}
