"""Vanished links (R-C1) over real sockets, through ``tests.wiretap.WireTap`` (which
swallows everything without closing anything).  The grace and the comeback to the
second are ``tests/test_server_clocked.py``'s; a comeback's hole cards the contract's.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from client.net import Connection as ClientLink
from common.protocol import Act, Hello
from tests.hhcheck import problems
from tests.serverkit import UNIT, Client, config, history, run, running, until
from tests.wiretap import WireTap


class Driven:
    """The game's own connection thread (``client.net``), driven from the event loop:
    it answers its turns unless ``acting`` is off, and comes back with its token."""

    def __init__(self, name: str, port: int, **link: Any) -> None:
        self.name = name
        self.token: str | None = None
        self.seat: int | None = None
        self.msgs: list[Any] = []  # typed by the link (common.protocol.server_messages)
        self.states: list[Any] = []
        self.acting = True
        self.rng = random.Random(name)
        self.link = ClientLink("127.0.0.1", port, self._hello, **link)
        self._task: asyncio.Task[None] | None = None

    def _hello(self) -> dict[str, Any]:
        return Hello(name=self.name, token=self.token).encode()

    def start(self) -> None:
        self.link.start()
        self._task = asyncio.get_running_loop().create_task(self._pump())

    async def _pump(self) -> None:
        while True:
            for kind, item in self.link.poll():
                if kind == "status":
                    self.states.append(item)
                    continue
                self.msgs.append(item)
                if item.TYPE == "welcome":  # (decoded by the link: common.protocol.server_messages)
                    self.token, self.seat = item.token, item.seat
                if item.TYPE == "turn" and self.acting:
                    names = [a.action for a in item.legal]
                    pick = "call" if "call" in names else self.rng.choice(names)
                    self.link.send(Act(item.turn, pick).encode())
            await asyncio.sleep(UNIT / 5)

    async def until(self, test: Any, timeout: float = 60 * UNIT) -> Any:
        found = await until(lambda: test(self), timeout=timeout)
        assert found, f"{self.name}: not in time: {self.states[-3:]}"
        return found

    async def close(self) -> None:
        self.link.close()
        if self._task is not None:
            self._task.cancel()


def _said_silent(d: Driven) -> Any:
    return next(
        (s for s in d.states if s.state == "retrying" and s.message.startswith("no word")), None
    )


@run
async def test_R_C1_a_seat_whose_link_goes_black_mid_hand_is_dropped_and_comes_back(
    tmp_path: Path,
) -> None:
    """Not its turn, no FIN, no RST: dropped within the link timeout, back by token."""
    cfg = config(
        tmp_path,
        computer=1,
        start_when=3,
        hands=4,
        bot_delay=UNIT,
        heartbeat_every=2 * UNIT,
        link_timeout=12 * UNIT,
    )
    async with running(cfg) as (_server, port):
        proxy = WireTap(port).start()
        bob = Client("Bob")
        await bob.hello(port)
        # Ann's own client notices the silence later than the server does.
        ann = Driven(
            "Ann", proxy.port, ping_every=2 * UNIT, silence_limit=40 * UNIT,
            retry_every=2 * UNIT, retry_for=400 * UNIT,
        )  # fmt: skip
        ann.start()
        try:
            await ann.until(lambda d: d.seat is not None)
            turn = await bob.expect("turn", timeout=200 * UNIT)  # Bob's turn, not Ann's
            proxy.swallow()
            _, gone = await bob.seen("presence", seat=ann.seat, connected=False)
            assert gone["grace"] == cfg.grace
            assert proxy.swallowed > 0, "the server kept writing into the black hole"
            # Her client finds the silence too, says so, and comes back with its token.
            said = await ann.until(_said_silent)
            assert "no word from the server" in said.message
            await bob.seen("presence", seat=ann.seat, connected=True)
            await ann.until(lambda d: sum(m.TYPE == "welcome" for m in d.msgs) == 2)
            bob.send(Act(turn["turn"], turn["legal"][0]["action"]).encode())
            await bob.play()
            await ann.until(lambda d: any(m.TYPE == "standings" for m in d.msgs))
        finally:
            await ann.close()
            proxy.close()
    records = history(tmp_path)
    assert len(records) == 4
    assert [p for r in records if (p := problems(r))] == []


@run
async def test_R_C1_the_client_says_when_the_server_goes_silent(tmp_path: Path) -> None:
    cfg = config(tmp_path, heartbeat_every=2 * UNIT, link_timeout=200 * UNIT)
    async with running(cfg) as (server, port):
        proxy = WireTap(port).start()
        ann = Driven(
            "Ann", proxy.port, ping_every=2 * UNIT, silence_limit=10 * UNIT,
            retry_every=2 * UNIT, retry_for=400 * UNIT,
        )  # fmt: skip
        ann.start()
        try:
            await ann.until(lambda d: d.seat is not None)
            proxy.swallow()
            said = await ann.until(_said_silent)
            assert "no word from the server" in said.message
            # The link after it forwards again: a second welcome, the same name.
            await ann.until(lambda d: sum(m.TYPE == "welcome" for m in d.msgs) == 2)
            assert ann.msgs[-1].TYPE in ("lobby", "welcome")
            assert {c.name for c in server.table.conns if c.greeted} >= {"Ann"}
        finally:
            await ann.close()
            proxy.close()


@run
async def test_r_c1_dropped_seat_antes_and_folds_through_the_match(tmp_path: Path) -> None:
    cfg = config(tmp_path, computer=2, start_when=4, hands=4, grace=UNIT / 5)
    async with running(cfg) as (_server, port):
        stay, gone = Client("stay"), Client("gone")
        await gone.hello(port)
        await stay.hello(port)
        await gone.close()
        result = await stay.play()
        rows = {r["seat"]: r for r in result["standings"]}
        assert sum(r["stack"] for r in rows.values()) == 4 * 600
        assert rows[gone.seat]["stack"] < 600  # antes (R-D1) at the least


@run
async def test_R_C1_links_give_up_on_a_peer_that_acknowledges_nothing(tmp_path: Path) -> None:
    """Keepalive probes an idle link, TCP_USER_TIMEOUT closes one whose heartbeats stay
    unacknowledged: R-C1's grace starts within 20 s whatever the client sends."""
    async with running(config(tmp_path, link_timeout=15.0)) as (server, port):
        ann = Client("ann")
        await ann.hello(port)
        (conn,) = server.table.conns
        sock = conn.transport.get_extra_info("socket")
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 5
        if hasattr(socket, "TCP_USER_TIMEOUT"):
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == 15000
        await ann.close()


