"""Computer seats' turns: a pause like a person's, then a choice made off the event loop.

Invariants:

- A computer seat sees only ``common.views.seat_view`` of its own seat and chooses with
  its own RNG, by its brain (``server.brain``) or else the table's chooser.
- The chooser runs in a worker thread, so a slow decision never delays anyone's
  frames; ``times`` keeps how long the last ``KEEP_TIMES`` choices took.
- A choice counts only while its turn is still the current one (``current(turn)``);
  one not among the view's legal actions becomes the hand's default (R-C1).
- Each turn is one task; ``cancel()`` stops them all.  The pause before a choice runs
  off the table's clock.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

from common.engine import Hand
from common.schema import SeatView
from common.views import seat_view
from server.seats import Seat
from server.timers import Clock, LoopClock

__all__ = ["Chooser", "ComputerSeats", "default_chooser"]

log = logging.getLogger("server.computer")

Chooser = Callable[[SeatView, random.Random], str]

KEEP_TIMES = 1000


def default_chooser() -> Chooser:
    from server.brain import choose_action

    return choose_action


class ComputerSeats:
    """Plays computer seats' turns for a table, one task per turn."""

    def __init__(
        self,
        chooser: Chooser,
        *,
        delay: float,
        rng: random.Random,
        current: Callable[[int], Hand | None],
        apply: Callable[[int, str], None],
        clock: Clock | None = None,
    ) -> None:
        self.chooser = chooser
        self.times: deque[float] = deque(maxlen=KEEP_TIMES)
        self._delay = delay
        self._rng = rng  # the table's: only the pause before a choice is drawn from it
        self._current = current
        self._apply = apply
        self._tasks: set[asyncio.Task[None]] = set()
        self._clock: Clock = clock if clock is not None else LoopClock()
        self.thinking = 0  # choices being made in a worker thread

    def play(self, seat: Seat, turn: int) -> None:
        self._spawn(self._turn(seat, turn))

    def cancel(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("computer seat task failed", exc_info=task.exception())

    async def _turn(self, seat: Seat, turn: int) -> None:
        delay = self._delay
        await self._clock.sleep(delay * self._rng.uniform(0.6, 1.4) if delay > 0 else 0)
        hand = self._current(turn)
        if hand is None:
            return
        view = seat_view(hand, seat.seat)
        assert seat.rng is not None
        started = time.perf_counter()
        try:
            # Off the event loop: a slow decision must not delay anyone's frames.
            chooser = seat.brain if seat.brain is not None else self.chooser
            self.thinking += 1
            try:
                choice = await asyncio.to_thread(chooser, view, seat.rng)
            finally:
                self.thinking -= 1
        except Exception:
            log.exception("computer seat %d failed to choose; playing the default", seat.seat)
            choice = ""
        self.times.append(time.perf_counter() - started)
        log.debug("seat %d chose %s in %.1f ms", seat.seat, choice, self.times[-1] * 1000)
        hand = self._current(turn)
        if hand is None:
            return
        if choice not in {str(a.action) for a in view.legal}:
            log.error("computer seat %d chose %r, not offered; default instead", seat.seat, choice)
            choice = hand.default_action(seat.seat).value
        self._apply(seat.seat, choice)
