"""Computer-seat levels: what a person picks, and the brains that play them.

A *level* has an id (on the wire and the command line), a name and one line
saying how it plays.  ``brain(level)`` makes a fresh player for one seat: a
callable ``brain(view, rng) -> action name``, the same shape as
``server.bots.choose_action``, so anything that took a chooser takes a brain.

Invariants:

- A brain reads nothing but the views of its own seat (``choose`` at its turns,
  ``observe`` with the seat's view when a hand ends) and draws every random
  number from the ``rng`` it is given: the same view, the same memory and the
  same RNG state give the same choice.
- Its memory is an opponent model of what that seat saw: how often each rival
  enters, bets and shows down weak or trash hands.  ``reset()`` (a new match)
  forgets it all.
- It returns only one of ``view["legal"]``, never folds when checking is free
  (R-B5), and never folds a hand that no rival can beat.

The levels, weakest first:

- ``newcomer``: a gentle first opponent.  Plays too many hands, calls too
  much, bets only good hands and raises only great ones, never bluffs.
- ``regular``: the solid club player (the single style before levels, made
  more honest): sound starting hands and equity-based betting, but it bets
  only when well ahead, never bluffs or semi-bluffs, pays off bets too often,
  folds a lot on third street heads-up, forgets folded cards, and is blind to
  how its rivals play.
- ``shark``: the strongest.  Defends heads-up against steals, reads each
  rival's range from how they entered and bet, counts the seventh street
  exactly heads-up, value-bets thinly against callers, never bluffs them,
  and adapts to each rival over the match.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from common.cards import SUIT_BITS, Card, full_deck
from common.hands import _FLUSH_SUIT, _FLUSH_VALUE, _RANK_VALUE, evaluate
from common.levels import DEFAULT_LEVEL, LEVEL_IDS, level_info
from server.bots import SOLID, Style, _Decision, choose_action, starting_class

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "Brain",
    "Level",
    "RivalModel",
    "brain",
    "level_id",
]

_FULL = tuple(full_deck())
_RANK = {c: int(c.rank) for c in _FULL}
_SUIT = {c: int(c.suit) for c in _FULL}
_WAGERS = ("complete", "bet", "raise")
_SUIT_MASK = (1 << SUIT_BITS) - 1


@dataclass(frozen=True, slots=True)
class Level:
    """A level a person can pick."""

    id: str
    name: str
    description: str
    style: Style
    shark: bool = False
    """Use the strong decision (ranges, exact seventh street, opponent model)."""

    def public(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name, "description": self.description}


def _info(level: str) -> tuple[str, str, str]:
    info = level_info(level)
    assert info is not None
    return info.id, info.name, info.description


NEWCOMER = Level(
    *_info("newcomer"),
    replace(
        SOLID,
        name="newcomer",
        evaluations=900,
        min_samples=120,
        max_samples=300,
        bet_margin=0.24,
        raise_margin=0.36,
        call_factor=0.72,
        respect=0.0,
        semi_bluff=0.0,
        bluff=0.0,
        steal=0.0,
        max_raises=2,
        defend_class=1,
        loose_entry=True,
        dead_cards=False,
    ),
)
REGULAR = Level(
    *_info("regular"),
    replace(
        SOLID,
        name="regular",
        evaluations=1200,
        min_samples=150,
        max_samples=400,
        bet_margin=0.16,
        call_factor=0.95,
        respect=0.08,
        dead_cards=False,
        semi_bluff=0.0,
        bluff=0.0,
        steal=0.1,
    ),
)
SHARK = Level(
    *_info("shark"),
    replace(SOLID, name="shark", evaluations=1600, min_samples=200, max_samples=450),
    shark=True,
)

LEVELS: dict[str, Level] = {lv.id: lv for lv in (NEWCOMER, REGULAR, SHARK)}
assert tuple(LEVELS) == LEVEL_IDS


def level_id(text: str | None) -> str:
    """The id of a level given by id or name, case-insensitive; ``ValueError`` if none."""
    if text is None:
        return DEFAULT_LEVEL
    key = str(text).strip().lower()
    for lv in LEVELS.values():
        if key in (lv.id, lv.name.lower()):
            return lv.id
    raise ValueError(f"no computer level {text!r}: choose one of {', '.join(LEVELS)}")


def brain(level: str = DEFAULT_LEVEL) -> Brain:
    """A fresh player for one seat at ``level`` (an id or a name)."""
    return Brain(LEVELS[level_id(level)])


# ------------------------------------------------------------------ opponent model


# Seventh-street hand kinds in five groups: high card, pair, two pair, trips, better.
_RIVER_BASE = (0.174, 0.438, 0.235, 0.048, 0.105)
"""How often a random seven-card hand is of each group."""
_RIVER_PRIOR = {
    "wager": (0.04, 0.26, 0.36, 0.12, 0.22),
    "check": (0.25, 0.47, 0.19, 0.05, 0.04),
    "call": (0.05, 0.45, 0.30, 0.10, 0.10),
}
"""What a sound player shows after each seventh-street action, before we know better."""


def _river_bucket(action: str | None) -> str | None:
    if action in _WAGERS:
        return "wager"
    if action in ("check", "call"):
        return action
    return None


@dataclass(slots=True)
class RivalModel:
    """What one seat has seen of one rival this match."""

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

    def river_weights(self, bucket: str) -> tuple[float, ...]:
        """How much likelier each kind of hand (``Category`` 0..8) is for a rival whose
        seventh-street action was ``bucket`` than for a random hand: what it showed
        this match, smoothed toward a sound player's habits."""
        prior = _RIVER_PRIOR[bucket]
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
    def station(self) -> float:
        """How often it shows down a weak hand (one pair or less) (prior 0.25)."""
        return (self.shown_weak + 0.25 * 4) / (self.shown + 4)

    @property
    def folds(self) -> float:
        """How often it folds when we wager and it must answer (prior 0.3)."""
        return (self.folded_to_us + 0.3 * 5) / (self.faced + 5)


