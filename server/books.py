"""Open the books: a match's full hand histories, sent once it is over.

With the host's ``open_books`` option (off by default) the table keeps each
finished hand's ``stud-hh/1`` record, every hole card in it, and when the
match ends sends them, one ``books`` message per hand, to every connection
seated at it (and to watchers only with ``books_to_watchers`` too).
Invariants:

- Nothing here is sent before the match is over, nor at all without the
  option: until then every frame is ``common.views`` output (R-S1).
- A seat that left or dropped before the end gets nothing: its connection is
  gone, and a seat freed after the match does not come back to the books.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

from common import protocol as p
from server.net import Connection

__all__ = ["open_books"]


def open_books(
    conns: Iterable[Connection],
    records: Sequence[dict[str, Any]],
    match_id: str,
    *,
    seated: Collection[int],
    watchers: bool,
) -> None:
    """The match is over: one ``books`` frame per hand, in hand order, to every greeted
    connection seated at it (to a watcher only with ``watchers``)."""
    out = b"".join(
        p.encode_frame(p.Books(match_id, int(r["hand"]), len(records), r).encode()) for r in records
    )
    for conn in list(conns):
        if conn.greeted and (conn.seat in seated if conn.seat is not None else watchers):
            conn.send(out)
