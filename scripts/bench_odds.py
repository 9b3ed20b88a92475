"""Odds on request in the real table scene: how long from the request to the figure, and
whether any frame runs over while the odds are worked out (issue 19 point 2).

    .venv/bin/python scripts/bench_odds.py [--runs 3]

Drives ``client.app.App`` (``SDL_VIDEODRIVER=dummy``) through its own loop
(``App.step``: events, the scenes' fixed steps, drawing, the rest of the frame
slept) on two spots, each dealt by the engine and shown to our seat as the server
would: seven seats on third street (the worst case, sampled) and heads-up on
sixth street (sampled: the rival's three unseen cards make 400,000-odd deals) and
seventh street (counted).  For each, the odds are asked for (key W) and the loop
runs until the readout shows its figure; it prints

- the wall time from the request to the result,
- the CPU time of the computation (``time.process_time`` around each frame's slice),
- the longest frame while it ran (the time from the frame's start to its rest) against
  the 16.7 ms budget, and how many frames went over; and the same for 40 frames of the
  same table ticking with no odds to work out, just before (the anchor: what the
  machine's load does to a frame without them).

Not a test: the machine's load moves these numbers.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FRAME = 1 / 60


def messages(seats: int, street: int) -> list[dict[str, Any]]:
    """A hand of ``seats`` seats dealt by the engine and played (bring-in, calls, checks)
    to ``street``, then bet into our seat 0: the messages seat 0 gets, the lobby
    allowing odds."""
    import random

    from common.cards import full_deck
    from common.engine import Hand
    from common.views import event_view, seat_view
    from tests.demo import lobby_seat

    deck = full_deck()
    random.Random(seats * 10 + street).shuffle(deck)
    hand = Hand(stacks={s: 600 for s in range(seats)}, button=seats - 1, deck=deck)
    hand.start()
    while hand.to_act is not None and (hand.street < street or hand.to_act == 0):
        kinds = [a.kind.value for a in hand.legal_actions()]
        if hand.street == street and "bet" in kinds:
            kind = "bet"  # a rival bets: our seat faces a call
        else:
            kind = next(k for k in ("check", "call", "bring_in") if k in kinds)
        hand.apply(hand.to_act, kind)
    while hand.to_act is not None and hand.to_act != 0:  # bet into us
        kinds = [a.kind.value for a in hand.legal_actions()]
        kind = next(k for k in ("bet", "complete", "raise", "call", "check") if k in kinds)
        hand.apply(hand.to_act, kind)
    assert hand.street == street and hand.to_act == 0, (hand.street, hand.to_act)
    players = [lobby_seat(s, f"Seat {s}" if s else "Ann", "human", host=s == 0)
               for s in range(seats)]  # fmt: skip
    view = seat_view(hand, 0).encode()
    return [
        {"type": "welcome", "protocol": 2, "seat": 0, "token": "bench", "name": "Ann",
         "host": True, "watch": False, "hands": 8},
        {"type": "match_start", "match": "bench", "hands": 8, "seats": players,
         "stakes": {"ante": 1, "bring_in": 4, "small_bet": 10, "big_bet": 20}, "stack": 600},
        {"type": "lobby", "seats": players, "host": 0, "hands": 8, "can_start": False,
         "start_when": None, "running": True, "max_seats": 7, "odds": True},
        {"type": "events", "hand": 1, "step": 1,
         "events": [event_view(e, 0).to_dict() for e in hand.events]},
        {"type": "table", "match": "bench", "hand": 1, "hands": 8, "step": 1, "view": view,
         "players": players},
        {"type": "turn", "turn": hand.turn, "seat": 0, "legal": view["legal"], "time_left": None},
    ]  # fmt: skip


def run(app: Any, msgs: list[dict[str, Any]]) -> dict[str, Any]:
    import pygame

    from client.model import Session
    from tests.clientkit import feed

    app.settings.odds = False
    app.link.session = Session("Ann")
    feed(app, msgs)
    for _ in range(3):
        app.step(max_wait=0.001)
    scene = app.top()
    assert scene.name == "table", scene.name
    scene.motion.anims.clear()
    for _ in range(5):  # settle: nothing moves, the window idles
        app.step(max_wait=0.001)
    box = scene.panel.odds
    cpu = [0.0]
    work = box.work

    def timed_work(seconds: float) -> bool:
        t = time.process_time()
        did = work(seconds)
        cpu[0] += time.process_time() - t
        return did

    box.work = timed_work  # type: ignore[method-assign]
    busy: list[float] = []
    rest = app.pacer.rest

    def timed_rest() -> None:
        busy.append(time.monotonic() - frame_start[0])
        rest()

    app.pacer.rest = timed_rest  # type: ignore[method-assign]
    frame_start = [0.0]
    # The anchor: as many frames of the same table ticking at 60 fps with no odds worked.
    animating = scene.animating
    scene.animating = lambda: True  # type: ignore[method-assign]
    for _ in range(40):
        frame_start[0] = time.monotonic()
        app.step(max_wait=0.001)
    scene.animating = animating  # type: ignore[method-assign]
    idle, busy[:] = list(busy), []
    began = time.perf_counter()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_w, mod=0, unicode="w",
                                         scancode=0))  # fmt: skip
    frames = 0
    while True:
        frame_start[0] = time.monotonic()
        app.step(max_wait=0.001)
        frames += 1
        if box.job is not None and box.job.done:
            break
        assert frames < 5_000 and not app._faults, app._faults
    wall = time.perf_counter() - began
    app.pacer.rest = rest  # type: ignore[method-assign]
    job = box.job
    assert job is not None and job.result is not None
    return {
        "wall": wall,
        "cpu": cpu[0],
        "frames": frames,
        "longest": max(busy) if busy else 0.0,
        "over": sum(b > FRAME for b in busy),
        "idle_longest": max(idle),
        "idle_over": sum(b > FRAME for b in idle),
        "idle_frames": len(idle),
        "exact": job.exact,
        "deals": job.deals,
        "slices": job.slices,
        "lines": scene.odds_lines(),
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["STUD_MDNS"] = "off"
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp()
    from client.app import App
    from client.settings import Settings

    app = App(Settings(name="Ann"), size=(1280, 800), save_settings=False)
    app.init_display()
    spots = {
        "7 seats, third street": messages(7, 3),
        "heads-up, sixth street": messages(2, 6),
        "heads-up, seventh street": messages(2, 7),
    }
    print(f"frame budget {FRAME * 1000:.1f} ms; work budget a frame "
          f"{app.registry.make('table', app).panel.odds.budget * 1000:.1f} ms")  # fmt: skip
    for name, msgs in spots.items():
        results = [run(app, msgs) for _ in range(args.runs)]
        r = results[0]
        how = "counted" if r["exact"] else "sampled"
        print(f"\n{name}: {how}, {r['deals']} deals in {r['slices']} slices; {r['lines']}")
        for r in results:
            print(f"  request to result {r['wall'] * 1000:7.1f} ms wall, "
                  f"{r['cpu'] * 1000:6.1f} ms CPU over {r['frames']} frames; "
                  f"longest frame {r['longest'] * 1000:5.1f} ms, "
                  f"{r['over']} over {FRAME * 1000:.1f} ms; without the odds (anchor) "
                  f"longest {r['idle_longest'] * 1000:5.1f} ms, "
                  f"{r['idle_over']} of {r['idle_frames']} over")  # fmt: skip
    app.link.session = None
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
