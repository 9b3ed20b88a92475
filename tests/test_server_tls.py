"""The server's sealed wire: the table's key, TLS on the same port, and plain connections.

The table's key (``server.identity``) is made once per data folder and kept; a TLS
client says hello and plays over loopback while plain protocol-1 and 2 clients still
join on the same port.  The limits inside TLS run on a fake clock, over a real
``Connection`` and a ``FakeTransport``, with a ``TlsPipe`` as the client: no sleeping.
The host's ``plain`` choice is tested by its message, the terminal and the CLI.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import ssl
import stat
import struct
from pathlib import Path
from typing import Any

import pytest

from common import protocol as p
from common import seal
from common.protocol import encode_frame
from server.announce import FACT_KEYS, table_facts
from server.console import HELP
from server.identity import KEY_FILE, Identity, load_identity
from server.net import TLS_REQUIRED, Limits
from tests.serverkit import (
    Client,
    FakeTransport,
    Link,
    SealedLink,
    client_hello,
    clocked_table,
    config,
    run,
    running,
    seated,
    settle,
)

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(scope="module")
def identity(tmp_path_factory: pytest.TempPathFactory) -> Identity:
    return load_identity(tmp_path_factory.mktemp("key"), "Test table")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# ------------------------------------------------------------------ the table's key


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX's")
def test_the_key_is_0600_in_a_0700_folder_and_no_copy_is_left(tmp_path: Path) -> None:
    folder = tmp_path / "histories"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    made = load_identity(folder, "")
    assert _mode(made.path) == 0o600
    assert _mode(folder) == 0o700
    assert [f.name for f in folder.iterdir()] == [KEY_FILE]
    assert seal.certificate_name(made.cert_der) == "Seventh Street"
    os.chmod(made.path, 0o644)  # copied in with looser modes: made private again
    again = load_identity(folder, "")
    assert again.fingerprint == made.fingerprint and _mode(made.path) == 0o600


def test_the_certificate_is_self_signed_with_sha256_for_20_years(identity: Identity) -> None:
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes

    cert = x509.load_der_x509_certificate(identity.cert_der)
    assert isinstance(cert.signature_hash_algorithm, hashes.SHA256)
    assert cert.issuer == cert.subject
    now = datetime.datetime.now(datetime.UTC)
    assert cert.not_valid_before_utc < now - datetime.timedelta(hours=23)
    assert cert.not_valid_after_utc > now + datetime.timedelta(days=365 * 19)


# ------------------------------------------------------------------ over loopback


def _seat(msg: dict[str, Any], seat: int | None) -> dict[str, Any]:
    return next(
        s for s in msg["seats" if msg["type"] == "lobby" else "players"] if s["seat"] == seat
    )


@run
async def test_a_sealed_client_plays_beside_plain_protocol_1_and_2_clients(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="server.net")
    async with running(config(tmp_path, start_when=3)) as (server, port):
        assert server.identity is not None
        ann = Client("ann")
        assert (await ann.hello(port, sealed=True))["type"] == "welcome"
        assert seal.key_fingerprint(ann.cert) == server.identity.fingerprint
        old = Client("old")
        assert (await old.hello(port, protocol=1))["type"] == "welcome"
        bob = Client("bob")
        assert (await bob.hello(port))["type"] == "welcome"
        for c in (ann, old, bob):
            await c.expect("match_start")
        table = await ann.expect("table")
        assert _seat(table, ann.seat)["sealed"] is True
        assert "sealed" not in _seat(table, old.seat) and "sealed" not in _seat(table, bob.seat)
        plain_view = await bob.expect("table")
        assert _seat(plain_view, ann.seat)["sealed"] is True
        lobby = ann.of_type("lobby")[-1]
        assert "plain" not in lobby and "sealed" not in _seat(lobby, old.seat)
        results = await asyncio.gather(ann.play(), old.play(), bob.play())
        assert all(r["type"] == "standings" for r in results)
        for c in (ann, old, bob):
            await c.close()
    assert re.search(r"conn \d+ from 127\.0\.0\.1:\d+: sealed \(TLSv1\.3\)", caplog.text)
    assert re.search(r"conn \d+ from 127\.0\.0\.1:\d+: plain", caplog.text)


@run
async def test_a_tls_1_2_client_is_sealed_too(tmp_path: Path) -> None:
    async with running(config(tmp_path)) as (_, port):
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        ctx.maximum_version = ssl.TLSVersion.TLSv1_2
        ann = await Client("ann").connect(port, context=ctx)
        assert (await ann.hello())["type"] == "welcome"
        assert ann.writer.get_extra_info("ssl_object").version() == "TLSv1.2"
        await ann.close()


# ------------------------------------------------------------------ on a fake clock


@run
async def test_a_sealed_link_says_hello_and_its_seat_says_sealed(
    tmp_path: Path, identity: Identity
) -> None:
    table, _ = await clocked_table(config(tmp_path))
    ann = SealedLink(table, identity, "ann")
    assert ann.conn.sealed and ann.conn.tls_version == "TLSv1.3"
    assert ann.conn.binding == seal.channel_binding(identity.cert_der)
    assert ann.tls.peer_certificate() == identity.cert_der
    assert ann.hello()["type"] == "welcome"
    (bob,) = seated(table, "bob")
    assert not bob.conn.sealed and bob.conn.binding == b""
    lobby = bob.last("lobby")
    assert _seat(lobby, ann.seat)["sealed"] is True and "sealed" not in _seat(lobby, bob.seat)
    assert b"welcome" not in b"".join(ann.transport.written)  # nothing in the clear
    ann.send({"type": "leave"})
    await settle(table, ann, bob)
    ann.log  # noqa: B018 (the client reads what came)
    assert ann.tls.peer_closed and ann.transport.closed  # close_notify, then FIN
    table.shutdown()


@run
async def test_a_table_without_a_key_takes_a_client_hello_for_a_frame(tmp_path: Path) -> None:
    table, _ = await clocked_table(config(tmp_path))
    link = Link(table)
    link.conn.data_received(client_hello())
    assert link.last("error")["code"] == "frame_too_large"
    assert link.conn.closed and not link.conn.sealed


@pytest.mark.parametrize("how", ["stalled", "half a hello", "no hello"])
@run
async def test_18_6_a_tls_handshake_that_stalls_is_closed_within_the_handshake_time(
    tmp_path: Path, identity: Identity, how: str
) -> None:
    """The handshake timer covers the TLS handshake and the hello, as for a plain
    connection: a ClientHello then silence (its first byte alone tells nothing yet), or
    a TLS handshake finished with no hello after it (told so inside the seal), is open
    until the handshake time and closed at it; half a ClientHello (a record cut short)
    is closed no later: its record is timed like a frame."""
    table, clock = await clocked_table(config(tmp_path))
    limits = Limits(handshake_timeout=3.0, frame_timeout=2.0)
    link = SealedLink(table, identity, limits=limits, shake=how == "no hello")
    hello = client_hello()
    if how == "stalled":
        link.raw(hello[:1])  # one byte 0x16: it waits for the second
        assert link.conn.kind is None and not link.transport.closed
        link.raw(hello[1:])
        assert link.conn.kind == "tls" and link.transport.written  # the ServerHello
    elif how == "half a hello":
        link.raw(hello[: len(hello) // 2])
    clock.advance(1.9)
    assert not link.transport.closed
    clock.advance(1.0)
    assert link.transport.closed == (how == "half a hello")
    clock.advance(0.2)
    assert link.transport.closed and table.conns == set()
    if how == "no hello":
        assert link.last("error")["code"] == "handshake_timeout"


@pytest.mark.parametrize(
    "garbage",
    [
        b"\x16\x03\x01\x00\x10" + b"not a handshake!",
        b"\x16\x03\x01\x00\x10" + b"\xff" * 16,
        b"\x16\x03\x03\xff\xff" + bytes(range(256)) * 4,
        b"\x16\x03\x03\x01\x00" + bytes(range(256)),
        b"\x16\x03" + b"\x00" * 64,
        client_hello() + b"\x17\x03\x03\x00\x20" + bytes(32),
    ],
    ids=["junk", "bad-hello", "a huge record of junk", "noise", "zeros", "a hello then junk"],
)
@run
async def test_18_6_garbage_after_a_tls_record_header_is_closed_at_once(
    tmp_path: Path, identity: Identity, garbage: bytes
) -> None:
    """Bytes that start like TLS and are not: the link is closed with no time passing on
    the table's clock (not left to the handshake timer), no frame is sent in the clear,
    and the table plays on: it still takes a plain hello."""
    table, _ = await clocked_table(config(tmp_path, computer=1))
    link = SealedLink(table, identity, shake=False)
    link.raw(garbage)
    assert link.transport.closed and link.conn.closed
    assert b"\xa4type" not in b"".join(link.transport.written)
    assert Link(table, "Pat").hello()["type"] == "welcome"
    table.shutdown()


@pytest.mark.parametrize(
    ("limits", "data", "code"),
    [
        (Limits(max_frame=1000), struct.pack(">I", 5000) + b"\x00" * 10, "frame_too_large"),
        (
            Limits(budget_burst=10, budget_per_second=1),
            b"".join(encode_frame({"type": "ping", "id": i}) for i in range(30)),
            "flood",
        ),
        (Limits(frame_timeout=2.0), encode_frame({"type": "ping", "id": 1})[:-2], "bad_frame"),
    ],
    ids=["oversized", "flood", "cut-short"],
)
@run
async def test_the_limits_hold_inside_tls(
    tmp_path: Path, identity: Identity, limits: Limits, data: bytes, code: str
) -> None:
    table, clock = await clocked_table(config(tmp_path))
    link = SealedLink(table, identity, limits=limits)
    link.hello()
    link.send_bytes(data)
    clock.advance(1.9)
    assert link.conn.closed == (code != "bad_frame")  # a frame cut short is timed
    clock.advance(0.2)
    assert link.last("error")["code"] == code
    assert link.conn.closed


@run
async def test_a_tls_record_trickled_in_is_timed_like_a_frame(
    tmp_path: Path, identity: Identity
) -> None:
    table, clock = await clocked_table(config(tmp_path))
    link = SealedLink(table, identity, limits=Limits(frame_timeout=2.0))
    link.hello()
    record = link.tls.write(encode_frame({"type": "ping", "id": 1}))
    for i in range(len(record) - 1):  # a byte a second: each one is not a new start
        link.raw(record[i : i + 1])
        clock.advance(0.5 if i < 3 else 0)
        if link.conn.closed:
            break
    clock.advance(2.0)
    assert link.conn.closed


class Buffered(FakeTransport):
    """A transport whose peer reads nothing: everything written stays buffered."""

    def get_write_buffer_size(self) -> int:
        return sum(len(c) for c in self.written)


@run
async def test_the_queue_limit_counts_the_ciphertext(tmp_path: Path, identity: Identity) -> None:
    table, _ = await clocked_table(config(tmp_path))
    link = SealedLink(table, identity, limits=Limits(queue_limit=20_000))
    link.hello()
    link.transport.__class__ = Buffered
    for i in range(200):
        link.conn.send_message({"type": "pong", "id": i, "pad": "x" * 200})
        if link.conn.closed:
            break
    assert link.conn.closed and link.transport.closed


# ------------------------------------------------------------------ plain never or allow


async def _lobby_of_three(tmp_path: Path, identity: Identity, **over: Any) -> tuple[Any, ...]:
    """A sealed host, a plain person and a plain watcher, on a fake clock."""
    table, clock = await clocked_table(config(tmp_path, **over))
    host = SealedLink(table, identity, "host")
    host.hello()
    (bob,) = seated(table, "bob")
    eve = Link(table, "eve")
    eve.hello(watch=True)
    await settle(table, host, bob, eve)
    return table, clock, host, bob, eve


@run
async def test_the_host_turns_plain_off_and_the_plain_ones_are_closed(
    tmp_path: Path, identity: Identity
) -> None:
    table, _, host, bob, eve = await _lobby_of_three(tmp_path, identity, computer=1)
    assert "plain" not in host.last("lobby")
    host.send(p.Options(plain="never").encode())
    await settle(table, host, bob, eve)
    for link in (bob, eve):
        error = link.last("error")
        assert error == {"type": "error", "code": "tls_required", "message": TLS_REQUIRED}
        assert link.transport.closed
    assert bob.seat not in table.seats  # freed, as a leave between matches frees it
    lobby = host.last("lobby")
    assert lobby["plain"] == "never"
    assert [s["seat"] for s in lobby["seats"]] == [host.seat, 6]
    assert _seat(lobby, host.seat)["sealed"] is True
    assert lobby["options"] == table.turns.options.to_dict()
    assert "plain" not in lobby["options"]
    # And back: plain ones may join again; the lobby no longer says it.
    host.send(p.Options(plain="allow").encode())
    await settle(table, host)
    assert "plain" not in host.last("lobby")
    assert table.turns.options.plain == "allow"
    table.shutdown()


@run
async def test_plain_refusals_change_nothing(tmp_path: Path, identity: Identity) -> None:
    table, _, host, bob, _eve = await _lobby_of_three(tmp_path, identity, computer=1)
    bob.send(p.Options(plain="never").encode())
    assert bob.last("error")["code"] == "not_host"
    # A plain host would close itself: refused.
    table.role.pass_on(bob.seat)
    bob.send(p.Options(plain="never").encode())
    err = bob.last("error")
    assert (err["code"], err["ref"]) == ("tls_required", "options")
    assert table.turns.options.plain == "allow" and not bob.conn.closed
    table.role.pass_on(host.seat)
    host.send(p.Start().encode())
    await settle(table, host, bob)
    host.send(p.Options(plain="never").encode())
    assert host.last("error")["code"] == "match_running"
    assert table.turns.options.plain == "allow"
    assert table.console("plain never").startswith("refused")
    table.shutdown()


@run
async def test_the_terminal_sets_plain(tmp_path: Path, identity: Identity) -> None:
    table, _, host, bob, eve = await _lobby_of_three(tmp_path, identity)
    assert "plain never|allow" in HELP
    assert table.console("plain maybe") == HELP
    assert table.console("plain never") == "ok"
    await settle(table, host, bob, eve)
    assert bob.last("error")["code"] == "tls_required" and bob.transport.closed
    assert eve.transport.closed and not host.transport.closed
    assert "plain connections never" in table.console("status")
    assert host.last("lobby")["plain"] == "never"
    assert table.console("plain allow") == "ok"
    assert "plain" not in table.console("status")
    table.shutdown()


# ------------------------------------------------------------------ the announcement and log


@run
async def test_the_txt_record_has_the_key_after_the_other_facts(tmp_path: Path) -> None:
    table, _ = await clocked_table(config(tmp_path))
    facts = table_facts(table, key="7QKM-D2XA-PF4Z-LW3B")
    assert list(facts) == list(FACT_KEYS)
    assert facts["key"] == "7QKM-D2XA-PF4Z-LW3B"
    assert "key" not in table_facts(table)


@run
async def test_a_resumed_match_keeps_the_hosts_plain_choice(tmp_path: Path) -> None:
    """The journal keeps the match's options, not ``plain``: a resume never opens the door."""
    cfg = config(tmp_path, name="Resumed", computer=1, start_when=3)
    table, _ = await clocked_table(cfg)
    seated(table, "Ann", "Bob")
    await settle(table)
    assert table.dealer.life.running
    again, _ = await clocked_table(config(tmp_path, name="Resumed", computer=1, plain="never"))
    assert again.resume()
    assert again.turns.options.plain == "never"
    assert again.turns.options.to_dict() == table.turns.options.to_dict()
    table.shutdown()
    again.shutdown()
