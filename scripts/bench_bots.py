#!/usr/bin/env python3
"""Time the computer seats and check that they play well.

Timing: median and 99th percentile of ``choose_action`` over decisions taken
from real games (2 to 7 seats, the bot against itself and random players).
Strength: the bot against random-legal players and against always-call
players, heads-up and four-handed, in chips won per 100 hands.  Every pack is
dealt once with the bot in each seat ("duplicate"), so the cards even out;
stacks are reset to 600 before every hand (R-T3).

    .venv/bin/python scripts/bench_bots.py            # everything, about a few minutes
    .venv/bin/python scripts/bench_bots.py --hands 400 --decisions 500
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common.cards import shuffled_deck  # noqa: E402
from common.engine import Hand  # noqa: E402
from common.views import seat_view  # noqa: E402
from server.bots import choose_action  # noqa: E402

Player = Callable[[Mapping[str, Any], random.Random], str]
START = 600


def random_legal(view: Mapping[str, Any], rng: random.Random) -> str:
    """Any legal button, uniformly."""
    return str(rng.choice(view["legal"])["action"])


def always_call(view: Mapping[str, Any], rng: random.Random) -> str:
    """Call anything, never bet: check if free, else call (or bring in)."""
    names = [a["action"] for a in view["legal"]]
    for name in ("check", "call", "bring_in"):
        if name in names:
            return name
    return names[0]


def play_hand(
    players: Mapping[int, Player],
    *,
    button: int,
    deck_seed: int,
    rngs: Mapping[int, random.Random],
    timings: list[float] | None = None,
) -> dict[int, int]:
    """One hand from fresh 600-chip stacks; returns each seat's net chips."""
    deck = shuffled_deck(random.Random(deck_seed))
    hand = Hand(stacks={s: START for s in players}, button=button, deck=deck)
    hand.start()
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        view = seat_view(hand, seat)
        player = players[seat]
        if timings is not None and player is choose_action:
            t0 = time.perf_counter()
            action = player(view, rngs[seat])
            timings.append(time.perf_counter() - t0)
        else:
            action = player(view, rngs[seat])
        hand.apply(seat, action)
    return {s: stack - START for s, stack in hand.final_stacks().items()}


def measure_time(decisions: int, seed: int = 7) -> list[float]:
    """Seconds per bot decision over ``decisions`` decisions from random real games."""
    rng = random.Random(seed)
    timings: list[float] = []
    game = 0
    while len(timings) < decisions:
        n = rng.randint(2, 7)
        seats = rng.sample(range(7), n)
        players: dict[int, Player] = {
            s: choose_action if rng.random() < 0.6 else random_legal for s in seats
        }
        players[seats[0]] = choose_action
        rngs = {s: random.Random(seed * 1000 + game * 10 + s) for s in seats}
        play_hand(
            players,
            button=rng.choice(seats),
            deck_seed=rng.getrandbits(32),
            rngs=rngs,
            timings=timings,
        )
        game += 1
    return timings[:decisions]


def match(opponent_name: str, seats: int, hands: int, seed: int) -> tuple[str, int, float, float]:
    """Bot against ``seats - 1`` opponents; each pack is played with the bot in every seat.

    Returns (label, hands, bot chips per 100 hands, its standard error).
    """
    opponent: Player = {"random": random_legal, "caller": always_call}[opponent_name]
    packs = max(hands // seats, 1)
    per_pack: list[float] = []
    for p in range(packs):
        total = 0
        for bot_seat in range(seats):
            players: dict[int, Player] = {s: opponent for s in range(seats)}
            players[bot_seat] = choose_action
            rngs = {s: random.Random(seed * 7919 + p * 31 + bot_seat * 7 + s) for s in range(seats)}
            net = play_hand(players, button=p % seats, deck_seed=seed * 100003 + p, rngs=rngs)
            total += net[bot_seat]
        per_pack.append(total / seats)
    mean = statistics.fmean(per_pack) * 100
    err = statistics.stdev(per_pack) / len(per_pack) ** 0.5 * 100 if len(per_pack) > 1 else 0.0
    label = f"vs {opponent_name:<6} {'heads-up' if seats == 2 else f'{seats}-handed'}"
    return label, packs * seats, mean, err


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--hands", type=int, default=2000, help="hands per match-up")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()

    if args.decisions:
        timings = sorted(measure_time(args.decisions, seed=args.seed))
        median = statistics.median(timings) * 1000
        p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))] * 1000
        print(
            f"decision time over {len(timings)} decisions: "
            f"median {median:.2f} ms, p99 {p99:.2f} ms, max {timings[-1] * 1000:.2f} ms"
        )

    if args.hands:
        setups = [(o, n) for o in ("random", "caller") for n in (2, 4)]
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            futures = [pool.submit(match, o, n, args.hands, args.seed) for o, n in setups]
            for future in futures:
                label, hands, mean, err = future.result()
                print(f"{label}: {hands} hands, bot {mean:+.1f} chips/100 hands (+/- {err:.1f})")


if __name__ == "__main__":
    main()
