"""The files the table and the game keep: written private and whole, read back
defensively, a bad one set aside.

- ``write_private(path, text)``: a whole file 0600 in a 0700 folder (``private_dir``),
  through a temporary file synced and renamed over it, so a reader never meets half a
  file.  They hold hole cards or name everyone who played; Windows keeps its own ACLs.

Every file the server or the game (``client.settings``, ``client.keptlist``) reads back
is read here, so a damaged or hostile one never stops the table or the window:

- ``read_bytes`` reads a plain file whole, up to a bound; anything else where the file
  should be (a folder, a pipe, never waited on), or too large, is ``Unreadable``; a
  missing file is None.
- ``read_json`` adds ``common.safejson.loads`` and the file's own ``check``; whatever
  fails, the file is set aside and the caller starts clean (None).
- ``set_aside`` renames it to ``<name>.broken-<time>``, never over an earlier one, with
  one log line saying which, why, where it went and what happens now (or that it could
  not be moved: the caller still starts clean).
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
    """The whole plain file ``path``, at most ``limit`` bytes (None: no file)."""
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
    """``check(value)`` of the JSON file ``path``, or None: no file, or one set aside
    (``what`` names it in the log line, ``then`` says what happens instead)."""
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
    """Rename ``path`` to ``<name>.broken-<time>[-n]`` and log it; None if it cannot be."""
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
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if path.stat().st_mode & 0o077:
        os.chmod(path, 0o700)


def write_private(path: Path, text: str) -> None:
    """``text`` to ``path``, whole or not at all, on disk when this returns (OSError)."""
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
