"""The host's choices in the lobby: the match's length, the turn clock and time bank
(R-C4), a computer standing in for away seats (R-C3) and, at a friends' table, plain
connections and odds on request; each remembered in the settings for the next table."""

from __future__ import annotations

from typing import Any

import pygame

from client.i18n import N_, pgettext
from client.i18n import gettext as _
from client.model import Session
from client.render.text import blit_text, font
from client.render.widgets import INK, MUTED, Checkbox, Choice
from client.settings import Settings
from common.protocol import Options, TableOptions

__all__ = ["HostChoices", "odds_words", "options_words"]

TURN_TIMES: list[object] = ["off", 15, 30, 60]
TIME_BANKS: list[object] = [0, 30, 90, 180]
LABELS = (N_("Turn clock (seconds a decision)"), N_("Time bank (seconds a match)"),
          N_("Hands in the match"))  # fmt: skip
# Translators: connections without the table's encryption (older games); the host allows
# or refuses them.
PLAIN_LABEL = N_("Plain (unsealed) connections")
PLAIN_CHOICES: list[object] = ["allowed", "refused"]
ODDS_LABEL = N_("Allow odds on request (key W)")


def choice_words() -> dict[object, str]:
    """The words of the choices that are not numbers, in the player's language."""
    # Translators: the choices of a row: no turn clock; plain connections allowed or refused.
    return {"off": pgettext("choice", "off"), "allowed": pgettext("choice", "allowed"),
            "refused": pgettext("choice", "refused")}  # fmt: skip


def odds_words(allowed: bool) -> str:
    """Every lobby says the host's choice before the match (issue 19 point 2)."""
    return _("Odds: allowed (W at the table)") if allowed else _("Odds: off")


def options_words(turn: float | None, bank: float, stand_in: bool) -> str:
    """The table's clock and stand-in in a line: ``"Turn clock 30 s + 90 s bank"``."""
    if not turn:
        words = _("No turn clock")
    else:
        words = _("Turn clock {turn} s + {bank} s bank").format(turn=f"{turn:g}", bank=f"{bank:g}")
    return words + (" · " + _("a computer stands in for away seats") if stand_in else "")


