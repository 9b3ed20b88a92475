"""The connection to the table server, in a background thread.

The thread connects, says ``hello``, and puts each message in a ``queue.Queue`` as
``("msg", message)``, decoded once (``common.protocol.server_messages``: one that cannot be
read is logged and dropped), and each status change as ``("status", Status)``; after
each put it calls ``wake`` (the window's idle loop wakes).  Sending is a locked
``sendall`` from the main thread (messages are tiny).

When the link drops without a ``bye`` (closed, or silent past
``silence_limit``), the thread retries for ``retry_for`` seconds (two minutes
by default), each time with the latest ``hello`` (which carries the seat's
token, R-C1); each ``retrying`` status says why the link was lost and when the
thread gives up (``until``, on the injected ``clock``).  A ``bye`` in the
middle of a match (a server shutting down, which resumes the match when it
starts again) is retried the same way when ``resume_after_bye``; a ``bye``
between matches, a refused ``hello`` (bad password, table full) or our seat
taken over by another connection (``taken_over``) ends it, except
``bad_token``: the server no longer knows the seat, so the thread tells
``on_stale`` and says ``hello`` once more without the token, as a newcomer, and
a busy table (``server_busy`` or ``handshake_timeout`` before the ``welcome``, in the
clear before TLS or inside it) when our ``hello`` comes back to a seat with its token:
the seat is kept, so the thread tries again after 1, 2, 4, then every 8 seconds
(times ``retry_every``), each ``retrying`` status saying ``BUSY``, until the same
``retry_for`` runs out (counted from the link's loss, or from the first busy answer).

The link is sealed (TLS, ``common.seal``) unless ``sealed=False`` (tests, scripts): the
TLS handshake comes right after the TCP connection, within ``connect_timeout``, and the
table's key (``TableKey``) is handed to ``check_key`` before anything else is sent; a
refusal ends the thread (``Status`` ``failed``, code ``key``).  TLS runs as a pipe of
bytes (``TlsPipe``) over the blocking socket: the main thread's sends and the network
thread's reads use it under one lock.  A ``password`` in the hello never goes out on a
sealed link: the hello carries the start of a password proof instead (``pake``,
``common.proof``), the table's ``proof`` is checked, and the client's is sent; a table
that proves another password is hung up on as a wrong password (code ``bad_password``,
as the table's own refusal), and one that proves it over another link (a relay), cannot
prove it, or welcomes without a proof, as someone in the middle (code ``no_proof``).
A table that cannot be reached before any welcome fails with code ``unreachable``, in the
game's words (``client.reach``).  ``on_welcome`` is told the table's key once a sealed link
is welcomed, its password proof (if it made one) checked: a key is only ever kept from there.
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

__all__ = [
    "BUSY",
    "NO_PROOF",
    "NO_PROOF_WELCOME",
    "RELAYED",
    "WRONG_PASSWORD",
    "Connection",
    "Status",
    "TableKey",
]

log = logging.getLogger("client.net")

BUSY = "the table is busy"
"""A ``retrying`` status's message while a comeback is told the table is busy."""
_BUSY_CODES = ("server_busy", "handshake_timeout")
"""Refusals of a hello that say nothing of it, only of the table's crowd: a comeback
tries again."""
_MOST_BUSY_WAIT = 8.0
"""A comeback told the table is busy waits 1, 2, 4, then 8 ``retry_every`` at most."""


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
        """The key as people read it (``common.seal.short_key``)."""
        return short_key(self.fingerprint)


_FIRST_BYTES = 4096
"""Of a table's answer to our ClientHello, what is kept to read a plain refusal from."""
_OLD_SERVER = (
    "the table does not seal its connections: it may run an older version of the game"
    " (ask the host to update it)"
)


