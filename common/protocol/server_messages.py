"""The messages a server sends, as frozen dataclasses with ``encode() -> dict``.

A client may read them as plain dicts: their keys are the dataclass fields plus
``type``, in that order, and an optional field is left out only where ``encode``
says so.  The views and lobby seats inside them are ``common.schema`` values'
``encode()``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from common.protocol.base import PROTOCOL_VERSION, SERVER_VERSION, _Message

__all__ = [
    "SERVER_MESSAGES",
    "Books",
    "AskAnswer",
    "Bye",
    "ChatSaid",
    "Clock",
    "Error",
    "Events",
    "HandEnd",
    "Lobby",
    "MatchStart",
    "Paused",
    "Pong",
    "Presence",
    "ProofAnswer",
    "SeatAsked",
    "SeatAway",
    "Standings",
    "Table",
    "Turn",
    "Waiting",
    "Welcome",
]


@dataclass(frozen=True, slots=True)
class Welcome(_Message):
    TYPE: ClassVar[str] = "welcome"
    seat: int | None
    token: str
    name: str
    host: bool
    watch: bool
    hands: int
    protocol: int = PROTOCOL_VERSION
    server: str = f"seventh-street {SERVER_VERSION}"


@dataclass(frozen=True, slots=True)
class Error(_Message):
    TYPE: ClassVar[str] = "error"
    code: str
    message: str
    ref: str | None = None
    seat: int | None = None
    """Protocol 2, ``name_taken`` only: the seat of that name is dropped or away, so its
    person may watch and ask for it back (``ask_seat``)."""

    def encode(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.ref is not None:
            out["ref"] = self.ref
        if self.seat is not None:
            out["seat"] = self.seat
        return out


@dataclass(frozen=True, slots=True)
class Lobby(_Message):
    TYPE: ClassVar[str] = "lobby"
    seats: list[dict[str, Any]]
    host: int | None
    hands: int
    can_start: bool
    start_when: int | None
    running: bool
    max_seats: int = 7
    open_books: bool = False
    books_to_watchers: bool = False
    options: dict[str, Any] | None = None
    paused: bool = False
    table: str = ""
    night: dict[str, Any] | None = None
    plain: str | None = None
    """``never`` when the table takes only sealed connections; ``allow`` when a table
    with a password takes plain ones too (their password, cards and token can be read on
    the network); left out at a table without a password that takes them, so the
    lobby's usual bytes stay as they were."""
    odds: bool | None = None
    """True when the host allows odds on request (``common.odds``); left out otherwise,
    likewise."""

    def encode(self) -> dict[str, Any]:
        out = _Message.encode(self)
        if self.plain is None:
            del out["plain"]
        if self.odds is None:
            del out["odds"]
        return out


@dataclass(frozen=True, slots=True)
class MatchStart(_Message):
    TYPE: ClassVar[str] = "match_start"
    match: str
    hands: int
    seats: list[dict[str, Any]]
    stakes: dict[str, int]
    stack: int


@dataclass(frozen=True, slots=True)
class Events(_Message):
    TYPE: ClassVar[str] = "events"
    hand: int
    step: int
    events: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Table(_Message):
    TYPE: ClassVar[str] = "table"
    match: str
    hand: int
    hands: int
    step: int
    view: dict[str, Any]
    players: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Turn(_Message):
    TYPE: ClassVar[str] = "turn"
    turn: int
    seat: int
    legal: list[dict[str, Any]]
    time_left: float | None = None
    bank: float | None = None


@dataclass(frozen=True, slots=True)
class HandEnd(_Message):
    TYPE: ClassVar[str] = "hand_end"
    hand: int
    awards: list[dict[str, Any]]
    shows: list[dict[str, Any]]
    stacks: list[dict[str, int]]


@dataclass(frozen=True, slots=True)
class Standings(_Message):
    TYPE: ClassVar[str] = "standings"
    match: str
    standings: list[dict[str, Any]]
    hands_played: int
    history: str | None = None
    night: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Presence(_Message):
    TYPE: ClassVar[str] = "presence"
    seat: int
    connected: bool
    grace: float | None = None


