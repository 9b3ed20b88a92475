"""The cards-seen panel: a 52-card grid of every card this seat has seen this hand (ours in
gold, the others dead, the live outs of our draws outlined in green) and our best draws
under it, all from the table view (``common.seen``): never a card the view did not hold."""

from __future__ import annotations

from typing import Any

import pygame

from client.i18n import gettext as _
from client.i18n import ngettext
from client.render.cards import FOUR, TWO, draw_suit
from client.render.text import blit_text, fit, wrap
from client.render.widgets import GOLD, INK, MUTED, panel
from client.tablewords import draw_words
from common.schema import SeatView
from common.seen import RANKS, cards_seen, draws, viewer_cards

__all__ = ["SeenPanel"]

GRID_RANKS = RANKS[::-1]  # A K Q ... 2
GRID_SUITS = "shdc"
ROWS = 4  # the rows of words under the grid
PANEL = (20, 32, 30)  # the panel's near-black green
# The rows' suit signs sit on the panel, not on a card's white: the deck's colours
# lightened until they read there (black spades are white, as on a dark table).
ROW_LABEL_FOUR = {"s": (230, 230, 226), "h": (235, 90, 90), "d": (100, 160, 255),
                  "c": (80, 200, 110)}  # fmt: skip
ROW_LABEL_TWO = {"s": (230, 230, 226), "h": (235, 90, 90), "d": (235, 90, 90),
                 "c": (230, 230, 226)}  # fmt: skip


DEAD = (128, 134, 130)
OUT = (90, 210, 120)


class SeenPanel:
    """Computes the panel's contents from a view; ``draw`` draws them into a rect."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.mine: list[str] = []
        self.lines: list[str] = []
        self.outs: set[str] = set()
        self.made: set[str] = set()  # the lines of draws made, drawn in gold
        self._view: SeatView | None = None
        self._picture: tuple[tuple[Any, ...], pygame.Surface] | None = None

    def update(self, view: SeatView | None) -> None:
        if view is self._view and view is not None:
            return  # views are immutable: the same one says the same
        self._view = view
        if view is None:
            self.seen, self.mine, self.lines, self.outs, self.made = set(), [], [], set(), set()
            return
        self.seen = cards_seen(view)
        self.mine = viewer_cards(view)
        me = view.seats.get(view.you) if view.you is not None else None
        self.outs, self.made = set(), set()
        if view.you is None or me is None:
            self.lines = [_("Watching: up cards and shown hands only")]
            return
        to_come = 0 if me.folded or view.over else max(0, 7 - len(self.mine))
        found = draws(self.mine, self.seen, to_come)
        self.lines = [draw_words(d) for d in found]
        self.made = {draw_words(d) for d in found if d.made}
        self.outs = {c for d in found if d.need for c in d.wanted}
        if not self.lines:
            none = _("Folded") if me.folded else _("No flush, straight or trips draw")
            self.lines = [_("The hand is over") if view.over else none]
        dead = len(self.seen) - len(self.mine)
        if self.outs:
            # Translators: the panel's first line; live outs are drawn in green.
            seen = ngettext("{n} other card seen, green: live outs",
                            "{n} other cards seen, green: live outs", dead)  # fmt: skip
        else:
            seen = ngettext("{n} other card seen", "{n} other cards seen", dead)
        self.lines.insert(0, seen.format(n=dead))

    @staticmethod
    def height(s: float) -> int:
        return round((28 + 4 * 24 + 10 + 4 * 21 + 8) * s)

    def draw(self, surf: pygame.Surface, rect: pygame.Rect, s: float, *, four: bool) -> None:
        """Blit the panel; its picture is drawn again only when what it shows changes
        (52 cells of text each frame would cost a quarter of the table's frame)."""
        key = (rect.size, s, four, frozenset(self.seen), tuple(self.mine),
               frozenset(self.outs), tuple(self.lines))  # fmt: skip
        if self._picture is None or self._picture[0] != key:
            picture = pygame.Surface(rect.size, pygame.SRCALPHA)
            self._paint(picture, picture.get_rect(), s, four=four)
            self._picture = (key, picture)
        surf.blit(self._picture[1], rect.topleft)

    def _paint(self, surf: pygame.Surface, rect: pygame.Rect, s: float, *, four: bool) -> None:
        def px(v: float) -> int:
            return max(1, round(v * s))

        panel(surf, rect, (*PANEL, 235), px(10))
        pygame.draw.rect(surf, (70, 96, 88), rect, 1, border_radius=px(10))
        at = (rect.x + px(10), rect.y + px(14))
        blit_text(surf, _("Cards seen this hand"), max(12, px(20)), at, GOLD, bold=True,
                  anchor="midleft")  # fmt: skip
        colors = FOUR if four else TWO
        top = rect.y + px(28)
        label_w = px(18)
        cw = (rect.w - px(14) - label_w) / 13
        ch = px(24)
        mine = set(self.mine)
        for row, suit in enumerate(GRID_SUITS):
            y = top + row * ch
            suit_col = (ROW_LABEL_FOUR if four else ROW_LABEL_TWO)[suit]
            draw_suit(surf, suit, rect.x + px(7) + label_w / 2, y + ch / 2, px(14), suit_col)
            for col, rank in enumerate(GRID_RANKS):
                code = rank + suit
                x = round(rect.x + px(7) + label_w + col * cw)
                cell = pygame.Rect(x, y + 1, round(cw) - 2, ch - 2)
                label = "10" if rank == "T" else rank
                if code in mine:
                    pygame.draw.rect(surf, (250, 240, 205), cell, border_radius=px(4))
                    pygame.draw.rect(surf, GOLD, cell, 2, border_radius=px(4))
                    color = colors[suit]
                elif code in self.seen:
                    pygame.draw.rect(surf, DEAD, cell, border_radius=px(4))
                    color = (40, 40, 44)
                else:
                    pygame.draw.rect(surf, (34, 48, 46), cell, border_radius=px(4))
                    color = (92, 110, 106)
                    if code in self.outs:
                        pygame.draw.rect(surf, OUT, cell, 2, border_radius=px(4))
                        color = (190, 235, 200)
                blit_text(surf, label, max(11, px(17)), cell.center, color, bold=True,
                          anchor="center")  # fmt: skip
        y = top + 4 * ch + px(8)
        size = max(12, px(18))
        for words, color in self.rows(size, rect.w - px(20)):
            blit_text(surf, words, size, (rect.x + px(10), y), color)
            y += px(21)

    def rows(self, size: int, width: int) -> list[tuple[str, tuple[int, int, int]]]:
        """The lines under the grid as drawn, ``ROWS`` at most: a line too long for one
        row goes on in the next while there is room for the lines after it (a longer
        language says the same in more words); else it is cut."""
        lines = self.lines[:ROWS]
        out: list[tuple[str, tuple[int, int, int]]] = []
        for i, line in enumerate(lines):
            color = MUTED if i == 0 and len(self.lines) > 1 else INK
            color = GOLD if line in self.made else color
            parts = wrap(line, size, width)
            if len(out) + len(parts) + len(lines) - i - 1 > ROWS:
                parts = [line]
            out += [(fit(part, size, width), color) for part in parts]
        return out[:ROWS]
