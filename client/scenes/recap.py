"""The recap of a match (``common.recap``): every seat's chips hand by hand, the match's
moments, and our decisions worth a look (``client.analysing``); each a click (or its
number key) from the replayer at that hand or decision."""

from __future__ import annotations

import math
from typing import Any

import pygame

from client.analysing import analysis_for
from client.host import Host
from client.i18n import chips, ngettext, number
from client.i18n import gettext as _
from client.render.layout import BASE_H, BASE_W
from client.render.text import blit_text, fit
from client.render.widgets import GOLD, INK, MUTED, Button, panel
from client.scenes.base import Scene
from client.tablewords import mark_short, mark_title, moment_text, moment_title
from common.analysis import Mark
from common.recap import chip_lines, moments

__all__ = ["RecapScene"]

LINE_COLORS = [
    (236, 196, 92),
    (120, 200, 240),
    (240, 120, 110),
    (130, 220, 140),
    (200, 150, 240),
    (245, 160, 70),
    (230, 230, 225),
]


NICE = (1.0, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0)
MARK = (246, 146, 70)  # a decision worth a look (as the replayer marks it)


def chip_axis(values: list[int]) -> tuple[float, float, float]:
    """The chart's chip scale ``(low, high, tick)``: four to six round ticks that hold
    every value with a little margin (chips between 560 and 662 get 520 to 680, not
    400 to 700), never below zero."""
    if not values:
        return 0.0, 100.0, 25.0
    vlo, vhi = min(values), max(values)
    margin = max((vhi - vlo) * 0.05, 5.0)
    want_lo, want_hi = max(0.0, vlo - margin), vhi + margin
    raw = (want_hi - want_lo) / 4
    exp = 10.0 ** math.floor(math.log10(raw))
    for tick in [m * exp for m in NICE] + [10 * exp, 20 * exp]:
        lo = math.floor(want_lo / tick) * tick
        ticks = math.ceil((want_hi - lo) / tick)
        if ticks <= 6:
            return lo, lo + max(4, ticks) * tick, tick
    return want_lo, want_hi, (want_hi - want_lo) / 4


