"""The journal of the match in play: what a killed server needs to resume it exactly.

One file per table, ``<history_dir>/<table slug>.journal`` (not ``.jsonl``: other
programs read every ``*.jsonl`` there as a hand history), JSON lines:

- a header ``{"format": "stud-journal", "version": 1, "table": NAME}``;
- ``match``: its settings (hands, the table options), id, history file, the button
  drawn, the host, the port, the ``turn``/``step`` counters and the seats (name, kind,
  level and the sha256 of a person's token: never the token itself);
- ``hand``: each hand's shuffled deck and its time string;
- ``act``: every action applied (seat, action) with every person's time bank after it;
- ``token``: a seat's new token hash; ``host``: the host changed; ``port``: the port a
  resumed table had to take instead of its old one;
- ``sit`` / ``free``: a person seated during the match for the next one, and freed.

``hand`` and ``act`` records carry the table's ``turn`` and ``step`` after them
(``stepped``).  Each shape has one writer here (``*_record``, handed to
``Dealer.record``, the one way into the journal) and one reader: ``server.rebuild``,
the one replay, which both a resumed table and ``unfinished`` read.

Invariants:

- A record is written as one line, newline last, and ``fsync``ed before the table sends
  any frame of it; so a crash at any byte leaves whole lines and at most one torn last
  line, which reading drops.  The file (0600, in a 0700 folder: ``server.files``) is
  kept open from ``begin`` to ``close``: one write and its ``fsync`` a record.
- A file that cannot be read (a bad line before the end, another format, version or
  table; not a plain file, too large, too deep, NaN: ``server.files``) is moved aside
  to ``<name>.broken-<time>`` with one warning, and the table starts clean.
- A write that fails raises ``OSError`` and leaves the file as it was (``server.durable``
  cuts a torn record off): the table waits and tries again (``server.saving``), so the
  journal always holds every step anyone was shown, and a journal is never stale.
- A match that ends leaves no journal: ``remove`` deletes it.
- ``unfinished`` and ``recorded_port`` only read: they move, write and log nothing,
  whatever the file holds.  With ``give_up`` they are all the game (``client.localserver``)
  asks of a journal: it never reads the records itself.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from common.match import Match, SeatKind
from common.safejson import Unreadable, loads
from server import durable, files
from server.files import private_dir
from server.rebuild import JournalError, SeatRecord, rebuild
from server.seats import token_digest

__all__ = [
    "FORMAT",
    "VERSION",
    "Journal",
    "Unfinished",
    "act_record",
    "free_record",
    "give_up",
    "hand_record",
    "host_record",
    "journal_path",
    "match_record",
    "port_record",
    "read_records",
    "recorded_port",
    "sit_record",
    "stepped",
    "token_record",
    "unfinished",
]

log = logging.getLogger("server.journal")

FORMAT = "stud-journal"
VERSION = 1
SUFFIX = ".journal"
MAX_BYTES = 16 * 1024 * 1024
"""The largest journal read: a 12-hand match of seven seats writes well under 1 MiB."""
MAX_LINE = 256 * 1024
"""The longest record read: the ``match`` record of seven seats is under 2 KiB."""


def journal_path(history_dir: Path, table: str) -> Path:
    return Path(history_dir) / f"{files.slug(table)}{SUFFIX}"


Record = dict[str, Any]


# ------------------------------------------------------------ the records written


def match_record(
    match: Match,
    *,
    match_id: str,
    history: str,
    options: Mapping[str, Any],
    host: int | None,
    port: int | None,
    turn: int,
    step: int,
    seats: Iterable[SeatRecord],
) -> Record:
    """The ``match`` record: it begins a new journal."""
    return {
        "t": "match",
        "match": match_id,
        "history": history,
        "hands": match.hands,
        "options": dict(options),
        "button": match.button,
        "host": host,
        "port": port,
        "turn": turn,
        "step": step,
        "seats": [s.to_dict() for s in seats],
    }


def hand_record(no: int, time: str, deck: Iterable[str]) -> Record:
    return {"t": "hand", "no": no, "time": time, "deck": list(deck)}


def act_record(seat: int, action: str) -> Record:
    return {"t": "act", "seat": seat, "action": action}


def stepped(note: Record, *, turn: int, step: int, banks: Mapping[int, float]) -> Record:
    """A ``hand`` or ``act`` record with the table's counters and the banks after it."""
    return {**note, "turn": turn, "step": step, "banks": {str(s): b for s, b in banks.items()}}


