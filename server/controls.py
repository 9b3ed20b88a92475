"""Away and back (R-C2), the host's controls (R-C3) and the turn clock's bank (R-C4).

``TableControls`` is mixed into ``server.table.Table``; it holds the table's
options, whether it is paused, and every rule about a person's turn: who
plays it (its person, the default at once, or a computer standing in) and
how long it may take.  Invariants:

- A person's seat is *away* (``Seat.away`` names why) when its person said
  so, its clock and bank ran out, it was still dropped when its grace ended,
  or the host took it away.  An away seat's turn is played at once by the
  default (R-C2), or by the computer brain when the host chose a stand-in;
  the person is never sent a ``turn`` for it.
- ``back`` ends an away spell from the seat's next turn: a turn already
  handed to the default or the stand-in is played by it.  A taken seat never
  comes back in the match; every away spell ends with the match.
- While ``paused`` the hand in play is finished, no new hand is dealt and a
  person's clock stands still; ``resume`` starts the clock where it stood
  and deals the next hand if the last one is over.
- The bank a person has left is kept on its seat between turns; the clock
  (``server.clock``) only counts it down.
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from common import protocol as p
from common.match import SeatKind
from server.seats import Seat

if TYPE_CHECKING:
    from common.match import Match
    from server.clock import TurnClock
    from server.computer import ComputerSeats
    from server.config import ServerConfig
    from server.net import Connection

__all__ = ["TableControls", "TableOptions"]

log = logging.getLogger("server.table")


@dataclass(slots=True)
class TableOptions:
    """What the host sets with the table and may change between matches."""

    turn_time: float | None
    """Seconds for each decision (None: no turn clock, R-C4)."""
    time_bank: float
    stand_in: bool

    def to_dict(self) -> dict[str, Any]:
        return {"turn_time": self.turn_time, "time_bank": self.time_bank, "stand_in": self.stand_in}


class TableControls:
    """The R-C2/R-C3/R-C4 half of the table (a mixin: ``self`` is a ``Table``)."""

    options: TableOptions
    paused: bool
    hands: int
    _deal_pending: bool
    # What it uses of ``server.table.Table``:
    config: ServerConfig
    seats: dict[int, Seat]
    host: int | None
    running: bool
    match: Match | None
    turn_seat: int | None
    turn_id: int
    clock: TurnClock
    computers: ComputerSeats
    rng: random.Random
    proto1: set[Connection]
    _deal_timer: asyncio.TimerHandle | None

    if TYPE_CHECKING:

        def _broadcast(
            self, msg: dict[str, Any], *, but: Connection | None = None, newer: bool = False
        ) -> None: ...
        def _broadcast_lobby(self) -> None: ...
        def _send_turn(self, seat: Seat) -> None: ...
        def _next_hand(self) -> None: ...
        def apply(self, seat: int, action: str) -> None: ...

    def _init_controls(self) -> None:
        cfg = self.config
        self.options = TableOptions(cfg.turn_time, cfg.time_bank, cfg.stand_in)
        self.paused = False
        self._deal_pending = False  # paused with the last hand over: deal on resume

    # ------------------------------------------------------------ messages

    def _control(self, conn: Connection, msg: p.ClientMessage) -> None:
        """One of ``p.CONTROL_MESSAGES``; a refusal raises ``MessageError`` and changes nothing."""
        if isinstance(msg, p.Options):
            self._set_options(conn, msg)
            return
        ref = msg.TYPE
        if conn.seat is None or conn.seat not in self.seats:
            raise p.MessageError("not_seated", "a spectator has no seat to do that with", ref)
        if isinstance(msg, p.Away | p.Back):
            self._away_or_back(self.seats[conn.seat], back=isinstance(msg, p.Back), ref=ref)
            return
        if conn.seat != self.host:
            raise p.MessageError("not_host", f"only the host may {ref.replace('_', ' ')}", ref)
        if not self.running:
            raise p.MessageError("no_match", "no match is being played", ref)
        if isinstance(msg, p.Pause):
            self._pause()
        elif isinstance(msg, p.Resume):
            self._resume()
        elif isinstance(msg, p.TakeSeat):
            self._take_seat(msg.seat)

    def _away_or_back(self, seat: Seat, *, back: bool, ref: str) -> None:
        if seat.away == "taken":
            raise p.MessageError("seat_taken", "the host took this seat away for the match", ref)
        if back:
            if seat.away is None:
                raise p.MessageError("not_away", "this seat is not away", ref)
            log.info("seat %d (%s) is back (R-C2)", seat.seat, seat.name)
            self._mark_away(seat, None)
            return
        if not self.running:
            raise p.MessageError(
                "no_match", "no match is being played: nothing to step away from", ref
            )
        if seat.away is not None:
            raise p.MessageError("already_away", "this seat is already away", ref)
        log.info("seat %d (%s) steps away (R-C2)", seat.seat, seat.name)
        self._go_away(seat, "asked")

    def _set_options(self, conn: Connection, msg: p.Options) -> None:
        if conn.seat is None or conn.seat != self.host:
            raise p.MessageError("not_host", "only the host sets the table", "options")
        if self.running:
            raise p.MessageError("match_running", "the table is set between matches", "options")
        opts = self.options
        if msg.turn_time is not None:
            opts.turn_time = msg.turn_time or None
        if msg.time_bank is not None:
            opts.time_bank = msg.time_bank
        if msg.stand_in is not None:
            opts.stand_in = msg.stand_in
        if msg.hands is not None:
            self.hands = msg.hands  # R-T4: the next match's length, in every lobby
        log.info("the host sets the table: %s, %d hands", opts.to_dict(), self.hands)
        self._broadcast_lobby()

    def _pause(self) -> None:
        if self.paused:
            raise p.MessageError("already_paused", "the table is already paused", "pause")
        self.paused = True
        self.clock.freeze()
        if self._deal_timer is not None:  # between hands: hold the next deal
            self._deal_timer.cancel()
            self._deal_timer = None
            self._deal_pending = True
        log.info("the host pauses the table (R-C3)")
        self._broadcast(p.Paused(True, self._host_name()).encode(), newer=True)
        self._broadcast_clock()

    def _resume(self) -> None:
        if not self.paused:
            raise p.MessageError("not_paused", "the table is not paused", "resume")
        self.paused = False
        self.clock.thaw()
        log.info("the host resumes the table")
        self._broadcast(p.Paused(False, self._host_name()).encode(), newer=True)
        seat = self.seats.get(self.turn_seat) if self.turn_seat is not None else None
        if seat is not None and seat.conn is not None and self.clock.left() is not None:
            self._broadcast_clock()
            self._send_turn(seat)  # the same turn, with the clock running again
        if self._deal_pending:
            self._deal_pending = False
            loop = asyncio.get_running_loop()
            self._deal_timer = loop.call_later(min(1.0, self.config.hand_pause), self._next_hand)

    def _take_seat(self, seat_no: int) -> None:
        seat = self.seats.get(seat_no)
        if seat is None or seat.kind is not SeatKind.HUMAN:
            raise p.MessageError("bad_seat", f"seat {seat_no} is not a person's seat", "take_seat")
        if seat_no == self.host:
            raise p.MessageError("bad_seat", "the host cannot take its own seat away", "take_seat")
        if seat.away == "taken":
            raise p.MessageError("seat_taken", f"seat {seat_no} is already taken away", "take_seat")
        log.info("the host takes seat %d (%s) away for the match (R-C3)", seat_no, seat.name)
        self._go_away(seat, "taken")

    def _host_name(self) -> str:
        host = self.seats.get(self.host) if self.host is not None else None
        return host.name if host is not None else ""

    # ------------------------------------------------------------ away and back

    def _mark_away(self, seat: Seat, why: str | None) -> None:
        seat.away = why
        stand_in = why is not None and self.options.stand_in
        self._broadcast(p.SeatAway(seat.seat, why is not None, why, stand_in).encode(), newer=True)

    def _go_away(self, seat: Seat, why: str) -> None:
        """Make ``seat`` away; if its turn is waiting on its person, play it now (R-C2)."""
        waiting = self.turn_seat == seat.seat and seat.away is None
        self._mark_away(seat, why)
        if waiting:
            bank = self.clock.stop()
            if bank is not None and why != "clock":
                seat.bank = bank
            self.clock.cancel()
            self._away_turn(seat)

    def _time_up(self, turn: int) -> None:
        """The seat to act ran out of time: its grace (R-C1) or its clock and bank (R-C4).
        Either way it is away now (R-C2) and its turn is played for it."""
        if turn != self.turn_id or self.turn_seat is None or self.match is None:
            return
        seat = self.seats[self.turn_seat]
        why = "dropped" if seat.conn is None else "clock"
        if why == "clock":
            seat.bank = 0.0
        log.info("seat %d's time is up (%s): it is away", seat.seat, why)
        self._go_away(seat, why)

    def _leave_match(self, seat_no: int) -> None:
        """A person says ``leave`` during a match: no grace is waited for someone who said
        goodbye, so the seat is away now (R-C2) and stays in the match (R-C1)."""
        seat = self.seats.get(seat_no)
        if seat is not None and seat.away is None and seat.conn is not None:
            log.info("seat %d (%s) leaves the match: it is away", seat.seat, seat.name)
            self._go_away(seat, "asked")

    def _proto1_alive(self, conn: Connection) -> None:
        """A protocol 1 connection said something.  It has no ``back`` and is never told
        its seat is away, so any message from it (a ``ping`` will do) is its person's
        "I'm back" after its clock ran out (R-C2); a seat taken or stepped away stays."""
        seat = self.seats.get(conn.seat) if conn.seat is not None else None
        if seat is not None and seat.away in ("clock", "dropped") and seat.conn is conn:
            log.info("seat %d (%s, protocol 1) is back", seat.seat, seat.name)
            self._mark_away(seat, None)

    def _back_from_drop(self, seat: Seat) -> None:
        """A dropped seat's person reconnected: the away spell its drop began ends (R-C2)."""
        if seat.away == "dropped":
            self._mark_away(seat, None)

    # ------------------------------------------------------------ whose turn

    def _person_turn(self, seat: Seat) -> None:
        """``seat``, a person's, is to act on ``turn_id``: wait for it, or play it now."""
        if seat.away is not None:
            self._away_turn(seat)
        elif seat.conn is None:
            self.clock.arm(self.config.grace, self.turn_id)  # R-C1
        else:
            self._start_clock(seat)
            self._send_turn(seat)

    def _away_turn(self, seat: Seat) -> None:
        """An away seat's turn: the stand-in plays it, or the default does, at once (R-C2)."""
        if self.options.stand_in:
            if seat.rng is None:
                seat.rng = random.Random(self.rng.getrandbits(64))
            self.computers.play(seat, self.turn_id)
        else:
            asyncio.get_running_loop().call_soon(self._play_default, self.turn_id)

    def _play_default(self, turn: int) -> None:
        if turn != self.turn_id or self.turn_seat is None or self.match is None:
            return
        hand = self.match.hand
        assert hand is not None
        action = hand.default_action(self.turn_seat)
        log.debug("seat %d is away: %s (R-C2)", self.turn_seat, action.value)
        self.apply(self.turn_seat, action.value)

    def _start_clock(self, seat: Seat) -> None:
        """A person's clock for this turn: the decision seconds, then its bank (R-C4)."""
        if self.options.turn_time is None:
            self.clock.cancel()
            return
        self.clock.start(self.turn_id, self.options.turn_time, seat.bank)
        self._broadcast_clock()

    def _stop_clock(self, seat_no: int) -> None:
        """``seat_no`` acted: keep what is left of its bank."""
        bank = self.clock.stop()
        seat = self.seats.get(seat_no)
        if bank is not None and seat is not None:
            seat.bank = bank

    def _clock_message(self) -> dict[str, Any] | None:
        left = self.clock.left()
        if left is None or self.turn_seat is None:
            return None
        return p.Clock(
            self.turn_seat, self.turn_id, round(left[0], 1), round(left[1], 1), not self.paused
        ).encode()

    def _broadcast_clock(self) -> None:
        msg = self._clock_message()
        if msg is not None:
            self._broadcast(msg, newer=True)

    def _turn_clock(self) -> tuple[float | None, float | None]:
        """(time_left, bank) for a ``turn`` message; (None, None) with the clock off."""
        left = self.clock.left()
        if left is None:
            return self.clock.time_left(), None
        return round(left[0], 1), round(left[1], 1)

    # ------------------------------------------------------------ matches

    def _controls_match_start(self) -> None:
        self.paused = False
        self._deal_pending = False
        for seat in self.seats.values():
            seat.bank = self.options.time_bank
            seat.away = None

    def _controls_match_end(self) -> None:
        self.paused = False
        self._deal_pending = False
        self.clock.frozen = False
        for seat in self.seats.values():
            seat.away = None  # an away spell, and a seat taken away, last the match only

    def _schedule_deal(self) -> None:
        """The next hand after the pause between hands, unless the host paused (R-C3)."""
        if self.paused:
            self._deal_pending = True
            return
        loop = asyncio.get_running_loop()
        self._deal_timer = loop.call_later(self.config.hand_pause, self._next_hand)

    def console(self, line: str) -> str:
        """One command from the host's terminal (a headless server's stdin): ``pause``,
        ``resume``, ``take N`` (seat number), ``stand-in on|off``, ``status`` or ``help``.
        Returns what to print; a refused command changes nothing."""
        words = line.split()
        if not words:
            return ""
        cmd, args = words[0].lower(), words[1:]
        try:
            if cmd in ("pause", "resume", "take"):
                if not self.running:
                    raise p.MessageError("no_match", "no match is being played")
                if cmd == "pause":
                    self._pause()
                elif cmd == "resume":
                    self._resume()
                else:
                    if len(args) != 1 or not args[0].isdigit():
                        return "usage: take SEAT (a seat number, 0 to 6)"
                    self._take_seat(int(args[0]))
                return "ok"
            if cmd == "stand-in" and args and args[0] in ("on", "off"):
                if self.running:
                    raise p.MessageError("match_running", "the table is set between matches")
                self.options.stand_in = args[0] == "on"
                self._broadcast_lobby()
                return "ok"
        except p.MessageError as exc:
            return f"refused: {exc}"
        if cmd == "status":
            state = "paused" if self.paused else "playing" if self.running else "in the lobby"
            seats = ", ".join(
                f"{s.seat} {s.name}" + (f" (away: {s.away})" if s.away else "")
                for s in sorted(self.seats.values(), key=lambda s: s.seat)
            )
            return f"{state}; options {self.options.to_dict()}; seats: {seats or 'none'}"
        return "commands: pause, resume, take SEAT, stand-in on|off, status"

    def _send_controls(self, conn: Connection) -> None:
        """What a (re)joining connection needs besides the match: the pause and the clock."""
        if conn in self.proto1:
            return
        if self.paused:
            conn.send_message(p.Paused(True, self._host_name()).encode())
        msg = self._clock_message()
        if msg is not None:
            conn.send_message(msg)
