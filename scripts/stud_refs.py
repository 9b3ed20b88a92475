"""Reference players for ``scripts/bench_bots.py``: a pool of stud opponents of different
kinds, written from the stud literature and common sense, not from ``server.brain``.

They read only their own seat's view (``common.schema.SeatView``), count with
``common.hands`` and ``common.equity``, and draw every random number from the ``rng``
they are given, so a computer seat cannot win by sharing their code or their cards.

The pool (``POOL``), the kinds of player a friends' table holds (after Roy West's
*7 Card Stud: The Waiting Game* and Sklansky and Malmuth's *Seven-Card Stud for
Advanced Players*, whose "play live hands, respect the board" they all follow to a
degree):

- ``tag``, solid tight-aggressive: enters with live pairs, live three-flushes and
  three-straights, and high cards over the boards; completes big pairs and steals with
  a high door card; from fourth street plays by its chance against the boards it sees
  (folded up cards out of the pack, so a draw whose cards are dead is worth little),
  credits a rival who wagers with a better hand, bets and raises well ahead, semi-bluffs
  some draws, and folds a hand the boards beat (a higher pair showing, no draw).
- ``rock``, tight-passive: only big live hands; bets and raises only when far ahead,
  calls only on good odds, never steals or bluffs.
- ``loose``, loose-passive: comes in with anything that has a card jack or better or a
  pair or draw, calls down with any pair or draw, bets only strong hands and raises its
  very good ones half the time.
- ``lag``, loose-aggressive: plays many hands hard: completes middling hands, steals
  most times it may, semi-bluffs draws, bluffs often, more so when its board looks
  strong, and gives little credit to a rival's wager.
- ``steamer``, adaptive: the solid player until it loses a pot of some size, then on
  "steam" for the next few hands it plays as the loose-aggressive one; each further lost
  pot extends it, a won pot calms it.  It forgets at a new night (``reset``).

Yardsticks (``YARDSTICKS``), to read a figure against, not part of the pool's average:

- ``caller``: the calling station: checks or calls every time, never bets or folds.
- ``bound``: ``StationBound``, the best play against the calling station.
- ``maniac``: wagers most of the time with anything and almost never folds.

Every player is a callable ``player(view, rng) -> action name``; one that remembers
has ``observe(view)`` (the seat's view at a hand's end) and ``reset()`` (a new night),
called at the table's moments (``server.lobby.ComputerChairs``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from common.cards import Card
from common.equity import sample_share
from common.schema import SeatView

__all__ = ["POOL", "YARDSTICKS", "Gear", "Reference", "Steamer", "StationBound"]

_WAGERS = ("complete", "bet", "raise")
_TEN, _JACK, _QUEEN, _KING, _ACE = 8, 9, 10, 11, 12


def _wager(names: Sequence[str]) -> str | None:
    return next((n for n in _WAGERS if n in names), None)


def _passive(names: Sequence[str]) -> str:
    return next((n for n in ("check", "bring_in", "call") if n in names), names[0])


class _Seen:
    """A seat's view read once: its cards, the live rivals' up cards, what is out."""

    def __init__(self, view: SeatView | Mapping[str, Any]) -> None:
        v = view if isinstance(view, SeatView) else SeatView.decode(view)
        self.view = v
        self.names = [str(a.action) for a in v.legal]
        self.puts = {str(a.action): a.put for a in v.legal}
        self.street, self.pot, self.high = v.street, v.pot, v.high
        me = v.seats.get(v.you) if v.you is not None else None
        self.me = me
        self.hole = [Card(c) for c in (me.hole or [])] if me else []
        self.up = [Card(c) for c in me.up] if me else []
        self.cards = self.hole + self.up
        others = [e for s, e in v.seats.items() if s != v.you]
        self.rivals = [e for e in others if not e.folded]
        self.rival_up = [[Card(c) for c in e.up] for e in self.rivals]
        self.dead = [Card(c) for e in others if e.folded for c in e.up]
        self.out = self.dead + [c for u in self.rival_up for c in u]
        self.bring_in = v.bring_in
        self.raises = v.high // (10 if v.street <= 4 else 20)
        """Full wagers made on this street (the bring-in is not one)."""
        mine = bool(me and me.bet and me.last_action in _WAGERS)
        self.rival_wagers = max(self.raises - mine, 0)
        self.to_call = self.puts.get("call", 0)


def _start(s: _Seen) -> int:
    """Third street, 0 (trash) to 4 (rolled up, or a big live pair): the chart of the
    primers, a card it needs that shows elsewhere making a hand worse."""
    ranks = sorted((c.rank for c in s.cards), reverse=True)
    if len(ranks) < 3:
        return 0
    out = Counter(c.rank for c in s.out)
    out_suits = Counter(c.suit for c in s.out)
    top_up = max((u[0].rank for u in s.rival_up if u), default=-1)
    if ranks[0] == ranks[2]:
        return 4
    if ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        pair = ranks[1]
        kicker = ranks[2] if pair == ranks[0] else ranks[0]
        live = out[pair] == 0
        if pair >= _QUEEN and live and pair >= top_up:
            return 4
        if pair >= _TEN and live:
            return 3
        if pair >= _TEN or live and (kicker >= _KING or pair > top_up):
            return 2
        return 1 if live else 0
    suits = Counter(c.suit for c in s.cards)
    if len(suits) == 1:
        gone = out_suits[s.cards[0].suit]
        return 0 if gone >= 4 else (2 if gone <= 2 and ranks[0] >= _TEN else 1)
    if ranks[0] - ranks[2] <= 4 and ranks[2] >= 4:
        dead = sum(out[x] for x in range(ranks[2], ranks[0] + 1) if x not in ranks)
        return 2 if dead <= 1 and ranks[0] >= _TEN else (1 if dead <= 2 else 0)
    if ranks[1] >= _QUEEN and out[ranks[0]] + out[ranks[1]] == 0 and ranks[0] > top_up:
        return 1
    return 0


def _made(cards: Sequence[Card]) -> tuple[int, int]:
    """(kind, rank): 0 high card, 1 pair, 2 two pair, 3 trips, 4 better; top group's rank."""
    counts = Counter(c.rank for c in cards)
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    if groups[0][0] >= 3:
        return (4 if len(groups) > 1 and groups[1][0] >= 2 else 3), groups[0][1]
    if groups[0][0] == 2:
        return (2 if len(groups) > 1 and groups[1][0] == 2 else 1), groups[0][1]
    return 0, groups[0][1]


