"""Asking for a seat back by name, and the host's answer (issue: a lost token).

A person whose token is lost (another laptop, a wiped folder) watches the table under
the seat's name and sends ``ask_seat``; the host (its connection, or a headless
server's terminal) answers ``give_seat`` or ``refuse_seat``.  Which seats may be asked
for, as a cardroom would have it:

- a person's seat of the match in play whose connection is gone: dropped (R-C1) or away
  with nobody connected (R-C2).  Not a computer seat, not a connected seat (its person
  is there: ask them), not a seat the host took away (R-C3: its person may only watch
  for the rest of the match), and never between matches (a seat that is gone is freed
  then, and a free seat needs no asking);
- only by a protocol 2 watcher whose hello name is the seat's (``server.seats.taken_by``).

Invariants:

- A name alone is not a proof: the seat changes hands only on the host's ``give``.
  Until then the asker is a watcher, sent what every watcher is sent (no hole card).
  A seat given (``decide`` returns it) goes to ``server.seating``, which makes it a new
  token (journaled; the old one is dead) and seats the asker as a comeback would (R-C1).
- At most one ask is pending per seat and per connection; a refused ask is an
  ``error`` to its sender only and changes nothing.
- Every ask ends exactly once, with a word to the asker (``ask_answer``) and, while it
  is open, to the host (``seat_asked`` with ``open`` false): given, refused, the asker
  gone, the seat back by its token or freed, the match over, or ``ASK_TIMEOUT``
  seconds on the table's clock without an answer.
- With no host connected the ask waits for one (the host's role passes on, and the new
  host is told of every open ask), or for the terminal's ``give SEAT`` / ``refuse SEAT``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from common import protocol as p
from common.match import SeatKind
from common.presence import Presence
from server.hostrole import HostRole
from server.net import Connection
from server.seats import Seat, taken_by
from server.timers import Clock, Handle

__all__ = ["ASK_TIMEOUT", "Ask", "SeatAsks", "askable"]

log = logging.getLogger("server.table")

ASK_TIMEOUT = 180.0


@dataclass(slots=True)
class Ask:
    seat: int
    name: str
    conn: Connection
    timer: Handle | None = None


_LOST = (Presence.DROPPED, Presence.AWAY_ASKED, Presence.AWAY_CLOCK, Presence.AWAY_DROPPED)
"""The presences, in a match only, its person may be gone from."""


def askable(seat: Seat | None) -> bool:
    """Whether ``seat``'s person may ask for it back by name (see the module)."""
    return (
        seat is not None
        and seat.kind is SeatKind.HUMAN
        and seat.conn is None
        and seat.presence in _LOST
    )


