"""The night's scoreboard as the server sends it in ``lobby`` and ``standings``, checked.

``parse_night(value)`` returns a ``Night`` (or None when the server sent none
or sent something unusable); every field is type-checked and bounded like the
rest of the wire (``common.reading``).  Pure: no pygame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from common.reading import as_int, as_list, as_str

__all__ = ["Night", "NightMatch", "NightTotal", "parse_night"]


@dataclass(frozen=True, slots=True)
class NightMatch:
    number: int
    hands: int
    winners: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NightTotal:
    name: str
    computer: bool
    matches: int
    wins: int
    net: int


@dataclass(frozen=True, slots=True)
class Night:
    label: str
    table: str
    played: int
    matches: tuple[NightMatch, ...]
    totals: tuple[NightTotal, ...]

    def total_of(self, name: str) -> NightTotal | None:
        return next((t for t in self.totals if t.name == name), None)


def parse_night(value: Any) -> Night | None:
    if not isinstance(value, dict):
        return None
    matches = []
    for m in as_list(value.get("matches"))[-30:]:
        if isinstance(m, dict):
            names = [as_str(w, "", 20) for w in as_list(m.get("winners"))[:7]]
            winners = tuple(n for n in names if n)
            matches.append(
                NightMatch(
                    as_int(m.get("number"), len(matches) + 1, lo=1, hi=10**6),
                    as_int(m.get("hands"), 0, lo=0, hi=99),
                    winners,
                )
            )
    totals = []
    for t in as_list(value.get("totals"))[:40]:
        if isinstance(t, dict) and isinstance(t.get("name"), str):
            totals.append(
                NightTotal(
                    as_str(t["name"], "?", 20),
                    t.get("kind") == "computer",
                    as_int(t.get("matches"), 0, lo=0, hi=10**6),
                    as_int(t.get("wins"), 0, lo=0, hi=10**6),
                    as_int(t.get("net"), 0, lo=-(10**9), hi=10**9),
                )
            )
    return Night(
        label=as_str(value.get("label"), "", 40),
        table=as_str(value.get("table"), "", 40),
        played=as_int(value.get("played"), len(matches), lo=0, hi=10**6),
        matches=tuple(matches),
        totals=tuple(totals),
    )
