"""Someone on the Wi-Fi, over loopback: a tap that records the wire, and a man in the middle.

Issue 18's tests need to see what crosses the network between a client and a table:

- ``WireTap(port)``: a TCP proxy on 127.0.0.1 (port 0) that forwards both ways and keeps
  every byte of each link, as a packet capture would (``up``: client to server,
  ``down``: server to client).  It reads nothing, it changes nothing, until it is told
  to ``swallow``: then every link open at that moment keeps reading both ways and
  throws everything away (``swallowed`` counts it): no FIN, no RST, nothing delivered,
  as when a laptop sleeps or leaves the Wi-Fi (R-C1).  Links opened after it forward
  again (the laptop is back).  The kernel still acknowledges on the proxy's side, so
  only an application-level check can see that the other end is gone.
- ``Middle(port, name=...)``: a proxy that ends the client's TLS with a certificate of
  its own (a fresh P-256 key, its common name the same table name, so that it looks
  like the table in every way but the key), opens its own connection to the real table
  (TLS, or plain with ``sealed=False``) and relays the plaintext both ways, recording
  it: what a man in the middle learns.  A test shows that it learned nothing, and that
  the client refused it.

Both run on an event loop of their own thread (a blocking client such as the game's
can use them as well as an asyncio test), take the table's address as a port on
127.0.0.1, and are context managers.  ``frames`` reads recorded plaintext back into
messages; ``tls_records`` reads a recorded stream as TLS records (and fails on
anything else).
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import struct
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from common.protocol import FrameDecoder
from common.seal import client_context, key_fingerprint
from server.identity import server_context

__all__ = [
    "ALERT",
    "APPLICATION_DATA",
    "CHANGE_CIPHER_SPEC",
    "HANDSHAKE",
    "LOOPBACK",
    "Middle",
    "Record",
    "WireTap",
    "frames",
    "make_certificate",
    "tls_records",
]

LOOPBACK = "127.0.0.1"
_READ = 65536


@dataclass
class Record:
    """One link through a proxy: what went each way, in order.  For a ``WireTap`` the
    bytes on the wire; for a ``Middle`` the plaintext it saw inside the two TLS links."""

    up: bytearray = field(default_factory=bytearray)
    """From the client to the table."""
    down: bytearray = field(default_factory=bytearray)
    """From the table to the client."""
    closed: bool = False
    """Both ends are done."""
    swallowing: bool = False
    """Everything is thrown away, both ways (``swallow``)."""


class _Proxy:
    """What both proxies share: a listener on 127.0.0.1 on an event loop of its own
    thread, one upstream link to the table per client link, and the records."""

    def __init__(self, target_port: int, target_host: str = LOOPBACK) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self.records: list[Record] = []
        self.errors: list[str] = []
        """Why links ended badly (a failed TLS handshake on either side, say)."""
        self.swallowed = 0
        """Bytes thrown away since ``swallow``."""
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: list[asyncio.StreamWriter] = []

    # ---- what tests read (any thread)

    @property
    def up(self) -> bytes:
        """Every link's bytes from the client, one after the other."""
        with self._lock:
            return b"".join(bytes(r.up) for r in self.records)

    @property
    def down(self) -> bytes:
        """Every link's bytes from the table, one after the other."""
        with self._lock:
            return b"".join(bytes(r.down) for r in self.records)

    def links(self) -> list[Record]:
        with self._lock:
            return list(self.records)

    def swallow(self) -> None:
        """Every link open now turns into a black hole, both ways."""
        with self._lock:
            for record in self.records:
                record.swallowing = True

    # ---- starting and stopping (any thread)

    def start(self) -> _Proxy:
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(self._listen(), self._loop)
        self.port = future.result(10)
        return self

    def close(self) -> None:
        if not self._thread.is_alive():
            return
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    def __enter__(self) -> _Proxy:
        return self.start() if not self._thread.is_alive() else self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- the loop's side

    def _listen_ssl(self) -> ssl.SSLContext | None:
        return None

    def _upstream_ssl(self) -> ssl.SSLContext | None:
        return None

    async def _listen(self) -> int:
        self._server = await asyncio.start_server(self._accept, LOOPBACK, 0, ssl=self._listen_ssl())
        return int(self._server.sockets[0].getsockname()[1])

    async def _stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for writer in self._writers:
            writer.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:  # so that closing the proxy ends it
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        record = Record()
        with self._lock:
            self.records.append(record)
        self._writers.append(writer)
        try:
            context = self._upstream_ssl()
            up_reader, up_writer = await asyncio.open_connection(
                *self.target, ssl=context, server_hostname="" if context else None
            )
        except (OSError, ssl.SSLError) as exc:
            self.errors.append(f"upstream: {exc}")
            writer.close()
            record.closed = True
            return
        self._writers.append(up_writer)
        pumps = [
            self._pump(record, reader, up_writer, record.up),
            self._pump(record, up_reader, writer, record.down),
        ]
        await asyncio.gather(*pumps, return_exceptions=True)
        record.closed = True

    async def _pump(
        self, record: Record, src: asyncio.StreamReader, dst: asyncio.StreamWriter,
        into: bytearray,
    ) -> None:  # fmt: skip
        """Forward ``src`` to ``dst`` until it ends, keeping every byte in ``into``; an
        end on one side is passed on as a close to the other (a black hole says nothing)."""
        try:
            while data := await src.read(_READ):
                with self._lock:
                    if record.swallowing:
                        self.swallowed += len(data)
                        continue
                    into.extend(data)
                dst.write(data)
                await dst.drain()
        except (OSError, ssl.SSLError) as exc:
            self.errors.append(str(exc))
        if not record.swallowing:
            dst.close()


