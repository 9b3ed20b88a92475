"""The words a module draws, as drawn: its ``blit_text`` calls recorded with their rects.

Inside the block pieces are drawn where they go, not from stamps (a stamp is
painted at its own origin once, then blitted: ``client.render.stamp``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

import pygame

from client.render import stamp


@contextmanager
def words_drawn(module: ModuleType) -> Iterator[list[tuple[str, pygame.Rect]]]:
    """Inside the block, every ``module.blit_text`` call is recorded: (text, rect)."""
    drawn: list[tuple[str, pygame.Rect]] = []
    real = module.blit_text

    def record(surf, s, *a, **k):
        rect = real(surf, s, *a, **k)
        drawn.append((s, rect))
        return rect

    module.blit_text = record
    stamp.set_caching(True, stamps=False)
    try:
        yield drawn
    finally:
        module.blit_text = real
        stamp.set_caching(True)
