"""The host's controls that are not the dealer's (R-C3): the table's options and a seat
taken away; and a seat's own away and back (R-C2).

The table checks who sends the host's messages, and when (``server.table.HOSTS``).
Invariants:

- A refused control raises ``MessageError`` and changes nothing.
- With plain connections turned off (``plain`` ``never``) no plain connection stays:
  each is sent ``tls_required`` and closed, and its seat is freed as a leave between
  matches frees it.  The host's own connection must be sealed to turn them off.  Plain
  connections allowed at a table with a password are said with their cost
  (``plain_words``): the log warns, the terminal's ``status`` says it, every lobby too.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from common import protocol as p
from common.match import SeatKind
from server.net import TLS_REQUIRED, Connection
from server.presence import Move
from server.seats import Seat
from server.turns import TableOptions, Turns

__all__ = ["PLAIN_COST", "HostControls"]

log = logging.getLogger("server.table")

PLAIN_COST = "their password, cards and token can be read on the network"


class HostControls:
    """Set the table, take a seat away; away and back."""

    def __init__(
        self,
        options: TableOptions,
        seats: Mapping[int, Seat],
        conns: set[Connection],
        *,
        turns: Turns,
        password: bool,
    ) -> None:
        self.options = options
        self._seats = seats
        self._conns = conns
        self._turns = turns
        self._password = password

    def away_or_back(self, seat: Seat, *, back: bool, running: bool) -> None:
        ref = "back" if back else "away"
        if back:
            self._turns.move(seat, Move.BACK, ref=ref)
            log.info("seat %d (%s) is back (R-C2)", seat.seat, seat.name)
            return
        if not running:
            raise p.MessageError(
                "no_match", "no match is being played: nothing to step away from", ref
            )
        self._turns.move(seat, Move.STEP_AWAY, ref=ref)
        log.info("seat %d (%s) steps away (R-C2)", seat.seat, seat.name)

    def set_options(self, msg: p.Options, *, sealed: bool) -> None:
        """The host sets the table; ``sealed``: its own connection is not plain."""
        if msg.plain == "never" and not sealed:
            raise p.MessageError(
                "tls_required",
                "your own connection is plain: it would be closed too (connect sealed first)",
                "options",
            )
        opts = self.options
        for name in ("turn_time", "time_bank", "stand_in", "hands", "plain", "odds"):
            value = getattr(msg, name)
            if value is not None:  # hands: R-T4, the next match's length, in every lobby
                setattr(opts, name, value)
        if msg.turn_time == 0:
            opts.turn_time = None  # the clock is off (R-C4)
        if msg.plain == "allow" and self._password:
            log.warning("%s", self.plain_words())
        log.info(
            "the host sets the table: %s, %d hands, plain connections: %s, odds: %s",
            opts.to_dict(),
            opts.hands,
            opts.plain,
            "allowed" if opts.odds else "off",
        )
        if opts.plain == "never":  # no plain connection stays (a seat's is freed as it closes)
            for conn in list(self._conns):
                if conn.kind == "plain" and not conn.closed:
                    log.info("%r: plain, and the table takes only sealed connections now", conn)
                    conn.fail("tls_required", TLS_REQUIRED)

    def plain_words(self) -> str:
        """The table's choice of plain connections, for the terminal (``""``: nothing to
        say, allowed at a table without a password)."""
        if self.options.plain == "never":
            return "plain connections never"
        if self._password:
            return f"plain connections allowed: {PLAIN_COST}"
        return ""

    def take_seat(self, seat_no: int, *, host: int | None) -> None:
        seat = self._seats.get(seat_no)
        if seat is None or seat.kind is not SeatKind.HUMAN:
            raise p.MessageError("bad_seat", f"seat {seat_no} is not a person's seat", "take_seat")
        if seat_no == host:
            raise p.MessageError("bad_seat", "the host cannot take its own seat away", "take_seat")
        try:
            self._turns.move(seat, Move.TAKE, ref="take_seat")
        except p.MessageError as exc:
            if exc.code == "seat_taken":
                raise p.MessageError(
                    "seat_taken", f"seat {seat_no} is already taken away", "take_seat"
                ) from None
            raise
        log.info("the host takes seat %d (%s) away for the match (R-C3)", seat_no, seat.name)
