"""Helpers for the server tests: a real server on 127.0.0.1 port 0 and socket clients.

Every delay is a multiple of ``UNIT`` (seconds); set ``STUD_TEST_SCALE`` to
stretch them all on a slow machine.  A table on a fake clock (``clocked_table``, with
``Link`` clients and no sockets) needs no delays at all: tests ``advance`` its clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import random
import re
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import replace
from pathlib import Path
from typing import Any

from common.protocol import Act, FrameDecoder, Hello, Ping, encode_frame
from common.schema import SeatView, decode_legal
from server.app import TableServer
from server.config import ServerConfig
from server.net import Connection, Limits
from server.table import Table
from server.timers import Clock, FakeClock

UNIT = 0.05 * float(os.environ.get("STUD_TEST_SCALE", "1"))
LOOPBACK = "127.0.0.1"
CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


def run(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """An ``async`` test run in its own event loop."""

    @functools.wraps(fn)
    def test(*args: Any, **kwargs: Any) -> None:
        asyncio.run(fn(*args, **kwargs))

    return test


def config(tmp: Path, **overrides: Any) -> ServerConfig:
    base = ServerConfig(
        host=LOOPBACK,
        port=0,
        hands=4,
        grace=4 * UNIT,
        history_dir=tmp,
        seed=7,
        bot_delay=0,
        hand_pause=0,
        handshake_timeout=10 * UNIT,
        frame_timeout=6 * UNIT,
    )
    return replace(base, **overrides)


@contextlib.asynccontextmanager
async def running(
    cfg: ServerConfig, *, real_bots: bool = False, clock: Clock | None = None
) -> AsyncIterator[tuple[TableServer, int]]:
    """A server on loopback; computer seats use ``server.brain`` only if ``real_bots``;
    every timer of the server runs off ``clock`` (see ``fake_clock``) if one is given."""
    server = TableServer(cfg, chooser=None if real_bots else _random_choice, clock=clock)
    port = await server.start()
    try:
        yield server, port
    finally:
        await server.stop()


def fake_clock() -> FakeClock:
    """A fake clock for a server over real sockets: what is due at once runs on the
    running loop, and nothing else happens until the test advances it."""
    return FakeClock(pump=asyncio.get_running_loop().call_soon)


async def roundtrip(client: Client) -> None:
    """A ``ping`` answered: every frame the server sent the client before it has come."""
    mark = len(client.log)
    client.send(Ping(0).encode())
    await client.seen("pong", mark)


async def ticking(
    clock: FakeClock,
    client: Client,
    *types: str,
    step: float,
    start: int | None = None,
    limit: float = 600.0,
    **match: Any,
) -> dict[str, Any]:
    """``client.expect(*types, **match)`` (or, given ``start``, ``client.seen`` from there)
    while the server's fake clock moves on ``step`` seconds whenever nothing has come for
    a moment (at most ``limit`` seconds of it)."""
    until = clock.now() + limit
    while True:
        try:
            if start is None:
                return await client.expect(*types, timeout=UNIT / 2, **match)
            return (await client.seen(types[0], start, timeout=UNIT / 2, **match))[1]
        except TimeoutError:
            if clock.now() >= until:
                raise
            clock.advance(step)


@contextlib.asynccontextmanager
async def ticker(clock: FakeClock, *, step: float, every: float) -> AsyncIterator[None]:
    """The fake clock moves on ``step`` seconds every ``every`` real seconds while inside."""

    async def tick() -> None:
        while True:
            await asyncio.sleep(every)
            clock.advance(step)

    task = asyncio.get_running_loop().create_task(tick())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def _random_choice(view: SeatView | dict[str, Any], rng: random.Random) -> str:
    """A quick stand-in for the computer brain: the tests here are about the server.
    Also answers a person's ``turn`` message (a dict with the same ``legal``)."""
    legal = view.legal if isinstance(view, SeatView) else decode_legal(view["legal"])
    names = [str(a.action) for a in legal]
    return "call" if "call" in names and rng.random() < 0.6 else rng.choice(names)


