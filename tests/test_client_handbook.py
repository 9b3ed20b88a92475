"""The client's hand book: the hands as its seat saw them equal the history cut to that seat.

A real match on 127.0.0.1; every message each client got is fed to a
``Session``.  Its ``HandBook`` must rebuild, hand by hand, exactly
``seen_record(history, seat)``: the same events, stacks and final stacks,
with no card the seat did not see (R-S1).  With open books, after the match
it holds the full records too.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from client.handbook import HandBook
from client.model import Session
from common.cards import RANK_CHARS, SUIT_CHARS, full_deck
from common.history import clean_record
from common.replay import hand_label, positions, seen_record, table_after
from common.schema import SeatView
from tests.clientkit import decoded, feed
from tests.serverkit import Client, cards_in, config, history, running
from tests.stacking import check_record, random_walk

pytestmark = pytest.mark.timeout(60)


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
    hands = history(tmp_path)
    for c in [*players, watcher]:
        session = Session(c.name)
        feed(session, c.log)
        book = session.book
        # The same record but for the time the hand began, which no message says.
        want = [{**clean_record(seen_record(r, c.seat)), "time": ""} for r in hands]
        assert book.finished() == want, c.name
        # Nothing in the seat's own records that it did not see at the table.
        for got, full in zip(book.finished(), hands, strict=True):
            allowed = {e["card"] for e in full["events"]
                       if e["ev"] == "deal" and (e["up"] or e["seat"] == c.seat)}  # fmt: skip
            allowed |= {x for e in full["events"] if e["ev"] == "show" for x in e["cards"]}
            assert cards_in(got) <= allowed
        if books and c is not watcher:
            assert book.opened() == [clean_record(r) for r in hands]
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


_DAMAGE = st.tuples(st.sampled_from(["drop", "copy", "set"]),
                    st.sampled_from(["events", "events", "seats", "final"]),
                    st.integers(0, 99), st.integers(0, 99),
                    st.sampled_from([None, True, -1, 999, "As", "x", [], ["As"]]))  # fmt: skip
"""A hostile server's damage to a hand: an event (seat, final stack) left out, sent twice,
or a value of it made any other (a card where a seat goes, ...)."""


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32), st.lists(_DAMAGE, max_size=3), st.none() | st.integers(0, 6))
@example(seed=0, damage=[], viewer=None)
@example(seed=0, damage=[("set", "final", 0, 0, [])], viewer=None)  # crashed clean_record
def test_any_books_record_either_is_refused_or_replays_without_error(seed, damage, viewer) -> None:
    """A hostile server's books never crash the replayer (STYLE: the window never crashes).
    ``viewer`` None: the open books' full record; else the hand as that seat saw it."""
    rng = random.Random(seed)  # a random legal hand, short stacks and all
    chips = {s: rng.randint(1, 150) for s in rng.sample(range(7), rng.randint(2, 7))}
    choices = [rng.random() for _ in range(999)]
    hand = random_walk(rng.sample(full_deck(), 52), chips, rng.randrange(7), 998, choices)
    raw = check_record(hand)  # as the history writes it
    raw = raw if viewer is None else seen_record(raw, viewer)
    for how, where, i, j, value in damage:
        items = raw[where] or [{}]
        item = items[i % len(items)]
        if how == "drop":
            items.remove(item)
        elif how == "copy":
            items.insert(j % len(items), dict(item))
        elif item:
            item[list(item)[j % len(item)]] = value
    try:
        rec = clean_record(raw)
    except ValueError as refused:  # as the connection logs and drops it
        event(f"refused: {refused}")
        return
    assert damage or rec == raw  # an undamaged hand passes whole
    event("replayed as sent" if rec["events"] == raw["events"] else "replayed once cleaned")
    hand_label(rec)
    stops = positions(rec)
    assert all(0 < p.upto <= len(rec["events"]) for p in stops)
    for upto in [0, *(p.upto for p in stops)]:  # each place the replayer stops
        view = table_after(rec, upto, viewer)
        SeatView.decode(view.encode())  # it reads back as the wire's views do
        # The replayer draws it as it is: every card in it is one the art can draw.
        for sv in view.seats.values():
            shown = sv.shown.cards + sv.shown.best if sv.shown else []
            for c in [*sv.up, *(sv.hole or []), *shown]:
                assert len(c) == 2 and c[0] in RANK_CHARS and c[1] in SUIT_CHARS, c
