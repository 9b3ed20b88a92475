"""The game's client seals its link (``client.net``): TLS, the table's key checked before
the hello, and the password proven without ever being sent.  Against hand-made tables
on 127.0.0.1 that record every byte the client sends, as it went on the wire and as
plaintext."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from client.net import (
    NO_PROOF,
    NO_PROOF_WELCOME,
    RELAYED,
    WRONG_PASSWORD,
    Connection,
    Status,
    TableKey,
)
from common.proof import TableProof
from common.protocol import encode_frame
from common.protocol.server_messages import ProofAnswer, Welcome
from common.seal import short_key
from tests.clientkit import FakeTable, failed, in_the_clear, polled, statuses
from tests.serverkit import identity

pytestmark = pytest.mark.timeout(30)

PASSWORD = "swordfish"
WELCOME = {"type": "welcome", "seat": 0, "token": "tok", "name": "Ann", "protocol": 2}

Script = Callable[[int, dict[str, Any]], list[dict[str, Any]]]


def table_of(script: Script, **kw: Any) -> FakeTable:
    """A table that hangs up after an ``error``, as the server does."""
    return FakeTable(script, hang_up=lambda frames: any(f["type"] == "error" for f in frames), **kw)


def proving(
    password: str = PASSWORD, *, mac: bytes | None = None, binding: bytes | None = None,
    pw_mac: bool = True,
) -> Script:  # fmt: skip
    """A table with ``password`` that answers a hello's pake (its mac replaced by
    ``mac``, or made on another channel's ``binding``, if given; ``pw_mac`` False: as a
    table that sends no password mac) and welcomes a right client proof."""

    proof = TableProof(password, binding or identity().binding)

    def script(n: int, msg: dict[str, Any]) -> list[dict[str, Any]]:
        if msg["type"] == "hello" and "pake" in msg:
            pake, right = proof.answer(msg["pake"])
            answer = {"type": "proof", "pake": pake, "mac": mac or right}
            if pw_mac:
                answer["pw_mac"] = proof.password_mac()
            return [answer]
        if msg["type"] == "proof":
            if proof.check(msg["mac"]):
                return [WELCOME]
            return [{"type": "error", "code": "bad_password", "message": "wrong password"}]
        return []

    return script


def talk(table: FakeTable, until, password: str | None = PASSWORD, **kw: Any):
    """A link to ``table`` (Ann's hello, with ``password``) until ``until(seen)``, then it
    and the table closed: what its thread handed on, and the connection."""
    hello: dict[str, Any] = {"type": "hello", "protocol": 2, "name": "Ann"}
    if password is not None:
        hello["password"] = password
    conn = Connection("127.0.0.1", table.port, lambda: dict(hello), retry_for=0.0, **kw)
    conn.start()
    try:
        seen = polled(conn, until)
        if until is ended:
            assert table.done.wait(10)  # the table read all the client sent, to its close
        return seen, conn
    finally:
        conn.close()
        table.close()


def welcomed(seen: list[Any]) -> bool:
    return any(kind == "msg" and isinstance(item, Welcome) for kind, item in seen)


def gave_up(seen: list[Any]) -> bool:
    return failed(seen) is not None


def ended(seen: list[Any]) -> bool:
    """The connection's thread is over: its socket closed, the table has read it all."""
    return any(s.state == "closed" for s in statuses(seen))


def test_the_password_is_proven_and_never_sent_once_the_key_is_accepted() -> None:
    table = table_of(proving())
    seen, conn = talk(table, welcomed, check_key=lambda key: None)
    assert welcomed(seen) and conn.key is not None
    assert conn.key.fingerprint == identity().fingerprint
    hello, proof = table.msgs[:2]
    assert "password" not in hello and len(hello["pake"]) == 33 and hello["heartbeat"]
    assert proof["type"] == "proof" and len(proof["mac"]) == 32
    # Nothing the client sent holds the password, in TLS or inside it; nor is the
    # hello readable on the wire.
    assert PASSWORD.encode() not in table.plain and PASSWORD.encode() not in table.wire
    assert b"hello" in table.plain and b"hello" not in table.wire
    # The proof message stays the link's own business: not for the game.
    assert all(not isinstance(item, ProofAnswer) for kind, item in seen if kind == "msg")


def test_the_key_is_checked_before_any_hello_and_a_refusal_stops_there() -> None:
    table = table_of(proving())
    keys: list[TableKey] = []

    def refuse(key: TableKey) -> str | None:
        keys.append(key)
        return "this is not the table you know"

    seen, conn = talk(table, ended, check_key=refuse)
    assert failed(seen) == Status("failed", "this is not the table you know", code="key")
    assert table.plain == b"" and table.msgs == []  # the TLS handshake, and nothing inside
    assert table.wire  # it did seal: the key comes from the handshake
    me = identity()
    assert keys == [TableKey(me.fingerprint, "Test table", "127.0.0.1", table.port)]
    assert keys[0].short == short_key(me.fingerprint) and conn.key == keys[0]


@pytest.mark.parametrize(
    ("script", "said"),
    [
        (proving("marlin"), Status("failed", WRONG_PASSWORD, code="bad_password")),
        (proving(binding=b"\1" * 32), Status("failed", RELAYED, code="no_proof")),
        (proving(mac=b"\0" * 32, pw_mac=False), Status("failed", NO_PROOF, code="no_proof")),
        (proving("marlin", pw_mac=False), Status("failed", NO_PROOF, code="no_proof")),
    ],
    ids=["other-password", "relayed", "wrong-mac-older-table", "other-password-older-table"],
)
def test_a_table_that_cannot_prove_the_password_is_hung_up_on(script: Script, said) -> None:
    """A typo is said as one; someone in the middle only for a relay (the table proved
    the password over another channel), or when an older table's proof cannot tell."""
    table = table_of(script)
    seen, conn = talk(table, ended)
    assert failed(seen) == said
    assert [m["type"] for m in table.msgs] == ["hello"]  # no client proof for it
    assert not welcomed(seen)


def test_a_welcome_without_a_proof_is_hung_up_on() -> None:
    table = table_of(lambda n, msg: [WELCOME] if msg["type"] == "hello" else [])
    seen, conn = talk(table, gave_up)
    assert failed(seen) == Status("failed", NO_PROOF_WELCOME, code="no_proof")
    assert not welcomed(seen)


def test_without_a_password_there_is_no_proof_to_make() -> None:
    table = table_of(lambda n, msg: [WELCOME] if msg["type"] == "hello" else [])
    seen, conn = talk(table, welcomed, password=None)
    assert welcomed(seen) and "pake" not in table.msgs[0] and "password" not in table.msgs[0]


def test_a_refused_hello_says_the_servers_code() -> None:
    error = {"type": "error", "code": "table_full", "message": "all seven seats are taken"}
    table = table_of(lambda n, msg: [error] if msg["type"] == "hello" else [])
    seen, conn = talk(table, gave_up, password=None)
    assert failed(seen) == Status("failed", "all seven seats are taken", code="table_full")


def test_a_plain_table_is_not_joined_in_the_clear() -> None:
    """A server that does not speak TLS: the client says nothing in the clear."""
    table = table_of(lambda n, msg: [WELCOME], sealed=False)
    seen, conn = talk(table, gave_up)
    status = failed(seen)
    assert status is not None and status.message.startswith("Something answers at 127.0.0.1:")
    assert b"hello" not in table.wire and not welcomed(seen)


def test_sealed_false_speaks_plain_as_before() -> None:
    table = table_of(lambda n, msg: [WELCOME] if msg["type"] == "hello" else [], sealed=False)
    seen, conn = talk(table, welcomed, sealed=False)
    assert welcomed(seen) and table.msgs[0]["password"] == PASSWORD and conn.key is None


@pytest.mark.parametrize(
    ("reply", "read_first", "said"),
    [
        (
            {"type": "error", "code": "frame_too_large", "message": "frame of 369 MB"},
            True,
            "it may run an older version of the game",
        ),
        (
            {"type": "error", "code": "server_busy", "message": "too many connections waiting"},
            False,
            "the table refused the connection: too many connections waiting",
        ),
        ({"type": "bye", "reason": "the host closed the table"}, False, "the table is closing"),
    ],
)
def test_a_table_answering_in_the_clear_is_said_in_its_own_words(reply, read_first, said) -> None:
    """Issue 18: a refusal the table sends before TLS (or a table that cannot seal) is
    shown for what it says, not as a TLS error; nothing is sent but the ClientHello."""
    with in_the_clear(encode_frame(reply), read_first=read_first) as port:
        conn = Connection("127.0.0.1", port, lambda: {"type": "hello"}, retry_for=0.0)
        conn.start()
        seen = polled(conn, gave_up)
        conn.close()
    status = failed(seen)
    assert status is not None and said in status.message, status


def test_a_tls_alert_or_noise_is_not_read_as_a_refusal() -> None:
    from client.net import plain_refusal

    assert plain_refusal(b"") is None
    assert plain_refusal(b"\x15\x03\x03\x00\x02\x02\x28") is None  # a TLS alert
    assert plain_refusal(b"\x16\x03\x03\x00\x10") is None  # a handshake record
    assert plain_refusal(b"\x00\x00\x00\x03abc") is None  # a frame that is not msgpack map
    assert plain_refusal(encode_frame({"type": "lobby"})) is None
