"""The game's side of a seat asked back by name and of the host's role passing on (issue 16):
the session follows ``host`` from every lobby, the host's prompt gives or refuses, the
asker's join refused for a lost seat offers to ask and then waits.  R-C1: the seat stays
its person's; R-C3: the host's word decides.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from client.model import Session
from client.net import Status
from client.render.picture import picture_of
from client.render.tablepaint import seat_tags
from client.seatkeys import SeatKeys, default_path
from tests import demo
from tests.clientkit import Player, feed, hosting, key, run, session_from
from tests.serverkit import Link, settle
from tests.test_server_host_role import four

pytestmark = pytest.mark.timeout(90)


def test_the_session_follows_the_host_from_every_lobby() -> None:
    s = session_from(demo.away_and_clock()[:2])  # welcome (seat 0, the host) and a lobby
    assert s.host
    lobby = demo.away_and_clock()[1]
    feed(s, [{"type": "seat_asked", "seat": 3, "name": "Cy", "open": True}])
    assert s.lobby.asks == {3: "Cy"}
    feed(s, [dict(lobby, host=5)])  # the role passed on: our controls go, and so do the asks
    assert not s.host and s.lobby.asks == {}
    assert s.log.lines[-1].text.endswith("is the host now")
    feed(s, [dict(lobby, host=0)])
    assert s.host and s.lobby.host_from == 5 and s.log.lines[-1].text == "You are the host now"


def test_the_host_gives_or_refuses_with_a_click_or_a_key(app) -> None:
    sent = app.sent
    feed(app, demo.away_and_clock())
    scene = app.top()
    assert scene.name == "table"
    ids = [b.id for b in scene._control_buttons()]
    assert "ask:give" not in ids
    feed(app, [{"type": "seat_asked", "seat": 3, "name": "Cy", "open": True}])
    rows = scene.panel.asks
    assert rows.lines == ["Cy asks for the seat back"]
    assert {"ask:give", "ask:refuse"} <= {b.id for b in scene._control_buttons()}
    # The prompt sits in the side panel: it covers no card and no plate.
    assert scene.lay.panel.contains(rows.box)
    for seat in scene.lay.spots:
        assert not rows.box.colliderect(scene.lay.seat_box(seat))
    app.draw()
    key(app, "G")
    assert sent[-1] == {"type": "give_seat", "seat": 3}
    assert "ask:give" not in [b.id for b in scene._control_buttons()]
    asked = {"type": "seat_asked", "seat": 3, "name": "Cy"}
    feed(app, [{**asked, "open": False}, {**asked, "open": True}])
    assert scene.control("ask:refuse")
    assert sent[-1] == {"type": "refuse_seat", "seat": 3}


def test_a_guest_sees_no_prompt_and_keys_do_nothing(app) -> None:
    sent = app.sent
    msgs = demo.away_and_clock()
    msgs[0] = dict(msgs[0], host=False)
    msgs[1] = dict(msgs[1], host=5)
    feed(app, msgs)
    feed(app, [{"type": "seat_asked", "seat": 3, "name": "Cy", "open": True}])  # stray
    scene = app.top()
    assert not app.session.host and not scene.panel.asks.lines
    key(app, "G")
    assert not [m for m in sent if m["type"] in ("give_seat", "refuse_seat")]


def test_the_asker_is_offered_to_ask_then_waits_and_reads_the_answer(app, monkeypatch) -> None:
    """A join refused with name_taken for a lost seat: "Ask for your seat back"."""
    joined: list[tuple] = []

    def connect(host, port, *, password="", watch=False, remember=""):
        joined.append((host, port, password, watch))
        app.link.session = Session("Ann")

    monkeypatch.setattr(app, "connect", connect)
    app.link.session = Session("Ann")
    app.link.password = "pw"
    monkeypatch.setattr(type(app.link), "address", property(lambda self: ("127.0.0.1", 7777)))
    feed(app, [{"type": "error", "code": "name_taken", "ref": "hello", "seat": 3,
                "message": "Ann is already at the table: choose another name"}])  # fmt: skip
    app.on_status(Status("failed", "Ann is already at the table: choose another name"))
    assert app.modal is not None and app.modal.kind == "ask_seat"
    app.modal.answer(True)
    assert joined == [("127.0.0.1", 7777, "pw", True)]
    assert app.session is not None and app.session.lobby.asking == 3
    sent = app.sent
    feed(app, [{"type": "welcome", "seat": None, "token": "", "name": "Ann", "host": False,
                "watch": True, "hands": 8}])  # fmt: skip
    assert sent == [{"type": "ask_seat", "seat": 3}]
    feed(app, demo.watching(demo.away_and_clock()[1:4]))
    feed(app, [{"type": "ask_answer", "seat": 3, "answer": "waiting", "message": "Waiting"}])
    scene = app.top()
    scene.resize(app.window_size)
    assert scene.name == "table" and app.session.seat is None
    assert scene.panel.asks.lines == ["Waiting for the host…"]
    assert sent == [{"type": "ask_seat", "seat": 3}]  # asked once
    feed(app, [{"type": "ask_answer", "seat": 3, "answer": "refused",
                "message": "The host did not give the seat back"}])  # fmt: skip
    assert scene.panel.asks.lines == ["The host did not give the seat back"]
    assert scene.control("ask:ok") is False and not scene.panel.asks.lines
    # An ask the server refuses outright (the seat came back meanwhile) says why.
    app.session.lobby.ask = (3, "waiting", "")
    feed(app, [{"type": "error", "code": "seat_connected", "ref": "ask_seat",
                "message": "seat 3 is connected: it is not lost"}])  # fmt: skip
    assert scene.panel.asks.lines == ["That seat's player is connected."]


def test_a_plain_name_clash_offers_nothing(app) -> None:
    app.link.session = Session("Ann")
    feed(app, [{"type": "error", "code": "name_taken", "ref": "hello",
                "message": "Ann is already at the table: choose another name"}])  # fmt: skip
    app.on_status(Status("failed", "Ann is already at the table: choose another name"))
    assert app.modal is None


def test_a_lost_seat_comes_back_on_the_hosts_click_over_a_real_table(make_client) -> None:
    """Two games and a computer seat; Gus's game loses its link and its token: a new game
    named Gus asks, the host clicks *Give it back*, and Gus plays his seat again."""
    host = hosting(make_client("Hana", grace=600.0), hands=12)  # Gus's turns wait (R-C1)
    gus = make_client("Gus", offscreen=True)
    gus.connect("127.0.0.1", host.server.port)
    assert run([host, gus], lambda: gus.top().name == "lobby" and gus.session.seat == 1)
    host.top().press_start()
    hana = Player(host, 3)
    assert run([host, gus], lambda: gus.top().name == "table" and gus.session.view, [hana])
    # Gus's game goes, token and all (another laptop: nothing of his on this one's disk).
    token = gus.session.token
    gus.leave_table(notice="", send_leave=False)
    assert SeatKeys(default_path()).forget(token)
    assert run([host], lambda: 1 in host.session.clocks.dropped, [hana])  # dropped, R-C1
    again = make_client("Gus", offscreen=True)
    again.connect("127.0.0.1", host.server.port)
    assert run([host, again], lambda: again.modal is not None, [hana])
    again.modal.answer(True)
    assert run([host, again], lambda: host.session.lobby.asks == {1: "Gus"}, [hana])
    assert again.session.seat is None and again.session.lobby.ask[1] == "waiting"
    host.top().control("ask:give")
    assert run([host, again], lambda: again.session.seat == 1 and not again.session.watch, [hana])
    assert again.session.token and again.session.lobby.ask[1] == "given"
    assert run([host, again], lambda: again.session.view and again.session.view.you == 1, [hana])


# ------------------------------------------------------------------ the host's role passes on
# The plates follow it (issue 33): the ``lobby`` every connection is sent when the host
# changes (docs/protocol.md) moves the "host" tag at once, not at the next ``table``.  A real
# table on a fake clock; its frames fed to a client ``Session`` in order.


def session_until(link: Link, done: Any) -> Session:
    """``link``'s frames applied to a fresh session, up to the first that makes ``done``."""
    session = Session(link.name)
    for msg in link.log:
        feed(session, [msg])
        if done(msg):
            return session
    raise AssertionError(f"{link.name} was never sent it")


