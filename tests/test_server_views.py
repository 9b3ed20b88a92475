"""The server's cheap per-seat views are exactly ``common.views.seat_view`` (no sockets)."""

from __future__ import annotations

import random

import msgpack  # type: ignore[import-untyped]

from common.match import Match, SeatInfo
from common.views import seat_view
from server.frames import view_for


def test_view_for_equals_seat_view_at_every_step() -> None:
    rng = random.Random(11)
    match = Match(seats={s: SeatInfo(f"p{s}") for s in (0, 2, 3, 5, 6)}, rng=rng, hands=12)
    steps = 0
    while not match.is_over:
        hand = match.next_hand(rng=rng)
        while True:
            public = seat_view(hand, None)
            for seat in range(7):
                assert view_for(hand, public, seat) == seat_view(hand, seat), (steps, seat)
            if hand.is_over:
                break
            legal = hand.legal_actions()
            match.apply(hand.to_act, rng.choice(legal).kind)
            steps += 1
    assert steps > 50


def test_a_seats_view_encoded_over_the_public_one_is_its_own_encoding_byte_for_byte() -> None:
    """``server.frames`` encodes each seat's view over the public one: the same bytes as
    encoding it whole, key order included."""
    rng = random.Random(3)
    match = Match(seats={s: SeatInfo(f"p{s}") for s in range(7)}, rng=rng, hands=4, stack=80)
    while not match.is_over:
        hand = match.next_hand(rng=rng)
        while True:
            public = seat_view(hand, None)
            wire = public.encode()
            for seat in range(7):
                view = view_for(hand, public, seat)
                assert msgpack.packb(view.encode_over(public, wire)) == msgpack.packb(view.encode())
            if hand.is_over:
                break
            match.apply(hand.to_act, rng.choice(hand.legal_actions()).kind)
