"""What one seat, or a spectator, may see of a hand, computed from its public API.

``seat_view(hand, seat)`` is the whole table as that seat may know it (a
``common.schema.SeatView``); ``event_view(event, seat)`` one engine event.  The one
invariant that matters: a card goes into a view only if the viewer may see it.  Up
cards are public; a seat's down cards go to that seat alone, and to everyone only
through its ``show`` at showdown (R-S1).  Other seats' down cards are *absent* (a
count, never a masked card), so a folded or unshown hand (R-S4) never leaves the server.
"""

from __future__ import annotations

from common import schema
from common.engine import Hand
from common.events import Award, Deal, Event, Show

__all__ = ["event_view", "seat_view"]


def event_view(event: Event, seat: int | None) -> Event:
    """``event`` as ``seat`` may see it (``None``: a spectator); a hidden card is None."""
    if isinstance(event, Deal) and not event.up and event.seat != seat:
        return Deal(event.seat, event.street, None, False)
    return event


def seat_view(hand: Hand, seat: int | None) -> schema.SeatView:
    """Everything ``seat`` may see now: its own down cards, all up cards, stacks, bets,
    pots, button, street, whose turn and, on its turn, its legal actions."""
    shown: dict[int, schema.Shown] = {}
    awards: list[Award] = []
    for event in hand.events if hand.is_over else ():  # hands show and win at the end
        if isinstance(event, Show):
            cards, best = [str(c) for c in event.cards], [str(c) for c in event.best]
            shown[event.seat] = schema.Shown(cards, best, event.hand)
        elif isinstance(event, Award):
            awards.append(event)
    seats = {
        s: schema.TableSeat(
            seat=s,
            stack=st.stack,
            bet=st.street_total,
            in_pot=st.hand_total,
            folded=st.folded,
            all_in=st.all_in,
            up=[str(c) for c in st.up],
            down=len(st.down),
            last_action=str(st.last_action) if st.last_action else None,
            shown=shown.get(s),
            hole=[str(c) for c in st.down] if s == seat else None,
        )
        for s, st in hand.seats.items()
    }
    pots = [] if hand.is_over else [schema.Pot(p.amount, list(p.seats)) for p in hand.pots()]
    legal = [] if seat is None else [schema.LegalAction.of(a) for a in hand.legal_actions(seat)]
    return schema.SeatView(
        street=hand.street,
        button=hand.button,
        order=list(hand.order),
        bring_in=hand.bring_in_seat,
        to_act=hand.to_act,
        turn_id=hand.turn,
        high=hand.high,
        pot=hand.pot_total,
        pots=pots,
        over=hand.is_over,
        seats=seats,
        awards=awards,
        you=seat,
        legal=legal,
    )
