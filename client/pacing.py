"""Frame pacing: sleep while nothing moves, and step time in fixed 1/60 s steps.

``idle_wait`` sleeps until input, a word from the network thread (``wake``) or the next
scene clock, each wake-up costing CPU, so the way to sleep follows the video driver
(``waiter_for``; ``STUD_IDLE=poll``, ``flag`` or ``sdl`` picks it by hand): a desktop's
own driver blocks in SDL's wait, which its input ends (``wake`` posts an event; with a
joystick SDL would poll, so then it naps); a driver without input (tests) sleeps on
``wake``'s flag alone; elsewhere it naps on the flag between event polls (``NAP``).
While something animates, ``steps`` says how many fixed steps have passed (at most
eight: a longer stall is dropped) and ``rest`` sleeps off the rest of the frame.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import threading
import time
from collections.abc import Callable

import pygame

__all__ = ["NAP", "STEP", "Pacer", "waiter_for"]

log = logging.getLogger(__name__)

STEP = 1 / 60
NAP = 0.025  # idle polling interval where nothing better is at hand
MAX_STEPS = 8
NATIVE = ("x11", "wayland", "windows", "cocoa")  # SDL's wait ends on their input
NO_INPUT = ("dummy", "offscreen")


class Nap:
    """Naps of ``NAP`` on the flag; the caller polls the events between them."""

    kind = "poll"

    def wait(self, flag: threading.Event, seconds: float) -> None:
        flag.wait(min(NAP, seconds))

    def interrupt(self) -> None:
        pass


class FlagOnly:
    """No input can come (a driver without any): only ``wake`` or the time ends it."""

    kind = "flag"

    def wait(self, flag: threading.Event, seconds: float) -> None:
        flag.wait(seconds)

    def interrupt(self) -> None:
        pass


class SdlWait:
    """SDL's ``SDL_WaitEventTimeout``, called without the GIL: input, a timer's event
    (key repeat) or ``interrupt``'s posted event end it."""

    kind = "sdl"

    def __init__(self, sdl: ctypes.CDLL) -> None:
        self.sdl = sdl
        sdl.SDL_WaitEventTimeout.argtypes = [ctypes.c_void_p, ctypes.c_int]
        sdl.SDL_WaitEventTimeout.restype = ctypes.c_int
        sdl.SDL_NumJoysticks.restype = ctypes.c_int
        self.event = pygame.event.custom_type()

    def wait(self, flag: threading.Event, seconds: float) -> None:
        if self.sdl.SDL_NumJoysticks() > 0:  # SDL itself would poll every millisecond: nap
            flag.wait(min(NAP, seconds))
        else:
            self.sdl.SDL_WaitEventTimeout(None, max(1, round(seconds * 1000)))

    def interrupt(self) -> None:
        # (a full queue will be read soon anyway; pygame may be down)
        with contextlib.suppress(pygame.error):
            pygame.event.post(pygame.event.Event(self.event))


Waiter = Nap | FlagOnly | SdlWait  # ``wait`` up to some seconds; ``interrupt`` ends it


def waiter_for(driver: str) -> Waiter:
    """The way to sleep for a video driver (``STUD_IDLE`` overrides it)."""
    how = os.environ.get("STUD_IDLE", "")
    if how == "poll":
        return Nap()
    if how == "flag" or (not how and driver in NO_INPUT):
        return FlagOnly()
    if how == "sdl" or driver in NATIVE:
        from client import window

        try:
            sdl = window._sdl()
            if sdl is not None:
                return SdlWait(sdl)
        except Exception as exc:  # an unusual build: poll as before
            log.debug("no SDL wait: %s", exc)
    return Nap()


class Pacer:
    """The loop's time: fixed steps on the window's ``clock``; the waits themselves are
    real seconds (``idle_wait``, ``rest``), whatever that clock says."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.last = clock()
        self.acc = 0.0
        self._flag = threading.Event()
        self.waiter: Waiter | None = None  # chosen at the first wait, once the display is open
        self.woken = False  # the last ``idle_wait`` was ended by ``wake``

    def wake(self) -> None:
        """Called from another thread: end an ``idle_wait`` now."""
        self._flag.set()
        waiter = self.waiter
        if waiter is not None:
            waiter.interrupt()

    def is_wake(self, event: pygame.event.Event) -> bool:
        """Whether ``event`` is only ``wake``'s (posted to end SDL's wait)."""
        return event.type == getattr(self.waiter, "event", None)

    def idle_wait(self, seconds: float) -> list[pygame.event.Event]:
        """Sleep until input, a ``wake`` or ``seconds`` pass; the events that came."""
        if self.waiter is None:
            driver = pygame.display.get_driver() if pygame.display.get_init() else ""
            self.waiter = waiter_for(driver)
        deadline = time.monotonic() + seconds
        while True:
            events = pygame.event.get()
            left = deadline - time.monotonic()
            if events or self._flag.is_set() or left <= 0:
                self.woken = self._flag.is_set()
                self._flag.clear()
                return events
            self.waiter.wait(self._flag, left)

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
        spent = self.clock() - self.last
        if spent < STEP:
            time.sleep(STEP - spent)
