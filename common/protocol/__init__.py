"""The wire protocol, version 2 (``docs/protocol.md``): framing and every message.

- ``base``: the versions, the limits and ``MessageError``;
- ``framing``: ``encode_frame``, ``FrameDecoder`` and ``FrameError``;
- ``client_messages``: what a client sends (``Hello``, ``Act``, ...) and ``decode_client``,
  which checks one or raises ``MessageError`` with the ``code`` the server sends back;
- ``server_messages``: what a server sends (``Welcome``, ``Table``, ``Turn``, ...) and
  ``decode_server``, with which a client reads one.

Every message is a frozen dataclass with ``encode() -> dict``; what a seat sees inside
them is typed in ``common.schema``.  Every public name is here too::

    sock.sendall(encode_frame(Hello(name="Ann").encode()))
    for msg in FrameDecoder().feed(sock.recv(65536)):   # whole messages only
        print(decode_server(msg))

Pure values: no I/O.
"""

from __future__ import annotations

from common.protocol import base, client_messages, framing, server_messages
from common.protocol.base import *  # noqa: F403
from common.protocol.client_messages import *  # noqa: F403
from common.protocol.framing import *  # noqa: F403
from common.protocol.server_messages import *  # noqa: F403

__all__ = [*base.__all__, *framing.__all__, *client_messages.__all__, *server_messages.__all__]
