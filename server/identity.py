"""The table's key: who this table is, across restarts and nights.

One EC P-256 key per server data folder, ``<history_dir>/table.key`` (PEM, PKCS #8,
0600, in a 0700 folder: ``common.exports.private_dir``), made on the first start and
kept.  At each start a self-signed certificate is issued from it in memory: its common
name is the table's name, it is signed with SHA-256 (so ``common.seal.channel_binding``
is RFC 5929's ``tls-server-end-point``) and valid from yesterday for 20 years (clients
check the key by its fingerprint, never the dates; yesterday covers a friend's clock
that is a little behind).  The fingerprint is of the key (``common.seal.key_fingerprint``),
so a table renamed, or started again, keeps its identity.

Invariants:

- The key file is never read by anyone but its owner: it is written 0600 through a
  temporary file (``common.exports.write_private``), and the one file ``ssl`` needs to
  load key and certificate (``load_cert_chain`` takes no bytes) is an anonymous memory
  file where the system has them (Linux: nothing on disk, so a full disk does not stop
  a start), else made 0600 in the same private folder, with a name of its own, and
  removed at once.
- A key file that cannot be read as an EC P-256 key is never overwritten: it is set
  aside as ``table.key.broken-<time>`` (with a log line) and a new key is made, so a
  table that lost its key says so instead of failing to start.

Why ``cryptography``: the standard library's ``ssl`` can use a certificate but cannot
make a key or issue a certificate, and shelling out to ``openssl`` would need a binary
that Windows and many Macs lack.  ``cryptography`` is the well-kept library for it (the
Python Cryptographic Authority's, with wheels for every platform we ship to).
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import os
import secrets
import ssl
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from common import seal
from common.exports import private_dir, write_private

__all__ = ["KEY_FILE", "Identity", "load_identity", "self_signed"]

log = logging.getLogger("server")

KEY_FILE = "table.key"
DEFAULT_NAME = "Seventh Street"
"""The certificate's common name for a table with no name."""
VALID_YEARS = 20


@dataclass(frozen=True, slots=True)
class Identity:
    """The table's key, its certificate of this start, and the TLS context that uses them."""

    context: ssl.SSLContext
    """``common.seal.server_context`` with the certificate and key loaded."""
    cert_der: bytes
    fingerprint: str
    """``common.seal.key_fingerprint``: SHA-256 of the key, 64 hex digits."""
    path: Path
    """The key file."""

    @property
    def short(self) -> str:
        """The short key people read and type (``7QKM-D2XA-PF4Z-LW3B``)."""
        return seal.short_key(self.fingerprint)

    @property
    def binding(self) -> bytes:
        """``common.seal.channel_binding`` of the certificate: the same for every
        sealed connection of this start."""
        return seal.channel_binding(self.cert_der)


def load_identity(folder: Path, name: str = "") -> Identity:
    """The table's key from ``folder`` (made there on the first start), and a new
    certificate for ``name``.  OSError if the folder cannot be written."""
    private_dir(folder)
    path = folder / KEY_FILE
    key = _read_key(path)
    if key is None:
        key = _new_key(path)
    cert_pem = _certificate(key, name.strip() or DEFAULT_NAME)
    key_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    context = _context(folder, key_pem + cert_pem)
    der = ssl.PEM_cert_to_DER_cert(cert_pem.decode("ascii"))
    return Identity(context=context, cert_der=der, fingerprint=seal.key_fingerprint(der), path=path)


def _read_key(path: Path) -> ec.EllipticCurvePrivateKey | None:
    """The key kept at ``path``; None if there is none yet, or it was broken (and set aside)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        key = serialization.load_pem_private_key(data, password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
            raise ValueError("not an EC P-256 key")
    except (ValueError, TypeError) as exc:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        aside = path.with_name(f"{path.name}.broken-{stamp}")
        os.replace(path, aside)
        log.warning(
            "the table's key %s cannot be read (%s): set aside as %s; a new key is made,"
            " so friends' games will see a new key for this table",
            path,
            exc,
            aside.name,
        )
        return None
    if os.name == "posix" and path.stat().st_mode & 0o077:
        os.chmod(path, 0o600)  # a key copied in with looser modes
    return key


def _new_key(path: Path) -> ec.EllipticCurvePrivateKey:
    key = ec.generate_private_key(ec.SECP256R1())
    write_private(path, _key_pem(key).decode("ascii"))
    log.info("a new key for this table is in %s", path)
    return key


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def self_signed(name: str) -> tuple[bytes, bytes]:
    """A new P-256 key and a certificate issued from it naming ``name``, both PEM (key,
    certificate): a table's identity as this module makes one, kept nowhere.  For tests,
    and for a stand-in that must look like a table (a man in the middle, in tests)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return _key_pem(key), _certificate(key, name)


def _certificate(key: ec.EllipticCurvePrivateKey, name: str) -> bytes:
    """A self-signed certificate for ``key``, naming the table; PEM."""
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    start = now - datetime.timedelta(days=1)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(start + datetime.timedelta(days=365 * VALID_YEARS + 5))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    return cert.public_bytes(serialization.Encoding.PEM)


def _context(folder: Path, pem: bytes) -> ssl.SSLContext:
    """``common.seal.server_context`` loaded from ``pem`` (key and certificate).  Where
    the system has anonymous memory files (Linux) through one of those, so that nothing
    is written and a table starts on a full disk too; elsewhere through a 0600 file in
    the private ``folder`` that is removed at once."""
    if hasattr(os, "memfd_create") and os.path.isdir("/proc/self/fd"):
        fd = os.memfd_create("table-cert", os.MFD_CLOEXEC)
        try:
            view = memoryview(pem)
            while view:
                view = view[os.write(fd, view) :]
            return seal.server_context(f"/proc/self/fd/{fd}")
        finally:
            os.close(fd)
    tmp = folder / f".table-cert-{secrets.token_hex(8)}.pem"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
        return seal.server_context(str(tmp))
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
