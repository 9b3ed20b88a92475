"""What a seat learns of its rivals over a night, and the ranges it reads from it.

Invariants:

- A rival is known by its name (the table keeps names unique), not by the seat it
  sits in: ``Memory.meet`` is told who sits where at each match start, and a seat
  number is turned into a name only inside the memory (``rival``).  A person who
  moves to another seat keeps its model; a seat never named is known by its number.

- ``Memory`` is filled only from the seat's own readings: ``watch`` at each of
  its turns (every rival action it can see, counted once per hand, street,
  rival and street total) and ``learn`` with its view of a hand's end (who
  entered, who folded to its wager, what was shown down).  Cards a rival never
  showed are never read (R-S1), so two hands alike in all the seat could see
  leave the same memory.
- Every rate of ``RivalModel`` starts at a prior and moves toward what was
  seen; none is ever 0 or 1 from a few hands.
- A ``Range`` weight is a product of factors in (0, 1] for the kinds of hidden
  cards a rival who played as it did is less likely to hold; it never rules a
  holding out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from common.cards import Card
from common.hands import evaluate
from server.brain.reading import WAGERS, Reading, SeatSeen
from server.brain.starting import RANK_OF, SUIT_OF, is_trash

__all__ = [
    "Memory",
    "Range",
    "RivalModel",
    "learn",
    "ranges_for",
    "river_bucket",
    "settle",
    "wagered",
    "watch",
]

# Seventh-street hand kinds in five groups: high card, pair, two pair, trips, better.
_RIVER_BASE = (0.174, 0.438, 0.235, 0.048, 0.105)
"""How often a random seven-card hand is of each group."""
_RIVER_PRIOR = {
    "wager": (0.04, 0.26, 0.36, 0.12, 0.22),
    "check": (0.25, 0.47, 0.19, 0.05, 0.04),
    "call": (0.05, 0.45, 0.30, 0.10, 0.10),
}
"""What a sound player shows after each seventh-street action, before we know better
(its wagers: a bluff now and then, a pair at times)."""
_RIVER_WAGER_HONEST = (0.01, 0.05, 0.44, 0.16, 0.34)
"""What a rival that wagers seldom shows for a seventh-street wager, before we know
better: the primers' value bet, two pair or better nearly always."""
_HONEST_AGGRESSION = (0.45, 0.65)
"""A rival's ``aggression`` from which its seventh-street wager is read less and less
as honest, and at which it is read as the sound player's."""
_NOTHING_BASE = (0.63, 0.37, 0.15)
"""How often a random hand of four, five and six cards is nothing (no pair, no
four-card draw)."""


def river_bucket(action: str | None) -> str | None:
    """The seventh-street action group (wager, check, call) of ``action``, if any."""
    if action in WAGERS:
        return "wager"
    if action in ("check", "call"):
        return action
    return None


