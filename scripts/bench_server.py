#!/usr/bin/env python3
"""Benchmark: what one act costs the real server, and how soon every screen shows it.

    scripts/bench_server.py [--baseline TREE ...] [--acts 2000] [--segments 10] [--flooders 4]

Each table is the real server, ``python -m server`` from a source tree, started as a
subprocess with nothing patched, its clients on loopback.  The targets (issue 34): at
seven seats with 16 watchers, one act costs the server at most 1 ms of CPU, and from an
act to every client's ``table`` for that step takes at most one frame (16 ms) at p99.

- This tree and each ``--baseline`` (another checkout, say ``git worktree add
  /tmp/main main``; named by its folder), each at seven seats with 16 watchers, seven
  seats plain, seven seats sealed (TLS, ``common.seal.client_context``, as the game's
  client) and, unless ``--no-growth``, 2 and 4 seats: interleaved in one run (each
  table plays its share of ``--acts`` in ``--segments`` rounds, the order turned round
  each round), so that whatever else the machine does falls on all alike.  Printed:
  CPU per act (the server process's CPU clock over its own rounds), act to every screen
  at p50 and p99, bytes per act, and this tree's figures as ratios of each baseline's.
- Under attack (this tree only): four more connections (from 127.0.0.2) flood one table
  with pings as fast as the kernel takes them, opening a new connection whenever the
  server closes one; that table and a clean one are interleaved while the flood is on,
  and the attacked p99 must be at most 1.5x the clean one's.

An act's latency is taken when the last client's bytes for its step are read, before
they are decoded (the clients share one process).  The tables keep their journals in
memory (``/dev/shm``, where there is one), so the figures are the server's and not the
disk's; what one journal record's fsync costs on the temp folder's disk is printed
beside them.  Only loopback addresses are used.
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
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common.protocol import Act, FrameDecoder, Hello, Ping, Start, encode_frame  # noqa: E402
from common.seal import client_context  # noqa: E402

LOOPBACK = "127.0.0.1"
SEATS = 7
CPU_TARGET = 1e-3
"""Seconds of server CPU one act may cost at seven seats with 16 watchers."""
P99_TARGET = 16e-3
"""Seconds from an act to every screen updated, at p99: one frame at 60 Hz."""


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

    def __init__(self, *, seats: int = SEATS, watchers: int = 0) -> None:
        self.seats = seats
        self.clients = seats + watchers
        self.goal = 0  # acts measured when the current ``run`` is done
        self.seen: list[int] = [0] * self.clients  # highest table step each client has
        self.arrival: list[dict[int, float]] = [{} for _ in range(self.clients)]
        self.turns: dict[int, dict[str, Any]] = {}
        self.transports: list[asyncio.Transport] = []
        self.latencies: list[float] = []
        self.received = 0  # bytes, every client together
        self.pending: tuple[int, float] | None = None  # (step awaited, sent at)
        self.done = asyncio.Event()
        self.rng = random.Random(1)
        self.host_needs_start = False
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
            latency to the next."""

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
        if self.pending is not None or len(self.latencies) >= self.goal or not self.turns:
            return
        step = max(self.seen)
        if min(self.seen) < step:
            return
        for arrived in self.arrival:  # steps nobody waits for (deals, the hand's end)
            for old in [s for s in arrived if s <= step]:
                del arrived[old]
        actor, turn_msg = next(iter(self.turns.items()))
        names = [a["action"] for a in turn_msg["legal"]]
        prefer = [n for n in names if n in ("call", "check", "bring_in")]
        action = self.rng.choice(prefer or names) if self.rng.random() < 0.9 else "fold"
        action = action if action in names else names[0]
        self.turns.clear()
        self.pending = (step + 1, time.perf_counter())
        self.transports[actor].write(encode_frame(Act(turn_msg["turn"], action).encode()))


async def _seated(port: int, *, sealed: bool, seats: int, watchers: int) -> Bench:
    """The clients at the server on ``port``, said hello (sealed: each in TLS, as the
    game's client; the table's key is not checked here): the watchers first, so that
    the match (which starts with the last seat) has them all."""
    loop = asyncio.get_running_loop()
    bench = Bench(seats=seats, watchers=watchers)
    tls: dict[str, Any] = {"ssl": client_context(), "server_hostname": ""} if sealed else {}
    order = [(seats + w, True) for w in range(watchers)] + [(i, False) for i in range(seats)]
    made: dict[int, asyncio.Transport] = {}
    for index, watch in order:
        local: dict[str, Any] = {"local_addr": (_watcher_source(index - seats), 0)} if watch else {}
        transport, _ = await loop.create_connection(
            partial(bench.client, index), LOOPBACK, port, **tls, **local
        )
        made[index] = transport
        hello = Hello(name=f"w{index}" if watch else f"c{index}", watch=watch)
        transport.write(encode_frame(hello.encode()))
    bench.transports = [made[i] for i in range(bench.clients)]
    return bench


