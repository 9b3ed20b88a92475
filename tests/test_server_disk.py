"""Issue 33 point 1: nothing a player saw is ever lost or rewound, whatever the disk does.

A table on a fake clock whose histories folder "fills up": every ``os.write`` to a file
there writes half of what it was given and fails with ENOSPC, and every ``os.fsync``
fails too, as a real full disk does.  The table must show no step it could not make
durable (the way a database acknowledges no write it could not sync): it waits, tells
everyone why (``waiting``), takes no action, keeps its clocks still, and goes on by
itself once the disk has room.  The journal and the history are then whole lines, each
step and each hand once.  (``tests/test_full_disk.py`` does the same over real
processes on a real full filesystem, with a SIGKILL in the middle.)
"""

from __future__ import annotations

import errno
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from common.protocol import Act
from server import durable
from server.saving import RETRY, Problem, Saver
from server.timers import FakeClock
from tests.serverkit import (
    Link,
    advance,
    clocked_table,
    config,
    drive,
    history,
    run,
    seat_to_act,
    seated,
    settle,
)

pytestmark = pytest.mark.timeout(60)


class FullDisk:
    """The folder ``root`` fills up while ``full``: a write there writes half its bytes
    and fails (ENOSPC), an fsync fails; every other file is left alone."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.root = str(root.resolve())
        self.full = False
        self.only = ""
        """Only files whose names end so fail (the histories' ``.jsonl``, say)."""
        self.refused = 0
        real_write, real_fsync = os.write, os.fsync

        def write(fd: int, data: Any) -> int:
            if self._ours(fd):
                half = bytes(data)[: len(data) // 2]
                if half:
                    real_write(fd, half)
                self._refuse()
            return real_write(fd, data)

        def fsync(fd: int) -> None:
            if self._ours(fd):
                self._refuse()
            real_fsync(fd)

        monkeypatch.setattr(os, "write", write)
        monkeypatch.setattr(os, "fsync", fsync)

    def _ours(self, fd: int) -> bool:
        if not self.full:
            return False
        try:
            path = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            return False
        return path.startswith(self.root) and path.endswith(self.only)

    def _refuse(self) -> None:
        self.refused += 1
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.fixture
def disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FullDisk]:
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc/self/fd to tell the histories' files apart")
    yield FullDisk(tmp_path, monkeypatch)


def journal_lines(tmp: Path) -> list[dict[str, Any]]:
    (path,) = tmp.glob("*.journal")
    data = path.read_bytes()
    assert data.endswith(b"\n"), "a torn line was left in the journal"
    return [json.loads(line) for line in data.splitlines()]


def shown(link: Link) -> int:
    """How many step frames (``events``) ``link`` has been sent."""
    return len(link.of_type("events"))


async def two_people(tmp: Path, **options: Any) -> tuple[Any, FakeClock, Link, Link]:
    cfg = config(tmp, start_when=2, **options)
    table, clock = await clocked_table(cfg)
    ann, bob = seated(table, "ann", "bob")
    await settle(table, ann, bob)
    return table, clock, ann, bob


def to_act(table: Any, *links: Link) -> tuple[Link, dict[str, Any]]:
    link = next(lk for lk in links if lk.seat == seat_to_act(table))
    return link, link.last("turn")


@run
async def test_a_step_that_cannot_be_saved_is_shown_to_no_one_until_it_is(
    tmp_path: Path, disk: FullDisk
) -> None:
    table, clock, ann, bob = await two_people(tmp_path, turn_time=20, time_bank=30)
    actor, turn = to_act(table, ann, bob)
    before = {lk.name: shown(lk) for lk in (ann, bob)}
    records = len(journal_lines(tmp_path))
    disk.full = True
    actor.send(Act(turn["turn"], turn["legal"][0]["action"]).encode())
    await settle(table, ann, bob)
    for lk in (ann, bob):
        assert {lk.name: shown(lk) for lk in (ann, bob)} == before  # nothing shown
        said = lk.last("waiting")
        assert said["waiting"] is True and said["why"] == "disk_full"
        assert "disk is full" in said["message"]
    # It takes no action meanwhile, says why, and moves on for no timer.
    actor.send(Act(turn["turn"], turn["legal"][0]["action"]).encode())
    await settle(table, ann, bob)
    assert actor.last("error")["code"] == "table_waits"
    await advance(table, clock, 300, ann, bob)
    assert {lk.name: shown(lk) for lk in (ann, bob)} == before
    assert not ann.of_type("seat_away") and disk.refused >= 300 // RETRY
    assert len(journal_lines(tmp_path)) == records  # no half record left behind
    disk.full = False
    await advance(table, clock, RETRY, ann, bob)
    for lk in (ann, bob):
        assert lk.last("waiting")["waiting"] is False
        assert shown(lk) == before[lk.name] + 1
        (act,) = [e for e in lk.of_type("events")[-1]["events"] if e["ev"] == "act"]
        assert act["seat"] == actor.seat
    lines = journal_lines(tmp_path)
    assert len(lines) == records + 1 and lines[-1]["t"] == "act"
    assert lines[-1]["seat"] == actor.seat


@run
async def test_the_turn_clock_stands_still_while_the_table_waits(
    tmp_path: Path, disk: FullDisk
) -> None:
    """R-C4: a person's seconds and bank do not run while nobody may act."""
    table, clock, ann, bob = await two_people(tmp_path, turn_time=5, time_bank=10)
    actor, turn = to_act(table, ann, bob)
    await advance(table, clock, 3, ann, bob)  # 2 s of the decision left
    disk.full = True
    table.dealer.record({"t": "host", "seat": table.role.seat})  # any record: the table waits
    await settle(table, ann, bob)
    stopped = actor.last("clock")
    assert stopped["running"] is False and stopped["time_left"] == 2.0
    await advance(table, clock, 60, ann, bob)
    assert not actor.of_type("seat_away")  # the clock did not run out meanwhile
    disk.full = False
    await advance(table, clock, RETRY, ann, bob)
    again = actor.last("clock")
    assert again["running"] is True and (again["time_left"], again["bank"]) == (2.0, 10.0)
    assert actor.last("turn")["turn"] == turn["turn"]  # the same turn, asked again
    actor.send(Act(turn["turn"], turn["legal"][0]["action"]).encode())
    await settle(table, ann, bob)
    assert shown(actor) >= 2 and not actor.of_type("error")


@run
async def test_someone_joining_while_a_step_waits_sees_only_what_is_saved(
    tmp_path: Path, disk: FullDisk
) -> None:
    table, clock, ann, bob = await two_people(tmp_path)
    actor, turn = to_act(table, ann, bob)
    saved_step = ann.last("table")["step"]
    disk.full = True
    actor.send(Act(turn["turn"], turn["legal"][0]["action"]).encode())
    await settle(table, ann, bob)
    eve = Link(table, "eve")
    eve.hello(watch=True)
    await settle(table, ann, bob, eve)
    assert eve.last("waiting")["waiting"] is True
    assert not eve.of_type("table")  # the table in memory is a step ahead of the disk
    disk.full = False
    await advance(table, clock, RETRY, ann, bob, eve)
    assert eve.last("table")["step"] == saved_step + 1 == ann.last("table")["step"]


@run
async def test_each_hand_is_in_the_history_before_the_next_is_dealt(
    tmp_path: Path, disk: FullDisk
) -> None:
    table, clock, ann, bob = await two_people(tmp_path, hands=4)
    disk.full, disk.only = True, ".jsonl"  # the journal writes, the history cannot
    rng = random.Random(3)

    def stuck() -> bool:
        return table.saver.waiting and table.dealer.match.hand.is_over

    await drive(table, clock, [ann, bob], rng, until=stuck)
    assert not ann.of_type("hand_end")  # its end waits for the history
    hands = ann.of_type("table")[-1]["hand"]
    await advance(table, clock, 30, ann, bob)
    assert ann.of_type("table")[-1]["hand"] == hands == 1  # and no new hand is dealt
    disk.full = False
    await drive(table, clock, [ann, bob], rng)
    assert [h["hand"] for h in history(tmp_path)] == [1, 2, 3, 4]
    assert [m["hand"] for m in ann.of_type("hand_end")] == [1, 2, 3, 4]


@run
async def test_a_match_that_ends_on_a_full_disk_shows_its_standings_once_it_is_saved(
    tmp_path: Path, disk: FullDisk
) -> None:
    table, clock, ann, bob = await two_people(tmp_path, hands=4)
    rng = random.Random(5)
    await drive(table, clock, [ann, bob], rng, until=lambda: table.dealer.hand_no == 4)
    disk.full = True
    await drive(table, clock, [ann, bob], rng, until=lambda: table.saver.waiting)
    await advance(table, clock, 120, ann, bob)
    assert not ann.of_type("standings") and ann.last("waiting")["waiting"] is True
    disk.full = False
    await drive(table, clock, [ann, bob], rng)
    types = [m["type"] for m in ann.log]
    assert types.index("standings") > len(types) - 1 - types[::-1].index("waiting")
    assert [h["hand"] for h in history(tmp_path)] == [1, 2, 3, 4]
    (night,) = tmp_path.glob("night-*.json")
    assert json.loads(night.read_text())["played"] == 1
    assert not list(tmp_path.glob("*.journal"))  # over: nothing to resume


def test_an_append_that_fails_leaves_the_file_as_it_was(tmp_path: Path, disk: FullDisk) -> None:
    path = tmp_path / "f.jsonl"
    path.write_bytes(b'{"a": 1}\n')
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        disk.full = True
        with pytest.raises(OSError) as raised:
            durable.append(fd, b'{"b": 2}\n')
        assert raised.value.errno == errno.ENOSPC
        assert path.read_bytes() == b'{"a": 1}\n'  # the half written was cut off
        disk.full = False
        durable.append(fd, b'{"b": 2}\n')
    finally:
        os.close(fd)
    assert path.read_bytes() == b'{"a": 1}\n{"b": 2}\n'


def test_the_saver_keeps_the_order_and_says_once_that_it_waits_and_once_that_it_goes_on() -> None:
    clock = FakeClock()
    told: list[Problem | None] = []
    saver = Saver(clock, told.append)
    done: list[str] = []
    full = [True]

    def write(name: str) -> Any:
        def go() -> None:
            if full[0] and name != "first":
                raise OSError(errno.ENOSPC, "No space left on device")
            done.append(f"wrote {name}")

        return go

    saver.save(write("first"), lambda: done.append("then first"))
    saver.save(write("second"), lambda: done.append("then second"))
    saver.save(write("third"))  # waits behind the second, though it could be written
    saver.save(write("fourth"), lambda: done.append("then fourth"))
    assert saver.waiting and [t.why if t else None for t in told] == ["disk_full"]
    clock.advance(RETRY * 3)
    assert done == ["wrote first", "then first"] and len(told) == 1
    full[0] = False
    clock.advance(RETRY)
    assert done[2:] == [
        "wrote second", "wrote third", "wrote fourth", "then second", "then fourth"
    ]  # fmt: skip
    assert told[-1] is None and not saver.waiting
    assert Problem.of(OSError(errno.EIO, "Input/output error")).why == "cannot_save"
