"""R-C1 over real sockets: a dropped seat stays, plays the default, and comes back by token."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from common.protocol import Act
from tests.serverkit import UNIT, Client, config, running

pytestmark = pytest.mark.timeout(60)


def test_r_c1_drop_mid_hand_defaults_then_comeback_gets_hole_cards(tmp_path: Path) -> None:
    async def scenario() -> None:
        cfg = config(tmp_path, computer=1, start_when=3, hands=4, grace=6 * UNIT)
        async with running(cfg) as (_server, port):
            ann, bob = Client("ann"), Client("bob")
            await ann.hello(port)
            await bob.hello(port)
            bob_task = asyncio.create_task(bob.play())
            # Ann waits for her first turn, remembers her hole cards, and drops.
            turn = await ann.expect("turn")
            table = [m for m in ann.of_type("table") if m["view"]["to_act"] == ann.seat][-1]
            (mine,) = [s for s in table["view"]["seats"] if s["seat"] == ann.seat]
            hole = mine["hole"]
            assert len(hole) == 2
            default = {"check", "fold", "bring_in"} & {a["action"] for a in turn["legal"]}
            await ann.close()
            started = asyncio.get_running_loop().time()
            at, gone = await bob.seen("presence", seat=ann.seat)
            assert gone["connected"] is False
            # After the grace period the table plays R-C1's default for her.
            while True:
                at, events = await bob.seen("events", at + 1)
                acts = [e for e in events["events"] if e["ev"] == "act" and e["seat"] == ann.seat]
                if acts:
                    break
            waited = asyncio.get_running_loop().time() - started
            assert acts[0]["action"] in default
            assert waited >= 4 * UNIT
            # She comes back from "another machine" with her token: same seat, same cards.
            back = Client("ann-again")
            welcome = await back.hello(port, token=ann.token)
            assert welcome["seat"] == ann.seat and welcome["token"] == ann.token
            await back.expect("match_start")
            snapshot = await back.expect("table")
            (seat_view,) = [s for s in snapshot["view"]["seats"] if s["seat"] == ann.seat]
            if snapshot["hand"] == table["hand"]:
                assert seat_view["hole"][:2] == hole
            else:
                assert "hole" in seat_view
            assert (await bob.seen("presence", at, seat=ann.seat))[1]["connected"] is True
            a, b = await asyncio.gather(back.play(), bob_task)
            assert a == b
            assert sum(r["stack"] for r in a["standings"]) == 3 * 600

    asyncio.run(scenario())


def test_r_c1_token_takes_over_a_live_seat(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running(config(tmp_path, computer=1)) as (_server, port):
            first = Client("first")
            await first.hello(port)
            second = Client("second")
            welcome = await second.hello(port, token=first.token)
            assert welcome["seat"] == first.seat
            error = await first.expect("error")
            assert error["code"] == "taken_over"
            await first.wait_closed()
            lobby = await second.expect("lobby")
            assert [s["seat"] for s in lobby["seats"]] == [0, 6]

    asyncio.run(scenario())


def test_r_c1_dropped_seat_antes_and_folds_through_the_match(tmp_path: Path) -> None:
    """A seat gone for good keeps anteing and checks or folds on every turn; no chip is lost."""

    async def scenario() -> None:
        cfg = config(tmp_path, computer=2, start_when=4, hands=4, grace=UNIT / 5)
        async with running(cfg) as (_server, port):
            stay, gone = Client("stay"), Client("gone")
            await gone.hello(port)
            await stay.hello(port)
            await gone.close()
            result = await stay.play()
            rows = {r["seat"]: r for r in result["standings"]}
            assert sum(r["stack"] for r in rows.values()) == 4 * 600
            assert rows[gone.seat]["stack"] < 600  # antes (R-D1) at the least

    asyncio.run(scenario())


def test_stale_turn_is_rejected_not_applied_to_the_next(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running(config(tmp_path, computer=1, start_when=2)) as (_server, port):
            me = Client("me")
            await me.hello(port)
            first = await me.expect("turn")
            me.send(Act(first["turn"], first["legal"][-1]["action"]).encode())
            second = await me.expect("turn")
            assert second["turn"] > first["turn"]
            me.send(Act(first["turn"], second["legal"][0]["action"]).encode())
            error = await me.expect("error")
            assert error["code"] == "stale_turn"
            me.send(Act(second["turn"], second["legal"][0]["action"]).encode())
            await me.play()

    asyncio.run(scenario())


def test_R_C1_links_give_up_on_a_peer_that_acknowledges_nothing(tmp_path: Path) -> None:
    """A player whose network vanished without a FIN is found out by the socket itself:
    keepalive probes an idle link, and TCP_USER_TIMEOUT (Linux) closes one whose
    heartbeats stay unacknowledged, so R-C1's grace starts within 20 s whatever the
    client sends."""
    import socket

    async def scenario() -> None:
        async with running(config(tmp_path, link_timeout=15.0)) as (server, port):
            ann = Client("ann")
            await ann.hello(port)
            (conn,) = server.table.conns
            sock = conn.transport.get_extra_info("socket")
            assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 5
            if hasattr(socket, "TCP_USER_TIMEOUT"):
                assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == 15000
            await ann.close()

    asyncio.run(scenario())
