"""What both directions of the wire share: the versions, the limits and the errors.
Every message is a ``common.reading.Wire`` dataclass."""

from __future__ import annotations

from common.events import ActionKind, ProtocolError

__all__ = [
    "ACTIONS", "DEFAULT_PORT", "HAND_COUNTS", "MAX_CHAT", "MAX_FRAME", "MAX_NAME",
    "MAX_TIME_BANK", "MAX_TURN_TIME", "PROTOCOLS", "PROTOCOL_VERSION",
    "MessageError", "version_refusal",
]  # fmt: skip

PROTOCOL_VERSION = 2
PROTOCOLS = (1, 2)
"""Versions a server accepts in ``hello``; protocol 1 is sent none of 2's new message types."""
DEFAULT_PORT = 7777
MAX_FRAME = 64 * 1024
"""Largest frame body either side accepts (a full table is about 2 KiB)."""
MAX_NAME = 20
MAX_CHAT = 200
ACTIONS = frozenset(kind.value for kind in ActionKind)
MAX_TURN_TIME = 600
MAX_TIME_BANK = 3600
HAND_COUNTS = (4, 8, 12)
"""``common.match.HAND_COUNTS`` (R-T4) again, so that the client need not import the engine."""


class MessageError(ProtocolError):
    """A whole frame holding a message the server refuses; the connection stays open."""

    def __init__(self, code: str, message: str, ref: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.ref = ref


def version_refusal(table: str, game: str | None, *, game_newer: bool) -> str:
    """What a game refused for its version reads (``protocol_version``), in the game's words:
    the table's version ("": unknown), the game's (None: it did not say, as games before
    0.2.0 do not), and who updates.  The Join panel says it of a table found that runs an
    older one."""
    runs = f"Seventh Street {table}" if table else "another version of Seventh Street"
    said = game or ("newer" if game_newer else "older")
    todo = "ask the host to update the table's game" if game_newer else "update your game"
    return f"The table runs {runs}; this game is {said}: {todo} to play there"
