"""The wire protocol, version 2 (``docs/protocol.md``): framing and every message.

Both the server and the client import this package; it does no I/O.  It holds:

- ``base``: the versions, the limits, ``MessageError`` and the messages' base;
- ``framing``: ``encode_frame``, ``FrameDecoder`` and ``FrameError`` (with the
  shape walk that refuses a frame nested too deep or too big before it is built);
- ``client_messages``: what a client sends (``Hello``, ``Act``, ...) and
  ``decode_client``, which checks one;
- ``server_messages``: what a server sends (``Welcome``, ``Table``, ``Turn``, ...).

What a seat sees inside them (the table view, lobby seats, legal actions) is typed
in ``common.schema``.  Every public name is here too, so ``from common import
protocol as p`` reads as it always did.

Usage::

    from common.protocol import FrameDecoder, encode_frame, decode_client

    sock.sendall(encode_frame(Hello(name="Ann").encode()))
    decoder = FrameDecoder()              # max_frame=MAX_FRAME
    for msg in decoder.feed(sock.recv(65536)):   # whole messages only
        print(msg["type"], msg)

    decode_client({"type": "act", "turn": 3, "action": "call"})  # -> Act(turn=3, action="call")

A frame is a 4-byte big-endian unsigned length and that many bytes of one
msgpack map with string keys.  ``FrameDecoder.feed`` raises ``FrameError``
(a ``ProtocolError``) for anything that is not that; after it raises, the
stream is unusable and the connection should be closed.  ``decode_client``
turns one client map into a frozen dataclass or raises ``MessageError`` with
an error ``code`` the server sends back as it is.

Server messages are dataclasses too, each with ``encode() -> dict``; a client
may read them as plain dicts (their keys are the dataclass fields plus
``type``).
"""

from __future__ import annotations

from common.protocol.base import (
    ACTIONS,
    DEFAULT_PORT,
    HAND_COUNTS,
    MAX_CHAT,
    MAX_FRAME,
    MAX_NAME,
    MAX_TIME_BANK,
    MAX_TOKEN,
    MAX_TURN_TIME,
    PROTOCOL_VERSION,
    PROTOCOLS,
    SERVER_VERSION,
    MessageError,
)
from common.protocol.client_messages import (
    CONTROL_MESSAGES,
    MAC_SIZE,
    NEWER_MESSAGES,
    PAKE_SIZE,
    Act,
    AskSeat,
    Away,
    Back,
    Chat,
    ClientMessage,
    FreeSeat,
    GiveSeat,
    Hello,
    Leave,
    MakeHost,
    Options,
    Pause,
    Ping,
    Proof,
    RefuseSeat,
    Resume,
    SetLevel,
    Sit,
    Start,
    TakeSeat,
    decode_client,
)
from common.protocol.framing import FrameDecoder, FrameError, encode_frame
from common.protocol.server_messages import (
    SERVER_MESSAGES,
    AskAnswer,
    Books,
    Bye,
    ChatSaid,
    Clock,
    Error,
    Events,
    HandEnd,
    Lobby,
    MatchStart,
    Paused,
    Pong,
    Presence,
    ProofAnswer,
    SeatAsked,
    SeatAway,
    Standings,
    Table,
    Turn,
    Waiting,
    Welcome,
)

__all__ = [
    "ACTIONS",
    "DEFAULT_PORT",
    "HAND_COUNTS",
    "MAX_CHAT",
    "MAX_FRAME",
    "MAX_NAME",
    "MAX_TIME_BANK",
    "MAX_TOKEN",
    "MAX_TURN_TIME",
    "PROTOCOLS",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGES",
    "SERVER_VERSION",
    "NEWER_MESSAGES",
    "MAC_SIZE",
    "PAKE_SIZE",
    "Act",
    "AskAnswer",
    "AskSeat",
    "Books",
    "Away",
    "Back",
    "Bye",
    "Chat",
    "ChatSaid",
    "ClientMessage",
    "Clock",
    "CONTROL_MESSAGES",
    "Error",
    "Events",
    "FreeSeat",
    "FrameDecoder",
    "GiveSeat",
    "FrameError",
    "HandEnd",
    "Hello",
    "Leave",
    "Lobby",
    "MakeHost",
    "MatchStart",
    "MessageError",
    "Options",
    "Pause",
    "Paused",
    "Ping",
    "Pong",
    "Presence",
    "Proof",
    "ProofAnswer",
    "RefuseSeat",
    "Sit",
    "Resume",
    "SeatAsked",
    "SeatAway",
    "SetLevel",
    "Standings",
    "Start",
    "Table",
    "TakeSeat",
    "Turn",
    "Waiting",
    "Welcome",
    "decode_client",
    "encode_frame",
]