class SeatAsks:
    """The pending asks and their answers."""

    def __init__(
        self,
        seats: Mapping[int, Seat],
        role: HostRole,
        *,
        clock: Clock,
        timeout: float = ASK_TIMEOUT,
    ) -> None:
        self._seats = seats
        self._role = role
        self._clock = clock
        self._timeout = timeout
        self.pending: dict[int, Ask] = {}

    # ------------------------------------------------------------ the asker

    def ask(self, conn: Connection, msg: p.AskSeat, *, running: bool) -> None:
        """A watcher's ``ask_seat``; ``MessageError`` (to it only) when refused."""
        ref, n = "ask_seat", msg.seat
        if conn.seat is not None:
            raise p.MessageError("already_seated", "you have a seat", ref)
        if not running:
            raise p.MessageError("no_match", "no match is being played: take a free seat", ref)
        seat = self._seats.get(n)
        if seat is None or seat.kind is not SeatKind.HUMAN:
            raise p.MessageError("bad_seat", f"seat {n} is not a person's seat", ref)
        if seat.presence is Presence.TAKEN:
            raise p.MessageError(
                "seat_taken", f"the host took seat {n} away for this match (R-C3)", ref
            )
        if not askable(seat):
            raise p.MessageError("seat_connected", f"seat {n} is connected: it is not lost", ref)
        if taken_by(conn.name or "", [seat.name]) is None:
            raise p.MessageError(
                "wrong_name", f"seat {n} is {seat.name}'s: watch under that name to ask", ref
            )
        if n in self.pending:
            raise p.MessageError("already_asked", f"seat {n} is already asked for", ref)
        if any(a.conn is conn for a in self.pending.values()):
            raise p.MessageError("already_asked", "you are already asking for a seat", ref)
        ask = Ask(n, seat.name, conn)
        ask.timer = self._clock.call_later(self._timeout, self._timed_out, n, conn)
        self.pending[n] = ask
        log.warning("%s asks for seat %d back: give %d / refuse %d", seat.name, n, n, n)
        conn.send_message(
            p.AskAnswer(n, "waiting", "Waiting for the host to give the seat back").encode()
        )
        self._tell_host(p.SeatAsked(n, seat.name, True).encode())

    # ------------------------------------------------------------ the host's word

    def decide(
        self, n: int, *, give: bool, ref: str | None = None
    ) -> tuple[Connection, Seat] | None:
        """Give or refuse the ask for seat ``n``: the asker and the seat, if given."""
        ask = self.pending.get(n)
        if ask is None:
            raise p.MessageError("no_ask", f"nobody is asking for seat {n}", ref)
        seat = self._seats.get(n)
        if give and not askable(seat):
            self._end(ask, "unanswered", "the seat is no longer lost")
            raise p.MessageError("no_ask", f"seat {n} is no longer lost", ref)
        if not give:
            log.info("the host refuses seat %d to %s", n, ask.name)
            self._end(ask, "refused", "The host did not give the seat back")
            return None
        assert seat is not None
        log.info("the host gives seat %d back to %s on %s", n, ask.name, ask.conn.peer)
        self._end(ask, "given", "The host gave the seat back")
        return ask.conn, seat

    # ------------------------------------------------------------ asks that end by themselves

    def seat_back(self, n: int, why: str = "the seat came back with its own token") -> None:
        ask = self.pending.get(n)
        if ask is not None:
            self._end(ask, "unanswered", why)

    def conn_gone(self, conn: Connection) -> None:
        for ask in [a for a in self.pending.values() if a.conn is conn]:
            self._end(ask, None, "")

    def end_all(self, why: str) -> None:
        for ask in list(self.pending.values()):
            self._end(ask, "unanswered", why)

    def _timed_out(self, n: int, conn: Connection) -> None:
        ask = self.pending.get(n)
        if ask is not None and ask.conn is conn:
            log.info("nobody answered %s's ask for seat %d", ask.name, n)
            self._end(ask, "unanswered", "Nobody answered in time")

    def _end(self, ask: Ask, answer: str | None, message: str) -> None:
        if self.pending.get(ask.seat) is not ask:
            return
        del self.pending[ask.seat]
        if ask.timer is not None:
            ask.timer.cancel()
        if answer is not None and not ask.conn.closed:
            ask.conn.send_message(p.AskAnswer(ask.seat, answer, message).encode())
        self._tell_host(p.SeatAsked(ask.seat, ask.name, False).encode())

    # ------------------------------------------------------------ the host

    def _host_conn(self) -> Connection | None:
        host = self._role.seat
        seat = self._seats.get(host) if host is not None else None
        conn = seat.conn if seat is not None else None
        return None if conn is None or conn.protocol == 1 else conn

    def _tell_host(self, msg: dict[str, Any]) -> None:
        conn = self._host_conn()
        if conn is not None:
            conn.send_message(msg)

    def tell_new_host(self) -> None:
        conn = self._host_conn()
        if conn is not None:
            self.tell(conn)

    def tell(self, conn: Connection) -> None:
        """Every open ask to the host's ``conn`` (unless it speaks protocol 1)."""
        if conn.protocol != 1:
            for ask in self.pending.values():
                conn.send_message(p.SeatAsked(ask.seat, ask.name, True).encode())

    def cancel(self) -> None:
        for ask in self.pending.values():
            if ask.timer is not None:
                ask.timer.cancel()
        self.pending.clear()

    def lines(self) -> list[str]:
        return [f"{a.name} asks for seat {a.seat}" for a in self.pending.values()]
