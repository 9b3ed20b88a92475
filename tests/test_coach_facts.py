"""Every fact the coach states (client.coach) checked against the rules (RULES.md) and the
hand itself, at every decision of random hands of 2 to 7 seats, for every seat and a
watcher (issue 33 point 2).

Each line is read back into what it claims: who brings in and with which card (R-O1),
who acts first and whose showing hand is best (R-O2), which seat is all in (R-O3, R-A2,
R-A3), who shows first (R-S5), who takes the pot (R-S4).  A seat named as acting must be
the one that acted (so it had not folded then); a seat named as all in must have no
chips left; the lowest card and the best showing hand are worked out here from the
seats' up cards, not taken from the coach.  A line this test cannot read fails it: a new
kind of line gets its check here.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from client.coach import CoachLine, card_words, coach_lines
from common.cards import full_deck
from common.engine import Hand
from common.events import Act, Show
from common.hands import bring_in_key, showing_value
from common.history import decode_events
from common.views import event_view, seat_view

NAMES = {0: "Ada", 1: "Bo", 2: "Cy", 3: "Di", 4: "Eve", 5: "Fay", 6: "Gus"}
SEATS = {name: seat for seat, name in NAMES.items()}

WHO = r"(?P<who>\w+)"
OWNER = r"(?P<owner>[Yy]our|\w+'s)"
FORMS: dict[str, list[re.Pattern[str]]] = {
    "R-O1": [
        re.compile(
            rf"{WHO} brings? in: the (?P<card>\w+ of \w+) is the lowest up card"
            r"(?P<suits>; equal ranks: clubs lowest, then diamonds, hearts, spades)?"
        )
    ],
    "R-O2": [
        re.compile(
            rf"{WHO} acts? first: {OWNER} (?P<show>.+?) is the best hand showing"
            r"(; equal ranks: the higher suit of the highest card decides)?"
            r"(; (?P<draw>.+) count only as high cards)?"
        )
    ],
    "R-O3": [
        re.compile(
            rf"{WHO} brings? in: {OWNER} (?P<card>\w+ of \w+) is the lowest, "
            r"but (?P<allin>\w+) (is|are) all in"
        ),
        re.compile(
            rf"{WHO} acts? first: {OWNER} (?P<show>.+?) shows best, but that seat is all in"
        ),
    ],
    "R-A2": [re.compile(rf"{OWNER} all-in to \d+ adds \d+, less than half a bet \(\d+\): .+")],
    "R-A3": [
        re.compile(rf"{WHO} (is|are) all in for \d+: .+"),
        re.compile(r"Call \d+, all you have: you can win from each rival only as much"),
    ],
    "R-S5": [re.compile(rf"{WHO} shows? first \(.+\), then clockwise")],
    "R-S1": [re.compile(rf"{OWNER} best five: [0-9AKQJ-]+ \(.+\)")],
    "R-S4": [re.compile(rf"{WHO} takes? the pot without showing: every other seat folded")],
}
"""What each rule's lines may say; the button lines (R-B..) name no seat."""


class Facts:
    """The hand as it stands, read from the engine: what each line is held to."""

    def __init__(self, hand: Hand, viewer: int | None) -> None:
        self.hand, self.viewer = hand, viewer
        acts = [e for e in hand.events if isinstance(e, Act)]
        street = hand.street
        self.folded_before = {
            e.seat for e in acts if e.action.value == "fold" and e.street < street
        }
        self.first = {n: next((e.seat for e in acts if e.street == n), None) for n in range(3, 8)}
        """Each street's first seat to act; this street's to act while no one has."""
        if self.first.get(street) is None:
            self.first[street] = hand.to_act
        self.shows = [e.seat for e in hand.events if isinstance(e, Show)]

    def seat(self, word: str | None) -> int:
        """The seat a line's word names: a name, "X's", or you/your for the viewer."""
        assert word is not None
        if word.lower() in ("you", "your"):
            assert self.viewer is not None, "a watcher is never 'you'"
            return self.viewer
        name = word.removesuffix("'s")
        assert name in SEATS, f"no seat is named {word!r}"
        return SEATS[name]

    def all_in(self, seat: int) -> bool:
        """All in now: no chips left (none returned or won since)."""
        st = self.hand.seats[seat]
        return st.all_in and st.stack == 0

    def lowest_up(self) -> int:
        """R-O1: the seat with the lowest first up card, every seat dealt counted (no one
        has folded when the bring-in is chosen)."""
        return min(self.hand.order, key=lambda s: bring_in_key(self.hand.seats[s].up[0]))

    def best_showing(self) -> int:
        """R-O2, R-O3: the best showing hand among the seats in at this street's start."""
        live = [s for s in self.hand.order if s not in self.folded_before]
        return max(live, key=lambda s: showing_value(self.hand.seats[s].up))


