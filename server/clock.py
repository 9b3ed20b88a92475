"""The turn clock: one timer for the seat to act, a person's clock and bank (R-C4) or
a dropped seat's grace (R-C1).

Invariants:

- At most one timer is armed, for the turn it was armed for; arming, starting,
  cancelling, stopping or firing clears the last one first.
- A person's clock (``start``) runs the decision seconds, then the seat's bank, and
  fires once both are gone; ``stop`` says how much of the bank is left.
- ``freeze``/``thaw`` stop and restart a person's clock where it stood (R-C3); one
  started while frozen waits for the thaw.  A grace timer (``arm``) is never frozen.
- ``deadline`` is the armed timer's, on the given clock (``server.timers``), or None.
- It only keeps time: a timer calls ``on_time_up(turn)``, and the table decides.
"""

from __future__ import annotations

from collections.abc import Callable

from server.timers import Clock, Handle, LoopClock

__all__ = ["TurnClock"]


class TurnClock:
    """Calls ``on_time_up(turn)`` when the armed turn's time runs out."""

    def __init__(self, on_time_up: Callable[[int], None], clock: Clock | None = None) -> None:
        self.deadline: float | None = None
        self.frozen = False
        self._on_time_up = on_time_up
        self._clock: Clock = clock if clock is not None else LoopClock()
        self._timer: Handle | None = None
        # A person's clock: the turn it is for, and what was left when it last (re)started.
        self._turn: int | None = None
        self._decision = 0.0
        self._bank = 0.0
        self._since: float | None = None  # the clock's time it last started running

    # ---- a plain timer (the grace of a dropped seat, R-C1)

    def arm(self, seconds: float | None, turn: int) -> None:
        """Give ``turn`` ``seconds`` from now (None: no limit)."""
        self.cancel()
        if seconds is None:
            return
        self._run(seconds, turn)

    # ---- a person's clock (R-C4)

    def start(self, turn: int, decision: float, bank: float) -> None:
        """A person's clock for ``turn``: ``decision`` seconds, then ``bank`` seconds."""
        self.cancel()
        self._turn, self._decision, self._bank = turn, decision, max(0.0, bank)
        if not self.frozen:
            self._since = self._clock.now()
            self._run(decision + self._bank, turn, self._since)

    def left(self) -> tuple[float, float] | None:
        """(decision seconds, bank seconds) left on a person's clock, or None."""
        if self._turn is None:
            return None
        spent = 0.0 if self._since is None else self._clock.now() - self._since
        decision = self._decision - spent
        bank = self._bank + min(0.0, decision)
        return max(0.0, decision), max(0.0, bank)

    def stop(self) -> float | None:
        """End a person's clock; the bank left (None: none ran)."""
        left = self.left()
        self.cancel()
        return None if left is None else left[1]

    def freeze(self) -> None:
        if self.frozen:
            return
        self.frozen = True
        left = self.left()
        if left is not None and self._since is not None:
            self._decision, self._bank = left
            self._since = None
            self._cancel_timer()

    def thaw(self) -> None:
        if not self.frozen:
            return
        self.frozen = False
        if self._turn is not None and self._since is None:
            self._since = self._clock.now()
            self._run(self._decision + self._bank, self._turn)

    # ---- both

    def cancel(self) -> None:
        self._cancel_timer()
        self._turn = None
        self._since = None

    def time_left(self) -> float | None:
        """Seconds left, to a tenth, as ``turn`` says it (a person's: without the bank)."""
        left = self.left()
        if left is not None:
            return round(left[0], 1)
        if self.deadline is None:
            return None
        return round(max(0.0, self.deadline - self._clock.now()), 1)

    def _run(self, seconds: float, turn: int, now: float | None = None) -> None:
        self.deadline = (self._clock.now() if now is None else now) + seconds
        self._timer = self._clock.call_later(seconds, self._fire, turn)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.deadline = None

    def _fire(self, turn: int) -> None:
        self._timer = None
        self.deadline = None
        self._turn = None
        self._since = None
        self._on_time_up(turn)