def _straight(cards: Sequence[Card], need: int) -> bool:
    mask = 0
    for c in cards:
        mask |= 1 << c.rank
    mask = (mask << 1) | (mask >> 12)  # the ace plays low too
    return any(bin((mask >> lo) & 0b11111).count("1") >= need for lo in range(10))


def _draw(cards: Sequence[Card], out: Sequence[Card]) -> bool:
    """Four to a flush with two or more of its suit still live, or four to a straight."""
    if len(cards) >= 7:
        return False
    suits = Counter(c.suit for c in cards)
    suit, n = suits.most_common(1)[0]
    if n >= 4 and 13 - n - sum(c.suit == suit for c in out) >= 2:
        return True
    return _straight(cards, 4)


def _beaten_on_board(s: _Seen) -> bool:
    """A live rival's up cards alone make more than our whole hand: a higher pair, or
    trips or two pair over our one pair."""
    mine = _made(s.cards)
    return any(_made(u) > mine and _made(u)[0] >= 1 for u in s.rival_up if len(u) >= 2)


def _scary(s: _Seen) -> bool:
    """Our up cards look strong: a pair, three to a flush or a straight, or a new ace or
    king over every card the live rivals show."""
    up = s.up
    if len(up) < 2:
        return False
    if len({c.rank for c in up}) < len(up):
        return True
    if len(up) >= 3 and (max(Counter(c.suit for c in up).values()) >= 3 or _straight(up, 3)):
        return True
    top_rival = max((c.rank for u in s.rival_up for c in u), default=-1)
    return up[-1].rank >= _KING and up[-1].rank > top_rival


def _chance(s: _Seen, rng: random.Random, samples: int) -> float:
    """Its sampled share of the pot against the live rivals' boards: random hidden cards
    for each of them, every up card it has seen out of the pack."""
    return sample_share(s.cards, s.rival_up, s.dead, rng, samples)


