"""Odds on request: a seat's chance of winning the pot, from what that seat has seen.

``spot_of(view)`` takes a ``common.schema.SeatView`` (the view as the client holds
it) and builds what the seat may know: its own cards (down and up), each rival
still in as its up cards only, and every other card the view shows (folded
seats' up cards, hands shown) dead.  It reads the view and nothing else, so an
odds figure can never use a card the seat may not see.

``pot_odds(view)`` is the price of the call in front of the seat: call 20 to
win 246 needs 20 / (246 + 20) = 7.5% of the pot to break even, where 246 is
everything in the middle now (the pot, this street's bets included).

``OddsJob`` works the equity out a slice at a time, so that a window's frame loop
never waits on it: counted in exact slices when the deals are few (the weighted sum
is ``exact_share``'s ``Fraction`` itself), else sampled in batches of ``equity``,
pooled as if one run, until the 95% half-width is at most ``target`` or ``cap``
samples are drawn.

Invariants: no I/O and no global random state (the ``rng`` is passed in); the
figures depend on the spot, the RNG's state and the job's parameters only,
never on the clock (it says only how much is done per step).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from common.cards import Card
from common.equity import (
    ENUM_BUDGET,
    FULL_DECK,
    MY_DRAWS,
    Estimate,
    deal_count,
    equity,
    exact_share,
)
from common.schema import SeatView
from common.seen import cards_seen, viewer_cards

__all__ = [
    "SAMPLE_CAP",
    "SLICE_DEALS",
    "OddsJob",
    "PotOdds",
    "Spot",
    "combine",
    "odds_words",
    "percent",
    "pot_odds",
    "spot_of",
]

SLICE_DEALS = 2_000
"""An exact slice counts at most this many deals (a millisecond or two)."""
SAMPLE_CAP = 12_000
"""Samples at most.  A sample's share is in 0..1, so its variance is at most 1/4 and
from 9,604 samples on the 95% half-width is at most one point whatever the spot:
the cap only ever stops a run that has already reached its target."""
SLICE_WORK = 600
"""A sampled batch is about this many hand values."""

_BY_CODE: dict[str, Card] = {str(c): c for c in FULL_DECK}
"""Card codes to cards; a view's other strings are skipped."""


@dataclass(frozen=True, slots=True)
class Spot:
    """What a seat knows: its cards, each rival's up cards (deal order), the dead cards."""

    mine: tuple[Card, ...]
    rivals: tuple[tuple[Card, ...], ...]
    dead: tuple[Card, ...]


def spot_of(view: SeatView) -> Spot | None:
    """The seat's spot, or None when there is nothing to work out: a watcher, a seat
    that has folded, a hand that is over."""
    me = view.seats.get(view.you) if view.you is not None else None
    if me is None or me.folded or view.over:
        return None
    mine = [_BY_CODE[c] for c in viewer_cards(view)]
    rivals = [
        tuple(_BY_CODE[c] for c in view.seats[s].up if c in _BY_CODE)
        for s in view.order
        if s != view.you and s in view.seats and not view.seats[s].folded
    ]
    known = set(mine) | {c for r in rivals for c in r}
    seen = {_BY_CODE[c] for c in cards_seen(view) if c in _BY_CODE}
    dead = tuple(c for c in FULL_DECK if c in seen and c not in known)  # pack order
    return Spot(tuple(mine), tuple(rivals), dead)


@dataclass(frozen=True, slots=True)
class PotOdds:
    """The call in front of the seat: ``call`` chips to win ``win``."""

    call: int
    win: int

    @property
    def need(self) -> Fraction:
        """The share of the pot the call must win to break even: call / (win + call)."""
        return Fraction(self.call, self.win + self.call)

    def words(self) -> str:
        """``"Call 20 to win 246: you need 7.5%"``."""
        return f"Call {self.call} to win {self.win}: you need {percent(self.need, 1)}"

    def verdict(self, result: Estimate) -> str:
        """What the chance says of the price: the pot pays for the call, or not, or it is
        too close to tell within the chance's error."""
        need = float(self.need)
        if abs(result.share - need) <= result.half_width:
            return "About what you need: a close call"
        if result.share > need:
            return "More than you need: the pot pays for the call"
        return "Less than you need: the pot does not pay for it"


