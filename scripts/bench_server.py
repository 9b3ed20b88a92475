#!/usr/bin/env python3
"""Benchmark: socket clients on loopback at one table (a benchmark, not a test).

    scripts/bench_server.py [--acts 2000] [--segments 10] [--no-growth] [--flooders 4]

Every server runs as a subprocess and is measured with the same client harness, all of
them interleaved in one run: each in turn plays its share of ``--acts`` in
``--segments`` rounds (the order turned round each round), so that whatever else the
machine does falls on all alike.  Only the ratios to anchors measured in the same run
count; each is printed with its target.

- The floor: a raw asyncio server that, for each message it gets, writes one frame of
  as many bytes as the table sends each client per act (measured as the run goes) to
  every client, in one write each.  Its act-to-every-client p50 and its CPU per act are
  the anchors: the table's CPU per act at seven seats at most 2x the floor's, and its
  act-to-all-seven-updated p50 at most 1.5x the floor's.  A client's bytes are timed
  when they are read, before the clients read with them are decoded (one process
  decodes them all, and the table's frames take longer to decode than the floor's).
- The table at seven seats, plain and sealed (TLS, ``common.seal.client_context``, as
  the game's client): act to every client's ``table`` for the step, p50 and p99, and
  the server's CPU per act (its process's CPU clock over its own segments).
- A yardstick, the bare table: the same server with its journal, its step frames and
  its clock message taken out (each step sends every client one frame of about the
  same size, like the floor's, so that the clients play on).  Not a server anyone
  plays: its CPU per act against the floor's is the most that rebuilding those three
  parts could ever give, the engine, the turns and the event loop's own work left.
- How cost grows: CPU per act, p99 and bytes sent per act at 2, 4 and 7 seats and at
  seven seats with 4 and 16 watchers (watchers from 127.0.0.3 on, four to an address).
  CPU must grow no faster than the bytes, and a watcher must cost less than a seat.
- Under attack: four more connections (from 127.0.0.2) flood one table with pings as
  fast as the kernel takes them, opening a new connection whenever the server closes
  one; that table and a clean one are interleaved while the flood is on, and the
  attacked p99 must be at most 1.5x the clean one's.

The tables keep their journals in memory (``/dev/shm``, where there is one) so that
the figures are the server's and not the disk's; what one journal record's fsync costs
on the temp folder's disk is printed beside them.  Only loopback addresses are used.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import ctypes.util
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common.protocol import Act, FrameDecoder, Hello, Ping, Start, encode_frame  # noqa: E402
from common.seal import client_context  # noqa: E402

LOOPBACK = "127.0.0.1"
SEATS = 7


# ------------------------------------------------------------------ the floor server


async def _floor_server() -> None:
    """The floor: for each message it gets, one frame of the size the message asks for
    (``size``: the bytes a table sends each connection per act, measured) to every
    client, in one write each.  Nothing else: the least a server can do for the same
    bytes."""
    conns: list[asyncio.Transport] = []
    step = 0

    class Floor(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            assert isinstance(transport, asyncio.Transport)
            self.decoder = FrameDecoder()
            conns.append(transport)
            transport.write(encode_frame({"type": "ready"}))  # it is in every broadcast now

        def data_received(self, data: bytes) -> None:
            nonlocal step
            for msg in self.decoder.feed(data):
                step += 1
                size = max(0, int(msg.get("size", 0)) - 40)
                frame = encode_frame({"type": "table", "step": step, "pad": b"x" * size})
                for t in conns:
                    t.write(frame)

    server = await asyncio.get_running_loop().create_server(Floor, LOOPBACK, 0)
    print(f"listening on port {server.sockets[0].getsockname()[1]}", file=sys.stderr, flush=True)
    await asyncio.Event().wait()


# ------------------------------------------------------------------ the bare table

_BARE_PAD = 1500
"""Bytes of padding in the bare table's one frame a step: about what the table sends
each client per act (the report prints both)."""


def _bare_server(argv: list[str]) -> int:
    """``python -m server`` with its journal, step frames and clock message taken out:
    every step is one frame to every client (its ``step`` and padding), the ``turn`` as
    the table sends it.  A yardstick for the report, never a table to play at."""
    from server import journal, table, turns
    from server.__main__ import main as serve

    pad = b"x" * _BARE_PAD

    def step_frames(
        self: table.Table, events: object, viewers: set[int | None], legal: object = None
    ) -> dict[int | None, bytes]:
        return dict.fromkeys(
            viewers, encode_frame({"type": "table", "step": self.step, "pad": pad})
        )

    journal.Journal.append = lambda self, record: None  # type: ignore[method-assign]
    table.Table._step_frames = step_frames  # type: ignore[method-assign]
    turns.Turns.broadcast_clock = lambda self: None  # type: ignore[method-assign]
    return serve(argv)


# ------------------------------------------------------------------ the attack


async def _flood(port: int, connections: int, source: str) -> None:
    """``connections`` watchers that send pings as fast as they can, for ever; each one
    the server closes is opened again at once."""
    pings = encode_frame(Ping(1).encode()) * 4096
    hello = encode_frame(Hello(name="flood", watch=True).encode())
    counts = {"opened": 0, "bytes": 0}

    async def drain(reader: asyncio.StreamReader) -> None:
        while await reader.read(1 << 16):
            pass

    async def one() -> None:
        while True:
            try:
                reader, writer = await asyncio.open_connection(
                    LOOPBACK, port, local_addr=(source, 0)
                )
            except OSError:
                await asyncio.sleep(0.01)
                continue
            counts["opened"] += 1
            sink = asyncio.get_running_loop().create_task(drain(reader))
            try:
                writer.write(hello)
                while not sink.done():
                    writer.write(pings)
                    counts["bytes"] += len(pings)
                    await writer.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                writer.close()
                sink.cancel()

    async def report() -> None:
        while True:
            await asyncio.sleep(1)
            print(f"flood {counts['opened']} {counts['bytes']}", file=sys.stderr, flush=True)

    await asyncio.gather(report(), *(one() for _ in range(connections)))


# ------------------------------------------------------------------ the client harness


def _watcher_source(i: int) -> str:
    """Watchers come from 127.0.0.3 on, four to an address (the table's limit)."""
    return f"127.0.0.{3 + i // 4}"


class Bench:
    """``seats`` clients seated and ``watchers`` watching, in one loop; one act in flight
    at a time, ``run(n)`` acts at a go.  An act is done when every client (watchers
    too) has its ``table`` for the step."""

    def __init__(self, *, floor: bool, seats: int = SEATS, watchers: int = 0) -> None:
        self.floor = floor
        self.seats = seats
        self.clients = seats + watchers
        self.goal = 0  # acts measured when the current ``run`` is done
        self.seen: list[int] = [0] * self.clients  # highest table step each client has
        self.arrival: list[dict[int, float]] = [{} for _ in range(self.clients)]
        self.turns: dict[int, dict[str, Any]] = {}
        self.transports: list[asyncio.Transport] = []
        self.latencies: list[float] = []
        self.received = 0  # bytes, every client together
        self.size = 0  # the floor: bytes to ask for per client per act
        self.pending: tuple[int, float] | None = None  # (step awaited, sent at)
        self.done = asyncio.Event()
        self.rng = random.Random(1)
        self.host_needs_start = False
        self.ready = asyncio.Event()  # the floor server has every client
        self._ready = 0
        self.decoders = [FrameDecoder() for _ in range(self.clients)]
        self._inbox: list[tuple[int, float, bytes]] = []
        """Bytes read (client, when, what) and not yet decoded: every client's arrival is
        timed as it is read, before any of them is decoded (see ``client``)."""

    def client(self, index: int) -> asyncio.Protocol:
        bench = self

        class Client(asyncio.Protocol):
            """Its bytes are timed when read and decoded after every client that could
            be read in the same turn of the loop has been: the clients share one
            process, and the time this one takes to decode a frame is not the server's
            latency to the next (nor is it the same for the floor's frames and the
            table's, whose bytes are as many but not as simple)."""

            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                assert isinstance(transport, asyncio.Transport)
                bench.transports.append(transport)

            def data_received(self, data: bytes) -> None:
                now = time.perf_counter()
                bench.received += len(data)
                if not bench._inbox:
                    asyncio.get_running_loop().call_soon(bench._decode)
                bench._inbox.append((index, now, data))

        return Client()

    def _decode(self) -> None:
        inbox, self._inbox = self._inbox, []
        for index, now, data in inbox:
            for msg in self.decoders[index].feed(data):
                self.on_message(index, msg, now)

    def on_message(self, i: int, msg: dict[str, Any], now: float) -> None:
        kind = msg.get("type")
        if kind == "table":
            self.seen[i] = msg["step"]
            self.arrival[i][msg["step"]] = now
            self._maybe_finish_step()
        elif kind == "turn":
            self.turns[i] = msg
            self._maybe_act()
        elif kind == "lobby" and i == 0 and not msg["running"] and self.host_needs_start:
            self.host_needs_start = False
            self.transports[0].write(encode_frame(Start(hands=12).encode()))
        elif kind == "standings" and i == 0:
            self.host_needs_start = True
        elif kind == "ready":
            self._ready += 1
            if self._ready == self.clients:
                self.ready.set()

    def _maybe_finish_step(self) -> None:
        if self.pending is not None:
            step, sent = self.pending
            if min(self.seen) >= step:
                last = max(self.arrival[c].pop(step) for c in range(self.clients))
                self.latencies.append(last - sent)
                self.pending = None
                if len(self.latencies) >= self.goal:
                    self.done.set()
                    return
        self._maybe_act()

    async def run(self, acts: int) -> None:
        """Play ``acts`` more acts, each measured, then stop (the table waits for the next
        ``run``, its clients still at it)."""
        self.goal = len(self.latencies) + acts
        self.done.clear()
        self._maybe_act()
        await asyncio.wait_for(self.done.wait(), 600)

    def _maybe_act(self) -> None:
        if self.pending is not None or len(self.latencies) >= self.goal:
            return
        step = max(self.seen)
        if min(self.seen) < step:
            return
        for arrived in self.arrival:  # steps nobody waits for (deals, the hand's end)
            for old in [s for s in arrived if s <= step]:
                del arrived[old]
        if self.floor:
            actor = self.rng.randrange(self.seats)
            msg: dict[str, Any] = {"type": "act", "size": self.size}
            self.pending = (step + 1, time.perf_counter())
            self.transports[actor].write(encode_frame(msg))
            return
        if not self.turns:
            return
        actor, turn_msg = next(iter(self.turns.items()))
        names = [a["action"] for a in turn_msg["legal"]]
        prefer = [n for n in names if n in ("call", "check", "bring_in")]
        action = self.rng.choice(prefer or names) if self.rng.random() < 0.9 else "fold"
        action = action if action in names else names[0]
        self.turns.clear()
        self.pending = (step + 1, time.perf_counter())
        self.transports[actor].write(encode_frame(Act(turn_msg["turn"], action).encode()))


async def _seated(
    port: int, *, floor: bool, sealed: bool = False, seats: int = SEATS, watchers: int = 0
) -> Bench:
    """The clients at the server on ``port``, said hello (sealed: each in TLS, as the
    game's client; the table's key is not checked here): the watchers first, so that
    the match (which starts with the last seat) has them all."""
    loop = asyncio.get_running_loop()
    bench = Bench(floor=floor, seats=seats, watchers=watchers)
    tls = {"ssl": client_context(), "server_hostname": ""} if sealed else {}
    order = [(seats + w, True) for w in range(watchers)] + [(i, False) for i in range(seats)]
    made: dict[int, asyncio.Transport] = {}
    for index, watch in order:
        local = {"local_addr": (_watcher_source(index - seats), 0)} if watch else {}
        transport, _ = await loop.create_connection(
            lambda i=index: bench.client(i), LOOPBACK, port, **tls, **local
        )
        made[index] = transport
        if not floor:
            hello = Hello(name=f"w{index}" if watch else f"c{index}", watch=watch)
            transport.write(encode_frame(hello.encode()))
    bench.transports = [made[i] for i in range(bench.clients)]
    if floor:  # an act before the floor server has all its clients would wait for ever
        await asyncio.wait_for(bench.ready.wait(), 60)
    return bench


class Measured:
    """One server's share of the interleaved run: its acts' latencies, the server's CPU
    seconds and the bytes its clients received, over its own segments."""

    def __init__(self, port: int, pid: int, *, seats: int = SEATS, watchers: int = 0) -> None:
        self.port, self.pid = port, pid
        self.seats, self.watchers = seats, watchers
        self.latencies: list[float] = []
        self.cpu = 0.0
        self.received = 0
        self.rss = 0  # KiB, once measured

    @property
    def cpu_per_act(self) -> float:
        return self.cpu / max(1, len(self.latencies))

    @property
    def bytes_per_act(self) -> float:
        return self.received / max(1, len(self.latencies))

    def p(self, q: float) -> float:
        return _pct(self.latencies, q)


async def _interleaved(
    tables: dict[str, Measured], acts: int, warmup: int, segments: int, *, floor: str = "floor"
) -> None:
    """Each server's clients (a name with ``sealed`` in it: in TLS), then ``segments``
    rounds in which every server plays its share of ``acts`` in turn, the order turned
    round each round.  The floor (named ``floor``) is asked, each act, for what the
    plain seven-seat table (``plain``) sent each client per act so far."""
    benches = {
        name: await _seated(
            m.port,
            floor=name == floor,
            sealed="sealed" in name,
            seats=m.seats,
            watchers=m.watchers,
        )
        for name, m in tables.items()
    }
    for name, bench in benches.items():
        if name != floor:
            await bench.run(warmup)
    plain = benches.get("plain")
    if floor in benches and plain is not None:
        benches[floor].size = int(plain.received / max(1, len(plain.latencies)) / plain.clients)
        await benches[floor].run(warmup)
    order = list(tables)
    for round_ in range(segments):
        share = acts // segments + (1 if round_ < acts % segments else 0)
        for name in order if round_ % 2 == 0 else order[::-1]:
            m, bench = tables[name], benches[name]
            start, cpu, got = len(bench.latencies), _cpu_seconds(m.pid), bench.received
            await bench.run(share)
            m.cpu += _cpu_seconds(m.pid) - cpu
            m.received += bench.received - got
            m.latencies += bench.latencies[start:]
            if name == "plain" and floor in benches:
                benches[floor].size = int(m.bytes_per_act / bench.clients)
    for bench in benches.values():
        for t in bench.transports:
            t.close()


def _spawn(args: list[str]) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, *args],
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "STUD_MDNS": "off"},
    )
    assert proc.stderr is not None
    for line in proc.stderr:
        found = re.search(r"listening on port (\d+)", line)
        if found:
            # Keep draining its log so a full pipe never stalls the server.
            threading.Thread(target=proc.stderr.read, daemon=True).start()
            return proc, int(found.group(1))
    raise RuntimeError("server did not start")


