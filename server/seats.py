"""Who sits where: the seat record and the rules for filling and freeing seats.

Invariants:

- A table's seats are a ``dict[int, Seat]`` keyed by seat number, 0 to 6 (R-T1).
- People fill from seat 0 up and computer seats from seat 6 down.
- A person's seat carries a secret ``token`` and at most one live ``conn``; a computer
  seat has neither, counts as connected, and has its own ``rng``.  A seat rebuilt from
  the journal knows only its ``token_hash`` until its token comes back (``owns``).
- A seat's ``presence`` changes only through ``server.presence.step``; a computer
  seat is always ``PLAYING``.
- Names are unique among the seats, people's and computers' alike: two are the same
  when equal after Unicode compatibility normalisation, case folding and trimming
  ("Ann", " ann " and "ＡＮＮ").  A comeback keeps its seat's name, unchecked.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from common.engine import clockwise
from common.match import SeatInfo, SeatKind
from common.presence import Presence
from common.schema import LobbySeat
from server.brain import DEFAULT_LEVEL, LEVELS
from server.net import Connection

__all__ = [
    "MAX_SEATS",
    "Seat",
    "computer_seats",
    "first_free",
    "name_key",
    "next_host",
    "public_seats",
    "taken_by",
    "token_digest",
]

MAX_SEATS = 7


@dataclass(slots=True)
class Seat:
    seat: int
    name: str
    kind: SeatKind
    token: str | None = None
    conn: Connection | None = None
    rng: random.Random | None = None
    level: str | None = None
    """A computer seat's level (``server.brain``)."""
    brain: Any = None
    """A computer seat's ``server.brain.Brain``, if the table made one."""
    presence: Presence = Presence.PLAYING
    bank: float = 0.0
    """R-C4: the person's time bank left in this match, in seconds."""
    token_hash: str | None = None
    """``token_digest`` of the token of a seat rebuilt from the journal."""

    def owns(self, token: str) -> bool:
        """``token`` is this seat's (constant time)."""
        given = token.encode("utf-8", "surrogatepass")
        if self.token is not None:
            return hmac.compare_digest(given, self.token.encode("utf-8", "surrogatepass"))
        if self.token_hash is not None:
            return hmac.compare_digest(token_digest(token), self.token_hash)
        return False

    def digest(self) -> str | None:
        return self.token_hash if self.token is None else token_digest(self.token)

    @property
    def connected(self) -> bool:
        return self.kind is SeatKind.COMPUTER or self.conn is not None

    def info(self) -> SeatInfo:
        return SeatInfo(self.name, self.kind)

    def listed(self) -> tuple[object, ...]:
        """Everything ``public`` reads of the seat."""
        conn = self.conn
        return (self.seat, self.name, self.kind, self.presence, self.level, conn is not None,
                conn is not None and conn.sealed)  # fmt: skip

    def public(self, host: int | None, stand_in: bool = False) -> LobbySeat:
        """The seat as the lobby lists it; ``stand_in``: a computer plays away seats (R-C3)."""
        away = self.presence.away
        return LobbySeat(
            seat=self.seat,
            name=self.name,
            kind=self.kind.value,
            connected=self.connected,
            host=self.seat == host,
            away=away,
            away_why=self.presence.away_why,
            stand_in=stand_in and away,
            level=self.level,
            level_name=None if self.level is None else level_name(self.level),
            next=self.presence is Presence.NEXT_MATCH,
            sealed=self.conn is not None and self.conn.sealed,
        )


def computer_seats(
    count: int,
    names: Sequence[str],
    rng: random.Random,
    levels: Sequence[str] = (DEFAULT_LEVEL,),
) -> list[Seat]:
    """``count`` computer seats from seat 6 down, each with an RNG drawn from ``rng``;
    seat ``i`` plays ``levels[i]``, or the last of ``levels``."""
    levels = tuple(levels) or (DEFAULT_LEVEL,)
    return [
        Seat(
            MAX_SEATS - 1 - i,
            names[i % len(names)],
            SeatKind.COMPUTER,
            rng=random.Random(rng.getrandbits(64)),
            level=levels[min(i, len(levels) - 1)],
        )
        for i in range(count)
    ]


def level_name(level: str) -> str:
    lv = LEVELS.get(level)
    return lv.name if lv is not None else level


def first_free(seats: Mapping[int, Seat]) -> int | None:
    return next((s for s in range(MAX_SEATS) if s not in seats), None)


def next_host(
    seats: Mapping[int, Seat], after: int | None = None, *, but: int | None = None
) -> int | None:
    """The next host: the next connected person clockwise from seat ``after`` (R-T0), or
    the lowest; never seat ``but`` nor a seat taken away (R-C3)."""
    people = [
        s.seat
        for s in seats.values()
        if s.kind is SeatKind.HUMAN
        and s.conn
        and s.seat != but
        and s.presence is not Presence.TAKEN
    ]
    if not people:
        return None
    return clockwise(people, after=after)[0] if after is not None else min(people)


def public_seats(
    seats: Mapping[int, Seat], host: int | None, stand_in: bool = False
) -> list[LobbySeat]:
    """Every filled seat as the lobby shows it, in seat order."""
    return [seats[s].public(host, stand_in) for s in sorted(seats)]


def token_digest(token: str) -> str:
    """The hex sha256 of a seat's token: what the journal keeps."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def name_key(name: str) -> str:
    """What two names are compared by.

    >>> name_key(" Ann ") == name_key("aNN") == name_key("ＡＮＮ")
    True
    """
    return unicodedata.normalize("NFKC", name).casefold().strip()


def taken_by(name: str, names: Iterable[str]) -> str | None:
    """The name among ``names`` that ``name`` would clash with, or None."""
    key = name_key(name)
    return next((n for n in names if name_key(n) == key), None)
