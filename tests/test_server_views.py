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


def test_step_frames_are_the_seat_views_encoded_at_every_step_all_ins_too() -> None:
    """``server.frames.step_frames`` packs the view straight from the hand (its pots in
    one pass when nobody still in is all in, R-A3): every viewer's frames must still be
    ``encode_frame`` of the ``events`` and ``table`` messages made of ``seat_view``."""
    from common.protocol import encode_frame
    from common.views import event_view
    from server.frames import step_frames

    all_ins = steps = 0
    for seed in range(6):
        rng = random.Random(seed)
        seats = {s: SeatInfo(f"p{s}") for s in range(7) if s != seed}
        match = Match(seats=seats, rng=rng, hands=4, stack=40 + 15 * seed)
        while not match.is_over:
            hand = match.next_hand(rng=rng)
            events = list(hand.events)
            while True:
                steps += 1
                viewers: set[int | None] = {None, *range(7)}
                got = step_frames(
                    match, events, viewers, match_id="m", hand_no=steps % 3, step=steps,
                    turn_id=steps, players=[],
                )  # fmt: skip
                for viewer in viewers:
                    view = seat_view(hand, viewer).encode()
                    view["turn"] = steps if hand.to_act is not None else None
                    head = {"type": "table", "match": "m", "hand": steps % 3, "hands": match.hands}
                    table = {**head, "step": steps, "view": view, "players": []}
                    seen = [event_view(e, viewer) for e in events]
                    made = {"type": "events", "hand": steps % 3, "step": steps, "events": seen}
                    assert got[viewer] == encode_frame(made) + encode_frame(table), (seed, steps)
                all_ins += any(st.all_in and not st.folded for st in hand.seats.values())
                if hand.is_over:
                    break
                legal = hand.legal_actions()
                kinds = [a.kind.value for a in legal]
                want = next((k for k in ("raise", "bet", "complete") if k in kinds), None)
                pick = want if want and rng.random() < 0.5 else rng.choice(legal).kind
                events = match.apply(hand.to_act, pick)
    assert steps > 200 and all_ins > 20, (steps, all_ins)


def test_a_turn_frame_over_the_packed_legal_actions_is_the_turn_message_framed() -> None:
    """``server.frames.turn_frame`` with the step's packed legal actions is the ``turn``
    message encoded whole, byte for byte, clock or none."""
    from common import protocol as p
    from server.frames import legal_packed, turn_frame

    rng = random.Random(5)
    match = Match(seats={s: SeatInfo(f"p{s}") for s in range(7)}, rng=rng, hands=4, stack=80)
    turns = 0
    while not match.is_over:
        hand = match.next_hand(rng=rng)
        while hand.to_act is not None:
            seat = hand.to_act
            legal = [a.to_dict() for a in hand.legal_actions(seat)]
            for time_left, bank in ((None, None), (12.5, 30.0), (0.0, 0.0), (7, None), (3, 2)):
                want = p.encode_frame(p.Turn(turns, seat, legal, time_left, bank).encode())
                got = turn_frame(turns, seat, legal_packed(hand, seat), time_left, bank)
                assert got == want
            match.apply(seat, rng.choice(hand.legal_actions()).kind)
            turns += 1
    assert turns > 50


def test_a_clock_frame_is_the_clock_message_framed() -> None:
    """``server.frames.clock_frame`` is the ``clock`` message encoded whole, byte for byte,
    turn ids and seconds of every size, running or paused."""
    from common import protocol as p
    from server.frames import clock_frame

    for seat in (0, 3, 6):
        for turn in (0, 1, 127, 128, 255, 256, 70000, 2**32):
            for time_left, bank in ((30.0, 60.0), (0.0, 0.0), (12.3, 0.1), (7, 3)):
                for running in (True, False):
                    msg = p.Clock(seat, turn, time_left, bank, running).encode()
                    got = clock_frame(seat, turn, time_left, bank, running)
                    assert got == p.encode_frame(msg), (seat, turn, time_left, bank, running)
