"""The client's side of R-C2..R-C4, headless (SDL_VIDEODRIVER=dummy), against a real
in-process server on 127.0.0.1: the host's clock options in the lobby, the clock and bank
at the table, the away button and "I'm back", and the host's pause and take-a-seat-away.

Input goes through the real loop (keys posted to the app, buttons pressed through the
scene); assertions look at sessions, scenes and buttons, and every state is drawn.
"""

from __future__ import annotations

import contextlib

import pytest

from client.app import App
from client.model import Session
from common.events import ProtocolError
from common.protocol.server_messages import TableOptions
from tests import demo
from tests.clientkit import Player, click, decoded, feed, hosting, key, resize, run, showing

pytestmark = pytest.mark.timeout(120)


def ids(app: App) -> list[str]:
    return [b.id for b in app.top()._control_buttons()]


def drawn(*apps: App) -> None:
    for app in apps:
        app.draw()
        assert not app._faults, app._faults


def test_r_c2_r_c3_r_c4_clock_away_and_host_controls_in_the_client(make_client) -> None:
    host = hosting(make_client("Hana"), hands=8)
    guest = make_client("Gus", offscreen=True)
    guest.connect("127.0.0.1", host.server.port)
    assert run([host, guest], lambda: guest.top().name == "lobby" and guest.session.lobby.said)
    # The lobby: the host's clock choices are the table's (R-C4); the guest reads them.
    lobby = host.top()
    assert lobby.choices.turn_time.value == 30 and lobby.choices.time_bank.value == 90
    assert guest.session.lobby.options == TableOptions(30.0, 90.0, stand_in=False)
    click(host, lobby.choices.time_bank.cells()[1])  # 30 s
    click(host, lobby.choices.stand_in.rect)
    # Two choices, two lobbies: the guest reads both once the second has come.
    assert run([host, guest], lambda: guest.session.lobby.options == TableOptions(30.0, 30.0, True))
    assert host.settings.host_time_bank == 30 and host.settings.host_stand_in
    drawn(host, guest)
    key(host, "s", step=False)
    assert run([host, guest], showing("table", host, guest))
    gus = Player(guest, 2)

    # Our turn: the clock and the bank show, and count down from the table's settings.
    assert run([host, guest], lambda: host.session.my_turn(), [gus])
    s = host.session
    decision, bank = s.clock_left(s.seat, host.now())
    assert 0 < decision <= 30 and bank == 30
    # ... the guest sees the host's clock on its plate too (a ``clock`` message).
    assert run([host, guest], lambda: guest.session.clocks.turn is not None, [gus])
    assert guest.session.clocks.turn.seat == s.seat
    drawn(host, guest)
    # The host has the away button and the host's controls; the guest only the away one.
    assert ids(host) == ["away", "pause", "take"]
    assert ids(guest) == ["away"]

    # R-C2: step away by key; everyone sees it; the bar offers "I'm back".
    key(host, "a", step=False)
    assert run([host, guest], lambda: guest.session.players[0].away and host.session.away(), [gus])
    assert host.session.away() and "back" in ids(host)
    assert host.top().controls.away.label == "I'm back"
    assert guest.session.players[0].stand_in  # the host chose a stand-in
    drawn(host, guest)
    hand = host.session.hand
    assert run([host, guest], lambda: host.session.hand > hand, [gus])  # the table plays on
    key(host, "a", step=False)
    assert run(
        [host, guest], lambda: not guest.session.players[0].away and not host.session.away(), [gus]
    )
    assert not host.session.away() and host.top().controls.away.label == "Step away"

    # R-C3: the host pauses by key; the guest sees it; no new hand until resume.
    hana = Player(host, 1)
    key(host, "p", step=False)
    paused = lambda app: app.session.clocks.paused  # noqa: E731
    assert run([host, guest], lambda: paused(guest) and paused(host), [gus, hana])
    assert host.top().controls.pause.label == "Resume"
    drawn(host, guest)
    assert run([host, guest], lambda: guest.session.view.over, [gus, hana])
    hand = guest.session.hand
    run([host, guest], lambda: False, [gus, hana], timeout=0.5)
    assert guest.session.hand == hand and guest.session.view.over
    key(host, "p", step=False)
    assert run([host, guest], lambda: not paused(guest) and not paused(host), [gus, hana])
    assert run([host, guest], lambda: guest.session.hand > hand, [gus, hana])

    # R-C3: the host takes Gus's seat away (pressed twice: a mistake is cheap to undo).
    scene = host.top()
    scene.control("take")
    assert [b.id for b in scene.controls.take_buttons] == ["take:1", "take:cancel"]
    drawn(host)
    scene.control("take:1")
    assert scene.controls.take_buttons[0].label == "Take Gus's seat?"
    scene.control("take:1")
    assert run([host, guest], lambda: guest.session.players[1].away_why == "taken", [gus, hana])
    assert ids(guest) == []  # Gus can only watch now
    drawn(host, guest)
    assert run([host, guest], lambda: host.top().name == "results", [hana], timeout=90)
    assert sum(r.stack for r in host.session.standings) == 3 * 600


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
