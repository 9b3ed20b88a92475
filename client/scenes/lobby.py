"""Before a match: who has joined, the host's choices and Start.

The host sees, large, the address friends type and the table's key; each computer seat's
level is a button (``level``).  A guest sees the table and its key in the header, to
compare with the host's screen.  Each person's row has a padlock, open (in a warning
colour) on a plain link; every lobby says whether plain links are taken (``options``
``plain``).  At the computer table neither the key nor that choice is shown.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pygame

from client.address import joinable
from client.asking import ask_once_welcomed
from client.host import Host
from client.i18n import N_, ngettext, pgettext
from client.i18n import gettext as _
from client.levels import level_name
from client.render.layout import BASE_H, BASE_W
from client.render.lock import LOCK_PLAIN, LOCK_SEALED, draw_lock, lock_width
from client.render.text import blit_text, fit, fit_sizes, font, text, wrap
from client.render.widgets import GOLD, INK, MUTED, Button, TextInput, panel, version_mark
from client.scenes.base import Scene
from client.scenes.hostchoices import (
    PLAIN_LABEL,
    HostChoices,
    choice_words,
    odds_words,
    options_words,
)
from client.scenes.reconnect import ReconnectBanner
from common.levels import LEVEL_IDS
from common.protocol import MAX_CHAT, Chat, FreeSeat, MakeHost, SetLevel, Sit, Start, TableOptions
from common.protocol.server_messages import Lobby, ServerMessage, Welcome

PLAIN_COST = N_(
    "Plain connections allowed: their password, cards and token can be read on the network"
)
KEY_NOTE = N_("friends check that their screen shows the same")

__all__ = ["LobbyScene", "SeatRow", "lobby_words"]

WAITING = (250, 170, 90)
"""The colour of the words that say the table waits for the host's disk."""
GAME_KINDS = ("action", "street", "win")  # a hand's own log lines
LEVEL_CHIP = ((52, 66, 78), GOLD, 2)  # fill, edge, its width: the host clicks to change it
QUIET_CHIP = ((40, 52, 62), (92, 108, 120), 1)  # "make host": there, not a call to action


def lobby_words(log: Iterable[Any]) -> list[str]:
    """What the lobby's chat strip shows of the log: the chat, and the notices since the
    last match's play (who came back, who hosts now), never the hands' own lines: a
    match's "shows" and "uncalled goes back" are notices in the table's log, not here."""
    lines = list(log)
    played = max((i for i, line in enumerate(lines) if line.kind in GAME_KINDS), default=-1)
    return [line.text for i, line in enumerate(lines)
            if line.kind == "chat" or (line.kind == "info" and i > played)]  # fmt: skip


Words = tuple[str, float, tuple[int, int, int], bool]  # the words, base size, colour, bold
Placed = tuple[str, int, tuple[int, int, int], bool, pygame.Rect]  # fitted and placed


