"""The last hand's showdown stays on the table before the standings cover it (issue 9, point 10).

R-T6 ends the match after its last hand; the server pauses after that hand as after
every other (``hand_pause``, or ``final_pause`` when set) before sending ``standings``.
No timing is measured: the server runs off a fake clock (``tests.serverkit.fake_clock``)
that the test advances, and the standings must not have come while the table waits.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.serverkit import UNIT, Client, config, fake_clock, roundtrip, running, ticking

pytestmark = pytest.mark.timeout(60)


async def _play_until_last_hand_end(client: Client, hands: int) -> None:
    from common.protocol import Act

    while True:
        msg = await client.expect("turn", "hand_end", "standings", timeout=400 * UNIT)
        if msg["type"] == "standings":
            raise AssertionError("standings came with no pause after the last hand")
        if msg["type"] == "hand_end":
            if msg["hand"] == hands:
                return
            continue
        names = [a["action"] for a in msg["legal"]]
        pick = "check" if "check" in names else "call" if "call" in names else names[0]
        client.send(Act(msg["turn"], pick).encode())


def test_r_t6_standings_wait_for_the_final_pause(tmp_path: Path) -> None:
    async def scenario() -> None:
        cfg = config(tmp_path, computer=1, start_when=2, hands=4, final_pause=600.0)
        clock = fake_clock()  # the server's time moves only when this test says so
        async with running(cfg, clock=clock) as (server, port):
            ann = Client("ann")
            await ann.hello(port)
            await _play_until_last_hand_end(ann, 4)
            clock.advance(599.9)  # standings sent before the pause is over would be here
            await roundtrip(ann)
            assert ann.of_type("standings") == []
            assert server.table.running  # the match is still on: the showdown shows
            # A comeback during the pause still gets the table, with the last hand.
            back = Client("back")
            await back.hello(port, token=ann.token)
            table = await back.expect("table")
            assert table["hand"] == 4 and table["view"]["over"] is True

    asyncio.run(scenario())


def test_r_t6_standings_follow_after_the_pause(tmp_path: Path) -> None:
    async def scenario() -> None:
        cfg = config(tmp_path, computer=1, start_when=2, hands=4, final_pause=2 * UNIT)
        clock = fake_clock()
        async with running(cfg, clock=clock) as (_server, port):
            ann = Client("ann")
            await ann.hello(port)
            await _play_until_last_hand_end(ann, 4)
            standings = await ticking(clock, ann, "standings", step=UNIT)
            assert standings["hands_played"] == 4
            await ann.expect("lobby", running=False)

    asyncio.run(scenario())


def test_r_c3_a_pause_holds_the_standings_until_the_host_resumes(tmp_path: Path) -> None:
    from common.protocol import Act

    async def scenario() -> None:
        cfg = config(tmp_path, computer=1, start_when=2, hands=4, final_pause=2 * UNIT)
        clock = fake_clock()  # the server's time moves only when this test says so
        async with running(cfg, clock=clock) as (server, port):
            ann = Client("ann")
            await ann.hello(port)
            paused = False
            while True:  # the host pauses during the last hand, which is played out
                msg = await ann.expect("turn", "hand_end", "standings", timeout=400 * UNIT)
                assert msg["type"] != "standings"
                if msg["type"] == "hand_end":
                    if msg["hand"] == 4:
                        break
                    continue
                if not paused and ann.of_type("table")[-1]["hand"] == 4:
                    ann.send({"type": "pause"})
                    paused = True
                names = [a["action"] for a in msg["legal"]]
                ann.send(Act(msg["turn"], "call" if "call" in names else names[0]).encode())
            assert paused
            clock.advance(10 * UNIT)  # five times the final pause
            await roundtrip(ann)
            assert ann.of_type("standings") == [] and server.table.running
            ann.send({"type": "resume"})
            standings = await ann.expect("standings")
            assert standings["hands_played"] == 4
            await ann.expect("lobby", running=False)

    asyncio.run(scenario())
