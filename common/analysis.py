"""The analysis after the match: each street's chances, and the viewer's decisions worth a look.

Like a chess engine's analysis after the game, read from a hand's ``stud-hh/1``
record alone (the open books, a history file, or the hand as one seat saw it,
``common.replay.seen_record``):

- **Chances.**  At the deal of each street, each seat still in gets its chance of
  winning the pot (its equity, R-S1..R-S3: ties split).  When the record holds every
  live seat's down cards (``HandAnalysis.full``) these are the *true* chances, the
  folded seats' cards dead, counted when the deals are few (``EXACT_BUDGET``) and
  sampled to ``TARGET`` elsewhere; else (closed books) only the viewer's own chance,
  its cards against the rivals' up cards.
- **Decisions.**  Each of the viewer's folds, calls, bets, completions and raises is
  judged on what the viewer could see then (its cards, the up cards dealt so far,
  never a rival's down card, even when the record has it).  Marked (``Mark``):

  * ``fold``: the chance against the rivals' boards was at least ``need +
    FOLD_MARGIN``, ``need = call / (pot + call)``; it cost what calling was worth,
    ``chance * (pot + call) - call`` chips.
  * ``dead_call`` and ``dead_bet``: chips put in with no live outs (``drawing_dead``):
    a rival's up cards *alone* (``floor_value``) beat every hand the viewer can end
    with, every completion from the cards it has not seen counted (a hand that could
    only tie with impossible kickers is live).  It cost the chips put in.

Invariants:

- Pure: no I/O, no clock, no global random state.  Every random number comes from
  ``random.Random`` instances seeded from one draw of the ``rng`` given and the
  computation's place (hand, street, event), so the same seed gives the same result
  however the work is split into ``step`` calls.
- A decision reads only what the viewer saw before it: a record cut to the viewer's
  seat and the full record give the same marks; in a closed-books record no figure
  depends on a card the viewer did not see (a property test changes them).
- ``MatchAnalysis.step`` does one bounded piece of work (one exact count of at most
  ``EXACT_BUDGET`` deals, one batch of samples, or one outs check), so a window can
  run it between frames.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations
from typing import Any

from common.cards import Card, parse_many
from common.equity import FULL_DECK, Estimate, all_equities, deal_count, equity
from common.hands import evaluate, floor_value, hand_name, showing_name
from common.replay import Replay, seat_names
from common.schema import SeatView, TableSeat

__all__ = [
    "EXACT_BUDGET",
    "FOLD_MARGIN",
    "TARGET",
    "WORTH_A_LOOK",
    "Chance",
    "HandAnalysis",
    "Mark",
    "MatchAnalysis",
    "StreetChances",
    "analyse_hand",
    "drawing_dead",
    "floor_value",
]

TARGET = 0.01
"""Sampled chances stop once every 95% half-width is at most this (one point)."""
EXACT_BUDGET = 12_000
"""Count every deal when there are at most this many (a count of 12,000 takes ~15 ms)."""
WORK = 2_500
"""Hands completed per batch of samples: a batch is a few milliseconds, seven seats or two."""
MAX_SAMPLES = 60_000
"""Sampling stops here whatever the half-width (never reached at one point)."""
FOLD_MARGIN = 0.10
"""A fold is marked when the chance beat the pot odds' need by ten points or more."""
WORTH_A_LOOK = 5
"""The decisions worth a look: at most this many, the costliest."""

STREET_NAMES = {3: "third street", 4: "fourth street", 5: "fifth street",
                6: "sixth street", 7: "seventh street"}  # fmt: skip
_DONE = {"fold": "folded", "call": "called", "bet": "bet", "raise": "raised",
         "complete": "completed"}  # fmt: skip


# ------------------------------------------------------------------ results


@dataclass(frozen=True, slots=True)
class Chance:
    """One seat's chance of winning the pot: ``share`` (0..1, ties split) +- ``half_width``."""

    seat: int
    share: float
    half_width: float
    exact: bool


