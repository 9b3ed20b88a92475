"""The one equity engine: a seat's share of the pot at showdown, counted or sampled.

A seat's *equity* is its expected share of the pot if every seat still in goes to
showdown (R-S1): 1 for a win, 1/k for a k-way split (R-S2, R-S3), averaged over
every way the cards still to come can lie.  Each seat is given by the cards known of
it (a rival's up cards; in the after-match analysis, all its cards) and ``dead`` holds
other cards out of play (folded seats' up cards).  ``equity`` and ``all_equities``
count every deal when there are at most ``budget`` and otherwise sample until the 95%
half-width is at most ``target``; ``exact_shares`` counts; ``sample_share`` (the
computer seats') draws a fixed number of samples, optionally weighed by the rivals'
ranges (``Weighs``).

Invariants:

- No I/O, no global random state: every random number comes from the ``rng``
  passed in, one per card shuffled (a partial Fisher-Yates shuffle of the unseen
  cards, in ``FULL_DECK`` order).  The same RNG state gives the same result and
  leaves the RNG in the same state.
- A card given twice, a hand of more than seven cards or fewer unseen cards than
  the hands need (never at a real table, R-D6) raise ``ValueError``.
- Values are exactly ``common.hands.evaluate``'s: each hand's known cards' sum plus
  the dealt cards' plain ints, read in ``common.hands.evaluator_tables``.
- An exact ``Estimate`` has ``stderr == 0``; a sampled one's ``half_width`` never
  claims less than ``3 / samples`` (the 95% bound when nothing varied: a hand that
  lost every sample of 300 may still win 1 in 100).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from operator import itemgetter
from typing import Any, Protocol

from common.cards import Card, full_deck
from common.hands import evaluator_tables

__all__ = [
    "ENUM_BUDGET",
    "FULL_DECK",
    "Z95",
    "Estimate",
    "Weighs",
    "all_equities",
    "deal_count",
    "equity",
    "exact_share",
    "exact_shares",
    "sample_share",
]

FULL_DECK: tuple[Card, ...] = tuple(full_deck())
"""The pack in a fixed order: the unseen cards are always drawn from it in this order."""
ENUM_BUDGET = 50_000
"""Count every deal when there are at most this many (heads-up seventh street: 14,190)."""
Z95 = 1.959964
"""The two-sided 95% point of the normal distribution."""
BATCH = 100
"""Samples between two looks at the half-width when sampling to a target."""
MY_DRAWS = 3
"""``equity`` completes the seat's own hand this many ways for each deal of its rivals'."""
VARIANTS = 12
"""``equity`` reads up to this many layouts of its rivals' and its own cards off each shuffle
when a deal uses at least ``LAYOUT_MIN`` cards (else one deal per shuffle, as plain)."""
LAYOUT_MIN = 12
MAX_SAMPLES = 400_000
"""Sampling to a target stops here whatever the half-width (far past one point)."""

_FLUSH_SUIT, _RANK_VALUE, _FLUSH_VALUE = evaluator_tables()
"""Built at import (about 0.1 s, as the game starts) so that the odds' first slice, worked
between two frames, does not pay for them; ``_value`` spells out the lookup."""
_BY_CODE: dict[int, Card] = {int(c): c for c in FULL_DECK}
_LCM = 420
"""Every split 1..7 divides it: counted shares stay integers."""


class Weighs(Protocol):
    """A rival's range: how likely it is to hold ``hidden`` (its down cards first)."""

    def weight(self, hidden: Sequence[Card]) -> float: ...


@dataclass(frozen=True)
class Estimate:
    """A share of the pot with its error: ``share`` +- ``half_width`` at 95%."""

    share: float
    """Expected share of the pot, 0..1 (ties split)."""
    stderr: float
    """Standard error of ``share``; 0 when counted."""
    deals: int
    """Deals counted, or samples drawn."""
    exact: bool
    """Every deal was counted."""

    @property
    def half_width(self) -> float:
        """Half-width of the 95% interval (0 when exact)."""
        if self.exact:
            return 0.0
        return max(Z95 * self.stderr, 3.0 / self.deals) if self.deals else 1.0


