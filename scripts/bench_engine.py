"""Benchmarks for the engine's hot paths, against other poker libraries.

    .venv/bin/python scripts/bench_engine.py               # every section
    .venv/bin/python scripts/bench_engine.py --only eval   # just the evaluator

Sections:

    eval   7-card hand evaluation: ``common.hands.evaluate`` against treys and
           eval7, plus the time ``common.hands`` takes to build its tables at
           import, and a check that all three order hands the same way.
    hands  whole hands of random legal play per second: ``common.engine.Hand``
           against pokerkit's fixed-limit seven card stud at 2, 4 and 7
           seats, same stakes (ante 1, bring-in 4, 10/20) and 600 chips,
           taking turns; the target is 15x pokerkit (issue 34).  Rates are
           per second of this process's CPU time, so that other load on a
           shared machine counts against neither; many short turns, so that
           each side has its share of the quiet moments, and the best of each
           is compared (the median of the back-to-back ratios is shown too).
           Both sides pay for the same things: their own shuffle (ours deals
           the cards a hand can use, as the table does; pokerkit shuffles its
           pack in ``create_state``), their own question "what is legal
           now" at every decision, and one ``rng.choice`` among the answers.

The other libraries are for comparison only and are not dependencies of the
game, so this script installs nothing.  To run every section:

    .venv/bin/pip install treys eval7 pokerkit

A library that is missing is reported ("eval7 not available") and skipped.
To add a section, write ``bench_<name>(args)`` and list it in ``SECTIONS``.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from common.cards import Card, deal_cards, full_deck  # noqa: E402
from common.engine import Hand  # noqa: E402
from common.hands import evaluate  # noqa: E402


def optional(name: str) -> ModuleType | None:
    """The module ``name`` if it is installed (a benchmark's anchor), else None, said."""
    try:
        return importlib.import_module(name)
    except ImportError:
        print(f"{name} not available (pip install {name})")
        return None


def _best_time(run: Callable[[], object], repeat: int) -> float:
    """Best wall time of ``repeat`` runs (time.perf_counter)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def _import_seconds(samples: int = 5) -> tuple[float, float]:
    """Best time to import common.hands in a fresh interpreter, in total and
    beyond importing common.cards (that is, building the tables)."""
    code = (
        "import time; t0 = time.perf_counter(); import common.cards; "
        "t1 = time.perf_counter(); import common.hands; t2 = time.perf_counter(); "
        "print(t2 - t0, t2 - t1)"
    )
    runs = []
    for _ in range(samples):
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True
        ).stdout
        total, tables = map(float, out.split())
        runs.append((tables, total))
    tables, total = min(runs)
    return total, tables


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def bench_eval(args: argparse.Namespace) -> None:
    """7-card evaluation throughput, table build time and cross-check."""
    rng = random.Random(args.seed)
    deck = full_deck()
    hands: list[list[Card]] = [rng.sample(deck, 7) for _ in range(args.hands)]
    print(f"== eval: {len(hands):,} random 7-card hands (seed {args.seed}), best of {args.repeat}")

    total, beyond_cards = _import_seconds()
    print(
        f"import common.hands (fresh interpreter, best of 5): {total * 1000:.1f} ms in all,"
        f" {beyond_cards * 1000:.1f} ms beyond common.cards"
    )

    # name -> (timed loop over all hands, the values it computes: higher is better)
    runners: dict[str, tuple[Callable[[], object], Callable[[], list[int]]]] = {}

    def run_ours() -> None:
        ev = evaluate
        for hand in hands:
            ev(hand)

    runners["ours"] = (run_ours, lambda: [evaluate(h) for h in hands])

    treys = optional("treys")
    if treys is not None:
        evaluator = treys.Evaluator()
        split = [
            ([treys.Card.new(str(c)) for c in h[:2]], [treys.Card.new(str(c)) for c in h[2:]])
            for h in hands
        ]

        def run_treys() -> None:
            ev = evaluator.evaluate  # (hole, board); lower is better
            for hole, board in split:
                ev(hole, board)

        # Negated so that, like ours, higher is better.
        runners["treys"] = (run_treys, lambda: [-evaluator.evaluate(h, b) for h, b in split])

    eval7 = optional("eval7")
    if eval7 is not None:
        parsed: list[list[Any]] = [[eval7.Card(str(c)) for c in h] for h in hands]

        def run_eval7() -> None:
            ev = eval7.evaluate
            for hand in parsed:
                ev(hand)

        runners["eval7"] = (run_eval7, lambda: [eval7.evaluate(h) for h in parsed])

    # Runs take turns, so that other load on the machine hits every library alike.
    best = dict.fromkeys(runners, float("inf"))
    for _ in range(args.repeat):
        for name, (run, _) in runners.items():
            best[name] = min(best[name], _best_time(run, 1))
    rates = {name: len(hands) / seconds for name, seconds in best.items()}
    for name, seconds in best.items():
        print(
            f"{name:>8}: {rates[name]:>12,.0f} evals/s  {seconds / len(hands) * 1e6:7.3f} us/eval"
        )
    for other in ("treys", "eval7"):
        if other in rates:
            print(f"ours/{other}: {rates['ours'] / rates[other]:.2f}x")

    values = {name: compute() for name, (_, compute) in runners.items()}

    # Every library must order the same pairs of hands the same way.
    pairs = [(rng.randrange(len(hands)), rng.randrange(len(hands))) for _ in range(args.pairs)]
    bad = 0
    for name, vals in values.items():
        ours = values["ours"]
        mismatched = sum(_sign(ours[i] - ours[j]) != _sign(vals[i] - vals[j]) for i, j in pairs)
        bad += mismatched
        if name != "ours":
            print(f"ordering vs {name}: {len(pairs) - mismatched:,}/{len(pairs):,} pairs agree")
    if bad:
        raise SystemExit("evaluators disagree")


def _play_ours(seats: int, rng: random.Random) -> None:
    # The imports are at the top: an import statement here would cost every hand.
    deck = deal_cards(rng, 7 * seats)  # as the table deals: the cards a hand can use
    hand = Hand(stacks=dict.fromkeys(range(seats), 600), button=0, deck=deck)
    hand.start()
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        hand.apply(seat, rng.choice(hand.legal_actions()).kind)


def _pokerkit_player(pokerkit: ModuleType) -> Callable[[int, random.Random], None]:
    auto = pokerkit.Automation
    automations = (
        auto.ANTE_POSTING,
        auto.BET_COLLECTION,
        auto.BLIND_OR_STRADDLE_POSTING,
        auto.CARD_BURNING,
        auto.HOLE_DEALING,
        auto.BOARD_DEALING,
        auto.HOLE_CARDS_SHOWING_OR_MUCKING,
        auto.HAND_KILLING,
        auto.CHIPS_PUSHING,
        auto.CHIPS_PULLING,
    )
    game = pokerkit.FixedLimitSevenCardStud

    def play(seats: int, rng: random.Random) -> None:
        # Same choice rule as ours: uniformly among the moves the state allows.
        state = game.create_state(automations, True, 1, 4, 10, 20, 600, seats)
        while state.status:
            moves = []
            if state.can_post_bring_in():
                moves.append(state.post_bring_in)
            if state.can_fold():
                moves.append(state.fold)
            if state.can_check_or_call():
                moves.append(state.check_or_call)
            if state.can_complete_bet_or_raise_to():
                moves.append(state.complete_bet_or_raise_to)
            rng.choice(moves)()

    return play


HANDS_TARGET = 15.0
"""Ours against pokerkit in random play, at every table size (issue 34)."""


def _hands_per_second(
    play: Callable[[int, random.Random], None], seats: int, seconds: float
) -> float:
    """Hands per second of CPU time (``time.process_time``) over about ``seconds``."""
    rng = random.Random(seats)
    count = 0
    started = time.process_time()
    while (elapsed := time.process_time() - started) < seconds:
        play(seats, rng)
        count += 1
    return count / elapsed


def bench_hands(args: argparse.Namespace) -> None:
    """Random-play hands per second, ours against pokerkit, taking turns."""
    pokerkit = optional("pokerkit")
    print(
        "hands of random legal play per CPU second (600 chips, ante 1, 4, 10/20),"
        f" best of {args.rounds} turns each"
    )
    if pokerkit is None:
        print("  pokerkit not available: pip install pokerkit")
    theirs = _pokerkit_player(pokerkit) if pokerkit else None
    for seats in (2, 4, 7):
        ours_rate = their_rate = 0.0
        paired: list[float] = []  # ours / theirs in each turn, measured back to back
        for _ in range(args.rounds):  # alternate so that load hits both alike; keep the best
            ours = _hands_per_second(_play_ours, seats, args.seconds)
            ours_rate = max(ours_rate, ours)
            if theirs is not None:
                their = _hands_per_second(theirs, seats, args.seconds)
                their_rate = max(their_rate, their)
                paired.append(ours / their)
        line = f"  {seats} seats: ours {ours_rate:9,.0f}/s"
        if theirs is not None:
            ratio = ours_rate / their_rate
            line += f"   pokerkit {their_rate:7,.0f}/s   ratio {ratio:5.1f}x"
            verdict = "met" if ratio >= HANDS_TARGET else "NOT met"
            line += f"  (target >= {HANDS_TARGET:.0f}x: {verdict})"
            line += f"  paired median {statistics.median(paired):5.1f}x"
        print(line)


SECTIONS: dict[str, Callable[[argparse.Namespace], None]] = {
    "eval": bench_eval,
    "hands": bench_hands,
}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--only",
        action="append",
        choices=sorted(SECTIONS),
        help="run only this section (may be repeated); default: all",
    )
    parser.add_argument("--hands", type=int, default=50_000, help="hands to evaluate")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; the best counts")
    parser.add_argument("--pairs", type=int, default=20_000, help="hand pairs to cross-check")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=0.5, help="hands: time per measurement")
    parser.add_argument("--rounds", type=int, default=9, help="hands: measurements per library")
    args = parser.parse_args(argv)
    for name in args.only or SECTIONS:
        SECTIONS[name](args)


if __name__ == "__main__":
    main()
