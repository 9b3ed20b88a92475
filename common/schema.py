"""What a seat sees, typed: the table view, a lobby seat and the legal actions.

``common.reading.Wire`` values: the server builds them (``common.views``,
``server.frames``) and sends their ``encode()``, the wire dict exactly
(``tests/test_wire_values.py``); the client reads them back with ``decode()``, which
clamps numbers, caps lists and drops what it cannot read; ``decode(x.encode()) == x``.

Two counters are both called ``turn`` on the wire: ``Hand.turn`` counts the decisions a
hand has asked for; ``SeatView.turn_id``, the ``turn`` of a ``table`` view, is the
table's turn id an ``act`` must name (``server.frames`` puts it in; None once no seat is
to act).  A view made without a table (``common.views.seat_view``) carries the hand's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from common import reading
from common.events import Action, ActionKind, Award, ProtocolError
from common.history import events_of
from common.presence import Presence, from_wire
from common.reading import Wire, read_fields, wire

__all__ = [
    "MAX_ACTIONS", "MAX_AWARDS", "MAX_POTS", "LegalAction", "LobbySeat", "Pot", "SeatView",
    "Shown", "TableSeat",
]  # fmt: skip

MAX_ACTIONS = 8
MAX_POTS = 8
MAX_AWARDS = 16
_KINDS = {kind.value: kind for kind in ActionKind}
_LABELS = {"fold": "Fold", "check": "Check", "call": "Call {put}", "bet": "Bet {put}",
           "bring_in": "Bring in {put}", "complete": "Complete to {to}",
           "raise": "Raise to {to}"}  # fmt: skip
_KEYS = {"fold": "F", "check": "C", "call": "C", "bring_in": "B", "bet": "B",
         "complete": "R", "raise": "R"}  # fmt: skip


def _kind(value: Any) -> ActionKind:
    kind = _KINDS.get(value) if isinstance(value, str) else None
    if kind is None:
        raise ProtocolError(f"no action {str(value)[:20]!r}")
    return kind


@dataclass(frozen=True, slots=True)
class LegalAction(Wire):
    """One action the server offers the seat to act (R-B1), as its button names it.

    The engine's ``common.events.Action`` on the wire: ``put`` is the chips it moves
    from the stack, ``to`` the seat's street total after it."""

    action: ActionKind = wire(_kind, put=str)
    put: int = wire(reading.num(0, lo=0))
    to: int = wire(reading.num(0, lo=0))
    all_in: bool = wire(reading.flag, default=False)

    @classmethod
    def of(cls, action: Action) -> LegalAction:
        return cls(action.kind, action.put, action.to, action.all_in)

    @property
    def label(self) -> str:
        """Button words naming the amount: ``"Complete to 10"``, ``"Call 7 (all in)"``."""
        words = _LABELS[self.action].format(put=self.put, to=self.to)
        return words + " (all in)" if self.all_in else words

    @property
    def key(self) -> str:
        """Keyboard shortcut: F fold, C check/call, B bring in/bet, R complete/raise."""
        return _KEYS[self.action]


# ------------------------------------------------------------------ the table view


@dataclass(frozen=True, slots=True)
class Shown(Wire):
    """A hand shown at showdown (R-S1): all its cards, the best five and their name."""

    cards: list[str] = wire(reading.card_codes(7))
    best: list[str] = wire(reading.card_codes(7))
    hand: str = wire(reading.text(200))


def _seat_list(value: Any) -> list[int]:
    return [s for s in reading.as_list(value) if reading.as_seat(s) is not None]


@dataclass(frozen=True, slots=True)
class Pot(Wire):
    """A pot as it stands (R-A3), main pot first: its chips and the seats that may win it."""

    amount: int = wire(reading.num(0, lo=0))
    seats: list[int] = wire(_seat_list)


@dataclass(frozen=True, slots=True)
class TableSeat(Wire):
    """One seat of the table view.  Other seats' down cards are only a count (``down``);
    the viewer's own are ``hole``, and a hand shown at showdown is ``shown``."""

    OPTIONAL = ("shown", "hole")
    seat: int = wire(reading.needed_seat)
    stack: int = wire(reading.num(0, lo=0), default=0)
    bet: int = wire(reading.num(0, lo=0), default=0)
    """Chips put in on this street."""
    in_pot: int = wire(reading.num(0, lo=0), default=0)
    """Chips put in this hand, antes included."""
    folded: bool = wire(reading.flag, default=False)
    all_in: bool = wire(reading.flag, default=False)
    up: list[str] = wire(reading.card_codes(4), default_factory=list)
    down: int = wire(reading.num(0, lo=0, hi=3), default=0)
    last_action: str | None = wire(reading.opt_text(20), default=None)
    shown: Shown | None = wire(reading.if_dict(Shown.decode), put=Shown.encode, default=None)
    hole: list[str] | None = wire(reading.maybe(reading.card_codes(3)), default=None)
    """Only in the viewer's own seat: its down cards in deal order."""

    def cards(self) -> list[tuple[str | None, bool]]:
        """The seat's cards in deal order (R-D3) as (code or None for a back, is a hole card).

        Other seats' hole cards are only a count; ours are known and marked.
        """
        if self.shown is not None and self.shown.cards:
            shown_hole = set(self.shown.cards) - set(self.up)
            return [(c, c in shown_hole) for c in self.shown.cards]
        hole: list[str | None] = [None] * max(0, min(3, self.down))
        if self.hole is not None:
            hole = list(self.hole)
        up: list[tuple[str | None, bool]] = [(c, False) for c in self.up]
        return [(c, True) for c in hole[:2]] + up + [(c, True) for c in hole[2:]]


