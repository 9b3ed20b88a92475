"""Hand histories on disk: one ``stud-hh/1`` JSON-lines file per match.

Invariants:

- A match's file is ``<history_dir>/<match id>.jsonl``; the id starts with the local
  date and time, so the files sort by when they were played.
- Each finished hand is appended as one line and ``fsync``ed at once; one that cannot
  be raises ``OSError`` and leaves the file as it was (``server.durable``).
- ``match_hands`` says which hands a file holds (a resumed match appends only the
  missing ones), a torn last line cut off first.
- A history holds every hole card: 0600 files in a 0700 folder.
- ``history_name`` accepts a name read back (the journal) only when it is that match's
  own file, so no file read back can point the table at another.
- Reading back is bounded (``MAX_BYTES``, ``common.safejson``); a history that is not
  a plain file is set aside, and the hands go to a new file of that name.
"""

from __future__ import annotations

import logging
import os
import random
import re
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from common.engine import Hand
from common.history import MAX_LINE, dumps, hand_record
from common.match import SeatInfo
from common.safejson import Unreadable, loads
from server import durable, files
from server.files import private_dir

__all__ = [
    "append_hand",
    "hand_numbers",
    "history_name",
    "match_hands",
    "match_path",
    "new_match_id",
]

log = logging.getLogger("server.histories")

SUFFIX = ".jsonl"
MAX_BYTES = 64 * 1024 * 1024
"""The largest history read back: a 12-hand match of seven seats is under 100 KiB."""
_MATCH_ID = re.compile(r"[0-9A-Za-z][0-9A-Za-z_-]{0,79}")
"""A match id: no dot and no separator, so ``<id>.jsonl`` is a plain file name."""


def new_match_id(rng: random.Random) -> str:
    """``2024-05-01-203015-3fa2``: the local time it starts and 16 random bits."""
    now = datetime.now().astimezone()
    return f"{now:%Y-%m-%d-%H%M%S}-{rng.getrandbits(16):04x}"


def match_path(history_dir: Path, match_id: str) -> Path:
    return history_dir / f"{match_id}{SUFFIX}"


def history_name(recorded: object, match_id: object) -> str:
    """``<match id>.jsonl``, as the journal recorded it ("" for none; an older version's
    absolute path by its last part); anything else is a ValueError.

    >>> history_name("2024-05-01-203015-3fa2.jsonl", "2024-05-01-203015-3fa2")
    '2024-05-01-203015-3fa2.jsonl'
    """
    if not isinstance(match_id, str) or not _MATCH_ID.fullmatch(match_id):
        raise ValueError(f"the match id {match_id!r:.60} is not a plain name")
    if recorded is None or recorded == "":
        return ""
    if not isinstance(recorded, str):
        raise ValueError(f"the history {recorded!r:.60} is not a file name")
    own = f"{match_id}{SUFFIX}"
    last = re.split(r"[/\\]", recorded)[-1]
    if last != own or (recorded != own and not _older_path(recorded)):
        raise ValueError(f"the history {recorded!r:.80} is not this match's file {own}")
    return own


def _older_path(recorded: str) -> bool:
    return recorded.startswith("/") or bool(re.match(r"[A-Za-z]:\\", recorded))


def append_hand(
    path: Path,
    *,
    match_id: str,
    number: int,
    time: str,
    hand: Hand,
    seats: Mapping[int, SeatInfo],
) -> None:
    """Append the finished hand, on disk when this returns (``OSError``: as it was)."""
    record = hand_record(match_id=match_id, number=number, time=time, hand=hand, seats=seats)
    private_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        durable.append(fd, dumps(record).encode("utf-8"))
    finally:
        os.close(fd)


def match_hands(path: Path, match_id: str) -> list[dict[str, Any]]:
    """Match ``match_id``'s hands in ``path``, whole lines only, in hand order, once each;
    a torn last line (a crash while it was written) is cut off the file."""
    data = _read(path)
    if data is None:
        return []
    whole = data[: data.rfind(b"\n") + 1]
    if len(whole) != len(data):
        log.warning("%s ends in a line cut short: cut off (%d bytes)", path, len(data) - len(whole))
        try:
            with open(path, "r+b") as f:
                f.truncate(len(whole))
        except OSError:
            log.exception("cannot cut the hand history %s", path)
    found: dict[int, dict[str, Any]] = {}
    for line in whole.decode("utf-8", "replace").splitlines():
        try:
            record = loads(line, max_bytes=MAX_LINE)
        except Unreadable:
            continue
        number = record.get("hand") if isinstance(record, dict) else None
        if isinstance(number, int) and record.get("match") == match_id:
            found.setdefault(number, record)
    return [found[n] for n in sorted(found)]


def hand_numbers(path: Path, match_id: str) -> set[int]:
    return {record["hand"] for record in match_hands(path, match_id)}


def _read(path: Path) -> bytes | None:
    """The bytes of the history ``path``; None when none or unreadable (set aside)."""
    try:
        return files.read_bytes(path, limit=MAX_BYTES)
    except Unreadable as exc:
        files.set_aside(path, str(exc), what="the hand history",
                        then="this match's hands go to a new file", logger=log)  # fmt: skip
        return None
    except OSError:
        log.exception("cannot read the hand history %s", path)
        return None
