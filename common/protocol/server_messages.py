"""The messages a server sends: the server builds them, the client reads them back.

Each is a ``common.reading.Wire`` dataclass; ``decode_server(map)`` picks the class by
``type``.  ``decode(m.encode()) == m`` for every message a server makes
(``tests/test_wire_values.py``).  ``decode`` raises ``ProtocolError`` only for a message
that cannot be read at all (an unknown type, a ``clock`` without its seat).  A field a
server may leave out where the client keeps what it knew is None on the way in (a
``table``'s ``hand``, a ``lobby``'s ``paused``).  Events are ``common.events`` values; a
down card the viewer may not see is a ``Deal`` whose ``card`` is None.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar, Self, get_args

from common import reading
from common.events import Award, Event, ProtocolError, Show, Stakes
from common.history import clean_record, decode_events, events_of, read_stakes
from common.match import Standing
from common.protocol.base import PROTOCOL_VERSION
from common.reading import Wire, read_fields, wire
from common.schema import MAX_ACTIONS, MAX_AWARDS, LegalAction, LobbySeat, SeatView
from common.version import __version__

__all__ = [
    "SERVER_MESSAGES", "AskAnswer", "Books", "Bye", "ChatSaid", "Clock", "Error", "Events",
    "HandEnd", "Heartbeat", "Lobby", "MatchStart", "Night", "NightMatch", "NightTotal",
    "Paused", "Pong", "Presence", "ProofAnswer", "SeatAsked", "SeatAway", "ServerMessage",
    "Standings", "Table", "TableOptions", "Turn", "Waiting", "Welcome", "decode_server",
]  # fmt: skip

_seats = reading.many(LobbySeat.decode, 7)
_night = reading.if_dict(lambda night: night)
"""The night's scoreboard as the server made it (``server.night``): ``Night.of`` reads it."""


def _seconds_needed(value: Any) -> float:
    seconds = reading.as_seconds(value)
    if seconds is None:
        raise ProtocolError("no time where one is needed")
    return seconds


def _bytes(value: Any) -> bytes:
    return value if isinstance(value, bytes) else b""


@dataclass(frozen=True, slots=True)
class Welcome(Wire):
    TYPE: ClassVar[str] = "welcome"
    seat: int | None = wire(reading.as_seat)
    token: str = wire(reading.text(128))
    """The seat's token; empty for a watcher."""
    name: str = wire(reading.text(20))
    host: bool = wire(reading.flag)
    watch: bool = wire(reading.flag)
    hands: int | None = wire(reading.opt_num(1, 99))
    protocol: int = wire(reading.num(PROTOCOL_VERSION, 1, 99), default=PROTOCOL_VERSION)
    server: str = wire(reading.text(60), default=f"seventh-street {__version__}")


@dataclass(frozen=True, slots=True)
class Error(Wire):
    TYPE: ClassVar[str] = "error"
    OPTIONAL = ("ref", "seat")
    code: str = wire(reading.text(40, "error"))
    message: str = wire(reading.text(200))
    ref: str | None = wire(reading.opt_text(40), default=None)
    seat: int | None = wire(reading.as_seat, default=None)
    """Protocol 2, ``name_taken`` only: the seat of that name is dropped or away, so its
    person may watch and ask for it back (``ask_seat``)."""


@dataclass(frozen=True, slots=True)
class TableOptions(Wire):
    """The table's clock and stand-in, as the host set them (R-C3, R-C4)."""

    turn_time: float | None = wire(reading.as_seconds, default=None)
    time_bank: float = wire(lambda value: reading.as_seconds(value) or 0.0, default=0.0)
    stand_in: bool = wire(reading.flag, default=False)


@dataclass(frozen=True, slots=True)
class Lobby(Wire):
    TYPE: ClassVar[str] = "lobby"
    OPTIONAL = ("plain", "odds")
    seats: list[LobbySeat] = wire(_seats, put=reading.encoded)
    host: int | None = wire(reading.as_seat)
    hands: int = wire(reading.num(8, 1, 99))
    can_start: bool = wire(reading.flag)
    start_when: int | None = wire(reading.opt_num())
    running: bool = wire(reading.flag)
    max_seats: int = wire(reading.num(7, 2, 7), default=7)
    open_books: bool = wire(reading.flag, default=False)
    books_to_watchers: bool = wire(reading.flag, default=False)
    options: TableOptions | None = wire(
        reading.if_dict(TableOptions.decode), put=TableOptions.encode, default=None
    )
    paused: bool | None = wire(reading.maybe(reading.flag), default=None)
    """None when the server did not say (an older server)."""
    table: str | None = wire(reading.str_or_none(40), default=None)
    """The table's name; None when the server did not say."""
    night: dict[str, Any] | None = wire(_night, default=None)
    plain: str | None = wire(lambda v: v if v in ("never", "allow") else None, default=None)
    """``never``: sealed connections only; ``allow``: a table with a password takes plain
    ones too; left out at a table without one that takes them (the usual keys stay)."""
    odds: bool = wire(reading.flag, default=False)
    """The host allows odds on request (``common.odds``); left out otherwise, likewise."""


