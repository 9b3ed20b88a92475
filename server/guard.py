"""Who may come in: connection limits per address and in all, and password back-off.

The table asks ``admit`` of each new connection, and the way in (``server.hello``) asks
``may_watch``/``may_seat``, reports passwords and takes turns of the table's password
budget (``guesses``, ``server.guesses``).  Invariants:

- A seat's comeback with its token is never refused here: no limit below counts it.
- Connections that have not said ``hello`` yet (*pending*) are at most
  ``pending_per_address`` from one address: one more is refused (``server_busy``).
- Room for comebacks: the pending connections of the address each seat's person last
  came from (``seated``) never count against the limits below nor are closed to make
  room.  Every other address's are at most ``max_pending`` that have sent something and
  ``_SILENT_SHARE`` times as many that have not; a new one past either closes one of
  that kind (``server_busy``): of the silent, the oldest; of the others, the least
  worth keeping (``_by_worth``: of the address with most pending first, the longest
  silent first, one whose hello waits for the table last).  One whose bytes wait
  unread in its socket has spoken (``_unheard``: the event loop is behind, not its
  peer).  A person's client speaks at once, so only a crowd of silent or half-open
  connections makes room, and a comeback from a new address is pushed out only by a
  crowd that speaks ``max_pending`` times within one of its round trips.
- Watchers are at most ``watchers_per_address`` from one address and
  ``max_watchers`` in all; a newcomer's seat or a watcher is refused once
  ``max_connections`` connections have said hello (seats keep their room).
- After a wrong password an address waits 1 s before it may try again, then 2, 4, 8 …
  up to ``max_backoff``; a right password clears the wait.  Misses are remembered until
  forgiven (a whole ``max_backoff`` with no miss after the wait), never sooner; the
  table's budget of checked passwords (``server.guesses``: 6 at once, then 14 a minute)
  bounds that memory: an entry outlives its last miss by at most 2 × ``max_backoff``
  (10 minutes), so at most 6 + 14 × 10 = 146 addresses are remembered.
- An address one of whose connections was closed for flooding is cut off for 1 s,
  then 2, 4 … up to ``max_flood_wait``: its new connections are held unread until
  their handshake time is up.  The last ``_MAX_FLOODERS`` such addresses are remembered.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, fields

from server.config import ServerConfig
from server.guesses import Guesses
from server.net import Connection

__all__ = ["Door", "DoorLimits"]

_MAX_FLOODERS = 4096
_SILENT_SHARE = 8
"""Pending connections that have sent nothing yet are at most this many times
``max_pending``: enough that a burst of new connections, accepted together, cannot
close a person's before its first bytes (already on their way) are read."""
_BUSY = "too many connections waiting: try again"
_LOOK_AHEAD = 16


@dataclass(frozen=True, slots=True)
class DoorLimits:
    max_connections: int = 32
    max_pending: int = 32
    pending_per_address: int = 8
    max_watchers: int = 16
    watchers_per_address: int = 4
    password_backoff: float = 1.0
    max_backoff: float = 300.0
    first_flood_wait: float = 1.0
    max_flood_wait: float = 60.0

    @classmethod
    def of(cls, config: ServerConfig) -> DoorLimits:
        """The limits the config sets by name (the flood waits and the longest back-off
        are not settings)."""
        return cls(
            **{f.name: getattr(config, f.name) for f in fields(cls) if hasattr(config, f.name)}
        )


@dataclass(slots=True)
class _Failures:
    count: int
    until: float


