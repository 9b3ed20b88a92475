"""The host's role: who holds it, and how it passes on (R-T0, R-C1).

``HostRole.seat`` is the host's seat number (or None); the table reads it as
``Table.host``.  The role moves when the host leaves, is freed, is dropped past its
grace or hands it on, and when nobody holds it and a person connects.  Invariants:

- The host is a connected person, a dropped one within its grace, or nobody.  It
  passes on (``pass_on``, a lobby to everyone) at once when the host leaves or is
  freed, and once a dropped host's grace is over (a timer on the table's clock that
  its comeback cancels): to the next connected person clockwise (R-T0,
  ``server.seats.next_host``); with nobody there, to the first person who connects or
  comes back (not one whose seat the host took away: it may only watch, R-C3).  The
  host may hand it on (``make_host``).
- Every change of the host during a match is in the journal (a ``host`` record)
  before anyone is told of it.
- A new host, or the host back, is told of every open ask for a seat (``server.asks``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from common import protocol as p
from common.match import SeatKind
from common.presence import Presence
from server.asks import SeatAsks
from server.journal import host_record
from server.net import Connection
from server.seats import Seat, next_host
from server.timers import Clock, Handle

__all__ = ["HostRole"]

log = logging.getLogger("server.table")


class RoleTable(Protocol):
    """What the host's role reads of the table."""

    seats: dict[int, Seat]
    running: bool
    closing: bool


class HostRole:
    """The host's seat, the dropped host's grace timer, and the role handed on."""

    def __init__(
        self,
        table: RoleTable,
        *,
        clock: Clock,
        grace: float,
        record: Callable[[dict[str, Any]], None],
        asks: SeatAsks,
        broadcast: Callable[..., None],
        lobby: Callable[[], dict[str, Any]],
    ) -> None:
        self._table = table
        self._clock = clock
        self._grace = grace
        self._record = record
        self._asks = asks
        self._broadcast = broadcast
        self._lobby = lobby
        self._seat: int | None = None
        self._timer: Handle | None = None  # a dropped host's grace (R-C1)

    @property
    def seat(self) -> int | None:
        return self._seat

    @seat.setter
    def seat(self, seat: int | None) -> None:
        """The host changes; during a match the journal keeps it."""
        if seat != self._seat and self._table.running:
            self._record(host_record(seat))
        self._seat = seat

    # ------------------------------------------------------------ the table's moments

    def dropped(self, seat: Seat) -> None:
        """``seat``'s connection is gone during a match: a host keeps the role for its
        grace (R-C1), then it passes on."""
        if seat.seat == self._seat:
            self._cancel_timer()
            self._timer = self._clock.call_later(self._grace, self._grace_over, seat.seat)

    def seated(self, seat: Seat) -> bool:
        """``seat`` has a connection again (or for the first time): a host back within its
        grace stays the host; with nobody hosting, a person takes the role.  Returns
        whether it did."""
        if seat.seat == self._seat:
            self._cancel_timer()  # back within its grace: still the host
        took_role = (  # the role waited for the first person to connect or come back
            self._seat is None
            and seat.kind is SeatKind.HUMAN
            and seat.presence is not Presence.TAKEN
        )
        if took_role:  # (not one whose seat the host took away: it may only watch, R-C3)
            self.seat = seat.seat
            log.info("seat %d (%s) is the host now", seat.seat, seat.name)
        return took_role

    def welcomed(self, conn: Connection, seat: Seat, *, took_role: bool) -> None:
        """``conn`` has had its welcome and the table's state: as the host it is told of
        every open ask; if it has just taken the role, the others' lobbies say so."""
        if seat.seat == self._seat:
            self._asks.tell(conn)
        if took_role and self._table.running:
            self._broadcast(self._lobby(), but=conn)  # it has just had its own

    def left(self, seat_no: int) -> None:
        """The person in ``seat_no`` said ``leave`` during a match: a goodbye waits no
        grace, so a host's role passes now."""
        if seat_no == self._seat:
            self.pass_on(next_host(self._table.seats, seat_no, but=seat_no))

    def freed(self, seat_no: int) -> None:
        """Seat ``seat_no`` is free (already out of the seats): a host's role goes to the
        next one clockwise (R-T0).  The table's own lobby tells everyone."""
        if self._seat == seat_no:
            self._cancel_timer()
            self.seat = next_host(self._table.seats, seat_no)
            self._asks.tell_new_host()

    # ------------------------------------------------------------ handing it on

    def pass_on(self, seat_no: int | None) -> None:
        """The host's role to ``seat_no`` (or nobody): everyone's lobby says so, and the
        new host is told of every open ask for a seat."""
        self._cancel_timer()
        if seat_no == self._seat:
            return
        self.seat = seat_no
        seats = self._table.seats
        if seat_no in seats:
            log.info("%s (seat %d) is the host now", seats[seat_no].name, seat_no)
        else:
            log.info("nobody is the host now: the first person back will be")
        if not self._table.closing:
            self._broadcast(self._lobby())
        self._asks.tell_new_host()

    def asked(self, conn: Connection, msg: p.MakeHost) -> None:
        """The host's ``make_host``; raises ``MessageError`` (to it only) when refused."""
        if conn.seat is None or conn.seat != self._seat:
            raise p.MessageError("not_host", "only the host hands the host's role on", msg.TYPE)
        self.make_host(msg.seat, ref=msg.TYPE)

    def make_host(self, seat_no: int, *, ref: str | None = None) -> None:
        """The host's role to the connected person in ``seat_no`` (the host's
        ``make_host``, or the terminal's ``host SEAT``)."""
        seat = self._table.seats.get(seat_no)
        if seat is None or seat.kind is not SeatKind.HUMAN or seat.conn is None:
            raise p.MessageError("bad_seat", f"seat {seat_no} is not a connected person", ref)
        if seat.presence is Presence.TAKEN:
            raise p.MessageError("seat_taken", f"seat {seat_no} was taken away (R-C3)", ref)
        if seat_no == self._seat:
            raise p.MessageError("bad_seat", f"seat {seat_no} is the host already", ref)
        self.pass_on(seat_no)

    def cancel(self) -> None:
        """The table shuts down: no grace timer is left running."""
        self._cancel_timer()

    def _grace_over(self, seat_no: int) -> None:
        """A dropped host is still gone after the grace (R-C1): the role passes on."""
        self._timer = None
        seat = self._table.seats.get(seat_no)
        if self._seat == seat_no and (seat is None or seat.conn is None):
            self.pass_on(next_host(self._table.seats, seat_no))

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
