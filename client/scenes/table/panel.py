"""The table's side panel: settings, rules, leaving, the replayer, the cards seen, the coach,
the odds, the log and the chat line; the scene decides what a click does."""

from __future__ import annotations

import pygame

from client.i18n import gettext as _
from client.keys import key_of
from client.model import Session
from client.render.layout import TableLayout
from client.render.logview import LogView
from client.render.seenpanel import SeenPanel
from client.render.volume import VolumeControl
from client.render.widgets import Button, Checkbox, TextInput, button_width
from client.scenes.table.asks import AskRows
from client.scenes.table.coachbox import CoachBox
from client.scenes.table.controls import Controls, hosting
from client.scenes.table.oddsbox import OddsBox
from client.settings import Settings
from common.protocol import MAX_CHAT
from common.schema import LegalAction

__all__ = ["SidePanel"]


class SidePanel:
    def __init__(self, settings: Settings) -> None:
        self.chat = TextInput("chat", placeholder=_("Enter to chat"), max_len=MAX_CHAT, size=22)
        self.leave = Button("leave", _("Leave"), size=22, style="danger")
        self.four = Checkbox("four", _("4 colours"), value=settings.four_color, size=20)
        self.rules = Button("rules", _("Rules"), size=20)  # the house rules (also F1)
        self.log = LogView()
        self.volume = VolumeControl(value=settings.volume, muted=not settings.sound)
        # The cards-seen panel and the way to the replayer (client.render.seenpanel).
        self.seen = SeenPanel()
        seen = _("Cards seen ({key})").format(key=key_of("table", "seen"))
        self.seen_box = Checkbox("seen", seen, value=settings.seen_panel, size=20)
        self.replay = Button(
            "replay", _("Replay ({key})").format(key=key_of("table", "replay")), size=20
        )
        self.seen_rect = pygame.Rect(0, 0, 0, 0)
        self.controls = Controls()  # away and back (R-C2), the host's (R-C3)
        self.asks = AskRows()  # a seat asked back, the host's role handed on
        self.coach = CoachBox(settings.coach)  # the coach's lines (client.coach)
        self.coach_on = settings.coach
        self.odds = OddsBox(settings.odds)  # odds on request, under the cards seen
        self.bar_buttons: list[Button] = []  # the action bar's, for ``focus`` (the scene's)

    @property
    def solo(self) -> bool:
        """At the computer table: no chat line, and the controls of ``Controls.solo``."""
        return self.controls.solo

    @solo.setter
    def solo(self, value: bool) -> None:
        self.controls.solo = value
        if value:
            self.chat.focused = False

    def layout(self, lay: TableLayout, s: Session | None, *, seen_shown: bool) -> None:
        """From the top: the deck and rules row, cards seen and replay, the volume, the away
        and host rows, the asks, the coach, the cards-seen panel and the odds, the log, and
        the chat line at the foot."""
        p, px = lay.panel, lay.px
        for w in (self.four, self.rules, self.seen_box, self.replay):
            w.size = lay.font(20)
        self.leave.size = self.chat.size = lay.font(22)
        # Buttons as wide as their words need (up to their old width); the boxes beside
        # them take the rest of the row, so a longer language keeps its labels whole.
        leave_w = min(px(92), button_width(self.leave))
        self.leave.rect = pygame.Rect(p.right - px(12) - leave_w, p.y + px(12), leave_w, px(38))
        self.rules.rect = pygame.Rect(0, 0, min(px(68), button_width(self.rules)), px(38))
        self.rules.rect.topright = (self.leave.rect.x - px(8), self.leave.rect.y)
        self.four.rect = pygame.Rect(p.x + px(14), p.y + px(16), px(170), px(30))
        self.four.rect.w = min(self.four.rect.w, self.rules.rect.x - px(6) - self.four.rect.x)
        replay_w = min(px(118), button_width(self.replay))
        self.replay.rect = pygame.Rect(p.right - px(12) - replay_w, p.y + px(56), replay_w, px(34))
        self.seen_box.rect = pygame.Rect(p.x + px(14), p.y + px(58), px(150), px(30))
        self.seen_box.rect.w = self.replay.rect.x - px(6) - self.seen_box.rect.x
        self.volume.rect = pygame.Rect(p.x + px(14), p.y + px(98), p.w - px(28), px(26))
        self.chat.rect = pygame.Rect(p.x + px(12), p.bottom - px(54), p.w - px(24), px(42))
        top = self.controls.layout(lay, p.y + px(134), s)
        top = self.asks.layout(lay, top, s, hosting=hosting(s))
        top = self.coach.layout(lay, top, on=self.coach_on)
        self.seen_rect = pygame.Rect(p.x + px(10), top, p.w - px(20), SeenPanel.height(lay.s))
        if seen_shown:
            top = self.seen_rect.bottom + px(12)
        # No chat line at the computer table (nobody to read it): the log takes its place.
        bottom = self.chat.rect.bottom if self.solo else self.chat.rect.top
        self.log.rect = pygame.Rect(p.x + px(14), top, p.w - px(28), bottom - px(10) - top)
        self.odds.layout_box(lay, self.coach.box.rect)
        log = self.log.rect
        h = min(self.odds.height(lay), max(0, log.h))  # a small window: as much as fits
        self.odds.rect = pygame.Rect(self.seen_rect.x, log.top, self.seen_rect.w, h)
        if h:  # the readout under the cards seen: the log takes what is left
            top = min(log.bottom, log.top + h + lay.px(10))
            self.log.rect = pygame.Rect(log.x, top, log.w, log.bottom - top)
        self.log.area = lay.panel
        self.log.size = lay.font(21)
        self.sync_log(s)

    def focus(self, s: Session | None) -> LegalAction | None:
        """The action button under the pointer, for the coach's line on what it does."""
        hovered = next((b.id for b in self.bar_buttons if b.hover), None)
        if s is None or hovered is None:
            return None
        return next((a for a in s.actions() if a.action == hovered), None)

    def sync_log(self, s: Session | None) -> None:
        self.log.sync(s.log.lines if s is not None else ())

    def follow(self, settings: Settings) -> None:
        """Show the settings as they are now (they may change elsewhere: the start
        screen, ``Host.set_four_color``)."""
        self.four.value = settings.four_color
        if not self.volume.dragging:
            self.volume.value = settings.volume
            self.volume.muted = not settings.sound

    def draw(
        self, surf: pygame.Surface, lay: TableLayout, s: Session | None, settings: Settings
    ) -> None:
        p = lay.panel
        self.four.draw(surf)
        self.rules.draw(surf)
        self.leave.draw(surf)
        self.volume.draw(surf)
        self.seen_box.draw(surf)
        self.replay.draw(surf)
        self.controls.draw(surf, s)
        self.asks.draw(surf, lay, s)
        self.coach.draw(surf, self.coach.lines(s, self.focus(s)) if self.coach_on else [])
        if settings.seen_panel:
            self.seen.draw(surf, self.seen_rect, lay.s, four=settings.four_color)
        self.odds.draw(surf, s)
        top = self.log.rect.top
        y = top - lay.px(6)
        pygame.draw.line(surf, (60, 70, 70), (p.x + lay.px(10), y), (p.right - lay.px(10), y))
        self.log.draw(surf)
        if not self.solo:
            self.chat.draw(surf)