def _check(hands: Sequence[Sequence[Card]], dead: Sequence[Card]) -> list[int]:
    """The unseen cards (plain ints, ``FULL_DECK`` order), after checking the spot."""
    seen: set[int] = set()
    need = 0
    for hand in hands:
        if len(hand) > 7:
            raise ValueError(f"a hand of {len(hand)} cards: at most seven")
        need += 7 - len(hand)
        seen.update(hand)
    seen.update(dead)
    given = sum(len(h) for h in hands) + len(dead)
    if len(seen) != given:
        raise ValueError("a card is given twice")
    if not seen <= _DECK_SET:
        raise ValueError("not a card of the pack")
    unseen = [int(c) for c in FULL_DECK if c not in seen]
    if need > len(unseen):
        raise ValueError("not enough unseen cards for the seats in the hand")
    return unseen


_DECK_SET = frozenset(int(c) for c in FULL_DECK)


def deal_count(hands: Sequence[Sequence[Card]], dead: Sequence[Card] = ()) -> int:
    """How many deals of the cards to come there are (what counting would look at)."""
    n = len(_check(hands, dead))
    count = 1
    for hand in hands:
        k = 7 - len(hand)
        count *= math.comb(n, k)
        n -= k
    return count


def _value(s: int, cards: Sequence[int]) -> int:
    """The value of seven cards ``cards`` summing to ``s`` (``hands.evaluator_tables``);
    the loops below read ``_RANK_VALUE`` themselves and call it for the flushes only."""
    bits = _FLUSH_SUIT[s & 0xFF]
    if bits is None:
        return _RANK_VALUE[s >> 8]
    flushed = 0
    for card in cards:
        flushed |= bits[card]
    return _FLUSH_VALUE[flushed]


def _coded(cards: Sequence[int]) -> list[int]:
    """The cards as plain ints, which add faster than ``Card``s."""
    return [int(c) for c in cards]


def _slots(
    hands: Sequence[Sequence[Card]], start: int = 0
) -> list[tuple[int, list[int], int, int]]:
    """Where each hand's missing cards lie in a deal laid out from ``start``, one hand
    after the other: (its known cards' sum, its known cards, first, past the last)."""
    slots = []
    for hand in hands:
        known = _coded(hand)
        end = start + 7 - len(known)
        slots.append((sum(known), known, start, end))
        start = end
    return slots


def _count(hands: Sequence[Sequence[Card]], dead: Sequence[Card]) -> tuple[list[int], int]:
    """Every deal counted: (each seat's points, deals); a share is points / (420 deals)."""
    pool = _coded(_check(hands, dead))
    n = len(hands)
    slots = _slots(hands)
    vals = [_value(base, known) if lo == hi else 0 for base, known, lo, hi in slots]
    points = [0] * n
    drawing = [i for i, (_, _, lo, hi) in enumerate(slots) if lo < hi]
    deals = 0
    flush_suit, rank_value = _FLUSH_SUIT, _RANK_VALUE
    if not drawing:  # every card known: one deal, split among the best hands
        winners = [i for i in range(n) if vals[i] == max(vals)]
        for i in winners:
            points[i] += _LCM // len(winners)
        return points, 1

    def deal(d: int, pool: list[int]) -> None:
        nonlocal deals
        seat = drawing[d]
        base, hand, lo, hi = slots[seat]
        last = d == len(drawing) - 1
        if last:
            others = [vals[i] for i in range(n) if i != seat]
            best = max(others) if others else -1
            ties = others.count(best)
            tops = [i for i in range(n) if i != seat and vals[i] == best]
        for combo in combinations(pool, hi - lo):
            s = sum(combo, base)
            v = (
                rank_value[s >> 8]
                if flush_suit[s & 0xFF] is None
                else _value(s, hand + list(combo))
            )
            if last:
                deals += 1
                if v > best:
                    points[seat] += _LCM
                elif v == best:
                    share = _LCM // (ties + 1)
                    points[seat] += share
                    for i in tops:
                        points[i] += share
                else:
                    for i in tops:
                        points[i] += _LCM // ties
            else:
                vals[seat] = v
                rest = [c for c in pool if c not in combo]
                deal(d + 1, rest)

    deal(0, pool)
    return points, deals


def exact_shares(hands: Sequence[Sequence[Card]], dead: Sequence[Card] = ()) -> list[Fraction]:
    """Every seat's exact equity, every deal of the cards to come counted (R-S2, R-S3).

    ``hands`` are the seats still in, each with all the cards known of it: a seat
    whose hidden cards are unknown simply has fewer known cards.  Slow past
    ``ENUM_BUDGET`` deals (see ``deal_count``).

    >>> from common.cards import parse_many
    >>> exact_shares([parse_many("As Ah Kd Kc 2s 3d 9h"), parse_many("Ad Ac Ks Kh 2h 3c 9c")])
    [Fraction(1, 2), Fraction(1, 2)]
    """
    points, deals = _count(hands, dead)
    return [Fraction(p, _LCM * deals) for p in points]


