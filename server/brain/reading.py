"""Reading a seat's view: the one place in the brain that knows the view's shape.

Every chooser and every memory of the brain reads a view through ``read(view)``
and then only looks at the ``Reading`` it returns.  Today the view is the dict
of ``common.views.seat_view`` (or that dict after a trip through JSON or
msgpack); to feed the brain a typed view instead, change this module alone.

Invariants:

- ``read`` never changes the view and keeps nothing of it: a ``Reading`` holds
  only ints, strings, bools and ``Card`` objects, in tuples.
- It keeps the view's order: seats in the order the view lists them (the deal
  order), buttons in the order they are offered (the first is the fallback).
- It carries only what the seat may see (R-S1): its own hole cards, everyone's
  up cards, and hands shown at the showdown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from common.cards import Card

__all__ = ["WAGERS", "Button", "Reading", "SeatSeen", "read"]

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


def _cards(codes: Any) -> tuple[Card, ...]:
    return tuple(Card(c) for c in codes)


def _seat(e: Mapping[str, Any]) -> SeatSeen:
    shown = e.get("shown")
    return SeatSeen(
        seat=e["seat"],
        up=_cards(e["up"]),
        hole=_cards(e.get("hole", ())),
        down=int(e.get("down", 2)),
        folded=bool(e["folded"]),
        bet=int(e.get("bet", 0)),
        last_action=e.get("last_action"),
        shown=_cards(shown["cards"]) if shown else None,
    )


def read(view: Mapping[str, Any]) -> Reading:
    """The ``Reading`` of a ``common.views.seat_view`` dict."""
    return Reading(
        you=view.get("you"),
        street=int(view.get("street") or 0),
        pot=int(view.get("pot", 0)),
        high=int(view.get("high", 0)),
        bring_in=view.get("bring_in"),
        legal=tuple(
            Button(str(a["action"]), int(a["put"]), int(a["to"]), bool(a["all_in"]))
            for a in view["legal"]
        ),
        seats=tuple(_seat(e) for e in view["seats"]),
    )
