"""The night's scoreboard: every match a table plays in one evening, and each player's total.

How a night is named, and when a new one starts:

- A night is an *evening*: it runs from noon to the next noon, local time, so
  a match played at 1 a.m. still counts to the evening before.  Its id is
  that evening's date (``2026-11-27``), and the lobby calls it by the table's
  name and the day (``Friday · Friday 27 November``).
- A new night starts with the first match that ends on a later evening than
  the last one; matches never move between nights.
- The scoreboard is ``<history_dir>/night-<evening>-<table name>.json``, rewritten
  whole after every match, 0600 in a 0700 folder.  It holds how many matches were
  played, everyone's totals and the latest ``KEPT_MATCHES`` matches, so it never grows
  without bound.  A server restarted the same evening with the same table name and
  history folder carries the night on.

Players are told apart by name: someone who comes back under the same name keeps
their total.  A file that cannot be read (``server.files``, a field of the wrong type)
is set aside with one log line, and a new night starts; writing never stops the table.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from common.match import Standing
from server import files
from server.files import write_private

__all__ = ["FORMAT", "Night", "evening_of", "night_path"]

log = logging.getLogger("server.night")

FORMAT = "seventh-street-night/1"
MAX_SHOWN_MATCHES = 30  # the lobby message lists the latest ones
KEPT_MATCHES = 100  # the file and the server keep the latest ones, and everyone's totals
MAX_SHOWN_TOTALS = 40
MAX_BYTES = 4 * 1024 * 1024
"""The largest scoreboard read: ``KEPT_MATCHES`` matches of seven are under 100 KiB."""
MAX_CHIPS = 10**9
"""No count or total in a night comes near it: a larger one is a damaged file."""


def evening_of(when: datetime) -> str:
    """The evening ``when`` belongs to: the date of ``when`` minus twelve hours.

    >>> evening_of(datetime(2026, 11, 28, 1, 30)), evening_of(datetime(2026, 11, 28, 20, 0))
    ('2026-11-27', '2026-11-28')
    """
    return (when - timedelta(hours=12)).date().isoformat()


def night_path(history_dir: Path, evening: str, table: str) -> Path:
    return history_dir / f"night-{evening}-{files.slug(table)}.json"


@dataclass
class Night:
    """One evening of one table."""

    evening: str
    table: str
    path: Path
    matches: list[dict[str, Any]] = field(default_factory=list)
    played: int = 0
    tallies: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def load(cls, history_dir: Path, table: str, now: datetime) -> Night:
        evening = evening_of(now)
        path = night_path(history_dir, evening, table)
        night = cls(evening, table, path)
        got = files.read_json(path, what="the night's scoreboard", then="a new night starts",
                              limit=MAX_BYTES, check=lambda data: _checked(data, evening),
                              logger=log)  # fmt: skip
        if got is not None:
            night.matches, night.played, night.tallies = got
            log.info("carrying on the night of %s: %d matches so far", evening, night.played)
        return night

    # ---- what happened

    def add(
        self,
        *,
        match_id: str,
        ended: datetime,
        hands: int,
        standings: Sequence[Standing],
        kind_of: Callable[[int], str],
    ) -> None:
        """Count a finished match and save the night (``OSError``: counted, not saved)."""
        match = {
            "match": match_id,
            "ended": ended.isoformat(timespec="seconds"),
            "hands": hands,
            "results": [
                {
                    "name": s.name,
                    "kind": kind_of(s.seat),
                    "place": s.place,
                    "net": s.net,
                    "winner": s.winner,
                }
                for s in standings
            ],
        }
        self.matches.append(match)
        del self.matches[:-KEPT_MATCHES]
        self.played += 1
        self._tally(match)
        self.save()

    def _tally(self, match: dict[str, Any]) -> None:
        for r in match["results"]:
            row = self.tallies.setdefault(
                r["name"],
                {"name": r["name"], "kind": r["kind"], "matches": 0, "wins": 0, "net": 0},
            )
            row["matches"] += 1
            row["wins"] += 1 if r["winner"] else 0
            row["net"] += r["net"]

    def totals(self) -> list[dict[str, Any]]:
        rows = [dict(row) for row in self.tallies.values()]
        return sorted(rows, key=lambda r: (-r["net"], -r["wins"], r["name"].lower()))

    def label(self) -> str:
        """``Friday 27 November``: the evening as people say it."""
        day = datetime.fromisoformat(self.evening)
        return f"{day:%A} {day.day} {day:%B}"

    def summary(self) -> dict[str, Any]:
        """The ``night`` object of the ``lobby`` and ``standings`` messages."""
        shown = self.matches[-MAX_SHOWN_MATCHES:]
        first = self.played - len(shown) + 1
        return {
            "night": self.evening,
            "label": self.label(),
            "table": self.table,
            "played": self.played,
            "matches": [
                {
                    "number": first + i,
                    "match": m["match"],
                    "hands": m["hands"],
                    "winners": [r["name"] for r in m["results"] if r["winner"]],
                }
                for i, m in enumerate(shown)
            ],
            "totals": self.totals()[:MAX_SHOWN_TOTALS],
        }

    # ---- the file

    def save(self) -> None:
        data = {
            "format": FORMAT,
            "evening": self.evening,
            "table": self.table,
            "played": self.played,
            "totals": self.totals(),
            "matches": self.matches,
        }
        write_private(self.path, json.dumps(data, ensure_ascii=False, indent=1))


Checked = tuple[list[dict[str, Any]], int, dict[str, dict[str, Any]]]


def _checked(data: Any, evening: str) -> Checked:
    """The matches, the number played and the totals of a file's value (ValueError)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} file")
    if data.get("evening") != evening:
        raise ValueError(f"not the night of {evening}")
    if not isinstance(data.get("matches"), list):
        raise ValueError("no list of matches")
    matches = [_checked_match(m) for m in data["matches"]]
    if "totals" in data:
        if not isinstance(data["totals"], list):
            raise ValueError("totals that are not a list")
        tallies = {t["name"]: t for t in map(_checked_total, data["totals"])}
        played = max(_count(data["played"]), len(matches))
    else:  # a file that kept every match and no totals: add them up
        night = Night(evening, "", Path())
        for m in matches:
            night._tally(m)
        tallies, played = night.tallies, len(matches)
    return matches[-KEPT_MATCHES:], played, tallies


