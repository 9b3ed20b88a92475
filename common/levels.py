"""Computer-seat levels as people and the wire name them (no I/O, no strategy).

The ids are what ``stud-server --computer-level``, the ``level`` client message
and the ``level`` field of ``players`` carry (``docs/protocol.md``); the
strategy behind each one lives in ``server.brain``.  Weakest first.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_LEVEL", "LEVEL_IDS", "LEVEL_INFO", "LevelInfo", "level_info"]


@dataclass(frozen=True, slots=True)
class LevelInfo:
    id: str
    name: str
    description: str


LEVEL_INFO: tuple[LevelInfo, ...] = (
    LevelInfo(
        "newcomer",
        "Newcomer",
        "Plays too many hands and calls too much; bets only good hands, never bluffs.",
    ),
    LevelInfo(
        "regular",
        "Regular",
        "A solid club player: good starting hands and honest bets, but pays off too often.",
    ),
    LevelInfo(
        "shark",
        "Shark",
        "The strongest: defends its antes, reads your board and betting, adapts to you.",
    ),
)
LEVEL_IDS: tuple[str, ...] = tuple(lv.id for lv in LEVEL_INFO)
DEFAULT_LEVEL = "regular"


def level_info(level: str) -> LevelInfo | None:
    """The level with this id, or ``None``."""
    return next((lv for lv in LEVEL_INFO if lv.id == level), None)
