"""How long the analysis after the match takes, and how long one of its steps and one
frame's share of it take: the figures behind working it between frames.

    .venv/bin/python scripts/bench_analysis.py [--hands 12] [--seats 4 7] [--seed 8]

For each table size: a seeded match played by the computer seats' brain (one seat
as a newcomer, so that there are decisions to mark), analysed with the books open
and as that seat saw it (closed books): the whole analysis's time, its steps, the
steps' times (median, 95th percentile, slowest) and each frame's share as
``client.analysing`` runs it.  On a shared machine the slowest are other programs'
time: look at the medians.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _match(seats: int, hands: int, seed: int) -> list[dict]:
    from common.history import load
    from scripts.demo_hands import demo_match
    from scripts.simulate import simulate

    if seats == 5:
        return demo_match(seed, hands, learner=0)
    out = io.StringIO()
    simulate(seats=seats, hands=hands, seed=seed, out=out)
    return load(out.getvalue())


def main() -> int:
    from client.analysing import Analysing
    from common.analysis import MatchAnalysis
    from common.replay import seen_record

    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=12)
    ap.add_argument("--seats", type=int, nargs="+", default=[4, 7])
    ap.add_argument("--seed", type=int, default=8)
    args = ap.parse_args()
    for seats in args.seats:
        full = _match(seats, args.hands, args.seed)
        viewer = int(full[0]["seats"][0]["seat"])
        for books, records in (("open", full), ("closed", [seen_record(r, viewer) for r in full])):
            job = MatchAnalysis(records, viewer, random.Random(1))
            times: list[float] = []
            start = time.perf_counter()
            while True:
                t = time.perf_counter()
                done = job.step()
                times.append(time.perf_counter() - t)
                if done:
                    break
            total = time.perf_counter() - start
            times.sort()
            p95 = times[int(0.95 * (len(times) - 1))]
            frames = Analysing(records, viewer)
            shares: list[float] = []
            while not frames.done:
                t = time.perf_counter()
                frames.work()
                shares.append(time.perf_counter() - t)
                time.sleep(0.005)  # the frame's drawing
            shares.sort()
            print(
                f"{seats} seats, {len(records)} hands, books {books}: {total:.2f} s in "
                f"{len(times)} steps (median {1000 * times[len(times) // 2]:.1f} ms, 95% "
                f"{1000 * p95:.1f}, slowest {1000 * times[-1]:.1f}); {len(shares)} frames "
                f"(share median {1000 * shares[len(shares) // 2]:.1f} ms, 95% "
                f"{1000 * shares[int(0.95 * (len(shares) - 1))]:.1f}, slowest "
                f"{1000 * shares[-1]:.1f}); {len(job.marks())} marked"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
