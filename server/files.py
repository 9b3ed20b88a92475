"""The files the table and the game keep: written private and whole, read back
defensively, a bad one set aside.

- ``private_dir(path)``: make the folder (and missing parents) 0700.
- ``write_private(path, text)``: write a whole file 0600, through a temporary file
  synced and renamed over it, so a reader never meets half a file (the scoreboards, the
  table's key, exports, the game's seat tokens and tables' keys).  They hold hole cards
  or name everyone who played, so only their owner may read them (also a folder that
  was there before with a looser mode); Windows keeps its own ACLs.

Every file the server or the game reads back (the journal, the night's scoreboard, the
table's key, the settings, the tables' keys met, the seats' tokens) is read here, so a
damaged or hostile one never stops the table or the window:

- ``read_bytes`` reads a plain file whole, up to a bound.  A folder, a pipe or a device
  where the file should be, a file that cannot be opened or one larger than the bound
  is ``Unreadable`` (``common.safejson``); only a missing file is not an error (None).
  A pipe is never waited on: it is opened without blocking and refused.
- ``read_json`` is ``read_bytes`` and ``common.safejson.loads`` (no NaN, no Infinity,
  no deep nesting) and the file's own ``check`` of its types.  Whatever fails, the file
  is set aside and the caller starts clean (None).
- ``set_aside`` renames the file (or the folder in its place) to
  ``<name>.broken-<time>`` beside it, never over an earlier one, with one log line that
  says which file, why, where it went and what happens now.  If it cannot be moved,
  that line says so and the caller still starts clean (in memory, or with a file its
  next write makes where it can).

The client uses these too (``client.settings``, ``client.keptlist``): one way of
reading a kept file for the whole game.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import stat
import tempfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from common.safejson import Unreadable, loads

__all__ = [
    "Unreadable",
    "private_dir",
    "read_bytes",
    "read_json",
    "set_aside",
    "slug",
    "write_private",
]

log = logging.getLogger("server.files")

T = TypeVar("T")

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def read_bytes(path: Path, *, limit: int) -> bytes | None:
    """The whole of the plain file ``path``, at most ``limit`` bytes; None when there is no
    file there; ``Unreadable`` for anything else that is not such a file."""
    try:
        fd = os.open(path, _FLAGS)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except IsADirectoryError:  # Windows says so on opening a folder
        raise Unreadable("a folder where a file should be") from None
    except OSError as exc:
        raise Unreadable(f"cannot be opened: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise Unreadable("a folder where a file should be")
        if not stat.S_ISREG(mode):
            raise Unreadable("not a plain file")
        data = _read_upto(fd, limit + 1)
    except OSError as exc:
        raise Unreadable(f"cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise Unreadable(f"larger than {limit} bytes")
    return data


def _read_upto(fd: int, size: int) -> bytes:
    parts: list[bytes] = []
    while size > 0 and (part := os.read(fd, min(size, 1 << 20))):
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def read_json(
    path: Path,
    *,
    what: str,
    then: str,
    limit: int,
    check: Callable[[Any], T],
    logger: logging.Logger = log,
) -> T | None:
    """``check(value)`` of the JSON file ``path``, or None: no file, or one that cannot be
    read or whose value ``check`` refuses (by raising ``ValueError``, ``TypeError``,
    ``KeyError``…), which is then set aside (``what`` names the file in the log line,
    ``then`` says what happens instead: "a new night starts")."""
    try:
        data = read_bytes(path, limit=limit)
        if data is None:
            return None
        return check(loads(data, max_bytes=limit))
    except Unreadable as exc:
        why = str(exc)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, ArithmeticError) as exc:
        why = f"{type(exc).__name__}: {str(exc)[:80]}"
    set_aside(path, why, what=what, then=then, logger=logger)
    return None


def set_aside(
    path: Path, why: str, *, what: str, then: str, logger: logging.Logger = log
) -> Path | None:
    """Rename ``path`` to ``<name>.broken-<time>`` (``-2``, ``-3``… after it if that is
    taken) and log one line; the new path, or None if it could not be moved."""
    stamp = datetime.now().astimezone().strftime("%Y%m%d-%H%M%S")
    broken = path.with_name(f"{path.name}.broken-{stamp}")
    n = 1
    while os.path.lexists(broken):
        n += 1
        broken = path.with_name(f"{path.name}.broken-{stamp}-{n}")
    try:
        os.rename(path, broken)
    except OSError as exc:
        logger.warning("%s %s cannot be read (%s) nor set aside (%s): %s",
                       what, path, why, exc.strerror or exc, then)  # fmt: skip
        return None
    logger.warning("%s %s cannot be read (%s): set aside as %s; %s",
                   what, path, why, broken.name, then)  # fmt: skip
    return broken


def slug(table: str) -> str:
    """A table's name as a part of its files' names: ``friday-night``."""
    return re.sub(r"[^a-z0-9]+", "-", table.lower()).strip("-")[:40] or "table"


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
