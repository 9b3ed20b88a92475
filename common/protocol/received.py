"""A server's messages as a client reads them: each checked and typed once.

``decode_server(msg)`` takes one map as msgpack produced it and returns one of the
values below, or raises ``ProtocolError`` (a ``ValueError``) for a message that cannot
be read at all or whose type is unknown.  The client decodes every frame here, once,
and from then on reads fields, never keys: the session, the scenes, the coach, the
hand book and the sounds all take these values.

Invariants:

- Every field has been through ``common.reading`` (or ``common.schema``'s ``decode``):
  numbers clamped, strings cut, seats 0 to 6, card codes well formed, lists capped.
  An odd optional field falls back to a default rather than dropping the message;
  a field the message means nothing without (a ``clock``'s seat) raises.
- A field the server may leave out, where the client keeps what it knew, is ``None``
  (a ``table``'s ``hand``, a ``lobby``'s ``table`` name, its ``paused``).
- Events are ``common.events`` values (``common.history.decode_event``): the engine's
  own types, a down card the viewer may not see a ``Deal`` whose ``card`` is None.
- Pure: no I/O.

The server builds what it sends from ``common.protocol.server_messages``; the names
here are the same because they are the same messages, read the other way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from common.events import Event, ProtocolError, Stakes
from common.history import clean_record, decode_events
from common.reading import as_dict, as_int, as_list, as_seat, as_seconds, as_str, opt_int
from common.schema import LegalAction, LobbySeat, SeatView, decode_legal, decode_lobby_seats

__all__ = [
    "AskAnswer", "Books", "Bye", "Chat", "Clock", "Error", "Events", "HandEnd", "Heartbeat",
    "Lobby", "MatchStart", "Night", "NightMatch", "NightTotal", "Paused", "Pong", "Presence",
    "Proof", "SeatAsked", "SeatAway", "ServerMessage", "Standing", "Standings", "Table",
    "TableOptions", "Turn", "Waiting", "Welcome", "decode_server",
]  # fmt: skip

# ------------------------------------------------------------------ the night


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
    """The night's scoreboard (``server.night``), in a ``lobby`` and the ``standings``."""

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


# ------------------------------------------------------------------ the messages


@dataclass(frozen=True, slots=True)
class Welcome:
    TYPE: ClassVar[str] = "welcome"
    seat: int | None
    token: str | None
    name: str
    host: bool
    watch: bool
    hands: int | None

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Welcome:
        token = m.get("token")
        return cls(
            seat=as_seat(m.get("seat")),
            token=token[:128] if isinstance(token, str) and token else None,
            name=as_str(m.get("name"), "", 20),
            host=m.get("host") is True,
            watch=m.get("watch") is True,
            hands=opt_int(m.get("hands"), lo=1, hi=99),
        )


@dataclass(frozen=True, slots=True)
class Error:
    TYPE: ClassVar[str] = "error"
    code: str
    message: str
    ref: str | None = None
    seat: int | None = None
    """``name_taken`` only: the seat of that name, which may be asked back."""

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

    @classmethod
    def decode(cls, value: Any) -> TableOptions:
        opts = value if isinstance(value, dict) else {}
        return cls(
            as_seconds(opts.get("turn_time")),
            as_seconds(opts.get("time_bank")) or 0.0,
            opts.get("stand_in") is True,
        )


@dataclass(frozen=True, slots=True)
class Lobby:
    TYPE: ClassVar[str] = "lobby"
    seats: list[LobbySeat]
    host: int | None
    hands: int
    can_start: bool
    start_when: int | None
    running: bool
    options: TableOptions = field(default_factory=TableOptions)
    paused: bool | None = None
    """None when the server did not say (an older server)."""
    table: str | None = None
    night: Night | None = None
    open_books: bool = False
    books_to_watchers: bool = False
    plain: str | None = None
    """``never`` (only sealed connections), ``allow`` (plain ones at a table with a
    password), or None (plain ones taken at a table without one)."""
    odds: bool = False

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Lobby:
        plain = m.get("plain")
        return cls(
            seats=decode_lobby_seats(m.get("seats")),
            host=as_seat(m.get("host")),
            hands=as_int(m.get("hands"), 8, lo=1, hi=99),
            can_start=m.get("can_start") is True,
            start_when=opt_int(m.get("start_when")),
            running=m.get("running") is True,
            options=TableOptions.decode(m.get("options")),
            paused=(m.get("paused") is True) if "paused" in m else None,
            table=as_str(m["table"], "", 40) if "table" in m else None,
            night=Night.decode(m.get("night")),
            open_books=m.get("open_books") is True,
            books_to_watchers=m.get("books_to_watchers") is True,
            plain=plain if plain in ("never", "allow") else None,
            odds=m.get("odds") is True,
        )


