"""Announce the table on the home network: DNS-SD over multicast DNS (Bonjour/Avahi).

The service type is ``_seventh-street._tcp``; the instance is the table's name, and its
TXT record carries the facts a Join panel lists (``FACT_KEYS``, ``docs/protocol.md``).
``Announcer`` registers the service in the background when the server starts,
re-announces when the facts change (looked at twice a second) and withdraws it with
goodbye packets when the server stops.  A failure to announce is logged and the table
plays on.  ``STUD_MDNS=off`` turns it off (the test suite does); ``STUD_MDNS_IFACES``
binds zeroconf to those addresses only (tests in a private network namespace).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import re
import socket
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = [
    "FACT_KEYS",
    "SERVICE_TYPE",
    "Announcer",
    "mdns_allowed",
    "mdns_interfaces",
    "short_hostname",
]

log = logging.getLogger("server.announce")

SERVICE_TYPE = "_seventh-street._tcp.local."
FACT_KEYS = (
    "txtvers",
    "name",
    "seats",
    "free",
    "people",
    "pw",
    "match",
    "hand",
    "hands",
    "proto",
    "ver",
    "key",
)


def mdns_allowed() -> bool:
    return os.environ.get("STUD_MDNS", "on").strip().lower() not in ("off", "0", "no", "false")


def mdns_interfaces(listening: Sequence[str] = ()) -> Any:
    """The zeroconf ``interfaces``: ``STUD_MDNS_IFACES`` (comma-separated), else the
    chosen IPv4 addresses a server listens on, else every interface."""
    from zeroconf import InterfaceChoice

    chosen = [a.strip() for a in os.environ.get("STUD_MDNS_IFACES", "").split(",") if a.strip()]
    if chosen:
        return chosen
    if listening and not any(a in ("0.0.0.0", "::") for a in listening):
        return [a for a in listening if ":" not in a] or ["127.0.0.1"]
    return InterfaceChoice.All


def short_hostname() -> str:
    return socket.gethostname().split(".")[0] or "this machine"


def _label(text: str, limit: int = 40) -> str:
    out = re.sub(r"[^a-z0-9-]+", "-", text.lower()).strip("-")
    return out[:limit].strip("-") or "host"


def _packed(addresses: list[str]) -> list[bytes]:
    out = []
    for text in addresses:
        try:
            addr = ipaddress.ip_address(text)
        except ValueError:
            continue
        if addr.version == 4:
            out.append(addr.packed)
    return out


class Announcer:
    """One table's DNS-SD service on this server's event loop."""

    def __init__(
        self,
        facts: Callable[[], Mapping[str, str]],
        *,
        port: int,
        addresses: list[str],
        listening: Sequence[str] = (),
        interval: float = 0.5,
    ) -> None:
        self.facts = facts
        self.listening = list(listening)
        self.port = port
        self.addresses = addresses
        self.interval = interval
        self.name = ""  # the registered instance name (zeroconf may add " (2)")
        self._zc: Any = None
        self._info: Any = None
        self._shown: dict[str, str] = {}
        self._task: asyncio.Task[None] | None = None

    def _service(self, facts: Mapping[str, str]) -> Any:
        from zeroconf import ServiceInfo

        # The machine and port in the instance name part two tables of one name started
        # together (people see the TXT record's ``name``).
        table = (facts.get("name") or "Seventh Street table")[:40]
        where = f" ({_label(short_hostname())[:12]}:{self.port})"
        instance = self.name or table + where
        return ServiceInfo(
            SERVICE_TYPE,
            f"{instance}.{SERVICE_TYPE}",
            addresses=_packed(self.addresses),
            port=self.port,
            properties=dict(facts),
            server=f"seventh-street-{self.port}-{_label(short_hostname())}.local.",
        )

    def start(self) -> bool:
        """Begin announcing in the background; False (logged) when announcing is off."""
        if not mdns_allowed():
            log.info("not announcing the table: STUD_MDNS is off")
            return False
        self._task = asyncio.get_running_loop().create_task(self._run())
        return True

    async def _run(self) -> None:
        try:
            from zeroconf import IPVersion
            from zeroconf.asyncio import AsyncZeroconf

            self._zc = AsyncZeroconf(
                interfaces=mdns_interfaces(self.listening), ip_version=IPVersion.V4Only
            )
            self._shown = dict(self.facts())
            info = self._service(self._shown)
            # Each async_* call returns a task that finishes once the packets are out.
            await (await self._zc.async_register_service(info, allow_name_change=True))
            self._info = info
            self.name = info.name[: -len(SERVICE_TYPE) - 1]
        except Exception as exc:  # no multicast here, a broken interface table, ...
            log.warning(
                "could not announce the table on the network (%s); "
                "friends can still type the address",
                exc,
            )
            await self._close()
            return
        log.info("announced as %r (%s)", self.name, SERVICE_TYPE)
        while True:
            await asyncio.sleep(self.interval)
            facts = dict(self.facts())
            if facts == self._shown:
                continue
            try:
                self._info = self._service(facts)
                await (await self._zc.async_update_service(self._info))
                self._shown = facts
            except Exception:
                log.exception("could not update the table's announcement")

    async def stop(self) -> None:
        """Withdraw the service (goodbye packets); safe to call twice."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
            self._task = None
        if self._zc is not None and self._info is not None:
            try:
                await (await self._zc.async_unregister_service(self._info))
            except Exception:
                log.exception("could not withdraw the table's announcement")
        await self._close()

    async def _close(self) -> None:
        zc, self._zc, self._info = self._zc, None, None
        if zc is not None:
            with contextlib.suppress(Exception):
                await zc.async_close()


def table_facts(table: Any, *, key: str = "") -> dict[str, str]:
    """What the announcement says of a ``server.table.Table`` now; ``key``: the table's
    short key, which a client checks the certificate against."""
    from common.protocol import PROTOCOL_VERSION
    from common.version import __version__
    from server.seats import MAX_SEATS

    seats = table.seats
    people = sum(1 for s in seats.values() if s.kind.value == "human")
    return {
        "txtvers": "1",
        "name": table.name,
        "seats": str(len(seats)),
        "free": str(MAX_SEATS - len(seats)),
        "people": str(people),
        "pw": "1" if table.config.password else "0",
        "match": "1" if table.dealer.life.running else "0",
        "hand": str(table.dealer.hand_no if table.dealer.life.running else 0),
        "hands": str(table.options.hands),
        "proto": str(PROTOCOL_VERSION),
        "ver": __version__,
        **({"key": key} if key else {}),
    }