@dataclass(slots=True)
class RivalModel:
    """What one seat has seen of one rival tonight."""

    dealt: int = 0
    entered: int = 0
    shown: int = 0
    shown_trash: int = 0
    shown_weak: int = 0
    wagers: int = 0
    calls: int = 0
    faced: int = 0
    folded_to_us: int = 0
    river: dict[str, list[int]] = field(default_factory=dict)
    """Hands it showed, by its last seventh-street action (wager, check, call) and kind."""
    completed: int = 0
    """Third-street completions seen (at most one a hand)."""
    answered: int = 0
    """Wagers of ours it had to answer from fourth street on (kept by players that read
    rivals)."""
    gave_up: int = 0
    """How many of those it folded to."""
    answered_third: int = 0
    """The same on third street, where a sound player folds most hands to a completion
    and a station none: the two rates are kept apart."""
    gave_up_third: int = 0
    stood: list[int] = field(default_factory=lambda: [0] * 6)
    """Fourth to sixth street: hands it showed after it answered a wager of ours on that
    street without folding, and how many of them were nothing then (no pair, no
    four-card draw), as [shown 4, nothing 4, shown 5, nothing 5, shown 6, nothing 6]
    (kept by players that read rivals)."""

    def river_weights(self, bucket: str) -> tuple[float, ...]:
        """How much likelier each kind of hand (``Category`` 0..8) is than a random one
        after a seventh-street ``bucket``: what it showed, smoothed toward the priors."""
        prior: tuple[float, ...] = _RIVER_PRIOR[bucket]
        if bucket == "wager":
            lo, hi = _HONEST_AGGRESSION
            t = min(1.0, max(0.0, (self.aggression - lo) / (hi - lo)))
            prior = tuple(h + t * (p - h) for h, p in zip(_RIVER_WAGER_HONEST, prior, strict=True))
        counts = self.river.get(bucket, [0] * 5)
        n = sum(counts)
        a = 4.0
        groups = [(counts[g] + a * prior[g]) / (n + a) / _RIVER_BASE[g] for g in range(5)]
        return tuple(groups[min(c, 4)] for c in range(9))

    @property
    def loose(self) -> float:
        """Share of hands it plays past third street (prior: a tight player's 0.3)."""
        return (self.entered + 0.3 * 6) / (self.dealt + 6)

    @property
    def trash(self) -> float:
        """How likely an entered hand is trash (prior 0.15)."""
        base = (self.shown_trash + 0.15 * 4) / (self.shown + 4)
        return min(1.0, max(base, (self.loose - 0.3) * 1.6))

    @property
    def aggression(self) -> float:
        """Wagers per action seen before our turn (checks and calls the others; prior 0.35)."""
        return (self.wagers + 0.35 * 8) / (self.wagers + self.calls + 8)

    @property
    def completes(self) -> float:
        """Share of its hands it completes on third street (prior 0.15)."""
        return (self.completed + 0.15 * 8) / (self.dealt + 8)

    @property
    def station(self) -> float:
        """How often it shows down a weak hand (one pair or less) (prior 0.25)."""
        return (self.shown_weak + 0.25 * 4) / (self.shown + 4)

    @property
    def folds(self) -> float:
        """How often it folds when we wager and it must answer (prior 0.3)."""
        return (self.folded_to_us + 0.3 * 5) / (self.faced + 5)

    def stands_on_nothing(self, street: int) -> float:
        """How much likelier than a random hand a hand that was nothing on ``street``
        (4..6) is once it stood a wager of ours there (near 1: it calls with anything)."""
        base = _NOTHING_BASE[street - 4]
        shown, nothing = self.stood[2 * (street - 4)], self.stood[2 * (street - 4) + 1]
        w0 = min(1.0, max(0.15, 1.0 - self.gives_up / base))
        prior = base * w0 / (base * w0 + 1.0 - base)
        f = (nothing + 3.0 * prior) / (shown + 3.0)
        return min(1.0, f * (1.0 - base) / (base * (1.0 - f)))

    @property
    def gives_up(self) -> float:
        """How often it folds to a wager of ours from fourth street on (prior 0.3)."""
        return (self.gave_up + 0.3 * 4) / (self.answered + 4)

    @property
    def gives_up_third(self) -> float:
        """How often it folds to a wager of ours on third street (prior 0.3)."""
        return (self.gave_up_third + 0.3 * 4) / (self.answered_third + 4)


@dataclass(slots=True)
class Memory:
    """One seat's memory for one night: a model per rival, by name."""

    rivals: dict[str | int, RivalModel] = field(default_factory=dict)
    """Name (or, for a seat never named, seat number) -> what was seen of it."""
    names: dict[int, str] = field(default_factory=dict)
    """Seat -> the name sitting there this match (``meet``)."""
    hands: int = 0
    seen: set[tuple[int, int, int, int]] = field(default_factory=set)
    """(hand, street, rival, its street total) of each rival action already counted."""
    wagered_on: dict[int, int] = field(default_factory=dict)
    """Street -> our own wagers this hand (kept by players that read their rivals)."""
    pending: list[int] = field(default_factory=list)
    """Seats still in when we last wagered this hand, each to answer it (``settle``)."""
    pending_street: int = 0
    """The street of that wager."""
    stood: dict[int, int] = field(default_factory=dict)
    """Seat -> the last street (4..6) this hand on which it answered a wager of ours
    without folding (kept by players that read rivals; ``ranges_for``)."""

    def meet(self, names: Mapping[int, str]) -> None:
        """Who sits where from now on (seat -> name): each rival's model follows its name."""
        self.names = dict(names)

    def rival(self, seat: int) -> RivalModel:
        """The model of whoever sits in ``seat`` (an empty one the first time)."""
        key: str | int = self.names.get(seat, seat)
        m = self.rivals.get(key)
        if m is None:
            m = self.rivals[key] = RivalModel()
        return m


