"""What a seat sees, typed: the table view, a lobby seat and the legal actions.

The server builds these (``common.views``, ``server.frames``) and sends their
``encode()``; the client reads the wire back with ``decode()``.  Invariants:

- ``encode()`` is the wire dict exactly: the same keys, in the same order, with the
  same optional-key rules as ``docs/protocol.md`` (``tests/test_wire_values.py``
  holds every recorded message to it, key order included).
- ``decode()`` takes whatever msgpack produced and checks it as the client always
  did: seats are 0 to 6, card codes are well formed, numbers are clamped, lists
  are capped (seven seats, eight pots, eight actions), an unknown action is
  dropped.  What cannot be read at all raises ``ProtocolError`` (a ``ValueError``).
- ``decode(x.encode()) == x`` for every value the server makes.

Two counters are both called ``turn`` on the wire; here they have two names:

- ``Hand.turn`` (``common.engine``) counts the decisions a hand has asked for.
- ``SeatView.turn_id`` is the wire's ``turn`` key of a ``table`` view: the table's
  turn id, the one an ``act`` must name, and ``None`` once no seat is to act
  (``server.frames`` puts it in).  A view made off the wire, for a computer seat or
  a test (``common.views.seat_view``), has no table: there the hand's count stands in.

Lists stay lists (not tuples), and pots and awards (``common.events.Award``) are
named tuples, so that the client's drawing code reads them as it always did (``for seat,
amount, pot in view.awards``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from common.events import Action, ActionKind, Award, ProtocolError
from common.history import decode_event
from common.presence import Presence, from_wire
from common.reading import as_cards, as_dict, as_int, as_list, as_list_of, as_seat, as_str, opt_int

__all__ = [
    "MAX_ACTIONS",
    "MAX_AWARDS",
    "MAX_POTS",
    "LegalAction",
    "LobbySeat",
    "Pot",
    "SeatView",
    "Shown",
    "TableSeat",
]

MAX_ACTIONS = 8
MAX_POTS = 8
MAX_AWARDS = 16
_KINDS = {kind.value: kind for kind in ActionKind}


# ------------------------------------------------------------------ legal actions


@dataclass(frozen=True, slots=True)
class LegalAction:
    """One action the server offers the seat to act (R-B1), as its button names it.

    The engine's ``common.events.Action`` on the wire: ``put`` is the chips it moves
    from the stack, ``to`` the seat's street total after it."""

    action: ActionKind
    put: int
    to: int
    all_in: bool = False

    @classmethod
    def of(cls, action: Action) -> LegalAction:
        return cls(action.kind, action.put, action.to, action.all_in)

    def encode(self) -> dict[str, Any]:
        return {"action": str(self.action), "put": self.put, "to": self.to, "all_in": self.all_in}

    @classmethod
    def decode(cls, value: Any) -> LegalAction:
        item = as_dict(value)
        word = item.get("action")
        kind = _KINDS.get(word) if isinstance(word, str) else None
        if kind is None:
            raise ProtocolError(f"no action {str(item.get('action'))[:20]!r}")
        return cls(
            kind,
            as_int(item.get("put"), 0, lo=0),
            as_int(item.get("to"), 0, lo=0),
            item.get("all_in") is True,
        )

    @property
    def label(self) -> str:
        """Button words naming the amount: ``"Complete to 10"``, ``"Call 7 (all in)"``."""
        text = {
            "fold": "Fold",
            "check": "Check",
            "call": f"Call {self.put}",
            "bet": f"Bet {self.put}",
            "bring_in": f"Bring in {self.put}",
            "complete": f"Complete to {self.to}",
            "raise": f"Raise to {self.to}",
        }[self.action]
        return text + " (all in)" if self.all_in else text

    @property
    def key(self) -> str:
        """Keyboard shortcut: F fold, C check/call, B bring in/bet, R complete/raise."""
        return {"fold": "F", "check": "C", "call": "C", "bring_in": "B", "bet": "B",
                "complete": "R", "raise": "R"}[self.action]  # fmt: skip


# ------------------------------------------------------------------ the table view


@dataclass(frozen=True, slots=True)
class Shown:
    """A hand shown at showdown (R-S1): all its cards, the best five and their name."""

    cards: list[str]
    best: list[str]
    hand: str

    def encode(self) -> dict[str, Any]:
        return {"cards": self.cards, "best": self.best, "hand": self.hand}

    @classmethod
    def decode(cls, value: Any) -> Shown:
        sh = as_dict(value)
        return cls(as_cards(sh.get("cards")), as_cards(sh.get("best")), as_str(sh.get("hand")))