def sit_record(seat: int, name: str, token_sha256: str) -> Record:
    """A person sits during the match, for the next one."""
    return {"t": "sit", "seat": seat, "name": name, "token_sha256": token_sha256}


def free_record(seat: int) -> Record:
    return {"t": "free", "seat": seat}


def token_record(seat: int, token_sha256: str) -> Record:
    return {"t": "token", "seat": seat, "token_sha256": token_sha256}


def host_record(seat: int | None) -> Record:
    return {"t": "host", "seat": seat}


def port_record(port: int) -> Record:
    return {"t": "port", "port": port}


_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))  # made once


def _dumps(record: Mapping[str, Any]) -> bytes:
    return (_JSON.encode(record) + "\n").encode()


# ------------------------------------------------------------ reading


def parse(data: bytes, table: str) -> list[dict[str, Any]]:
    """The records of a journal's bytes, header checked and left out, a torn last line
    dropped; ``JournalError`` for anything else amiss."""
    lines = data.split(b"\n")
    lines.pop()  # after the last newline: empty, or a line the crash cut short
    records: list[dict[str, Any]] = []
    for i, line in enumerate(lines):
        try:
            record = loads(line, max_bytes=MAX_LINE)
        except Unreadable as exc:
            raise JournalError(f"line {i + 1} is not JSON: {exc}") from None
        if not isinstance(record, dict):
            raise JournalError(f"line {i + 1} is not a record")
        records.append(record)
    if not records:
        return []
    head = records[0]
    if head.get("format") != FORMAT:
        raise JournalError(f"not a {FORMAT} file")
    if head.get("version") != VERSION:
        raise JournalError(f"version {head.get('version')!r}, this server reads {VERSION}")
    if head.get("table") != table:
        raise JournalError(f"the journal of table {head.get('table')!r}, not {table!r}")
    return records[1:]


def read_records(path: Path, table: str) -> list[dict[str, Any]]:
    """``parse`` of the journal at ``path`` (none: no file); a file ``server.files``
    cannot read is a ``JournalError`` too."""
    try:
        data = files.read_bytes(path, limit=MAX_BYTES)
    except Unreadable as exc:
        raise JournalError(str(exc)) from None
    return [] if data is None else parse(data, table)


def recorded_port(history_dir: Path, table: str) -> int | None:
    """The port a table's unfinished match was played on, if its journal says one."""
    try:
        records = read_records(journal_path(history_dir, table), table)
    except (OSError, JournalError):
        return None
    port = None
    for record in records:  # the match's, or a later one's (it had to take another)
        if record.get("t") in ("match", "port"):
            port = record.get("port")
    return port if isinstance(port, int) and not isinstance(port, bool) and port > 0 else None


# ------------------------------------------------------------ what the game asks


@dataclass(frozen=True, slots=True)
class Unfinished:
    """What a journal says of its unfinished match, for a player to choose to resume it."""

    table: str
    match: str
    hands: int
    hands_played: int
    hand: int
    """The hand in play, or the next to be dealt when none is."""
    in_play: bool
    """A hand is being played (else the match stopped between two hands)."""
    seats: tuple[SeatRecord, ...]

    @property
    def computers(self) -> tuple[SeatRecord, ...]:
        return tuple(s for s in self.seats if s.kind is SeatKind.COMPUTER)

    @property
    def people(self) -> tuple[SeatRecord, ...]:
        return tuple(s for s in self.seats if s.kind is SeatKind.HUMAN)

    @property
    def levels(self) -> tuple[str, ...]:
        return tuple(s.level or "" for s in self.computers)

    def has_token(self, token: str) -> bool:
        """Whether ``token`` is a person's seat's in this match."""
        return token_digest(token) in {s.token_sha256 for s in self.people if s.token_sha256}


