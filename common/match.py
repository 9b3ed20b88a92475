"""A match: a fixed number of hands at one table (R-T3..R-T7).

``Match`` keeps the stacks between hands, moves the button, drops busted
seats and says when the match is over and who won.  Like ``Hand`` it does no
I/O: the caller passes the RNG that draws the first button and the packs.

Invariants: ``stacks`` holds every seat of the match, busted ones at 0;
``hands_played`` counts finished hands; the sum of the stacks never changes.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping
from dataclasses import asdict, dataclass

from common.cards import Card, deal_cards
from common.engine import MAX_SEATS, Hand, clockwise
from common.events import STAKES, ActionKind, Event, IllegalAction, Stakes

__all__ = ["HAND_COUNTS", "START_STACK", "Match", "SeatInfo", "SeatKind", "Standing"]

START_STACK = 600
HAND_COUNTS = (4, 8, 12)
DEFAULT_HANDS = 8


class SeatKind(enum.StrEnum):
    HUMAN = "human"
    COMPUTER = "computer"


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat, as the hand history names it."""

    name: str
    kind: SeatKind = SeatKind.HUMAN


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat's place at the end of the match; tied seats share a place (R-T6)."""

    place: int
    seat: int
    name: str
    stack: int
    net: int
    winner: bool

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


class Match:
    """Hands back to back until the last one or until fewer than two can ante (R-T6)."""

    def __init__(
        self,
        *,
        seats: Mapping[int, SeatInfo],
        rng: random.Random,
        hands: int = DEFAULT_HANDS,
        stack: int = START_STACK,
        stakes: Stakes = STAKES,
    ) -> None:
        if not 2 <= len(seats) <= MAX_SEATS:
            raise ValueError(f"a match needs 2 to {MAX_SEATS} seats, got {len(seats)}")
        if hands not in HAND_COUNTS:
            raise ValueError(f"a match is 4, 8 or 12 hands (R-T4), not {hands}")
        if stack <= 0:
            raise ValueError("seats must start with chips")
        self.seats = dict(sorted(seats.items()))
        self.hands = hands
        self.stakes = stakes
        self.start_stack = stack
        self.stacks: dict[int, int] = {s: stack for s in self.seats}
        self.button = rng.choice(sorted(self.seats))  # R-T7
        self.hands_played = 0
        self.hand: Hand | None = None
        self._recorded = True

    @property
    def seats_in(self) -> list[int]:
        """Seats that still have chips (R-T5)."""
        return [s for s, chips in self.stacks.items() if chips > 0]

    @property
    def is_over(self) -> bool:
        """R-T6: after the last hand, or once fewer than two seats can ante."""
        if self.hand is not None and not self.hand.is_over:
            return False
        return self.hands_played >= self.hands or len(self.seats_in) < 2

    def next_hand(
        self, deck: list[Card] | None = None, *, rng: random.Random | None = None
    ) -> Hand:
        """Deal the next hand from ``deck`` (or a pack shuffled by ``rng``) and start it.

        The caller reads the hand's opening events from ``hand.events``.
        """
        if self.hand is not None and not self.hand.is_over:
            raise RuntimeError("the current hand is not over")
        if self.is_over:
            raise RuntimeError("the match is over")
        if deck is None:
            if rng is None:
                raise ValueError("pass a deck or an rng to shuffle one")
            deck = deal_cards(rng, 7 * len(self.seats_in))
        if self.hands_played:  # R-T7: clockwise to the next seat still in the match
            self.button = clockwise(self.seats_in, after=self.button)[0]
        stacks = {s: self.stacks[s] for s in self.seats_in}
        self.hand = Hand(stacks=stacks, button=self.button, deck=deck, stakes=self.stakes)
        self._recorded = False
        self.hand.start()
        self._record_if_over()
        return self.hand

    def apply(self, seat: int, action: ActionKind | str) -> list[Event]:
        """``Hand.apply`` on the current hand, keeping the match's stacks up to date."""
        if self.hand is None:
            raise IllegalAction(seat, str(action), (), "no hand is being played")
        events = self.hand.apply(seat, action)
        self._record_if_over()
        return events

    def _record_if_over(self) -> None:
        assert self.hand is not None
        if self.hand.is_over and not self._recorded:
            self.stacks.update(self.hand.final_stacks())
            self.hands_played += 1
            self._recorded = True

    def standings(self) -> list[Standing]:
        """Seats by chips, most first; seats tied for the most share the win (R-T6)."""
        ranked = sorted(self.seats, key=lambda s: (-self.stacks[s], s))
        top = self.stacks[ranked[0]]
        out: list[Standing] = []
        for i, s in enumerate(ranked):
            stack = self.stacks[s]
            place = out[-1].place if out and out[-1].stack == stack else i + 1
            net = stack - self.start_stack
            out.append(Standing(place, s, self.seats[s].name, stack, net, winner=stack == top))
        return out
