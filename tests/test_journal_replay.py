"""Issue 16 items 3 and 6: a table killed at any point resumes its match exactly.

A match is played on a fake clock (two people on ``Link`` clients and computer seats,
random legal play) while every journal record is watched: after each one the engine's
state is kept, with the journal's and the history's bytes as they were.  A kill point is
then drawn (a record, the journal cut anywhere inside the next one, and the history as
it was before or after the line written between the two, or cut inside it): a new table
resumes from a copy of those files and must hold the very same state; then it plays to
the end, and its history has each hand once, passes ``tests/hhcheck.py`` and adds up.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.match import START_STACK, SeatKind
from common.views import seat_view
from server.journal import Journal
from server.table import Table
from tests import hhcheck
from tests.serverkit import Link, clocked_table, config, drive, seated

NAME = "Replay table"


@dataclasses.dataclass
class Point:
    """What the table was right after one journal record."""

    journal: bytes
    history: bytes
    """The history file as it was when the record was written."""
    state: dict[str, Any]


@dataclasses.dataclass
class Recording:
    points: list[Point]
    history_after: list[bytes]
    """``history_after[i]``: the history file just before the record after point ``i``
    (or the match's end): a kill between the two may find either."""
    history_name: str
    final_history: bytes
    tokens: dict[int, str]
    computers: int
    hands: int


def state(table: Table) -> dict[str, Any]:
    """The engine's state as a resumed table must rebuild it."""
    match = table.dealer.match
    assert match is not None
    out: dict[str, Any] = {
        "stacks": dict(match.stacks),
        "hands_played": match.hands_played,
        "button": match.button,
        "seats": {n: (s.name, s.kind, s.level) for n, s in table.seats.items()},
        "banks": {n: s.bank for n, s in table.seats.items() if s.kind is SeatKind.HUMAN},
    }
    hand = match.hand
    if hand is None:
        return out
    out.update(
        {
            "hand_no": table.dealer.hand_no,
            "hand_time": table.dealer.hand_time,
            "turn_id": table.turns.turn_id,
            "step": table.dealer.step,
            "to_act": hand.to_act,
            "legal": hand.legal_actions(),
            "rest": list(hand._deck[hand._dealt :]),
            "pots": hand.pots(),
            "events": list(hand.events),
            "views": {s: seat_view(hand, s) for s in [None, *sorted(match.seats)]},
        }
    )
    return out


def assert_same(got: dict[str, Any], want: dict[str, Any]) -> None:
    assert got.keys() == want.keys()
    for key, value in want.items():
        if key == "views":
            for seat, view in value.items():
                mine = got["views"][seat]
                for f in dataclasses.fields(view):
                    a, b = getattr(mine, f.name), getattr(view, f.name)
                    assert a == b, f"seat {seat}'s view: {f.name} {a!r} != {b!r}"
        else:
            assert got[key] == value, f"{key}: {got[key]!r} != {value!r}"


def _read(path: Path | None) -> bytes:
    return path.read_bytes() if path is not None and path.exists() else b""


async def _record(seed: int, computers: int, hands: int, drop_at: int | None) -> Recording:
    """A match played to its end, every record watched; ``drop_at``: Bob's link goes at
    that step and never comes back (his grace, then the defaults, R-C1/R-C2)."""
    tmp = Path(tempfile.mkdtemp(prefix="journal-rec-"))
    try:
        cfg = config(
            tmp, name=NAME, computer=computers, start_when=2 + computers, seed=seed, hands=hands
        )
        table, clock = await clocked_table(cfg)
        points: list[Point] = []
        history_after: list[bytes] = []
        journal = table.journal
        begin, append, remove = journal.begin, journal.append, journal.remove

        def keep() -> None:
            points.append(Point(journal.path.read_bytes(), _read(hist()), state(table)))

        def hist() -> Path | None:
            return table.records.history_path

        def on_begin(match: Any, **kw: Any) -> None:
            begin(match, **kw)
            keep()

        def on_append(record: Any) -> None:
            if points:
                history_after.append(_read(hist()))
            append(record)
            keep()

        def on_remove() -> None:
            history_after.append(_read(hist()))
            remove()

        journal.begin, journal.append, journal.remove = on_begin, on_append, on_remove  # type: ignore[method-assign]
        links = seated(table, "Ann", "Bob")
        assert all(link.seat is not None for link in links)
        rng = random.Random(seed)
        if drop_at is not None:
            await drive(table, clock, links, rng, until=lambda: table.dealer.step >= drop_at)
            links[1].drop()
        await drive(table, clock, links, rng)
        assert not table.dealer.life.running and not journal.path.exists()
        path = hist()
        assert path is not None
        return Recording(
            points=points,
            history_after=history_after,
            history_name=path.name,
            final_history=path.read_bytes(),
            tokens={lk.seat: lk.token for lk in links if lk.seat is not None},
            computers=computers,
            hands=hands,
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@cache
def recording(seed: int, computers: int, hands: int = 4, drop_at: int | None = None) -> Recording:
    return asyncio.run(_record(seed, computers, hands, drop_at))


def hands_of(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in data.decode().splitlines()]


async def _resume_and_finish(rec: Recording, k: int, cut: int, hist_kind: int, hcut: int) -> None:
    point = rec.points[k]
    tmp = Path(tempfile.mkdtemp(prefix="journal-kill-"))
    try:
        nxt = rec.points[k + 1].journal if k + 1 < len(rec.points) else point.journal
        extra = nxt[len(point.journal) :]
        journal = point.journal + extra[: cut % (len(extra) or 1)] if extra else point.journal
        after = rec.history_after[k]
        if hist_kind == 0:
            history = point.history
        elif hist_kind == 1:
            history = after
        else:  # the line between the two, cut short by the crash
            line = after[len(point.history) :]
            history = point.history + line[: hcut % (len(line) or 1)]
        path = Journal(tmp, NAME).path
        path.write_bytes(journal)
        if history:
            (tmp / rec.history_name).write_bytes(history)
        cfg = config(tmp, name=NAME, computer=rec.computers, seed=12345, hands=rec.hands)
        table, clock = await clocked_table(cfg)
        assert table.resume()
        if "views" in point.state:
            assert_same(state(table), point.state)
        else:  # no hand dealt yet: the resumed table deals one
            assert table.dealer.match is not None
            assert table.dealer.match.stacks == point.state["stacks"]
            assert table.dealer.match.hands_played == point.state["hands_played"]
        # Every person comes back with its token (R-C1), known to the table by its hash.
        links = []
        for seat, token in rec.tokens.items():
            link = Link(table, "again")
            welcome = link.hello(token=token)
            assert welcome["type"] == "welcome" and welcome["seat"] == seat
            assert table.seats[seat].token == token
            links.append(link)
        await drive(table, clock, links, random.Random(k))
        assert not table.dealer.life.running and not path.exists()  # finished: no journal left
        hist_path = tmp / rec.history_name
        hands = hands_of(hist_path.read_bytes())
        assert [h["hand"] for h in hands] == list(range(1, len(hands) + 1))
        assert table.dealer.match is not None and table.dealer.match.hands_played == len(hands)
        for h in hands:
            assert hhcheck.problems(h) == []
            start = sum(s["stack"] for s in h["seats"])
            assert sum(s["stack"] for s in h["final"]) == start
        total = START_STACK * (len(rec.tokens) + rec.computers)
        assert sum(table.dealer.match.stacks.values()) == total
        # The hands finished before the kill are the killed table's, byte for byte.
        done = hands_of(rec.final_history)[: point.state["hands_played"]]
        assert hands[: len(done)] == done
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


MATCHES = [(3, 1), (11, 0), (29, 2, 8), (17, 1, 4, 9)]
"""Seed, computer seats, hands, the step Bob's link goes at (if it does)."""


@st.composite
def kill_points(draw: st.DrawFn) -> tuple[Recording, int, int, int, int]:
    rec = recording(*draw(st.sampled_from(MATCHES)))
    k = draw(st.integers(0, len(rec.points) - 1))
    cut = draw(st.integers(0, 10**6))
    hist_kind = draw(st.integers(0, 2))
    hcut = draw(st.integers(0, 10**6))
    return rec, k, cut, hist_kind, hcut


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(kill_points())
def test_a_table_killed_anywhere_resumes_exactly(
    point: tuple[Recording, int, int, int, int],
) -> None:
    """R-C1, issue 16 items 3 and 6: the replay rebuilds the engine state exactly."""
    rec, k, cut, hist_kind, hcut = point
    asyncio.run(_resume_and_finish(rec, k, cut, hist_kind, hcut))


def test_every_record_of_a_match_resumes() -> None:
    """Each whole record of one recorded match, in turn (no cut)."""
    rec = recording(3, 1)
    assert len(rec.points) > 20
    for k in range(0, len(rec.points), 3):
        asyncio.run(_resume_and_finish(rec, k, 0, 0, 0))
