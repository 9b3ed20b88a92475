"""The seats' tokens, kept on disk: a seat comes back to its person after any client crash.

Whoever says ``hello`` with a seat's token takes that seat back, cards, chips and clock
(R-C1).  A key belongs to a table and a name: ``port`` plus the address connected to
(``normal_ip``) or the host as typed, and only our own name finds it, so two windows of one
computer never take each other's seats; at our own server (``own``) any port.  ``forget``
drops a key by token (with ``match``: only that match's); at each write keys older than
``MAX_AGE``, and all but the ``MAX_KEYS`` latest, go.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from client.keptlist import KeptList, is_port, read_record, same_name
from server.folders import config_dir

__all__ = ["MAX_AGE", "MAX_KEYS", "SeatKey", "SeatKeys", "default_path", "normal_ip"]

MAX_KEYS = 32
MAX_AGE = 3 * 24 * 3600.0  # a night's match lasts hours, not days


def default_path() -> Path:
    return config_dir() / "seats.json"


def normal_ip(host: str) -> str:
    """``host`` as one spelling of its address when it is an IP literal, else "":
    ``::ffff:10.0.0.5`` is ``10.0.0.5``, every loopback address is ``loopback``."""
    text = host.strip().strip("[]").split("%", 1)[0]
    try:
        addr = ipaddress.ip_address(text)
    except ValueError:
        return ""
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped
    return "loopback" if addr.is_loopback else str(addr)


@dataclass(frozen=True, slots=True)
class SeatKey:
    """One seat's token at one table."""

    host: str  # the host as typed (or found), lower case
    ip: str  # the address connected to, ``normal_ip``; "" when not known
    port: int
    name: str  # the seat's name
    token: str
    match: str | None = None
    seat: int | None = None
    own: bool = False  # at our own server (the computer table, a table we host)
    table: str = ""  # our own server's table name: the computer table and a hosted one differ
    password: str = ""  # the table's password, for a comeback that asks nothing
    saved: float = 0.0  # wall-clock time of the last write

    def same_table(self, other: SeatKey) -> bool:
        if self.own and other.own:  # any port: our own server may take another one
            return self.table == other.table
        if self.port != other.port:
            return False
        return bool(self.ip and self.ip == other.ip) or bool(self.host and self.host == other.host)

    @classmethod
    def read(cls, item: Any) -> SeatKey | None:
        """A key from the file, or None when it is not one."""
        key = read_record(cls, item, host=255, ip=64, name=40, match=80, table=80, password=200)
        if key is None or not is_port(key.port) or not key.token or len(key.token) > 128:
            return None
        return replace(key, match=key.match or None)


class SeatKeys(KeptList[SeatKey]):
    """The seats' tokens in ``path`` (0600); ``path=None``: in memory only (tests)."""

    def __init__(self, path: Path | None, *, now: Callable[[], float] = time.time) -> None:
        super().__init__(
            path,
            field="seats",
            what="the seats' tokens",
            read=SeatKey.read,
            limit=MAX_KEYS,
            now=now,
        )

    def find(
        self, *, host: str, ip: str, port: int, name: str, own: bool = False, table: str = ""
    ) -> SeatKey | None:
        """The key for our seat at this table under ``name`` (``own``: at our own server
        whose table is named ``table``), or None."""
        probe = SeatKey(
            host=host.strip().lower(), ip=ip, port=port, name=name, token="-", own=own, table=table
        )
        found = [k for k in self.entries() if self._same_seat(k, probe)]
        return max(found, key=lambda k: k.saved) if found else None

    @staticmethod
    def _same_seat(a: SeatKey, b: SeatKey) -> bool:
        return same_name(a.name, b.name) and a.own == b.own and a.same_table(b)

    def keep(self, key: SeatKey) -> None:
        """Write ``key``, replacing any key for the same table and name (or token)."""
        key = replace(key, host=key.host.strip().lower(), saved=self.now())
        with self.lock:
            keys = [k for k in self.load() if k.token != key.token and not self._same_seat(k, key)]
            self._save([key, *keys])

    def forget(self, token: str, *, match: str | None = None) -> bool:
        """Drop the key of ``token`` (with ``match``: only if it is that match's or has none);
        True if one was dropped."""
        with self.lock:
            keys = self.load()
            left = [
                k
                for k in keys
                if k.token != token or (match is not None and k.match not in (None, match))
            ]
            if len(left) == len(keys):
                return False
            self._save(left)
            return True

    def _save(self, keys: list[SeatKey]) -> None:
        now = self.now()
        young = (k for k in keys if now - k.saved < MAX_AGE)
        self.save(sorted(young, key=lambda k: k.saved, reverse=True))
