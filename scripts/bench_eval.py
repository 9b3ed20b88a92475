"""Benchmark of the hand evaluator (``common.hands``) against eval7 (a C extension),
on the same hands.

    .venv/bin/python scripts/bench_eval.py               # 20,000 hands, 9 rounds
    .venv/bin/python scripts/bench_eval.py --rounds 15   # steadier medians

Every runner evaluates the same random seven-card hands, in interleaved rounds
(so that other load on the machine hits them alike); each line gives the median
of the per-round ratios, with its target beside it:

    evaluate      the public ``common.hands.evaluate`` on lists of ``Card``
                  against ``eval7.evaluate`` on lists of ``eval7.Card``
                  (target >= 1.0x);
    partial sums  the project's hot path (rollouts, ``common.equity``): each
                  hand's three known cards summed once as plain ints, the four
                  cards dealt added and looked up in ``evaluator_tables``, against
                  eval7 given the same known and dealt cards (target >= 1.5x; the
                  whole rollouts are in scripts/bench_equity.py);
    enumeration   the other hot path (``server.brain.equity.exact_seventh``,
                  ``common.equity``'s counting): 560 hands of each of a few
                  seventh-street spots, every three of sixteen cards added to a
                  rival's four up cards in nested loops that keep each partial
                  sum, against eval7 on the same hands ready made (target >= 1.5x);
    best five     ``best_five`` (the showdown's five cards), for the record.

It also times ``import common.hands`` in fresh interpreters (target < 300 ms),
alone and with a first ``evaluate`` (which builds the tables),
and checks that every runner orders the hands alike and that the best fives are the
brute-force oracle's (``tests/brute_hands.py``).  eval7 is for comparison only, not a
dependency:

    .venv/bin/pip install eval7

A library that is missing is reported ("eval7 not available") and skipped.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from common.cards import Card, full_deck  # noqa: E402
from common.hands import best_five, evaluate, evaluator_tables  # noqa: E402
from scripts.bench_engine import optional  # noqa: E402
from tests import brute_hands  # noqa: E402


def _import_ms(module: str, samples: int = 5, first_use: bool = False) -> list[float]:
    """Milliseconds to import ``module`` (its ``common.cards`` first) in fresh interpreters,
    and with ``first_use`` to evaluate one hand too (the tables are built on first use)."""
    then = f"; {module}.evaluate(common.cards.full_deck()[:7])" if first_use else ""
    code = (
        "import time, common.cards; t = time.perf_counter(); "
        f"import {module}{then}; print(time.perf_counter() - t)"
    )
    out = []
    for _ in range(samples):
        text = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True
        ).stdout
        out.append(float(text) * 1000)
    return out


def _flushed(flush_value: Sequence[int], bits: Mapping[int, int], cards: list[int]) -> int:
    """A flush's value: its suit's bits of the cards (``evaluator_tables``) or-ed."""
    mask = 0
    for c in cards:
        mask |= bits[c]
    return flush_value[mask]


def _partial_sums(hands: list[list[Card]]) -> Callable[[], list[int]]:
    """The rollouts' loop: three known cards summed once, four dealt cards added."""
    flush_suit, rank_value, flush_value = evaluator_tables()
    coded = [[int(c) for c in h] for h in hands]
    split = [(sum(h[:3]), h[:3], h[3:]) for h in coded]

    def run() -> list[int]:
        # A comprehension, as eval7's runners are.
        return [
            rank_value[s >> 8]
            if (bits := flush_suit[(s := sum(dealt, base)) & 0xFF]) is None
            else _flushed(flush_value, bits, known + dealt)
            for base, known, dealt in split
        ]

    return run


def _spots(hands: list[list[Card]], count: int) -> list[tuple[list[Card], list[Card]]]:
    """Seventh-street spots to count out (``server.brain.equity.exact_seventh``): a
    rival's four up cards (a hand's first four) and sixteen cards it may get three of
    (the next three of the hand and thirteen others), ``count`` spots of 560 hands."""
    rng = random.Random(len(hands))
    out = []
    for h in hands[:count]:
        rest = [c for c in full_deck() if c not in h]
        out.append((h[:4], h[4:] + rng.sample(rest, 13)))
    return out


