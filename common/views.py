"""What one seat, or a spectator, may see of a hand: plain data, computed on demand.

``seat_view(hand, seat)`` is the whole table as that seat may know it and
``event_view(event, seat)`` is one engine event as that seat may know it.
Both return only ``dict``/``list``/``str``/``int``/``bool``/``None``, so msgpack
carries them as they are.

The one invariant that matters: a card goes into a view only if the viewer
may see it.  Everyone's up cards are public; a seat's down cards go to that
seat alone, and to everyone only through its ``show`` at showdown (R-S1).
Other seats' down cards are *absent* (a count, never a masked card), so a
folded hand or one that won without showing (R-S4) never leaves the server.
"""

from __future__ import annotations

from typing import Any

from common.engine import Hand
from common.events import Award, Deal, Event, Show

__all__ = ["event_view", "seat_view", "spectator_view"]


def event_view(event: Event, seat: int | None) -> dict[str, Any]:
    """``event`` as ``seat`` may see it (``None``: a spectator); a hidden card is left out."""
    if isinstance(event, Deal) and not event.up and event.seat != seat:
        return {"ev": "deal", "seat": event.seat, "street": event.street, "up": False}
    return event.to_dict()


def spectator_view(hand: Hand) -> dict[str, Any]:
    """The public view: no down card before it is shown."""
    return seat_view(hand, None)


def seat_view(hand: Hand, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` may see now: its own down cards, all up cards, stacks, bets,
    pots, button, street, whose turn and, on its turn, its legal actions."""
    shown: dict[int, dict[str, Any]] = {}
    awards: list[dict[str, Any]] = []
    for event in hand.events:
        if isinstance(event, Show):
            shown[event.seat] = {
                "cards": [str(c) for c in event.cards],
                "best": [str(c) for c in event.best],
                "hand": event.hand,
            }
        elif isinstance(event, Award):
            awards.append(event.to_dict())
    seats = []
    for s in hand.order:
        st = hand.seats[s]
        entry: dict[str, Any] = {
            "seat": s,
            "stack": st.stack,
            "bet": st.street_total,
            "in_pot": st.hand_total,
            "folded": st.folded,
            "all_in": st.all_in,
            "up": [str(c) for c in st.up],
            "down": len(st.down),
            "last_action": st.last_action.value if st.last_action else None,
        }
        if s == seat:
            entry["hole"] = [str(c) for c in st.down]
        if s in shown:
            entry["shown"] = shown[s]
        seats.append(entry)
    view: dict[str, Any] = {
        "street": hand.street,
        "button": hand.button,
        "order": list(hand.order),
        "bring_in": hand.bring_in_seat,
        "to_act": hand.to_act,
        "turn": hand.turn,
        "high": hand.high,
        "pot": hand.pot_total,
        "pots": [{"amount": p.amount, "seats": list(p.seats)} for p in hand.pots()]
        if not hand.is_over
        else [],
        "over": hand.is_over,
        "seats": seats,
        "awards": awards,
        "you": seat,
        "legal": [a.to_dict() for a in hand.legal_actions(seat)] if seat is not None else [],
    }
    return view
