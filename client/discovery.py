"""Find the tables announced on the home network (DNS-SD, ``_seventh-street._tcp``).

``TableFinder`` browses in zeroconf's thread and keeps one ``FoundTable`` per announced
service, following its announcement until withdrawn or expired; ``wake`` is called when
the list changes.  Nothing is sent while announcing is off (``STUD_MDNS=off``).  TXT
values are checked like any network input: a malformed announcement is skipped; the
table's short key is kept only when it reads as one, and checked at the join.
"""

from __future__ import annotations

import ipaddress
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from client.i18n import gettext as _
from client.i18n import ngettext
from common.protocol import PROTOCOL_VERSION
from common.seal import normal_short_key

__all__ = ["FoundTable", "TableFinder", "parse_facts", "pick_address"]

log = logging.getLogger("client.discovery")

SERVICE_TYPE = "_seventh-street._tcp.local."
MAX_TABLES = 32


@dataclass(frozen=True, slots=True)
class FoundTable:
    """One announced table, as the Join panel lists it."""

    key: str  # the DNS-SD instance name: unique on the network
    name: str
    host: str
    port: int
    seats: int
    free: int
    people: int
    password: bool
    running: bool
    hand: int
    hands: int
    protocol: int
    version: str
    short_key: str = ""  # the table's key as it announces it ("7QKM-D2XA-PF4Z-LW3B"), if any

    @property
    def compatible(self) -> bool:
        """A table announcing our ``PROTOCOL_VERSION`` or a later one takes us."""
        return self.protocol >= PROTOCOL_VERSION

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def summary(self) -> str:
        """``3 seated, 4 free · hand 2 of 8`` or ``... · in the lobby, 8 hands``."""
        seats = _("{seated} seated, {free} free").format(seated=self.seats, free=self.free)
        if self.running:
            play = _("hand {hand} of {hands}").format(hand=self.hand, hands=self.hands)
        else:
            play = ngettext("lobby, {hands} hand", "lobby, {hands} hands", self.hands)
            play = play.format(hands=self.hands)
        return f"{seats} · {play}"


def _text(props: Mapping[Any, Any], key: str, limit: int = 60) -> str | None:
    value = props.get(key.encode(), props.get(key))
    if isinstance(value, bytes):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError:
            return None
    if not isinstance(value, str):
        return None
    value = "".join(c for c in value if c.isprintable())
    return value[:limit]


def _int(props: Mapping[Any, Any], key: str, lo: int, hi: int) -> int | None:
    value = _text(props, key, 6)
    if value is None or not value.isdigit():
        return None
    n = int(value)
    return n if lo <= n <= hi else None


def parse_facts(
    key: str,
    props: Mapping[Any, Any],
    addresses: list[str],
    port: int,
    mine: list[str] | tuple[str, ...] = (),
) -> FoundTable | None:
    """A ``FoundTable`` from a service's TXT properties and addresses; None if unusable.
    (A host with a VPN or a container bridge announces addresses only it can reach: one
    on the same /24 as ``mine``, this machine's, is taken first.)"""
    host = pick_address(addresses, mine)
    if host is None or not 0 < port < 65536:
        return None
    seats = _int(props, "seats", 0, 7)
    free = _int(props, "free", 0, 7)
    hands = _int(props, "hands", 1, 99)
    proto = _int(props, "proto", 0, 9999)
    if seats is None or free is None or hands is None or proto is None:
        return None
    name = (_text(props, "name", 40) or "").strip() or key.split(".")[0][:40]
    return FoundTable(
        key=key,
        name=name,
        host=host,
        port=port,
        seats=seats,
        free=free,
        people=_int(props, "people", 0, 7) or 0,
        password=_text(props, "pw", 2) == "1",
        running=_text(props, "match", 2) == "1",
        hand=_int(props, "hand", 0, 99) or 0,
        hands=hands,
        protocol=proto,
        version=_text(props, "ver", 20) or "",
        short_key=normal_short_key(_text(props, "key", 40) or "") or "",
    )


def pick_address(addresses: list[str], mine: list[str] | tuple[str, ...] = ()) -> str | None:
    """The IPv4 address to dial: one sharing a /24 with ``mine``, else the first.

    >>> pick_address(["172.17.0.1", "192.168.1.20"], ["192.168.1.7"])
    '192.168.1.20'
    """
    ours = {a.rsplit(".", 1)[0] for a in mine if _ipv4(a)}
    v4 = [a for a in addresses if _ipv4(a)]
    return next((a for a in v4 if a.rsplit(".", 1)[0] in ours), v4[0] if v4 else None)


def _ipv4(text: str) -> bool:
    try:
        return ipaddress.ip_address(text).version == 4
    except ValueError:
        return False


class TableFinder:
    """Browses for tables until ``close()``; thread-safe reads with ``tables()``."""

    def __init__(self, wake: Callable[[], None] | None = None) -> None:
        self.wake = wake or (lambda: None)
        self._lock = threading.Lock()
        self._found: dict[str, FoundTable] = {}
        self._zc: Any = None
        self._browser: Any = None
        self._mine: list[str] = []
        self.error = ""

    @property
    def running(self) -> bool:
        return self._zc is not None

    def start(self) -> bool:
        """Begin browsing; False (and ``error`` set) when mDNS is off or unavailable."""
        from server.announce import mdns_allowed, mdns_interfaces

        if self._zc is not None:
            return True
        if not mdns_allowed():
            self.error = _("looking for tables is off (STUD_MDNS=off)")
            return False
        try:
            from zeroconf import IPVersion, ServiceBrowser, Zeroconf

            from server.app import lan_addresses

            self._mine = lan_addresses()

            self._zc = Zeroconf(interfaces=mdns_interfaces(), ip_version=IPVersion.V4Only)
            self._browser = ServiceBrowser(self._zc, SERVICE_TYPE, handlers=[self._on_change])
        except Exception as exc:
            log.warning("cannot look for tables on the network: %s", exc)
            self.error = _("cannot look for tables on this network ({error})").format(error=exc)
            self.close()
            return False
        self.error = ""
        return True

    def close(self) -> None:
        browser, zc = self._browser, self._zc
        self._browser = self._zc = None
        try:
            if browser is not None:
                browser.cancel()
            if zc is not None:
                zc.close()
        except Exception:
            log.exception("closing the table finder failed")
        with self._lock:
            self._found.clear()

    def tables(self) -> list[FoundTable]:
        with self._lock:
            found = list(self._found.values())
        return sorted(found, key=lambda t: (not t.compatible, t.name.lower(), t.address))

    def _on_change(self, zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        """zeroconf's browser thread: look the service up (or drop it) and wake the window."""
        from zeroconf import ServiceStateChange

        try:
            if state_change is ServiceStateChange.Removed:
                with self._lock:
                    if self._found.pop(name, None) is None:
                        return  # nothing shown changes
            else:
                info = zeroconf.get_service_info(service_type, name, 3000)
                table = None
                if info is not None and info.port is not None:
                    addresses = info.parsed_addresses()
                    table = parse_facts(name, info.properties, addresses, info.port, self._mine)
                with self._lock:
                    if table is not None and (name in self._found or len(self._found) < MAX_TABLES):
                        self._found[name] = table
            self.wake()
        except Exception:
            log.exception("reading a table's announcement failed")
