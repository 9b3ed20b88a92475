"""The sound control at the table: a speaker that mutes on a click, and a slider for the
volume (0–100: click, drag or wheel); ``handle_event`` is True when either changed."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame
from pygame import mouse

from client.render.widgets import GOLD, INK, MUTED

__all__ = ["VolumeControl"]

STEP = 10  # per wheel notch


@dataclass
class VolumeControl:
    id: str = "volume"
    value: int = 70
    muted: bool = False
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 10, 10))
    dragging: bool = False
    _icons: dict[tuple[int, int, int], pygame.Surface] = field(
        default_factory=dict, repr=False, compare=False
    )

    @property
    def speaker(self) -> pygame.Rect:
        return pygame.Rect(self.rect.x, self.rect.y, round(self.rect.h * 1.1), self.rect.h)

    @property
    def track(self) -> pygame.Rect:
        x = self.speaker.right + self.rect.h // 2
        return pygame.Rect(x, self.rect.centery - 3, max(10, self.rect.right - x - 6), 6)

    def _set_from(self, x: int) -> None:
        t = self.track
        self.value = round(max(0.0, min(1.0, (x - t.x) / max(1, t.w))) * 100)
        self.muted = False

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.speaker.collidepoint(event.pos):
                self.muted = not self.muted
                return True
            if self.track.inflate(12, self.rect.h).collidepoint(event.pos):
                self.dragging = True
                self._set_from(event.pos[0])
                return True
        elif event.type == pygame.MOUSEMOTION and self.dragging:
            if not event.buttons[0]:
                self.dragging = False
                return False
            self._set_from(event.pos[0])
            return True
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.dragging:
            self.dragging = False
            return True
        elif (
            event.type == pygame.MOUSEWHEEL and event.y and self.rect.collidepoint(mouse.get_pos())
        ):
            self.value = max(0, min(100, self.value + STEP * event.y))
            self.muted = False
            return True
        return False

    def toggle(self) -> None:
        self.muted = not self.muted

    def _icon(self, w: int, h: int, level: int) -> pygame.Surface:
        """The speaker, drawn four times larger and smoothed down; cached per look."""
        key = (w, h, level)
        img = self._icons.get(key)
        if img is not None:
            return img
        k = 4
        big = pygame.Surface((w * k, h * k), pygame.SRCALPHA)
        u = h * k / 10
        color = MUTED if level < 0 else INK
        cy = h * k / 2
        box = pygame.Rect(0, 0, round(2.5 * u), round(3 * u))
        box.midleft = (round(0.5 * u), round(cy))
        pygame.draw.rect(big, color, box)
        right = 5 * u
        cone = [(box.right - 1, box.top), (right, 1.2 * u), (right, 8.8 * u),
                (box.right - 1, box.bottom)]  # fmt: skip
        pygame.draw.polygon(big, color, cone)
        line = max(2, round(0.8 * u))
        if level < 0:
            a, b = (right + 1.6 * u, cy - 1.8 * u), (right + 4.8 * u, cy + 1.8 * u)
            pygame.draw.line(big, (220, 90, 80), a, b, line)
            pygame.draw.line(big, (220, 90, 80), (a[0], b[1]), (b[0], a[1]), line)
        for i in range(max(0, level)):
            radius = (1.9 + 1.5 * i) * u
            points = [(right + radius * math.cos(t / 10), cy + radius * math.sin(t / 10))
                      for t in range(-8, 9)]  # fmt: skip
            pygame.draw.lines(big, color, False, points, line)
        img = pygame.transform.smoothscale(big, (w, h))
        self._icons[key] = img
        return img

    def draw(self, surf: pygame.Surface) -> None:
        sp = self.speaker
        level = -1 if self.muted or self.value == 0 else 1 + (self.value > 33) + (self.value > 66)
        surf.blit(self._icon(sp.w, sp.h, level), sp.topleft)
        t = self.track
        pygame.draw.rect(surf, (60, 70, 72), t, border_radius=3)
        fill = t.copy()
        fill.w = round(t.w * self.value / 100)
        pygame.draw.rect(surf, MUTED if self.muted else GOLD, fill, border_radius=3)
        knob = (t.x + fill.w, t.centery)
        pygame.draw.circle(surf, INK if not self.muted else MUTED, knob, max(5, self.rect.h // 3))
