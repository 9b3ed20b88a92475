"""Move a file once from where an older version kept it (``server.folders``): never over
something already at the new place; a move that fails is logged, and the game goes on.
"""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

__all__ = ["move_once"]

log = logging.getLogger(__name__)

_seen: set[tuple[Path, Path]] = set()


def move_once(old: Path | None, new: Path) -> bool:
    """Move ``old`` to ``new`` if ``old`` exists and ``new`` does not; True if it moved.

    Looks once per process for each pair, so calling it at every use costs nothing.
    """
    if old is None or old == new or (old, new) in _seen:
        return False
    _seen.add((old, new))
    if not old.exists():
        return False
    if new.exists():
        log.info("kept %s; an older copy stays at %s", new, old)
        return False
    try:
        new.parent.mkdir(parents=True, exist_ok=True)
        _move(old, new)
    except OSError as exc:
        log.warning("could not move %s to %s: %s", old, new, exc)
        return False
    log.info("moved %s to %s, where this platform keeps it now", old, new)
    return True


def _move(old: Path, new: Path) -> None:
    try:
        os.link(old, new)  # unlike a rename, never replaces a file at ``new``
    except OSError:
        with old.open("rb") as src, new.open("xb") as dst:  # "x": never replaces either
            shutil.copyfileobj(src, dst)
        shutil.copystat(old, new)
    old.unlink()
