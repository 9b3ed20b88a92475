"""Reading one value of a message from the other side: check it, clamp it, type it.

Each helper takes whatever msgpack produced and returns a value of one type.
Invariants:

- A helper never raises anything but ``ProtocolError``, and only ``as_int``
  without a default and ``as_dict`` raise at all; the rest fall back to an
  empty or ``None`` value, so one odd field cannot drop a whole message.
- Numbers come back clamped and strings cut to a limit with unprintable
  characters removed: what a reader draws or stores stays bounded.
- Card codes match ``CARD_RE``; seats are 0 to 6 (R-T1's seven seats).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

from common.events import ProtocolError

__all__ = [
    "CARD_RE",
    "as_cards",
    "as_dict",
    "as_int",
    "as_list",
    "as_list_of",
    "as_seat",
    "as_seconds",
    "as_str",
    "opt_int",
]

T = TypeVar("T")
CARD_RE = re.compile(r"^[2-9TJQKA][cdhs]$")
_BIG = 10**9


def as_int(value: Any, default: int | None = None, *, lo: int = -_BIG, hi: int = _BIG) -> int:
    """An int (not a bool) clamped to ``lo..hi``; ``default`` for anything else, or raise."""
    if isinstance(value, bool) or not isinstance(value, int):
        if default is None:
            raise ProtocolError(f"expected an int, got {type(value).__name__}")
        return default
    return max(lo, min(hi, value))


def opt_int(value: Any, *, lo: int = -_BIG, hi: int = _BIG) -> int | None:
    """An int clamped to ``lo..hi``, or None for anything that is not one."""
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        return None
    return max(lo, min(hi, value))


def as_seat(value: Any) -> int | None:
    """A seat number 0 to 6, or None."""
    s = opt_int(value)
    return s if s is not None and 0 <= s <= 6 else None


def as_str(value: Any, default: str = "", limit: int = 200) -> str:
    """A string cut to ``limit`` characters, unprintable ones dropped; ``default`` if not one."""
    if not isinstance(value, str):
        return default
    return "".join(ch for ch in value[:limit] if ch.isprintable())


def as_cards(value: Any) -> list[str]:
    """The well-formed card codes of a list, seven at most."""
    if not isinstance(value, list):
        return []
    return [c for c in value[:7] if isinstance(c, str) and CARD_RE.match(c)]


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def as_list_of(decode: Callable[[Any], T], value: Any, most: int) -> list[T]:
    """The first ``most`` items of a list read by ``decode``, those it refuses (with a
    ``ProtocolError``) left out."""
    out: list[T] = []
    for item in as_list(value)[:most]:
        try:
            out.append(decode(item))
        except ProtocolError:
            continue
    return out


def as_seconds(value: Any) -> float | None:
    """A finite, non-negative number of seconds, else ``None``: ``int(inf)`` or ``int(nan)``
    in drawing code would raise on every frame."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value if 0 <= value < 10**6 else None


def as_dict(value: Any) -> dict[str, Any]:
    """A map, or raise."""
    if not isinstance(value, dict):
        raise ProtocolError(f"expected a map, got {type(value).__name__}")
    return value
