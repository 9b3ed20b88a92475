"""The tables found on the network as a clickable, scrolling list (with a lock where the
table announces its key and "your seat ›" where we keep one), and the password box a click
may open over the start screen."""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from client.discovery import FoundTable
from client.i18n import gettext as _
from client.i18n import pgettext
from client.render.lock import LOCK_SEALED, draw_lock, lock_width
from client.render.text import blit_text, fit, fit_lines, font, line_height
from client.render.widgets import GOLD, INK, MUTED, Button, TextInput, panel

__all__ = ["PasswordPrompt", "TableList"]

GREEN = (120, 210, 140)
ORANGE = (250, 170, 90)


@dataclass
class TableList:
    id: str
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 10, 10))
    tables: list[FoundTable] = field(default_factory=list)
    empty: str = ""  # said when no table is found (the start screen sets it)
    row_h: int = 50
    size: int = 22
    scroll: int = 0
    hover: int | None = None
    kept: frozenset[str] = frozenset()
    """The tables (``FoundTable.key``) where a click takes our own seat back (R-C1)."""

    def visible(self) -> int:
        return max(1, self.rect.h // max(1, self.row_h))

    def show(self, tables: list[FoundTable], kept: frozenset[str] = frozenset()) -> None:
        """The tables found now, ``kept`` those holding our seat; the scroll stays within
        them (here, not in ``draw``)."""
        self.tables = tables
        self.kept = kept
        self.clamp()

    def clamp(self) -> None:
        self.scroll = max(0, min(self.scroll, len(self.tables) - self.visible()))

    def rows(self) -> list[tuple[FoundTable, pygame.Rect]]:
        """The rows on screen now, with their rects (``draw`` reads them: changes nothing)."""
        shown = self.tables[self.scroll : self.scroll + self.visible()]
        r, h = self.rect, self.row_h
        return [(t, pygame.Rect(r.x, r.y + i * h, r.w, h - 4)) for i, t in enumerate(shown)]

    def handle_event(self, event: pygame.event.Event) -> FoundTable | None:
        """The table clicked, if this event clicked one."""
        if event.type == pygame.MOUSEMOTION:
            rows = self.rows()
            hit = [i for i, (_t, r) in enumerate(rows) if r.collidepoint(event.pos)]
            self.hover = hit[0] if hit else None
        elif event.type == pygame.MOUSEWHEEL:
            if self.rect.collidepoint(pygame.mouse.get_pos()):
                self.scroll -= event.y
                self.clamp()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return next((t for t, r in self.rows() if r.collidepoint(event.pos)), None)
        return None

    def draw(self, surf: pygame.Surface) -> None:
        r = self.rect
        panel(surf, r.inflate(8, 8), (0, 0, 0, 90), 10)
        rows = self.rows()
        if not rows:
            blit_text(surf, fit(self.empty, self.size, r.w - 16), self.size, r.center, MUTED,
                      anchor="center")  # fmt: skip
            return
        small = max(12, round(self.size * 0.8))
        for i, (t, row) in enumerate(rows):
            hover = i == self.hover and t.compatible
            base = (40, 76, 60) if hover else (26, 52, 42)
            pygame.draw.rect(surf, base, row, border_radius=8)
            pygame.draw.rect(surf, GOLD if hover else (70, 110, 90), row, 2, border_radius=8)
            pad = max(6, row.h // 6)
            # Translators: what a click on a table found does: it runs another version of the
            # game; takes your own seat back; watches (full); a seat from the next match on.
            if not t.compatible:
                action, color = _("other version"), MUTED
            elif t.key in self.kept:  # full or not: the click sits us back down
                action, color = _("your seat ›"), GOLD
            elif t.free == 0:
                action, color = _("full: watch"), ORANGE
            elif t.running:
                action, color = _("next match ›"), GREEN
            else:
                action, color = _("Join ›"), GOLD
            at = (row.right - pad, row.y + pad)
            act = blit_text(surf, action, small, at, color, bold=True, anchor="topright")
            x = row.x + pad
            if t.short_key:  # the table announces its key: the join checks it
                lh = max(9, round(self.size * 0.72))
                draw_lock(surf, pygame.Rect(x, row.y + pad, lh, lh), closed=True, color=LOCK_SEALED)
                x += lock_width(lh) + max(3, pad // 2)
            name = fit(t.name, self.size, act.left - x - 2 * pad, bold=True)
            ink = INK if t.compatible else MUTED
            blit_text(surf, name, self.size, (x, row.y + pad - 2), ink, bold=True)
            summary = t.summary() + (" · " + _("password") if t.password else "")
            at = (row.x + pad, row.bottom - pad + 2)
            below = act.bottom <= at[1] - font(small).size("Ag")[1]  # else it stops at the action
            facts = fit(summary, small, (row.right if below else act.left) - pad - at[0])
            blit_text(surf, facts, small, at, MUTED, anchor="bottomleft")
        if len(self.tables) > len(rows):
            more = _("{first}–{last} of {count} (wheel)").format(
                first=self.scroll + 1, last=self.scroll + len(rows), count=len(self.tables)
            )
            blit_text(surf, more, small, (r.right, r.bottom + 4), MUTED, anchor="topright")


class PasswordPrompt:
    """A box over the start screen: one table's password, Join or Cancel."""

    def __init__(self, table: FoundTable) -> None:
        self.table = table
        self.input = TextInput("prompt_password", "", _("password"), max_len=40, secret=True)
        self.input.focused = True
        join = pgettext("button", "Join")
        self.join = Button("prompt_join", join, _("Enter"), style="primary")
        self.cancel = Button("prompt_cancel", _("Cancel"), _("Esc"))
        self.box = pygame.Rect(0, 0, 10, 10)
        self.size = 26
        self.error = ""  # the table refused the last password: said in the box

    def layout(self, screen: pygame.Rect, s: float) -> None:
        self.box = pygame.Rect(0, 0, round(520 * s), round(290 * s))
        self.box.center = screen.center
        b = self.box
        self.size = max(14, round(26 * s))
        self.input.rect = pygame.Rect(b.x + round(30 * s), b.y + round(96 * s), b.w - round(60 * s),
                                      round(46 * s))  # fmt: skip
        bw, bh = round(200 * s), round(52 * s)
        self.join.rect = pygame.Rect(b.x + round(30 * s), b.bottom - bh - round(24 * s), bw, bh)
        self.cancel.rect = pygame.Rect(b.right - round(30 * s) - bw, self.join.rect.y, bw, bh)
        for w in (self.input, self.join, self.cancel):
            w.size = self.size

    def handle_event(self, event: pygame.event.Event) -> str | None:
        """``"join"`` or ``"cancel"`` when chosen; every event is the prompt's while it is up."""
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                return "join"
            if event.key == pygame.K_ESCAPE:
                return "cancel"
        if self.join.handle_event(event):
            return "join"
        if self.cancel.handle_event(event):
            return "cancel"
        if event.type == pygame.MOUSEBUTTONDOWN and not self.box.collidepoint(event.pos):
            return "cancel"
        self.input.handle_event(event)
        self.input.focused = True
        return None

    def error_box(self) -> pygame.Rect:
        """Where the refusal of the last password is said: between the box and the buttons."""
        gap = max(2, self.size // 5)
        top = self.input.rect.bottom + gap
        return pygame.Rect(self.input.rect.x, top, self.input.rect.w, self.join.rect.y - gap - top)

    def error_lines(self) -> tuple[list[str], int]:
        """The refusal in lines that fit ``error_box``, and their size."""
        if not self.error:
            return [], 0
        words = self.error[:1].upper() + self.error[1:]
        return fit_lines(words, max(12, round(self.size * 0.8)), self.error_box().size)

    def draw(self, surf: pygame.Surface) -> None:
        shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 140))
        surf.blit(shade, (0, 0))
        b = self.box
        panel(surf, b, (10, 24, 20, 245), 16)
        pygame.draw.rect(surf, GOLD, b, 3, border_radius=16)
        title = _("{table} needs a password").format(table=self.table.name)
        title = fit(title, self.size, b.w - 40, bold=True)
        at = (b.centerx, b.y + round(self.size * 1.5))
        blit_text(surf, title, self.size, at, GOLD, bold=True, anchor="center")
        at = (b.centerx, b.y + round(self.size * 2.7))
        blit_text(surf, self.table.address, round(self.size * 0.8), at, MUTED, anchor="center")
        self.input.draw(surf)
        lines, size = self.error_lines()
        box = self.error_box()
        top = box.centery - len(lines) * line_height(size) // 2
        for i, line in enumerate(lines):
            at = (box.centerx, top + i * line_height(size))
            blit_text(surf, line, size, at, (235, 110, 100), anchor="midtop")
        self.join.draw(surf)
        self.cancel.draw(surf)
