"""The sealed wire: TLS without certificate authorities, and the table's key.

A table proves who it is by a key of its own (``server.identity``), in a self-signed
certificate.  A client checks the key itself, by its fingerprint: pinned on first use
(``client.pins``), or compared with one typed or announced on the network.  So the TLS
contexts here verify nothing, and nothing may be sent over a client's ``TlsPipe``
before the fingerprint of ``peer_certificate()`` has been checked.

- ``key_fingerprint`` is of the key, not the certificate: a table that issues itself a
  new certificate (a new name, say) keeps its identity.
- ``channel_binding``: both ends compute it for the one TLS connection they share; a
  proxy in the middle holds another certificate, so a password proof bound to it
  (``common.proof``) cannot be relayed.
- ``TlsPipe``: TLS with no socket of its own.  The server uses it inside its
  ``asyncio.Protocol``, whose first bytes were read to tell a ClientHello from a frame
  (``looks_like_tls``; ``loop.start_tls`` cannot be given bytes already read); the
  client on its thread's blocking socket, sending and receiving under one lock.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import ssl

__all__ = [
    "SHORT_KEY_LENGTH",
    "TlsPipe",
    "certificate_name",
    "channel_binding",
    "client_context",
    "key_fingerprint",
    "looks_like_tls",
    "normal_short_key",
    "same_key",
    "short_key",
]

SHORT_KEY_LENGTH = 16
"""Base32 characters of a short key: 80 bits."""

_B32 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
_READ = 65536


def looks_like_tls(first: bytes) -> bool:
    """Whether a connection's first bytes start a TLS record (a handshake, version 3.x).

    A frame of the protocol starts with its 4-byte big-endian length; one starting with
    0x16 would be over 369 MB, far past any frame's limit, so the two never meet."""
    return len(first) >= 1 and first[0] == 0x16 and (len(first) < 2 or first[1] == 0x03)


def key_fingerprint(cert_der: bytes) -> str:
    """SHA-256 of the certificate's public key (DER SubjectPublicKeyInfo), as hex.

    ValueError if ``cert_der`` is not a certificate."""
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    cert = x509.load_der_x509_certificate(cert_der)
    spki = cert.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    return hashlib.sha256(spki).hexdigest()


def short_key(fingerprint: str) -> str:
    """A fingerprint (64 hex digits) as people read it: ``7QKM-D2XA-PF4Z-LW3B``."""
    text = base64.b32encode(bytes.fromhex(fingerprint)[:10]).decode("ascii")
    return "-".join(text[i : i + 4] for i in range(0, SHORT_KEY_LENGTH, 4))


def normal_short_key(typed: str) -> str | None:
    """A short key as typed or announced, in its printed form; None if it is not one.

    >>> normal_short_key(" 7qkm d2xa-pf4z lw3b ")
    '7QKM-D2XA-PF4Z-LW3B'
    """
    text = "".join(c for c in typed.upper() if c not in " -\t")
    if len(text) != SHORT_KEY_LENGTH or not set(text) <= _B32:
        return None
    return "-".join(text[i : i + 4] for i in range(0, SHORT_KEY_LENGTH, 4))


def same_key(typed: str, fingerprint: str) -> bool:
    """Whether a short key (typed, or from the network announcement) names ``fingerprint``."""
    return normal_short_key(typed) == short_key(fingerprint)


def channel_binding(cert_der: bytes) -> bytes:
    """RFC 5929 ``tls-server-end-point``: SHA-256 of the server's certificate."""
    return hashlib.sha256(cert_der).digest()


def certificate_name(cert_der: bytes) -> str:
    """The table name a certificate gives as its subject's common name ('' if none)."""
    from cryptography import x509
    from cryptography.x509.oid import NameOID

    try:
        cert = x509.load_der_x509_certificate(cert_der)
        names = cert.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
    except ValueError:
        return ""
    value = names[0].value if names else ""
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return "".join(c for c in text if c.isprintable())[:40]


def client_context() -> ssl.SSLContext:
    """The game's side: TLS 1.3, and no certificate authority, host name or date checked,
    because the table's key is checked by its fingerprint instead (``client.pins``)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


class TlsPipe:
    """One TLS connection as a pipe of bytes (no socket): ``feed`` takes what came from the
    peer and returns the plaintext it held; ``write`` and ``outgoing`` give what must be
    sent to the peer, in order.  ``ssl.SSLError`` from ``feed`` means the peer sent
    something that is not TLS, or a handshake that failed: close the connection."""

    def __init__(self, context: ssl.SSLContext, *, server_side: bool) -> None:
        self._in = ssl.MemoryBIO()
        self._out = ssl.MemoryBIO()
        self._ssl = context.wrap_bio(self._in, self._out, server_side=server_side)
        self.ready = False
        """The handshake is done: ``write`` may be called and ``peer_certificate`` read."""
        self.peer_closed = False
        """The peer said it is done (TLS close_notify)."""

    def handshake(self) -> bool:
        """Move the handshake on with what has been fed; True once it is done.  The
        client's first call makes its ClientHello (then in ``outgoing``)."""
        if not self.ready:
            try:
                self._ssl.do_handshake()
            except ssl.SSLWantReadError:
                return False
            self.ready = True
        return True

    def feed(self, data: bytes) -> bytes:
        """Ciphertext from the peer in; the plaintext it completes out (maybe ``b""``).
        Anything the TLS layer must answer (the handshake) is left in ``outgoing``."""
        if data:
            self._in.write(data)
        if not self.handshake():
            return b""
        chunks = []
        while True:
            try:
                chunk = self._ssl.read(_READ)
            except ssl.SSLWantReadError:
                break
            except ssl.SSLZeroReturnError:
                self.peer_closed = True
                break
            if not chunk:  # what ssl.SSLObject.read gives for a close_notify
                self.peer_closed = True
                break
            chunks.append(chunk)
        return b"".join(chunks)

    def write(self, data: bytes) -> bytes:
        """Plaintext to send, once ``ready``: returns the ciphertext to write to the peer."""
        view = memoryview(data)
        while view:
            n = self._ssl.write(view)
            view = view[n:]
        return self._out.read()

    def outgoing(self) -> bytes:
        """Ciphertext the TLS layer has made and not yet handed over (handshake, alerts)."""
        return self._out.read()

    def close(self) -> bytes:
        """Say we are done (close_notify); returns the bytes to send.  Never raises."""
        # The peer need not have answered (nor the handshake have finished).
        with contextlib.suppress(ssl.SSLError, ValueError):
            self._ssl.unwrap()
        return self._out.read()

    def peer_certificate(self) -> bytes:
        """The peer's certificate, DER (after the handshake; ``b""`` if it sent none)."""
        return self._ssl.getpeercert(binary_form=True) or b""

    @property
    def version(self) -> str:
        """``TLSv1.3`` and the like, once the handshake is done."""
        return self._ssl.version() or ""
