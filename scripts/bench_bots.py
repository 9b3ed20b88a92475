#!/usr/bin/env python3
"""How strong and how fast the computer seats are: the levels against a pool of players.

Strength: each level against every member of the pool (``scripts/stud_refs.py``:
tag, rock, loose, lag, steamer), heads-up and four-handed (the level and three of
one member, and the level and three different members, "mix"), the pool's average,
the levels against each other, and the shark against the calling station beside the
most that station can be made to pay (the station bound, on the same deals).

Duplicate deals: each deal is played once for every seat the measured player can
sit in, with the same cards for each seat *position* (the pack is fixed per seat, so
a fold never shifts anyone's later cards), from 600 chips every hand (R-T3).  A
deal's result is the player's average net over its seats.  Figures are small bets
(10 chips) per 100 hands with a 95% confidence interval from each night's mean per
deal (a night's deals share a memory, so the night is the independent unit).

Played as a table plays it: the players sit in ``server.lobby.ComputerChairs``, the
table's own computer seats, one player per seat with its own random source made at
the night's start; ``match_starts`` at each match (a new night resets every memory,
the same night tells each who sits where) and ``hand_over`` at each hand's end.  A
night is ``--matches`` matches of ``--match-hands`` deals (six of the table's 8).
``--parity`` plays matches at a real ``server.table.Table`` in-process (a person's
seat played by a pool member, the computer seats by the table) and replays every
hand here from the same seats, random sources and packs: every decision must be
the same, or the bench stops.

Seeds: tune on the tuning seeds (``--seeds tuning``: TUNING), judge a change on the
judging seeds (``--seeds judging``: JUDGING) only, never the other way round.

Speed: median and 99th percentile of a decision of the strongest level with seven
seats filled (that level in every seat), in this process's CPU time (one core: other
programs sharing the machine do not count).

    nice -n 10 .venv/bin/python scripts/bench_bots.py --seeds judging --parity 6
    nice -n 10 .venv/bin/python scripts/bench_bots.py --levels shark --hands 2000 --four 0
    nice -n 10 .venv/bin/python scripts/bench_bots.py --pair shark tag --hands 3000
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common.cards import Card, full_deck  # noqa: E402
from common.engine import Hand, clockwise  # noqa: E402
from common.events import Act, Deal  # noqa: E402
from common.match import DEFAULT_HANDS, SeatKind  # noqa: E402
from common.views import seat_view  # noqa: E402
from scripts.stud_refs import POOL, YARDSTICKS  # noqa: E402
from server.brain import LEVELS, brain  # noqa: E402
from server.lobby import ComputerChairs  # noqa: E402
from server.seats import Seat  # noqa: E402

TUNING = (1, 2, 3, 4, 5)
"""Seeds a change to a level may be tuned on."""
JUDGING = (101, 102, 103)
"""Seeds a change is judged on: never tuned on."""

Player = Callable[[Any, random.Random], str]
START = 600
SMALL_BET = 10
MIX = "mix"
"""Four-handed: the level and three different pool members, a different three each night."""
_DECK = tuple(full_deck())
_TRIOS = list(combinations(POOL, 3))


def make_player(name: str) -> Player:
    """A fresh player (with an empty memory) for ``name``: a level, a pool member or a
    yardstick."""
    if name in LEVELS:
        return brain(name)
    others = {**POOL, **YARDSTICKS}
    if name in others:
        return others[name]()
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


class Night:
    """A table of players for a run of nights: each in one of the table's computer seats
    (``ComputerChairs``), seat -> kind of player, with the table's names for them."""

    def __init__(self, kinds: Mapping[int, str], names: Mapping[int, str] | None = None) -> None:
        self.players = {s: make_player(kind) for s, kind in kinds.items()}
        self.seats: dict[int, Seat] = {}
        self.night = ""
        self.rngs: dict[int, random.Random] = {}
        self.chairs = ComputerChairs(self.seats, own_brains=False)
        chairs = []
        for s, player in self.players.items():
            name = names[s] if names else f"{kinds[s]} {s}"
            chairs.append(Seat(s, name, SeatKind.COMPUTER, brain=player))
        self.chairs.seat(chairs, night=self.night)

    def begin(self, night: str, rngs: Mapping[int, random.Random]) -> None:
        """A new night: each seat's random source for it (its memory goes at the first
        match start, as at the table)."""
        self.night = night
        self.rngs = dict(rngs)
        for s, seat in self.seats.items():
            seat.rng = self.rngs[s]

    def ask(self, hand: Hand, timings: list[float] | None = None) -> str:
        """The choice of the seat to act, from its view and random source."""
        seat = hand.to_act
        assert seat is not None
        view = seat_view(hand, seat)
        t0 = time.process_time()
        action = self.players[seat](view, self.rngs[seat])
        if timings is not None:
            timings.append(time.process_time() - t0)
        return action


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
    stacks = {s: START for s in table.players}
    folded_on: dict[int, int] = {}
    played: list[tuple[int, str]] = []
    hand = Hand(stacks=stacks, button=button, deck=seat_pack(cards, button, folded_on))
    hand.start()
    while not hand.is_over:
        seat, street = hand.to_act, hand.street
        assert seat is not None
        action = table.ask(hand, timings)
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


