"""The client's side of R-C2..R-C4, headless (SDL_VIDEODRIVER=dummy): the clock and bank
at the table, the away button and "I'm back", and the host's pause and take-a-seat-away.
(The host's clock options in the lobby: tests/test_client_hosting.py; what the table does
with each message: tests/test_rules_away.py and tests/test_server_clocked.py.)

The game's link is the ``app`` fixture's: keys go through the real loop, what they send is
read off ``app.sent``, and the table's answers are fed back; every state is drawn.
"""

from __future__ import annotations

import contextlib

import pytest

from client.app import App
from client.model import Session
from common.events import ProtocolError
from tests import demo
from tests.clientkit import decoded, feed, key, resize

pytestmark = pytest.mark.timeout(60)


def ids(app: App) -> list[str]:
    return [b.id for b in app.top()._control_buttons()]


def drawn(app: App) -> None:
    app.draw()
    assert not app._faults, app._faults


def away(seat: int, now: bool, why: str | None = "asked") -> dict:
    return {"type": "seat_away", "seat": seat, "away": now, "why": why, "stand_in": now}


def test_r_c2_r_c3_r_c4_clock_away_and_host_controls_in_the_client(app) -> None:
    # Our turn on the time bank (R-C4): the clock and the bank show and count down.
    feed(app, [m for m in demo.away_and_clock() if m["type"] != "seat_away"])
    s, scene = app.session, app.top()
    decision, bank = s.clock_left(0, app.now())
    assert decision == 0 and 61 < bank <= 62
    assert s.clocks.turn.seat == 0  # the ``clock`` message: on our plate, as on everyone's
    drawn(app)
    # The host has the away button and the host's controls (a guest: tests below).
    assert ids(app) == ["away", "pause", "take"]
    # R-C2: step away by key; the table says so; the bar offers "I'm back".
    key(app, "a")
    assert app.sent[-1] == {"type": "away"}
    feed(app, [away(0, True)])
    assert s.away() and "back" in ids(app) and scene.controls.away.label == "I'm back"
    assert s.players[0].stand_in  # the host chose a stand-in
    drawn(app)
    key(app, "a")
    assert app.sent[-1] == {"type": "back"}
    feed(app, [away(0, False, None)])
    assert not s.away() and scene.controls.away.label == "Step away"
    # R-C3: the host pauses by key, and resumes.
    key(app, "p")
    assert app.sent[-1] == {"type": "pause"}
    feed(app, [{"type": "paused", "paused": True, "name": "Ann"}])
    assert s.clocks.paused and scene.controls.pause.label == "Resume"
    drawn(app)
    key(app, "p")
    assert app.sent[-1] == {"type": "resume"}
    # R-C3: the host takes Cy's seat away (pressed twice: a mistake is cheap to undo).
    scene.control("take")
    assert [b.id for b in scene.controls.take_buttons] == ["take:3", "take:6", "take:cancel"]
    drawn(app)
    scene.control("take:3")
    assert scene.controls.take_buttons[0].label == "Take Cy's seat?"
    assert app.sent[-1] == {"type": "resume"}  # nothing sent yet
    scene.control("take:3")
    assert app.sent[-1] == {"type": "take_seat", "seat": 3}
    feed(app, [away(3, True, "taken")])
    assert s.players[3].away_why == "taken"
    drawn(app)


def test_r_c2_r_c3_a_guest_has_only_the_away_button_and_none_once_taken(app) -> None:
    msgs = demo.away_and_clock()
    msgs[0] = {**msgs[0], "host": False}
    msgs[1] = {**msgs[1], "host": 5}
    feed(app, msgs)
    assert ids(app) == ["away"]
    feed(app, [away(0, True, "taken")])
    assert ids(app) == []  # we can only watch now
    key(app, "a")
    assert app.sent == []
    drawn(app)


@pytest.mark.parametrize(
    "msg",
    [
        {"type": "clock", "seat": 0, "turn": 41, "time_left": float("inf"), "bank": 1.0},
        {"type": "clock", "seat": 9, "turn": 41, "time_left": 3.0, "bank": 1.0},
        {"type": "clock", "seat": 0, "turn": "x", "time_left": float("nan")},
        {"type": "seat_away", "seat": "0", "away": True},
        {"type": "seat_away", "seat": 6, "away": "yes", "why": 7, "stand_in": []},
        {"type": "paused", "paused": "no", "name": 12},
        {"type": "lobby", "seats": [], "options": {"turn_time": float("inf"), "time_bank": -3}},
    ],
)
def test_odd_values_in_the_new_messages_never_reach_the_drawing(app, msg) -> None:
    """A bad ``clock``, ``seat_away``, ``paused`` or lobby ``options`` is dropped or read as
    harmless values; the table still draws."""
    s = Session("Ann")
    feed(s, demo.away_and_clock(), now=1.0)
    with contextlib.suppress(ProtocolError):  # dropped whole, or read as harmless values
        s.apply(decoded(msg), now=2.0)
    left = s.clock_left(0, now=3.0)
    assert left is None or all(0 <= v < 10**6 for v in left)
    resize(app, (1024, 640))
    feed(app, demo.away_and_clock())
    with contextlib.suppress(ProtocolError):
        app.on_message(decoded(msg))
    app.draw()
    assert not app._faults
