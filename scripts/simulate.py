#!/usr/bin/env python3
"""Play matches back to back with no network and write every hand's ``stud-hh/1`` line.

    python scripts/simulate.py --seats 7 --hands 20000 --stack 60 --seed 1 --out h.jsonl

Every seat picks uniformly at random among its legal actions.  Everything
random (buttons, packs, choices) comes from one ``random.Random(seed)``, and
the hand times are synthetic, so the same seed writes the same file.  Small
stacks (``--stack 60``) make all-ins, side pots and short bring-ins common.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common.history import dumps, hand_record  # noqa: E402
from common.match import HAND_COUNTS, Match, SeatInfo, SeatKind  # noqa: E402

EPOCH = datetime(2026, 1, 1, 20, 0, tzinfo=timezone(timedelta(hours=1)))


def simulate(
    *, seats: int, hands: int, seed: int, out, stack: int = 600, match_hands: int = 8
) -> int:
    """Write ``hands`` hand histories to the text file ``out``; returns the number of matches."""
    rng = random.Random(seed)
    infos = {s: SeatInfo(name=f"Sim {s + 1}", kind=SeatKind.COMPUTER) for s in range(seats)}
    dealt = 0
    matches = 0
    while dealt < hands:
        matches += 1
        match_id = f"sim-{seed}-{matches:05d}"
        match = Match(seats=infos, rng=rng, hands=match_hands, stack=stack)
        while not match.is_over and dealt < hands:
            hand = match.next_hand(rng=rng)
            while not hand.is_over:
                seat = hand.to_act
                assert seat is not None
                match.apply(seat, rng.choice(hand.legal_actions()).kind)
            dealt += 1
            stamp = (EPOCH + timedelta(minutes=2 * dealt)).isoformat()
            record = hand_record(
                match_id=match_id, number=match.hands_played, time=stamp, hand=hand, seats=infos
            )
            out.write(dumps(record))
    return matches


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=7, choices=range(2, 8), metavar="2..7")
    parser.add_argument("--hands", type=int, required=True, help="hands to deal in all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True, help="the .jsonl file to write")
    parser.add_argument("--stack", type=int, default=600, help="starting stack (default 600)")
    parser.add_argument("--match-hands", type=int, default=8, choices=HAND_COUNTS)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    with args.out.open("w", encoding="utf-8") as out:
        matches = simulate(
            seats=args.seats,
            hands=args.hands,
            seed=args.seed,
            out=out,
            stack=args.stack,
            match_hands=args.match_hands,
        )
    elapsed = time.perf_counter() - started
    print(
        f"{args.hands} hands in {matches} matches, {elapsed:.1f} s "
        f"({args.hands / elapsed:,.0f} hands/s) -> {args.out}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
