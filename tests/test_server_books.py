"""Open the books over real sockets: full histories only after the match, only with the option.

R-S1 keeps down cards private during play; the host's *open the books* option
(off by default) sends every seated connection the match's full ``stud-hh/1``
hands once it is over, and watchers only with ``books_to_watchers`` too.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from common.engine import Hand
from common.match import SeatInfo
from common.protocol import MAX_FRAME, encode_frame
from server.records import MatchRecords
from tests.serverkit import Client, allowed_cards, cards_in, config, history, run, running
from tests.stacking import new_hand, passive

pytestmark = pytest.mark.timeout(60)


async def _match(tmp: Path, **options: Any) -> tuple[list[Client], Client, list[dict]]:
    cfg = config(tmp, computer=1, start_when=3, hands=4, **options)
    async with running(cfg) as (_server, port):
        watcher = Client("w")
        players = [Client("a"), Client("b")]
        await players[0].hello(port)
        await watcher.hello(port, watch=True)
        await players[1].hello(port)
        await asyncio.gather(*(c.play() for c in players))
        await watcher.expect("standings", timeout=400 * 0.05)
        for c in [*players, watcher]:  # the lobby after the standings closes the match
            await c.seen("lobby", c.log.index(c.of_type("standings")[0]), running=False)
        if options.get("open_books"):
            for c in players + ([watcher] if options.get("books_to_watchers") else []):
                await c.seen("books", 0, hand=4)
        for c in [*players, watcher]:
            await c.close()
    return players, watcher, history(tmp)


@run
async def test_books_come_after_the_match_only_to_the_seated(tmp_path: Path) -> None:
    players, watcher, hands = await _match(tmp_path, open_books=True)
    assert len(hands) == 4
    for c in players:
        assert all(m["open_books"] is True for m in c.of_type("lobby"))
        end = c.log.index(c.of_type("standings")[0])
        kinds = [m["type"] for m in c.log]
        books = [i for i, k in enumerate(kinds) if k == "books"]
        assert books and min(books) > end + 1, "never before the match ends"
        assert c.log[end + 1]["type"] == "lobby"
        got = [c.log[i] for i in books]
        assert [b["hand"] for b in got] == [1, 2, 3, 4]
        assert all(b["hands"] == 4 and b["match"] == hands[0]["match"] for b in got)
        assert [b["record"] for b in got] == hands
        for b in got:  # a books frame fits any client's frame limit
            assert len(encode_frame(b)) - 4 <= MAX_FRAME
    assert watcher.of_type("books") == [], "a watcher gets no books unless the host says"
    assert all(m["open_books"] is True for m in watcher.of_type("lobby"))


@run
async def test_books_reach_watchers_only_when_the_host_also_chose_that(tmp_path: Path) -> None:
    players, watcher, hands = await _match(tmp_path, open_books=True, books_to_watchers=True)
    assert [b["record"] for b in watcher.of_type("books")] == hands
    assert all(m["books_to_watchers"] is True for m in watcher.of_type("lobby"))


@run
async def test_without_the_option_no_hole_card_a_seat_did_not_see_ever_reaches_it(
    tmp_path: Path,
) -> None:
    players, watcher, hands = await _match(tmp_path)
    for c in [*players, watcher]:
        assert c.of_type("books") == []
        assert all(m["open_books"] is False for m in c.of_type("lobby"))
        allowed = set().union(*(allowed_cards(record, c.seat) for record in hands))
        assert cards_in(c.log) <= allowed


def test_a_resumed_match_opens_its_books_with_every_hand_once(tmp_path: Path) -> None:
    """The hands played before the match was resumed are in its history file: the books
    hold them too, each once, also a hand whose line was written before the crash."""

    def played(k: int) -> Hand:
        hand = new_hand(0, {1: "?? ?? 2c", 2: "?? ?? Kd"})
        passive(hand)
        return hand

    seats = {1: SeatInfo("Ann"), 2: SeatInfo("Cy")}
    before = MatchRecords(tmp_path, "T", open_books=True)
    before.match_starts(random.Random(1))
    for k in (1, 2):
        before.hand_over(played(k), number=k, time="2026-01-01T20:00:00+00:00", seats=seats)
    after = MatchRecords(tmp_path, "T", open_books=True)
    after.resume(before.match_id, before.history_path)
    assert after.hands == before.hands
    for k in (2, 3):  # hand 2 again: its line was written, the journal had not its end
        after.hand_over(played(k), number=k, time="2026-01-01T20:00:00+00:00", seats=seats)
    assert [r["hand"] for r in after.hands] == [1, 2, 3]
    assert history(tmp_path) == after.hands
    closed = MatchRecords(tmp_path, "T", open_books=False)
    closed.resume(before.match_id, before.history_path)
    assert closed.hands == []
