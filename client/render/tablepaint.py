"""Drawing the table from a ``client.render.picture.TablePicture``: felt, seats, cards,
bets, pots and showdown hands.  The felt is kept per window size; nothing is changed."""

from __future__ import annotations

from math import ceil
from typing import NamedTuple

import pygame

from client.handwords import hand_words, with_hand_words
from client.i18n import chips as chip_words
from client.i18n import gettext as _
from client.i18n import pgettext
from client.levels import level_name
from client.lobbystate import Player
from client.render.cards import CardArt
from client.render.layout import SeatSpot, TableLayout
from client.render.lock import LOCK_PLAIN, LOCK_SEALED, draw_lock, lock_width
from client.render.picture import TablePicture
from client.render.text import blit_text, fit, font, text, wrap
from client.render.widgets import GOLD, INK, MUTED, panel
from client.wording import award_lines, street_name
from common.levels import LEVEL_IDS
from common.schema import TableSeat

__all__ = ["PlateLook", "TablePainter", "seat_lock", "seat_tags"]

PLATE = (22, 30, 34)
PLATE_TURN = (64, 52, 18)
ORANGE = (245, 150, 60)
RED_TAG = (200, 60, 50)
LEVEL_TAG = (140, 190, 215)  # a computer seat's level
STAND_IN = (120, 200, 240)


def seat_tags(
    pic: TablePicture, seat: int, *, own: bool, clock: bool = True
) -> list[tuple[str, tuple[int, int, int]]]:
    """The words under a seat's name: whose turn (and its clock), dropped or away, folded,
    all in, and what it did this street (``pic.recent``).  ``clock`` False leaves our "your
    turn" out while our cards are still landing."""
    view = pic.view
    sv = view.seats.get(seat) if view is not None else None
    player = pic.players.get(seat)
    turn = view is not None and view.to_act == seat and not view.over and (clock or not own)
    tags: list[tuple[str, tuple[int, int, int]]] = []
    grace = pic.dropped.get(seat)
    if sv is None and player is not None and player.next:
        tags.append((_("next match"), (120, 200, 150)))  # a late arrival's seat
    if seat in pic.dropped and not (player is not None and player.away):
        # Translators: a seat's tag: its person's connection is lost, {seconds} of grace left.
        dropped = _("dropped {seconds}s").format(seconds=int(grace)) if grace is not None else ""
        tags.append((dropped or _("dropped"), ORANGE))
    if player is not None and player.away:
        taken = player.away_why == "taken"
        if player.stand_in:  # R-C3: a computer stands in for this person
            tags.append((_("away — computer playing"), STAND_IN))
        else:
            tag = _("seat taken away") if taken else pgettext("seat tag", "away")
            tags.append((tag, RED_TAG if taken else ORANGE))
    if sv is not None:
        if sv.folded:
            tags.append((pgettext("seat tag", "folded"), MUTED))
        if sv.all_in:
            tags.append((pgettext("seat tag", "ALL IN"), RED_TAG))
    if seat in pic.recent and not (sv and sv.folded):
        tags.append((pic.recent[seat], (170, 220, 250)))
    if player is not None and player.kind == "computer" and (player.level_name or player.level):
        level = level_name(player.level) if player.level in LEVEL_IDS else player.level_name
        tags.append((level or player.level, LEVEL_TAG))  # its level, last
    elif player is not None and player.host:
        tags.append(
            (pgettext("seat tag", "host"), LEVEL_TAG)
        )  # who hosts: the role passes on (docs/protocol.md)
    left = pic.clocks.get(seat) if turn else None
    if turn:
        # Translators: a seat's tag on its turn, with its clock ({seconds} left to decide,
        # then the time bank's).
        if left is not None and left[0] > 0:
            label = _("your turn {seconds}s") if own else _("to act {seconds}s")
            label = label.format(seconds=ceil(left[0]))
        elif left is not None:
            label = _("your turn · bank {seconds}s") if own else _("to act · bank {seconds}s")
            label = label.format(seconds=ceil(left[1]))
        elif own and pic.seconds_left is not None:
            label = _("your turn {seconds}s").format(seconds=ceil(pic.seconds_left or 0))
        else:
            label = _("your turn") if own else _("to act")
        tags.insert(0, (label, ORANGE if left is not None and left[0] <= 0 else GOLD))
    return tags


