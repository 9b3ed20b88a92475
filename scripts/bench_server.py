#!/usr/bin/env python3
"""Benchmark: seven socket clients on loopback at one table (a benchmark, not a test).

    scripts/bench_server.py [--acts 2000]

Measures, from an ``act`` leaving its client to every one of the seven
clients having received its ``table`` update for that step, p50 and p99; and
the same round trip against a *floor*: a raw asyncio length-prefixed msgpack
server that broadcasts one table-sized message to seven clients per message
it gets.  Both servers run as subprocesses and are measured with the same
client harness, in the same run.  Also reports the table server's resident
memory with seven clients.

The table is measured twice, interleaved in one run: seven clients in plain frames at
one server and seven *sealed* clients (TLS, ``common.seal.client_context``, as the
game's client) at another, the two taking turns in segments (``--segments``) so that
whatever else the machine does falls on both alike.  For each: the act-to-every-update
p50 and p99 and the server's CPU time per action (its process's CPU clock over its
own segments), then the sealed/plain ratios.

Then the same table again *under attack*: four more connections (a process
of their own, from 127.0.0.2) send pings as fast as the kernel takes them,
and open a new connection whenever the server closes one for flooding.  The
act-to-every-update p50 and p99 under attack are printed next to the clean
run's (target: p99 under attack at most twice the clean p99).  Only
loopback addresses are used.
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


def _sample_table() -> dict[str, Any]:
    """A table-sized message: seven seats' worth of view, as the real server sends."""
    seats = [
        {
            "seat": s,
            "stack": 590,
            "bet": 10,
            "in_pot": 11,
            "folded": False,
            "all_in": False,
            "up": ["Kd", "7c", "2h"],
            "down": 2,
            "last_action": "call",
        }
        for s in range(SEATS)
    ]
    view = {
        "street": 5,
        "button": 3,
        "order": list(range(SEATS)),
        "bring_in": 2,
        "to_act": 4,
        "turn": 9,
        "high": 20,
        "pot": 160,
        "pots": [{"amount": 160, "seats": [0, 1, 2]}],
        "over": False,
        "seats": seats,
        "awards": [],
        "you": 1,
        "legal": [],
    }
    players = [
        {"seat": s, "name": f"c{s}", "kind": "human", "connected": True, "host": s == 0}
        for s in range(SEATS)
    ]
    return {
        "type": "table",
        "match": "bench",
        "hand": 1,
        "hands": 12,
        "step": 0,
        "view": view,
        "players": players,
    }


