"""A friends' night in the pygame client (headless, 127.0.0.1 only, nothing announced):
a late arrival watches and sits in at the next match, the rematch is one key for
everyone, and the lobby and results show the night's scoreboard."""

from __future__ import annotations

import pytest

from tests.test_client_app import Player, make_app, press, run  # noqa: F401 (fixture)

pytestmark = pytest.mark.timeout(120)


def test_a_late_arrival_watches_then_plays_the_rematch(make_app) -> None:  # noqa: F811
    host = make_app("Hana")
    host.host_table(hands=4, computers=1, password="", port=0, bind="127.0.0.1", name="Friday")
    assert run([host], lambda: host.top().name == "lobby" and host.session.lobby is not None)
    assert host.session.table_name == "Friday" and host.session.night.played == 0
    press(host, "s")
    assert run([host], lambda: host.top().name == "table" and host.session.view is not None)
    guest = make_app("Gus", offscreen=True)
    guest.connect("127.0.0.1", host.server.port)
    assert run(
        [host, guest],
        lambda: guest.top().name == "table" and guest.session.view is not None,
        [Player(host, 1)],
    )
    s = guest.session
    assert s.seat == 1 and not s.watch and s.sits_out() and s.actions() == []
    assert all(sv.hole is None for sv in s.view.seats.values())  # nobody's hole cards
    guest.draw()
    assert run([host, guest], lambda: host.session.players.get(1) is not None, [Player(host, 1)])
    assert host.session.players[1].next  # the host's table shows Gus for the next match
    # The match ends; Gus presses R (ready: to the lobby), the host presses R (rematch).
    assert run(
        [host, guest],
        lambda: host.top().name == "results" and guest.top().name == "results",
        [Player(host, 2)],
    )
    assert guest.session.night.played == 1
    assert {t.name for t in guest.session.night.totals} == {"Hana", "Ada"}
    host.draw(), guest.draw()
    press(guest, "r")
    assert run([host, guest], lambda: guest.top().name == "lobby")
    assert [p.next for p in guest.session.lobby_seats if p.name == "Gus"] == [True]
    guest.draw()
    press(host, "r")
    assert run(
        [host, guest],
        lambda: (
            guest.top().name == "table"
            and guest.session.view is not None
            and 1 in guest.session.view.seats
        ),
    )
    assert not guest.session.sits_out()
    assert run(
        [host, guest],
        lambda: host.top().name == "results" and guest.top().name == "results",
        [Player(host, 3), Player(guest, 4)],
    )
    night = host.session.night
    assert night.played == 2 and {t.name for t in night.totals} == {"Hana", "Gus", "Ada"}
    assert [t.matches for t in night.totals if t.name == "Gus"] == [1]
    press(host, "l")
    assert run([host], lambda: host.top().name == "lobby")
    host.draw()
