"""The table's key: who this table is, across restarts and nights.

One EC P-256 key per server data folder, ``<data_dir>/table.key`` (PEM, PKCS #8, 0600,
in a 0700 folder: ``server.files.private_dir``), made on the first start and kept.
The data folder is the server's own (``server.folders.server_dir``, or ``--data-dir``),
never the histories folder, which people zip and send to each other; a key an older
version kept there is moved over on the first start (``old``).  At each start a
self-signed certificate is issued from it in memory: its common name is the table's
name, it is signed with SHA-256 (so ``common.seal.channel_binding`` is RFC 5929's
``tls-server-end-point``) and valid from yesterday for 20 years (clients check the key
by its fingerprint, never the dates; yesterday covers a friend's clock that is a little
behind).  The fingerprint is of the key (``common.seal.key_fingerprint``), so a table
renamed, or started again, keeps its identity.

Invariants:

- The key file is never read by anyone but its owner: it is written 0600 through a
  temporary file (``server.files.write_private``), and the one file ``ssl`` needs to
  load key and certificate (``load_cert_chain`` takes no bytes) is an anonymous memory
  file where the system has them (Linux: nothing on disk, so a full disk does not stop
  a start), else made 0600 in the same private folder (or a new private temporary one,
  when that cannot be written), with a name of its own, and removed at once.
- A key file that cannot be read as an EC P-256 key (a folder in its place, a pipe,
  too large, not PEM) is never overwritten: it is set aside as
  ``table.key.broken-<time>`` (``server.files``, one log line) and a new key is made, so
  a table that lost its key says so instead of failing to start.
- No file stops the table: a key that cannot be kept (a folder that cannot be written,
  a key that cannot be set aside) is made for this start only, with a log line.
- The key is moved from the histories folder once, 0600, with a log line, and never
  over a key already in the data folder (the old one is then left, and named in a
  warning at each start).

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
    """``server_context`` with the certificate and key loaded."""
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


def load_identity(folder: Path, name: str = "", *, old: Path | None = None) -> Identity:
    """The table's key from ``folder`` (made there on the first start; moved there from
    the folder ``old`` where an older version kept it), and a new certificate for
    ``name``.  Never fails for a file: a key that cannot be kept serves this start only."""
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
    context = _context(folder, _key_pem(key) + cert_pem)
    der = ssl.PEM_cert_to_DER_cert(cert_pem.decode("ascii"))
    return Identity(context=context, cert_der=der, fingerprint=seal.key_fingerprint(der), path=path)


def _read_key(path: Path) -> ec.EllipticCurvePrivateKey | None:
    """The key kept at ``path``; None if there is none yet, or it was broken (and set
    aside: OSError if it cannot be)."""
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
    """Move the key an older version kept at ``old`` (the histories folder) to ``path``,
    once, never over a key there; a plain file only (anything else stays where it is)."""
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


def server_context(certfile: str, keyfile: str | None = None) -> ssl.SSLContext:
    """The table's side of TLS, from the files of its certificate and key; no client
    certificates.  TLS 1.2 at least, so that other programs' clients can seal too; the
    game's client uses 1.3 (``common.seal.client_context``)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(certfile, keyfile)
    return ctx


def _context(folder: Path, pem: bytes) -> ssl.SSLContext:
    """``server_context`` loaded from ``pem`` (key and certificate).  Where
    the system has anonymous memory files (Linux) through one of those, so that nothing
    is written and a table starts on a full disk too; elsewhere through a 0600 file in
    the private ``folder`` that is removed at once (in a new private temporary folder
    when ``folder`` cannot be written)."""
    if hasattr(os, "memfd_create") and os.path.isdir("/proc/self/fd"):
        fd = os.memfd_create("table-cert", os.MFD_CLOEXEC)
        try:
            view = memoryview(pem)
            while view:
                view = view[os.write(fd, view) :]
            return server_context(f"/proc/self/fd/{fd}")
        finally:
            os.close(fd)
    try:
        return _context_in(folder, pem)
    except OSError:
        with tempfile.TemporaryDirectory() as tmp:  # 0700, removed with the file
            return _context_in(Path(tmp), pem)


def _context_in(folder: Path, pem: bytes) -> ssl.SSLContext:
    tmp = folder / f".table-cert-{secrets.token_hex(8)}.pem"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
        return server_context(str(tmp))
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
