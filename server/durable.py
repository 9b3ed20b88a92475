"""Appending to a file so that a failure leaves it as it was: the journal's records and
the histories' hands (``server.saving`` tries a failed write again).

- ``append(fd, data)``: ``data`` written whole at the end of the file and ``fsync``ed
  before it returns; if any of it fails (a full disk, an I/O error) the file is cut
  back to its length before, so that a torn line never sits in front of the next try,
  and the ``OSError`` is raised.
- ``sync_dir(path)``: a new file's name on disk too, where the system lets a folder be
  synced.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["append", "sync_dir"]


def append(fd: int, data: bytes) -> None:
    """Append ``data`` to the file open as ``fd`` (``O_APPEND``), on disk when this
    returns; on ``OSError`` the file is cut back first."""
    size = os.fstat(fd).st_size
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except OSError:
        with contextlib.suppress(OSError):  # truncating frees space: it works on a full disk
            os.ftruncate(fd, size)
        raise


def sync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
