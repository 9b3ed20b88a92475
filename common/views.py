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
"""

from __future__ import annotations

from typing import Any

from common import schema
from common.engine import Hand
from common.events import Award, Deal, Event, Show

__all__ = ["event_view", "seat_view", "seat_view_dict", "spectator_view"]


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


def seat_view(hand: Hand, seat: int | None) -> schema.SeatView:
    """Everything ``seat`` may see now: its own down cards, all up cards, stacks, bets,
    pots, button, street, whose turn and, on its turn, its legal actions."""
    shown: dict[int, schema.Shown] = {}
    awards: list[schema.Award] = []
    for event in hand.events:
        if isinstance(event, Show):
            shown[event.seat] = schema.Shown(
                [str(c) for c in event.cards], [str(c) for c in event.best], event.hand
            )
        elif isinstance(event, Award):
            awards.append(schema.Award(event.seat, event.amount, event.pot))
    seats: dict[int, schema.TableSeat] = {}
    for s in hand.order:
        st = hand.seats[s]
        seats[s] = schema.TableSeat(
            seat=s,
            stack=st.stack,
            bet=st.street_total,
            in_pot=st.hand_total,
            folded=st.folded,
            all_in=st.all_in,
            up=[str(c) for c in st.up],
            down=len(st.down),
            last_action=st.last_action.value if st.last_action else None,
            shown=shown.get(s),
            hole=[str(c) for c in st.down] if s == seat else None,
        )
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