class WireTap(_Proxy):
    """The wire, recorded: a plain TCP proxy that forwards every byte as it is."""

    def start(self) -> WireTap:
        super().start()
        return self

    def __enter__(self) -> WireTap:
        super().__enter__()
        return self


class Middle(_Proxy):
    """A man in the middle: it ends the client's TLS with its own certificate (CN
    ``name``, the table's), speaks TLS (or plain, ``sealed=False``) to the table, and
    relays the plaintext both ways, keeping it (``up``, ``down``; ``frames``)."""

    def __init__(
        self,
        target_port: int,
        *,
        name: str,
        sealed: bool = True,
        target_host: str = LOOPBACK,
    ) -> None:
        super().__init__(target_port, target_host)
        self.name = name
        self.sealed = sealed
        self._dir = tempfile.TemporaryDirectory(prefix="middle-")
        cert, key = make_certificate(name)
        self.certificate = ssl.PEM_cert_to_DER_cert(cert.decode("ascii"))
        """The proxy's own certificate, DER (not the table's)."""
        self.fingerprint = key_fingerprint(self.certificate)
        certfile, keyfile = Path(self._dir.name, "cert.pem"), Path(self._dir.name, "key.pem")
        certfile.write_bytes(cert)
        keyfile.write_bytes(key)
        keyfile.chmod(0o600)
        self._context = server_context(str(certfile), str(keyfile))

    def start(self) -> Middle:
        super().start()
        return self

    def __enter__(self) -> Middle:
        super().__enter__()
        return self

    def close(self) -> None:
        super().close()
        self._dir.cleanup()

    def _listen_ssl(self) -> ssl.SSLContext | None:
        return self._context

    def _upstream_ssl(self) -> ssl.SSLContext | None:
        return client_context() if self.sealed else None

    def up_frames(self) -> list[dict[str, Any]]:
        """The messages the client sent, as the middle read them (every link)."""
        return [m for r in self.links() for m in frames(bytes(r.up))]

    def down_frames(self) -> list[dict[str, Any]]:
        """The messages the table sent, as the middle read and relayed them."""
        return [m for r in self.links() for m in frames(bytes(r.down))]


def make_certificate(name: str) -> tuple[bytes, bytes]:
    """A self-signed certificate with common name ``name`` and its new P-256 key, both
    PEM: how a table's looks, made by someone who is not the table."""
    from server.identity import self_signed

    key_pem, cert_pem = self_signed(name)
    return cert_pem, key_pem


def frames(data: bytes) -> list[dict[str, Any]]:
    """The messages of recorded plaintext, each frame read on its own (one that does not
    decode, and a cut-off last frame, are left out)."""
    out: list[dict[str, Any]] = []
    pos = 0
    while pos + 4 <= len(data):
        (size,) = struct.unpack_from(">I", data, pos)
        frame = data[pos : pos + 4 + size]
        pos += 4 + size
        if len(frame) < 4 + size:
            break
        with contextlib.suppress(ValueError):
            out.extend(FrameDecoder(max_frame=max(size, 1)).feed(frame))
    return out


HANDSHAKE, CHANGE_CIPHER_SPEC, ALERT, APPLICATION_DATA = 0x16, 0x14, 0x15, 0x17
"""TLS records' content types (RFC 8446 5.1)."""


def tls_records(data: bytes) -> Iterator[tuple[int, int]]:
    """Each TLS record of a recorded stream, as (content type, length); ValueError at the
    first bytes that are not one (RFC 8446 5.1: type, version 3.x, 2-byte length, at
    most 2^14 + 256 bytes of payload), a cut-off record included."""
    pos = 0
    while pos < len(data):
        if len(data) - pos < 5:
            raise ValueError(f"a cut-off record header at {pos}")
        kind, major, _minor, size = struct.unpack_from(">BBBH", data, pos)
        if kind not in (HANDSHAKE, CHANGE_CIPHER_SPEC, ALERT, APPLICATION_DATA) or major != 3:
            raise ValueError(f"not a TLS record at {pos}: {data[pos : pos + 5].hex()}")
        if size > 2**14 + 256:
            raise ValueError(f"a record of {size} bytes at {pos}")
        if pos + 5 + size > len(data):
            raise ValueError(f"a cut-off record at {pos}")
        yield kind, size
        pos += 5 + size
