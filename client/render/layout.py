"""Where things go, computed from the window size alone: every screen is designed at
1280×800 and scaled by ``Scale``.  At the table the seat you play is at the bottom centre,
the others clockwise (R-T0) around the oval."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import pygame

__all__ = ["Scale", "SeatSpot", "TableLayout", "scale"]

BASE_W, BASE_H = 1280, 800


def scale(size: tuple[int, int]) -> float:
    """How much the 1280x800 design is scaled to fit a window of ``size`` (never under 0.5)."""
    w, h = size
    return max(0.5, min(w / BASE_W, h / BASE_H))


class Scale:
    """The 1280x800 design in a window: scaled by ``s`` and centred at (``ox``, ``oy``)."""

    s, ox, oy = 1.0, 0.0, 0.0
    least = 14  # the smallest font size

    def scale_to(self, size: tuple[int, int]) -> None:
        w, h = size
        self.s = s = scale(size)
        self.ox, self.oy = (w - BASE_W * s) / 2, (h - BASE_H * s) / 2

    def px(self, v: float) -> int:
        """A design length in pixels."""
        return max(1, round(v * self.s))

    def font(self, v: float, least: int | None = None) -> int:
        """A font size, never under ``least`` (by default the class's)."""
        return max(self.least if least is None else least, round(v * self.s))

    def rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        """A design rect, where the centred design puts it."""
        s = self.s
        ox, oy = self.ox, self.oy
        return pygame.Rect(round(ox + x * s), round(oy + y * s), round(w * s), round(h * s))


@dataclass(frozen=True, slots=True)
class SeatSpot:
    seat: int
    center: tuple[int, int]  # centre of the seat's pod
    card_w: int
    own: bool
    bet_at: tuple[int, int]  # where its chips for this street sit
    top: bool  # in the top half: the plate goes above the cards

    def card_h(self) -> int:
        return round(self.card_w * 1.4)

    def step(self) -> int:
        return round(self.card_w * (0.62 if self.own else 0.5))

    def card_rects(self, n: int) -> list[pygame.Rect]:
        """The slots for ``n`` cards in deal order, as wide as seven would be."""
        w, h, step = self.card_w, self.card_h(), self.step()
        full = w + 6 * step
        x0 = self.center[0] - full // 2
        y = self.center[1] - h // 2 + (self.plate_h() // 2 if self.top else -self.plate_h() // 2)
        return [pygame.Rect(x0 + i * step, y, w, h) for i in range(n)]

    def plate_h(self) -> int:
        return round(self.card_w * (1.12 if not self.own else 0.85))

    def plate_rect(self) -> pygame.Rect:
        w = self.card_w + 6 * self.step()
        h = self.plate_h()
        cards = self.card_rects(1)[0]
        r = pygame.Rect(0, 0, w, h)
        if self.top:
            r.midbottom = (self.center[0], cards.top - 4)
        else:
            r.midtop = (self.center[0], cards.bottom + 4)
        return r


class TableLayout(Scale):
    """Rects and seat spots for one window size and one set of seats."""

    least = 12

    def __init__(self, size: tuple[int, int], seats: list[int], you: int | None) -> None:
        w, h = size
        self.size = size
        self.scale_to(size)
        s = self.s
        self.panel = pygame.Rect(w - round(300 * s), 0, round(300 * s), h)
        self.bar = pygame.Rect(0, h - round(84 * s), self.panel.left, round(84 * s))
        self.area = pygame.Rect(0, 0, self.panel.left, self.bar.top)
        a = self.area
        self.felt = pygame.Rect(0, 0, round(a.w * 0.78), round(a.h * 0.66))
        self.felt.center = (a.centerx, a.centery + round(4 * s))
        self.center = self.felt.center
        self.deck_at = (self.center[0], self.center[1] - round(40 * s))
        self.pot_at = (self.center[0] - round(60 * s), self.center[1] - round(20 * s))
        self.spots: dict[int, SeatSpot] = {}
        seats = sorted(seats)
        if not seats:
            return
        # Rotate so that our seat (or the lowest, when watching) is at the bottom.
        bottom = you if you in seats else seats[0]
        k = seats.index(bottom)
        ordered = seats[k:] + seats[:k]
        n = len(ordered)
        rx = a.w / 2 - 125 * s
        ry = a.h / 2 - 92 * s
        for i, seat in enumerate(ordered):
            ang = math.pi / 2 + 2 * math.pi * i / n  # clockwise on screen from the bottom
            x = a.centerx + rx * math.cos(ang)
            y = a.centery + ry * math.sin(ang) * 0.98
            own = seat == you
            if own:
                y = a.bottom - 92 * s
            cw = round((66 if own else 50) * s)
            toward = pygame.math.Vector2(self.center[0] - x, self.center[1] - y)
            dist = min(toward.length() * 0.45, 125 * s) if toward.length() else 0
            if toward.length():
                toward.scale_to_length(dist)
            bx, by = x + toward.x, y + toward.y
            if own:
                by = y - 125 * s
            top = y < a.centery - 60 * s
            bet_at = (round(bx), round(by))
            self.spots[seat] = SeatSpot(seat, (round(x), round(y)), cw, own, bet_at, top)
        self._clear_bets()
        self.buttons = {seat: self._button_rect(seat) for seat in self.spots}
        """Where the dealer button goes when it is at each seat (``_button_rect``)."""

    def chip_box(self, at: tuple[float, float]) -> pygame.Rect:
        """Room for a stack of chips at ``at`` with a three-digit amount beside it."""
        x, y = round(at[0] - 36 * self.s), round(at[1] - 22 * self.s)
        return pygame.Rect(x, y, self.px(82), self.px(38))

    def seat_box(self, seat: int) -> pygame.Rect:
        """A seat's plate and the room for all seven of its cards, up cards lifted."""
        spot = self.spots[seat]
        cards = spot.card_rects(7)
        r = spot.plate_rect().union(cards[0].union(cards[-1]))
        lift = round(spot.card_h() * 0.1) if spot.own else 0
        return r.inflate(self.px(6), self.px(6) + 2 * lift)

    def _clear_bets(self) -> None:
        """Move each seat's bet toward the centre until it covers no seat's plate or cards."""
        boxes = [self.seat_box(seat) for seat in self.spots]
        for seat, spot in list(self.spots.items()):
            x, y = spot.bet_at
            step = pygame.math.Vector2(self.center[0] - x, self.center[1] - y)
            if step.length() < 1:
                continue
            step.scale_to_length(4 * self.s)
            for _ in range(60):
                if self.chip_box((round(x), round(y))).collidelist(boxes) < 0:
                    break
                x, y = x + step.x, y + step.y
            self.spots[seat] = dataclasses.replace(spot, bet_at=(round(x), round(y)))

    def _button_rect(self, seat: int) -> pygame.Rect:
        """Beside the seat's plate, right of it or else left, level with its edge away from
        the cards or else the other: the first place on the table clear of every plate,
        card place and bet."""
        spot = self.spots[seat]
        d, gap = self.px(28), self.px(4)
        plate = spot.plate_rect()
        edge = self.px(2)
        ys = (plate.bottom - d, plate.top) if spot.top else (plate.top + edge, plate.bottom - d)
        xs = (plate.right + gap, plate.left - gap - d)
        places = [pygame.Rect(x, y, d, d) for y in ys for x in xs]
        taken = [r for s in self.spots.values() for r in (s.plate_rect(), *s.card_rects(7))]
        taken += [self.chip_box(s.bet_at) for s in self.spots.values()]
        for r in places:
            if self.area.contains(r) and r.collidelist(taken) < 0:
                return r
        return next((r for r in places if self.area.contains(r)), places[0])

    def won_at(self, seat: int) -> tuple[int, int]:
        """Where a pot won by ``seat`` rests: toward the centre, past its cards and the
        showdown's hand-name label, and clear of every seat's plate and cards."""
        spot = self.spots[seat]
        cards = spot.card_rects(7)
        block = cards[0].union(cards[-1])
        lift = round(spot.card_h() * 0.2)
        label_h = self.font(22) + self.px(8)
        gap = self.px(20)  # half a chip and a little air
        x = spot.center[0] + (self.center[0] - spot.center[0]) * 0.25
        y = block.bottom + lift + label_h + gap if spot.top else block.top - lift - label_h - gap
        label = pygame.Rect(block.x, 0, block.w, label_h + lift)
        if spot.top:
            label.top = block.bottom
        else:
            label.bottom = block.top
        boxes = [self.seat_box(s) for s in self.spots] + [label]
        step = pygame.math.Vector2(self.center[0] - x, self.center[1] - y)
        if step.length() >= 1:
            step.scale_to_length(4 * self.s)
            for _ in range(60):
                if self.chip_box((round(x), round(y))).collidelist(boxes) < 0:
                    break
                x, y = x + step.x, y + step.y
        return round(x), round(y)