def exact_share(
    mine: Sequence[Card], rivals: Sequence[Sequence[Card]], dead: Sequence[Card] = ()
) -> Fraction:
    """``mine``'s exact equity against ``rivals`` (their known cards), every deal counted."""
    return exact_shares([mine, *rivals], dead)[0]


def sample_share(
    mine: Sequence[Card],
    rivals: Sequence[Sequence[Card]],
    dead: Sequence[Card],
    rng: random.Random,
    samples: int,
    weights: Sequence[Weighs] | None = None,
) -> float:
    """``mine``'s share over ``samples`` random deals against ``rivals`` (their known cards).

    ``weights``, one per rival, weigh each deal by how likely that rival's hidden
    cards are (``Weighs.weight`` of the cards dealt it, as ``Card``s); 0.5 if
    every deal weighs 0.  Unweighted the result is exactly (wins + split shares)
    / samples.  The deal layout is fixed: the seat's missing cards first, then each
    rival's in order; a deal stops at the first rival that beats the seat.

    >>> from common.cards import parse_many
    >>> quads = parse_many("As Ah Ad Ac Kd Qd 2c")
    >>> sample_share(quads, [parse_many("Ks Kh 2d 3d")], [], random.Random(1), 50) > 0.95
    True
    """
    pool = _coded(_check([mine, *rivals], dead))
    known_me = _coded(mine)
    need_me = 7 - len(known_me)
    base_me = sum(known_me)
    slots = _slots(rivals, need_me)
    total = slots[-1][3] if slots else need_me
    ranged = None
    if weights is not None:
        ranged = [(r, lo, hi) for r, (_, _, lo, hi) in zip(weights, slots, strict=True)]
    by_code = _BY_CODE
    won = weight_sum = 0.0
    w = 1.0
    rnd = rng.random
    n_pool = len(pool)
    flush_suit, rank_value = _FLUSH_SUIT, _RANK_VALUE
    draws = [(i, n_pool - i) for i in range(total)]
    for _ in range(samples):
        # A partial Fisher-Yates shuffle: the first ``total`` cards of ``pool`` are a
        # uniform draw whatever order the last draw left them in.
        for i, m in draws:
            j = i + int(rnd() * m)
            pool[i], pool[j] = pool[j], pool[i]
        if ranged is not None:
            w = 1.0
            for r, lo, hi in ranged:
                w *= r.weight([by_code[c] for c in pool[lo:hi]])
            if w <= 0.0:
                continue
        s = sum(pool[:need_me], base_me)
        me = (
            rank_value[s >> 8]
            if flush_suit[s & 0xFF] is None
            else _value(s, known_me + pool[:need_me])
        )
        weight_sum += w
        ties = 0  # rivals level with us; a rival above us ends the deal: we win nothing
        for base, known, lo, hi in slots:
            s = sum(pool[lo:hi], base)
            if flush_suit[s & 0xFF] is None:
                v = rank_value[s >> 8]
            else:
                v = _value(s, known + pool[lo:hi])
            if v > me:
                break
            if v == me:
                ties += 1
        else:
            won += w / (ties + 1) if ties else w
    return won / weight_sum if weight_sum else 0.5


def equity(
    mine: Sequence[Card],
    rivals: Sequence[Sequence[Card]],
    dead: Sequence[Card],
    rng: random.Random,
    *,
    target: float = 0.01,
    budget: int = ENUM_BUDGET,
    max_samples: int = MAX_SAMPLES,
) -> Estimate:
    """``mine``'s equity against ``rivals`` (each its known cards), ``dead`` out of play.

    Counted exactly (``rng`` untouched) when there are at most ``budget`` deals;
    else sampled, ``BATCH`` at a time, until the 95% ``half_width`` is at most
    ``target`` or ``max_samples`` are drawn.

    >>> from common.cards import parse_many
    >>> e = equity(parse_many("Ah Ad Kc Ks 7h"), [parse_many("Qc Jd 9s")], [], random.Random(3))
    >>> e.exact, e.half_width <= 0.01, 0.6 < e.share < 0.95
    (False, True, True)
    """
    return _estimates([mine, *rivals], dead, rng, 1, target, budget, max_samples)[0]


