"""Before a match: connecting, and the lobby (who has joined, the host's Start button).

When we host, the lobby shows, large, the address and port friends must type,
and each computer seat's level as a button: a click moves that seat to the
next level (the ``level`` message), so every computer seat may differ.
"""

from __future__ import annotations

from typing import Any

import pygame

from client.render.layout import BASE_H, BASE_W
from client.render.text import blit_text, fit, wrap
from client.render.widgets import GOLD, INK, MUTED, Button, Checkbox, Choice, TextInput, panel
from client.scenes.base import Scene
from common.levels import LEVEL_IDS, level_info
from common.protocol import MAX_CHAT, Chat, FreeSeat, Options, SetLevel, Sit, Start

TURN_TIMES: list[object] = ["off", 15, 30, 60]
TIME_BANKS: list[object] = [0, 30, 90, 180]


def options_words(opts: dict[str, Any]) -> str:
    """The table's clock and stand-in in a line: ``"Turn clock 30 s + 90 s bank"``."""
    turn, bank = opts.get("turn_time"), opts.get("time_bank") or 0
    words = "No turn clock" if not turn else f"Turn clock {turn:g} s + {bank:g} s bank"
    if opts.get("stand_in"):
        words += " · a computer stands in for away seats"
    return words


__all__ = ["ConnectingScene", "LobbyScene"]


def _scale(size: tuple[int, int]) -> tuple[float, float, float]:
    w, h = size
    s = max(0.5, min(w / BASE_W, h / BASE_H))
    return s, (w - BASE_W * s) / 2, (h - BASE_H * s) / 2


