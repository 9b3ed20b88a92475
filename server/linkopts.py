"""Socket options that make a vanished peer's link close in seconds, not minutes.

A laptop that sleeps or leaves the Wi-Fi sends no FIN and no RST: its peer's kernel
retransmits for about 15 minutes.  Both sides write every few seconds (``heartbeat``,
``ping``), so ``TCP_USER_TIMEOUT`` (Linux) closes a link whose data stays unacknowledged
for ``timeout`` seconds, and keepalive probes cover an idle one.  Each option is set
only where the platform has it, a refusal ignored.  The application-level check
(nothing heard: hang up) stays the authority; the server and the game both set these.
"""

from __future__ import annotations

import contextlib
import socket
import sys

__all__ = ["tune_link"]

# Not exported by Python on these platforms; the numbers are the platforms' own.
_DARWIN_TCP_RXT_CONNDROPTIME = 0x80  # <netinet/tcp.h>: seconds of retransmission before a drop
_WINDOWS_TCP_MAXRT = 5  # <ws2ipdef.h>: seconds of retransmission before a drop


def tune_link(sock: socket.socket | None, *, timeout: float) -> None:
    """``sock`` gives up on a peer silent for about ``timeout`` seconds."""
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return
    idle = max(1, int(timeout / 3))
    count = 3
    _set(sock, socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    _set(sock, socket.IPPROTO_TCP, getattr(socket, "TCP_NODELAY", None), 1)
    if hasattr(socket, "TCP_USER_TIMEOUT"):  # Linux: milliseconds
        _set(sock, socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, int(timeout * 1000))
    if hasattr(socket, "TCP_KEEPIDLE"):  # Linux, Windows 10+, macOS with Python 3.10+
        _set(sock, socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, idle)
    elif hasattr(socket, "TCP_KEEPALIVE"):  # older macOS spelling of the idle time
        _set(sock, socket.IPPROTO_TCP, socket.TCP_KEEPALIVE, idle)
    if hasattr(socket, "TCP_KEEPINTVL"):
        _set(sock, socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, idle)
    if hasattr(socket, "TCP_KEEPCNT"):
        _set(sock, socket.IPPROTO_TCP, socket.TCP_KEEPCNT, count)
    if sys.platform == "darwin":
        _set(sock, socket.IPPROTO_TCP, _DARWIN_TCP_RXT_CONNDROPTIME, max(1, int(timeout)))
    elif sys.platform == "win32":
        _set(sock, socket.IPPROTO_TCP, _WINDOWS_TCP_MAXRT, max(1, int(timeout)))
        if hasattr(socket, "SIO_KEEPALIVE_VALS") and hasattr(sock, "ioctl"):
            with contextlib.suppress(OSError, ValueError):
                sock.ioctl(socket.SIO_KEEPALIVE_VALS, (1, idle * 1000, idle * 1000))


def _set(sock: socket.socket, level: int, option: int | None, value: int) -> None:
    if option is None:
        return
    with contextlib.suppress(OSError, ValueError, TypeError):
        sock.setsockopt(level, option, value)