class Pot(NamedTuple):
    """A pot as it stands (R-A3), main pot first: its chips and the seats that may win it."""

    amount: int
    seats: list[int]

    def encode(self) -> dict[str, Any]:
        return {"amount": self.amount, "seats": self.seats}

    @classmethod
    def decode(cls, value: Any) -> Pot:
        p = as_dict(value)
        seats = [s for s in as_list(p.get("seats")) if as_seat(s) is not None]
        return cls(as_int(p.get("amount"), 0, lo=0), seats)


@dataclass(frozen=True, slots=True)
class TableSeat:
    """One seat of the table view.  Other seats' down cards are only a count (``down``);
    the viewer's own are ``hole``, and a hand shown at showdown is ``shown``."""

    seat: int
    stack: int = 0
    bet: int = 0
    """Chips put in on this street."""
    in_pot: int = 0
    """Chips put in this hand, antes included."""
    folded: bool = False
    all_in: bool = False
    up: list[str] = field(default_factory=list)
    down: int = 0
    last_action: str | None = None
    shown: Shown | None = None
    hole: list[str] | None = None
    """Only in the viewer's own seat: its down cards in deal order."""

    def encode(self) -> dict[str, Any]:
        # ``shown`` before ``hole``: the order every table frame has had on the wire.
        out: dict[str, Any] = {
            "seat": self.seat,
            "stack": self.stack,
            "bet": self.bet,
            "in_pot": self.in_pot,
            "folded": self.folded,
            "all_in": self.all_in,
            "up": self.up,
            "down": self.down,
            "last_action": self.last_action,
        }
        if self.shown is not None:
            out["shown"] = self.shown.encode()
        if self.hole is not None:
            out["hole"] = self.hole
        return out

    @classmethod
    def decode(cls, value: Any) -> TableSeat:
        item = as_dict(value)
        seat = as_seat(item.get("seat"))
        if seat is None:
            raise ProtocolError("a table seat without a seat number")
        shown = Shown.decode(item["shown"]) if isinstance(item.get("shown"), dict) else None
        hole = as_cards(item["hole"])[:3] if "hole" in item else None
        return cls(
            seat=seat,
            stack=as_int(item.get("stack"), 0, lo=0),
            bet=as_int(item.get("bet"), 0, lo=0),
            in_pot=as_int(item.get("in_pot"), 0, lo=0),
            folded=item.get("folded") is True,
            all_in=item.get("all_in") is True,
            up=as_cards(item.get("up"))[:4],
            down=as_int(item.get("down"), 0, lo=0, hi=3),
            last_action=as_str(item.get("last_action"), limit=20) or None,
            shown=shown,
            hole=hole,
        )

    def cards(self) -> list[tuple[str | None, bool]]:
        """The seat's cards in deal order (R-D3) as (code or None for a back, is a hole card).

        Other seats' hole cards are only a count; ours are known and marked.
        """
        if self.shown is not None and self.shown.cards:
            shown_hole = set(self.shown.cards) - set(self.up)
            return [(c, c in shown_hole) for c in self.shown.cards]
        hole: list[str | None] = (
            list(self.hole) if self.hole is not None else [None] * max(0, min(3, self.down))
        )
        first, last = hole[:2], hole[2:]
        out: list[tuple[str | None, bool]] = [(c, True) for c in first]
        out += [(c, False) for c in self.up]
        out += [(c, True) for c in last]
        return out


