"""The password proof end to end: the game's client (``client.net``, sealed) and a real
table server over loopback, the server's TLS (``server.net``, ``server.identity``) and
its way in (``server.hello``) together."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from client.net import WRONG_PASSWORD, Connection, TableKey
from tests.clientkit import failed, polled
from tests.serverkit import config, run, running

pytest.importorskip("server.identity", reason="the server's sealed wire (server.net's TLS)")

pytestmark = pytest.mark.timeout(60)


async def _join(conn: Connection, done: Any) -> list[Any]:
    """Run ``conn`` until ``done(seen)`` (seen: what its thread reported)."""
    conn.start()
    seen = await asyncio.to_thread(polled, conn, done, 20.0)  # the table serves meanwhile
    conn.close()
    return seen


def _welcome(seen: list[Any]) -> dict[str, Any] | None:
    return next((m for k, m in seen if k == "msg" and m.TYPE == "welcome"), None)


def _hello(password: str) -> Any:
    return lambda: {"type": "hello", "protocol": 2, "name": "Ann", "password": password}


@run
async def test_the_game_proves_the_password_to_a_real_table(tmp_path: Path) -> None:
    async with running(config(tmp_path, password="swordfish")) as (server, port):
        keys: list[TableKey] = []

        def check(key: TableKey) -> None:
            keys.append(key)

        conn = Connection("127.0.0.1", port, _hello("swordfish"), check_key=check)
        seen = await _join(conn, lambda s: _welcome(s) is not None)
        welcome = _welcome(seen)
        assert welcome is not None and welcome.seat == 0, seen
        assert server.identity is not None
        assert [k.fingerprint for k in keys] == [server.identity.fingerprint]
        # The proof finished: the address owes no wait.
        assert server.table.door.wait_left("127.0.0.1", server.table.clock.now()) == 0


@run
async def test_a_wrong_password_is_refused_by_the_table(tmp_path: Path) -> None:
    async with running(config(tmp_path, password="swordfish")) as (server, port):
        conn = Connection("127.0.0.1", port, _hello("marlin"), retry_for=0.0)
        seen = await _join(conn, lambda s: failed(s) is not None)
        status = failed(seen)
        # The table's half already fails on the client's side: it hangs up first, and
        # the table's password mac says it is a wrong password, not a relay.
        assert status is not None and status.code == "bad_password", seen
        assert status.message == WRONG_PASSWORD and "middle" not in status.message
        assert _welcome(seen) is None
        assert server.table.door.wait_left("127.0.0.1", server.table.clock.now()) > 0