def pot_odds(view: SeatView) -> PotOdds | None:
    """The call offered to the seat now (its ``legal`` actions), or None.  ``win`` is
    everything in the middle that the seat can win by calling: the pot, with this
    street's bets; calling all in for less, only as much of each seat's chips as the
    seat's own total matches (R-A3)."""
    call = next((a for a in view.legal if a.action == "call"), None)
    me = view.seats.get(view.you) if view.you is not None else None
    if call is None or me is None or call.put <= 0:
        return None
    win = view.pot
    if call.all_in:  # the seat's chips match only part of the others'
        mine = me.in_pot + call.put
        others = sum(min(s.in_pot, mine) for n, s in view.seats.items() if n != view.you)
        win = min(win, me.in_pot + others)
    return PotOdds(call.put, win)


def percent(x: float | Fraction, places: int = 0) -> str:
    """``0.0752`` -> ``"7.5%"`` (``places`` 1); never says 0% or 100% of what is not."""
    value = float(x) * 100
    text = f"{value:.{places}f}"
    if float(text) == 0 and value > 0:
        text = "<" + f"{10**-places:.{places}f}"
    elif float(text) == 100 and value < 100:
        text = ">" + f"{100 - 10**-places:.{places}f}"
    return text + "%"


def combine(parts: Sequence[Estimate]) -> Estimate:
    """Independent sampled estimates pooled into one, as if one run had drawn them all:
    each part's sum and sum of squares recovered from its ``share`` and ``stderr``
    (``equity``'s sample mean and standard error), added, and the totals' taken."""
    n = total = squares = 0.0
    for e in parts:
        k = e.deals
        if k <= 0:
            continue
        var = e.stderr * e.stderr * k if k > 1 else 0.0
        n += k
        total += e.share * k
        squares += e.share * e.share * k + (k - 1) * var
    if n <= 0:
        return Estimate(0.5, 0.5, 0, False)
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * n / (n - 1) if n > 1 else 0.25
    return Estimate(mean, math.sqrt(var / n), int(n), False)


def _slices(
    mine: list[Card], rivals: list[list[Card]], dead: list[Card], limit: int
) -> Iterator[tuple[Fraction, list[Card], list[list[Card]], list[Card]]]:
    """The spot split into exact slices of at most ``limit`` deals where it can be:
    (weight, mine, rivals, dead), the spot's share the weighted sum of the slices'.
    With ``u`` unseen cards and the first hand still to be dealt needing ``k``:

    - If it is the only hand to be dealt (seventh street heads-up), slice ``i`` is the
      deals whose lowest new card (in pack order) is the ``i``-th unseen card: it is
      dealt, the ``i`` below it are dead, and the other ``k - 1`` cards are any of the
      ``u - 1 - i`` above: ``C(u - 1 - i, k - 1)`` of the ``C(u, k)`` equally likely
      deals, each in exactly one slice and as likely as any other in it.
    - Else a slice fixes all ``k`` cards of that hand (weight ``1 / C(u, k)``); given
      them, the other hands' deal is a uniform deal of what is left.

    A slice still too big is split again the same way (``tests/test_odds.py`` holds
    the weighted sum to ``exact_share``'s ``Fraction``)."""
    hands = [mine, *rivals]
    drawing = [i for i, h in enumerate(hands) if len(h) < 7]
    if not drawing or deal_count(hands, dead) <= limit:
        yield Fraction(1), mine, rivals, dead
        return
    first = drawing[0]
    need = 7 - len(hands[first])
    seen = {c for h in hands for c in h} | set(dead)
    unseen = [c for c in FULL_DECK if c not in seen]
    ways = math.comb(len(unseen), need)
    if len(drawing) == 1:
        pieces = (
            (Fraction(math.comb(len(unseen) - 1 - i, need - 1), ways), [card], unseen[:i])
            for i, card in enumerate(unseen[: len(unseen) - need + 1])
        )
    else:
        pieces = ((Fraction(1, ways), list(cards), []) for cards in combinations(unseen, need))
    for weight, cards, out in pieces:
        grown = [list(h) for h in hands]
        grown[first] += cards
        for w, m, r, d in _slices(grown[0], grown[1:], [*dead, *out], limit):
            yield weight * w, m, r, d


