"""The way in: a connection's ``hello``, and whether a watcher may ``sit``.

``Reception.hello`` checks, in this order: the protocol version; a seat's token (a
comeback, R-C1, which skips the password back-off and the table's budget of guesses);
the password, after its address's back-off (``server.guard``) and its turn in the
table's budget (``server.guesses``); then a watcher's room, or a newcomer's free seat,
name (``server.seats.taken_by``) and room.  It only decides: a hello let in goes to
``admit`` (``server.seating``: back to the token's seat, to watch, or to a free seat).
Invariants:

- Every refusal of a hello is an ``error`` naming ``hello`` and a close
  (``Connection.fail``); a refused ``sit`` raises ``MessageError`` and keeps the watcher.
- A hello in its address's password back-off waits for its answer at most
  ``MAX_HOLD`` seconds, on the table's clock, and then at most as long again for its
  turn in the table's budget; a wrong password checked uses a turn, a right one gives
  it back.  A seat's comeback is checked at once and takes no turn (its misses are not
  counted either: the token it holds is more than the password it might guess).
- A protocol 2 newcomer whose name is a lost seat's (``server.asks.askable``) is told
  that seat in its ``name_taken`` error, so that it may watch and ask for it back.
- A plain connection's hello is refused (``tls_required``) while the table takes only
  sealed ones (``plain`` "never", the default at a table with a password: a plain hello
  would carry the password in the clear), before anything of it is looked at.
- The password proof (``common.proof``): a sealed protocol 2 hello with ``pake`` is
  answered with the table's ``proof`` and waits, not greeted, for the client's; until
  the right client mac comes the address counts one wrong password, so an unfinished
  proof is not a free guess.  The right mac goes on as a right password would; a wrong
  one is ``bad_password``.  The connection's handshake time bounds the whole of it.
"""

from __future__ import annotations

import hmac
import logging
import math
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from common import protocol as p
from common.proof import ProofFailed, TableProof
from common.version import __version__
from server.asks import askable
from server.config import ServerConfig
from server.guard import Door
from server.net import TLS_REQUIRED, Connection
from server.seats import Seat, first_free, taken_by
from server.timers import Clock
from server.turns import TableOptions

__all__ = ["MAX_HOLD", "TLS_REQUIRED_PASSWORD", "Reception"]

log = logging.getLogger("server.table")

TLS_REQUIRED_PASSWORD = (
    "this table has a password and takes only sealed (encrypted) connections, so that the"
    " password never crosses the network in the clear: use the game's own client, or one"
    " that speaks TLS"
)

MAX_HOLD = 8.0
"""The longest a hello waits out its back-off, or its turn (``server.guesses``)."""


@dataclass(slots=True)
class _Proving:
    """A hello waiting for its client's half of the password proof."""

    hello: p.Hello
    proof: TableProof
    timer: Any
    turn: bool


Admit = Callable[[Connection, p.Hello, Seat | None], None]
"""A hello let in (``server.seating``), with the seat its token holds."""