class HostChoices:
    def __init__(self, st: Settings) -> None:
        self.hands = Choice("hands", [4, 8, 12], st.host_hands)
        self.turn_time = Choice("turn_time", list(TURN_TIMES), st.host_turn_time or "off")
        self.time_bank = Choice("time_bank", list(TIME_BANKS), st.host_time_bank)
        stand_in = _("A computer plays away seats")
        self.stand_in = Checkbox("stand_in", stand_in, st.host_stand_in)
        self.plain = Choice("plain", list(PLAIN_CHOICES), "allowed", words=choice_words())
        self.turn_time.words = self.plain.words
        self.odds = Checkbox("odds", _(ODDS_LABEL), st.host_odds)  # odds on request for all
        self.labels: list[tuple[str, pygame.Rect]] = []  # each choice's words, where drawn
        self.sealing = True  # at a friends' table: plain connections and odds are chosen

    def follow(self, s: Session) -> None:
        """Show the table's options as the server last said them: for everyone, the match's
        length; a value set elsewhere (``--turn-time 45``) joins its row in its place."""
        said = s.lobby.said
        if said is None:
            return
        if said.hands in self.hands.options:
            self.hands.value = said.hands
        opts = said.options or TableOptions()
        turn, bank = opts.turn_time, opts.time_bank
        for choice, value, base in ((self.turn_time, round(turn) if turn else "off", TURN_TIMES),
                                    (self.time_bank, round(bank), TIME_BANKS)):  # fmt: skip
            if value in base:
                choice.options = list(base)
            else:
                words = [o for o in base if not isinstance(o, int)]
                choice.options = words + sorted([o for o in base if isinstance(o, int)] + [value])
            choice.value = value
        self.stand_in.value = opts.stand_in
        self.plain.value = "refused" if s.lobby.plain_refused else "allowed"
        self.odds.value = s.lobby.odds_allowed

    def layout(self, side: pygame.Rect, start: pygame.Rect, s: float) -> None:
        """The choices, each under its label, and the boxes: stacked between the side note
        and Start, the labels measured in the font they are drawn in (at small sizes the
        14 px floor makes them taller than the scale says)."""
        for w in (self.turn_time, self.time_bank, self.hands, self.plain):
            w.size = max(14, round(24 * s))
        self.stand_in.size = self.odds.size = max(14, round(22 * s))
        label_font = font(max(14, round(20 * s)))
        lab_h = label_font.get_linesize()
        pad = max(1, round(4 * s))
        ch, cb = round(38 * s), round(28 * s)
        rows: tuple[Choice, ...] = (self.turn_time, self.time_bank, self.hands)
        labels: tuple[str, ...] = tuple(_(w) for w in LABELS)
        if self.sealing:
            rows, labels = (*rows, self.plain), (*labels, _(PLAIN_LABEL))
        boxes = 2  # the stand-in; odds on request (a box at a friends' table, else words)
        need = len(rows) * (lab_h + pad + ch) + boxes * cb
        room = start.top - side.bottom
        if need > room:  # tight: the choices give up height, the words keep theirs
            ch = max(lab_h, (room - boxes * cb - len(rows) * (lab_h + pad)) // len(rows))
            need = len(rows) * (lab_h + pad + ch) + boxes * cb
        gap = max(0, (room - need) // (len(rows) + 2))
        y = side.bottom + gap
        self.labels = []
        for w, label in zip(rows, labels, strict=True):
            self.labels.append((label, pygame.Rect(side.x, y, label_font.size(label)[0], lab_h)))
            y += lab_h + pad
            w.rect = pygame.Rect(side.x, y, side.w, ch)
            y += ch + gap
        self.stand_in.rect = pygame.Rect(side.x, y, side.w, cb)
        self.odds.rect = pygame.Rect(side.x, y + cb, side.w, cb)

    def handle_event(self, event: pygame.event.Event, st: Settings) -> dict[str, Any] | None:
        """The host's click on a choice: the message to send (the table answers with a
        lobby that shows it), the choice kept in the settings; None if none was touched."""
        if self.hands.handle_event(event):
            st.host_hands = int(self.hands.value)  # type: ignore[call-overload]
            return Options(hands=st.host_hands).encode()
        if any(w.handle_event(event) for w in (self.turn_time, self.time_bank, self.stand_in)):
            turn = self.turn_time.value
            st.host_turn_time = int(turn) if isinstance(turn, int) else 0
            st.host_time_bank = int(self.time_bank.value)  # type: ignore[call-overload]
            st.host_stand_in = self.stand_in.value
            return Options(
                turn_time=float(st.host_turn_time),
                time_bank=float(st.host_time_bank),
                stand_in=st.host_stand_in,
            ).encode()
        if self.sealing and self.plain.handle_event(event):
            # Refused: the plain connections there are closed, and no new one is taken.
            plain = "never" if self.plain.value == "refused" else "allow"
            return {**Options().encode(), "plain": plain}
        if self.sealing and self.odds.handle_event(event):
            st.host_odds = self.odds.value
            return Options(odds=self.odds.value).encode()
        return None

    def draw(self, surf: pygame.Surface, s: float) -> None:
        for label, rect in self.labels:
            blit_text(surf, label, max(14, round(20 * s)), rect.topleft, MUTED)
        for w in (self.turn_time, self.time_bank, self.hands):
            w.draw(surf)
        if self.sealing:
            self.plain.draw(surf)
            self.odds.draw(surf)
        else:  # the computer table always allows them: said, not chosen
            at = (self.odds.rect.x, self.odds.rect.centery)
            blit_text(surf, odds_words(True), self.odds.size, at, INK, anchor="midleft")
        self.stand_in.draw(surf)
