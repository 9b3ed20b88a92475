"""What each connection receives over whole matches, byte for byte, and in how many writes.

``tests/fixtures/step_streams.msgpack.gz`` holds every connection's received bytes over
seeded nights at seven seats with watchers, a drop and a comeback mid-hand (R-C1), a
clock run out (R-C4) and away spells (R-C2), a pause (R-C3) and protocol-1 clients
(``tests/record_streams.py`` says how; it was recorded from the code that wrote each
frame on its own).  The table today must send the same bytes, and everything one step
sends a connection must go out in one write.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from common import protocol as p
from server.net import Connection
from server.table import Table
from tests import record_streams
from tests.serverkit import Link, clocked_table, config, drive

RECORDED = record_streams.load()


def _first_difference(old: bytes, new: bytes) -> str:
    at = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), None)
    at = min(len(old), len(new)) if at is None else at
    return f"{len(old)} bytes recorded, {len(new)} sent; first difference at byte {at}"


@pytest.mark.parametrize("seed", record_streams.SEEDS)
def test_every_connection_receives_the_recorded_bytes(seed: int) -> None:
    got = asyncio.run(record_streams.night(seed))
    assert set(got) == set(RECORDED[seed])
    for name, stream in RECORDED[seed].items():
        assert got[name] == stream, f"{name}: {_first_difference(stream, got[name])}"


def test_a_step_is_one_write_to_each_connection() -> None:
    """Events, table, clock, turn and a hand's end: one step, one write per connection."""
    most: dict[str, int] = {}
    steps = 0

    def watch(table: Table, links: dict[str, Link]) -> None:
        step = table.dealer._after_step

        def counted(*args: Any, **kw: Any) -> None:
            nonlocal steps
            conns: list[Connection] = list(table.conns)
            before = [_writes(c) for c in conns]
            step(*args, **kw)
            steps += 1
            for conn, was in zip(conns, before, strict=True):
                most[conn.name] = max(most.get(conn.name, 0), _writes(conn) - was)

        table.dealer._after_step = counted  # type: ignore[method-assign]

    asyncio.run(record_streams.night(record_streams.SEEDS[0], watch=watch))
    assert steps > 100
    assert most and max(most.values()) == 1, most


def _writes(conn: Connection) -> int:
    written: list[bytes] = conn.transport.written  # type: ignore[union-attr]
    return len(written)


def test_a_sealed_connection_gets_a_step_in_one_tls_write(tmp_path: Path) -> None:
    """Sealed, the step's frames go through one TLS write: the watcher in TLS reads
    what the plain watcher reads, and each step reaches every connection in one write."""
    from server.identity import load_identity
    from tests.test_server_tls import SealedLink

    async def scenario() -> None:
        key = load_identity(tmp_path / "key", "Test table")
        table, clock = await clocked_table(config(tmp_path, hands=4, computer=1))
        ann = SealedLink(table, key, "Ann")
        ann.hello()
        bob = Link(table, "Bob")
        bob.hello()
        sealed, plain = SealedLink(table, key, "Sam"), Link(table, "Pat")
        sealed.hello(watch=True)
        plain.hello(watch=True)
        most = _count_writes(table)
        ann.send(p.Start().encode())
        await drive(table, clock, [ann, bob], random.Random(4))
        first = next(i for i, m in enumerate(plain.log) if m["type"] == "match_start")
        again = next(i for i, m in enumerate(sealed.log) if m["type"] == "match_start")
        assert sealed.log[again:] == plain.log[first:]
        assert len(plain.log) - first > 100
        assert most and max(most.values()) == 1, most
        table.shutdown()

    asyncio.run(scenario())


def _count_writes(table: Table) -> dict[str, int]:
    """The most writes any connection got in one ``_after_step``, by its name, as the
    table plays on."""
    most: dict[str, int] = {}
    step = table.dealer._after_step

    def counted(*args: Any, **kw: Any) -> None:
        conns: list[Connection] = list(table.conns)
        before = [_writes(c) for c in conns]
        step(*args, **kw)
        for conn, was in zip(conns, before, strict=True):
            most[conn.name] = max(most.get(conn.name, 0), _writes(conn) - was)

    table.dealer._after_step = counted  # type: ignore[method-assign]
    return most