_NAMESPACE_SCRIPT = """
import asyncio, subprocess, sys, tempfile
from pathlib import Path
sys.path.insert(0, {root!r})
from server.app import TableServer
from server.config import ServerConfig
from tests.serverkit import Client, until

async def main():
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    cfg = ServerConfig(host="127.0.0.1", port=0, history_dir=Path(tempfile.mkdtemp()),
                       heartbeat_every=0.5, link_timeout=2.0, computer=1)
    server = TableServer(cfg)
    port = await server.start()
    await Client("Ann").hello(port)  # protocol 1, no heartbeat
    subprocess.run(["ip", "link", "set", "lo", "down"], check=True)  # nothing gets through
    seats = server.table.seats.values()
    gone = await until(lambda: all(s.kind.value != "human" for s in seats), timeout=60)
    print("DROPPED" if gone else "STILL SEATED")

asyncio.run(main())
"""


@pytest.mark.skipif(
    sys.platform != "linux" or shutil.which("unshare") is None or shutil.which("ip") is None,
    reason="needs Linux network namespaces (unshare, ip)",
)
def test_R_C1_a_quiet_protocol_1_clients_vanished_link_is_closed_by_the_socket() -> None:
    """``lo`` taken down under a seated client that never sends: TCP_USER_TIMEOUT lets
    its seat go in seconds, not the kernel's quarter of an hour."""
    root = str(Path(__file__).resolve().parent.parent)
    probe = subprocess.run(["unshare", "--net", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("cannot make a network namespace here")
    out = subprocess.run(
        ["unshare", "--net", sys.executable, "-c", _NAMESPACE_SCRIPT.format(root=root)],
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert out.stdout.strip() == "DROPPED", (out.stdout, out.stderr[-2000:])
