"""Hand histories on disk: one ``stud-hh/1`` JSON-lines file per match.

Invariants:

- A match's file is ``<history_dir>/<match id>.jsonl``; the match id starts
  with the local date and time, so the files sort by when they were played.
- Each finished hand is appended as one line and flushed at once, so a crash
  loses at most the hand being played.
- Writing never stops the table: a failure is logged with its traceback and
  the match plays on without that line.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from common.engine import Hand
from common.history import dumps, hand_record
from common.match import SeatInfo

__all__ = ["append_hand", "match_path", "new_match_id"]

log = logging.getLogger("server.histories")


def new_match_id(rng: random.Random) -> str:
    """``2024-05-01-203015-3fa2``: the local time it starts and 16 random bits."""
    now = datetime.now().astimezone()
    return f"{now:%Y-%m-%d-%H%M%S}-{rng.getrandbits(16):04x}"


def match_path(history_dir: Path, match_id: str) -> Path:
    return history_dir / f"{match_id}.jsonl"


def append_hand(
    path: Path,
    *,
    match_id: str,
    number: int,
    time: str,
    hand: Hand,
    seats: Mapping[int, SeatInfo],
) -> None:
    """Append the finished hand to the match's file and flush it now."""
    record = hand_record(match_id=match_id, number=number, time=time, hand=hand, seats=seats)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as f:
            f.write(dumps(record))
            f.flush()
    except OSError:
        log.exception("could not write the hand history to %s", path)