@dataclass(frozen=True, slots=True)
class StreetChances:
    """The chances at the deal of ``street``: the replayer's stop after ``upto`` events."""

    street: int
    upto: int
    chances: tuple[Chance, ...]


@dataclass(frozen=True, slots=True)
class Mark:
    """One of the viewer's decisions that cost: where it was, what it was, what it cost.

    ``event`` indexes the record's events (the act judged; the replayer's stop is the
    one after ``event + 1`` events); ``text`` says why in a sentence; ``cost`` is in
    chips, ``big_bets`` the same in big bets; ``chance`` and ``need`` are the fold's
    figures (None for the others)."""

    hand: int
    event: int
    street: int
    seat: int
    kind: str
    action: str
    text: str
    cost: float
    big_bets: float
    chance: float | None = None
    need: float | None = None
    short: str = ""
    """The decision in a few words, for a list (``"folded with 34%, needing 14%"``)."""
    chips: int = 0
    """A fold's call, or the chips a call or wager drawing dead put in."""
    pot: int = 0
    """The pot a fold gave up."""
    rival: str = ""
    """Drawing dead: the seat whose up cards beat every hand the viewer could make ..."""
    shows: str = ""
    """... its showing hand and the viewer's best (``stud-hh/1`` names), and whether the
    viewer had all seven cards (``made``)."""
    best: str = ""
    made: bool = False

    @property
    def title(self) -> str:
        """``"Hand 3, fifth street"``."""
        return f"Hand {self.hand}, {STREET_NAMES.get(self.street, 'the deal')}"


@dataclass(slots=True)
class HandAnalysis:
    """One hand's analysis: the chances at each street (filled in as they are counted)
    and the viewer's marked decisions.  ``full``: true chances (every live seat's down
    cards known); else the viewer's own chance only, from its seat's knowledge."""

    hand: int
    full: bool
    streets: list[StreetChances] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)

    def chances_at(self, upto: int) -> StreetChances | None:
        """The street's chances in force after ``upto`` events: the last deal at or before."""
        return max((st for st in self.streets if st.upto <= upto), key=lambda st: st.upto,
                   default=None)  # fmt: skip


# ------------------------------------------------------------------ drawing dead


def best_reachable(mine: Sequence[Card], pool: Sequence[Card], floor: int) -> tuple[bool, int]:
    """Whether some completion of ``mine`` to seven cards from ``pool`` is worth at least
    ``floor`` (stopping at the first), and the best value looked at (the best of all
    when none is)."""
    k = 7 - len(mine)
    if k <= 0:
        v = evaluate(mine)
        return v >= floor, v
    best = -1
    base = list(mine)
    for combo in combinations(pool, k):
        v = evaluate(base + list(combo))
        if v > best:
            best = v
            if v >= floor:
                return True, v
    return False, best


def drawing_dead(
    mine: Sequence[Card], rivals_up: Sequence[Sequence[Card]], seen: Sequence[Card]
) -> tuple[int, int] | None:
    """``(rival index, best value)`` when ``mine`` has no live outs: the rival whose up
    cards alone (``floor_value``) beat every hand ``mine`` can end with, its cards to come
    drawn from the cards not in ``seen`` (everything the viewer saw, its own cards too);
    None when some card still to come could make ``mine`` win or tie."""
    floors = [(floor_value(up), i) for i, up in enumerate(rivals_up) if up]
    if not floors:
        return None
    floor, who = max(floors)
    taken = set(seen)
    reached, best = best_reachable(mine, [c for c in FULL_DECK if c not in taken], floor)
    return None if reached else (who, best)


# ------------------------------------------------------------------ reading a record


def _pct(x: float) -> str:
    v = 100 * x
    return f"{v:.1f}%" if 0 < v < 9.95 else f"{v:.0f}%"


_Moment = tuple[int, SeatView]
"""The table after the hand's first so many events."""


