"""The side panel's rows for away and back (R-C2) and the host's controls (R-C3): pause, and
taking a person's seat away for the match (a second press confirms)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from client.i18n import gettext as _
from client.keys import key_of
from client.lobbystate import Player
from client.model import Session
from client.render.layout import TableLayout
from client.render.widgets import Button, button_width
from common.protocol import Away, Back, Pause, Resume, TakeSeat

__all__ = ["Controls", "Send", "hosting", "seated"]


Send = Callable[[dict[str, Any]], bool]  # the host's way to the server


def seated(s: Session | None) -> bool:
    """Playing a seat in the match under way (not watching, not only in the lobby)."""
    return bool(s is not None and s.seat is not None and not s.watch and s.running)


def hosting(s: Session | None) -> bool:
    return bool(seated(s) and s is not None and s.host)


def _takeable(s: Session | None) -> list[Player]:
    """People's seats the host may take away: not its own, not taken already."""
    if s is None:
        return []
    return [p for seat, p in sorted(s.players.items())
            if p.kind == "human" and seat != s.seat and p.away_why != "taken"]  # fmt: skip


class Controls:
    def __init__(self) -> None:
        self.away = Button("away", _("Step away"), key_of("table", "away"), size=22)
        # "I'm back" is drawn in the bar
        self.back = Button("back", _("I'm back"), key_of("table", "away"), style="primary")
        self.pause = Button("pause", _("Pause"), key_of("table", "pause"), size=22)
        self.take = Button("take", _("Take a seat…"), size=22)
        self.taking = False  # the host is choosing a seat to take away
        self.confirm: int | None = None  # the seat a second press takes away
        self.take_buttons: list[Button] = []
        # At the computer table (we are its only person) only what means something
        # there: Pause, for a break (nobody else waits, but the deal does), and "I'm
        # back" should our seat be away (a turn clock that ran out).  No Step away
        # (Pause is the way to leave the game waiting), no Take a seat… (there is no
        # person's seat to take); the panel shows no chat line either.
        self.solo = False

    def layout(self, lay: TableLayout, y: int, s: Session | None) -> int:
        """Place the panel's away and host rows from ``y`` down; returns where they end."""
        p = lay.panel
        x, w = p.x + lay.px(12), p.w - lay.px(24)
        self.away.rect = pygame.Rect(x, y, w, lay.px(38))
        self.away.label = _("I'm back") if s is not None and s.away() else _("Step away")
        self.away.style = "primary" if s is not None and s.away() else "normal"
        self.away.size = self.pause.size = self.take.size = lay.font(22)
        if seated(s) and self._offers_away(s):
            y += lay.px(46)
        if hosting(s):
            self.pause.label = _("Resume") if s is not None and s.clocks.paused else _("Pause")
            # Pause as wide as its words need (half the row at most): Take gets the rest.
            half = min((w - lay.px(8)) // 2, button_width(self.pause))
            self.pause.rect = pygame.Rect(x, y, w if self.solo else half, lay.px(38))
            self.take.rect = pygame.Rect(x + half + lay.px(8), y, w - half - lay.px(8), lay.px(38))
            self.pause.style = "primary" if s is not None and s.clocks.paused else "normal"
            y += lay.px(46)
            old = {b.id: b for b in self.take_buttons}
            self.take_buttons = []
            if self.taking and not self.solo:
                for player in [*_takeable(s), None]:
                    if player is None:
                        b = Button("take:cancel", _("Cancel"), size=lay.font(20))
                    elif self.confirm == player.seat:
                        ask = _("Take {name}'s seat?").format(name=player.name)
                        b = Button(f"take:{player.seat}", ask, style="danger", size=lay.font(20))
                    else:
                        b = Button(f"take:{player.seat}", player.name, size=lay.font(20))
                    if b.id in old:
                        b.hover = old[b.id].hover
                    b.rect = pygame.Rect(x, y, w, lay.px(34))
                    self.take_buttons.append(b)
                    y += lay.px(40)
        else:
            self.taking, self.confirm, self.take_buttons = False, None, []
        back_w = lay.px(200)
        back_x = lay.bar.right - back_w - lay.px(24)
        self.back.rect = pygame.Rect(back_x, lay.bar.centery - lay.px(27), back_w, lay.px(54))
        self.back.size = lay.font(26)
        return y + lay.px(4)

    def buttons(self, s: Session | None) -> list[Button]:
        """The away and host buttons on offer now (the bar's "I'm back" among them)."""
        out: list[Button] = []
        if seated(s) and s is not None and not s.sits_out():  # not for a late arrival
            me = s.me()
            if (me is None or me.away_why != "taken") and self._offers_away(s):
                out.append(self.away)
                if s.away():
                    out.append(self.back)
        if hosting(s):
            out += [self.pause] if self.solo else [self.pause, self.take, *self.take_buttons]
        return out

    def _offers_away(self, s: Session | None) -> bool:
        """Step away is for a friends' table; at the computer table only "I'm back"."""
        return not self.solo or (s is not None and s.away())

    def press(self, what: str, s: Session, send: Send) -> bool:
        """Press one of the buttons: True when a message went to the server.  The caller
        lays the rows out again (they follow the choice)."""
        sent = False
        me = s.me()
        if what in ("away", "back"):
            if seated(s) and (me is None or me.away_why != "taken") and self._offers_away(s):
                sent = send((Back() if s.away() else Away()).encode())
        elif what == "pause" and hosting(s):
            sent = send((Resume() if s.clocks.paused else Pause()).encode())
        elif self.solo and what.startswith("take"):
            pass
        elif what == "take" and hosting(s):
            self.taking, self.confirm = not self.taking, None
        elif what == "take:cancel":
            self.taking, self.confirm = False, None
        elif what.startswith("take:") and hosting(s):
            seat = int(what.split(":", 1)[1])
            if self.confirm != seat:
                self.confirm = seat
            else:
                sent = send(TakeSeat(seat).encode())
                self.taking, self.confirm = False, None
        return sent

    def draw(self, surf: pygame.Surface, s: Session | None) -> None:
        for b in self.buttons(s):
            if b is not self.back:  # (drawn in the bar)
                b.draw(surf)
