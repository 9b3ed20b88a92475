"""One TCP connection: sealed or plain, framing in, bounded frames out, and its timers.

``Connection`` is an ``asyncio.Protocol``.  A TLS ClientHello as its first bytes
(``common.seal.looks_like_tls``) makes it *sealed*: every byte after goes through a
``common.seal.TlsPipe`` here (``start_tls`` cannot be given the bytes already read);
anything else is the plain protocol.  The plaintext goes through a ``FrameDecoder``;
each whole message is handed to the ``Handler`` (the table) at once.  Invariants:

- A connection is sealed or plain from its first bytes on, never both (plain without
  an ``identity``).  ``sealed`` is True once the TLS handshake is done; ``binding`` is
  then ``common.seal.channel_binding`` of the table's certificate.
- Nothing is ever written to a sealed connection in the clear: before its handshake is
  done nothing but TLS's own records is sent (so a refusal then is a close without an
  ``error``), and after it every frame is encrypted.  A TLS error (garbage after a
  ClientHello, a failed handshake) aborts the connection at once.
- Every limit below holds the same for the plaintext inside TLS; the handshake timer
  covers the TLS handshake and the ``hello`` together, and a TLS record that has begun
  arriving is timed like a frame.
- Whatever goes wrong with one connection closes only that connection: broken
  framing or an oversized frame gets an ``error`` and a close; an exception
  in the handler is logged with its traceback and closes the connection; a
  refused message gets an ``error`` and the connection stays open.
- Outgoing frames go straight to the transport, whose buffer is this
  connection's outgoing queue.  Writing never waits, so a slow reader never
  holds up the table; once its unsent bytes pass ``queue_limit`` it is
  dropped as if it had disconnected.  While ``cork``ed frames wait in order and go
  out in one write at the last ``uncork`` (or just before a ``close``).
- A connection that does not finish its ``hello`` within the handshake timeout,
  or does not finish a frame within ``frame_timeout`` seconds of its first
  byte (a trickle of bytes does not restart the clock), is closed.
- Every message costs one from the connection's budget (a token bucket of
  ``budget_burst`` refilled at ``budget_per_second``), whatever its type; a
  connection over budget gets an ``error`` (``flood``) and is closed.  A frame's
  nesting and number of values are checked before it is decoded.
- Once greeted, a connection is written to at least every 1.5 ``heartbeat_every``
  seconds (a ``heartbeat`` after ``heartbeat_every`` with nothing else), and its socket gives
  up on a peer that acknowledges nothing for ``link_timeout`` seconds
  (``server.linkopts``), so a vanished peer is found whoever's turn it is.  A
  client that said it beats (``hello`` with ``heartbeat``) and then sends
  nothing for ``link_timeout`` seconds is dropped too: that also sees through
  a box that acknowledges for a peer that is gone.
- Every timer and every reading of the time is the given clock's (``server.timers``).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import select
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Protocol

from common.events import ProtocolError
from common.protocol import (
    MAX_FRAME,
    PROTOCOL_VERSION,
    Error,
    FrameDecoder,
    FrameError,
    MessageError,
    encode_frame,
)
from common.seal import TlsPipe, looks_like_tls
from server.linkopts import tune_link
from server.timers import Clock, Handle, LoopClock

if TYPE_CHECKING:
    from server.config import ServerConfig
    from server.identity import Identity

__all__ = ["TLS_REQUIRED", "Connection", "Handler", "Limits", "TokenBucket"]

log = logging.getLogger("server.net")
_ids = itertools.count(1)


TLS_REQUIRED = (
    "this table takes only sealed (encrypted) connections: use the game's own client,"
    " or one that speaks TLS"
)
"""The ``tls_required`` error's message: a plain connection at a table whose host
turned plain connections off (``ServerConfig.plain`` ``never``)."""

_HEARTBEAT = encode_frame({"type": "heartbeat"})
_LINGER_BYTES = 256 * 1024
"""What a closing connection reads and drops before it gives up waiting for the peer
to close; a flood past it is cut off at once (a reset)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Per-connection limits; the defaults suit a friends' night on a LAN."""

    max_frame: int = MAX_FRAME
    max_depth: int = 16
    """How deep a client frame's containers nest (client messages are flat)."""
    max_items: int = 2048
    """Values in one client frame, all levels together."""
    handshake_timeout: float = 5.0
    frame_timeout: float = 5.0
    """How long a frame may take from its first byte to its last."""
    queue_limit: int = 1024 * 1024
    """Unsent bytes before a connection is dropped: about 400 table snapshots."""
    close_timeout: float = 2.0
    heartbeat_every: float = 5.0
    link_timeout: float = 12.0
    """A link with nothing acknowledged, or a beating client with nothing heard, for
    this long is dropped (R-C1): with a frame out at least every 7.5 s (a heartbeat
    after 5 s of nothing, checked every 2.5 s) a vanished peer is found within 20 s."""
    budget_burst: float = 60.0
    budget_per_second: float = 20.0
    """Messages a connection may send: far above a person's clicks and pings."""

    @classmethod
    def of(cls, config: ServerConfig) -> Limits:
        """The limits the config sets by name (a frame's nesting and items, and the close
        timeout, are not settings)."""
        return cls(
            **{f.name: getattr(config, f.name) for f in fields(cls) if hasattr(config, f.name)}
        )


