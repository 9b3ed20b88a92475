"""A table with a password (issue 33 points 4, 5 and 7): sealed by default, its key kept
by the game only once it proved it knows the password, and the password kept beside a
seat's token said by every hello, the automatic reconnects' too.

Real ``python -m server`` processes, a table on a fake clock for the host's controls,
a man in the middle (``tests.wiretap.Middle``) and the headless game, as in
``tests/test_sealed_wire.py``.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pygame
import pytest

from client.app import App
from client.settings import Settings
from common.seal import key_fingerprint
from server.hostctl import PLAIN_COST
from server.identity import load_identity
from tests.clientkit import run
from tests.serverkit import Client, SealedLink, clocked_table, config, seated, settle, table_key
from tests.serverkit import run as serverkit_run
from tests.serverproc import ServerProcess
from tests.test_sealed_wire import ended, refusal, serve, watched
from tests.wiretap import Middle

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
    with serve(tmp_path / "table", "--password", PASSWORD, "--computer", "1", *options) as srv:
        assert srv.says(said)

        async def plain_hello() -> None:
            pat = Client("Pat")
            got = await pat.hello(srv.port, protocol=1, password=PASSWORD)
            if not options:
                refused = (got["type"], got.get("code"), got.get("ref"))
                assert refused == ("error", "tls_required", "hello"), got
                assert "password" in got["message"]
                await pat.wait_closed(10)
                assert not srv.said("Pat sits")
            else:
                assert got["type"] == "welcome", got
                assert (await pat.expect("lobby", timeout=10))["plain"] == "allow"
            await pat.close()

        asyncio.run(plain_hello())


@serverkit_run
async def test_the_terminal_says_the_choice_and_its_cost_and_every_lobby_follows(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
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
    (bob,) = seated(open_table, "Bob")
    assert bob.seat == 0 and "plain" not in bob.last("lobby")
    assert "plain" not in open_table.console("status")
    open_table.shutdown()


# ------------------------------------------------------------------ point 5: the pins


def test_a_key_is_kept_only_once_the_table_proved_the_password(
    make_client: Any, tmp_path: Path
) -> None:
    """First contact through a middle that shows its own key: the table's proof fails
    on our channel (``no_proof``) and nothing is pinned, so the real table then joins
    with no "key has changed", and its key is pinned once it has proven the password.
    Trusting the middle's key after that (the dialog's button) lets it through; its
    proof fails again and the real table's pin stays."""
    with serve(tmp_path / "table", "--password", PASSWORD, "--computer", "1") as srv:
        real = key_fingerprint(table_key(srv.port))
        app = make_client("Tess")
        pins = app.link.pins
        _, statuses = watched(app)

        def join(port: int) -> Any:
            statuses.clear()
            app.connect("127.0.0.1", port, password=PASSWORD)
            assert run([app], lambda: ended(app, statuses)), statuses
            return refusal(statuses)

        with Middle(srv.port, name=TABLE) as middle:
            refused = join(middle.port)
            assert refused is not None and refused.code == "no_proof", refused
        assert pins.entries() == []
        assert join(srv.port) is None and app.link.key_problem is None
        assert [p.fingerprint for p in pins.entries()] == [real]
        app.leave_table(notice="", send_leave=True)

        with Middle(srv.port, name=TABLE) as middle:
            refused = join(middle.port)
            assert refused is not None and refused.code == "key", refused
            assert app.link.key_problem is not None and app.link.key_problem.trustable
            statuses.clear()
            assert app.trust_new_key()  # the dialog's *Trust the new key*
            assert run([app], lambda: ended(app, statuses)), statuses
            refused = refusal(statuses)
            assert refused is not None and refused.code == "no_proof", refused
        assert [p.fingerprint for p in pins.entries()] == [real]
        assert join(srv.port) is None and app.link.key_problem is None


# ------------------------------------------------------------------ point 7: the reconnect


def test_a_game_that_found_its_seat_without_the_password_sits_again_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table with a password.  Bob's game dies mid-hand and is started again; the
    table is joined without the password typed, and the seat comes back by the token
    and the password kept beside it.  Then the server is killed and started again: both
    games come back by themselves, Bob's too, with no wrong password."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "games"))
    secret = tmp_path / "password"
    secret.write_text(PASSWORD + "\n")

    def server(port: int = 0) -> ServerProcess:
        return ServerProcess(
            tmp_path,
            "--password-file", str(secret), "--name", TABLE, "--computer", "1",
            "--start-when", "3", "--hands", "4", "--history-dir", str(tmp_path / "histories"),
            "--bot-delay", "0", "--hand-pause", "0.2", "--turn-time", "0", "--grace", "600",
            port=port,
        )  # fmt: skip

    servers = [server()]
    port = servers[0].port
    games: list[App] = []

    def game(name: str, password: str = "") -> App:
        app = App(Settings(name=name), size=(1280, 800), retry_for=90.0)
        app.init_display(offscreen=bool(games))  # the first one has the (dummy) window
        games.append(app)
        app.connect("127.0.0.1", port, password=password)
        return app

    def seated(app: App) -> bool:
        s = app.session
        return s is not None and app.status.state == "connected" and s.view is not None

    try:
        ann, bob = game("Ann", PASSWORD), game("Bob", PASSWORD)
        assert run([ann, bob], lambda: seated(ann) and seated(bob))
        seat = bob.session.seat
        assert seat is not None and bob.session.running
        # The game dies: its socket closes, no leave is said, nothing is cleaned up.
        bob.link.conn.close()
        bob.link.conn = bob.link.session = None
        again = game("Bob")  # started again; the table clicked in the list: no password
        assert run([ann, again], lambda: seated(again)), (again.notice, servers[0].lines[-3:])
        assert again.session.seat == seat

        servers[0].kill()
        servers.append(server(port))
        back = f"seat {seat} (Bob) is back"
        assert run([ann, again], lambda: servers[1].said(back) or again.session is None, timeout=90)
        assert not servers[1].said("wrong password"), servers[1].lines[-5:]
        assert again.session is not None, again.notice
        assert run([ann, again], lambda: seated(again) and seated(ann))
        assert again.session.seat == seat and servers[1].said("(Ann) is back")
    finally:
        for app in games:
            app.leave_table(notice="", send_leave=False)
        for srv in servers:
            srv.terminate()
        pygame.quit()
