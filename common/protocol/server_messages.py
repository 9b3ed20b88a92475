"""The messages a server sends: the server builds them, the client reads them back.

Each is a frozen dataclass with ``encode() -> dict`` (the wire map: ``type``, then the
fields in their order, an optional field left out as ``OPTIONAL`` says) and
``decode(map)``, which checks what msgpack produced from the other side.
``decode_server(map)`` picks the class by ``type``.  Invariants:

- ``decode(m.encode()) == m`` for every message a server makes (``tests/test_wire_values.py``
  holds every recorded message to it, key order included).
- ``decode`` raises only ``ProtocolError``, for a message that cannot be read at all (an
  unknown type, a ``clock`` without its seat); every field has been through
  ``common.reading`` or ``common.schema``: numbers clamped, strings cut, seats 0 to 6,
  card codes well formed, lists capped, an odd optional field read as its default.
- A field a server may leave out where the client keeps what it knew is ``None`` on the
  way in (a ``table``'s ``hand``, a ``lobby``'s ``paused``).
- Events are ``common.events`` values (``common.history.decode_event``); a down card the
  viewer may not see is a ``Deal`` whose ``card`` is None.
- Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from common.events import Award, Event, ProtocolError, Show, Stakes
from common.history import clean_record, decode_events
from common.match import Standing
from common.protocol.base import PROTOCOL_VERSION, SERVER_VERSION, _Message
from common.reading import (
    as_dict,
    as_int,
    as_list,
    as_list_of,
    as_seat,
    as_seconds,
    as_str,
    opt_int,
)
from common.schema import MAX_ACTIONS, LegalAction, LobbySeat, SeatView

__all__ = [
    "SERVER_MESSAGES", "AskAnswer", "Books", "Bye", "ChatSaid", "Clock", "Error", "Events",
    "HandEnd", "Heartbeat", "Lobby", "MatchStart", "Night", "NightMatch", "NightTotal",
    "Paused", "Pong", "Presence", "ProofAnswer", "SeatAsked", "SeatAway", "ServerMessage",
    "Standings", "Table", "TableOptions", "Turn", "Waiting", "Welcome", "decode_server",
]  # fmt: skip


def _lobby_seats(value: Any) -> list[LobbySeat]:
    return as_list_of(LobbySeat.decode, value, 7)


def _seat_of(m: dict[str, Any]) -> int:
    """The seat a message means nothing without."""
    seat = as_seat(m.get("seat"))
    if seat is None:
        raise ProtocolError(f"{str(m.get('type'))[:20]} without a seat")
    return seat


@dataclass(frozen=True, slots=True)
class Welcome(_Message):
    TYPE: ClassVar[str] = "welcome"
    seat: int | None
    token: str
    """The seat's token; empty for a watcher."""
    name: str
    host: bool
    watch: bool
    hands: int | None
    protocol: int = PROTOCOL_VERSION
    server: str = f"seventh-street {SERVER_VERSION}"

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Welcome:
        return cls(
            seat=as_seat(m.get("seat")),
            token=as_str(m.get("token"), "", 128),
            name=as_str(m.get("name"), "", 20),
            host=m.get("host") is True,
            watch=m.get("watch") is True,
            hands=opt_int(m.get("hands"), lo=1, hi=99),
            protocol=as_int(m.get("protocol"), PROTOCOL_VERSION, lo=1, hi=99),
            server=as_str(m.get("server"), "", 60),
        )


@dataclass(frozen=True, slots=True)
class Error(_Message):
    TYPE: ClassVar[str] = "error"
    OPTIONAL: ClassVar[tuple[str, ...]] = ("ref", "seat")
    code: str
    message: str
    ref: str | None = None
    seat: int | None = None
    """Protocol 2, ``name_taken`` only: the seat of that name is dropped or away, so its
    person may watch and ask for it back (``ask_seat``)."""

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Error:
        ref = as_str(m.get("ref"), limit=40) or None
        code, message = as_str(m.get("code"), "error", 40), as_str(m.get("message"), "", 200)
        return cls(code, message, ref, as_seat(m.get("seat")))


