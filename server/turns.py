"""The turn: whose decision the table asks for, who plays it and how long it may take.

``Turns`` owns the turn id (``turn_id``), the seat asked to act (``to_act``) and its
clock.  Each step moves the turn on (``advance``); once it is shown the table asks the
seat to act (``ask``): a computer seat chooses (``server.computer``); for a person
``server.presence`` says who plays (the person, the default, a stand-in, or nobody until
a dropped seat's grace is over) and the turn clock runs (``server.clock``, R-C4).  It
also moves each seat's presence, telling everyone (``seat_away``).  Invariants:

- ``turn_id`` grows by one for every decision the table asks for, across hands and
  matches; an ``act``, a timer's default and a computer seat's choice count only while
  their turn is the current one (``current``).
- ``to_act`` is None from a step until the table asks for its decision, so nobody acts
  on a step that is not on disk yet (``server.saving``).
- A seat's ``presence`` changes only through ``server.presence.step``; a refused move
  raises ``MessageError`` with the move's error code and changes nothing.
- An away seat's turn is played at once (R-C2) by the default, or by the computer brain
  when the host chose a stand-in (R-C3); its person is never sent a ``turn`` for it.
  ``back`` ends an away spell from the seat's next turn: a turn already handed to the
  default or the stand-in is played by it.
- The bank a person has left is kept on its seat between turns; the clock only counts
  it down.  While the table is paused or waits to save, the clock stands still
  (``freeze``/``thaw``) and its ``clock`` message says it is not running.
- The ``clock`` message and the ``turn`` sent with it say the same time left.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from common import protocol as p
from common.engine import Hand
from common.match import SeatKind
from common.presence import Presence
from server import frames
from server.clock import TurnClock
from server.presence import Actor, Move, Refused, act_refusal, actor, step
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
    """``allow`` or ``never`` (``ServerConfig.plain``); the lobby says it on its own."""
    odds: bool = False
    """Odds on request allowed (``ServerConfig.odds``); the lobby says it on its own."""
    hands: int = 8
    """The next match's length (R-T4); the lobby and the journal say it on their own."""

    def to_dict(self) -> dict[str, Any]:
        return {"turn_time": self.turn_time, "time_bank": self.time_bank, "stand_in": self.stand_in}


