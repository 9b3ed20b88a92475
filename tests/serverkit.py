"""The server tests' one kit: a table to test, one wire client, one way to wait.

- A server on 127.0.0.1 port 0 (``config``, ``running``); a table with no
  sockets at all (``clocked_table``, ``Link`` clients, ``seated``, ``settle``,
  ``advance``, ``drive``).
- ``Client``: the one raw wire client, written from ``docs/protocol.md`` alone: plain or
  sealed, from any loopback address, proving a password as the game does; it keeps every
  message it was sent and answers turns at random (``take_turns``).
- ``until`` / ``wait_until``: the one way to wait for something that is not a message.
  A message is awaited with ``Client.expect`` / ``seen``; ``roundtrip`` brings all sent.
- What a match left: ``history``, ``allowed_cards``, ``cards_in``.  A table's key for
  hand-made TLS servers (``identity``), and a TLS client's first bytes (``client_hello``).

Every delay is a multiple of ``UNIT`` (seconds); set ``STUD_TEST_SCALE`` to stretch them
all on a slow machine.  A table on a fake clock needs no delays at all.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import json
import os
import random
import re
import shutil
import ssl
import struct
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Collection, Coroutine
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

import msgpack  # type: ignore[import-untyped]

from common.proof import ClientProof
from common.protocol import Act, Hello
from common.schema import SeatView
from common.seal import TlsPipe, channel_binding, client_context, key_fingerprint
from server.app import TableServer
from server.config import ServerConfig
from server.identity import Identity, self_signed, server_context
from server.net import Connection, Limits
from server.table import Table
from server.timers import FakeClock

UNIT = 0.05 * float(os.environ.get("STUD_TEST_SCALE", "1"))
LOOPBACK = "127.0.0.1"
CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
T = TypeVar("T")


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
    cfg: ServerConfig, *, real_bots: bool = False
) -> AsyncIterator[tuple[TableServer, int]]:
    """A server on loopback; computer seats use ``server.brain`` only if ``real_bots``."""
    server = TableServer(cfg, chooser=None if real_bots else choose)
    port = await server.start()
    try:
        yield server, port
    finally:
        await server.stop()


def choose(view: SeatView | dict[str, Any], rng: random.Random) -> str:
    """A quick stand-in for the computer brain: the tests here are about the server.
    Also answers a person's ``turn`` message (a dict with the same ``legal``)."""
    if isinstance(view, SeatView):
        names = [str(a.action) for a in view.legal]
    else:
        names = [a["action"] for a in view["legal"]]
    return "call" if "call" in names and rng.random() < 0.6 else rng.choice(names)


# ------------------------------------------------------------------ waiting


async def until(done: Callable[[], T], *, timeout: float = 40 * UNIT) -> T:
    """``done()`` asked again every few milliseconds until it is true or ``timeout``
    seconds have passed: its last answer (assert it)."""
    end = time.monotonic() + timeout
    while not (found := done()) and time.monotonic() < end:
        await asyncio.sleep(UNIT / 10)
    return found


def wait_until(done: Callable[[], T], *, timeout: float = 20.0) -> T:
    """``until`` for a test with no event loop of its own (the event loop, if any, is
    on another thread)."""
    end = time.monotonic() + timeout
    while not (found := done()) and time.monotonic() < end:
        time.sleep(0.02)
    return found


async def roundtrip(client: Client) -> None:
    """A ``ping`` answered: every frame the server sent the client before it has come."""
    mark = len(client.log)
    client.send({"type": "ping", "id": 0})
    await client.seen("pong", mark)


# ------------------------------------------------------------------ the wire


def frame(obj: Any) -> bytes:
    """Any object as a frame (a test may send what no client should)."""
    body = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


