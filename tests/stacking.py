"""Stacked decks, small drivers for rule scenarios (``../shared/RULES.md``) and views
built by hand for the computer seats.

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
Buttons are written ``"fold 0/4, call 15/19, raise 25/29"``: each action with
the chips it puts in and the seat's total for the street it makes (R-B1).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from hypothesis import strategies as st

from common.cards import Card, full_deck, parse
from common.engine import Hand, clockwise
from common.events import Act, Award, Deal, Return, Show
from common.history import hand_record
from common.match import SeatInfo
from common.views import seat_view
from tests.hhcheck import problems

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
    for seat, index in deal_order(button, list(cards), folded):
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


TABLE_CARDS = {
    1: "?? ?? 2c 2d 3c 4d",
    2: "?? ?? Kd 5h 7c 8d",
    3: "?? ?? Ah 6h 9c Td",
    4: "?? ?? Qs 7s Jc 3h",
    5: "?? ?? Js 8s 4c 6d",
}


def table(stacks: Mapping[int, int] | None = None, n: int = 3, street: int = 3) -> Hand:
    """The rules tests' usual table, at the start of ``street``'s betting: button 0, seats
    1 to ``n`` with 600 chips each but ``stacks``, dealt ``TABLE_CARDS``, so that the deal
    and turn order is 1, 2, 3...; seat 1 has the lowest card (2c: it brings in, R-O1) and
    shows a pair of twos from fourth street on (it acts first there, R-O2)."""
    hand = new_hand(0, {s: TABLE_CARDS[s] for s in range(1, n + 1)}, stacks=stacks)
    if street > 3:
        to_street(hand, street)
    return hand


def play(hand: Hand, steps: str) -> None:
    """Apply each ``seat:action`` step, asserting it is that seat's turn."""
    for i, step in enumerate(steps.split()):
        seat, _, kind = step.partition(":")
        assert hand.to_act == int(seat), f"step {i} ({step}): seat {hand.to_act} is to act"
        hand.apply(int(seat), kind)


def play_out(hand: Hand, choose: Callable[[int], str], until: int = 8) -> None:
    """Apply ``choose(seat)`` for the seat to act until the hand ends or ``until``'s
    betting starts."""
    while not hand.is_over and hand.street < until:
        seat = hand.to_act
        assert seat is not None
        hand.apply(seat, choose(seat))


def passive_action(hand: Hand, seat: int) -> str:
    """Bring in, check or call."""
    kinds = [a.kind.value for a in hand.legal_actions(seat)]
    return next(k for k in ("check", "call", "bring_in") if k in kinds)


def passive(hand: Hand) -> None:
    """Play the hand out: every seat brings in, checks or calls."""
    play_out(hand, lambda seat: passive_action(hand, seat))


def to_street(hand: Hand, street: int) -> None:
    """Bring in, check or call until ``street``'s betting starts."""
    play_out(hand, lambda seat: passive_action(hand, seat), until=street)
    assert hand.street == street and not hand.is_over


def legal(hand: Hand) -> str:
    """The buttons of the seat to act, as ``"fold 0/4, call 15/19"``."""
    return ", ".join(f"{a.kind.value} {a.put}/{a.to}" for a in hand.legal_actions())


def offers(hand: Hand, steps: str, to_act: int, buttons: str) -> None:
    """After ``steps`` seat ``to_act`` is offered ``buttons``; then the hand, played out
    passively, makes a record the checker passes."""
    play(hand, steps)
    assert hand.to_act == to_act
    assert legal(hand) == buttons
    passive(hand)
    check_record(hand)


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


def check_record(hand: Hand, final: Mapping[int, int] | None = None) -> dict[str, Any]:
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


def unseen_swaps(
    seed: int, seats: int, stacks: list[int], data: st.DataObject
) -> Iterator[tuple[Hand, Hand, int]]:
    """A random walk of ``seats`` seats (stacks drawn from ``stacks``) and, for each viewer
    with two or more cards it never sees, the same walk on a deck with two of those
    (drawn from ``data``) swapped: (hand, the other hand, viewer)."""
    rng = random.Random(seed)
    deck = full_deck()
    rng.shuffle(deck)
    chips = {s: rng.choice(stacks) for s in range(seats)}
    button = rng.randrange(seats)
    stop = rng.randrange(0, 40)
    choices = [rng.random() for _ in range(80)]
    hand = random_walk(deck, chips, button, stop, choices)
    for viewer in hand.order:
        unseen = unseen_slots(hand, deck, viewer)
        if len(unseen) < 2:
            continue
        i, j = data.draw(st.sampled_from(unseen)), data.draw(st.sampled_from(unseen))
        other = list(deck)
        other[i], other[j] = other[j], other[i]
        yield hand, random_walk(other, chips, button, stop, choices), viewer


def view_dict(hand: Hand, seat: int | None) -> dict[str, Any]:
    """``seat``'s view as the wire (and a computer seat) reads it."""
    return seat_view(hand, seat).encode()


# ------------------------------------------------- views built by hand, for the brains


def seat(
    number: int,
    up: str,
    hole: str | None = None,
    *,
    down: int = 2,
    bet: int = 0,
    last_action: str | None = None,
) -> dict[str, Any]:
    """One seat of a view built by hand: 500 chips behind, in the pot for its bet and ante."""
    entry: dict[str, Any] = {
        "seat": number,
        "stack": 500,
        "bet": bet,
        "in_pot": bet + 1,
        "folded": False,
        "all_in": False,
        "up": up.split(),
        "down": down,
        "last_action": last_action,
    }
    if hole is not None:
        entry["hole"] = hole.split()
    return entry


def view(
    street: int,
    seats: list[dict[str, Any]],
    buttons: str,
    *,
    pot: int,
    high: int = 0,
    bring_in: int | None = None,
) -> dict[str, Any]:
    """A view built by hand for seat 0 to act, in the shape of ``common.views.seat_view``;
    ``buttons`` as ``legal`` writes them (``""``: none)."""
    legal = []
    for button in filter(None, buttons.split(", ")):
        action, amounts = button.split(" ")
        put, to = amounts.split("/")
        legal.append({"action": action, "put": int(put), "to": int(to), "all_in": False})
    return {
        "street": street,
        "button": seats[-1]["seat"],
        "order": [s["seat"] for s in seats],
        "bring_in": bring_in,
        "to_act": 0,
        "turn": 1,
        "high": high,
        "pot": pot,
        "pots": [],
        "over": False,
        "seats": seats,
        "awards": [],
        "you": 0,
        "legal": legal,
    }
