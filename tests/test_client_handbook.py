"""The client's hand book: the hands as its seat saw them equal the history cut to that seat.

A real match on 127.0.0.1; every message each client got is fed to a
``Session``.  Its ``HandBook`` must rebuild, hand by hand, exactly
``seen_record(history, seat)``: the same events, stacks and final stacks,
with no card the seat did not see (R-S1).  With open books, after the match
it holds the full records too.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from client.handbook import HandBook
from client.model import Session
from common.cards import RANK_CHARS, SUIT_CHARS
from common.history import clean_record
from common.replay import positions, seen_record, table_after
from common.schema import SeatView
from tests.clientkit import decoded, feed
from tests.serverkit import Client, cards_in, config, running

pytestmark = pytest.mark.timeout(60)


def _history(tmp: Path) -> list[dict]:
    (path,) = tmp.glob("*.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("books", [False, True], ids=["closed books", "open books"])
def test_the_hand_book_is_the_history_as_the_seat_saw_it(tmp_path: Path, books: bool) -> None:
    async def scenario() -> tuple[list[Client], Client]:
        cfg = config(tmp_path, computer=2, start_when=4, hands=4, open_books=books)
        async with running(cfg) as (_server, port):
            watcher = Client("w")
            players = [Client("a"), Client("b")]
            await players[0].hello(port)
            await watcher.hello(port, watch=True)
            await players[1].hello(port)
            await asyncio.gather(*(c.play() for c in players))
            for c in players:
                await c.seen("lobby", c.log.index(c.of_type("standings")[0]), running=False)
                if books:
                    await c.seen("books", 0, hand=4)
            await watcher.seen("standings")
            for c in [*players, watcher]:
                await c.close()
        return players, watcher

    players, watcher = asyncio.run(scenario())
    history = _history(tmp_path)
    for c in [*players, watcher]:
        session = Session(c.name)
        feed(session, c.log)
        book = session.book
        # The same record but for the time the hand began, which no message says.
        want = [{**clean_record(seen_record(r, c.seat)), "time": ""} for r in history]
        assert book.finished() == want, c.name
        # Nothing in the seat's own records that it did not see at the table.
        for got, full in zip(book.finished(), history, strict=True):
            allowed = {e["card"] for e in full["events"]
                       if e["ev"] == "deal" and (e["up"] or e["seat"] == c.seat)}  # fmt: skip
            allowed |= {x for e in full["events"] if e["ev"] == "show" for x in e["cards"]}
            assert cards_in(got) <= allowed
        if books and c is not watcher:
            assert book.opened() == [clean_record(r) for r in history]
            assert book.best() == book.opened()
            assert session.lobby.open_books is True
        else:
            assert book.opened() == [] and book.best() == book.finished()


def test_a_reconnection_does_not_double_the_hand_being_played() -> None:
    book = HandBook()
    start = {"type": "match_start", "match": "m", "seats": [{"seat": 0, "name": "A"}]}
    ante = {"ev": "ante", "seat": 0, "amount": 1, "all_in": False}
    events = {"type": "events", "hand": 1, "events": [ante]}
    book.take(decoded(start))
    book.take(decoded(events))
    book.take(decoded(start))  # back after a drop: the whole hand comes again
    book.take(decoded(events))
    assert book.seen[1]["events"] == [ante]


@pytest.mark.parametrize("record", [5, {"format": "x"}, {"format": "stud-hh/1", "seats": []}])
def test_a_bad_books_record_is_refused_before_the_session(record) -> None:
    with pytest.raises(ValueError):
        decoded({"type": "books", "record": record})


_WORDS = ["deal", "act", "ante", "show", "award", "return", "As", "Kd", "raise", "call", "x"]
_KEYS = ["ev", "seat", "street", "card", "up", "action", "put", "to", "amount", "pot", "cards",
         "best", "hand", "all_in"]  # fmt: skip
_VALUE = st.none() | st.booleans() | st.integers(-5, 700) | st.sampled_from(_WORDS)
_JUNK = st.dictionaries(st.sampled_from(_KEYS), _VALUE | st.lists(_VALUE, max_size=6), max_size=8)
"""An event as a hostile server may write one: known keys, values of any kind (a card
where a seat goes, a list where a card goes, ...)."""


@settings(max_examples=150, deadline=None)
@given(st.lists(_JUNK | _VALUE, max_size=30), st.lists(st.integers(-2, 8), min_size=2, max_size=7))
def test_any_books_record_either_is_refused_or_replays_without_error(events, seats) -> None:
    """A hostile server's books never crash the replayer (STYLE: the window never crashes)."""
    table = [{"seat": s, "name": "n", "stack": 50} for s in seats]
    raw = {"format": "stud-hh/1", "hand": 1, "button": 0, "seats": table, "events": events}
    try:
        rec = clean_record(raw)
    except ValueError:
        return
    stops = positions(rec)
    for n in range(len(rec["events"]) + 1):
        view = table_after(rec, n, rec["seats"][0]["seat"])
        SeatView.decode(view.encode())  # it reads back as the wire's views do
        # The replayer draws it as it is: every card in it is one the art can draw.
        for sv in view.seats.values():
            shown = sv.shown.cards + sv.shown.best if sv.shown else []
            for c in [*sv.up, *(sv.hole or []), *shown]:
                assert len(c) == 2 and c[0] in RANK_CHARS and c[1] in SUIT_CHARS, c
    assert all(0 < p.upto <= len(rec["events"]) for p in stops)
