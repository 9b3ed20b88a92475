"""Hand histories in the public ``stud-hh/1`` format (``../shared/hand-history.md``).

One JSON object per hand, one hand per line: the engine's events with a header and the
``final`` stacks.  ``load`` skips any line that is not a hand and refuses one past
``MAX_LINE`` bytes, nested too deep or holding NaN (``common.safejson``): histories are
shared between friends.  A hand or an event from the other side (a file, the books, the
wire) is checked field by field before anything reads it: ``clean_record``,
``decode_event``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from common.cards import Card, parse
from common.engine import Hand
from common.events import (
    Act,
    ActionKind,
    Ante,
    Award,
    Deal,
    Event,
    ProtocolError,
    Return,
    Show,
    Stakes,
)
from common.match import SeatInfo
from common.reading import CARD_RE, as_dict, as_int, as_list, as_list_of, as_seat, as_str
from common.safejson import loads

__all__ = [
    "FORMAT", "MAX_EVENTS", "MAX_LINE", "clean_record", "decode_event", "decode_events", "dumps",
    "events_of", "hand_record", "load", "read_stakes",
]  # fmt: skip

FORMAT = "stud-hh/1"
MAX_LINE = 1024 * 1024
"""The longest line read as a hand: a hand of seven seats is a few KiB."""


def hand_record(
    *,
    match_id: str,
    number: int,
    time: str,
    hand: Hand,
    seats: Mapping[int, SeatInfo],
) -> dict[str, Any]:
    """The ``stud-hh/1`` object for a finished ``hand``; ``time`` is ISO 8601 with offset."""
    if not hand.is_over:
        raise ValueError("a hand is written only once it is over")
    return {
        "format": FORMAT,
        "match": match_id,
        "hand": number,
        "time": time,
        "stakes": hand.stakes.to_dict(),
        "button": hand.button,
        "seats": [
            {
                "seat": s,
                "name": seats[s].name,
                "kind": seats[s].kind.value,
                "stack": hand.seats[s].start_stack,
            }
            for s in hand.order
        ],
        "events": [event.to_dict() for event in hand.events],
        "final": [{"seat": s, "stack": hand.seats[s].stack} for s in hand.order],
    }


def dumps(record: Mapping[str, Any]) -> str:
    """One line of JSON for the file, newline included."""
    return json.dumps(record, ensure_ascii=False, separators=(", ", ": ")) + "\n"


def load(text: str) -> list[dict[str, Any]]:
    """The ``stud-hh/1`` hands of a history file's text; other lines are skipped."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            record = loads(line, max_bytes=MAX_LINE)
        except ValueError:  # common.safejson.Unreadable
            continue
        if isinstance(record, dict) and record.get("format") == FORMAT:
            out.append(record)
    return out


MAX_EVENTS = 400
"""Events kept of one message or one hand's record (a seven-seat hand has about 120)."""
_ACTIONS = {kind.value: kind for kind in ActionKind}


def _card(value: Any) -> Card | None:
    return parse(value) if isinstance(value, str) and CARD_RE.match(value) else None


def _cards(value: Any, most: int) -> tuple[Card, ...]:
    """The cards of a list, or none at all when one of them is not a card."""
    cards = [_card(c) for c in as_list(value)[:most]]
    return () if None in cards else tuple(c for c in cards if c is not None)


def decode_event(value: Any) -> Event:
    """One ``stud-hh/1`` event from the other side (an ``events`` message, a record)."""
    ev = as_dict(value)
    kind, seat = ev.get("ev"), as_seat(ev.get("seat"))
    if seat is None:
        raise ProtocolError("an event without a seat")
    street = as_int(ev.get("street"), 3, lo=3, hi=7)
    amount = as_int(ev.get("amount"), 0, lo=0)
    if kind == "ante":
        return Ante(seat, amount, ev.get("all_in") is True)
    if kind == "deal":
        card, up = _card(ev.get("card")), ev.get("up") is True
        if up and card is None:
            raise ProtocolError("an up card is always named")
        return Deal(seat, street, card, up)
    if kind == "act":
        action = _ACTIONS.get(ev["action"]) if isinstance(ev.get("action"), str) else None
        if action is None:
            raise ProtocolError("an act without a known action")
        put, to = as_int(ev.get("put"), 0, lo=0), as_int(ev.get("to"), 0, lo=0)
        return Act(seat, street, action, put, to, ev.get("all_in") is True)
    if kind == "return":
        return Return(seat, amount)
    if kind == "show":
        cards, best = _cards(ev.get("cards"), 7), _cards(ev.get("best"), 5)
        if not cards or not best:
            raise ProtocolError("a show without its cards")
        return Show(seat, cards, best, as_str(ev.get("hand"), "", 60))
    if kind == "award":
        return Award(seat, amount, as_int(ev.get("pot"), 0, lo=0, hi=8))
    raise ProtocolError(f"no event {str(kind)[:20]!r}")


def decode_events(value: Any, most: int = MAX_EVENTS) -> list[Event]:
    """The events of a list that can be read; the others dropped."""
    return as_list_of(decode_event, value, most)


def events_of(kind: type[Event], most: int) -> Callable[[Any], list[Any]]:
    """A reader of a list's events of ``kind`` (those read of its first ``most``)."""
    return lambda value: [e for e in decode_events(value, most) if isinstance(e, kind)]


def read_stakes(value: Any) -> Stakes:
    given = value if isinstance(value, dict) else {}
    return Stakes(**{k: as_int(given.get(k), d, lo=0) for k, d in Stakes().to_dict().items()})


def clean_record(value: Any) -> dict[str, Any]:
    """A ``stud-hh/1`` hand (a ``books`` message's, a history file's) with every field
    checked, so that replaying it never meets a value it cannot draw; raises
    ``ProtocolError`` when it is not one."""
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise ProtocolError("not a stud-hh/1 hand")
    seats = [
        {
            "seat": s["seat"],
            "name": as_str(s.get("name"), f"Seat {s['seat'] + 1}", 20),
            "kind": "computer" if s.get("kind") == "computer" else "human",
            "stack": as_int(s.get("stack"), 0, lo=0),
        }
        for s in as_list(value.get("seats"))[:7]
        if isinstance(s, dict) and as_seat(s.get("seat")) is not None
    ]
    dealt = {s["seat"] for s in seats}
    if len(seats) < 2 or len(dealt) != len(seats):
        raise ProtocolError("a hand needs two seats or more")
    return {
        "format": FORMAT,
        "match": as_str(value.get("match"), "", 80),
        "hand": as_int(value.get("hand"), 0, lo=0),
        "time": as_str(value.get("time"), "", 40),
        "stakes": read_stakes(value.get("stakes")).to_dict(),
        "button": as_seat(value.get("button")),
        "seats": seats,
        "events": [e.to_dict() for e in decode_events(value.get("events")) if e.seat in dealt],
        "final": [
            {"seat": f["seat"], "stack": as_int(f.get("stack"), 0, lo=0)}
            for f in as_list(value.get("final"))[:7]
            if isinstance(f, dict) and as_seat(f.get("seat")) in dealt
        ],
    }
