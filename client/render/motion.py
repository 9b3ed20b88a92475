"""Things that fly across the table.  An ``Anim`` names its ends by anchor, not pixels
(``("deck",)``, ``("pot",)``, ``("bet", seat)``, ``("won", seat)``, ``("card", seat, index,
count)``); ``place`` turns them into points for one layout, so a resize re-lays what flies."""

from __future__ import annotations

from dataclasses import dataclass

from client.render.layout import TableLayout

__all__ = ["Anim", "Anchor", "anchor_point"]

Anchor = tuple[object, ...]


def anchor_point(lay: TableLayout, anchor: Anchor) -> tuple[float, float]:
    """Where ``anchor`` is on ``lay``; a seat that has left the layout maps to the pot."""
    kind = anchor[0]
    if kind == "deck":
        return lay.deck_at
    if kind == "pot":
        return lay.pot_at
    seat = anchor[1]
    spot = lay.spots.get(seat) if isinstance(seat, int) else None
    if spot is None:
        return lay.pot_at
    if kind == "bet":
        return spot.bet_at
    if kind == "won":
        return lay.won_at(spot.seat)
    if kind == "card":
        index, count = anchor[2], anchor[3]
        assert isinstance(index, int) and isinstance(count, int)
        rects = spot.card_rects(max(count, index + 1))
        return rects[index].topleft
    raise ValueError(f"unknown anchor {anchor!r}")


@dataclass
class Anim:
    kind: str  # card or chips
    seat: int
    index: int  # a card's place in the row; for chips 0 = a bet swept, 1 = a pot won
    src: Anchor
    dst: Anchor
    delay: float
    dur: float
    amount: int = 0
    t: float = 0.0
    start: tuple[float, float] = (0.0, 0.0)
    end: tuple[float, float] = (0.0, 0.0)
    heard: bool = False  # its sound has been played (as it set off)

    def place(self, lay: TableLayout) -> Anim:
        """Set the pixel ends from the anchors for ``lay`` (on creation and after a resize)."""
        self.start = anchor_point(lay, self.src)
        self.end = anchor_point(lay, self.dst)
        return self

    @property
    def progress(self) -> float:
        if self.t < self.delay:
            return -1.0
        return min(1.0, (self.t - self.delay) / self.dur)

    @property
    def started(self) -> bool:
        return self.t >= self.delay

    def pos(self) -> tuple[float, float]:
        p = max(0.0, self.progress)
        e = 1 - (1 - p) ** 3  # ease out
        return (self.start[0] + (self.end[0] - self.start[0]) * e,
                self.start[1] + (self.end[1] - self.start[1]) * e)  # fmt: skip
