"""Fonts and rendered text, cached (the last 1500 words drawn), in pygame's bundled font."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

import pygame

__all__ = ["blit_text", "clear", "fit", "fit_lines", "fit_sizes",
           "font", "line_height", "shrunk", "text", "wrap"]  # fmt: skip

_fonts: dict[tuple[int, bool], pygame.font.Font] = {}
_texts: OrderedDict[tuple, pygame.Surface] = OrderedDict()
_MAX_TEXTS = 1500


def font(size: int, *, bold: bool = False) -> pygame.font.Font:
    size = max(6, int(size))
    key = (size, bold)
    f = _fonts.get(key)
    if f is None:
        if not pygame.font.get_init():
            pygame.font.init()
        f = pygame.font.Font(None, size)
        f.set_bold(bold)
        _fonts[key] = f
    return f


def text(s: str, size: int, color=(240, 240, 235), *, bold: bool = False) -> pygame.Surface:
    key = (s, int(size), tuple(color), bold)
    surf = _texts.get(key)
    if surf is not None:
        _texts.move_to_end(key)
        return surf
    surf = font(size, bold=bold).render(s, True, color)
    _texts[key] = surf
    if len(_texts) > _MAX_TEXTS:
        _texts.popitem(last=False)
    return surf


def fit(s: str, size: int, width: int, *, bold: bool = False) -> str:
    """``s`` cut with an ellipsis so that it fits in ``width`` pixels."""
    f = font(size, bold=bold)
    if f.size(s)[0] <= width:
        return s
    while s and f.size(s + "…")[0] > width:
        s = s[:-1]
    return s + "…"


def shrunk(
    s: str, size: int, width: int, *, bold: bool = False, least: int = 12
) -> tuple[str, int]:
    """``s`` at the largest size from ``size`` down to ``least`` at which it fits in
    ``width`` pixels, cut with an ellipsis only past ``least``; the words and the size."""
    size = int(size)
    while size > least and font(size, bold=bold).size(s)[0] > width:
        size -= 1
    return fit(s, size, width, bold=bold), size


def blit_text(surf: pygame.Surface, s: str, size: int, pos: tuple[int, int], color=(240, 240, 235),
              *, bold: bool = False, anchor: str = "topleft",
              shadow: bool = False) -> pygame.Rect:  # fmt: skip
    img = text(s, size, color, bold=bold)
    rect = img.get_rect(**{anchor: pos})
    if shadow:
        surf.blit(text(s, size, (0, 0, 0), bold=bold), rect.move(1, 2))
    surf.blit(img, rect)
    return rect


def wrap(s: str, size: int, width: int) -> list[str]:
    f = font(size)
    words = s.split(" ")
    lines: list[str] = []
    cur = ""
    for w in words:
        trial = w if not cur else cur + " " + w
        if f.size(trial)[0] <= width or not cur:
            cur = trial
        else:
            lines.append(cur)
            cur = w
    if cur:
        lines.append(cur)
    return lines


def line_height(size: int) -> int:
    """How far apart lines of ``size`` are drawn: a rendered line's own height."""
    return font(size).size("Ag")[1]


def fit_lines(s: str, size: int, box: tuple[int, int], *, least: int = 10) -> tuple[list[str], int]:
    """``s`` wrapped into a ``box`` (width, height) of lines ``line_height`` apart, at the
    largest size from ``size`` down to ``least`` at which it fits whole; the lines and the
    size.  Only past ``least`` is the last line that fits cut with an ellipsis."""
    width, height = box
    for at in range(int(size), int(least) - 1, -1):
        lines = wrap(s, at, width)
        fits = all(font(at).size(line)[0] <= width for line in lines)
        if fits and len(lines) * line_height(at) <= height:
            return lines, at
    at = int(least)
    rows = max(1, height // line_height(at))
    lines = wrap(s, at, width)
    kept = [fit(line, at, width) for line in lines[:rows]]
    if len(lines) > rows and not kept[-1].endswith("…"):
        kept[-1] = fit(kept[-1] + "…", at, width)
    return kept, at


def fit_sizes(lines: Sequence[tuple[str, float, bool]], room: tuple[int, int], scale: float, *,
              gap: int = 0, shrink: float = 0.93,
              tries: int = 60) -> tuple[list[int], list[tuple[int, int]]]:  # fmt: skip
    """The sizes at which ``lines`` (text, base size, bold), stacked ``gap`` apart, fit in
    ``room`` (width, height): each its base size times ``scale``, all shrunk together by
    ``shrink`` a step until they fit (12 px at least); and each line's (width, height)."""
    m = 1.0
    for _ in range(tries):
        sizes = [max(12, round(base * scale * m)) for _t, base, _b in lines]
        dims = [font(sz, bold=b).size(t) for (t, _x, b), sz in zip(lines, sizes, strict=True)]
        total = sum(h for _w, h in dims) + gap * (len(lines) - 1)
        if (total <= room[1] and all(w <= room[0] for w, _h in dims)) or min(sizes) <= 12:
            break
        m *= shrink
    return sizes, dims


def clear() -> None:
    _fonts.clear()
    _texts.clear()