@dataclass(slots=True)
class _Memory:
    rivals: dict[int, RivalModel] = field(default_factory=dict)
    hands: int = 0
    seen: set[tuple[int, int, int, int]] = field(default_factory=set)
    wagered_on: dict[int, int] = field(default_factory=dict)  # street -> our wagers this hand

    def rival(self, seat: int) -> RivalModel:
        m = self.rivals.get(seat)
        if m is None:
            m = self.rivals[seat] = RivalModel()
        return m


class Brain:
    """One computer seat's player at one level; call it like ``choose_action``."""

    def __init__(self, level: Level) -> None:
        self.level = level
        self.memory = _Memory()

    def reset(self) -> None:
        """A new match: forget every rival."""
        self.memory = _Memory()

    def __call__(self, view: Mapping[str, Any], rng: random.Random) -> str:
        return self.choose(view, rng)

    def choose(self, view: Mapping[str, Any], rng: random.Random) -> str:
        names = [str(a["action"]) for a in view["legal"]]
        if not names:
            raise ValueError(f"seat {view.get('you')} has no legal action in this view")
        self._watch(view)
        if len(names) == 1:
            return names[0]
        if not self.level.shark:
            choice = choose_action(view, rng, self.level.style)
            if choice == "fold" and _unbeatable(view):
                choice = "call"  # no level folds a hand no rival can beat
            return choice
        choice = _SharkDecision(view, rng, self.level.style, self.memory).choose()
        if choice == "fold" and "check" in names:
            choice = "check"  # R-B5
        if choice == "fold" and _unbeatable(view):
            choice = "call"
        if choice not in names:
            choice = "call" if "call" in names else names[0]
        if choice in _WAGERS:
            street = int(view["street"])
            self.memory.wagered_on[street] = self.memory.wagered_on.get(street, 0) + 1
        return choice

    def _watch(self, view: Mapping[str, Any]) -> None:
        """Count each rival action this seat sees at its turn, once per hand and street."""
        mem = self.memory
        street = int(view["street"])
        me = view["you"]
        for e in view["seats"]:
            s = e["seat"]
            act = e.get("last_action")
            if s == me or act is None or act in ("bring_in", "fold"):
                continue
            key = (mem.hands, street, s, int(e.get("bet", 0)))
            if key in mem.seen:
                continue
            mem.seen.add(key)
            m = mem.rival(s)
            if act in _WAGERS:
                m.wagers += 1
            else:  # a check or a call: it could have wagered and did not
                m.calls += 1

    def observe(self, view: Mapping[str, Any]) -> None:
        """The seat's view once a hand is over: learn who entered, folded and showed what."""
        mem = self.memory
        me = view.get("you")
        we_wagered_last = mem.wagered_on.get(int(view.get("street") or 0), 0) > 0
        for e in view["seats"]:
            s = e["seat"]
            if s == me:
                continue
            m = mem.rival(s)
            m.dealt += 1
            up = e["up"]
            if len(up) >= 2 or (not e["folded"] and s != view.get("bring_in")):
                m.entered += 1
            if we_wagered_last and len(up) >= 2:
                m.faced += 1
                if e["folded"] and e.get("last_action") == "fold":
                    m.folded_to_us += 1
            shown = e.get("shown")
            if shown:
                cards = [Card(c) for c in shown["cards"]]
                m.shown += 1
                if len(cards) >= 3 and _is_trash(cards[:3]):
                    m.shown_trash += 1
                if len(cards) >= 5 and evaluate(cards) >> 20 <= 1:
                    m.shown_weak += 1
                bucket = _river_bucket(e.get("last_action"))
                if len(cards) == 7 and bucket is not None:
                    counts = m.river.setdefault(bucket, [0] * 5)
                    counts[min(evaluate(cards) >> 20, 4)] += 1
        mem.hands += 1
        mem.wagered_on.clear()
        if len(mem.seen) > 4096:
            mem.seen.clear()