@dataclass(frozen=True, slots=True)
class MatchStart(Wire):
    TYPE: ClassVar[str] = "match_start"
    match: str = wire(reading.text(80))
    hands: int | None = wire(reading.opt_num(1, 99))
    seats: list[LobbySeat] = wire(_seats, put=reading.encoded)
    stakes: Stakes = wire(read_stakes, put=Stakes.to_dict)
    stack: int = wire(reading.num(600, lo=0))


@dataclass(frozen=True, slots=True)
class Events(Wire):
    TYPE: ClassVar[str] = "events"
    hand: int | None = wire(reading.opt_num(lo=0))
    step: int = wire(reading.num(0, lo=0))
    events: list[Event] = wire(decode_events, put=reading.dicts)


@dataclass(frozen=True, slots=True)
class Table(Wire):
    TYPE: ClassVar[str] = "table"
    match: str = wire(reading.text(80))
    hand: int | None = wire(reading.opt_num(lo=0))
    hands: int | None = wire(reading.opt_num(1, 99))
    step: int = wire(reading.num(0, lo=0))
    view: SeatView = wire(SeatView.decode, put=SeatView.encode)
    players: list[LobbySeat] = wire(_seats, put=reading.encoded)


@dataclass(frozen=True, slots=True)
class Turn(Wire):
    TYPE: ClassVar[str] = "turn"
    turn: int = wire(reading.as_int)
    seat: int | None = wire(reading.as_seat)
    legal: list[LegalAction] = wire(
        reading.many(LegalAction.decode, MAX_ACTIONS), put=reading.encoded
    )
    time_left: float | None = wire(reading.as_seconds, default=None)
    bank: float | None = wire(reading.as_seconds, default=None)


def _stacks(value: Any) -> dict[int, int]:
    return {
        s["seat"]: reading.as_int(s.get("stack"), 0, lo=0)
        for s in reading.as_list(value)[:7]
        if isinstance(s, dict) and reading.as_seat(s.get("seat")) is not None
    }


@dataclass(frozen=True, slots=True)
class HandEnd(Wire):
    TYPE: ClassVar[str] = "hand_end"
    hand: int = wire(reading.num(0, lo=0))
    awards: list[Award] = wire(events_of(Award, MAX_AWARDS), put=reading.dicts)
    shows: list[Show] = wire(events_of(Show, 7), put=reading.dicts)
    stacks: dict[int, int] = wire(
        _stacks, put=lambda stacks: [{"seat": s, "stack": n} for s, n in stacks.items()]
    )
    """Every seat's stack after the hand (the hand book's final stacks)."""


def _standings(value: Any) -> list[Standing]:
    """The match's places, first first (R-T6)."""
    rows: list[Standing] = []
    for r in reading.as_list(value)[:7]:
        seat = reading.as_seat(r.get("seat")) if isinstance(r, dict) else None
        if seat is not None:
            place = reading.as_int(r.get("place"), len(rows) + 1, lo=1, hi=7)
            name = reading.as_str(r.get("name"), f"Seat {seat + 1}", 20)
            stack, net = reading.as_int(r.get("stack"), 0, lo=0), reading.as_int(r.get("net"), 0)
            rows.append(Standing(place, seat, name, stack, net, r.get("winner") is True))
    return rows


@dataclass(frozen=True, slots=True)
class Standings(Wire):
    TYPE: ClassVar[str] = "standings"
    match: str = wire(reading.text(80))
    standings: list[Standing] = wire(_standings, put=reading.dicts)
    hands_played: int | None = wire(reading.opt_num(lo=0))
    history: str | None = wire(reading.opt_text(120), default=None)
    """The name of the match's history file on the host, if one was written."""
    night: dict[str, Any] | None = wire(_night, default=None)


