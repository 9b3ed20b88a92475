"""The computer seats' brain: a pure function from a seat's view to one legal action.

``choose_action(view, rng)`` reads nothing but ``view`` (exactly
``common.views.seat_view(hand, seat)``: the same things a person at that seat
can see) and draws every random number from ``rng``, so the same view and the
same RNG state always give the same choice.  It returns the name of one of
``view["legal"]``; it never folds when checking is free (R-B5) and never
folds the bring-in (R-B2), because those buttons are not offered.

How it plays ("solid", the default ``Style``):

- Third street: a starting-hand class (rolled-up trips, pairs, three to a
  flush or straight, high cards), downgraded when the cards it needs are
  already showing elsewhere.  Trash folds to a completion; strong hands
  complete and raise.
- Fourth street on: Monte Carlo equity.  Every card the seat can see (its
  own hole cards, every up card including folded seats') is out of the pack;
  the rivals' unknown cards and everyone's cards to come are drawn at random
  from the rest, and complete seven-card hands are compared with
  ``common.hands.evaluate`` (ties split).  It bets and raises for value,
  sometimes semi-bluffs strong draws on early streets, calls on pot odds and
  folds the rest.  Rivals who bet into it are given credit for a better than
  random hand.

Levels: a ``Style`` holds the knobs; ``STYLES`` names them.  Later levels add
entries there and pass ``style=`` through; the public function stays one call.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from common.cards import Card, full_deck
from common.hands import evaluate

__all__ = ["SOLID", "STYLES", "Style", "choose_action", "equity", "starting_class"]

_FULL_DECK = tuple(full_deck())
_WAGERS = ("complete", "bet", "raise")
_HIGH_CARDS = 7  # rank of a nine: the lowest card we call "high" for draws
_QUEEN, _TEN, _JACK, _ACE = 10, 8, 9, 12


@dataclass(frozen=True, slots=True)
class Style:
    """How a computer seat plays.  Equity margins are in shares of the pot."""

    name: str = "solid"
    evaluations: int = 3000
    """Monte Carlo budget: seven-card evaluations per decision (sets the time)."""
    min_samples: int = 250
    max_samples: int = 800
    bet_margin: float = 0.10
    """Bet when equity beats a fair share (1 / seats in the hand) by this much."""
    raise_margin: float = 0.20
    raise_step: float = 0.06
    """Extra equity wanted for each wager already made on the street."""
    call_factor: float = 1.05
    """Call when equity >= pot odds x this (a little over 1: bets still to come)."""
    respect: float = 0.07
    """Equity discount per rival wager on the street: bettors hold better than random."""
    semi_bluff: float = 0.35
    bluff: float = 0.05
    steal: float = 0.30
    max_raises: int = 6
    """Stop re-raising after this many wagers on one street, whatever the equity."""
    blunder: float = 0.0
    """Chance of a random legal action instead (for easier levels)."""
    defend_class: int = 2
    """Third street: the least starting class that calls a completion."""
    loose_entry: bool = False
    """Third street: call the bring-in with any jack or better too (a newcomer's habit)."""
    dead_cards: bool = True
    """Count the folded seats' up cards as out of the pack (weaker players forget them)."""


SOLID = Style()
STYLES: dict[str, Style] = {"solid": SOLID}


def choose_action(view: Mapping[str, Any], rng: random.Random, style: Style = SOLID) -> str:
    """One action name from ``view["legal"]`` for the seat ``view["you"]``.

    ``ValueError`` if the view offers no action (not this seat's turn).
    """
    names: list[str] = [str(a["action"]) for a in view["legal"]]
    if not names:
        raise ValueError(f"seat {view.get('you')} has no legal action in this view")
    if len(names) == 1:
        return names[0]
    if style.blunder and rng.random() < style.blunder:
        return rng.choice(names)
    choice = _Decision(view, rng, style).choose()
    if choice == "fold" and "check" in names:
        choice = "check"  # never give up a free card (R-B5)
    return choice if choice in names else names[0]


# ------------------------------------------------------------------ equity


def equity(
    mine: Sequence[Card],
    rivals_up: Sequence[Sequence[Card]],
    dead: Sequence[Card],
    rng: random.Random,
    samples: int,
) -> float:
    """Expected share of the pot at showdown against ``rivals_up`` (their up cards).

    ``mine`` are this seat's cards, ``dead`` every other card it has seen
    (rivals' and folded seats' up cards; ``rivals_up`` may repeat them).  The
    rest of each seven-card hand is drawn from the unseen cards; ties split.

    >>> from common.cards import parse_many
    >>> rng = random.Random(1)
    >>> quads = parse_many("As Ah Ad Ac Kd Qd 2c")
    >>> equity(quads, [parse_many("Ks Kh 2d 3d")], [], rng, 50) > 0.95
    True
    """
    seen = set(mine).union(dead)
    for up in rivals_up:
        seen.update(up)
    unseen = [c for c in _FULL_DECK if c not in seen]
    mine = list(mine)
    need_me = 7 - len(mine)
    slots = []
    start = need_me
    for up in rivals_up:
        n = 7 - len(up)
        slots.append((list(up), start, start + n))
        start += n
    total = start
    if total > len(unseen):  # only for views built by hand: never at a real table (R-D6)
        raise ValueError("not enough unseen cards for the seats in the hand")
    won = 0.0
    rnd = rng.random
    n_pool = len(unseen)
    for _ in range(samples):
        # A partial Fisher-Yates shuffle: the first ``total`` cards of ``unseen`` are a
        # uniform draw whatever order the last draw left them in (and ~4x faster than
        # ``rng.sample``).
        for i in range(total):
            j = i + int(rnd() * (n_pool - i))
            unseen[i], unseen[j] = unseen[j], unseen[i]
        drawn = unseen[:total]
        me = evaluate(mine + drawn[:need_me])
        best = 0
        ties = 1
        for up, lo, hi in slots:
            v = evaluate(up + drawn[lo:hi])
            if v > best:
                best, ties = v, 1
            elif v == best:
                ties += 1
        if me > best:
            won += 1.0
        elif me == best:
            won += 1.0 / (ties + 1)
    return won / samples


# ------------------------------------------------------------------ third street


def starting_class(cards: Sequence[Card], seen: Sequence[Card]) -> int:
    """How good three third-street cards are, 0 (trash) to 4 (premium).

    4: rolled-up trips, or a live pair of queens or better.  3: a pair of tens
    or jacks, a small pair with an ace, three live suited cards with a jack or
    better.  2: other pairs, three live suited cards, three live connected
    cards.  1: weaker draws and two live cards queen or better.  ``seen`` are
    the other cards showing; a card we need that is showing makes it worse.

    >>> from common.cards import parse_many
    >>> starting_class(parse_many("Ks Kd Kh"), []), starting_class(parse_many("7c 2d 4h"), [])
    (4, 0)
    """
    ranks = sorted((c.rank for c in cards), reverse=True)
    out_rank = [0] * 13
    out_suit = [0] * 4
    for c in seen:
        out_rank[c.rank] += 1
        out_suit[c.suit] += 1
    best = 0
    if ranks[0] == ranks[2]:
        return 4
    pair = ranks[1] if ranks[1] in (ranks[0], ranks[2]) else None
    if pair is not None:
        kicker = ranks[2] if pair == ranks[0] else ranks[0]
        if pair >= _QUEEN:
            best = 4
        elif pair >= _TEN or kicker == _ACE:
            best = 3
        else:
            best = 2
        if out_rank[pair]:
            best -= 1  # fewer ways to trips
        return max(best, 1)
    suits = {c.suit for c in cards}
    if len(suits) == 1:
        gone = out_suit[next(iter(suits))]
        best = max(best, (3 if ranks[0] >= _JACK else 2) - (gone >= 2) - (gone >= 4))
    span = _straight_span(ranks)
    if span is not None:
        needed = _straight_needs(ranks)
        dead = sum(out_rank[r] for r in needed) / max(len(needed), 1)
        value = 2 if span <= 3 and ranks[0] >= _HIGH_CARDS else 1
        best = max(best, value - (dead >= 2))
    high = [r for r in ranks if r >= _QUEEN and out_rank[r] == 0]
    if len(high) >= 2 or (ranks[0] == _ACE and ranks[1] >= _TEN and out_rank[_ACE] == 0):
        best = max(best, 1)
    return best


def _straight_span(ranks: Sequence[int]) -> int | None:
    """Top minus bottom of three distinct ranks that fit in a straight, else ``None``."""
    if len(set(ranks)) < 3:
        return None
    span = ranks[0] - ranks[2]
    if span <= 4:
        return span
    if ranks[0] == _ACE and ranks[1] <= 3:  # A-5-x: the wheel
        return ranks[1] + 1
    return None


def _straight_needs(ranks: Sequence[int]) -> list[int]:
    low = max(ranks[2] - (4 - (ranks[0] - ranks[2])), 0)
    return [r for r in range(low, min(low + 5, 13)) if r not in ranks]


# ------------------------------------------------------------------ the decision


class _Decision:
    """One decision: the view read once, then the rules of thumb above."""

    def __init__(self, view: Mapping[str, Any], rng: random.Random, style: Style) -> None:
        self.rng = rng
        self.style = style
        self.street: int = view["street"]
        self.legal: dict[str, Any] = {str(a["action"]): a for a in view["legal"]}
        me = view["you"]
        self.seat: dict[str, Any] = next(e for e in view["seats"] if e["seat"] == me)
        self.hole = [Card(c) for c in self.seat.get("hole", [])]
        self.up = [Card(c) for c in self.seat["up"]]
        others = [e for e in view["seats"] if e["seat"] != me]
        self.rivals = [[Card(c) for c in e["up"]] for e in others if not e["folded"]]
        self.dead = [
            Card(c) for e in others for c in e["up"] if style.dead_cards or not e["folded"]
        ]
        self.pot: int = view["pot"]
        self.high: int = view["high"]
        self.bring_in_seat = view.get("bring_in")
        self.me = me
        self.others = others
        self.bet = self._bet_size()
        wagers = self.high // self.bet if self.bet else 0
        self.wagers = wagers
        self.rival_wagers = max(wagers - (self.seat["last_action"] in _WAGERS), 0)
        call = self.legal.get("call")
        self.to_call: int = call["put"] if call else 0

    def _bet_size(self) -> int:
        for name in _WAGERS:
            a = self.legal.get(name)
            if a and not a["all_in"]:
                return int(a["to"]) - self.high if name == "raise" else int(a["to"])
        return 10 if self.street <= 4 else 20  # R-T3 defaults when no wager is offered

    @property
    def wager(self) -> str | None:
        """The name of the bet/complete/raise button on offer, if any."""
        for name in _WAGERS:
            if name in self.legal and self.wagers < self.style.max_raises:
                return name
        return None

    @property
    def passive(self) -> str:
        """Check if free, else call (or bring in)."""
        for name in ("check", "bring_in", "call"):
            if name in self.legal:
                return name
        return next(iter(self.legal))

    def choose(self) -> str:
        if self.street == 3:
            return self._third_street()
        return self._later_street()

    def _samples(self) -> int:
        s = self.style
        return max(s.min_samples, min(s.max_samples, s.evaluations // (len(self.rivals) + 1)))

    def _equity(self) -> float:
        mine = self.hole + self.up
        return equity(mine, self.rivals, self.dead, self.rng, self._samples())

    def _pot_odds(self) -> float:
        return self.to_call / (self.pot + self.to_call) if self.to_call else 0.0

    # -------------------------------------------------------------- third street

    def _third_street(self) -> str:
        cls = starting_class(self.hole + self.up, self.dead)
        rng, style = self.rng, self.style
        wager = self.wager
        if "bring_in" in self.legal:  # R-B2: bring in or complete
            if cls >= 3 or (cls == 2 and rng.random() < 0.3):
                return "complete"
            return "bring_in"
        if self.rival_wagers == 0:  # at most the bring-in to call
            if cls >= 3 and wager:
                return wager
            if cls >= 1 or "check" in self.legal:
                return self.passive
            if style.loose_entry and max(c.rank for c in self.hole + self.up) >= _JACK:
                return self.passive
            if wager and self._can_steal() and rng.random() < style.steal:
                return wager
            return "fold"
        if self.rival_wagers == 1:  # facing a completion
            if cls == 4 and wager:
                return wager
            if cls >= style.defend_class:
                return "call"
            if cls == 1 and len(self.rivals) <= 2:
                return "call" if self._equity() >= self._pot_odds() * 1.3 else "fold"
            return "fold"
        if cls == 4:  # facing a raise
            return wager or "call"
        if cls == 3 or (cls == 2 and self.to_call <= self.bet):
            return "call"
        return "fold"

    def _can_steal(self) -> bool:
        """Everyone after the bring-in folded to us, and our up card beats the bring-in's."""
        if not self.up:
            return False
        mine = self.up[0]
        for e in self.others:
            if e["folded"] or not e["up"]:
                continue
            if e["seat"] != self.bring_in_seat:
                return False
            theirs = Card(e["up"][0])
            if theirs.rank >= mine.rank:
                return False
        return True

    # -------------------------------------------------------------- later streets

    def _later_street(self) -> str:
        style, rng = self.style, self.rng
        eq = self._equity()
        n = len(self.rivals) + 1
        fair = 1.0 / n
        # Credit rival bettors with better hands, but never so much that a sure winner folds.
        eq_eff = eq * max(0.4, 1.0 - style.respect * self.rival_wagers)
        wager = self.wager
        if "check" in self.legal:
            if wager and eq_eff >= fair + style.bet_margin:
                return wager
            if wager and self.street <= 5 and eq >= fair and self._drawing():
                return wager if rng.random() < style.semi_bluff else "check"
            if wager and n == 2 and self.street >= 5 and eq < 0.3 and rng.random() < style.bluff:
                return wager
            return "check"
        need_raise = fair + style.raise_margin + style.raise_step * self.wagers
        if wager and eq_eff >= need_raise:
            return wager
        if (
            wager
            and self.street <= 4
            and self._drawing()
            and eq_eff >= fair
            and rng.random() < style.semi_bluff / 2
        ):
            return wager
        if eq_eff >= self._pot_odds() * style.call_factor:
            return "call"
        return "fold"

    def _drawing(self) -> bool:
        """Four to a flush or four to a straight, with cards to come."""
        cards = self.hole + self.up
        if len(cards) >= 7:
            return False
        suits = [0] * 4
        for c in cards:
            suits[c.suit] += 1
        if max(suits) >= 4:
            return True
        mask = 0
        for c in cards:
            mask |= 1 << c.rank
        mask = (mask << 1) | (mask >> 12)  # ace low too
        return any(bin((mask >> lo) & 0b11111).count("1") >= 4 for lo in range(10))