@dataclass(slots=True)
class TokenBucket:
    """``burst`` at once, then ``per_second`` on average; a refused ``spend`` takes
    nothing, so a sender that keeps going is refused until it refills.

    >>> b = TokenBucket(2, 1.0)
    >>> b.spend(10.0), b.spend(10.0), b.spend(10.0), b.spend(11.0)
    (True, True, False, True)
    """

    burst: float
    per_second: float
    tokens: float = field(init=False)
    checked: float | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def spend(self, now: float) -> bool:
        """Take one token at ``now`` (the connection's clock); False if none."""
        if self.checked is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.checked) * self.per_second)
        self.checked = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def refund(self) -> None:
        """Give one token back (a message whose pace the table itself sets)."""
        self.tokens = min(self.burst, self.tokens + 1)


class Handler(Protocol):
    def on_open(self, conn: Connection) -> bool: ...
    def on_message(self, conn: Connection, msg: dict[str, Any]) -> None: ...
    def on_close(self, conn: Connection) -> None: ...


class Connection(asyncio.Protocol):
    """The server's end of one client connection."""

    def __init__(
        self,
        handler: Handler,
        limits: Limits,
        clock: Clock | None = None,
        *,
        identity: Identity | None = None,
    ) -> None:
        self.id = next(_ids)
        self.clock: Clock = clock if clock is not None else LoopClock()
        self.handler = handler
        self.limits = limits
        self.decoder = FrameDecoder(
            limits.max_frame, max_depth=limits.max_depth, max_items=limits.max_items
        )
        self.budget = TokenBucket(limits.budget_burst, limits.budget_per_second)
        self.transport: asyncio.Transport | None = None
        self.peer = "?"
        self.address = "?"
        """The peer's IP address alone: per-address limits count by it."""
        self.flooded = False
        """Closed for going over its message budget (the table cuts its address off)."""
        self.beats = False
        """The client said (``hello`` ``heartbeat``) it sends a frame every few seconds."""
        self.closed = False
        self.identity = identity
        """The table's key (``server.identity``); None: plain whatever it sends."""
        self.kind: str | None = None
        """``"tls"`` or ``"plain"`` once the first bytes have said which."""
        self.sealed = False
        self.binding = b""
        self.tls_version = ""
        self._tls: TlsPipe | None = None
        self._first = b""
        self._record = _RecordWatch()
        self.waiting = False
        """Its hello waits for the table (back-off, turn or proof): ``server.guard``
        closes it last to make room."""
        self.protocol = PROTOCOL_VERSION
        # Set by the table once the hello is accepted.
        self.greeted = False
        self.seat: int | None = None
        self.name = ""
        self.chat: TokenBucket | None = None
        """Its chat lines' bucket (``server.chat``), from its first line on."""
        self._handshake_timer: Handle | None = None
        self._frame_timer: Handle | None = None
        self._beat_timer: Handle | None = None
        self._notified = False
        self._sent_at = self.heard_at = self.clock.now()  # heard: its last bytes read
        self._discarded = 0
        self._corks = 0
        self._held: list[bytes] | None = None  # what waits for the last ``uncork``

    def __repr__(self) -> str:
        return f"<conn {self.id} {self.peer} seat={self.seat}>"

    def unread(self) -> bool:
        """Whether the peer's bytes wait unread in the socket (the event loop is behind);
        False while it is not read (held, cut off) or the socket cannot say."""
        transport = self.transport
        if transport is None or self.closed:
            return False
        try:
            if not transport.is_reading():
                return False
            fd = transport.get_extra_info("socket").fileno()
            if hasattr(select, "poll"):
                poller = select.poll()
                poller.register(fd, select.POLLIN)
                return bool(poller.poll(0))
            return bool(select.select([fd], [], [], 0)[0])
        except (AttributeError, NotImplementedError, OSError, ValueError):
            return False

    # ------------------------------------------------------------ asyncio callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.address = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        tune_link(transport.get_extra_info("socket"), timeout=self.limits.link_timeout)
        self._handshake_timer = self.clock.call_later(
            self.limits.handshake_timeout, self._handshake_expired
        )
        if not self.handler.on_open(self):
            self.close()

    def data_received(self, data: bytes) -> None:
        if self.closed:
            # Closing (``close``): what still comes is dropped unread, up to a point.
            self._discarded += len(data)
            if self._discarded > _LINGER_BYTES and self.transport is not None:
                self.transport.abort()
            return
        self.heard_at = self.clock.now()
        if self.kind is None:
            data = self._first + data
            if not self._sniff(data):
                self._first = data  # one byte 0x16: wait for the second
                return
            self._first = b""
        if self._tls is not None:
            self._record.feed(data)
            data = self._open(data)
            if self.closed:
                return
        self._frames(data)

    def _sniff(self, data: bytes) -> bool:
        """Tell a TLS ClientHello from a frame by the first bytes; False: need another."""
        if self.identity is not None and looks_like_tls(data):
            if len(data) < 2:
                return False
            self.kind = "tls"
            self._tls = TlsPipe(self.identity.context, server_side=True)
        else:
            self.kind = "plain"
            log.info("conn %d from %s: plain", self.id, self.peer)
        return True

    def _open(self, data: bytes) -> bytes:
        """Ciphertext in, plaintext out; what TLS must answer is sent at once."""
        tls = self._tls
        assert tls is not None
        try:
            plain = tls.feed(data)
        except ssl.SSLError as exc:
            log.info(
                "conn %d from %s: not TLS, or its handshake failed (%s)", self.id, self.peer, exc
            )
            self._flush()  # the alert, if TLS made one
            self.abort()
            return b""
        self._flush()
        if tls.ready and not self.sealed:
            self.sealed = True
            self.tls_version = tls.version
            assert self.identity is not None
            self.binding = self.identity.binding
            log.info("conn %d from %s: sealed (%s)", self.id, self.peer, self.tls_version)
        if tls.peer_closed and not self.closed:
            self._frames(plain)
            self.close()  # the peer said it is done: so are we
            return b""
        return plain

    def _flush(self) -> None:
        if self._tls is not None and self.transport is not None:
            out = self._tls.outgoing()
            if out:
                self.transport.write(out)

    def _frames(self, data: bytes) -> None:
        """Plaintext in: hand each whole message to the handler, within the limits."""
        decoder = self.decoder
        decoder.push(data)
        finished = False
        while not self.closed:
            try:
                msg = decoder.pop()
            except FrameError as exc:
                log.info("%r: %s", self, exc)
                self.fail(exc.code, str(exc))
                return
            if msg is None:
                break
            finished = True
            if not self.budget.spend(self.heard_at):
                log.warning("%r: over its message budget; closing", self)
                self.flooded = True
                self.fail(
                    "flood",
                    f"too many messages: at most {self.limits.budget_per_second:g} a second",
                    msg["type"][:20] if isinstance(msg.get("type"), str) else None,
                )
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
        self._watch_partial_frame(restart=finished)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._cancel_timers()
        self._notify_closed()

    # ------------------------------------------------------------ sending

    def send(self, frame: bytes) -> None:
        """Queue one encoded frame (held while corked); a sealed connection's frames
        before its handshake is done are dropped: nothing goes in the clear."""
        if self.closed or self.transport is None:
            return
        if self._held is not None:
            self._held.append(frame)
            return
        self._write(frame)

    def cork(self) -> None:
        """Hold what is sent until the matching ``uncork`` (corks nest)."""
        self._corks += 1
        if self._held is None:
            self._held = []

    def uncork(self) -> None:
        self._corks -= 1
        if self._corks > 0:
            return
        held, self._held = self._held, None
        if held and not self.closed:
            self._write(held[0] if len(held) == 1 else b"".join(held))

    def _write(self, data: bytes) -> None:
        transport = self.transport
        if self.closed or transport is None:
            return
        if self._tls is not None:
            if not self.sealed:
                return
            try:
                data = self._tls.write(data)
            except ssl.SSLError as exc:  # the TLS state is broken: nothing more can go out
                log.info("%r: cannot send over TLS (%s); closing", self, exc)
                self.abort()
                return
        transport.write(data)
        self._sent_at = self.clock.now()
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
        if self._beat_timer is None and not self.closed:
            self._beat_timer = self.clock.call_later(self.limits.heartbeat_every / 2, self._beat)

    def tarpit(self) -> None:
        """Read nothing from now on; the handshake timer closes the connection."""
        if self.transport is not None and not self.closed:
            self.transport.pause_reading()

    def hold(self, delay: float, then: Callable[[], None]) -> None:
        """Read nothing for ``delay`` seconds, then call ``then`` unless closed (a hello
        waiting out its password back-off; it stands in for the handshake timer)."""
        if self.closed or self.transport is None:
            return
        self.waiting = True
        if self._handshake_timer is not None:
            self._handshake_timer.cancel()
        self.transport.pause_reading()

        def resume() -> None:
            self._handshake_timer = None
            if self.closed or self.transport is None:
                return
            self.transport.resume_reading()
            then()

        self._handshake_timer = self.clock.call_later(delay, resume)

    def _beat(self) -> None:
        """Every half heartbeat: a ``heartbeat`` after a whole period with nothing sent,
        and a beating client silent too long dropped (R-C1)."""
        self._beat_timer = None
        if self.closed:
            return
        now = self.clock.now()
        if self.beats and now - self.heard_at > self.limits.link_timeout:
            log.info("%r: nothing heard for %.0f s; the link is gone", self, now - self.heard_at)
            self.abort()
            return
        if now - self._sent_at >= self.limits.heartbeat_every:
            self.send(_HEARTBEAT)
        if not self.closed:
            self._beat_timer = self.clock.call_later(self.limits.heartbeat_every / 2, self._beat)

    # ------------------------------------------------------------ closing

    def fail(self, code: str, message: str, ref: str | None = None) -> None:
        self.send_message(Error(code, message, ref).encode())
        self.close()

    def close(self) -> None:
        """Close after what is queued has gone out (or ``close_timeout`` passes).

        The last ``error`` must reach a flooding peer: closing a socket with unread
        input sends a reset, which throws away what was on its way.  So only our side
        is shut (FIN) and what still comes is dropped until the peer closes."""
        if self.closed or self.transport is None:
            return
        held, self._held = self._held, None
        if held:  # what the step said before it closed goes first (its ``error``)
            self._write(b"".join(held))
            if self.closed:
                return
        self.closed = True
        self._cancel_timers()
        transport = self.transport
        if self._tls is not None:
            bye = self._tls.close()  # close_notify, after what is queued
            if bye:
                transport.write(bye)
        try:
            transport.write_eof()
        except (OSError, NotImplementedError, RuntimeError):
            transport.close()  # the peer is already gone, or this transport cannot
        self.clock.call_later(self.limits.close_timeout, transport.abort)
        self._notify_closed()

    def abort(self) -> None:
        if self.transport is None:
            return
        self.closed = True
        self._held = None
        self._cancel_timers()
        self.transport.abort()
        self._notify_closed()

    def _notify_closed(self) -> None:
        if self._notified:
            return
        self._notified = True
        try:
            self.handler.on_close(self)
        except Exception:
            log.exception("%r: error while closing", self)

    def _cancel_timers(self) -> None:
        for timer in (self._handshake_timer, self._frame_timer, self._beat_timer):
            if timer is not None:
                timer.cancel()
        self._handshake_timer = self._frame_timer = self._beat_timer = None

    def _handshake_expired(self) -> None:
        self._handshake_timer = None
        if self.greeted or self.closed:
            return
        if self._tls is not None and not self.sealed:
            log.info("%r: TLS handshake not done within %.1fs", self, self.limits.handshake_timeout)
            self.close()  # no error frame: there is no channel to send it on
            return
        log.info("%r: no hello within %.1fs", self, self.limits.handshake_timeout)
        self.fail("handshake_timeout", "no hello in time")

    def _watch_partial_frame(self, *, restart: bool) -> None:
        """Time a frame from its first byte: a trickle of it does not restart the clock."""
        if self.closed:
            return
        pending = self.decoder.pending or self._record.partial
        if (not pending or restart) and self._frame_timer is not None:
            self._frame_timer.cancel()
            self._frame_timer = None
        if pending and self._frame_timer is None:
            self._frame_timer = self.clock.call_later(
                self.limits.frame_timeout, self._frame_expired
            )

    def _frame_expired(self) -> None:
        self._frame_timer = None
        if not self.closed:
            log.info("%r: frame cut short", self)
            self.fail("bad_frame", "frame cut short")


class _RecordWatch:
    """Where a sealed connection's TLS records begin and end (a 5-byte header ending in
    the length), so that a half record is timed like a frame: ``ssl`` would keep it."""

    __slots__ = ("_head", "_left")

    def __init__(self) -> None:
        self._head = b""
        self._left = 0

    @property
    def partial(self) -> bool:
        return bool(self._head) or self._left > 0

    def feed(self, data: bytes) -> None:
        i, n = 0, len(data)
        while i < n:
            if self._left:
                step = min(self._left, n - i)
                self._left -= step
                i += step
                continue
            need = 5 - len(self._head)
            self._head += data[i : i + need]
            i += need
            if len(self._head) == 5:
                self._left = int.from_bytes(self._head[3:5], "big")
                self._head = b""
