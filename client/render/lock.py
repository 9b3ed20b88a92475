"""A drawn padlock (no font has one everywhere): closed for a sealed (encrypted) link, open
for a plain one, in the colours the seat plates and the lobby use."""

from __future__ import annotations

import pygame

__all__ = ["LOCK_PLAIN", "LOCK_SEALED", "draw_lock", "lock_width"]

LOCK_SEALED = (150, 210, 160)
LOCK_PLAIN = (250, 160, 70)


def lock_width(h: int) -> int:
    return max(7, round(max(8, h) * 0.9))


def draw_lock(
    surf: pygame.Surface, rect: pygame.Rect, *, closed: bool, color: tuple[int, int, int]
) -> pygame.Rect:
    """A padlock inside ``rect`` (its height sets the size, ``lock_width`` the width it
    takes); the rect drawn in."""
    h = max(8, rect.h)
    box = pygame.Rect(rect.x, rect.y, lock_width(h), h)
    line = max(2, round(h / 8))
    bw = round(h * 0.66)
    body = pygame.Rect(box.x, box.y + round(h * 0.5), bw, h - round(h * 0.5))
    pygame.draw.rect(surf, color, body, border_radius=max(1, h // 8))
    sw = max(4, round(bw * 0.7))  # the shackle's width
    shackle = pygame.Rect(0, 0, sw, round(h * 0.6))
    if closed:
        shackle.midtop = (body.centerx, box.y + round(h * 0.1))
    else:
        shackle.topright = (box.right, box.y)  # lifted and swung to the right
    pygame.draw.arc(surf, color, shackle, 0, 3.1416, line)
    right = shackle.right - line
    pygame.draw.line(surf, color, (right, shackle.centery), (right, body.y), line)
    left_to = body.y if closed else shackle.centery + round(h * 0.08)
    pygame.draw.line(surf, color, (shackle.x, shackle.centery), (shackle.x, left_to), line)
    pygame.draw.circle(surf, (20, 24, 26), body.center, max(1, h // 10))
    return box
