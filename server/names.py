"""Names at the table: unique among its seats, people's and computers' alike.

Two names are the same when they are equal after Unicode compatibility
normalisation, case folding and trimming: "Ann", " ann " and "ＡＮＮ" are one
name.  A seat's comeback with its token keeps the seat's own name and is not
checked again.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

__all__ = ["name_key", "taken_by"]


def name_key(name: str) -> str:
    """What two names are compared by.

    >>> name_key(" Ann ") == name_key("aNN") == name_key("ＡＮＮ")
    True
    """
    return unicodedata.normalize("NFKC", name).casefold().strip()


def taken_by(name: str, names: Iterable[str]) -> str | None:
    """The name among ``names`` that ``name`` would clash with, or None."""
    key = name_key(name)
    return next((n for n in names if name_key(n) == key), None)
