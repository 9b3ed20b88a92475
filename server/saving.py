"""Writes the table must have on disk before it goes on: the journal, the histories, the
night's scoreboard.

A table shows nothing it could not make durable.  ``Saver.save(write, then)`` runs
``write`` (``OSError`` when it cannot) and, once it has succeeded, ``then`` (the step's
frames, the next decision).  When a write fails the saver *waits*:

- the failed write and every later one are kept, in order, and tried again every
  ``RETRY`` seconds on the table's clock; each ``then`` runs only after its own write
  (and every write before it) succeeded, so nothing that depends on a write is shown
  before it is on disk;
- ``on_change`` is told once when the waiting starts (a ``Problem``) and once when it
  ends (``None``);
- each write must be safe to run again after a failure (``server.durable``: an append
  cut back to where it began, a whole file replaced through a temporary one).

A server killed while waiting loses only steps nobody saw: the journal holds every step
shown, and a table started again resumes from there.
"""

from __future__ import annotations

import errno
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from server.timers import Clock, Handle

__all__ = ["RETRY", "Problem", "Saver"]

log = logging.getLogger("server.table")

RETRY = 2.0  # seconds between two tries of a write that failed

_FULL = (errno.ENOSPC, errno.EDQUOT)


@dataclass(frozen=True, slots=True)
class Problem:
    """Why the table waits: ``why`` is ``disk_full`` or ``cannot_save``."""

    why: str
    message: str

    @classmethod
    def of(cls, exc: OSError) -> Problem:
        if exc.errno in _FULL:
            return cls("disk_full", "the host's disk is full: the table waits until it can save")
        reason = exc.strerror or type(exc).__name__
        return cls("cannot_save", f"the host cannot save the match ({reason}): the table waits")


Write = Callable[[], None]
Then = Callable[[], None] | None


class Saver:
    """Runs writes in order, and what follows each once it is on disk."""

    def __init__(self, clock: Clock, on_change: Callable[[Problem | None], None]) -> None:
        self._clock = clock
        self._on_change = on_change
        self._queue: deque[tuple[Write, Then]] = deque()
        self._timer: Handle | None = None
        self._since = 0.0
        self.problem: Problem | None = None  # why the table waits

    @property
    def waiting(self) -> bool:
        return bool(self._queue)

    def save(self, write: Write, then: Then = None) -> None:
        if self._queue:
            self._queue.append((write, then))
            return
        try:
            write()
        except OSError as exc:
            self._queue.append((write, then))
            self._wait(exc)
            return
        if then is not None:
            then()

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._queue.clear()

    def _wait(self, exc: OSError) -> None:
        problem = Problem.of(exc)
        if self.problem is None:
            self._since = self._clock.now()
            log.warning("cannot save (%s): the table waits, trying every %.0f s", exc, RETRY)
        self._timer = self._clock.call_later(RETRY, self._retry)
        if problem != self.problem:
            self.problem = problem
            self._on_change(problem)

    def _retry(self) -> None:
        self._timer = None
        done: list[Then] = []
        while self._queue:
            write, then = self._queue[0]
            try:
                write()
            except OSError as exc:
                self._wait(exc)
                break
            self._queue.popleft()
            done.append(then)
        if not self._queue:
            log.info(
                "saved again after %.0f s: the table plays on", self._clock.now() - self._since
            )
            self.problem = None
            self._on_change(None)
        for then in done:
            if then is not None:
                then()