def _sample_all(
    hands: Sequence[Sequence[Card]],
    rng: random.Random,
    samples: int,
    pool: list[int],
    sums: list[list[float]],
) -> None:
    """``samples`` deals into ``sums`` (per seat: share sum, square sum): the unseen
    cards shuffled, each seat's missing cards dealt from the top in seat order."""
    seats = _slots(hands)
    rnd = rng.random
    draws = [(i, len(pool) - i) for i in range(seats[-1][3])]
    flush_suit, rank_value = _FLUSH_SUIT, _RANK_VALUE
    vals = [0] * len(hands)
    for _ in range(samples):
        for i, m in draws:  # a partial Fisher-Yates shuffle, as in ``sample_share``
            j = i + int(rnd() * m)
            pool[i], pool[j] = pool[j], pool[i]
        for seat, (base, known, lo, hi) in enumerate(seats):
            s = sum(pool[lo:hi], base)
            if flush_suit[s & 0xFF] is None:
                vals[seat] = rank_value[s >> 8]
            else:
                vals[seat] = _value(s, known + pool[lo:hi])
        best = max(vals)
        ties = vals.count(best)
        x = 1.0 / ties
        for seat, v in enumerate(vals):
            if v == best:
                acc = sums[seat]
                acc[0] += x
                acc[1] += x * x


def _layouts(k: int, used: int, variants: int = VARIANTS) -> list[tuple[int, ...] | None]:
    """Up to ``variants`` ways to lay a deal of ``used`` cards out on ``k`` shuffled
    cards: the cards at positions ``x * m % k`` for the deal's positions ``x`` (the
    first is ``None``: as they lie)."""
    out: list[tuple[int, ...] | None] = [None]
    seen = {tuple(range(used))}
    for m in _MULTIPLIERS:
        if len(out) >= variants:
            break
        if math.gcd(m, k) != 1:
            continue
        order = tuple(x * m % k for x in range(k))
        if order[:used] not in seen:
            seen.add(order[:used])
            out.append(order)
    return out


_MULTIPLIERS = (7, 11, 5, 13, 3, 17, 19, 23, 29, 31, 2)
"""Steps between the positions that one layout deals a hand (far apart: other cards)."""


