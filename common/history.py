"""Hand histories in the public ``stud-hh/1`` format (``../shared/hand-history.md``).

One JSON object per hand, one hand per line.  The engine's events already
carry the format's words and fields; this module adds the header and the
``final`` stacks and writes the line.  Reading one back (``load``) skips any line
that is not a hand, and refuses a line past ``MAX_LINE`` bytes, nested too deep or
holding NaN or Infinity (``common.safejson``): histories are shared between friends.
Exporting them to other formats on disk is ``server.exports``'s.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from common.engine import Hand
from common.match import SeatInfo
from common.safejson import loads

__all__ = ["FORMAT", "MAX_LINE", "dumps", "hand_record", "load"]

FORMAT = "stud-hh/1"
MAX_LINE = 1024 * 1024
"""The longest line read as a hand: a hand of seven seats is a few KiB."""


def hand_record(
    *,
    match_id: str,
    number: int,
    time: str,
    hand: Hand,
    seats: Mapping[int, SeatInfo],
) -> dict[str, Any]:
    """The ``stud-hh/1`` object for a finished ``hand``; ``time`` is ISO 8601 with offset."""
    if not hand.is_over:
        raise ValueError("a hand is written only once it is over")
    return {
        "format": FORMAT,
        "match": match_id,
        "hand": number,
        "time": time,
        "stakes": hand.stakes.to_dict(),
        "button": hand.button,
        "seats": [
            {
                "seat": s,
                "name": seats[s].name,
                "kind": seats[s].kind.value,
                "stack": hand.seats[s].start_stack,
            }
            for s in hand.order
        ],
        "events": [event.to_dict() for event in hand.events],
        "final": [{"seat": s, "stack": hand.seats[s].stack} for s in hand.order],
    }


def dumps(record: Mapping[str, Any]) -> str:
    """One line of JSON for the file, newline included."""
    return json.dumps(record, ensure_ascii=False, separators=(", ", ": ")) + "\n"


def load(text: str) -> list[dict[str, Any]]:
    """The ``stud-hh/1`` hands of a history file's text; other lines are skipped."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            record = loads(line, max_bytes=MAX_LINE)
        except ValueError:  # common.safejson.Unreadable
            continue
        if isinstance(record, dict) and record.get("format") == FORMAT:
            out.append(record)
    return out