@dataclass(frozen=True, slots=True)
class MatchStart:
    TYPE: ClassVar[str] = "match_start"
    match: str
    hands: int | None
    seats: list[LobbySeat]
    stakes: Stakes
    stack: int

    @classmethod
    def decode(cls, m: dict[str, Any]) -> MatchStart:
        given = m["stakes"] if isinstance(m.get("stakes"), dict) else {}
        stakes = Stakes(**{k: as_int(given.get(k), d, lo=0) for k, d in Stakes().to_dict().items()})
        return cls(
            match=as_str(m.get("match"), "", 80),
            hands=opt_int(m.get("hands"), lo=1, hi=99),
            seats=decode_lobby_seats(m.get("seats")),
            stakes=stakes,
            stack=as_int(m.get("stack"), 600, lo=0),
        )


@dataclass(frozen=True, slots=True)
class Events:
    TYPE: ClassVar[str] = "events"
    hand: int | None
    events: list[Event]

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Events:
        return cls(opt_int(m.get("hand"), lo=0), decode_events(m.get("events")))


@dataclass(frozen=True, slots=True)
class Table:
    TYPE: ClassVar[str] = "table"
    match: str
    hand: int | None
    hands: int | None
    view: SeatView
    players: list[LobbySeat]

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Table:
        return cls(
            match=as_str(m.get("match"), "", 80),
            hand=opt_int(m.get("hand"), lo=0),
            hands=opt_int(m.get("hands"), lo=1, hi=99),
            view=SeatView.decode(m.get("view")),
            players=decode_lobby_seats(m.get("players")),
        )


@dataclass(frozen=True, slots=True)
class Turn:
    TYPE: ClassVar[str] = "turn"
    turn: int
    seat: int | None
    legal: list[LegalAction]
    time_left: float | None = None
    bank: float | None = None

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Turn:
        return cls(
            turn=as_int(m.get("turn")),
            seat=as_seat(m.get("seat")),
            legal=decode_legal(m.get("legal")),
            time_left=as_seconds(m.get("time_left")),
            bank=as_seconds(m.get("bank")),
        )


@dataclass(frozen=True, slots=True)
class HandEnd:
    TYPE: ClassVar[str] = "hand_end"
    hand: int
    stacks: dict[int, int]
    """Every seat's stack after the hand (the hand book's final stacks)."""

    @classmethod
    def decode(cls, m: dict[str, Any]) -> HandEnd:
        stacks = {
            s["seat"]: as_int(s.get("stack"), 0, lo=0)
            for s in as_list(m.get("stacks"))[:7]
            if isinstance(s, dict) and as_seat(s.get("seat")) is not None
        }
        return cls(as_int(m.get("hand"), 0, lo=0), stacks)


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of the match's standings (R-T6)."""

    place: int
    seat: int
    name: str
    stack: int
    net: int
    winner: bool


@dataclass(frozen=True, slots=True)
class Standings:
    TYPE: ClassVar[str] = "standings"
    rows: list[Standing]
    hands_played: int | None
    night: Night | None = None

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
        return cls(rows, opt_int(m.get("hands_played"), lo=0), Night.decode(m.get("night")))


def _seat_of(m: dict[str, Any]) -> int:
    seat = as_seat(m.get("seat"))
    if seat is None:
        raise ProtocolError(f"{str(m.get('type'))[:20]} without a seat")
    return seat


@dataclass(frozen=True, slots=True)
class Presence:
    TYPE: ClassVar[str] = "presence"
    seat: int
    connected: bool
    grace: float | None = None

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Presence:
        return cls(_seat_of(m), m.get("connected") is not False, as_seconds(m.get("grace")))


