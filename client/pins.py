"""The tables' keys we have met, kept on disk: trust on first use, then the same key.

The first time we meet a table its key is pinned; from then on a table at that address
that shows another key is refused, both short keys on screen, until the person trusts
the new one (``trust``).  A key is checked against every pin of the same (host, port) or
(host, table name), the host as ``pin_host`` spells it: a table that moved to another
port keeps its key.  At most ``MAX_PINS`` pins, the latest met kept.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from client.keptlist import KeptList, is_port, read_record, same_name
from client.seatkeys import normal_ip
from server.folders import config_dir

__all__ = ["MAX_PINS", "Pin", "Pins", "Verdict", "default_path", "pin_host"]

MAX_PINS = 200
_HEX = re.compile(r"[0-9a-f]{64}")


def default_path() -> Path:
    return config_dir() / "pins.json"


def pin_host(host: str) -> str:
    """``host`` as a pin spells it: ``normal_ip`` for an address, else lower case."""
    return normal_ip(host) or host.strip().strip("[]").lower()


class KeySeen(Protocol):
    """What a link knows of a table's key (``client.net.TableKey`` is one)."""

    @property
    def fingerprint(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def host(self) -> str: ...
    @property
    def port(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Pin:
    """One table's key as first met."""

    name: str  # the table's name
    host: str  # ``pin_host``
    port: int
    fingerprint: str  # SHA-256 of the key, 64 hex digits
    first_seen: float = 0.0  # wall-clock time it was pinned

    def matches(self, other: Pin) -> bool:
        """Pins of the same table: same host and port, or same host and table name."""
        if not self.host or self.host != other.host:
            return False
        return self.port == other.port or bool(self.name) and same_name(self.name, other.name)

    @classmethod
    def of(cls, key: KeySeen, *, first_seen: float = 0.0) -> Pin:
        return cls(
            name=key.name.strip()[:80],
            host=pin_host(key.host),
            port=key.port,
            fingerprint=key.fingerprint.lower(),
            first_seen=first_seen,
        )

    @classmethod
    def read(cls, item: Any) -> Pin | None:
        """A pin from the file, or None when it is not one."""
        pin = read_record(cls, item, name=80, host=255)
        if pin is None or not is_port(pin.port) or not pin.host:
            return None
        return pin if _HEX.fullmatch(pin.fingerprint) else None


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the pins say of a key: ``ok`` (known), ``new`` (never met: pin it) or
    ``mismatch`` (a pin of this table has another key: ``known`` has those keys)."""

    state: str
    known: tuple[str, ...] = ()  # the pinned fingerprints that differ (mismatch)
    pins: tuple[Pin, ...] = ()  # every pin of this table

    @property
    def ok(self) -> bool:
        return self.state == "ok"


class Pins(KeptList[Pin]):
    """The tables' keys in ``path`` (0600); ``path=None``: in memory only (tests)."""

    def __init__(self, path: Path | None, *, now: Callable[[], float] = time.time) -> None:
        super().__init__(
            path, field="pins", what="the tables' keys", read=Pin.read, limit=MAX_PINS, now=now
        )

    def check(self, key: KeySeen) -> Verdict:
        """Whether ``key`` is the one pinned for its table (changes nothing)."""
        probe = Pin.of(key)
        mine = tuple(p for p in self.entries() if p.matches(probe))
        other = tuple(
            dict.fromkeys(p.fingerprint for p in mine if p.fingerprint != probe.fingerprint)
        )
        if other:
            return Verdict("mismatch", other, mine)
        return Verdict("ok" if mine else "new", (), mine)

    def pin(self, key: KeySeen) -> bool:
        """Keep ``key`` for its table when nothing is pinned for it; True if kept."""
        probe = Pin.of(key, first_seen=self.now())
        with self.lock:
            pins = self.load()
            if any(p.matches(probe) for p in pins):
                return False
            self.save([probe, *pins])  # the latest first
        return True

    def trust(self, key: KeySeen) -> Pin:
        """The person trusts ``key``: every pin of its table is replaced by it."""
        probe = Pin.of(key, first_seen=self.now())
        with self.lock:
            self.save([probe, *(p for p in self.load() if not p.matches(probe))])
        return probe
