"""Whole matches over real sockets on 127.0.0.1: lobby, R-T3..R-T7, private views, histories."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from common.protocol import Start
from common.schema import SeatView
from server.app import TableServer
from tests.hhcheck import problems
from tests.serverkit import Client, allowed_cards, cards_in, config, history, run, running

pytestmark = pytest.mark.timeout(60)


@run
async def test_whole_match_three_clients_two_computer_seats(tmp_path: Path) -> None:
    """R-T3..R-T7 over the wire; the history file agrees with what each client saw."""
    cfg = config(tmp_path, computer=2, start_when=5, hands=4)
    async with running(cfg, real_bots=True) as (server, port):
        clients = [Client(f"p{i}") for i in range(3)]
        for c in clients:
            welcome = await c.hello(port)
            assert welcome["type"] == "welcome" and welcome["seat"] is not None
        results = await asyncio.gather(*(c.play() for c in clients))
        standings = results[0]["standings"]
        assert sum(row["stack"] for row in standings) == 5 * 600
        assert {row["seat"] for row in standings} == {0, 1, 2, 5, 6}
        assert all(r["standings"] == standings for r in results)
        hands = history(tmp_path)
        assert [h["hand"] for h in hands] == [1, 2, 3, 4]
        for record in hands:
            assert problems(record) == [], record["hand"]
        for c in clients:
            # Every event a client was sent, hand by hand, is the file's event as its
            # seat may see it: same order, nothing missing, nothing extra.
            for record in hands:
                seen = [
                    e
                    for m in c.of_type("events")
                    if m["hand"] == record["hand"]
                    for e in m["events"]
                ]
                expected = [
                    e
                    if e["ev"] != "deal" or e["up"] or e["seat"] == c.seat
                    else {k: v for k, v in e.items() if k != "card"}
                    for e in record["events"]
                ]
                assert seen == expected
            # The snapshot before each turn names the same turn id (docs/protocol.md).
            last_table: dict[str, Any] = {}
            for m in c.log:
                if m.get("type") == "table":
                    last_table = m
                elif m.get("type") == "turn":
                    assert last_table["view"]["turn"] == m["turn"]
                    assert last_table["view"]["to_act"] == m["seat"] == c.seat
            final = {f["seat"]: f["stack"] for f in hands[-1]["final"]}
            assert c.of_type("hand_end")[-1]["stacks"] == [
                {"seat": s, "stack": final.get(s, 0)} for s in sorted(final)
            ]
        assert server.table.computers.times, "the computer seats acted"


@run
async def test_no_card_leaks_over_many_hands(tmp_path: Path) -> None:
    """Private views: every frame every client got holds only cards its seat may see."""
    cfg = config(tmp_path, computer=2, start_when=5, hands=8)
    async with running(cfg) as (_server, port):
        watcher = Client("watcher")
        clients = [Client(f"p{i}") for i in range(3)]
        for c in clients[:1]:
            await c.hello(port)
        await watcher.hello(port, watch=True)
        for c in clients[1:]:
            await c.hello(port)
        for match in range(2):  # a rematch too
            if match:
                await clients[0].expect("lobby", running=False)
                clients[0].send(Start(hands=8).encode())
            await asyncio.gather(*(c.play() for c in clients))
            await watcher.expect("standings")
        recorded = {}
        for path in tmp_path.glob("*.jsonl"):
            for line in path.read_text().splitlines():
                record = json.loads(line)
                recorded[record["match"], record["hand"]] = record
        assert len(recorded) >= 12
        assert len({m for m, _hand in recorded}) == 2
        for c in [*clients, watcher]:
            assert c.of_type("events"), c.name
            match_id, seen = "", set()
            for msg in c.log:
                found = cards_in(msg)
                seen |= found
                if msg["type"] == "match_start":
                    match_id = msg["match"]
                if msg["type"] in ("events", "table", "hand_end"):
                    allowed = allowed_cards(recorded[match_id, msg["hand"]], c.seat)
                else:
                    allowed = set()
                assert found <= allowed, (c.name, msg["type"], found - allowed)
            assert len(seen) > 40, c.name  # the check had cards to check


@run
async def test_host_starts_then_starts_again_with_the_same_seats(tmp_path: Path) -> None:
    async with running(config(tmp_path, computer=1, hands=4)) as (_server, port):
        host, guest = Client("host"), Client("guest")
        assert (await host.hello(port))["host"] is True
        assert (await guest.hello(port))["host"] is False
        guest.send(Start().encode())
        assert (await guest.expect("error"))["code"] == "not_host"
        for _match in range(2):
            host.send(Start(hands=4).encode())
            start = await host.expect("match_start")
            assert [s["seat"] for s in start["seats"]] == [0, 1, 6]
            a, b = await asyncio.gather(host.play(), guest.play())
            assert a == b and a["hands_played"] <= 4
        lobby = await host.expect("lobby", running=False)
        assert lobby["can_start"] is True
        assert len(list(tmp_path.glob("*.jsonl"))) == 2


@run
async def test_computer_seats_see_only_their_own_seat_view(tmp_path: Path) -> None:
    """A computer seat is a function of the same view a person at that seat gets."""
    views: list[dict[str, Any]] = []

    def recording(view: SeatView, rng: random.Random) -> str:
        views.append(view.encode())  # as a person's client at that seat gets it
        return rng.choice([str(a.action) for a in view.legal])

    server = TableServer(config(tmp_path, computer=3, start_when=4), chooser=recording)
    port = await server.start()
    try:
        me = Client("me")
        await me.hello(port)
        await me.play()
    finally:
        await server.stop()
    assert views
    for view in views:
        assert view["you"] == view["to_act"] and view["legal"]
        holders = [s["seat"] for s in view["seats"] if "hole" in s]
        assert holders == [view["you"]]