def _unbeatable(view: Mapping[str, Any]) -> bool:
    """Seventh street: no way the live rivals' unseen cards beat this seat's hand."""
    if view["street"] != 7:
        return False
    me = view["you"]
    mine_e = next(e for e in view["seats"] if e["seat"] == me)
    mine = [Card(c) for c in mine_e.get("hole", []) + mine_e["up"]]
    if len(mine) != 7:
        return False
    others = [e for e in view["seats"] if e["seat"] != me]
    dead = [Card(c) for e in others for c in e["up"]]
    for e in others:
        if e["folded"] or len(e["up"]) != 4:
            continue
        rival = _Range([Card(c) for c in e["up"]], 3, False, False, 1.0, 1.0)
        if exact_seventh(mine, rival, dead)[1]:
            return False
    return True


def _is_trash(three: Sequence[Card]) -> bool:
    """Third-street cards a sound player folds: no pair, no three-flush or three-straight,
    fewer than two cards queen or better."""
    r = sorted((_RANK[c] for c in three), reverse=True)
    if r[0] == r[1] or r[1] == r[2]:
        return False
    if _SUIT[three[0]] == _SUIT[three[1]] == _SUIT[three[2]]:
        return False
    if r[0] - r[2] <= 4 or (r[0] == 12 and r[1] <= 3):
        return False
    return not (r[1] >= 10)


# ------------------------------------------------------------------ ranged equity


