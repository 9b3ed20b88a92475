"""The host's controls (R-C3) and a seat's own away and back (R-C2), as messages.

``HostControls`` answers ``p.CONTROL_MESSAGES`` (``options``, ``away``, ``back``,
``pause``, ``resume``, ``take_seat``) and the headless server's terminal
(``server.console``).  Invariants:

- A refused control raises ``MessageError`` and changes nothing.
- Only the host pauses, resumes, takes a seat away or sets the table; the table is set
  between matches only, and paused, resumed or taken from during one only.
- With plain connections turned off (``plain`` ``never``) no plain connection stays:
  each is sent ``tls_required`` and closed, and its seat is freed as a leave between
  matches frees it.  The host's own connection must be sealed to turn them off.  Plain
  connections allowed at a table with a password are said with their cost
  (``plain_words``): the log warns, the terminal's ``status`` says it, every lobby too.
- Pausing and resuming change the table's life, the dealer's (``Dealer.pause``): while
  paused the hand in play is finished, no new hand is dealt and a person's clock stands
  still; ``resume`` starts the clock where it stood and deals the next hand if the last
  one is over.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

from common import protocol as p
from common.match import SeatKind
from server.dealer import Dealer
from server.hostrole import HostRole
from server.net import TLS_REQUIRED, Connection
from server.presence import Move
from server.seats import Seat
from server.turns import TableOptions, Turns

__all__ = ["PLAIN_COST", "HostControls"]

log = logging.getLogger("server.table")

PLAIN_COST = "their password, cards and token can be read on the network"
"""What plain connections allowed at a table with a password cost (issue 33)."""


class HostControls:
    """Pause, resume, take a seat away, set the table; away and back."""

    def __init__(
        self,
        options: TableOptions,
        seats: Mapping[int, Seat],
        conns: set[Connection],
        *,
        role: HostRole,
        turns: Turns,
        dealer: Dealer,
        password: bool,
        lobby_changed: Callable[[], None],
    ) -> None:
        self.options = options
        self._seats = seats
        self._conns = conns
        self._role = role
        self._turns = turns
        self._dealer = dealer
        self._password = password
        self._broadcast_lobby = lobby_changed

    def _running(self) -> bool:
        return self._dealer.life.running

    # ------------------------------------------------------------ messages

    def control(self, conn: Connection, msg: p.ClientMessage) -> None:
        """One of ``p.CONTROL_MESSAGES``."""
        if isinstance(msg, p.Options):
            self._set_options(conn, msg)
            return
        ref = msg.TYPE
        if conn.seat is None or conn.seat not in self._seats:
            raise p.MessageError("not_seated", "a spectator has no seat to do that with", ref)
        if isinstance(msg, p.Away | p.Back):
            self._away_or_back(self._seats[conn.seat], back=isinstance(msg, p.Back), ref=ref)
            return
        if conn.seat != self._role.seat:
            raise p.MessageError("not_host", f"only the host may {ref.replace('_', ' ')}", ref)
        if not self._running():
            raise p.MessageError("no_match", "no match is being played", ref)
        if isinstance(msg, p.Pause):
            self.pause()
        elif isinstance(msg, p.Resume):
            self.resume()
        elif isinstance(msg, p.TakeSeat):
            self.take_seat(msg.seat)

    def _away_or_back(self, seat: Seat, *, back: bool, ref: str) -> None:
        if back:
            self._turns.move(seat, Move.BACK, ref=ref)
            log.info("seat %d (%s) is back (R-C2)", seat.seat, seat.name)
            return
        if not self._running():
            raise p.MessageError(
                "no_match", "no match is being played: nothing to step away from", ref
            )
        self._turns.move(seat, Move.STEP_AWAY, ref=ref)
        log.info("seat %d (%s) steps away (R-C2)", seat.seat, seat.name)

    def _set_options(self, conn: Connection, msg: p.Options) -> None:
        if conn.seat is None or conn.seat != self._role.seat:
            raise p.MessageError("not_host", "only the host sets the table", "options")
        if self._running():
            raise p.MessageError("match_running", "the table is set between matches", "options")
        if msg.plain == "never" and not conn.sealed:
            raise p.MessageError(
                "tls_required",
                "your own connection is plain: it would be closed too (connect sealed first)",
                "options",
            )
        opts = self.options
        if msg.turn_time is not None:
            opts.turn_time = msg.turn_time or None
        if msg.time_bank is not None:
            opts.time_bank = msg.time_bank
        if msg.stand_in is not None:
            opts.stand_in = msg.stand_in
        if msg.hands is not None:
            opts.hands = msg.hands  # R-T4: the next match's length, in every lobby
        if msg.plain is not None:
            opts.plain = msg.plain
            self._warn_plain()
        if msg.odds is not None:
            opts.odds = msg.odds
        log.info(
            "the host sets the table: %s, %d hands, plain connections: %s, odds: %s",
            opts.to_dict(),
            opts.hands,
            opts.plain,
            "allowed" if opts.odds else "off",
        )
        self._close_plain()
        self._broadcast_lobby()

    def set_plain(self, plain: str) -> None:
        """The terminal's ``plain never|allow``, between matches only."""
        if self._running():
            raise p.MessageError("match_running", "the table is set between matches")
        self.options.plain = plain
        log.info("plain connections: %s", plain)
        self._warn_plain()
        self._close_plain()
        self._broadcast_lobby()

    def plain_words(self) -> str:
        """The table's choice of plain connections, for the terminal: ``""`` when they are
        allowed at a table without a password (nothing to say), else the choice, with its
        cost at a table with one."""
        if self.options.plain == "never":
            return "plain connections never"
        if self._password:
            return f"plain connections allowed: {PLAIN_COST}"
        return ""

    def _warn_plain(self) -> None:
        if self.options.plain == "allow" and self._password:
            log.warning("%s", self.plain_words())

    def _close_plain(self) -> None:
        """With ``plain`` ``never``: close every plain connection (``tls_required``); a
        seat's is freed by the table as it closes, as a leave between matches would be."""
        if self.options.plain != "never":
            return
        for conn in list(self._conns):
            if conn.kind == "plain" and not conn.closed:
                log.info("%r: plain, and the table takes only sealed connections now", conn)
                conn.fail("tls_required", TLS_REQUIRED)

    def set_odds(self, on: bool) -> None:
        """The terminal's ``odds on|off``, between matches only."""
        if self._running():
            raise p.MessageError("match_running", "the table is set between matches")
        self.options.odds = on
        log.info("odds on request: %s", "allowed" if on else "off")
        self._broadcast_lobby()

    def set_stand_in(self, on: bool) -> None:
        """The terminal's ``stand-in on|off``, between matches only."""
        if self._running():
            raise p.MessageError("match_running", "the table is set between matches")
        self.options.stand_in = on
        self._broadcast_lobby()

    # ------------------------------------------------------------ R-C3

    def pause(self) -> None:
        """The host pauses the table (``Dealer.pause``, which refuses a table paused)."""
        self._dealer.pause(True)

    def resume(self) -> None:
        self._dealer.pause(False)

    def take_seat(self, seat_no: int) -> None:
        seat = self._seats.get(seat_no)
        if seat is None or seat.kind is not SeatKind.HUMAN:
            raise p.MessageError("bad_seat", f"seat {seat_no} is not a person's seat", "take_seat")
        if seat_no == self._role.seat:
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
