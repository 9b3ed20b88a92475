"""The analysis after the match: each street's chances, and the viewer's decisions worth a look.

Like a chess engine's analysis after the game, read from a hand's ``stud-hh/1``
record alone (the open books, a history file, or the hand as one seat saw it,
``common.replay.seen_record``):

- **Chances.**  At the deal of each street (third to seventh, the river), each
  seat still in gets its chance of winning the pot (its equity, R-S1..R-S3:
  ties split).  When the record holds every live seat's down cards
  (``HandAnalysis.full``) these are the *true* chances: every card dealt known,
  the folded seats' cards dead, the cards still to come counted when there are
  few deals (``EXACT_BUDGET``) and sampled to about one point (``TARGET``, 95%)
  elsewhere.  When it does not (closed books), only the viewer's own chance is
  given, from its seat's knowledge: its cards against the rivals' up cards,
  folded seats' up cards dead, every other card unknown.
- **Decisions.**  Each of the viewer's folds, calls, bets, completions and
  raises is judged on what the viewer could see at that moment: its own cards,
  every up card dealt so far, the folded seats' up cards dead; never a rival's
  down card, even when the record has it.  Three kinds are marked (``Mark``):

  * ``fold``: a fold while the pot paid more than the viewer's chance needed:
    its chance against the rivals' boards is at least ``need + FOLD_MARGIN``,
    ``need = call / (pot + call)``.  Cost: what calling was worth,
    ``chance * (pot + call) - call`` chips.
  * ``dead_call`` and ``dead_bet``: a call, or a bet, completion or raise,
    with no live outs (``drawing_dead``): some rival still in shows up cards
    whose hand *alone* (``floor_value``: their pattern with twos for the cards
    it lacks) beats every hand the viewer can end with, every completion from
    the cards it has not seen counted, so a live hand is never called dead (a
    hand that could only tie with impossible kickers is called live).  Cost:
    the chips put in.

  ``MatchAnalysis.worth_a_look()`` is the marks that cost most, most first.

Invariants:

- Pure: no I/O, no clock, no global random state.  Every random number comes
  from ``random.Random`` instances seeded from the ``rng`` given (one draw at
  the start) and the computation's place (hand, street, event), so the same
  seed gives the same result however the work is split into ``step`` calls.
- The decisions read only what the viewer saw before the event judged: a
  record cut to the viewer's seat (``seen_record``) and the full record give
  the same marks and figures; in a closed-books record no figure depends on a
  card the viewer did not see (a property test changes them).
- ``MatchAnalysis.step`` does one bounded piece of work (one exact count of at
  most ``EXACT_BUDGET`` deals, one batch of samples, or one exact outs check),
  so a window can run it between frames.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from common.cards import Card, parse
from common.equity import FULL_DECK, Estimate, all_equities, deal_count, equity
from common.hands import evaluate, hand_name, showing_groups, showing_name

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

    def of(self, seat: int) -> Chance | None:
        return next((c for c in self.chances if c.seat == seat), None)


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


def floor_value(up: Sequence[Card]) -> int:
    """The least a seat showing ``up`` (one to four up cards) can end with, as an
    ``evaluate`` value: its up cards' pattern (quads, trips, two pair, a pair or high
    cards) with its other up cards as kickers and twos in the slots left.  Any five of
    its final cards that hold the up cards are worth at least this (R-S2)."""
    cat, ranks = showing_groups(up)  # raises ValueError unless one to four cards
    value = int(cat)
    for r in [*ranks, 0, 0, 0, 0, 0][:5]:
        value = value << 4 | r
    return value


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


@dataclass(slots=True)
class _SeatState:
    seat: int
    name: str
    stack: int
    down: list[Card | None] = field(default_factory=list)
    up: list[Card] = field(default_factory=list)
    folded: bool = False
    street_to: int = 0


@dataclass(frozen=True, slots=True)
class _Moment:
    """What the table was before one event: the seats, the pot, the highest total."""

    index: int
    street: int
    pot: int
    high: int
    seats: dict[int, _SeatState]


def _walk(record: Mapping[str, Any]) -> tuple[list[_Moment], list[_Moment]]:
    """The moments of a hand: each street's deal done (its ``index`` = the events up to
    there) and each ``act`` (the table just before it)."""
    events = record.get("events")
    if not isinstance(events, list):
        raise ValueError("a stud-hh/1 hand needs an 'events' list")
    seats = {
        int(s["seat"]): _SeatState(int(s["seat"]), str(s.get("name") or f"Seat {s['seat'] + 1}"),
                                   int(s["stack"]))
        for s in record["seats"]
    }  # fmt: skip
    deals: list[_Moment] = []
    acts: list[_Moment] = []
    street, high, pot = 0, 0, 0

    def snapshot(index: int) -> _Moment:
        copy = {s: replace(st, down=list(st.down), up=list(st.up)) for s, st in seats.items()}
        return _Moment(index, street, pot, high, copy)

    for i, ev in enumerate(events):
        kind = ev.get("ev")
        st = seats.get(ev.get("seat"))
        if st is None:
            raise ValueError(f"event for a seat not dealt in: {ev!r}")
        if kind == "ante":
            st.stack -= ev["amount"]
            pot += ev["amount"]
        elif kind == "deal":
            if ev["street"] != street:
                street, high = ev["street"], 0
                for s in seats.values():
                    s.street_to = 0
            card = ev.get("card")
            if ev.get("up"):
                st.up.append(parse(card))
            else:
                st.down.append(parse(card) if isinstance(card, str) else None)
            nxt = events[i + 1] if i + 1 < len(events) else None
            if nxt is None or nxt.get("ev") not in ("ante", "deal"):
                deals.append(snapshot(i + 1))
        elif kind == "act":
            acts.append(snapshot(i))
            if ev["action"] == "fold":
                st.folded = True
            else:
                st.stack -= ev["put"]
                pot += ev["put"]
                st.street_to = ev["to"]
                if ev["action"] in ("bring_in", "complete", "bet", "raise"):
                    high = max(high, ev["to"])
        elif kind == "return":
            st.stack += ev["amount"]
            pot -= ev["amount"]
    return deals, acts


def _known(st: _SeatState) -> list[Card] | None:
    """All of a seat's cards, or None when a down card is not in the record."""
    if any(c is None for c in st.down):
        return None
    return [c for c in st.down if c is not None] + st.up


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
        hands, dead, rng = self.hands, self.dead, self.rng
        if not self._parts and deal_count(hands, dead) <= EXACT_BUDGET:
            if self.mine_only:
                self.result = [equity(hands[0], hands[1:], dead, rng, budget=EXACT_BUDGET)]
            else:
                self.result = all_equities(hands, dead, rng, budget=EXACT_BUDGET)
            return True
        if self.mine_only:
            part = [equity(hands[0], hands[1:], dead, rng, target=0.0, budget=0,
                           max_samples=self.batch)]  # fmt: skip
        else:
            part = all_equities(hands, dead, rng, target=0.0, budget=0, max_samples=self.batch)
        self._parts.append(part)
        merged = self._merged()
        if max(e.half_width for e in merged) <= TARGET or merged[0].deals >= MAX_SAMPLES:
            self.result = merged
            return True
        return False

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