def unfinished(history_dir: Path, table: str) -> Unfinished | None:
    """Table ``table``'s unfinished match, if its journal replays to one (else None,
    the file left for the table to set aside)."""
    try:
        got = rebuild(read_records(journal_path(history_dir, table), table))
    except Exception:  # whatever the file holds, reading it is not an error
        return None
    match, hand = got.match, got.match.hand
    if match.is_over:
        return None
    in_play = hand is not None and not hand.is_over
    return Unfinished(
        table=table,
        match=got.match_id,
        hands=match.hands,
        hands_played=match.hands_played,
        hand=got.hand_no if in_play else match.hands_played + 1,
        in_play=in_play,
        seats=tuple(got.seats),
    )


def give_up(history_dir: Path, table: str) -> bool:
    """Remove table ``table``'s journal: its unfinished match is given up for good.
    False when there is none, or one that cannot be read (left for the table)."""
    try:
        if not read_records(journal_path(history_dir, table), table):
            return False
    except (OSError, JournalError):
        return False
    Journal(history_dir, table).remove()
    return True


# ------------------------------------------------------------ the file


class Journal:
    """The append-only journal of one table's match in play."""

    def __init__(self, history_dir: Path, table: str, *, enabled: bool = True) -> None:
        self.path = journal_path(history_dir, table)
        self.table = table
        self.enabled = enabled
        self._fd: int | None = None  # open for appending from ``begin`` or ``carry_on``
        self._whole = 0  # the length of the whole lines ``load`` read

    @property
    def open(self) -> bool:
        return self._fd is not None

    def load(self) -> list[dict[str, Any]]:
        """The records of an unfinished match's journal; a broken one is set aside."""
        if not self.enabled:
            return []
        try:
            data = files.read_bytes(self.path, limit=MAX_BYTES)
            records = [] if data is None else parse(data, self.table)
        except (Unreadable, JournalError) as exc:
            self.set_aside(str(exc))
            return []
        except OSError as exc:
            log.warning("cannot read the journal %s (%s): the table starts clean", self.path, exc)
            return []
        if data is None:
            return []
        if not records:
            self.remove()  # a crash before the first line was whole: nothing to resume
        self._whole = data.rfind(b"\n") + 1  # a torn last line is cut off by carry_on
        return records

    def set_aside(self, why: str) -> Path | None:
        self.close()
        return files.set_aside(self.path, why, what="the journal", then="the table starts clean",
                               logger=log)  # fmt: skip

    def begin(self, match: Mapping[str, Any]) -> None:
        """A new journal, header and ``match`` record, replacing any old one (``OSError``:
        nothing replaced)."""
        self.close()
        if not self.enabled:
            return
        lines = [{"format": FORMAT, "version": VERSION, "table": self.table}, dict(match)]
        tmp = self.path.with_name(self.path.name + ".new")
        private_dir(self.path.parent)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
        try:
            durable.append(fd, b"".join(_dumps(r) for r in lines))
            os.replace(tmp, self.path)
        except OSError:
            os.close(fd)
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
        durable.sync_dir(self.path.parent)
        self._fd = fd

    def carry_on(self) -> None:
        """Go on writing the journal ``load`` read after its last whole line, writing
        nothing again (so a match resumes on a full disk too)."""
        self.close()
        if not self.enabled:
            return
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            if os.fstat(fd).st_size != self._whole:
                os.ftruncate(fd, self._whole)
        except OSError:
            os.close(fd)
            raise
        self._fd = fd

    def write(self, record: Mapping[str, Any]) -> None:
        """``record`` on disk: a ``match`` record ``begin``s a new journal."""
        if record.get("t") == "match":
            self.begin(record)
        else:
            self.append(record)

    def append(self, record: Mapping[str, Any]) -> None:
        """One record, on disk when this returns (``OSError``: the file as it was)."""
        if self._fd is not None:
            durable.append(self._fd, _dumps(record))

    def close(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    def remove(self) -> None:
        self.close()
        try:
            self.path.unlink(missing_ok=True)
        except OSError:
            log.exception("cannot remove the journal %s", self.path)
