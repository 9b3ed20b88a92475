"""One hand of seven card stud, high only, fixed limit (``../shared/RULES.md``).

``Hand`` is a plain object with no I/O, no clock and no global random: it is
given the seats, the button and an already shuffled pack, does every dealer
chore itself and stops only when a seat must decide.  ``legal_actions()``
lists the buttons that seat may press (R-B1); ``apply()`` checks the choice
against that list, raises ``IllegalAction`` (changing nothing) if it is not
there, and otherwise returns the events that followed, up to the next
decision or the end of the hand.

Invariants, true between calls:

- ``to_act`` is ``None`` exactly when the hand is over or not started.
- Chips are conserved: the stacks plus every chip put in (antes included)
  equal the stacks the hand started with; once the hand is over, what was
  put in has all gone back out through ``Return`` and ``Award`` events.
- A seat's ``street_total`` is what it put in on this street's betting
  (antes excluded); ``high`` is the largest of them.
- ``full_count`` counts the full bets, completions and raises of the street
  (R-B6, R-A2): short all-ins and the bring-in never count.  A seat may
  wager again only if it has not acted this street or a full wager came
  after its last action (R-A2).

Where RULES.md is silent the engine follows cardroom practice; the choices
are marked "Cardroom practice" below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from common.cards import SUIT_BITS, Card, full_deck
from common.events import (
    STAKES,
    Act,
    Action,
    ActionKind,
    Ante,
    Award,
    Deal,
    Event,
    IllegalAction,
    Return,
    Show,
    Stakes,
)
from common.hands import (
    best_five_of,
    bring_in_key,
    evaluate,
    hand_name,
    showing_value,
)

__all__ = ["Hand", "Pot", "SeatState", "clockwise"]

MAX_SEATS = 7
SEAT_NUMBERS = range(MAX_SEATS)

_new = tuple.__new__
"""Builds an event from its fields without the NamedTuple's own ``__new__`` (one Python
call less for every card and action; the same immutable tuple)."""
_CLOCKWISE: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(SEAT_NUMBERS, key=lambda s: (s - b - 1) % MAX_SEATS)) for b in SEAT_NUMBERS
)
"""Every seat number clockwise from the one after the button, by button (R-T0)."""
_BRING_IN_KEY: dict[Card, int] = {card: bring_in_key(card) for card in full_deck()}
_SHOWING: dict[int, int] = {}
"""``showing_value`` of up cards by what it depends on (R-O2): how many of each rank
show (their sum's rank counts, ``common.cards``) and the suit of the highest card; at
most 9,516 such keys for one to four cards."""

_DEALS: tuple[tuple[dict[Card, Deal], ...], ...] = tuple(
    tuple(
        {card: _new(Deal, (seat, street, card, up)) for card in full_deck()}
        for street, up in ((3, False), (3, True), (4, True), (5, True), (6, True), (7, False))
    )
    for seat in SEAT_NUMBERS
)
"""Every ``Deal`` event there can be, made once: by seat, then third street's down
and up cards and fourth to seventh street (index ``street - 2``), then by card.
A hand picks its events out of these rather than making tuples for every card."""

_FOLD, _CHECK, _CALL = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL
_BRING_IN, _COMPLETE, _BET, _RAISE = (
    ActionKind.BRING_IN,
    ActionKind.COMPLETE,
    ActionKind.BET,
    ActionKind.RAISE,
)


def clockwise(seats: Sequence[int] | set[int], after: int) -> list[int]:
    """``seats`` in clockwise order starting with the first one after seat ``after`` (R-T0).

    >>> clockwise([0, 2, 5], after=2)
    [5, 0, 2]
    """
    return sorted(seats, key=lambda s: (s - after - 1) % MAX_SEATS)


@dataclass(slots=True)
class SeatState:
    """What the table knows of one seat during a hand."""

    seat: int
    start_stack: int
    stack: int
    down: list[Card] = field(default_factory=list)
    up: list[Card] = field(default_factory=list)
    street_total: int = 0
    hand_total: int = 0
    folded: bool = False
    all_in: bool = False
    acted: bool = False
    full_mark: int = 0
    last_action: ActionKind | None = None

    @property
    def cards(self) -> list[Card]:
        """All seven (or fewer) cards in deal order: down, down, up x4, down (R-D3)."""
        return self.down[:2] + self.up + self.down[2:]

    @property
    def can_bet(self) -> bool:
        return not self.folded and not self.all_in


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot and the seats that contend for it (R-A3); ``seats`` in seat order."""

    amount: int
    seats: tuple[int, ...]


_ACTIONS: dict[tuple[ActionKind, int, int, bool], Action] = {}


def _action(kind: ActionKind, put: int, to: int, all_in: bool = False) -> Action:
    """An ``Action``, shared between hands: they are immutable and hands ask for the same few."""
    key = (kind, put, to, all_in)
    action = _ACTIONS.get(key)
    if action is None:
        action = Action(kind, put, to, all_in=all_in)
        if len(_ACTIONS) < 50_000:  # bounded: huge simulated stacks must not grow it forever
            _ACTIONS[key] = action
    return action


_ANTES: dict[tuple[int, int, bool], Ante] = {}
"""``Ante`` events by their fields, as ``_ACTS``."""
_ACTS: dict[tuple[int, int, ActionKind, int, int, bool], Act] = {}
"""``Act`` events by their fields, shared between hands like the actions: looking one up
costs less than making the tuple anew."""


_LEGAL_MEMO_SIZE = 1024
"""Buttons remembered per stakes: the first ones asked for, which are the common ones.
Small and full after a few dozen matches, so a server that runs for weeks stays flat."""
_LEGAL_BY_STAKES: dict[Stakes, dict[tuple[int, int, int, int, bool, bool], tuple[Action, ...]]] = {}
"""Legal-action tuples by stakes, then by (street, stack, street total, high, opened, may wager)."""


_DEFAULT_MEMO = _LEGAL_BY_STAKES.setdefault(STAKES, {})


_LAYOUTS: dict[tuple[int, ...], tuple[tuple[int, ...], int, tuple[slice, ...]]] = {}
"""Checked seatings by (button, *seats as given): the deal order, its length, and for
each seat in it the slice of the doubled order that is the seats clockwise after it."""


def _layout(
    stacks: Mapping[int, int], button: int
) -> tuple[tuple[int, ...], int, tuple[slice, ...]]:
    """Check a hand's seats, stacks and button and work out its ``_LAYOUTS`` entry (R-T0)."""
    if not 2 <= len(stacks) <= MAX_SEATS:
        raise ValueError(f"a hand needs 2 to {MAX_SEATS} seats, got {len(stacks)}")
    for seat, stack in stacks.items():
        if seat not in SEAT_NUMBERS:
            raise ValueError(f"no seat {seat}: seats are 0 to {MAX_SEATS - 1}")
        if stack <= 0:
            raise ValueError(f"seat {seat} has no chips and cannot be dealt in (R-T5)")
    if button not in SEAT_NUMBERS:
        raise ValueError(f"no seat {button} for the button")
    order = tuple(sorted(stacks, key=_CLOCKWISE[button].index))
    n = len(order)
    layout = order, n, tuple(slice(i + 1, i + 1 + n) for i in range(n))
    if len(_LAYOUTS) < 4096:  # bounded: every seating of seven seats is far more
        _LAYOUTS[(button, *stacks)] = layout
    return layout


class Hand:
    """One hand, from the antes to the last award."""

    __slots__ = (
        "_after",
        "_bet",
        "_chips_on_seventh",
        "_dealt",
        "_deck",
        "_first_on_seventh",
        "_full_wagers_on_seventh",
        "_last_in_order",
        "_legal_cache",
        "_legal_memo",
        "_live",
        "_paid",
        "_states",
        "bring_in_seat",
        "button",
        "events",
        "full_count",
        "high",
        "is_over",
        "opened",
        "order",
        "seats",
        "stakes",
        "started",
        "street",
        "to_act",
        "turn",
    )

    _deals_itself: ClassVar[bool] = False
    """True in a subclass with its own ``_deal_street``: it then deals every street,
    and ``_begin_betting`` opens it, where the plain hand does both in one pass."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._deals_itself = cls._deal_street is not Hand._deal_street

    def __init__(
        self,
        *,
        stacks: Mapping[int, int],
        button: int,
        deck: Sequence[Card],
        stakes: Stakes = STAKES,
    ) -> None:
        layout = _LAYOUTS.get((button, *stacks))
        if layout is None:
            layout = _layout(stacks, button)
        order, n, slices = layout
        for seat, stack in stacks.items():
            if stack <= 0:  # the seats and button were checked with the layout
                raise ValueError(f"seat {seat} has no chips and cannot be dealt in (R-T5)")
        if len(set(deck)) != len(deck) or len(deck) < 7 * n:
            raise ValueError("the deck must hold distinct cards, seven for each seat (R-D6)")
        self.stakes = stakes
        self.button = button
        self.order = order
        # The lists given, not made by the dataclass's factories: a seat is made every hand.
        states = self._states = tuple([SeatState(s, stacks[s], stacks[s], [], []) for s in order])
        """The seats' states in deal order."""
        # ``zip`` with no keyword (its fast call): the layout's order, its slices and the
        # states have one length by construction.
        self.seats: dict[int, SeatState] = dict(zip(order, states))  # noqa: B905
        # For each seat, every seat's state clockwise after it, itself last (R-T0, R-O4).
        self._after: dict[int, tuple[SeatState, ...]] = dict(
            zip(order, map((states * 2).__getitem__, slices))  # noqa: B905
        )
        self._live = n
        self._last_in_order = order[-1]  # deals start after it
        self._deck = list(deck)
        self._dealt = 0
        self.events: list[Event] = []
        self.street = 0
        self.to_act: int | None = None
        self.turn = 0
        """Counts decisions asked for; a stale answer names an older turn."""
        self.bring_in_seat: int | None = None
        self.is_over = False
        self.started = False
        self.high = 0
        self.full_count = 0
        self.opened = False
        self._bet = stakes.small_bet
        """One bet of the street being played (R-B5)."""
        self._first_on_seventh: int | None = None
        self._full_wagers_on_seventh: list[int] = []
        """Seats that made a full bet or raise on seventh street, in order (R-S5)."""
        self._chips_on_seventh = False
        self._legal_cache: tuple[Action, ...] | None = None
        self._legal_memo = (
            _DEFAULT_MEMO if stakes is STAKES else _LEGAL_BY_STAKES.setdefault(stakes, {})
        )
        self._paid = 0

    # ------------------------------------------------------------ queries

    @property
    def in_hand(self) -> list[int]:
        """Seats not folded, in deal order."""
        return [st.seat for st in self._states if not st.folded]

    @property
    def pot_total(self) -> int:
        """Every chip put in and not yet paid out."""
        return sum(st.hand_total for st in self._states) - self._paid

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """The buttons for the seat to act, with their amounts (R-B1); empty for any other seat."""
        to_act = self.to_act
        if to_act is None or (seat is not None and seat != to_act):
            return ()
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._compute_legal(self.seats[to_act])
        return legal

    def default_action(self, seat: int) -> ActionKind:
        """What a dropped seat does when its time runs out: check if it can, else fold (R-C1).

        The bring-in seat can do neither (R-B2), so it brings in.
        """
        kinds = [a.kind for a in self.legal_actions(seat)]
        if not kinds:
            raise IllegalAction(seat, "act", (), "it is not this seat's turn")
        for kind in (_CHECK, _FOLD, _BRING_IN):
            if kind in kinds:
                return kind
        return kinds[0]

    def pots(self) -> list[Pot]:
        """The pots as they stand, main pot first (R-A3; ``stud-hh/1`` pot numbering).

        One pot for each distinct total that an all-in seat still in the hand
        put in, from the smallest up, and a last one for the rest; neighbours
        that the same seats contend for are merged.
        """
        levels = sorted({st.hand_total for st in self._states if st.all_in and not st.folded})
        if not levels:  # no one all in: one pot for every seat still in that put chips in
            amount = 0
            for st in self._states:
                amount += st.hand_total
            seats = [st.seat for st in self._states if st.hand_total and not st.folded]
            return [Pot(amount, tuple(sorted(seats)))] if amount > 0 and seats else []
        totals = {s: st.hand_total for s, st in self.seats.items()}
        live = [s for s in self.order if not self.seats[s].folded]
        pots: list[Pot] = []
        prev = 0
        for level in [*levels, None]:
            if level is None:
                amount = sum(max(0, t - prev) for t in totals.values())
                contenders = tuple(sorted(s for s in live if totals[s] > prev))
            else:
                amount = sum(min(t, level) - min(t, prev) for t in totals.values())
                contenders = tuple(sorted(s for s in live if totals[s] >= level))
            if amount > 0 and contenders:
                if pots and pots[-1].seats == contenders:
                    pots[-1] = Pot(pots[-1].amount + amount, contenders)
                else:
                    pots.append(Pot(amount, contenders))
            if level is not None:
                prev = level
        return pots

    # ------------------------------------------------------------ driving

    def start(self) -> list[Event]:
        """Post the antes and deal third street, then run until a seat must decide."""
        if self.started:
            raise RuntimeError("the hand has already started")
        self.started = True
        out: list[Event] = []
        ante = self.stakes.ante
        states = self._states
        bettors = 0
        for st in states:
            stack = st.stack
            amount = ante if ante < stack else stack
            st.stack = stack = stack - amount
            st.hand_total += amount
            if stack == 0:
                st.all_in = True
            else:
                bettors += 1
            fields = (st.seat, amount, st.all_in)
            event = _ANTES.get(fields)
            if event is None:
                event = _new(Ante, fields)
                if len(_ANTES) < 4096:  # bounded: short stacks ante what they have
                    _ANTES[fields] = event
            out.append(event)  # R-D1
        if self._deals_itself:
            self._deal_street(3, out)
            self._begin_betting(out)
            self.events += out
            return out
        # Third street in one go (R-D2, R-D3): two rounds of down cards and one of up
        # cards, the lowest up card found as it is dealt (R-O1); the betting round as
        # ``_begin_betting`` would open it, from what ``__init__`` set.
        self.street = 3
        deck = self._deck
        dealt = self._dealt
        for st in states:
            card = deck[dealt]
            dealt += 1
            st.down.append(card)
            out.append(_DEALS[st.seat][0][card])
        for st in states:
            card = deck[dealt]
            dealt += 1
            st.down.append(card)
            out.append(_DEALS[st.seat][0][card])
        low = 99
        lowest = states[0]
        for st in states:
            card = deck[dealt]
            dealt += 1
            st.up.append(card)
            out.append(_DEALS[st.seat][1][card])
            key = _BRING_IN_KEY[card]
            if key < low:
                low, lowest = key, st
        self._dealt = dealt
        if bettors <= 1:  # R-D5: no one left to bet against
            self._end_round(out)
        else:
            first = lowest  # R-O1, unless it cannot bet (R-O3)
            if lowest.all_in:
                first = self._first_can_bet_from(lowest)
            self.bring_in_seat = self.to_act = first.seat
            self.turn += 1
            self._legal_cache = self._compute_legal(first)
        self.events += out
        return out

    def apply(self, seat: int, action: ActionKind | str) -> list[Event]:
        """Let ``seat`` take ``action``; returns the events up to the next decision.

        Raises ``IllegalAction`` and changes nothing if it is not this seat's
        turn or the action is not among ``legal_actions()``.
        """
        to_act = self.to_act
        if to_act is None:
            raise IllegalAction(seat, str(action), (), "no one is to act")
        if seat != to_act:
            raise IllegalAction(seat, str(action), (), f"it is seat {to_act}'s turn")
        st = self.seats[to_act]
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._compute_legal(st)
        for chosen in legal:
            if chosen.kind == action:
                break
        else:
            raise IllegalAction(seat, str(action), legal)

        # The action (R-B1), then whoever owes one next (R-O4, R-B8).
        kind, put, to = chosen.kind, chosen.put, chosen.to
        street = self.street
        high = self.high
        if put:  # never a fold's
            st.stack -= put
            st.hand_total += put
            if st.stack == 0:
                st.all_in = True
            st.street_total = to
            if street == 7:
                self._chips_on_seventh = True
        if kind is _FOLD:
            st.folded = True
            self._live -= 1
        elif kind is _CALL or kind is _CHECK:
            pass
        elif kind is not _BRING_IN:  # a completion, bet or raise
            bet = self._bet
            # R-A2: an all-in is a full wager when it lifts the highest total by half a
            # bet or more, or when it reaches the full amount a seat with more chips
            # would have made: the completion or bet (``bet``) before the street is
            # opened, the raise-to of R-B7 after.  Each all-in is judged on its own
            # (4 -> 7 is short, then 7 -> 10 reaches the completion and is full).
            full_to = high + bet if self.opened else bet
            if not chosen.all_in or to - high >= (bet + 1) // 2 or to >= full_to:
                self.full_count += 1
                self.opened = True
                if street == 7:
                    # R-S5 with R-A2: a short all-in is not a bet or raise.
                    self._full_wagers_on_seventh.append(seat)
            self.high = high = to
        else:
            self.high = high = to
        st.acted = True
        st.full_mark = self.full_count
        st.last_action = kind
        fields = (seat, street, kind, put, to, chosen.all_in)
        event = _ACTS.get(fields)
        if event is None:
            event = _new(Act, fields)
            if len(_ACTS) < 50_000:  # bounded, as ``_ACTIONS`` is
                _ACTS[fields] = event
        out: list[Event] = [event]

        if self._live == 1:
            self._finish_uncontested(out)
        else:
            for o in self._after[seat]:
                if not o.folded and not o.all_in and (not o.acted or o.street_total < high):
                    self.to_act = o.seat
                    self.turn += 1
                    self._legal_cache = self._compute_legal(o)
                    break
            else:
                self._end_round(out)
        self.events += out
        return out

    # ------------------------------------------------------------ dealing

    def _deal_street(self, street: int, out: list[Event]) -> None:
        """Deal a street's cards one at a time, clockwise from the button (R-D2, R-D3, R-D4)."""
        self.street = street
        deck = self._deck
        dealt = self._dealt
        if street == 3:  # two rounds of down cards, one of up cards; no one has folded
            for st in self._states:
                card = deck[dealt]
                dealt += 1
                st.down.append(card)
                out.append(_DEALS[st.seat][0][card])
            for st in self._states:
                card = deck[dealt]
                dealt += 1
                st.down.append(card)
                out.append(_DEALS[st.seat][0][card])
            for st in self._states:
                card = deck[dealt]
                dealt += 1
                st.up.append(card)
                out.append(_DEALS[st.seat][1][card])
        else:
            up = street != 7
            for st in self._states:
                if not st.folded:
                    card = deck[dealt]
                    dealt += 1
                    (st.up if up else st.down).append(card)
                    out.append(_DEALS[st.seat][street - 2][card])
        self._dealt = dealt

    # ------------------------------------------------------------ betting

    def _begin_betting(self, out: list[Event]) -> None:
        """Open the street's betting round, or skip to the run-out (R-D5)."""
        self.high = 0
        self.full_count = 0
        self.opened = False
        street = self.street
        stakes = self.stakes
        self._bet = stakes.small_bet if street <= 4 else stakes.big_bet  # Stakes.bet_for
        bettors = 0
        for st in self._states:
            st.street_total = 0
            st.acted = False
            st.full_mark = 0
            st.last_action = None
            if not st.folded and not st.all_in:
                bettors += 1
        if bettors <= 1:  # R-D5: no one left to bet against
            self._end_round(out)
            return
        if street == 3:
            lowest = self._states[0]
            low = 99
            for st in self._states:  # no one has folded yet
                key = _BRING_IN_KEY[st.up[0]]
                if key < low:
                    low, lowest = key, st
            first = self._first_can_bet_from(lowest)  # R-O1, R-O3
            self.bring_in_seat = first.seat
        else:
            best = -1
            leader = self._states[0]
            key_of = _BRING_IN_KEY
            for st in self._states:
                if not st.folded:
                    up = st.up
                    # Which rank shows how often (the rank key of the cards' sum, with
                    # their number), and the suit of the highest card (the largest int:
                    # a card's rank sits above its suit, ``common.cards``).
                    key = (sum(up) >> SUIT_BITS) << 5 | len(up) << 2 | (key_of[max(up)] & 3)
                    value = _SHOWING.get(key)
                    if value is None:
                        value = _SHOWING[key] = showing_value(up)
                    if value > best:
                        best, leader = value, st
            first = self._first_can_bet_from(leader)  # R-O2, R-O3
            if street == 7:
                self._first_on_seventh = first.seat
        self.to_act = first.seat
        self.turn += 1
        self._legal_cache = self._compute_legal(first)

    def _first_can_bet_from(self, st: SeatState) -> SeatState:
        """``st`` if it can still bet, else the first seat clockwise after it that can (R-O3)."""
        if not st.folded and not st.all_in:
            return st
        for o in self._after[st.seat]:
            if not o.folded and not o.all_in:
                return o
        raise AssertionError("no seat can bet")  # _begin_betting checked there are two

    def _compute_legal(self, st: SeatState) -> tuple[Action, ...]:
        stack, total, high = st.stack, st.street_total, self.high
        if high == 0 and self.street == 3 and not st.acted and st.seat == self.bring_in_seat:
            stakes = self.stakes
            # R-B2: bring in or complete; neither check nor fold.
            answer = stack > stakes.bring_in and self._others_can_answer(st, stakes.bring_in)
            # Street 0 keys the bring-in's buttons; a stack above both amounts plays as any.
            cover = max(stakes.bring_in, stakes.small_bet) + 1
            key = (0, stack if stack < cover else cover, 0, 0, False, answer)
            legal = self._legal_memo.get(key)
            if legal is None:
                bring = _action(
                    _BRING_IN,
                    min(stakes.bring_in, stack),
                    min(stakes.bring_in, stack),
                    stack <= stakes.bring_in,
                )
                if answer:
                    put = min(stakes.small_bet, stack)
                    legal = bring, _action(_COMPLETE, put, put, stack <= stakes.small_bet)
                else:
                    legal = (bring,)
                if len(self._legal_memo) < _LEGAL_MEMO_SIZE:
                    self._legal_memo[key] = legal
            return legal

        # Whether ``st`` may bet, complete or raise now.
        wager = False
        if stack > high - total:
            full_count = self.full_count
            if st.acted and st.full_mark >= full_count:
                pass  # R-A2: only call or fold after a short all-in
            elif full_count >= 4 and self._live > 2:
                pass  # R-B6: one bet and three raises while more than two are in
            else:
                # R-B9: someone else in the hand could still put in more than ``high``.
                for o in self._after[st.seat]:
                    if o is not st and not o.folded and o.street_total + o.stack > high:
                        wager = True
                        break
        # The buttons depend only on these; hands ask for the same few again and again.
        # A stack that covers a call and the largest wager plays as any larger one.
        cover = high - total + self._bet + 1
        key = (self.street, stack if stack < cover else cover, total, high, self.opened, wager)
        legal = self._legal_memo.get(key)
        if legal is None:
            legal = self._buttons(stack=stack, total=total, wager=wager)
            if len(self._legal_memo) < _LEGAL_MEMO_SIZE:
                self._legal_memo[key] = legal
        return legal

    def _buttons(self, *, stack: int, total: int, wager: bool) -> tuple[Action, ...]:
        """The legal actions for a seat with ``stack`` and ``total`` facing ``self.high``."""
        to_call = self.high - total
        actions: list[Action] = []
        if to_call > 0:
            actions.append(_action(_FOLD, 0, total))
            put = min(to_call, stack)
            actions.append(_action(_CALL, put, total + put, stack <= to_call))
        else:
            actions.append(_action(_CHECK, 0, total))  # R-B5: no fold when checking is free

        if wager:
            bet = self._bet
            if not self.opened:
                # R-B3, R-A2: until a full bet or completion, the wager is to one full bet.
                kind = _COMPLETE if self.street == 3 else _BET
                target = bet
            else:
                kind = _RAISE
                target = self.high + bet  # R-B4, R-B5, R-B7
            # An all-in that reaches ``target`` is full (R-A2), so before the street
            # opens ``high`` stays below the full bet; the guard is for odd stakes.
            if target > self.high:
                need = target - total
                put = min(need, stack)
                actions.append(_action(kind, put, total + put, stack <= need))
        return tuple(actions)

    def _others_can_answer(self, st: SeatState, level: int) -> bool:
        """R-B9: someone else in the hand could still put in more than ``level``."""
        for o in self._after[st.seat]:
            if o is not st and not o.folded and o.street_total + o.stack > level:
                return True
        return False

    def _end_round(self, out: list[Event]) -> None:
        """Close the betting round: give back what no one called, then go on."""
        self.to_act = None
        self._legal_cache = None
        self._return_uncalled(out)
        street = self.street
        if street == 7:
            self._showdown(out)
            return
        if self._deals_itself:
            self._deal_street(street + 1, out)
            self._begin_betting(out)
            return
        # The next street in one pass over the seats: ``_deal_street`` (R-D2, R-D4),
        # then ``_begin_betting``'s reset and its best showing hand (R-O2).
        self.street = street = street + 1
        self.high = 0
        self.full_count = 0
        self.opened = False
        stakes = self.stakes
        self._bet = stakes.small_bet if street <= 4 else stakes.big_bet  # Stakes.bet_for
        deck = self._deck
        dealt = self._dealt
        up = street != 7
        bettors = 0
        best = -1
        leader = self._states[0]
        key_of = _BRING_IN_KEY
        for st in self._states:
            st.street_total = 0
            st.acted = False
            st.full_mark = 0
            st.last_action = None
            if not st.folded:
                card = deck[dealt]
                dealt += 1
                shown = st.up
                if up:
                    shown.append(card)
                else:
                    st.down.append(card)
                out.append(_DEALS[st.seat][street - 2][card])
                if not st.all_in:
                    bettors += 1
                # Which rank shows how often (the rank key of the cards' sum, with
                # their number), and the suit of the highest card (the largest int:
                # a card's rank sits above its suit, ``common.cards``).
                key = (sum(shown) >> SUIT_BITS) << 5 | len(shown) << 2 | (key_of[max(shown)] & 3)
                value = _SHOWING.get(key)
                if value is None:
                    value = _SHOWING[key] = showing_value(shown)
                if value > best:
                    best, leader = value, st
        self._dealt = dealt
        if bettors <= 1:  # R-D5: no one left to bet against
            self._end_round(out)
            return
        first = leader  # R-O2, unless it cannot bet (R-O3); the leader has not folded
        if leader.all_in:
            first = self._first_can_bet_from(leader)
        if street == 7:
            self._first_on_seventh = first.seat
        self.to_act = first.seat
        self.turn += 1
        self._legal_cache = self._compute_legal(first)

    def _return_uncalled(self, out: list[Event]) -> None:
        """R-A4: chips of a bet that no one called go back; the bring-in counts as a bet."""
        top = self._states[0]
        most = top.hand_total
        second = 0
        for st in self._states[1:]:
            total = st.hand_total
            if total > most:
                second, most, top = most, total, st
            elif total > second:
                second = total
        excess = most - second
        if excess > 0:
            top.stack += excess
            top.hand_total -= excess
            top.street_total -= excess
            if top.stack:
                top.all_in = False
            out.append(_new(Return, (top.seat, excess)))

    # ------------------------------------------------------------ the end

    def _finish_uncontested(self, out: list[Event]) -> None:
        """R-S4: the last seat takes the pot without showing.

        ``_return_uncalled`` (R-A4) and the sum of the pot in one pass over the seats.
        """
        self.to_act = None
        self._legal_cache = None
        states = self._states
        top = winner = states[0]
        amount = most = top.hand_total
        second = 0
        for st in states[1:]:
            total = st.hand_total
            amount += total
            if total > most:
                second, most, top = most, total, st
            elif total > second:
                second = total
            if not st.folded:
                winner = st
        excess = most - second
        if excess > 0:
            top.stack += excess
            top.hand_total -= excess
            top.street_total -= excess
            if top.stack:
                top.all_in = False
            out.append(_new(Return, (top.seat, excess)))
            amount -= excess
        winner.stack += amount
        self._paid += amount
        out.append(_new(Award, (winner.seat, amount, 0)))
        self.is_over = True

    def _showdown(self, out: list[Event]) -> None:
        """R-S1..R-S3, R-S5: show in order, then pay each pot to its best hand."""
        live = self.in_hand
        values: dict[int, int] = {}
        for s in self._showing_order(live):
            cards = self.seats[s].cards
            value = evaluate(cards)
            values[s] = value
            name = _NAMES.get(value)
            if name is None:
                name = _NAMES[value] = hand_name(value)
            out.append(_new(Show, (s, tuple(cards), tuple(best_five_of(cards, value)), name)))
        for index, pot in enumerate(self.pots()):
            best = max(values[s] for s in pot.seats)
            winners = [s for s in pot.seats if values[s] == best]
            if len(winners) > 1:
                winners.sort(key=_CLOCKWISE[self.button].index)
            share, odd = divmod(pot.amount, len(winners))
            # R-S3: odd chips one at a time clockwise from the first seat after the button.
            for i, s in enumerate(winners):
                self._pay(s, share + (1 if i < odd else 0), index, out)
        self.is_over = True

    def _showing_order(self, live: list[int]) -> list[int]:
        """R-S5: who shows first, then clockwise from that seat.

        The last seat still in that made a full bet or raise on seventh street
        (an earlier one if a later full bettor folded; R-A2: short all-ins are
        none); where no seat still in made one but chips went in, the first seat
        still in clockwise from the seat that acted first on seventh street,
        itself included; where there was no betting at all (everyone checked, or
        no betting round, R-D5), the best showing hand (R-O2).
        """
        first = next((s for s in reversed(self._full_wagers_on_seventh) if s in live), None)
        if first is None and self._chips_on_seventh and self._first_on_seventh is not None:
            after = self._after[self._first_on_seventh]
            first = next(o.seat for o in (after[-1], *after) if o.seat in live)
        if first is None:
            first = max(live, key=lambda s: showing_value(self.seats[s].up))
        # Clockwise from ``first``: live is in deal order, so rotate it to start there.
        i = live.index(first)
        return live[i:] + live[:i]

    def _pay(self, seat: int, amount: int, pot: int, out: list[Event]) -> None:
        self.seats[seat].stack += amount
        self._paid += amount
        out.append(_new(Award, (seat, amount, pot)))

    def final_stacks(self) -> dict[int, int]:
        """Each seat's stack once the pots are paid, in deal order."""
        if not self.is_over:
            raise RuntimeError("the hand is not over")
        return {s: self.seats[s].stack for s in self.order}


_NAMES: dict[int, str] = {}
"""``hand_name`` by value: a few thousand values at most (R-S2)."""
