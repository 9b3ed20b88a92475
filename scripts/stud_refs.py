"""Reference opponents for ``scripts/bench_bots.py``, written from published stud strategy.

They are deliberately independent of ``server.brain``: only the view and
``common.hands`` are used, so a computer seat cannot win by sharing their code.

- ``TightAggressive``: the chart player of the stud primers (Roy West's
  *7 Card Stud: The Waiting Game*, Sklansky and Malmuth's *Seven-Card Stud
  for Advanced Players*): enters with rolled-up trips, any pair ten or better,
  smaller pairs with a live high kicker, live three-flushes and
  three-straights with a high card; completes big pairs and steals with a high
  door card when it is folded to it; on later streets bets made hands, calls
  with a pair or a four-card draw while it is not beaten on board, raises two
  pair or better, and folds the rest.
- ``CallingStation``: checks or calls every time, never bets or folds.
- ``Maniac``: completes, bets and raises most of the time with anything, and
  almost never folds.
- ``EquityPlayer``: plays by the numbers: its chance against the boards it sees
  (random hidden cards for every live rival, every up card out of the pack,
  ``common.equity``).  It bets and raises when that chance is well over a fair
  share (one over the seats still in), calls when it beats the pot odds and
  folds otherwise; on third street it wants most of a fair share to come in.
- ``ScareBluffer``: the tight-aggressive player who bets its board: when its up
  cards look strong (a pair showing, three to a flush or a straight showing, a
  new ace or king over every rival's board) it bets and raises whatever its hole
  cards, and calls down; otherwise it plays as ``TightAggressive``.
- ``StationBound``: not a player to beat but a yardstick: the best play against
  ``CallingStation``, to tell how much a calling station can be made to pay.

Every player is a callable ``player(view, rng) -> action name`` drawing its
random numbers from ``rng`` only.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from common.cards import Card
from common.equity import sample_share
from server.brain.reading import Reading, View, read

__all__ = [
    "REFERENCES",
    "CallingStation",
    "EquityPlayer",
    "Maniac",
    "ScareBluffer",
    "StationBound",
    "TightAggressive",
    "YARDSTICKS",
]

_WAGERS = ("complete", "bet", "raise")
_TEN, _JACK, _QUEEN, _KING, _ACE = 8, 9, 10, 11, 12


def _wager(names: Sequence[str]) -> str | None:
    return next((n for n in _WAGERS if n in names), None)


def _passive(names: Sequence[str]) -> str:
    for n in ("check", "bring_in", "call"):
        if n in names:
            return n
    return names[0]


class _Read:
    """The view read once: my cards, rivals' up cards, what is out."""

    def __init__(self, r: Reading) -> None:
        me = r.you
        self.names = r.names
        self.street: int = r.street
        mine = r.me
        self.hole = list(mine.hole)
        self.up = list(mine.up)
        self.cards = self.hole + self.up
        others = r.others
        self.rivals = [e for e in others if not e.folded]
        self.rival_up = [list(e.up) for e in self.rivals]
        self.out = [c for e in others for c in e.up]
        self.bring_in = r.bring_in
        self.me = me
        self.high: int = r.high
        self.my_bet: int = mine.bet
        self.raised = any(e.last_action in _WAGERS for e in others if not e.folded)
        self.raises = self.high // (10 if self.street <= 4 else 20)
        self.pot: int = r.pot


def _made(cards: Sequence[Card]) -> tuple[int, int]:
    """(kind, rank) of what the cards make now: 0 high card, 1 pair, 2 two pair,
    3 trips, 4 straight, 5 flush, 6 full house or better; rank of the top group."""
    counts = Counter(c.rank for c in cards)
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    suits = Counter(c.suit for c in cards)
    if groups[0][0] >= 4 or (groups[0][0] == 3 and len(groups) > 1 and groups[1][0] >= 2):
        return 6, groups[0][1]
    if suits and max(suits.values()) >= 5:
        return 5, max(c.rank for c in cards)
    if _straight(cards, 5):
        return 4, max(c.rank for c in cards)
    if groups[0][0] == 3:
        return 3, groups[0][1]
    if groups[0][0] == 2:
        if len(groups) > 1 and groups[1][0] == 2:
            return 2, groups[0][1]
        return 1, groups[0][1]
    return 0, groups[0][1]


def _straight(cards: Sequence[Card], need: int) -> bool:
    mask = 0
    for c in cards:
        mask |= 1 << c.rank
    mask = (mask << 1) | (mask >> 12)
    return any(bin((mask >> lo) & 0b11111).count("1") >= need for lo in range(10))


