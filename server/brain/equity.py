"""Showdown equity: a seat's expected share of the pot, by sampling or by counting.

``equity`` deals the unseen cards at random many times and compares complete
seven-card hands with ``common.hands.evaluate`` (ties split).  Rivals are either
random hands (``weights=None``) or each weighted by a ``Range``: a deal counts as
much as the product of the rivals' weights for the hidden cards it gave them.
``exact_seventh`` counts every way a lone rival's three unseen cards can lie.

Invariants:

- Every card the seat can see is out of the pack: its own cards, every rival's
  up cards and ``dead`` (folded seats' up cards, when the player counts them).
- Each random number is drawn from the ``rng`` passed in, ``total`` of them per
  sample (one per unseen card dealt), whatever the weights: the same RNG state
  gives the same result, and leaves the RNG in the same state.
- Unweighted, the result is exactly (wins + split shares) / samples; a weight of
  1 for every deal gives the same float.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from common.cards import SUIT_BITS, Card, full_deck
from common.hands import evaluate, evaluator_tables
from server.brain.rivals import Range
from server.brain.starting import is_trash

__all__ = ["FULL_DECK", "Weighs", "equity", "exact_seventh", "unbeatable"]

FULL_DECK: tuple[Card, ...] = tuple(full_deck())
"""The pack in a fixed order: the unseen cards are always drawn from it in this order."""
_SUIT_MASK = (1 << SUIT_BITS) - 1
_FLUSH_SUIT, _RANK_VALUE, _FLUSH_VALUE = evaluator_tables()


class Weighs(Protocol):
    """A rival's range: how likely it is to hold ``hidden`` (its down cards first)."""

    def weight(self, hidden: Sequence[Card]) -> float: ...


def equity(
    mine: Sequence[Card],
    rivals_up: Sequence[Sequence[Card]],
    dead: Sequence[Card],
    rng: random.Random,
    samples: int,
    weights: Sequence[Weighs] | None = None,
) -> float:
    """Expected share of the pot at showdown against ``rivals_up`` (their up cards).

    ``mine`` are this seat's cards, ``dead`` every other card it has seen
    (``rivals_up`` may repeat them).  The rest of each seven-card hand is drawn
    from the unseen cards; ties split.  ``weights``, one per rival, weigh each
    deal by how likely the rivals' hidden cards are (0.5 if every deal weighs 0).

    >>> from common.cards import parse_many
    >>> rng = random.Random(1)
    >>> quads = parse_many("As Ah Ad Ac Kd Qd 2c")
    >>> equity(quads, [parse_many("Ks Kh 2d 3d")], [], rng, 50) > 0.95
    True
    """
    seen = set(mine).union(dead)
    for up in rivals_up:
        seen.update(up)
    unseen = [c for c in FULL_DECK if c not in seen]
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
    ranged = None
    if weights is not None:
        ranged = [(r, lo, hi) for r, (_, lo, hi) in zip(weights, slots, strict=True)]
    won = 0.0
    weight_sum = 0.0
    w = 1.0
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
        if ranged is not None:
            w = 1.0
            for r, lo, hi in ranged:
                w *= r.weight(drawn[lo:hi])
            if w <= 0.0:
                continue
        me = evaluate(mine + drawn[:need_me])
        best = 0
        ties = 1
        for up, lo, hi in slots:
            v = evaluate(up + drawn[lo:hi])
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


def exact_seventh(mine: Sequence[Card], rival: Range, dead: Sequence[Card]) -> tuple[float, bool]:
    """Heads-up on seventh street: every way the rival's three unseen cards can lie,
    weighted by its range.  Returns (share of the pot, whether any hand beats ours)."""
    me = evaluate(mine)
    seen = set(mine).union(dead).union(rival.up)
    unseen = [c for c in FULL_DECK if c not in seen]
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
                if is_trash((unseen[i], unseen[j], door)):
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


def unbeatable(
    mine: Sequence[Card], rivals_up: Sequence[Sequence[Card]], dead: Sequence[Card]
) -> bool:
    """Seventh street: no way any rival's three unseen cards (with its four ``rivals_up``)
    beat ``mine`` (seven cards); ``dead`` are the other cards showing."""
    for up in rivals_up:
        rival = Range(list(up), 3, False, False, 1.0, 1.0)
        if exact_seventh(mine, rival, dead)[1]:
            return False
    return True
