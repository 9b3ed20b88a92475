"""How a computer seat plays a turn: one policy, parameterised by a ``Style``.

``choose_action(view, rng, style)`` is the plain player: a pure function from a seat's
view to one of its legal actions' names.  The levels (``server.brain.levels``) are
``Style``s played by the same ``play``; the strongest adds ``Reads`` of each rival.

Invariants:

- The view is read once, through ``server.brain.reading``, and never changed.
- Every random number comes from the ``rng`` passed in, in a fixed order: the
  same view, memory, style and RNG state give the same choice and leave the RNG
  in the same state.
- The choice is one of the view's legal actions.  It never folds when checking
  is free (R-B5) and never folds the bring-in (R-B2: those buttons are not
  offered); a choice that is not offered becomes a call, else the first button.

How it plays:

- Third street: a starting-hand class (``server.brain.starting``), downgraded
  when the cards it needs are showing.  Trash folds to a completion, strong
  hands complete and raise, a lone late seat may steal the bring-in.  A player
  with ``Reads``, heads-up against a rival that folds to completions, slow-plays
  its strong hands instead (the rival stays in to pay the big bets) and re-raises
  the completions of a rival that completes too often to hold a hand.
- Fourth street on: equity (``server.brain.equity``) against the rivals' up
  cards.  It bets and raises for value, sometimes semi-bluffs strong draws on
  early streets, calls on pot odds and folds the rest.  Rivals who bet into it
  are given credit for better than random hands (``respect``); a player with
  ``Reads`` weighs their hidden cards by how they played instead, and counts heads-up
  seventh street exactly (``_river_bet_gain``).  Against rivals that hardly ever fold
  (``RivalModel.gives_up``) it wagers with any equity over a fair share plus a small
  margin, and never bluffs or steals.
"""

from __future__ import annotations

import random

from server.brain.equity import equity, exact_seventh
from server.brain.reading import WAGERS, Reading, View, read
from server.brain.rivals import Memory, RivalModel, ranges_for
from server.brain.starting import starting_class
from server.brain.style import SOLID, Reads, Style

__all__ = ["choose_action", "play"]

_JACK = 9


def choose_action(view: View, rng: random.Random, style: Style = SOLID) -> str:
    """One action name from the view's legal actions, for the seat the view is for.

    ``ValueError`` if the view offers no action (not this seat's turn).
    """
    r = read(view)
    names = r.names
    if not names:
        raise ValueError(f"seat {r.you} has no legal action in this view")
    if len(names) == 1:
        return names[0]
    return play(r, rng, style)


def play(r: Reading, rng: random.Random, style: Style, memory: Memory | None = None) -> str:
    """The choice for a reading that offers two buttons or more.  Only a style with
    ``reads`` uses ``memory`` (adding a model for each live rival it reads); without
    one it starts from an empty memory."""
    names = r.names
    if style.blunder and rng.random() < style.blunder:
        return rng.choice(names)
    choice = _Turn(r, rng, style, memory).choose()
    if choice == "fold" and "check" in names:
        choice = "check"  # never give up a free card (R-B5)
    if choice not in names:
        choice = "call" if "call" in names else names[0]
    return choice


