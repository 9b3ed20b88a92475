"""Issue 18, a sealed wire: what someone else on the Wi-Fi can see and do, over loopback.

Each test names the issue's point it holds to (18.6, the handshake's time, is
``tests/test_server_tls.py``'s).  The wire is recorded by a proxy (``tests.wiretap``);
tables are real ``python -m server`` processes (``tests.serverproc``); the game's client
is the headless game itself (``make_client``), pins and all in the test's config folder.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest

from client.reach import RELAYED
from common.seal import key_fingerprint, short_key
from tests.clientkit import decoded, run
from tests.serverkit import Client, table_key, take_turns
from tests.serverproc import ServerProcess
from tests.wiretap import APPLICATION_DATA, HANDSHAKE, Middle, WireTap, tls_records

pytestmark = pytest.mark.timeout(120)

PASSWORD = "swordfish-7781"
TABLE = "Sam's table"


# ------------------------------------------------------------------ helpers


def serve(tmp: Path, *options: str, port: int = 0, name: str = TABLE) -> ServerProcess:
    """A table process, its histories in ``tmp/histories``; four quick hands."""
    return ServerProcess(
        tmp,
        "--name", name, "--history-dir", str(tmp / "histories"), "--hands", "4",
        "--bot-delay", "0", "--hand-pause", "0", "--log-level", "INFO", *options,
        port=port,
    )  # fmt: skip


def watched(app: Any) -> tuple[list[dict[str, Any]], list[Any]]:
    """Every message and every status ``app`` gets from its link, from now on, in order."""
    messages: list[Any] = []  # as the game's session takes them: typed once, decoded
    statuses: list[Any] = []
    on_message, on_status = app.on_message, app.on_status

    def message(msg: Any) -> None:
        messages.append(msg)
        on_message(msg)

    def status(st: Any) -> None:
        statuses.append(st)
        on_status(st)

    app.on_message, app.on_status = message, status
    return messages, statuses


def refusal(statuses: list[Any]) -> Any:
    """The status that ended the link (``failed``), if any yet."""
    return next((s for s in statuses if s.state == "failed"), None)


def ended(app: Any, statuses: list[Any]) -> bool:
    """The link was refused, or (a test about to fail) welcomed."""
    return refusal(statuses) is not None or welcomed(app)


def welcomed(app: Any) -> bool:
    return app.session is not None and app.session.welcomed


def refused_at(app: Any, statuses: list[Any], port: int, **password: str) -> Any:
    """``app`` joins the table at ``port``: the status that refused it (not welcomed)."""
    app.connect("127.0.0.1", port, **password)
    assert run([app], lambda: ended(app, statuses)), statuses
    refused = refusal(statuses)
    assert refused is not None, f"joined: {statuses}"
    return refused


def secrets(messages: list[Any], *, password: str) -> dict[str, bytes]:
    """What a seat was sent that nobody else may read, as msgpack frames it: every hole
    card dealt to it, its hole cards in its view, its token, the table's password; and
    the protocol's own keys, which show any frame in the clear.  Patterns of 8 bytes
    and more, so that ciphertext never shows one by chance."""
    welcome = next(m for m in messages if m.TYPE == "welcome")
    seat = welcome.seat
    found = {
        "password": password.encode("utf-8"),
        "token": welcome.token.encode("ascii"),
        "key type": b"\xa4type\xa5",  # "type" and the start of a 5-letter message type
        "key token": b"\xa5token\xb8",  # the key and a 24-character token's header
    }
    for msg in messages:
        if msg.TYPE == "events":
            for ev in msg.events:
                if ev.ev == "deal" and ev.seat == seat and not ev.up and ev.card is not None:
                    card = msgpack.packb(str(ev.card))
                    found[f"deal {ev.card}"] = b"\xa4card" + card + b"\xa2up\xc2"
        elif msg.TYPE == "table":
            mine = msg.view.seats.get(seat)
            if mine is not None and mine.hole:
                found[f"hole {mine.hole}"] = b"\xa4hole" + msgpack.packb(mine.hole)
    return found


def seen_on(wire: bytes, wanted: dict[str, bytes]) -> list[str]:
    """Which of ``wanted`` the recorded bytes show."""
    return [name for name, pattern in wanted.items() if pattern in wire]


def assert_sealed(data: bytes) -> int:
    """``data`` (one way of one link) is TLS records only: a handshake, then application
    data only (TLS 1.3 encrypts alerts too).  The application data records' count."""
    records = list(tls_records(data))
    assert records and records[0][0] == HANDSHAKE, records[:3]
    kinds = [kind for kind, _ in records]
    first = kinds.index(APPLICATION_DATA)
    assert set(kinds[first:]) == {APPLICATION_DATA}, kinds
    return len(kinds) - first