@dataclass(frozen=True, slots=True)
class TableOptions:
    """The table's clock and stand-in, as the host set them (R-C3, R-C4)."""

    turn_time: float | None = None
    time_bank: float = 0.0
    stand_in: bool = False

    def encode(self) -> dict[str, Any]:
        return {"turn_time": self.turn_time, "time_bank": self.time_bank, "stand_in": self.stand_in}

    @classmethod
    def decode(cls, value: Any) -> TableOptions:
        opts = value if isinstance(value, dict) else {}
        return cls(
            as_seconds(opts.get("turn_time")),
            as_seconds(opts.get("time_bank")) or 0.0,
            opts.get("stand_in") is True,
        )


@dataclass(frozen=True, slots=True)
class Lobby(_Message):
    TYPE: ClassVar[str] = "lobby"
    OPTIONAL: ClassVar[tuple[str, ...]] = ("plain", "odds")
    seats: list[LobbySeat]
    host: int | None
    hands: int
    can_start: bool
    start_when: int | None
    running: bool
    max_seats: int = 7
    open_books: bool = False
    books_to_watchers: bool = False
    options: TableOptions | None = None
    paused: bool | None = None
    """None when the server did not say (an older server)."""
    table: str | None = None
    """The table's name; None when the server did not say."""
    night: dict[str, Any] | None = None
    """The night's scoreboard as the server made it (``server.night``): ``Night.decode``."""
    plain: str | None = None
    """``never`` when the table takes only sealed connections; ``allow`` when a table
    with a password takes plain ones too (their password, cards and token can be read on
    the network); left out at a table without a password that takes them, so the
    lobby's usual keys stay as they were."""
    odds: bool = False
    """The host allows odds on request (``common.odds``); left out otherwise, likewise."""

    def encode(self) -> dict[str, Any]:
        out = _Message.encode(self)
        out["seats"] = [seat.encode() for seat in self.seats]
        if self.options is not None:
            out["options"] = self.options.encode()
        return out

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Lobby:
        plain = m.get("plain")
        return cls(
            seats=_lobby_seats(m.get("seats")),
            host=as_seat(m.get("host")),
            hands=as_int(m.get("hands"), 8, lo=1, hi=99),
            can_start=m.get("can_start") is True,
            start_when=opt_int(m.get("start_when")),
            running=m.get("running") is True,
            max_seats=as_int(m.get("max_seats"), 7, lo=2, hi=7),
            open_books=m.get("open_books") is True,
            books_to_watchers=m.get("books_to_watchers") is True,
            options=TableOptions.decode(m["options"])
            if isinstance(m.get("options"), dict)
            else None,
            paused=(m.get("paused") is True) if "paused" in m else None,
            table=as_str(m["table"], "", 40) if "table" in m else None,
            night=m["night"] if isinstance(m.get("night"), dict) else None,
            plain=plain if plain in ("never", "allow") else None,
            odds=m.get("odds") is True,
        )


@dataclass(frozen=True, slots=True)
class MatchStart(_Message):
    TYPE: ClassVar[str] = "match_start"
    match: str
    hands: int | None
    seats: list[LobbySeat]
    stakes: Stakes
    stack: int

    def encode(self) -> dict[str, Any]:
        out = _Message.encode(self)
        out["seats"] = [seat.encode() for seat in self.seats]
        out["stakes"] = self.stakes.to_dict()
        return out

    @classmethod
    def decode(cls, m: dict[str, Any]) -> MatchStart:
        given = m["stakes"] if isinstance(m.get("stakes"), dict) else {}
        stakes = Stakes(**{k: as_int(given.get(k), d, lo=0) for k, d in Stakes().to_dict().items()})
        return cls(
            match=as_str(m.get("match"), "", 80),
            hands=opt_int(m.get("hands"), lo=1, hi=99),
            seats=_lobby_seats(m.get("seats")),
            stakes=stakes,
            stack=as_int(m.get("stack"), 600, lo=0),
        )


@dataclass(frozen=True, slots=True)
class Events(_Message):
    TYPE: ClassVar[str] = "events"
    hand: int | None
    step: int
    events: list[Event]

    def encode(self) -> dict[str, Any]:
        events = [event.to_dict() for event in self.events]
        return {"type": "events", "hand": self.hand, "step": self.step, "events": events}

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Events:
        step = as_int(m.get("step"), 0, lo=0)
        return cls(opt_int(m.get("hand"), lo=0), step, decode_events(m.get("events")))


