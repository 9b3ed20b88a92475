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

from client.checks import as_int, as_seat, as_str

__all__ = ["STREET_NAMES", "LogLine", "act_line", "act_words", "describe_event"]

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