class OddsJob:
    """The seat's equity in ``spot``, worked out a slice at a time (``step``).

    ``exact`` says it is counted; ``result`` is the ``Estimate`` once ``done``
    (``fraction`` too when counted); ``deals`` counts what is done so far."""

    def __init__(
        self,
        spot: Spot,
        rng: random.Random,
        *,
        target: float = 0.01,
        budget: int = ENUM_BUDGET,
        cap: int = SAMPLE_CAP,
        slice_deals: int = SLICE_DEALS,
    ) -> None:
        self.spot = spot
        self.rng = rng
        self.target = target
        self.cap = cap
        self.mine = list(spot.mine)
        self.rivals = [list(r) for r in spot.rivals]
        self.dead = list(spot.dead)
        self.exact = deal_count([self.mine, *self.rivals], self.dead) <= budget
        self.done = False
        self.result: Estimate | None = None
        self.fraction: Fraction | None = None
        self.deals = 0
        self.slices = 0
        self.spent = 0.0
        """Seconds of slices so far: a step starts no slice that would not fit, judged on
        half as much again as the mean slice (a slice's work is the same each time; the
        longest may have been a pause of the machine's)."""
        self._sum = Fraction(0)
        self._todo = _slices(self.mine, self.rivals, self.dead, slice_deals) if self.exact else None
        self._parts: list[Estimate] = []
        # A batch is about SLICE_WORK hand values at any table (one per rival and MY_DRAWS
        # of ours a sample), fixed by the spot: the figures never depend on the clock.
        values = len(spot.rivals) + (MY_DRAWS if len(spot.mine) < 7 else 1)
        self._batch = max(20, SLICE_WORK // max(1, values))

    def step(self, budget_seconds: float, clock: Callable[[], float]) -> bool:
        """Work for at most about ``budget_seconds`` of ``clock`` (at least one slice);
        returns ``done``."""
        start = clock()
        while not self.done:
            began = clock()
            self._slice()
            ended = clock()
            self.spent += ended - began
            if ended - start + 1.5 * self.spent / self.slices > budget_seconds:
                break
        return self.done

    def run(self) -> Estimate:
        """Work to the end at once (tests, scripts)."""
        while not self.done:
            self._slice()
        assert self.result is not None
        return self.result

    def _slice(self) -> None:
        self.slices += 1
        if self._todo is not None:
            piece = next(self._todo, None)
            if piece is None:
                self.fraction = self._sum
                self.result = Estimate(float(self._sum), 0.0, self.deals, True)
                self.done = True
                return
            weight, mine, rivals, dead = piece
            self._sum += weight * exact_share(mine, rivals, dead)
            self.deals += deal_count([mine, *rivals], dead)
            return
        left = self.cap - self.deals
        e = equity(self.mine, self.rivals, self.dead, self.rng, target=0.0, budget=0,
                   max_samples=min(self._batch, left))  # fmt: skip
        self._parts.append(e)
        self.deals += e.deals
        pooled = combine(self._parts)
        if pooled.half_width <= self.target or self.deals >= self.cap:
            self.result = pooled
            self.done = True


def odds_words(result: Estimate, rivals: int) -> str:
    """``"You win about 31% (±1) against 3 seats"``; counted: ``"You win 31.4% ..."``."""
    against = f"against {rivals} seat" + ("s" if rivals != 1 else "")
    if rivals == 0:
        return "You win the pot: no one else is in"
    if result.exact:
        return f"You win {percent(result.share, 1)} {against} (every card counted)"
    spread = max(1, round(result.half_width * 100))
    return f"You win about {percent(result.share)} (±{spread}) {against}"