@dataclass(frozen=True, slots=True)
class Table(_Message):
    TYPE: ClassVar[str] = "table"
    match: str
    hand: int | None
    hands: int | None
    step: int
    view: SeatView
    players: list[LobbySeat]

    def encode(self) -> dict[str, Any]:
        out = _Message.encode(self)
        out["view"] = self.view.encode()
        out["players"] = [seat.encode() for seat in self.players]
        return out

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Table:
        return cls(
            match=as_str(m.get("match"), "", 80),
            hand=opt_int(m.get("hand"), lo=0),
            hands=opt_int(m.get("hands"), lo=1, hi=99),
            step=as_int(m.get("step"), 0, lo=0),
            view=SeatView.decode(m.get("view")),
            players=_lobby_seats(m.get("players")),
        )


@dataclass(frozen=True, slots=True)
class Turn(_Message):
    TYPE: ClassVar[str] = "turn"
    turn: int
    seat: int | None
    legal: list[LegalAction]
    time_left: float | None = None
    bank: float | None = None

    def encode(self) -> dict[str, Any]:
        out = _Message.encode(self)
        out["legal"] = [action.encode() for action in self.legal]
        return out

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Turn:
        return cls(
            turn=as_int(m.get("turn")),
            seat=as_seat(m.get("seat")),
            legal=as_list_of(LegalAction.decode, m.get("legal"), MAX_ACTIONS),
            time_left=as_seconds(m.get("time_left")),
            bank=as_seconds(m.get("bank")),
        )


@dataclass(frozen=True, slots=True)
class HandEnd(_Message):
    TYPE: ClassVar[str] = "hand_end"
    hand: int
    awards: list[Award]
    shows: list[Show]
    stacks: dict[int, int]
    """Every seat's stack after the hand (the hand book's final stacks)."""

    def encode(self) -> dict[str, Any]:
        return {
            "type": "hand_end",
            "hand": self.hand,
            "awards": [award.to_dict() for award in self.awards],
            "shows": [show.to_dict() for show in self.shows],
            "stacks": [{"seat": seat, "stack": stack} for seat, stack in self.stacks.items()],
        }

    @classmethod
    def decode(cls, m: dict[str, Any]) -> HandEnd:
        stacks = {
            s["seat"]: as_int(s.get("stack"), 0, lo=0)
            for s in as_list(m.get("stacks"))[:7]
            if isinstance(s, dict) and as_seat(s.get("seat")) is not None
        }
        awards = [e for e in decode_events(m.get("awards"), 16) if isinstance(e, Award)]
        shows = [e for e in decode_events(m.get("shows"), 7) if isinstance(e, Show)]
        return cls(as_int(m.get("hand"), 0, lo=0), awards, shows, stacks)


@dataclass(frozen=True, slots=True)
class Standings(_Message):
    TYPE: ClassVar[str] = "standings"
    match: str
    standings: list[Standing]
    """The match's places, first first (R-T6)."""
    hands_played: int | None
    history: str | None = None
    """The name of the match's history file on the host, if one was written."""
    night: dict[str, Any] | None = None
    """As a ``lobby``'s: ``Night.decode``."""

    def encode(self) -> dict[str, Any]:
        out = _Message.encode(self)
        out["standings"] = [row.to_dict() for row in self.standings]
        return out

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Standings:
        rows: list[Standing] = []
        for r in as_list(m.get("standings"))[:7]:
            seat = as_seat(r.get("seat")) if isinstance(r, dict) else None
            if seat is not None:
                rows.append(
                    Standing(
                        place=as_int(r.get("place"), len(rows) + 1, lo=1, hi=7),
                        seat=seat,
                        name=as_str(r.get("name"), f"Seat {seat + 1}", 20),
                        stack=as_int(r.get("stack"), 0, lo=0),
                        net=as_int(r.get("net"), 0),
                        winner=r.get("winner") is True,
                    )
                )
        return cls(
            match=as_str(m.get("match"), "", 80),
            standings=rows,
            hands_played=opt_int(m.get("hands_played"), lo=0),
            history=as_str(m.get("history"), limit=120) or None,
            night=m["night"] if isinstance(m.get("night"), dict) else None,
        )


@dataclass(frozen=True, slots=True)
class Presence(_Message):
    TYPE: ClassVar[str] = "presence"
    seat: int
    connected: bool
    grace: float | None = None

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Presence:
        return cls(_seat_of(m), m.get("connected") is not False, as_seconds(m.get("grace")))


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

    @classmethod
    def decode(cls, m: dict[str, Any]) -> SeatAway:
        away = m.get("away") is True
        why = (as_str(m.get("why"), limit=12) or None) if away else None
        return cls(_seat_of(m), away, why, away and m.get("stand_in") is True)