@dataclass(frozen=True, slots=True)
class SeatView:
    """The whole table as one seat (``you``; None for a spectator) may see it now:
    the ``view`` of a ``table`` message.  ``seats`` is keyed by seat number, in the
    hand's order (the wire's list order); ``legal`` is empty but on ``you``'s turn."""

    street: int
    button: int | None
    order: list[int]
    bring_in: int | None
    to_act: int | None
    turn_id: int | None
    """The wire's ``turn``: see the module's note on the two turn counters."""
    high: int
    pot: int
    pots: list[Pot]
    over: bool
    seats: dict[int, TableSeat]
    awards: list[Award]
    you: int | None
    legal: list[LegalAction]

    def encode(self) -> dict[str, Any]:
        return {
            "street": self.street,
            "button": self.button,
            "order": self.order,
            "bring_in": self.bring_in,
            "to_act": self.to_act,
            "turn": self.turn_id,
            "high": self.high,
            "pot": self.pot,
            "pots": [p.encode() for p in self.pots],
            "over": self.over,
            "seats": [s.encode() for s in self.seats.values()],
            "awards": [a.to_dict() for a in self.awards],
            "you": self.you,
            "legal": [a.encode() for a in self.legal],
        }

    @classmethod
    def decode(cls, value: Any) -> SeatView:
        v = as_dict(value)
        seats = {entry.seat: entry for entry in as_list_of(TableSeat.decode, v.get("seats"), 7)}
        pots = [Pot.decode(p) for p in as_list(v.get("pots"))[:MAX_POTS] if isinstance(p, dict)]
        awards = as_list_of(decode_event, v.get("awards"), MAX_AWARDS)
        order = [s for s in as_list(v.get("order")) if as_seat(s) is not None and s in seats]
        order += [s for s in sorted(seats) if s not in order]
        return cls(
            street=as_int(v.get("street"), 0, lo=0, hi=7),
            button=as_seat(v.get("button")),
            order=order,
            bring_in=as_seat(v.get("bring_in")),
            to_act=as_seat(v.get("to_act")),
            turn_id=opt_int(v.get("turn")),
            high=as_int(v.get("high"), 0, lo=0),
            pot=as_int(v.get("pot"), 0, lo=0),
            pots=pots,
            over=v.get("over") is True,
            seats=seats,
            awards=[a for a in awards if isinstance(a, Award)],
            you=as_seat(v.get("you")),
            legal=as_list_of(LegalAction.decode, v.get("legal"), MAX_ACTIONS),
        )


# ------------------------------------------------------------------ the lobby


@dataclass(frozen=True, slots=True)
class LobbySeat:
    """A filled seat as the lobby, ``match_start`` and every ``table`` list it
    (``server.seats.Seat.public``).  ``level``/``level_name`` only for a computer seat;
    ``next`` is on the wire only when true (a seat taken after the match began)."""

    seat: int
    name: str
    kind: str
    """``human`` or ``computer``."""
    connected: bool
    host: bool
    away: bool
    away_why: str | None
    """``asked``, ``clock``, ``dropped`` or ``taken`` while ``away`` (R-C2, R-C3)."""
    stand_in: bool
    """A computer plays the seat while it is away (R-C3)."""
    level: str | None = None
    level_name: str | None = None
    next: bool = False
    sealed: bool = False
    """The seat's person is connected over TLS (``docs/protocol.md``); on the wire only
    when true."""

    @property
    def presence(self) -> Presence:
        """The seat's presence state, read from its wire fields."""
        return from_wire(
            connected=self.connected, away=self.away, away_why=self.away_why, next_match=self.next
        )

    def encode(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat,
            "name": self.name,
            "kind": self.kind,
            "connected": self.connected,
            "host": self.host,
            "away": self.away,
            "away_why": self.away_why,
            "stand_in": self.stand_in,
        }
        if self.level is not None:  # ignorable: protocol-1 clients skip unknown keys
            out["level"] = self.level
            out["level_name"] = self.level_name
        if self.next:  # only then: a seat's usual keys stay as they were
            out["next"] = True
        if self.sealed:  # likewise
            out["sealed"] = True
        return out

    @classmethod
    def decode(cls, value: Any) -> LobbySeat:
        item = as_dict(value)
        seat = as_seat(item.get("seat"))
        if seat is None:
            raise ProtocolError("a lobby seat without a seat number")
        computer = item.get("kind") == "computer"
        level = item.get("level") if computer and isinstance(item.get("level"), str) else None
        return cls(
            seat=seat,
            name=as_str(item.get("name"), f"Seat {seat + 1}", 20),
            kind="computer" if computer else "human",
            connected=item.get("connected") is not False,
            host=item.get("host") is True,
            away=item.get("away") is True,
            away_why=as_str(item.get("away_why"), limit=12) or None,
            stand_in=item.get("stand_in") is True,
            level=None if level is None else as_str(level, "", 20),
            level_name=None if level is None else as_str(item.get("level_name"), "", 20),
            next=item.get("next") is True,
            sealed=item.get("sealed") is True,
        )
