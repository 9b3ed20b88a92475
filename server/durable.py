"""Appending to a file so that a failure leaves it as it was: the journal's records and
the histories' hands (``server.saving`` tries a failed write again).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["append", "sync_dir"]


def append(fd: int, data: bytes) -> None:
    """Append ``data`` to ``fd`` (``O_APPEND``), ``fsync``ed; on ``OSError`` (a full disk)
    the file is cut back first, so no torn line sits before the next try."""
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
    """A new file's name on disk too, where the system lets a folder be synced."""
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
