"""Bad input never hurts the table: each case gets a clear error (or, for broken framing,
closes only that connection), and the match then plays to the end with no chip lost."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from common.protocol import Act, Hello, Ping
from server.app import TableServer
from tests.serverkit import UNIT, Client, config, frame, run, running, until

pytestmark = pytest.mark.timeout(60)

PASSWORD = "swordfish"
SEATS = 4  # two people and two computer seats


@dataclass
class Table:
    server: TableServer
    port: int
    anchor: Client
    other: Client
    turn: dict  # the anchor's pending turn: the table waits on it


Case = Callable[[Table], Awaitable[None]]


async def _refused(t: Table, code: str, *, closes: bool, data: bytes) -> None:
    c = await Client("bad").connect(t.port)
    c.send_raw(data)
    error = await c.expect("error")
    assert error["code"] == code, error
    assert error["message"]
    if closes:
        await c.wait_closed()
    else:  # the connection stays open and can still say hello
        c.send(Hello(name="fixed", watch=True, password=PASSWORD).encode())
        assert (await c.expect("welcome"))["seat"] is None
    await c.close()


async def garbage_bytes(t: Table) -> None:
    await _refused(t, "bad_frame", closes=True, data=b"\x00\x00\x00\x05hello")


async def http_request(t: Table) -> None:
    await _refused(t, "frame_too_large", closes=True, data=b"GET / HTTP/1.1\r\n\r\n")


async def frame_over_the_limit(t: Table) -> None:
    await _refused(t, "frame_too_large", closes=True, data=struct.pack(">I", 70_000) + b"x" * 100)


async def frame_cut_short_then_silence(t: Table) -> None:
    await _refused(t, "bad_frame", closes=True, data=struct.pack(">I", 100) + b"\x81" * 10)


async def msgpack_not_a_map(t: Table) -> None:
    await _refused(t, "bad_frame", closes=True, data=frame([1, 2, 3]))


async def map_with_int_keys(t: Table) -> None:
    await _refused(t, "bad_frame", closes=True, data=frame({1: "hello"}))


async def _refused_after_hello(t: Table, code: str, *, data: bytes) -> None:
    """After a hello, a bad message gets an error and the connection stays open."""
    c = await Client("bad").connect(t.port)
    c.send(Hello(name="watcher", watch=True, password=PASSWORD).encode())
    await c.expect("welcome")
    c.send_raw(data)
    error = await c.expect("error")
    assert error["code"] == code, error
    c.send({"type": "ping", "id": 5})
    assert (await c.expect("pong"))["id"] == 5
    await c.close()


async def missing_type(t: Table) -> None:
    # Before the hello anything but a hello is no_hello and closes (docs/protocol.md).
    await _refused(t, "no_hello", closes=True, data=frame({"name": "x"}))
    await _refused_after_hello(t, "bad_message", data=frame({"name": "x"}))


async def unknown_type(t: Table) -> None:
    await _refused(t, "no_hello", closes=True, data=frame({"type": "dance"}))
    await _refused_after_hello(t, "unknown_type", data=frame({"type": "dance"}))


async def wrong_field_type(t: Table) -> None:
    hello = {"type": "hello", "protocol": "1", "name": "x", "password": PASSWORD}
    await _refused(t, "bad_message", closes=False, data=frame(hello))


async def huge_string(t: Table) -> None:
    hello = {"type": "hello", "protocol": 1, "name": "x" * 60_000, "password": PASSWORD}
    await _refused(t, "bad_message", closes=False, data=frame(hello))


async def act_before_hello(t: Table) -> None:
    await _refused(t, "no_hello", closes=True, data=frame(Act(1, "call").encode()))


async def wrong_password(t: Table) -> None:
    hello = Hello(name="x", password="guess").encode()
    await _refused(t, "bad_password", closes=True, data=frame(hello))


async def wrong_protocol_version(t: Table) -> None:
    hello = Hello(name="x", protocol=99, password=PASSWORD).encode()
    await _refused(t, "protocol_version", closes=True, data=frame(hello))


async def bad_token(t: Table) -> None:
    hello = Hello(name="x", token="not-a-token", password=PASSWORD).encode()
    await _refused(t, "bad_token", closes=True, data=frame(hello))


async def seat_while_match_runs(t: Table) -> None:
    """A late arrival sits in at the next match: it watches this one and cannot act in it."""
    late = Client("late")
    welcome = await late.hello(t.port, password=PASSWORD)
    assert welcome["seat"] is not None and not welcome["watch"]
    lobby = await late.expect("lobby")
    (mine,) = [s for s in lobby["seats"] if s["seat"] == welcome["seat"]]
    assert mine.get("next") is True and lobby["running"] is True
    table = await late.expect("table")
    assert table["view"]["you"] is None and "hole" not in str(table["view"])
    late.send(Act(t.turn["turn"], "fold").encode())
    assert (await late.expect("error"))["code"] == "not_your_turn"
    await late.close()


async def second_hello(t: Table) -> None:
    t.anchor.send(Hello(name="again", password=PASSWORD).encode())
    assert (await t.anchor.expect("error"))["code"] == "already_hello"


async def act_out_of_turn(t: Table) -> None:
    t.other.send(Act(t.turn["turn"], "fold").encode())
    assert (await t.other.expect("error"))["code"] == "not_your_turn"


async def act_for_another_seat(t: Table) -> None:
    act = Act(t.turn["turn"], "fold").encode() | {"seat": t.anchor.seat}
    t.other.send(act)
    assert (await t.other.expect("error"))["code"] == "not_your_turn"


async def action_not_offered(t: Table) -> None:
    offered = {a["action"] for a in t.turn["legal"]}
    (missing, *_) = sorted({"raise", "bet", "check", "complete"} - offered)
    t.anchor.send(Act(t.turn["turn"], missing).encode())
    error = await t.anchor.expect("error")
    assert error["code"] == "illegal_action" and "legal:" in error["message"]


async def unknown_action(t: Table) -> None:
    t.anchor.send({"type": "act", "turn": t.turn["turn"], "action": "all_in_lol"})
    assert (await t.anchor.expect("error"))["code"] == "bad_message"


async def stale_turn_id(t: Table) -> None:
    t.anchor.send(Act(t.turn["turn"] - 1, t.turn["legal"][0]["action"]).encode())
    assert (await t.anchor.expect("error"))["code"] == "stale_turn"


async def spectator_acts(t: Table) -> None:
    c = Client("watcher")
    assert (await c.hello(t.port, watch=True, password=PASSWORD))["seat"] is None
    c.send(Act(t.turn["turn"], t.turn["legal"][0]["action"]).encode())
    assert (await c.expect("error"))["code"] == "not_seated"
    await c.close()


async def never_says_hello(t: Table) -> None:
    c = await Client("mute").connect(t.port)
    assert (await c.expect("error"))["code"] == "handshake_timeout"
    await c.wait_closed()


async def stops_reading(t: Table) -> None:
    """Its queue passes the bound and it is dropped; the others never wait for it."""
    others = len(t.server.table.conns)
    sloth = await Client("sloth").connect(t.port)
    sloth.writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sloth.writer.transport.pause_reading()  # it reads nothing from now on
    assert await until(lambda: len(t.server.table.conns) > others)
    hello = Hello(name="sloth", watch=True, password=PASSWORD).encode()
    pings = frame(hello) + frame(Ping(1).encode()) * 20_000
    with contextlib.suppress(ConnectionError, TimeoutError):
        for _ in range(40):
            sloth.send_raw(pings)
            await asyncio.wait_for(sloth.writer.drain(), 20 * UNIT)
            if len(t.server.table.conns) == others:
                break
    await sloth.close()
    assert len(t.server.table.conns) == others


async def too_many_connections(t: Table) -> None:
    """More connections still to say hello than one address may have: refused at once."""
    room = t.server.config.pending_per_address
    others = len(t.server.table.conns)
    extra = [await Client(f"x{i}").connect(t.port) for i in range(room)]
    assert await until(lambda: len(t.server.table.conns) == others + room)
    late = await Client("late").connect(t.port)
    assert (await late.expect("error"))["code"] == "server_busy"
    await late.wait_closed()
    for c in extra:
        await c.close()


CASES: list[Case] = [
    garbage_bytes,
    http_request,
    frame_over_the_limit,
    frame_cut_short_then_silence,
    msgpack_not_a_map,
    map_with_int_keys,
    missing_type,
    unknown_type,
    wrong_field_type,
    huge_string,
    act_before_hello,
    wrong_password,
    wrong_protocol_version,
    bad_token,
    seat_while_match_runs,
    second_hello,
    act_out_of_turn,
    act_for_another_seat,
    action_not_offered,
    unknown_action,
    stale_turn_id,
    spectator_acts,
    never_says_hello,
    stops_reading,
    too_many_connections,
]


@pytest.mark.parametrize("case", CASES, ids=[c.__name__ for c in CASES])
@run
async def test_bad_input_never_hurts_the_table(tmp_path: Path, case: Case) -> None:
    cfg = config(
        tmp_path,
        computer=2,
        start_when=SEATS,
        password=PASSWORD,
        plain="allow",  # these clients speak plain frames
        max_connections=8,
        queue_limit=64 * 1024,
    )
    async with running(cfg) as (server, port):
        anchor, other = Client("anchor"), Client("other")
        await anchor.hello(port, password=PASSWORD)
        await other.hello(port, password=PASSWORD)
        # Let the match reach the anchor's turn and wait there while the case runs.
        while not anchor.of_type("turn"):
            try:
                msg = await other.expect("turn", timeout=UNIT)
            except TimeoutError:
                continue
            other.send(Act(msg["turn"], msg["legal"][0]["action"]).encode())
        turn = await anchor.expect("turn")
        await case(Table(server, port, anchor, other, turn))
        anchor.send(Act(turn["turn"], turn["legal"][0]["action"]).encode())
        a, b = await asyncio.gather(anchor.play(), other.play())
        assert a == b
        assert sum(row["stack"] for row in a["standings"]) == SEATS * 600
        assert len(list(tmp_path.glob("*.jsonl"))) == 1
