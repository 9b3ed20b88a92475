"""The pause after a hand: the next deal, or the standings after the last one, held while
the table is paused (R-C3).

Invariants:

- At most one deal is waited for; ``cancel`` forgets it.
- While the table is paused a deal is *held* until ``resume``, which deals it after a
  short pause.
"""

from __future__ import annotations

from collections.abc import Callable

from server.timers import Clock, Handle

__all__ = ["DealTimer"]

RESUME_PAUSE = 1.0  # at most this long between the host's resume and a held deal


class DealTimer:
    """Calls the table back for the next hand (or the match's end) after a pause."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._timer: Handle | None = None
        self.held = False  # a deal is due but the table is paused

    def after(self, seconds: float, then: Callable[[], None], *, paused: bool) -> None:
        if paused:
            self.held = True
            return
        self._timer = self._clock.call_later(seconds, self._fire, then)

    def hold(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
            self.held = True

    def resume(self, hand_pause: float, then: Callable[[], None]) -> None:
        if self.held:
            self.held = False
            self._timer = self._clock.call_later(min(RESUME_PAUSE, hand_pause), self._fire, then)

    def reset(self) -> None:
        self.held = False

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _fire(self, then: Callable[[], None]) -> None:
        self._timer = None
        then()
