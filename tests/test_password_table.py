"""A table with a password (issue 33 point 4): sealed by default.

Tables are real ``python -m server`` processes on 127.0.0.1 (``tests.serverproc``), or
in-process tables on a fake clock for the host's controls.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from server.hostctl import PLAIN_COST
from server.identity import load_identity
from tests.contract_client import ContractClient
from tests.serverkit import Link, clocked_table, config, settle
from tests.test_sealed_wire import serve
from tests.test_server_tls import SealedLink

pytestmark = pytest.mark.timeout(180)

PASSWORD = "swordfish-3307"
TABLE = "Sam's table"


# ------------------------------------------------------------------ point 4: sealed by default


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ((), "plain (unencrypted) connections are refused"),
        (("--plain", "allow"), f"plain (unencrypted) connections allowed: {PLAIN_COST}"),
    ],
    ids=["by-default-refused", "allowed-and-its-cost-said"],
)
def test_a_password_tables_plain_connections_are_refused_unless_the_host_allows_them(
    tmp_path: Path, options: tuple[str, ...], said: str
) -> None:
    """``stud-server`` with a password and nothing said of plain connections refuses a
    plain hello (``tls_required``, the reason in its words); ``--plain allow`` lets it
    in, the log warns what that costs, and the lobby says ``"plain": "allow"``."""
    srv = serve(tmp_path / "table", "--password", PASSWORD, "--computer", "1", *options)
    try:
        assert srv.says(said)
        c = ContractClient(srv.port)
        try:
            got = c.hello("Pat", password=PASSWORD)
            if not options:
                refused = (got["type"], got.get("code"), got.get("ref"))
                assert refused == ("error", "tls_required", "hello"), got
                assert "password" in got["message"] and c.closed_soon(10)
                assert not srv.said("Pat sits")
            else:
                assert got["type"] == "welcome", got
                lobby = c.recv_type("lobby", 10)
                assert lobby["plain"] == "allow"
        finally:
            c.close()
    finally:
        srv.terminate()


def test_the_terminal_says_the_choice_and_its_cost_and_every_lobby_follows(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The host's terminal at a table with a password: ``status`` says plain connections
    are refused; ``plain allow`` lets them in with a warning of the cost, in ``status``
    and the log, and every lobby says ``allow``; ``plain never`` again.  Without a
    password the lobby and ``status`` say nothing of them, as before."""

    async def scenario() -> None:
        table, _ = await clocked_table(config(tmp_path / "pw", password=PASSWORD))
        identity = load_identity(tmp_path / "key", "Test table")
        ann = SealedLink(table, identity, "Ann")
        assert ann.hello(password=PASSWORD)["seat"] == 0
        assert ann.last("lobby")["plain"] == "never"
        assert "plain connections never" in table.console("status")
        with caplog.at_level(logging.WARNING, logger="server.table"):
            assert table.console("plain allow") == "ok"
        assert PLAIN_COST in caplog.text
        assert f"plain connections allowed: {PLAIN_COST}" in table.console("status")
        await settle(table, ann)
        assert ann.last("lobby")["plain"] == "allow"
        assert table.console("plain never") == "ok"
        await settle(table, ann)
        assert ann.last("lobby")["plain"] == "never"
        table.shutdown()

        open_table, _ = await clocked_table(config(tmp_path / "open"))
        bob = Link(open_table, "Bob")
        assert bob.hello()["seat"] == 0
        assert "plain" not in bob.last("lobby")
        assert "plain" not in open_table.console("status")
        open_table.shutdown()

    asyncio.run(scenario())
