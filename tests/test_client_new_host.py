"""The seat plates follow the host's role as it passes on (issue 33): the ``lobby`` every
connection is sent when the host changes (docs/protocol.md, "The host's role passes on")
moves the "host" tag at once, not at the next ``table``.  A real table on a fake clock; its
frames fed to a client ``Session`` in order."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from client.model import Session
from client.render.picture import picture_of
from client.render.tablepaint import seat_tags
from tests.clientkit import feed
from tests.serverkit import Link, settle
from tests.test_server_host_role import four

pytestmark = pytest.mark.timeout(60)


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