def check(line: CoachLine, f: Facts) -> None:
    forms = FORMS.get(line.rule)
    if forms is None:
        assert line.rule.startswith("R-B"), line
        return
    m = next((m for p in forms if (m := p.fullmatch(line.text))), None)
    assert m is not None, f"the test cannot read {line}"
    g = m.groupdict()
    hand = f.hand
    if "card" in g:  # the bring-in (R-O1, R-O3): the seat that brought in, the lowest card
        who, low = f.seat(g["who"]), f.lowest_up()
        assert who == hand.bring_in_seat == f.first[3], line
        assert g["card"] == card_words(str(hand.seats[low].up[0])), line
        if line.rule == "R-O1":
            assert who == low, line
            ranks = [hand.seats[s].up[0].rank for s in hand.order]
            assert bool(g["suits"]) == (ranks.count(hand.seats[low].up[0].rank) > 1), line
        else:
            assert f.seat(g["owner"]) == low == f.seat(g["allin"]) != who, line
            assert f.all_in(low), f"{line}: {NAMES[low]} has {hand.seats[low].stack} chips"
    elif "show" in g:  # who acts first (R-O2, R-O3)
        who, owner = f.seat(g["who"]), f.seat(g["owner"])
        assert hand.street >= 4 and who == f.first[hand.street], line
        assert who not in f.folded_before, line
        assert owner == f.best_showing(), line
        if line.rule == "R-O2":
            assert owner == who, line
        else:
            assert owner != who and f.all_in(owner), f"{line}: {hand.seats[owner].stack} chips"
    elif line.rule == "R-A2":  # a short all-in: an act of that seat's, all in
        seat = f.seat(g["owner"])
        assert any(isinstance(e, Act) and e.seat == seat and e.all_in for e in hand.events)
    elif line.rule == "R-A3" and g.get("who"):
        seat = f.seat(g["who"])
        assert f.all_in(seat), f"{line}: {NAMES[seat]} has {hand.seats[seat].stack} chips"
    elif line.rule == "R-A3":  # the call button's: all the viewer has
        assert f.viewer is not None and hand.to_act == f.viewer, line
    elif line.rule == "R-S5":
        assert f.shows and f.seat(g["who"]) == f.shows[0], line
    elif line.rule == "R-S1":
        assert f.seat(g["owner"]) in f.shows, line
    elif line.rule == "R-S4":
        who = f.seat(g["who"])
        assert hand.is_over and hand.in_hand == [who], line


def lines_of(hand: Hand, viewer: int | None, focus: str | None = None) -> list[CoachLine]:
    """The coach's lines for ``viewer``, from what the server would send it."""
    view = seat_view(hand, viewer)
    events = decode_events([event_view(e, viewer).to_dict() for e in hand.events])
    pick = next((a for a in view.legal if a.action == focus), None) if focus else None
    return coach_lines(view, events, NAMES.__getitem__, legal=view.legal, focus=pick)


def play_checked(hand: Hand, rng: random.Random, look: Callable[[Hand], None]) -> None:
    """Play ``hand`` to its end by random choices (folds rarer), ``look`` at every stop."""
    look(hand)
    while not hand.is_over:
        kinds = [a.kind.value for a in hand.legal_actions()]
        kind = rng.choice(kinds)
        if kind == "fold" and rng.random() < 0.6:
            kind = next((k for k in ("check", "call") if k in kinds), kind)
        assert hand.to_act is not None
        hand.apply(hand.to_act, kind)
        look(hand)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 7))
def test_every_line_states_only_facts(seed: int, seats: int) -> None:
    rng = random.Random(seed)
    deck = full_deck()
    rng.shuffle(deck)
    chips = {s: rng.choice([600, 600, 600, 547, 60, 14, 9, 5, 1]) for s in range(seats)}
    hand = Hand(stacks=chips, button=rng.randrange(seats), deck=deck)
    hand.start()

    def look(h: Hand) -> None:
        for viewer in [*h.order, None]:
            focus = rng.choice([None, "call", "raise", "bet", "complete"])
            facts = Facts(h, viewer)
            for line in lines_of(h, viewer, focus if viewer == h.to_act else None):
                check(line, facts)

    play_checked(hand, rng, look)


@pytest.mark.parametrize("seed", range(3))
def test_the_reader_reads_each_kind_of_line(seed: int) -> None:
    """The check above is no empty net: over a few hands (at most 80) it reads the lines of
    every rule it knows."""
    seen: set[str] = set()
    for k in range(80):
        if set(FORMS) <= seen:
            break
        rng = random.Random(seed * 1000 + k)
        deck = full_deck()
        rng.shuffle(deck)
        seats = rng.randint(2, 7)
        chips = {s: rng.choice([600, 600, 14, 5, 1]) for s in range(seats)}
        hand = Hand(stacks=chips, button=0, deck=deck)
        hand.start()

        def look(h: Hand) -> None:
            for viewer in h.order:
                focus = "call" if viewer == h.to_act else None
                for line in lines_of(h, viewer, focus):
                    check(line, Facts(h, viewer))
                    seen.add(line.rule)

        play_checked(hand, rng, look)
    assert set(FORMS) <= seen, set(FORMS) - seen