class Reception:
    """Decides who comes in: back to a seat by its token, to watch, or to a free seat."""

    def __init__(
        self,
        config: ServerConfig,
        door: Door,
        options: TableOptions,
        seats: Mapping[int, Seat],
        conns: set[Connection],
        *,
        clock: Clock,
        admit: Admit,
    ) -> None:
        self._config = config
        self._door = door
        self._options = options
        self._seats = seats
        self._conns = conns
        self._clock = clock
        self._admit = admit
        self._proving: weakref.WeakKeyDictionary[Connection, _Proving] = weakref.WeakKeyDictionary()
        self._warned = float("-inf")  # when the host was last told of someone guessing

    def hello(self, conn: Connection, hello: p.Hello) -> None:
        if conn in self._proving:
            raise p.MessageError("already_hello", "hello only once", "hello")
        if not conn.sealed and self._options.plain == "never":
            why = TLS_REQUIRED if self._config.password is None else TLS_REQUIRED_PASSWORD
            conn.fail("tls_required", why, "hello")
            return
        if hello.protocol not in p.PROTOCOLS:
            newer = hello.protocol > max(p.PROTOCOLS)
            log.info("refused protocol %d (game %s)", hello.protocol, hello.version or "?")
            conn.fail(
                "protocol_version",
                p.version_refusal(__version__, hello.version, game_newer=newer),
                "hello",
            )
            return
        if hello.protocol == 1:
            conn.protocol = 1
            hello = replace(hello, pake=None)  # protocol 2's: not heard from protocol 1
        if hello.pake is not None and not conn.sealed:  # a corrected hello may follow
            raise p.MessageError(
                "bad_message", "a password proof needs a sealed connection", "hello"
            )
        if not self._password_ok(conn, hello, comeback=self._seat_of(hello) is not None):
            return
        self._greet(conn, hello)

    def proving(self, conn: Connection) -> bool:
        return conn in self._proving

    def proof(self, conn: Connection, msg: p.Proof) -> None:
        pending = self._proving.pop(conn, None)
        if pending is None:
            raise p.MessageError("bad_message", "no password proof is waiting for this", "proof")
        pending.timer.cancel()
        if not pending.proof.check(msg.mac):
            # Its miss was counted when the table answered: not once more.
            log.info("wrong password proof from %s", conn.address)
            conn.fail("bad_password", "wrong password", "hello")
            return
        self._door.password_ok(conn.address, turn=pending.turn)
        self._greet(conn, pending.hello)

    def _seat_of(self, hello: p.Hello) -> Seat | None:
        if hello.token is None:
            return None
        return next((s for s in self._seats.values() if s.owns(hello.token)), None)

    def _greet(self, conn: Connection, hello: p.Hello) -> None:
        """A hello past its password: a comeback, a watcher or a newcomer."""
        seat = self._seat_of(hello)
        conn.beats = hello.heartbeat
        if hello.token is not None:
            if seat is None:
                conn.fail(
                    "bad_token", "no seat has that token (it ends when the seat is freed)", "hello"
                )
                return
            self._admit(conn, hello, seat)
        elif hello.watch:
            refused = self._door.may_watch(conn, self._conns)
            if refused is not None:
                conn.fail("server_busy", refused, "hello")
                return
            self._admit(conn, hello, None)
        else:
            self._newcomer(conn, hello)

    def _password_ok(self, conn: Connection, hello: p.Hello, *, comeback: bool) -> bool:
        """The password, after its back-off and turn; False once refused or held."""
        password = self._config.password
        if password is None:
            return True
        if comeback:
            # A seat's token skips both: a stranger's misses must not keep it out.
            return self._check(conn, hello, password, turn=False)
        now = self._clock.now()
        wait = self._door.wait_left(conn.address, now)
        if wait > 0:
            if wait > MAX_HOLD:
                conn.fail(
                    "password_wait",
                    f"too many wrong passwords from your address: try again in {wait:.0f} s",
                    "hello",
                )
            else:  # answered once the wait is over, as if the hello came then
                conn.hold(wait, lambda: self.hello(conn, hello))
            return False
        turn = self._door.guesses.take(conn.address, now, within=MAX_HOLD)
        if turn is None:
            self._no_turn(conn, now)
            return False
        if turn > 0:
            conn.hold(turn, lambda: self._turn_came(conn, hello, password))
            return False
        return self._check(conn, hello, password, turn=True)

    def _turn_came(self, conn: Connection, hello: p.Hello, password: str) -> None:
        """A held hello's turn: checked now, unless its address missed meanwhile (then it
        waits out the back-off)."""
        if self._door.wait_left(conn.address, self._clock.now()) > 0:
            self._door.guesses.give_back(conn.address)
            self.hello(conn, hello)
        elif self._check(conn, hello, password, turn=True):
            self._greet(conn, hello)

    def _no_turn(self, conn: Connection, now: float) -> None:
        """No turn soon enough: refused, and the host told (once a minute at most)."""
        wait = math.ceil(self._door.guesses.wait(conn.address, now))
        conn.fail(
            "password_wait",
            "someone is guessing the password: the table checks only a few a minute;"
            f" try again in {wait} s",
            "hello",
        )
        if now - self._warned >= 60:
            self._warned = now
            most = self._door.guesses.most_a_minute
            log.warning(
                "many wrong passwords: someone may be guessing (the table checks at most"
                " %.0f a minute; people who came in before still get in)",
                most,
            )

    def _check(self, conn: Connection, hello: p.Hello, password: str, *, turn: bool) -> bool:
        """Check the password, or start its proof; True if right now.  ``turn``: it took a
        turn, and a miss is counted."""
        now = self._clock.now()
        if hello.pake is not None:
            self._prove(conn, hello, password, now, turn=turn)
            return False
        if not hmac.compare_digest((hello.password or "").encode(), password.encode()):
            self._wrong(conn, now, "wrong password from %s", turn=turn)
            return False
        self._door.password_ok(conn.address, turn=turn)
        return True

    def _prove(
        self, conn: Connection, hello: p.Hello, password: str, now: float, *, turn: bool
    ) -> None:
        assert hello.pake is not None
        proof = TableProof(password, conn.binding)
        try:
            pake, mac = proof.answer(hello.pake)
        except ProofFailed:
            self._wrong(conn, now, "a password proof from %s that is none", turn=turn)
            return
        # A miss until the right client mac comes: an unfinished proof is no free guess.
        if turn:
            self._door.password_failed(conn.address, now)
        conn.waiting = True
        timeout = self._config.handshake_timeout
        timer = self._clock.call_later(timeout, self._proof_expired, conn)
        self._proving[conn] = _Proving(hello, proof, timer, turn)
        conn.send_message(p.ProofAnswer(pake, mac, proof.password_mac()).encode())

    def _wrong(self, conn: Connection, now: float, what: str, *, turn: bool) -> None:
        """A wrong password (a miss counted if it took a turn): ``bad_password``."""
        if turn:
            wait = self._door.password_failed(conn.address, now)
            log.info(what + "; it waits %.0f s", conn.address, wait)
        conn.fail("bad_password", "wrong password", "hello")

    def _proof_expired(self, conn: Connection) -> None:
        if self._proving.pop(conn, None) is not None and not conn.closed:
            conn.fail("handshake_timeout", "no hello in time")

    def _newcomer(self, conn: Connection, hello: p.Hello) -> None:
        seats = self._seats
        if first_free(seats) is None:
            conn.fail("table_full", "all seven seats are taken", "hello")
            return
        clash = next((s for s in seats.values() if taken_by(hello.name, [s.name])), None)
        if clash is not None:
            # Protocol 2: a seat of that name whose person is gone may be asked back.
            lost = conn.protocol != 1 and askable(clash)
            text = f"{clash.name} is already at the table: choose another name"
            error = p.Error("name_taken", text, "hello", clash.seat if lost else None)
            conn.send_message(error.encode())
            conn.close()
            return
        refused = self._door.may_seat(conn, self._conns)
        if refused is not None:
            conn.fail("server_busy", refused, "hello")
            return
        self._admit(conn, hello, None)

    def may_sit(self, conn: Connection) -> None:
        """``MessageError`` unless a spectator may take a free seat."""
        if conn.seat is not None:
            raise p.MessageError("already_seated", "you have a seat", "sit")
        if first_free(self._seats) is None:
            raise p.MessageError("table_full", "all seven seats are taken", "sit")
        clash = taken_by(conn.name or "Player", (s.name for s in self._seats.values()))
        if clash is not None:
            raise p.MessageError(
                "name_taken", f"{clash} is already at the table: watch under another name", "sit"
            )