def frames(buf: bytearray) -> list[dict[str, Any]]:
    """The whole frames at the start of ``buf``, taken out of it, read as
    ``docs/protocol.md`` says; ValueError for one that is not a map with string keys."""
    out = []
    while len(buf) >= 4 and len(buf) >= 4 + (size := int.from_bytes(buf[:4], "big")):
        msg = msgpack.unpackb(bytes(buf[4 : 4 + size]), raw=False, strict_map_key=True)
        del buf[: 4 + size]
        if not isinstance(msg, dict) or not all(isinstance(k, str) for k in msg):
            raise ValueError(f"a frame that is not a map with string keys: {msg!r}")
        out.append(msg)
    return out


def client_hello() -> bytes:
    """The first flight of a TLS client (its ClientHello), as the game's client sends it."""
    pipe = TlsPipe(client_context(), server_side=False)
    pipe.handshake()
    return pipe.outgoing()


class Messages:
    """What both kinds of client read their ``log`` with."""

    name: str
    log: list[dict[str, Any]]

    def of_type(self, kind: str, **match: Any) -> list[dict[str, Any]]:
        return [m for m in self.log if m.get("type") == kind and _fits(m, match)]

    def last(self, kind: str, **match: Any) -> dict[str, Any]:
        found = self.of_type(kind, **match)
        assert found, f"{self.name}: no {kind} {match}"
        return found[-1]

    def acts(self, seat: int, start: int = 0) -> list[dict[str, Any]]:
        """Every ``act`` event of ``seat`` this client was sent (from log index ``start``)."""
        return [
            e
            for m in self.log[start:]
            if m.get("type") == "events"
            for e in m["events"]
            if e["ev"] == "act" and e["seat"] == seat
        ]


def _fits(msg: dict[str, Any], match: dict[str, Any]) -> bool:
    return all(msg.get(k) == v for k, v in match.items())


