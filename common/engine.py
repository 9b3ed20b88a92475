"""One hand of seven card stud, high only, fixed limit (``../shared/RULES.md``).

``Hand`` is a plain object with no I/O, no clock and no global random: given the
seats, the button and a shuffled pack, it does every dealer chore itself and stops
only when a seat must decide.  ``legal_actions()`` lists that seat's buttons (R-B1);
``apply()`` raises ``IllegalAction`` (changing nothing) for any other choice, else
returns the events up to the next decision or the end of the hand.

One path through a hand: ``start`` posts the antes; every street is dealt by
``_deal_street`` and opened by ``_open_betting``; every betting round is closed by
``_end_round`` (``_return_uncalled``, then the next street or the showdown).
``side_pots`` is the one way the pots are worked out, here, in the replay and in
what the table sends.

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

import functools
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from common.cards import Card
from common.events import (
    STAKES,
    WAGERS,
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
from common.hands import best_five_of, evaluate, hand_name, showing_value

__all__ = ["Hand", "Pot", "SeatState", "clockwise", "side_pots"]

MAX_SEATS = 7
SEAT_NUMBERS = range(MAX_SEATS)

_BRING_IN, _COMPLETE, _BET, _RAISE, _CALL, _CHECK, _FOLD = ActionKind  # its members in order


def clockwise(seats: Collection[int], after: int) -> list[int]:
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


def side_pots(
    put_in: Mapping[int, int], *, live: Collection[int], all_in: Collection[int]
) -> list[Pot]:
    """The pots, main pot first (R-A3; ``stud-hh/1`` pot numbering), from what each seat
    put in this hand; ``live``: the seats still in it, ``all_in``: seats with no chips left.

    One pot for each distinct total that a live all-in seat put in, from the smallest
    up, and a last one for the rest; a level's pot goes to the live seats that put in as
    much, the last to those that put in more than the level below it.  Neighbours that
    the same seats contend for are merged.

    >>> side_pots({0: 10, 1: 30, 2: 30, 3: 5}, live={0, 1, 2}, all_in={0})
    [Pot(amount=35, seats=(0, 1, 2)), Pot(amount=40, seats=(1, 2))]
    """
    levels = sorted({put_in[s] for s in live if s in all_in})
    pots: list[Pot] = []
    below = 0
    for level in [*levels, None]:
        if level is None:
            amount = sum(max(0, t - below) for t in put_in.values())
            seats = tuple(sorted(s for s in live if put_in[s] > below))
        else:
            amount = sum(min(t, level) - min(t, below) for t in put_in.values())
            seats = tuple(sorted(s for s in live if put_in[s] >= level))
            below = level
        if amount > 0 and seats:
            if pots and pots[-1].seats == seats:
                pots[-1] = Pot(pots[-1].amount + amount, seats)
            else:
                pots.append(Pot(amount, seats))
    return pots


@functools.lru_cache(maxsize=4096)
def _betting_buttons(
    stack: int, total: int, high: int, wager: ActionKind | None, bet: int
) -> tuple[Action, ...]:
    """The buttons of a seat with ``stack`` that has put ``total`` in on this street,
    facing ``high``; ``wager`` is the wager it may make, if any, and ``bet`` one bet of
    the street (R-B5).

    Remembered (the last 4,096): hands ask for the same few again and again, and working
    them out is a third of a hand's time (``scripts/bench_engine.py``)."""
    to_call = high - total
    if to_call > 0:
        put = min(to_call, stack)
        buttons = [
            Action(_FOLD, 0, total),
            Action(_CALL, put, total + put, all_in=stack <= to_call),
        ]
    else:
        buttons = [Action(_CHECK, 0, total)]  # R-B5: no fold when checking is free
    # R-B3, R-A2: until a full bet or completion the wager is to one full bet, then a
    # raise is to one bet more.  An all-in that reaches the target is full (R-A2), so
    # before the street opens ``high`` stays below the full bet; the guard is for odd stakes.
    target = high + bet if wager is _RAISE else bet
    if wager is not None and target > high:
        need = target - total
        put = min(need, stack)
        buttons.append(Action(wager, put, total + put, all_in=stack <= need))
    return tuple(buttons)


# Events are immutable, and making a NamedTuple costs more than looking one up: the
# deals (3,640 in all) and antes are made once, the acts a hand is likely to see kept
# (a tenth of a hand, scripts/bench_engine.py).
_deal = functools.cache(Deal)
_ante = functools.cache(Ante)
_act = functools.lru_cache(maxsize=4096)(Act)


