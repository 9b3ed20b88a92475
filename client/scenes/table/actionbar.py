"""The bar under the table: one button per legal action (R-B1), sent once a turn; the
pre-action boxes; our turn's clock; else what we wait for, or that we are away."""

from __future__ import annotations

from math import ceil

import pygame

from client.i18n import chips, pgettext
from client.i18n import gettext as _
from client.model import Session
from client.render.layout import TableLayout
from client.render.tablepaint import ORANGE
from client.render.text import blit_text
from client.render.widgets import GOLD, MUTED, Button, Checkbox, button_width
from client.scenes.table.controls import Send
from common.protocol import Act
from common.schema import LegalAction

__all__ = ["ActionBar", "between_hands", "button_words"]

STYLES = {"fold": "danger", "call": "primary", "check": "primary"}  # the rest: normal


def button_words(a: LegalAction) -> str:
    """An action button's words with its amount: ``"Complete to 10"``, ``"Call 7 (all in)"``
    (the server offers the action; the game words it)."""
    # Translators: the action buttons (a poker action, with its chips).
    if a.all_in:
        words = {
            "fold": pgettext("action button", "Fold"),
            "check": pgettext("action button", "Check"),
            "call": pgettext("action button", "Call {amount} (all in)"),
            "bet": pgettext("action button", "Bet {amount} (all in)"),
            "bring_in": pgettext("action button", "Bring in {amount} (all in)"),
            "complete": pgettext("action button", "Complete to {amount} (all in)"),
            "raise": pgettext("action button", "Raise to {amount} (all in)"),
        }[a.action]
    else:
        words = {
            "fold": pgettext("action button", "Fold"),
            "check": pgettext("action button", "Check"),
            "call": pgettext("action button", "Call {amount}"),
            "bet": pgettext("action button", "Bet {amount}"),
            "bring_in": pgettext("action button", "Bring in {amount}"),
            "complete": pgettext("action button", "Complete to {amount}"),
            "raise": pgettext("action button", "Raise to {amount}"),
        }[a.action]
    return words.format(amount=chips(a.to if a.action in ("complete", "raise") else a.put))


def between_hands(s: Session | None) -> str:
    """The bar's words while a hand's end shows: the next hand, or the standings."""
    if s is not None and s.standings is not None:
        return _("The match is over")
    if s is not None and s.clocks.paused:  # the banner says why: no new hand until the host resumes
        return _("Paused: the next hand waits for the host")
    if s is not None and s.hand >= s.hands:
        return _("That was the last hand: the standings come next…")
    return _("Next hand soon…")


