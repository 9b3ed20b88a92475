"""The connection to the table server, in a background thread.

The thread connects, seals the link (TLS, ``common.seal``: the table's ``TableKey`` goes to
``check_key`` before anything is sent), says ``hello`` and puts each message, decoded once
(``common.protocol.server_messages``), in ``inbox`` as ``("msg", message)`` and each change of
state as ``("status", Status)``, calling ``wake`` after each.  Sending is a locked
``sendall`` from the main thread.

A link lost without a ``bye`` (closed, or silent past ``silence_limit``) is retried for
``retry_for`` seconds with the latest hello (the seat's token, R-C1), and so is a ``bye``
mid-match (the server resumes the match) when ``resume_after_bye``.  A refused hello ends
it, but ``bad_token`` (``on_stale``; the hello goes again without the token) and a busy
table answering a comeback (tried again after 1, 2, 4, then every 8 ``retry_every``).
On a sealed link the password never goes out: its proof does (``common.proof``); a table
that proves another password is a wrong password, one that cannot prove it (or proves it
over another link) someone in the middle.  ``on_welcome`` is told the key once welcomed.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from client.i18n import N_
from client.i18n import gettext as _
from client.reach import (
    NO_PROOF,
    NO_PROOF_WELCOME,
    RELAYED,
    WRONG_PASSWORD,
    not_a_table,
    unreachable,
)
from common.proof import ClientProof, ProofFailed, Relayed, WrongPassword
from common.protocol import FrameDecoder, Ping, encode_frame
from common.protocol import Proof as ProofMac
from common.protocol import server_messages as r
from common.seal import (
    TlsPipe,
    certificate_name,
    channel_binding,
    client_context,
    key_fingerprint,
    looks_like_tls,
    short_key,
)
from server.linkopts import tune_link

__all__ = ["BUSY", "Connection", "Status", "TableKey"]

log = logging.getLogger("client.net")

BUSY = N_("the table is busy")  # a ``retrying`` status's message while a comeback is told so
_BUSY_CODES = ("server_busy", "handshake_timeout")  # a refusal of the crowd, not of the hello
_MOST_BUSY_WAIT = 8.0  # in ``retry_every``
_PROOF_FAILURES = (  # (what the table's proof showed, how the session ends, the words)
    (WrongPassword, "bad_password", WRONG_PASSWORD),
    (Relayed, "no_proof", RELAYED),
    (ProofFailed, "no_proof", NO_PROOF),
)


@dataclass(frozen=True, slots=True)
class Status:
    state: str  # connecting, connected, retrying, failed, gone, closed
    message: str = ""  # retrying: why the link was lost (the first reason of this outage)
    attempt: int = 0
    until: float | None = None  # retrying: when the thread gives up (``Connection.clock``)
    code: str = ""  # failed: "key", "no_proof", "unreachable", or the server's refusal


@dataclass(frozen=True, slots=True)
class TableKey:
    """The key a sealed link's table showed (``common.seal``): its fingerprint, the name
    its certificate gives, and where it was reached (the IP connected to, and port)."""

    fingerprint: str
    name: str
    host: str
    port: int

    @property
    def short(self) -> str:
        return short_key(self.fingerprint)


_FIRST_BYTES = 4096  # of a table's answer to our ClientHello, kept to read a plain refusal
_OLD_SERVER = N_(
    "the table does not seal its connections: it may run an older version of the game"
    " (ask the host to update it)"
)


def plain_refusal(first: bytes) -> tuple[str, str] | None:
    """What a table said in plain frames instead of answering our ClientHello (too busy,
    closing, or too old to seal: our hello read as a frame too large): its words and error
    code ("" for a ``bye``), read only to say why the session is over; None for TLS."""
    if not first or looks_like_tls(first) or first[0] == 0x15:  # 0x15: a TLS alert
        return None
    try:
        msgs = FrameDecoder().feed(first)
    except ValueError:
        return None
    for msg in _decoded(msgs):
        if isinstance(msg, r.Error) and msg.code in ("frame_too_large", "bad_frame"):
            return _(_OLD_SERVER), msg.code
        if isinstance(msg, r.Error):
            words = _("the table refused the connection: {message}")
            return words.format(message=msg.message or msg.code), msg.code
        if isinstance(msg, r.Bye):
            return _("the table is closing: {reason}").format(reason=msg.reason), ""
    return None


def _decoded(msgs: list[dict[str, Any]]) -> list[r.ServerMessage]:
    """The messages that can be read (``common.protocol.server_messages``); the others logged."""
    out = []
    for msg in msgs:
        try:
            out.append(r.decode_server(msg))
        except ValueError as exc:
            log.warning("ignored a server message: %s (%.200r)", exc, msg)
    return out


class _Ended(Exception):
    """A session over before its hello: ``args`` are how (``down``, ``key``...) and why."""


class Connection:
    def __init__(
        self,
        host: str,
        port: int,
        hello: Callable[[], dict[str, Any]],
        *,
        wake: Callable[[], None] = lambda: None,
        retry_for: float = 120.0,
        retry_every: float = 1.0,
        connect_timeout: float = 5.0,
        ping_every: float = 5.0,
        silence_limit: float = 15.0,
        clock: Callable[[], float] = time.monotonic,
        resume_after_bye: bool = True,
        on_stale: Callable[[str], None] = lambda token: None,
        check_key: Callable[[TableKey], str | None] | None = None,
        on_welcome: Callable[[TableKey], None] | None = None,
        sealed: bool = True,
    ) -> None:
        self.host, self.port = host, port
        self.peer = ""  # the address connected to, once connected (``getpeername``)
        self.hello = hello
        self.wake = wake
        self.retry_for = retry_for
        self.retry_every = retry_every
        self.connect_timeout = connect_timeout
        self.ping_every = ping_every
        self.silence_limit = silence_limit
        self.clock = clock
        self.resume_after_bye = resume_after_bye
        self.on_stale = on_stale
        self.check_key = check_key
        self.on_welcome = on_welcome
        self.sealed = sealed
        self.key: TableKey | None = None  # the table's on the current (or last) sealed link
        self.mid_match = False  # a match runs, as the messages so far say (a bye is retried)
        self.inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._sock: socket.socket | None = None
        self._pipe: TlsPipe | None = None  # the sealed link's TLS, under ``_lock``
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._run, name="stud-net", daemon=True)
        self._stale_token = False  # the server forgot our seat: come back as a newcomer
        self._sent_at = 0.0
        self._refused_code = ""  # the code of the last session's refused hello
        self._comeback = False  # the last hello came back to a seat with its token

    def start(self) -> None:
        self._thread.start()

    # ---- main thread

    def send(self, msg: dict[str, Any]) -> bool:
        """Send one message; False if the link is down (the caller may simply retry later)."""
        data = encode_frame(msg)
        with self._lock:
            sock = self._sock
            if sock is None:
                return False
            try:
                sock.sendall(data if self._pipe is None else self._pipe.write(data))
                self._sent_at = time.monotonic()
                return True
            except (OSError, ssl.SSLError, ValueError) as exc:
                log.info("send failed: %s", exc)
                return False

    def close(self) -> None:
        """Hang up for good (no retry)."""
        self._closed.set()
        self._shut()

    def sever(self) -> None:
        """Cut the link as a network fault would: the thread will reconnect (tests, debugging)."""
        self._shut()

    def poll(self) -> list[tuple[str, Any]]:
        out = []
        while True:
            try:
                out.append(self.inbox.get_nowait())
            except queue.Empty:
                return out

    # ---- the thread

    def _shut(self) -> None:
        with self._lock:
            sock, self._sock = self._sock, None
            pipe, self._pipe = self._pipe, None
            if sock is not None and pipe is not None:
                with contextlib.suppress(OSError):
                    sock.sendall(pipe.close())  # close_notify: we are done
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def _put(self, kind: str, item: Any) -> None:
        self.inbox.put((kind, item))
        try:
            self.wake()
        except Exception:  # the window may be gone; the queue still has it
            log.debug("wake failed", exc_info=True)

    def _status(self, *args: Any, **kw: Any) -> None:
        self._put("status", Status(*args, **kw))

    def _run(self) -> None:
        welcomed_once = False
        attempt = 0
        down_since: float | None = None
        lost = ""  # why the link went, for every status of this outage
        busy = 0  # busy answers to our comeback in a row
        self._status("connecting", "", 0, None)  # each retry says so before its pause
        while not self._closed.is_set():
            try:
                outcome = self._session()
            finally:
                self._shut()  # after a message it put, before the next connection
            if self._closed.is_set():
                break
            kind, text, welcomed = outcome
            welcomed_once = welcomed_once or welcomed
            if kind == "stale" and not self._stale_token:
                self._stale_token = True
                continue
            told_busy = self._refused_code in _BUSY_CODES and not welcomed
            if told_busy and self._comeback:  # the seat is kept: wait, and ask again
                busy += 1
                if down_since is None:
                    down_since, lost = self.clock(), _(BUSY)
                gone = _("the table stayed busy for {seconds} s").format(
                    seconds=f"{self.retry_for:.0f}"
                )
                pause = min(_MOST_BUSY_WAIT, 2.0 ** (busy - 1)) * self.retry_every
            else:
                busy = 0
                if kind in ("key", "no_proof", "bad_password"):
                    self._status("failed", text, code=kind)
                    break
                if kind in ("refused", "bye", "stale"):
                    code = self._refused_code if kind == "refused" else ""
                    self._status("failed" if kind == "refused" else "gone", text, code=code)
                    break
                if not welcomed_once:
                    code = "unreachable" if kind == "unreachable" else ""
                    why = text or _("could not reach {address}").format(
                        address=f"{self.host}:{self.port}"
                    )
                    self._status("failed", why, code=code)
                    break
                if welcomed or down_since is None:
                    down_since, attempt, lost = self.clock(), 0, text or _("connection lost")
                gone = _("the table is gone: no answer from the server")
                pause = self.retry_every if attempt > 0 else 0.2
            if self.clock() - down_since > self.retry_for:
                self._status("gone", gone)
                break
            attempt += 1
            self._status(
                "retrying", _(BUSY) if busy else lost, attempt, down_since + self.retry_for
            )
            self._closed.wait(pause)
        self._shut()
        self._status("closed")

    def _session(self) -> tuple[str, str, bool]:
        """One connection, shut by the caller: returns (how it ended, why, whether it got a
        welcome); a refusal's code is left in ``_refused_code``."""
        self._refused_code = ""
        try:
            sock = socket.create_connection((self.host, self.port), timeout=self.connect_timeout)
        except OSError as exc:  # said in the game's words (the system's: --verbose)
            log.debug("could not connect to %s:%s: %s", self.host, self.port, exc)
            return "unreachable", unreachable(self.host, self.port, exc), False
        # A home network can drop a link without the OS noticing for minutes.  The
        # server writes at least every 7.5 s (a heartbeat when nothing else) and we
        # ping when we have sent nothing for ``ping_every``: silence past
        # ``silence_limit`` means the server is gone, and the socket itself gives
        # up on data that stays unacknowledged that long (server.linkopts).
        tick = min(self.ping_every, self.silence_limit) / 2
        with self._lock:
            self._sock = sock
        with contextlib.suppress(OSError, IndexError):
            self.peer = str(sock.getpeername()[0])
        hello = self.hello()  # before the seal: whether a busy table is told a comeback
        if self._stale_token:
            hello.pop("token", None)
        self._comeback = bool(hello.get("token"))
        early = b""  # plaintext that came with the end of the TLS handshake
        binding = b""
        if self.sealed:
            try:
                early, binding = self._seal(sock)
            except _Ended as end:
                return end.args[0], end.args[1], False
        sock.settimeout(tick)
        tune_link(sock, timeout=self.silence_limit)
        if self._closed.is_set():
            return "down", "", False
        hello["heartbeat"] = True  # we ping every few seconds: drop us when we go quiet
        proof: ClientProof | None = None
        if self.sealed:  # the password itself never goes out: its proof does
            password = hello.pop("password", None)
            if isinstance(password, str) and password:
                proof = ClientProof(password, binding)
                hello["pake"] = proof.start()
        proven = False
        if not self.send(hello):
            return "down", _("connection lost"), False
        decoder = FrameDecoder()
        welcomed = False
        last_error = ""
        stale = False
        heard = time.monotonic()
        pings = 0
        silent = False
        while True:
            if early:
                data, early = early, b""
            else:
                data = self._recv(sock)
            now = time.monotonic()
            if now - self._sent_at >= self.ping_every:
                pings += 1
                self.send(Ping(pings).encode())
            if data is None:
                if now - heard > self.silence_limit:
                    log.info("no word from the server for %.0f s: down", self.silence_limit)
                    silent = True
                    break
                continue
            if not data:
                break
            heard = now
            try:
                msgs = decoder.feed(data)
            except ValueError as exc:
                log.warning("bad frame from the server, hanging up: %s", exc)
                break
            for msg in _decoded(msgs):
                if isinstance(msg, r.ProofAnswer) and proof is not None and not proven:
                    try:
                        mac = proof.finish(msg.pake, msg.mac, msg.pw_mac)
                    except ProofFailed as exc:
                        _proof, kind, words = next(
                            f for f in _PROOF_FAILURES if isinstance(exc, f[0])
                        )
                        log.warning("the table's password proof failed, hanging up: %s", words)
                        return kind, _(words), False
                    proven = True
                    self.send(ProofMac(mac=mac).encode())
                    continue
                if isinstance(msg, r.ProofAnswer | r.Heartbeat):
                    continue  # a proof not asked for; a heartbeat, which ``heard`` has noted
                if isinstance(msg, r.Welcome) and proof is not None and not proven:
                    log.warning("welcomed without the table's password proof: hanging up")
                    return "no_proof", _(NO_PROOF_WELCOME), False
                if isinstance(msg, r.Welcome):
                    welcomed = True
                    self._stale_token = False
                    if self.on_welcome is not None and self.key is not None and self.sealed:
                        self._tell(self.on_welcome, self.key, "keeping the table's key")
                elif isinstance(msg, r.Error) and not welcomed:
                    last_error = msg.message or msg.code
                    self._refused_code = msg.code
                    stale = msg.code == "bad_token" and "token" in hello
                    if stale:
                        self._tell(self.on_stale, str(hello.get("token")), "forgetting a token")
                        continue  # not for the player's eyes: we simply sit down again
                elif isinstance(msg, r.Error) and msg.code == "taken_over":
                    self._put("msg", msg)  # another window of ours has the seat: not a drop
                    return "bye", msg.message or _("another connection took the seat"), welcomed
                elif isinstance(msg, r.Bye):
                    self._put("msg", msg)
                    if self.resume_after_bye and self.mid_match:
                        return "down", msg.reason, welcomed  # it resumes the match: try again
                    return "bye", msg.reason, welcomed
                self._note_match(msg)
                self._put("msg", msg)
        if stale and not welcomed:
            return "stale", last_error, False
        if last_error and not welcomed:
            return "refused", last_error, False
        if silent:
            silent_for = f"{self.silence_limit:.0f}"
            return (
                "down",
                _("no word from the server for {seconds} s").format(seconds=silent_for),
                welcomed,
            )
        return "down", _("connection lost"), welcomed

    def _seal(self, sock: socket.socket) -> tuple[bytes, bytes]:
        """The TLS handshake on ``sock`` (within ``connect_timeout``) and the table's key
        checked: returns the plaintext that came with the handshake's end and the
        channel's binding, or raises ``_Ended``."""
        pipe = TlsPipe(client_context(), server_side=False)
        deadline = time.monotonic() + self.connect_timeout
        early = b""
        first = b""  # the first bytes the table sent, to read a plain refusal by
        try:
            pipe.handshake()  # the ClientHello
            while True:
                out = pipe.outgoing()
                if out:
                    sock.sendall(out)
                if pipe.ready:
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(_("the TLS handshake took too long"))
                sock.settimeout(left)
                data = sock.recv(65536)
                if not data:
                    raise ConnectionError(_("the server closed the connection"))
                if len(first) < _FIRST_BYTES:
                    first += data[: _FIRST_BYTES - len(first)]
                early += pipe.feed(data)
        except (OSError, ssl.SSLError) as exc:
            plain = plain_refusal(first)
            if plain is not None:
                if plain[1] == "server_busy":
                    self._refused_code = plain[1]
                raise _Ended("down", plain[0]) from exc
            log.debug("could not seal the connection to %s:%s: %s", self.host, self.port, exc)
            raise _Ended("down", not_a_table(self.host, self.port, exc)) from exc
        cert = pipe.peer_certificate()
        try:
            fingerprint = key_fingerprint(cert)
        except ValueError as exc:
            raise _Ended("down", _("could not seal the connection: the table has no key")) from exc
        port = self.port
        with contextlib.suppress(OSError, IndexError):
            port = int(sock.getpeername()[1])
        key = TableKey(fingerprint, certificate_name(cert), self.peer or self.host, port)
        self.key = key
        refusal = None if self.check_key is None else self.check_key(key)  # (never raises)
        if refusal is not None:
            raise _Ended("key", str(refusal))
        with self._lock:
            if self._sock is not sock:  # closed meanwhile
                raise _Ended("down", "")
            self._pipe = pipe
        return early, channel_binding(cert)

    def _recv(self, sock: socket.socket) -> bytes | None:
        """What came (plaintext on a sealed link); ``None`` if nothing came in time,
        ``b""`` once the link is closed or broken."""
        try:
            data = sock.recv(65536)
        except TimeoutError:
            return None
        except OSError:
            return b""
        if not data:
            return b""
        with self._lock:
            pipe = self._pipe
            if pipe is None:  # plain, or a sealed link shut meanwhile
                return b"" if self.sealed else data
            try:
                plain = pipe.feed(data)
                out = pipe.outgoing()
                if out:
                    sock.sendall(out)
            except (ssl.SSLError, OSError) as exc:
                log.warning("bad TLS from the server, hanging up: %s", exc)
                return b""
            if pipe.peer_closed and not plain:
                return b""
        return plain if plain else None

    def _note_match(self, msg: r.ServerMessage) -> None:
        """Follow whether a match runs (a ``bye`` then means a server that will resume it)."""
        if isinstance(msg, r.MatchStart | r.Table):
            self.mid_match = True
        elif isinstance(msg, r.Standings):
            self.mid_match = False
        elif isinstance(msg, r.Lobby):
            self.mid_match = msg.running

    def _tell(self, callback: Callable[[Any], None], value: Any, what: str) -> None:
        """Tell the link something: its failing must never stop the game."""
        try:
            callback(value)
        except Exception:
            log.exception("%s failed", what)
