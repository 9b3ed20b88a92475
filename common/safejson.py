"""JSON from a file someone may have damaged or written to hurt: parsed within bounds.

Every JSON file the table and the game read (the journal, the scoreboard, the settings,
the keys, the tokens, the hand histories) goes through ``loads``; the callers open the
files (``server.files``).  Whatever the bytes, ``loads`` returns a value or raises
``Unreadable`` (a ``ValueError``) saying why.  It refuses more than ``max_bytes``
bytes before parsing, text that is not UTF-8 or not JSON, ``NaN``, ``Infinity`` and
numbers too large for a float (``1e999``; Python's ``json`` accepts them all), and
nesting deeper than ``max_depth``: ``json.loads``'s ``RecursionError`` near a thousand
levels is caught, and what it accepts is measured without recursion.

What the value must hold (its types) is each file's reader's to check: a wrong type
there is unreadable too.
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["MAX_DEPTH", "Unreadable", "depth", "loads"]

MAX_DEPTH = 16
"""Our files nest four levels at most (a night: matches, a match, its results, one
result); sixteen leaves room and stops hostile nesting long before any recursion could."""


class Unreadable(ValueError):
    """A file's contents that cannot be what it should hold; the message says why."""


def _no_constant(name: str) -> Any:
    raise Unreadable(f"{name} is not a number this game writes")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Unreadable(f"the number {text[:20]} is too large")
    return value


def loads(data: bytes | str, *, max_bytes: int, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value of ``data``, within the bounds above; ``Unreadable`` if not.

    >>> loads(b'{"net": 5}', max_bytes=100)
    {'net': 5}
    >>> loads(b'{"net": Infinity}', max_bytes=100)
    Traceback (most recent call last):
    ...
    common.safejson.Unreadable: Infinity is not a number this game writes
    """
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise Unreadable(f"larger than {max_bytes} bytes")
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise Unreadable("not UTF-8 text") from None
    else:
        text = data
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except Unreadable:
        raise
    except RecursionError:
        raise Unreadable(f"nested deeper than {max_depth} levels") from None
    except ValueError as exc:  # JSONDecodeError, or an integer of too many digits
        raise Unreadable(f"not JSON ({str(exc)[:80]})") from None
    # A value cannot nest deeper than the brackets it has: most lines need no walk.
    if text.count("[") + text.count("{") > max_depth and depth(value) > max_depth:
        raise Unreadable(f"nested deeper than {max_depth} levels")
    return value


def depth(value: Any) -> int:
    """How deep lists and objects nest in ``value`` (a scalar: 0), without recursing.

    >>> depth(1), depth([]), depth({"a": [1, {"b": []}]})
    (0, 1, 4)
    """
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in children)
    return deepest
