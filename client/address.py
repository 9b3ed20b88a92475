"""What a player types to join a table: an address, maybe with its port, and a port box.

    parse_address("192.168.1.20:7788")       -> ("192.168.1.20", 7788)
    parse_address("[fd00::2]:7788")          -> ("fd00::2", 7788)
    parse_address("fd00::2", "7790")         -> ("fd00::2", 7790)     (the port box)
    parse_address("127.0.0.1:99999")         raises AddressError (field "address")
    parse_address("tablehost", "abc")        raises AddressError (field "port")

A port written in the address wins, and the start screen then shows it in
the port box (which it locks): there is one port, and the player sees it.
``AddressError.field`` says which box is wrong, so the words go next to it.
"""

from __future__ import annotations

import ipaddress
import re

from client.i18n import gettext as _
from common.protocol import DEFAULT_PORT

__all__ = ["AddressError", "joinable", "parse_address", "parse_port", "split_port"]

_LABEL = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")


class AddressError(ValueError):
    """What is wrong, in words for the player, and in which box (``address`` or ``port``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def split_port(text: str) -> tuple[str, str | None]:
    """``text`` as (host part, port part or None), unchecked.  A bare IPv6 address has no port.

    >>> split_port("[::1]:9000"), split_port("fd00::2"), split_port("box:7788")
    (('[::1]', '9000'), ('fd00::2', None), ('box', '7788'))
    """
    text = text.strip()
    if text.startswith("["):
        end = text.find("]")
        if end >= 0 and text[end + 1 : end + 2] == ":":
            return text[: end + 1], text[end + 2 :]
        return text, None
    if text.count(":") == 1:
        host, _sep, port = text.partition(":")
        return host, port
    return text, None


def parse_port(text: str | int, field: str = "port") -> int:
    """A TCP port from 1 to 65535, or ``AddressError`` saying so."""
    if isinstance(text, int):
        text = str(text)
    text = text.strip()
    if not text:
        raise AddressError(field, _("type the port (7777 unless the host says another)"))
    if not text.isascii() or not text.isdigit():
        words = _("“{text}” is not a port: a port is a number from 1 to 65535")
        raise AddressError(field, words.format(text=text[:12]))
    if len(text) > 5 or not 0 < int(text) < 65536:
        words = _("{text} is out of range: a port is a number from 1 to 65535")
        raise AddressError(field, words.format(text=text[:12]))
    return int(text)


def _check_host(host: str) -> str:
    """``host`` as an IP address or a host name, or ``AddressError``."""
    if not host:
        raise AddressError("address", _("type the address the host shows on their screen"))
    if any(c.isspace() for c in host):
        raise AddressError("address", _("an address has no spaces"))
    if ":" in host:
        try:
            return str(ipaddress.IPv6Address(host.split("%")[0])) + (
                "%" + host.split("%", 1)[1] if "%" in host else ""
            )
        except ValueError:
            words = _("“{text}” is not an IPv6 address").format(text=host[:40])
            raise AddressError("address", words) from None
    if re.fullmatch(r"[0-9.]+", host):
        try:
            return str(ipaddress.IPv4Address(host))
        except ValueError:
            raise AddressError(
                "address",
                _("“{text}” is not an address: four numbers 0-255, like {example}").format(
                    text=host[:40], example="192.168.1.20"
                ),
            ) from None
    name = host[:-1] if host.endswith(".") else host
    if len(name) > 253 or not all(_LABEL.match(label) for label in name.split(".")):
        raise AddressError(
            "address",
            _("“{text}” is not an address: letters, digits, dots and dashes only").format(
                text=host[:40]
            ),
        )
    return host


def parse_address(text: str, port: str | int = DEFAULT_PORT) -> tuple[str, int]:
    """(host, port) from the address box and the port box; raises ``AddressError``."""
    text = text.strip()
    host, port_text = split_port(text)
    if host.startswith("["):
        if not host.endswith("]"):
            raise AddressError(
                "address", _("an IPv6 address in brackets is written [address]:port")
            )
        host = host[1:-1]
        if ":" not in host:
            words = _("“{text}” is not an IPv6 address").format(text=host[:40])
            raise AddressError("address", words)
    elif text.count(":") >= 2 and "]" in text:
        raise AddressError("address", _("an IPv6 address in brackets is written [address]:port"))
    host = _check_host(host)
    if port_text is not None:
        return host, parse_port(port_text, "address")
    return host, parse_port(port, "port")


def joinable(host: str, port: int) -> str:
    """The address as it is typed to join: ``host:port`` or ``[v6]:port``."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
