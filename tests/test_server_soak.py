"""A long night at one table: nothing the server keeps grows match after match.

Marked ``slow`` (``./scripts/test -m slow``).  One person (a lean socket client
that keeps nothing) and three computer seats play 500 four-hand matches
against an in-process server; ``tracemalloc`` measures what is allocated and
still held after a warm-up of 50 matches and again at the end.
"""

from __future__ import annotations

import asyncio
import gc
import os
import tracemalloc
from pathlib import Path

import pytest

from common.cards import parse_many
from common.protocol import Act, FrameDecoder, Hello, Start, encode_frame
from tests.serverkit import LOOPBACK, config, running

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

MATCHES = int(os.environ.get("SOAK_MATCHES", "500"))
WARM_UP = 100


class _Lean(asyncio.Protocol):
    """Answers every turn at once and starts the next match; remembers nothing."""

    def __init__(self, done: asyncio.Event, marks: dict[int, int]) -> None:
        self.decoder = FrameDecoder()
        self.transport: asyncio.Transport | None = None
        self.matches = 0
        self.done = done
        self.marks = marks
        self.snapshots: list[tracemalloc.Snapshot] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(encode_frame(Hello(name="Night").encode()))

    def data_received(self, data: bytes) -> None:
        assert self.transport is not None
        for msg in self.decoder.feed(data):
            kind = msg.get("type")
            if kind == "turn":
                names = [a["action"] for a in msg["legal"]]
                pick = "call" if "call" in names else "check" if "check" in names else names[0]
                self.transport.write(encode_frame(Act(msg["turn"], pick).encode()))
            elif kind == "standings":
                self.matches += 1
                if self.matches in (WARM_UP, MATCHES):
                    gc.collect()
                    self.marks[self.matches] = tracemalloc.get_traced_memory()[0]
                    self.snapshots.append(tracemalloc.take_snapshot())
                if self.matches >= MATCHES:
                    self.done.set()
            elif kind == "lobby" and msg.get("can_start") and not msg.get("running"):  # noqa: SIM102
                if self.matches < MATCHES:
                    self.transport.write(encode_frame(Start(hands=4).encode()))


def _fill_bounded_caches() -> None:
    """``common.hands`` remembers the value of each of the 2,380 ways up cards can
    show (bounded by construction); fill it first, so that what is measured is what
    grows without bound."""
    from itertools import combinations_with_replacement

    from common.hands import showing_value

    for n in range(1, 5):
        for ranks in combinations_with_replacement("23456789TJQKA", n):
            if max(ranks.count(r) for r in ranks) <= 4:
                seen: dict[str, int] = {}
                codes = []
                for r in ranks:
                    codes.append(r + "cdhs"[seen.get(r, 0)])
                    seen[r] = seen.get(r, 0) + 1
                showing_value(parse_many(codes))


def test_server_memory_stays_flat_over_500_matches(tmp_path: Path) -> None:
    _fill_bounded_caches()
    marks: dict[int, int] = {}
    lean: list[_Lean] = []

    async def scenario() -> None:
        async with running(config(tmp_path, computer=3, hands=4)) as (_server, port):
            done = asyncio.Event()
            loop = asyncio.get_running_loop()
            transport, _ = await loop.create_connection(
                lambda: lean.append(_Lean(done, marks)) or lean[-1], LOOPBACK, port
            )
            await asyncio.wait_for(done.wait(), 1700)
            transport.close()

    tracemalloc.start(4)
    try:
        asyncio.run(scenario())
    finally:
        tracemalloc.stop()
    assert len(list(tmp_path.glob("*.jsonl"))) == MATCHES
    growth = marks[MATCHES] - marks[WARM_UP]
    per_match = growth / (MATCHES - WARM_UP)
    print(
        f"\ntraced memory after {WARM_UP} matches {marks[WARM_UP] / 1024:.0f} KiB, "
        f"after {MATCHES} {marks[MATCHES] / 1024:.0f} KiB: {per_match:+.0f} B a match"
    )
    first, last = lean[0].snapshots
    top = last.compare_to(first, "traceback")[:5]
    grew = "\n".join(
        f"{stat.size_diff:+} B in {stat.count_diff:+} blocks at\n"
        + "\n".join(stat.traceback.format()[-6:])
        for stat in top
    )
    assert per_match < 256, f"{per_match:.0f} bytes a match kept; most grown:\n{grew}"