class RecapScene(Scene):
    name = "recap"
    least = 12

    def __init__(self, host: Host, records: list[dict[str, Any]], *, viewer: int | None) -> None:
        super().__init__(host)
        self.records = records
        self.viewer = viewer
        self.lines = chip_lines(records)
        self.moments = moments(records)
        self.chart = pygame.Rect(0, 0, 10, 10)
        shown = range(len(self.moments))
        self.moment_buttons = [Button(f"moment:{i}", _("Replay"), style="primary") for i in shown]
        self.close = Button("close", _("Close"), "Esc", style="danger")
        self.replay_all = Button("replay", _("Replay the hands"), "H")
        self.moment_rows: list[pygame.Rect] = []
        self.analysing = analysis_for(records, viewer, session=host.session)
        self.looks: list[Mark] = []  # the decisions worth a look, as the rows show them
        self.look_title = (0, 0)  # where "3 decisions worth a look" goes
        self.look_rows: list[pygame.Rect] = []
        self.size = (BASE_W, BASE_H)

    def update(self, dt: float) -> None:
        self.analysing.work()
        looks = self.analysing.worth_a_look()
        if looks != self.looks:  # the decisions are judged: their rows
            self.looks = looks
            self.resize(self.size)

    def animating(self) -> bool:
        return not self.analysing.done

    def buttons(self) -> list[Button]:
        return [*self.moment_buttons, self.replay_all, self.close]

    def resize(self, size: tuple[int, int]) -> None:
        self.size = w, h = size
        self.scale_to(size)
        px = self.px
        self.chart = pygame.Rect(px(70), px(100), w - px(70) - px(330), h - px(100) - px(210))
        self.moment_rows = []
        y = self.chart.bottom + px(56)
        for b in self.moment_buttons:
            row = pygame.Rect(px(40), y, self.chart.right - px(40), px(40))
            self.moment_rows.append(row)
            b.rect = pygame.Rect(row.right - px(120), row.y + px(2), px(120), px(36))
            b.size = self.font(20, 14)
            y += px(46)
        self.close.rect = pygame.Rect(w - px(290), h - px(70), px(250), px(50))
        self.replay_all.rect = pygame.Rect(w - px(290), h - px(132), px(250), px(50))
        for b in (self.close, self.replay_all):
            b.size = self.font(22, 14)
        # Under the legend of chips: the decisions worth a look, as many rows as fit.
        x = self.chart.right + px(40)
        legend_end = self.chart.y + px(36) + len(self.lines) * px(32)
        self.look_title = (x, legend_end + px(26))
        top = legend_end + px(48)
        self.look_rows = []
        # Two lines a row, never on each other: a row is their fonts, a gap and padding.
        row_h = 2 * px(6) + self.font(19) + self.font(17) + px(4)
        for k in range(len(self.looks)):
            row = pygame.Rect(x, top + k * (row_h + px(6)), w - px(40) - x, row_h)
            if row.bottom > self.replay_all.rect.top - px(10):
                break
            self.look_rows.append(row)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.choose("close")
            elif event.key == pygame.K_h:
                self.choose("replay")
            elif pygame.K_1 <= event.key <= pygame.K_9:
                k = event.key - pygame.K_1
                if k < len(self.look_rows):
                    self.choose(f"look:{k}")
            return
        for b in self.buttons():
            if b.handle_event(event):
                self.choose(b.id)
                return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for i, row in enumerate(self.look_rows):
                if row.collidepoint(event.pos):
                    self.choose(f"look:{i}")
                    return
            k = self.hand_at(event.pos)
            if k is not None:
                self.replay_hand(k)

    def hand_at(self, pos: tuple[int, int]) -> int | None:
        """The record index of the hand under ``pos`` on the chart, if any."""
        c = self.chart
        n = len(self.records)
        if not n or not c.inflate(0, 20).collidepoint(pos):
            return None
        step = c.w / n
        k = int((pos[0] - c.x) / step)
        return k if 0 <= k < n else None

    def choose(self, what: str) -> None:
        if what == "close":
            self.host.pop(self)
        elif what == "replay":
            below: list[Any] = self.host.opened("replayer")
            if below and below[-1].records is self.records:
                self.host.pop(self)  # back to the replayer under it, where it was
            else:
                self.replay_hand(len(self.records) - 1)  # the last hand first (README)
        elif what.startswith("moment:"):
            self.replay_hand(self._index_of(self.moments[int(what[7:])].hand))
        elif what.startswith("look:"):
            mark = self.looks[int(what[5:])]
            self.replay_hand(self._index_of(mark.hand), event=mark.event)

    def _index_of(self, hand: int) -> int:
        return next((i for i, r in enumerate(self.records) if int(r.get("hand", 0)) == hand), 0)

    def replay_hand(self, k: int, *, event: int | None = None) -> None:
        """The replayer at hand ``k`` (at the stop of its ``event``-th event if given)."""
        # One replayer at a time: a replayer under this recap goes to the hand asked for.
        below: list[Any] = self.host.opened("replayer")
        self.host.pop(self)
        if below and below[-1].records is self.records:
            if event is None:
                below[-1].goto(k, 0)
            else:
                below[-1].goto_event(k, event)
        else:
            self.host.open(
                "replayer", records=self.records, viewer=self.viewer, start=k, event=event
            )

    def draw(self, surf: pygame.Surface) -> None:
        px, f = self.px, self.font
        w, h = surf.get_size()
        surf.fill((14, 30, 26))
        title = blit_text(
            surf, _("Match recap"), f(40), (px(40), px(44)), GOLD, bold=True, anchor="midleft"
        )
        n = len(self.records)
        match = str(self.records[0].get("match", "")) if self.records else ""
        hands = ngettext("{n} hand  ·  {match}", "{n} hands  ·  {match}", n).format(
            n=n, match=match
        )
        at = (max(px(300), title.right + px(24)), px(48))  # a longer title pushes it on
        blit_text(surf, hands, f(22), at, MUTED, anchor="midleft")
        c = self.chart
        panel(surf, c.inflate(px(20), px(20)), (8, 20, 16, 230), px(10))
        # The chip scale: from a round number under the lowest stack to one over the highest.
        lo, hi, tick = chip_axis([v for line in self.lines for v in line.chips])
        span = max(1, hi - lo)
        for k in range(round((hi - lo) / tick) + 1):  # grid lines and chip labels
            y = c.bottom - round(c.h * k * tick / span)
            pygame.draw.line(surf, (40, 60, 54), (c.x, y), (c.right, y))
            label = number(lo + k * tick)
            blit_text(surf, label, f(17), (c.x - px(8), y), MUTED, anchor="midright")
        step = c.w / max(1, n)
        for k in range(n):  # each hand: its label under its point, the chips after it
            x = c.x + round(step * (k + 1))
            pygame.draw.line(surf, (30, 46, 42), (x, c.y), (x, c.bottom))
            label = str(self.records[k].get("hand", k + 1))
            at = (x, c.bottom + px(16))
            if k == 0:  # the first, longer label ends under its point, clear of the axis
                at = (x + px(4), at[1])
                words = _("hand {number}").format(number=label)
                blit_text(surf, words, f(19), at, MUTED, anchor="midright")
            else:
                blit_text(surf, label, f(19), at, MUTED, anchor="center")
        for i, line in enumerate(self.lines):
            color = LINE_COLORS[i % len(LINE_COLORS)]
            pts = [
                (c.x + round(step * k), c.bottom - round(c.h * (v - lo) / span))
                for k, v in enumerate(line.chips)
            ]
            if len(pts) > 1:
                pygame.draw.lines(surf, color, False, pts, px(4 if line.seat == self.viewer else 3))
            for pt in pts:
                pygame.draw.circle(surf, color, pt, px(4))
        # The legend: names and final chips, most first.
        ly = c.y
        lx = c.right + px(40)
        blit_text(surf, _("Chips"), f(24), (lx, ly), GOLD, bold=True)
        ly += px(36)
        order = sorted(range(len(self.lines)), key=lambda i: -self.lines[i].chips[-1])
        for i in order:
            line = self.lines[i]
            color = LINE_COLORS[i % len(LINE_COLORS)]
            pygame.draw.rect(surf, color, (lx, ly + px(4), px(18), px(18)), border_radius=px(4))
            name = (
                _("{name} (you)").format(name=line.name) if line.seat == self.viewer else line.name
            )
            blit_text(surf, fit(name, f(22), px(170)), f(22), (lx + px(28), ly), INK)
            blit_text(
                surf,
                chips(line.chips[-1]),
                f(22),
                (w - px(40), ly),
                color,
                bold=True,
                anchor="topright",
            )
            ly += px(32)
        # The moments, each with a click to replay its hand.
        blit_text(
            surf,
            _("Moments of the match"),
            f(26),
            (px(40), c.bottom + px(40)),
            GOLD,
            bold=True,
            anchor="midleft",
        )
        for m, row, b in zip(self.moments, self.moment_rows, self.moment_buttons, strict=True):
            blit_text(
                surf,
                moment_title(m),
                f(22),
                (row.x, row.centery),
                MUTED,
                bold=True,
                anchor="midleft",
            )
            text = fit(moment_text(m), f(22), b.rect.x - row.x - px(200))
            blit_text(surf, text, f(22), (row.x + px(180), row.centery), INK, anchor="midleft")
            b.draw(surf)
        if not self.moments:
            blit_text(
                surf, _("No hand was played to the end."), f(22), (px(40), c.bottom + px(80)), MUTED
            )
        self._draw_looks(surf)
        self.replay_all.draw(surf)
        self.close.draw(surf)

    def look_words(self) -> str:
        """The summary over the rows: ``"3 decisions worth a look"`` (the count as the
        analysis found it), or how far it has come."""
        return self.analysing.summary()

    def _draw_looks(self, surf: pygame.Surface) -> None:
        px, f = self.px, self.font
        x, y = self.look_title
        w = surf.get_width() - px(40) - x
        if self.analysing.held:  # mid-match: the analysis is for after it
            blit_text(
                surf,
                fit(self.analysing.knowledge(), f(19), w),
                f(19),
                (x, y),
                MUTED,
                anchor="midleft",
            )
            return
        if not self.analysing.judged():
            return
        blit_text(
            surf,
            fit(self.look_words(), f(22), w, bold=True),
            f(22),
            (x, y),
            GOLD,
            bold=True,
            anchor="midleft",
        )
        for i, (mark, row) in enumerate(zip(self.looks, self.look_rows, strict=False)):
            panel(surf, row, (8, 20, 16, 230), px(8))
            pygame.draw.rect(surf, MARK, row, 1, border_radius=px(8))
            key = pygame.Rect(0, 0, px(22), px(22))
            key.midleft = (row.x + px(8), row.y + px(6) + f(19) // 2)
            pygame.draw.rect(surf, GOLD, key, border_radius=px(5))
            blit_text(surf, str(i + 1), f(17), key.center, (20, 20, 20), bold=True, anchor="center")
            where = mark_title(mark)
            cost = blit_text(
                surf,
                _("cost {amount}").format(amount=chips(round(mark.cost))),
                f(17),
                (row.right - px(8), key.centery),
                MARK,
                bold=True,
                anchor="midright",
            )
            room = cost.x - px(8) - (key.right + px(8))
            blit_text(
                surf,
                fit(where, f(19), room, bold=True),
                f(19),
                (key.right + px(8), key.centery),
                INK,
                bold=True,
                anchor="midleft",
            )
            short, at = (
                fit(mark_short(mark), f(17), row.w - px(16)),
                (row.x + px(8), row.bottom - px(6)),
            )
            blit_text(surf, short, f(17), at, MUTED, anchor="bottomleft")
