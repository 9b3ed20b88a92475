"""The values the engine hands out: stakes, actions, events and errors.

Event names and fields are the ``stud-hh/1`` words (``../shared/hand-history.md``):
``Ante``, ``Deal``, ``Act``, ``Return``, ``Show`` and ``Award``, and each event's
``to_dict()`` is exactly its hand-history object.  Every value here is
immutable and carries only plain data.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

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

    # Hash as the string it equals ("call" == ActionKind.CALL), which Enum's
    # name-based hash does not, and at C speed: kinds key the engine's caches.
    __hash__ = str.__hash__


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
        return asdict(self)


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


class Ante(NamedTuple):
    seat: int
    amount: int
    all_in: bool

    @property
    def ev(self) -> str:
        return "ante"

    def to_dict(self) -> dict[str, Any]:
        return {"ev": "ante", "seat": self.seat, "amount": self.amount, "all_in": self.all_in}


class Deal(NamedTuple):
    """The ``deal`` event of ``stud-hh/1``.  ``card`` is None where the viewer may not see
    it: another seat's down card, as a client receives it (no ``card`` key)."""

    seat: int
    street: int
    card: Card | None
    up: bool

    @property
    def ev(self) -> str:
        return "deal"

    def to_dict(self) -> dict[str, Any]:
        if self.card is None:
            return {"ev": "deal", "seat": self.seat, "street": self.street, "up": self.up}
        return {
            "ev": "deal",
            "seat": self.seat,
            "street": self.street,
            "card": str(self.card),
            "up": self.up,
        }


class Act(NamedTuple):
    seat: int
    street: int
    action: ActionKind
    put: int
    to: int
    all_in: bool

    @property
    def ev(self) -> str:
        return "act"

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


class Return(NamedTuple):
    seat: int
    amount: int

    @property
    def ev(self) -> str:
        return "return"

    def to_dict(self) -> dict[str, Any]:
        return {"ev": "return", "seat": self.seat, "amount": self.amount}


class Show(NamedTuple):
    seat: int
    cards: tuple[Card, ...]
    best: tuple[Card, ...]
    hand: str

    @property
    def ev(self) -> str:
        return "show"

    def to_dict(self) -> dict[str, Any]:
        return {
            "ev": "show",
            "seat": self.seat,
            "cards": [str(c) for c in self.cards],
            "best": [str(c) for c in self.best],
            "hand": self.hand,
        }


class Award(NamedTuple):
    seat: int
    amount: int
    pot: int

    @property
    def ev(self) -> str:
        return "award"

    def to_dict(self) -> dict[str, Any]:
        return {"ev": "award", "seat": self.seat, "amount": self.amount, "pot": self.pot}


def _typed_eq(self: tuple[Any, ...], other: object) -> bool:
    return type(self) is type(other) and tuple.__eq__(self, other)


def _typed_ne(self: tuple[Any, ...], other: object) -> bool:
    return not _typed_eq(self, other)


def _typed_hash(self: tuple[Any, ...]) -> int:
    return hash((type(self).__name__, tuple(self)))


# Events are NamedTuples rather than frozen dataclasses because the engine
# makes one for every card and action, and a tuple is several times cheaper to
# build (the simulator and the computer seats make millions).  They are just
# as immutable; equality also compares the kind, so that
# Award(1, 5, 0) != Ante(1, 5, False).
for _cls in (Ante, Deal, Act, Return, Show, Award):
    _cls.__eq__ = _typed_eq  # type: ignore[method-assign]
    _cls.__ne__ = _typed_ne  # type: ignore[method-assign,assignment]
    _cls.__hash__ = _typed_hash  # type: ignore[method-assign]

Event = Ante | Deal | Act | Return | Show | Award