def _sample_mine(
    hands: Sequence[Sequence[Card]],
    rng: random.Random,
    samples: int,
    pool: list[int],
    sums: list[list[float]],
) -> None:
    """``samples`` draws into ``sums[0]`` (seat 0's share sum, square sum).

    A draw shuffles the unseen cards once, then reads several deals off them: in each
    *layout* (``_layouts``) the rivals get their missing cards and seat 0 up to
    ``MY_DRAWS`` completions from the cards left (overlapping on a crowded table, each
    still a uniform completion).  A fixed rearrangement of uniformly shuffled cards is
    uniformly shuffled, so every deal is a uniform one and a draw's mean share is an
    unbiased sample; the draws are independent, and the error is measured over them.
    A draw costs one shuffle but varies about as little as several.  A deal where a
    rival beats every completion of seat 0 stops there (its share is 0)."""
    mine = _coded(hands[0])
    need_me = 7 - len(mine)
    base_me = sum(mine)
    seats = _slots(hands[1:])
    start = seats[-1][3] if seats else 0
    n_pool = len(pool)
    left = n_pool - start
    mysets: list[list[int]]
    if left >= need_me * MY_DRAWS:  # disjoint completions
        mysets = [
            list(range(start + g * need_me, start + (g + 1) * need_me)) for g in range(MY_DRAWS)
        ]
    else:  # a crowded table: completions overlap, each still a uniform one
        step = max(1, left // MY_DRAWS)
        mysets = []
        for g in range(min(MY_DRAWS, math.comb(left, need_me))):
            cut = [start + (g * step + t) % left for t in range(need_me)]
            if sorted(cut) not in [sorted(c) for c in mysets]:
                mysets.append(cut)
    groups = len(mysets)
    used = max(max(c) for c in mysets) + 1
    # A deal of few cards costs less to draw again than to lay out again.
    variants = VARIANTS if used >= LAYOUT_MIN else 1
    k = min(n_pool, used * variants)  # enough cards shuffled for layouts far apart

    def getter(order: Sequence[int] | None, at: Sequence[int]) -> Callable[[list[int]], Any]:
        where = list(at) if order is None else [order[x] for x in at]
        if len(where) == 1:
            return itemgetter(slice(where[0], where[0] + 1))
        if order is None and where == list(range(where[0], where[-1] + 1)):
            return itemgetter(slice(where[0], where[-1] + 1))
        return itemgetter(*where)

    layouts = [
        (
            [getter(order, at) for at in mysets],
            [(base, known, getter(order, range(lo, hi))) for base, known, lo, hi in seats],
        )
        for order in _layouts(k, used, variants)
    ]
    draws = [(i, n_pool - i) for i in range(min(k, n_pool - 1))]
    inv = 1.0 / (groups * len(layouts))
    rnd = rng.random
    flush_suit, rank_value = _FLUSH_SUIT, _RANK_VALUE
    acc = sums[0]
    total, squares = acc
    mv = [0] * groups
    for _ in range(samples):
        for i, m in draws:
            j = i + int(rnd() * m)
            pool[i], pool[j] = pool[j], pool[i]
        x = 0.0
        for my_getters, rivals in layouts:
            top = 0
            for g, get in enumerate(my_getters):
                cards = get(pool)
                s = sum(cards, base_me)
                if flush_suit[s & 0xFF] is None:
                    v = rank_value[s >> 8]
                else:
                    v = _value(s, [*mine, *cards])
                mv[g] = v
                if v > top:
                    top = v
            best = 0
            ties = 1
            for base, known, get in rivals:
                cards = get(pool)
                s = sum(cards, base)
                if flush_suit[s & 0xFF] is None:
                    v = rank_value[s >> 8]
                else:
                    v = _value(s, [*known, *cards])
                if v > best:
                    best, ties = v, 1
                    if v > top:
                        break
                elif v == best:
                    ties += 1
            if best > top:
                continue
            for v in mv:
                if v > best:
                    x += 1.0
                elif v == best:
                    x += 1.0 / (ties + 1)
        x *= inv
        total += x
        squares += x * x
    acc[0], acc[1] = total, squares


def _estimates(
    hands: Sequence[Sequence[Card]],
    dead: Sequence[Card],
    rng: random.Random,
    seats: int,
    target: float,
    budget: int,
    max_samples: int,
) -> list[Estimate]:
    """The first ``seats`` seats' equities: counted when there are at most ``budget``
    deals, else sampled in batches until their half-widths are at most ``target``."""
    if deal_count(hands, dead) <= budget:
        points, deals = _count(hands, dead)
        return [Estimate(p / (_LCM * deals), 0.0, deals, True) for p in points[:seats]]
    pool = _coded(_check(hands, dead))
    sums = [[0.0, 0.0] for _ in hands]
    units = 0

    def estimates() -> list[Estimate]:
        out = []
        for s, s2 in sums[:seats]:
            mean = s / units
            var = max(s2 / units - mean * mean, 0.0) * units / (units - 1) if units > 1 else 0.25
            out.append(Estimate(mean, math.sqrt(var / units), units, False))
        return out

    sample = _sample_mine if seats == 1 and len(hands[0]) < 7 else _sample_all
    while units < max_samples:
        batch = min(BATCH, max_samples - units)
        sample(hands, rng, batch, pool, sums)
        units += batch
        if max(e.half_width for e in estimates()) <= target:
            break
    return estimates()


def all_equities(
    hands: Sequence[Sequence[Card]],
    dead: Sequence[Card],
    rng: random.Random,
    *,
    target: float = 0.01,
    budget: int = ENUM_BUDGET,
    max_samples: int = MAX_SAMPLES,
) -> list[Estimate]:
    """Every seat's equity at once, ``hands`` being all the cards known of each seat
    still in (the analysis: every hole card known).  Counted when there are at
    most ``budget`` deals, else sampled until every seat's 95% half-width is at
    most ``target`` (or ``max_samples``).  The shares add up to 1.

    >>> from common.cards import parse_many
    >>> a, b = all_equities([parse_many("Ah Ad Kc Ks 7h 2c"), parse_many("Qc Jd 9s 9d 2d 3h")],
    ...                     [], random.Random(1))
    >>> a.exact, a.share + b.share
    (True, 1.0)
    """
    return _estimates(hands, dead, rng, len(hands), target, budget, max_samples)