def _enumeration(spots: list[tuple[list[Card], list[Card]]]) -> Callable[[], list[int]]:
    """Every way to deal three of a spot's cards, in nested loops that add one card at a
    time to the sum kept from the loop outside (as ``exact_seventh`` and ``_count`` do)."""
    flush_suit, rank_value, flush_value = evaluator_tables()
    coded = [([int(c) for c in up], [int(c) for c in pool]) for up, pool in spots]

    def run() -> list[int]:
        out: list[int] = []
        for up, pool in coded:
            base = sum(up)
            n = len(pool)
            for i in range(n - 2):
                a = pool[i]
                sa = base + a
                for j in range(i + 1, n - 1):
                    b = pool[j]
                    sab = sa + b
                    out += [
                        rank_value[s >> 8]
                        if (bits := flush_suit[(s := sab + c) & 0xFF]) is None
                        else _flushed(flush_value, bits, [*up, a, b, c])
                        for c in pool[j + 1 :]
                    ]
        return out

    return run


def _enumerated(spots: list[tuple[list[Card], list[Card]]]) -> list[list[Card]]:
    """The hands ``_enumeration`` values, in its order."""
    return [[*up, *deal] for up, pool in spots for deal in combinations(pool, 3)]


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    deck = full_deck()
    hands = [rng.sample(deck, 7) for _ in range(args.hands)]

    runners: dict[str, Callable[[], list[int]]] = {
        "evaluate": lambda: [evaluate(h) for h in hands],
        "partial sums": _partial_sums(hands),
    }
    spots = _spots(hands, max(1, args.hands // 560))
    runners["enumeration"] = _enumeration(spots)
    eval7 = optional("eval7")
    if eval7 is not None:
        parsed = [[eval7.Card(str(c)) for c in h] for h in hands]
        ev7 = eval7.evaluate
        runners["eval7"] = lambda: [ev7(h) for h in parsed]
        # As a rollout calls it: the known cards and the cards dealt, put together.
        split7 = [(h[:3], h[3:]) for h in parsed]
        runners["eval7 rollout"] = lambda: [ev7(known + dealt) for known, dealt in split7]
        # The enumeration's hands, put together beforehand.
        counted7 = [[eval7.Card(str(c)) for c in h] for h in _enumerated(spots)]
        runners["eval7 counted"] = lambda: [ev7(h) for h in counted7]
    fives = hands[: max(1, args.hands // 10)]
    runners["best five"] = lambda: [len(best_five(h)) for h in fives]

    times: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(args.rounds):
        for name, run in runners.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)

    def ratio(a: str, b: str) -> float:
        return statistics.median(y / x for x, y in zip(times[a], times[b], strict=True))

    n = len(hands)
    print(f"{n:,} random 7-card hands (seed {args.seed}), {args.rounds} interleaved rounds")
    for name in runners:
        count = len(fives) if name.startswith("best five") else n
        if name in ("enumeration", "eval7 counted"):
            count = 560 * len(spots)
        per = statistics.median(times[name]) / count * 1e9
        print(f"  {name:17s} {count / statistics.median(times[name]):>12,.0f}/s  {per:7.0f} ns")
    if "eval7" in runners:
        print(f"  evaluate / eval7      {ratio('evaluate', 'eval7'):5.2f}x  (target >= 1.0x)")
        print(
            f"  partial sums / eval7  {ratio('partial sums', 'eval7 rollout'):5.2f}x"
            "  (target >= 1.5x; eval7 given the known and dealt cards, as in a rollout)"
        )
        print(
            f"  enumeration / eval7   {ratio('enumeration', 'eval7 counted'):5.2f}x"
            "  (target >= 1.5x; eval7 given each hand ready made)"
        )
    ours, used = [], []
    for _ in range(5):  # interleaved, as the rest
        ours += _import_ms("common.hands", 1)
        used += _import_ms("common.hands", 1, first_use=True)
    print(
        f"  import common.hands   {statistics.median(ours):5.0f} ms median"
        " (target < 300 ms on an idle machine)"
    )
    print(f"    and first evaluate  {statistics.median(used):5.0f} ms median (builds the tables)")

    values = runners["evaluate"]()
    if values != runners["partial sums"]():
        raise SystemExit("the partial sums disagree with evaluate")
    if runners["enumeration"]() != [evaluate(h) for h in _enumerated(spots)]:
        raise SystemExit("the enumeration disagrees with evaluate")
    if [best_five(h) for h in fives] != [brute_hands.best_five(h) for h in fives]:
        raise SystemExit("best_five disagrees with the brute-force oracle")
    if "eval7" in runners:
        theirs = runners["eval7"]()
        pairs = [(rng.randrange(n), rng.randrange(n)) for _ in range(20_000)]
        bad = sum(
            (values[i] > values[j]) != (theirs[i] > theirs[j])
            or (values[i] == values[j]) != (theirs[i] == theirs[j])
            for i, j in pairs
        )
        if bad:
            raise SystemExit(f"eval7 orders {bad} pairs otherwise")
    print("  the runners agree, best five is the oracle's, and hands order as eval7 has them")


if __name__ == "__main__":
    main()
