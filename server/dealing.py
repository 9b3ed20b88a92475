"""The pause after a hand: the next deal, or the standings after the last one, held while
the table is paused (R-C3).

Invariants:

- At most one deal is waited for; ``after`` replaces nothing (the table asks for the
  next one only once a hand is over) and ``cancel`` forgets it.
- While the table is paused no deal comes: a deal asked for, or one already waited for
  when the host pauses, is *held* until ``resume``, which deals it after a short pause.
- The timer is the table's clock's (``server.timers``).
"""

from __future__ import annotations

from collections.abc import Callable

from server.timers import Clock, Handle

__all__ = ["DealTimer"]

RESUME_PAUSE = 1.0
"""At most this long between the host's resume and a held deal (less if the pause
between hands is shorter)."""


class DealTimer:
    """Calls the table back for the next hand (or the match's end) after a pause."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._timer: Handle | None = None
        self.held = False
        """A deal is due but the table is paused: ``resume`` deals it."""

    def after(self, seconds: float, then: Callable[[], None], *, paused: bool) -> None:
        """Call ``then`` in ``seconds``; paused, hold it until ``resume`` instead."""
        if paused:
            self.held = True
            return
        self._timer = self._clock.call_later(seconds, self._fire, then)

    def hold(self) -> None:
        """The host paused: a deal being waited for waits for ``resume`` instead (R-C3)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
            self.held = True

    def resume(self, hand_pause: float, then: Callable[[], None]) -> None:
        """The host resumed: deal a held deal (``then``) after a short pause."""
        if self.held:
            self.held = False
            self._timer = self._clock.call_later(min(RESUME_PAUSE, hand_pause), self._fire, then)

    def reset(self) -> None:
        """A match starts or ends: nothing is held."""
        self.held = False

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _fire(self, then: Callable[[], None]) -> None:
        self._timer = None
        then()
