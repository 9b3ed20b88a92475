"""Stacked decks and small drivers for rule scenarios (``../shared/RULES.md``).

The engine deals from the deck in order (R-D2, R-D3): on third street a
round of first down cards to every seat in deal order (clockwise, starting
after the button), then a round of second down cards, then a round of up
cards; on each later street one card to every seat that has not folded
(R-D4), in deal order.  ``deck_for`` turns per-seat cards, written in the
order a seat receives them (down, down, up, up, up, up, down), into that
sequence and fills every slot left open (``??``) and the rest of the pack
with unused cards.

Steps are written ``"3:bring_in 4:call 5:complete"``: seat, colon, action.
``play`` asserts that each step's seat is the one to act before applying it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from common.cards import Card, full_deck, parse
from common.engine import Hand, clockwise
from common.events import Act, Award, Deal, Event, Return, Show
from common.history import hand_record
from common.match import SeatInfo
from common.views import seat_view
from tests.hhcheck import problems

__all__ = [
    "view_dict",
    "OPEN",
    "acts",
    "awards",
    "check_record",
    "deal_order",
    "deals",
    "deck_for",
    "legal",
    "new_hand",
    "passive",
    "play",
    "random_walk",
    "returns",
    "shows",
    "to_street",
    "unseen_slots",
]

OPEN = "??"
"""A card left to the filler."""

# Filler cards, spread over ranks and suits so that open slots rarely matter;
# tests that care about a slot name its card.
_FILLER_ORDER: tuple[Card, ...] = tuple(
    sorted(full_deck(), key=lambda c: ((c.rank * 5 + c.suit * 3) % 13, c.suit, c.rank))
)


def deal_order(
    button: int, seats: list[int] | set[int], folded: Mapping[int, int] | None = None
) -> list[tuple[int, int]]:
    """The (seat, card index) of every card the engine deals, in deal order.

    ``folded`` maps a seat to the street on whose betting it folds: it gets
    no card after that street (R-D4).  Card index 0-6 is the seat's 1st to
    7th card.
    """
    folded = dict(folded or {})
    order = clockwise(list(seats), after=button)
    slots = [(s, i) for i in range(3) for s in order]
    for street in (4, 5, 6, 7):
        slots += [(s, street - 1) for s in order if folded.get(s, 8) >= street]
    return slots


def deck_for(
    button: int,
    cards: Mapping[int, str],
    folded: Mapping[int, int] | None = None,
) -> list[Card]:
    """A 52-card pack that deals ``cards[seat]`` (``"As Kd 2c 7h 8h 9h Tc"``) to each seat.

    A seat's string lists its cards in the order it gets them; a short string
    or ``??`` leaves those slots to unused cards, and cards named after a
    seat's fold are simply never dealt.  Every seat of ``cards`` is dealt in.
    """
    wanted: dict[int, list[str]] = {s: text.split() for s, text in cards.items()}
    named = [c for codes in wanted.values() for c in codes if c != OPEN]
    if len(named) != len(set(named)):
        raise ValueError(f"a card is named twice: {sorted(named)}")
    used = {parse(c) for c in named}
    filler = iter([c for c in _FILLER_ORDER if c not in used])
    deck: list[Card] = []
    slots = deal_order(button, list(cards), folded)
    for seat, index in slots:
        codes = wanted[seat]
        code = codes[index] if index < len(codes) else OPEN
        deck.append(next(filler) if code == OPEN else parse(code))
    deck += [c for c in full_deck() if c not in set(deck)]
    assert len(set(deck)) == 52
    return deck


def new_hand(
    button: int,
    cards: Mapping[int, str],
    *,
    stacks: Mapping[int, int] | None = None,
    folded: Mapping[int, int] | None = None,
) -> Hand:
    """A started hand dealt from ``deck_for``; stacks default to 600 (R-T3)."""
    chips = {s: 600 for s in cards}
    chips.update(stacks or {})
    hand = Hand(stacks=chips, button=button, deck=deck_for(button, cards, folded))
    hand.start()
    return hand


def _steps(steps: str | list[tuple[int, str]]) -> list[tuple[int, str]]:
    if isinstance(steps, str):
        out = []
        for token in steps.replace(",", " ").split():
            seat, _, kind = token.partition(":")
            out.append((int(seat), kind))
        return out
    return list(steps)


def play(hand: Hand, steps: str | list[tuple[int, str]]) -> list[Event]:
    """Apply each (seat, action), asserting it is that seat's turn; the events that followed."""
    events: list[Event] = []
    for i, (seat, kind) in enumerate(_steps(steps)):
        assert hand.to_act == seat, f"step {i} ({seat}:{kind}): seat {hand.to_act} is to act"
        events += hand.apply(seat, kind)
    return events


