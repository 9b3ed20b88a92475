"""A seeded match played by the computer seats' brain: records for the screenshots and the
analysis benchmark (no test uses it).

``demo_match(seed)`` plays a whole match with ``server.brain.choose_action`` for
every seat (or one seat as a ``newcomer``) and returns its ``stud-hh/1`` hands,
every hole card in them, as the server would write them.  Same seed, same match.
"""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone
from typing import Any

from common.history import hand_record
from common.match import Match, SeatInfo, SeatKind
from common.views import seat_view
from server.brain import choose_action

DEMO_NAMES = {0: "Ann", 1: "Ada", 3: "Cy", 4: "Cray", 6: "Eve"}
_START = datetime(2026, 11, 28, 21, 0, tzinfo=timezone(timedelta(hours=1)))


def newcomer(legal: list[str], street: int, rng: random.Random) -> str | None:
    """A newcomer to stud: calls whatever it holds, and now and then folds when bet into
    on the later streets; None where it has no habit (the brain chooses)."""
    if "call" in legal:
        return "fold" if street >= 5 and rng.random() < 0.3 else "call"
    return "check" if "check" in legal else None


def demo_match(
    seed: int = 4, hands: int = 8, *, learner: int | None = None
) -> list[dict[str, Any]]:
    """``learner``: that seat plays as a ``newcomer`` (the analysis's screenshots)."""
    rng = random.Random(seed)
    infos = {
        s: SeatInfo(name, SeatKind.HUMAN if name in ("Ann", "Cy", "Eve") else SeatKind.COMPUTER)
        for s, name in DEMO_NAMES.items()
    }
    match = Match(seats=infos, rng=rng, hands=hands)
    match_id = f"{_START:%Y-%m-%d-%H%M%S}-{seed:04x}"
    out = []
    while not match.is_over:
        hand = match.next_hand(rng=rng)
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            view = seat_view(hand, seat)
            habit = None
            if seat == learner:
                habit = newcomer([a.action for a in view.legal], view.street, rng)
            match.apply(seat, habit or choose_action(view, rng))
        stamp = (_START + timedelta(minutes=3 * match.hands_played)).isoformat()
        rec = hand_record(
            match_id=match_id, number=match.hands_played, time=stamp, hand=hand, seats=infos
        )
        out.append(json.loads(json.dumps(rec)))
    return out