def watch(mem: Memory, r: Reading) -> None:
    """Count each rival action this seat sees at its turn, once per hand and street."""
    for e in r.seats:
        s = e.seat
        act = e.last_action
        if s == r.you or act is None or act in ("bring_in", "fold"):
            continue
        key = (mem.hands, r.street, s, e.bet)
        if key in mem.seen:
            continue
        mem.seen.add(key)
        m = mem.rival(s)
        if act in WAGERS:
            m.wagers += 1
            if r.street == 3 and act == "complete":
                m.completed += 1
        else:  # a check or a call: it could have wagered and did not
            m.calls += 1


def wagered(mem: Memory, r: Reading) -> None:
    """We wager now: every live rival must answer it (counted by ``settle``)."""
    mem.pending = [e.seat for e in r.seats if e.seat != r.you and not e.folded]
    mem.pending_street = r.street


def settle(mem: Memory, r: Reading) -> None:
    """At our next turn or the hand's end, the rivals that had to answer our last wager
    have: count who folded to it."""
    for s in mem.pending:
        e = next((e for e in r.seats if e.seat == s), None)
        if e is None:
            continue
        m = mem.rival(s)
        third = mem.pending_street == 3
        m.answered_third += third
        m.answered += not third
        if e.folded:
            m.gave_up_third += third
            m.gave_up += not third
        elif 4 <= mem.pending_street <= 6:
            mem.stood[s] = mem.pending_street
    mem.pending = []


def learn(mem: Memory, r: Reading) -> None:
    """The seat's reading of a finished hand: who entered, folded and showed what."""
    we_wagered_last = mem.wagered_on.get(r.street, 0) > 0
    for e in r.seats:
        s = e.seat
        if s == r.you:
            continue
        m = mem.rival(s)
        m.dealt += 1
        up = e.up
        if len(up) >= 2 or (not e.folded and s != r.bring_in):
            m.entered += 1
        if we_wagered_last and len(up) >= 2:
            m.faced += 1
            if e.folded and e.last_action == "fold":
                m.folded_to_us += 1
        cards = e.shown
        if cards is not None:
            m.shown += 1
            if len(cards) >= 3 and is_trash(cards[:3]):
                m.shown_trash += 1
            if len(cards) >= 5 and evaluate(cards) >> 20 <= 1:
                m.shown_weak += 1
            bucket = river_bucket(e.last_action)
            if len(cards) == 7 and bucket is not None:
                counts = m.river.setdefault(bucket, [0] * 5)
                counts[min(evaluate(cards) >> 20, 4)] += 1
            street = mem.stood.get(s)
            if street is not None and len(cards) >= street:
                m.stood[2 * (street - 4)] += 1
                if not _strong_now(cards[:street]):  # deal order: down, down, up...
                    m.stood[2 * (street - 4) + 1] += 1
    mem.hands += 1
    mem.wagered_on.clear()
    mem.stood.clear()
    if len(mem.seen) > 4096:
        mem.seen.clear()


class Range:
    """How likely a rival's hidden cards are, given how it played: a weight per deal."""

    __slots__ = (
        "up",
        "n_down",
        "entered",
        "aggressive",
        "w_trash",
        "w_bluff",
        "w_pair",
        "river",
        "stood",
        "w_stood",
        "holes",
    )

    def __init__(
        self,
        up: list[Card],
        n_down: int,
        entered: bool,
        aggressive: bool,
        w_trash: float,
        w_bluff: float,
        w_pair: float = 1.0,
    ) -> None:
        self.up = up
        self.n_down = n_down
        self.entered = entered
        """It came in past third street of its own will (trash weighs ``w_trash``)."""
        self.aggressive = aggressive
        """It wagered on this street: a hand that is nothing yet weighs ``w_bluff``."""
        self.w_trash = w_trash
        self.w_bluff = w_bluff
        self.w_pair = w_pair
        """Fifth street on, it wagered: a hand of one pair at most weighs this too."""
        self.river: tuple[float, ...] | None = None
        """Seventh street, once the rival has acted: the weight of each kind of hand."""
        self.stood = 0
        """The last street (4..6) it stood a wager of ours: nothing then weighs ``w_stood``."""
        self.w_stood = 1.0
        self.holes: dict[int, float] = {}
        """``hole_weight`` by the sum of the two cards."""

    @property
    def weighs_holes(self) -> bool:
        """Its first two down cards can weigh other than 1 (``hole_weight``)."""
        return self.entered and bool(self.up) or self.w_stood < 1.0

    def hole_weight(self, first: Card, second: Card) -> float:
        """The weight of ``first`` and ``second`` as its first two down cards."""
        key = first + second
        w = self.holes.get(key)
        if w is None:
            w = 1.0
            if self.entered and self.up and is_trash((first, second, self.up[0])):
                w *= self.w_trash
            if self.w_stood < 1.0 and not _strong_now((first, second, *self.up[: self.stood - 2])):
                w *= self.w_stood
            self.holes[key] = w
        return w

    def weight(self, hidden: Sequence[Card]) -> float:
        """``hidden`` are the rival's unknown cards: its current down cards first."""
        w = self.hole_weight(hidden[0], hidden[1])
        if self.river is not None and len(self.up) == 4:
            w *= self.river[evaluate(self.up + list(hidden)) >> 20]
        elif self.aggressive:
            now = list(hidden[: self.n_down]) + self.up
            if not _strong_now(now):
                w *= self.w_bluff
            elif self.w_pair < 1.0 and len(now) >= 5 and not _two_pair_or_better(now):
                w *= self.w_pair
        return w