def lineup(name: str, others: str, seats: int, r: int, night: int) -> dict[int, str]:
    """Seat -> player at rotation ``r``: ``name`` in seat r, ``others`` (one kind, or
    ``MIX``: a trio of pool members that changes with the night) in the rest."""
    rest = list(_TRIOS[night % len(_TRIOS)]) if others == MIX else [others] * (seats - 1)
    return {s: name if s == r else rest.pop(0) for s in range(seats)}


def night_tables(name: str, others: str, seats: int, seed: int, night: int) -> list[Night]:
    """The tables of one night, one a rotation (``lineup``), each begun with its seats'
    random sources for the night."""
    tables = [Night(lineup(name, others, seats, r, night)) for r in range(seats)]
    for r, table in enumerate(tables):
        base = (seed * 1_000_003 + night) * 7919 + r * 17
        table.begin(f"night {night}", {s: random.Random(base + s) for s in range(seats)})
    return tables


def run_chunk(
    name: str, others: str, seats: int, seed: int, first: int, count: int, matches: int, hands: int
) -> list[float]:
    """Nights ``first`` .. ``first + count - 1`` of ``matches`` matches of ``hands`` deals:
    ``name``'s mean net chips per deal of each night, over its seats.

    Rotation r puts ``name`` in seat r, at a table of its own made at the night's start
    (its players' memories are reset at the first match, as the table's own are)."""
    per_night = matches * hands
    out = []
    for night in range(first, first + count):
        tables = night_tables(name, others, seats, seed, night)
        total = 0.0
        for m in range(matches):
            for table in tables:
                table.chairs.match_starts(table.night)
            for h in range(hands):
                cards = deal_cards(seed, night * per_night + m * hands + h, seats)
                for r, table in enumerate(tables):
                    total += play_hand(table, button=h % seats, cards=cards)[r]
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
    table = Night(dict.fromkeys(range(7), name))
    table.begin("timed", {s: random.Random(seed * 31 + s) for s in range(7)})
    table.chairs.match_starts(table.night)  # one long match: the memory kept throughout
    deal = 0
    while len(timings) < decisions:
        play_hand(table, button=deal % 7, cards=deal_cards(seed + 99, deal, 7), timings=timings)
        deal += 1
    return timings[:decisions]


# ---------------------------------------------------------------- parity with a real table


async def _at_a_table(
    level: str, person: str, others: Sequence[str], matches: int, hands: int, seed: int
) -> tuple[dict[int, str], dict[int, random.Random], list[tuple[str, Any]], dict[int, str]]:
    """``matches`` matches of one night at a real ``Table`` on a fake clock: a person's
    seat played by the pool member ``person`` through its connection, computer seats
    for ``level`` (the table's own brain) and ``others`` (pool members put in their
    chairs).  Returns each seat's kind, its random source as the night began, and
    what the chairs were told: ("match", night) and ("hand", hand) in order, and each
    seat's name."""
    from common.protocol import Act as Acts
    from server.table import Table
    from server.timers import FakeClock
    from tests.serverkit import Link, config, drive

    tmp = tempfile.TemporaryDirectory()
    clock = FakeClock(pump=asyncio.get_running_loop().call_soon)
    cfg = config(
        Path(tmp.name), seed=seed, hands=hands, computer=1 + len(others),
        computer_levels=(level, *["newcomer"] * len(others)),
    )  # fmt: skip
    table = Table(cfg, chooser=None, clock=clock)
    link = Link(table, "Ann")
    link.hello()
    kinds = {link.seat: person} if link.seat is not None else {}
    for i, kind in enumerate((level, *others)):
        kinds[6 - i] = kind
        if i:
            table.seats[6 - i].brain = make_player(kind)
    names = {s: seat.name for s, seat in table.seats.items()}
    rngs = {s: copy.deepcopy(seat.rng) for s, seat in table.seats.items() if seat.rng}
    rng = random.Random(seed)
    player = make_player(person)
    heard: list[tuple[str, Any]] = []
    chairs = table.chairs
    match_starts, hand_over = chairs.match_starts, chairs.hand_over

    def on_match(night: str) -> None:
        heard.append(("match", night))
        match_starts(night)

    def on_hand(hand: Hand) -> None:
        heard.append(("hand", hand))
        hand_over(hand)
        if hasattr(player, "observe"):
            player.observe(seat_view(hand, link.seat))

    chairs.match_starts, chairs.hand_over = on_match, on_hand  # type: ignore[method-assign]

    async def act(lk: Link, legal: list[str]) -> None:
        hand = table.dealer.match.hand
        choice = player(seat_view(hand, lk.seat), rng)
        lk.send(Acts(table.turns.turn_id, choice).encode())

    for _ in range(matches):
        link.send({"type": "start"})
        await drive(table, clock, [link], random.Random(seed), act=act)
    tmp.cleanup()
    return kinds, rngs | {link.seat: random.Random(seed)}, heard, names


