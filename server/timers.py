"""The one clock every timer of the server runs off: real over asyncio, or fake for tests.

The table, its turn clock and bank (R-C4), a dropped seat's grace (R-C1), the pauses
between hands, the default played at once for an away seat (R-C2), the computer seats'
pauses and every connection's handshake, frame and heartbeat timers take a ``Clock``
and never read the wall clock or the event loop's timers themselves.  Invariants:

- ``now()`` is monotonic seconds; ``call_later(delay, fn)`` calls ``fn`` once ``delay``
  seconds after ``now()``, unless its handle is cancelled first; ``call_soon(fn)``
  calls it at once, after the callback running now (never inside it).
- ``LoopClock`` is exactly what the server did before it had a clock of its own:
  ``time.monotonic()`` and the running loop's ``call_later``/``call_soon``.
- ``FakeClock`` moves only when told to: ``advance(seconds)`` runs every callback due by
  then in time order (ties in the order they were scheduled, and callbacks scheduled by
  a callback run too if they are due), then sets the time.  Given a ``pump`` (a test's
  ``loop.call_soon``), it asks the loop to run what is due now whenever something is
  scheduled at once, so "at once" stays at once in a test with sockets.  [trio's
  ``MockClock``]
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Any, Protocol

__all__ = ["Clock", "FakeClock", "Handle", "LoopClock"]


class Handle(Protocol):
    """A scheduled call that can still be called off."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """What the server's timers need of time."""

    def now(self) -> float: ...
    def call_later(self, delay: float, fn: Callable[..., object], *args: Any) -> Handle: ...
    def call_soon(self, fn: Callable[..., object], *args: Any) -> Handle: ...
    async def sleep(self, seconds: float) -> None: ...


class LoopClock:
    """The real clock: ``time.monotonic`` and the running event loop's timers."""

    def now(self) -> float:
        return time.monotonic()

    def call_later(self, delay: float, fn: Callable[..., object], *args: Any) -> Handle:
        return asyncio.get_running_loop().call_later(delay, fn, *args)

    def call_soon(self, fn: Callable[..., object], *args: Any) -> Handle:
        return asyncio.get_running_loop().call_soon(fn, *args)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class _FakeHandle:
    __slots__ = ("args", "cancelled", "fn", "when")

    def __init__(self, when: float, fn: Callable[..., object], args: tuple[Any, ...]) -> None:
        self.when, self.fn, self.args = when, fn, args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """A clock for tests: time stands still until ``advance``."""

    def __init__(
        self, start: float = 1000.0, *, pump: Callable[[Callable[[], None]], object] | None = None
    ) -> None:
        self._now = start
        self._queue: list[tuple[float, int, _FakeHandle]] = []
        self._order = itertools.count()
        self.pump = pump
        """Called with ``run_due`` whenever something is scheduled to run now."""
        self._pumping = False

    def now(self) -> float:
        return self._now

    def call_later(self, delay: float, fn: Callable[..., object], *args: Any) -> _FakeHandle:
        handle = _FakeHandle(self._now + max(0.0, delay), fn, args)
        heapq.heappush(self._queue, (handle.when, next(self._order), handle))
        if delay <= 0 and self.pump is not None and not self._pumping:
            self._pumping = True
            self.pump(self.run_due)
        return handle

    def call_soon(self, fn: Callable[..., object], *args: Any) -> _FakeHandle:
        return self.call_later(0.0, fn, *args)

    async def sleep(self, seconds: float) -> None:
        future = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not future.done():
                future.set_result(None)

        handle = self.call_later(seconds, wake)
        try:
            await future
        finally:
            handle.cancel()

    @property
    def pending(self) -> int:
        """Callbacks scheduled and not cancelled."""
        return sum(1 for _, _, h in self._queue if not h.cancelled)

    def next_due(self) -> float | None:
        """When the next live callback is due, or None."""
        while self._queue and self._queue[0][2].cancelled:
            heapq.heappop(self._queue)
        return self._queue[0][0] if self._queue else None

    def run_due(self) -> None:
        """Run what is due now (``advance(0)``)."""
        self._pumping = False
        self.advance(0.0)

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, running every callback due by then, in order."""
        if seconds < 0:
            raise ValueError("time runs forwards only")
        until = self._now + seconds
        while True:
            due = self.next_due()
            if due is None or due > until:
                break
            _, _, handle = heapq.heappop(self._queue)
            self._now = max(self._now, handle.when)
            handle.cancelled = True  # ran: a late cancel() does nothing
            handle.fn(*handle.args)
        self._now = until
