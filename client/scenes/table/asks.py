"""The side panel's rows for a seat asked back by name, and for handing the host's role on:
the host's question (*Give it back* G, *Refuse* N), the asker's wait and answer (*OK*), and
*Make Ann host again* once the host who lost the role is back."""

from __future__ import annotations

import pygame

from client.i18n import N_
from client.i18n import gettext as _
from client.keys import key_of
from client.lobbystate import Player
from client.model import Session
from client.render.layout import TableLayout
from client.render.text import blit_text, wrap
from client.render.widgets import GOLD, INK, MUTED, Button, panel
from client.scenes.table.controls import Send
from common.protocol import GiveSeat, MakeHost, RefuseSeat

__all__ = ["AskRows", "asker_words", "host_question", "old_host"]


WAITING = N_("Waiting for the host…")


def host_question(s: Session | None) -> tuple[int, str] | None:
    """(seat, words) of the first open ask the host is to answer, or None."""
    if s is None or not s.host or not s.lobby.asks:
        return None
    seat = min(s.lobby.asks)
    return seat, _("{name} asks for the seat back").format(name=s.lobby.asks[seat])


NO_PROOF = N_("Give it only if it is really them: a name is no proof.")


def asker_words(s: Session | None) -> str:
    """What the asker reads while it watches: the wait, then the answer ("" for none)."""
    if s is None or s.lobby.ask is None or s.seat is not None:
        return ""
    seat, answer, words = s.lobby.ask
    if answer == "waiting":
        return _(WAITING)
    if answer == "refused":
        return words or _("The host did not give the seat back")
    if answer == "unanswered":
        return words or _("Nobody answered: the seat stays as it is")
    return words


def answered(s: Session) -> bool:
    """Our own ask for a seat back has its answer."""
    return s.lobby.ask is not None and s.lobby.ask[1] != "waiting"


def old_host(s: Session | None) -> Player | None:
    """The person the host's role passed to us from, if it is connected again."""
    if s is None or not s.host or s.lobby.host_from is None or s.lobby.host_from == s.seat:
        return None
    p = s.players.get(s.lobby.host_from)
    back = p is not None and p.kind == "human" and p.connected and p.seat not in s.clocks.dropped
    return p if back else None


class AskRows:
    def __init__(self) -> None:
        give_key = key_of("table", "ask:give")
        self.give = Button("ask:give", _("Give it back"), give_key, style="primary", size=20)
        self.refuse = Button("ask:refuse", _("Refuse"), key_of("table", "ask:refuse"), size=20)
        self.ok = Button("ask:ok", _("OK"), size=20)
        self.hand_back = Button("host:back", _("Make them host again"), size=20)
        self.box = pygame.Rect(0, 0, 0, 0)  # the question's or the answer's box
        self.lines: list[str] = []
        self.line_size = 20
        self.notes: list[str] = []
        self.note_size = 17
        self.hosting = False  # as the last layout found it (``controls.hosting``)

    def layout(self, lay: TableLayout, y: int, s: Session | None, *, hosting: bool) -> int:
        """Place the rows from ``y`` down; returns where they end."""
        self.hosting = hosting
        p = lay.panel
        x, w = p.x + lay.px(12), p.w - lay.px(24)
        size = self.line_size = lay.font(20)
        self.note_size = lay.font(17)
        for b in (self.give, self.refuse, self.ok, self.hand_back):
            b.size = lay.font(20)
        question = host_question(s)
        words = question[1] if question else asker_words(s)
        self.lines = wrap(words, size, w - lay.px(20)) if words else []
        self.notes = []  # the smaller words under them
        if question is not None or words == _(WAITING):
            note = _(NO_PROOF) if question is not None else _("You watch until the host answers.")
            self.notes = wrap(note, self.note_size, w - lay.px(20))
        self.box = pygame.Rect(x, y, w, 0)
        if self.lines:
            top = y + lay.px(8)
            text_h = len(self.lines) * round(size * 1.2)
            text_h += len(self.notes) * round(self.note_size * 1.2)
            btn_y = top + text_h + lay.px(6)
            half = (w - lay.px(28)) // 2
            btn_h = lay.px(34)
            if question is not None:
                self.give.rect = pygame.Rect(x + lay.px(10), btn_y, half, btn_h)
                self.refuse.rect = pygame.Rect(x + lay.px(18) + half, btn_y, half, btn_h)
            elif s is not None and answered(s):
                self.ok.rect = pygame.Rect(x + w - lay.px(10) - half, btn_y, half, btn_h)
            else:
                btn_h = -lay.px(6)  # waiting: words only
            self.box.h = btn_y + btn_h + lay.px(10) - y
            y = self.box.bottom + lay.px(8)
        back = old_host(s) if hosting else None
        if back is not None:
            self.hand_back.label = _("Make {name} host again").format(name=back.name)
            self.hand_back.rect = pygame.Rect(x, y, w, lay.px(34))
            y += lay.px(40)
        return y

    def buttons(self, s: Session | None) -> list[Button]:
        out: list[Button] = []
        if host_question(s) is not None:
            out += [self.give, self.refuse]
        elif asker_words(s) and s is not None and answered(s):
            out.append(self.ok)
        if self.hosting and old_host(s) is not None:
            out.append(self.hand_back)
        return out

    def press(self, what: str, s: Session, send: Send) -> bool:
        """Press one of the buttons: True when a message went to the server.  The caller
        lays the rows out again."""
        question = host_question(s)
        if what in ("ask:give", "ask:refuse"):
            if question is None:
                return False
            seat = question[0]
            s.lobby.host_answered(seat)
            return send((GiveSeat(seat) if what == "ask:give" else RefuseSeat(seat)).encode())
        if what == "ask:ok":
            s.lobby.ask = None  # the answer read: put away
        elif what == "host:back":
            back = old_host(s)
            return back is not None and send(MakeHost(back.seat).encode())
        return False

    def key(self, name: str, s: Session | None) -> str | None:
        """The button a key presses (G gives the seat back, N refuses), if it is shown."""
        if host_question(s) is None:
            return None
        return {"G": "ask:give", "N": "ask:refuse"}.get(name)

    def draw(self, surf: pygame.Surface, lay: TableLayout, s: Session | None) -> None:
        if self.lines:
            question = host_question(s) is not None
            panel(surf, self.box, (26, 44, 40, 235), lay.px(10))
            edge = GOLD if question else (110, 130, 130)
            pygame.draw.rect(surf, edge, self.box, 2, border_radius=lay.px(10))
            yy = self.box.y + lay.px(8)
            x = self.box.x + lay.px(10)
            for line in self.lines:
                blit_text(surf, line, self.line_size, (x, yy), INK, bold=question)
                yy += round(self.line_size * 1.2)
            for line in self.notes:
                blit_text(surf, line, self.note_size, (x, yy), MUTED)
                yy += round(self.note_size * 1.2)
        for b in self.buttons(s):
            b.draw(surf)