def parity(
    level: str, person: str, others: Sequence[str], matches: int, hands: int, seed: int
) -> tuple[int, int]:
    """Play at a real table, then replay every hand here (``Night``): the same seats,
    names, random sources and packs must give the same decisions, hand by hand.
    Returns (hands, decisions) checked; ``AssertionError`` at the first difference."""
    kinds, rngs, heard, names = asyncio.run(
        _at_a_table(level, person, others, matches, hands, seed)
    )
    night = Night(kinds, names)
    hands_seen = decisions = 0
    for what, arg in heard:
        if what == "match":
            if arg != night.night:
                night.begin(arg, rngs)
            night.chairs.match_starts(arg)
            continue
        dealt = [e.card for e in arg.events if isinstance(e, Deal)]
        deck = dealt + [c for c in _DECK if c not in dealt]
        stacks = {s: st.start_stack for s, st in arg.seats.items()}
        hand = Hand(stacks=stacks, button=arg.button, deck=deck)
        hand.start()
        while not hand.is_over:
            hand.apply(hand.to_act, night.ask(hand))
        table_acts = [(e.seat, str(e.action)) for e in arg.events if isinstance(e, Act)]
        ours = [(e.seat, str(e.action)) for e in hand.events if isinstance(e, Act)]
        assert ours == table_acts, f"hand {hands_seen + 1}: table {table_acts}, bench {ours}"
        night.chairs.hand_over(hand)
        hands_seen += 1
        decisions += len(ours)
    return hands_seen, decisions


# ---------------------------------------------------------------- the table of figures


