"""Replaying a ``stud-hh/1`` hand: the table as it stood after each event.

``table_after(record, n, viewer)`` is the table after the first ``n`` events
of ``record``, a ``common.schema.SeatView`` as ``common.views.seat_view`` makes
one (so the client draws a replay with the code that draws live play, and the
view's shape is written once, in ``common.schema``), and ``positions(record)``
is the list of places a replayer steps through.  ``seen_record(record, seat)``
cuts a full record down to what one seat saw at the table.

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
    "hand_label",
    "positions",
    "seen_record",
    "street_starts",
    "table_after",
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


def table_after(record: Mapping[str, Any], n: int, viewer: int | None = None) -> SeatView:
    """The table after the first ``n`` events, a ``SeatView`` as ``seat_view`` makes one
    (``you`` = ``viewer``; no ``turn_id``, no ``legal``).

    Raises ``ValueError`` naming the problem when the record is not well formed.
    """
    try:
        return _table_after(record, n, viewer)
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"not a well-formed stud-hh/1 hand: {exc!r}") from None


def _table_after(record: Mapping[str, Any], n: int, viewer: int | None) -> SeatView:
    events = _events(record)
    n = max(0, min(n, len(events)))
    try:
        seats = {s["seat"]: _Seat(s["seat"], s["stack"]) for s in record["seats"]}
        order = [s["seat"] for s in record["seats"]]
    except (KeyError, TypeError) as exc:
        raise ValueError(f"bad 'seats' in the hand: {exc}") from None
    street = 0
    high = 0
    paid = 0
    bring_in: int | None = None
    awards: list[Award] = []
    for ev in events[:n]:
        kind = ev.get("ev")
        st = seats.get(ev.get("seat"))
        if st is None:
            raise ValueError(f"event for a seat not dealt in: {ev!r}")
        if kind == "ante":
            st.stack -= ev["amount"]
            st.in_pot += ev["amount"]
            st.all_in = st.stack == 0
        elif kind == "deal":
            if ev["street"] != street:  # a new street: its betting starts afresh
                street = ev["street"]
                high = 0
                for s in seats.values():
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
                high = ev["to"]
            if bring_in is None and ev["street"] == 3:
                bring_in = st.seat
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
            paid += ev["amount"]
            awards.append(Award(st.seat, ev["amount"], ev["pot"]))
    nxt = events[n] if n < len(events) else None
    to_act = nxt["seat"] if nxt is not None and nxt.get("ev") == "act" else None
    if bring_in is None and to_act is not None and nxt is not None and nxt["street"] == 3:
        bring_in = to_act  # third street's first act is the bring-in seat's (R-O1)
    over = n == len(events) and any(e.get("ev") == "award" for e in events)
    table: dict[int, TableSeat] = {}
    for s in order:
        st = seats[s]
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
    in_order = [seats[s] for s in order]
    return SeatView(
        street=street,
        button=record.get("button"),
        order=order,
        bring_in=bring_in,
        to_act=to_act,
        turn_id=None,
        high=high,
        pot=sum(st.in_pot for st in in_order) - paid,
        pots=_pots(in_order) if not over else [],
        over=over,
        seats=table,
        awards=awards,
        you=viewer,
        legal=[],
    )


@dataclass(frozen=True, slots=True)
class Position:
    """A place the replayer stops: after ``upto`` events, on ``street``, with words for it."""

    upto: int
    street: int
    label: str


def _names(record: Mapping[str, Any]) -> dict[int, str]:
    return {s["seat"]: str(s.get("name") or f"Seat {s['seat'] + 1}") for s in record["seats"]}


def positions(record: Mapping[str, Any]) -> list[Position]:
    """The stops of a replay, in order: the deal of each street (all its cards at once),
    every action, each hand shown, and the pots paid.  The first stop is the third
    street's deal, the last the end of the hand."""
    events = _events(record)
    names = _names(record)
    out: list[Position] = []
    street = 3
    i = 0
    while i < len(events):
        ev = events[i]
        kind = ev.get("ev")
        name = names.get(ev.get("seat"), "?")  # type: ignore[arg-type]
        if kind in ("ante", "deal"):
            j = i
            while j < len(events) and events[j].get("ev") in ("ante", "deal"):
                if events[j].get("ev") == "deal":
                    street = events[j]["street"]
                j += 1
            out.append(Position(j, street, f"{STREET_WORDS.get(street, 'Deal')}: the deal"))
            i = j
            continue
        if kind == "act":
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
        elif kind == "award":
            j = i
            while j < len(events) and events[j].get("ev") == "award":
                j += 1
            won = ", ".join(f"{names.get(e['seat'], '?')} wins {e['amount']}" for e in events[i:j])
            out.append(Position(j, 8, won))
            i = j
            continue
        i += 1
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
    names = _names(record)
    events = _events(record)
    awards = [e for e in events if e.get("ev") == "award"]
    shows = {e["seat"]: e["hand"] for e in events if e.get("ev") == "show"}
    text = f"Hand {record.get('hand', '?')}"
    if awards:
        won: dict[int, int] = {}
        for a in awards:
            won[a["seat"]] = won.get(a["seat"], 0) + a["amount"]
        parts = []
        for seat, amount in won.items():
            part = f"{names.get(seat, '?')} wins {amount}"
            if seat in shows:
                part += f" with {shows[seat]}"
            parts.append(part)
        text += ": " + "; ".join(parts)
    return text


def seen_record(record: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """``record`` as ``seat`` saw it at the table (``None``: a watcher): other seats'
    down cards are left out of their ``deal`` events, as ``event_view`` sends them."""
    events = []
    for ev in _events(record):
        if ev.get("ev") == "deal" and not ev.get("up") and ev.get("seat") != seat:
            ev = {k: v for k, v in ev.items() if k != "card"}
        events.append(dict(ev))
    return {**record, "events": events}