def _cpu_seconds(pid: int) -> float:
    """CPU time (user and system, every thread) process ``pid`` has used: its CPU clock
    (``clock_getcpuclockid``, nanoseconds), else ``/proc``'s clock ticks."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    clock = ctypes.c_int()
    if libc.clock_getcpuclockid(pid, ctypes.byref(clock)) == 0:
        with contextlib.suppress(OSError):
            return time.clock_gettime(clock.value)
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _bot_decisions(decisions: int) -> list[float]:
    """Seconds per ``server.brain.choose_action`` call on real seat views (no sockets)."""
    from common.match import Match, SeatInfo, SeatKind
    from common.views import seat_view
    from server.brain import choose_action

    rng = random.Random(5)
    times: list[float] = []
    while len(times) < decisions:
        seats = {s: SeatInfo(f"c{s}", SeatKind.COMPUTER) for s in range(rng.randint(2, SEATS))}
        match = Match(seats=seats, rng=rng, hands=4)
        while not match.is_over and len(times) < decisions:
            hand = match.next_hand(rng=rng)
            while hand.to_act is not None:
                view = seat_view(hand, hand.to_act)
                started = time.perf_counter()
                choice = choose_action(view, rng)
                times.append(time.perf_counter() - started)
                match.apply(hand.to_act, choice)
    return times


def _server_args(history: str, seats: int) -> list[str]:
    return [
        "-m",
        "server",
        "--host",
        LOOPBACK,
        "--port",
        "0",
        "--start-when",
        str(seats),
        "--hands",
        "12",
        "--bot-delay",
        "0",
        "--hand-pause",
        "0",
        "--history-dir",
        history,
        "--data-dir",  # its key beside its histories: a run of its own, nothing kept
        history,
        "--log-level",
        "INFO",
        "--no-announce",  # a benchmark on loopback: nothing goes on the network
    ]


SHAPES = {
    "plain": (SEATS, 0),
    "sealed": (SEATS, 0),
    "bare": (SEATS, 0),
    "2 seats": (2, 0),
    "4 seats": (4, 0),
    "4 watchers": (SEATS, 4),
    "16 watchers": (SEATS, 16),
}
"""Every table the interleaved run measures: (seats, watchers); ``sealed`` in TLS, the
others plain; ``bare`` the yardstick (``_bare_server``)."""


def _run_tables(tmp: str, names: list[str], args: argparse.Namespace) -> dict[str, Measured]:
    """Start the floor and a server for each of ``names``, interleave them, stop them."""
    procs: list[subprocess.Popen[str]] = []
    tables: dict[str, Measured] = {}
    try:
        proc, port = _spawn([__file__, "--floor-server"])
        procs.append(proc)
        tables["floor"] = Measured(port, proc.pid)
        for name in names:
            seats, watchers = SHAPES[name]
            history = Path(tmp, name.replace(" ", "-"))  # each its own folder and key
            history.mkdir(exist_ok=True)
            server = _server_args(str(history), seats)
            if name == "bare":
                server = [__file__, "--bare-server", *server[2:]]  # for "-m server"
            proc, port = _spawn(server)
            procs.append(proc)
            tables[name] = Measured(port, proc.pid, seats=seats, watchers=watchers)
        asyncio.run(_interleaved(tables, args.acts, args.warmup, max(1, args.segments)))
        tables["plain"].rss = _rss_kib(tables["plain"].pid)
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait()
    return tables


def _attack(tmp: str, args: argparse.Namespace) -> tuple[Measured, Measured, list[str]]:
    """A clean seven-seat table and one flooded by ``--flooders`` connections from
    127.0.0.2 (pings as fast as the kernel takes them, each closed one opened again),
    interleaved while the flood is on."""
    procs: list[subprocess.Popen[str]] = []
    flood_log: list[str] = []
    tables: dict[str, Measured] = {}
    flood: subprocess.Popen[str] | None = None
    try:
        for name in ("clean", "attacked"):
            history = Path(tmp, f"flood-{name}")
            history.mkdir(exist_ok=True)
            proc, port = _spawn(_server_args(str(history), SEATS))
            procs.append(proc)
            tables[name] = Measured(port, proc.pid)
        flood = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--flood",
                str(tables["attacked"].port),
                "--flooders",
                str(args.flooders),
            ],
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        log = flood.stderr
        assert log is not None
        threading.Thread(target=lambda: flood_log.extend(log), daemon=True).start()
        time.sleep(1.0)  # the flood is on before the seats sit down
        asyncio.run(_interleaved(tables, args.acts, args.warmup, max(1, args.segments)))
    finally:
        if flood is not None:
            flood.terminate()
            flood.wait()
        for proc in procs:
            proc.terminate()
            proc.wait()
    return tables["clean"], tables["attacked"], flood_log


def _memory_dir() -> str | None:
    """/dev/shm when it is a folder one may write in (memory), else None (the default)."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None


