"""Exports and scoreboards on disk, written the way the hand histories are.

An exported hand (``.phh``, PokerStars-style ``.txt``) and a night's scoreboard hold
every hole card of a match or name everyone who played, so only their owner may read
them: files are 0600 and the folders that hold them 0700 (also when they were there
before with looser modes), like ``server.histories``.  Windows keeps its own ACLs.

- ``private_dir(path)``: make the folder (and missing parents) 0700.
- ``write_private(path, text)``: write a whole file 0600, through a temporary file
  synced and renamed over it, so a reader never meets half a file (the server's
  scoreboards and key, the client's seat tokens and tables' keys).
- ``write_exports(records, where)``: one ``.phh`` per hand and the lot as one
  PokerStars ``.txt``, named after the match.
- ``table_of(match_id, folder)``: the table's name, from the night's scoreboards
  (``night-*.json``, ``server.night``) beside the match's history, when one lists it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from common.phh import phh_name, to_phh, to_pokerstars
from common.safejson import loads

__all__ = ["private_dir", "table_of", "write_exports", "write_private"]

_MAX_NIGHT = 4 * 1024 * 1024  # as ``server.night`` reads one


def private_dir(path: Path) -> None:
    """Make ``path`` (and its missing parents) and leave it readable by its owner only."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if path.stat().st_mode & 0o077:
        os.chmod(path, 0o700)


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all, 0600, in a 0700 folder, and on the
    disk before it returns (a crash leaves the old file or the new one, never half of
    one); OSError if it cannot.  The one way this game writes a private file."""
    private_dir(path.parent)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".tmp", dir=path.parent)
    tmp = Path(name)
    try:
        if hasattr(os, "fchmod"):  # not on Windows before Python 3.13
            os.fchmod(fd, 0o600)  # (mkstemp makes it 0600 already; said before the data)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def table_of(match_id: str, folder: Path) -> str | None:
    """The name of the table that played ``match_id``, from a night's scoreboard in
    ``folder`` that lists the match; None when none does (or none can be read)."""
    try:
        nights = sorted(folder.glob("night-*.json"), reverse=True)
    except OSError:
        return None
    for path in nights:
        try:  # a plain file of a bounded size, parsed within bounds (``common.safejson``)
            if not path.is_file() or path.stat().st_size > _MAX_NIGHT:
                continue
            data = loads(path.read_bytes(), max_bytes=_MAX_NIGHT)
            if any(m.get("match") == match_id for m in data["matches"]):
                table = data["table"]
                return table if isinstance(table, str) and table else None
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
    return None


def write_exports(
    records: Sequence[Mapping[str, Any]], where: Path, *, table: str | None = None
) -> Path:
    """Write every hand to ``where``: one ``.phh`` each and the lot as PokerStars text
    in ``<match>.txt``; the path of the ``.txt``.  ``table`` names the table in the
    PokerStars header.  OSError if a file cannot be written."""
    for rec in records:
        write_private(where / phh_name(rec), to_phh(rec))
    text = "".join(to_pokerstars(rec, table=table) for rec in records)
    match = phh_name(records[0]).rsplit("-", 1)[0] if records else "hands"
    name = where / f"{match}.txt"
    write_private(name, text)
    return name