class Turns:
    """The table's turn, and who plays it."""

    def __init__(
        self,
        options: TableOptions,
        *,
        grace: float | None,
        clock: Clock,
        rng: random.Random,
        broadcast: Callable[..., None],
        apply: Callable[[int, str], None],
        computer: Callable[[Seat, int], None],
    ) -> None:
        self.options = options
        self.grace = grace
        self.turn_clock = TurnClock(self._time_up, clock)
        self.turn_id = 0
        self.to_act: Seat | None = None
        self._hand: Hand | None = None
        self._timers = clock
        self._rng = rng
        self._broadcast = broadcast
        self._apply = apply
        self._computer = computer

    # ------------------------------------------------------------ the turn

    def advance(self, hand: Hand) -> int:
        """The hand moved on: the actor's clock stops, keeping its bank; a decision to
        come is a new turn (its id returned)."""
        bank = self.turn_clock.stop()
        if bank is not None and self.to_act is not None:
            self.to_act.bank = bank
        self.to_act = None
        self._hand = hand
        if not hand.is_over:
            self.turn_id += 1
        return self.turn_id

    def current(self, turn: int) -> Hand | None:
        """The hand while ``turn`` is still the one being asked for, else None."""
        return self._hand if turn == self.turn_id else None

    def ask(self, seat: Seat) -> None:
        """``seat`` is to act on the current turn."""
        self.to_act = seat
        if seat.kind is SeatKind.COMPUTER:
            self._computer(seat, self.turn_id)
            return
        who = actor(seat.presence, stand_in=self.options.stand_in)
        if who is Actor.PERSON:
            self._start(seat)
        elif who is Actor.GRACE:
            self.turn_clock.arm(self.grace, self.turn_id)  # R-C1
        else:
            self._away_turn(seat)

    def check_act(self, seat: Seat | None, seat_no: int, act: p.Act, *, protocol: int) -> None:
        """``MessageError`` unless seat ``seat_no``'s person may play ``act`` now."""
        refused = act_refusal(seat.presence, protocol=protocol) if seat else None
        if refused is not None:  # taken (R-C3), or away: its turns are played for it (R-C2)
            raise p.MessageError(refused.code, str(refused), "act")
        if seat is None or self.to_act is not seat:
            raise p.MessageError("not_your_turn", f"it is not seat {seat_no}'s turn", "act")
        if act.turn != self.turn_id:
            raise p.MessageError(
                "stale_turn", f"turn {act.turn} is over; this is turn {self.turn_id}", "act"
            )

    def reconnected(self, seat: Seat) -> None:
        """``seat``'s person is back with its token (R-C1)."""
        self._broadcast(p.Presence(seat.seat, True, None).encode())
        self.move(seat, Move.RECONNECT)

    def rejoined(self, seat: Seat) -> None:
        """``seat``'s person has had the table's state: a turn waiting on it starts again."""
        if self.to_act is seat and seat.presence is Presence.PLAYING:
            self._start(seat)

    def again(self) -> None:
        """The clock runs again (resumed, saved): said to everyone, and the turn again."""
        if self.to_act is not None and self.turn_clock.left() is not None:
            self._say(self.to_act)

    def _away_turn(self, seat: Seat) -> None:
        """An away seat's turn: the stand-in plays it, or the default does, at once (R-C2)."""
        turn = self.turn_id
        if actor(seat.presence, stand_in=self.options.stand_in) is Actor.STAND_IN:
            if seat.rng is None:
                seat.rng = random.Random(self._rng.getrandbits(64))
            self._computer(seat, turn)
        else:
            self._timers.call_soon(self._play_default, turn)

    def _play_default(self, turn: int) -> None:
        seat = self.to_act
        if turn != self.turn_id or seat is None or self._hand is None:
            return
        action = self._hand.default_action(seat.seat)
        log.debug("seat %d is away: %s (R-C2)", seat.seat, action.value)
        self._apply(seat.seat, action.value)

    def _time_up(self, turn: int) -> None:
        """The seat to act ran out of grace (R-C1) or clock and bank (R-C4): it is away
        (R-C2) and its turn is played for it."""
        seat = self.to_act
        if turn != self.turn_id or seat is None:
            return
        move = Move.GRACE_OVER if seat.presence is Presence.DROPPED else Move.CLOCK_OUT
        if move is Move.CLOCK_OUT:
            seat.bank = 0.0
        log.info("seat %d's time is up (%s): it is away", seat.seat, move.value)
        self.move(seat, move)

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
        if self.to_act is seat and not before.away and after.away:
            # Its turn was waiting on its person: play it now (R-C2).
            bank = self.turn_clock.stop()
            if bank is not None and move is not Move.CLOCK_OUT:
                seat.bank = bank
            self.turn_clock.cancel()
            self._away_turn(seat)
        return after

    def dropped(self, seat: Seat) -> None:
        """``seat``'s connection went mid-match: its grace runs if its turn waits (R-C1)."""
        self._broadcast(p.Presence(seat.seat, False, self.grace).encode())
        before = seat.presence
        self.move(seat, Move.DROP)
        if self.to_act is seat and before is Presence.PLAYING:
            bank = self.turn_clock.stop()
            if bank is not None:
                seat.bank = bank
            self.turn_clock.arm(self.grace, self.turn_id)

    def match_start(self, seats: Iterable[Seat], banks: Mapping[int, float] | None = None) -> None:
        """Every seat plays from now on, with a full bank (R-C4) or a resumed one's."""
        for seat in seats:
            seat.bank = (banks or {}).get(seat.seat, self.options.time_bank)
            seat.presence = step(seat.presence, Move.MATCH_START)

    def match_end(self, seats: Iterable[Seat]) -> None:
        self.to_act = None
        self.turn_clock.frozen = False
        for seat in seats:  # an away spell, and a seat taken away, last the match only
            seat.presence = step(seat.presence, Move.MATCH_END)

    def resume(self, turn_id: int, hand: Hand | None) -> None:
        self.turn_id = turn_id
        self._hand = hand

    # ------------------------------------------------------------ the clock (R-C4)

    def _start(self, seat: Seat) -> None:
        """A person's turn: its clock starts, and the turn is sent to it."""
        if self.options.turn_time is None:
            self.turn_clock.cancel()
        else:
            self.turn_clock.start(self.turn_id, self.options.turn_time, seat.bank)
        self._say(seat)

    def _say(self, seat: Seat) -> None:
        clock = self.broadcast_clock()
        if seat.conn is None:
            return
        assert self._hand is not None
        if clock is None:
            time_left, bank = self.turn_clock.time_left(), None
        else:
            time_left, bank = clock.time_left, clock.bank
        turn = frames.turn(self._hand, seat.seat, self.turn_id, time_left, bank)
        seat.conn.send_message(turn)

    def clock(self) -> p.Clock | None:
        """The ``clock`` message while a person's clock runs."""
        left = self.turn_clock.left()
        if left is None or self.to_act is None:
            return None
        running = not self.turn_clock.frozen  # paused, or waiting to save
        return p.Clock(
            self.to_act.seat, self.turn_id, round(left[0], 1), round(left[1], 1), running
        )

    def broadcast_clock(self) -> p.Clock | None:
        clock = self.clock()
        if clock is not None:
            self._broadcast(clock.encode(), newer=True)
        return clock
