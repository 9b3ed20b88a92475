"""The log's words: typed events (``common.events``) turned into short lines, the same in the
log and over a seat, following ``stud-hh/1``'s event names, in the player's language
(``client.i18n``): whole sentences with named placeholders, amounts with the language's
thousands mark."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from client.handwords import hand_words, with_hand_words
from client.i18n import chips, listing, pgettext
from client.i18n import gettext as _
from common.events import Act, Ante, Award, Event, Return, Show

__all__ = ["LogLine", "act_line", "act_words", "and_names", "award_lines", "describe_event",
           "street_name", "with_hand"]  # fmt: skip


def street_name(street: int) -> str:
    """``"Third street"``; empty for a number that is no street."""
    # Translators: a street's name as the log and the table's top line say it.
    return {
        3: pgettext("street", "Third street"),
        4: pgettext("street", "Fourth street"),
        5: pgettext("street", "Fifth street"),
        6: pgettext("street", "Sixth street"),
        7: pgettext("street", "Seventh street"),
    }.get(street, "")


@dataclass(frozen=True, slots=True)
class LogLine:
    text: str
    kind: str = "action"  # action, street, chat, info, win


def act_words(ev: Act) -> str:
    """What an ``act`` event's seat did, without its name, over the seat: ``"completes
    to 10"``."""
    # Translators: what a seat just did, shown in a small label over that seat.
    words = {
        "fold": pgettext("over a seat", "folds"),
        "check": pgettext("over a seat", "checks"),
        "call": pgettext("over a seat", "calls {amount}"),
        "bet": pgettext("over a seat", "bets {amount}"),
        "bring_in": pgettext("over a seat", "brings in for {amount}"),
        "complete": pgettext("over a seat", "completes to {amount}"),
        "raise": pgettext("over a seat", "raises to {amount}"),
    }[ev.action]
    return words.format(amount=chips(ev.to if ev.action in ("complete", "raise") else ev.put))


def act_line(who: str, ev: Act) -> LogLine:
    """The log line for an action: ``"Ann completes to 10"``."""
    if ev.all_in:
        words = {
            "fold": pgettext("log", "{who} folds"),
            "check": pgettext("log", "{who} checks"),
            "call": pgettext("log", "{who} calls {amount} and is all in"),
            "bet": pgettext("log", "{who} bets {amount} and is all in"),
            "bring_in": pgettext("log", "{who} brings in for {amount} and is all in"),
            "complete": pgettext("log", "{who} completes to {amount} and is all in"),
            "raise": pgettext("log", "{who} raises to {amount} and is all in"),
        }[ev.action]
    else:
        words = {
            "fold": pgettext("log", "{who} folds"),
            "check": pgettext("log", "{who} checks"),
            "call": pgettext("log", "{who} calls {amount}"),
            "bet": pgettext("log", "{who} bets {amount}"),
            "bring_in": pgettext("log", "{who} brings in for {amount}"),
            "complete": pgettext("log", "{who} completes to {amount}"),
            "raise": pgettext("log", "{who} raises to {amount}"),
        }[ev.action]
    amount = chips(ev.to if ev.action in ("complete", "raise") else ev.put)
    return LogLine(words.format(who=who, amount=amount))


def describe_event(ev: Event, name_of: Callable[[int], str]) -> LogLine | None:
    """One event in plain words ("Ann completes to 10"); None to skip it."""
    who = name_of(ev.seat)
    if isinstance(ev, Act):
        return act_line(who, ev)
    if isinstance(ev, Ante) and ev.all_in:
        return LogLine(
            _("{who} antes {amount} and is all in").format(who=who, amount=chips(ev.amount))
        )
    if isinstance(ev, Return):
        words = _("{amount} uncalled goes back to {who}")
        return LogLine(words.format(amount=chips(ev.amount), who=who), "info")
    if isinstance(ev, Show):
        return LogLine(_("{who} shows {hand}").format(who=who, hand=hand_words(ev.hand)), "info")
    if isinstance(ev, Award):
        if ev.pot == 0:
            words = _("{who} wins {amount} from the pot")
        else:
            words = _("{who} wins {amount} from side pot {pot}")
        return LogLine(words.format(who=who, amount=chips(ev.amount), pot=ev.pot), "win")
    return None


def with_hand(name: str) -> str:
    """``" with a full house, nines full of fours"``; empty when the hand was not shown."""
    words = with_hand_words(name.strip())
    return f" {words}" if words else ""


def and_names(names: list[str]) -> str:
    """``"Ann, Cy and Eve"``, as the language joins names (``client.i18n.listing``)."""
    return listing(names)


def award_lines(
    awards: list[tuple[int, int, int]], hands: dict[int, str], name_of: Any
) -> list[str]:
    """The winner lines of a hand, one per pot, naming every winner and the hand (R-S3).

    ``awards`` are (seat, amount, pot) in the server's order; ``hands`` the shown
    hand names by seat (none when the pot went uncontested, R-S4).

    >>> award_lines([(1, 164, 0)], {1: "full house, nines full of fours"}, "Ada".format)
    ['Ada wins 164 with a full house, nines full of fours']
    >>> award_lines([(1, 41, 0), (3, 40, 0)], {1: "flush, ace high", 3: "flush, ace high"},
    ...             {1: "Ada", 3: "Cy"}.get)
    ['Ada and Cy split 81 (Ada 41, Cy 40) with a flush, ace high']
    """
    pots: dict[int, list[tuple[int, int]]] = {}
    for seat, amount, pot in awards:
        pots.setdefault(pot, []).append((seat, amount))
    lines = []
    for pot, wins in sorted(pots.items()):
        names = [str(name_of(seat)) for seat, _a in wins]
        shown = [hands[seat] for seat, _a in wins if hands.get(seat)]
        hand = with_hand_words(shown[0]) if shown else ""
        if len(wins) == 1:
            if hand:
                words = _("{who} wins {amount} {with_hand}")
            elif not hands:
                words = _("{who} wins {amount} uncontested")
            else:
                words = _("{who} wins {amount}")
            line = words.format(who=names[0], amount=chips(wins[0][1]), with_hand=hand)
        else:
            total = sum(a for _s, a in wins)
            amounts = {a for _s, a in wins}
            if len(amounts) == 1:
                # Translators: each winner's share of a split pot: "(90 each)".
                each = _("{amount} each").format(amount=chips(amounts.pop()))
            else:
                # Translators: one winner's share of a split pot, listed: "Ada 41, Cy 40".
                share = _("{who} {amount}")
                each = ", ".join(share.format(who=n, amount=chips(a))
                                 for n, (_s, a) in zip(names, wins, strict=True))  # fmt: skip
            if hand:
                words = _("{names} split {amount} ({each}) {with_hand}")
            else:
                words = _("{names} split {amount} ({each})")
            line = words.format(
                names=and_names(names), amount=chips(total), each=each, with_hand=hand
            )
        if len(pots) > 1:
            # Translators: a winner line of one pot among several: "Main pot: Ada wins 164".
            line = (_("Main pot: {line}") if pot == 0 else _("Side pot {pot}: {line}")).format(
                line=line, pot=pot
            )
        lines.append(line)
    return lines
