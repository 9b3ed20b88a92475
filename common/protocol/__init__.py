"""The wire protocol, version 2 (``docs/protocol.md``): framing and every message.

Both the server and the client import this package; it does no I/O.  It holds:

- ``base``: the versions, the limits, ``MessageError`` and the messages' base;
- ``framing``: ``encode_frame``, ``FrameDecoder`` and ``FrameError`` (with the
  shape walk that refuses a frame nested too deep or too big before it is built);
- ``client_messages``: what a client sends (``Hello``, ``Act``, ...) and
  ``decode_client``, which checks one;
- ``server_messages``: what a server sends (``Welcome``, ``Table``, ``Turn``, ...) and
  ``decode_server``, with which a client reads one.

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

Server messages are dataclasses too, each with ``encode() -> dict`` for the server
and ``decode`` for the client: ``decode_server`` turns one map into its message or
raises ``ProtocolError``.
"""

from __future__ import annotations

from common.protocol import base, client_messages, framing, server_messages
from common.protocol.base import *  # noqa: F403
from common.protocol.client_messages import *  # noqa: F403
from common.protocol.framing import *  # noqa: F403
from common.protocol.server_messages import *  # noqa: F403

__all__ = [*base.__all__, *framing.__all__, *client_messages.__all__, *server_messages.__all__]