CHIP_COLORS = [(200, 40, 40), (40, 90, 190), (30, 140, 70), (30, 30, 30)]


def _chip_count(amount: int) -> int:
    """How many chips stand for ``amount``: one under 10, up to four from 100."""
    return 1 if amount < 10 else 2 if amount < 40 else 3 if amount < 100 else 4


def seat_lock(pic: TablePicture, player: Player | None) -> bool | None:
    """A seat's padlock: its person's link sealed (True), plain (False), or none (None: a
    computer seat, a person not connected, a replayed hand)."""
    if player is None or player.kind != "human" or player.sealed is None:
        return None
    if not player.connected or player.seat in pic.dropped:
        return None
    return player.sealed


def _wrap_award(line: str, size: int, width: int, phrases: list[str]) -> list[str]:
    """A winner line on one row, or broken before its hand ("… wins 126" / "with a …";
    ``phrases``: the shown hands as the winner lines say them, in the player's language)."""
    if font(size, bold=True).size(line)[0] <= width:
        return [line]
    at = max((line.find(p) for p in phrases if p), default=-1)
    parts = [line[:at].rstrip(), line[at:]] if at > 0 else [line]
    return [row for part in parts for row in wrap(part, size, width)]


class PlateLook(NamedTuple):
    """What a seat's plate shows, worked out (``TablePainter.plate_look``): the plate is
    painted from this alone, so the table's felt is the same while its plates' looks are."""

    turn: bool
    folded: bool
    name: str  # fitted, "(you)" included
    fs: int
    stack: str | None
    kind: str
    tags: tuple[tuple[str, tuple[int, int, int]], ...]
    bar: tuple[int, tuple[int, int, int]] | None  # the clock bar: filled width, colour
    sealed: bool | None


