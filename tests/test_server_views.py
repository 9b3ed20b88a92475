"""What each viewer is sent after a step is its own ``common.views`` view (no sockets)."""

from __future__ import annotations

import random

from common import protocol as p
from common.match import Match, SeatInfo
from common.views import event_view, seat_view
from server.frames import step_frames


def test_step_frames_are_each_viewers_own_view_at_every_step_all_ins_too() -> None:
    """Every viewer's ``events`` and ``table`` hold ``event_view`` and ``seat_view`` for
    it (the wire's turn id in the view): a watcher sees no down card, a seat only its
    own; side pots and showdowns too (R-A3, R-S1)."""
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
                    seen = [event_view(e, viewer).to_dict() for e in events]
                    want = [
                        {"type": "events", "hand": steps % 3, "step": steps, "events": seen},
                        {"type": "table", "match": "m", "hand": steps % 3, "hands": match.hands,
                         "step": steps, "view": view, "players": []},
                    ]  # fmt: skip
                    assert p.FrameDecoder().feed(got[viewer]) == want, (seed, steps, viewer)
                all_ins += any(st.all_in and not st.folded for st in hand.seats.values())
                if hand.is_over:
                    break
                legal = hand.legal_actions()
                kinds = [a.kind.value for a in legal]
                want_kind = next((k for k in ("raise", "bet", "complete") if k in kinds), None)
                pick = want_kind if want_kind and rng.random() < 0.5 else rng.choice(legal).kind
                events = match.apply(hand.to_act, pick)
    assert steps > 200 and all_ins > 20, (steps, all_ins)
