"""Cards seen this hand and what they mean for a seat's draws: plain data, no I/O.

``cards_seen(view)`` takes a ``common.schema.SeatView`` (the wire's ``view``
decoded, ``common.views.seat_view``, or a replay's ``common.replay.table_after``)
and returns every card in it: the viewer's own hole cards, every up card (a
folded seat's too: they stay on the table and in the view) and every hand
shown.  It reads nothing else, so it can never know more than the view; a
property test holds it to the cards the seat may see.

``draws(mine, seen, to_come)`` says, for the seat's best flush, straight and
trips draws, which cards it still needs and how many of them are live (not
among the cards seen).  A card in another seat's hole is unknown, so it counts
as live: that is what a player at the table can count.

>>> d = draws(["Ah", "Kh", "7h", "2c"], {"Ah", "Kh", "7h", "2c", "9h", "Qh"}, 3)
>>> d[0].kind, d[0].need, d[0].live
('flush', 2, 8)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from common.schema import SeatView

__all__ = ["RANKS", "SUITS", "Draw", "cards_seen", "draws", "viewer_cards"]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
_RANK_WORDS = {"2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes",
               "7": "sevens", "8": "eights", "9": "nines", "T": "tens", "J": "jacks",
               "Q": "queens", "K": "kings", "A": "aces"}  # fmt: skip
_SUIT_WORDS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def _is_card(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 2 and value[0] in RANKS and value[1] in SUITS


def _cards(values: Iterable[str] | None) -> list[str]:
    return [c for c in values if _is_card(c)] if values is not None else []


def viewer_cards(view: SeatView) -> list[str]:
    """The viewer's own cards (hole and up) in ``view``; none for a watcher."""
    me = view.seats.get(view.you) if view.you is not None else None
    if me is None:
        return []
    return _cards(me.hole) + _cards(me.up)


def cards_seen(view: SeatView) -> set[str]:
    """Every card ``view`` shows: the viewer's hole cards, all up cards, hands shown."""
    seen: set[str] = set()
    for entry in view.seats.values():
        seen.update(_cards(entry.up))
        if entry.seat == view.you and view.you is not None:
            seen.update(_cards(entry.hole))
        if entry.shown is not None:
            seen.update(_cards(entry.shown.cards))
    return seen


@dataclass(frozen=True, slots=True)
class Draw:
    """A draw: ``need`` more cards from ``wanted``, of which ``live`` are not seen.

    ``made`` says the hand is already there (a flush made, trips made); then
    ``wanted`` is what would improve it the same way and ``need`` is 0.
    """

    kind: str  # flush, straight or trips
    name: str  # "hearts", "5 to 9", "kings"
    need: int
    wanted: tuple[str, ...]  # card codes still live that help
    live: int
    made: bool = False

    def words(self) -> str:
        """``"Flush (hearts): 2 to come, 7 live"``."""
        title = {"flush": "Flush", "straight": "Straight", "trips": "Trips"}[self.kind]
        if self.made:
            return f"{title} ({self.name}): made"
        need = "1 card" if self.need == 1 else f"{self.need} cards"
        what = f"a {self.name}" if self.kind == "straight" and self.need == 1 else self.name
        return f"{title} ({what}): needs {need}, {self.live} live"


def _flush(mine: Collection[str], seen: Collection[str], to_come: int) -> Draw | None:
    found = []
    for suit in SUITS:
        need = max(0, 5 - sum(c[1] == suit for c in mine))
        if need > min(to_come, 2) and need:  # three of a suit or better: a real draw
            continue
        wanted = tuple(r + suit for r in RANKS if r + suit not in seen)
        found.append(Draw("flush", _SUIT_WORDS[suit], need, wanted, len(wanted), need == 0))
    return _best(found)


def _best(found: list[Draw]) -> Draw | None:
    """The draw needing the fewest cards, then with the most live; the first of equals."""
    return min(found, key=lambda d: (d.need, -d.live), default=None)


def _straight(mine: Collection[str], seen: Collection[str], to_come: int) -> Draw | None:
    """The straight needing the fewest cards; with one card to find, every rank that
    fills some straight counts (an open-ended draw has two)."""
    ranks = {c[0] for c in mine}
    # Windows of five ranks: the wheel (A-2-3-4-5), then 2-6 up to T-A.
    windows = [["A", "2", "3", "4", "5"]] + [list(RANKS[i : i + 5]) for i in range(9)]
    found: list[tuple[int, int, list[str], tuple[str, ...]]] = []
    for top, window in enumerate(windows):
        missing = [r for r in window if r not in ranks]
        need = len(missing)
        if need > min(to_come, 2) and need:
            continue
        wanted = tuple(r + s for r in missing for s in SUITS if r + s not in seen)
        # Dead when a rank it needs has no live card left.
        if any(not any(c[0] == r for c in wanted) for r in missing):
            continue
        found.append((need, top, window, wanted))
    if not found:
        return None
    need = min(f[0] for f in found)
    best = [f for f in found if f[0] == need]
    if need == 0:
        window = max(best, key=lambda f: f[1])[2]
        return Draw("straight", _span(window), 0, (), 0, made=True)
    if need == 1:
        wanted = tuple(sorted({c for f in best for c in f[3]}, key=_order))
        ranks_needed = sorted({c[0] for c in wanted}, key=RANKS.index)
        name = " or ".join(_rank_word(r) for r in ranks_needed)
        return Draw("straight", name, 1, wanted, len(wanted))
    _, _, window, wanted = max(best, key=lambda f: (len(f[3]), f[1]))
    return Draw("straight", _span(window), need, wanted, len(wanted))


def _rank_word(rank: str) -> str:
    return "10" if rank == "T" else rank


def _span(window: list[str]) -> str:
    return f"{_rank_word(window[0])} to {_rank_word(window[-1])}"


def _order(card: str) -> tuple[int, int]:
    return RANKS.index(card[0]), SUITS.index(card[1])


def _trips(mine: Collection[str], seen: Collection[str], to_come: int) -> Draw | None:
    counts: dict[str, int] = {}
    for c in mine:
        counts[c[0]] = counts.get(c[0], 0) + 1
    found = []  # high ranks first: the higher rank of equals
    for rank, n in sorted(counts.items(), key=lambda kv: -RANKS.index(kv[0])):
        need = max(0, 3 - n)
        if need > min(to_come, 1) and need:  # a pair or better
            continue
        wanted = tuple(rank + s for s in SUITS if rank + s not in seen)
        if need and len(wanted) < need:
            continue
        found.append(Draw("trips", _RANK_WORDS[rank], need, wanted, len(wanted), need == 0))
    return _best(found)


def draws(mine: Iterable[str], seen: Collection[str], to_come: int) -> list[Draw]:
    """The seat's best flush, straight and trips draws that can still come in
    with ``to_come`` cards; each counts the cards it needs that are live."""
    own = [c for c in mine if _is_card(c)]
    seen_all = set(seen) | set(own)
    out = []
    for find in (_flush, _straight, _trips):
        d = find(own, seen_all, to_come)
        if d is not None:
            out.append(d)
    return out
