"""A list of records kept in one private JSON file: the seats' tokens (``client.seatkeys``)
and the tables' keys (``client.pins``).

``KeptList`` reads and writes ``{"version": 1, <field>: [record, ...]}``.  Invariants:

- The file is 0600 and always whole (``server.files.write_private``).
- A missing file reads as empty; an unreadable or corrupt one (a folder in its place,
  too large, not JSON, nested too deep, NaN or Infinity, not ``{<field>: [...]}``:
  ``server.files``) reads as empty and is renamed ``<name>.broken-<time>`` first, with
  one log line, so that the next write does not lose what a person may want to look at.
  Nothing here raises on bad contents.
- A folder that cannot be written turns the list into a memory-only one for the rest
  of the run, with one log line; ``path=None`` is memory-only from the start (tests).
- At most ``2 * limit`` records are read, each by ``read`` (None: skipped).

Locking is the owner's: the stores hold their own lock around a read and the write
that follows it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any, Generic, TypeVar

from server import files
from server.files import write_private

__all__ = ["KeptList"]

log = logging.getLogger("client")

VERSION = 1
MAX_BYTES = 4 * 1024 * 1024
"""The largest file read: 200 tables' keys are under 60 KiB."""

T = TypeVar("T")


class KeptList(Generic[T]):
    """The records of ``field`` in ``path`` (dataclasses, written with ``asdict``)."""

    def __init__(
        self,
        path: Path | None,
        *,
        field: str,
        what: str,
        read: Callable[[Any], T | None],
        limit: int,
    ) -> None:
        self.path = path
        self.field = field
        self.what = what  # "the seats' tokens": for the log
        self._read = read
        self._limit = limit
        self._memory: list[T] = []
        self._disk = path is not None

    def load(self) -> list[T]:
        if not self._disk or self.path is None:
            return list(self._memory)
        items = files.read_json(self.path, what=f"the file of {self.what}",
                                then=f"starting without {self.what}", limit=MAX_BYTES,
                                check=self._items, logger=log)  # fmt: skip
        if items is None:
            return []
        return [r for r in (self._read(item) for item in items[: self._limit * 2]) if r]

    def _items(self, data: Any) -> list[Any]:
        items = data.get(self.field) if isinstance(data, dict) else None
        if not isinstance(items, list):
            raise ValueError(f"no list of {self.field}")
        return items

    def save(self, records: Sequence[T]) -> None:
        self._memory = list(records)
        if not self._disk or self.path is None:
            return
        rows = [asdict(r) for r in records]  # type: ignore[call-overload]
        data = json.dumps({"version": VERSION, self.field: rows}, indent=1)
        try:
            write_private(self.path, data)
        except OSError as exc:
            log.warning("could not keep %s in %s (%s): in memory only", self.what, self.path, exc)
            self._disk = False
