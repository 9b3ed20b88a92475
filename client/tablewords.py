"""The words of the odds, the cards-seen panel, the analysis, the recap and the replayer's
stops, in the player's language.  ``common`` works the facts out (and keeps its English for
the histories and the tests that read it); these word the facts again from whole
templates."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from client.handwords import hand_words, plural_rank, with_hand_words
from client.i18n import LANGUAGES, chips, language, ngettext, pgettext
from client.i18n import gettext as _
from client.wording import and_names, street_name
from common.analysis import Mark
from common.equity import Estimate
from common.odds import PotOdds
from common.recap import Moment
from common.replay import Position, seat_names, won_by
from common.seen import Draw

__all__ = ["draw_words", "hand_label", "mark_short", "mark_text", "mark_title", "moment_text",
           "moment_title", "odds_line", "percent", "price_line", "stop_words",
           "street_in_sentence", "suit_name", "verdict_line"]  # fmt: skip


def _decimal(value: float, places: int) -> str:
    from babel.numbers import format_decimal

    code = language() if language() in LANGUAGES else "en"
    return format_decimal(value, format="#,##0" + ("." + "0" * places if places else ""),
                          locale=code)  # fmt: skip


def percent(x: float | Fraction, places: int = 0) -> str:
    """``0.0752`` -> ``"7.5%"`` (``places`` 1), as the language writes it; never 0% or 100%
    of what is not (``common.odds.percent``'s rule)."""
    value = float(x) * 100
    shown = round(value, places)
    if shown == 0 and value > 0:
        number = "<" + _decimal(10**-places, places)
    elif shown == 100 and value < 100:
        number = ">" + _decimal(100 - 10**-places, places)
    else:
        number = _decimal(shown, places)
    # Translators: a percentage; French and German put a no-break space before the sign.
    return _("{number}%").format(number=number)


def street_in_sentence(street: int) -> str:
    """``"fifth street"`` inside a sentence; ``"the deal"`` for none."""
    # Translators: a street inside a sentence: "the small bet on {street}", "Hand 3, {street}".
    return {
        3: pgettext("street, in a sentence", "third street"),
        4: pgettext("street, in a sentence", "fourth street"),
        5: pgettext("street, in a sentence", "fifth street"),
        6: pgettext("street, in a sentence", "sixth street"),
        7: pgettext("street, in a sentence", "seventh street"),
    }.get(street, pgettext("street, in a sentence", "the deal"))


# -- the odds readout --------------------------------------------------------------------


def odds_line(result: Estimate, rivals: int) -> str:
    """``"You win about 31% (±1) against 3 seats"``; counted: ``"You win 31.4% ..."``."""
    if rivals == 0:
        return _("You win the pot: no one else is in")
    if result.exact:
        words = ngettext(
            "You win {percent} against {n} seat (every card counted)",
            "You win {percent} against {n} seats (every card counted)",
            rivals,
        )
        return words.format(percent=percent(result.share, 1), n=rivals)
    spread = max(1, round(result.half_width * 100))
    words = ngettext("You win about {percent} (±{spread}) against {n} seat",
                     "You win about {percent} (±{spread}) against {n} seats", rivals)  # fmt: skip
    return words.format(percent=percent(result.share), spread=spread, n=rivals)


def price_line(price: PotOdds) -> str:
    """``"Call 20 to win 246: you need 7.5%"``."""
    words = _("Call {amount} to win {pot}: you need {percent}")
    return words.format(
        amount=chips(price.call), pot=chips(price.win), percent=percent(price.need, 1)
    )


def verdict_line(price: PotOdds, result: Estimate) -> str:
    """What the chance says of the price (``common.odds.PotOdds.verdict``'s three)."""
    need = float(price.need)
    if abs(result.share - need) <= result.half_width:
        return _("About what you need: a close call")
    if result.share > need:
        return _("More than you need: the pot pays for the call")
    return _("Less than you need: the pot does not pay for it")


# -- the cards-seen panel ----------------------------------------------------------------

_SUITS = {"clubs": "c", "diamonds": "d", "hearts": "h", "spades": "s"}
_PLURALS = {w + ("es" if w == "six" else "s"): r for r, w in enumerate(
    ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen",
     "king", "ace"))}  # fmt: skip


def suit_name(code: str) -> str:
    """A suit's word by its letter (``c`` clubs ...), as a card's name and a flush say it."""
    # Translators: a suit, in "{rank} of {suit}" (the 2 of clubs) and "Flush ({suit}): ...".
    return {
        "c": pgettext("suit", "clubs"),
        "d": pgettext("suit", "diamonds"),
        "h": pgettext("suit", "hearts"),
        "s": pgettext("suit", "spades"),
    }.get(code, "?")


def _suit_plural(word: str) -> str:
    return suit_name(_SUITS[word]) if word in _SUITS else word


