"""A person's turn: who plays it, how long it may take, and the seat's presence (R-C1..R-C4).

``Turns`` asks ``server.presence`` who plays a person's turn (the person, the default at
once, a computer standing in, or nobody until a dropped seat's grace is over), runs the
turn clock and bank (``server.clock``) and moves each seat's presence when something
happens to it, telling everyone (``seat_away``).  Invariants:

- A seat's ``presence`` changes here only, through ``server.presence.step``; a refused
  move raises ``MessageError`` with the move's error code and changes nothing.
- An away seat's turn is played at once (R-C2) by the default, or by the computer brain
  when the host chose a stand-in (R-C3); its person is never sent a ``turn`` for it.
  ``back`` ends an away spell from the seat's next turn: a turn already handed to the
  default or the stand-in is played by it.
- The bank a person has left is kept on its seat between turns; the clock only counts
  it down.  While the table is paused the clock stands still (``freeze``/``thaw``).
- Every timer here is the table's clock's (``server.timers``).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from common import protocol as p
from common.match import Match
from common.presence import Presence
from server import frames
from server.clock import TurnClock
from server.net import Connection
from server.presence import Actor, Move, Refused, actor, step
from server.seats import Seat
from server.timers import Clock

__all__ = ["TableOptions", "Turns"]

log = logging.getLogger("server.table")


@dataclass(slots=True)
class TableOptions:
    """What the host sets with the table and may change between matches."""

    turn_time: float | None
    """Seconds for each decision (None: no turn clock, R-C4)."""
    time_bank: float
    stand_in: bool
    plain: str = "allow"
    """``allow`` or ``never``: plain (unencrypted) connections may join, or not
    (``ServerConfig.plain``).  Not in ``to_dict``: the lobby says it on its own, and
    only when ``never``, so that its usual bytes and the journal stay as they were."""
    odds: bool = False
    """Odds on request are allowed (``ServerConfig.odds``).  Not in ``to_dict`` either:
    the lobby says ``"odds": true`` on its own, only when allowed."""

    def to_dict(self) -> dict[str, Any]:
        return {"turn_time": self.turn_time, "time_bank": self.time_bank, "stand_in": self.stand_in}


class TurnTable(Protocol):
    """What ``Turns`` reads of the table: the match, whose turn it is, and the seats."""

    seats: dict[int, Seat]
    match: Match | None
    turn_id: int
    turn_seat: int | None
    paused: bool


class Turns:
    """Whose turn it is and who plays it, for one table."""

    def __init__(
        self,
        table: TurnTable,
        options: TableOptions,
        *,
        grace: float | None,
        clock: Clock,
        rng: random.Random,
        broadcast: Callable[..., None],
        apply: Callable[[int, str], None],
        stand_in: Callable[[Seat, int], None],
    ) -> None:
        self._table = table
        self.options = options
        self.grace = grace
        self.turn_clock = TurnClock(self._time_up, clock)
        self._timers = clock
        self._rng = rng
        self._broadcast = broadcast
        self._apply = apply
        self._stand_in = stand_in
        self._said: tuple[int, float, float] | None = None
        """(turn, time left, bank) of the clock message just broadcast, while the turn
        sent with it is made (``person_turn``)."""

    # ------------------------------------------------------------ presence

    def move(self, seat: Seat, move: Move, *, ref: str | None = None) -> Presence:
        """Move ``seat``'s presence; a refusal raises ``MessageError`` naming ``ref``."""
        before = seat.presence
        try:
            after = step(before, move)
        except Refused as exc:
            raise p.MessageError(exc.code, str(exc), ref) from None
        seat.presence = after
        if after is not before and (after.away or before.away):  # away began, ended or changed why
            why = after.away_why
            stand_in = after.away and self.options.stand_in
            self._broadcast(p.SeatAway(seat.seat, after.away, why, stand_in).encode(), newer=True)
        waiting = self._table.turn_seat == seat.seat and not before.away
        if waiting and after.away:  # its turn was waiting on its person: play it now (R-C2)
            bank = self.turn_clock.stop()
            if bank is not None and move is not Move.CLOCK_OUT:
                seat.bank = bank
            self.turn_clock.cancel()
            self._away_turn(seat)
        return after

    def dropped(self, seat: Seat) -> None:
        """``seat``'s connection went mid-match: its grace runs if its turn waits on it (R-C1)."""
        before = seat.presence
        self.move(seat, Move.DROP)
        if self._table.turn_seat == seat.seat and before is Presence.PLAYING:
            self.stop_clock(seat.seat)
            self.turn_clock.arm(self.grace, self._table.turn_id)

    def alive_v1(self, conn: Connection) -> None:
        """A protocol 1 connection said something.  It has no ``back`` and is never told
        its seat is away, so any message from it (a ``ping`` will do) is its person's
        "I'm back" after its clock ran out or its drop (R-C2); a seat taken or stepped
        away stays."""
        seat = self._table.seats.get(conn.seat) if conn.seat is not None else None
        if seat is not None and seat.conn is conn:
            self.move(seat, Move.ALIVE_V1)

    def left(self, seat_no: int) -> None:
        """A person says ``leave`` during a match: no grace is waited for someone who said
        goodbye, so the seat is away now (R-C2) and stays in the match (R-C1)."""
        seat = self._table.seats.get(seat_no)
        if seat is not None:
            self.move(seat, Move.LEAVE)

    def match_start(self, seats: list[Seat]) -> None:
        for seat in seats:
            seat.bank = self.options.time_bank
            seat.presence = step(seat.presence, Move.MATCH_START)

    def match_end(self, seats: list[Seat]) -> None:
        self.turn_clock.frozen = False
        for seat in seats:  # an away spell, and a seat taken away, last the match only
            seat.presence = step(seat.presence, Move.MATCH_END)

    def _time_up(self, turn: int) -> None:
        """The seat to act ran out of time: its grace (R-C1) or its clock and bank (R-C4).
        Either way it is away now (R-C2) and its turn is played for it."""
        table = self._table
        if turn != table.turn_id or table.turn_seat is None or table.match is None:
            return
        seat = table.seats[table.turn_seat]
        move = Move.GRACE_OVER if seat.presence is Presence.DROPPED else Move.CLOCK_OUT
        if move is Move.CLOCK_OUT:
            seat.bank = 0.0
        log.info("seat %d's time is up (%s): it is away", seat.seat, move.value)
        self.move(seat, move)

    # ------------------------------------------------------------ whose turn

    def person_turn(self, seat: Seat, send_turn: Callable[[Seat], None]) -> None:
        """``seat``, a person's, is to act on the table's current turn: wait for it, or
        have it played now."""
        who = actor(seat.presence, stand_in=self.options.stand_in)
        if who is Actor.PERSON:
            self.start_clock(seat)
            try:  # the turn says what the clock just said (``_left``)
                send_turn(seat)
            finally:
                self._said = None
        elif who is Actor.GRACE:
            self.turn_clock.arm(self.grace, self._table.turn_id)  # R-C1
        else:
            self._away_turn(seat)

    def _away_turn(self, seat: Seat) -> None:
        """An away seat's turn: the stand-in plays it, or the default does, at once (R-C2)."""
        turn = self._table.turn_id
        if actor(seat.presence, stand_in=self.options.stand_in) is Actor.STAND_IN:
            if seat.rng is None:
                seat.rng = random.Random(self._rng.getrandbits(64))
            self._stand_in(seat, turn)
        else:
            self._timers.call_soon(self._play_default, turn)

    def _play_default(self, turn: int) -> None:
        table = self._table
        if turn != table.turn_id or table.turn_seat is None or table.match is None:
            return
        hand = table.match.hand
        assert hand is not None
        action = hand.default_action(table.turn_seat)
        log.debug("seat %d is away: %s (R-C2)", table.turn_seat, action.value)
        self._apply(table.turn_seat, action.value)

    # ------------------------------------------------------------ the clock (R-C4)

    def start_clock(self, seat: Seat) -> None:
        """A person's clock for this turn: the decision seconds, then its bank (R-C4)."""
        if self.options.turn_time is None:
            self.turn_clock.cancel()
            return
        self.turn_clock.start(self._table.turn_id, self.options.turn_time, seat.bank)
        self.broadcast_clock()

    def stop_clock(self, seat_no: int) -> None:
        """``seat_no`` acted: keep what is left of its bank."""
        bank = self.turn_clock.stop()
        seat = self._table.seats.get(seat_no)
        if bank is not None and seat is not None:
            seat.bank = bank

    def _clock_fields(self) -> tuple[int, int, float, float, bool] | None:
        """A ``clock`` message's fields in their order (seat, turn, time left, bank,
        running), or None when no person's clock runs."""
        left = self.turn_clock.left()
        table = self._table
        if left is None or table.turn_seat is None:
            return None
        return (
            table.turn_seat,
            table.turn_id,
            round(left[0], 1),
            round(left[1], 1),
            not (table.paused or self.turn_clock.frozen),  # paused, or waiting to save
        )

    def clock_message(self) -> dict[str, Any] | None:
        fields = self._clock_fields()
        return None if fields is None else p.Clock(*fields).encode()

    def broadcast_clock(self) -> None:
        """``clock_message`` to everyone."""
        fields = self._clock_fields()
        if fields is None:
            return
        _, turn, time_left, bank, _ = fields
        self._said = (turn, time_left, bank)
        self._broadcast(p.Clock(*fields).encode(), newer=True)

    def turn_message(self, seat: Seat) -> dict[str, Any]:
        """The ``turn`` message a person is sent: its legal actions and what its clock
        has left."""
        table = self._table
        assert table.match is not None and table.match.hand is not None
        time_left, bank = self._left()
        return frames.turn(table.match.hand, seat.seat, table.turn_id, time_left, bank)

    def _left(self) -> tuple[float | None, float | None]:
        """A ``turn``'s ``time_left`` and ``bank``: what the clock message sent in the
        same breath said (``person_turn``), else what the clock has left now."""
        said = self._said
        if said is not None and said[0] == self._table.turn_id:
            return said[1], said[2]
        left = self.turn_clock.left()
        if left is None:
            return self.turn_clock.time_left(), None
        return round(left[0], 1), round(left[1], 1)
