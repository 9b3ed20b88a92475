"""What the lobby says of the table: its seats, host, options, the night, the asks back.

``LobbyState`` keeps the last ``lobby`` message (``said``) with what outlives it; its
methods take a ``received`` message and return the log's words for it, if any.  Pure.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from client.i18n import gettext as _
from common.presence import Presence
from common.protocol.server_messages import AskAnswer, Lobby, Night, SeatAsked, TableOptions
from common.schema import LobbySeat

__all__ = ["LobbyState", "Player"]


@dataclass(frozen=True, slots=True)
class Player:
    """A filled seat as the client knows it (a ``common.schema.LobbySeat`` read)."""

    seat: int
    name: str
    kind: str = "human"  # "human" or "computer"
    host: bool = False
    level: str = ""  # a computer seat's level id ("" when the server does not say)
    level_name: str = ""
    presence: Presence = Presence.PLAYING  # where its person is (``common.presence``)
    stand_in: bool = False  # a computer plays the seat while it is away (R-C3)
    sealed: bool | None = None  # its person's link is sealed (TLS); None: nobody said

    @classmethod
    def of(cls, seat: LobbySeat) -> Player:
        computer = seat.kind == "computer"
        return cls(
            seat=seat.seat,
            name=seat.name,
            kind=seat.kind,
            host=seat.host,
            level=(seat.level or "") if computer else "",
            level_name=(seat.level_name or "") if computer else "",
            presence=seat.presence,
            stand_in=seat.stand_in,
            sealed=seat.sealed,
        )

    def moved(self, presence: Presence, *, stand_in: bool) -> Player:
        return replace(self, presence=presence, stand_in=stand_in)

    @property
    def away(self) -> bool:  # its turns are played for it (R-C2, R-C3)
        return self.presence.away

    @property
    def away_why(self) -> str | None:  # asked, clock, dropped or taken while away
        return self.presence.away_why

    @property
    def next(self) -> bool:  # seated during a match: plays from the next one
        return self.presence is Presence.NEXT_MATCH

    @property
    def connected(self) -> bool:
        """Not known to be cut off (``Clocks.dropped`` has every seat said dropped)."""
        return self.presence is not Presence.DROPPED and self.presence is not Presence.AWAY_DROPPED


class LobbyState:
    def __init__(self) -> None:
        self.said: Lobby | None = None  # the last lobby message
        self.seats: list[Player] = []  # its seats
        self.table = ""  # the table's name
        self.night: Night | None = None  # the night's scoreboard, from a lobby or standings
        self._host: int | None = None  # the host's seat, as the last lobby said it
        self.host_from: int | None = None  # the seat the host's role came to us from
        # A seat asked back by name (docs/protocol.md): the host's open asks (seat ->
        # name); a refused join's lost seat, which may be asked for; the seat to ask for
        # once welcomed as a watcher; and our own ask's (seat, answer, words).
        self.asks: dict[int, str] = {}
        self.lost_seat: int | None = None
        self.asking: int | None = None
        self.ask: tuple[int, str, str] | None = None

    @property
    def options(self) -> TableOptions | None:
        return self.said.options if self.said is not None else None

    @property
    def plain_refused(self) -> bool:  # the table takes only sealed connections
        return self.said is not None and self.said.plain == "never"

    @property
    def plain_open(self) -> bool:  # plain connections let into a table with a password
        return self.said is not None and self.said.plain == "allow"

    @property
    def odds_allowed(self) -> bool:
        return self.said is not None and self.said.odds

    @property
    def open_books(self) -> bool:
        return self.said is not None and self.said.open_books

    @property
    def books_to_watchers(self) -> bool:
        return self.said is not None and self.said.books_to_watchers

    def name_of(self, seat: int) -> str | None:
        p = self.player(seat)
        return p.name if p else None

    def player(self, seat: int) -> Player | None:
        return next((p for p in self.seats if p.seat == seat), None)

    def take(
        self, m: Lobby, me: int | None, name_of: Callable[[int], str]
    ) -> tuple[bool, str | None]:
        """A lobby: whether we host now, and the words when the host changed."""
        first = self.said is None
        self.said = m
        self.seats = [Player.of(seat) for seat in m.seats]
        self.table = m.table if m.table is not None else self.table
        self.night = Night.of(m.night) or self.night
        before, self._host = self._host, m.host
        hosting = m.host is not None and m.host == me
        if not hosting:
            self.asks.clear()
            self.host_from = None
        if first or before == m.host or m.host is None:
            return hosting, None
        if hosting:
            self.host_from = before
        if hosting:
            return hosting, _("You are the host now")
        who = self.name_of(m.host) or name_of(m.host)
        return hosting, _("{name} is the host now").format(name=who)

    def asked(self, m: SeatAsked, name: str) -> str | None:
        """To the host: someone asks for a lost seat back (``open``), or that ask is over."""
        if not m.open:
            self.asks.pop(m.seat, None)
            return None
        new = m.seat not in self.asks
        self.asks[m.seat] = m.name or name
        return _("{name} asks for the seat back").format(name=m.name or name) if new else None

    def answered(self, m: AskAnswer) -> str | None:
        """Our own ask for a seat back: waiting, given, refused or unanswered."""
        self.ask = (m.seat, m.answer, m.message)
        self.asking = None
        return m.message or None

    def asked_now(self) -> int | None:
        """The seat to ask for now (once), its ask waiting for the host's word."""
        seat, self.asking = self.asking, None
        if seat is not None:
            self.ask = (seat, "waiting", "")
        return seat

    def host_answered(self, seat: int) -> None:
        """The host gave or refused ``seat``: the next ask, if any, shows."""
        self.asks.pop(seat, None)

    def refused(self, words: str) -> None:
        """Our ask was refused outright (an ``error`` to ``ask_seat``)."""
        seat = self.ask[0] if self.ask is not None else (self.asking or 0)
        self.ask = (seat, "failed", words)
