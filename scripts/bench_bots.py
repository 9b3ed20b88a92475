#!/usr/bin/env python3
"""How strong and how fast the computer seats are, by duplicate play.

Strength: every level against each reference opponent of ``scripts/stud_refs.py``
(tight-aggressive chart player, calling station, maniac) and against the level
below it, heads-up and four-handed.  Each deal is played once for every seat
the level can sit in, with the same cards for each seat *position* (the pack
is fixed per seat, so a fold never shifts anyone's later cards), and stacks
are reset to 600 before every hand (R-T3).  The result of a deal is the
level's average net over its seats; the table shows small bets (10 chips) per
100 hands and a 95% confidence interval, from each night's mean per deal (a
night's deals share a memory, so the night is the independent unit).

The bench plays *nights*, as a table does: each of ``--nights`` (say ``1 6``) is
a length in matches, and a night is that many matches of ``--hands`` deals (the
table's 8 by default).  The players sit in ``server.lobby.ComputerChairs``, the
table's own computer seats: ``match_starts()`` at each match (a new night id
resets every memory, the same night keeps it and tells each player who sits
where by name) and ``hand_over(hand)`` at each hand's end (each seat's view of
it).  Each seat's random source is made at the night's start and kept for it.

The match-ups the targets are about (each level against the one below it,
the strongest against the tight-aggressive player) get ``--deals`` deals, the
others ``--minor``; four-handed ones half as many deals (of four hands each);
each rounded up to whole nights.

Speed: median and 99th percentile of a decision of the strongest level with
seven seats filled (that level in every seat), and the same for the single
style that came before levels (``old``), as a baseline measured in the same run.

    nice -n 10 .venv/bin/python scripts/bench_bots.py                  # the full table
    nice -n 10 .venv/bin/python scripts/bench_bots.py --deals 300 --only shark
    nice -n 10 .venv/bin/python scripts/bench_bots.py --pair shark tag --seats 2
    nice -n 10 .venv/bin/python scripts/bench_bots.py --pair shark tag --seats 2 --nights 1 6

How much a calling station can be made to pay: ``--pair bound caller --seats 2
--nights 1`` plays the best play against it (``stud_refs.StationBound``) on the same
deals as ``--pair shark caller``; the shark's figure is read against that one.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common.cards import Card, full_deck  # noqa: E402
from common.engine import Hand, clockwise  # noqa: E402
from common.match import DEFAULT_HANDS, SeatKind  # noqa: E402
from common.views import seat_view  # noqa: E402
from scripts.stud_refs import POOL, YARDSTICKS  # noqa: E402
from server.brain import LEVELS, brain, choose_action  # noqa: E402
from server.lobby import ComputerChairs  # noqa: E402
from server.seats import Seat  # noqa: E402

Player = Callable[[Mapping[str, Any], random.Random], str]
START = 600
SMALL_BET = 10
_DECK = tuple(full_deck())


def make_player(name: str) -> Player:
    """A fresh player (with an empty memory) for ``name``: a level, a reference, a
    yardstick or "old"."""
    if name in LEVELS:
        return brain(name)
    others = {**POOL, **YARDSTICKS}
    if name in others:
        return others[name]()
    if name == "old":  # the single style before levels existed, for comparison
        return choose_action
    raise SystemExit(f"no player {name!r}: levels {list(LEVELS)}, others {list(others)}")


def seat_pack(
    cards: Mapping[int, Sequence[Card]], button: int, folded_on: Mapping[int, int]
) -> list[Card]:
    """A pack that deals seat s ``cards[s]`` in order, whoever folds, given the street
    each folded seat folded on.  Only the benchmark needs this; the table deals from one
    pack (R-D2): third street to every seat, then a card a street to the seats still
    in, clockwise from the button, the cards no one is dealt last."""
    order = clockwise(cards, after=button)
    pack = [cards[s][i] for i in range(3) for s in order]
    for street in range(4, 8):
        pack += [cards[s][street - 1] for s in order if folded_on.get(s, 8) >= street]
    return pack + [c for s in order for c in cards[s] if c not in pack]


def play_hand(
    table: Night,
    *,
    button: int,
    cards: Mapping[int, Sequence[Card]],
    timings: list[float] | None = None,
) -> dict[int, int]:
    """One hand of ``table``'s players from fresh 600-chip stacks, each seat dealt its
    own ``cards`` (``seat_pack``); returns each seat's net chips.  At its end each seat
    is shown its view of it (``hand_over``), as at the table.

    A fold changes which cards the later streets take from the pack, so after one the
    hand is played again from a pack made for it, with the same actions so far: the
    same cards come out up to the fold, and each seat's own ones after it."""
    players, rngs = table.players, table.rngs
    stacks = {s: START for s in players}
    folded_on: dict[int, int] = {}
    played: list[tuple[int, str]] = []
    hand = Hand(stacks=stacks, button=button, deck=seat_pack(cards, button, folded_on))
    hand.start()
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        view = seat_view(hand, seat)
        if timings is not None:
            t0 = time.perf_counter()
            action = players[seat](view, rngs[seat])
            timings.append(time.perf_counter() - t0)
        else:
            action = players[seat](view, rngs[seat])
        street = hand.street
        hand.apply(seat, action)
        played.append((seat, action))
        if action == "fold" and not hand.is_over:
            folded_on[seat] = street
            hand = Hand(stacks=stacks, button=button, deck=seat_pack(cards, button, folded_on))
            hand.start()
            for s, a in played:
                hand.apply(s, a)
    table.chairs.hand_over(hand)
    return {s: stack - START for s, stack in hand.final_stacks().items()}


