"""Computer-seat levels: what a person picks, and the brain that plays each one.

A *level* is an id, a name and a line (``common.levels``) and a ``Style`` of the one
policy (``server.brain.policy``).  ``brain(level)`` makes a fresh player for one seat,
called like ``choose_action``.

Invariants:

- A brain reads nothing but its own seat's views (``choose``, and ``observe`` at a
  hand's end) and draws every random number from the ``rng`` it is given: the same
  view, memory and RNG state give the same choice.
- Its memory models each rival from what the seat saw (``server.brain.rivals``), for
  the night: ``meet(names)`` at each match start, ``reset()`` at a new night.
- It returns only one of the view's legal actions, never folds when checking is
  free (R-B5), and never folds a hand that no rival can beat.

The levels, weakest first:

- ``newcomer``: a gentle first opponent.  Plays too many hands, calls too
  much, bets only good hands and raises only great ones, never bluffs.
- ``regular``: the solid club player: sound starting hands and equity-based betting,
  but it bets only when well ahead, never bluffs or semi-bluffs, pays off too often,
  folds a lot on third street heads-up, forgets folded cards, and is blind to how its
  rivals play.
- ``shark``: the strongest, with ``Reads`` (``server.brain.style``): heads-up on
  third street it slow-plays strong hands against rivals that fold to completions and
  re-steals from rivals that complete too often, defends against steals, reads each
  rival's range from how it played
  (``server.brain.rivals``), counts heads-up seventh street exactly, value-bets thinly
  against callers, never bluffs a rival that hardly ever folds, and adapts to each
  rival over the night.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace

from common.levels import DEFAULT_LEVEL, LEVEL_IDS, level_info
from server.brain.equity import unbeatable
from server.brain.policy import play
from server.brain.reading import WAGERS, Reading, View, read
from server.brain.rivals import Memory, learn, settle, wagered, watch
from server.brain.style import SOLID, Reads, Style

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Brain", "Level", "brain", "level_id"]


@dataclass(frozen=True, slots=True)
class Level:
    """A level a person can pick."""

    id: str
    name: str
    description: str
    style: Style


def _level(level: str, style: Style) -> Level:
    info = level_info(level)
    assert info is not None
    return Level(info.id, info.name, info.description, style)


NEWCOMER = _level(
    "newcomer",
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
REGULAR = _level(
    "regular",
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
SHARK = _level(
    "shark",
    replace(
        SOLID,
        name="shark",
        evaluations=1600,
        min_samples=200,
        max_samples=450,
        respect=0.0,  # its ranges credit bettors instead
        street_call_factors=(1.3, 1.4, 1.35, 1.15),  # its rivals bet honestly more often than not
        call_down=False,
        semi_bluff_share=0.9,
        complete_bring_in=0.35,
        loose_call=1.2,
        reads=Reads(),
    ),
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


class Brain:
    """One computer seat's player at one level; call it like ``choose_action``."""

    def __init__(self, level: Level) -> None:
        self.level = level
        self.memory = Memory()

    def reset(self) -> None:
        """A new night: forget every rival."""
        self.memory = Memory()

    def meet(self, names: Mapping[int, str]) -> None:
        """Who sits where this match (seat -> name): the memory knows rivals by name."""
        self.memory.meet(names)

    def __call__(self, view: View, rng: random.Random) -> str:
        return self.choose(view, rng)

    def choose(self, view: View, rng: random.Random) -> str:
        """One of the view's legal actions (``ValueError`` if it offers none)."""
        r = read(view)
        names = r.names
        if not names:
            raise ValueError(f"seat {r.you} has no legal action in this view")
        watch(self.memory, r)
        style = self.level.style
        if style.reads:
            settle(self.memory, r)
        if len(names) == 1:
            return names[0]
        choice = play(r, rng, style, self.memory)
        if choice == "fold" and _unbeatable(r):
            choice = "call"  # no level folds a hand no rival can beat
        if style.reads and choice in WAGERS:  # to learn who folds to our wagers
            on = self.memory.wagered_on
            on[r.street] = on.get(r.street, 0) + 1
            wagered(self.memory, r)
        return choice

    def observe(self, view: View) -> None:
        """The seat's view once a hand is over: learn who entered, folded and showed what."""
        r = read(view)
        if self.level.style.reads:
            settle(self.memory, r)
        learn(self.memory, r)


def _unbeatable(r: Reading) -> bool:
    """Seventh street: no way the live rivals' unseen cards beat this seat's hand."""
    if r.street != 7:
        return False
    me = r.me
    mine = list(me.hole + me.up)
    if len(mine) != 7:
        return False
    others = r.others
    dead = [c for e in others for c in e.up]
    live = [e.up for e in others if not e.folded and len(e.up) == 4]
    return unbeatable(mine, live, dead)
