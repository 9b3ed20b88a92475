"""A friends' night in the pygame client (headless, 127.0.0.1 only, nothing announced):
a late arrival watches and sits in at the next match, the rematch is one key for
everyone, and the lobby and results show the night's scoreboard."""

from __future__ import annotations

from dataclasses import replace

import pytest

from common.protocol import PROTOCOL_VERSION
from common.protocol.server_messages import Night
from common.version import __version__
from tests.clientkit import Player, click, found_at, hosting, key, run, session_from, showing

pytestmark = pytest.mark.timeout(120)


def test_a_late_arrival_watches_then_plays_the_rematch(make_client) -> None:
    host = hosting(make_client("Hana"), name="Friday", password="swordfish")
    assert run([host], lambda: host.session.lobby.said is not None)
    assert host.session.lobby.table == "Friday" and host.session.lobby.night.played == 0
    assert host.server_kind == "host" and host.session.host and host.top().start.enabled
    key(host, "s", step=False)
    assert run([host], lambda: host.top().name == "table" and host.session.view is not None)
    guest = make_client("Gus", offscreen=True)
    guest.connect("127.0.0.1", host.server.port, password="swordfish")
    assert run([host, guest], lambda: guest.top().name == "table" and guest.session.view,
               [Player(host, 1)])  # fmt: skip
    s = guest.session
    assert s.seat == 1 and not s.watch and s.sits_out() and s.actions() == []
    assert all(sv.hole is None for sv in s.view.seats.values())  # nobody's hole cards
    guest.draw()
    assert run([host, guest], lambda: host.session.players.get(1) is not None, [Player(host, 1)])
    assert host.session.players[1].next  # the host's table shows Gus for the next match
    # The match ends; Gus presses R (ready: to the lobby), the host presses R (rematch).
    assert run([host, guest], showing("results", host, guest), [Player(host, 2)])
    assert guest.session.lobby.night.played == 1
    assert {t.name for t in guest.session.lobby.night.totals} == {"Hana", "Ada"}
    host.draw(), guest.draw()
    key(guest, "k", step=False)  # K, rematch (issue 17)
    assert run([host, guest], lambda: guest.top().name == "lobby")
    assert [p.next for p in guest.session.lobby.seats if p.name == "Gus"] == [True]
    guest.draw()
    key(guest, "s")  # only the host may start: a guest's S sends nothing
    assert not guest.session.host and not guest.top().press_start()
    assert guest.top().name == "lobby"
    key(host, "k", step=False)
    assert run(
        [host, guest],
        lambda: (
            guest.top().name == "table"
            and guest.session.view is not None
            and 1 in guest.session.view.seats
        ),
    )
    assert not guest.session.sits_out()
    assert run([host, guest], showing("results", host, guest), [Player(host, 3), Player(guest, 4)])
    night = host.session.lobby.night
    assert night.played == 2 and {t.name for t in night.totals} == {"Hana", "Gus", "Ada"}
    assert [t.matches for t in night.totals if t.name == "Gus"] == [1]
    assert host.session.standings == guest.session.standings
    assert [b.id for b in guest.top().buttons()] == ["rematch", "lobby", "leave", "replay", "recap"]
    key(host, "l", step=False)
    key(guest, "l", step=False)
    assert run([host, guest], showing("lobby", host, guest))
    host.draw()


def test_the_host_sets_a_computer_seats_level_gives_it_and_a_watcher_takes_it(make_client):
    host = hosting(make_client("Hana"), computers=6)
    assert run([host], lambda: len(host.session.lobby.seats) == 7)
    watcher = make_client("Cy", offscreen=True)
    # Found on the network: an older server's table is refused, a full one is watched.
    start = watcher.top()
    full = found_at(host.server.port, key="Friday._seventh-street._tcp.local.", name="Friday",
                    seats=7, free=0, version="0.1.0")  # fmt: skip
    start.join_found(replace(full, protocol=PROTOCOL_VERSION - 1))
    said = f"The table runs Seventh Street 0.1.0; this game is {__version__}: ask the host"
    assert watcher.session is None and start.errors["join"].startswith(said)
    start.join_found(full)
    assert run(
        [host, watcher], lambda: watcher.top().name == "lobby" and watcher.session.lobby.said
    )
    assert watcher.session.watch and watcher.session.seat is None
    assert watcher.top().sit not in watcher.top().buttons()  # the table is full
    lobby = host.top()
    # Issue 10: the host changes one computer seat's level in the lobby.
    assert lobby.cycle_level(6)  # regular -> shark
    levels = lambda: {p.seat: p.level for p in host.session.lobby.seats if p.kind == "computer"}  # noqa: E731
    assert run([host], lambda: levels() == {**{n: "regular" for n in range(1, 6)}, 6: "shark"})
    assert host.server.server.table.seats[6].brain.level.id == "shark"
    host.step(max_wait=0.01)  # the lobby draws its level buttons for the host
    assert {seat for seat, _ in lobby.level_chips} == {1, 2, 3, 4, 5, 6}
    give = [b for b in lobby.buttons() if b.id.startswith("give:")]
    assert [b.id for b in give] == [f"give:{s}" for s in (1, 2, 3, 4, 5, 6)]
    click(host, give[-1].rect, step=False)  # seat 6's computer gives its chair
    assert run(
        [host, watcher],
        lambda: len(watcher.session.lobby.seats) == 6 and len(host.session.lobby.seats) == 6,
    )
    assert watcher.top().sit in watcher.top().buttons()
    watcher.draw()
    click(watcher, watcher.top().sit.rect, step=False)
    assert run([host, watcher], lambda: watcher.session.seat is not None)
    assert run(
        [host, watcher],
        lambda: (
            [(p.name, p.kind) for p in host.session.lobby.seats if p.seat == 6] == [("Cy", "human")]
        ),
    )
    s = watcher.session
    assert s.seat == 6 and not s.watch and s.token


def test_the_night_from_the_wire_is_checked() -> None:
    assert Night.of(None) is None and Night.of([1]) is None
    night = Night.of({"played": "3", "matches": [5, {"number": 1, "winners": ["Ann", 7]}],
                         "totals": [{"name": "Ann", "net": 10**12, "wins": -1}, {"net": 5}],
                         "label": "x" * 500})  # fmt: skip
    assert night is not None and night.played == 1 and len(night.label) == 40
    assert night.matches[0].winners == ("Ann",)
    assert [(t.name, t.net, t.wins) for t in night.totals] == [("Ann", 10**9, 0)]
    s = session_from([{
        "type": "lobby", "seats": [{"seat": 0, "name": "Ann", "next": True}], "host": 0,
        "hands": 8, "can_start": False, "running": False, "table": "Friday",
        "night": {"played": 2, "totals": [{"name": "Ann", "net": 40, "wins": 1, "matches": 2}]},
    }])  # fmt: skip
    assert s.lobby.table == "Friday" and s.lobby.seats[0].next
    night = s.lobby.night
    assert night is not None and (ann := night.total_of("Ann")) is not None and ann.net == 40
