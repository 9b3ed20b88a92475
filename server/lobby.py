"""The computer seats of the lobby: their brains, and the host's changes to them between
matches (a seat's level, a seat freed for a person).

Invariants:

- A chooser given to the table plays every computer seat (tests); otherwise each
  computer seat has a brain of its own level (``server.brain``), which remembers its
  rivals for the night: the scoreboard's night (``server.records``, ``tonight``), across
  matches and rematches.  ``match_starts`` makes every brain forget only when the night
  is not the one they remember, and tells each brain who sits where (seat -> name, the
  names the table keeps unique), so a person who changes seats is still known.  At each
  hand's end a brain observes only what its own seat may see of it (``common.views``).
- A brain made anew (the host changes a seat's level, or the server restarts) starts
  with an empty memory.  A server restarted the same evening carries the night's
  scoreboard on (``server.night``) but not the brains' memory: they start fresh then,
  and keep what they learn from there to the night's end.  No memory is written to
  disk, and none of it is in any message to a client.
- Only the host changes a computer seat, and only between matches (the table checks
  it, ``server.table.HOSTS``); a refused change raises ``MessageError`` and changes
  nothing.
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
        self._night: str | None = None
        """The night the brains remember (None until the first seats are seated)."""

    def seat(self, chairs: Iterable[Seat], *, night: str) -> None:
        """Seat computer seats (the table's first ones, or a resumed match's), each with
        a fresh brain, which remembers from now on for tonight (``night``)."""
        for chair in chairs:
            self._give_brain(chair)
            self._seats[chair.seat] = chair
        if self._night is None:
            self._night = night
        self._meet()

    def match_starts(self, night: str) -> None:
        """A match starts on ``night``: at a new night every brain forgets; each is told
        who sits where."""
        if night != self._night:
            self._night = night
            for seat in self._seats.values():
                reset = getattr(seat.brain, "reset", None)
                if reset is not None:
                    reset()  # a new night: the opponent models start empty
        self._meet()

    def hand_over(self, hand: Hand) -> None:
        """The hand is over: each brain that observes sees its seat's view of the end."""
        for seat in self._seats.values():
            observe = getattr(seat.brain, "observe", None)
            if observe is not None:  # what this seat sees of the hand's end, nothing more
                observe(seat_view(hand, seat.seat))

    def set_level(self, msg: p.SetLevel) -> None:
        """The host picks a computer seat's level in the lobby."""
        seat = self.computer(msg.seat, ref=msg.TYPE, bad="bad_message")
        try:
            level = level_id(msg.level)
        except ValueError as exc:
            raise p.MessageError("bad_message", str(exc), "level") from None
        seat.level = level
        self._give_brain(seat)
        log.info("seat %d (%s) plays at level %s", seat.seat, seat.name, level)

    def computer(self, number: int, *, ref: str, bad: str = "bad_seat") -> Seat:
        """The computer seat ``number`` (the host frees it, or sets its level), else a
        ``MessageError`` (``bad``)."""
        seat = self._seats.get(number)
        if seat is None or seat.kind is not SeatKind.COMPUTER:
            raise p.MessageError(bad, f"seat {number} is not a computer seat", ref)
        return seat

    def _give_brain(self, seat: Seat) -> None:
        if self._own_brains and seat.level is not None:
            seat.brain = brain(seat.level)
            seat.brain.meet(self._names())

    def _names(self) -> dict[int, str]:
        return {s: seat.name for s, seat in self._seats.items()}

    def _meet(self) -> None:
        """Tell every brain the name in each seat, so its memory follows names."""
        names = self._names()
        for seat in self._seats.values():
            meet = getattr(seat.brain, "meet", None)
            if meet is not None:
                meet(names)