class Measured:
    """One server's share of the interleaved run: its acts' latencies, the server's CPU
    seconds and the bytes its clients received, over its own segments."""

    def __init__(
        self, port: int, pid: int, *, seats: int, watchers: int, sealed: bool = False
    ) -> None:
        self.port, self.pid = port, pid
        self.seats, self.watchers, self.sealed = seats, watchers, sealed
        self.latencies: list[float] = []
        self.cpu = 0.0
        self.received = 0

    @property
    def cpu_per_act(self) -> float:
        return self.cpu / max(1, len(self.latencies))

    @property
    def bytes_per_act(self) -> float:
        return self.received / max(1, len(self.latencies))

    def p(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _interleaved(tables: dict[str, Measured], acts: int, warmup: int, segments: int) -> None:
    """Each server's clients, a warm-up, then ``segments`` rounds in which every server
    plays its share of ``acts`` in turn, the order turned round each round."""
    benches = {
        name: await _seated(m.port, sealed=m.sealed, seats=m.seats, watchers=m.watchers)
        for name, m in tables.items()
    }
    for bench in benches.values():
        await bench.run(warmup)
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
    for bench in benches.values():
        for t in bench.transports:
            t.close()


def _spawn(tree: Path, args: list[str]) -> tuple[subprocess.Popen[str], int]:
    """``python -m server args`` from source tree ``tree``; its process and port."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", *args],
        stderr=subprocess.PIPE,
        text=True,
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree), "STUD_MDNS": "off"},
    )
    assert proc.stderr is not None
    for line in proc.stderr:
        found = re.search(r"listening on port (\d+)", line)
        if found:
            # Keep draining its log so a full pipe never stalls the server.
            threading.Thread(target=proc.stderr.read, daemon=True).start()
            return proc, int(found.group(1))
    raise RuntimeError(f"the server from {tree} did not start")


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


def _server_args(folder: Path, seats: int) -> list[str]:
    folder.mkdir(exist_ok=True)  # its histories, and its key beside them: nothing kept
    return [
        "--host", LOOPBACK, "--port", "0", "--start-when", str(seats), "--hands", "12",
        "--bot-delay", "0", "--hand-pause", "0", "--history-dir", str(folder),
        "--data-dir", str(folder), "--log-level", "INFO",
        "--no-announce",  # a benchmark on loopback: nothing goes on the network
    ]  # fmt: skip


SHAPES = {
    "7 + 16 watchers": (SEATS, 16, False),
    "7 seats": (SEATS, 0, False),
    "7 sealed": (SEATS, 0, True),
    "2 seats": (2, 0, False),
    "4 seats": (4, 0, False),
}
"""Every table the interleaved run measures, for each tree: (seats, watchers, sealed)."""


def _run(
    tmp: str, trees: dict[str, Path], names: list[str], args: argparse.Namespace
) -> dict[tuple[str, str], Measured]:
    """A server of each shape from each tree, interleaved, then stopped."""
    procs: list[subprocess.Popen[str]] = []
    tables: dict[tuple[str, str], Measured] = {}
    try:
        for tree_name, tree in trees.items():
            for name in names:
                seats, watchers, sealed = SHAPES[name]
                folder = Path(tmp, f"{tree_name}-{name.replace(' ', '')}")
                proc, port = _spawn(tree, _server_args(folder, seats))
                procs.append(proc)
                tables[tree_name, name] = Measured(
                    port, proc.pid, seats=seats, watchers=watchers, sealed=sealed
                )
        keyed = {f"{t} {n}": m for (t, n), m in tables.items()}
        asyncio.run(_interleaved(keyed, args.acts, args.warmup, max(1, args.segments)))
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
    try:
        for name in ("clean", "attacked"):
            proc, port = _spawn(ROOT, _server_args(Path(tmp, f"flood-{name}"), SEATS))
            procs.append(proc)
            tables[name] = Measured(port, proc.pid, seats=SEATS, watchers=0)
        target = str(tables["attacked"].port)
        flood = subprocess.Popen(
            [sys.executable, __file__, "--flood", target, "--flooders", str(args.flooders)],
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        procs.append(flood)
        log = flood.stderr
        assert log is not None
        threading.Thread(target=lambda: flood_log.extend(log), daemon=True).start()
        time.sleep(1.0)  # the flood is on before the seats sit down
        asyncio.run(_interleaved(tables, args.acts, args.warmup, max(1, args.segments)))
    finally:
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
        fd = os.open(Path(tmp, "journal"), os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            wall, cpu = time.perf_counter(), time.process_time()
            for _ in range(records):
                os.write(fd, b"x" * 200 + b"\n")
                os.fsync(fd)
            spent = time.process_time() - cpu, time.perf_counter() - wall
        finally:
            os.close(fd)
        return spent[0] / records, spent[1] / records


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--baseline", type=Path, action="append", default=[], help="a source tree to compare"
    )
    ap.add_argument("--acts", type=int, default=2000, help="acts measured per table")
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--flooders", type=int, default=4, help="attacking connections (0: none)")
    ap.add_argument(
        "--segments", type=int, default=10, help="turns each table takes in the interleaved run"
    )
    ap.add_argument("--no-growth", action="store_true", help="only the seven-seat tables")
    ap.add_argument(
        "--journal-dir",
        default=_memory_dir(),
        help="where the tables keep their journals and histories (default: a folder in "
        "memory, /dev/shm, where there is one: the server's own cost, not the disk's)",
    )
    ap.add_argument("--flood", type=int, default=0, metavar="PORT", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.flood:
        asyncio.run(_flood(args.flood, args.flooders, "127.0.0.2"))
        return 0
    trees = {"this": ROOT, **{tree.resolve().name: tree.resolve() for tree in args.baseline}}
    names = list(SHAPES)[: 3 if args.no_growth else None]
    disk = _fsync_cost(tempfile.gettempdir())
    with tempfile.TemporaryDirectory(dir=args.journal_dir) as tmp:
        tables = _run(tmp, trees, names, args)
        attack = _attack(tmp, args) if args.flooders else None

    ms, us = 1000, 1e6
    print(
        f"acts measured: {args.acts} per table (after {args.warmup} warm-up), "
        f"{args.segments} interleaved segments each, loopback; trees: "
        + ", ".join(f"{name} {tree}" for name, tree in trees.items())
    )
    print(f"{'':<17}{'tree':<14}{'CPU/act':>10}{'p50':>10}{'p99':>10}{'bytes/act':>11}")
    for name in names:
        new = tables["this", name]
        for tree in trees:
            m = tables[tree, name]
            print(
                f"{name:<17}{tree:<14}{m.cpu_per_act * us:>7.0f} us{m.p(0.5) * ms:>7.2f} ms"
                f"{m.p(0.99) * ms:>7.2f} ms{m.bytes_per_act:>11.0f}"
            )
        for tree in list(trees)[1:]:
            old = tables[tree, name]
            print(
                f"{'':<17}{'this/' + tree:<14}{new.cpu_per_act / old.cpu_per_act:>9.2f}x"
                f"{new.p(0.5) / old.p(0.5):>9.2f}x{new.p(0.99) / old.p(0.99):>9.2f}x"
            )
    results: list[bool] = []

    def check(line: str, value: float, target: float, *, counts: bool = True) -> None:
        """A target's line; only this tree's count in the verdict."""
        ok = value <= target
        if counts:
            results.append(ok)
        print(f"{line}  [{'ok' if ok else 'MISSED'}]")

    for tree in trees:
        m = tables[tree, "7 + 16 watchers"]
        check(
            f"{tree}: at 7 seats + 16 watchers one act costs the server "
            f"{m.cpu_per_act * ms:.3f} ms CPU (target <= {CPU_TARGET * ms:.0f} ms)",
            m.cpu_per_act,
            CPU_TARGET,
            counts=tree == "this",
        )
        check(
            f"{tree}: act to every screen p99 {m.p(0.99) * ms:.2f} ms "
            f"(target <= {P99_TARGET * ms:.0f} ms, one frame)",
            m.p(0.99),
            P99_TARGET,
            counts=tree == "this",
        )
    print(
        f"journal in {args.journal_dir or tempfile.gettempdir()}; each act's record is "
        f"fsynced before its frames leave: on {tempfile.gettempdir()}'s disk one such fsync "
        f"costs {disk[0] * us:.0f} us CPU, {disk[1] * ms:.2f} ms wall (not in the figures "
        "above when the journal is in memory)"
    )
    if attack is not None:
        clean, attacked, flood_log = attack
        last = next((line.split() for line in reversed(flood_log) if line.startswith("flood")), [])
        opened, sent = (int(last[1]), int(last[2])) if len(last) == 3 else (0, 0)
        print(
            f"under attack  p50 {attacked.p(0.5) * ms:.2f} ms  p99 {attacked.p(0.99) * ms:.2f} ms"
            f"  clean (same rounds) p50 {clean.p(0.5) * ms:.2f} ms  p99 {clean.p(0.99) * ms:.2f}"
            f" ms  ({args.flooders} connections flooding pings: {opened} opened, "
            f"{sent / 1e6:.0f} MB)"
        )
        check(
            f"p99 under attack {attacked.p(0.99) / clean.p(0.99):.2f}x the clean p99 "
            "(target <= 1.5x)",
            attacked.p(0.99) / clean.p(0.99),
            1.5,
        )
    ok = all(results)
    print("targets met" if ok else "targets NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
