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

from client.handwords import hand_words, showing_words
from client.handwords import parse as parse_hand
from client.i18n import chips, ngettext, pgettext
from client.i18n import gettext as _
from client.tablewords import street_in_sentence, suit_name
from common.cards import parse
from common.events import STAKES, Act, ActionKind, Deal, Event, Show
from common.hands import bring_in_key, showing_name, showing_value
from common.schema import LegalAction, SeatView

__all__ = ["MAX_LINES", "CoachLine", "StreetStory", "card_words", "coach_lines", "street_story"]

MAX_LINES = 2

CAP = 4  # R-B6: one bet (or completion) and three raises a round, more than two seats in


@dataclass(frozen=True, slots=True)
class CoachLine:
    """One thing the coach says, and the rule (``R-..``) a click on it opens."""

    text: str
    rule: str


def card_words(code: str) -> str:
    """``"2c"`` in words: ``"2 of clubs"`` (the table's font has no suit signs)."""
    # Translators: a card's rank in "{rank} of {suit}".
    faces = {"T": "10", "J": pgettext("card", "jack"), "Q": pgettext("card", "queen"),
             "K": pgettext("card", "king"), "A": pgettext("card", "ace")}  # fmt: skip
    rank = faces.get(code[:1], code[:1])
    # Translators: a card in words: "2 of clubs", "queen of hearts".
    return _("{rank} of {suit}").format(rank=rank, suit=suit_name(code[1:2]))


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
    """Names: "Cy", or "You" for this seat (each sentence has a form for each)."""

    def __init__(self, view: SeatView, name_of: Callable[[int], str]) -> None:
        self.view, self._name_of = view, name_of

    def you(self, seat: int | None) -> bool:
        return seat is not None and seat == self.view.you

    def name(self, seat: int | None) -> str:
        if self.you(seat):
            return _("You")
        return self._name_of(seat) if seat is not None else "?"


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
    who, low, card_said = w.name(seat), w.name(lowest), card_words(card)
    if lowest != seat:
        if w.you(lowest):
            text = _("{who} brings in: your {card} is the lowest, but you are all in")
        elif w.you(seat):
            text = _("You bring in: {low}'s {card} is the lowest, but {low} is all in")
        else:
            text = _("{who} brings in: {low}'s {card} is the lowest, but {low} is all in")
        return CoachLine(text.format(who=who, low=low, card=card_said), "R-O3")
    if w.you(seat):
        text = _("You bring in: the {card} is the lowest up card")
    else:
        text = _("{who} brings in: the {card} is the lowest up card")
    text = text.format(who=who, card=card_said)
    if any(ups[s][0] == card[0] for s in ups if s != lowest):  # equal ranks (R-O1)
        text += "; " + _("equal ranks: clubs lowest, then diamonds, hearts, spades")
    return CoachLine(text, "R-O1")


def _straight_or_flush(up: Sequence[str], w: _Words, seat: int) -> str | None:
    """Four up cards to a straight or of one suit: they count only as high cards (R-O2)."""
    if len(up) < 4:
        return None
    suits = {c[1] for c in up}
    who, you = w.name(seat), w.you(seat)
    if len(suits) == 1:
        if you:
            text = _("your four {suit} showing count only as high cards")
        else:
            text = _("{who}'s four {suit} showing count only as high cards")
        return text.format(who=who, suit=suit_name(up[0][1]))
    ranks = sorted(parse(c).rank for c in up)
    if ranks == list(range(ranks[0], ranks[0] + 4)) or ranks == [0, 1, 2, 12]:
        if you:
            text = _("your {cards} showing count only as high cards")
        else:
            text = _("{who}'s {cards} showing count only as high cards")
        return text.format(who=who, cards=_cards(up))
    return None