class _Range:
    """How likely a rival's hidden cards are, given how it played: a weight per deal."""

    __slots__ = ("up", "n_down", "entered", "aggressive", "w_trash", "w_bluff", "river", "trash")

    def __init__(
        self,
        up: list[Card],
        n_down: int,
        entered: bool,
        aggressive: bool,
        w_trash: float,
        w_bluff: float,
    ) -> None:
        self.up = up
        self.n_down = n_down
        self.entered = entered
        self.aggressive = aggressive
        self.w_trash = w_trash
        self.w_bluff = w_bluff
        self.trash: dict[int, bool] = {}
        self.river: tuple[float, ...] | None = None
        """Seventh street, once the rival has acted: the weight of each kind of hand."""

    def weight(self, hidden: Sequence[Card]) -> float:
        """``hidden`` are the rival's unknown cards: its current down cards first."""
        w = 1.0
        if self.entered and self.up:
            key = hidden[0] + hidden[1]  # the pair's ranks and suits are all that matter
            trash = self.trash.get(key)
            if trash is None:
                trash = self.trash[key] = _is_trash((hidden[0], hidden[1], self.up[0]))
            if trash:
                w *= self.w_trash
        if self.river is not None and len(self.up) == 4:
            w *= self.river[evaluate(self.up + list(hidden)) >> 20]
        elif self.aggressive:
            now = list(hidden[: self.n_down]) + self.up
            if not _strong_now(now):
                w *= self.w_bluff
        return w


def _strong_now(cards: Sequence[Card]) -> bool:
    """A pair or better, or four to a flush or straight (with cards to come)."""
    ranks = [_RANK[c] for c in cards]
    if len(set(ranks)) < len(ranks):
        return True
    if len(cards) <= 3:
        return len({_SUIT[c] for c in cards}) == 1 or max(ranks) >= 10
    suits = [0, 0, 0, 0]
    for c in cards:
        suits[_SUIT[c]] += 1
    if max(suits) >= 4 and len(cards) < 7:
        return True
    mask = 0
    for r in ranks:
        mask |= 1 << r
    mask = (mask << 1) | (mask >> 12)
    return len(cards) < 7 and any(bin((mask >> lo) & 31).count("1") >= 4 for lo in range(10))


def ranged_equity(
    mine: Sequence[Card],
    rivals: Sequence[_Range],
    dead: Sequence[Card],
    rng: random.Random,
    samples: int,
) -> float:
    """Share of the pot at showdown, each deal of the unseen cards weighted by how
    likely the rivals' hidden cards are (``_Range.weight``)."""
    seen = set(mine).union(dead)
    for r in rivals:
        seen.update(r.up)
    unseen = [c for c in _FULL if c not in seen]
    mine = list(mine)
    need_me = 7 - len(mine)
    slots = []
    start = need_me
    for r in rivals:
        n = 7 - len(r.up)
        slots.append((r, start, start + n))
        start += n
    total = start
    if total > len(unseen):
        raise ValueError("not enough unseen cards for the seats in the hand")
    won = 0.0
    weight_sum = 0.0
    rnd = rng.random
    pool = unseen
    n_pool = len(pool)
    for _ in range(samples):
        # A partial Fisher-Yates shuffle of the pool: its first ``total`` cards are a
        # uniform draw whatever order the pool was left in by the last one.
        for i in range(total):
            j = i + int(rnd() * (n_pool - i))
            pool[i], pool[j] = pool[j], pool[i]
        drawn = pool[:total]
        w = 1.0
        for r, lo, hi in slots:
            w *= r.weight(drawn[lo:hi])
        if w <= 0.0:
            continue
        me = evaluate(mine + drawn[:need_me])
        best = 0
        ties = 1
        for r, lo, hi in slots:
            v = evaluate(r.up + drawn[lo:hi])
            if v > best:
                best, ties = v, 1
            elif v == best:
                ties += 1
        weight_sum += w
        if me > best:
            won += w
        elif me == best:
            won += w / (ties + 1)
    return won / weight_sum if weight_sum else 0.5


