"""The table's time as the server last said it: the turn clocks, the grace, the pauses.

``Clocks`` keeps the clock of the seat to act (R-C4), our own turn's seconds, each dropped
seat's grace (R-C1), and whether time stands still (a pause, R-C3, or the host's disk).
Its methods take a ``received`` message and return the log's words, if any.  Pure: the
reading methods take ``now``.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.i18n import N_
from client.i18n import gettext as _
from common.protocol.server_messages import Clock, Paused, Presence, Waiting
from common.schema import SeatView

__all__ = ["Clocks", "SeatClock", "WAITING_WORDS"]

WAITING_WORDS = {
    "disk_full": N_("The host's disk is full: the table waits until it can save"),
    "cannot_save": N_("The host cannot save the match: the table waits until it can"),
}
"""Why the table waits (the ``waiting`` message's ``why``), in the game's words (each
translated where it is said)."""


@dataclass(frozen=True, slots=True)
class SeatClock:
    """A person's turn clock as the server last said it (R-C4)."""

    seat: int
    turn: int
    time_left: float
    bank: float
    running: bool
    at: float  # when it was said (the session's clock)


class Clocks:
    def __init__(self) -> None:
        self.turn: SeatClock | None = None  # the seat to act's clock, if it has one
        self.ours: float | None = None  # our own turn's seconds, as its ``turn`` said
        self.ours_at = 0.0
        self.bank: float | None = None  # our own bank, as our last ``turn`` said
        self.dropped: dict[int, tuple[float | None, float]] = {}
        """Dropped seats only: the grace the server announced (None: unknown) and when."""
        self.paused = False
        self.paused_by = ""
        self.waiting: str | None = None
        """Why the table waits for the host's disk (``server.saving``), while it does."""

    # ---- reading them

    def seconds_left(self, now: float) -> float | None:
        """Our own turn's seconds (the caller knows it is our turn)."""
        return None if self.ours is None else max(0.0, self.ours - (now - self.ours_at))

    def clock_left(
        self, seat: int, view: SeatView | None, now: float
    ) -> tuple[float, float] | None:
        """(decision seconds, bank seconds) left to ``seat``, the seat to act, or None: the
        decision's seconds go first, then the bank (R-C4), standing still in a pause (R-C3)."""
        c = self.turn
        if c is None or view is None or view.over or view.to_act != seat:
            return None
        if c.seat != seat or c.turn != (view.turn_id or 0):
            return None
        spent = (now - c.at) if c.running and not self.paused else 0.0
        decision = c.time_left - spent
        bank = c.bank + min(0.0, decision)
        return max(0.0, decision), max(0.0, bank)

    def grace_left(self, seat: int, now: float) -> float | None:
        """Seconds until a dropped seat's person loses the turn; None while connected."""
        grace, at = self.dropped.get(seat, (None, now))
        return None if grace is None else max(0.0, grace - (now - at))

    # ---- what the server says

    def our_turn(self, seat: int, time_left: float | None, bank: float | None,
                 view: SeatView | None, now: float) -> None:  # fmt: skip
        self.ours, self.ours_at, self.bank = time_left, now, bank
        if time_left is not None and view is not None:
            # A protocol 2 server also says it in a ``clock``; this one is our own,
            # keyed like a ``clock`` by the view's turn id.
            turn_id = view.turn_id or 0
            self.turn = SeatClock(seat, turn_id, time_left, bank or 0.0, not self.paused, now)

    def clock(self, m: Clock, now: float) -> None:
        self.turn = SeatClock(m.seat, m.turn, m.time_left, m.bank, m.running, now)

    def presence(self, m: Presence, now: float) -> None:
        if m.connected:
            self.dropped.pop(m.seat, None)
        else:
            self.dropped[m.seat] = (m.grace, now)

    def linked(self, seat: int, connected: bool, now: float) -> None:
        """A ``table``'s word on a seat's link: a seat said cut off without a grace."""
        if connected:
            self.dropped.pop(seat, None)
        elif seat not in self.dropped:
            self.dropped[seat] = (None, now)

    def pause(self, m: Paused, view: SeatView | None, now: float) -> str | None:
        if m.paused == self.paused:
            return None
        c = self.turn
        if c is not None:  # stop (or restart) our idea of the clock where it stands
            left = self.clock_left(c.seat, view, now)
            if left is not None:
                self.turn = SeatClock(c.seat, c.turn, left[0], left[1], not m.paused, now)
        self.paused, self.paused_by = m.paused, m.name
        if not m.name:
            return _("The host paused the table") if m.paused else _("The host resumed the table")
        words = _("{name} paused the table") if m.paused else _("{name} resumed the table")
        return words.format(name=m.name)

    def wait(self, m: Waiting) -> str | None:
        """The table stopped (or goes on) because the host cannot save the match."""
        if not m.waiting:
            was, self.waiting = self.waiting, None
            return _("The host can save again: the table plays on") if was is not None else None
        words = _(WAITING_WORDS.get(m.why, WAITING_WORDS["cannot_save"]))
        said, self.waiting = self.waiting, words
        return words if words != said else None

    def stop(self) -> None:
        """The match is over: no clock runs, nothing is paused."""
        self.turn = None
        self.paused = False