@dataclass(frozen=True, slots=True)
class Gear:
    """How a reference plays: its starting standards and its betting."""

    enter: int
    """Third street: the least ``_start`` score that calls the bring-in (or a card at
    least ``any_card`` high)."""
    any_card: int
    defend: int
    """The least score that calls a completion (one more to call a raise)."""
    attack: int
    """The least score that completes (and one more that raises a completion)."""
    steal: float
    """Folded to it with the highest door card: complete this often with anything."""
    bet: float
    """Checked to: bet with a chance over a fair share (1 / players in) by this."""
    raise_by: float
    """Facing a wager: raise with a chance over a fair share by this."""
    raise_often: float
    """How often it takes a wager it may (a passive player less than always)."""
    call: float
    """Call when its chance is at least the pot odds times this."""
    respect: float
    """Its chance is cut by this share for each rival wager on the street."""
    semi: float
    """Chance to bet a live four-card draw on fourth or fifth street when checked to."""
    bluff: float
    """Checked to from fifth street with a hand it would not bet for value: bet this often
    (twice as often with a scary board)."""
    cap: int
    """Wagers on a street past which it only calls."""
    reads_boards: bool
    """Folds to a wager when a rival's board alone beats its hand and it has no draw."""
    calls_down: bool
    """Calls every wager holding a pair or a draw."""


TAG = Gear(1, 13, 2, 3, 0.6, 0.08, 0.20, 1.0, 1.05, 0.08, 0.5, 0.08, 4, True, False)
ROCK = Gear(2, 13, 3, 4, 0.0, 0.20, 0.35, 1.0, 1.3, 0.10, 0.0, 0.0, 3, True, False)
LOOSE = Gear(1, _JACK, 1, 4, 0.0, 0.25, 0.30, 0.5, 0.75, 0.0, 0.0, 0.0, 4, False, True)
LAG = Gear(1, _JACK, 1, 2, 0.9, 0.02, 0.12, 1.0, 0.9, 0.03, 0.9, 0.35, 4, False, False)


class Reference:
    """A pool member: plays its ``gear``."""

    gear = TAG
    samples = 250
    """Random deals per decision for its chance."""

    def __call__(self, view: SeatView | Mapping[str, Any], rng: random.Random) -> str:
        s = _Seen(view)
        if len(s.names) <= 1:
            return s.names[0]
        g = self.current()
        choice = _third(s, g, rng) if s.street == 3 else _later(s, g, rng, self.samples)
        if choice == "fold" and "check" in s.names:
            choice = "check"
        return choice if choice in s.names else _passive(s.names)

    def current(self) -> Gear:
        return self.gear


def _third(s: _Seen, g: Gear, rng: random.Random) -> str:
    score = _start(s)
    wager = _wager(s.names)
    attack = score >= g.attack and rng.random() < g.raise_often
    if "bring_in" in s.names:
        return "complete" if attack else "bring_in"
    if s.raises == 0:  # at most the bring-in to call
        if wager and attack:
            return wager
        if wager and _steal_spot(s) and rng.random() < g.steal:
            return wager
        high = max(c.rank for c in s.cards)
        return _passive(s.names) if score >= g.enter or high >= g.any_card else "fold"
    if s.raises < g.cap and wager and score >= g.attack + s.raises and attack:
        return wager
    return "call" if score >= g.defend + s.raises - 1 else "fold"


def _steal_spot(s: _Seen) -> bool:
    """No one but the bring-in has come in yet, and its door card beats every live one."""
    if not s.up or any(e.seat != s.bring_in and e.last_action for e in s.rivals):
        return False
    return all(u[0].rank < s.up[0].rank for u in s.rival_up if u)


