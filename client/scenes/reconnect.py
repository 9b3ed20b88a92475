"""The banner over a lost table: "Lost the table — trying again… 1:47" and *Stop trying*
(or Esc: ``Host.stop_trying``), while the connection retries (``client.net``).  The words
and countdown are pure functions of the status and ``now``; the box moves only in
``layout``, clear of the rects it is told to avoid; while shown it takes every click on it."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from client.i18n import gettext as _
from client.net import Status
from client.render.text import fit, text
from client.render.widgets import Button, panel

__all__ = ["ReconnectBanner", "countdown", "shown", "wake_in", "words"]

INK = (30, 20, 0)
MIN_H = 40  # design pixels: the button's words stay readable
FILL = (250, 190, 80, 255)


def shown(status: Status) -> bool:
    return status.state == "retrying"


def countdown(status: Status, now: float) -> str:
    """What is left of the trying, ``m:ss`` (rounded up: it says 0:00 only at the end)."""
    if status.until is None:
        return ""
    left = max(0, math.ceil(status.until - now))
    return f"{left // 60}:{left % 60:02d}"


def words(status: Status, now: float) -> str:
    """The banner's line: why the table was lost and how long we keep trying."""
    why = status.message.strip()
    silent = _("no word from the server for {seconds} s").split("{")[0]  # (client.net's words)
    if silent and why.startswith(silent):
        head = _("The table went silent")
    elif not why or why == _("connection lost"):
        head = _("Lost the table")
    else:  # the server's own words (a bye: it is shutting down)
        head = why[:1].upper() + why[1:].rstrip(".")
    left = countdown(status, now)
    if left:
        # Translators: the banner while the game tries to reach a lost table; {left} is m:ss.
        return _("{why} — trying again… {left}").format(why=head, left=left)
    return _("{why} — trying again…").format(why=head)


def wake_in(status: Status, now: float) -> float | None:
    """Seconds until the countdown shows another second (the idle loop wakes then)."""
    if not shown(status) or status.until is None:
        return None
    return (status.until - now) % 1.0 + 0.01


class ReconnectBanner:
    """The banner's box and its *Stop trying* button, for one window size."""

    def __init__(self) -> None:
        self.stop = Button("stop_trying", _("Stop trying"), _("Esc"), style="danger")
        self.box = pygame.Rect(0, 0, 0, 0)
        self.font = 22

    def layout(self, area: pygame.Rect, scale: float, avoid: Sequence[pygame.Rect] = ()) -> None:
        """Place the banner at the top of ``area`` clear of every rect in ``avoid``: the first
        place down to ``area``'s middle that covers none of them, else the band above the
        highest of them, the banner made as low as it must be (never under ``MIN_H``)."""

        def px(v: float) -> int:
            return max(1, round(v * scale))

        blocks = list(avoid)
        w = min(area.w - px(16), px(640))
        h = px(50)
        box = pygame.Rect(0, 0, w, h)
        box.midtop = (area.centerx, area.top + px(6))
        if area.h <= 2 * h:  # a strip (the table's action bar): the banner fills it
            box = area.inflate(-px(16), -px(12))
            blocks = []
        for y in range(box.y, max(box.y, area.centery - h) + 1, px(4)):
            trial = box.move(0, y - box.y)
            if trial.inflate(0, px(4)).collidelist(blocks) < 0:
                box = trial
                break
        else:
            column = pygame.Rect(box.x, area.top, box.w, area.h)
            tops = [r.top for r in blocks if r.colliderect(column)]
            if tops:
                box.top = area.top + px(3)
                box.h = max(px(MIN_H), min(h, min(tops) - px(3) - box.top))
        self.box = box
        h = box.h
        self.font = max(13, min(round(24 * scale), round(h * 0.5)))
        bw, bh = px(150), h - max(4, round(h * 0.22))
        self.stop.rect = pygame.Rect(box.right - bw - px(8), box.centery - bh // 2, bw, bh)
        self.stop.size = max(12, min(round(20 * scale), round(bh * 0.55)))

    def handle_event(self, event: pygame.event.Event, status: Status) -> str | None:
        """``"stop"`` when the player asks to stop trying (a click on the button, or Esc),
        ``"taken"`` for any other click on the banner, else None (not ours)."""
        if not shown(status):
            return None
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return "stop"
        if self.stop.handle_event(event):
            return "stop"
        pos = getattr(event, "pos", None)
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and pos is not None:
            return "taken" if self.box.collidepoint(pos) else None
        return None

    def draw(self, surf: pygame.Surface, status: Status, now: float) -> None:
        if not shown(status):
            return
        box = self.box
        radius = max(4, box.h // 5)
        panel(surf, box, FILL, radius)
        room = self.stop.rect.x - box.x - box.h // 3 - 8
        line = fit(words(status, now), self.font, room, bold=True)
        img = text(line, self.font, INK, bold=True)
        surf.blit(img, img.get_rect(midleft=(box.x + box.h // 3, box.centery)))
        self.stop.draw(surf)