class Client(Messages):
    """One connection to a table, its every message kept in ``log`` as it comes."""

    def __init__(self, name: str = "p", *, seed: Any = None) -> None:
        self.name = name
        self.rng = random.Random(name if seed is None else seed)
        """Its choice on its turns (``take_turns``)."""
        self.log: list[dict[str, Any]] = []
        self.cert = b""
        """The certificate (DER) the table showed, on a sealed connection."""
        self.closed = False
        self.problem = ""
        """Why a frame was not one ``docs/protocol.md`` allows (the connection is dropped)."""
        self.seat: int | None = None
        self.token = ""
        self.writer: asyncio.StreamWriter | None = None
        self._buf = bytearray()
        self._cursor = 0
        self._arrived = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def again(self) -> Client:
        """The same person on a new connection (not yet made): its seat, token and rng."""
        other = Client(self.name)
        other.rng, other.seat, other.token = self.rng, self.seat, self.token
        return other

    async def connect(
        self,
        port: int,
        *,
        sealed: bool = False,
        context: ssl.SSLContext | None = None,
        source: str | None = None,
    ) -> Client:
        """Open the connection: plain, or sealed (``context``, else the game's), from the
        loopback address ``source`` if given (Linux routes all of 127/8 to ``lo``)."""
        context = context or (client_context() if sealed else None)
        reader, self.writer = await asyncio.open_connection(
            LOOPBACK, port, ssl=context, local_addr=(source, 0) if source else None
        )
        if context is not None:
            self.cert = self.writer.get_extra_info("ssl_object").getpeercert(binary_form=True)
        self._task = asyncio.get_running_loop().create_task(self._pump(reader))
        _PUMPS.add(self._task)  # a client no test holds any more stays connected
        self._task.add_done_callback(_PUMPS.discard)
        return self

    async def _pump(self, reader: asyncio.StreamReader) -> None:
        try:
            while data := await reader.read(65536):
                self._buf += data
                self.log += frames(self._buf)
                self._arrived.set()
        except (ConnectionError, OSError, ssl.SSLError):
            pass
        except ValueError as exc:
            self.problem = str(exc)
            self.writer.close()  # type: ignore[union-attr]
        self.closed = True
        self._arrived.set()

    def send(self, msg: dict[str, Any]) -> None:
        self.send_raw(frame(msg))

    def send_raw(self, data: bytes) -> None:
        assert self.writer is not None
        self.writer.write(data)

    async def hello(
        self,
        port: int = 0,
        *,
        sealed: bool = False,
        source: str | None = None,
        proof: str | None = None,
        **kw: Any,
    ) -> dict[str, Any]:
        """Connect (to ``port``, unless connected) and say hello (``kw``: ``Hello``'s
        fields); the ``welcome`` or the ``error``.  ``proof``: a password proved as the
        game proves it (sealed, protocol 2), never sent."""
        if self.writer is None:
            await self.connect(port, sealed=sealed or proof is not None, source=source)
        pake = None if proof is None else ClientProof(proof, channel_binding(self.cert))
        if pake is not None:
            kw["pake"] = pake.start()
        self.send(Hello(name=kw.pop("name", self.name), **kw).encode())
        msg = await self.expect("welcome", "error", "proof")
        if msg["type"] == "proof":
            assert pake is not None
            self.send({"type": "proof", "mac": pake.finish(msg["pake"], msg["mac"])})
            msg = await self.expect("welcome", "error")
        if msg["type"] == "welcome":
            self.seat, self.token = msg["seat"], msg["token"]
        return msg

    @property
    def unread(self) -> int:
        """Messages come and not yet read (``take``, ``expect``)."""
        return len(self.log) - self._cursor

    def take(self, *types: str, **match: Any) -> dict[str, Any] | None:
        """The next unread message of one of ``types`` (and ``match``) if it has come:
        the cursor moves past every message looked at."""
        while self._cursor < len(self.log):
            msg = self.log[self._cursor]
            self._cursor += 1
            if _wanted(msg, types) and _fits(msg, match):
                return msg
        return None

    async def expect(self, *types: str, timeout: float = 40 * UNIT, **match: Any) -> dict[str, Any]:
        """The next unread message of one of ``types`` (any but a ``heartbeat`` if none
        is named) and with ``match``'s values, waiting for it: each message is read once."""
        return await self._wait(lambda: self.take(*types, **match), timeout, types or "any")

    async def seen(
        self, kind: str, start: int = 0, timeout: float = 40 * UNIT, **match: Any
    ) -> tuple[int, dict[str, Any]]:
        """The first logged message from index ``start`` on of ``kind`` (and ``match``),
        waiting for it if need be; unlike ``expect`` it moves no cursor."""

        def find() -> tuple[int, dict[str, Any]] | None:
            return next(
                ((i, m) for i, m in enumerate(self.log[start:], start)
                 if m.get("type") == kind and _fits(m, match)),
                None,
            )  # fmt: skip

        return await self._wait(find, timeout, kind)

    async def _wait(self, find: Callable[[], T | None], timeout: float, label: object) -> T:
        end = asyncio.get_running_loop().time() + timeout
        while (found := find()) is None:
            if self.closed:
                raise ConnectionError(
                    f"{self.name}: closed while waiting for {label} {self.problem}"
                )
            self._arrived.clear()
            left = end - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no {label} in time")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)
        return found

    async def wait_closed(self, timeout: float = 40 * UNIT) -> None:
        """Until the table has closed the connection (frames before the close are kept)."""
        with contextlib.suppress(ConnectionError):
            await self._wait(lambda: None, timeout, "the close")

    async def play(self) -> dict[str, Any]:
        """Answer every turn with an offered action until the standings come: those."""
        return (await take_turns([self]))[1]

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._task, 1)


_PUMPS: set[asyncio.Task[None]] = set()
"""Every open client's reading task (the event loop keeps only weak references)."""


def _wanted(msg: dict[str, Any], types: tuple[str, ...]) -> bool:
    return msg.get("type") in types if types else msg.get("type") != "heartbeat"


