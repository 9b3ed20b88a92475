"""Replaying a ``stud-hh/1`` hand: the table as it stood after each event.

``table_after(record, n, viewer)`` is the table after the first ``n`` events of
``record`` (``Replay`` walks them one by one), a ``common.schema.SeatView`` as
``common.views.seat_view`` makes one, so the client draws a replay with the code
that draws live play; ``positions(record)`` is the list of places a replayer steps
through; ``seen_record(record, seat)`` cuts a record down to what one seat saw.

Invariants:

- The replay knows nothing the record does not say.  A ``deal`` without a
  ``card`` (another seat's down card, as ``common.views.event_view`` sends it)
  stays a face-down count; a seat's ``hole`` list appears only when every one
  of its down cards is known, and ``shown`` only after its ``show`` event.
- At every point where the engine stops (a seat must decide, or the hand is
  over) ``table_after`` equals ``seat_view(hand, viewer)`` except ``turn_id``
  (``None``) and ``legal`` (empty), which a replay has no use for; a test holds
  them equal, the seats in the same order.
- Nothing here raises on a well-formed record; ``ValueError`` names what is
  wrong with a broken one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from common.engine import side_pots
from common.events import Award
from common.schema import Pot, SeatView, Shown, TableSeat

__all__ = [
    "Position",
    "Replay",
    "hand_label",
    "positions",
    "seat_names",
    "seen_record",
    "street_starts",
    "table_after",
    "won_by",
]

STREET_WORDS = {3: "Third street", 4: "Fourth street", 5: "Fifth street",
                6: "Sixth street", 7: "Seventh street"}  # fmt: skip
_ACT_WORDS = {"bring_in": "brings in", "complete": "completes to", "bet": "bets",
              "raise": "raises to", "call": "calls", "check": "checks",
              "fold": "folds"}  # fmt: skip


@dataclass(slots=True)
class _Seat:
    seat: int
    stack: int
    down: list[str | None] = field(default_factory=list)
    up: list[str] = field(default_factory=list)
    bet: int = 0
    in_pot: int = 0
    folded: bool = False
    all_in: bool = False
    last_action: str | None = None
    shown: Shown | None = None


def _pots(seats: Sequence[_Seat]) -> list[Pot]:
    """The pots as ``Hand.pots`` makes them (R-A3, ``common.engine.side_pots``)."""
    pots = side_pots(
        {s.seat: s.in_pot for s in seats},
        live=[s.seat for s in seats if not s.folded],
        all_in=[s.seat for s in seats if s.all_in],
    )
    return [Pot(pot.amount, list(pot.seats)) for pot in pots]


def _events(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    events = record.get("events")
    if not isinstance(events, list):
        raise ValueError("a stud-hh/1 hand needs an 'events' list")
    return events


class Replay:
    """A hand's table as the record's events leave it: ``step()`` plays the next event,
    ``view(viewer)`` is the table then (``table_after``'s view)."""

    def __init__(self, record: Mapping[str, Any]) -> None:
        self.events = _events(record)
        try:
            self.seats = {s["seat"]: _Seat(s["seat"], s["stack"]) for s in record["seats"]}
            self.order = [s["seat"] for s in record["seats"]]
        except (KeyError, TypeError) as exc:
            raise ValueError(f"bad 'seats' in the hand: {exc}") from None
        self.button = record.get("button")
        self.played = 0
        self.street = 0
        self.high = 0
        self.paid = 0
        self.bring_in: int | None = None
        self.awards: list[Award] = []

    def step(self) -> None:
        ev = self.events[self.played]
        self.played += 1
        kind = ev.get("ev")
        st = self.seats.get(ev.get("seat"))
        if st is None:
            raise ValueError(f"event for a seat not dealt in: {ev!r}")
        if kind == "ante":
            st.stack -= ev["amount"]
            st.in_pot += ev["amount"]
            st.all_in = st.stack == 0
        elif kind == "deal":
            if ev["street"] != self.street:  # a new street: its betting starts afresh
                self.street = ev["street"]
                self.high = 0
                for s in self.seats.values():
                    s.bet = 0
                    s.last_action = None
            card = ev.get("card")
            if ev.get("up"):
                st.up.append(str(card))
            else:
                st.down.append(card if isinstance(card, str) else None)
        elif kind == "act":
            action = ev["action"]
            if action == "fold":
                st.folded = True
            elif ev["put"]:
                st.stack -= ev["put"]
                st.in_pot += ev["put"]
                st.bet = ev["to"]
                st.all_in = st.stack == 0
            if action in ("bring_in", "complete", "bet", "raise"):
                self.high = ev["to"]
            if self.bring_in is None and ev["street"] == 3:
                self.bring_in = st.seat
            st.last_action = action
        elif kind == "return":
            st.stack += ev["amount"]
            st.in_pot -= ev["amount"]
            st.bet -= ev["amount"]
            if st.stack:
                st.all_in = False
        elif kind == "show":
            st.shown = Shown(list(ev["cards"]), list(ev["best"]), ev["hand"])
        elif kind == "award":
            st.stack += ev["amount"]
            self.paid += ev["amount"]
            self.awards.append(Award(st.seat, ev["amount"], ev["pot"]))

    def view(self, viewer: int | None = None) -> SeatView:
        events, n = self.events, self.played
        nxt = events[n] if n < len(events) else None
        to_act = nxt["seat"] if nxt is not None and nxt.get("ev") == "act" else None
        bring_in = self.bring_in
        if bring_in is None and to_act is not None and nxt is not None and nxt["street"] == 3:
            bring_in = to_act  # third street's first act is the bring-in seat's (R-O1)
        over = n == len(events) and bool(self.awards)  # every event played, an award among them
        table: dict[int, TableSeat] = {}
        for s in self.order:
            st = self.seats[s]
            hole = [c for c in st.down if c is not None]
            table[s] = TableSeat(
                seat=s,
                stack=st.stack,
                bet=st.bet,
                in_pot=st.in_pot,
                folded=st.folded,
                all_in=st.all_in,
                up=list(st.up),
                down=len(st.down),
                last_action=st.last_action,
                shown=st.shown,
                hole=hole if st.down and len(hole) == len(st.down) else None,
            )
        in_order = [self.seats[s] for s in self.order]
        return SeatView(
            street=self.street,
            button=self.button,
            order=list(self.order),
            bring_in=bring_in,
            to_act=to_act,
            turn_id=None,
            high=self.high,
            pot=sum(st.in_pot for st in in_order) - self.paid,
            pots=_pots(in_order) if not over else [],
            over=over,
            seats=table,
            awards=list(self.awards),
            you=viewer,
            legal=[],
        )


def table_after(record: Mapping[str, Any], n: int, viewer: int | None = None) -> SeatView:
    """The table after the first ``n`` events, a ``SeatView`` as ``seat_view`` makes one
    (``you`` = ``viewer``; no ``turn_id``, no ``legal``).

    Raises ``ValueError`` naming the problem when the record is not well formed.
    """
    try:
        replay = Replay(record)
        for _ in range(max(0, min(n, len(replay.events)))):
            replay.step()
        return replay.view(viewer)
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"not a well-formed stud-hh/1 hand: {exc!r}") from None