@dataclass(frozen=True, slots=True)
class Presence(Wire):
    TYPE: ClassVar[str] = "presence"
    seat: int = wire(reading.needed_seat)
    connected: bool = wire(reading.unless_false)
    grace: float | None = wire(reading.as_seconds, default=None)


@dataclass(frozen=True, slots=True)
class SeatAway(Wire):
    """A seat went away (``why``: ``asked``, ``clock``, ``dropped`` or ``taken``) or came
    back (R-C2, R-C3); ``stand_in``: a computer plays it while it is away."""

    TYPE: ClassVar[str] = "seat_away"
    seat: int = wire(reading.needed_seat)
    away: bool = wire(reading.flag)
    why: str | None = wire(reading.opt_text(12), default=None)
    stand_in: bool = wire(reading.flag, default=False)

    @classmethod
    def decode(cls, value: Any) -> Self:
        m = read_fields(cls, value)
        away = m["away"]
        return cls(m["seat"], away, m["why"] if away else None, away and m["stand_in"])


@dataclass(frozen=True, slots=True)
class Paused(Wire):
    """The host paused (``paused`` true) or resumed the table (R-C3)."""

    TYPE: ClassVar[str] = "paused"
    paused: bool = wire(reading.flag)
    name: str = wire(reading.text(20), default="")


@dataclass(frozen=True, slots=True)
class Waiting(Wire):
    """The table waits because the host cannot save the match (``why``: ``disk_full`` or
    ``cannot_save``), or goes on again."""

    TYPE: ClassVar[str] = "waiting"
    waiting: bool = wire(reading.flag)
    why: str = wire(reading.text(20), default="")
    message: str = wire(reading.text(200), default="")


@dataclass(frozen=True, slots=True)
class Clock(Wire):
    """A person's turn clock and time bank left (R-C4), stopped while the table is paused."""

    TYPE: ClassVar[str] = "clock"
    seat: int = wire(reading.needed_seat)
    turn: int = wire(reading.num(0))
    time_left: float = wire(_seconds_needed)
    bank: float = wire(lambda value: reading.as_seconds(value) or 0.0)
    running: bool = wire(reading.unless_false, default=True)


@dataclass(frozen=True, slots=True)
class ChatSaid(Wire):
    """A chat line relayed to everyone; ``seat`` is ``None`` for a spectator."""

    TYPE: ClassVar[str] = "chat"
    OPTIONAL = ("watching",)
    seat: int | None = wire(reading.as_seat)
    name: str = wire(reading.text(20, "?"))
    text: str = wire(reading.text(200))
    watching: bool = wire(reading.flag, default=False)

    @classmethod
    def decode(cls, value: Any) -> Self:
        """A line without ``watching`` (an older server) is a watcher's if it has no seat."""
        m = read_fields(cls, value)
        if "watching" not in value and value.get("seat") is None:
            m["watching"] = True
        return cls(**m)


@dataclass(frozen=True, slots=True)
class Pong(Wire):
    TYPE: ClassVar[str] = "pong"
    id: int = wire(reading.num(0), default=0)


@dataclass(frozen=True, slots=True)
class Heartbeat(Wire):
    """The server is there (sent when nothing else went for a while)."""

    TYPE: ClassVar[str] = "heartbeat"


@dataclass(frozen=True, slots=True)
class Bye(Wire):
    TYPE: ClassVar[str] = "bye"
    reason: str = wire(lambda value: reading.as_str(value, "", 200) or "the server closed")


@dataclass(frozen=True, slots=True)
class Books(Wire):
    """One hand's full ``stud-hh/1`` record, every hole card in it, once a match with the
    host's *open the books* option is over."""

    TYPE: ClassVar[str] = "books"
    match: str = wire(reading.text(80))
    hand: int = wire(reading.opt_num(1, 99))
    hands: int = wire(reading.num(0, 0, 99))
    record: dict[str, Any] = wire(clean_record)
    """Read by ``common.history.clean_record``: a record that is no hand refuses the message."""

    @classmethod
    def decode(cls, value: Any) -> Self:
        m = read_fields(cls, value)
        if m["hand"] is None:
            m["hand"] = m["record"]["hand"]
        return cls(**m)


@dataclass(frozen=True, slots=True)
class SeatAsked(Wire):
    """To the host only: ``name`` asks for ``seat`` back, or (``open`` false) that ask is over."""

    TYPE: ClassVar[str] = "seat_asked"
    seat: int = wire(reading.needed_seat)
    name: str = wire(reading.text(20))
    open: bool = wire(reading.unless_false, default=True)


