"""Reading a seat's view: the one place in the brain that knows the view's shape.

Every chooser and every memory of the brain reads a view through ``read(view)``
and then only looks at the ``Reading`` it returns.  The view is the typed
``common.schema.SeatView`` of ``common.views.seat_view``; its wire dict (built by
hand, or after a trip through JSON or msgpack) is decoded to one first.

Invariants:

- ``read`` never changes the view and keeps nothing of it: a ``Reading`` holds
  only ints, strings, bools and ``Card`` objects, in tuples.
- It keeps the view's order: seats in the order the view lists them (the deal
  order), buttons in the order they are offered (the first is the fallback).
- It carries only what the seat may see (R-S1): its own hole cards, everyone's
  up cards, and hands shown at the showdown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from common.cards import Card
from common.schema import SeatView, TableSeat

__all__ = ["WAGERS", "Button", "Reading", "SeatSeen", "View", "read"]

View = SeatView | Mapping[str, Any]
"""What a chooser is given: the table's typed view, or its wire dict (``read``)."""

WAGERS = ("complete", "bet", "raise")
"""The actions that put in a new full bet (R-B3, R-B4); in the order a chooser offers them."""


@dataclass(frozen=True, slots=True)
class Button:
    """One legal action as the view offers it."""

    action: str
    put: int
    """Chips this action adds now."""
    to: int
    """The seat's total on the street after it."""
    all_in: bool


@dataclass(frozen=True, slots=True)
class SeatSeen:
    """One seat as the reading seat sees it."""

    seat: int
    up: tuple[Card, ...]
    hole: tuple[Card, ...]
    """Down cards: the reading seat's own only; empty for every other seat."""
    down: int
    """How many down cards it holds (2 when the view does not say)."""
    folded: bool
    bet: int
    """Chips it has put in on this street."""
    last_action: str | None
    shown: tuple[Card, ...] | None
    """The cards it showed down (R-S1), if it did."""


@dataclass(frozen=True, slots=True)
class Reading:
    """A seat's view, read once."""

    you: int | None
    street: int
    pot: int
    high: int
    """The highest street total (what a call reaches)."""
    bring_in: int | None
    legal: tuple[Button, ...]
    """Empty unless it is this seat's turn."""
    seats: tuple[SeatSeen, ...]

    @property
    def names(self) -> list[str]:
        """The legal action names, in the order offered."""
        return [b.action for b in self.legal]

    @property
    def me(self) -> SeatSeen:
        """The reading seat (``StopIteration`` for a spectator's view)."""
        return next(e for e in self.seats if e.seat == self.you)

    @property
    def others(self) -> list[SeatSeen]:
        """Every other seat, folded ones too, in the view's order."""
        return [e for e in self.seats if e.seat != self.you]


def _cards(codes: Sequence[str]) -> tuple[Card, ...]:
    return tuple(Card(c) for c in codes)


def _seat(e: TableSeat) -> SeatSeen:
    return SeatSeen(
        seat=e.seat,
        up=_cards(e.up),
        hole=_cards(e.hole or ()),
        down=e.down,
        folded=e.folded,
        bet=e.bet,
        last_action=e.last_action,
        shown=_cards(e.shown.cards) if e.shown is not None else None,
    )


def read(view: View) -> Reading:
    """The ``Reading`` of a seat's view: the ``common.schema.SeatView`` the table gives a
    computer seat, or its wire dict (a hand-built view, or one that came over a socket),
    which is decoded and checked first."""
    if not isinstance(view, SeatView):
        view = SeatView.decode(view)
    return Reading(
        you=view.you,
        street=view.street,
        pot=view.pot,
        high=view.high,
        bring_in=view.bring_in,
        legal=tuple(Button(str(a.action), a.put, a.to, a.all_in) for a in view.legal),
        seats=tuple(_seat(e) for e in view.seats.values()),
    )
