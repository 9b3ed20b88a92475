"""Record what every connection of a table receives over whole seeded matches, as bytes.

``tests/test_step_streams.py`` holds the table to these recordings: the byte stream
each connection receives (its frames one after another, whatever the writes they went
out in) must be what the recorded code sent.  The recordings were made by the code
before a step's frames went out in one write per connection; run this again only to
change the wire on purpose::

    python -m tests.record_streams

Each night is a table on a fake clock (``tests.serverkit.clocked_table``, no sockets)
with seven seats (five people, one of them speaking protocol 1, and two computer
seats) and three watchers (one of protocol 1, one who comes in mid-hand and one who
goes), played to the standings by seeded random choices.  On the way: a seat drops
mid-hand, waits out its grace (R-C1) and comes back with its token; a person's clock
and bank run out (R-C4, away by the clock, R-C2) and it says it is back; a person steps
away and back (R-C2); the host pauses and resumes (R-C3); chat.  Tokens, dates and
the clock are fixed so that a night is the same bytes each time it is played.
"""

from __future__ import annotations

import asyncio
import gzip
import itertools
import random
import secrets
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any
from unittest import mock

import msgpack  # type: ignore[import-untyped]

from common import protocol as p
from server import histories, records
from server.table import Table
from tests.serverkit import Link, clocked_table, config, settle

FIXTURE = Path(__file__).with_name("fixtures") / "step_streams.msgpack.gz"

SEEDS = (3, 8)
"""One night per seed."""

Streams = dict[str, bytes]
"""A connection's name -> every byte it received, in order."""


class _Evening(datetime):
    """``datetime.now()`` always the same evening, so the night's scoreboard is too."""

    @classmethod
    def now(cls, tz: tzinfo | None = None) -> _Evening:
        return cls(2026, 12, 1, 20, 30)


@contextmanager
def fixed() -> Iterator[None]:
    """Tokens from a counter and one fixed evening, while inside."""
    count = itertools.count(1)

    def token(nbytes: int | None = None) -> str:
        return f"token-{next(count):04d}"

    with (
        mock.patch.object(secrets, "token_urlsafe", token),
        mock.patch.object(records, "datetime", _Evening),
        mock.patch.object(histories, "datetime", _Evening),  # in the match's id
    ):
        yield


async def _play(table: Table, clock: Any, links: dict[str, Link], seed: int) -> None:
    """Seeded random play to the standings, with the night's events on the way."""
    rng = random.Random(seed)
    done: set[str] = set()
    people = [links[n] for n in ("Ann", "Bob", "Cid", "Dee", "Eli")]

    def everyone() -> list[Link]:
        return list(links.values())

    for _ in range(20000):
        await settle(table, *everyone())
        if table.match is not None and not table.running:
            return  # the standings are out
        step = table.step
        if step >= 5 and "drop" not in done:
            done.add("drop")
            links["Cid"].drop()  # mid-hand: R-C1 keeps the seat
            continue
        if step >= 12 and "back" not in done and "drop" in done:
            done.add("back")
            again = Link(table, "Cid")
            again.hello(token=people[2].token)  # with its token, cards included
            links["Cid again"] = again
            people[2] = again
            continue
        if step >= 9 and "late" not in done:
            done.add("late")
            late = Link(table, "Kim")
            late.hello(watch=True)  # a watcher who comes in mid-hand
            links["Kim"] = late
            continue
        if step >= 30 and "gone" not in done:
            done.add("gone")
            links["Wes"].drop()  # a watcher who goes
            continue
        if step >= 18 and "pause" not in done:
            done.add("pause")
            links["Ann"].send(p.Pause().encode())
            clock.advance(3.0)
            links["Ann"].send(p.Resume().encode())
            continue
        if step >= 24 and "away" not in done:
            done.add("away")
            links["Eli"].send(p.Away().encode())
            continue
        if step >= 40 and "away" in done and "return" not in done:
            done.add("return")
            links["Eli"].send(p.Back().encode())
            continue
        hand = table.match.hand if table.match is not None else None
        seat = table.turn_seat
        link = next((lk for lk in people if lk.seat == seat and lk.conn.seat == seat), None)
        mine = seat is not None and link is not None and table.seats[seat].conn is link.conn
        playing = mine and seat is not None and not table.seats[seat].presence.away
        if playing and link is links["Dee"] and step >= 14 and "clock" not in done:
            done.add("clock")
            clock.advance(20.0 + 10.0 + 0.5)  # its decision seconds and its bank (R-C4)
            await settle(table, *everyone())
            links["Dee"].send(p.Back().encode())
            continue
        if hand is not None and not hand.is_over and playing and not table.computers.thinking:
            assert seat is not None and link is not None
            legal = [str(a.kind) for a in hand.legal_actions(seat)]
            calm = [a for a in legal if a in ("check", "call", "bring_in")]
            choice = rng.choice(calm) if calm and rng.random() < 0.7 else rng.choice(legal)
            link.send(p.Act(table.turn_id, choice).encode())
            if rng.random() < 0.1:
                link.send(p.Chat(text="nice one").encode())
            continue
        due = clock.next_due()
        if due is None:
            if table.computers.thinking or table.computers._tasks:
                await asyncio.sleep(0.001)
                continue
            raise AssertionError("the table waits on nothing")
        clock.advance(max(0.0, due - clock.now()))
    raise AssertionError("the match did not end")


async def night(
    seed: int, *, watch: Callable[[Table, dict[str, Link]], None] | None = None
) -> Streams:
    """One whole seeded match at seven seats with watchers; every connection's stream.
    ``watch(table, links)`` is called once everyone is in, before the match starts."""
    with tempfile.TemporaryDirectory() as tmp, fixed():
        cfg = config(
            Path(tmp),
            seed=seed,
            hands=4,
            computer=2,
            computer_levels=("newcomer", "shark"),
            turn_time=20.0,
            time_bank=10.0,
            grace=5.0,
            name="Kitchen",
            hand_pause=2.0,
            final_pause=1.0,
        )
        table, clock = await clocked_table(cfg)
        links: dict[str, Link] = {}
        for name, hello in (
            ("Ann", {}),
            ("Bob", {"protocol": 1}),
            ("Wes", {"watch": True}),
            ("Cid", {}),
            ("Vic", {"watch": True, "protocol": 1}),
            ("Dee", {}),
            ("Eli", {}),
        ):
            links[name] = Link(table, name)
            links[name].hello(**hello)
        if watch is not None:
            watch(table, links)
        links["Ann"].send(p.Start().encode())
        try:
            await _play(table, clock, links, seed)
            await settle(table, *links.values())
        finally:
            table.shutdown()
        return {name: b"".join(link.transport.written) for name, link in links.items()}


def nights() -> dict[int, Streams]:
    return {seed: asyncio.run(night(seed)) for seed in SEEDS}


def load() -> dict[int, Streams]:
    doc = msgpack.unpackb(gzip.decompress(FIXTURE.read_bytes()), raw=False, strict_map_key=False)
    return {int(seed): dict(streams) for seed, streams in doc.items()}


def main() -> None:
    got = nights()
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_bytes(gzip.compress(msgpack.packb(got, use_bin_type=True), mtime=0))
    size = sum(len(b) for streams in got.values() for b in streams.values())
    print(f"{FIXTURE.name}: {len(got)} nights, {size} bytes received, {FIXTURE.stat().st_size}")


if __name__ == "__main__":
    main()
