"""The password proof on its own (``common.proof``): SPAKE2 bound to the TLS channel."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable

import pytest
import spake2  # type: ignore[import-untyped]

from common.proof import (
    CLIENT_ID,
    MAC_SIZE,
    PAKE_SIZE,
    TABLE_ID,
    ClientProof,
    ProofFailed,
    TableProof,
    client_mac,
    password_mac,
    table_mac,
)

BINDING = bytes(range(32))


def _run(client_pw: str, table_pw: str, binding: bytes = BINDING) -> tuple[bool, bool]:
    """(the client accepted the table's proof, the table accepted the client's)."""
    client, table = ClientProof(client_pw, binding), TableProof(table_pw, binding)
    pake_b, mac = table.answer(client.start())
    try:
        answer = client.finish(pake_b, mac)
    except ProofFailed:
        return False, table.check(b"\0" * MAC_SIZE)
    return True, table.check(answer)


def test_the_right_password_proves_both_ends() -> None:
    assert _run("swordfish", "swordfish") == (True, True)
    assert _run("ünïcode ♠", "ünïcode ♠") == (True, True)


def test_a_wrong_password_proves_neither() -> None:
    assert _run("swordfish", "marlin") == (False, False)
    assert _run("", "swordfish") == (False, False)


def test_the_messages_are_their_sizes_and_never_the_password() -> None:
    client, table = ClientProof("swordfish", BINDING), TableProof("swordfish", BINDING)
    pake_a = client.start()
    assert client.start() == pake_a  # once: the same message again
    pake_b, mac = table.answer(pake_a)
    answer = client.finish(pake_b, mac)
    assert len(pake_a) == len(pake_b) == PAKE_SIZE and pake_a[:1] == b"A" and pake_b[:1] == b"B"
    assert len(mac) == len(answer) == MAC_SIZE and mac != answer
    assert all(b"swordfish" not in part for part in (pake_a, pake_b, mac, answer))


@pytest.mark.parametrize(
    "pake",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"A", id="side"),
        pytest.param(b"A" + b"\xff" * 32, id="not-a-point"),
        pytest.param(b"A" + b"\0" * 32, id="zero"),
        pytest.param(b"B" + bytes(32), id="wrong-side"),
        pytest.param(b"C" + bytes(range(32)), id="no-side"),
        pytest.param(b"A" * 200, id="long"),
        pytest.param("A" * 33, id="str"),
        pytest.param(None, id="none"),
    ],
)
def test_garbage_is_a_failed_proof_never_another_exception(pake: object) -> None:
    with pytest.raises(ProofFailed):
        TableProof("swordfish", BINDING).answer(pake)  # type: ignore[arg-type]
    client = ClientProof("swordfish", BINDING)
    client.start()
    with pytest.raises(ProofFailed):
        client.finish(pake, b"\0" * MAC_SIZE)  # type: ignore[arg-type]


def test_a_table_answers_once_and_checks_nothing_before() -> None:
    table = TableProof("swordfish", BINDING)
    assert not table.check(b"\0" * MAC_SIZE)
    with pytest.raises(ProofFailed):
        table.answer(b"A")
    with pytest.raises(ProofFailed):  # a second answer, even after a first that failed
        table.answer(ClientProof("swordfish", BINDING).start())
    assert not table.check("mac")  # type: ignore[arg-type]


def test_a_client_finishes_once_and_only_after_it_started() -> None:
    table = TableProof("swordfish", BINDING)
    with pytest.raises(ProofFailed):
        ClientProof("swordfish", BINDING).finish(b"B" * 33, b"\0" * 32)
    client = ClientProof("swordfish", BINDING)
    pake_b, mac = table.answer(client.start())
    client.finish(pake_b, mac)
    with pytest.raises(ProofFailed):
        client.finish(pake_b, mac)
    client = ClientProof("swordfish", BINDING)
    client.start()
    with pytest.raises(ProofFailed):
        client.finish(pake_b, b"short")


def test_a_relaying_man_in_the_middle_fails_on_both_sides() -> None:
    """The client's TLS link ends at the proxy (its certificate: one binding), the
    table's at the proxy too (the table's certificate: another).  Relaying every message
    unchanged, even knowing nothing, proves nothing to either end."""
    to_proxy, to_table = b"P" * 32, b"T" * 32
    client = ClientProof("swordfish", to_proxy)
    table = TableProof("swordfish", to_table)
    pake_b, mac = table.answer(client.start())  # relayed as they are
    with pytest.raises(ProofFailed):
        client.finish(pake_b, mac)
    # The same relay between two ends of one channel (one binding) proves both: what
    # fails above is the binding and nothing else.
    assert _run("swordfish", "swordfish", to_table) == (True, True)
    # And the table never takes a client mac made on another channel.
    client = ClientProof("swordfish", to_proxy)
    other = ClientProof("swordfish", to_proxy)
    table = TableProof("swordfish", to_table)
    pake_b, mac = table.answer(client.start())
    twin = TableProof("swordfish", to_proxy)  # what the client's channel would take
    answer = other.finish(*twin.answer(other.start()))
    assert not table.check(answer)


def _stream(seed: bytes) -> Callable[[int], bytes]:
    """A fixed stream of bytes standing in for ``os.urandom``: SHA-256 of seed + counter."""
    count = itertools.count()
    buffer = bytearray()

    def read(n: int) -> bytes:
        while len(buffer) < n:
            buffer.extend(hashlib.sha256(seed + next(count).to_bytes(4, "big")).digest())
        out = bytes(buffer[:n])
        del buffer[:n]
        return out

    return read


def test_the_known_answer_in_the_protocol_doc() -> None:
    """docs/protocol.md's worked example, for other programs to check theirs against."""
    pw = b"swordfish"
    a = spake2.SPAKE2_A(pw, idA=CLIENT_ID, idB=TABLE_ID, entropy_f=_stream(b"A"))
    b = spake2.SPAKE2_B(pw, idA=CLIENT_ID, idB=TABLE_ID, entropy_f=_stream(b"B"))
    pake_a, pake_b = a.start(), b.start()
    key = a.finish(pake_b)
    assert key == b.finish(pake_a)
    assert a.pw_scalar == (
        2698204967353244359647913643928388456923870627914602657580284865583717264457
    )
    assert a.xy_scalar == (
        2472799633488895958337251840567522557167566960959674312566884096036229698148
    )
    assert b.xy_scalar == (
        6133280778026833821472301765693852679346484555106070182052738719863089035529
    )
    assert pake_a.hex() == "41d60b6e82938340531dabb14d7b234d5208651c30e7a235fcb9ac4857e3142b5f"
    assert pake_b.hex() == "424c123f1520bedcdea93310832e8ed7a9be5f97dfdd46531e504a78f846e1f778"
    assert key.hex() == "207ab0c5a5cf36efc915b97329f5e62b8cb5023901df6ae955f6292c8f826591"
    assert table_mac(key, BINDING, pake_a, pake_b).hex() == (
        "789620b574152f0b1fc0fdac1e38fc1ffaed582fd81209ffeb25c08ea3f5cdf1"
    )
    assert client_mac(key, BINDING, pake_a, pake_b).hex() == (
        "7fb20e794df8a7ad8aeec4ce432f03e9212fb3602bc92ad935bfe9da6a456eba"
    )
    assert password_mac(key, pake_a, pake_b).hex() == (
        "6c81541939a5ddb5ddd4ef03d14970ce3f77ee803f405e9d79806a0be2cf89ed"
    )
