"""The journal file (``server.journal``): a crash at any byte leaves a readable prefix, a
broken one is set aside, modes are private, and a seat rebuilt from it knows its person
by the token's hash (issue 16 item 3)."""

from __future__ import annotations

import logging
import os
import random
import socket
import stat
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from common.match import SeatKind
from common.presence import Presence
from common.protocol import Act, FrameDecoder, Start
from server import histories
from server.journal import FORMAT, VERSION, Journal, journal_path, parse, recorded_port
from server.rebuild import rebuild
from server.seats import Seat, token_digest
from server.table import Table
from server.timers import FakeClock
from tests.serverkit import (
    LOOPBACK,
    Client,
    Link,
    clocked_table,
    config,
    drive,
    run,
    seat_to_act,
    seated,
    settle,
)

NAME = "Friday's table"


async def _seated(tmp: Path) -> tuple[Table, FakeClock, list[Link]]:
    """Ann and Bob sit down at a table with a computer seat: the match starts."""
    table, clock = await clocked_table(config(tmp, name=NAME, computer=1, start_when=3))
    links = seated(table, "Ann", "Bob")
    return table, clock, links


async def _half_match(tmp: Path) -> tuple[Table, list[Link]]:
    """A table in the middle of its second hand, its journal on disk."""
    table, clock, links = await _seated(tmp)
    await drive(table, clock, links, random.Random(1), until=lambda: _mid_second(table))
    return table, links


def _copied(data: bytes, tmp: Path) -> Path:
    """A folder of its own holding a journal of ``data`` (what a kill left, say)."""
    other = tmp / "again"
    other.mkdir()
    journal_path(other, NAME).write_bytes(data)
    return other


def _mid_second(table: Table) -> bool:
    hand = table.dealer.match.hand if table.dealer.match else None
    return table.dealer.hand_no >= 2 and hand is not None and hand.street >= 4 and not hand.is_over


@run
async def test_a_cut_at_every_byte_leaves_a_readable_prefix(tmp_path: Path) -> None:
    table, _ = await _half_match(tmp_path)
    data = table.journal.path.read_bytes()
    whole = parse(data, NAME)
    assert whole[0]["t"] == "match" and any(r["t"] == "act" for r in whole)
    ends = [i + 1 for i, b in enumerate(data) if b == ord("\n")]
    for cut in range(len(data) + 1):
        got = parse(data[:cut], NAME)
        lines = sum(1 for e in ends if e <= cut)
        assert got == whole[: max(0, lines - 1)]  # the header is not a record
    for lines in range(2, len(ends) + 1):  # and each prefix replays
        got = rebuild(parse(data[: ends[lines - 1]], NAME))
        assert got.match.seats.keys() == table.dealer.match.seats.keys()
    # A cut journal on disk is read to its last whole line.
    cut = data[: data.rfind(b"\n") - 3]
    other = _copied(cut, tmp_path)
    records = Journal(other, NAME).load()
    assert records == parse(cut, NAME)
    assert journal_path(other, NAME).exists()  # a torn line is no reason to set it aside


