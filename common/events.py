"""The values the engine hands out: stakes, actions, events and errors.

Event names and fields are the ``stud-hh/1`` words (``../shared/hand-history.md``):
``Ante``, ``Deal``, ``Act``, ``Return``, ``Show`` and ``Award``, and each event's
``to_dict()`` is exactly its hand-history object.  Every value here is
immutable and carries only plain data.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from common.cards import Card

__all__ = [
    "STAKES",
    "Act",
    "Action",
    "ActionKind",
    "Ante",
    "Award",
    "Deal",
    "Event",
    "IllegalAction",
    "ProtocolError",
    "Return",
    "Show",
    "Stakes",
]


class ProtocolError(ValueError):
    """A message that is malformed: bad framing, bad msgpack, missing or wrong fields."""


class IllegalAction(ValueError):
    """A well-formed action that the rules do not allow now.

    The message names the seat, the action and what is legal; the failed call
    has changed nothing.
    """

    def __init__(self, seat: int, action: str, legal: Sequence[Action], reason: str = "") -> None:
        self.seat = seat
        self.action = action
        self.legal = tuple(legal)
        offered = ", ".join(a.describe() for a in legal) or "nothing (not this seat's turn)"
        why = f" ({reason})" if reason else ""
        super().__init__(f"seat {seat} may not {action}{why}; legal: {offered}")


class ActionKind(enum.StrEnum):
    """The betting actions of R-B1, spelled as in ``stud-hh/1``."""

    BRING_IN = "bring_in"
    COMPLETE = "complete"
    BET = "bet"
    RAISE = "raise"
    CALL = "call"
    CHECK = "check"
    FOLD = "fold"


WAGERS = frozenset({ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE})
"""Actions that may lift the highest total (the bring-in aside)."""


@dataclass(frozen=True, slots=True)
class Stakes:
    """Fixed-limit stakes (R-T3)."""

    ante: int = 1
    bring_in: int = 4
    small_bet: int = 10
    big_bet: int = 20

    def bet_for(self, street: int) -> int:
        """One bet of the street: small on third and fourth, big after (R-B5)."""
        return self.small_bet if street <= 4 else self.big_bet

    def to_dict(self) -> dict[str, int]:
        return {
            "ante": self.ante,
            "bring_in": self.bring_in,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
        }


STAKES = Stakes()


@dataclass(frozen=True, slots=True)
class Action:
    """One legal action as a button would name it (R-B1).

    ``put`` is the chips it moves from the stack, ``to`` the seat's street
    total after it; ``all_in`` says the stack is then empty.
    """

    kind: ActionKind
    put: int
    to: int
    all_in: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.kind.value, "put": self.put, "to": self.to, "all_in": self.all_in}

    def describe(self) -> str:
        """Button words: ``"raise to 30"``, ``"call 7 (all in)"``."""
        kind = self.kind
        if kind in (ActionKind.FOLD, ActionKind.CHECK):
            text = kind.value
        elif kind is ActionKind.BRING_IN:
            text = f"bring in {self.put}"
        elif kind is ActionKind.CALL or kind is ActionKind.BET:
            text = f"{kind.value} {self.put}"
        else:
            text = f"{kind.value} to {self.to}"
        return text + " (all in)" if self.all_in else text


class _Event:
    __slots__ = ()
    ev: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Ante(_Event):
    ev: ClassVar[str] = "ante"
    seat: int
    amount: int
    all_in: bool

    def to_dict(self) -> dict[str, Any]:
        return {"ev": "ante", "seat": self.seat, "amount": self.amount, "all_in": self.all_in}


@dataclass(frozen=True, slots=True)
class Deal(_Event):
    ev: ClassVar[str] = "deal"
    seat: int
    street: int
    card: Card
    up: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "ev": "deal",
            "seat": self.seat,
            "street": self.street,
            "card": str(self.card),
            "up": self.up,
        }


@dataclass(frozen=True, slots=True)
class Act(_Event):
    ev: ClassVar[str] = "act"
    seat: int
    street: int
    action: ActionKind
    put: int
    to: int
    all_in: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "ev": "act",
            "seat": self.seat,
            "street": self.street,
            "action": self.action.value,
            "put": self.put,
            "to": self.to,
            "all_in": self.all_in,
        }


@dataclass(frozen=True, slots=True)
class Return(_Event):
    ev: ClassVar[str] = "return"
    seat: int
    amount: int

    def to_dict(self) -> dict[str, Any]:
        return {"ev": "return", "seat": self.seat, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class Show(_Event):
    ev: ClassVar[str] = "show"
    seat: int
    cards: tuple[Card, ...]
    best: tuple[Card, ...]
    hand: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "ev": "show",
            "seat": self.seat,
            "cards": [str(c) for c in self.cards],
            "best": [str(c) for c in self.best],
            "hand": self.hand,
        }


@dataclass(frozen=True, slots=True)
class Award(_Event):
    ev: ClassVar[str] = "award"
    seat: int
    amount: int
    pot: int

    def to_dict(self) -> dict[str, Any]:
        return {"ev": "award", "seat": self.seat, "amount": self.amount, "pot": self.pot}


Event = Ante | Deal | Act | Return | Show | Award
