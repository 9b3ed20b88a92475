"""Issue 33 point 1, the game's side: while the table waits for the host's disk the game
says why, at the table and in the lobby, and offers no action (the server would refuse
it, ``table_waits``); once the table goes on, the buttons are back."""

from __future__ import annotations

from tests import demo
from tests.clientkit import feed, session_from

WAITS = {"type": "waiting", "waiting": True, "why": "disk_full", "message": "x"}
GOES_ON = {"type": "waiting", "waiting": False, "why": "", "message": ""}


def test_the_session_says_why_the_table_waits_and_when_it_goes_on() -> None:
    s = session_from(demo.mid_hand())
    feed(s, [WAITS])
    assert s.clocks.waiting == "The host's disk is full: the table waits until it can save"
    feed(s, [{**WAITS, "why": "something new"}])  # a code this game does not know
    assert s.clocks.waiting == "The host cannot save the match: the table waits until it can"
    feed(s, [GOES_ON])
    assert s.clocks.waiting is None
    assert [line.text for line in s.log.lines][-3:] == [
        "The host's disk is full: the table waits until it can save",
        "The host cannot save the match: the table waits until it can",
        "The host can save again: the table plays on",
    ]


def test_no_button_while_the_table_waits(app) -> None:
    feed(app, demo.mid_hand())
    scene = app.top()
    assert {b.id for b in scene.bar.buttons} == {"fold", "call", "raise"}  # our turn
    feed(app, [WAITS])
    assert scene.bar.buttons == []
    app.draw()
    feed(app, [GOES_ON])
    assert {b.id for b in scene.bar.buttons} == {"fold", "call", "raise"}
