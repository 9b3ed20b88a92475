"""The server's one clock (``server.timers``) and what runs off it, on the fake clock:
the fake clock itself, the turn clock and bank (R-C4) and grace (R-C1) of
``server.clock``, and a connection's handshake timeout and heartbeats (``server.net``).
No event loop time passes: every test advances the fake clock.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any

import pytest

from common.protocol import FrameDecoder, Hello, encode_frame
from server.clock import TurnClock
from server.config import ServerConfig
from server.net import Connection, Limits
from server.timers import FakeClock, LoopClock
from tests.serverkit import FakeTransport, run

# ------------------------------------------------------------------ the fake clock


def test_the_fake_clock_runs_due_callbacks_in_time_order_then_in_the_order_asked() -> None:
    clock = FakeClock(start=0)
    ran: list[str] = []
    clock.call_later(2, ran.append, "b")
    clock.call_later(1, ran.append, "a")
    clock.call_later(2, ran.append, "c")
    cancelled = clock.call_later(1.5, ran.append, "never")
    cancelled.cancel()
    clock.advance(1.99)
    assert ran == ["a"] and clock.now() == 1.99
    clock.advance(0.01)
    assert ran == ["a", "b", "c"] and clock.now() == 2
    assert clock.pending == 0 and clock.next_due() is None


def test_a_callback_scheduled_by_a_callback_runs_if_it_is_due_in_the_same_advance() -> None:
    clock = FakeClock(start=0)
    ran: list[float] = []

    def first() -> None:
        ran.append(clock.now())
        clock.call_later(1, lambda: ran.append(clock.now()))
        clock.call_soon(lambda: ran.append(clock.now()))

    clock.call_later(1, first)
    clock.advance(5)
    assert ran == [1, 1, 2] and clock.now() == 5
    with pytest.raises(ValueError):
        clock.advance(-1)


@run
async def test_the_fake_clock_pumps_what_is_due_at_once_onto_a_loop() -> None:
    clock = FakeClock(pump=asyncio.get_running_loop().call_soon)
    ran: list[str] = []
    clock.call_soon(ran.append, "now")
    clock.call_later(1, ran.append, "later")
    await asyncio.sleep(0)
    assert ran == ["now"]
    sleeper = asyncio.ensure_future(clock.sleep(3))
    await asyncio.sleep(0)
    clock.advance(2.9)
    await asyncio.sleep(0)
    assert not sleeper.done() and ran == ["now", "later"]
    clock.advance(0.1)
    await sleeper


@run
async def test_the_real_clock_is_the_loops() -> None:
    clock = LoopClock()
    ran: list[int] = []
    clock.call_soon(ran.append, 1)
    clock.call_later(0, ran.append, 2).cancel()
    await clock.sleep(0)
    assert ran == [1]
    assert abs(clock.now() - asyncio.get_running_loop().time()) < 1


# ------------------------------------------------------------------ the turn clock (R-C4, R-C1)


def _turn_clock() -> tuple[TurnClock, FakeClock, list[int]]:
    clock = FakeClock(start=0)
    fired: list[int] = []
    return TurnClock(fired.append, clock), clock, fired


def test_r_c4_the_decision_seconds_run_first_then_the_bank() -> None:
    turns, clock, fired = _turn_clock()
    turns.start(7, decision=10, bank=30)
    assert turns.left() == (10, 30) and turns.time_left() == 10
    clock.advance(4)
    assert turns.left() == (6, 30)
    clock.advance(10)  # 4 seconds into the bank
    assert turns.left() == (0, 26)
    assert turns.stop() == 26 and turns.left() is None  # the bank the seat keeps
    assert fired == [] and clock.pending == 0


def test_r_c4_both_run_out_and_the_turn_is_up() -> None:
    turns, clock, fired = _turn_clock()
    turns.start(3, decision=2, bank=5)
    assert turns.deadline == 7
    clock.advance(6.9)
    assert fired == []
    clock.advance(0.1)
    assert fired == [3] and turns.left() is None and turns.deadline is None


def test_r_c3_a_frozen_clock_stands_still_and_runs_on_from_where_it_stood() -> None:
    turns, clock, fired = _turn_clock()
    turns.start(1, decision=2, bank=1)
    clock.advance(1.5)
    turns.freeze()
    assert turns.left() == (0.5, 1) and turns.deadline is None
    clock.advance(600)
    assert fired == [] and turns.left() == (0.5, 1)
    turns.thaw()
    clock.advance(1.4)
    assert fired == []
    clock.advance(0.1)
    assert fired == [1]


def test_r_c3_a_clock_started_while_frozen_waits_for_the_thaw() -> None:
    turns, clock, fired = _turn_clock()
    turns.freeze()
    turns.start(2, decision=1, bank=0)
    clock.advance(100)
    assert fired == [] and turns.left() == (1, 0)
    turns.thaw()
    clock.advance(1)
    assert fired == [2]


def test_r_c1_the_grace_is_a_plain_timer_and_no_pause_stops_it() -> None:
    turns, clock, fired = _turn_clock()
    turns.arm(4, turn=9)
    turns.freeze()
    assert turns.left() is None and turns.time_left() == 4
    clock.advance(3)
    assert turns.time_left() == 1
    clock.advance(1)
    assert fired == [9]
    turns.arm(None, turn=10)  # no limit: nothing is armed
    clock.advance(1000)
    assert fired == [9] and clock.pending == 0


def test_arming_again_replaces_the_timer() -> None:
    turns, clock, fired = _turn_clock()
    turns.arm(1, turn=1)
    turns.start(2, decision=5, bank=0)
    clock.advance(10)
    assert fired == [2]


# ------------------------------------------------------------------ a connection's timers


class _Handler:
    def __init__(self) -> None:
        self.closed: list[Connection] = []

    def on_open(self, conn: Connection) -> bool:
        return True

    def on_message(self, conn: Connection, msg: dict[str, Any]) -> None:
        if msg["type"] == "hello":
            conn.beats = bool(msg.get("heartbeat"))
            conn.mark_greeted()

    def on_close(self, conn: Connection) -> None:
        self.closed.append(conn)


def _connection(**limits: Any) -> tuple[Connection, FakeTransport, FakeClock, _Handler]:
    clock = FakeClock(start=0)
    handler = _Handler()
    transport = FakeTransport()
    conn = Connection(handler, Limits(**limits), clock)  # type: ignore[arg-type]
    conn.connection_made(transport)
    return conn, transport, clock, handler


def _sent(transport: FakeTransport) -> list[dict[str, Any]]:
    return FrameDecoder().feed(b"".join(transport.written))


HELLO = encode_frame(Hello(name="ann").encode())
CUT_FRAME = struct.pack(">I", 50) + b"\x81"


@pytest.mark.parametrize(
    ("sent", "code"),
    [
        (b"", "handshake_timeout"),
        (HELLO + CUT_FRAME, "bad_frame"),
        (CUT_FRAME, "handshake_timeout"),
    ],
    ids=["silent", "cut-short-frame", "cut-short-before-the-hello"],
)
def test_the_documented_5_s_limits_close_the_connection(sent: bytes, code: str) -> None:
    """docs/protocol.md: no hello within 5 s, or a frame not finished 5 s after its first
    byte; before the hello the handshake timer runs out first."""
    assert ServerConfig().handshake_timeout == ServerConfig().frame_timeout == 5.0
    conn, transport, clock, handler = _connection()
    conn.data_received(sent)
    clock.advance(4.9)
    assert not conn.closed
    clock.advance(0.1)
    assert conn.closed and handler.closed == [conn]
    assert _sent(transport)[-1]["code"] == code


def test_r_c1_a_quiet_link_is_sent_a_heartbeat_after_a_whole_period_of_nothing() -> None:
    conn, transport, clock, _ = _connection(heartbeat_every=4, link_timeout=12)
    conn.data_received(encode_frame(Hello(name="ann").encode()))
    assert conn.greeted
    clock.advance(2)  # the first check, half a period in: nothing sent yet, and too soon
    assert _sent(transport) == []
    clock.advance(2)  # a whole period of nothing: a frame with no fields, to ignore
    assert _sent(transport) == [{"type": "heartbeat"}]
    conn.send_message({"type": "pong", "id": 1})
    clock.advance(2)
    assert [m["type"] for m in _sent(transport)] == ["heartbeat", "pong"]
    clock.advance(2)  # the pong went out 4 s ago
    assert [m["type"] for m in _sent(transport)] == ["heartbeat", "pong", "heartbeat"]
    clock.advance(100)  # a client that never said it beats (protocol 1's) is never dropped
    assert not conn.closed


def test_r_c1_a_beating_client_silent_for_the_link_timeout_is_dropped() -> None:
    conn, transport, clock, handler = _connection(heartbeat_every=4, link_timeout=12)
    conn.data_received(encode_frame(Hello(name="ann", heartbeat=True).encode()))
    clock.advance(10)
    conn.data_received(encode_frame({"type": "ping", "id": 1}))  # heard at 10
    clock.advance(12)  # checked at 22: 12 s of silence is not over 12
    assert not conn.closed
    clock.advance(2)  # checked at 24: 14 s of silence
    assert conn.closed and handler.closed == [conn] and transport.closed


def test_a_trickled_frame_is_cut_off_however_slowly_it_comes() -> None:
    """One byte every so often does not keep a frame open past ``frame_timeout``."""
    conn, transport, clock, _ = _connection(frame_timeout=2)
    conn.data_received(encode_frame(Hello(name="ann").encode()))
    conn.data_received(struct.pack(">I", 40) + b"\x81")
    for _ in range(3):
        clock.advance(0.5)
        conn.data_received(b"\xc0")
    clock.advance(0.4)
    assert not conn.closed
    clock.advance(0.1)
    assert conn.closed and _sent(transport)[-1]["code"] == "bad_frame"