async def play_plain(port: int, *, password: str) -> list[dict[str, Any]]:
    """A protocol-1 client's match, hanging up once after the first hand and coming back
    with its token (R-C1): every message it got, both links'."""
    pat = Client("Pat", seed=18)
    welcome = await pat.hello(port, protocol=1, password=password)
    assert welcome["type"] == "welcome", welcome
    await take_turns([pat], lambda c, turn: bool(c.of_type("hand_end")))
    await pat.close()
    again = pat.again()
    back = await again.hello(port, protocol=1, token=pat.token, password=password)
    assert back["type"] == "welcome" and back["seat"] == welcome["seat"], back
    await again.play()
    return pat.log + again.log


# ------------------------------------------------------------------ 18.1, 18.4: the wire


def test_18_1_a_whole_match_by_the_game_leaves_nothing_readable_on_the_wire(
    make_client, tmp_path: Path
) -> None:
    """The game plays a password table's match through a tap, its link cut once and taken
    back with its token: the wire shows only TLS records, both ways, on both links."""
    from tests.clientkit import Player

    with serve(tmp_path / "table", "--password", PASSWORD, "--computer", "2",
               "--start-when", "3") as srv:  # fmt: skip
        with WireTap(srv.port) as tap:
            app = make_client("Tess")
            messages, statuses = watched(app)
            cut: list[bool] = []

            def cut_after_a_hand() -> None:
                if not cut and any(m.TYPE == "hand_end" for m in messages):
                    cut.append(True)
                    app.link.conn.sever()

            app.connect("127.0.0.1", tap.port, password=PASSWORD)
            players = (Player(app), cut_after_a_hand)
            played = run([app], lambda: app.top().name == "results", players, timeout=60)
            assert played, (statuses[-3:], srv.lines[-5:])
            welcomes = [m for m in messages if m.TYPE == "welcome"]
            assert len(welcomes) == 2 and welcomes[0].seat == welcomes[1].seat
            assert welcomes[0].token == welcomes[1].token  # the same seat, by token
            app.leave_table(notice="", send_leave=True)
            seat = welcomes[0].seat
            lobby = next(m for m in messages if m.TYPE == "lobby")
            mine = next(p for p in lobby.seats if p.seat == seat)
            assert mine.sealed is True  # 18.5: everyone sees it is sealed
            hidden = secrets(messages, password=PASSWORD)
            assert sum(name.startswith(("deal", "hole")) for name in hidden) >= 8  # 4 hands
            assert seen_on(tap.up + tap.down, hidden) == []
            links = tap.links()
            assert len(links) == 2
            for link in links:
                assert assert_sealed(bytes(link.up)) > 0
                assert assert_sealed(bytes(link.down)) > 0
        assert srv.says(": sealed (TLSv1.3)")  # 18.5: the headless server's log says so


