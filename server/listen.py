"""Listening sockets: one port for every address family.

``asyncio``'s ``create_server(host=None, port=0)`` binds IPv4 and IPv6 each to a port
of its own.  ``listen_sockets`` binds the first address on the port asked for (0: any),
then every other address on that same port; when that port is taken on another family,
it starts again with a new one.
"""

from __future__ import annotations

import errno
import logging
import os
import socket
from collections.abc import Sequence

__all__ = ["Listener", "listen_sockets", "resolve", "shown_address"]

log = logging.getLogger("server")

Listener = tuple[int, tuple[object, ...]]  # (family, socket address), from getaddrinfo
TRIES = 20  # new ports tried for port 0, when one is taken on another family


def resolve(host: str | None, port: int) -> list[Listener]:
    """The addresses to listen on, IPv4 first: every family's wildcard for ``None``."""
    infos = socket.getaddrinfo(
        host or None, port, socket.AF_UNSPEC, socket.SOCK_STREAM, 0, socket.AI_PASSIVE
    )
    out: list[Listener] = []
    for family, _type, _proto, _name, addr in infos:
        if family not in (socket.AF_INET, socket.AF_INET6):
            continue
        item = (int(family), tuple(addr))
        if item not in out:
            out.append(item)
    out.sort(key=lambda item: item[0] != socket.AF_INET)
    return out


def _bind(family: int, addr: tuple[object, ...], port: int) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        if os.name == "posix":  # restart at once after a crash; on Windows it would share ports
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            # Each family gets its own socket; [::] must not also claim IPv4.
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind((addr[0], port, *addr[2:]))
        sock.listen(128)
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    return sock


def listen_sockets(listeners: Sequence[Listener], port: int) -> list[socket.socket]:
    """Bound, listening sockets, one per listener, all on one ``port`` (0: any free one).
    ``OSError`` when the first address, or a fixed ``port`` on another family, cannot be
    bound; a family the machine cannot listen on (no IPv6) is left out."""
    if not listeners:
        raise OSError(errno.EADDRNOTAVAIL, "no address to listen on")
    last: OSError | None = None
    for _ in range(TRIES):
        first_family, first_addr = listeners[0]
        first = _bind(first_family, first_addr, port)
        socks = [first]
        bound = first.getsockname()[1]
        try:
            for family, addr in listeners[1:]:
                try:
                    socks.append(_bind(family, addr, bound))
                except OSError as exc:
                    if exc.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
                        log.warning("cannot listen on %s: %s", shown_address(addr[0], bound), exc)
                        continue
                    raise
        except OSError as exc:
            for s in socks:
                s.close()
            if port != 0 or exc.errno != errno.EADDRINUSE:
                raise
            last = exc  # port 0: that port is taken on another family; try another
            continue
        return socks
    assert last is not None
    raise last


def shown_address(host: object, port: int) -> str:
    """``host:port`` as people type it: ``192.168.1.20:7777``, ``[fd00::2]:7777``."""
    text = str(host)
    return f"[{text}]:{port}" if ":" in text else f"{text}:{port}"
