"""Hand names as the player reads them, in the player's language.

The server and the hand histories name a hand in ``stud-hh/1``'s English (``common.hands``:
``"full house, kings full of fours"``), which the exports keep.  The client reads that name
back to its category and ranks (``parse``) and words it again from whole templates, one a
category, with the rank words each template needs (``"kings"`` after *two pair* may be
another word than after *three of a kind*: French says *brelan de rois* but *deux paires,
rois et neuf*).  A name it cannot read is shown as it came.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from client.i18n import pgettext

__all__ = ["hand_words", "parse", "plural_rank", "showing_words", "with_hand_words"]

ENGLISH = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
           "jack", "queen", "king", "ace")  # fmt: skip
_PLURAL = {(w + ("es" if w == "six" else "s")): r for r, w in enumerate(ENGLISH)}
_SINGLE = {w: r for r, w in enumerate(ENGLISH)}

# (category, English pattern); ``A`` and ``B`` stand for the leading ranks, in plural (s)
# or singular (1) form.
_PATTERNS = (
    ("royal", r"royal flush"),
    ("straight_flush", r"straight flush, (?P<a1>\w+) high"),
    ("quads", r"four of a kind, (?P<as>\w+)"),
    ("full_house", r"full house, (?P<as>\w+) full of (?P<bs>\w+)"),
    ("flush", r"flush, (?P<a1>\w+) high"),
    ("straight", r"straight, (?P<a1>\w+) high"),
    ("trips", r"three of a kind, (?P<as>\w+)"),
    ("two_pair", r"two pair, (?P<as>\w+) and (?P<bs>\w+)"),
    ("pair", r"one pair, (?P<as>\w+)"),
    ("high_card", r"high card, (?P<a1>\w+)"),
)
_COMPILED = tuple((kind, re.compile(pattern)) for kind, pattern in _PATTERNS)


def parse(name: str) -> tuple[str, int, int] | None:
    """``(category, rank, second rank)`` of a ``stud-hh/1`` hand name (ranks 0 for a two
    to 12 for an ace; -1 where the category has none), or None.

    >>> parse("full house, kings full of fours")
    ('full_house', 11, 2)
    """
    name = name.strip()
    for kind, pattern in _COMPILED:
        m = pattern.fullmatch(name)
        if m is None:
            continue
        got = m.groupdict()
        a = _PLURAL.get(got["as"]) if "as" in got else _SINGLE.get(got.get("a1", ""), -1)
        b = _PLURAL.get(got["bs"]) if "bs" in got else -1
        if a is None or b is None:
            return None
        return kind, a, b
    return None


# -- rank words, one tuple a grammatical use, twos first --------------------------------


def _high() -> tuple[str, ...]:
    """A lone rank after *high card*: "high card, king"."""
    # Translators: the rank in "high card, {rank}" (a card's rank alone, singular).
    return (
        pgettext("rank: high card", "two"),
        pgettext("rank: high card", "three"),
        pgettext("rank: high card", "four"),
        pgettext("rank: high card", "five"),
        pgettext("rank: high card", "six"),
        pgettext("rank: high card", "seven"),
        pgettext("rank: high card", "eight"),
        pgettext("rank: high card", "nine"),
        pgettext("rank: high card", "ten"),
        pgettext("rank: high card", "jack"),
        pgettext("rank: high card", "queen"),
        pgettext("rank: high card", "king"),
        pgettext("rank: high card", "ace"),
    )


def _top() -> tuple[str, ...]:
    """The top card of a straight or flush: "straight, king high"."""
    # Translators: the rank in "straight, {rank} high" and "flush, {rank} high" (singular;
    # where your language says "to the king", put the preposition and article here).
    return (
        pgettext("rank: top of a straight or flush", "two"),
        pgettext("rank: top of a straight or flush", "three"),
        pgettext("rank: top of a straight or flush", "four"),
        pgettext("rank: top of a straight or flush", "five"),
        pgettext("rank: top of a straight or flush", "six"),
        pgettext("rank: top of a straight or flush", "seven"),
        pgettext("rank: top of a straight or flush", "eight"),
        pgettext("rank: top of a straight or flush", "nine"),
        pgettext("rank: top of a straight or flush", "ten"),
        pgettext("rank: top of a straight or flush", "jack"),
        pgettext("rank: top of a straight or flush", "queen"),
        pgettext("rank: top of a straight or flush", "king"),
        pgettext("rank: top of a straight or flush", "ace"),
    )


def _kind() -> tuple[str, ...]:
    """The rank of a pair, trips or quads: "three of a kind, kings"."""
    # Translators: the rank in "one pair, {ranks}", "three of a kind, {ranks}" and "four of a
    # kind, {ranks}" (plural; where your language says "of kings", put "of" here: d'as).
    return (
        pgettext("ranks: of a kind", "twos"),
        pgettext("ranks: of a kind", "threes"),
        pgettext("ranks: of a kind", "fours"),
        pgettext("ranks: of a kind", "fives"),
        pgettext("ranks: of a kind", "sixes"),
        pgettext("ranks: of a kind", "sevens"),
        pgettext("ranks: of a kind", "eights"),
        pgettext("ranks: of a kind", "nines"),
        pgettext("ranks: of a kind", "tens"),
        pgettext("ranks: of a kind", "jacks"),
        pgettext("ranks: of a kind", "queens"),
        pgettext("ranks: of a kind", "kings"),
        pgettext("ranks: of a kind", "aces"),
    )


def _two_pair() -> tuple[str, ...]:
    """The ranks of two pair: "two pair, kings and fours"."""
    # Translators: the ranks in "two pair, {high} and {low}" (plural).
    return (
        pgettext("ranks: two pair", "twos"),
        pgettext("ranks: two pair", "threes"),
        pgettext("ranks: two pair", "fours"),
        pgettext("ranks: two pair", "fives"),
        pgettext("ranks: two pair", "sixes"),
        pgettext("ranks: two pair", "sevens"),
        pgettext("ranks: two pair", "eights"),
        pgettext("ranks: two pair", "nines"),
        pgettext("ranks: two pair", "tens"),
        pgettext("ranks: two pair", "jacks"),
        pgettext("ranks: two pair", "queens"),
        pgettext("ranks: two pair", "kings"),
        pgettext("ranks: two pair", "aces"),
    )


def _full_of() -> tuple[str, ...]:
    """The three of a full house: "full house, KINGS full of fours"."""
    # Translators: the rank of the three cards in "full house, {high} full of {low}".
    return (
        pgettext("ranks: full house, the three", "twos"),
        pgettext("ranks: full house, the three", "threes"),
        pgettext("ranks: full house, the three", "fours"),
        pgettext("ranks: full house, the three", "fives"),
        pgettext("ranks: full house, the three", "sixes"),
        pgettext("ranks: full house, the three", "sevens"),
        pgettext("ranks: full house, the three", "eights"),
        pgettext("ranks: full house, the three", "nines"),
        pgettext("ranks: full house, the three", "tens"),
        pgettext("ranks: full house, the three", "jacks"),
        pgettext("ranks: full house, the three", "queens"),
        pgettext("ranks: full house, the three", "kings"),
        pgettext("ranks: full house, the three", "aces"),
    )


def _full_with() -> tuple[str, ...]:
    """The pair of a full house: "full house, kings full of FOURS"."""
    # Translators: the rank of the pair in "full house, {high} full of {low}" (German
    # takes the dative here: "über Assen").
    return (
        pgettext("ranks: full house, the pair", "twos"),
        pgettext("ranks: full house, the pair", "threes"),
        pgettext("ranks: full house, the pair", "fours"),
        pgettext("ranks: full house, the pair", "fives"),
        pgettext("ranks: full house, the pair", "sixes"),
        pgettext("ranks: full house, the pair", "sevens"),
        pgettext("ranks: full house, the pair", "eights"),
        pgettext("ranks: full house, the pair", "nines"),
        pgettext("ranks: full house, the pair", "tens"),
        pgettext("ranks: full house, the pair", "jacks"),
        pgettext("ranks: full house, the pair", "queens"),
        pgettext("ranks: full house, the pair", "kings"),
        pgettext("ranks: full house, the pair", "aces"),
    )


def _name_templates() -> dict[str, str]:
    # Translators: a hand's name as the table shows it; {rank}, {ranks}, {high}, {low}
    # are rank words ("king", "kings").
    return {
        "royal": pgettext("hand name", "royal flush"),
        "straight_flush": pgettext("hand name", "straight flush, {rank} high"),
        "quads": pgettext("hand name", "four of a kind, {ranks}"),
        "full_house": pgettext("hand name", "full house, {high} full of {low}"),
        "flush": pgettext("hand name", "flush, {rank} high"),
        "straight": pgettext("hand name", "straight, {rank} high"),
        "trips": pgettext("hand name", "three of a kind, {ranks}"),
        "two_pair": pgettext("hand name", "two pair, {high} and {low}"),
        "pair": pgettext("hand name", "one pair, {ranks}"),
        "high_card": pgettext("hand name", "high card, {rank}"),
    }


def _with_templates() -> dict[str, str]:
    # Translators: a hand won or shown with, put into "Ann wins 164 {with_hand}": the
    # preposition, the article and the case your language needs go here.
    return {
        "royal": pgettext("with a hand", "with a royal flush"),
        "straight_flush": pgettext("with a hand", "with a straight flush, {rank} high"),
        "quads": pgettext("with a hand", "with four of a kind, {ranks}"),
        "full_house": pgettext("with a hand", "with a full house, {high} full of {low}"),
        "flush": pgettext("with a hand", "with a flush, {rank} high"),
        "straight": pgettext("with a hand", "with a straight, {rank} high"),
        "trips": pgettext("with a hand", "with three of a kind, {ranks}"),
        "two_pair": pgettext("with a hand", "with two pair, {high} and {low}"),
        "pair": pgettext("with a hand", "with one pair, {ranks}"),
        "high_card": pgettext("with a hand", "with high card, {rank}"),
    }


def _fill(kind: str, a: int, b: int, templates: Callable[[], dict[str, str]]) -> str:
    words = {"rank": "", "ranks": "", "high": "", "low": ""}
    if kind in ("straight_flush", "flush", "straight"):
        words["rank"] = _top()[a]
    elif kind == "high_card":
        words["rank"] = _high()[a]
    elif kind in ("quads", "trips", "pair"):
        words["ranks"] = _kind()[a]
    elif kind == "two_pair":
        words["high"], words["low"] = _two_pair()[a], _two_pair()[b]
    elif kind == "full_house":
        words["high"], words["low"] = _full_of()[a], _full_with()[b]
    return templates()[kind].format(**words)


def hand_words(name: str) -> str:
    """A ``stud-hh/1`` hand name in the player's language (as it came when unreadable)."""
    got = parse(name)
    return name.strip() if got is None else _fill(*got, _name_templates)