class _Turn:
    """One decision: the reading taken apart once, then the rules of thumb above."""

    def __init__(self, r: Reading, rng: random.Random, style: Style, memory: Memory | None) -> None:
        self.rng = rng
        self.style = style
        self.street = r.street
        self.legal = {b.action: b for b in r.legal}
        me = r.me
        self.hole = list(me.hole)
        self.up = list(me.up)
        others = r.others
        self.others = others
        self.live = [e for e in others if not e.folded]
        self.rivals = [list(e.up) for e in self.live]
        self.dead = [c for e in others for c in e.up if style.dead_cards or not e.folded]
        self.pot = r.pot
        self.high = r.high
        self.bring_in_seat = r.bring_in
        self.bet = self._bet_size()
        self.wagers = self.high // self.bet if self.bet else 0
        self.rival_wagers = max(self.wagers - (me.last_action in WAGERS), 0)
        call = self.legal.get("call")
        self.to_call = call.put if call else 0
        self.heads_up = len(self.live) == 1
        self.reads = style.reads
        self.models: list[RivalModel] = []
        if self.reads:
            if memory is None:
                memory = Memory()  # meeting its rivals for the first time
            self.models = [memory.rival(e.seat) for e in self.live]
        self.stood = memory.stood if memory else {}
        """Seat -> the street this hand on which it stood a wager of ours (``ranges_for``)."""
        third = self.street == 3
        self.gives_up = max(
            (m.gives_up_third if third else m.gives_up for m in self.models), default=0.3
        )
        """The likeliest of the live rivals to fold to a wager of ours on this street (third
        street, or the later ones), how likely."""
        self.sticky = bool(self.reads and self.gives_up < self.reads.sticky_folds)
        """Every live rival hardly ever folds: value-bet thin, never bluff."""
        self.folder = bool(
            self.reads and third and self.heads_up and self.gives_up >= self.reads.folds_to_trap
        )
        """Third street, heads-up against a rival that folds to our completions: slow-play
        strong hands (``Reads.trap``), re-steal from it if it completes too often."""
        self.nuts = False
        """Set by ``equity`` when it counted every rival holding and none beats ours."""
        self.by_kind: tuple[list[float], list[float]] | None = None
        """Set by ``equity`` heads-up on seventh street: the weight of the rival's hands
        of each kind and the share of it ours wins (``exact_seventh``)."""

    def _bet_size(self) -> int:
        for name in WAGERS:
            a = self.legal.get(name)
            if a and not a.all_in:
                return a.to - self.high if name == "raise" else a.to
        return 10 if self.street <= 4 else 20  # R-T3 defaults when no wager is offered

    @property
    def wager(self) -> str | None:
        """The name of the bet/complete/raise button on offer, if any."""
        for name in WAGERS:
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
        if not self.reads:
            return equity(mine, self.rivals, self.dead, self.rng, self._samples())
        ranges = ranges_for(
            self.live,
            self.models,
            self.rivals,
            self.street,
            self.bring_in_seat,
            self.reads.pair_base,
            self.stood,
        )
        if self.heads_up and len(mine) == 7 and len(ranges[0].up) == 4:
            self.by_kind = ([0.0] * 9, [0.0] * 9)
            eq, beatable = exact_seventh(mine, ranges[0], self.dead, self.by_kind)
            self.nuts = not beatable
            return eq
        return equity(mine, self.rivals, self.dead, self.rng, self._samples(), ranges)

    def _pot_odds(self) -> float:
        return self.to_call / (self.pot + self.to_call) if self.to_call else 0.0

    # -------------------------------------------------------------- third street

    def _third_street(self) -> str:
        cls = starting_class(self.hole + self.up, self.dead)
        rng, style, reads = self.rng, self.style, self.reads
        wager = self.wager
        if reads and self.sticky and self.rival_wagers == 0:
            return self._third_street_sticky(reads)
        if "bring_in" in self.legal:  # R-B2: bring in or complete
            if reads and self.folder and cls >= reads.trap[0]:
                return "bring_in"  # slow-play: a completion would fold it
            if cls >= 3 or (cls == 2 and rng.random() < style.complete_bring_in):
                return "complete"
            return "bring_in"
        if self.rival_wagers == 0:  # at most the bring-in to call
            if reads and self.folder and cls >= reads.trap[0]:
                return self.passive
            if cls >= 3 and wager:
                return wager
            if reads and wager and self._can_steal():
                fold_rate = self.gives_up if self.heads_up else 0.3
                if cls >= 1 or rng.random() < reads.steal_base + fold_rate:
                    return wager
            if cls >= 1 or "check" in self.legal:
                return self.passive
            if style.loose_entry and max(c.rank for c in self.hole + self.up) >= _JACK:
                return self.passive
            if reads:
                if self.heads_up and self._outranks_doors():
                    return self.passive
            elif wager and self._can_steal() and rng.random() < style.steal:
                return wager
            return "fold"
        if reads and self.heads_up:
            return self._defend_heads_up(cls, reads)
        if self.rival_wagers == 1:  # facing a completion
            if cls == 4 and wager:
                return wager
            if cls >= style.defend_class:
                return "call"
            if cls == 1 and len(self.rivals) <= 2:
                return "call" if self._equity() >= self._pot_odds() * style.loose_call else "fold"
            return "fold"
        if cls == 4:  # facing a raise
            return wager or "call"
        if cls == 3 or (cls == 2 and self.to_call <= self.bet):
            return "call"
        return "fold"

    def _third_street_sticky(self, reads: Reads) -> str:
        """At most the bring-in to call, against rivals that never fold: a steal cannot
        work, so wager for value with better than a fair share and call on the odds."""
        eq = self._equity()
        wager = self.wager
        if wager and eq >= 1.0 / (len(self.rivals) + 1) + reads.sticky_margin[0]:
            return "complete" if "bring_in" in self.legal else wager
        if "bring_in" in self.legal or "check" in self.legal:
            return self.passive
        return "call" if eq >= self._pot_odds() else "fold"

    def _defend_heads_up(self, cls: int, reads: Reads) -> str:
        """Heads-up on third street facing a completion or more: a lone rival's wager is
        often a steal, so defend wider, and wider still against a rival read as stealing."""
        wager = self.wager
        m = self.models[0]
        steal_read = m.aggression > reads.steal_read or m.loose > reads.steal_read
        if self.rival_wagers == 1:
            if self.folder and cls >= reads.trap[1]:
                return "call"
            if cls >= 3 and wager:
                return wager
            if self.folder and cls <= 1 and wager and m.completes > reads.resteal:
                return wager  # it completes too often to hold a hand: re-steal
            if cls >= 1:
                return "call"
            door = self.up[0].rank if self.up else 0
            if self._outranks_doors() or (steal_read and door >= 8):
                return "call"
            return "call" if self._equity() >= self._pot_odds() * reads.defend[0] else "fold"
        if cls == 4 and wager:
            return wager
        if cls >= 2 or (cls == 1 and steal_read):
            return "call"
        return "call" if self._equity() >= self._pot_odds() * reads.defend[1] else "fold"

    def _outranks_doors(self) -> bool:
        """Our door card or a hole card is higher than every live rival's door card."""
        door = self.up[0].rank if self.up else 0
        top_door = max((e.up[0].rank for e in self.live if e.up), default=-1)
        hole_high = max((c.rank for c in self.hole), default=0)
        return door > top_door or hole_high > top_door

    def _can_steal(self) -> bool:
        """Everyone after the bring-in folded to us, and our up card beats the bring-in's."""
        if not self.up:
            return False
        mine = self.up[0]
        for e in self.others:
            if e.folded or not e.up:
                continue
            if e.seat != self.bring_in_seat:
                return False
            if e.up[0].rank >= mine.rank:
                return False
        return True

    # -------------------------------------------------------------- later streets

    def _later_street(self) -> str:
        style, rng, reads = self.style, self.rng, self.reads
        eq = self._equity()
        n = len(self.rivals) + 1
        fair = 1.0 / n
        # Credit rival bettors with better hands, but never so much that a sure winner folds.
        eq_eff = eq * max(0.4, 1.0 - style.respect * self.rival_wagers)
        wager = self.wager
        river = self.street == 7
        station = max((m.station for m in self.models), default=0.25)
        folds = min((m.folds for m in self.models), default=0.3)
        if self.nuts:
            return wager or self.passive
        if "check" in self.legal and reads and self.sticky:
            return wager if wager and eq >= fair + reads.sticky_margin[1] else "check"
        if "check" in self.legal and reads and self.by_kind is not None and wager:
            return wager if self._river_bet_gain() > 0.0 else "check"
        if "check" in self.legal:
            margin = style.bet_margin
            if reads:  # bet thinner into rivals who call too much
                margin = style.bet_margin - reads.thin_value * (station - 0.25) * 2
                if river and self.heads_up:
                    margin = reads.river_margin[0] - reads.river_margin[1] * (station - 0.25)
            if wager and eq_eff >= fair + margin:
                return wager
            if (
                wager
                and self.street <= 5
                and eq >= fair * style.semi_bluff_share
                and self._drawing()
            ):
                return wager if rng.random() < style.semi_bluff else "check"
            if reads:
                if wager and self.heads_up and folds >= reads.stab_folds:
                    # A rival that often lays down to a bet: take a stab when checked to,
                    # never on the river with a hand that can win a showdown.
                    before, on_river, no_showdown = reads.stab
                    if not river and rng.random() < folds - before:
                        return wager
                    if river and eq < no_showdown and rng.random() < folds - on_river:
                        return wager
            elif wager and n == 2 and self.street >= 5 and eq < 0.3 and rng.random() < style.bluff:
                return wager
            return "check"
        need_raise = fair + style.raise_margin + style.raise_step * self.wagers
        if reads and self.heads_up:
            lo, hi, step = reads.raise_heads_up
            need_raise = (hi if river else lo) + step * max(self.wagers - 1, 0)
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
        factors = style.street_call_factors
        factor = style.call_factor if factors is None else factors[self.street - 4]
        if eq_eff >= self._pot_odds() * factor:
            if not style.call_down and self.street >= 5 and not self._have_something() and eq < 0.4:
                return "fold"  # no pair and no draw: don't call down
            return "call"
        return "fold"

    def _river_bet_gain(self) -> float:
        """Heads-up seventh street, free to check: what a bet gains over checking it
        down, in chips, against the rival's counted hands.  A hand of kind two pair or
        better calls; one pair and high card call as often as this rival's seventh-street
        calls say (``river_weights("call")``), and fold otherwise: a fold wins us the pot
        our hand would not have, a call wins or loses one bet.  A hand of two pair or
        better also raises as often as this rival wagers: one bet more, won or lost."""
        assert self.by_kind is not None
        weights, won = self.by_kind
        calls = self.models[0].river_weights("call")
        raises = self.models[0].aggression
        pot, bet = self.pot, self.bet
        gain = total = 0.0
        for kind in range(9):
            w = weights[kind]
            if not w:
                continue
            total += w
            win = won[kind] / w
            call = min(1.0, max(calls[0], calls[kind])) if kind <= 1 else 1.0
            gain += w * (call * bet * (2.0 * win - 1.0) + (1.0 - call) * pot * (1.0 - win))
            if kind >= 2:  # raised as often as it wagers: one bet more, won or lost
                gain += raises * w * bet * (2.0 * win - 1.0)
        return gain / total if total else 0.0

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

    def _have_something(self) -> bool:
        """A pair or better, or a draw."""
        ranks = [c.rank for c in self.hole + self.up]
        return len(set(ranks)) < len(ranks) or self._drawing()