def test_18_1_control_a_plain_protocol_1_client_shows_everything_on_the_same_tap(
    tmp_path: Path,
) -> None:
    """The control for the test above (so it can fail): a protocol-1 client in plain
    frames (``--plain allow``, 18.5) on the same tap shows its hole cards, token and the
    password."""
    with serve(tmp_path / "table", "--password", PASSWORD, "--computer", "2",
               "--start-when", "3", "--plain", "allow") as srv:  # fmt: skip
        with WireTap(srv.port) as tap:
            log = asyncio.run(play_plain(tap.port, password=PASSWORD))
            lobby = next(m for m in log if m.get("type") == "lobby")
            assert all("sealed" not in p for p in lobby["seats"])  # protocol 1's own bytes
            hidden = secrets([decoded(m) for m in log], password=PASSWORD)
            assert sum(name.startswith(("deal", "hole")) for name in hidden) >= 8
            assert seen_on(tap.up + tap.down, hidden) == list(hidden)
            assert hidden["token"] in tap.up  # the comeback's hello (R-C1)
            assert len(tap.links()) == 2
            with pytest.raises(ValueError):
                list(tls_records(tap.up))
        assert srv.says(": plain")


# ------------------------------------------------------------------ 18.5: plain or never


def test_18_5_a_plain_client_is_refused_when_the_host_says_never(
    make_client, tmp_path: Path
) -> None:
    with serve(tmp_path / "table", "--plain", "never", "--computer", "1") as srv:

        async def plain_hello() -> None:
            pat = Client("Pat")
            error = await pat.hello(srv.port, protocol=1)
            assert error["type"] == "error" and error["code"] == "tls_required", error
            assert error.get("ref") == "hello"
            assert "only sealed" in error["message"] and "TLS" in error["message"]
            await pat.wait_closed(10)
            assert not pat.of_type("welcome")

        asyncio.run(plain_hello())
        app = make_client("Tess")
        messages, _ = watched(app)
        app.connect("127.0.0.1", srv.port)
        assert run([app], lambda: welcomed(app))
        assert run([app], lambda: any(m.TYPE == "lobby" for m in messages))
        lobby = next(m for m in messages if m.TYPE == "lobby")
        assert lobby.plain == "never"  # 18.5: everyone sees the host's choice


# ------------------------------------------------------------------ 18.3: the pins


def test_18_3_a_table_with_another_key_is_refused_with_both_short_keys(
    make_client, tmp_path: Path
) -> None:
    """Pinned on first use; the table back on the same port with a new key is refused."""
    first = serve(tmp_path / "first")
    port = first.port
    try:
        old = key_fingerprint(table_key(port))
        app = make_client("Tess")
        _, statuses = watched(app)
        app.connect("127.0.0.1", port)
        assert run([app], lambda: welcomed(app))
        app.leave_table(notice="", send_leave=True)
    finally:
        first.terminate()
    with serve(tmp_path / "second", port=port) as second:
        new = key_fingerprint(table_key(port))
        assert new != old
        refused = refused_at(app, statuses, port)
        assert refused.code == "key", refused
        assert short_key(old) in refused.message and short_key(new) in refused.message
        assert app.session is None and app.top().name == "start"
        assert not second.said("Tess sits")  # no hello reached the table


# ------------------------------------------------------------------ 18.3, 18.4: the middle


def test_18_3_a_man_in_the_middle_is_refused_by_a_client_that_knows_the_table(
    make_client, tmp_path: Path
) -> None:
    """A proxy with its own key and the table's name: refused before the hello."""
    with serve(tmp_path / "table") as srv:
        real = key_fingerprint(table_key(srv.port))
        app = make_client("Tess")
        _, statuses = watched(app)
        app.connect("127.0.0.1", srv.port)
        assert run([app], lambda: welcomed(app))
        app.leave_table(notice="", send_leave=True)
        with Middle(srv.port, name=TABLE) as middle:
            refused = refused_at(app, statuses, middle.port)
            assert refused.code == "key", refused
            assert short_key(real) in refused.message
            assert short_key(middle.fingerprint) in refused.message
            # The middle's own side of the handshake may finish after the game has
            # already read its certificate and hung up: wait for the link it made.
            assert run([app], lambda: bool(middle.links()), timeout=10)
            assert middle.up == b""