async def take_turns(
    clients: list[Client],
    stop: Callable[[Client, dict[str, Any]], bool] | None = None,
    *,
    timeout: float = 400 * UNIT,
) -> tuple[Client, dict[str, Any]]:
    """Each client answers its turns with an offered action (its own ``rng``) until the
    standings come, or ``stop(client, turn)`` says to stop at a turn, left unanswered:
    the client and the message it stopped at."""
    while True:
        for c in clients:
            while (msg := c.take("turn", "standings")) is not None:
                if msg["type"] == "standings" or (stop is not None and stop(c, msg)):
                    return c, msg
                c.send(Act(msg["turn"], choose(msg, c.rng)).encode())
        if all(c.closed for c in clients):
            raise ConnectionError(f"{[c.name for c in clients]}: closed before the standings")
        if not await until(lambda: any(c.unread for c in clients), timeout=timeout):
            raise TimeoutError(f"no turn came to {[c.name for c in clients]}")


def table_key(port: int) -> bytes:
    """The certificate (DER) a table on loopback ``port`` shows; no hello is said."""

    async def shown() -> bytes:
        c = await Client("key").connect(port, sealed=True)
        await c.close()
        return c.cert

    return asyncio.run(shown())


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


def history(folder: Path) -> list[dict[str, Any]]:
    """The hands of the one history file in ``folder``, its last line whole."""
    (path,) = folder.glob("*.jsonl")
    data = path.read_bytes()
    assert not data or data.endswith(b"\n"), "a torn line was left in the history"
    return [json.loads(line) for line in data.splitlines()]


def allowed_cards(record: dict[str, Any], seat: int | None) -> set[str]:
    """The cards ``seat`` may ever see of a history's hand: up cards, its own, and shown ones."""
    ok: set[str] = set()
    for ev in record["events"]:
        if ev["ev"] == "deal" and (ev["up"] or ev["seat"] == seat):
            ok.add(ev["card"])
        elif ev["ev"] == "show":
            ok.update(ev["cards"])
    return ok


# ------------------------------------------------------------------ a table's key


@dataclass(frozen=True, slots=True)
class Key:
    """A key and its self-signed certificate: ``pem`` holds both, for ``load_cert_chain``."""

    pem: Path
    der: bytes

    @property
    def fingerprint(self) -> str:
        return key_fingerprint(self.der)

    @property
    def binding(self) -> bytes:
        return channel_binding(self.der)

    def context(self) -> ssl.SSLContext:
        return server_context(str(self.pem))


@functools.cache
def _keys() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="stud-keys-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


@functools.cache
def identity(name: str = "Test table") -> Key:
    """One key per ``name`` for the whole test process, for hand-made TLS servers."""
    key_pem, cert_pem = self_signed(name)
    pem = _keys() / f"{name.replace(' ', '_')}.pem"
    pem.write_bytes(key_pem + cert_pem)
    pem.chmod(0o600)
    return Key(pem, ssl.PEM_cert_to_DER_cert(cert_pem.decode("ascii")))


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

    def close(self) -> None:
        self.closed = True

    abort = write_eof = close

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def is_reading(self) -> bool:
        return self.reading


class Link(Messages):
    """One client of a table on a fake clock: a real ``Connection`` over a
    ``FakeTransport``, whose every message is kept, in order, in ``log``."""

    tls: TlsPipe | None = None

    def __init__(
        self,
        table: Table,
        name: str = "p",
        *,
        limits: Limits | None = None,
        address: str = LOOPBACK,
        identity: Identity | None = None,
    ) -> None:
        self.name = name
        self.transport = FakeTransport(address)
        self.conn = Connection(table, limits or Limits(), table.clock, identity=identity)
        self._buf = bytearray()
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
            data = self.transport.written[self._read]
            self._buf += data if self.tls is None else self.tls.feed(data)
            got = frames(self._buf)
            self.writes.append(got)
            self._log += got
            self._read += 1
        return self._log

    def send(self, msg: dict[str, Any]) -> None:
        self.send_bytes(frame(msg))

    def send_bytes(self, data: bytes) -> None:
        """Bytes of the protocol (sealed first on a sealed link)."""
        if self.tls is None:
            self.conn.data_received(data)
        else:
            self.raw(self.tls.write(data))

    def raw(self, data: bytes) -> None:
        """Bytes as they come off the wire."""
        if data and not self.conn.closed:
            self.conn.data_received(data)

    def hello(self, **kw: Any) -> dict[str, Any]:
        self.send(Hello(name=kw.pop("name", self.name), **kw).encode())
        msg = next(m for m in self.log if m["type"] in ("welcome", "error"))
        if msg["type"] == "welcome":
            self.seat, self.token = msg["seat"], msg["token"]
        return msg

    def drop(self) -> None:
        """The link is gone, as if the socket closed (R-C1)."""
        self.conn.connection_lost(None)


