"""The computer seats of the lobby: their brains, and the host's changes to them between
matches (a seat's level, a seat freed for a person).

Invariants:

- A chooser given to the table plays every computer seat (tests); otherwise each has
  a brain of its own level (``server.brain``) that remembers its rivals for the
  scoreboard's night, across matches.  ``match_starts`` makes every brain forget only
  at a new night, and tells each who sits where (seat -> name), so a person who changes
  seats is still known.  At a hand's end a brain observes only its own seat's view.
- A brain made anew (a new level, a restart) starts with an empty memory; no memory is
  written to disk or sent to a client.
- A refused change raises ``MessageError`` and changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from common import protocol as p
from common.engine import Hand
from common.match import SeatKind
from common.views import seat_view
from server.brain import brain, level_id
from server.seats import Seat

__all__ = ["ComputerChairs"]

log = logging.getLogger("server.table")


class ComputerChairs:
    """The host's say over the computer seats, and their brains."""

    def __init__(self, seats: dict[int, Seat], *, own_brains: bool) -> None:
        self._seats = seats
        self._own_brains = own_brains
        self._night: str | None = None  # the night the brains remember

    def seat(self, chairs: Iterable[Seat], *, night: str) -> None:
        """Seat computer seats, each with a fresh brain that remembers for ``night``."""
        for chair in chairs:
            self._give_brain(chair)
            self._seats[chair.seat] = chair
        if self._night is None:
            self._night = night
        self._meet()

    def match_starts(self, night: str) -> None:
        if night != self._night:
            self._night = night
            for seat in self._seats.values():
                reset = getattr(seat.brain, "reset", None)
                if reset is not None:
                    reset()  # a new night: the opponent models start empty
        self._meet()

    def hand_over(self, hand: Hand) -> None:
        for seat in self._seats.values():
            observe = getattr(seat.brain, "observe", None)
            if observe is not None:  # what this seat sees of the hand's end, nothing more
                observe(seat_view(hand, seat.seat))

    def set_level(self, msg: p.SetLevel) -> None:
        seat = self.computer(msg.seat, ref=msg.TYPE, bad="bad_message")
        try:
            level = level_id(msg.level)
        except ValueError as exc:
            raise p.MessageError("bad_message", str(exc), "level") from None
        seat.level = level
        self._give_brain(seat)
        self._meet()
        log.info("seat %d (%s) plays at level %s", seat.seat, seat.name, level)

    def computer(self, number: int, *, ref: str, bad: str = "bad_seat") -> Seat:
        """The computer seat ``number``, else a ``MessageError`` (``bad``)."""
        seat = self._seats.get(number)
        if seat is None or seat.kind is not SeatKind.COMPUTER:
            raise p.MessageError(bad, f"seat {number} is not a computer seat", ref)
        return seat

    def _give_brain(self, seat: Seat) -> None:
        if self._own_brains and seat.level is not None:
            seat.brain = brain(seat.level)

    def _meet(self) -> None:
        names = {s: seat.name for s, seat in self._seats.items()}
        for seat in self._seats.values():
            meet = getattr(seat.brain, "meet", None)
            if meet is not None:
                meet(names)