class Door:
    """Counts connections by address and remembers wrong passwords."""

    def __init__(self, limits: DoorLimits) -> None:
        self.limits = limits
        self.guesses = Guesses()
        self._failures: dict[str, _Failures] = {}
        self._floods: OrderedDict[str, _Failures] = OrderedDict()
        self._seat_addresses: dict[int, str] = {}

    # ---- connections

    def seated(self, seat: int, address: str) -> None:
        """``seat``'s person came from ``address``: room is kept there for its comeback."""
        self._seat_addresses[seat] = address

    def admit(self, conn: Connection, conns: Iterable[Connection]) -> str | None:
        """None if ``conn`` (just opened) may wait for its hello, else why not; may close
        another address's pending connection to make room."""
        pending = [c for c in conns if not c.greeted and not c.closed and c is not conn]
        here = sum(1 for c in pending if c.address == conn.address)
        if here >= self.limits.pending_per_address:
            return "too many connections from your address are still to say hello"
        seats = set(self._seat_addresses.values())
        if conn.address in seats:
            return None  # a seat's person's address: its room is its own
        silent = [c for c in pending if c.address not in seats and c.kind is None]
        spoken = [c for c in pending if c.address not in seats and c.kind is not None]
        if len(silent) >= self.limits.max_pending * _SILENT_SHARE:
            _unheard(sorted(silent, key=lambda c: c.id)).fail("server_busy", _BUSY)
        if len(spoken) >= self.limits.max_pending:
            _unheard(_by_worth(spoken)).fail("server_busy", _BUSY)
        return None

    def may_watch(self, conn: Connection, conns: Iterable[Connection]) -> str | None:
        greeted = [c for c in conns if c.greeted and c is not conn]
        watchers = [c for c in greeted if c.seat is None]
        if len(watchers) >= self.limits.max_watchers:
            return f"the table has all the watchers it takes ({self.limits.max_watchers})"
        if sum(1 for c in watchers if c.address == conn.address) >= (
            self.limits.watchers_per_address
        ):
            return "too many watchers from your address"
        if len(greeted) >= self.limits.max_connections:
            return "too many connections"
        return None

    def may_seat(self, conn: Connection, conns: Iterable[Connection]) -> str | None:
        greeted = [c for c in conns if c.greeted and c is not conn]
        if len(greeted) >= self.limits.max_connections:
            return "too many connections"
        return None

    def flooded(self, address: str, now: float) -> float:
        """A connection closed for flooding: how long ``address`` is cut off."""
        limits = self.limits
        wait = _miss(self._floods, address, limits.first_flood_wait, limits.max_flood_wait, now)
        while len(self._floods) > _MAX_FLOODERS:
            self._floods.popitem(last=False)
        return wait

    def cut_off(self, address: str, now: float) -> bool:
        entry = self._floods.get(address)
        return entry is not None and entry.until > now

    # ---- passwords

    def wait_left(self, address: str, now: float) -> float:
        entry = self._failures.get(address)
        return 0.0 if entry is None else max(0.0, entry.until - now)

    def password_failed(self, address: str, now: float) -> float:
        """A wrong password from ``address``: the wait it has now.  The forgiven
        addresses' misses are forgotten here, and only those."""
        limits = self.limits
        most = limits.max_backoff
        for gone in [a for a, e in self._failures.items() if now >= e.until + most]:
            del self._failures[gone]
        return _miss(self._failures, address, limits.password_backoff, most, now)

    def password_ok(self, address: str, *, turn: bool = False) -> None:
        """A right password (or proof): misses cleared, the ``turn`` given back, and a
        friend from now on."""
        self._failures.pop(address, None)
        self.guesses.right(address, turn=turn)

    @property
    def remembered(self) -> int:
        return len(self._failures)


def _by_worth(pending: list[Connection]) -> list[Connection]:
    """Pending connections that have spoken, the least worth keeping first."""
    per_address = Counter(c.address for c in pending)

    def worth(c: Connection) -> tuple[bool, int, float, int]:
        return (c.waiting, -per_address[c.address], c.heard_at, c.id)

    return sorted(pending, key=worth)


def _unheard(candidates: list[Connection]) -> Connection:
    """The first of ``candidates`` (of the first ``_LOOK_AHEAD``) with no bytes unread in
    its socket, else the first of all."""
    ahead = candidates[:_LOOK_AHEAD]
    return next((c for c in ahead if not c.unread()), candidates[0])


def _miss(book: dict[str, _Failures], address: str, first: float, most: float, now: float) -> float:
    """One more miss for ``address``: its wait doubles from ``first`` up to ``most``;
    forgiven after a whole longest wait with no miss."""
    entry = book.pop(address, None)
    count = entry.count + 1 if entry and now < entry.until + most else 1
    wait = min(most, first * 2 ** (count - 1))
    book[address] = _Failures(count, now + wait)
    return wait
