"""The table's key: who this table is, across restarts and nights.

One EC P-256 key per server data folder, ``<data_dir>/table.key`` (PEM, PKCS #8, 0600,
in a 0700 folder), made on the first start and kept; never in the histories folder,
which people share (a key an older version kept there is moved over: ``old``).  At each
start a self-signed certificate is issued from it in memory, naming the table, signed
with SHA-256 (so ``common.seal.channel_binding`` is RFC 5929's ``tls-server-end-point``),
valid from yesterday for 20 years (clients check the key's fingerprint, never the
dates).  The fingerprint is of the key, so a table renamed or restarted keeps it.

Invariants:

- The key file is never read by anyone but its owner: it is written 0600
  (``server.files.write_private``), and the one file ``ssl`` needs to load key and
  certificate is an anonymous memory file where the system has them (Linux: a full
  disk does not stop a start), else a 0600 file in a private temporary folder removed
  at once.
- A key file that cannot be read as an EC P-256 key is never overwritten: it is set
  aside (``server.files``, one log line) and a new key is made.
- No file stops the table: a key that cannot be kept (a folder that cannot be written,
  a key that cannot be set aside) is made for this start only, with a log line.
- The key is moved from the histories folder once, 0600, with a log line, and never
  over a key already in the data folder (the old one is then left, and named in a
  warning at each start).

Why ``cryptography``: ``ssl`` cannot make a key or issue a certificate, and ``openssl``
is a binary Windows and many Macs lack; ``cryptography`` has wheels for every platform.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import os
import ssl
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from common import seal
from server import files
from server.files import private_dir, write_private

__all__ = ["KEY_FILE", "Identity", "load_identity", "self_signed", "server_context"]

log = logging.getLogger("server")

KEY_FILE = "table.key"
DEFAULT_NAME = "Seventh Street"
"""The certificate's common name for a table with no name."""
VALID_YEARS = 20
MAX_KEY_BYTES = 64 * 1024
"""A P-256 key in PEM is under 300 bytes."""


@dataclass(frozen=True, slots=True)
class Identity:
    """The table's key, its certificate of this start, and the TLS context that uses them."""

    context: ssl.SSLContext
    cert_der: bytes
    fingerprint: str
    """``common.seal.key_fingerprint``: SHA-256 of the key, 64 hex digits."""
    path: Path

    @property
    def short(self) -> str:
        """The short key people read and type (``7QKM-D2XA-PF4Z-LW3B``)."""
        return seal.short_key(self.fingerprint)

    @property
    def binding(self) -> bytes:
        """``common.seal.channel_binding`` of the certificate."""
        return seal.channel_binding(self.cert_der)


def load_identity(folder: Path, name: str = "", *, old: Path | None = None) -> Identity:
    """The table's key from ``folder`` (made, or moved from ``old``, on the first start)
    and a new certificate for ``name``; a key that cannot be kept serves this start."""
    path = folder / KEY_FILE
    try:
        private_dir(folder)
        if old is not None:
            _move_old_key(old / KEY_FILE, path)
        key = _read_key(path) or _new_key(path)
    except OSError as exc:
        log.warning(
            "the table's key cannot be kept in %s (%s): a key for this start only, so"
            " friends' games will see a new key for this table next time",
            folder,
            exc.strerror or exc,
        )
        key = ec.generate_private_key(ec.SECP256R1())
    cert_pem = _certificate(key, name.strip() or DEFAULT_NAME)
    context = _context(_key_pem(key) + cert_pem)
    der = ssl.PEM_cert_to_DER_cert(cert_pem.decode("ascii"))
    return Identity(context=context, cert_der=der, fingerprint=seal.key_fingerprint(der), path=path)


def _read_key(path: Path) -> ec.EllipticCurvePrivateKey | None:
    """The key kept at ``path``; None if none, or broken and set aside (else OSError)."""
    try:
        data = files.read_bytes(path, limit=MAX_KEY_BYTES)
        if data is None:
            return None
        key = serialization.load_pem_private_key(data, password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
            raise ValueError("not an EC P-256 key")
    except (ValueError, TypeError) as exc:  # files.Unreadable is a ValueError
        then = "a new key is made, so friends' games will see a new key for this table"
        if files.set_aside(path, str(exc), what="the table's key", then=then, logger=log) is None:
            raise OSError(f"{path} cannot be read nor set aside") from None
        return None
    with contextlib.suppress(OSError):  # a key that cannot be made private still serves
        if os.name == "posix" and path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)  # a key copied in with looser modes
    return key


def _move_old_key(old: Path, path: Path) -> None:
    """Move a plain file ``old`` to ``path``, never over a key there."""
    try:
        if old == path or not stat.S_ISREG(os.lstat(old).st_mode):
            return
    except OSError:
        return  # none: the usual case
    if os.path.lexists(path):
        log.warning("an older copy of the table's key is still in %s, a folder people share:"
                    " this table uses %s; delete the old one", old, path)  # fmt: skip
        return
    try:
        try:
            os.link(old, path)  # a rename that never replaces a file at ``path``
        except OSError:  # another file system
            data = files.read_bytes(old, limit=MAX_KEY_BYTES) or b""
            write_private(path, data.decode("ascii"))
        if os.name == "posix":
            os.chmod(path, 0o600)
        old.unlink()
    except (OSError, ValueError) as exc:
        log.warning("cannot move the table's key from %s to %s (%s)", old, path, exc)
        return
    log.info("moved the table's key from %s to %s, the server's own folder (the histories"
             " folder is shared)", old, path)  # fmt: skip


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
    """A new key and its certificate naming ``name``, both PEM, kept nowhere (tests)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return _key_pem(key), _certificate(key, name)


def _certificate(key: ec.EllipticCurvePrivateKey, name: str) -> bytes:
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


def server_context(certfile: str, keyfile: str | None = None) -> ssl.SSLContext:
    """The table's side of TLS from its certificate and key files: TLS 1.2 at least, so
    other programs' clients seal too (the game's uses 1.3)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(certfile, keyfile)
    return ctx


def _context(pem: bytes) -> ssl.SSLContext:
    """``server_context`` loaded from ``pem`` through an anonymous memory file (Linux),
    else a 0600 file in a new private temporary folder, removed at once."""
    if hasattr(os, "memfd_create") and os.path.isdir("/proc/self/fd"):
        fd = os.memfd_create("table-cert", os.MFD_CLOEXEC)
        try:
            view = memoryview(pem)
            while view:
                view = view[os.write(fd, view) :]
            return server_context(f"/proc/self/fd/{fd}")
        finally:
            os.close(fd)
    with tempfile.TemporaryDirectory() as tmp:  # 0700, removed with the file
        path = Path(tmp) / "table-cert.pem"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
        return server_context(str(path))
