"""The Join panel as a newcomer reads it (issue 33): a table where this game keeps a seat
to take back says so on its row ("your seat ›"), never "next match ›"."""

from __future__ import annotations

import dataclasses

import pygame
import pytest

from client.discovery import FoundTable
from client.render import tablelist
from client.seatkeys import SeatKey
from tests.demo import DemoFinder
from tests.drawn import words_drawn


def table(name: str, host: str, **kw: object) -> FoundTable:
    base = FoundTable(f"{name}._x", name, host, 7777, seats=4, free=3, people=2, password=False,
                      running=True, hand=3, hands=8, protocol=2, version="1")  # fmt: skip
    return dataclasses.replace(base, **kw)


def labels(app, size=(1280, 800)) -> dict[str, str]:
    """Each row's name and the words at its right end (what a click does)."""
    start = app.top()
    start.resize(size)
    start.update(0.0)
    out = {}
    for scroll in range(len(start.found.tables)):  # two rows show at once: scroll them by
        start.found.scroll = scroll
        start.found.clamp()
        with words_drawn(tablelist) as drawn:
            start.found.draw(pygame.Surface(size))
        for t, row in start.found.rows():
            inside = [(w, r) for w, r in drawn if row.contains(r)]
            out[t.name] = max(inside, key=lambda wr: wr[1].right)[0]
    return out


def keep(app, host: str, *, match: str | None = "m-1", name: str = "Ann") -> None:
    app.link.keys.keep(SeatKey(host=host, ip=host, port=7777, name=name, token=f"tok-{host}",
                               match=match, seat=2))  # fmt: skip


def test_a_table_that_keeps_our_seat_reads_as_a_comeback_and_only_that(app) -> None:
    """R-C1: our game crashed mid-match; its token is kept.  The table's row offers our seat
    back (a full table's too); a table running a match where we hold nothing still offers
    the next match.  A key kept under another name is another person's seat; a key without
    a match (a lobby's) or at a table between matches holds nothing: a seat dropped between
    matches is freed."""
    app.finder = DemoFinder([table("Den", "10.0.0.5"), table("Kitchen", "10.0.0.6"),
                             table("Full", "10.0.0.7", seats=7, free=0),
                             table("Bob's", "10.0.0.8"), table("Early", "10.0.0.9"),
                             table("Lobby", "10.0.0.10", running=False, hand=0)])  # fmt: skip
    keep(app, "10.0.0.5")
    keep(app, "10.0.0.7")
    keep(app, "10.0.0.8", name="Bob")
    keep(app, "10.0.0.9", match=None)
    keep(app, "10.0.0.10")
    ours, nothing = "your seat ›", "next match ›"
    want = {"Den": ours, "Full": ours, "Lobby": "Join ›"}
    assert labels(app) == {**want, "Kitchen": nothing, "Bob's": nothing, "Early": nothing}
    app.top().name_in.value = "Bob"  # the name typed is the one a join says
    assert labels(app)["Bob's"] == ours


@pytest.mark.parametrize("size", [(800, 500), (1280, 800), (1600, 1000)])
def test_the_comeback_row_keeps_its_words_inside_the_row(app, size) -> None:
    app.finder = DemoFinder([table("A table with a long name for a small window", "10.0.0.5")])
    keep(app, "10.0.0.5")
    start = app.top()
    start.resize(size)
    start.update(0.0)
    with words_drawn(tablelist) as drawn:
        start.found.draw(pygame.Surface(size))
    ((_t, row),) = start.found.rows()
    assert "your seat ›" in [w for w, _r in drawn], drawn
    for words, rect in drawn:
        assert row.contains(rect), (size, words, rect, row)
    said = [r for w, r in drawn if w == "your seat ›"][0]
    name = [r for w, r in drawn if w.startswith("A table")][0]
    assert not said.colliderect(name)
