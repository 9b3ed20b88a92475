"""Hand histories on disk: one ``stud-hh/1`` JSON-lines file per match.

Invariants:

- A match's file is ``<history_dir>/<match id>.jsonl``; the match id starts
  with the local date and time, so the files sort by when they were played.
- Each finished hand is appended as one line and ``fsync``ed at once, so a crash
  loses at most the hand being played (which the journal still holds).
- ``hand_numbers`` says which hands a file holds (a resumed match appends only the
  missing ones); a last line a crash cut short is cut off first, so the next hand
  starts on a line of its own.
- A hand that cannot be written raises ``OSError`` and leaves the file as it was
  (``server.durable``): the table waits and tries again (``server.saving``).
- A history holds every hole card, so only its owner may read it: the files
  are made 0600 and the folder that holds them 0700 (also when it was there
  before with looser modes).  Windows keeps its own ACLs.
"""

from __future__ import annotations

import json
import logging
import os
import random
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from common.engine import Hand
from common.exports import private_dir
from common.history import dumps, hand_record, load
from common.match import SeatInfo
from server import durable

__all__ = [
    "append_hand",
    "hand_numbers",
    "match_hands",
    "match_path",
    "new_match_id",
    "private_dir",
]

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
    """Append the finished hand to the match's file, on disk when this returns;
    ``OSError`` (the file as it was) if it cannot be."""
    record = hand_record(match_id=match_id, number=number, time=time, hand=hand, seats=seats)
    private_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        durable.append(fd, dumps(record).encode("utf-8"))
    finally:
        os.close(fd)


def hand_numbers(path: Path, match_id: str) -> set[int]:
    """The numbers of match ``match_id``'s hands that ``path`` holds, whole lines only.
    A last line without its newline (a crash while it was written) is cut off."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return set()
    except OSError:
        log.exception("cannot read the hand history %s", path)
        return set()
    whole = data[: data.rfind(b"\n") + 1]
    if len(whole) != len(data):
        log.warning("%s ends in a line cut short: cut off (%d bytes)", path, len(data) - len(whole))
        try:
            with open(path, "r+b") as f:
                f.truncate(len(whole))
        except OSError:
            log.exception("cannot cut the hand history %s", path)
    found: set[int] = set()
    for line in whole.decode("utf-8", "replace").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("match") == match_id:
            number = record.get("hand")
            if isinstance(number, int):
                found.add(number)
    return found


def match_hands(path: Path, match_id: str) -> list[dict[str, Any]]:
    """Match ``match_id``'s hands in ``path`` (whole lines), in hand order, once each."""
    try:
        text = path.read_bytes().decode("utf-8", "replace")
    except OSError:
        log.exception("cannot read the hand history %s", path)
        return []
    whole = text[: text.rfind("\n") + 1]
    found: dict[int, dict[str, Any]] = {}
    for record in load(whole):
        number = record.get("hand")
        if record.get("match") == match_id and isinstance(number, int):
            found.setdefault(number, record)
    return [found[n] for n in sorted(found)]
