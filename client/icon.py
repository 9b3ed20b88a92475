"""The game's icon, painted at any size: the seven of hearts, on the felt's green.

The one source of every icon the game has: the window's (``set_window_icon``), the
menu entry's PNGs (``client.desktop``) and the bundles' PNG, ICO and ICNS, which
``scripts/bundle.py`` makes from ``paint``.  Drawn four times larger and smoothed down,
so the edges are soft at 16 px as at 256 px; the corner pips appear from 64 px on.
"""

from __future__ import annotations

import pygame

__all__ = ["APP_ID", "SIZES", "paint", "set_window_icon"]

APP_ID = "io.github.seventhstreet.Stud"  # the desktop's id: .desktop, metainfo, icon names
SIZES = (16, 32, 48, 64, 128, 256, 512)  # the sizes the bundles and the menu entry carry

FELT, FELT_EDGE = (24, 110, 62), (12, 64, 36)
CARD, CARD_EDGE = (250, 247, 236), (40, 40, 40)
RED = (200, 28, 40)
SUPERSAMPLE = 4


def _seven(surf: pygame.Surface, box: pygame.Rect) -> None:
    """A bold seven filling ``box``: a top bar and a slanted stem."""
    x, y, w, h = box

    def at(u: float, v: float) -> tuple[float, float]:
        return x + u * w, y + v * h

    pygame.draw.polygon(surf, RED, [at(0, 0), at(1, 0), at(1, 0.22), at(0, 0.22)])
    pygame.draw.polygon(surf, RED, [at(0.62, 0.2), at(1, 0.2), at(0.42, 1), at(0.06, 1)])


def _heart(surf: pygame.Surface, cx: float, cy: float, r: float) -> None:
    """A heart of about ``2r`` across, centred on (cx, cy)."""
    lobe = r * 0.52
    pygame.draw.circle(surf, RED, (cx - r * 0.48, cy - r * 0.35), lobe)
    pygame.draw.circle(surf, RED, (cx + r * 0.48, cy - r * 0.35), lobe)
    pygame.draw.polygon(surf, RED, [(cx - r, cy - r * 0.25), (cx + r, cy - r * 0.25), (cx, cy + r)])


def paint(size: int) -> pygame.Surface:
    """The icon, ``size`` pixels square, with transparency (no display needed)."""
    big = size * SUPERSAMPLE
    surf = pygame.Surface((big, big), pygame.SRCALPHA)
    tile = pygame.Rect(0, 0, big, big)
    pygame.draw.rect(surf, FELT_EDGE, tile, border_radius=big // 5)
    pygame.draw.rect(surf, FELT, tile.inflate(-big // 16, -big // 16), border_radius=big // 6)
    card = pygame.Rect(0, 0, round(big * 0.66), round(big * 0.86))
    card.center = tile.center
    edge = max(SUPERSAMPLE, big // 48)
    pygame.draw.rect(surf, CARD_EDGE, card, border_radius=big // 10)
    pygame.draw.rect(surf, CARD, card.inflate(-2 * edge, -2 * edge), border_radius=big // 11)
    seven = pygame.Rect(0, 0, round(card.w * 0.62), round(card.h * 0.66))
    seven.center = card.center
    _seven(surf, seven)
    if size >= 64:  # the corner pips: detail that would only blur at 48 px and below
        r = card.w * 0.085
        _heart(surf, card.left + card.w * 0.17, card.top + card.h * 0.13, r)
        _heart(surf, card.right - card.w * 0.17, card.bottom - card.h * 0.13, r)
    return pygame.transform.smoothscale(surf, (size, size))


def set_window_icon() -> None:
    """The window's icon (before ``set_mode``: some systems take it only then)."""
    pygame.display.set_icon(paint(48))  # a window manager scales it (no pips to blur)
