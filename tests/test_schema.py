"""``common.schema``: what a seat sees, typed, checked on the way in and exact on the way out."""

from __future__ import annotations

import random

import pytest

from common.cards import shuffled_deck
from common.engine import Hand
from common.events import ActionKind, Award, ProtocolError
from common.presence import Presence
from common.reading import as_list_of
from common.schema import MAX_ACTIONS, LegalAction, LobbySeat, Pot, SeatView, TableSeat
from common.views import seat_view


def _lobby(**kw: object) -> dict[str, object]:
    base: dict[str, object] = {"seat": 2, "name": "Cy", "kind": "human", "connected": True,
                               "host": False, "away": False, "away_why": None,
                               "stand_in": False}  # fmt: skip
    base.update(kw)
    return base


def test_a_lobby_seat_encodes_the_keys_of_seat_public_in_their_order() -> None:
    person = LobbySeat(2, "Cy", "human", True, False, False, None, False)
    assert list(person.encode()) == [
        "seat", "name", "kind", "connected", "host", "away", "away_why", "stand_in",
    ]  # fmt: skip
    bot = LobbySeat(6, "Ada", "computer", True, False, False, None, False, "shark", "Shark")
    assert list(bot.encode())[-2:] == ["level", "level_name"]
    late = LobbySeat(3, "Dan", "human", True, False, False, None, False, next=True)
    assert late.encode()["next"] is True and "level" not in late.encode()
    for seat in (person, bot, late):
        assert LobbySeat.decode(seat.encode()) == seat


@pytest.mark.parametrize(
    ("fields", "presence"),
    [
        ({}, Presence.PLAYING),
        ({"connected": False}, Presence.DROPPED),
        ({"away": True, "away_why": "asked"}, Presence.AWAY_ASKED),
        ({"away": True, "away_why": "clock"}, Presence.AWAY_CLOCK),
        ({"away": True, "away_why": "dropped", "connected": False}, Presence.AWAY_DROPPED),
        ({"away": True, "away_why": "taken"}, Presence.TAKEN),
        ({"next": True}, Presence.NEXT_MATCH),
    ],
)
def test_R_C2_a_lobby_seat_reads_its_presence_from_the_wire(
    fields: dict[str, object], presence: Presence
) -> None:
    assert LobbySeat.decode(_lobby(**fields)).presence is presence


def test_odd_lobby_seats_are_cleaned_or_dropped() -> None:
    seats = as_list_of(
        LobbySeat.decode,
        [_lobby(seat=9), "junk", _lobby(name="x" * 50, kind="robot", level="shark"),
         _lobby(seat=6, kind="computer", level=7)] + [_lobby(seat=s) for s in range(7)],
        7,
    )  # fmt: skip
    # Of the first seven items (the rest are not read), seat 9 and the junk are dropped.
    assert [s.seat for s in seats] == [2, 6, 0, 1, 2]
    assert seats[0].name == "x" * 20 and seats[0].kind == "human" and seats[0].level is None
    assert seats[1].level is None  # a level that is not a string
    with pytest.raises(ProtocolError):
        LobbySeat.decode([])


def test_R_B1_unknown_actions_are_dropped_and_amounts_clamped() -> None:
    legal = as_list_of(
        LegalAction.decode,
        [{"action": "explode"}, {"action": ["fold"]}, "x", {"action": "call", "put": -4, "to": "y"}]
        + [{"action": "fold"}] * 10,
        MAX_ACTIONS,
    )
    assert legal[0] == LegalAction(ActionKind.CALL, 0, 0)
    assert len(legal) == 5  # of the first eight items, the call and four folds
    with pytest.raises(ProtocolError):
        LegalAction.decode({"action": "explode"})
    assert LegalAction(ActionKind.RAISE, 26, 30).label == "Raise to 30"
    assert LegalAction(ActionKind.RAISE, 26, 30).key == "R"


def test_a_table_seat_checks_cards_and_counts() -> None:
    seat = TableSeat.decode(
        {"seat": 1, "up": ["Zz", "Ah", "Kh", "Qh", "Jh", "Th"], "down": 9, "hole": ["Ac", 3],
         "stack": 10**12, "shown": {"cards": ["Ac"], "best": "x", "hand": 5}}
    )  # fmt: skip
    assert seat.up == ["Ah", "Kh", "Qh", "Jh"] and seat.down == 3 and seat.hole == ["Ac"]
    assert seat.stack == 10**9 and seat.shown is not None and seat.shown.best == []
    with pytest.raises(ProtocolError):
        TableSeat.decode({"seat": 7})
    with pytest.raises(ProtocolError):
        SeatView.decode(None)


def test_a_view_caps_its_lists_and_keeps_the_servers_order() -> None:
    view = SeatView.decode(
        {"seats": [{"seat": s} for s in (5, 1, 3)], "order": [3, 9, 1],
         "pots": [{"amount": 5, "seats": [1, 8]}] * 12,
         "awards": [{"ev": "award", "seat": 8}, {"ev": "award", "seat": 1}],
         "turn": None, "you": 7}
    )  # fmt: skip
    assert view.order == [3, 1, 5] and list(view.seats) == [5, 1, 3]
    assert view.pots == [Pot(5, [1])] * 8 and view.awards == [Award(1, 0, 0)]
    assert view.turn_id is None and view.you is None


def test_the_two_turn_counters_have_two_names() -> None:
    """``Hand.turn`` counts the hand's decisions; a view made off the wire carries it as
    its ``turn_id``, and the table's frames put the wire's own id there instead."""
    hand = Hand(stacks={0: 600, 3: 600, 5: 600}, button=0, deck=shuffled_deck(random.Random(2)))
    hand.start()
    view = seat_view(hand, 0)
    assert view.turn_id == hand.turn
    assert view.encode()["turn"] == hand.turn
    assert SeatView.decode(view.encode()) == view


def test_every_view_of_a_hand_comes_back_from_the_wire_as_it_was() -> None:
    rng = random.Random(5)
    for _ in range(20):
        stacks = {s: rng.randint(5, 80) for s in (0, 2, 4, 6)}
        hand = Hand(stacks=stacks, button=2, deck=shuffled_deck(rng))
        hand.start()
        while True:
            for viewer in (None, 0, 2, 4, 6):
                view = seat_view(hand, viewer)
                assert SeatView.decode(view.encode()) == view
            if hand.is_over:
                break
            hand.apply(hand.to_act, rng.choice(hand.legal_actions()).kind)
