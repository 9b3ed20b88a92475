"""Odds on request in the side panel: its box (``Odds (W)``) and the readout under the
cards seen, from our seat's view alone (``common.odds``), or why there is none (the host
decides at a friends' table).  The equity is worked a slice a frame (``work``, at most
``BUDGET`` of the injected clock) while the scene animates."""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Callable

import pygame

from client.i18n import N_
from client.i18n import gettext as _
from client.keys import key_of
from client.model import Session
from client.render.layout import TableLayout
from client.render.text import blit_text, fit, wrap
from client.render.widgets import GOLD, INK, Checkbox, panel
from client.tablewords import odds_line, price_line, verdict_line
from common.odds import OddsJob, Spot, pot_odds, spot_of

__all__ = ["BUDGET", "OddsBox"]

BUDGET = 0.012
"""Seconds of work a frame at most, whatever is left of it (a 60 fps frame is 16.7 ms)."""
ROWS = 4
"""The readout's rows: its title and three lines."""
TITLE = N_("Your chances, from the cards you have seen")


def seed_of(spot: Spot) -> int:
    """The job's seed, from the spot itself: the same spot always shows the same figure."""
    rivals = [" ".join(map(str, r)) + "," for r in spot.rivals]
    words = " ".join([*map(str, spot.mine), "|", *rivals, "|", *map(str, spot.dead)])
    return zlib.crc32(words.encode())


class OddsBox:
    def __init__(self, on: bool, clock: Callable[[], float] = time.perf_counter) -> None:
        self.box = Checkbox(
            "odds", _("Odds ({key})").format(key=key_of("table", "odds")), value=on, size=20
        )
        self.on = on
        self.clock = clock
        self.budget = BUDGET
        self.rect = pygame.Rect(0, 0, 0, 0)  # the readout; empty while off
        self.size = 16
        self.allowed = False
        self.spot: Spot | None = None
        self.job: OddsJob | None = None
        self.frame_work: list[float] = []  # each slice's seconds (scripts/bench_odds.py)

    def follow(self, s: Session | None, *, allowed: bool) -> None:
        """Start a job when what our seat knows changes; none while off or not allowed."""
        self.allowed = allowed
        view = s.view if s is not None else None
        spot = spot_of(view) if view is not None and self.on and allowed else None
        if spot == self.spot:
            return
        self.spot = spot
        self.job = OddsJob(spot, random.Random(seed_of(spot))) if spot is not None else None

    def running(self) -> bool:
        return self.job is not None and not self.job.done

    def work(self, seconds: float) -> bool:
        """One frame's slice of the job, about ``seconds`` (at most ``budget``); True if
        any work was done."""
        job = self.job
        if job is None or job.done:
            return False
        now = self.clock()
        job.step(min(seconds, self.budget), self.clock)
        self.frame_work.append(self.clock() - now)
        return True

    def lines(self, s: Session | None) -> list[str]:
        """The readout's lines (three at most), as drawn."""
        view = s.view if s is not None else None
        if s is not None and s.seat is None:
            return [_("Watching: odds are for the seats")]
        if not self.allowed:
            return [_("The host has the odds off")]
        if view is None:
            return [_("Your odds when the cards are dealt")]
        me = view.seats.get(view.you) if view.you is not None else None
        if me is not None and me.folded:
            return [_("You folded: no odds this hand")]
        if view.over or self.spot is None:
            return [_("The hand is over")]
        job = self.job
        result = job.result if job is not None and job.done else None
        if result is None:
            first = _("Working out your chances…")
        else:
            first = odds_line(result, len(self.spot.rivals))
        price = pot_odds(view)
        if price is None:
            return [first]
        verdict = [verdict_line(price, result)] if result is not None else []
        return [first, price_line(price), *verdict]

    def layout_box(self, lay: TableLayout, beside: pygame.Rect) -> None:
        """The box, right of the coach's on the same row."""
        p = lay.panel
        x = beside.right + lay.px(8)
        self.box.rect = pygame.Rect(x, beside.y, p.right - lay.px(10) - x, beside.h)
        self.box.size = lay.font(20)
        self.box.value = self.on

    def height(self, lay: TableLayout) -> int:
        """The readout's height while on, else 0."""
        self.size = lay.font(18)
        return ROWS * round(self.size * 1.2) + lay.px(12) if self.on else 0

    def room(self) -> int:
        """The text rows the readout's box holds as it is laid out."""
        pad = max(4, self.rect.w // 40)
        return max(0, (self.rect.h - pad // 2 - 2 - pad // 2) // round(self.size * 1.2))

    def rows(self, s: Session | None) -> list[tuple[str, tuple[int, int, int], bool]]:
        """The readout's rows as drawn: the title, then each line wrapped to the box, a
        line too long for one row going on in the next.  Where the rows run short (a
        small window) the title gives way first; then a line is cut to one row, so the
        lines after it keep theirs."""
        room = self.room()
        width = self.rect.w - 2 * max(4, self.rect.w // 40)
        lines = self.lines(s)[: ROWS - 1]
        wrapped = [wrap(line, self.size, width) for line in lines]
        body = [part for parts in wrapped for part in parts]
        title = [(_(TITLE), GOLD, True)] if len(body) < room else []
        if len(body) > room:
            body = []
            for i, (line, parts) in enumerate(zip(lines, wrapped, strict=True)):
                left = room - len(body) - (len(lines) - i - 1)
                body += parts if len(parts) <= left else [line]
        rows = title + [(fit(part, self.size, width), INK, False) for part in body]
        return rows[:room]

    def draw(self, surf: pygame.Surface, s: Session | None) -> None:
        self.box.draw(surf)
        if self.rect.h <= 0:
            return
        r = self.rect
        panel(surf, r, (20, 32, 30, 235), 8)
        pygame.draw.rect(surf, (70, 96, 88), r, 1, border_radius=8)
        pad = max(4, r.w // 40)
        step = round(self.size * 1.2)
        x, y, width = r.x + pad, r.y + pad // 2 + 2, r.w - 2 * pad
        for words, color, bold in self.rows(s):
            blit_text(surf, fit(words, self.size, width, bold=bold), self.size, (x, y), color,
                      bold=bold)  # fmt: skip
            y += step
