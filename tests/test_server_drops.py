"""R-C1 over real sockets: a seat gone for good plays the default to the end, and a link
that vanishes is found by the socket itself.  (The grace, the default and the comeback
to the second are ``tests/test_server_clocked.py``'s; a comeback's hole cards and a
token taking over a live seat are the contract's, ``tests/test_protocol_contract.py``.)"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.serverkit import UNIT, Client, config, run, running

pytestmark = pytest.mark.timeout(60)


@run
async def test_r_c1_dropped_seat_antes_and_folds_through_the_match(tmp_path: Path) -> None:
    """A seat gone for good keeps anteing and checks or folds on every turn; no chip is lost."""
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


def test_R_C1_links_give_up_on_a_peer_that_acknowledges_nothing(tmp_path: Path) -> None:
    """A player whose network vanished without a FIN is found out by the socket itself:
    keepalive probes an idle link, and TCP_USER_TIMEOUT (Linux) closes one whose
    heartbeats stay unacknowledged, so R-C1's grace starts within 20 s whatever the
    client sends."""
    import socket

    async def scenario() -> None:
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

    asyncio.run(scenario())
