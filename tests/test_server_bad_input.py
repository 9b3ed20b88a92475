"""Bad input never hurts the table: each case gets a clear error (or, for broken framing,
closes only that connection), and the match then plays to the end with no chip lost.

The errors the protocol document lists (a frame that is not a map, a missing or unknown
type, a wrong password, version or token, a second hello, an act out of turn, stale, not
offered or from a watcher) are ``tests/test_protocol_contract.py``'s, whose match plays
on to the standings after its own bad acts."""

from __future__ import annotations

import asyncio
import contextlib
import functools
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


HELLO = {"type": "hello", "protocol": 1, "name": "x", "password": PASSWORD}
REFUSED = {  # what a new connection sends: the error's code, and whether it closes
    "http_request": ("frame_too_large", True, b"GET / HTTP/1.1\r\n\r\n"),
    "frame_over_the_limit": ("frame_too_large", True, struct.pack(">I", 70_000) + b"x" * 100),
    "frame_cut_short_then_silence": ("bad_frame", True, struct.pack(">I", 100) + b"\x81" * 10),
    "wrong_field_type": ("bad_message", False, frame({**HELLO, "protocol": "1"})),
    "huge_string": ("bad_message", False, frame({**HELLO, "name": "x" * 60_000})),
}


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


async def act_for_another_seat(t: Table) -> None:
    act = Act(t.turn["turn"], "fold").encode() | {"seat": t.anchor.seat}
    t.other.send(act)
    assert (await t.other.expect("error"))["code"] == "not_your_turn"


async def unknown_action(t: Table) -> None:
    t.anchor.send({"type": "act", "turn": t.turn["turn"], "action": "all_in_lol"})
    assert (await t.anchor.expect("error"))["code"] == "bad_message"


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


CASES: dict[str, Case] = {
    **{name: functools.partial(_refused, code=code, closes=closes, data=data)
       for name, (code, closes, data) in REFUSED.items()},
    **{case.__name__: case for case in (
        seat_while_match_runs, act_for_another_seat, unknown_action, never_says_hello,
        stops_reading, too_many_connections,
    )},
}  # fmt: skip


@pytest.mark.parametrize("case", CASES.values(), ids=list(CASES))
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