def _header(**over: object) -> bytes:
    import json

    head = {"format": FORMAT, "version": VERSION, "table": NAME, **over}
    return (json.dumps(head) + "\n").encode()


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"garbage\n" + b'{"t": "match"}\n', "not JSON"),
        (b"\x00\xff\xfe\n", "not JSON"),
        (_header(version=VERSION + 1), "version"),
        (_header(format="something else"), "not a stud-journal"),
        (_header(table="Another table"), "Another table"),
        (_header() + b'{"t": "match"}\n{"t": "act" oops\n{"t": "act"}\n', "line 3"),
        (_header() + b'{"t": "hand", "no": 1}\n', "no match record"),
        (_header() + b"[1, 2]\n", "not a record"),
    ],
)
@run
async def test_a_broken_journal_is_set_aside_and_the_table_starts_clean(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, data: bytes, why: str
) -> None:
    path = journal_path(tmp_path, NAME)
    path.write_bytes(data)
    with caplog.at_level(logging.WARNING, logger="server.journal"):
        table, _ = await clocked_table(config(tmp_path, name=NAME, computer=1))
        assert not table.resume()
    assert not path.exists()
    aside = list(tmp_path.glob(f"{path.name}.broken-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == data
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "set aside" in said and why in said and "starts clean" in said
    assert not table.dealer.life.running and table.dealer.match is None
    assert len(table.seats) == 1  # its own computer seat, as configured
    link = Link(table, "Ann")
    assert link.hello()["type"] == "welcome"


@run
async def test_a_journal_of_a_bad_replay_is_set_aside(tmp_path: Path) -> None:
    table, _ = await _half_match(tmp_path)
    data = table.journal.path.read_bytes().replace(b'"action":"', b'"action":"x', 1)
    other = _copied(data, tmp_path)
    again, _ = await clocked_table(config(other, name=NAME, computer=1))
    assert not again.resume()
    assert list(other.glob("*.broken-*"))


@run
async def test_the_journal_is_private_keeps_no_token_and_is_no_history(tmp_path: Path) -> None:
    folder = tmp_path / "hist"
    folder.mkdir(mode=0o755)
    table, links = await _half_match(folder)
    path = table.journal.path
    assert path.parent == folder and path.suffix == ".journal"
    assert path.name == "friday-s-table.journal"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    assert all(p.suffix != ".journal" for p in folder.glob("*.jsonl"))
    text = path.read_text()  # and no token, only its hash
    for link in links:
        assert link.token and link.token not in text
        assert token_digest(link.token) in text


@run
async def test_a_finished_match_leaves_no_journal(tmp_path: Path) -> None:
    table, clock, links = await _seated(tmp_path)
    await drive(table, clock, links, random.Random(5))
    assert not table.dealer.life.running
    assert not list(tmp_path.glob("*.journal*"))
    assert recorded_port(tmp_path, NAME) is None


@run
async def test_the_port_is_recorded(tmp_path: Path) -> None:
    table, _ = await clocked_table(config(tmp_path, name=NAME, computer=1, start_when=3))
    table.listening(45678)
    for name in ("Ann", "Bob"):
        Link(table, name).hello()
    assert recorded_port(tmp_path, NAME) == 45678
    assert recorded_port(tmp_path, "Another table") is None


@run
async def test_a_new_token_and_a_new_host_are_journaled(tmp_path: Path) -> None:
    """Interfaces of the brief: ``token_changed`` after a reclaim, and the host changes."""
    table, links = await _half_match(tmp_path)
    seat = table.seats[links[1].seat]
    seat.token = "a-brand-new-token"
    table.seating.token_changed(seat)
    table.role.pass_on(links[1].seat)
    other = _copied(table.journal.path.read_bytes(), tmp_path)
    again, _ = await clocked_table(config(other, name=NAME, computer=1))
    assert again.resume()
    assert again.role.seat == links[1].seat
    assert again.seats[seat.seat].owns("a-brand-new-token")
    assert not again.seats[seat.seat].owns(links[1].token)
    assert Link(again, "x").hello(token=links[1].token)["type"] == "error"
    assert Link(again, "x").hello(token="a-brand-new-token")["seat"] == seat.seat


def test_a_seat_owns_its_token_or_its_hash() -> None:
    token = "s3cret-token"
    plain = Seat(0, "Ann", SeatKind.HUMAN, token=token)
    hashed = Seat(0, "Ann", SeatKind.HUMAN, token_hash=token_digest(token))
    for seat in (plain, hashed):
        assert seat.owns(token)
        assert not seat.owns(token + "x")
        assert not seat.owns("")
        assert not seat.owns("é☃")  # any text a hello may carry, no error
    assert not Seat(6, "Ada", SeatKind.COMPUTER).owns(token)
    assert token_digest(token) == token_digest(token) != token_digest("other")


def test_a_history_cut_short_is_mended_before_the_next_hand(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_bytes(b'{"match": "m", "hand": 1}\n{"match": "m", "hand": 2}\n{"match": "m", "ha')
    assert histories.hand_numbers(path, "m") == {1, 2}
    assert path.read_bytes().endswith(b"2}\n")
    assert histories.hand_numbers(tmp_path / "none.jsonl", "m") == set()


@run
async def test_a_resumed_seat_has_the_bank_it_had_left(tmp_path: Path) -> None:
    """R-C4: the banks are journaled with each action; a resumed seat's clock restarts
    with the decision's seconds and the bank it had when its turn began."""
    cfg = config(tmp_path, name=NAME, start_when=2, turn_time=10, time_bank=20, grace=30)
    table, clock = await clocked_table(cfg)
    links = seated(table, "Ann", "Bob")
    await settle(table, *links)
    slow = next(lk for lk in links if lk.seat == seat_to_act(table))
    clock.advance(14)  # four seconds of its bank spent
    slow.send(Act(table.turns.turn_id, _first(table)).encode())
    await settle(table, *links)
    assert table.seats[slow.seat].bank == pytest.approx(16)
    other = _copied(table.journal.path.read_bytes(), tmp_path)
    again, clock2 = await clocked_table(replace(cfg, history_dir=other))
    assert again.resume()
    assert again.seats[slow.seat].bank == pytest.approx(16)
    assert again.seats[1 - slow.seat].bank == pytest.approx(20)
    back = [Link(again, "x"), Link(again, "y")]
    for link, old in zip(back, links, strict=True):
        assert link.hello(token=old.token)["seat"] == old.seat
    await settle(again, *back)
    to_act = next(lk for lk in back if lk.seat == seat_to_act(again))
    turn = to_act.last("turn")
    assert turn["turn"] == again.turns.turn_id == table.turns.turn_id
    want = 16 if to_act.seat == slow.seat else 20
    assert turn["bank"] == pytest.approx(want)


def _first(table: Table) -> str:
    assert table.dealer.hand_no > 0
    kinds = [str(a.kind) for a in table.dealer.match.hand.legal_actions()]
    return "call" if "call" in kinds else kinds[0]


@run
async def test_every_step_is_on_disk_before_any_frame_of_it_leaves(tmp_path: Path) -> None:
    """Issue 16 item 3: a client never sees a step the journal could lose."""
    table, clock = await clocked_table(config(tmp_path, name=NAME, computer=1, start_when=3))
    links = [Link(table, "Ann"), Link(table, "Bob")]
    checked = [0]
    for link in links:
        decoder = FrameDecoder()
        write = link.transport.write

        def watch(
            data: bytes | bytearray | memoryview, write: Any = write, d: Any = decoder
        ) -> None:
            for msg in d.feed(bytes(data)):
                if msg["type"] in ("match_start", "table", "events"):
                    records = parse(table.journal.path.read_bytes(), NAME)
                    steps = {r.get("step") for r in records if r["t"] in ("hand", "act")}
                    assert msg["type"] == "match_start" or msg["step"] in steps
                    checked[0] += 1
            write(data)

        link.transport.write = watch  # type: ignore[method-assign]
    for link in links:
        link.hello()
    await drive(table, clock, links, random.Random(2), until=lambda: table.dealer.hand_no >= 3)
    assert checked[0] > 20


@run
async def test_a_resumed_table_takes_its_old_port_or_any(tmp_path: Path) -> None:
    from server.app import TableServer

    cfg = config(tmp_path, name=NAME, computer=1, start_when=3)
    first = TableServer(cfg)
    port = await first.start()
    clients = [Client("Ann"), Client("Bob")]
    for c in clients:
        assert (await c.hello(port))["type"] == "welcome"
    await clients[0].expect("match_start")
    await first.stop()
    for c in clients:
        await c.close()
    assert recorded_port(tmp_path, NAME) == port
    again = TableServer(cfg)
    assert await again.start() == port and again.resumed
    await again.stop()
    with socket.socket() as busy:  # someone else has it now: any free port will do
        busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # past TIME_WAIT
        busy.bind((LOOPBACK, port))
        busy.listen()
        third = TableServer(cfg)
        other = await third.start()
        try:
            assert third.resumed and other != port
            assert recorded_port(tmp_path, NAME) == other
        finally:
            await third.stop()


@run
async def test_a_seat_for_the_next_match_is_kept_until_freed(tmp_path: Path) -> None:
    """Someone seated during the match for the next one waits for it again after a
    resume, back with its token; one that left before the kill is gone."""
    table, links = await _half_match(tmp_path)
    cy, di = Link(table, "Cy"), Link(table, "Di")
    assert cy.hello()["type"] == "welcome" and di.hello()["type"] == "welcome"
    assert table.seats[cy.seat].presence is Presence.NEXT_MATCH
    di.drop()  # a waiting seat whose link goes is freed (as before)
    await settle(table, *links)
    assert di.seat not in table.seats
    other = _copied(table.journal.path.read_bytes(), tmp_path)
    again, clock = await clocked_table(config(other, name=NAME, computer=1))
    assert again.resume()
    assert again.seats[cy.seat].presence is Presence.NEXT_MATCH
    assert di.seat not in again.seats
    assert again.seats[cy.seat].name == "Cy" and not again.seats[cy.seat].connected
    back = Link(again, "again")
    assert back.hello(token=cy.token)["seat"] == cy.seat
    people = [Link(again, "x"), Link(again, "y")]
    for link, old in zip(people, links, strict=True):
        assert link.hello(token=old.token)["seat"] == old.seat
    await drive(again, clock, [*people, back], random.Random(3))
    assert not again.dealer.life.running
    assert again.seats[cy.seat].connected  # kept at the match's end: it plays the next
    people[0].send(Start().encode())  # the host (back too) starts it
    await settle(again, *people, back)
    assert again.dealer.life.running and cy.seat in again.dealer.match.seats
    assert again.seats[cy.seat].presence is Presence.PLAYING


def test_the_journal_is_closed_when_the_match_ends(tmp_path: Path) -> None:
    """The file kept open while a match is written is let go when it ends (or is set
    aside), and nothing is written to it after."""
    journal = Journal(tmp_path, NAME)
    journal.begin({"t": "match"})
    journal.append({"t": "act", "seat": 0, "action": "fold"})
    assert journal.open and journal._fd is not None
    journal.remove()
    assert not journal.open and journal._fd is None and not journal.path.exists()
    journal.append({"t": "act", "seat": 0, "action": "fold"})
    assert not journal.path.exists()