def ranges_for(
    live: Sequence[SeatSeen],
    models: Sequence[RivalModel],
    rivals_up: Sequence[list[Card]],
    street: int,
    bring_in: int | None,
    pair_base: float = 1.0,
    stood: Mapping[int, int] | None = None,
) -> list[Range]:
    """The range of each live rival (``live``, its model and its up cards, in order).
    ``pair_base`` under 1 weighs one pair in a wager from fifth street on (``Range``)
    by that much for a sound rival, less and less for more aggressive ones.  ``stood``
    (seat -> street) weighs what a rival held when it stood a wager of ours."""
    out = []
    for e, m, up in zip(live, models, rivals_up, strict=True):
        entered = e.seat != bring_in or street == 3 and e.last_action in WAGERS
        aggressive = e.last_action in WAGERS
        w_trash = min(1.0, 0.15 + m.trash)
        w_bluff = min(1.0, 0.12 + 0.9 * max(0.0, m.aggression - 0.2))
        w_pair = 1.0
        if pair_base < 1.0 and aggressive and street >= 5:
            w_pair = min(1.0, pair_base + (1.0 - pair_base) * max(0.0, m.aggression - 0.35) / 0.3)
        r = Range(up, e.down, entered and street >= 4, aggressive, w_trash, w_bluff, w_pair)
        bucket = river_bucket(e.last_action) if street == 7 else None
        if bucket is not None:
            r.river = m.river_weights(bucket)
        street_stood = stood.get(e.seat, 0) if stood else 0
        if street_stood:
            r.stood = street_stood
            r.w_stood = m.stands_on_nothing(street_stood)
        out.append(r)
    return out


def _two_pair_or_better(cards: Sequence[Card]) -> bool:
    """Two pair, trips or better made (five cards or more)."""
    counts: dict[int, int] = {}
    for c in cards:
        r = RANK_OF[c]
        counts[r] = counts.get(r, 0) + 1
    if sum(1 for n in counts.values() if n >= 2) >= 2 or max(counts.values()) >= 3:
        return True
    suits = [0, 0, 0, 0]
    for c in cards:
        suits[SUIT_OF[c]] += 1
    if max(suits) >= 5:
        return True
    mask = 0
    for r in counts:
        mask |= 1 << r
    mask = (mask << 1) | (mask >> 12)
    return any((mask >> lo) & 31 == 31 for lo in range(10))


def _strong_now(cards: Sequence[Card]) -> bool:
    """A pair or better, or four to a flush or straight (with cards to come)."""
    ranks = [RANK_OF[c] for c in cards]
    if len(set(ranks)) < len(ranks):
        return True
    if len(cards) <= 3:
        return len({SUIT_OF[c] for c in cards}) == 1 or max(ranks) >= 10
    suits = [0, 0, 0, 0]
    for c in cards:
        suits[SUIT_OF[c]] += 1
    if max(suits) >= 4 and len(cards) < 7:
        return True
    mask = 0
    for r in ranks:
        mask |= 1 << r
    mask = (mask << 1) | (mask >> 12)
    return len(cards) < 7 and any(bin((mask >> lo) & 31).count("1") >= 4 for lo in range(10))
