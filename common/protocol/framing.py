"""Framing: a 4-byte big-endian length, then that many bytes of one msgpack map.

``encode_frame(msg)`` makes one frame; ``FrameDecoder`` turns bytes as they come into
whole messages, or raises ``FrameError`` for anything else, after which the connection
should be closed.  With limits set, a frame's shape is walked (``_check_shape``) before
msgpack builds a single object of it.  No I/O.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from typing import Any

import msgpack  # type: ignore[import-untyped]

from common.events import ProtocolError
from common.protocol.base import MAX_FRAME

__all__ = ["FrameDecoder", "FrameError", "encode_frame"]

_HEADER = struct.Struct(">I")


class FrameError(ProtocolError):
    """Broken framing: the connection cannot go on.  ``code`` is the error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def encode_frame(msg: Mapping[str, Any]) -> bytes:
    """One frame: length prefix and the msgpack map.

    >>> encode_frame({"type": "ping", "id": 1})
    b'\\x00\\x00\\x00\\x0f\\x82\\xa4type\\xa4ping\\xa2id\\x01'
    """
    body: bytes = msgpack.packb(msg, use_bin_type=True)
    return _HEADER.pack(len(body)) + body


class FrameDecoder:
    """Feed it bytes as they come; get back every whole message they complete.

    >>> d = FrameDecoder()
    >>> frame = encode_frame({"type": "ping", "id": 7})
    >>> d.feed(frame[:3]), d.feed(frame[3:])
    ([], [{'type': 'ping', 'id': 7}])

    With ``max_depth``/``max_items`` set (the server sets both), a frame nested deeper or
    holding more values is a ``bad_frame`` before any object of it is built.  ``push``
    and ``pop`` decode one message at a time, so that a reader can stop at its budget.
    """

    def __init__(
        self,
        max_frame: int = MAX_FRAME,
        *,
        max_depth: int | None = None,
        max_items: int | None = None,
    ) -> None:
        self.max_frame = max_frame
        self.max_depth = max_depth
        self.max_items = max_items
        self._buf = bytearray()

    @property
    def pending(self) -> int:
        """Bytes of a frame begun but not finished (a frame cut short shows here)."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        self._buf += data
        out: list[dict[str, Any]] = []
        while (msg := self.pop()) is not None:
            out.append(msg)
        return out

    def push(self, data: bytes) -> None:
        """Add bytes; ``pop`` then returns the messages they complete, one by one."""
        self._buf += data

    def pop(self) -> dict[str, Any] | None:
        """The next whole message, or None until more bytes come."""
        buf = self._buf
        if len(buf) < 4:
            return None
        (size,) = _HEADER.unpack_from(buf, 0)
        if size > self.max_frame:
            raise FrameError(
                "frame_too_large", f"frame of {size} bytes is over the {self.max_frame} limit"
            )
        if len(buf) - 4 < size:
            return None
        body = bytes(buf[4 : 4 + size])
        del buf[: 4 + size]
        return self._decode(body)

    def _decode(self, body: bytes) -> dict[str, Any]:
        if self.max_depth is not None or self.max_items is not None:
            _check_shape(body, self.max_depth or 1 << 30, self.max_items or 1 << 30)
        return _unpack(body)


# Bytes that follow a msgpack type byte, for the fixed-size types (0xc0-0xdf).
_FIXED = {
    0xC0: 0, 0xC2: 0, 0xC3: 0, 0xCA: 4, 0xCB: 8, 0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8,
    0xD0: 1, 0xD1: 2, 0xD2: 4, 0xD3: 8, 0xD4: 2, 0xD5: 3, 0xD6: 5, 0xD7: 9, 0xD8: 17,
}  # fmt: skip
# Length-prefixed payloads: (bytes of length, extra bytes after it: ext's type byte).
_SIZED = {
    0xC4: (1, 0), 0xC5: (2, 0), 0xC6: (4, 0), 0xC7: (1, 1), 0xC8: (2, 1), 0xC9: (4, 1),
    0xD9: (1, 0), 0xDA: (2, 0), 0xDB: (4, 0),
}  # fmt: skip


def _check_shape(body: bytes, max_depth: int, max_items: int) -> None:
    """Walk a msgpack body's headers (skipping payloads) and refuse one nested deeper than
    ``max_depth`` or holding more than ``max_items`` values, stopping at the first value
    over a limit.  A body cut short or not msgpack is left for msgpack to refuse."""
    pos, end, items = 0, len(body), 0
    open_counts: list[int] = []  # values still to come in each open container
    while pos < end:
        items += 1
        if items > max_items:
            raise FrameError("bad_frame", f"frame holds more than {max_items} values")
        b = body[pos]
        pos += 1
        children = 0
        if b <= 0x7F or b >= 0xE0:
            pass
        elif b <= 0x8F:
            children = 2 * (b & 0x0F)
        elif b <= 0x9F:
            children = b & 0x0F
        elif b <= 0xBF:
            pos += b & 0x1F
        elif b in _FIXED:
            pos += _FIXED[b]
        elif b in _SIZED:
            width, extra = _SIZED[b]
            pos += width + extra + int.from_bytes(body[pos : pos + width], "big")
        elif b in (0xDC, 0xDD, 0xDE, 0xDF):
            width = 2 if b in (0xDC, 0xDE) else 4
            children = int.from_bytes(body[pos : pos + width], "big")
            children *= 2 if b >= 0xDE else 1
            pos += width
        else:
            return  # 0xc1 is never used: msgpack will refuse it
        if open_counts:
            open_counts[-1] -= 1
        if children:
            if len(open_counts) >= max_depth:
                raise FrameError("bad_frame", f"frame is nested deeper than {max_depth}")
            open_counts.append(children)
        while open_counts and open_counts[-1] == 0:
            open_counts.pop()


def _unpack(body: bytes) -> dict[str, Any]:
    try:
        msg = msgpack.unpackb(body, raw=False, strict_map_key=True, use_list=True)
    except Exception as exc:  # msgpack raises several unrelated types
        raise FrameError("bad_frame", f"frame is not valid msgpack: {exc}") from None
    if not isinstance(msg, dict):
        raise FrameError("bad_frame", f"frame holds a {type(msg).__name__}, not a map")
    return msg