def _fsync_cost(folder: str, records: int = 50) -> tuple[float, float]:
    """CPU and wall seconds of one journal record on ``folder``'s disk: an append and its
    fsync to the file kept open, as ``server.journal`` does it."""
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        path = Path(tmp, "journal")
        path.touch()
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        try:
            wall, cpu = time.perf_counter(), time.process_time()
            for _ in range(records):
                os.write(fd, b"x" * 200 + b"\n")
                os.fsync(fd)
            spent = time.process_time() - cpu, time.perf_counter() - wall
        finally:
            os.close(fd)
        return spent[0] / records, spent[1] / records


def _verdict(value: float, target: float, *, less: bool = False) -> str:
    ok = value < target if less else value <= target
    return "ok" if ok else "MISSED"


def main() -> int:
    if sys.argv[1:2] == ["--bare-server"]:  # the yardstick's process (_bare_server)
        return _bare_server(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--acts", type=int, default=2000, help="acts measured per table")
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--bot-decisions", type=int, default=1000, help="0 to skip")
    ap.add_argument("--flooders", type=int, default=4, help="attacking connections (0: none)")
    ap.add_argument(
        "--segments", type=int, default=10, help="turns each table takes in the interleaved run"
    )
    ap.add_argument("--no-growth", action="store_true", help="only the seven-seat tables")
    ap.add_argument(
        "--journal-dir",
        default=_memory_dir(),
        help="where the tables keep their journals and histories (default: a folder in "
        "memory, /dev/shm, where there is one: the server's own cost, not the disk's; "
        "what an fsync costs on the disk is printed apart)",
    )
    ap.add_argument("--floor-server", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--flood", type=int, default=0, metavar="PORT", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.floor_server:
        asyncio.run(_floor_server())
        return 0
    if args.flood:
        asyncio.run(_flood(args.flood, args.flooders, "127.0.0.2"))
        return 0
    names = ["plain", "sealed", "bare"] + ([] if args.no_growth else list(SHAPES)[3:])
    disk = _fsync_cost(tempfile.gettempdir())
    with tempfile.TemporaryDirectory(dir=args.journal_dir) as tmp:
        tables = _run_tables(tmp, names, args)
        attack = _attack(tmp, args) if args.flooders else None
    results: list[bool] = []

    def check(line: str, value: float, target: float, *, less: bool = False) -> None:
        verdict = _verdict(value, target, less=less)
        results.append(verdict == "ok")
        print(f"{line}  [{verdict}]")

    ms, us = 1000, 1e6
    floor, plain, sealed = tables["floor"], tables["plain"], tables["sealed"]
    print(
        f"acts measured: {len(plain.latencies)} per table (after {args.warmup} warm-up), "
        f"{args.segments} interleaved segments each, loopback"
    )
    print(
        f"bytes per act to each of 7 clients: {plain.bytes_per_act / SEATS:.0f} "
        "(the floor sends as many)"
    )
    for name in ("floor", "plain", "sealed"):
        m = tables[name]
        print(
            f"{name:<8} p50 {m.p(0.5) * ms:.3f} ms  p99 {m.p(0.99) * ms:.3f} ms  "
            f"CPU {m.cpu_per_act * us:.0f} us/act"
        )
    for name, m in (("plain", plain), ("sealed", sealed)):
        check(
            f"{name:<8} CPU/act {m.cpu_per_act / floor.cpu_per_act:.2f}x the floor's "
            "(target <= 2x)",
            m.cpu_per_act / floor.cpu_per_act,
            2.0,
        )
        check(
            f"{name:<8} p50 {m.p(0.5) / floor.p(0.5):.2f}x the floor's (target <= 1.5x)",
            m.p(0.5) / floor.p(0.5),
            1.5,
        )
    bare = tables["bare"]
    print(
        f"bare     CPU/act {bare.cpu_per_act / floor.cpu_per_act:.2f}x the floor's, "
        f"p50 {bare.p(0.5) / floor.p(0.5):.2f}x ({bare.bytes_per_act / SEATS:.0f} bytes per "
        "client per act): the table with no journal, step frames or clock message, so the "
        "most that rebuilding those could give"
    )
    print(
        f"sealed/plain  p50 {sealed.p(0.5) / plain.p(0.5):.2f}x  "
        f"CPU {sealed.cpu_per_act / plain.cpu_per_act:.2f}x"
    )
    print(f"server RSS    {plain.rss / 1024:.1f} MiB with seven clients")
    print(
        f"journal in {args.journal_dir or tempfile.gettempdir()}; each act's record is "
        f"fsynced before its frames leave: on {tempfile.gettempdir()}'s disk one such fsync "
        f"costs {disk[0] * us:.0f} us CPU, {disk[1] * ms:.2f} ms wall (not in the figures "
        "above when the journal is in memory)"
    )
    if not args.no_growth:
        print(
            "how cost grows (plain; ratios against 2 seats, and against 7 seats with no watchers):"
        )
        two = tables["2 seats"]
        rows = [("2 seats", two), ("4 seats", tables["4 seats"]), ("7 seats", plain)]
        rows += [
            ("7 + 4 watchers", tables["4 watchers"]),
            ("7 + 16 watchers", tables["16 watchers"]),
        ]
        for label, m in rows:
            print(
                f"  {label:<16} CPU {m.cpu_per_act * us:6.0f} us/act  p99 {m.p(0.99) * ms:.3f} ms  "
                f"bytes/act {m.bytes_per_act:7.0f}"
            )
        for label, m, base in (
            ("4 seats", tables["4 seats"], two),
            ("7 seats", plain, two),
            ("7 + 4 watchers", tables["4 watchers"], plain),
            ("7 + 16 watchers", tables["16 watchers"], plain),
        ):
            cpu = m.cpu_per_act / base.cpu_per_act
            sent = m.bytes_per_act / base.bytes_per_act
            check(
                f"  {label:<16} CPU grew {cpu:.2f}x, bytes {sent:.2f}x: "
                f"{cpu / sent:.2f} (target <= 1: no faster than the bytes)",
                cpu / sent,
                1.0,
            )
        seat = (plain.cpu_per_act - two.cpu_per_act) / (SEATS - 2)
        watcher = (tables["16 watchers"].cpu_per_act - plain.cpu_per_act) / 16
        check(
            f"  a watcher costs {watcher * us:.1f} us/act, a seat {seat * us:.1f} us/act: "
            f"{watcher / seat if seat > 0 else float('inf'):.2f} (target < 1)",
            watcher / seat if seat > 0 else float("inf"),
            1.0,
            less=True,
        )
    if attack is not None:
        clean, attacked, flood_log = attack
        last = next((line.split() for line in reversed(flood_log) if line.startswith("flood")), [])
        opened, sent_b = (int(last[1]), int(last[2])) if len(last) == 3 else (0, 0)
        print(
            f"under attack  p50 {attacked.p(0.5) * ms:.3f} ms  p99 {attacked.p(0.99) * ms:.3f} ms"
            f"  clean (same rounds) p50 {clean.p(0.5) * ms:.3f} ms  p99 {clean.p(0.99) * ms:.3f} ms"
            f"  ({args.flooders} connections flooding pings: {opened} opened, "
            f"{sent_b / 1e6:.0f} MB)"
        )
        check(
            f"p99 under attack {attacked.p(0.99) / clean.p(0.99):.2f}x the clean p99 "
            "(target <= 1.5x)",
            attacked.p(0.99) / clean.p(0.99),
            1.5,
        )
    if args.bot_decisions:
        bots = _bot_decisions(args.bot_decisions)
        b50, b99 = statistics.median(bots) * ms, _pct(bots, 0.99) * ms
        print(
            f"computer seat decision ({len(bots)}): p50 {b50:.2f} ms  p99 {b99:.2f} ms "
            "(budget 20 / 100 ms)"
        )
    ok = all(results)
    print("targets met" if ok else "targets NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