def _draw(cards: Sequence[Card]) -> bool:
    """Four to a flush or to a straight."""
    if len(cards) >= 7:
        return False
    suits = Counter(c.suit for c in cards)
    return max(suits.values()) >= 4 or _straight(cards, 4)


def _board(up: Sequence[Card]) -> tuple[int, int]:
    """What the up cards show: (kind, rank) with the kinds of ``_made``, pairs and trips only."""
    if not up:
        return 0, -1
    counts = Counter(c.rank for c in up)
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    if groups[0][0] >= 3:
        return 3, groups[0][1]
    if groups[0][0] == 2:
        two = len(groups) > 1 and groups[1][0] == 2
        return (2 if two else 1), groups[0][1]
    return 0, groups[0][1]


class TightAggressive:
    """The chart player: few hands, played hard; folds when beaten on board."""

    def __call__(self, view: View, rng: random.Random) -> str:
        r = _Read(read(view))
        names = r.names
        if len(names) == 1:
            return names[0]
        choice = self._third(r, rng) if r.street == 3 else self._later(r, rng)
        if choice == "fold" and "check" in names:
            choice = "check"
        return choice if choice in names else _passive(names)

    def _third(self, r: _Read, rng: random.Random) -> str:
        cards = r.cards
        ranks = sorted((c.rank for c in cards), reverse=True)
        counts = Counter(ranks)
        out = Counter(c.rank for c in r.out)
        out_suits = Counter(c.suit for c in r.out)
        wager = _wager(r.names)
        top_up = max((u[0].rank for u in r.rival_up if u), default=-1)
        strength = 0  # 0 fold, 1 call the bring-in, 2 call a completion, 3 complete / re-raise
        if ranks[0] == ranks[2]:
            strength = 4
        elif ranks[0] == ranks[1] or ranks[1] == ranks[2]:
            pair = ranks[1]
            kicker = ranks[2] if pair == ranks[0] else ranks[0]
            live = out[pair] == 0
            if pair >= _TEN and live:
                strength = 3
            elif pair >= _TEN or live and (kicker >= _KING or kicker > top_up):
                strength = 2
            elif live:
                strength = 1
        else:
            suits = Counter(c.suit for c in cards)
            if len(suits) == 1 and out_suits[cards[0].suit] <= 2 and ranks[0] >= _TEN:
                strength = 2
            elif len(suits) == 1 and out_suits[cards[0].suit] <= 1:
                strength = 1
            elif ranks[0] - ranks[2] <= 4 and len(counts) == 3 and ranks[2] >= 4:
                dead = sum(out[x] for x in range(ranks[2], ranks[0] + 1) if x not in counts)
                strength = 2 if dead <= 1 and ranks[0] >= _TEN else (1 if dead <= 2 else 0)
            elif ranks[1] >= _QUEEN and out[ranks[0]] + out[ranks[1]] == 0:
                strength = 1
        if "bring_in" in r.names:
            return "complete" if strength >= 3 else "bring_in"
        if not r.raised or r.raises == 0:  # facing at most the bring-in
            if strength >= 3 and wager:
                return wager
            if strength >= 1:
                return _passive(r.names)
            if wager and self._steal(r) and rng.random() < 0.6:
                return wager
            return "fold"
        if r.raises <= 1:  # a completion
            if strength >= 4 and wager:
                return wager
            return "call" if strength >= 2 else "fold"
        return "call" if strength >= 3 else "fold"

    def _steal(self, r: _Read) -> bool:
        """Folded to me with only the bring-in behind, and my door card beats every other."""
        if not r.up or r.up[0].rank < _TEN:
            return False
        live = [e for e in r.rivals if e.seat != r.bring_in]
        if any(e.last_action is None for e in live):
            return False
        return all(u[0].rank < r.up[0].rank for u in r.rival_up if u)

    def _later(self, r: _Read, rng: random.Random) -> str:
        kind, rank = _made(r.cards)
        draw = _draw(r.cards)
        wager = _wager(r.names)
        boards = [_board(u) for u in r.rival_up]
        best_board = max(boards, default=(0, -1))
        beaten = best_board > (kind, rank) and best_board[0] >= 1
        top_rival_card = max((c.rank for u in r.rival_up for c in u), default=-1)
        big_pair = kind == 1 and rank >= top_rival_card and not beaten
        facing = "call" in r.names
        if kind >= 3 or (kind == 2 and not beaten):
            if wager and (not facing or r.raises <= 2 or kind >= 4):
                return wager
            return _passive(r.names)
        if not facing:
            if wager and (big_pair and r.street <= 5 or kind == 2):
                return wager
            return "check"
        if beaten and not draw:
            return "fold"
        if r.street == 7:
            if kind == 2 or (kind == 1 and (rank >= top_rival_card or r.raises <= 1)):
                return "call"
            return "fold"
        if kind >= 1 or draw:
            if big_pair and wager and r.street == 4 and r.raises <= 1:
                return wager
            return "call"
        return "fold"