def _showing_words(up: Sequence[str]) -> str:
    """The showing hand as a player says it: "pair of nines", "king high" (R-O2)."""
    name = showing_name([parse(c) for c in up])
    got = parse_hand(name)
    return showing_words(*got) if got is not None else name


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
    if best != first and not live[best].all_in:
        return None  # the view and the first seat disagree: say nothing rather than guess
    showing = _showing_words(live[best].up)
    who, top = w.name(first), w.name(best)
    if best != first:
        if w.you(best):
            text = _("{who} acts first: your {showing} shows best, but that seat is all in")
        elif w.you(first):
            text = _("You act first: {top}'s {showing} shows best, but that seat is all in")
        else:
            text = _("{who} acts first: {top}'s {showing} shows best, but that seat is all in")
        return CoachLine(text.format(who=who, top=top, showing=showing), "R-O3")
    if w.you(first):
        text = _("You act first: your {showing} is the best hand showing")
    else:
        text = _("{who} acts first: {who}'s {showing} is the best hand showing")
    text = text.format(who=who, showing=showing)
    if any(values[s] >> 2 == values[best] >> 2 for s in values if s != best):
        text += "; " + _("equal ranks: the higher suit of the highest card decides")
    for s in live:
        draw = _straight_or_flush(live[s].up, w, s) if s != best else None
        if draw:
            # RULES.md speaks of a straight or flush showing; with at most four up
            # cards that is four to one, which counts as high cards all the same.
            text += "; " + draw
            break
    return CoachLine(text, "R-O2")


def _allin_line(view: SeatView, seat: int, w: _Words) -> CoachLine | None:
    """R-A3: an all-in seat, and the side pot it cannot win."""
    st = view.seats.get(seat)
    if st is None or st.folded or not st.all_in:
        return None  # chips returned or won since: no longer all in
    side = sum(p.amount for p in view.pots if seat not in p.seats)
    you = w.you(seat)
    if side and you:
        text = _("You are all in for {amount}: the {side} above it is a side pot you cannot win")
    elif side:
        text = _("{who} is all in for {amount}: the {side} above it is a side pot {who} cannot win")
    elif you:
        text = _("You are all in for {amount}: what others bet beyond it makes a side pot")
    else:
        text = _("{who} is all in for {amount}: what others bet beyond it makes a side pot")
    return CoachLine(
        text.format(who=w.name(seat), amount=chips(st.in_pot), side=chips(side)), "R-A3"
    )


def _short_line(ev: Act, before: int, lift: int, w: _Words) -> CoachLine:
    """R-A2: a short all-in is not a bet, completion or raise."""
    street = ev.street
    half = STAKES.bet_for(street) // 2
    you = w.you(ev.seat)
    if street == 3 and before <= STAKES.bring_in:
        to = STAKES.small_bet
        if you:
            text = _("Your all-in to {to} adds {lift}, less than half a bet ({half}): "
                     "not a completion; the next seat may still complete to {next}")  # fmt: skip
        else:
            text = _("{who}'s all-in to {to} adds {lift}, less than half a bet ({half}): "
                     "not a completion; the next seat may still complete to {next}")  # fmt: skip
    elif before == 0:
        to = STAKES.bet_for(street)
        if you:
            text = _("Your all-in to {to} adds {lift}, less than half a bet ({half}): "
                     "not a bet; the next seat may still bet {next}")  # fmt: skip
        else:
            text = _("{who}'s all-in to {to} adds {lift}, less than half a bet ({half}): "
                     "not a bet; the next seat may still bet {next}")  # fmt: skip
    else:
        to = 0
        if you:
            text = _("Your all-in to {to} adds {lift}, less than half a bet ({half}): "
                     "not a raise; who already acted may only call or fold")  # fmt: skip
        else:
            text = _("{who}'s all-in to {to} adds {lift}, less than half a bet ({half}): "
                     "not a raise; who already acted may only call or fold")  # fmt: skip
    words = text.format(who=w.name(ev.seat), to=chips(ev.to), lift=chips(lift), half=chips(half),
                        next=chips(to))  # fmt: skip
    return CoachLine(words, "R-A2")


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
    last_full = None
    if seventh is not None:
        shorts = {id(e) for e, _e, _l in seventh.short}
        full = [
            e.seat
            for e in seventh.acts
            if e.seat in live and e.action in ("bet", "raise") and id(e) not in shorts
        ]
        last_full = full[-1] if full else None
    # Translators: why a seat shows first, in "Ann shows first ({why}), then clockwise".
    if last_full is not None and last_full == first:
        why = _("the last full bet or raise on seventh street")
    elif seventh is not None and seventh.chips and w.you(seventh.first):
        why = _("no full bet by a seat still in; the first clockwise from you, who acted "
                "first on seventh street")  # fmt: skip
    elif seventh is not None and seventh.chips:
        why = _("no full bet by a seat still in; the first clockwise from {who}, who acted "
                "first on seventh street")  # fmt: skip
    else:
        why = _("nothing was bet on seventh street: the best showing hand shows first")
    why = why.format(who=w.name(seventh.first) if seventh is not None else "")
    if w.you(first):
        text = _("You show first ({why}), then clockwise")
    else:
        text = _("{who} shows first ({why}), then clockwise")
    out = [CoachLine(text.format(who=w.name(first), why=why), "R-S5")]
    # The rules do not say whose five cards to name (R-S1: "the table picks them"):
    # the coach names this seat's own where it showed, else the main pot's winner's.
    mine = next((e for e in shows if e.seat == view.you), None)
    winner = next((a.seat for a in view.awards if a.pot == 0), None)
    chosen = mine or next((e for e in shows if e.seat == winner), None)
    if chosen is not None:
        best = _cards([str(c) for c in chosen.best])
        if w.you(chosen.seat):
            text = _("Your best five: {cards} ({hand})")
        else:
            text = _("{who}'s best five: {cards} ({hand})")
        text = text.format(who=w.name(chosen.seat), cards=best, hand=hand_words(chosen.hand))
        out.append(CoachLine(text, "R-S1"))
    return out


