#!/usr/bin/env python3
"""Where a level gives chips away: one-step deviations, rolled out.

At a sampled share of the measured level's decisions (``--rate``), every legal action is
played out to the hand's end from the same spot: the same pack, the same random sources
and memories (copied), the level's own play after the deviation and everyone else's as
before.  An action's value is the level's net chips when it is taken there; the report
groups the decisions by situation (street, players in, what it faces, its starting class
on third street or its made hand and draw later) and prints, for the largest totals,
what taking another action there instead would have gained per decision, with a 95% CI.
A gain well above 0 says the level's rule for that situation is wrong against these
players (on these seeds: tune on the tuning seeds, then judge a change with
``scripts/bench_bots.py --seeds judging``).

    nice -n 10 .venv/bin/python scripts/bot_deviations.py --against tag rock loose lag steamer
    nice -n 10 .venv/bin/python scripts/bot_deviations.py --against mix --seats 4 --rate 0.3
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common.engine import Hand  # noqa: E402
from common.hands import evaluate  # noqa: E402
from common.views import seat_view  # noqa: E402
from scripts.bench_bots import JUDGING, START, TUNING, Night, deal_cards, night_tables, seat_pack  # noqa: E402
from server.brain.reading import read  # noqa: E402
from server.brain.starting import starting_class  # noqa: E402

Sample = tuple[str, str, dict[str, int]]
"""(situation, the action chosen, each legal action's net chips when taken)."""


def situation(view: Any) -> str:
    """The decision's situation: street, players in, what it faces, and its hand."""
    r = read(view)
    me, names = r.me, r.names
    live = [e for e in r.others if not e.folded]
    players = "hu" if len(live) == 1 else f"{len(live) + 1}-way"
    wagers = r.high // (10 if r.street <= 4 else 20)
    cards = list(me.hole + me.up)
    if r.street == 3:
        faces = f"{wagers} wager" if wagers else "open"
        if "bring_in" in names:
            faces = "bring-in seat"
        cls = starting_class(cards, [c for e in r.others for c in e.up])
        return f"3rd {players} {faces}, class {cls}"
    faces = "checked to" if "check" in names else f"{wagers} wager"
    ranks = [c.rank for c in cards]
    kind = min(evaluate(cards) >> 20, 4) if len(cards) >= 5 else int(len(set(ranks)) < len(ranks))
    suits = max(sum(c.suit == s for c in cards) for s in range(4))
    draw = ""
    if len(cards) < 7 and suits >= 3:
        draw = " four-flush" if suits >= 4 else " three-flush"
    made = ("no pair", "pair", "two pair", "trips", "better")[kind]
    return f"{r.street}th {players} {faces}, {made}{draw}"


def _rollout(hand: Hand, night: Night, seat: int, action: str) -> int:
    h = copy.deepcopy(hand)
    players = copy.deepcopy(night.players)
    rngs = copy.deepcopy(night.rngs)
    h.apply(seat, action)
    while not h.is_over:
        s = h.to_act
        assert s is not None
        h.apply(s, players[s](seat_view(h, s), rngs[s]))
    return h.final_stacks()[seat] - START


def run(
    name: str,
    others: str,
    seats: int,
    seed: int,
    night: int,
    rate: float,
    matches: int = 6,
    hands: int = 8,
) -> list[Sample]:
    """One night (``matches`` matches of ``hands`` deals, every rotation) of ``name``
    against ``others``, deviations rolled out at ``rate`` of its decisions.  A hand is
    dealt from one pack (a fold shifts the later cards, unlike the bench's duplicate
    packs: a rollout needs one pack)."""
    pick = random.Random(seed * 77 + night)
    tables = night_tables(name, others, seats, seed, night)
    out: list[Sample] = []
    for m in range(matches):
        for t in tables:
            t.chairs.match_starts(t.night)
        for h in range(hands):
            cards = deal_cards(seed, night * matches * hands + m * hands + h, seats)
            for r, t in enumerate(tables):
                hand = Hand(stacks=dict.fromkeys(t.players, START), button=h % seats,
                            deck=seat_pack(cards, h % seats, {}))  # fmt: skip
                hand.start()
                while not hand.is_over:
                    s = hand.to_act
                    assert s is not None
                    view = seat_view(hand, s)
                    names = [str(a.action) for a in view.legal]
                    if s == r and len(names) > 1 and pick.random() < rate:
                        values = {a: _rollout(hand, t, s, a) for a in names}
                        action = t.players[s](view, t.rngs[s])
                        out.append((situation(view), action, values))
                    else:
                        action = t.players[s](view, t.rngs[s])
                    hand.apply(s, action)
                t.chairs.hand_over(hand)
    return out


def report(samples: list[Sample], rows: int, least: int) -> None:
    gains: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for where, chosen, values in samples:
        for other, value in values.items():
            if other != chosen:
                gains[(where, chosen, other)].append(value - values[chosen])
    lines = []
    for (where, chosen, other), xs in gains.items():
        if len(xs) >= least:
            mean = statistics.fmean(xs)
            half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5
            lines.append((mean * len(xs), where, chosen, other, len(xs), mean, half))
    lines.sort(reverse=True)
    print(f"{len(samples)} decisions rolled out; chips gained per decision by the other action")
    for total, where, chosen, other, n, mean, half in lines[:rows]:
        mark = "*" if mean - half > 0 else " "
        print(f"{mark} {where:<40} {chosen:>8} -> {other:<8} {n:6d}  {mean:+7.2f} ± {half:5.2f}  "
              f"total {total:+8.0f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="shark")
    parser.add_argument("--against", nargs="*", default=["tag"], help="pool members, or mix")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--nights", type=int, default=6, help="nights a seed and member")
    parser.add_argument("--seeds", choices=("tuning", "judging"), default="tuning")
    parser.add_argument("--rate", type=float, default=0.5, help="share of decisions rolled out")
    parser.add_argument("--rows", type=int, default=30)
    parser.add_argument("--least", type=int, default=30, help="fewest decisions a row")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    seeds = JUDGING if args.seeds == "judging" else TUNING
    with ProcessPoolExecutor(args.jobs) as pool:
        spots = [(o, seed, n) for o in args.against for seed in seeds for n in range(args.nights)]
        jobs = [
            pool.submit(run, args.level, o, args.seats, seed, n, args.rate) for o, seed, n in spots
        ]
        samples = [s for j in jobs for s in j.result()]
    report(samples, args.rows, args.least)


if __name__ == "__main__":
    main()