def _count(value: Any, *, signed: bool = False) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{value!r:.40} is not a whole number")
    if not (-MAX_CHIPS if signed else 0) <= value <= MAX_CHIPS:
        raise ValueError(f"{value} is out of bounds")
    return value


def _checked_match(m: Any) -> dict[str, Any]:
    if not isinstance(m, dict) or not isinstance(m.get("results"), list):
        raise ValueError("a match without results")
    if not isinstance(m.get("match"), str) or not isinstance(m.get("ended", ""), str):
        raise ValueError("a match without its id")
    out = {"match": m["match"][:80], "ended": m.get("ended", "")[:40],
           "hands": _count(m["hands"]), "results": []}  # fmt: skip
    for r in m["results"]:
        if not isinstance(r, dict) or not isinstance(r.get("name"), str):
            raise ValueError("a result without a name")
        out["results"].append(
            {
                "name": r["name"][:20],
                "kind": "computer" if r.get("kind") == "computer" else "human",
                "place": _count(r["place"]),
                "net": _count(r["net"], signed=True),
                "winner": r.get("winner") is True,
            }
        )
    return out


def _checked_total(t: Any) -> dict[str, Any]:
    if not isinstance(t, dict) or not isinstance(t.get("name"), str):
        raise ValueError("a total without a name")
    return {
        "name": t["name"][:20],
        "kind": "computer" if t.get("kind") == "computer" else "human",
        "matches": _count(t["matches"]),
        "wins": _count(t["wins"]),
        "net": _count(t["net"], signed=True),
    }
