"""A chat line: cleaned, rate limited by a token bucket per connection, and said.

Invariants:

- A line is stripped of escape sequences and control characters before anyone sees
  it (``clean_text``); an empty one is refused.
- A watcher's line says so (``watching``), so that no one mistakes it for a seat's.
- A connection's lines come from its own ``server.net.TokenBucket`` of ``burst``
  lines refilled at ``per_second`` (``Connection.chat``, full at its first line, on the
  connection's clock), so it ends with the connection.
"""

from __future__ import annotations

import re

from common import protocol as p
from server.net import Connection, TokenBucket

__all__ = ["clean_text", "said"]


def said(conn: Connection, chat: p.Chat, *, burst: float, per_second: float) -> p.ChatSaid:
    """What everyone is told of ``conn``'s ``chat``; raises ``MessageError`` (to it only)
    for an empty line or one over its rate."""
    text = clean_text(chat.text, limit=p.MAX_CHAT)
    if not text:
        raise p.MessageError("bad_message", "chat text is empty", "chat")
    if conn.chat is None:
        conn.chat = TokenBucket(burst, per_second)
    if not conn.chat.spend(conn.clock.now()):
        raise p.MessageError("chat_rate", "slow down: too many chat lines", "chat")
    return p.ChatSaid(conn.seat, conn.name, text, watching=conn.seat is None)


# ANSI/ECMA-48 escape sequences, 7-bit and 8-bit: CSI (ESC [ or 0x9b) with its
# parameters, OSC/DCS/PM/APC/SOS strings up to their terminator (BEL, ST as
# ESC \ or 0x9c) or the end of the line, and any other two-byte ESC sequence.
_ESCAPES = re.compile(
    r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[\x20-\x7e]?"
)
# C0 and DEL, C1, and the Unicode controls that reorder or hide text on screen.
_CONTROLS = re.compile(
    "[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]"
)


def clean_text(text: str, *, limit: int) -> str:
    """``text`` as it may be shown on anyone's screen: escape sequences removed, other
    control characters gone (tabs and line breaks become spaces), runs of spaces
    squeezed, trimmed, and cut to ``limit`` characters.

    >>> clean_text("hi\\x1b[31m red\\x1b[0m\\x07\\nthere", limit=200)
    'hi red there'
    """
    text = _ESCAPES.sub("", text)
    text = re.sub(r"[\t\n\r\v\f\x85\u2028\u2029]+", " ", text)
    text = _CONTROLS.sub("", text)
    text = re.sub(r" {2,}", " ", text).strip()
    return text[:limit].rstrip()
