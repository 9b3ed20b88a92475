"""The log's words: server events and streets turned into short lines for people.

Invariants:

- Pure: every function takes checked or unchecked message parts and returns
  text; nothing here raises on a malformed event, it says ``?`` or skips it.
- An action's words (``act_words``) are the same in the log and in the
  "last action" label over a seat, so the two never disagree.
- The words follow ``stud-hh/1``'s event names: act, ante, return, show, award.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from common.reading import as_int, as_seat, as_str

__all__ = [
    "STREET_NAMES",
    "LogLine",
    "act_line",
    "act_words",
    "award_lines",
    "describe_event",
    "with_hand",
]

STREET_NAMES = {3: "Third street", 4: "Fourth street", 5: "Fifth street", 6: "Sixth street",
                7: "Seventh street"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class LogLine:
    text: str
    kind: str = "action"  # action, street, chat, info, win


def act_words(ev: dict[str, Any]) -> str:
    """What an ``act`` event's seat did, without its name: ``"completes to 10"``."""
    action = as_str(ev.get("action"))
    put, to = as_int(ev.get("put"), 0), as_int(ev.get("to"), 0)
    return {
        "fold": "folds",
        "check": "checks",
        "call": f"calls {put}",
        "bet": f"bets {put}",
        "bring_in": f"brings in for {put}",
        "complete": f"completes to {to}",
        "raise": f"raises to {to}",
    }.get(action, action)


def act_line(who: str, words: str, *, all_in: bool) -> LogLine:
    """The log line for an action whose ``act_words`` are already known."""
    return LogLine(f"{who} {words}" + (" and is all in" if all_in else ""))


def describe_event(ev: Any, name_of: Any) -> LogLine | None:
    """One ``stud-hh/1`` event in plain words ("Ann completes to 10"); None to skip it."""
    if not isinstance(ev, dict):
        return None
    kind = ev.get("ev")
    seat = as_seat(ev.get("seat"))
    who = name_of(seat) if seat is not None else "?"
    if kind == "act":
        return act_line(who, act_words(ev), all_in=ev.get("all_in") is True)
    if kind == "ante" and ev.get("all_in") is True:
        return LogLine(f"{who} antes {as_int(ev.get('amount'), 0)} and is all in")
    if kind == "return":
        return LogLine(f"{as_int(ev.get('amount'), 0)} uncalled goes back to {who}", "info")
    if kind == "show":
        return LogLine(f"{who} shows {as_str(ev.get('hand'))}", "info")
    if kind == "award":
        pot = as_int(ev.get("pot"), 0)
        where = "the pot" if pot == 0 else f"side pot {pot}"
        return LogLine(f"{who} wins {as_int(ev.get('amount'), 0)} from {where}", "win")
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


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


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
        each = (
            f"{amounts.pop()} each"
            if len(amounts) == 1
            else ", ".join(f"{n} {a}" for n, (_, a) in zip(names, wins, strict=True))
        )
        lines.append(f"{where}{_names(names)} split {total} ({each}){hand}")
    return lines
