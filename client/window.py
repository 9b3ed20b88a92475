"""The window's smallest size (below 800×500 the opponents' cards stop being readable)
and its title.  ``MIN_SIZE`` is asked of the window manager through the SDL library
pygame loaded (pygame 2 does not expose it); where it shrinks anyway, the app sizes the
same window back (``hold``), making it again only where SDL cannot be reached.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import glob
import logging
import os
import sys

import pygame

from client.i18n import gettext as _

__all__ = ["MIN_SIZE", "TITLE", "TitleFlash", "clamp", "ask_minimum", "hold"]

log = logging.getLogger(__name__)

MIN_SIZE = (800, 500)
TITLE = "Seventh Street"


class TitleFlash:
    """The window's title, which says "YOUR TURN" in a blink for a moment when it comes."""

    def __init__(self) -> None:
        self.until = 0.0  # when the blinking stops (the window's clock)
        self.caption = self._shown = TITLE

    def flash(self, now: float, seconds: float = 2.4) -> None:
        self.until = now + seconds

    def flashing(self, now: float) -> bool:
        return now < self.until

    def show(self, now: float, *, window: bool) -> None:
        """The caption for ``now``, set on the window (``window``) when it changed."""
        if now < self.until:
            on = int((self.until - now) * 2.5) % 2 == 0
            # Translators: the window's title for a moment when it is the player's turn.
            self.caption = _("▶ YOUR TURN ◀  {title}").format(title=TITLE) if on else TITLE
        elif self.until:
            self.until = 0.0
            self.caption = TITLE
        if window and self.caption != self._shown:
            pygame.display.set_caption(self.caption)
            self._shown = self.caption


def clamp(size: tuple[int, int]) -> tuple[int, int]:
    """``size`` grown to at least ``MIN_SIZE``."""
    return max(MIN_SIZE[0], int(size[0])), max(MIN_SIZE[1], int(size[1]))


def _sdl() -> ctypes.CDLL | None:
    """The SDL2 library pygame loaded (the same copy, so the window ids agree)."""
    here = os.path.dirname(pygame.__file__)
    names = glob.glob(os.path.join(here + ".libs", "libSDL2-2*.so*"))  # Linux wheels
    names += glob.glob(os.path.join(here, "SDL2.dll"))  # Windows wheels
    names += glob.glob(os.path.join(here, ".dylibs", "libSDL2*.dylib"))  # macOS wheels
    found = ctypes.util.find_library("SDL2")
    if found:
        names.append(found)
    for name in names:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    return None


def _window() -> tuple[ctypes.CDLL, int] | None:
    """SDL and pygame's window, or None where they cannot be reached."""
    if sys.platform == "emscripten":
        return None
    sdl = _sdl()
    if sdl is None or pygame.display.get_surface() is None:
        return None
    sdl.SDL_GetWindowFromID.restype = ctypes.c_void_p
    sdl.SDL_GetWindowFromID.argtypes = [ctypes.c_uint32]
    # pygame has one window; SDL numbers windows from 1.  (pygame._sdl2's Window
    # wrapper would give the id, but it corrupts later events' window fields.)
    for window_id in range(1, 65):
        ptr = sdl.SDL_GetWindowFromID(window_id)
        if ptr:
            return sdl, ptr
    return None


def _size_window(call: str, size: tuple[int, int]) -> bool:
    """``SDL_<call>(window, w, h)``; False where SDL cannot be reached (an unusual build:
    the app's own clamp still holds)."""
    try:
        found = _window()
        if found is None:
            return False
        sdl, ptr = found
        function = getattr(sdl, f"SDL_{call}")
        function.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
        function(ptr, int(size[0]), int(size[1]))
        return True
    except Exception as exc:
        log.debug("SDL_%s failed: %s", call, exc)
        return False


def ask_minimum() -> bool:
    """Tell the window manager the window's minimum size; False where that is not possible."""
    return _size_window("SetWindowMinimumSize", MIN_SIZE)


def hold(size: tuple[int, int]) -> bool:
    """Size the window to ``size`` in place: the same window and display surface, grown
    back, where ``set_mode`` would make the window again; False where it cannot."""
    if not _size_window("SetWindowSize", size):
        return False
    pygame.event.pump()  # pygame's display surface follows the window's new size
    surface = pygame.display.get_surface()
    return surface is not None and surface.get_size() == tuple(size)
