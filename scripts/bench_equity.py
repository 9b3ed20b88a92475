"""Benchmark of the equity engine (``common.equity``) against the rollouts a user
would write with eval7 or treys.

    .venv/bin/python scripts/bench_equity.py              # every spot
    .venv/bin/python scripts/bench_equity.py --rounds 9   # more rounds, steadier medians

For each spot (heads-up third, fifth and sixth street; seven seats on third
street) it measures, in interleaved rounds, the same Monte Carlo rollouts: deal
every seat's missing cards from the unseen ones, evaluate each seven-card hand,
split the pot among the best.  ``common.equity.sample_share`` does them with the
known cards' partial sums; the anchors draw with ``random.sample`` and evaluate
with ``eval7.evaluate`` or treys' ``Evaluator.evaluate``.  It prints rollouts per
second (median of the rounds) and ratios from the same run, then the milliseconds
``common.equity.equity`` takes to reach +-1 point at 95% (what the odds readout
asks; it reads several deals off each shuffle, so it needs fewer draws) beside
what plain rollouts at each measured rate would take.

The anchors are for comparison only and are not dependencies of the game:

    .venv/bin/pip install eval7 treys

A library that is missing is reported ("eval7 not available") and skipped.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from common.cards import Card, full_deck, parse_many  # noqa: E402
from common.equity import Z95, equity, sample_share  # noqa: E402
from scripts.bench_engine import optional  # noqa: E402

SPOTS: dict[str, tuple[str, list[str]]] = {
    "heads-up 3rd": ("Ah Kh Qh", ["9c"]),
    "heads-up 5th": ("Ah Kh Qh Jc 9d", ["9c Tc Ts"]),
    "heads-up 6th": ("Ah Kh Qh Jc 9d 8s", ["9c Tc Ts 2d"]),
    "7 seats 3rd": ("Ah Kh Qh", ["2c", "3d", "4s", "9h", "Tc", "Jd"]),
}
"""Each spot: the seat's own cards, each rival's up cards (its hole cards unknown)."""


Rollouts = Callable[[random.Random, int], float]


def _generic(
    mine: list[Card],
    rivals: list[list[Card]],
    convert: Callable[[Card], Any],
    value: Callable[[list[Any]], int],
) -> Rollouts:
    """The rollouts a user writes around a library's evaluator (higher value wins)."""
    seen = set(mine).union(*rivals)
    pool = [convert(c) for c in full_deck() if c not in seen]
    hands = [[convert(c) for c in h] for h in [mine, *rivals]]
    spans = []
    start = 0
    for h in hands:
        spans.append((h, start, start + 7 - len(h)))
        start += 7 - len(h)

    def run(rng: random.Random, n: int) -> float:
        won = 0.0
        for _ in range(n):
            drawn = rng.sample(pool, start)
            vals = [value(h + drawn[lo:hi]) for h, lo, hi in spans]
            best = max(vals)
            if vals[0] == best:
                won += 1 / vals.count(best)
        return won / n

    return run


def _runners(
    mine: list[Card], rivals: list[list[Card]], libs: dict[str, ModuleType]
) -> dict[str, Rollouts]:
    out: dict[str, Rollouts] = {
        "common.equity": lambda rng, n: sample_share(mine, rivals, [], rng, n)
    }
    if "eval7" in libs:
        e7 = libs["eval7"]
        out["eval7"] = _generic(mine, rivals, lambda c: e7.Card(str(c)), e7.evaluate)
    if "treys" in libs:
        tr = libs["treys"]
        ev = tr.Evaluator()
        out["treys"] = _generic(
            mine, rivals, lambda c: tr.Card.new(str(c)), lambda h: -ev.evaluate(h[:2], h[2:])
        )
    return out


def _time(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median)")
    ap.add_argument("--rollouts", type=int, default=4000, help="rollouts per round")
    args = ap.parse_args(argv)
    libs = {name: m for name in ("eval7", "treys") if (m := optional(name)) is not None}
    print(f"rollouts per second, median of {args.rounds} interleaved rounds of {args.rollouts}")
    for spot, (mine_s, rivals_s) in SPOTS.items():
        mine = parse_many(mine_s)
        rivals = [parse_many(r) for r in rivals_s]
        runners = _runners(mine, rivals, libs)
        times: dict[str, list[float]] = {name: [] for name in runners}
        target_s: list[float] = []
        deals = 0
        for r in range(args.rounds):
            for name, run in runners.items():
                rng = random.Random(r)
                times[name].append(_time(lambda: run(rng, args.rollouts)))  # noqa: B023
            start = time.perf_counter()
            e = equity(mine, rivals, [], random.Random(r))
            target_s.append(time.perf_counter() - start)
            deals = e.deals
        rates = {name: args.rollouts / statistics.median(ts) for name, ts in times.items()}
        ours = rates["common.equity"]
        line = ", ".join(
            f"{name} {rate:,.0f}" + ("" if name == "common.equity" else f" ({ours / rate:.1f}x)")
            for name, rate in rates.items()
        )
        target = "  (target >= 1.5x eval7)" if "eval7" in rates else ""
        print(f"  {spot:13s} {line}{target}")
        ms = statistics.median(target_s) * 1000
        kind = "counted" if e.exact else f"{deals:,} draws"
        goal = "  (target <= 65 ms idle, the readout's 100 ms)" if len(rivals) == 6 else ""
        print(
            f"  {'':13s} to +-1 point (95%): {ms:.0f} ms ({kind}, share {e.share:.3f}"
            f" +- {e.half_width:.4f}){goal}"
        )
        if not e.exact:
            # A plain rollout's share varies at most p(1 - p) (ties only lower it): the
            # rollouts the plain samplers need for one point, at their measured rates.
            plain = math.ceil(e.share * (1 - e.share) * (Z95 / 0.01) ** 2)
            need = ", ".join(
                f"{name} {plain / rate * 1000:.0f} ms ({plain / rate * 1000 / ms:.1f}x ours)"
                for name, rate in rates.items()
            )
            print(f"  {'':13s} plain rollouts for one point (<= {plain:,}): {need}")


if __name__ == "__main__":
    main()