@dataclass(frozen=True, slots=True)
class SeatAway(_Message):
    """A seat went away or came back (R-C2, R-C3).  ``why``: ``asked`` (its person said
    so), ``clock`` (its turn clock and bank ran out), ``dropped`` (gone past the
    grace), ``taken`` (the host took the seat away); None when ``away`` is false.
    ``stand_in``: a computer plays the seat while it is away."""

    TYPE: ClassVar[str] = "seat_away"
    seat: int
    away: bool
    why: str | None = None
    stand_in: bool = False


@dataclass(frozen=True, slots=True)
class Paused(_Message):
    """The host paused (``paused`` true) or resumed the table (R-C3)."""

    TYPE: ClassVar[str] = "paused"
    paused: bool
    name: str = ""


@dataclass(frozen=True, slots=True)
class Waiting(_Message):
    """The table waits (``waiting`` true) because the host cannot save the match, or
    goes on again (false).  ``why``: ``disk_full`` or ``cannot_save``; ``message`` says
    it in English."""

    TYPE: ClassVar[str] = "waiting"
    waiting: bool
    why: str = ""
    message: str = ""


@dataclass(frozen=True, slots=True)
class Clock(_Message):
    """A person's turn clock, to everyone: decision seconds and time bank left (R-C4);
    ``running`` is false while the table is paused."""

    TYPE: ClassVar[str] = "clock"
    seat: int
    turn: int
    time_left: float
    bank: float
    running: bool = True


@dataclass(frozen=True, slots=True)
class ChatSaid(_Message):
    """A chat line relayed to everyone; ``seat`` is ``None`` for a spectator."""

    TYPE: ClassVar[str] = "chat"
    seat: int | None
    name: str
    text: str
    watching: bool = False

    def encode(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "chat", "seat": self.seat, "name": self.name}
        out["text"] = self.text
        if self.watching:
            out["watching"] = True
        return out


@dataclass(frozen=True, slots=True)
class Pong(_Message):
    TYPE: ClassVar[str] = "pong"
    id: int


@dataclass(frozen=True, slots=True)
class Bye(_Message):
    TYPE: ClassVar[str] = "bye"
    reason: str


@dataclass(frozen=True, slots=True)
class Books(_Message):
    """One hand's full ``stud-hh/1`` record, every hole card in it: sent only once a
    match with the host's *open the books* option is over (``docs/protocol.md``)."""

    TYPE: ClassVar[str] = "books"
    match: str
    hand: int
    hands: int
    record: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SeatAsked(_Message):
    """To the host only: ``name`` asks for ``seat`` back (``open`` true), or that ask is
    over (``open`` false: answered, withdrawn, the seat back by its token, the match
    over, or unanswered in time)."""

    TYPE: ClassVar[str] = "seat_asked"
    seat: int
    name: str
    open: bool = True


@dataclass(frozen=True, slots=True)
class AskAnswer(_Message):
    """To the connection that asked for ``seat`` back: ``answer`` is ``waiting`` (the
    host has been asked), ``given`` (a ``welcome`` to the seat follows), ``refused``
    or ``unanswered`` (the seat came back by its token, the match ended, or no answer
    came in time); ``message`` says it in words."""

    TYPE: ClassVar[str] = "ask_answer"
    seat: int
    answer: str
    message: str = ""


@dataclass(frozen=True, slots=True)
class ProofAnswer(_Message):
    """The table's half of the password proof (``common.proof``), to a sealed protocol 2
    hello that sent ``pake``: its own SPAKE2 message, its mac, and its mac of the key on
    no channel (a client tells a wrong password from a relay by it)."""

    TYPE: ClassVar[str] = "proof"
    pake: bytes
    mac: bytes
    pw_mac: bytes


# Kept for readers that want to look a server message class up by its type.
SERVER_MESSAGES: dict[str, type[_Message]] = {
    cls.TYPE: cls
    for cls in (
        Welcome,
        Error,
        Lobby,
        MatchStart,
        Events,
        Table,
        Turn,
        HandEnd,
        Standings,
        Presence,
        ChatSaid,
        Pong,
        Bye,
        Books,
        SeatAway,
        Paused,
        Waiting,
        Clock,
        SeatAsked,
        AskAnswer,
    )
}
"""Every message a plain connection may be sent (``ProofAnswer`` goes only to sealed
ones, so the recorded plain messages of ``tests/test_wire_values.py`` never hold it)."""