class TablePainter:
    def __init__(self, art: CardArt) -> None:
        self.art = art
        self._bg: tuple[tuple[int, int], pygame.Surface] | None = None

    def background(self, lay: TableLayout) -> pygame.Surface:
        if self._bg is not None and self._bg[0] == lay.size:
            return self._bg[1]
        surf = pygame.Surface(lay.size).convert()
        w, h = lay.size
        top, bottom = (24, 34, 38), (10, 14, 16)
        for y in range(0, h, 4):
            t = y / max(1, h)
            c = tuple(round(a + (b - a) * t) for a, b in zip(top, bottom, strict=True))
            pygame.draw.rect(surf, c, (0, y, w, 4))
        # Felt with a wooden rail, drawn large and smoothed for clean edges.
        f = lay.felt
        ss = 2
        rail = f.inflate(lay.px(44), lay.px(44))
        big = pygame.Surface((rail.w * ss, rail.h * ss), pygame.SRCALPHA)
        br = big.get_rect()
        pygame.draw.ellipse(big, (0, 0, 0, 90), br.inflate(-4 * ss, -4 * ss).move(0, 6 * ss))
        pygame.draw.ellipse(big, (92, 54, 28), br.inflate(-8 * ss, -8 * ss))
        pygame.draw.ellipse(big, (120, 74, 40), br.inflate(-16 * ss, -16 * ss))
        inner = br.inflate(-lay.px(44) * ss, -lay.px(44) * ss)
        pygame.draw.ellipse(big, (20, 92, 56), inner)
        for i in range(10):  # a soft light in the middle of the felt
            r = inner.inflate(-inner.w * i * 0.06, -inner.h * i * 0.06)
            pygame.draw.ellipse(big, (22 + i * 2, 98 + i * 3, 60 + i * 2), r)
        line = inner.inflate(-30 * ss * lay.s, -30 * ss * lay.s)
        pygame.draw.ellipse(big, (200, 180, 110), line, max(1, round(2 * ss * lay.s)))
        surf.blit(pygame.transform.smoothscale(big, rail.size), rail.topleft)
        panel(surf, lay.panel, (12, 18, 20, 255), 0)
        pygame.draw.line(surf, (60, 70, 70), lay.panel.topleft, lay.panel.bottomleft, 2)
        self._bg = (lay.size, surf)
        return surf

    def seats(
        self,
        surf: pygame.Surface,
        lay: TableLayout,
        pic: TablePicture,
        *,
        hidden: dict[int, set[int]],
        books: bool = False,
        looks: dict[int, PlateLook] | None = None,
    ) -> None:
        """Every seat: its cards (``hidden``: those not landed yet), its plate (from
        ``looks`` when worked out already), a shown hand's name, the dealer button."""
        view = pic.view
        showdown = bool(view and view.over)
        winners = {seat for seat, _, _ in view.awards} if view else set()
        for seat, spot in lay.spots.items():
            sv = view.seats.get(seat) if view else None
            if sv is not None:
                self.seat_cards(
                    surf, spot, sv, hidden=hidden.get(seat, set()), showdown=showdown, books=books
                )
            look = looks[seat] if looks is not None else None
            self.plate(surf, lay, spot, sv, pic.players.get(seat), pic=pic, look=look)
            if sv is not None and sv.shown is not None and showdown:
                self.shown_name(surf, lay, spot, sv, seat in winners)
            if view is not None and view.button == seat:
                self.dealer_button(surf, lay, spot)

    def seat_cards(
        self,
        surf: pygame.Surface,
        spot: SeatSpot,
        sv: TableSeat,
        *,
        hidden: set[int],
        showdown: bool,
        books: bool = False,
    ) -> None:
        """A seat's cards in deal order, each over the one before (its corner in view).
        Our own hole cards carry their mark; ``books``: every seat's do (the replayer
        of an open-books hand), drawn in their places, never over the row again."""
        cards = sv.cards()
        rects = spot.card_rects(len(cards))
        best = set(sv.shown.best) if sv.shown else set()
        lift = round(spot.card_h() * 0.2)
        for i, ((code, hole), r) in enumerate(zip(cards, rects, strict=True)):
            if i in hidden:
                continue
            if code is None:
                img = self.art.back(spot.card_w, dim=sv.folded)
            else:
                mark_hole = hole and (spot.own or books) and not showdown
                dim = sv.folded or bool(showdown and best and code not in best)
                img = self.art.face(code, spot.card_w, hole=mark_hole, dim=dim)
            if showdown and code in best:
                r = r.move(0, lift if spot.top else -lift)  # the best five stand out
            elif code is not None and not hole and spot.own and not showdown:
                r = r.move(0, -round(spot.card_h() * 0.1))  # up cards stand up: the table sees them
            surf.blit(img, r)

    def plate(
        self,
        surf: pygame.Surface,
        lay: TableLayout,
        spot: SeatSpot,
        sv: TableSeat | None,
        player: Player | None,
        *,
        pic: TablePicture,
        clock: bool = True,
        look: PlateLook | None = None,
    ) -> None:
        """A seat's name plate, painted from its ``plate_look`` (``look``: that, already
        worked out)."""
        if look is None:
            look = self.plate_look(lay, spot, sv, player, pic=pic, clock=clock)
        r = spot.plate_rect()
        turn, fs, pad = look.turn, look.fs, lay.px(10)
        pygame.draw.rect(surf, (0, 0, 0), r.move(0, 3), border_radius=lay.px(10))
        pygame.draw.rect(surf, PLATE_TURN if turn else PLATE, r, border_radius=lay.px(10))
        border = GOLD if turn else (80, 96, 96)
        pygame.draw.rect(surf, border, r, lay.px(3) if turn else 2, border_radius=lay.px(10))
        icon = pygame.Rect(r.x + pad, r.y + lay.px(8), lay.px(18), lay.px(18))
        self._kind_icon(surf, icon, look.kind, look.folded)
        blit_text(
            surf,
            look.name,
            fs,
            (icon.right + lay.px(6), icon.centery),
            MUTED if look.folded else INK,
            bold=True,
            anchor="midleft",
        )
        if look.stack is not None:
            blit_text(
                surf,
                look.stack,
                fs,
                (r.right - pad, icon.centery),
                GOLD,
                bold=True,
                anchor="midright",
            )
        # Second line: state tags.
        if look.bar is not None:
            self._clock_bar(surf, lay, r, look.bar)
        x, y, right = r.x + pad, r.bottom - lay.px(8), r.right - pad
        ts = lay.font(20)
        if look.sealed is not None:  # the link's padlock, bottom right; tags keep left of it
            lh = max(10, round(ts * 0.75))
            lock = pygame.Rect(0, 0, lock_width(lh), lh)
            lock.bottomright = (right, y)
            color = LOCK_SEALED if look.sealed else LOCK_PLAIN
            draw_lock(surf, lock, closed=look.sealed, color=color)
            right = lock.x - lay.px(8)
        for word, col in look.tags:
            img = text(word, ts, col, bold=True)
            if x + img.get_width() > right:
                break
            surf.blit(img, img.get_rect(bottomleft=(x, y)))
            x += img.get_width() + lay.px(12)

    def plate_look(
        self,
        lay: TableLayout,
        spot: SeatSpot,
        sv: TableSeat | None,
        player: Player | None,
        *,
        pic: TablePicture,
        clock: bool = True,
    ) -> PlateLook:
        """What a seat's plate shows, worked out: whose turn (and how far its clock has
        run), the name fitted, the stack, the tags, the padlock."""
        r = spot.plate_rect()
        view = pic.view
        turn = view is not None and view.to_act == spot.seat and not view.over
        turn = turn and (clock or not spot.own)
        fs = lay.font(24 if spot.own else 22)
        # The name has the plate's width but the icon and the stack as drawn (at small
        # sizes the font floor makes words wider than the scale says, at large ones not).
        digits = "8" * max(4, len(chip_words(sv.stack))) if sv is not None else ""  # steady room
        stack_w = font(fs, bold=True).size(digits)[0] + lay.px(12) if sv is not None else 0
        room = r.w - (lay.px(10) + lay.px(18) + lay.px(6)) - lay.px(10) - stack_w  # pad, icon, gap
        name = player.name if player else pic.name_of(spot.seat)
        left = pic.clocks.get(spot.seat) if turn else None
        stand_in = player is not None and player.stand_in
        return PlateLook(
            turn=turn,
            folded=sv is not None and sv.folded,
            # Translators: our own seat's name on its plate.
            name=fit(
                _("{name} (you)").format(name=name) if spot.own else name, fs, room, bold=True
            ),
            fs=fs,
            stack=chip_words(sv.stack) if sv is not None else None,
            kind="computer" if stand_in else (player.kind if player else "human"),
            tags=tuple(seat_tags(pic, spot.seat, own=spot.own, clock=clock)),
            bar=self._clock_fill(lay, r, left, pic) if left is not None else None,
            sealed=seat_lock(pic, player),
        )

    @staticmethod
    def _clock_fill(
        lay: TableLayout, r: pygame.Rect, clock: tuple[float, float], pic: TablePicture
    ) -> tuple[int, tuple[int, int, int]]:
        """The turn clock's bar: how much is filled, in what colour: the decision's seconds
        (gold), then the bank draining (orange), R-C4; grey while the table is paused."""
        turn_time = pic.turn_time
        bank_time = pic.time_bank
        decision, bank = clock
        if decision > 0:
            frac, col = (decision / turn_time if turn_time else 1.0), GOLD
        else:
            frac, col = (bank / bank_time if bank_time else 0.0), ORANGE
        if pic.paused:
            col = MUTED
        w = r.w - lay.px(16)
        return round(w * max(0.0, min(1.0, frac))), col

    def _clock_bar(
        self,
        surf: pygame.Surface,
        lay: TableLayout,
        r: pygame.Rect,
        fill_of: tuple[int, tuple[int, int, int]],
    ) -> None:
        """A thin bar along the plate's foot (``_clock_fill``)."""
        bar = pygame.Rect(r.x + lay.px(8), r.bottom - lay.px(5), r.w - lay.px(16), lay.px(3))
        pygame.draw.rect(surf, (40, 46, 50), bar)
        fill = bar.copy()
        fill.w = fill_of[0]
        pygame.draw.rect(surf, fill_of[1], fill)

    def _kind_icon(self, surf: pygame.Surface, r: pygame.Rect, kind: str, dim: bool) -> None:
        c = (150, 150, 150) if dim else ((120, 200, 240) if kind == "computer" else (240, 220, 160))
        if kind == "computer":
            screen = pygame.Rect(r.x, r.y + 1, r.w, round(r.h * 0.7))
            pygame.draw.rect(surf, c, screen, 2, border_radius=3)
            pygame.draw.line(surf, c, (r.centerx, screen.bottom), (r.centerx, r.bottom - 1), 2)
            pygame.draw.line(surf, c, (r.x + 3, r.bottom - 1), (r.right - 3, r.bottom - 1), 2)
        else:
            pygame.draw.circle(surf, c, (r.centerx, r.y + r.h * 0.3), r.h * 0.26)
            body = pygame.Rect(r.x + 1, r.y + r.h * 0.6, r.w - 2, r.h * 0.5)
            pygame.draw.ellipse(surf, c, body)

    def chips(
        self,
        surf: pygame.Surface,
        lay: TableLayout,
        at: tuple[int, int],
        amount: int,
        *,
        label: bool = True,
    ) -> None:
        d, n, step = lay.px(26), _chip_count(amount), lay.px(6)
        for i in range(n):
            img = self.art.chip(d, CHIP_COLORS[i % 4])
            x = at[0] - step * (n - 1) // 2 + step * i - d // 2
            surf.blit(img, img.get_rect(center=(x, at[1] - i * lay.px(3))))
        if label:
            at = (at[0] + lay.px(4), at[1])
            blit_text(
                surf,
                chip_words(amount),
                lay.font(22),
                at,
                INK,
                bold=True,
                anchor="midleft",
                shadow=True,
            )

    def dealer_button(self, surf: pygame.Surface, lay: TableLayout, spot: SeatSpot) -> None:
        r = lay.buttons[spot.seat]  # beside the plate, on the table (TableLayout)
        surf.blit(self.art.button(r.w), r)

    def centre(
        self, surf: pygame.Surface, lay: TableLayout, pic: TablePicture, *, pot_hidden: bool
    ) -> None:
        v = pic.view
        cx, cy = lay.center
        top = _("Hand {hand} of {hands}").format(hand=pic.hand, hands=pic.hands)
        if v is not None and street_name(v.street) and not v.over:
            top = _("Hand {hand} of {hands} · {street}")
        elif v is not None and v.over and any(s.shown for s in v.seats.values()):
            top = _("Hand {hand} of {hands} · showdown")
        elif v is not None and v.over:
            top = _("Hand {hand} of {hands} · over")
        top = top.format(hand=pic.hand, hands=pic.hands, street=street_name(v.street) if v else "")
        at = (cx, cy - lay.px(86))
        blit_text(surf, top, lay.font(24), at, (210, 230, 210), bold=True, anchor="center")
        if v is None:
            return
        if not pot_hidden and v.pot:
            pot_in_front = sum(s.bet for s in v.seats.values())
            middle = v.pot - pot_in_front
            if middle > 0:
                self.chips(surf, lay, (cx - lay.px(60), cy - lay.px(20)), middle, label=False)
            at = (cx - lay.px(30), cy - lay.px(20))
            blit_text(
                surf,
                _("Pot {amount}").format(amount=chip_words(v.pot)),
                lay.font(34),
                at,
                GOLD,
                bold=True,
                anchor="midleft",
                shadow=True,
            )
        if len(v.pots) > 1:
            # Translators: the pots under the pot's total: "Main 120   Side 1 40".
            main, side = _("Main {amount}"), _("Side {pot} {amount}")
            parts = [
                (main if i == 0 else side).format(pot=i, amount=chip_words(pot.amount))
                for i, pot in enumerate(v.pots)
            ]  # fmt: skip
            at = (cx, cy + lay.px(14))
            blit_text(surf, "   ".join(parts), lay.font(20), at, INK, anchor="center")
        if v.awards and pot_hidden:
            # The winner lines name each winner and the hand (R-S3), split and side pots too.
            hands = {seat: sv.shown.hand for seat, sv in v.seats.items() if sv.shown}
            phrases = [with_hand_words(hand) for hand in hands.values()]
            size = lay.font(24)
            width = round(lay.felt.w * 0.6)
            lines = [
                part
                for line in award_lines(v.awards, hands, pic.name_of)
                for part in _wrap_award(line, size, width, phrases)
            ]
            step = round(size * 1.05)
            y = cy - lay.px(34) if pot_hidden else cy + lay.px(40)
            for line in lines[:6]:
                blit_text(
                    surf,
                    fit(line, size, width, bold=True),
                    size,
                    (cx, y),
                    GOLD,
                    bold=True,
                    anchor="center",
                    shadow=True,
                )
                y += step

    def chips_rect(
        self, lay: TableLayout, at: tuple[int, int], amount: int, *, label: bool = True
    ) -> pygame.Rect:
        """Everything ``chips`` draws for this stack, the amount included."""
        d, n = lay.px(26), _chip_count(amount)
        left = at[0] - lay.px(6) * (n - 1) // 2 - d
        r = pygame.Rect(left, at[1] - d // 2 - (n - 1) * lay.px(3), 0, 0)
        r.w = at[0] - left + lay.px(6) * n
        r.h = d + (n - 1) * lay.px(3)
        if label:
            img = text(chip_words(amount), lay.font(22), INK, bold=True)
            r.w = max(r.w, at[0] + lay.px(4) + img.get_width() + 2 - left)
            r.h = max(r.h, img.get_height())
        return r

    def shown_box(self, lay: TableLayout, spot: SeatSpot, sv: TableSeat) -> pygame.Rect:
        """Where a shown hand's name goes: on the centre's side of the lifted best five."""
        rects = spot.card_rects(max(1, len(sv.shown.cards) if sv.shown else 1))
        r = rects[0].union(rects[-1])
        img = text(
            hand_words(sv.shown.hand) if sv.shown else "", lay.font(22), (20, 20, 20), bold=True
        )
        box = img.get_rect().inflate(lay.px(14), lay.px(6))
        lift = round(spot.card_h() * 0.2)
        if spot.top:
            box.midtop = (r.centerx, r.bottom + lift + lay.px(2))
        else:
            box.midbottom = (r.centerx, r.top - lift - lay.px(2))
        return box

    def shown_name(
        self, surf: pygame.Surface, lay: TableLayout, spot: SeatSpot, sv: TableSeat, winner: bool
    ) -> None:
        if sv.shown is None or not sv.shown.hand:
            return
        box = self.shown_box(lay, spot, sv)
        img = text(hand_words(sv.shown.hand), lay.font(22), (20, 20, 20), bold=True)
        pygame.draw.rect(surf, GOLD if winner else (225, 225, 215), box, border_radius=lay.px(8))
        surf.blit(img, img.get_rect(center=box.center))