def _cap_words(live: int, left: int) -> str:
    """What a wager leaves of the round's raises (R-B6)."""
    if live <= 2:
        return _("heads-up: raising has no cap")
    if left <= 0:
        return _("that reaches the cap: after it, only calls")
    # Translators: a count said as a word, in "{count} raises left before the cap".
    count = {1: pgettext("count", "one"), 2: pgettext("count", "two"),
             3: pgettext("count", "three")}.get(left, str(left))  # fmt: skip
    words = ngettext(
        "{count} raise left before the cap", "{count} raises left before the cap", left
    )
    return words.format(count=count)


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
            return CoachLine(_("No fold button: nothing to call, so checking is free"), "R-B5")
        return None
    mine = view.seats[view.you].bet
    owed = max(0, view.high - mine)
    live = sum(1 for t in view.seats.values() if not t.folded)  # all-in seats count (R-B6)
    story = stories.get(street)
    made = story.wagers if story is not None else 0
    cap = _cap_words(live, CAP - made - 1)  # after this wager
    act = focus.action
    put, to = chips(focus.put), chips(focus.to)
    if act == "fold":
        return CoachLine(_("Fold: give up the hand and what you have put in"), "R-B1")
    if act == "check":
        return CoachLine(_("Check: nothing to call, it costs nothing"), "R-B5")
    if act == "call":
        rule = "R-B4" if street == 3 else "R-B5"
        if focus.all_in and focus.put < owed:
            words = _("Call {amount}, all you have: you can win from each rival only as much")
            return CoachLine(words.format(amount=put), "R-A3")
        text = _("Call {amount}: match the {high} to stay in").format(
            amount=put, high=chips(view.high)
        )
        return CoachLine(_all_in(text) if focus.all_in else text, rule)
    if act == "bring_in":
        words = _("Bring in for {amount}: the least you must put in (or complete to {small})")
        text = words.format(amount=put, small=chips(STAKES.small_bet))
        return CoachLine(_all_in(text) if focus.all_in else text, "R-B2")
    if act == "complete":
        text = _("Complete to {to}: the full small bet, {amount} from you").format(
            to=to, amount=put
        )
    elif act == "bet":
        if STAKES.bet_for(street) == STAKES.small_bet:
            text = _("Bet {amount}: the small bet on {street}")
        else:
            text = _("Bet {amount}: the big bet on {street}")
        text = text.format(amount=put, street=street_in_sentence(street))
    elif act == "raise":
        text = _("Raise to {to}: {owed} to call and {more} more")
        text = text.format(to=to, owed=chips(owed), more=chips(max(0, focus.put - owed)))
    else:
        return None
    text = f"{text}; {cap}"
    return CoachLine(_all_in(text) if focus.all_in else text, "R-B6")


def _all_in(text: str) -> str:
    # Translators: a coach's line about a button that puts the seat all in.
    return _("{line} (all in)").format(line=text)


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
                if w.you(seat):
                    text = _("You take the pot without showing: every other seat folded")
                else:
                    text = _("{who} takes the pot without showing: every other seat folded")
                said.append(CoachLine(text.format(who=w.name(seat)), "R-S4"))
    if not view.over and street == view.street and street not in opened and street >= 3:
        open_street(street, view.to_act)
    line = _button_line(view, legal, focus, stories) if not view.over else None
    if line is not None:
        said.append(line)
    return said[-MAX_LINES:]