async def _floor_server() -> None:
    conns: list[asyncio.Transport] = []
    sample = _sample_table()
    step = 0

    class Floor(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            assert isinstance(transport, asyncio.Transport)
            self.decoder = FrameDecoder()
            conns.append(transport)
            transport.write(encode_frame({"type": "ready"}))  # it is in every broadcast now

        def data_received(self, data: bytes) -> None:
            nonlocal step
            for _msg in self.decoder.feed(data):
                step += 1
                sample["step"] = step
                frame = encode_frame(sample)
                for t in conns:
                    t.write(frame)

    server = await asyncio.get_running_loop().create_server(Floor, LOOPBACK, 0)
    print(f"listening on port {server.sockets[0].getsockname()[1]}", file=sys.stderr, flush=True)
    await asyncio.Event().wait()


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


class Bench:
    """Seven clients in one loop; one act in flight at a time, ``run(n)`` acts at a go."""

    def __init__(self, *, floor: bool) -> None:
        self.floor = floor
        self.goal = 0  # acts measured when the current ``run`` is done
        self.seen: list[int] = [0] * SEATS  # highest table step each client has
        self.arrival: list[dict[int, float]] = [{} for _ in range(SEATS)]
        self.turns: dict[int, dict[str, Any]] = {}
        self.transports: list[asyncio.Transport] = []
        self.latencies: list[float] = []
        self.pending: tuple[int, float] | None = None  # (step awaited, sent at)
        self.done = asyncio.Event()
        self.rng = random.Random(1)
        self.host_needs_start = False
        self.ready = asyncio.Event()  # the floor server has every client
        self._ready = 0

    def client(self, index: int) -> asyncio.Protocol:
        bench = self

        class Client(asyncio.Protocol):
            def __init__(self) -> None:
                self.decoder = FrameDecoder()

            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                assert isinstance(transport, asyncio.Transport)
                bench.transports.append(transport)

            def data_received(self, data: bytes) -> None:
                now = time.perf_counter()
                for msg in self.decoder.feed(data):
                    bench.on_message(index, msg, now)

        return Client()

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
            if self._ready == SEATS:
                self.ready.set()

    def _maybe_finish_step(self) -> None:
        if self.pending is not None:
            step, sent = self.pending
            if min(self.seen) >= step:
                last = max(self.arrival[c][step] for c in range(SEATS))
                self.latencies.append(last - sent)
                self.pending = None
                if len(self.latencies) >= self.goal:
                    self.done.set()
                    return
        self._maybe_act()

    async def run(self, acts: int) -> None:
        """Play ``acts`` more acts, each measured, then stop (the table waits for the next
        ``run``, its seven clients still at it)."""
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
        if self.floor:
            actor, turn, action = self.rng.randrange(SEATS), step, "call"
        else:
            if not self.turns:
                return
            actor, msg = next(iter(self.turns.items()))
            names = [a["action"] for a in msg["legal"]]
            prefer = [n for n in names if n in ("call", "check", "bring_in")]
            action = self.rng.choice(prefer or names) if self.rng.random() < 0.9 else "fold"
            action = action if action in names else names[0]
            turn = msg["turn"]
            self.turns.clear()
        self.pending = (step + 1, time.perf_counter())
        self.transports[actor].write(encode_frame(Act(turn, action).encode()))


async def _seated(port: int, *, floor: bool, sealed: bool = False) -> Bench:
    """Seven clients at the server on ``port``, said hello (sealed: each in TLS, as the
    game's client; the table's key is not checked here)."""
    loop = asyncio.get_running_loop()
    bench = Bench(floor=floor)
    tls = {"ssl": client_context(), "server_hostname": ""} if sealed else {}
    for i in range(SEATS):
        await loop.create_connection(lambda i=i: bench.client(i), LOOPBACK, port, **tls)
        if not floor:
            bench.transports[i].write(encode_frame(Hello(name=f"c{i}").encode()))
    if floor:  # an act before the floor server has all seven would wait for ever
        await asyncio.wait_for(bench.ready.wait(), 60)
    return bench


async def _measure(port: int, acts: int, warmup: int, *, floor: bool) -> list[float]:
    bench = await _seated(port, floor=floor)
    await bench.run(warmup + acts)
    for t in bench.transports:
        t.close()
    return bench.latencies[warmup:]


class Measured:
    """One table's share of the interleaved run: its acts' latencies and the server's
    CPU seconds spent over its own segments."""

    def __init__(self, port: int, pid: int) -> None:
        self.port, self.pid = port, pid
        self.latencies: list[float] = []
        self.cpu = 0.0

    @property
    def cpu_per_act(self) -> float:
        return self.cpu / max(1, len(self.latencies))


async def _interleaved(tables: dict[str, Measured], acts: int, warmup: int, segments: int) -> None:
    """Each table's seven clients (``sealed`` in TLS), then ``segments`` rounds in which
    every table plays its share of ``acts`` in turn, the order swapped each round."""
    benches = {
        mode: await _seated(m.port, floor=False, sealed=mode == "sealed")
        for mode, m in tables.items()
    }
    for bench in benches.values():
        await bench.run(warmup)
    order = list(tables)
    for round_ in range(segments):
        share = acts // segments + (1 if round_ < acts % segments else 0)
        for mode in order if round_ % 2 == 0 else order[::-1]:
            m, bench = tables[mode], benches[mode]
            start, cpu = len(bench.latencies), _cpu_seconds(m.pid)
            await bench.run(share)
            m.cpu += _cpu_seconds(m.pid) - cpu
            m.latencies += bench.latencies[start:]
    for bench in benches.values():
        for t in bench.transports:
            t.close()


def _spawn(args: list[str]) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, *args],
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--acts", type=int, default=2000)
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--bot-decisions", type=int, default=1000, help="0 to skip")
    ap.add_argument("--flooders", type=int, default=4, help="attacking connections (0: none)")
    ap.add_argument(
        "--segments",
        type=int,
        default=10,
        help="turns the plain and the sealed table take in the interleaved run",
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
    with tempfile.TemporaryDirectory() as tmp:
        floor_proc, floor_port = _spawn([__file__, "--floor-server"])
        try:
            floor = asyncio.run(_measure(floor_port, args.acts, args.warmup, floor=True))
        finally:
            floor_proc.terminate()
            floor_proc.wait()

        def server_args(history: str) -> list[str]:
            return [
                "-m",
                "server",
                "--host",
                LOOPBACK,
                "--port",
                "0",
                "--start-when",
                str(SEATS),
                "--hands",
                "12",
                "--bot-delay",
                "0",
                "--hand-pause",
                "0",
                "--history-dir",
                history,
                "--log-level",
                "INFO",
                "--no-announce",  # a benchmark on loopback: nothing goes on the network
            ]

        procs: list[subprocess.Popen[str]] = []
        tables: dict[str, Measured] = {}
        try:
            for mode in ("plain", "sealed"):
                history = Path(tmp, mode)  # each its own folder, so its own key
                history.mkdir()
                proc, port = _spawn(server_args(str(history)))
                procs.append(proc)
                tables[mode] = Measured(port, proc.pid)
            idle_rss = _rss_kib(tables["plain"].pid)
            segments = max(1, args.segments)
            asyncio.run(_interleaved(tables, args.acts, args.warmup, segments))
            rss = _rss_kib(tables["plain"].pid)
        finally:
            for proc in procs:
                proc.terminate()
                proc.wait()
        table, sealed = tables["plain"].latencies, tables["sealed"].latencies
        attacked: list[float] = []
        flood_log: list[str] = []
        if args.flooders:
            proc, port = _spawn(server_args(tmp))
            flood = subprocess.Popen(
                [sys.executable, __file__, "--flood", str(port), "--flooders", str(args.flooders)],
                stderr=subprocess.PIPE,
                text=True,
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
            assert flood.stderr is not None
            threading.Thread(
                target=lambda: flood_log.extend(flood.stderr or []), daemon=True
            ).start()
            try:
                time.sleep(1.0)  # the flood is on before the seats sit down
                attacked = asyncio.run(_measure(port, args.acts, args.warmup, floor=False))
            finally:
                flood.terminate()
                flood.wait()
                proc.terminate()
                proc.wait()
    ms = 1000
    p50, p99 = statistics.median(table) * ms, _pct(table, 0.99) * ms
    f50, f99 = statistics.median(floor) * ms, _pct(floor, 0.99) * ms
    print(f"acts measured: {len(table)} (after {args.warmup} warm-up), seven clients, loopback")
    print(f"table server  p50 {p50:.3f} ms  p99 {p99:.3f} ms  max {max(table) * ms:.3f} ms")
    print(f"floor (raw)   p50 {f50:.3f} ms  p99 {f99:.3f} ms")
    print(f"median ratio  {p50 / f50:.2f}x the floor (target <= 3x)")
    s50, s99 = statistics.median(sealed) * ms, _pct(sealed, 0.99) * ms
    cpu_plain, cpu_sealed = tables["plain"].cpu_per_act, tables["sealed"].cpu_per_act
    print(f"sealed (TLS)  p50 {s50:.3f} ms  p99 {s99:.3f} ms  max {max(sealed) * ms:.3f} ms")
    print(f"server CPU    plain {cpu_plain * 1e6:.0f} us/act  sealed {cpu_sealed * 1e6:.0f} us/act")
    print(
        f"sealed/plain  p50 {s50 / p50:.2f}x  CPU {cpu_sealed / max(cpu_plain, 1e-9):.2f}x "
        f"({segments} segments each, interleaved)"
    )
    print(f"server RSS    {rss / 1024:.1f} MiB with seven clients", end=" ")
    print(f"({idle_rss / 1024:.1f} MiB before any client)")
    ok = p50 <= 1.0 and p99 <= 5.0 and p50 <= 3 * f50
    if attacked:
        a50, a99 = statistics.median(attacked) * ms, _pct(attacked, 0.99) * ms
        last = next((line.split() for line in reversed(flood_log) if line.startswith("flood")), [])
        opened, sent = (int(last[1]), int(last[2])) if len(last) == 3 else (0, 0)
        print(
            f"under attack  p50 {a50:.3f} ms  p99 {a99:.3f} ms  "
            f"({args.flooders} connections flooding pings: {opened} opened, "
            f"{sent / 1e6:.0f} MB sent)"
        )
        print(f"p99 ratio     {a99 / p99:.2f}x the clean p99 (target <= 2x)")
        ok = ok and a99 <= 2 * p99
    if args.bot_decisions:
        bots = _bot_decisions(args.bot_decisions)
        b50, b99 = statistics.median(bots) * ms, _pct(bots, 0.99) * ms
        print(
            f"computer seat decision ({len(bots)}): p50 {b50:.2f} ms  p99 {b99:.2f} ms "
            "(budget 20 / 100 ms)"
        )
    print("targets met" if ok else "targets NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