def _later(s: _Seen, g: Gear, rng: random.Random, samples: int) -> str:
    eq = _chance(s, rng, samples)
    fair = 1.0 / (len(s.rivals) + 1)
    eff = eq * max(0.4, 1.0 - g.respect * s.rival_wagers)
    wager = _wager(s.names) if s.raises < g.cap else None
    draw = _draw(s.cards, s.out)
    if "call" not in s.names:  # checked to, or first to act
        if wager and eff >= fair + g.bet and rng.random() < g.raise_often:
            return wager
        if wager and draw and s.street <= 5 and rng.random() < g.semi:
            return wager
        bluff = g.bluff * (2 if _scary(s) else 1)
        if wager and s.street >= 5 and rng.random() < bluff:
            return wager
        return _passive(s.names)
    if wager and eff >= fair + g.raise_by and rng.random() < g.raise_often:
        return wager
    if wager and draw and s.street == 4 and rng.random() < g.semi / 2:
        return wager
    if g.reads_boards and not draw and _beaten_on_board(s):
        return "fold"
    if g.calls_down and (draw or _made(s.cards)[0] >= 1):
        return "call"
    odds = s.to_call / (s.pot + s.to_call)
    return "call" if eff >= odds * g.call else "fold"


class Tag(Reference):
    gear = TAG


class Rock(Reference):
    gear = ROCK


class Loose(Reference):
    gear = LOOSE


class Lag(Reference):
    gear = LAG


class Steamer(Reference):
    """The solid player who goes on steam (plays loose-aggressive) after losing a pot."""

    calm, steam = TAG, LAG
    big = 30
    """A lost pot counts when it put in at least this many chips."""
    hands = 6
    """Hands on steam after such a loss."""

    def __init__(self) -> None:
        self.steaming = 0

    def reset(self) -> None:
        self.steaming = 0

    def current(self) -> Gear:
        return self.steam if self.steaming else self.calm

    def observe(self, view: SeatView | Mapping[str, Any]) -> None:
        """A hand's end: a lost pot of some size sets it steaming, a won one calms it."""
        v = view if isinstance(view, SeatView) else SeatView.decode(view)
        me = v.seats.get(v.you) if v.you is not None else None
        if me is None:
            return
        won = sum(a.amount for a in v.awards if a.seat == v.you)
        self.steaming = max(self.steaming - 1, 0)
        if won > me.in_pot:
            self.steaming = max(self.steaming - 2, 0)
        elif won < me.in_pot and me.in_pot >= self.big:
            self.steaming += self.hands


class CallingStation:
    """Checks when it can, else calls (or brings in); never bets, raises or folds."""

    def __call__(self, view: SeatView | Mapping[str, Any], rng: random.Random) -> str:
        return _passive(_Seen(view).names)


class Maniac:
    """Wagers most of the time with anything and hardly ever folds."""

    def __call__(self, view: SeatView | Mapping[str, Any], rng: random.Random) -> str:
        s = _Seen(view)
        if len(s.names) <= 1:
            return s.names[0]
        wager = _wager(s.names)
        if wager and rng.random() < 0.65:
            return wager
        river_call = "call" in s.names and s.street == 7
        if river_call and rng.random() < 0.15 and _made(s.cards)[0] == 0:
            return "fold"
        return _passive(s.names)


class StationBound:
    """The most a player can win from ``CallingStation``, as a player: against a rival
    that never wagers or folds, no wager is faced after the bring-in, every wager is
    called and the pot changes no later choice, so each street's choice stands alone:
    a wager gains (2p - 1) bets for a chance p to win, and wagering exactly when p is
    over one half is the best play there is.  The chance is sampled from many random
    deals of the unseen cards (the same information a seat has).  Against any other
    rival it is only a passive equity player."""

    samples = 2000
    """Random deals per decision: enough that the choices it gets wrong are the ones
    that hardly matter (p within a few hundredths of a half)."""

    def __call__(self, view: SeatView | Mapping[str, Any], rng: random.Random) -> str:
        s = _Seen(view)
        if len(s.names) <= 1:
            return s.names[0]
        wager = _wager(s.names)
        if wager and _chance(s, rng, self.samples) > 0.5:
            return wager
        return _passive(s.names)


POOL: dict[str, type] = {
    "tag": Tag,
    "rock": Rock,
    "loose": Loose,
    "lag": Lag,
    "steamer": Steamer,
}
"""The opponents the benchmark averages over."""

YARDSTICKS: dict[str, type] = {"caller": CallingStation, "bound": StationBound, "maniac": Maniac}
"""Players to read a figure against, not in the pool's average."""