class Hand:
    """One hand, from the antes to the last award."""

    def __init__(
        self,
        *,
        stacks: Mapping[int, int],
        button: int,
        deck: Sequence[Card],
        stakes: Stakes = STAKES,
    ) -> None:
        if not 2 <= len(stacks) <= MAX_SEATS:
            raise ValueError(f"a hand needs 2 to {MAX_SEATS} seats, got {len(stacks)}")
        for seat, stack in stacks.items():
            if seat not in SEAT_NUMBERS:
                raise ValueError(f"no seat {seat}: seats are 0 to {MAX_SEATS - 1}")
            if stack <= 0:
                raise ValueError(f"seat {seat} has no chips and cannot be dealt in (R-T5)")
        if button not in SEAT_NUMBERS:
            raise ValueError(f"no seat {button} for the button")
        if len(set(deck)) != len(deck) or len(deck) < 7 * len(stacks):
            raise ValueError("the deck must hold distinct cards, seven for each seat (R-D6)")
        self.stakes = stakes
        self.button = button
        self.order = tuple(clockwise(stacks, after=button))
        """The seats in deal order, clockwise from the first after the button (R-D2)."""
        self.seats = {s: SeatState(s, stacks[s], stacks[s]) for s in self.order}
        states = list(self.seats.values())
        self._after = {st.seat: (*states[i + 1 :], *states[: i + 1]) for i, st in enumerate(states)}
        """For each seat, every seat clockwise after it, itself last (R-T0, R-O4)."""
        self._live = len(stacks)
        """Seats not folded."""
        self._deck = list(deck)
        self._dealt = 0
        self.events: list[Event] = []
        self.started = False
        self.is_over = False
        self.street = 0
        self.to_act: int | None = None
        self.turn = 0
        """Counts decisions asked for; a stale answer names an older turn."""
        self._legal: tuple[Action, ...] = ()
        """The buttons of the seat to act, worked out as its turn is given."""
        self.bring_in_seat: int | None = None
        self.high = 0
        self.full_count = 0
        self.opened = False
        self._bet = stakes.small_bet
        """One bet of the street being played (R-B5)."""
        self._first_on_seventh: int | None = None
        self._full_wagers_on_seventh: list[int] = []
        """Seats that made a full bet or raise on seventh street, in order (R-S5)."""
        self._chips_on_seventh = False
        self._paid = 0

    # ------------------------------------------------------------ queries

    @property
    def in_hand(self) -> list[int]:
        """Seats not folded, in deal order."""
        return [s for s, st in self.seats.items() if not st.folded]

    @property
    def pot_total(self) -> int:
        """Every chip put in and not yet paid out."""
        return sum(st.hand_total for st in self.seats.values()) - self._paid

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """The buttons for the seat to act, with their amounts (R-B1); empty for any other seat."""
        if seat is not None and seat != self.to_act:
            return ()
        return self._legal

    def default_action(self, seat: int) -> ActionKind:
        """What a dropped seat does when its time runs out: check if it can, else fold (R-C1).

        The bring-in seat can do neither (R-B2), so it brings in.
        """
        kinds = [a.kind for a in self.legal_actions(seat)]
        if not kinds:
            raise IllegalAction(seat, "act", (), "it is not this seat's turn")
        return next(kind for kind in (_CHECK, _FOLD, _BRING_IN) if kind in kinds)

    def pots(self) -> list[Pot]:
        """The pots as they stand, main pot first (``side_pots``)."""
        states = self.seats.values()
        return side_pots(
            {st.seat: st.hand_total for st in states},
            live=[st.seat for st in states if not st.folded],
            all_in=[st.seat for st in states if st.all_in],
        )

    def final_stacks(self) -> dict[int, int]:
        """Each seat's stack once the pots are paid, in deal order."""
        if not self.is_over:
            raise RuntimeError("the hand is not over")
        return {s: st.stack for s, st in self.seats.items()}

    # ------------------------------------------------------------ driving

    def start(self) -> list[Event]:
        """Post the antes and deal third street, then run until a seat must decide."""
        if self.started:
            raise RuntimeError("the hand has already started")
        self.started = True
        out: list[Event] = []
        for st in self.seats.values():  # R-D1: a short stack antes what it has
            amount = min(self.stakes.ante, st.stack)
            st.stack -= amount
            st.hand_total += amount
            st.all_in = st.stack == 0
            out.append(_ante(st.seat, amount, st.all_in))
        self._next_street(out)
        self.events += out
        return out

    def apply(self, seat: int, action: ActionKind | str) -> list[Event]:
        """Let ``seat`` take ``action``; returns the events up to the next decision.

        Raises ``IllegalAction`` and changes nothing if it is not this seat's
        turn or the action is not among ``legal_actions()``.
        """
        if self.to_act is None:
            raise IllegalAction(seat, str(action), (), "no one is to act")
        if seat != self.to_act:
            raise IllegalAction(seat, str(action), (), f"it is seat {self.to_act}'s turn")
        for chosen in self._legal:
            if chosen.kind == action:
                break
        else:
            raise IllegalAction(seat, str(action), self._legal)
        st = self.seats[seat]
        self._take(st, chosen)
        out: list[Event] = [
            _act(seat, self.street, chosen.kind, chosen.put, chosen.to, chosen.all_in)
        ]
        if self._live == 1:
            self._finish_uncontested(out)
        else:
            # R-O4, R-B8: the next seat clockwise that can bet and owes an action.
            for o in self._after[seat]:
                if not o.folded and not o.all_in and (not o.acted or o.street_total < self.high):
                    self._give_turn(o)
                    break
            else:
                self._end_round(out)
        self.events += out
        return out

    def _take(self, st: SeatState, chosen: Action) -> None:
        """``st``'s chosen action: its chips in, the street's high and its full wagers (R-A2)."""
        if chosen.put:
            st.stack -= chosen.put
            st.hand_total += chosen.put
            st.street_total = chosen.to
            st.all_in = st.stack == 0
            if self.street == 7:
                self._chips_on_seventh = True
        if chosen.kind is _FOLD:
            st.folded = True
            self._live -= 1
        elif chosen.kind is _BRING_IN:
            self.high = chosen.to
        elif chosen.kind in WAGERS:
            # R-A2: an all-in is a full wager when it lifts the highest total by half a
            # bet or more, or when it reaches the full amount a seat with more chips
            # would have made: the completion or bet before the street is opened, the
            # raise-to of R-B7 after.  Each all-in is judged on its own (4 -> 7 is
            # short, then 7 -> 10 reaches the completion and is full).
            bet = self._bet
            full_to = self.high + bet if self.opened else bet
            lift = chosen.to - self.high
            if not chosen.all_in or lift >= (bet + 1) // 2 or chosen.to >= full_to:
                self.full_count += 1
                self.opened = True
                if self.street == 7:  # R-S5 with R-A2: a short all-in is not a bet or raise
                    self._full_wagers_on_seventh.append(st.seat)
            self.high = chosen.to
        st.acted = True
        st.full_mark = self.full_count
        st.last_action = chosen.kind

    def _give_turn(self, st: SeatState) -> None:
        self.to_act = st.seat
        self.turn += 1
        self._legal = self._buttons(st)

    # ------------------------------------------------------------ streets

    def _next_street(self, out: list[Event]) -> None:
        """Deal the next street and open its betting, or run on when fewer than two
        seats can bet (R-D5)."""
        self._deal_street(out)
        if not self._open_betting():
            self._end_round(out)

    def _deal_street(self, out: list[Event]) -> None:
        """Deal the next street one card at a time, clockwise from the button, to every seat
        still in: on third street two down cards then one up card, then one up card a
        street, the last one down (R-D2, R-D3, R-D4); and start its betting afresh."""
        street = self.street = 3 if self.street == 0 else self.street + 1
        self._bet = self.stakes.bet_for(street)
        self.high = 0
        self.full_count = 0
        self.opened = False
        states = self.seats.values()
        for st in states:
            st.street_total = 0
            st.acted = False
            st.full_mark = 0
            st.last_action = None
        live = [st for st in states if not st.folded]
        deck, dealt = self._deck, self._dealt
        for up in (False, False, True) if street == 3 else (street != 7,):
            for st in live:
                card = deck[dealt]
                dealt += 1
                (st.up if up else st.down).append(card)
                out.append(_deal(st.seat, street, card, up))
        self._dealt = dealt

    def _open_betting(self) -> bool:
        """Give the turn to the seat that acts first on this street (R-O1..R-O3); False,
        with no one to act, when fewer than two seats can bet (R-D5)."""
        states = self.seats.values()
        bettors = 0
        for st in states:  # a loop: three times as fast as sum() over a generator
            if not st.folded and not st.all_in:
                bettors += 1
        if bettors < 2:
            return False
        if self.street == 3:  # no one has folded yet
            lowest = min(states, key=lambda st: st.up[0])  # cards order as R-O1 does
            first = self._first_can_bet_from(lowest)  # R-O1, R-O3
            self.bring_in_seat = first.seat
        else:
            live = [st for st in states if not st.folded]
            leader = max(live, key=lambda st: showing_value(st.up))
            first = self._first_can_bet_from(leader)  # R-O2, R-O3
            if self.street == 7:
                self._first_on_seventh = first.seat
        self._give_turn(first)
        return True

    def _first_can_bet_from(self, st: SeatState) -> SeatState:
        """``st`` if it can still bet, else the first seat clockwise after it that can (R-O3)."""
        if st.can_bet:
            return st
        return next(o for o in self._after[st.seat] if o.can_bet)

    def _end_round(self, out: list[Event]) -> None:
        """Close the betting round: give back what no one called, then go on."""
        self.to_act = None
        self._legal = ()
        self._return_uncalled(out)
        if self.street == 7:
            self._showdown(out)
        else:
            self._next_street(out)

    def _return_uncalled(self, out: list[Event]) -> None:
        """R-A4: chips of a bet that no one called go back; the bring-in counts as a bet."""
        top, most, second = None, 0, 0
        for st in self.seats.values():
            if st.hand_total > most:
                top, most, second = st, st.hand_total, most
            elif st.hand_total > second:
                second = st.hand_total
        if top is not None and most > second:
            top.stack += most - second
            top.hand_total = second
            top.street_total -= most - second
            top.all_in = False
            out.append(Return(top.seat, most - second))

    # ------------------------------------------------------------ betting

    def _buttons(self, st: SeatState) -> tuple[Action, ...]:
        """The legal actions of ``st``, whose turn it is (R-B1)."""
        stakes = self.stakes
        if self.street == 3 and self.high == 0 and not st.acted and st.seat == self.bring_in_seat:
            # R-B2: bring in or complete; neither check nor fold.
            stack, bring_in, small_bet = st.stack, stakes.bring_in, stakes.small_bet
            bring = min(bring_in, stack)
            buttons = [Action(_BRING_IN, bring, bring, all_in=stack <= bring_in)]
            if stack > bring_in and self._others_can_answer(st, bring_in):
                put = min(small_bet, stack)
                buttons.append(Action(_COMPLETE, put, put, all_in=stack <= small_bet))
            return tuple(buttons)
        if not self._may_wager(st):
            wager = None
        elif self.opened:
            wager = _RAISE  # R-B4, R-B5, R-B7
        else:
            wager = _COMPLETE if self.street == 3 else _BET  # R-B3
        bet = self._bet
        # A stack that covers a call and a wager has the buttons of any larger one.
        stack = min(st.stack, self.high - st.street_total + bet + 1)
        return _betting_buttons(stack, st.street_total, self.high, wager, bet)

    def _may_wager(self, st: SeatState) -> bool:
        """Whether ``st`` may bet, complete or raise now."""
        if st.stack <= self.high - st.street_total:
            return False  # it can only call, all in
        if st.acted and st.full_mark >= self.full_count:
            return False  # R-A2: only call or fold after a short all-in
        if self.full_count >= 4 and self._live > 2:
            return False  # R-B6: one bet and three raises while more than two are in
        return self._others_can_answer(st, self.high)

    def _others_can_answer(self, st: SeatState, level: int) -> bool:
        """R-B9: someone else in the hand could still put in more than ``level``."""
        for o in self._after[st.seat]:
            if o is not st and not o.folded and o.street_total + o.stack > level:
                return True
        return False

    # ------------------------------------------------------------ the end

    def _finish_uncontested(self, out: list[Event]) -> None:
        """R-S4: the last seat takes the pot without showing, once what no one called
        is back (R-A4)."""
        self.to_act = None
        self._legal = ()
        self._return_uncalled(out)
        winner = next(st for st in self.seats.values() if not st.folded)
        self._pay(winner.seat, self.pot_total, 0, out)
        self.is_over = True

    def _showdown(self, out: list[Event]) -> None:
        """R-S1..R-S3, R-S5: show in order, then pay each pot to its best hand."""
        values: dict[int, int] = {}
        for s in self._showing_order(self.in_hand):
            cards = self.seats[s].cards
            value = values[s] = evaluate(cards)
            out.append(Show(s, tuple(cards), tuple(best_five_of(cards, value)), hand_name(value)))
        for index, pot in enumerate(self.pots()):
            best = max(values[s] for s in pot.seats)
            # R-S3: odd chips one at a time clockwise from the first seat after the button.
            winners = clockwise([s for s in pot.seats if values[s] == best], after=self.button)
            share, odd = divmod(pot.amount, len(winners))
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
        out.append(Award(seat, amount, pot))
