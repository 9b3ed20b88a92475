"""A table's key for tests: a self-signed certificate made once per test process, and
the TLS contexts of both ends, for hand-made servers that seal as the table does."""

from __future__ import annotations

import atexit
import functools
import shutil
import ssl
import tempfile
from dataclasses import dataclass
from pathlib import Path

from common.seal import channel_binding, key_fingerprint
from server.identity import server_context

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
    from server.identity import self_signed

    key_pem, cert_pem = self_signed(name)
    pem = folder / f"{name.replace(' ', '_')}.pem"
    pem.write_bytes(key_pem + cert_pem)
    pem.chmod(0o600)
    return Identity(pem, ssl.PEM_cert_to_DER_cert(cert_pem.decode("ascii")))


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
