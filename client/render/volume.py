"""The sound control at the table: a speaker that mutes on a click, and a volume slider.

``value`` is the master volume 0–100 and ``muted`` the switch; ``handle_event``
returns True when either changed (a click on the speaker, a click or drag on the
slider, the wheel over it).  The scene saves both in the settings and passes
them on to ``client.sound``.  ``draw`` changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

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

    @property
    def speaker(self) -> pygame.Rect:
        return pygame.Rect(self.rect.x, self.rect.y, self.rect.h, self.rect.h)

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
            event.type == pygame.MOUSEWHEEL
            and event.y
            and self.rect.collidepoint(pygame.mouse.get_pos())
        ):
            self.value = max(0, min(100, self.value + STEP * event.y))
            self.muted = False
            return True
        return False

    def toggle(self) -> None:
        self.muted = not self.muted

    def draw(self, surf: pygame.Surface) -> None:
        sp = self.speaker
        color = MUTED if self.muted or self.value == 0 else INK
        # A speaker: a box and a cone, then waves for the level or a cross when muted.
        u = sp.h / 10
        box = pygame.Rect(round(sp.x + u), round(sp.y + 3.5 * u), round(2.5 * u), round(3 * u))
        pygame.draw.rect(surf, color, box)
        cone = [(box.right, box.top), (sp.x + 6 * u, sp.y + 1.2 * u),
                (sp.x + 6 * u, sp.y + 8.8 * u), (box.right, box.bottom)]  # fmt: skip
        pygame.draw.polygon(surf, color, cone)
        cx, cy = sp.x + 6.3 * u, sp.centery
        w = max(1, round(u * 0.8))
        if self.muted or self.value == 0:
            a, b = (cx + 1.2 * u, cy - 2 * u), (cx + 3.4 * u, cy + 2 * u)
            pygame.draw.line(surf, (220, 90, 80), a, b, w + 1)
            pygame.draw.line(surf, (220, 90, 80), (a[0], b[1]), (b[0], a[1]), w + 1)
        else:
            for i in range(1 + (self.value > 33) + (self.value > 66)):
                r = pygame.Rect(
                    0, 0, round((2.2 + 1.6 * i) * u * 2), round((2.2 + 1.6 * i) * u * 2)
                )
                r.center = (round(cx - 0.5 * u), round(cy))
                pygame.draw.arc(surf, color, r, -0.9, 0.9, w)
        t = self.track
        pygame.draw.rect(surf, (60, 70, 72), t, border_radius=3)
        fill = t.copy()
        fill.w = round(t.w * self.value / 100)
        pygame.draw.rect(surf, MUTED if self.muted else GOLD, fill, border_radius=3)
        knob = (t.x + fill.w, t.centery)
        pygame.draw.circle(surf, INK if not self.muted else MUTED, knob, max(5, self.rect.h // 3))