def _draw_what(d: Draw) -> str:
    """The draw's name: a suit, ``"5 to 9"``, ``"J or 10"``, ``"kings"``."""
    if d.kind == "flush":
        return _suit_plural(d.name)
    if d.kind == "trips":
        rank = _PLURALS.get(d.name)
        return plural_rank(rank) if rank is not None else d.name
    if " to " in d.name:
        low, high = d.name.split(" to ", 1)
        # Translators: a straight's span of ranks: "5 to 9".
        return _("{low} to {high}").format(low=low, high=high)
    ranks = d.name.split(" or ")
    if len(ranks) == 1:
        return d.name
    # Translators: the ranks that fill a straight: "J or 10".
    return _("{ranks} or {last}").format(ranks=", ".join(ranks[:-1]), last=ranks[-1])


def draw_words(d: Draw) -> str:
    """``"Flush (hearts): needs 2 cards, 7 live"``, ``"Trips (kings): made"``."""
    what = _draw_what(d)
    if d.made:
        words = {"flush": _("Flush ({what}): made"), "straight": _("Straight ({what}): made"),
                 "trips": _("Trips ({what}): made")}[d.kind]  # fmt: skip
        return words.format(what=what)
    if d.kind == "straight" and d.need == 1:
        words = ngettext("Straight (a {what}): needs 1 card, {live} live",
                         "Straight (a {what}): needs 1 card, {live} live", d.live)  # fmt: skip
    elif d.kind == "straight":
        words = ngettext("Straight ({what}): needs {n} card, {live} live",
                         "Straight ({what}): needs {n} cards, {live} live", d.need)  # fmt: skip
    elif d.kind == "flush":
        words = ngettext("Flush ({what}): needs {n} card, {live} live",
                         "Flush ({what}): needs {n} cards, {live} live", d.need)  # fmt: skip
    else:
        words = ngettext("Trips ({what}): needs {n} card, {live} live",
                         "Trips ({what}): needs {n} cards, {live} live", d.need)  # fmt: skip
    return words.format(what=what, n=d.need, live=d.live)


# -- the analysis ------------------------------------------------------------------------


def mark_title(mark: Mark) -> str:
    """``"Hand 3, fifth street"``."""
    return _("Hand {hand}, {street}").format(hand=mark.hand, street=street_in_sentence(mark.street))


def _pct(x: float | None) -> str:
    """The analysis's percentages: a decimal under 10% (``common.analysis._pct``)."""
    v = 100 * (x or 0.0)
    return percent(x or 0.0, 1 if 0 < v < 9.95 else 0)


def mark_text(mark: Mark) -> str:
    """Why a decision is worth a look, in a sentence or two."""
    if mark.kind == "fold":
        words = _("You folded with about {chance} facing {amount} to win {pot}: you needed {need}.")
        return words.format(chance=_pct(mark.chance), amount=chips(mark.chips),
                            pot=chips(mark.pot), need=_pct(mark.need))  # fmt: skip
    facts = {"amount": chips(mark.chips), "rival": mark.rival, "shows": hand_words(mark.shows),
             "best": hand_words(mark.best)}  # fmt: skip
    if mark.kind == "dead_call" and mark.made:
        words = _("You called {amount} with no live outs: {rival} shows {shows}, and your seven "
                  "cards make only {best}.")  # fmt: skip
    elif mark.kind == "dead_call":
        words = _("You called {amount} with no live outs: {rival} shows {shows}, and the best "
                  "you could still make is {best}.")  # fmt: skip
    elif mark.made:
        words = {
            "bet": _("You bet {amount} into {rival}'s {shows} showing: your seven cards make "
                     "only {best}."),
            "raise": _("You raised {amount} into {rival}'s {shows} showing: your seven cards "
                       "make only {best}."),
            "complete": _("You completed {amount} into {rival}'s {shows} showing: your seven "
                          "cards make only {best}."),
        }.get(mark.action, "")  # fmt: skip
    else:
        words = {
            "bet": _("You bet {amount} into {rival}'s {shows} showing: no card to come could "
                     "make your hand beat it (at best {best})."),
            "raise": _("You raised {amount} into {rival}'s {shows} showing: no card to come "
                       "could make your hand beat it (at best {best})."),
            "complete": _("You completed {amount} into {rival}'s {shows} showing: no card to "
                          "come could make your hand beat it (at best {best})."),
        }.get(mark.action, "")  # fmt: skip
    return words.format(**facts) if words else mark.text


def mark_short(mark: Mark) -> str:
    """The decision in a few words, for a list: ``"folded with 34%, needing 14%"``."""
    if mark.kind == "fold":
        words = _("folded with {chance}, needing {need}")
        return words.format(chance=_pct(mark.chance), need=_pct(mark.need))
    if mark.kind == "dead_call":
        return _("called {amount} with no live outs").format(amount=chips(mark.chips))
    words = {
        "bet": _("bet {amount}, drawing dead"),
        "raise": _("raised {amount}, drawing dead"),
        "complete": _("completed {amount}, drawing dead"),
    }.get(mark.action)
    return words.format(amount=chips(mark.chips)) if words else mark.short


