"""The coach at the table: one short line, with its rule id, at the moment a rule applies.

``coach_lines(view, events, name_of, legal=..., focus=...)`` reads only what this seat
has been shown: its ``SeatView`` and this hand's events as received, the buttons the server
offered and the one the pointer or the keyboard is on.  It never reads a card the seat may
not see, because it is never given one (the property test in ``tests/test_coach.py``).
At most ``MAX_LINES`` lines, the latest last; each cites its rule (``docs/rules.md``).
Pure: no pygame, no clock.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from common.cards import parse
from common.events import STAKES, Act, ActionKind, Deal, Event, Show
from common.hands import bring_in_key, showing_name, showing_value
from common.schema import LegalAction, SeatView

__all__ = ["MAX_LINES", "CoachLine", "StreetStory", "card_words", "coach_lines", "street_story"]

MAX_LINES = 2

SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
_STREETS = {3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh"}
_COUNT = {0: "no", 1: "one", 2: "two", 3: "three"}
CAP = 4  # R-B6: one bet (or completion) and three raises a round, more than two seats in


@dataclass(frozen=True, slots=True)
class CoachLine:
    """One thing the coach says, and the rule (``R-..``) a click on it opens."""

    text: str
    rule: str


_RANK_WORDS = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def card_words(code: str) -> str:
    """``"2c"`` in words: ``"2 of clubs"`` (the table's font has no suit signs)."""
    rank = _RANK_WORDS.get(code[:1], code[:1])
    return f"{rank} of {SUIT_NAMES.get(code[1:2], '?')}"


def _cards(codes: Sequence[str]) -> str:
    """Ranks only, ``"A-K-Q-J-9"``: the hand's name beside it says the rest."""
    return "-".join("10" if c[:1] == "T" else c[:1] for c in codes)


@dataclass(slots=True)
class StreetStory:
    """One street's betting as the events tell it."""

    street: int
    acts: list[Act] = field(default_factory=list)
    wagers: int = 0  # full bets, completions and raises (R-B6's count; R-A2)
    chips: bool = False  # any chips went in by an action this street
    first: int | None = None  # the seat that acted first
    short: list[tuple[Act, int, int]] = field(default_factory=list)  # (act, before, lift)


_WAGERS = (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)


def street_story(events: Sequence[Event]) -> dict[int, StreetStory]:
    """Each street's ``StreetStory`` from a hand's events: which wagers were full (R-A2)."""
    out: dict[int, StreetStory] = {}
    high: dict[int, int] = {}
    for ev in events:
        if not isinstance(ev, Act):
            continue
        street = ev.street
        story = out.setdefault(street, StreetStory(street))
        before = high.get(street, 0)
        if story.first is None:
            story.first = ev.seat
        story.acts.append(ev)
        story.chips = story.chips or ev.put > 0
        if ev.action in _WAGERS:
            lift = ev.to - before
            # R-A2: a full amount, or a lift of half a bet or more, counts as full.
            complete = ev.action is ActionKind.COMPLETE
            full_to = STAKES.small_bet if complete else before + STAKES.bet_for(street)
            if before == STAKES.bring_in and street == 3 and ev.action is not ActionKind.RAISE:
                full_to = STAKES.small_bet
            if not ev.all_in or ev.to >= full_to or 2 * lift >= STAKES.bet_for(street):
                story.wagers += 1
            elif lift > 0:
                story.short.append((ev, before, lift))
        high[street] = max(before, ev.to)
    return out


class _Words:
    """Names and verbs: "Cy brings in", "You bring in"."""

    def __init__(self, view: SeatView, name_of: Callable[[int], str]) -> None:
        self.view, self._name_of = view, name_of

    def name(self, seat: int | None) -> str:
        if seat is not None and seat == self.view.you:
            return "You"
        return self._name_of(seat) if seat is not None else "?"

    def owner(self, seat: int | None) -> str:
        return "your" if seat is not None and seat == self.view.you else f"{self.name(seat)}'s"

    def verb(self, seat: int | None, third: str, plain: str) -> str:
        return f"{self.name(seat)} {plain if seat == self.view.you else third}"


def _bring_in_line(view: SeatView, w: _Words) -> CoachLine | None:
    """R-O1 (and R-O3): who brings in and why (a seat folded since counts)."""
    seat = view.bring_in
    if seat is None or seat not in view.seats or not view.seats[seat].up:
        return None  # R-D5: no bring-in when every seat but one is all in on its ante
    ups = {s: t.up[0] for s, t in view.seats.items() if t.up}
    lowest = min(ups, key=lambda s: bring_in_key(parse(ups[s])))
    card = ups[lowest]
    if lowest != seat and not view.seats[lowest].all_in:
        return None  # the view and the bring-in disagree: say nothing rather than guess
    if lowest != seat:
        return CoachLine(
            f"{w.verb(seat, 'brings in', 'bring in')}: {w.owner(lowest)} {card_words(card)} "
            f"is the lowest, but {w.name(lowest).lower() if lowest == view.you else w.name(lowest)}"
            f" {'are' if lowest == view.you else 'is'} all in",
            "R-O3",
        )
    text = f"{w.verb(seat, 'brings in', 'bring in')}: the {card_words(card)} is the lowest up card"
    if any(ups[s][0] == card[0] for s in ups if s != lowest):  # equal ranks (R-O1)
        text += "; equal ranks: clubs lowest, then diamonds, hearts, spades"
    return CoachLine(text, "R-O1")


def _straight_or_flush(up: Sequence[str]) -> str | None:
    """Four up cards to a straight or of one suit: they count only as high cards (R-O2)."""
    if len(up) < 4:
        return None
    suits = {c[1] for c in up}
    if len(suits) == 1:
        return f"four {SUIT_NAMES[up[0][1]]} showing"
    ranks = sorted(parse(c).rank for c in up)
    if ranks == list(range(ranks[0], ranks[0] + 4)) or ranks == [0, 1, 2, 12]:
        return f"{_cards(up)} showing"
    return None


def _showing_words(up: Sequence[str]) -> str:
    """The showing hand as a player says it: "pair of nines", "king high" (R-O2)."""
    name = showing_name([parse(c) for c in up])
    for head, say in (("one pair, ", "pair of "), ("three of a kind, ", "three "),
                      ("four of a kind, ", "four ")):  # fmt: skip
        if name.startswith(head):
            return say + name[len(head) :]
    if name.startswith("high card, "):
        return name[len("high card, ") :] + " high"
    return name


def _first_line(
    view: SeatView, first: int | None, folded_since: set[int], w: _Words
) -> CoachLine | None:
    """R-O2 (and R-O3): who acts first from fourth street, and why (``folded_since``: the
    seats that folded on this street still count: they were in when it was chosen)."""
    live = {s: t for s, t in view.seats.items() if t.up and (not t.folded or s in folded_since)}
    if first is None or len(live) < 2:
        return None
    values = {s: showing_value([parse(c) for c in t.up]) for s, t in live.items()}
    best = max(values, key=lambda s: values[s])
    who = w.verb(first, "acts first", "act first")
    if best != first and not live[best].all_in:
        return None  # the view and the first seat disagree: say nothing rather than guess
    if best != first:
        return CoachLine(
            f"{who}: {w.owner(best)} {_showing_words(live[best].up)} shows best, but that "
            "seat is all in",
            "R-O3",
        )
    text = f"{who}: {w.owner(best)} {_showing_words(live[best].up)} is the best hand showing"
    if any(values[s] >> 2 == values[best] >> 2 for s in values if s != best):
        text += "; equal ranks: the higher suit of the highest card decides"
    for s in live:
        draw = _straight_or_flush(live[s].up) if s != best else None
        if draw:
            # RULES.md speaks of a straight or flush showing; with at most four up
            # cards that is four to one, which counts as high cards all the same.
            text += f"; {w.owner(s)} {draw} count only as high cards"
            break
    return CoachLine(text, "R-O2")


def _allin_line(view: SeatView, seat: int, w: _Words) -> CoachLine | None:
    """R-A3: an all-in seat, and the side pot it cannot win."""
    st = view.seats.get(seat)
    if st is None or st.folded or not st.all_in:
        return None  # chips returned or won since: no longer all in
    side = sum(p.amount for p in view.pots if seat not in p.seats)
    is_you = seat == view.you
    who = f"{w.name(seat)} {'are' if is_you else 'is'} all in for {st.in_pot}"
    if side:
        them = "you" if is_you else w.name(seat)
        return CoachLine(f"{who}: the {side} above it is a side pot {them} cannot win", "R-A3")
    return CoachLine(f"{who}: what others bet beyond it makes a side pot", "R-A3")


def _short_line(ev: Act, before: int, lift: int, w: _Words) -> CoachLine:
    """R-A2: a short all-in is not a bet, completion or raise."""
    street = ev.street
    half = STAKES.bet_for(street) // 2
    head = (
        f"{w.owner(ev.seat).capitalize()} all-in to {ev.to} adds {lift}, less than half a "
        f"bet ({half}): "
    )
    if street == 3 and before <= STAKES.bring_in:
        tail = f"not a completion; the next seat may still complete to {STAKES.small_bet}"
    elif before == 0:
        tail = f"not a bet; the next seat may still bet {STAKES.bet_for(street)}"
    else:
        tail = "not a raise; who already acted may only call or fold"
    return CoachLine(head + tail, "R-A2")


def _show_lines(
    view: SeatView, events: Sequence[Event], stories: dict[int, StreetStory], w: _Words
) -> list[CoachLine]:
    """R-S5: who shows first and why; R-S1: the five cards the table chose."""
    shows = [e for e in events if isinstance(e, Show)]
    if not shows:
        return []
    first = shows[0].seat
    live = {s for s, t in view.seats.items() if not t.folded}
    seventh = stories.get(7)
    who = w.verb(first, "shows first", "show first")
    last_full = None
    if seventh is not None:
        shorts = {id(e) for e, _, _ in seventh.short}
        full = [
            e.seat
            for e in seventh.acts
            if e.seat in live and e.action in ("bet", "raise") and id(e) not in shorts
        ]
        last_full = full[-1] if full else None
    if last_full is not None and last_full == first:
        why = "the last full bet or raise on seventh street"
    elif seventh is not None and seventh.chips:
        why = f"no full bet by a seat still in; the first clockwise from {w.name(seventh.first)}"
        why += ", who acted first on seventh street"
    else:
        why = "nothing was bet on seventh street: the best showing hand shows first"
    out = [CoachLine(f"{who} ({why}), then clockwise", "R-S5")]
    # The rules do not say whose five cards to name (R-S1: "the table picks them"):
    # the coach names this seat's own where it showed, else the main pot's winner's.
    mine = next((e for e in shows if e.seat == view.you), None)
    winner = next((a.seat for a in view.awards if a.pot == 0), None)
    chosen = mine or next((e for e in shows if e.seat == winner), None)
    if chosen is not None:
        best = _cards([str(c) for c in chosen.best])
        owner = w.owner(chosen.seat).capitalize()
        out.append(CoachLine(f"{owner} best five: {best} ({chosen.hand})", "R-S1"))
    return out


def _button_line(
    view: SeatView,
    legal: Sequence[LegalAction],
    focus: LegalAction | None,
    stories: dict[int, StreetStory],
) -> CoachLine | None:
    """What the focused button does and costs (R-B2..R-B6); no fold when checking is free."""
    if not legal or view.you is None or view.you not in view.seats:
        return None
    street = view.street
    kinds = {a.action for a in legal}
    if focus is None:
        if "check" in kinds and "fold" not in kinds:
            return CoachLine("No fold button: nothing to call, so checking is free", "R-B5")
        return None
    mine = view.seats[view.you].bet
    owed = max(0, view.high - mine)
    live = sum(1 for t in view.seats.values() if not t.folded)  # all-in seats count (R-B6)
    story = stories.get(street)
    made = story.wagers if story is not None else 0

    left = CAP - made - 1  # after this wager
    if live <= 2:
        cap = "heads-up: raising has no cap"
    elif left <= 0:
        cap = "that reaches the cap: after it, only calls"
    else:
        cap = f"{_COUNT.get(left, str(left))} raise{'s' if left != 1 else ''} left before the cap"
    allin = " (all in)" if focus.all_in else ""
    act = focus.action
    if act == "fold":
        return CoachLine("Fold: give up the hand and what you have put in", "R-B1")
    if act == "check":
        return CoachLine("Check: nothing to call, it costs nothing", "R-B5")
    if act == "call":
        rule = "R-B4" if street == 3 else "R-B5"
        if focus.all_in and focus.put < owed:
            return CoachLine(
                f"Call {focus.put}, all you have: you can win from each rival only as much",
                "R-A3",
            )
        return CoachLine(f"Call {focus.put}: match the {view.high} to stay in{allin}", rule)
    if act == "bring_in":
        return CoachLine(
            f"Bring in for {focus.put}: the least you must put in (or complete to "
            f"{STAKES.small_bet}){allin}",
            "R-B2",
        )
    if act == "complete":
        text = f"Complete to {focus.to}: the full small bet, {focus.put} from you"
    elif act == "bet":
        size = "small" if STAKES.bet_for(street) == STAKES.small_bet else "big"
        text = f"Bet {focus.put}: the {size} bet on {_STREETS.get(street, '')} street"
    elif act == "raise":
        text = f"Raise to {focus.to}: {owed} to call and {max(0, focus.put - owed)} more"
    else:
        return None
    return CoachLine(f"{text}; {cap}{allin}", "R-B6")


def coach_lines(
    view: SeatView | None,
    events: Sequence[Event],
    name_of: Callable[[int], str],
    *,
    legal: Sequence[LegalAction] = (),
    focus: LegalAction | None = None,
) -> list[CoachLine]:
    """What the coach says now, the current street's lines only."""
    if view is None:
        return []
    w = _Words(view, name_of)
    stories = street_story(events)
    said: list[CoachLine] = []
    street = 0
    opened: set[int] = set()

    def open_street(s: int, first: int | None) -> None:
        if s in opened:
            return
        opened.add(s)
        if s == 3:
            line = _bring_in_line(view, w)
        else:
            acts = stories[s].acts if s in stories else []
            since = {e.seat for e in acts if e.action == "fold"}
            line = _first_line(view, first, since, w)
        if line is not None and s == view.street:
            said.append(line)

    for ev in events:
        if isinstance(ev, Deal) and ev.street != street:
            street = ev.street
            # Each street starts clean, but for an all-in's side pot: it lasts the hand.
            said[:] = [ln for ln in said if ln.rule == "R-A3"][-1:]
        elif isinstance(ev, Act):
            open_street(ev.street, ev.seat)
            story = stories.get(ev.street)
            for short in story.short if story is not None else []:
                if short[0] is ev:
                    said.append(_short_line(*short, w))
            if ev.all_in:
                line = _allin_line(view, ev.seat, w)
                if line is not None:
                    said.append(line)
        elif isinstance(ev, Show):
            said[:] = _show_lines(view, events, stories, w)
            break
    else:
        if view.over and view.awards and len({a.seat for a in view.awards}) == 1:
            seat = view.awards[0].seat
            if sum(1 for t in view.seats.values() if not t.folded) == 1:
                said.append(
                    CoachLine(
                        f"{w.verb(seat, 'takes', 'take')} the pot without showing: "
                        "every other seat folded",
                        "R-S4",
                    )
                )
    if not view.over and street == view.street and street not in opened and street >= 3:
        open_street(street, view.to_act)
    line = _button_line(view, legal, focus, stories) if not view.over else None
    if line is not None:
        said.append(line)
    return said[-MAX_LINES:]