def deal_cards(seed: int, deal: int, seats: int) -> dict[int, list[Card]]:
    rng = random.Random(seed * 1_000_003 + deal)
    cards = rng.sample(_DECK, 7 * seats)
    return {s: cards[7 * s : 7 * s + 7] for s in range(seats)}


class Night:
    """One rotation's table for a run of nights: its players in the table's computer
    seats (``ComputerChairs``), one night id at a time."""

    def __init__(self, names: Sequence[str]) -> None:
        self.players = {s: make_player(name) for s, name in enumerate(names)}
        self.seats: dict[int, Seat] = {}
        self.night = ""
        self.rngs: dict[int, random.Random] = {}
        self.chairs = ComputerChairs(self.seats, own_brains=False)
        chairs = []
        for s, player in self.players.items():
            seat = Seat(s, f"{names[s]} {s}", SeatKind.COMPUTER)
            seat.brain = player
            chairs.append(seat)
        self.chairs.seat(chairs, night=self.night)

    def begin(self, night: str, rngs: Mapping[int, random.Random]) -> None:
        """A new night: each seat's random source for it (its memory goes at the first
        match start, as at the table)."""
        self.night = night
        self.rngs = dict(rngs)
        for s, seat in self.seats.items():
            seat.rng = self.rngs[s]


def run_chunk(
    name: str,
    opponent: str,
    seats: int,
    seed: int,
    first: int,
    count: int,
    matches: int,
    hands: int,
) -> list[float]:
    """Nights ``first`` .. ``first + count - 1`` of ``matches`` matches of ``hands`` deals:
    the level's mean net chips per deal of each night.

    Rotation r puts ``name`` in seat r and ``opponent`` in the others, at a table of its
    own whose players are kept from night to night (``ComputerChairs`` resets their
    memory at each new night, as the table's own computer seats are reset).
    """
    tables = [Night([name if s == r else opponent for s in range(seats)]) for r in range(seats)]
    per_night = matches * hands
    out = []
    for night in range(first, first + count):
        for r, table in enumerate(tables):
            base = (seed * 1_000_003 + night) * 7919 + r * 17
            table.begin(f"night {night}", {s: random.Random(base + s) for s in range(seats)})
        total = 0.0
        for m in range(matches):
            for table in tables:
                table.chairs.match_starts(table.night)
            for h in range(hands):
                deal = night * per_night + m * hands + h
                cards = deal_cards(seed, deal, seats)
                for r, table in enumerate(tables):
                    net = play_hand(table, button=h % seats, cards=cards)
                    total += net[r]
        out.append(total / seats / per_night)
    return out


def summary(per_night: Sequence[float]) -> tuple[float, float]:
    """(mean, 95% CI half-width) in small bets per 100 hands, from each night's mean
    net per deal (nights of one length, so each weighs the same)."""
    k = 100 / SMALL_BET
    n = len(per_night)
    mean = statistics.fmean(per_night) * k
    half = 1.96 * statistics.stdev(per_night) / n**0.5 * k if n > 1 else 0
    return mean, half