def _stack(
    items: list[Words], area: pygame.Rect, s: float, *, width: int, centre: bool, gap: int = 0,
    **fit: float,
) -> list[Placed]:  # fmt: skip
    """``items`` one under another, as large as fits ``width`` and ``area``'s height, the
    block midway down ``area``: each line centred across it, or at its left."""
    words = [(t, base, b) for t, base, _c, b in items]
    sizes, dims = fit_sizes(words, (width, area.h), s, gap=gap, **fit)  # type: ignore[arg-type]
    y = area.top + max(0, (area.h - sum(h for _w, h in dims) - gap * (len(items) - 1)) // 2)
    out = []
    for (t, _x, c, b), size, (tw, th) in zip(items, sizes, dims, strict=True):
        x = area.centerx - tw // 2 if centre else area.x
        out.append((t, size, c, b, pygame.Rect(x, y, tw, th)))
        y += th + gap
    return out


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One row of the lobby's seat list, laid out: the name as fitted and where it goes,
    the mark on the right, a computer seat's level and its chip."""

    who: str
    rect: pygame.Rect
    mark: str
    level: str
    chip: pygame.Rect | None
    giving: bool  # the host's Give seat button sits on this row
    lock: pygame.Rect | None = None  # a person's padlock, left of the name
    sealed: bool = False  # closed (sealed) or open (plain)


class LobbyScene(Scene):
    """``resize`` places everything so that nothing overlaps at any size (the header's
    words shrink to fit); the seat rows again whenever the lobby changes."""

    name = "lobby"

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.start = Button("start", _("Start the match"), "S", style="primary")
        self.leave = Button("leave", pgettext("button", "Leave"), style="danger")
        self.rules = Button("rules", _("Rules"), "F1")
        self.chat = TextInput("chat", placeholder=_("Enter to chat"), max_len=MAX_CHAT)
        self.choices = HostChoices(host.settings)  # the host's: hands, clock, stand-in...
        self.size = (BASE_W, BASE_H)
        self.addresses: list[str] = []
        self.boxes: dict[str, pygame.Rect] = {}
        self.sit = Button("sit", _("Take a seat"), style="primary")
        self.give: list[Button] = []  # the host's "give seat" per computer seat
        self.level_chips: list[tuple[int, pygame.Rect]] = []  # the host's click targets
        self.host_chips: list[tuple[int, pygame.Rect]] = []  # "make host" on people's rows
        self.seat_rows: list[SeatRow] = []
        self.lost = ReconnectBanner()  # the link is lost: the countdown and Stop trying

    def cycle_level(self, seat: int) -> bool:
        """Host only: move computer seat ``seat`` to the next level, weakest after strongest."""
        s = self.host.session
        if s is None or not s.host:
            return False
        p = next((p for p in s.lobby.seats if p.seat == seat and p.kind == "computer"), None)
        if p is None:
            return False
        i = LEVEL_IDS.index(p.level) if p.level in LEVEL_IDS else 0
        return self.host.send(SetLevel(seat, LEVEL_IDS[(i + 1) % len(LEVEL_IDS)]).encode())

    def enter(self) -> None:
        self.addresses = []
        if self.host.server_kind == "host" and self.host.server is not None:
            try:
                self.addresses = self.host.server.join_addresses()
            except Exception:  # the interface table could not be read
                self.addresses = ["127.0.0.1"]
        if self.host.session is not None:
            self.choices.follow(self.host.session)

    def on_message(self, msg: ServerMessage) -> None:
        if isinstance(msg, Lobby) and self.host.session is not None:
            self.choices.follow(self.host.session)
        if isinstance(msg, Welcome):  # a watcher come to ask for a lost seat back asks now
            ask_once_welcomed(self.host.session, self.host.send)
        self._layout_seats()
        self._layout_lost()

    def odds_allowed(self) -> bool:
        """The computer table always allows them; a friends' table as its host chose."""
        s = self.host.session
        return not self.sealing() or (s is not None and s.lobby.odds_allowed)

    def sealing(self) -> bool:
        """Whether the table's key and the plain connections' choice are shown: not at the
        computer table, our own server on this computer."""
        return self.host.server_kind != "computer"

    def key_words(self) -> str:
        """The table's short key as this client met it (TLS), or ""."""
        key = self.host.table_key if self.sealing() else None
        return key.short if key is not None else ""

    def buttons(self) -> list[Button]:
        return [self.start, self.leave, self.rules, *self.night_buttons()]

    def night_buttons(self) -> list[Button]:
        """A spectator's "Take a seat" when one is free; the host's "give seat" buttons."""
        s = self.host.session
        if s is None:
            return []
        out = []
        if s.watch and s.seat is None and len(s.lobby.seats) < 7:
            out.append(self.sit)
        if s.host and not s.running:
            out += self.give
        return out

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.scale_to(size)
        self.boxes = {"seats": self.rect(140, 262, 580, 300), "side": self.rect(760, 262, 380, 64)}
        self.start.rect = self.rect(760, 578, 380, 60)
        self.choices.sealing = self.sealing()
        self.choices.layout(self.boxes["side"], self.start.rect, self.s)
        self.leave.rect = self.rect(140, 578, 200, 60)
        self.rules.rect = self.rect(356, 578, 170, 60)
        self.chat.rect = self.rect(140, 730, 1000, 46)
        for w in (self.start, self.leave, self.rules, self.chat):
            w.size = self.font(28)
        self.sit.rect = self.start.rect.copy()
        self.sit.size = self.font(26)
        self._layout_seats()
        self._layout_lost()

    def _layout_lost(self) -> None:
        """The lost-table banner: above the seats, left of the night's scoreboard, clear of
        the header's words if it can be."""
        area, board = self.rect(140, 0, 1000, 262), self.night_rect()
        if board is not None:
            area.w = board.x - self.px(12) - area.x
        self.lost.layout(area, self.s, [r[4] for r in self.header()])

    def _layout_seats(self) -> None:
        """The seat list's rows, each computer seat's level chip (a click target for the
        host, to change its level) and its Give seat button: laid out again whenever the
        lobby changes, so they follow their seat when someone joins above it."""
        s = self.host.session
        had = {b.id: b for b in self.give}  # kept, so a hovered button stays hovered
        self.seat_rows, self.level_chips, self.host_chips, self.give = [], [], [], []
        if s is None or "seats" not in self.boxes:
            return
        f = self.font
        box = self.boxes["seats"]
        y = box.y + f(60)
        lh = max(10, round(font(f(28)).get_height() * 0.9))
        lock_room = lock_width(lh) + f(10)
        hosting = s.host and not s.running  # between matches: the host's chips and buttons
        for p in s.lobby.seats:
            who = _("{name} (you)").format(name=p.name) if p.seat == s.seat else p.name
            # Translators: the marks beside a name in the lobby: a computer seat, the host,
            # someone who plays from the next match on.
            mark = _("computer") if p.kind == "computer" else (_("host") if p.host else "")
            if p.next:
                mark = _("next match")
            giving = hosting and p.kind == "computer"
            name_w = box.w - f(310 if giving else 260) - lock_room
            who = fit(who, f(28), name_w)
            row = text(who, f(28), INK).get_rect(topleft=(box.x + f(24) + lock_room, y))
            lock = None
            if p.kind == "human" and p.sealed is not None and p.connected:
                lock = pygame.Rect(0, 0, lock_width(lh), lh)
                lock.midleft = (box.x + f(24), row.centery)
            level = level_name(p.level) if p.level in LEVEL_IDS else p.level_name
            chip = None
            if p.kind == "computer":
                b = had.get(f"give:{p.seat}") or Button(f"give:{p.seat}", _("Give seat"))
                b.size = f(18, 12)
                b.rect = pygame.Rect(box.right - f(270), y - self.px(2), f(130), f(30))
                self.give.append(b)
            if p.kind == "computer" and level:
                chip = pygame.Rect(0, 0, f(120), f(30))
                chip.midright = (box.right - f(20), row.centery)
                if s.host:
                    self.level_chips.append((p.seat, chip))
            elif hosting and p.kind == "human" and p.seat != s.seat and p.connected:
                # the host hands its role on with one click
                level = _("make host")
                chip = pygame.Rect(0, 0, f(120), f(30))
                chip.midright = (box.right - f(20), row.centery)
                self.host_chips.append((p.seat, chip))
            seat_row = SeatRow(who, row, mark, level, chip, giving, lock, bool(p.sealed))
            self.seat_rows.append(seat_row)
            y += f(34)

    def night_rect(self) -> pygame.Rect | None:
        """The night's scoreboard, top right, once a match has been played."""
        s = self.host.session
        night = s.lobby.night if s is not None else None
        return self.rect(760, 24, 380, 226) if night is not None and night.played else None

    def header(self) -> list[Placed]:
        """The words above the seats: (text, size, colour, bold, rect), fitted between the
        window's top and the seats panel and within its width."""
        s = self.host.session
        w, _h = self.size
        items: list[Words] = []
        server = self.host.server
        at = self.host.address
        name = s.lobby.table if s is not None else ""
        if self.host.server_kind == "host" and server is not None:
            only_here = all(a in ("127.0.0.1", "::1") for a in self.addresses)
            lone = getattr(server, "every_interface", False) and only_here
            title = _("Friends join at")
            if lone:
                title = _("No network found: only this computer can join, at")
            items.append((title, 30, INK, False))
            for a in self.addresses[:2]:
                items.append((joinable(a, server.port), 76, GOLD, True))
            announced = getattr(getattr(server, "server", None), "announcer", None) is not None
            if name and announced:
                pick = _("or pick “{table}” under Join a table").format(table=name)
                items.append((pick, 26, MUTED, False))
            pw = self.host.password  # the host sits down with the table's own password
            if pw:
                items.append((_("Password: {password}").format(password=pw), 30, INK, False))
            if s is not None and s.lobby.plain_open:  # the host allowed them: what it costs
                items.append((_(PLAIN_COST), 22, LOCK_PLAIN, False))
        elif at is not None:
            where = joinable(*at)
            title = f"{name}  ·  {where}" if name else _("Table at {address}").format(address=where)
            items.append((title, 44, GOLD, True))
            if self.key_words():  # the host reads it out; it is the same on every screen
                key = _("Table key {key}").format(key=self.key_words())
                items.append((key, 30, INK, True))
            if s is not None and self.sealing() and s.lobby.plain_open:
                items.append((_(PLAIN_COST), 22, LOCK_PLAIN, False))
            elif s is not None and self.sealing():
                plain = choice_words()["refused" if s.lobby.plain_refused else "allowed"]
                line = _("{label}: {choice}").format(label=_(PLAIN_LABEL), choice=plain)
                items.append((line, 22, MUTED, False))
        if s is not None and s.lobby.open_books:  # the host's open-the-books option, for all
            if s.lobby.books_to_watchers:
                books = _("Open books: after the match everyone seated and watching may replay"
                          " every hand, hole cards and all.")  # fmt: skip
            else:
                books = _("Open books: after the match everyone seated may replay every hand,"
                          " hole cards and all.")  # fmt: skip
            items.append((books, 24, GOLD, False))
        if s is not None and s.clocks.waiting:  # the host cannot save: nothing starts or moves
            items.insert(0, (s.clocks.waiting, 30, WAITING, True))
        if s is None or not items:
            return []
        top = round(self.oy + 20 * self.s)
        bottom = self.boxes["seats"].top - max(6, self.px(14))
        left, right = 0, w
        board = self.night_rect()
        if board is not None:  # the night so far is top right: the words keep left of it
            left, right = self.rect(20, 0, 0, 0).x, board.x - self.px(20)
        area = pygame.Rect(left, top, right - left, bottom - top)
        width = area.w - max(16, self.px(40))
        return _stack(items, area, self.s, width=width, gap=self.px(6), centre=True)

    def handle_event(self, event: pygame.event.Event) -> None:
        if lost := self.lost.handle_event(event, self.host.status):
            if lost == "stop":
                self.host.stop_trying()
            return
        s = self.host.session
        if self.chat.handle_event(event):
            return
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                if self.chat.focused and self.chat.value.strip():
                    self.host.send(Chat(self.chat.value.strip()[:MAX_CHAT]).encode())
                    self.chat.value = ""
                self.chat.focused = not self.chat.focused and not self.chat.value
                return
            if event.key == pygame.K_s and not self.chat.focused:
                self.press_start()
            return
        hosting = s is not None and s.host
        said = self.choices.handle_event(event, self.host.settings) if hosting else None
        if said:
            self.host.send(said)
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for seat, rect in self.level_chips:
                if rect.collidepoint(event.pos):
                    self.cycle_level(seat)
                    return
            for seat, rect in self.host_chips:
                if rect.collidepoint(event.pos):
                    self.host.send(MakeHost(seat).encode())
                    return
        for b in self.night_buttons():
            if b.handle_event(event):
                if b is self.sit:
                    self.host.send(Sit().encode())
                else:
                    self.host.send(FreeSeat(int(b.id.split(":")[1])).encode())
                return
        if self.start.handle_event(event):
            self.press_start()
        elif self.leave.handle_event(event):
            self.host.ask_leave()
        elif self.rules.handle_event(event):
            self.host.show_rules()

    def press_start(self) -> bool:
        s = self.host.session
        if s is None or not s.host or not (s.lobby.said and s.lobby.said.can_start):
            return False
        return self.host.send(Start(int(self.choices.hands.value)).encode())  # type: ignore[call-overload]

    def update(self, dt: float) -> None:
        s = self.host.session
        if s is not None:
            self.start.enabled = bool(s.host and s.lobby.said and s.lobby.said.can_start)
            self._layout_seats()

    def side_lines(self) -> list[str]:
        s = self.host.session
        if s is None:
            return []
        if s.watch:
            note = _("You are watching.")
        elif s.host:
            note = _("You are the host: set the table and start when everyone is in.")
        else:
            host = next((p.name for p in s.lobby.seats if p.host), None)
            if host is None:
                note = _("Waiting for the host to start the match…")
            else:
                note = _("Waiting for {name} to start the match…").format(name=host)
        if s.watch and self.sit in self.night_buttons():
            note += " " + _("A seat is free:")
        lines = wrap(note, self.font(26), self.boxes["side"].w)
        if not s.host and s.lobby.said is not None:
            n = s.lobby.said.hands
            lines += ["", ngettext("A match of {n} hand.", "A match of {n} hands.", n).format(n=n)]
            opts = s.lobby.said.options or TableOptions()
            words = options_words(opts.turn_time, opts.time_bank, opts.stand_in)
            lines += wrap(words, self.font(26), self.boxes["side"].w)
        if not s.host:  # the host's own row says it (a box at a friends' table)
            lines += wrap(odds_words(self.odds_allowed()), self.font(26), self.boxes["side"].w)
        return lines

    def key_block(self) -> list[Placed]:
        """The table's key, large, for the host who runs the table (friends compare it with
        their screens): under Start, above the chat box, right of the chat lines."""
        key = self.key_words()
        if not key or self.host.server_kind != "host" or "seats" not in self.boxes:
            return []
        top = max(self.leave.rect.bottom, self.start.rect.bottom) + self.px(6)
        bottom = self.chat.rect.y - self.px(6)
        area = pygame.Rect(self.start.rect.x, top, self.start.rect.w, max(0, bottom - top))
        lines: list[Words] = [(_("Table key"), 20, MUTED, False), (key, 44, GOLD, True),
                              (_(KEY_NOTE), 19, MUTED, False)]  # fmt: skip
        return _stack(lines, area, self.s, width=area.w, centre=False, shrink=0.94, tries=40)

    def chat_lines(self) -> list[tuple[str, pygame.Rect]]:
        s = self.host.session
        if s is None:
            return []
        f = self.font
        room = self.chat.rect.y - f(6) - max(self.leave.rect.bottom, self.start.rect.bottom)
        n = max(0, min(3, room // f(26)))  # as many as fit above the chat box
        chats = lobby_words(s.log.lines)[-n:] if n else []
        out = []
        yy = self.chat.rect.y - f(6) - len(chats) * f(26)
        width = self.chat.rect.w
        if self.key_block():  # the host's table key is under Start: the chat keeps left
            width = self.start.rect.x - f(16) - self.chat.rect.x
        for c in chats:
            t = fit(c, f(22), width)
            tw, th = font(f(22)).size(t)
            out.append((t, pygame.Rect(self.chat.rect.x, yy, tw, th)))
            yy += f(26)
        return out

    def draw(self, surf: pygame.Surface) -> None:
        surf.fill((14, 40, 30))
        s = self.host.session
        f = self.font
        if s is None:
            return
        for t, size, color, bold, rect in self.header():
            blit_text(surf, t, size, rect.topleft, color, bold=bold, shadow=bold)
        board = self.night_rect()
        if board is not None and s.lobby.night is not None:  # the night so far, top right
            from client.render.nightboard import draw_night

            draw_night(surf, board, s.lobby.night, me=s.name, size=f(24))
        box = self.boxes["seats"]
        panel(surf, box, (8, 22, 18, 210), f(14))
        at_table = _("At the table ({seated} of {seats})").format(
            seated=len(s.lobby.seats), seats=7
        )
        blit_text(surf, at_table, f(28), (box.x + f(20), box.y + f(16)), INK, bold=True)
        for r in self.seat_rows:
            row = blit_text(surf, r.who, f(28), r.rect.topleft, INK)
            if r.lock is not None:
                color = LOCK_SEALED if r.sealed else LOCK_PLAIN
                draw_lock(surf, r.lock, closed=r.sealed, color=color)
            quiet = any(rect is r.chip for _seat, rect in self.host_chips)
            if r.chip is not None and (quiet or s.host):
                fill, edge, width = QUIET_CHIP if quiet else LEVEL_CHIP
                pygame.draw.rect(surf, fill, r.chip, border_radius=f(8))
                pygame.draw.rect(surf, edge, r.chip, width, border_radius=f(8))
            if r.chip is not None:
                size, ink = (f(20), MUTED) if quiet else (f(22), INK)
                blit_text(surf, r.level, size, r.chip.center, ink, bold=not quiet, anchor="center")
            at = (r.chip.x - f(10) if r.chip is not None else box.right - f(20), row.centery)
            if r.mark and (r.chip is None or not r.giving):  # (else the Give seat button is there)
                blit_text(surf, r.mark, f(22), at, MUTED, anchor="midright")
        if self.level_chips:
            hint = _("click a level to change it")
            at = (box.right - f(20), box.y + f(16) + f(14))
            blit_text(surf, hint, f(20), at, MUTED, anchor="midright")
        side = self.boxes["side"]
        yy = side.y
        for line in self.side_lines():
            blit_text(surf, line, f(26), (side.x, yy), INK)
            yy += f(30)
        for b in self.night_buttons():
            b.draw(surf)
        if s.host:
            self.choices.draw(surf, self.s)
            self.start.draw(surf)
        self.leave.draw(surf)
        self.rules.draw(surf)
        for t, size, color, bold, rect in self.key_block():
            blit_text(surf, t, size, rect.topleft, color, bold=bold, shadow=bold)
        for t, rect in self.chat_lines():
            blit_text(surf, t, f(22), rect.topleft, (170, 210, 250))
        self.chat.draw(surf)
        version_mark(surf, f(18, 12))
        self.lost.draw(surf, self.host.status, self.host.now())