class CallingStation:
    """Checks when it can, else calls (or brings in); never bets, raises or folds."""

    def __call__(self, view: View, rng: random.Random) -> str:
        return _passive(read(view).names)


class Maniac:
    """Wagers most of the time with anything and hardly ever folds."""

    def __call__(self, view: View, rng: random.Random) -> str:
        reading = read(view)
        names = reading.names
        if len(names) == 1:
            return names[0]
        wager = _wager(names)
        if wager and rng.random() < 0.65:
            return wager
        street7_call = "call" in names and reading.street == 7
        if street7_call and rng.random() < 0.15 and _made(_Read(reading).cards)[0] == 0:
            return "fold"
        return _passive(names)


def _chance(r: _Read, rng: random.Random, samples: int) -> float:
    """Its sampled share of the pot against the live rivals' boards: random hidden cards
    for each of them, every up card it has seen out of the pack."""
    shown = set(r.cards).union(*r.rival_up)
    dead = [c for c in dict.fromkeys(r.out) if c not in shown]
    return sample_share(r.cards, r.rival_up, dead, rng, samples)


class EquityPlayer:
    """Bets, calls and folds by its sampled chance against the boards it sees."""

    samples = 300
    """Random deals per decision."""
    value = 0.15
    """Bet or raise with a chance over a fair share by this, plus ``step`` per wager made."""
    step = 0.08
    enter = 0.85
    """Third street: come in only with at least this share of a fair share."""

    def __call__(self, view: View, rng: random.Random) -> str:
        reading = read(view)
        names = reading.names
        if len(names) == 1:
            return names[0]
        r = _Read(reading)
        eq = _chance(r, rng, self.samples)
        fair = 1.0 / (len(r.rival_up) + 1)
        wager = _wager(names)
        bet = 10 if r.street <= 4 else 20
        wagers = r.high // bet
        if wager and eq >= fair + self.value + self.step * wagers:
            return wager
        call = next((b for b in reading.legal if b.action == "call"), None)
        if call is None:
            return _passive(names)
        to_call = call.put
        odds = to_call / (r.pot + to_call) if to_call else 0.0
        if r.street == 3 and "bring_in" not in names and eq < fair * self.enter:
            return "fold"
        return "call" if eq >= odds else "fold"


def _scary(r: _Read) -> bool:
    """Its up cards look strong: a pair, three to a flush or to a straight, or a new ace or
    king over every card the live rivals show."""
    up = r.up
    if len(up) < 2:
        return False
    if len({c.rank for c in up}) < len(up):
        return True
    if len(up) >= 3:
        if max(Counter(c.suit for c in up).values()) >= 3:
            return True
        if _straight(up, 3) and max(c.rank for c in up) - min(c.rank for c in up) <= 4:
            return True
    newest = up[-1].rank
    top_rival = max((c.rank for u in r.rival_up for c in u), default=-1)
    return newest >= _KING and newest > top_rival


class ScareBluffer(TightAggressive):
    """Bets a scary board whatever it holds; otherwise the chart player."""

    bluff = 0.85
    """Chance to wager a scary board when it may."""

    def _later(self, r: _Read, rng: random.Random) -> str:
        if not _scary(r):
            return super()._later(r, rng)
        wager = _wager(r.names)
        if wager and r.raises <= 2 and rng.random() < self.bluff:
            return wager
        return _passive(r.names)


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

    def __call__(self, view: View, rng: random.Random) -> str:
        reading = read(view)
        names = reading.names
        if len(names) == 1:
            return names[0]
        r = _Read(reading)
        wager = _wager(names)
        if wager and _chance(r, rng, self.samples) > 0.5:
            return wager
        return _passive(names)


REFERENCES: dict[str, type] = {
    "tag": TightAggressive,
    "caller": CallingStation,
    "maniac": Maniac,
    "equity": EquityPlayer,
    "scare": ScareBluffer,
}
"""The opponents the benchmark measures the levels against."""

YARDSTICKS: dict[str, type] = {"bound": StationBound}
"""Players to read a figure against, not to beat (``bench_bots.py --pair``)."""
