"""The window's smallest size: below 800×500 the opponents' cards stop being readable.

``MIN_SIZE`` is asked of the window manager through SDL's
``SDL_SetWindowMinimumSize`` (pygame 2 does not expose it, so it is reached
through the SDL library pygame already loaded); where that cannot be done, the
app sets the window back to ``clamp(size)`` when it is made smaller.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import glob
import logging
import os
import sys

import pygame

__all__ = ["MIN_SIZE", "clamp", "ask_minimum"]

log = logging.getLogger(__name__)

MIN_SIZE = (800, 500)


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


def ask_minimum() -> bool:
    """Tell the window manager the window's minimum size; False where that is not possible."""
    if sys.platform == "emscripten":
        return False
    try:
        sdl = _sdl()
        if sdl is None or pygame.display.get_surface() is None:
            return False
        sdl.SDL_GetWindowFromID.restype = ctypes.c_void_p
        sdl.SDL_GetWindowFromID.argtypes = [ctypes.c_uint32]
        sdl.SDL_SetWindowMinimumSize.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
        # pygame has one window; SDL numbers windows from 1.  (pygame._sdl2's Window
        # wrapper would give the id, but it corrupts later events' window fields.)
        for window_id in range(1, 65):
            ptr = sdl.SDL_GetWindowFromID(window_id)
            if ptr:
                sdl.SDL_SetWindowMinimumSize(ptr, *MIN_SIZE)
                return True
        return False
    except Exception as exc:  # an unusual build: the app's own clamp still holds
        log.debug("no window minimum from SDL: %s", exc)
        return False