def test_18_4_with_a_password_the_middle_is_refused_even_on_first_use(
    make_client, tmp_path: Path
) -> None:
    """No pin yet: the password proof is bound to each TLS channel, so the table's proof
    relayed by the middle fails on the client's channel; the middle reads SPAKE2 only."""
    with serve(tmp_path / "table", "--password", PASSWORD, "--computer", "1") as srv:
        with Middle(srv.port, name=TABLE) as middle:
            app = make_client("Tess")
            messages, statuses = watched(app)
            refused = refused_at(app, statuses, middle.port, password=PASSWORD)
            assert refused.code == "no_proof", refused
            assert refused.message == RELAYED  # the password is right: the link is relayed
            assert app.session is None and not any(m.TYPE == "welcome" for m in messages)
            sent, told = middle.up_frames(), middle.down_frames()
            hello = next(m for m in sent if m.get("type") == "hello")
            assert "pake" in hello and "password" not in hello
            assert [m.get("type") for m in sent if m.get("type") != "ping"] == ["hello"]
            assert "proof" in [m.get("type") for m in told]
            assert "welcome" not in [m.get("type") for m in told]
            assert PASSWORD.encode() not in middle.up + middle.down
            assert middle.up  # it did relay: the refusal is the proof's, not the link's
        assert not srv.said("Tess sits")


@pytest.mark.parametrize(
    ("plain", "code"),
    [((), "tls_required"), (("--plain", "allow"), "bad_message")],
    ids=["plain-refused-by-default", "plain-allowed"],
)
def test_18_4_a_middle_that_talks_plain_to_the_table_learns_no_password_either(
    make_client, tmp_path: Path, plain: tuple[str, ...], code: str
) -> None:
    """Sealed to the client, plain to the table: the client sends only its proof's start,
    which a plain link refuses (by default the table takes none at all, issue 33)."""
    with serve(tmp_path / "table", "--password", PASSWORD, "--computer", "1", *plain) as srv:
        with Middle(srv.port, name=TABLE, sealed=False) as middle:
            app = make_client("Tess")
            messages, statuses = watched(app)
            refused_at(app, statuses, middle.port, password=PASSWORD)
            assert not any(m.TYPE == "welcome" for m in messages)
            told = middle.down_frames()
            assert "welcome" not in [m.get("type") for m in told]
            errors = [m for m in told if m.get("type") == "error"]
            assert errors and errors[0]["code"] == code, told
            assert "sealed" in errors[0]["message"]
            assert PASSWORD.encode() not in middle.up + middle.down
        assert not srv.said("Tess sits")


# ------------------------------------------------------------------ 18.2: the table's key


def test_18_2_the_key_survives_a_restart_and_is_kept_private(tmp_path: Path) -> None:
    """Made on first start (0600 in a 0700 folder) in the server's own data folder, kept
    across restarts and a new name, and said in the log with the host's plain choice:
    the fingerprint is of the key, the name is the certificate's."""
    from common.seal import certificate_name

    keys = []
    for name in (TABLE, TABLE, "Another name"):
        with serve(tmp_path, "--plain", "never", name=name) as srv:
            cert = table_key(srv.port)
            keys.append(key_fingerprint(cert))
            assert certificate_name(cert) == name
            key = short_key(keys[-1])  # beside the addresses to type
            assert srv.says(f"table key {key}: friends see it on their screen when they join")
            assert srv.says("plain (unencrypted) connections are refused")
        folder = tmp_path / "data" / "seventh-street" / "server"
        assert (folder / "table.key").stat().st_mode & 0o777 == 0o600
        assert folder.stat().st_mode & 0o777 == 0o700
        assert not (tmp_path / "histories" / "table.key").exists()  # not among the shared
    assert keys[0] == keys[1] == keys[2]
