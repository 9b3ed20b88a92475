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

from common.cards import Card
from common.equity import FULL_DECK, Weighs, sample_share
from common.hands import evaluate, evaluator_tables
from server.brain.rivals import Range

__all__ = ["FULL_DECK", "Weighs", "equity", "exact_seventh", "unbeatable"]

_FLUSH_SUIT, _RANK_VALUE, _FLUSH_VALUE = evaluator_tables()


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
    This is ``common.equity.sample_share`` with ``dead`` made disjoint.

    >>> from common.cards import parse_many
    >>> rng = random.Random(1)
    >>> quads = parse_many("As Ah Ad Ac Kd Qd 2c")
    >>> equity(quads, [parse_many("Ks Kh 2d 3d")], [], rng, 50) > 0.95
    True
    """
    shown = set(mine).union(*rivals_up)
    rest = [c for c in dict.fromkeys(dead) if c not in shown]
    return sample_share(mine, rivals_up, rest, rng, samples, weights)


def exact_seventh(
    mine: Sequence[Card],
    rival: Range,
    dead: Sequence[Card],
    by_kind: tuple[list[float], list[float]] | None = None,
) -> tuple[float, bool]:
    """Heads-up on seventh street: every way the rival's three unseen cards can lie,
    weighted by its range.  Returns (share of the pot, whether any hand beats ours).
    ``by_kind`` (two lists of nine zeros) is filled with the weight of the rival's
    hands of each kind (``Category``) and the share of it ours wins."""
    me = evaluate(mine)
    seen = set(mine).union(dead).union(rival.up)
    unseen = [c for c in FULL_DECK if c not in seen]
    codes = [int(c) for c in unseen]  # plain ints add faster than ``Card``s
    base = sum(map(int, rival.up))
    n = len(unseen)
    won = 0.0
    total = 0.0
    beatable = False
    flush_suit, rank_value, flush_value = _FLUSH_SUIT, _RANK_VALUE, _FLUSH_VALUE
    up = rival.up
    # The weight of "a and b were the first two hole cards", for every pair.
    pair_w = [[1.0] * n for _ in range(n)]
    if rival.weighs_holes:
        hole_weight = rival.hole_weight
        for i in range(n):
            row = pair_w[i]
            for j in range(i + 1, n):
                row[j] = hole_weight(unseen[i], unseen[j])
    kinds = rival.river or (
        (rival.w_bluff, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0) if rival.aggressive else (1.0,) * 9
    )
    for i in range(n - 2):
        a = codes[i]
        row_i = pair_w[i]
        for j in range(i + 1, n - 1):
            b = codes[j]
            sab = base + a + b
            w_ij = row_i[j]
            row_j = pair_w[j]
            for k in range(j + 1, n):
                c = codes[k]
                s = sab + c
                bits = flush_suit[s & 0xFF]
                if bits is None:
                    v = rank_value[s >> 8]
                else:
                    flushed = 0
                    for card in (a, b, c, *up):
                        flushed |= bits[card]
                    v = flush_value[flushed]
                # any two of the three may have been the first two hole cards
                kind = v >> 20
                w = (w_ij + row_i[k] + row_j[k]) / 3.0 * kinds[kind]
                total += w
                if me > v:
                    share = w
                elif me == v:
                    share = w / 2
                else:
                    beatable = True
                    share = 0.0
                won += share
                if by_kind is not None:
                    by_kind[0][kind] += w
                    by_kind[1][kind] += share
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