def with_hand_words(name: str) -> str:
    """``"with a full house, nines full of fours"``; empty when no hand was shown."""
    got = parse(name)
    if got is None:
        # Translators: a hand name the game could not read, shown as it came.
        return pgettext("with a hand", "with {hand}").format(hand=name.strip()) if name else ""
    return _fill(*got, _with_templates)


def showing_words(kind: str, a: int, b: int) -> str:
    """The up cards' hand as a player says it (R-O2): "pair of nines", "king high"."""
    # Translators: a hand showing in the up cards, in "Ann's {showing} is the best hand
    # showing".
    if kind == "high_card":
        return pgettext("showing", "{rank} high").format(rank=_high()[a])
    if kind == "pair":
        return pgettext("showing", "pair of {ranks}").format(ranks=_kind()[a])
    if kind == "two_pair":
        return pgettext("showing", "two pair, {high} and {low}").format(
            high=_two_pair()[a], low=_two_pair()[b]
        )
    if kind == "trips":
        return pgettext("showing", "three {ranks}").format(ranks=_kind()[a])
    return pgettext("showing", "four {ranks}").format(ranks=_kind()[a])


def plural_rank(rank: int) -> str:
    """A rank's plain plural, ``"kings"`` (the ranks of two pair)."""
    return _two_pair()[rank]
