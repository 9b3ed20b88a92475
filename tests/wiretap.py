"""Someone on the Wi-Fi, over loopback: a tap that records the wire, and a man in the middle.

- ``WireTap(port)``: a TCP proxy on 127.0.0.1 that forwards both ways and keeps every
  byte of each link (``up``: client to server, ``down``: back).  Told to ``swallow``,
  every link open then throws everything away both ways: no FIN, no RST, as when a
  laptop sleeps (R-C1); links opened after it forward again.
- ``Middle(port, name=...)``: a proxy with a certificate of its own and the table's name
  that relays and records the plaintext: what a man in the middle learns.

Both run on an event loop of their own thread and are context managers.
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
from typing import Any, Self

from common.protocol import FrameDecoder
from common.seal import client_context, key_fingerprint
from server.identity import self_signed, server_context

LOOPBACK = "127.0.0.1"


@dataclass
class Record:
    """One link through a proxy, what went each way (for a ``Middle``, the plaintext)."""

    up: bytearray = field(default_factory=bytearray)
    down: bytearray = field(default_factory=bytearray)
    swallowing: bool = False


class WireTap:
    """The wire, recorded: a plain TCP proxy that forwards every byte as it is."""

    listen_ssl: ssl.SSLContext | None = None
    upstream_ssl: ssl.SSLContext | None = None

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.records: list[Record] = []
        self.swallowed = 0
        """Bytes thrown away since ``swallow``."""
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: list[asyncio.StreamWriter] = []

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

    def start(self) -> Self:
        self._thread.start()
        self.port = asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(10)
        return self

    def close(self) -> None:
        if self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._loop.close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def _listen(self) -> int:
        self._server = await asyncio.start_server(self._accept, LOOPBACK, 0, ssl=self.listen_ssl)
        return int(self._server.sockets[0].getsockname()[1])

    async def _stop(self) -> None:
        self._server.close()
        for writer in self._writers:
            writer.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)  # so that closing the proxy ends it
        task.add_done_callback(self._tasks.discard)
        record = Record()
        with self._lock:
            self.records.append(record)
        self._writers.append(writer)
        try:
            up_reader, up_writer = await asyncio.open_connection(
                LOOPBACK, self.target_port, ssl=self.upstream_ssl,
                server_hostname="" if self.upstream_ssl else None,
            )  # fmt: skip
        except (OSError, ssl.SSLError):
            writer.close()
            return
        self._writers.append(up_writer)
        await asyncio.gather(
            self._pump(record, reader, up_writer, record.up),
            self._pump(record, up_reader, writer, record.down),
            return_exceptions=True,
        )

    async def _pump(
        self, record: Record, src: asyncio.StreamReader, dst: asyncio.StreamWriter,
        into: bytearray,
    ) -> None:  # fmt: skip
        """Forward ``src`` to ``dst`` until it ends, keeping every byte in ``into``; an
        end on one side is passed on as a close to the other (a black hole says nothing)."""
        with contextlib.suppress(OSError, ssl.SSLError):
            while data := await src.read(65536):
                with self._lock:
                    if record.swallowing:
                        self.swallowed += len(data)
                        continue
                    into.extend(data)
                dst.write(data)
                await dst.drain()
        if not record.swallowing:
            dst.close()


class Middle(WireTap):
    """Ends the client's TLS with its own certificate (CN ``name``) and speaks TLS (or
    plain, ``sealed=False``) to the table."""

    def __init__(self, target_port: int, *, name: str, sealed: bool = True) -> None:
        super().__init__(target_port)
        key, cert = self_signed(name)
        self.fingerprint = key_fingerprint(ssl.PEM_cert_to_DER_cert(cert.decode("ascii")))
        """Of the proxy's own key (not the table's)."""
        with tempfile.TemporaryDirectory(prefix="middle-") as folder:
            pem = Path(folder, "middle.pem")
            pem.write_bytes(key + cert)
            self.listen_ssl = server_context(str(pem))
        self.upstream_ssl = client_context() if sealed else None

    def up_frames(self) -> list[dict[str, Any]]:
        return [m for r in self.links() for m in _frames(bytes(r.up))]

    def down_frames(self) -> list[dict[str, Any]]:
        return [m for r in self.links() for m in _frames(bytes(r.down))]


def _frames(data: bytes) -> list[dict[str, Any]]:
    """The messages of recorded plaintext, each frame read on its own (one that does not
    decode, and a cut-off last frame, are left out)."""
    out: list[dict[str, Any]] = []
    pos = 0
    while pos + 4 <= len(data):
        (size,) = struct.unpack_from(">I", data, pos)
        frame = data[pos : pos + 4 + size]
        pos += 4 + size
        if pos > len(data):
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