def plain_refusal(first: bytes) -> tuple[str, str] | None:
    """What a table said in the clear instead of answering our ClientHello, if it did:
    its words and its error code ("" for a ``bye``).

    A table refuses some connections before it reads a byte (too many waiting, shutting
    down: ``server_busy``, ``bye``), and a table from before sealed connections answers a
    ClientHello as a frame far too large.  Either is said in plain frames, which TLS then
    fails on; they are read here only to say why, never trusted further: the session is
    over either way.  None if ``first`` is TLS (a TLS alert, a handshake) or not a frame.
    """
    if not first or looks_like_tls(first) or first[0] == 0x15:  # 0x15: a TLS alert
        return None
    try:
        msgs = FrameDecoder().feed(first)
    except ValueError:
        return None
    for msg in _decoded(msgs):
        if isinstance(msg, r.Error) and msg.code in ("frame_too_large", "bad_frame"):
            return _OLD_SERVER, msg.code
        if isinstance(msg, r.Error):
            return f"the table refused the connection: {msg.message or msg.code}", msg.code
        if isinstance(msg, r.Bye):
            return f"the table is closing: {msg.reason}", ""
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
    """A session over before its hello: how (``down``, ``key``...) and why."""

    def __init__(self, kind: str, text: str) -> None:
        super().__init__(text)
        self.kind = kind
        self.text = text


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
        self.key: TableKey | None = None
        """The key of the table on the current (or last) sealed link."""
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

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

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

    def _status(
        self,
        state: str,
        message: str = "",
        attempt: int = 0,
        until: float | None = None,
        *,
        code: str = "",
    ) -> None:
        self._put("status", Status(state, message, attempt, until, code))

    def _run(self) -> None:
        welcomed_once = False
        attempt = 0
        down_since: float | None = None
        lost = ""  # why the link went, for every status of this outage
        busy = 0  # busy answers to our comeback in a row
        while not self._closed.is_set():
            until = None if down_since is None else down_since + self.retry_for
            state = "connecting" if not welcomed_once and not busy else "retrying"
            self._status(state, BUSY if busy else lost, attempt, until)
            outcome = self._session()
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
                    down_since, lost = self.clock(), BUSY
                if self.clock() - down_since > self.retry_for:
                    self._status("gone", f"the table stayed busy for {self.retry_for:.0f} s")
                    break
                attempt += 1
                self._status("retrying", BUSY, attempt, down_since + self.retry_for)
                self._closed.wait(min(_MOST_BUSY_WAIT, 2.0 ** (busy - 1)) * self.retry_every)
                continue
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
                self._status(
                    "failed", text or f"could not reach {self.host}:{self.port}", code=code
                )
                break
            if welcomed or down_since is None:
                down_since, attempt, lost = self.clock(), 0, text or "connection lost"
            if self.clock() - down_since > self.retry_for:
                self._status("gone", "the table is gone: no answer from the server")
                break
            attempt += 1
            self._status("retrying", lost, attempt, down_since + self.retry_for)
            self._closed.wait(self.retry_every if attempt > 1 else 0.2)
        self._shut()
        self._status("closed")

    def _session(self) -> tuple[str, str, bool]:
        """One connection: returns (how it ended, why, whether it got a welcome); a refusal's
        code is left in ``_refused_code``."""
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
                self._shut()
                return end.kind, end.text, False
        sock.settimeout(tick)
        tune_link(sock, timeout=self.silence_limit)
        if self._closed.is_set():
            self._shut()
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
            self._shut()
            return "down", "connection lost", False
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
                    log.info(
                        "no word from the server for %.0f s: the link is down", self.silence_limit
                    )
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
                    except WrongPassword:
                        log.info("the table's password is not the one given: hanging up")
                        self._shut()
                        return "bad_password", WRONG_PASSWORD, False
                    except Relayed:
                        log.warning("the table's password proof is for another link: relayed")
                        self._shut()
                        return "no_proof", RELAYED, False
                    except ProofFailed:
                        log.warning("the table's password proof is wrong: hanging up")
                        self._shut()
                        return "no_proof", NO_PROOF, False
                    proven = True
                    self.send(ProofMac(mac=mac).encode())
                    continue
                if isinstance(msg, r.ProofAnswer | r.Heartbeat):
                    continue  # a proof not asked for; a heartbeat, which ``heard`` has noted
                if isinstance(msg, r.Welcome) and proof is not None and not proven:
                    log.warning("welcomed without the table's password proof: hanging up")
                    self._shut()
                    return "no_proof", NO_PROOF_WELCOME, False
                if isinstance(msg, r.Welcome):
                    welcomed = True
                    self._stale_token = False
                    self._welcomed()
                elif isinstance(msg, r.Error) and not welcomed:
                    last_error = msg.message or msg.code
                    self._refused_code = msg.code
                    stale = msg.code == "bad_token" and "token" in hello
                    if stale:
                        self._stale(str(hello.get("token")))
                        continue  # not for the player's eyes: we simply sit down again
                elif isinstance(msg, r.Error) and msg.code == "taken_over":
                    self._put("msg", msg)  # another window of ours has the seat: not a drop
                    self._shut()
                    return "bye", msg.message or "another connection took the seat", welcomed
                elif isinstance(msg, r.Bye):
                    self._put("msg", msg)
                    self._shut()
                    if self.resume_after_bye and self.mid_match:
                        return "down", msg.reason, welcomed  # it resumes the match: try again
                    return "bye", msg.reason, welcomed
                self._note_match(msg)
                self._put("msg", msg)
        self._shut()
        if stale and not welcomed:
            return "stale", last_error, False
        if last_error and not welcomed:
            return "refused", last_error, False
        if silent:
            return "down", f"no word from the server for {self.silence_limit:.0f} s", welcomed
        return "down", "connection lost", welcomed

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
                    raise TimeoutError("the TLS handshake took too long")
                sock.settimeout(left)
                data = sock.recv(65536)
                if not data:
                    raise ConnectionError("the server closed the connection")
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
            raise _Ended("down", "could not seal the connection: the table has no key") from exc
        port = self.port
        with contextlib.suppress(OSError, IndexError):
            port = int(sock.getpeername()[1])
        key = TableKey(fingerprint, certificate_name(cert), self.peer or self.host, port)
        self.key = key
        try:
            refusal = None if self.check_key is None else self.check_key(key)
        except Exception:
            log.exception("checking the table's key failed")
            refusal = "the table's key could not be checked"
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

    def _welcomed(self) -> None:
        """The table let us in, having proven the password if we made it: its key may be
        kept now (before the welcome is shown)."""
        if self.on_welcome is None or self.key is None or not self.sealed:
            return
        try:
            self.on_welcome(self.key)
        except Exception:  # keeping the key must never stop the game
            log.exception("keeping the table's key failed")

    def _stale(self, token: str) -> None:
        try:
            self.on_stale(token)
        except Exception:
            log.exception("forgetting a stale token failed")