# -- the recap ---------------------------------------------------------------------------


def moment_title(m: Moment) -> str:
    titles = {"biggest_pot": _("Biggest pot"), "best_hand": _("Best hand shown"),
              "most_won": _("Most hands won")}  # fmt: skip
    return titles.get(m.kind, m.title)


def moment_text(m: Moment) -> str:
    """``"246 chips, hand 3: Ann with a flush, ace high"``."""
    names = and_names(list(m.names))
    if m.kind == "biggest_pot" and m.shown:
        words = _("{amount} chips, hand {hand}: {who} {with_hand}")
    elif m.kind == "biggest_pot":
        words = _("{amount} chips, hand {hand}: {who} uncontested")
    elif m.kind == "best_hand":
        words = _("{who}: {shown}, hand {hand}")
    elif m.kind == "most_won":
        words = ngettext("{who}: {n} hand of {of}", "{who}: {n} hands of {of}", m.chips)
    else:
        return m.text
    return words.format(amount=chips(m.chips), hand=m.hand, who=names, n=m.chips, of=m.of,
                        with_hand=with_hand_words(m.shown), shown=hand_words(m.shown))  # fmt: skip


# -- the replayer's stops ----------------------------------------------------------------


def _act_stop(who: str, ev: Mapping[str, Any]) -> str:
    # Translators: a replay's stop, one action: "Ann brings in 3", "Cy raises to 20".
    words = {
        "bring_in": pgettext("replay", "{who} brings in {amount}"),
        "complete": pgettext("replay", "{who} completes to {amount}"),
        "bet": pgettext("replay", "{who} bets {amount}"),
        "raise": pgettext("replay", "{who} raises to {amount}"),
        "call": pgettext("replay", "{who} calls {amount}"),
        "check": pgettext("replay", "{who} checks"),
        "fold": pgettext("replay", "{who} folds"),
    }.get(str(ev.get("action")), "{who}")
    amount = ev.get("put") if ev.get("action") in ("bring_in", "bet", "call") else ev.get("to")
    line = words.format(who=who, amount=chips(int(amount or 0)))
    return pgettext("replay", "{line} (all in)").format(line=line) if ev.get("all_in") else line


def stop_words(record: Mapping[str, Any], stop: Position) -> str:
    """A stop of ``common.replay.positions`` in words (its label is the histories')."""
    events = record.get("events") or []
    names = seat_names(record)
    if not 0 < stop.upto <= len(events):
        return stop.label
    ev = events[stop.upto - 1]
    kind = ev.get("ev")
    who = names.get(ev.get("seat"), "?")
    if kind in ("ante", "deal"):
        # Translators: a replay's stop: a street's cards dealt.
        return pgettext("replay", "{street}: the deal").format(
            street=street_name(stop.street) or _("Deal")
        )
    if kind == "act":
        return _act_stop(who, ev)
    if kind == "return":
        words = _("{amount} uncalled goes back to {who}")
        return words.format(amount=chips(int(ev.get("amount", 0))), who=who)
    if kind == "show":
        return _("{who} shows {hand}").format(who=who, hand=hand_words(str(ev.get("hand", ""))))
    if kind == "award":  # the pots paid together, the first first
        first = stop.upto - 1
        while first > 0 and events[first - 1].get("ev") == "award":
            first -= 1
        wins = [pgettext("replay", "{who} wins {amount}").format(
                    who=names.get(e.get("seat"), "?"), amount=chips(int(e.get("amount", 0))))
                for e in events[first:stop.upto]]  # fmt: skip
        return ", ".join(wins)
    return stop.label


def hand_label(record: Mapping[str, Any]) -> str:
    """``"Hand 3: Ann wins 112 with two pair, kings and sixes"``."""
    names = seat_names(record)
    events: Sequence[Mapping[str, Any]] = record.get("events") or []
    shows = {e["seat"]: e["hand"] for e in events if e.get("ev") == "show"}
    parts = []
    for seat, amount in won_by(record).items():
        who, won = names.get(seat, "?"), chips(amount)
        if seat in shows:
            parts.append(_("{who} wins {amount} {with_hand}").format(
                who=who, amount=won, with_hand=with_hand_words(shows[seat])))  # fmt: skip
        else:
            parts.append(_("{who} wins {amount}").format(who=who, amount=won))
    hand = record.get("hand", "?")
    if not parts:
        return _("Hand {hand}").format(hand=hand)
    return _("Hand {hand}: {wins}").format(hand=hand, wins="; ".join(parts))
