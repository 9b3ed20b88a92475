"""The table's log and chat lines: wrapped to the panel, scrolled back on demand.

Invariants:

- ``offset`` counts wrapped lines between the newest line and the view's bottom; 0 means
  following.  While scrolled back, new lines raise it by as many wrapped lines as they
  add: what is on screen stays put until the player scrolls down again.
- ``sync`` is the only reader of the session's log; ``draw`` shows what it built.
- Entries are told apart by identity: the same words said twice are two lines.  The
  log is a bounded deque: old entries fall off the front, new ones come at the back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pygame

from client.i18n import gettext as _
from client.i18n import ngettext
from client.render.text import text, wrap
from client.render.widgets import GOLD, INK, MUTED
from client.wording import LogLine

__all__ = ["LOG_COLORS", "LogView"]

LOG_COLORS = {"action": INK, "street": (150, 200, 160), "chat": (170, 210, 250),
              "info": (220, 200, 150), "win": GOLD}  # fmt: skip
WHEEL_LINES = 3  # lines per wheel notch, as in most text views

Line = tuple[str, tuple[int, int, int]]


@dataclass
class LogView:
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 10, 10))  # the lines
    area: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 10, 10))  # takes the wheel
    size: int = 21
    offset: int = 0
    unseen: int = 0  # entries that arrived while scrolled back
    pointer: tuple[int, int] | None = None  # last mouse position seen in an event
    lines: list[Line] = field(default_factory=list)
    _newest: LogLine | None = None
    _built: tuple[int, int] = (0, 0)  # (size, width) the lines were wrapped for
    _wrapped: dict[LogLine, list[str]] = field(default_factory=dict)

    @property
    def line_h(self) -> int:
        return max(1, round(self.size * 0.98))

    @property
    def room(self) -> int:
        """How many lines fit."""
        return max(0, self.rect.h // self.line_h)

    @property
    def following(self) -> bool:
        return self.offset == 0

    def hint_rect(self) -> pygame.Rect:
        """The "newest" bar over the bottom line while scrolled back; a click on it follows."""
        h = self.line_h
        return pygame.Rect(self.rect.x, self.rect.bottom - h, self.rect.w, h)

    def _wrap(self, entry: LogLine) -> list[str]:
        got = self._wrapped.get(entry)
        if got is None:
            got = self._wrapped[entry] = wrap(entry.text, self.size, self.rect.w)
        return got

    def sync(self, log: Sequence[LogLine]) -> None:
        """Catch up with the session's log; keep the view still while scrolled back."""
        newest = log[-1] if log else None
        if newest is self._newest and self._built == (self.size, self.rect.w):
            return
        if self._built != (self.size, self.rect.w):
            self._wrapped.clear()
            self._built = (self.size, self.rect.w)
        # The entries after the newest one we had; all of them if it is gone (a new session).
        n = len(log)
        k = next((i for i in range(n - 1, -1, -1) if log[i] is self._newest), -1)
        added = list(log)[k + 1 :]
        if k < 0 and self._newest is not None:
            self.offset = self.unseen = 0
        elif self.offset:
            self.offset += sum(len(self._wrap(e)) for e in added)
            self.unseen += len(added)
        self._newest = newest
        keep = set(log)
        self._wrapped = {e: w for e, w in self._wrapped.items() if e in keep}
        self.lines = [(t, LOG_COLORS.get(e.kind, INK)) for e in log for t in self._wrap(e)]
        self.scroll(0)

    def scroll(self, lines: int) -> None:
        """Move the view ``lines`` back (positive) or forward; the newest end follows again."""
        top = max(0, len(self.lines) - self.room)
        self.offset = max(0, min(top, self.offset + lines))
        if self.offset == 0:
            self.unseen = 0

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Wheel over ``area``, PageUp/PageDown, a click on the hint; True when used."""
        pos = getattr(event, "pos", None)
        if pos is not None:
            self.pointer = pos
        if event.type == pygame.MOUSEWHEEL:
            # pygame 2 also posts buttons 4/5 for the same notch; only the wheel is read.
            at = self.pointer if self.pointer is not None else pygame.mouse.get_pos()
            if self.area.collidepoint(at) and event.y:
                self.scroll(event.y * WHEEL_LINES)
                return True
            return False
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            page = max(1, self.room - 1)
            self.scroll(page if event.key == pygame.K_PAGEUP else -page)
            return True
        clicked = event.type == pygame.MOUSEBUTTONDOWN and event.button == 1
        if clicked and not self.following and self.hint_rect().collidepoint(event.pos):
            self.scroll(-self.offset)
            return True
        return False

    def visible(self) -> list[Line]:
        end = len(self.lines) - self.offset
        return self.lines[max(0, end - self.room) : end] if self.room else []

    def draw(self, surf: pygame.Surface) -> None:
        shown = self.visible()
        h = self.line_h
        y = self.rect.bottom - len(shown) * h
        for t, color in shown if self.following else shown[:-1]:
            surf.blit(text(t, self.size, color, bold=color is GOLD), (self.rect.x, y))
            y += h
        if self.following:
            return
        self._draw_scrollbar(surf)
        # The bar covers the bottom line rather than the middle of one; that line is
        # the next to come into view anyway.
        hint = self.hint_rect()
        pygame.draw.rect(surf, (30, 44, 40), hint.inflate(4, 2), border_radius=hint.h // 2)
        color = GOLD if self.unseen else INK
        pygame.draw.rect(surf, color, hint.inflate(4, 2), 1, border_radius=hint.h // 2)
        if self.unseen:
            words = ngettext("{n} new below", "{n} new below", self.unseen).format(n=self.unseen)
        else:
            words = _("back to newest")
        label = text(words, round(self.size * 0.9), color)
        # The bundled font has no arrow glyphs, so the arrow is drawn.
        a = max(3, round(self.size * 0.22))
        x = hint.centerx - (label.get_width() + 3 * a) // 2
        cy = hint.centery
        pygame.draw.polygon(surf, color, [(x, cy - a), (x + 2 * a, cy - a), (x + a, cy + a)])
        surf.blit(label, label.get_rect(midleft=(x + 3 * a, cy)))

    def _draw_scrollbar(self, surf: pygame.Surface) -> None:
        n, room = len(self.lines), self.room
        if n <= room or room <= 0:
            return
        r = self.rect
        track = pygame.Rect(r.right + max(2, self.size // 5), r.y, max(3, self.size // 6), r.h)
        pygame.draw.rect(surf, (40, 50, 50), track, border_radius=track.w // 2)
        thumb_h = max(track.w * 3, r.h * room // n)
        first = n - self.offset - room  # index of the top line shown
        y = r.y + (r.h - thumb_h) * first // max(1, n - room)
        thumb = pygame.Rect(track.x, y, track.w, thumb_h)
        pygame.draw.rect(surf, MUTED, thumb, border_radius=track.w // 2)