@dataclass(frozen=True, slots=True)
class Paused(_Message):
    """The host paused (``paused`` true) or resumed the table (R-C3)."""

    TYPE: ClassVar[str] = "paused"
    paused: bool
    name: str = ""

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Paused:
        return cls(m.get("paused") is True, as_str(m.get("name"), "", 20))


@dataclass(frozen=True, slots=True)
class Waiting(_Message):
    """The table waits (``waiting`` true) because the host cannot save the match, or
    goes on again (false).  ``why``: ``disk_full`` or ``cannot_save``; ``message`` says
    it in English."""

    TYPE: ClassVar[str] = "waiting"
    waiting: bool
    why: str = ""
    message: str = ""

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Waiting:
        why, message = as_str(m.get("why"), "", 20), as_str(m.get("message"), "", 200)
        return cls(m.get("waiting") is True, why, message)


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

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Clock:
        left = as_seconds(m.get("time_left"))
        if left is None:
            raise ProtocolError("clock without a time")
        bank = as_seconds(m.get("bank")) or 0.0
        return cls(_seat_of(m), as_int(m.get("turn"), 0), left, bank, m.get("running") is not False)


@dataclass(frozen=True, slots=True)
class ChatSaid(_Message):
    """A chat line relayed to everyone; ``seat`` is ``None`` for a spectator."""

    TYPE: ClassVar[str] = "chat"
    OPTIONAL: ClassVar[tuple[str, ...]] = ("watching",)
    seat: int | None
    name: str
    text: str
    watching: bool = False

    @classmethod
    def decode(cls, m: dict[str, Any]) -> ChatSaid:
        seat = as_seat(m.get("seat"))
        watching = m.get("watching") is True or ("watching" not in m and m.get("seat") is None)
        return cls(seat, as_str(m.get("name"), "?", 20), as_str(m.get("text"), "", 200), watching)


@dataclass(frozen=True, slots=True)
class Pong(_Message):
    TYPE: ClassVar[str] = "pong"
    id: int = 0

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Pong:
        return cls(as_int(m.get("id"), 0))


@dataclass(frozen=True, slots=True)
class Heartbeat(_Message):
    """The server is there (sent when nothing else went for a while)."""

    TYPE: ClassVar[str] = "heartbeat"

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Heartbeat:
        return cls()


@dataclass(frozen=True, slots=True)
class Bye(_Message):
    TYPE: ClassVar[str] = "bye"
    reason: str

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Bye:
        return cls(as_str(m.get("reason"), "", 200) or "the server closed")


@dataclass(frozen=True, slots=True)
class Books(_Message):
    """One hand's full ``stud-hh/1`` record, every hole card in it: sent only once a
    match with the host's *open the books* option is over (``docs/protocol.md``)."""

    TYPE: ClassVar[str] = "books"
    match: str
    hand: int
    hands: int
    record: dict[str, Any]

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Books:
        if not isinstance(m.get("record"), dict):
            raise ProtocolError("books without a record")
        record = clean_record(m["record"])
        hand = as_int(m.get("hand"), record["hand"], lo=1, hi=99)
        return cls(
            as_str(m.get("match"), "", 80), hand, as_int(m.get("hands"), 0, lo=0, hi=99), record
        )


@dataclass(frozen=True, slots=True)
class SeatAsked(_Message):
    """To the host only: ``name`` asks for ``seat`` back (``open`` true), or that ask is
    over (``open`` false: answered, withdrawn, the seat back by its token, the match
    over, or unanswered in time)."""

    TYPE: ClassVar[str] = "seat_asked"
    seat: int
    name: str
    open: bool = True

    @classmethod
    def decode(cls, m: dict[str, Any]) -> SeatAsked:
        return cls(_seat_of(m), as_str(m.get("name"), "", 20), m.get("open") is not False)


ANSWERS = ("waiting", "given", "refused", "unanswered")


@dataclass(frozen=True, slots=True)
class AskAnswer(_Message):
    """To the connection that asked for ``seat`` back: one of ``ANSWERS``: ``waiting``
    (the host has been asked), ``given`` (a ``welcome`` to the seat follows), ``refused``
    or ``unanswered`` (the seat came back by its token, the match ended, or no answer
    came in time); ``message`` says it in words."""

    TYPE: ClassVar[str] = "ask_answer"
    seat: int
    answer: str
    message: str = ""

    @classmethod
    def decode(cls, m: dict[str, Any]) -> AskAnswer:
        answer = as_str(m.get("answer"), "", 20)
        if answer not in ANSWERS:
            raise ProtocolError("ask_answer without an answer")
        return cls(_seat_of(m), answer, as_str(m.get("message"), "", 200))