class ConnectingScene(Scene):
    name = "connecting"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.cancel = Button("cancel", "Cancel", "Esc", style="danger")
        self.s = 1.0

    def buttons(self) -> list[Button]:
        return [self.cancel]

    def resize(self, size: tuple[int, int]) -> None:
        s, ox, oy = _scale(size)
        self.s = s
        self.cancel.rect = pygame.Rect(
            round(ox + 540 * s), round(oy + 470 * s), round(200 * s), round(56 * s)
        )
        self.cancel.size = max(14, round(26 * s))

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.cancel.handle_event(event) or (
            event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
        ):
            self.app.leave_table(notice="", send_leave=True)

    def draw(self, surf: pygame.Surface) -> None:
        surf.fill((14, 40, 30))
        w, h = surf.get_size()
        conn = self.app.conn
        where = f"{conn.host}:{conn.port}" if conn else ""
        st = self.app.status
        msg = "Connecting to " + where + "…"
        if st.state == "retrying":
            msg = f"Trying {where} again ({st.attempt})…"
        blit_text(
            surf,
            msg,
            max(14, round(40 * self.s)),
            (w // 2, h // 2 - round(60 * self.s)),
            INK,
            bold=True,
            anchor="center",
        )
        self.cancel.draw(surf)


class LobbyScene(Scene):
    name = "lobby"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.start = Button("start", "Start the match", "S", style="primary")
        self.leave = Button("leave", "Leave", style="danger")
        self.hands = Choice("hands", [4, 8, 12], app.settings.hands)
        self.chat = TextInput("chat", placeholder="Enter to chat", max_len=MAX_CHAT)
        # The host sets the turn clock, the time bank and the stand-in (R-C3, R-C4).
        st = app.settings
        self.turn_time = Choice("turn_time", list(TURN_TIMES), st.host_turn_time or "off")
        self.time_bank = Choice("time_bank", list(TIME_BANKS), st.host_time_bank)
        self.stand_in = Checkbox("stand_in", "A computer plays away seats", st.host_stand_in)
        self.s = 1.0
        self.ox = self.oy = 0.0
        self.addresses: list[str] = []
        self.sit = Button("sit", "Take a seat", style="primary")
        self.give: list[Button] = []  # the host's "give seat" per computer seat
        self.level_chips: list[tuple[int, pygame.Rect]] = []

    def cycle_level(self, seat: int) -> bool:
        """Host only: move computer seat ``seat`` to the next level, weakest after strongest."""
        s = self.app.session
        if s is None or not s.host:
            return False
        p = next((p for p in s.lobby_seats if p.seat == seat and p.kind == "computer"), None)
        if p is None:
            return False
        i = LEVEL_IDS.index(p.level) if p.level in LEVEL_IDS else 0
        return self.app.send(SetLevel(seat, LEVEL_IDS[(i + 1) % len(LEVEL_IDS)]).encode())

    def enter(self) -> None:
        self.addresses = []
        if self.app.server_kind == "host":
            try:
                from server.app import lan_addresses

                self.addresses = lan_addresses()
            except Exception:
                self.addresses = []
            if not self.addresses:
                self.addresses = ["127.0.0.1"]
        s = self.app.session
        if s is not None and s.lobby is not None:
            self.hands.value = s.lobby["hands"]
        self._sync_options()

    def _sync_options(self) -> None:
        """Show the table's options as the server last said them."""
        s = self.app.session
        if s is None or not s.options:
            return
        turn = s.options.get("turn_time")
        bank = s.options.get("time_bank") or 0
        for choice, value, base in ((self.turn_time, round(turn) if turn else "off", TURN_TIMES),
                                    (self.time_bank, round(bank), TIME_BANKS)):  # fmt: skip
            if value in base:
                choice.options = list(base)
            else:  # a value set elsewhere (--turn-time 45) joins the row in its place
                words = [o for o in base if not isinstance(o, int)]
                choice.options = words + sorted([o for o in base if isinstance(o, int)] + [value])
            choice.value = value
        self.stand_in.value = bool(s.options.get("stand_in"))

    def on_message(self, kind: str, msg: dict[str, Any]) -> None:
        if kind == "lobby":
            self._sync_options()

    def send_options(self) -> bool:
        """The host's choices to the server (it answers with a lobby that shows them)."""
        s = self.app.session
        if s is None or not s.host:
            return False
        turn = self.turn_time.value
        st = self.app.settings
        st.host_turn_time = int(turn) if isinstance(turn, int) else 0
        st.host_time_bank = int(self.time_bank.value)  # type: ignore[call-overload]
        st.host_stand_in = self.stand_in.value
        return self.app.send(
            Options(
                turn_time=float(st.host_turn_time),
                time_bank=float(st.host_time_bank),
                stand_in=st.host_stand_in,
            ).encode()
        )

    def buttons(self) -> list[Button]:
        return [self.start, self.leave, *self.night_buttons()]

    def night_buttons(self) -> list[Button]:
        """A spectator's "Take a seat" when one is free; the host's "give seat" buttons."""
        s = self.app.session
        if s is None:
            return []
        out = []
        if s.watch and s.seat is None and len(s.lobby_seats) < 7:
            out.append(self.sit)
        if s.host and not s.running:
            out += self.give
        return out

    def _layout_give(self) -> None:
        """One small button on each computer seat's row of the seat list."""
        s = self.app.session
        self.give = []
        if s is None:
            return
        box = self._R(140, 290, 580, 300)
        y = box.y + round(60 * self.s)
        for p in s.lobby_seats:
            if p.kind == "computer":
                b = Button(f"give:{p.seat}", "Give seat", size=max(12, round(18 * self.s)))
                b.rect = pygame.Rect(box.right - round(270 * self.s), y - round(2 * self.s),
                                     round(130 * self.s),
                                     round(30 * self.s))  # fmt: skip
                self.give.append(b)
            y += round(34 * self.s)

    def _R(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        s = self.s
        return pygame.Rect(
            round(self.ox + x * s), round(self.oy + y * s), round(w * s), round(h * s)
        )

    def resize(self, size: tuple[int, int]) -> None:
        self.s, self.ox, self.oy = _scale(size)
        self.start.rect = self._R(760, 610, 380, 70)
        self.leave.rect = self._R(140, 610, 200, 70)
        self.turn_time.rect = self._R(760, 372, 380, 42)
        self.time_bank.rect = self._R(760, 442, 380, 42)
        self.hands.rect = self._R(760, 512, 380, 42)
        self.stand_in.rect = self._R(760, 562, 380, 34)
        self.chat.rect = self._R(140, 700, 1000, 46)
        self.sit.rect = self._R(760, 610, 380, 70)
        self.sit.size = max(14, round(26 * self.s))
        self._layout_give()
        for w in (self.start, self.leave, self.hands, self.chat):
            w.size = max(14, round(28 * self.s))
        for w in (self.turn_time, self.time_bank, self.hands):
            w.size = max(14, round(24 * self.s))
        self.stand_in.size = max(14, round(22 * self.s))

    def handle_event(self, event: pygame.event.Event) -> None:
        s = self.app.session
        if self.chat.handle_event(event):
            return
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                if self.chat.focused and self.chat.value.strip():
                    self.app.send(Chat(self.chat.value.strip()[:MAX_CHAT]).encode())
                    self.chat.value = ""
                self.chat.focused = not self.chat.focused and not self.chat.value
                return
            if event.key == pygame.K_s and not self.chat.focused:
                self.press_start()
            return
        if s is not None and s.host and self.hands.handle_event(event):
            self.app.settings.hands = int(self.hands.value)
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for seat, rect in self.level_chips:
                if rect.collidepoint(event.pos):
                    self.cycle_level(seat)
                    return
        for b in self.night_buttons():
            if b.handle_event(event):
                if b is self.sit:
                    self.app.send(Sit().encode())
                else:
                    self.app.send(FreeSeat(int(b.id.split(":")[1])).encode())
                return
        if s is not None and s.host:
            for w in (self.turn_time, self.time_bank, self.stand_in):
                if w.handle_event(event):
                    self.send_options()
                    return
        if self.start.handle_event(event):
            self.press_start()
        elif self.leave.handle_event(event):
            self.app.leave_table(notice="", send_leave=True)

    def press_start(self) -> bool:
        s = self.app.session
        if s is None or not s.host or not (s.lobby and s.lobby["can_start"]):
            return False
        return self.app.send(Start(int(self.hands.value)).encode())

    def update(self, dt: float) -> None:
        s = self.app.session
        if s is not None:
            self.start.enabled = bool(s.host and s.lobby and s.lobby["can_start"])
            computers = [p.seat for p in s.lobby_seats if p.kind == "computer"]
            if [b.id for b in self.give] != [f"give:{c}" for c in computers]:
                self._layout_give()

    def draw(self, surf: pygame.Surface) -> None:
        surf.fill((14, 40, 30))
        s = self.app.session
        sc = self.s
        f = lambda v: max(14, round(v * sc))  # noqa: E731
        if s is None:
            return
        w = surf.get_width()
        conn = self.app.conn
        server = self.app.server
        night = s.night if s.night is not None and s.night.played else None
        cx, big = w // 2, f(76)
        if night is not None:  # the night so far, top right; the address moves left
            from client.render.nightboard import draw_night

            draw_night(surf, self._R(760, 24, 380, 244), night, me=s.name, size=f(24))
            cx, big = self._R(430, 0, 0, 0).x, f(56)
        if self.app.server_kind == "host" and server is not None:
            blit_text(
                surf,
                "Friends join at",
                f(30),
                (cx, self._R(0, 60, 0, 0).y),
                INK,
                anchor="center",
            )
            addrs = self.addresses[:2]
            y = self._R(0, 125, 0, 0).y
            for a in addrs:
                blit_text(
                    surf,
                    f"{a}  port {server.port}",
                    big,
                    (cx, y),
                    GOLD,
                    bold=True,
                    anchor="center",
                    shadow=True,
                )
                y += big + f(2)
            announced = getattr(getattr(server, "server", None), "announcer", None) is not None
            if s.table_name and announced:
                found = f'or pick "{s.table_name}" under Join a table'
                blit_text(surf, found, f(26), (cx, y - f(18)), MUTED, anchor="center")
                y += f(30)
            pw = self.app.settings.host_password if self.app._password else ""
            if pw:
                blit_text(surf, f"password: {pw}", f(28), (cx, y), INK, anchor="center")
        elif conn is not None:
            blit_text(
                surf,
                f"{s.table_name}  ·  {conn.host}:{conn.port}"
                if s.table_name
                else f"Table at {conn.host}:{conn.port}",
                f(44),
                (cx, self._R(0, 100, 0, 0).y),
                GOLD,
                bold=True,
                anchor="center",
            )
        box = self._R(140, 290, 580, 300)
        panel(surf, box, (8, 22, 18, 210), f(14))
        blit_text(
            surf,
            f"At the table ({len(s.lobby_seats)} of 7)",
            f(28),
            (box.x + f(20), box.y + f(16)),
            INK,
            bold=True,
        )
        y = box.y + f(60)
        self.level_chips = []
        for p in s.lobby_seats:
            who = p.name + ("  (you)" if p.seat == s.seat else "")
            mark = "computer" if p.kind == "computer" else ("host" if p.host else "")
            if p.next:
                mark = "next match"
            giving = s.host and not s.running and p.kind == "computer"
            name_w = box.w - f(310 if giving else 260)
            row = blit_text(surf, fit(who, f(28), name_w), f(28), (box.x + f(24), y), INK)
            level = p.level_name or (level_info(p.level).name if level_info(p.level) else "")
            if p.kind == "computer" and level:
                chip = pygame.Rect(0, 0, f(120), f(30))
                chip.midright = (box.right - f(20), row.centery)
                if s.host:
                    pygame.draw.rect(surf, (52, 66, 78), chip, border_radius=f(8))
                    pygame.draw.rect(surf, GOLD, chip, 2, border_radius=f(8))
                    self.level_chips.append((p.seat, chip))
                blit_text(surf, level, f(22), chip.center, INK, bold=True, anchor="center")
                if not giving:  # the host's Give seat button sits there
                    at = (chip.x - f(10), row.centery)
                    blit_text(surf, mark, f(22), at, MUTED, anchor="midright")
            elif mark:
                at = (box.right - f(20), row.centery)
                blit_text(surf, mark, f(22), at, MUTED, anchor="midright")
            y += f(34)
        if self.level_chips:
            hint = "click a level to change it"
            at = (box.right - f(20), box.y + f(16) + f(14))
            blit_text(surf, hint, f(20), at, MUTED, anchor="midright")
        side = self._R(760, 284, 380, 60)
        if s.watch:
            note = "You are watching."
        elif s.host:
            note = "You are the host: set the table and start when everyone is in."
        else:
            host = next((p.name for p in s.lobby_seats if p.host), "the host")
            note = f"Waiting for {host} to start the match…"
        yy = side.y
        if s.watch and self.sit in self.night_buttons():
            note += " A seat is free:"
        for line in wrap(note, f(26), side.w) if note else []:
            blit_text(surf, line, f(26), (side.x, yy), INK)
            yy += f(30)
        if s.open_books:  # the host's open-the-books option, for everyone to know
            who = "everyone seated and watching" if s.books_to_watchers else "everyone seated"
            books = f"Open books: after the match {who} may replay every hand, hole cards and all."
            for line in wrap(books, f(22), side.w):
                blit_text(surf, line, f(22), (side.x, yy + f(6)), GOLD)
                yy += f(26)
        for b in self.night_buttons():
            b.draw(surf)
        if s.host:
            for w, label in ((self.turn_time, "Turn clock (seconds a decision)"),
                             (self.time_bank, "Time bank (seconds a match)"),
                             (self.hands, "Hands")):  # fmt: skip
                blit_text(surf, label, f(20), (w.rect.x, w.rect.y - f(4)), MUTED,
                          anchor="bottomleft")  # fmt: skip
                w.draw(surf)
            self.stand_in.draw(surf)
            self.start.draw(surf)
        elif s.options:
            for i, line in enumerate(wrap(options_words(s.options), f(22), side.w)):
                blit_text(surf, line, f(22), (side.x, self.turn_time.rect.y + i * f(28)), MUTED)
        self.leave.draw(surf)
        chats = [line.text for line in s.log if line.kind in ("chat", "info")][-3:]
        yy = self.chat.rect.y - f(8) - len(chats) * f(26)
        for c in chats:
            blit_text(
                surf,
                fit(c, f(22), self.chat.rect.w),
                f(22),
                (self.chat.rect.x, yy),
                (170, 210, 250),
            )
            yy += f(26)
        self.chat.draw(surf)