def _submit(
    pool: ProcessPoolExecutor,
    args: argparse.Namespace,
    name: str,
    others: str,
    seats: int,
    hands: int,
) -> list[Future[list[float]]]:
    """Jobs for ``hands`` hands of ``name`` (about; whole nights, shared out over the seeds)."""
    per_night = args.matches * args.match_hands
    seeds = JUDGING if args.seeds == "judging" else TUNING
    nights = max(1, -(-hands // (per_night * seats * len(seeds))))  # a night a seed at least
    step = max(1, args.chunk // (per_night * seats))
    return [
        pool.submit(run_chunk, name, others, seats, seed, first, min(step, nights - first),
                    args.matches, args.match_hands)
        for seed in seeds
        for first in range(0, nights, step)
    ]  # fmt: skip


def _line(label: str, mean: float, half: float, hands: int, note: str = "") -> str:
    flag = "" if mean - half > 0 else ("   (not above 0)" if mean + half > 0 else "   LOSES")
    return f"{label:<34}{hands:>8}   {mean:+7.1f} ± {half:4.1f}{flag}{note}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog=f"tuning seeds {TUNING}; judging seeds {JUDGING}",
    )
    parser.add_argument(
        "--seeds",
        choices=("tuning", "judging"),
        default="tuning",
        help=f"tuning {TUNING} (to tune on) or judging {JUDGING} (to judge on)",
    )
    parser.add_argument(
        "--hands",
        type=int,
        default=12000,
        help="hands of the strongest level heads-up against tag",
    )
    parser.add_argument(
        "--members",
        type=int,
        default=None,
        help="hands of the strongest level heads-up against each other member, the "
        "calling station and the station bound, and of each level against the one below "
        "(default hands / 5: the pool's average over as many hands as tag's)",
    )
    parser.add_argument(
        "--four",
        type=int,
        default=None,
        help="hands of the strongest level four-handed against each member (default "
        "hands / 10; the mix four times as many)",
    )
    parser.add_argument(
        "--minor",
        type=int,
        default=None,
        help="hands of the weaker levels for each match-up with the pool (default hands / 10)",
    )
    parser.add_argument("--levels", nargs="*", default=list(LEVELS), help="levels to measure")
    parser.add_argument("--against", nargs="*", default=list(POOL), help="pool members")
    parser.add_argument("--seats", nargs="*", type=int, default=[2, 4], help="2, 4 or both")
    parser.add_argument(
        "--pool-only",
        action="store_true",
        help="no level against the one below, no calling station",
    )
    parser.add_argument(
        "--pair",
        nargs=2,
        default=None,
        metavar=("PLAYER", "OPPONENT"),
        help="one heads-up match-up only",
    )
    parser.add_argument("--matches", type=int, default=6, help="matches a night")
    parser.add_argument("--match-hands", type=int, default=DEFAULT_HANDS, help="deals a match")
    parser.add_argument("--chunk", type=int, default=400, help="about this many hands a job")
    parser.add_argument("--decisions", type=int, default=2000, help="decisions timed (0: none)")
    parser.add_argument(
        "--parity",
        type=int,
        default=0,
        help="matches checked against a real table, heads-up and four-handed",
    )
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()  # fmt: skip
    members = args.members if args.members is not None else args.hands // 5
    four = args.four if args.four is not None else args.hands // 10
    minor = args.minor if args.minor is not None else args.hands // 10
    levels = [lv for lv in LEVELS if lv in args.levels]
    strongest = list(LEVELS)[-1]
    seed0 = (JUDGING if args.seeds == "judging" else TUNING)[0]

    if args.parity:
        for others in ([], ["lag", "steamer"]):
            got = parity(strongest, "tag", others, args.parity, args.match_hands, seed0)
            print(f"parity with a real table, {strongest} and tag {' '.join(others)}: "
                  f"{got[0]} hands, {got[1]} decisions, the same")  # fmt: skip
    if args.decisions:
        timings = sorted(measure_time(strongest, args.decisions, seed0))
        median = statistics.median(timings) * 1000
        p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))] * 1000
        print(f"{strongest} seven seats, one core: {len(timings)} decisions, median "
              f"{median:.2f} ms, p99 {p99:.2f} ms, max {timings[-1] * 1000:.2f} ms "
              "(target: median <= 10 ms, p99 <= 100 ms)")  # fmt: skip

    setups: list[tuple[str, str, int, int]] = []
    if args.pair:
        setups.append((args.pair[0], args.pair[1], 2, args.hands))
    else:
        for lv in levels:
            top = lv == strongest
            for member in args.against:
                if 2 in args.seats:
                    hands = (args.hands if member == "tag" else members) if top else minor
                    setups.append((lv, member, 2, hands))
                if 4 in args.seats:
                    setups.append((lv, member, 4, four if top else minor))
            if 4 in args.seats:
                setups.append((lv, MIX, 4, 4 * four if top else minor))
            i = list(LEVELS).index(lv)
            if i and not args.pool_only:  # against the level below
                setups.append((lv, list(LEVELS)[i - 1], 2, members))
            if top and not args.pool_only:
                setups += [(lv, "caller", 2, members), ("bound", "caller", 2, members)]
    if not setups or not args.hands:
        return
    started = time.perf_counter()
    results: dict[tuple[str, str, int], tuple[float, float, int]] = {}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        jobs = {(n, o, s): _submit(pool, args, n, o, s, h) for n, o, s, h in setups}
        print(f"\n{args.seeds} seeds; nights of {args.matches} matches of {args.match_hands}")
        print(f"{'player / against, seats':<34}{'hands':>8}   sb/100 (95% CI)")
        for (n, o, s), chunks in jobs.items():
            per_night = [x for c in chunks for x in c.result()]
            mean, half = summary(per_night)
            played = len(per_night) * args.matches * args.match_hands * s
            results[(n, o, s)] = (mean, half, played)
            print(_line(f"{n} / {o}, {s}", mean, half, played))
    print()
    for lv in levels:
        for s in (2, 4):
            cells = [results[(lv, m, s)] for m in args.against if (lv, m, s) in results]
            if cells:
                mean = statistics.fmean(c[0] for c in cells)
                half = sum(c[1] ** 2 for c in cells) ** 0.5 / len(cells)
                print(_line(f"{lv} / pool average, {s}", mean, half, sum(c[2] for c in cells)))
    if (strongest, "caller", 2) in results and ("bound", "caller", 2) in results:
        got, bound = results[(strongest, "caller", 2)][0], results[("bound", "caller", 2)][0]
        print(f"{strongest} / caller: {got / bound:.0%} of the station bound (target >= 95%)")
    print(f"\n{sum(r[2] for r in results.values())} hands in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