class Client:
    """One socket client that keeps every message it was sent, in order."""

    def __init__(self, name: str = "p") -> None:
        self.name = name
        self.log: list[dict[str, Any]] = []
        self.decoder = FrameDecoder()
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.closed = False
        self._cursor = 0
        self._arrived = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.seat: int | None = None
        self.token = ""

    async def connect(self, port: int) -> Client:
        self.reader, self.writer = await asyncio.open_connection(LOOPBACK, port)
        self._task = asyncio.get_running_loop().create_task(self._pump())
        return self

    async def _pump(self) -> None:
        assert self.reader is not None
        try:
            while data := await self.reader.read(65536):
                self.log.extend(self.decoder.feed(data))
                self._arrived.set()
        except (ConnectionError, OSError):
            pass
        self.closed = True
        self._arrived.set()

    def send(self, msg: dict[str, Any]) -> None:
        self.send_raw(encode_frame(msg))

    def send_raw(self, data: bytes) -> None:
        assert self.writer is not None
        self.writer.write(data)

    async def hello(self, port: int, **kw: Any) -> dict[str, Any]:
        await self.connect(port)
        self.send(Hello(name=kw.pop("name", self.name), **kw).encode())
        msg = await self.expect("welcome", "error")
        if msg["type"] == "welcome":
            self.seat, self.token = msg["seat"], msg["token"]
        return msg

    async def expect(self, *types: str, timeout: float = 40 * UNIT, **match: Any) -> dict[str, Any]:
        """The next unread message of one of ``types`` (and with ``match`` keys)."""
        _, msg = await self._find(types, None, timeout, match, label=types)
        return msg

    async def seen(
        self, kind: str, start: int = 0, timeout: float = 40 * UNIT, **match: Any
    ) -> tuple[int, dict[str, Any]]:
        """The first logged message from index ``start`` on of ``kind`` (and ``match``),
        waiting for it if need be; unlike ``expect`` it moves no cursor."""
        return await self._find((kind,), start, timeout, match, label=kind)

    async def _find(
        self,
        types: tuple[str, ...],
        start: int | None,
        timeout: float,
        match: dict[str, Any],
        *,
        label: object,
    ) -> tuple[int, dict[str, Any]]:
        """Index and message of the first logged message of one of ``types`` (and
        ``match``) from ``start`` on, waiting for it until ``timeout``.  With ``start``
        None it reads from the cursor and moves the cursor past each message it looks
        at, matched or not, so ``expect`` never returns one message twice."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        i = start or 0
        while True:
            if start is None:
                i = self._cursor
            while i < len(self.log):
                msg = self.log[i]
                i += 1
                if start is None:
                    self._cursor = i
                if msg.get("type") in types and all(msg.get(k) == v for k, v in match.items()):
                    return i - 1, msg
            if self.closed:
                raise ConnectionError(f"{self.name}: closed while waiting for {label}")
            self._arrived.clear()
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no {label} {match} in time")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)

    async def wait_closed(self, timeout: float = 40 * UNIT) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self.closed:
            self._arrived.clear()
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"{self.name}: still open")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)

    async def play(self, rng: random.Random | None = None) -> dict[str, Any]:
        """Answer every turn with an offered action until the standings come."""
        rng = rng or random.Random(self.name)
        while True:
            msg = await self.expect("turn", "standings", timeout=400 * UNIT)
            if msg["type"] == "standings":
                return msg
            self.send(Act(msg["turn"], _random_choice(msg, rng)).encode())

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.log if m.get("type") == kind]

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._task, 1)


def cards_in(obj: Any) -> set[str]:
    """Every card code anywhere inside a decoded message."""
    found: set[str] = set()
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and CARD.match(item):
            found.add(item)
    return found


# ------------------------------------------------------------------ a table on a fake clock


class FakeTransport(asyncio.Transport):
    """What a ``Connection`` writes to, kept in memory: no socket."""

    def __init__(self, address: str = LOOPBACK) -> None:
        super().__init__()
        self.address = address
        self.written: list[bytes] = []
        self.closed = False
        self.reading = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return (self.address, 40000) if name == "peername" else default

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written.append(bytes(data))

    def get_write_buffer_size(self) -> int:
        return 0

    def write_eof(self) -> None:
        self.closed = True

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def is_reading(self) -> bool:
        return self.reading


class Link:
    """One client of a table on a fake clock: a real ``Connection`` over a
    ``FakeTransport``, whose every message is kept, in order, in ``log``."""

    def __init__(
        self,
        table: Table,
        name: str = "p",
        *,
        limits: Limits | None = None,
        address: str = LOOPBACK,
    ) -> None:
        self.name = name
        self.transport = FakeTransport(address)
        self.conn = Connection(table, limits or Limits(), table.clock)
        self.decoder = FrameDecoder()
        self._read = 0
        self._log: list[dict[str, Any]] = []
        self.writes: list[list[dict[str, Any]]] = []
        """The messages each write brought, once ``log`` has read them."""
        self.seat: int | None = None
        self.token = ""
        self.conn.connection_made(self.transport)

    @property
    def log(self) -> list[dict[str, Any]]:
        while self._read < len(self.transport.written):
            got = self.decoder.feed(self.transport.written[self._read])
            self.writes.append(got)
            self._log.extend(got)
            self._read += 1
        return self._log

    def send(self, msg: dict[str, Any]) -> None:
        self.conn.data_received(encode_frame(msg))

    def hello(self, **kw: Any) -> dict[str, Any]:
        self.send(Hello(name=kw.pop("name", self.name), **kw).encode())
        msg = next(m for m in self.log if m["type"] in ("welcome", "error"))
        if msg["type"] == "welcome":
            self.seat, self.token = msg["seat"], msg["token"]
        return msg

    def drop(self) -> None:
        """The link is gone, as if the socket closed (R-C1)."""
        self.conn.connection_lost(None)

    def of_type(self, kind: str, **match: Any) -> list[dict[str, Any]]:
        return [
            m
            for m in self.log
            if m.get("type") == kind and all(m.get(k) == v for k, v in match.items())
        ]

    def last(self, kind: str, **match: Any) -> dict[str, Any]:
        found = self.of_type(kind, **match)
        assert found, f"{self.name}: no {kind} {match}"
        return found[-1]

    def acts(self, seat: int) -> list[dict[str, Any]]:
        """Every ``act`` event of ``seat`` this link was sent."""
        return [
            e
            for m in self.of_type("events")
            for e in m["events"]
            if e["ev"] == "act" and e["seat"] == seat
        ]


async def clocked_table(cfg: ServerConfig, *, chooser: Any = None) -> tuple[Table, FakeClock]:
    """A table whose every timer runs off a ``FakeClock``; what is due "at once" runs on
    the running loop (so ``settle`` plays it), the rest waits for ``advance``."""
    clock = FakeClock(pump=asyncio.get_running_loop().call_soon)
    return Table(cfg, chooser=chooser or _random_choice, clock=clock), clock


async def settle(table: Table, *links: Link) -> None:
    """Let everything that is due now happen (frames, defaults played at once, computer
    seats choosing in their threads), without moving the fake clock."""
    quiet = 0
    seen = -1
    while quiet < 5:
        await asyncio.sleep(0)
        if table.computers.thinking:
            await asyncio.sleep(0.001)  # a worker thread is choosing: not a timer
            quiet = 0
            continue
        now = sum(len(link.transport.written) for link in links)
        quiet = quiet + 1 if now == seen else 0
        seen = now


async def advance(table: Table, clock: FakeClock, seconds: float, *links: Link) -> None:
    """Move the fake clock on by ``seconds``, one due timer at a time, letting what each
    one sets off happen before the next."""
    until = clock.now() + seconds
    await settle(table, *links)
    while (due := clock.next_due()) is not None and due <= until:
        clock.advance(due - clock.now())
        await settle(table, *links)
    clock.advance(until - clock.now())
    await settle(table, *links)


async def drive(
    table: Table,
    clock: FakeClock,
    links: list[Link],
    rng: random.Random,
    *,
    until: Any = None,
    limit: int = 20000,
) -> None:
    """Random legal play at a table on a fake clock: each linked person acts at once on
    its turn, computer seats choose in their threads, and the clock moves on to the next
    timer whenever no one can act; until the match is over (or ``until()`` is true)."""
    for _ in range(limit):
        await settle(table, *links)
        if until is not None and until():
            return
        if table.match is not None and not table.running:
            return  # the standings are out
        hand = table.match.hand if table.match is not None else None
        seat = table.turn_seat
        link = next((lk for lk in links if lk.seat == seat and lk.conn.seat == seat), None)
        mine = seat is not None and link is not None and table.seats[seat].conn is link.conn
        playing = mine and seat is not None and not table.seats[seat].presence.away
        if hand is not None and not hand.is_over and playing and not table.computers.thinking:
            assert seat is not None and link is not None
            legal = [str(a.kind) for a in hand.legal_actions(seat)]
            link.send(Act(table.turn_id, rng.choice(legal)).encode())
            continue
        due = clock.next_due()
        if due is None:
            if table.computers.thinking or table.computers._tasks:
                await asyncio.sleep(0.001)
                continue
            raise AssertionError("the table waits on nothing")
        clock.advance(max(0.0, due - clock.now()))
    raise AssertionError("the match did not end")