@dataclass(frozen=True, slots=True)
class Position:
    """A place the replayer stops: after ``upto`` events, on ``street``, with words for it."""

    upto: int
    street: int
    label: str


def seat_names(record: Mapping[str, Any]) -> dict[int, str]:
    """Each seat's name in the record (``Seat 3`` for a seat without one)."""
    return {s["seat"]: str(s.get("name") or f"Seat {s['seat'] + 1}") for s in record["seats"]}


def positions(record: Mapping[str, Any]) -> list[Position]:
    """The stops of a replay, in order: the deal of each street (all its cards at once),
    every action, each hand shown, and the pots paid.  The first stop is the third
    street's deal, the last the end of the hand."""
    events = _events(record)
    names = seat_names(record)
    out: list[Position] = []
    street = 3
    for i, ev in enumerate(events):
        kind = ev.get("ev")
        name = names.get(ev.get("seat"), "?")  # type: ignore[arg-type]
        before = events[i - 1].get("ev") if i else None
        if kind in ("ante", "deal"):  # one stop for the street's whole deal
            street = ev["street"] if kind == "deal" else street
            if before in ("ante", "deal"):
                out.pop()
            out.append(Position(i + 1, street, f"{STREET_WORDS.get(street, 'Deal')}: the deal"))
        elif kind == "act":
            words = _ACT_WORDS.get(ev["action"], ev["action"])
            amount = ev["put"] if ev["action"] in ("bring_in", "bet", "call") else ev["to"]
            text = f"{name} {words}"
            if ev["action"] not in ("check", "fold"):
                text += f" {amount}"
            if ev.get("all_in"):
                text += " (all in)"
            out.append(Position(i + 1, street, text))
        elif kind == "return":
            out.append(Position(i + 1, street, f"{ev['amount']} uncalled goes back to {name}"))
        elif kind == "show":
            out.append(Position(i + 1, 8, f"{name} shows {ev['hand']}"))
        elif kind == "award":  # one stop for all the pots
            won = f"{name} wins {ev['amount']}"
            out.append(
                Position(i + 1, 8, f"{out.pop().label}, {won}" if before == "award" else won)
            )
    return out


def street_starts(stops: Sequence[Position]) -> list[int]:
    """Indexes into ``stops`` where a street (or the showdown) begins."""
    out: list[int] = []
    for k, p in enumerate(stops):
        if k == 0 or p.street != stops[k - 1].street:
            out.append(k)
    return out


def hand_label(record: Mapping[str, Any]) -> str:
    """``"Hand 3: Ann wins 112 with two pair, kings and sixes"``."""
    names = seat_names(record)
    shows = {e["seat"]: e["hand"] for e in _events(record) if e.get("ev") == "show"}
    parts = [
        f"{names.get(seat, '?')} wins {amount}" + (f" with {shows[seat]}" if seat in shows else "")
        for seat, amount in won_by(record).items()
    ]
    text = f"Hand {record.get('hand', '?')}"
    return f"{text}: {'; '.join(parts)}" if parts else text


def won_by(record: Mapping[str, Any]) -> dict[int, int]:
    """The chips each seat won in the hand, in the order of its first award."""
    won: dict[int, int] = {}
    for e in _events(record):
        if e.get("ev") == "award":
            won[e["seat"]] = won.get(e["seat"], 0) + e["amount"]
    return won


def seen_record(record: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """``record`` as ``seat`` saw it at the table (``None``: a watcher): other seats'
    down cards are left out of their ``deal`` events, as ``event_view`` sends them."""
    events = []
    for ev in _events(record):
        if ev.get("ev") == "deal" and not ev.get("up") and ev.get("seat") != seat:
            ev = {k: v for k, v in ev.items() if k != "card"}
        events.append(dict(ev))
    return {**record, "events": events}
