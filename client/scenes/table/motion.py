"""What moves on the table: each new view compared with the last to deal cards from the
deck, sweep bets and pay the pot; where chips lie still; whether our cards still land."""

from __future__ import annotations

import pygame

from client.render.cards import CardArt
from client.render.layout import TableLayout
from client.render.motion import Anim
from client.render.tablepaint import TablePainter
from common.schema import SeatView

__all__ = ["CHIP_TIME", "DEAL_GAP", "DEAL_TIME", "Motion", "fresh_deal"]

DEAL_GAP = 0.06
DEAL_TIME = 0.28
CHIP_TIME = 0.45


def fresh_deal(view: SeatView) -> bool:
    """Whether ``view`` is a hand's first deal, before anyone has acted (R-D1, R-D2): it is
    shown dealt; a hand already under way when we arrive is shown as it is."""
    quiet = all(sv.last_action is None and not sv.bet for sv in view.seats.values())
    return view.street == 3 and not view.over and quiet


class Motion:
    def __init__(self) -> None:
        self.anims: list[Anim] = []
        self.prev: SeatView | None = None
        self.prev_hand = -1

    def on_view(self, view: SeatView, hand: int, lay: TableLayout) -> None:
        """A ``table`` message's view: animate what changed since the last one."""
        self._animate(self.prev if hand == self.prev_hand else None, view, lay)
        self.prev, self.prev_hand = view, hand

    def place(self, lay: TableLayout) -> None:
        for a in self.anims:
            a.place(lay)  # whatever is in flight lands where it belongs in the new window

    def _add(self, anim: Anim, lay: TableLayout) -> None:
        self.anims.append(anim.place(lay))

    def _animate(self, prev: SeatView | None, view: SeatView, lay: TableLayout) -> None:
        if prev is None and self.prev_hand != -1:
            # A new hand: clear the last hand's chips, keep nothing flying.
            self.anims = [a for a in self.anims if a.kind == "card" and a.progress < 1]
        if prev is None and self.prev is None and not fresh_deal(view):
            return  # first sight of a hand under way (joining, reconnecting): no replay
        order = [s for s in view.order if s in lay.spots]
        base = 0.0
        # Bets swept into the pot when a betting round ends (the street or the hand).
        if prev is not None and (view.street != prev.street or (view.over and not prev.over)):
            # At a hand's end the view still holds its last street's bets; a new street's
            # view has none, so the round's bets are the previous view's.
            bets = view.seats if view.over else prev.seats
            for seat, sv in bets.items():
                if sv.bet and seat in lay.spots:
                    anim = Anim("chips", seat, 0, ("bet", seat), ("pot",), 0, CHIP_TIME, sv.bet)
                    self._add(anim, lay)
            if any(sv.bet for sv in bets.values()):
                base = CHIP_TIME * 0.6
        # New cards fly from the deck, one at a time in deal order (R-D2).
        had = prev.seats if prev is not None else {}
        counts = {s: len(had[s].cards()) if s in had else 0 for s in order}
        new = {s: len(view.seats[s].cards()) for s in order if s in view.seats}
        k = 0
        for rnd in range(7):
            for seat in order:
                n0, n1 = counts.get(seat, 0), new.get(seat, 0)
                shown = view.seats[seat].shown and prev is not None and seat in prev.seats
                if n0 <= rnd < n1 and not shown:
                    at = base + k * DEAL_GAP
                    anim = Anim("card", seat, rnd, ("deck",), ("card", seat, rnd, n1), at,
                                DEAL_TIME)  # fmt: skip
                    self._add(anim, lay)
                    k += 1
        # The pot goes to the winners, to rest in front of them (not on their plates).
        if view.awards and (prev is None or not prev.awards):
            delay = base + k * DEAL_GAP + 0.5
            won: dict[int, int] = {}
            for seat, amount, _pot in view.awards:
                if seat in lay.spots and amount:
                    won[seat] = won.get(seat, 0) + amount
            for seat, amount in won.items():
                self._add(Anim("chips", seat, 1, ("pot",), ("won", seat), delay, 0.7, amount), lay)

    def step(self, dt: float, me: int | None) -> list[str]:
        """Advance every flight by ``dt``; the sounds of those that set off (each once)."""
        sounds: list[str] = []  # each at most once a step: three bets swept make one sound
        for a in self.anims:
            a.t += dt
            if a.started and not a.heard:
                a.heard = True
                if a.kind == "card":
                    sounds.append("card")
                else:
                    sounds.append("win" if a.index == 1 and a.seat == me else "chips")
        self.anims = [a for a in self.anims if a.t < a.delay + a.dur]
        return list(dict.fromkeys(sounds))

    def moving(self) -> bool:
        return bool(self.anims)

    def landing(self, me: int | None) -> bool:
        """Whether any of our own cards is still flying in from the deck."""
        return any(a.kind == "card" and a.seat == me and a.progress < 1 for a in self.anims)

    def pot_paid(self, view: SeatView | None) -> bool:
        """The hand is over and its pot has left the middle for the winners."""
        paying = any(a.kind == "chips" and a.index == 1 and not a.started for a in self.anims)
        return bool(view and view.over and not paying)

    def felt_chips(
        self, view: SeatView | None, lay: TableLayout
    ) -> list[tuple[tuple[int, int], int]]:
        """The chips lying still on the felt (not the pot's): where and how many.  During a
        street each seat's bet; once the pot is paid, each winner's chips in front of it."""
        if view is None:
            return []
        if not view.over:
            return [(lay.spots[seat].bet_at, sv.bet) for seat, sv in view.seats.items()
                    if sv.bet and seat in lay.spots]  # fmt: skip
        if not self.pot_paid(view):
            return []
        flying = {a.seat for a in self.anims if a.kind == "chips" and a.index == 1}
        won: dict[int, int] = {}
        for seat, amount, _pot in view.awards:
            won[seat] = won.get(seat, 0) + amount
        return [(lay.won_at(seat), amount) for seat, amount in won.items()
                if amount and seat in lay.spots and seat not in flying]  # fmt: skip

    def hidden(self) -> dict[int, set[int]]:
        """The cards not yet landed, seat by seat: their places stay empty."""
        out: dict[int, set[int]] = {}
        for a in self.anims:
            if a.kind == "card" and a.progress < 1:
                out.setdefault(a.seat, set()).add(a.index)
        return out

    def draw_deck(self, surf: pygame.Surface, lay: TableLayout, art: CardArt) -> None:
        """The deck in the middle while cards are still to leave it."""
        if any(a.kind == "card" and a.progress < 0 for a in self.anims):
            back = art.back(lay.px(50))
            for i in range(3):
                at = (lay.deck_at[0] + i * 2, lay.deck_at[1] - i * 2)
                surf.blit(back, back.get_rect(center=at))

    def draw_flying(
        self, surf: pygame.Surface, lay: TableLayout, painter: TablePainter, art: CardArt
    ) -> None:
        for a in self.anims:
            if a.progress < 0:
                continue
            if a.kind == "card" and a.progress < 1:
                spot = lay.spots.get(a.seat)
                if spot is not None:
                    surf.blit(art.back(spot.card_w), a.pos())
            elif a.kind == "chips":
                x, y = a.pos()
                painter.chips(surf, lay, (round(x), round(y)), a.amount, label=a.index == 1)
