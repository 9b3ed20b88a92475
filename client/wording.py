"""The log's words: typed events (``common.events``) turned into short lines, the same in the
log and over a seat, following ``stud-hh/1``'s event names."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from common.events import Act, Ante, Award, Event, Return, Show

__all__ = ["STREET_NAMES", "LogLine", "act_line", "act_words",
           "and_names", "award_lines", "describe_event", "with_hand"]  # fmt: skip

STREET_NAMES = {3: "Third street", 4: "Fourth street", 5: "Fifth street", 6: "Sixth street",
                7: "Seventh street"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class LogLine:
    text: str
    kind: str = "action"  # action, street, chat, info, win


def act_words(ev: Act) -> str:
    """What an ``act`` event's seat did, without its name: ``"completes to 10"``."""
    return {
        "fold": "folds",
        "check": "checks",
        "call": f"calls {ev.put}",
        "bet": f"bets {ev.put}",
        "bring_in": f"brings in for {ev.put}",
        "complete": f"completes to {ev.to}",
        "raise": f"raises to {ev.to}",
    }[ev.action]


def act_line(who: str, words: str, *, all_in: bool) -> LogLine:
    """The log line for an action whose ``act_words`` are already known."""
    return LogLine(f"{who} {words}" + (" and is all in" if all_in else ""))


def describe_event(ev: Event, name_of: Callable[[int], str]) -> LogLine | None:
    """One event in plain words ("Ann completes to 10"); None to skip it."""
    who = name_of(ev.seat)
    if isinstance(ev, Act):
        return act_line(who, act_words(ev), all_in=ev.all_in)
    if isinstance(ev, Ante) and ev.all_in:
        return LogLine(f"{who} antes {ev.amount} and is all in")
    if isinstance(ev, Return):
        return LogLine(f"{ev.amount} uncalled goes back to {who}", "info")
    if isinstance(ev, Show):
        return LogLine(f"{who} shows {ev.hand}", "info")
    if isinstance(ev, Award):
        where = "the pot" if ev.pot == 0 else f"side pot {ev.pot}"
        return LogLine(f"{who} wins {ev.amount} from {where}", "win")
    return None


# Hand names (``common.hands``) that read "with a …": "with a full house, nines full of fours"
# but "with two pair, kings and fives".
_TAKES_A = ("royal flush", "straight flush", "full house", "flush", "straight")


def with_hand(name: str) -> str:
    """``" with a full house, nines full of fours"``; empty when the hand was not shown."""
    name = name.strip()
    if not name:
        return ""
    kind = name.split(",")[0]
    return f" with {'a ' if kind in _TAKES_A else ''}{name}"


def and_names(names: list[str]) -> str:
    """``"Ann, Cy and Eve"``."""
    return "".join(names) if len(names) <= 1 else ", ".join(names[:-1]) + " and " + names[-1]


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
        where = ""
        if len(pots) > 1:
            where = "Main pot: " if pot == 0 else f"Side pot {pot}: "
        names = [str(name_of(seat)) for seat, _ in wins]
        shown = [hands[seat] for seat, _ in wins if hands.get(seat)]
        hand = with_hand(shown[0]) if shown else ""
        if len(wins) == 1:
            amount = wins[0][1]
            tail = hand or (" uncontested" if not hands else "")
            lines.append(f"{where}{names[0]} wins {amount}{tail}")
            continue
        total = sum(a for _, a in wins)
        amounts = {a for _, a in wins}
        each = ", ".join(f"{n} {a}" for n, (_, a) in zip(names, wins, strict=True))
        if len(amounts) == 1:
            each = f"{amounts.pop()} each"
        lines.append(f"{where}{and_names(names)} split {total} ({each}){hand}")
    return lines