class ActionBar:
    def __init__(self) -> None:
        self.buttons: list[Button] = []
        self.sent_turn: int | None = None  # the turn we have answered
        # Translators: boxes ticked before our turn: check if we can, else fold; call
        # whatever is bet.
        self.pre_fold = Checkbox("pre_fold", _("Check/Fold"))
        self.pre_call = Checkbox("pre_call", _("Call any"))

    def resize(self, lay: TableLayout) -> None:
        bar = lay.bar
        self.pre_fold.rect = pygame.Rect(
            bar.x + lay.px(30), bar.centery - lay.px(16), lay.px(180), lay.px(32)
        )
        self.pre_call.rect = self.pre_fold.rect.move(lay.px(200), 0)
        for cb in (self.pre_fold, self.pre_call):
            cb.size = lay.font(22)

    def layout(self, lay: TableLayout, s: Session | None, *, landing: bool) -> None:
        """One button per legal action, centred in the bar; none once answered or while
        our cards are landing (decide once you have seen them)."""
        legal: list[LegalAction] = s.actions() if s is not None else []
        if s is not None and s.turn is not None and s.turn == self.sent_turn:
            legal = []
        if landing or (s is not None and s.clocks.waiting):  # nobody acts until the host can save
            legal = []
        old = {b.id: b for b in self.buttons}
        buttons = []
        for a in legal:
            style = STYLES.get(a.action, "normal")
            b = Button(a.action, button_words(a), a.key, style=style, size=lay.font(26))
            if a.action in old:
                b.hover = old[a.action].hover
            buttons.append(b)
        h, gap = lay.px(56), lay.px(14)
        # As wide as the longest label needs (a longer language, an all-in's amount),
        # but never so wide that the row leaves the bar or meets the clock at its right.
        room = (lay.bar.w - 2 * lay.px(90) - max(0, len(buttons) - 1) * gap) // max(1, len(buttons))
        w = min(max([lay.px(215), *(button_width(b) for b in buttons)]), max(lay.px(215), room))
        total = len(buttons) * w + max(0, len(buttons) - 1) * gap
        x = lay.bar.centerx - total // 2
        for b in buttons:
            b.rect = pygame.Rect(x, lay.bar.centery - h // 2 - lay.px(4), w, h)
            x += w + gap
        self.buttons = buttons

    def press(self, action: str, s: Session | None, send: Send) -> bool:
        """Send ``action`` for the current turn if it was offered (once per turn).  The
        caller lays the bar out again when this is True."""
        if s is None or s.turn is None or s.turn == self.sent_turn:
            return False
        if action not in {a.action for a in s.actions()}:
            return False
        if send(Act(s.turn, action).encode()):
            self.sent_turn = s.turn
            return True
        return False

    def pre_choice(self, s: Session) -> str | None:
        """What a ticked pre-action box answers to the turn that came (the boxes clear)."""
        offered = {a.action for a in s.actions()}
        choice = None
        if self.pre_fold.value:
            choice = "check" if "check" in offered else "fold"
        elif self.pre_call.value:
            choice = "call" if "call" in offered else "check" if "check" in offered else None
        self.pre_fold.value = self.pre_call.value = False
        return choice

    def key(self, name: str) -> str | None:
        """The action whose key (or place, 1, 2, ...) ``name`` is."""
        for i, b in enumerate(self.buttons):
            if name == b.key or name == str(i + 1):
                return b.id
        return None

    def handle_event(self, event: pygame.event.Event) -> str | None:
        """A button clicked (its action), or a pre-action box ticked (None)."""
        for b in self.buttons:
            if b.handle_event(event):
                return b.id
        return None

    def handle_boxes(self, event: pygame.event.Event) -> None:
        if self.pre_fold.handle_event(event):
            self.pre_call.value = self.pre_call.value and not self.pre_fold.value
        elif self.pre_call.handle_event(event):
            self.pre_fold.value = self.pre_fold.value and not self.pre_call.value

    def draw(
        self,
        surf: pygame.Surface,
        lay: TableLayout,
        s: Session,
        now: float,
        *,
        landing: bool,
        back: Button,
    ) -> None:
        if self.buttons:
            for b in self.buttons:
                b.draw(surf)
            self._draw_clock(surf, lay, s, now)
            return
        me = s.me()
        if me is not None and me.away and not s.watch:
            if me.away_why == "taken":
                msg = _("The host took your seat away for this match: you are watching")
                blit_text(surf, msg, lay.font(24), lay.bar.center, ORANGE, anchor="center")
                return
            if me.stand_in:
                words = _("You are away: a computer plays your seat")
            else:
                words = _("You are away: your seat checks or folds")
            at = (lay.bar.x + lay.px(30), lay.bar.centery)
            blit_text(
                surf,
                words,
                lay.font(26),
                at,
                ORANGE,
                bold=True,
                anchor="midleft",
            )
            back.draw(surf)
            return
        view = s.view
        mine = view.seats.get(s.seat) if view and s.seat is not None else None
        if s.clocks.waiting and view is not None and not s.watch:
            msg = _("The table waits for the host's disk")
        elif s.watch or s.seat is None:
            msg = _("Watching")
        elif view is None:
            msg = _("Waiting for the first deal…")
        elif s.sits_out():
            msg = _("You sit in at the next match: watching this one")
        elif view.over:
            msg = between_hands(s)
        elif mine is None or mine.folded:
            msg = _("You are out of this hand")
        elif mine.all_in:
            msg = _("You are all in")
        elif s.my_turn() and landing:
            msg = _("Your cards are coming…")  # the buttons follow once they are down
        else:
            self.pre_fold.draw(surf)
            self.pre_call.draw(surf)
            waiting = s.name_of(view.to_act) if view.to_act is not None else ""
            words = _("Waiting for {who}…").format(who=waiting)
            if s.turn is not None and s.turn == self.sent_turn:
                waiting, words = "server", _("Waiting for the server…")
            if waiting:
                at = (lay.bar.right - lay.px(24), lay.bar.centery)
                blit_text(surf, words, lay.font(24), at, MUTED, anchor="midright")
            return
        blit_text(surf, msg, lay.font(26), lay.bar.center, MUTED, anchor="center")

    def _draw_clock(self, surf: pygame.Surface, lay: TableLayout, s: Session, now: float) -> None:
        """Our turn's clock at the bar's right: the decision's seconds, then the bank (R-C4)."""
        at = (lay.bar.right - lay.px(20), lay.bar.centery)
        left = s.clock_left(s.seat, now) if s.seat is not None else None
        if left is None:
            secs = s.seconds_left(now)
            if secs is not None:
                words = _("{seconds}s").format(seconds=ceil(secs))
                blit_text(surf, words, lay.font(30), at, GOLD, bold=True, anchor="midright")
            return
        decision, bank = left
        # Translators: our turn's clock: {seconds} left to decide, then the time bank's.
        banked = _("bank {seconds}s").format(seconds=ceil(bank))
        if decision > 0:
            main, col = _("{seconds}s").format(seconds=ceil(decision)), GOLD
            # (a protocol 1 server says nothing of a bank)
            told = s.clocks.bank is not None
            sub = banked if bank > 0 else _("no bank left") if told else ""
        else:
            main, col, sub = banked, ORANGE, _("time bank")
        if s.clocks.paused or s.clocks.waiting:
            col, sub = (
                MUTED,
                pgettext("clock", "paused") if s.clocks.paused else pgettext("clock", "waiting"),
            )
        r = blit_text(
            surf, main, lay.font(30), (at[0], at[1] - lay.px(10)), col, bold=True, anchor="midright"
        )
        blit_text(surf, sub, lay.font(18), (at[0], r.bottom + lay.px(8)), MUTED, anchor="midright")
