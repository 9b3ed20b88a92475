"""What one seat, or a spectator, may see of a hand: typed data, computed on demand.

``seat_view(hand, seat)`` is the whole table as that seat may know it, a
``common.schema.SeatView`` (its ``encode()`` is the wire's ``view``, and
``seat_view_dict`` gives that dict at once); ``event_view(event, seat)`` is one
engine event as that seat may know it, a plain dict as msgpack carries it.

The one invariant that matters: a card goes into a view only if the viewer
may see it.  Everyone's up cards are public; a seat's down cards go to that
seat alone, and to everyone only through its ``show`` at showdown (R-S1).
Other seats' down cards are *absent* (a count, never a masked card), so a
folded hand or one that won without showing (R-S4) never leaves the server.

A view made here knows no table, so its ``turn_id`` is the hand's own count of
decisions (``Hand.turn``); the table puts its wire turn id in (``server.frames``,
and the note on the two counters in ``common.schema``).

The hands shown and the awards are read from the hand's events; what was read of the
last hand viewed is kept (``_Read``), so each view reads only the events that came
since (a hand's events only ever grow).  What is kept is never changed in place, so
views made in other threads (the computer seats') see a whole reading or none.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from common import schema
from common.engine import Hand
from common.events import Act, Award, Deal, Event, Show

__all__ = ["event_view", "public_seats", "seat_view", "seat_view_dict", "spectator_view"]


def event_view(event: Event, seat: int | None) -> dict[str, Any]:
    """``event`` as ``seat`` may see it (``None``: a spectator); a hidden card is left out."""
    if isinstance(event, Deal) and not event.up and event.seat != seat:
        return {"ev": "deal", "seat": event.seat, "street": event.street, "up": False}
    return event.to_dict()


def spectator_view(hand: Hand) -> schema.SeatView:
    """The public view: no down card before it is shown."""
    return seat_view(hand, None)


def seat_view_dict(hand: Hand, seat: int | None) -> dict[str, Any]:
    """``seat_view(hand, seat).encode()``: the view as the wire (and a chooser) reads it."""
    return seat_view(hand, seat).encode()


class _Read(NamedTuple):
    """What the first ``read`` events of ``hand`` show: its hands shown and awards."""

    hand: Hand
    read: int
    shown: dict[int, schema.Shown]
    awards: tuple[schema.Award, ...]
    seats: dict[int, tuple[tuple[Any, ...], schema.TableSeat]]
    """Each seat's public entry as last made, with what it was made from."""
    seats_at: int = -1
    """How many of the hand's events there were when every entry of ``seats`` was last
    made or checked (-1: never)."""


_last: _Read | None = None


def _read(hand: Hand) -> _Read:
    """The hands shown and the awards of ``hand`` so far, reading only the events that
    came since the last view of it."""
    global _last
    last = _last
    events = hand.events
    if last is None or last.hand is not hand or last.read > len(events):
        last = _Read(hand, 0, {}, (), {}, -1)
    if last.read == len(events):
        return last
    shown, awards = last.shown, last.awards
    for event in events[last.read :]:
        if isinstance(event, Show):
            shown = {**shown, event.seat: schema.Shown(
                [str(c) for c in event.cards], [str(c) for c in event.best], event.hand
            )}  # fmt: skip
        elif isinstance(event, Award):
            awards = (*awards, schema.Award(event.seat, event.amount, event.pot))
    last = _Read(hand, len(events), shown, awards, last.seats, last.seats_at)
    _last = last
    return last


def _public_seats(hand: Hand, read: _Read) -> dict[int, schema.TableSeat]:
    """Every seat's public entry (no hole cards); an entry is made again only when what
    it says has changed, else the last one is used again (entries are never changed).

    When the one event since every entry was last checked is an ``Act``, only its seat
    can have changed (``Hand.apply`` changes no other seat's state unless it adds more
    events: a street's end, a hand's), so only that seat's entry is checked."""
    global _last
    made = read.seats
    seats: dict[int, schema.TableSeat] = {}
    changed: dict[int, tuple[tuple[Any, ...], schema.TableSeat]] = {}
    states, shown_by, made_by = hand.seats, read.shown.get, made.get
    order = hand.order
    check = order
    if read.seats_at == read.read - 1 and read.read > 0 and len(made) == len(order):
        event = hand.events[read.read - 1]
        if type(event) is Act and event.seat in made:
            check = (event.seat,)
            seats = {s: made[s][1] for s in order}
    for s in check:
        st = states[s]
        act = st.last_action
        shown = shown_by(s)
        # Within a hand cards are only ever added, so their counts say which they are.
        key = (st.stack, st.street_total, st.hand_total, st.folded, st.all_in, len(st.up),
               len(st.down), act, shown)  # fmt: skip
        old = made_by(s)
        if old is not None and old[0] == key:
            seats[s] = old[1]
            continue
        entry = schema.TableSeat(
            seat=s,
            stack=st.stack,
            bet=st.street_total,
            in_pot=st.hand_total,
            folded=st.folded,
            all_in=st.all_in,
            up=[str(c) for c in st.up],
            down=len(st.down),
            last_action=str(act) if act else None,  # a StrEnum: its value
            shown=shown,
        )
        seats[s] = entry
        changed[s] = (key, entry)
    if changed or read.seats_at != read.read:
        made = {**made, **changed} if changed else made
        _last = _Read(hand, read.read, read.shown, read.awards, made, read.read)
    return seats


def public_seats(
    hand: Hand,
) -> tuple[dict[int, schema.TableSeat], tuple[schema.Award, ...]]:
    """The public view's seat entries (in the hand's order, no hole cards) and awards, as
    ``seat_view(hand, None)`` has them, without the rest of the view: an entry and the
    awards are the same objects again while unchanged (``server.frames`` packs them
    once)."""
    read = _read(hand)
    return _public_seats(hand, read), read.awards


def seat_view(hand: Hand, seat: int | None) -> schema.SeatView:
    """Everything ``seat`` may see now: its own down cards, all up cards, stacks, bets,
    pots, button, street, whose turn and, on its turn, its legal actions."""
    read = _read(hand)
    awards = list(read.awards)
    seats = _public_seats(hand, read)
    if seat is not None and seat in seats:
        seats[seat] = seats[seat].with_hole([str(c) for c in hand.seats[seat].down])
    return schema.SeatView(
        street=hand.street,
        button=hand.button,
        order=list(hand.order),
        bring_in=hand.bring_in_seat,
        to_act=hand.to_act,
        turn_id=hand.turn,
        high=hand.high,
        pot=hand.pot_total,
        pots=[schema.Pot(p.amount, list(p.seats)) for p in hand.pots()] if not hand.is_over else [],
        over=hand.is_over,
        seats=seats,
        awards=awards,
        you=seat,
        legal=[schema.LegalAction.of(a) for a in hand.legal_actions(seat)]
        if seat is not None
        else [],
    )