def measure_time(name: str, decisions: int, seed: int) -> list[float]:
    """Seconds per decision of ``name`` with seven seats, that level in every seat."""
    timings: list[float] = []
    table = Night([name] * 7)
    table.begin("timed", {s: random.Random(seed * 31 + s) for s in range(7)})
    table.chairs.match_starts(table.night)  # one long match: the memory kept throughout
    deal = 0
    while len(timings) < decisions:
        play_hand(table, button=deal % 7, cards=deal_cards(seed + 99, deal, 7), timings=timings)
        deal += 1
    return timings[:decisions]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deals",
        type=int,
        default=3000,
        help="deals for the match-ups with targets: each level against the one below, "
        "the strongest against the tight-aggressive reference (four-handed: half as many)",
    )
    parser.add_argument(
        "--minor", type=int, default=None, help="deals for the other match-ups (deals / 6)"
    )
    parser.add_argument(
        "--nights",
        nargs="*",
        type=int,
        default=[1, 6],
        help="night lengths in matches (memory kept over a night's matches, reset at the next)",
    )
    parser.add_argument(
        "--hands", type=int, default=DEFAULT_HANDS, help="deals per match (the table's)"
    )
    parser.add_argument("--chunk", type=int, default=250, help="about this many deals per job")
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=None, help="levels to measure")
    parser.add_argument("--against", nargs="*", default=None, help="opponents to measure")
    parser.add_argument("--seats", nargs="*", type=int, default=[2, 4])
    parser.add_argument("--pair", nargs=2, default=None, metavar=("PLAYER", "OPPONENT"))
    args = parser.parse_args()
    minor = args.minor if args.minor is not None else args.deals // 6
    levels = list(LEVELS)
    strongest = levels[-1]

    if args.decisions:
        # The baseline, measured in the same run: the single style before levels.
        for name in (strongest, "old"):
            timings = sorted(measure_time(name, args.decisions, args.seed))
            median = statistics.median(timings) * 1000
            p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))] * 1000
            if name == strongest:
                top = (median, p99)
            print(
                f"{name:<6} seven seats: {len(timings)} decisions, median {median:.2f} ms, "
                f"p99 {p99:.2f} ms, max {timings[-1] * 1000:.2f} ms"
            )
        print(
            f"{strongest} / old: median x{top[0] / median:.2f}, p99 x{top[1] / p99:.2f}"
            f"   (target for {strongest}: median <= 10 ms, p99 <= 100 ms)"
        )

    if args.pair:
        setups = [(args.pair[0], args.pair[1], n) for n in args.seats]
    else:
        setups = []
        for i, name in enumerate(levels):
            if args.only is not None and name not in args.only:
                continue
            opponents = [*POOL, *(levels[i - 1 : i] if i else [])]
            if args.against is not None:
                opponents = [o for o in opponents if o in args.against]
            for opp in opponents:
                for n in args.seats:
                    if n != 2 and opp in LEVELS:
                        continue  # level against level: heads-up only
                    setups.append((name, opp, n))
    if not setups or not args.deals:
        return
    started = time.perf_counter()
    jobs: dict[tuple[str, str, int, int], list[Any]] = {}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for name, opp, n in setups:
            key = opp in LEVELS or (name == strongest and opp == "tag") or args.pair
            total = args.deals if key else minor
            total = total if n == 2 else total // 2
            for matches in args.nights:
                per_night = matches * args.hands
                nights = max(2, -(-total // per_night))  # whole nights, rounded up
                step = max(1, args.chunk // per_night)
                chunks = []
                for first in range(0, nights, step):
                    count = min(step, nights - first)
                    chunks.append(
                        pool.submit(
                            run_chunk, name, opp, n, args.seed, first, count, matches, args.hands
                        )
                    )
                jobs[(name, opp, n, matches)] = chunks
        hands = 0
        print(
            f"\n{'level':<9}{'opponent':<10}{'seats':>6}{'night':>7}{'nights':>7}{'hands':>8}"
            "   sb/100 (95% CI)"
        )
        for (name, opp, n, matches), chunks in jobs.items():
            per_night = [x for c in chunks for x in c.result()]
            played = len(per_night) * matches * args.hands * n
            hands += played
            mean, half = summary(per_night)
            flag = (
                "" if mean - half > 0 else ("   (not above 0)" if mean + half > 0 else "   LOSES")
            )
            print(
                f"{name:<9}{opp:<10}{n:>6}{matches:>5} m{len(per_night):>7}{played:>8}"
                f"   {mean:+7.1f} ± {half:4.1f}{flag}"
            )
    print(f"\n{hands} hands in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