def _walk(record: Mapping[str, Any], viewer: int | None) -> tuple[list[_Moment], list[_Moment]]:
    """The moments of a hand: each street's deal done and each ``act`` of the viewer's
    (the table just before it)."""
    replay = Replay(record)
    events = replay.events
    deals: list[_Moment] = []
    acts: list[_Moment] = []
    for i, ev in enumerate(events):
        if ev.get("ev") == "act" and ev.get("seat") == viewer:
            acts.append((i, replay.view()))
        replay.step()
        nxt = events[i + 1] if i + 1 < len(events) else None
        if ev.get("ev") == "deal" and (nxt is None or nxt.get("ev") not in ("ante", "deal")):
            deals.append((i + 1, replay.view()))
    return deals, acts


def _known(seat: TableSeat) -> list[Card] | None:
    """All of a seat's cards, or None when a down card is not in the record."""
    return None if seat.hole is None else parse_many([*seat.hole, *seat.up])


def _up(seat: TableSeat) -> list[Card]:
    return parse_many(seat.up)


# ------------------------------------------------------------------ the work


class _Sampler:
    """One equity computation done in bounded steps: counted at once when small, else
    sampled a batch per step until every half-width is at most ``TARGET``."""

    def __init__(
        self,
        hands: Sequence[Sequence[Card]],
        dead: Sequence[Card],
        rng: random.Random,
        *,
        mine_only: bool,
    ) -> None:
        self.hands = [list(h) for h in hands]
        self.dead = list(dead)
        self.rng = rng
        self.mine_only = mine_only
        self.result: list[Estimate] | None = None
        self._parts: list[list[Estimate]] = []
        seats = len(self.hands) + (2 if mine_only else 0)  # the own hand is drawn 3 ways
        self.batch = max(100, WORK // seats)

    def step(self) -> bool:
        if not self._parts and deal_count(self.hands, self.dead) <= EXACT_BUDGET:
            self.result = self._equities(budget=EXACT_BUDGET)
            return True
        self._parts.append(self._equities(target=0.0, budget=0, max_samples=self.batch))
        merged = self._merged()
        if max(e.half_width for e in merged) <= TARGET or merged[0].deals >= MAX_SAMPLES:
            self.result = merged
            return True
        return False

    def _equities(self, **limits: Any) -> list[Estimate]:
        hands, dead, rng = self.hands, self.dead, self.rng
        if self.mine_only:
            return [equity(hands[0], hands[1:], dead, rng, **limits)]
        return all_equities(hands, dead, rng, **limits)

    def _merged(self) -> list[Estimate]:
        """The batches as one estimate per seat: the mean over every sample, and the
        standard error of that mean from the batches' own."""
        out = []
        for seat in range(len(self._parts[0])):
            ests = [p[seat] for p in self._parts]
            n = sum(e.deals for e in ests)
            mean = sum(e.share * e.deals for e in ests) / n
            se = math.sqrt(sum((e.deals * e.stderr) ** 2 for e in ests)) / n
            out.append(Estimate(mean, se, n, False))
        return out


_Work = Callable[[], bool]
"""A piece of the analysis: each call does one bounded step of it; True once it is done."""


class MatchAnalysis:
    """The analysis of a match's hands (``records``) for ``viewer`` (None: no decisions).

    ``step()`` does one bounded piece of work and says whether all is done; ``run()``
    does it all (``chances=False``: the decisions only).  The viewer's decisions are
    judged first (the recap's summary needs only them), then the chances, the hand
    given to ``prefer`` first.  Meanwhile ``hands`` fills in: each ``HandAnalysis``
    gets its streets and marks as they are done."""

    def __init__(
        self,
        records: Sequence[Mapping[str, Any]],
        viewer: int | None,
        rng: random.Random,
        *,
        chances: bool = True,
    ) -> None:
        self.records = list(records)
        self.viewer = viewer
        self._seed = rng.getrandbits(64)
        self.hands: list[HandAnalysis] = []
        self._decisions: list[_Work] = []
        self._streets: list[list[_Work]] = []
        for k, rec in enumerate(self.records):
            deals, acts = _walk(rec, viewer)
            number = int(rec.get("hand", k + 1))
            full = all(
                st.hole is not None for _, m in deals for st in m.seats.values() if not st.folded
            )
            self.hands.append(HandAnalysis(number, full))
            self._streets.append(self._street_work(k, deals, full) if chances else [])
            self._decisions += self._decision_work(k, rec, acts)
        self.total = len(self._decisions) + sum(len(t) for t in self._streets)
        self._done = 0
        self._prefer = 0

    # ---- queries

    @property
    def done(self) -> bool:
        return self._done >= self.total

    @property
    def decisions_done(self) -> bool:
        """Every decision judged: the marks (and ``worth_a_look``) are final."""
        return not self._decisions

    @property
    def progress(self) -> float:
        return self._done / self.total if self.total else 1.0

    @property
    def full(self) -> bool:
        """Every hand's chances are true ones (the books were open)."""
        return all(h.full for h in self.hands)

    def marks(self) -> list[Mark]:
        """Every marked decision, in the order played."""
        return [m for h in self.hands for m in h.marks]

    def worth_a_look(self, n: int = WORTH_A_LOOK) -> list[Mark]:
        """The ``n`` marked decisions that cost most, most first (the earlier on a tie)."""
        ranked = sorted(self.marks(), key=lambda m: (-m.cost, m.hand, m.event))
        return ranked[:n]

    # ---- the work

    def prefer(self, hand_i: int) -> None:
        """Count this hand's chances next (the one on screen)."""
        self._prefer = hand_i

    def run(self) -> MatchAnalysis:
        while not self.step():
            pass
        return self

    def step(self) -> bool:
        """One bounded piece of work; True once everything is done.  A piece that a
        damaged hand cannot give (a card dealt twice: ``ValueError``) is left out."""
        order = [self._prefer, *range(len(self._streets))]
        streets = (self._streets[k] for k in order if 0 <= k < len(self._streets))
        queue = self._decisions or next((q for q in streets if q), [])
        if not queue:
            return True
        try:
            finished = queue[0]()
        except ValueError:
            finished = True
        if finished:
            queue.pop(0)
            self._done += 1
        return self.done

    def _rng(self, *where: object) -> random.Random:
        return random.Random(":".join(map(str, (self._seed, *where))))

    def _street_work(self, k: int, deals: list[_Moment], full: bool) -> list[_Work]:
        out: list[_Work] = []
        v = self.viewer
        for index, m in deals:
            live = [s for s, st in m.seats.items() if not st.folded]
            rng = self._rng(k, "street", m.street)
            if full:
                hands = [_known(m.seats[s]) or [] for s in live]
                dead = [c for st in m.seats.values() if st.folded for c in _known(st) or _up(st)]
                sampler = _Sampler(hands, dead, rng, mine_only=False)
                out.append(partial(self._count_street, k, index, m, live, sampler))
            elif v is not None and v in live and (mine := _known(m.seats[v])) is not None:
                rivals = [_up(m.seats[s]) for s in live if s != v]
                dead = [c for st in m.seats.values() if st.folded for c in _up(st)]
                sampler = _Sampler([mine, *rivals], dead, rng, mine_only=True)
                out.append(partial(self._count_street, k, index, m, [v], sampler))
        return out

    def _count_street(
        self, k: int, index: int, m: SeatView, seats: list[int], sampler: _Sampler
    ) -> bool:
        if not sampler.step():
            return False
        assert sampler.result is not None
        chances = tuple(
            Chance(seat, e.share, e.half_width, e.exact)
            for seat, e in zip(seats, sampler.result, strict=False)
        )
        self.hands[k].streets.append(StreetChances(m.street, index, chances))
        self.hands[k].streets.sort(key=lambda s: s.upto)
        return True

    def _decision_work(self, k: int, rec: Mapping[str, Any], acts: list[_Moment]) -> list[_Work]:
        out: list[_Work] = []
        for index, m in acts:  # the viewer's
            ev = rec["events"][index]
            mine = _known(m.seats[ev["seat"]])
            if ev["action"] not in _DONE or mine is None:
                continue  # a check or bring-in; or the record lacks the viewer's down cards
            live = [s for s, st in m.seats.items() if not st.folded and s != ev["seat"]]
            rivals = [_up(m.seats[s]) for s in live]
            dead = [c for st in m.seats.values() if st.folded for c in _up(st)]
            if ev["action"] == "fold":
                rng = self._rng(k, "fold", index)
                sampler = _Sampler([mine, *rivals], dead, rng, mine_only=True)
                out.append(partial(self._judge_fold, k, index, m, sampler))
            else:
                out.append(partial(self._judge_outs, k, index, m, live, ev))
        return out

    def _judge_fold(self, k: int, index: int, m: SeatView, sampler: _Sampler) -> bool:
        """A step of the fold's chance; once counted, the fold is marked if it cost."""
        if not sampler.step():
            return False
        assert sampler.result is not None and self.viewer is not None
        me = m.seats[self.viewer]
        hand = self.hands[k]
        chance = sampler.result[0].share
        call = max(0, min(m.high - me.bet, me.stack))
        need = call / (m.pot + call) if m.pot + call else 0.0
        if chance >= need + FOLD_MARGIN:
            cost = chance * (m.pot + call) - call
            text = (
                f"You folded with about {_pct(chance)} facing {call} to win {m.pot}: "
                f"you needed {_pct(need)}."
            )
            hand.marks.append(
                Mark(hand.hand, index, m.street, self.viewer, "fold", "fold", text, cost,
                     cost / self._big_bet(k), chance=chance, need=need,
                     short=f"folded with {_pct(chance)}, needing {_pct(need)}",
                     chips=call, pot=m.pot)
            )  # fmt: skip
        return True

    def _judge_outs(
        self, k: int, index: int, m: SeatView, live: list[int], ev: Mapping[str, Any]
    ) -> bool:
        """A call or wager is marked when the viewer was drawing dead."""
        assert self.viewer is not None
        mine = _known(m.seats[self.viewer]) or []
        rivals = [_up(m.seats[s]) for s in live]
        seen = [*mine, *(c for st in m.seats.values() if st.seat != self.viewer for c in _up(st))]
        dead = drawing_dead(mine, rivals, seen)
        if dead is None:
            return True
        who, best = dead
        shows = showing_name(rivals[who])
        name = seat_names(self.records[k])[live[who]]
        put = int(ev["put"])
        action = str(ev["action"])
        your_best = hand_name(best)
        made = f"your seven cards make only {your_best}." if len(mine) >= 7 else ""
        if action == "call":
            kind, short = "dead_call", f"called {put} with no live outs"
            text = f"You called {put} with no live outs: {name} shows {shows}, and "
            text += made or f"the best you could still make is {your_best}."
        else:
            kind, short = "dead_bet", f"{_DONE[action]} {put}, drawing dead"
            text = f"You {_DONE[action]} {put} into {name}'s {shows} showing: "
            text += made or f"no card to come could make your hand beat it (at best {your_best})."
        hand = self.hands[k]
        hand.marks.append(
            Mark(hand.hand, index, m.street, self.viewer, kind, action, text, float(put),
                 put / self._big_bet(k), short=short, chips=put, rival=name, shows=shows,
                 best=your_best, made=len(mine) >= 7)
        )  # fmt: skip
        return True

    def _big_bet(self, k: int) -> int:
        return int(self.records[k].get("stakes", {}).get("big_bet", 20)) or 20


def analyse_hand(
    record: Mapping[str, Any], viewer: int | None, rng: random.Random, *, chances: bool = True
) -> HandAnalysis:
    """One hand's whole analysis at once (``MatchAnalysis`` of that hand, run)."""
    return MatchAnalysis([record], viewer, rng, chances=chances).run().hands[0]
