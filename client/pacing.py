"""Frame pacing: sleep while nothing moves, and step time in fixed 1/60 s steps.

The loop sleeps in ``idle_wait`` until input, a word from the network
thread (``wake``) or the next scene clock is due: ``pygame.event.wait``
polls every millisecond on some SDL video drivers, so the wait naps on a
flag between cheap event polls instead (near-zero CPU, a key still answered
within ``NAP``).  While something animates, ``steps`` says how many fixed
steps of time have passed (at most eight: a longer stall is dropped, not
caught up) and ``rest`` sleeps off the rest of the frame.
"""

from __future__ import annotations

import threading
import time

import pygame

__all__ = ["NAP", "STEP", "Pacer"]

STEP = 1 / 60
NAP = 0.025  # idle polling interval: ~0.1 ms of CPU per nap
MAX_STEPS = 8


class Pacer:
    def __init__(self) -> None:
        self.last = time.monotonic()
        self.acc = 0.0
        self._flag = threading.Event()

    def wake(self) -> None:
        """Called from another thread: end an ``idle_wait`` now."""
        self._flag.set()

    def idle_wait(self, seconds: float) -> list[pygame.event.Event]:
        """Sleep until input, a ``wake`` or ``seconds`` pass; the events that came."""
        deadline = time.monotonic() + seconds
        while True:
            events = pygame.event.get()
            if events or self._flag.is_set() or time.monotonic() >= deadline:
                self._flag.clear()
                return events
            self._flag.wait(min(NAP, max(0.0, deadline - time.monotonic())))

    def steps(self, now: float) -> int:
        """How many fixed steps of time to run at ``now``."""
        self.acc += min(0.25, now - self.last)
        self.last = now
        n = 0
        while self.acc >= STEP and n < MAX_STEPS:
            self.acc -= STEP
            n += 1
        if n == MAX_STEPS:
            self.acc = 0.0
        return n

    def rest(self) -> None:
        """Sleep off the rest of a 1/60 s frame."""
        spent = time.monotonic() - self.last
        if spent < STEP:
            time.sleep(STEP - spent)
