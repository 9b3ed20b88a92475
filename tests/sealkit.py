"""A table's key for tests: a self-signed certificate made once per test process, and
the TLS contexts of both ends, for hand-made servers that seal as the table does."""

from __future__ import annotations

import atexit
import datetime
import functools
import shutil
import ssl
import tempfile
from dataclasses import dataclass
from pathlib import Path

from common.seal import channel_binding, key_fingerprint, server_context

__all__ = ["Identity", "identity", "make_identity", "table_context"]


@dataclass(frozen=True, slots=True)
class Identity:
    """A key and its certificate: ``pem`` holds both, for ``load_cert_chain``."""

    pem: Path
    der: bytes

    @property
    def fingerprint(self) -> str:
        return key_fingerprint(self.der)

    @property
    def binding(self) -> bytes:
        return channel_binding(self.der)

    def context(self) -> ssl.SSLContext:
        return server_context(str(self.pem))


def make_identity(folder: Path, name: str = "Test table") -> Identity:
    """A new EC P-256 key and a self-signed certificate naming ``name``, in ``folder``."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=3650))
        .sign(key, hashes.SHA256())
    )
    pem = folder / f"{name.replace(' ', '_')}.pem"
    pem.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        + cert.public_bytes(serialization.Encoding.PEM)
    )
    pem.chmod(0o600)
    return Identity(pem, cert.public_bytes(serialization.Encoding.DER))


@functools.cache
def _folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="stud-keys-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


@functools.cache
def identity(name: str = "Test table") -> Identity:
    """One identity per ``name`` for the whole test process."""
    return make_identity(_folder(), name)


def table_context(name: str = "Test table") -> ssl.SSLContext:
    """The server side's TLS context of ``identity(name)``."""
    return identity(name).context()