@dataclass(frozen=True, slots=True)
class SeatAway:
    """A seat went away (``why``: ``asked``, ``clock``, ``dropped``, ``taken``) or came
    back (R-C2, R-C3); ``stand_in``: a computer plays it meanwhile."""

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
class Paused:
    TYPE: ClassVar[str] = "paused"
    paused: bool
    name: str = ""

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Paused:
        return cls(m.get("paused") is True, as_str(m.get("name"), "", 20))


@dataclass(frozen=True, slots=True)
class Waiting:
    """The table waits for the host's disk (``why``: ``disk_full``, ``cannot_save``)."""

    TYPE: ClassVar[str] = "waiting"
    waiting: bool
    why: str = ""

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Waiting:
        return cls(m.get("waiting") is True, as_str(m.get("why"), "", 20))


@dataclass(frozen=True, slots=True)
class Clock:
    """A person's turn clock: decision seconds and time bank left (R-C4)."""

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
class Chat:
    TYPE: ClassVar[str] = "chat"
    seat: int | None
    name: str
    text: str
    watching: bool = False

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Chat:
        seat = as_seat(m.get("seat"))
        watching = m.get("watching") is True or ("watching" not in m and m.get("seat") is None)
        return cls(seat, as_str(m.get("name"), "?", 20), as_str(m.get("text"), "", 200), watching)


@dataclass(frozen=True, slots=True)
class Pong:
    TYPE: ClassVar[str] = "pong"

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Pong:
        return cls()


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """The server is there (sent when nothing else went for a while)."""

    TYPE: ClassVar[str] = "heartbeat"

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Heartbeat:
        return cls()


@dataclass(frozen=True, slots=True)
class Bye:
    TYPE: ClassVar[str] = "bye"
    reason: str

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Bye:
        return cls(as_str(m.get("reason"), "", 200) or "the server closed")


@dataclass(frozen=True, slots=True)
class Books:
    """One hand's full record, every hole card in it, after an open-books match."""

    TYPE: ClassVar[str] = "books"
    hand: int
    hands: int
    record: dict[str, Any]

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Books:
        if not isinstance(m.get("record"), dict):
            raise ProtocolError("books without a record")
        record = clean_record(m["record"])
        hand = as_int(m.get("hand"), record["hand"], lo=1, hi=99)
        return cls(hand, as_int(m.get("hands"), 0, lo=0, hi=99), record)


@dataclass(frozen=True, slots=True)
class SeatAsked:
    """To the host: ``name`` asks for ``seat`` back (``open``), or that ask is over."""

    TYPE: ClassVar[str] = "seat_asked"
    seat: int
    name: str
    open: bool = True

    @classmethod
    def decode(cls, m: dict[str, Any]) -> SeatAsked:
        return cls(_seat_of(m), as_str(m.get("name"), "", 20), m.get("open") is not False)


ANSWERS = ("waiting", "given", "refused", "unanswered")


@dataclass(frozen=True, slots=True)
class AskAnswer:
    """Our own ask for a seat back: one of ``ANSWERS``, and the words for it."""

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
class Proof:
    """The table's half of the password proof (``common.proof``): checked there."""

    TYPE: ClassVar[str] = "proof"
    pake: Any
    mac: Any
    pw_mac: Any

    @classmethod
    def decode(cls, m: dict[str, Any]) -> Proof:
        return cls(m.get("pake"), m.get("mac"), m.get("pw_mac"))


ServerMessage = (
    Welcome | Error | Lobby | MatchStart | Events | Table | Turn | HandEnd | Standings
    | Presence | SeatAway | Paused | Waiting | Clock | Chat | Pong | Heartbeat | Bye | Books
    | SeatAsked | AskAnswer | Proof
)  # fmt: skip

_TYPES: dict[str, Any] = {
    cls.TYPE: cls
    for cls in (
        Welcome, Error, Lobby, MatchStart, Events, Table, Turn, HandEnd, Standings, Presence,
        SeatAway, Paused, Waiting, Clock, Chat, Pong, Heartbeat, Bye, Books, SeatAsked,
        AskAnswer, Proof,
    )
}  # fmt: skip


def decode_server(value: Any) -> ServerMessage:
    """One server message, typed; ``ProtocolError`` when it cannot be read."""
    msg = as_dict(value)
    kind = msg.get("type")
    cls = _TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ProtocolError(f"unknown message type {str(kind)[:30]!r}")
    decoded: ServerMessage = cls.decode(msg)
    return decoded
