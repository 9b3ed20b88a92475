"""One TCP connection: framing in, bounded frames out, and its timers.

``Connection`` is an ``asyncio.Protocol``.  Bytes go through a
``FrameDecoder``; each whole message is handed to the ``Handler`` (the table)
at once, in the event loop, one at a time.  Invariants:

- Whatever goes wrong with one connection closes only that connection: broken
  framing or an oversized frame gets an ``error`` and a close; an exception
  in the handler is logged with its traceback and closes the connection; a
  refused message gets an ``error`` and the connection stays open.
- Outgoing frames go straight to the transport, whose buffer is this
  connection's outgoing queue.  Writing never waits, so a slow reader never
  holds up the table; once its unsent bytes pass ``queue_limit`` it is
  dropped as if it had disconnected.
- A connection that does not finish its ``hello`` within the handshake timeout,
  or leaves a frame cut short for ``frame_timeout`` seconds, is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import socket
from dataclasses import dataclass
from typing import Any, Protocol

from common.events import ProtocolError
from common.protocol import MAX_FRAME, Error, FrameDecoder, FrameError, MessageError, encode_frame

__all__ = ["Connection", "Handler", "Limits"]

log = logging.getLogger("server.net")
_ids = itertools.count(1)


def _keep_alive(sock: socket.socket | None) -> None:
    """TCP keepalive, so that a player whose Wi-Fi vanished is found out in about
    half a minute (and dropped, R-C1) instead of hours later, without asking any
    client to ping: a client written from the wire contract may never send one."""
    if sock is None:
        return
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, 10)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, 5)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, 4)


@dataclass(frozen=True, slots=True)
class Limits:
    """Per-connection limits; the defaults suit a friends' night on a LAN."""

    max_frame: int = MAX_FRAME
    handshake_timeout: float = 10.0
    frame_timeout: float = 10.0
    """How long a frame may stay cut short before the connection is closed."""
    queue_limit: int = 1024 * 1024
    """Unsent bytes a connection may have before it is dropped.  About 400 table
    snapshots: far more than a live client ever lags, small enough to bound memory."""
    close_timeout: float = 2.0


class Handler(Protocol):
    def on_open(self, conn: Connection) -> bool: ...
    def on_message(self, conn: Connection, msg: dict[str, Any]) -> None: ...
    def on_close(self, conn: Connection) -> None: ...


class Connection(asyncio.Protocol):
    """The server's end of one client connection."""

    def __init__(self, handler: Handler, limits: Limits) -> None:
        self.id = next(_ids)
        self.handler = handler
        self.limits = limits
        self.decoder = FrameDecoder(limits.max_frame)
        self.transport: asyncio.Transport | None = None
        self.peer = "?"
        self.closed = False
        # Set by the table once the hello is accepted.
        self.greeted = False
        self.seat: int | None = None
        self.name = ""
        self.chat_allowance = 0.0
        self.chat_checked = 0.0
        self._handshake_timer: asyncio.TimerHandle | None = None
        self._frame_timer: asyncio.TimerHandle | None = None
        self._notified = False

    def __repr__(self) -> str:
        return f"<conn {self.id} {self.peer} seat={self.seat}>"

    # ------------------------------------------------------------ asyncio callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        _keep_alive(transport.get_extra_info("socket"))
        loop = asyncio.get_running_loop()
        self._handshake_timer = loop.call_later(
            self.limits.handshake_timeout, self._handshake_expired
        )
        if not self.handler.on_open(self):
            self.close()

    def data_received(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            messages = self.decoder.feed(data)
        except FrameError as exc:
            log.info("%r: %s", self, exc)
            self.fail(exc.code, str(exc))
            return
        for msg in messages:
            if self.closed:
                return
            try:
                self.handler.on_message(self, msg)
            except MessageError as exc:
                self.send_message(Error(exc.code, str(exc), exc.ref).encode())
            except ProtocolError as exc:
                self.send_message(Error("bad_message", str(exc)).encode())
            except Exception:
                log.exception("%r: unexpected error; closing this connection only", self)
                self.fail("server_error", "the server could not handle that message")
                return
        self._watch_partial_frame()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._cancel_timers()
        self._notify_closed()

    # ------------------------------------------------------------ sending

    def send(self, frame: bytes) -> None:
        """Queue one encoded frame; drop the connection if too much is unsent."""
        transport = self.transport
        if self.closed or transport is None:
            return
        transport.write(frame)
        if transport.get_write_buffer_size() > self.limits.queue_limit:
            log.warning(
                "%r: not reading (over %d bytes unsent); dropping", self, self.limits.queue_limit
            )
            self.abort()

    def send_message(self, msg: dict[str, Any]) -> None:
        self.send(encode_frame(msg))

    def mark_greeted(self) -> None:
        self.greeted = True
        if self._handshake_timer is not None:
            self._handshake_timer.cancel()
            self._handshake_timer = None

    # ------------------------------------------------------------ closing

    def fail(self, code: str, message: str, ref: str | None = None) -> None:
        """Send an ``error`` (naming the refused message's type, if any) and close."""
        self.send_message(Error(code, message, ref).encode())
        self.close()

    def close(self) -> None:
        """Close after what is queued has gone out (or ``close_timeout`` passes)."""
        if self.closed or self.transport is None:
            return
        self.closed = True
        self._cancel_timers()
        transport = self.transport
        transport.close()
        if transport.get_write_buffer_size():
            asyncio.get_running_loop().call_later(self.limits.close_timeout, transport.abort)
        self._notify_closed()

    def abort(self) -> None:
        """Close now, dropping what is unsent (a client that stopped reading)."""
        if self.transport is None:
            return
        self.closed = True
        self._cancel_timers()
        self.transport.abort()
        self._notify_closed()

    def _notify_closed(self) -> None:
        """Tell the table once, whichever way the connection ended."""
        if self._notified:
            return
        self._notified = True
        try:
            self.handler.on_close(self)
        except Exception:
            log.exception("%r: error while closing", self)

    def _cancel_timers(self) -> None:
        for timer in (self._handshake_timer, self._frame_timer):
            if timer is not None:
                timer.cancel()
        self._handshake_timer = self._frame_timer = None

    def _handshake_expired(self) -> None:
        self._handshake_timer = None
        if not self.greeted and not self.closed:
            log.info("%r: no hello within %.1fs", self, self.limits.handshake_timeout)
            self.fail("handshake_timeout", "no hello in time")

    def _watch_partial_frame(self) -> None:
        if self._frame_timer is not None:
            self._frame_timer.cancel()
            self._frame_timer = None
        if self.decoder.pending and not self.closed:
            self._frame_timer = asyncio.get_running_loop().call_later(
                self.limits.frame_timeout, self._frame_expired
            )

    def _frame_expired(self) -> None:
        self._frame_timer = None
        if not self.closed:
            log.info("%r: frame cut short", self)
            self.fail("bad_frame", "frame cut short")