class SealedLink(Link):
    """A ``Link`` whose connection is sealed: a ``TlsPipe`` is the client's end, its
    handshake done at once unless not ``shake``."""

    def __init__(
        self,
        table: Table,
        identity: Identity,
        name: str = "p",
        *,
        limits: Limits | None = None,
        shake: bool = True,
    ) -> None:
        super().__init__(table, name, limits=limits, identity=identity)
        self.tls = TlsPipe(client_context(), server_side=False)
        if shake:
            self.shake()

    def shake(self) -> None:
        assert self.tls is not None
        self.tls.handshake()
        for _ in range(10):
            self.raw(self.tls.outgoing())
            self.log  # noqa: B018 (reads what the server sent)
            if self.tls.ready and self.conn.sealed:
                return
        raise AssertionError("no handshake")


def seated(table: Table, *names: str) -> list[Link]:
    """A ``Link`` for each of ``names``, each having said hello (a seat, if one is free)."""
    links = [Link(table, name) for name in names]
    for link in links:
        link.hello()
    return links


async def clocked_table(cfg: ServerConfig, *, chooser: Any = None) -> tuple[Table, FakeClock]:
    """A table whose every timer runs off a ``FakeClock``; what is due "at once" runs on
    the running loop (so ``settle`` plays it), the rest waits for ``advance``."""
    clock = FakeClock(pump=asyncio.get_running_loop().call_soon)
    return Table(cfg, chooser=chooser or choose, clock=clock), clock


def seat_to_act(table: Table) -> int | None:
    """The seat whose decision the table asks for now (``Turns.to_act``)."""
    seat = table.turns.to_act
    return None if seat is None else seat.seat


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
    links: Collection[Link],
    rng: random.Random,
    *,
    until: Any = None,
    limit: int = 20000,
    aside: Callable[[], bool] | None = None,
    act: Callable[[Link, list[str]], Coroutine[Any, Any, None]] | None = None,
) -> None:
    """Random legal play at a table on a fake clock: each linked person acts at once on
    its turn, computer seats choose in their threads, and the clock moves on to the next
    timer whenever no one can act; until the match is over (or ``until()`` is true).
    ``aside()``, asked first each time, may do something else instead (True when it did);
    ``act(link, legal)`` plays a person's turn in place of a random legal action."""
    for _ in range(limit):
        await settle(table, *links)
        if until is not None and until():
            return
        if table.dealer.match is not None and not table.dealer.life.running:
            return  # the standings are out
        if aside is not None and aside():
            continue
        hand = table.dealer.match.hand if table.dealer.match is not None else None
        seat = seat_to_act(table)
        link = None
        if seat is not None and not table.seats[seat].presence.away:
            link = next((lk for lk in links if lk.conn is table.seats[seat].conn), None)
        if (
            hand is not None
            and not hand.is_over
            and link is not None
            and not table.computers.thinking
        ):
            legal = [str(a.kind) for a in hand.legal_actions(seat)]
            if act is not None:
                await act(link, legal)
            else:
                link.send(Act(table.turns.turn_id, rng.choice(legal)).encode())
            continue
        due = clock.next_due()
        if due is None:
            if table.computers.thinking or table.computers._tasks:
                await asyncio.sleep(0.001)
                continue
            raise AssertionError("the table waits on nothing")
        clock.advance(max(0.0, due - clock.now()))
    raise AssertionError("the match did not end")