def exact_seventh(mine: Sequence[Card], rival: _Range, dead: Sequence[Card]) -> tuple[float, bool]:
    """Heads-up on seventh street: every way the rival's three unseen cards can lie,
    weighted by its range.  Returns (share of the pot, whether any hand beats ours)."""
    me = evaluate(mine)
    seen = set(mine).union(dead).union(rival.up)
    unseen = [c for c in _FULL if c not in seen]
    base = sum(rival.up)
    n = len(unseen)
    won = 0.0
    total = 0.0
    beatable = False
    flush_suit, rank_value, flush_value = _FLUSH_SUIT, _RANK_VALUE, _FLUSH_VALUE
    up = rival.up
    # The weight of "a and b were the first two hole cards", for every pair.
    pair_w = [[1.0] * n for _ in range(n)]
    if rival.entered and up:
        door = up[0]
        for i in range(n):
            for j in range(i + 1, n):
                if _is_trash((unseen[i], unseen[j], door)):
                    pair_w[i][j] = rival.w_trash
    kinds = rival.river or (
        (rival.w_bluff, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0) if rival.aggressive else (1.0,) * 9
    )
    for i in range(n - 2):
        a = unseen[i]
        row_i = pair_w[i]
        for j in range(i + 1, n - 1):
            b = unseen[j]
            sab = base + a + b
            w_ij = row_i[j]
            row_j = pair_w[j]
            for k in range(j + 1, n):
                c = unseen[k]
                s = sab + c
                suit = flush_suit[s & _SUIT_MASK]
                if suit:
                    flushed = 0
                    for card in (a, b, c, *up):
                        if card & suit:
                            flushed += card
                    v = flush_value[flushed >> SUIT_BITS]
                else:
                    v = rank_value[s >> SUIT_BITS]
                # any two of the three may have been the first two hole cards
                w = (w_ij + row_i[k] + row_j[k]) / 3.0 * kinds[v >> 20]
                total += w
                if me > v:
                    won += w
                elif me == v:
                    won += w / 2
                else:
                    beatable = True
    return (won / total if total else 0.5), beatable


# ------------------------------------------------------------------ the strong decision


