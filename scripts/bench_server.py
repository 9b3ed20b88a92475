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
    """Seven clients in one loop; one act in flight at a time."""

    def __init__(self, acts: int, warmup: int, *, floor: bool) -> None:
        self.acts, self.warmup, self.floor = acts, warmup, floor
        self.seen: list[int] = [0] * SEATS  # highest table step each client has
        self.arrival: list[dict[int, float]] = [{} for _ in range(SEATS)]
        self.turns: dict[int, dict[str, Any]] = {}
        self.transports: list[asyncio.Transport] = []
        self.latencies: list[float] = []
        self.pending: tuple[int, float] | None = None  # (step awaited, sent at)
        self.done = asyncio.Event()
        self.rng = random.Random(1)
        self.host_needs_start = False

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

    def _maybe_finish_step(self) -> None:
        if self.pending is not None:
            step, sent = self.pending
            if min(self.seen) >= step:
                last = max(self.arrival[c][step] for c in range(SEATS))
                self.latencies.append(last - sent)
                self.pending = None
                if len(self.latencies) >= self.acts + self.warmup:
                    self.done.set()
                    return
        self._maybe_act()

    def _maybe_act(self) -> None:
        if self.pending is not None or self.done.is_set():
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


async def _measure(port: int, acts: int, warmup: int, *, floor: bool) -> list[float]:
    loop = asyncio.get_running_loop()
    bench = Bench(acts, warmup, floor=floor)
    for i in range(SEATS):
        await loop.create_connection(lambda i=i: bench.client(i), LOOPBACK, port)
        if not floor:
            bench.transports[i].write(encode_frame(Hello(name=f"c{i}").encode()))
    if floor:
        bench._maybe_act()
    await asyncio.wait_for(bench.done.wait(), 600)
    for t in bench.transports:
        t.close()
    return bench.latencies[warmup:]


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
        server_args = [
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
            tmp,
            "--log-level",
            "INFO",
            "--no-announce",  # a benchmark on loopback: nothing goes on the network
        ]
        proc, port = _spawn(server_args)
        idle_rss = _rss_kib(proc.pid)
        try:
            table = asyncio.run(_measure(port, args.acts, args.warmup, floor=False))
            rss = _rss_kib(proc.pid)
        finally:
            proc.terminate()
            proc.wait()
        attacked: list[float] = []
        flood_log: list[str] = []
        if args.flooders:
            proc, port = _spawn(server_args)
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
