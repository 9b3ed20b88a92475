"""The coach's box (``Coach (I)``) and its lines (``client.coach``) in the side panel, where
no card or plate is drawn; a click on a line opens the rules at its rule id."""

from __future__ import annotations

import pygame

from client.coach import CoachLine, coach_lines
from client.i18n import gettext as _
from client.keys import key_of
from client.model import Session
from client.render.layout import TableLayout
from client.render.text import blit_text, fit, font, wrap
from client.render.widgets import GOLD, INK, Checkbox, panel
from common.schema import LegalAction

__all__ = ["ROWS", "CoachBox", "Row"]

ROWS = 6
"""Text rows the box keeps room for: two lines, wrapped."""

Row = tuple[str, str, pygame.Rect, int]
"""(the rule id, the row's words, where they go, which line they belong to)."""


class CoachBox:
    def __init__(self, on: bool) -> None:
        self.box = Checkbox(
            "coach", _("Coach ({key})").format(key=key_of("table", "coach")), value=on, size=20
        )
        self.rect = pygame.Rect(0, 0, 0, 0)  # the lines' box; empty when the coach is off
        self.size = 16

    def layout(self, lay: TableLayout, top: int, *, on: bool) -> int:
        """The box from ``top``; returns where what follows starts."""
        p = lay.panel
        self.size = lay.font(18)
        self.box.value = on
        self.box.size = lay.font(20)
        h = lay.px(28)  # the box as wide as its words (the odds' box takes the rest)
        need = font(self.box.size).size(self.box.label)[0] + h + lay.px(12)
        self.box.rect = pygame.Rect(p.x + lay.px(14), top, min(lay.px(150), need), h)
        top = self.box.rect.bottom + lay.px(6)
        if not on:
            self.rect = pygame.Rect(p.x + lay.px(10), top, p.w - lay.px(20), 0)
            return top
        step = round(self.size * 1.2)
        h = ROWS * step + lay.px(12)
        self.rect = pygame.Rect(p.x + lay.px(10), top, p.w - lay.px(20), h)
        return self.rect.bottom + lay.px(10)

    @staticmethod
    def lines(s: Session | None, focus: LegalAction | None = None) -> list[CoachLine]:
        if s is None or s.view is None:
            return []
        return coach_lines(s.view, s.hand_events, s.name_of, legal=s.actions(), focus=focus)

    def rows(self, lines: list[CoachLine]) -> list[Row]:
        """Where each line's words go: the rule id first, wrapped to the box, at most
        ``ROWS`` rows (the last line kept whole where it can be: it matters most)."""
        if self.rect.h <= 0:
            return []
        pad = max(4, self.rect.w // 40)
        width = self.rect.w - 2 * pad
        step = round(self.size * 1.2)
        wrapped = [wrap(f"{ln.rule}  {ln.text}", self.size, width) for ln in lines]
        while sum(map(len, wrapped)) > ROWS and len(wrapped) > 1:
            wrapped.pop(0)  # the older line gives way
        out: list[Row] = []
        y = self.rect.y + pad
        for i, parts in enumerate(wrapped):
            index = len(lines) - len(wrapped) + i
            for part in parts[:ROWS]:
                if len(out) == ROWS:
                    break
                r = pygame.Rect(self.rect.x + pad, y, width, step)
                out.append((lines[index].rule, fit(part, self.size, width), r, index))
                y += step
        return out

    def rule_at(self, pos: tuple[int, int], lines: list[CoachLine]) -> str | None:
        """The rule id of the line under ``pos``, if any."""
        return next((rule for rule, _, r, _ in self.rows(lines) if r.collidepoint(pos)), None)

    def draw(self, surf: pygame.Surface, lines: list[CoachLine]) -> list[pygame.Rect]:
        """The box and its lines; returns the rects drawn (the box's and every text's)."""
        self.box.draw(surf)
        if self.rect.h <= 0:
            return []
        panel(surf, self.rect, (14, 40, 32, 235), 8)
        pygame.draw.rect(surf, (120, 110, 70), self.rect, 1, border_radius=8)
        drawn = [self.rect.copy()]
        last = len(lines) - 1
        for rule, part, r, index in self.rows(lines):
            color = INK if index == last else (200, 205, 198)
            if part.startswith(rule):
                head = blit_text(surf, rule, self.size, r.topleft, GOLD, bold=True)
                rest = part[len(rule) :]
                drawn.append(head)
                drawn.append(blit_text(surf, rest, self.size, (head.right, r.y), color))
            else:
                drawn.append(blit_text(surf, part, self.size, r.topleft, color))
        return drawn
