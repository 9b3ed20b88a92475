"""The end of the match: standings over the table, then a rematch or the lobby."""

from __future__ import annotations

from typing import Any

import pygame

from client.host import Host
from client.i18n import chips, evening, listing, ngettext, pgettext
from client.i18n import gettext as _
from client.keys import SCENES, key_of
from client.render.layout import BASE_H, BASE_W
from client.render.nightboard import net_look
from client.render.text import blit_text, fit
from client.render.widgets import GOLD, INK, MUTED, Button, panel
from client.scenes.base import Scene

__all__ = ["ResultsScene"]


def books_note(s: Any) -> str:
    """The line under the standings when the host opens the books: they come, they are here,
    or (to a watcher without ``books_to_watchers``) they go to the match's players only."""
    v = s.view
    played = v is not None and v.you is not None and v.you in v.seats
    if not played and not s.lobby.books_to_watchers:
        return _("The books are open to the players seated at this match")
    books = s.book.opened()
    if books and len(books) >= s.book.books_expected:
        return ngettext(
            "The books are open: every hole card of the {n} hand",
            "The books are open: every hole card of all {n} hands",
            len(books),
        ).format(n=len(books))
    return _("The books are opening…")


class ResultsScene(Scene):
    name = "results"
    opaque = False  # the table stays visible behind the standings

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        again = _("Rematch")
        self.again = Button("rematch", again, key_of("results", "rematch"), style="primary")
        lobby_key = key_of("results", "lobby")
        self.lobby = Button("lobby", _("Back to the lobby"), lobby_key, style="primary")
        self.leave = Button("leave", pgettext("button", "Leave"), _("Esc"), style="danger")
        self.replay = Button("replay", _("Replay the hands"), key_of("results", "replay"))
        self.recap = Button("recap", _("Recap"), key_of("results", "recap"))
        self.box = pygame.Rect(0, 0, 10, 10)
        self._laid: tuple[int, bool, bool] | None = None  # what the box was sized for
        self.size = (BASE_W, BASE_H)

    def buttons(self) -> list[Button]:
        first = [self.again] if self.host.server_kind == "computer" else [self.again, self.lobby]
        return [*first, self.leave, self.replay, self.recap]  # friends may talk in the lobby

    def resize(self, size: tuple[int, int]) -> None:
        self.size = w, h = size
        self._laid = self._content()
        self.scale_to(size)
        px = self.px
        self.box = pygame.Rect(0, 0, px(720), self.box_height())
        self.box.center = (min(w // 2, round(w - 300 * self.s) // 2 + 10), h // 2)
        self.lobby.label = _("Lobby")
        bh, y = px(60), self.box.bottom - px(90)
        row = [b for b in self.buttons() if b not in (self.replay, self.recap)]
        gap = px(20)
        rw = (self.box.w - px(80) - gap * (len(row) - 1)) // len(row)
        for i, b in enumerate(row):
            b.rect = pygame.Rect(self.box.x + px(40) + i * (rw + gap), y, rw, bh)
            b.size = self.font(26)
        y = self.box.bottom - 2 * bh - px(46)
        self.replay.rect = pygame.Rect(self.box.x + px(40), y, px(290) + px(60), px(48))
        self.recap.rect = pygame.Rect(0, y, px(290) - px(60), px(48))
        self.recap.rect.right = self.box.right - px(40)
        for b in (self.replay, self.recap):
            b.size = self.font(22)

    def _content(self) -> tuple[int, bool, bool]:
        """(standings rows, the night's line, the books' line): what the box must hold."""
        s = self.host.session
        if s is None or s.standings is None:
            return 7, False, False
        night = s.lobby.night is not None and bool(s.lobby.night.played)
        return len(s.standings), night, bool(s.lobby.open_books)

    def box_height(self) -> int:
        """As tall as its words and buttons, no taller: the header, a row per seat, the
        night's and the books' lines when there are, the two rows of buttons."""
        f = self.font  # (as ``draw`` sizes them)
        rows, night, books = self._content()
        body = f(160) + f(34) + rows * f(36) + (f(34) if night else 0) + (f(36) if books else 0)
        return max(self.px(420), body + f(16) + 2 * self.px(60) + self.px(46))

    def update(self, dt: float) -> None:
        if self._laid != self._content():  # the standings came, or the books opened
            self._laid = self._content()
            self.resize(self.size)

    def handle_event(self, event: pygame.event.Event) -> None:
        for b in self.buttons():
            if b.handle_event(event):
                self.choose(b.id)
                return
        if event.type == pygame.KEYDOWN:
            name = pygame.key.name(event.key).upper()
            if name == "ESCAPE":
                self.choose("leave")
            elif name in SCENES["results"]:  # one key, one meaning (client.keys)
                self.choose(SCENES["results"][name])

    def choose(self, what: str) -> None:
        if what == "rematch":
            self.host.rematch()
        elif what == "lobby":
            self.host.back_to_lobby()
        elif what == "leave":
            self.host.ask_leave()
        elif what in ("replay", "recap"):
            s = self.host.session
            records = s.book.best() if s is not None else []
            if not records:
                return
            if what == "replay":  # this match's hands, the last one first (README)
                self.host.open("replayer", records=records, viewer=s.seat, start=len(records) - 1)
            else:
                self.host.open("recap", records=records, viewer=s.seat)

    def draw(self, surf: pygame.Surface) -> None:
        s = self.host.session
        if s is None or s.standings is None:
            return
        f = self.font
        shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 110))
        surf.blit(shade, (0, 0))
        box = self.box
        panel(surf, box, (10, 24, 20, 240), f(18))
        pygame.draw.rect(surf, GOLD, box, 3, border_radius=f(18))
        winners = [r.name for r in s.standings if r.winner]
        # Translators: the winner (or winners, sharing first place) of the match.
        title = ngettext("{names} wins", "{names} win", len(winners)).format(names=listing(winners))
        over = _("Match over")
        title = fit(title if winners else over, f(46), box.w - f(40), bold=True)
        blit_text(surf, over, f(28), (box.centerx, box.y + f(34)), MUTED, anchor="center")
        at = (box.centerx, box.y + f(80))
        blit_text(surf, title, f(46), at, GOLD, bold=True, anchor="center", shadow=True)
        at = (box.centerx, box.y + f(122))
        after = ngettext("after {n} hand", "after {n} hands", s.hands_played)
        blit_text(surf, after.format(n=s.hands_played), f(24), at, INK, anchor="center")
        y = box.y + f(160)
        night = s.lobby.night
        cols = (box.x + f(50), box.x + f(110), box.right - f(330), box.right - f(190),
                box.right - f(50))  # fmt: skip
        # Translators: the standings' column heads: place, player, chips at the end, this
        # match's chips won or lost, the night's chips won or lost so far.
        heads = (("#", cols[0], "topleft"), (_("Seat"), cols[1], "topleft"),
                 (_("Chips"), cols[2], "topright"), (_("Won / lost"), cols[3], "topright"),
                 (_("Tonight"), cols[4], "topright"))  # fmt: skip
        for label, x, anchor in heads:
            blit_text(surf, label, f(22), (x, y), MUTED, anchor=anchor)
        y += f(34)
        for r in s.standings:
            color = GOLD if r.winner else INK
            name = _("{name} (you)").format(name=r.name) if r.seat == s.seat else r.name
            name = fit(name, f(28), cols[2] - cols[1] - f(120))
            blit_text(surf, str(r.place), f(28), (cols[0], y), color, bold=True)
            blit_text(surf, name, f(28), (cols[1], y), color, bold=r.winner)
            blit_text(surf, chips(r.stack), f(28), (cols[2], y), color, anchor="topright")
            net, net_color = net_look(r.net)
            blit_text(surf, net, f(28), (cols[3], y), net_color, bold=True, anchor="topright")
            total = night.total_of(r.name) if night is not None else None
            if total is not None:
                net, net_color = net_look(total.net)
                blit_text(surf, net, f(28), (cols[4], y), net_color, anchor="topright")
            y += f(36)
        if night is not None and night.played:
            line = _("Match {number} of the night · {date}").format(
                number=night.played, date=evening(night.evening, night.label)
            )
            at = (box.centerx, y + f(6))
            blit_text(surf, fit(line, f(22), box.w - f(60)), f(22), at, MUTED, anchor="midtop")
        if s.lobby.open_books:
            at = (box.centerx, self.replay.rect.top - f(18))
            blit_text(surf, books_note(s), f(22), at, GOLD, anchor="center")
        for b in self.buttons():
            b.draw(surf)
