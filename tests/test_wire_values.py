"""The wire holds its values: every message the server sends, as recorded, decoded.

``tests/fixtures/wire_values.jsonl.gz`` (``tests/record_wire.py`` says what is in it and
how it was made) holds every message of seeded nights at a real table, per connection,
and of scripted matches, lobbies and messages, as decoded values with their keys in
order.  The server today must send the same values; how it packs them is its own
business.  And the schema the client reads them with gives each back as it was.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from common import protocol as p
from tests import record_wire
from tests.serverkit import Link, clocked_table, config, drive

RECORDED = record_wire.load()
V2_ONLY = {"seat_away", "paused", "clock", "waiting", "seat_asked", "ask_answer"}


def _messages(scenario: str) -> list[tuple[Any, dict[str, Any]]]:
    return [(to, msg) for _, to, msg in map(json.loads, RECORDED[scenario])]


@functools.cache
def _scripted() -> dict[str, list[str]]:
    return {
        name: [record_wire.line(name, to, msg) for to, msg in rows]
        for name, rows in record_wire.scripted().items()
    }


def test_the_recording_covers_the_cases() -> None:
    """Seat counts, showdowns, side pots, all-ins, away and taken seats, protocol-1
    connections and every server message type are in it."""
    kinds: set[str] = set()
    pots = shown = all_in = 0
    whys: set[Any] = set()
    for scenario in RECORDED:
        for _, msg in _messages(scenario):
            kinds.add(msg["type"])
            if msg["type"] == "table":
                view = msg["view"]
                pots = max(pots, len(view["pots"]))
                shown += sum("shown" in s for s in view["seats"])
                all_in += sum(s["all_in"] for s in view["seats"])
                whys |= {s["away_why"] for s in msg["players"]}
    assert kinds == set(p.SERVER_MESSAGES) - {"proof"}  # proof: sealed connections only
    assert pots >= 2 and shown and all_in
    assert {"asked", "clock", "dropped", "taken"} <= whys
    starts = [_messages(m)[0][1] for m in ("match2", "match4", "match7")]
    assert [len(msg["seats"]) for msg in starts] == [2, 4, 7]
    for seed in record_wire.SEEDS:
        night = _messages(f"night {seed}")
        assert {to for to, _ in night} == {"Ann", "Bob", "Cid", "Cid again", "Dee", "Eli"} | {
            "Kim", "Vic", "Wes"
        }  # fmt: skip
        for old in ("Bob", "Vic"):  # protocol 1: never sent a type protocol 2 added
            assert [m for to, m in night if to == old][0]["protocol"] == 1
            assert not {m["type"] for to, m in night if to == old} & V2_ONLY


@pytest.mark.parametrize("seed", record_wire.SEEDS)
def test_every_connection_of_a_night_receives_the_recorded_messages(seed: int) -> None:
    name = f"night {seed}"
    got = [record_wire.line(name, to, msg) for to, msg in record_wire.night_received(seed)]
    _same(RECORDED[name], got)


@pytest.mark.parametrize("name", ["match2", "match4", "match7", "lobbies", "messages"])
def test_scripted_messages_are_the_recorded_values(name: str) -> None:
    _same(RECORDED[name], _scripted()[name])


def _same(recorded: list[str], got: list[str]) -> None:
    """Line for line, the first difference shown whole."""
    for i, (old, new) in enumerate(zip(recorded, got, strict=False)):
        assert new == old, f"message {i}:\nrecorded {old}\nsent     {new}"
    assert len(got) == len(recorded)


def test_every_recorded_message_reads_back_through_the_schema_as_it_was() -> None:
    """What the client decodes (``decode_server``), encoded again, is the message
    received: keys, order and values."""
    count = 0
    for scenario, lines in RECORDED.items():
        for i, (to, msg) in enumerate(_messages(scenario)):
            if msg["type"] == "books":  # its record, a stand-in, is no hand to replay
                typed: Any = p.Books(msg["match"], msg["hand"], msg["hands"], msg["record"])
            else:
                typed = p.decode_server(msg)
            again = record_wire.line(scenario, to, typed.encode())
            assert again == lines[i], f"{scenario}[{i}]"
            count += 1
    assert count > 7000


def _split_steps(link: Link) -> tuple[int, list[str]]:
    """How many steps ``link`` was sent, and each step whose messages (its ``events``,
    its ``table``, and the ``clock`` and ``turn`` that follow it) did not all come in
    one write."""
    link.log  # noqa: B018 (reads every write)
    flat = [(w, msg) for w, msgs in enumerate(link.writes) for msg in msgs]
    steps, split = 0, []
    for k, (w, msg) in enumerate(flat):
        if msg["type"] != "events":
            continue
        steps += 1
        run = list(
            itertools.takewhile(lambda x: x[1]["type"] in ("table", "clock", "turn"), flat[k + 1 :])
        )
        assert run and run[0][1]["type"] == "table" and run[0][1]["step"] == msg["step"]
        split += [f"step {msg['step']}: its {m['type']}" for at, m in run if at != w]
    return steps, split


def test_a_step_reaches_each_connection_in_one_write() -> None:
    """Events, table, clock and turn: a step is one write to each connection."""
    links = asyncio.run(record_wire.night(record_wire.SEEDS[0]))
    total = 0
    for name, link in links.items():
        steps, split = _split_steps(link)
        assert not split, (name, split[:5])
        total += steps
    assert total > 1000


def test_a_sealed_connection_gets_a_step_in_one_tls_write(tmp_path: Path) -> None:
    """Sealed, a step's frames go through one TLS write: the watcher in TLS reads what
    the plain watcher reads, and each step reaches it in one write."""
    from server.identity import load_identity
    from tests.serverkit import SealedLink

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
        ann.send(p.Start().encode())
        await drive(table, clock, [ann, bob], random.Random(4))
        first = next(i for i, m in enumerate(plain.log) if m["type"] == "match_start")
        again = next(i for i, m in enumerate(sealed.log) if m["type"] == "match_start")
        assert sealed.log[again:] == plain.log[first:]
        assert len(plain.log) - first > 100
        for link in (ann, sealed):
            steps, split = _split_steps(link)
            assert steps > 30 and not split, (link.name, split[:5])
        table.shutdown()

    asyncio.run(scenario())
