"""``common.seal``: TLS as a pipe of bytes, and the table key's fingerprints.

No sockets: two ``TlsPipe`` ends hand each other their bytes.  The certificate is a
table's own (``server.identity``), made once for the module.
"""

from __future__ import annotations

import hashlib
import ssl
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from common import seal
from server.identity import Identity, load_identity

pytestmark = pytest.mark.timeout(30)


@pytest.fixture(scope="module")
def identity(tmp_path_factory: pytest.TempPathFactory) -> Identity:
    return load_identity(tmp_path_factory.mktemp("key"), "Kitchen table")


def _shake(client: seal.TlsPipe, server: seal.TlsPipe) -> None:
    """Hand the two ends each other's bytes until both are done with the handshake."""
    client.handshake()
    for _ in range(10):
        server.feed(client.outgoing())
        client.feed(server.outgoing())
        if client.ready and server.ready:
            return
    raise AssertionError("the handshake never ended")


def _pair(identity: Identity) -> tuple[seal.TlsPipe, seal.TlsPipe]:
    client = seal.TlsPipe(seal.client_context(), server_side=False)
    server = seal.TlsPipe(identity.context, server_side=True)
    _shake(client, server)
    return client, server


def test_a_pipe_carries_bytes_both_ways_encrypted(identity: Identity) -> None:
    client, server = _pair(identity)
    assert client.version == server.version == "TLSv1.3"
    secret = b"Ah Kd: the hole cards" * 2000  # more than one TLS record
    wire = client.write(secret)
    assert secret[:21] not in wire
    assert server.feed(wire) == secret
    back = server.write(b"welcome")
    assert b"welcome" not in back
    assert client.feed(back) == b"welcome"


def test_bytes_split_anywhere_come_out_whole(identity: Identity) -> None:
    client, server = _pair(identity)
    wire = client.write(b"one frame") + client.write(b" and another")
    got = b"".join(server.feed(wire[i : i + 3]) for i in range(0, len(wire), 3))
    assert got == b"one frame and another"


def test_the_client_sees_the_tables_certificate_and_both_share_the_binding(
    identity: Identity,
) -> None:
    client, _server = _pair(identity)
    der = client.peer_certificate()
    assert der == identity.cert_der
    assert seal.channel_binding(der) == identity.binding == hashlib.sha256(der).digest()
    assert seal.key_fingerprint(der) == identity.fingerprint
    assert seal.certificate_name(der) == "Kitchen table"


def test_close_notify_reaches_the_peer(identity: Identity) -> None:
    client, server = _pair(identity)
    assert server.feed(client.close()) == b""
    assert server.peer_closed


@pytest.mark.parametrize(
    "garbage",
    [b"\x16\x03\x01\x00\x05hello", b"\x16\x03" + bytes(range(256)) * 4, b"GET / HTTP/1.1\r\n\r\n"],
    ids=["short-record", "noise-after-header", "http"],
)
def test_garbage_is_an_ssl_error(identity: Identity, garbage: bytes) -> None:
    server = seal.TlsPipe(identity.context, server_side=True)
    with pytest.raises(ssl.SSLError):
        server.feed(garbage)


def test_a_half_client_hello_waits_for_more(identity: Identity) -> None:
    client = seal.TlsPipe(seal.client_context(), server_side=False)
    client.handshake()
    hello = client.outgoing()
    server = seal.TlsPipe(identity.context, server_side=True)
    assert server.feed(hello[:20]) == b"" and not server.ready
    server.feed(hello[20:])
    assert server.outgoing()  # the ServerHello


@pytest.mark.parametrize(
    ("first", "tls"),
    [
        (b"\x16", True),
        (b"\x16\x03", True),
        (b"\x16\x03\x01\x02\x00", True),
        (b"\x16\x02", False),
        (b"\x00\x00\x00\x20", False),
        (b"", False),
    ],
    ids=["one-byte", "two-bytes", "record-header", "not-version-3", "a-frame", "nothing"],
)
def test_looks_like_tls(first: bytes, tls: bool) -> None:
    assert seal.looks_like_tls(first) is tls


def test_the_fingerprint_is_of_the_public_key(identity: Identity) -> None:
    cert = x509.load_der_x509_certificate(identity.cert_der)
    spki = cert.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    assert identity.fingerprint == hashlib.sha256(spki).hexdigest()
    assert len(identity.fingerprint) == 64


def test_short_key_is_the_first_80_bits_in_base32() -> None:
    fingerprint = "00" * 32
    assert seal.short_key(fingerprint) == "AAAA-AAAA-AAAA-AAAA"
    fingerprint = "ff" * 10 + "00" * 22
    assert seal.short_key(fingerprint) == "7777-7777-7777-7777"


@pytest.mark.parametrize(
    ("typed", "normal"),
    [
        ("7QKM-D2XA-PF4Z-LW3B", "7QKM-D2XA-PF4Z-LW3B"),
        ("7qkmd2xapf4zlw3b", "7QKM-D2XA-PF4Z-LW3B"),
        (" 7qkm d2xa-pf4z lw3b ", "7QKM-D2XA-PF4Z-LW3B"),
        ("7QKM-D2XA-PF4Z-LW3", None),
        ("7QKM-D2XA-PF4Z-LW3B1", None),
        ("7QKM-D2XA-PF4Z-LW31", None),  # 1 is no base32 digit
        ("", None),
    ],
    ids=["printed", "run-together", "spaces", "short", "long", "not-base32", "empty"],
)
def test_short_key_forms(typed: str, normal: str | None) -> None:
    assert seal.normal_short_key(typed) == normal


def test_same_key_matches_the_typed_form(identity: Identity) -> None:
    short = identity.short
    assert seal.same_key(short.lower().replace("-", " "), identity.fingerprint)
    other = "A" * 4 + short[4:] if not short.startswith("AAAA") else "B" * 4 + short[4:]
    assert not seal.same_key(other, identity.fingerprint)


def test_certificate_name_of_no_certificate_is_empty() -> None:
    assert seal.certificate_name(b"not a certificate") == ""


def test_a_missing_folder_is_made_private(tmp_path: Path) -> None:
    folder = tmp_path / "a" / "b"
    load_identity(folder)
    assert (folder / "table.key").exists()
