"""The host's role passes on (issue 16, item 5): clockwise (R-T0) to the next connected
person when the host leaves (at once) or is dropped past the grace (R-C1); the old host
comes back as a guest; ``make_host`` hands it on.  A table on a fake clock, no sockets.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from common.match import SeatKind
from common.presence import Presence
from server.seats import Seat, next_host
from tests.serverkit import Link, advance, clocked_table, config, run, seated, settle
from tests.test_server_reclaim import Night, night

pytestmark = pytest.mark.timeout(60)

GRACE = 5.0


async def four(tmp_path: Path) -> tuple[Night, list[Link]]:
    """Ann, Bob, Cat and Dan in seats 0 to 3 and a computer seat; Ann hosts."""
    n, links = await night(tmp_path, "Ann", "Bob", "Cat", "Dan", grace=GRACE)
    assert n.table.role.seat == 0 and links[0].of_type("welcome")[0]["host"] is True
    return n, links


def hosts(link: Link) -> list[int | None]:
    """Every ``host`` the link's lobbies said, changes only."""
    out: list[int | None] = []
    for m in link.of_type("lobby"):
        if not out or out[-1] != m["host"]:
            out.append(m["host"])
    return out


def test_next_host_goes_clockwise_from_the_old_host() -> None:
    def person(n: int, connected: bool = True) -> Seat:
        return Seat(n, f"p{n}", SeatKind.HUMAN, token="t", conn=object() if connected else None)  # type: ignore[arg-type]

    seats = {n: person(n) for n in (0, 2, 5)}
    seats[6] = Seat(6, "cpu", SeatKind.COMPUTER)
    assert next_host(seats, 2, but=2) == 5  # R-T0: increasing seat numbers
    assert next_host(seats, 5, but=5) == 0  # wrapping from 6 to 0, past a computer seat
    seats[0].conn = None
    assert next_host(seats, 5, but=5) == 2  # a dropped person is passed over
    seats[2].presence = Presence.TAKEN
    assert next_host(seats, 5, but=5) is None  # and one whose seat was taken away (R-C3)
    seats[2].presence = Presence.PLAYING
    assert next_host({5: person(5)}, 5, but=5) is None
    assert next_host(seats) == 2  # without ``after``: the lowest, as before


@run
async def test_a_dropped_host_keeps_the_role_for_the_grace_then_it_passes(tmp_path: Path) -> None:
    n, (ann, bob, cat, dan) = await four(tmp_path)
    table = n.table
    # Bob (seat 1) is dropped too: the role skips him to Cat (seat 2).
    bob.drop()
    ann.drop()
    await advance(table, n.clock, GRACE - 0.5, cat, dan)
    assert table.role.seat == 0, "within the grace the dropped host is still the host"
    await advance(table, n.clock, 0.5, cat, dan)
    assert table.role.seat == 2
    assert hosts(dan)[-2:] == [0, 2] and hosts(cat)[-1] == 2
    # Ann comes back with her token: an ordinary seat now.
    back = n.add(Link(table, "Ann"))
    welcome = back.hello(token=ann.token)
    assert welcome["seat"] == 0 and welcome["host"] is False
    assert back.last("lobby")["host"] == 2
    assert table.role.seat == 2
    # Cat hands the role back with one message; the others see it.
    cat.send({"type": "make_host", "seat": 0})
    await settle(table, *n.links)
    assert table.role.seat == 0 and dan.last("lobby")["host"] == 0
    # Only the host hands it on, and only to a connected person.
    cat.send({"type": "make_host", "seat": 2})
    await settle(table, *n.links)
    assert cat.last("error")["code"] == "not_host"
    for seat, code in ((1, "bad_seat"), (6, "bad_seat"), (0, "bad_seat")):
        back.send({"type": "make_host", "seat": seat})
        await settle(table, *n.links)
        assert back.last("error")["code"] == code
    assert table.role.seat == 0


@run
async def test_a_host_back_within_the_grace_stays_host(tmp_path: Path) -> None:
    n, (ann, bob, cat, dan) = await four(tmp_path)
    ann.drop()
    await advance(n.table, n.clock, GRACE / 2, bob)
    back = n.add(Link(n.table, "Ann"))
    assert back.hello(token=ann.token)["host"] is True
    await advance(n.table, n.clock, 3 * GRACE, bob)
    assert n.table.role.seat == 0 and set(hosts(bob)) == {0}


@run
async def test_a_host_who_leaves_hands_the_role_on_at_once(tmp_path: Path) -> None:
    n, (ann, bob, cat, dan) = await four(tmp_path)
    table = n.table
    bob.send({"type": "make_host", "seat": 3})  # not the host: refused, to Bob only
    await settle(table, *n.links)
    assert bob.last("error")["code"] == "not_host" and not dan.of_type("error")
    ann.send({"type": "make_host", "seat": 3})
    await settle(table, *n.links)
    assert table.role.seat == 3
    dan.send({"type": "leave"})
    await settle(table, *n.links)
    assert table.role.seat == 0  # the next connected person clockwise from seat 3 wraps to 0
    assert hosts(dan)[-2:] == [3, 0]
    assert ann.last("lobby")["host"] == 0
    # The match plays on.
    hand = table.dealer.hand_no
    await n.until(lambda: table.dealer.hand_no > hand)


@run
async def test_with_nobody_left_the_role_waits_for_the_first_person_back(tmp_path: Path) -> None:
    n, (ann, bob) = await night(tmp_path, grace=GRACE)
    table, clock = n.table, n.clock
    bob.drop()
    ann.drop()
    await advance(table, clock, GRACE + 1)
    assert table.role.seat is None
    assert "refused" not in table.console("pause")  # the terminal keeps its controls
    assert table.console("resume") == "ok"
    back = Link(table, "Bob")
    assert back.hello(token=bob.token)["host"] is True
    assert table.role.seat == 1
    assert table.console("host 0").startswith("refused")  # Ann is not connected
    again = Link(table, "Ann")
    again.hello(token=ann.token)
    await settle(table, back, again)
    assert table.console("host 0") == "ok" and again.last("lobby")["host"] == 0


@run
async def test_between_matches_a_leaving_host_passes_clockwise(tmp_path: Path) -> None:
    cfg = config(tmp_path, computer=1, hands=4)
    table, clock = await clocked_table(cfg)
    links = seated(table, "Ann", "Bob", "Cat")
    links[0].send({"type": "make_host", "seat": 1})
    await settle(table, *links)
    assert table.role.seat == 1
    links[1].send({"type": "leave"})
    await settle(table, *links)
    assert table.role.seat == 2 and links[0].last("lobby")["host"] == 2