def passive(hand: Hand) -> None:
    """Play the hand out: every seat brings in, checks or calls."""
    while not hand.is_over:
        kinds = [a.kind.value for a in hand.legal_actions()]
        kind = next(k for k in ("check", "call", "bring_in") if k in kinds)
        assert hand.to_act is not None
        hand.apply(hand.to_act, kind)


def to_street(hand: Hand, street: int) -> None:
    """Bring in, check or call until ``street``'s betting starts."""
    while not hand.is_over and hand.street < street:
        kinds = [a.kind.value for a in hand.legal_actions()]
        kind = next(k for k in ("check", "call", "bring_in") if k in kinds)
        assert hand.to_act is not None
        hand.apply(hand.to_act, kind)
    assert hand.street == street and not hand.is_over


def legal(hand: Hand) -> list[tuple[str, int, int]]:
    """The buttons of the seat to act as (kind, put, to)."""
    return [(a.kind.value, a.put, a.to) for a in hand.legal_actions()]


def acts(hand: Hand, street: int | None = None) -> list[tuple[int, str, int, int]]:
    """The ``act`` events as (seat, action, put, to), optionally of one street."""
    return [
        (e.seat, e.action.value, e.put, e.to)
        for e in hand.events
        if isinstance(e, Act) and (street is None or e.street == street)
    ]


def deals(hand: Hand) -> list[tuple[int, int, str, bool]]:
    """The ``deal`` events as (seat, street, card, up)."""
    return [(e.seat, e.street, str(e.card), e.up) for e in hand.events if isinstance(e, Deal)]


def awards(hand: Hand) -> list[tuple[int, int, int]]:
    """The ``award`` events as (seat, amount, pot)."""
    return [(e.seat, e.amount, e.pot) for e in hand.events if isinstance(e, Award)]


def returns(hand: Hand) -> list[tuple[int, int]]:
    """The ``return`` events as (seat, amount)."""
    return [(e.seat, e.amount) for e in hand.events if isinstance(e, Return)]


def shows(hand: Hand) -> list[int]:
    """The seats in the order they showed."""
    return [e.seat for e in hand.events if isinstance(e, Show)]


def check_record(hand: Hand, final: Mapping[int, int] | None = None) -> dict[str, object]:
    """Build the ``stud-hh/1`` record, assert the checker finds nothing and the final stacks."""
    seats = {s: SeatInfo(name=f"Seat {s}") for s in hand.order}
    record = hand_record(
        match_id="rules", number=1, time="2026-01-01T20:00:00+00:00", hand=hand, seats=seats
    )
    assert problems(record) == []
    if final is not None:
        assert hand.final_stacks() == dict(final)
    return record


def random_walk(
    cards: list[Card], chips: Mapping[int, int], button: int, stop: int, choices: list[float]
) -> Hand:
    """A hand dealt from ``cards`` and played ``stop`` decisions by ``choices`` (each in
    [0, 1) picks one legal action; a fold is mostly a check or call instead), for property
    tests that play the same walk on two decks differing only in cards a seat never sees."""
    hand = Hand(stacks=dict(chips), button=button, deck=list(cards))
    hand.start()
    for i in range(stop):
        if hand.is_over:
            break
        kinds = [a.kind.value for a in hand.legal_actions()]
        kind = kinds[int(choices[i] * len(kinds))]
        if kind == "fold" and choices[i + 1] < 0.7:
            kind = next((k for k in ("check", "call") if k in kinds), kind)
        assert hand.to_act is not None
        hand.apply(hand.to_act, kind)
    return hand


def unseen_slots(hand: Hand, deck: list[Card], viewer: int) -> list[int]:
    """The places in ``deck`` of the cards ``viewer`` never sees in ``hand``: other seats'
    down cards not shown, and the cards not dealt."""
    shown = {c for e in hand.events if isinstance(e, Show) for c in e.cards}
    seen = {c for s in hand.order for c in hand.seats[s].up} | shown
    seen |= set(hand.seats[viewer].down)
    return [i for i, c in enumerate(deck) if c not in seen]


def view_dict(hand: Hand, seat: int | None) -> dict[str, Any]:
    """``seat``'s view as the wire (and a computer seat) reads it."""
    return seat_view(hand, seat).encode()
