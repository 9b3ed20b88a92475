"""A list of records kept in one private JSON file (``{"version": 1, <field>: [...]}``):
the seats' tokens (``client.seatkeys``) and the tables' keys (``client.pins``).

The file is 0600 and always whole (``server.files.write_private``).  A missing file reads
as empty; a corrupt one too, set aside first as ``<name>.broken-<time>`` with one log line
(``server.files``); a record that cannot be read is skipped, and at most ``2 * limit`` are
read: nothing here raises on bad contents.  A folder that cannot be written makes the list
memory-only for the run (``path=None``: from the start).  The owner holds ``lock`` around
a read and the write that follows it (the network thread reads while the main one writes).
"""

from __future__ import annotations

import functools
import json
import logging
import threading
import time
import typing
from collections.abc import Callable, Sequence
from dataclasses import MISSING, asdict, fields
from pathlib import Path
from typing import Any, Generic, TypeVar

from server import files
from server.files import write_private

__all__ = ["KeptList", "is_port", "read_record", "same_name"]

log = logging.getLogger("client")

VERSION = 1
MAX_BYTES = 4 * 1024 * 1024  # the largest file read: 200 tables' keys are under 60 KiB

T = TypeVar("T")


def is_port(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 65536


@functools.cache
def _kinds(cls: type) -> dict[str, tuple[type, ...]]:
    """Each field's types: ``(str,)``, ``(int, NoneType)`` for ``int | None``..."""
    return {name: typing.get_args(t) or (t,) for name, t in typing.get_type_hints(cls).items()}


def read_record(cls: type[T], item: Any, **cut: int) -> T | None:
    """A record of dataclass ``cls`` from the file: each field of its declared type (an int
    is a float too), strings cut to ``cut``'s lengths, a missing one its default; None when
    anything is wrong."""
    if not isinstance(item, dict):
        return None
    values = {}
    for f in fields(cls):  # type: ignore[arg-type]
        allowed = _kinds(cls)[f.name]
        value = item.get(f.name, MISSING)
        if value is MISSING and f.default is MISSING:
            return None
        if value is MISSING:
            continue
        if isinstance(value, bool):
            fits = bool in allowed
        elif isinstance(value, int):
            fits = int in allowed or float in allowed
            value = float(value) if int not in allowed else value
        else:
            fits = type(value) in allowed
        if not fits:
            return None
        values[f.name] = value[: cut[f.name]] if isinstance(value, str) and f.name in cut else value
    return cls(**values)


def same_name(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()


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
        now: Callable[[], float] = time.time,
    ) -> None:
        self.path = path
        self.field = field
        self.what = what  # "the seats' tokens": for the log
        self.now = now  # wall-clock time, for the records' ages
        self.lock = threading.Lock()
        self._read = read
        self._limit = limit
        self._memory: list[T] = []
        self._disk = path is not None

    def entries(self) -> list[T]:
        with self.lock:
            return self.load()

    def load(self) -> list[T]:
        if not self._disk or self.path is None:
            return list(self._memory)
        items = files.read_json(
            self.path,
            what=f"the file of {self.what}",
            then=f"starting without {self.what}",
            limit=MAX_BYTES,
            check=self._items,
            logger=log,
        )
        if items is None:
            return []
        return [r for r in (self._read(item) for item in items[: self._limit * 2]) if r]

    def _items(self, data: Any) -> list[Any]:
        items = data.get(self.field) if isinstance(data, dict) else None
        if not isinstance(items, list):
            raise ValueError(f"no list of {self.field}")
        return items

    def save(self, records: Sequence[T]) -> None:
        records = list(records)[: self._limit]
        self._memory = records
        if not self._disk or self.path is None:
            return
        rows = [asdict(r) for r in records]  # type: ignore[call-overload]
        data = json.dumps({"version": VERSION, self.field: rows}, indent=1)
        try:
            write_private(self.path, data)
        except OSError as exc:
            log.warning("could not keep %s in %s (%s): in memory only", self.what, self.path, exc)
            self._disk = False
