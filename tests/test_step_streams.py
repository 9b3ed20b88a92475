"""What each connection receives over whole matches, byte for byte, and in how many writes.

``tests/fixtures/step_streams.msgpack.gz`` holds every connection's received bytes over
seeded nights at seven seats with watchers, a drop and a comeback mid-hand (R-C1), a
clock run out (R-C4) and away spells (R-C2), a pause (R-C3) and protocol-1 clients
(``tests/record_streams.py`` says how; it was recorded from the code that wrote each
frame on its own).  The table today must send the same bytes.
"""

from __future__ import annotations

import asyncio

import pytest

from tests import record_streams

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