@dataclass(frozen=True, slots=True)
class ProofAnswer(_Message):
    """The table's half of the password proof (``common.proof``, which checks it), to a
    sealed protocol 2 hello that sent ``pake``: its own SPAKE2 message, its mac, and its
    mac of the key on no channel (a client tells a wrong password from a relay by it;
    None from a table that sends none)."""

    TYPE: ClassVar[str] = "proof"
    pake: bytes
    mac: bytes
    pw_mac: bytes | None

    @classmethod
    def decode(cls, m: dict[str, Any]) -> ProofAnswer:
        pake, mac, pw_mac = (m.get(key) for key in ("pake", "mac", "pw_mac"))
        return cls(
            pake if isinstance(pake, bytes) else b"",
            mac if isinstance(mac, bytes) else b"",
            pw_mac if isinstance(pw_mac, bytes) else None,
        )


ServerMessage = (
    Welcome | Error | Lobby | MatchStart | Events | Table | Turn | HandEnd | Standings
    | Presence | SeatAway | Paused | Waiting | Clock | ChatSaid | Pong | Heartbeat | Bye
    | Books | SeatAsked | AskAnswer | ProofAnswer
)  # fmt: skip

SERVER_MESSAGES: dict[str, Any] = {
    cls.TYPE: cls
    for cls in (
        Welcome, Error, Lobby, MatchStart, Events, Table, Turn, HandEnd, Standings, Presence,
        SeatAway, Paused, Waiting, Clock, ChatSaid, Pong, Heartbeat, Bye, Books, SeatAsked,
        AskAnswer, ProofAnswer,
    )
}  # fmt: skip
"""Every server message class by its type (``ProofAnswer`` goes only to sealed
connections, so the recorded plain messages of ``tests/test_wire_values.py`` never hold it)."""


def decode_server(value: Any) -> ServerMessage:
    """One server message, typed; ``ProtocolError`` when it cannot be read."""
    msg = as_dict(value)
    kind = msg.get("type")
    cls = SERVER_MESSAGES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ProtocolError(f"unknown message type {str(kind)[:30]!r}")
    decoded: ServerMessage = cls.decode(msg)
    return decoded


# ------------------------------------------------------------------ the night, as read


@dataclass(frozen=True, slots=True)
class NightMatch:
    number: int
    hands: int
    winners: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NightTotal:
    name: str
    computer: bool
    matches: int
    wins: int
    net: int


@dataclass(frozen=True, slots=True)
class Night:
    """The night's scoreboard (``server.night``) of a ``lobby`` or the ``standings``."""

    label: str
    table: str
    played: int
    matches: tuple[NightMatch, ...]
    totals: tuple[NightTotal, ...]

    def total_of(self, name: str) -> NightTotal | None:
        return next((t for t in self.totals if t.name == name), None)

    @classmethod
    def decode(cls, value: Any) -> Night | None:
        """None when the server sent none, or nothing usable."""
        if not isinstance(value, dict):
            return None
        matches: list[NightMatch] = []
        for m in as_list(value.get("matches"))[-30:]:
            if isinstance(m, dict):
                names = (as_str(w, "", 20) for w in as_list(m.get("winners"))[:7])
                number = as_int(m.get("number"), len(matches) + 1, lo=1, hi=10**6)
                hands = as_int(m.get("hands"), 0, lo=0, hi=99)
                matches.append(NightMatch(number, hands, tuple(n for n in names if n)))
        totals = tuple(
            NightTotal(
                as_str(t["name"], "?", 20),
                t.get("kind") == "computer",
                as_int(t.get("matches"), 0, lo=0, hi=10**6),
                as_int(t.get("wins"), 0, lo=0, hi=10**6),
                as_int(t.get("net"), 0, lo=-(10**9), hi=10**9),
            )
            for t in as_list(value.get("totals"))[:40]
            if isinstance(t, dict) and isinstance(t.get("name"), str)
        )
        return cls(
            label=as_str(value.get("label"), "", 40),
            table=as_str(value.get("table"), "", 40),
            played=as_int(value.get("played"), len(matches), lo=0, hi=10**6),
            matches=tuple(matches),
            totals=totals,
        )