@dataclass(slots=True)
class _Task:
    """A piece of the analysis: what it is for and the sampler doing it (if any)."""

    hand_i: int
    kind: str  # "street" or "fold" or "outs"
    moment: _Moment
    seats: list[int]
    sampler: _Sampler | None = None
    event: dict[str, Any] | None = None


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
        self._decisions: list[_Task] = []
        self._streets: list[list[_Task]] = []
        for k, rec in enumerate(self.records):
            deals, acts = _walk(rec)
            number = int(rec.get("hand", k + 1))
            full = all(
                _known(m.seats[s]) is not None for m in deals for s in m.seats
                if not m.seats[s].folded
            )  # fmt: skip
            self.hands.append(HandAnalysis(number, full))
            self._streets.append(self._street_tasks(k, deals, full) if chances else [])
            self._decisions += self._decision_tasks(k, rec, acts)
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
        if self._decisions:
            task = self._decisions[0]
            try:
                finished = self._decide(task)
            except ValueError:
                finished = True
            if finished:
                self._decisions.pop(0)
                self._done += 1
            return self.done
        order = [self._prefer, *range(len(self._streets))]
        for k in order:
            if 0 <= k < len(self._streets) and self._streets[k]:
                task = self._streets[k][0]
                assert task.sampler is not None
                try:
                    finished = task.sampler.step()
                except ValueError:
                    finished = True
                if finished:
                    self._streets[k].pop(0)
                    self._done += 1
                    if task.sampler.result is not None:
                        self._street_done(task)
                return self.done
        return True

    def _rng(self, *where: object) -> random.Random:
        return random.Random(":".join(map(str, (self._seed, *where))))

    def _street_tasks(self, k: int, deals: list[_Moment], full: bool) -> list[_Task]:
        out = []
        v = self.viewer
        for m in deals:
            live = [s for s, st in m.seats.items() if not st.folded]
            rng = self._rng(k, "street", m.street)
            if full:
                hands = [_known(m.seats[s]) or [] for s in live]
                dead = [c for st in m.seats.values() if st.folded for c in (_known(st) or st.up)]
                out.append(_Task(k, "street", m, live, _Sampler(hands, dead, rng, mine_only=False)))
            elif v is not None and v in live and (mine := _known(m.seats[v])) is not None:
                rivals = [m.seats[s].up for s in live if s != v]
                dead = [c for st in m.seats.values() if st.folded for c in st.up]
                sampler = _Sampler([mine, *rivals], dead, rng, mine_only=True)
                out.append(_Task(k, "street", m, [v], sampler))
        return out

    def _street_done(self, task: _Task) -> None:
        assert task.sampler is not None and task.sampler.result is not None
        chances = tuple(
            Chance(seat, e.share, e.half_width, e.exact)
            for seat, e in zip(task.seats, task.sampler.result, strict=False)
        )
        self.hands[task.hand_i].streets.append(
            StreetChances(task.moment.street, task.moment.index, chances)
        )
        self.hands[task.hand_i].streets.sort(key=lambda s: s.upto)

    def _decision_tasks(self, k: int, rec: Mapping[str, Any], acts: list[_Moment]) -> list[_Task]:
        v = self.viewer
        out: list[_Task] = []
        if v is None:
            return out
        events = rec["events"]
        for m in acts:
            ev = events[m.index]
            me = m.seats.get(v)
            if ev.get("seat") != v or me is None or ev["action"] not in _DONE:
                continue
            mine = _known(me)
            if mine is None:
                continue  # the record does not hold the viewer's own down cards
            live = [s for s, st in m.seats.items() if not st.folded and s != v]
            rivals = [m.seats[s].up for s in live]
            dead = [c for st in m.seats.values() if st.folded for c in st.up]
            if ev["action"] == "fold":
                sampler = _Sampler([mine, *rivals], dead, self._rng(k, "fold", m.index),
                                   mine_only=True)  # fmt: skip
                out.append(_Task(k, "fold", m, live, sampler, ev))
            else:
                out.append(_Task(k, "outs", m, live, None, ev))
        return out

    def _decide(self, task: _Task) -> bool:
        """Judge one decision (a step of its sampling, for a fold); True when judged."""
        m, ev = task.moment, task.event
        assert ev is not None and self.viewer is not None
        rec = self.records[task.hand_i]
        me = m.seats[self.viewer]
        mine = _known(me) or []
        big = int(rec.get("stakes", {}).get("big_bet", 20)) or 20
        hand = self.hands[task.hand_i]
        if task.kind == "fold":
            assert task.sampler is not None
            if not task.sampler.step():
                return False
            assert task.sampler.result is not None
            chance = task.sampler.result[0].share
            call = max(0, min(m.high - me.street_to, me.stack))
            need = call / (m.pot + call) if m.pot + call else 0.0
            if chance >= need + FOLD_MARGIN:
                cost = chance * (m.pot + call) - call
                text = (
                    f"You folded with about {_pct(chance)} facing {call} to win {m.pot}: "
                    f"you needed {_pct(need)}."
                )
                hand.marks.append(
                    Mark(hand.hand, m.index, m.street, self.viewer, "fold", "fold", text, cost,
                         cost / big, chance=chance, need=need,
                         short=f"folded with {_pct(chance)}, needing {_pct(need)}")
                )  # fmt: skip
            return True
        rivals = [m.seats[s].up for s in task.seats]
        seen = [*mine, *(c for st in m.seats.values() for c in st.up if st.seat != self.viewer)]
        dead = drawing_dead(mine, rivals, seen)
        if dead is not None:
            who, best = dead
            rival = m.seats[task.seats[who]]
            shows = showing_name(rival.up)
            put = int(ev["put"])
            action = str(ev["action"])
            your_best = hand_name(best)
            made = f"your seven cards make only {your_best}." if len(mine) >= 7 else ""
            if action == "call":
                kind, short = "dead_call", f"called {put} with no live outs"
                text = f"You called {put} with no live outs: {rival.name} shows {shows}, and "
                text += made or f"the best you could still make is {your_best}."
            else:
                kind, short = "dead_bet", f"{_DONE[action]} {put}, drawing dead"
                text = f"You {_DONE[action]} {put} into {rival.name}'s {shows} showing: "
                text += (
                    made or f"no card to come could make your hand beat it (at best {your_best})."
                )
            hand.marks.append(
                Mark(hand.hand, m.index, m.street, self.viewer, kind, action, text, float(put),
                     put / big, short=short)
            )  # fmt: skip
        return True


def analyse_hand(
    record: Mapping[str, Any], viewer: int | None, rng: random.Random, *, chances: bool = True
) -> HandAnalysis:
    """One hand's whole analysis at once (``MatchAnalysis`` of that hand, run)."""
    return MatchAnalysis([record], viewer, rng, chances=chances).run().hands[0]
