"""The host's role: who holds it, and how it passes on (R-T0, R-C1).

``HostRole.seat`` is the host's seat number (or None).  Invariants:

- The host is a connected person, a dropped one within its grace, or nobody.  It
  passes on (``pass_on``) at once when the host leaves or is freed, and once a dropped
  host's grace is over (a timer on the table's clock that its comeback cancels): to
  the next connected person clockwise (R-T0, ``server.seats.next_host``); with nobody
  there, to the first person who connects or comes back (not one whose seat the host
  took away: it may only watch, R-C3).  The host may hand it on (``make_host``).
- Every change of the host goes to the table's ``record`` (``_set``, the one place it
  changes), which journals it during a match before anyone is told of it.
- A role passed on is told to the table (``passed``): everyone's lobby says so, and
  the new host is told of every open ask for a seat (``server.asks``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from common import protocol as p
from common.match import SeatKind
from common.presence import Presence
from server.journal import host_record
from server.seats import Seat, next_host
from server.timers import Clock, Handle

__all__ = ["HostRole"]

log = logging.getLogger("server.table")


class HostRole:
    """The host's seat, the dropped host's grace timer, and the role handed on."""

    def __init__(
        self,
        seats: Mapping[int, Seat],
        *,
        clock: Clock,
        grace: float,
        record: Callable[[dict[str, Any]], None],
        passed: Callable[[], None],
    ) -> None:
        self._seats = seats
        self._clock = clock
        self._grace = grace
        self._record = record
        self._passed = passed
        self.seat: int | None = None  # changed only by ``_set``
        self._timer: Handle | None = None  # a dropped host's grace (R-C1)

    def _set(self, seat: int | None) -> None:
        if seat != self.seat:
            self._record(host_record(seat))
        self.seat = seat

    def restore(self, seat: int | None) -> None:
        self.seat = seat

    def name(self) -> str:
        host = self._seats.get(self.seat) if self.seat is not None else None
        return host.name if host is not None else ""

    # ------------------------------------------------------------ the table's moments

    def dropped(self, seat: Seat) -> None:
        """A dropped host keeps the role for its grace (R-C1)."""
        if seat.seat == self.seat:
            self._cancel_timer()
            self._timer = self._clock.call_later(self._grace, self._grace_over, seat.seat)

    def seated(self, seat: Seat) -> bool:
        """``seat`` has a connection: a host back within its grace stays the host; with
        nobody hosting, a person takes the role (True)."""
        if seat.seat == self.seat:
            self._cancel_timer()  # back within its grace: still the host
        took_role = (  # the role waited for the first person to connect or come back
            self.seat is None
            and seat.kind is SeatKind.HUMAN
            and seat.presence is not Presence.TAKEN
        )
        if took_role:  # (not one whose seat the host took away: it may only watch, R-C3)
            self._set(seat.seat)
            log.info("seat %d (%s) is the host now", seat.seat, seat.name)
        return took_role

    def left(self, seat_no: int) -> None:
        """``leave`` during a match: a host's role passes now, no grace."""
        if seat_no == self.seat:
            self.pass_on(next_host(self._seats, seat_no, but=seat_no))

    def freed(self, seat_no: int) -> bool:
        """Seat ``seat_no`` is free: a host's role goes on clockwise (R-T0; True)."""
        if self.seat != seat_no:
            return False
        self._cancel_timer()
        self._set(next_host(self._seats, seat_no))
        return True

    # ------------------------------------------------------------ handing it on

    def pass_on(self, seat_no: int | None) -> None:
        self._cancel_timer()
        if seat_no == self.seat:
            return
        self._set(seat_no)
        if self.name():
            log.info("%s (seat %d) is the host now", self.name(), seat_no)
        else:
            log.info("nobody is the host now: the first person back will be")
        self._passed()

    def make_host(self, seat_no: int, *, ref: str | None = None) -> None:
        """The host's ``make_host`` (or the terminal's ``host SEAT``)."""
        seat = self._seats.get(seat_no)
        if seat is None or seat.kind is not SeatKind.HUMAN or seat.conn is None:
            raise p.MessageError("bad_seat", f"seat {seat_no} is not a connected person", ref)
        if seat.presence is Presence.TAKEN:
            raise p.MessageError("seat_taken", f"seat {seat_no} was taken away (R-C3)", ref)
        if seat_no == self.seat:
            raise p.MessageError("bad_seat", f"seat {seat_no} is the host already", ref)
        self.pass_on(seat_no)

    def cancel(self) -> None:
        self._cancel_timer()

    def _grace_over(self, seat_no: int) -> None:
        self._timer = None
        seat = self._seats.get(seat_no)
        if self.seat == seat_no and (seat is None or seat.conn is None):
            self.pass_on(next_host(self._seats, seat_no))

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