class _SharkDecision(_Decision):
    """``server.bots._Decision`` with ranges, heads-up defence and a model of each rival."""

    def __init__(
        self, view: Mapping[str, Any], rng: random.Random, style: Style, memory: _Memory
    ) -> None:
        super().__init__(view, rng, style)
        self.memory = memory
        live = [e for e in self.others if not e["folded"]]
        self.live = live
        self.models = [memory.rival(e["seat"]) for e in live]
        self.heads_up = len(live) == 1

    # ---- ranges

    def _ranges(self) -> list[_Range]:
        out = []
        for e, m, up in zip(self.live, self.models, self.rivals, strict=True):
            entered = (
                e["seat"] != self.bring_in_seat or self.street == 3 and e["last_action"] in _WAGERS
            )
            aggressive = e["last_action"] in _WAGERS
            w_trash = min(1.0, 0.15 + m.trash)
            w_bluff = min(1.0, 0.12 + 0.9 * max(0.0, m.aggression - 0.2))
            down = int(e.get("down", 2))
            r = _Range(up, down, entered and self.street >= 4, aggressive, w_trash, w_bluff)
            bucket = _river_bucket(e["last_action"]) if self.street == 7 else None
            if bucket is not None:
                r.river = m.river_weights(bucket)
            out.append(r)
        return out

    def _equity(self) -> float:
        mine = self.hole + self.up
        ranges = self._ranges()
        if self.heads_up and len(mine) == 7 and len(ranges[0].up) == 4:
            eq, beatable = exact_seventh(mine, ranges[0], self.dead)
            self.nuts = not beatable
            return eq
        return ranged_equity(mine, ranges, self.dead, self.rng, self._samples())

    # ---- third street

    def _third_street(self) -> str:
        cls = starting_class(self.hole + self.up, self.dead)
        rng = self.rng
        wager = self.wager
        if "bring_in" in self.legal:
            if cls >= 3 or (cls == 2 and rng.random() < 0.35):
                return "complete"
            return "bring_in"
        door = self.up[0].rank if self.up else 0
        rival_doors = [Card(e["up"][0]).rank for e in self.live if e["up"]]
        top_door = max(rival_doors, default=-1)
        hole_high = max((c.rank for c in self.hole), default=0)
        if self.rival_wagers == 0:  # at most the bring-in to call
            if cls >= 3 and wager:
                return wager
            if wager and self._can_steal():
                bring = self.live[0] if self.heads_up else None
                fold_rate = self.models[0].folds if bring is not None else 0.3
                if cls >= 1 or rng.random() < 0.35 + fold_rate:
                    return wager
            if cls >= 1 or "check" in self.legal:
                return self.passive
            if self.heads_up and (door > top_door or hole_high > top_door):
                return self.passive
            return "fold"
        if self.heads_up:
            m = self.models[0]
            steal_read = m.aggression > 0.5 or m.loose > 0.5
            if self.rival_wagers == 1:
                if cls >= 3 and wager:
                    return wager
                if cls >= 1:
                    return "call"
                if door > top_door or hole_high > top_door or (steal_read and door >= 8):
                    return "call"
                return "call" if self._equity() >= self._pot_odds() * 1.05 else "fold"
            if cls == 4 and wager:
                return wager
            if cls >= 2 or (cls == 1 and steal_read):
                return "call"
            return "call" if self._equity() >= self._pot_odds() * 1.1 else "fold"
        if self.rival_wagers == 1:
            if cls == 4 and wager:
                return wager
            if cls >= 2:
                return "call"
            if cls == 1 and len(self.rivals) <= 2:
                return "call" if self._equity() >= self._pot_odds() * 1.2 else "fold"
            return "fold"
        if cls == 4:
            return wager or "call"
        if cls == 3 or (cls == 2 and self.to_call <= self.bet):
            return "call"
        return "fold"

    # ---- later streets

    def _later_street(self) -> str:
        style, rng = self.style, self.rng
        self.nuts = False
        eq = self._equity()
        n = len(self.rivals) + 1
        fair = 1.0 / n
        wager = self.wager
        station = max((m.station for m in self.models), default=0.25)
        folds = min((m.folds for m in self.models), default=0.3)
        river = self.street == 7
        if self.nuts:
            return wager or self.passive
        if "check" in self.legal:
            margin = style.bet_margin - 0.08 * (station - 0.25) * 2
            if river and self.heads_up:
                margin = 0.14 - 0.25 * (station - 0.25)
            if wager and eq >= fair + margin:
                return wager
            if wager and self.street <= 5 and eq >= fair * 0.9 and self._drawing():
                return wager if rng.random() < style.semi_bluff else "check"
            if wager and self.heads_up and folds >= 0.45:
                # A rival that often lays down to a bet: take a stab when checked to,
                # never on the river with a hand that can win a showdown.
                if self.street < 7 and rng.random() < folds - 0.25:
                    return wager
                if self.street == 7 and eq < 0.2 and rng.random() < folds - 0.3:
                    return wager
            return "check"
        need_raise = fair + style.raise_margin + style.raise_step * self.wagers
        if self.heads_up:
            need_raise = (0.72 if river else 0.66) + 0.05 * max(self.wagers - 1, 0)
        if wager and eq >= need_raise:
            return wager
        if (
            wager
            and self.street <= 4
            and self._drawing()
            and eq >= fair
            and rng.random() < style.semi_bluff / 2
        ):
            return wager
        # Bets still to come cost more on the middle streets than the pot odds say.
        factor = {4: 1.1, 5: 1.2, 6: 1.15}.get(self.street, 1.0)
        if eq >= self._pot_odds() * factor:
            if self.street >= 5 and not self._have_something() and eq < 0.4:
                return "fold"  # no pair and no draw: don't call down
            return "call"
        return "fold"

    def _have_something(self) -> bool:
        cards = self.hole + self.up
        ranks = [c.rank for c in cards]
        return len(set(ranks)) < len(ranks) or self._drawing()
