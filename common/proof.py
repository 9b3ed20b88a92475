"""The password proof: both ends show they know the table's password, over TLS, without
sending it (``docs/protocol.md``, "The password proof").

SPAKE2 (the ``spake2`` package, its default Ed25519 group) turns the password into a
key ``K`` that only two ends knowing it agree on; nobody watching, and nobody in the
middle who does not know it, learns anything from the two messages.  Each end then
proves it holds ``K`` with an HMAC over the TLS channel's binding
(``common.seal.channel_binding``) and both messages, so a proof made on one TLS
connection is worth nothing on another: a man in the middle holds two connections, with
two bindings, and cannot relay either side's proof to the other.

The table also proves ``K`` without the binding (``password_mac``), so that a client
whose check of the table's mac fails can tell a mistyped password (``WrongPassword``)
from a relay (``Relayed``: the same ``K`` over two TLS channels).  It says nothing the
table's mac did not: both are worth something only to whoever holds ``K``.

Bad input from the other end (wrong lengths, bytes that are not a point of the group, a
message of the wrong side) is ``ProofFailed`` or ``False``, never another exception.
Pure computation: no I/O.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Protocol, cast

import spake2  # type: ignore[import-untyped]

__all__ = [
    "CLIENT_ID",
    "MAC_SIZE",
    "PAKE_SIZE",
    "TABLE_ID",
    "ClientProof",
    "ProofFailed",
    "Relayed",
    "TableProof",
    "WrongPassword",
    "client_mac",
    "password_mac",
    "table_mac",
]

CLIENT_ID = b"seventh-street client"
"""SPAKE2's ``idA``: the client's side."""
TABLE_ID = b"seventh-street table"
"""SPAKE2's ``idB``: the table's side."""
PAKE_SIZE = 33
"""A SPAKE2 message: its side (``A`` or ``B``) and a 32-byte Ed25519 point."""
MAC_SIZE = 32
"""An HMAC-SHA256."""


class ProofFailed(Exception):
    """The other end did not prove it knows the password (or sent something that is not
    a proof at all)."""


class WrongPassword(ProofFailed):
    """The table proved a key that is not ours: its password is not the one typed."""


class Relayed(ProofFailed):
    """The table knows the password, but its proof was made on another TLS channel: the
    link is relayed by someone in the middle (or a proxy with its own certificate)."""


class _Side(Protocol):
    """What ``spake2.SPAKE2_A``/``SPAKE2_B`` are used for here."""

    def start(self) -> bytes: ...

    def finish(self, inbound: bytes) -> bytes: ...


def _side(kind: str, password: str) -> _Side:
    maker = spake2.SPAKE2_A if kind == "A" else spake2.SPAKE2_B
    return cast(_Side, maker(password.encode("utf-8"), idA=CLIENT_ID, idB=TABLE_ID))


def _finish(side: _Side, inbound: bytes) -> bytes:
    """SPAKE2's key from the other side's message; ``ProofFailed`` if it is not one."""
    if not isinstance(inbound, bytes) or len(inbound) != PAKE_SIZE:
        raise ProofFailed("not a password proof")
    try:
        key = side.finish(inbound)
    except Exception as exc:  # the package's own errors, ValueError, TypeError...
        raise ProofFailed("not a password proof") from exc
    return bytes(key)


def table_mac(key: bytes, binding: bytes, pake_a: bytes, pake_b: bytes) -> bytes:
    """The table's proof: HMAC-SHA256(K, "table" + binding + A + B)."""
    return hmac.new(key, b"table" + binding + pake_a + pake_b, hashlib.sha256).digest()


def client_mac(key: bytes, binding: bytes, pake_a: bytes, pake_b: bytes) -> bytes:
    """The client's proof: HMAC-SHA256(K, "client" + binding + A + B)."""
    return hmac.new(key, b"client" + binding + pake_a + pake_b, hashlib.sha256).digest()


def password_mac(key: bytes, pake_a: bytes, pake_b: bytes) -> bytes:
    """The table's proof of ``K`` alone, on no channel: HMAC-SHA256(K, "password" + A + B).
    It tells a client whose check failed whether the password was wrong or relayed."""
    return hmac.new(key, b"password" + pake_a + pake_b, hashlib.sha256).digest()


class ClientProof:
    """The client's side of one proof, on one TLS connection."""

    def __init__(self, password: str, binding: bytes) -> None:
        self._side = _side("A", password)
        self._binding = binding
        self._pake_a = b""
        self._done = False

    def start(self) -> bytes:
        """The hello's ``pake`` (once)."""
        if not self._pake_a:
            self._pake_a = self._side.start()
        return self._pake_a

    def finish(self, pake_b: bytes, mac: bytes, pw_mac: bytes | None = None) -> bytes:
        """The client's ``proof`` mac, once the table's ``mac`` is right; else
        ``ProofFailed``: ``WrongPassword`` or ``Relayed`` when the table's ``pw_mac``
        says which (a table that sends none leaves it open)."""
        if self._done or not self._pake_a:
            raise ProofFailed("a proof is finished once, after it started")
        self._done = True
        key = _finish(self._side, pake_b)
        want = table_mac(key, self._binding, self._pake_a, pake_b)
        if isinstance(mac, bytes) and hmac.compare_digest(mac, want):
            return client_mac(key, self._binding, self._pake_a, pake_b)
        if not isinstance(pw_mac, bytes) or len(pw_mac) != MAC_SIZE:
            raise ProofFailed("the table could not prove it knows the password")
        if hmac.compare_digest(pw_mac, password_mac(key, self._pake_a, pake_b)):
            raise Relayed("the table knows the password, but proved it on another link")
        raise WrongPassword("the table's password is not this one")


class TableProof:
    """The table's side of one proof, on one TLS connection."""

    def __init__(self, password: str, binding: bytes) -> None:
        self._side = _side("B", password)
        self._binding = binding
        self._want: bytes | None = None
        self._pw_mac = b""
        self._answered = False

    def answer(self, pake_a: bytes) -> tuple[bytes, bytes]:
        """The ``proof`` message's ``pake`` and ``mac`` for the hello's ``pake``;
        ``ProofFailed`` if it is not one (or this proof has answered already)."""
        if self._answered:
            raise ProofFailed("a proof is answered once")
        self._answered = True
        pake_b = self._side.start()
        key = _finish(self._side, pake_a)
        self._want = client_mac(key, self._binding, pake_a, pake_b)
        self._pw_mac = password_mac(key, pake_a, pake_b)
        return pake_b, table_mac(key, self._binding, pake_a, pake_b)

    def password_mac(self) -> bytes:
        """The ``proof`` message's ``pw_mac`` (after ``answer``): ``K`` proved on no
        channel, so that a client can tell a wrong password from a relay."""
        if not self._pw_mac:
            raise ProofFailed("a proof is answered before its password mac")
        return self._pw_mac

    def check(self, mac: bytes) -> bool:
        """Whether the client's mac shows it knows the password (False before ``answer``)."""
        want = self._want
        if want is None or not isinstance(mac, bytes):
            return False
        return hmac.compare_digest(mac, want)
