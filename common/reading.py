"""Wire values: the base of every message and its parts, and the readers of one value.

A ``Wire`` dataclass declares each field with ``wire(read, put=, key=)``: ``read`` takes
what msgpack produced and returns a value of one type, ``put`` makes it msgpack's
again, ``key`` is its wire name when not the field's.  ``encode()`` is ``type`` (for a
message), then the fields in order, those in ``OPTIONAL`` left out while they hold
their default.  A reader raises only ``ProtocolError``, and only for a field the value
means nothing without (``needed_seat``, ``as_int`` without a default); the rest fall
back to an empty or None value, numbers clamped, strings cut and printable, card codes
as ``CARD_RE``, seats 0 to 6.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable
from typing import Any, ClassVar, Self, TypeVar

from common.events import ProtocolError

__all__ = [
    "CARD_RE", "Wire", "as_dict", "as_int", "as_list", "as_list_of", "as_seat",
    "as_seconds", "as_str", "card_codes", "dicts", "encoded", "flag", "if_dict", "many", "maybe",
    "needed_seat", "num", "opt_int", "opt_num", "opt_text", "read_fields", "str_or_none", "text",
    "unless_false", "wire",
]  # fmt: skip

T = TypeVar("T")
Reader = Callable[[Any], Any]
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


# ------------------------------------------------------------------ readers of one field


def flag(value: Any) -> bool:
    return value is True


def unless_false(value: Any) -> bool:
    return value is not False


def needed_seat(value: Any) -> int:
    seat = as_seat(value)
    if seat is None:
        raise ProtocolError("no seat where one is needed")
    return seat


def num(default: int, lo: int = -_BIG, hi: int = _BIG) -> Reader:
    return lambda value: as_int(value, default, lo=lo, hi=hi)


def opt_num(lo: int = -_BIG, hi: int = _BIG) -> Reader:
    return lambda value: opt_int(value, lo=lo, hi=hi)


def text(limit: int, default: str = "") -> Reader:
    return lambda value: as_str(value, default, limit)


def opt_text(limit: int) -> Reader:
    """The string, or None for anything else and for an empty one."""
    return lambda value: as_str(value, limit=limit) or None


def str_or_none(limit: int) -> Reader:
    """The string (maybe empty), or None for anything else."""
    return lambda value: as_str(value, limit=limit) if isinstance(value, str) else None


def card_codes(most: int) -> Reader:
    """The well-formed card codes of a list (of its first seven), ``most`` at most."""

    def read(value: Any) -> list[str]:
        codes = [c for c in as_list(value)[:7] if isinstance(c, str) and CARD_RE.match(c)]
        return codes[:most]

    return read


def many(decode: Reader, most: int) -> Reader:
    return lambda value: as_list_of(decode, value, most)


def maybe(read: Reader) -> Reader:
    """``read``, but None where the other side sent none (or left the key out)."""
    return lambda value: None if value is None else read(value)


def if_dict(read: Reader) -> Reader:
    """``read`` of a map, None for anything else."""
    return lambda value: read(value) if isinstance(value, dict) else None


def encoded(values: list[Any]) -> list[dict[str, Any]]:
    return [value.encode() for value in values]


def dicts(values: list[Any]) -> list[dict[str, Any]]:
    """Events, stakes and standings as the wire has them."""
    return [value.to_dict() for value in values]


# ------------------------------------------------------------------ the base


def wire(read: Reader, *, put: Reader | None = None, key: str | None = None, **field: Any) -> Any:
    """A ``Wire`` field: how it is read, put and named on the wire (see the module)."""
    return dataclasses.field(metadata={"read": read, "put": put, "key": key}, **field)


class Wire:
    __slots__ = ()
    TYPE: ClassVar[str | None] = None
    OPTIONAL: ClassVar[tuple[str, ...]] = ()

    def encode(self) -> dict[str, Any]:
        out: dict[str, Any] = {} if self.TYPE is None else {"type": self.TYPE}
        for name, key, optional, default, _, put in _layout(type(self)):  # type: ignore[arg-type]
            value = getattr(self, name)
            if optional and value is default:
                continue
            out[key] = value if put is None or value is None else put(value)
        return out

    @classmethod
    def decode(cls, value: Any) -> Self:
        """The value read off the wire; ``ProtocolError`` when it cannot be."""
        return cls(**read_fields(cls, value))


def read_fields(cls: type[Wire], value: Any) -> dict[str, Any]:
    """Each field of ``cls`` read off the map ``value``, by name."""
    m = as_dict(value)
    return {name: read(m.get(key)) for name, key, _, _, read, _ in _layout(cls)}  # type: ignore[arg-type]


@functools.cache
def _layout(cls: Any) -> tuple[tuple[Any, ...], ...]:
    """Each field: its name, its wire key, whether optional, its default, read and put."""
    return tuple(
        (f.name, f.metadata.get("key") or f.name, f.name in cls.OPTIONAL, f.default,
         f.metadata.get("read"), f.metadata.get("put"))
        for f in dataclasses.fields(cls)
    )  # fmt: skip