def _table_seats(value: Any) -> dict[int, TableSeat]:
    return {entry.seat: entry for entry in reading.as_list_of(TableSeat.decode, value, 7)}


@dataclass(frozen=True, slots=True)
class SeatView(Wire):
    """The whole table as one seat (``you``; None for a spectator) may see it now:
    the ``view`` of a ``table`` message.  ``seats`` is keyed by seat number, in the
    hand's order (the wire's list order); ``legal`` is empty but on ``you``'s turn."""

    street: int = wire(reading.num(0, lo=0, hi=7))
    button: int | None = wire(reading.as_seat)
    order: list[int] = wire(_seat_list)
    bring_in: int | None = wire(reading.as_seat)
    to_act: int | None = wire(reading.as_seat)
    turn_id: int | None = wire(reading.opt_num(), key="turn")
    """The wire's ``turn``: see the module's note on the two turn counters."""
    high: int = wire(reading.num(0, lo=0))
    pot: int = wire(reading.num(0, lo=0))
    pots: list[Pot] = wire(reading.many(Pot.decode, MAX_POTS), put=reading.encoded)
    over: bool = wire(reading.flag)
    seats: dict[int, TableSeat] = wire(
        _table_seats, put=lambda seats: [s.encode() for s in seats.values()]
    )
    awards: list[Award] = wire(events_of(Award, MAX_AWARDS), put=reading.dicts)
    you: int | None = wire(reading.as_seat)
    legal: list[LegalAction] = wire(
        reading.many(LegalAction.decode, MAX_ACTIONS), put=reading.encoded
    )

    @classmethod
    def decode(cls, value: Any) -> Self:
        """As read, but ``order`` names each seat once: those of ``seats`` it leaves
        out come last."""
        fields = read_fields(cls, value)
        seats = fields["seats"]
        order = [s for s in fields["order"] if s in seats]
        fields["order"] = order + [s for s in sorted(seats) if s not in order]
        return cls(**fields)


# ------------------------------------------------------------------ the lobby


@dataclass(frozen=True, slots=True)
class LobbySeat(Wire):
    """A filled seat as the lobby, ``match_start`` and every ``table`` list it
    (``server.seats.Seat.public``).  ``level``/``level_name`` only for a computer seat;
    ``next`` and ``sealed`` are on the wire only when true."""

    OPTIONAL = ("level", "level_name", "next", "sealed")
    seat: int = wire(reading.needed_seat)
    name: str = wire(reading.opt_text(20))
    kind: str = wire(lambda value: "computer" if value == "computer" else "human")
    """``human`` or ``computer``."""
    connected: bool = wire(reading.unless_false)
    host: bool = wire(reading.flag)
    away: bool = wire(reading.flag)
    away_why: str | None = wire(reading.opt_text(12))
    """``asked``, ``clock``, ``dropped`` or ``taken`` while ``away`` (R-C2, R-C3)."""
    stand_in: bool = wire(reading.flag)
    """A computer plays the seat while it is away (R-C3)."""
    level: str | None = wire(reading.str_or_none(20), default=None)
    level_name: str | None = wire(reading.text(20), default=None)
    next: bool = wire(reading.flag, default=False)
    """Taken after the match began: the seat plays from the next match."""
    sealed: bool = wire(reading.flag, default=False)
    """The seat's person is connected over TLS (``docs/protocol.md``)."""

    @property
    def presence(self) -> Presence:
        """The seat's presence state, read from its wire fields."""
        return from_wire(
            connected=self.connected, away=self.away, away_why=self.away_why, next_match=self.next
        )

    @classmethod
    def decode(cls, value: Any) -> Self:
        """As read, but a seat without a name is called by its number, and only a
        computer seat has a level."""
        fields = read_fields(cls, value)
        if fields["name"] is None:
            fields["name"] = f"Seat {fields['seat'] + 1}"
        if fields["kind"] != "computer" or fields["level"] is None:
            fields["level"] = fields["level_name"] = None
        return cls(**fields)
