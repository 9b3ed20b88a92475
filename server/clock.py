"""The turn clock: one timer for the seat to act, its turn clock or its grace (R-C1).

Invariants:

- At most one timer is armed, and it belongs to the turn it was armed for;
  arming again, cancelling or firing clears the last one first.
- ``deadline`` is the armed timer's ``time.monotonic()`` deadline, and None
  whenever no timer is armed.
- The clock only keeps time: when a timer fires it calls ``on_time_up`` with
  the turn it was armed for, and the table decides whether that turn is still
  the current one and plays the default action for it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

__all__ = ["TurnClock"]


class TurnClock:
    """Calls ``on_time_up(turn)`` when the armed turn's time runs out."""

    def __init__(self, on_time_up: Callable[[int], None]) -> None:
        self.deadline: float | None = None
        self._on_time_up = on_time_up
        self._timer: asyncio.TimerHandle | None = None

    def arm(self, seconds: float | None, turn: int) -> None:
        """Give ``turn`` ``seconds`` from now (None: no limit), replacing any timer."""
        self.cancel()
        if seconds is None:
            return
        self.deadline = time.monotonic() + seconds
        self._timer = asyncio.get_running_loop().call_later(seconds, self._fire, turn)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.deadline = None

    def time_left(self) -> float | None:
        """Seconds left to the deadline, to a tenth, as ``turn`` says it (None: no limit)."""
        if self.deadline is None:
            return None
        return round(max(0.0, self.deadline - time.monotonic()), 1)

    def _fire(self, turn: int) -> None:
        self._timer = None
        self.deadline = None
        self._on_time_up(turn)
