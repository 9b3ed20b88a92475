"""Drawn pieces kept for the next frame, and the one switch that turns every cache off.

A *stamp* is a piece of the picture (a button, a seat's name plate) drawn once
into a small surface of the screen's own pixel format and blitted again while
what it shows (its ``key``) stays the same.  Only a piece that is *self-contained*
is kept: every pixel it touches it covers opaquely (its anti-aliased text lands
on its own fill), so that the stamp blitted over anything gives the very pixels
drawing it there would.  That is checked, not assumed: the piece is drawn twice,
over two different key colours; the pixels that differ must be exactly those
left at the key colour in both (untouched), and the stamp is the first drawing
with that colour keyed out.  A piece that fails (it blends into what is under it)
is drawn directly every frame instead.

``set_caching(False)`` turns off every drawn-picture cache of the client (these,
the text and card pictures, the felt, the side panel's pictures): each frame is
then drawn from nothing, the way to check that the caches change no pixel
(``tests/test_client_cache.py``) and the benchmark's anchor.  ``set_caching(True,
stamps=False)`` keeps only the caches the client had before stamps and the
text-fitting cache (the earlier drawing path).
"""

from __future__ import annotations

import inspect
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable

import pygame

__all__ = ["Memo", "Stamps", "caching", "clear_all", "set_caching", "stamping"]

KEY_A = (255, 0, 255)
KEY_B = (0, 255, 1)
_MAX = 400

_state = {"caching": True, "stamps": True}
_clearers: list[Callable[[], Callable[[], None] | None]] = []


def caching() -> bool:
    """Whether drawn pictures may be kept for later frames."""
    return _state["caching"]


def stamping() -> bool:
    """Whether the newer caches (stamps, fitted words) are used too."""
    return _state["caching"] and _state["stamps"]


def on_clear(fn: Callable[[], None]) -> None:
    """Register a cache to empty with ``clear_all`` (a bound method is held weakly: a
    scene's caches go with the scene)."""
    if inspect.ismethod(fn):
        _clearers.append(weakref.WeakMethod(fn))
    else:
        _clearers.append(lambda: fn)
    if len(_clearers) > 64:
        _clearers[:] = [ref for ref in _clearers if ref() is not None]


def clear_all() -> None:
    """Empty every cache (the next frames are drawn from nothing, then kept again)."""
    for ref in list(_clearers):
        fn = ref()
        if fn is not None:
            fn()


def set_caching(on: bool, *, stamps: bool = True) -> None:
    """Turn every cache on or off (``stamps`` False: only the older ones).  What is kept
    stays kept: while off, nothing is read from a cache or put in one, so a frame drawn
    uncached leaves the caches as the cached frames left them (``clear_all`` empties
    them)."""
    _state["caching"], _state["stamps"] = on, stamps


Paint = Callable[[pygame.Surface, tuple[int, int]], None]


class Memo(dict):  # type: ignore[type-arg]
    """Worked-out looks kept for the next frame: a cache, as a drawn picture is (``draw``
    may fill it: ``is_cache``), emptied with the others."""

    is_cache = True

    def __init__(self) -> None:
        super().__init__()
        on_clear(self.forget)

    def forget(self) -> None:
        self.clear()


class Stamps:
    """Kept stamps by key, least recently used dropped first."""

    is_cache = True  # ``draw`` may fill it

    def __init__(self, limit: int = _MAX) -> None:
        self.limit = limit
        self._kept: OrderedDict[Hashable, pygame.Surface | None] = OrderedDict()
        on_clear(self.clear)

    def clear(self) -> None:
        self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)

    def draw(
        self,
        surf: pygame.Surface,
        key: Hashable,
        size: tuple[int, int],
        at: tuple[int, int],
        paint: Paint,
    ) -> None:
        """Draw the piece ``paint`` draws (given a surface and where its top left goes)
        at ``at``: from its stamp when one is kept for ``key``, ``size`` large.  Only onto
        a surface without an alpha channel (the screen, a frame); into one with alpha
        the piece is drawn directly."""
        masks = surf.get_masks()
        if not stamping() or size[0] <= 0 or size[1] <= 0 or masks[3]:
            paint(surf, at)  # (into a picture with its own alpha: drawn as it was)
            return
        full = (key, size, surf.get_bitsize(), masks)
        if full in self._kept:
            self._kept.move_to_end(full)
            stamp = self._kept[full]
        else:
            stamp = _make(surf, size, paint)
            self._kept[full] = stamp
            if len(self._kept) > self.limit:
                self._kept.popitem(last=False)
        if stamp is None:
            paint(surf, at)  # not self-contained: drawn where it goes, every time
        else:
            surf.blit(stamp, at)


def _make(surf: pygame.Surface, size: tuple[int, int], paint: Paint) -> pygame.Surface | None:
    """The piece's stamp, or None when it does not cover what it touches."""
    a = pygame.Surface(size, 0, surf)
    b = pygame.Surface(size, 0, surf)
    a.fill(KEY_A)
    b.fill(KEY_B)
    paint(a, (0, 0))
    paint(b, (0, 0))
    left_a = pygame.mask.from_threshold(a, KEY_A, (1, 1, 1, 255))
    left_b = pygame.mask.from_threshold(b, KEY_B, (1, 1, 1, 255))
    # Where the two drawings differ at all: |a - b| is zero nowhere else.
    d1, d2 = a.copy(), b.copy()
    d1.blit(b, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    d2.blit(a, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    d1.blit(d2, (0, 0), special_flags=pygame.BLEND_RGB_ADD)
    differ = pygame.mask.from_threshold(d1, (0, 0, 0), (1, 1, 1, 255))
    differ.invert()
    n = left_a.count()
    if not (n == left_b.count() == differ.count() == left_a.overlap_area(left_b, (0, 0))):
        return None
    if left_a.overlap_area(differ, (0, 0)) != n:
        return None
    if n:
        a.set_colorkey(KEY_A, pygame.RLEACCEL)
    return a