ANSWERS = ("waiting", "given", "refused", "unanswered")


def _answer(value: Any) -> str:
    if value not in ANSWERS:
        raise ProtocolError("ask_answer without an answer")
    return str(value)


@dataclass(frozen=True, slots=True)
class AskAnswer(Wire):
    """To the connection that asked for ``seat`` back: one of ``ANSWERS`` (after ``given``
    a ``welcome`` to the seat follows), and the ``message`` in words."""

    TYPE: ClassVar[str] = "ask_answer"
    seat: int = wire(reading.needed_seat)
    answer: str = wire(_answer)
    message: str = wire(reading.text(200), default="")


@dataclass(frozen=True, slots=True)
class ProofAnswer(Wire):
    """The table's half of the password proof (``common.proof``) to a sealed hello with
    ``pake``; ``pw_mac`` (None from a table that sends none) tells a wrong password from
    a relay."""

    TYPE: ClassVar[str] = "proof"
    pake: bytes = wire(_bytes)
    mac: bytes = wire(_bytes)
    pw_mac: bytes | None = wire(lambda value: value if isinstance(value, bytes) else None)


ServerMessage = (
    Welcome | Error | Lobby | MatchStart | Events | Table | Turn | HandEnd | Standings
    | Presence | SeatAway | Paused | Waiting | Clock | ChatSaid | Pong | Heartbeat | Bye
    | Books | SeatAsked | AskAnswer | ProofAnswer
)  # fmt: skip

SERVER_MESSAGES: dict[str, Any] = {cls.TYPE: cls for cls in get_args(ServerMessage)}
"""Every server message class by its type."""


def decode_server(value: Any) -> ServerMessage:
    """One server message, typed; ``ProtocolError`` when it cannot be read."""
    msg = reading.as_dict(value)
    kind = msg.get("type")
    cls = SERVER_MESSAGES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ProtocolError(f"unknown message type {str(kind)[:30]!r}")
    decoded: ServerMessage = cls.decode(msg)
    return decoded


# ------------------------------------------------------------------ the night, as read


def _winners(value: Any) -> tuple[str, ...]:
    return tuple(
        name for name in (reading.as_str(w, "", 20) for w in reading.as_list(value)[:7]) if name
    )


def _total_name(value: Any) -> str:
    if not isinstance(value, str):
        raise ProtocolError("a night's total without a name")
    return reading.as_str(value, "?", 20)


@dataclass(frozen=True, slots=True)
class NightMatch(Wire):
    number: int = wire(reading.opt_num(1, 10**6))
    hands: int = wire(reading.num(0, 0, 99))
    winners: tuple[str, ...] = wire(_winners)


@dataclass(frozen=True, slots=True)
class NightTotal(Wire):
    name: str = wire(_total_name)
    computer: bool = wire(lambda kind: kind == "computer", key="kind")
    matches: int = wire(reading.num(0, 0, 10**6))
    wins: int = wire(reading.num(0, 0, 10**6))
    net: int = wire(reading.num(0, -(10**9), 10**9))


@dataclass(frozen=True, slots=True)
class Night(Wire):
    """The night's scoreboard (``server.night``) of a ``lobby`` or the ``standings``."""

    label: str = wire(reading.text(40))  # the server's English words for the date
    table: str = wire(reading.text(40))
    played: int = wire(reading.opt_num(0, 10**6))
    matches: tuple[NightMatch, ...] = wire(
        lambda value: tuple(reading.as_list_of(NightMatch.decode, reading.as_list(value)[-30:], 30))
    )
    totals: tuple[NightTotal, ...] = wire(
        lambda value: tuple(reading.as_list_of(NightTotal.decode, value, 40))
    )

    evening: str = wire(reading.text(40), key="night")  # the date, ISO: the client words it

    def total_of(self, name: str) -> NightTotal | None:
        return next((t for t in self.totals if t.name == name), None)

    @classmethod
    def of(cls, value: Any) -> Night | None:
        """None when the server sent none; a match without a number is numbered by its place."""
        if not isinstance(value, dict):
            return None
        night = cls.decode(value)
        matches = tuple(replace(m, number=m.number or i) for i, m in enumerate(night.matches, 1))
        played = len(matches) if night.played is None else night.played
        return replace(night, played=played, matches=matches)
