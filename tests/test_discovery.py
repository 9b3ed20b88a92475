"""Tables announce themselves with DNS-SD and the client's finder lists them.

Every test here multicasts, so each runs in a private network namespace of its
own (``tests.netns``): loopback only, zeroconf bound to 127.0.0.1.  Servers
run in threads (``run_in_thread``) as the pygame client hosts them.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from client.discovery import FoundTable, TableFinder, parse_facts
from common.protocol import PROTOCOL_VERSION
from common.version import __version__
from server.app import run_in_thread
from tests.netns import ROOT, in_netns
from tests.serverkit import Client, config, wait_until

pytestmark = pytest.mark.timeout(120)


def wait_for(
    finder: TableFinder, done: Callable[[list[FoundTable]], bool], what: str, timeout: float = 20.0
) -> list[FoundTable]:
    tables: list[FoundTable] = []

    def found() -> bool:
        tables[:] = finder.tables()
        return done(tables)

    assert wait_until(found, timeout=timeout), f"no {what} in {timeout}s; the finder has {tables}"
    return tables


def test_tables_are_announced_followed_and_withdrawn(request, tmp_path: Path) -> None:
    """Three tables, two of them named Friday, one ``stud-server --name Friday``
    (announcing is its default): the list is sorted by name, same-named tables stay
    apart, a table's facts follow its seats and its match, and each goes when it stops,
    the headless one at Ctrl-C."""
    if not in_netns(request):
        return
    friday = run_in_thread(
        config(
            tmp_path / "a", name="Friday", announce=True, password="swordfish",
            plain="allow",  # its people here speak plain frames
            hands=8, computer=1, hand_pause=30,
        )
    )  # fmt: skip
    den = run_in_thread(config(tmp_path / "b", name="Den", announce=True, computer=3))
    headless = subprocess.Popen(
        [sys.executable, "-m", "server", "--name", "Friday", "--port", "0", "--computer", "2",
         "--history-dir", str(tmp_path / "c")],
        cwd=ROOT, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    finder = TableFinder()
    assert finder.start()

    def ours() -> FoundTable | None:
        return next((t for t in finder.tables() if t.port == friday.port), None)

    try:
        tables = wait_for(finder, lambda ts: len(ts) == 3, "three tables")
        assert [t.name for t in tables] == ["Den", "Friday", "Friday"]  # sorted by name
        assert (tables[0].port, tables[0].seats, tables[0].free) == (den.port, 3, 4)
        (other,) = [t for t in tables[1:] if t.port != friday.port]
        assert (other.seats, other.free, other.password, other.running) == (2, 5, False, False)
        t = ours()
        assert t is not None and t.host == "127.0.0.1"
        assert (t.seats, t.free, t.people) == (1, 6, 0)  # the computer seat
        assert t.password and not t.running and (t.hand, t.hands) == (0, 8)
        assert (t.protocol, t.version) == (PROTOCOL_VERSION, __version__) and t.compatible

        async def sit_and_start() -> None:
            ann = Client("Ann")
            await ann.hello(friday.port, password="swordfish")
            await asyncio.to_thread(
                wait_for, finder, lambda ts: getattr(ours(), "seats", 0) == 2, "a seat"
            )
            t = ours()
            assert t is not None and (t.seats, t.free, t.people, t.running) == (2, 5, 1, False)
            ann.send({"type": "start"})
            await ann.expect("match_start")
            await asyncio.to_thread(
                wait_for, finder, lambda ts: getattr(ours(), "running", False), "a match"
            )
            t = ours()
            assert t is not None and t.running and t.hand == 1 and t.hands == 8
            await ann.close()

        asyncio.run(sit_and_start())
        friday.stop()
        tables = wait_for(finder, lambda ts: len(ts) == 2, "the first Friday gone")
        assert [(t.name, t.seats) for t in tables] == [("Den", 3), ("Friday", 2)]
        headless.send_signal(signal.SIGINT)
        assert headless.wait(15) == 0
        wait_for(finder, lambda ts: len(ts) == 1, "the headless Friday gone")
    finally:
        friday.stop()
        den.stop()
        headless.kill()
        headless.wait()
        finder.close()


def test_malformed_announcements_are_skipped() -> None:
    good = {b"name": b"Friday", b"seats": b"2", b"free": b"5", b"hands": b"8", b"proto": b"1"}
    t = parse_facts("Friday._seventh-street._tcp.local.", good, ["127.0.0.1"], 7777)
    assert t is not None and t.name == "Friday" and not t.password and not t.running
    assert parse_facts("x", {**good, b"seats": b"lots"}, ["127.0.0.1"], 7777) is None
    assert parse_facts("x", {**good, b"free": b"99"}, ["127.0.0.1"], 7777) is None
    assert parse_facts("x", {**good, b"name": b"\xff\xfe"}, ["127.0.0.1"], 7777).name == "x"
    assert parse_facts("x", good, ["fe80::1"], 7777) is None  # no IPv4 address
    assert parse_facts("x", good, ["127.0.0.1"], 0) is None
    # A host on a VPN or with a container bridge: the address on our network is dialled.
    many = ["10.8.0.1", "172.17.0.1", "192.168.1.20"]
    assert parse_facts("x", good, many, 7777, ["192.168.1.7"]).host == "192.168.1.20"
    assert parse_facts("x", good, many, 7777).host == "10.8.0.1"
    assert (
        parse_facts("x", {k: v for k, v in good.items() if k != b"proto"}, ["10.0.0.2"], 1) is None
    )


def test_nothing_is_announced_when_mdns_is_off(tmp_path: Path, caplog) -> None:
    """The suite's default: a server asked to announce says why it does not, and serves."""
    import os

    assert os.environ.get("STUD_MDNS") == "off"
    handle = run_in_thread(config(tmp_path, announce=True))
    try:
        assert handle.server.announcer is None
        assert not TableFinder().start()
    finally:
        handle.stop()


def test_a_server_on_chosen_addresses_announces_on_those_only(monkeypatch) -> None:
    # A table bound to 127.0.0.1 (tests, benchmarks, --host) is never announced on
    # the machine's other interfaces; only one on every interface announces on all.
    from zeroconf import InterfaceChoice

    from server.announce import mdns_interfaces

    monkeypatch.delenv("STUD_MDNS_IFACES", raising=False)
    assert mdns_interfaces(["127.0.0.1"]) == ["127.0.0.1"]
    assert mdns_interfaces(["::1"]) == ["127.0.0.1"]
    assert mdns_interfaces(["0.0.0.0", "::"]) == InterfaceChoice.All
    monkeypatch.setenv("STUD_MDNS_IFACES", "127.0.0.1")
    assert mdns_interfaces(["0.0.0.0"]) == ["127.0.0.1"]