def words(session: Session, seat: int) -> list[str]:
    pic = picture_of(session, 0.0)
    return [w for w, _colour in seat_tags(pic, seat, own=seat == session.seat)]


def test_a_new_hosts_plate_says_host_as_soon_as_the_role_passes(tmp_path: Path) -> None:
    """R-T0: Ann (the host, seat 0) leaves mid-hand; Bob (seat 1, next clockwise) is the
    host.  Before any new ``table`` comes, Bob's log says so and the plates agree: "host"
    on Bob's, not on Ann's (away now)."""

    async def scenario() -> tuple[Link, Link]:
        n, (ann, bob, cat, dan) = await four(tmp_path)
        ann.send({"type": "leave"})
        await settle(n.table, *n.links)
        assert n.table.role.seat == 1
        return bob, cat

    bob, cat = asyncio.run(scenario())
    passed = lambda m: m.get("type") == "lobby" and m.get("host") == 1  # noqa: E731
    for link in (bob, cat):
        session = session_until(link, passed)
        assert session.view is not None and session.running  # mid-hand, no new table yet
        assert "host" not in words(session, 0), words(session, 0)
        assert "host" in words(session, 1), words(session, 1)
        assert [p.seat for p in session.players.values() if p.host] == [1]
    bob_session = session_until(bob, passed)
    assert bob_session.host and bob_session.log.lines[-1].text == "You are the host now"
    # Everything Bob was sent after it says the same.
    everything = session_until(bob, lambda m: m is bob.log[-1])
    assert "host" not in words(everything, 0) and "host" in words(everything, 1)
    assert "away" in words(everything, 0)  # Ann left: her seat plays on by the default
