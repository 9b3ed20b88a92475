"""The wire protocol, version 2 (``docs/protocol.md``): framing and every message.

Both the server and the client import this module; it does no I/O.

Usage::

    from common.protocol import FrameDecoder, encode_frame, decode_client

    sock.sendall(encode_frame(Hello(name="Ann").encode()))
    decoder = FrameDecoder()              # max_frame=MAX_FRAME
    for msg in decoder.feed(sock.recv(65536)):   # whole messages only
        print(msg["type"], msg)

    decode_client({"type": "act", "turn": 3, "action": "call"})  # -> Act(turn=3, action="call")

A frame is a 4-byte big-endian unsigned length and that many bytes of one
msgpack map with string keys.  ``FrameDecoder.feed`` raises ``FrameError``
(a ``ProtocolError``) for anything that is not that; after it raises, the
stream is unusable and the connection should be closed.  ``decode_client``
turns one client map into a frozen dataclass or raises ``MessageError`` with
an error ``code`` the server sends back as it is.

Server messages are dataclasses too, each with ``encode() -> dict``; a client
may read them as plain dicts (their keys are the dataclass fields plus
``type``).
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import msgpack  # type: ignore[import-untyped]

from common.events import ActionKind, ProtocolError

__all__ = [
    "ACTIONS",
    "DEFAULT_PORT",
    "HAND_COUNTS",
    "MAX_CHAT",
    "MAX_FRAME",
    "MAX_NAME",
    "PROTOCOLS",
    "PROTOCOL_VERSION",
    "SERVER_VERSION",
    "Act",
    "Books",
    "Away",
    "Back",
    "Bye",
    "Chat",
    "ChatSaid",
    "ClientMessage",
    "Clock",
    "CONTROL_MESSAGES",
    "Error",
    "Events",
    "FreeSeat",
    "FrameDecoder",
    "FrameError",
    "HandEnd",
    "Hello",
    "Leave",
    "Lobby",
    "MatchStart",
    "MessageError",
    "Options",
    "Pause",
    "Paused",
    "Ping",
    "Pong",
    "Presence",
    "Sit",
    "Resume",
    "SeatAway",
    "SetLevel",
    "Standings",
    "Start",
    "Table",
    "TakeSeat",
    "Turn",
    "Welcome",
    "decode_client",
    "encode_frame",
]

PROTOCOL_VERSION = 2
PROTOCOLS = (1, 2)
SERVER_VERSION = "0.1.0"
"""Versions a server accepts in ``hello``; version 2 adds away, the host's controls and
the turn clock's bank (R-C2..R-C4), and a protocol 1 connection is sent none of its
new message types."""
DEFAULT_PORT = 7777
MAX_FRAME = 64 * 1024
"""Largest frame body either side accepts.  A full table snapshot is ~2 KiB,
so 64 KiB leaves room to grow while capping what a bad peer can make us buffer."""
MAX_NAME = 20
MAX_CHAT = 200
MAX_TOKEN = 64
ACTIONS = frozenset(kind.value for kind in ActionKind)
MAX_TURN_TIME = 600
MAX_TIME_BANK = 3600
HAND_COUNTS = (4, 8, 12)
"""``common.match.HAND_COUNTS`` (R-T4) again, so that the client need not import the engine."""

_HEADER = struct.Struct(">I")


class FrameError(ProtocolError):
    """Broken framing: the connection cannot go on.  ``code`` is the error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class MessageError(ProtocolError):
    """A whole frame holding a message the server refuses; the connection stays open."""

    def __init__(self, code: str, message: str, ref: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.ref = ref


# ------------------------------------------------------------------ framing


def encode_frame(msg: Mapping[str, Any]) -> bytes:
    """One frame: length prefix and the msgpack map.

    >>> encode_frame({"type": "ping", "id": 1})
    b'\\x00\\x00\\x00\\x0f\\x82\\xa4type\\xa4ping\\xa2id\\x01'
    """
    body: bytes = msgpack.packb(msg, use_bin_type=True)
    return _HEADER.pack(len(body)) + body


class FrameDecoder:
    """Feed it bytes as they come; get back every whole message they complete.

    >>> d = FrameDecoder()
    >>> frame = encode_frame({"type": "ping", "id": 7})
    >>> d.feed(frame[:3]), d.feed(frame[3:])
    ([], [{'type': 'ping', 'id': 7}])

    With ``max_depth``/``max_items`` set (the server sets both), a frame's shape is
    checked before any object of it is built: containers nested deeper than
    ``max_depth``, or more than ``max_items`` values in all, are a ``bad_frame``.
    ``push`` and ``pop`` decode one message at a time, so that a reader can stop
    (a connection over its message budget) without building the rest.
    """

    def __init__(
        self,
        max_frame: int = MAX_FRAME,
        *,
        max_depth: int | None = None,
        max_items: int | None = None,
    ) -> None:
        self.max_frame = max_frame
        self.max_depth = max_depth
        self.max_items = max_items
        self._buf = bytearray()

    @property
    def pending(self) -> int:
        """Bytes of a frame begun but not finished (a frame cut short shows here)."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        self._buf += data
        out: list[dict[str, Any]] = []
        buf = self._buf
        pos = 0
        try:
            while len(buf) - pos >= 4:
                (size,) = _HEADER.unpack_from(buf, pos)
                if size > self.max_frame:
                    raise FrameError(
                        "frame_too_large",
                        f"frame of {size} bytes is over the {self.max_frame} limit",
                    )
                if len(buf) - pos - 4 < size:
                    break
                body = bytes(buf[pos + 4 : pos + 4 + size])
                pos += 4 + size
                out.append(self._decode(body))
        finally:
            del buf[:pos]
        return out

    def push(self, data: bytes) -> None:
        """Add bytes; ``pop`` then returns the messages they complete, one by one."""
        self._buf += data

    def pop(self) -> dict[str, Any] | None:
        """The next whole message, or None until more bytes come."""
        buf = self._buf
        if len(buf) < 4:
            return None
        (size,) = _HEADER.unpack_from(buf, 0)
        if size > self.max_frame:
            raise FrameError(
                "frame_too_large", f"frame of {size} bytes is over the {self.max_frame} limit"
            )
        if len(buf) - 4 < size:
            return None
        body = bytes(buf[4 : 4 + size])
        del buf[: 4 + size]
        return self._decode(body)

    def _decode(self, body: bytes) -> dict[str, Any]:
        if self.max_depth is not None or self.max_items is not None:
            _check_shape(body, self.max_depth or 1 << 30, self.max_items or 1 << 30)
        return _unpack(body)


# Bytes that follow a msgpack type byte, for the fixed-size types (0xc0-0xdf).
_FIXED = {
    0xC0: 0, 0xC2: 0, 0xC3: 0, 0xCA: 4, 0xCB: 8, 0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8,
    0xD0: 1, 0xD1: 2, 0xD2: 4, 0xD3: 8, 0xD4: 2, 0xD5: 3, 0xD6: 5, 0xD7: 9, 0xD8: 17,
}  # fmt: skip
# Length-prefixed payloads: (bytes of length, extra bytes after it: ext's type byte).
_SIZED = {
    0xC4: (1, 0), 0xC5: (2, 0), 0xC6: (4, 0), 0xC7: (1, 1), 0xC8: (2, 1), 0xC9: (4, 1),
    0xD9: (1, 0), 0xDA: (2, 0), 0xDB: (4, 0),
}  # fmt: skip


def _check_shape(body: bytes, max_depth: int, max_items: int) -> None:
    """Walk a msgpack body's headers (skipping string payloads) and refuse one nested
    deeper than ``max_depth`` or holding more than ``max_items`` values, before
    msgpack builds a single object.  The walk stops at the first value over a limit,
    so its cost is bounded by ``max_items`` whatever the frame holds.  A body cut
    short or not msgpack is left for msgpack to refuse."""
    pos, end, items = 0, len(body), 0
    open_counts: list[int] = []  # values still to come in each open container
    while pos < end:
        items += 1
        if items > max_items:
            raise FrameError("bad_frame", f"frame holds more than {max_items} values")
        b = body[pos]
        pos += 1
        children = 0
        if b <= 0x7F or b >= 0xE0:
            pass
        elif b <= 0x8F:
            children = 2 * (b & 0x0F)
        elif b <= 0x9F:
            children = b & 0x0F
        elif b <= 0xBF:
            pos += b & 0x1F
        elif b in _FIXED:
            pos += _FIXED[b]
        elif b in _SIZED:
            width, extra = _SIZED[b]
            pos += width + extra + int.from_bytes(body[pos : pos + width], "big")
        elif b in (0xDC, 0xDD, 0xDE, 0xDF):
            width = 2 if b in (0xDC, 0xDE) else 4
            children = int.from_bytes(body[pos : pos + width], "big")
            children *= 2 if b >= 0xDE else 1
            pos += width
        else:
            return  # 0xc1 is never used: msgpack will refuse it
        if open_counts:
            open_counts[-1] -= 1
        if children:
            if len(open_counts) >= max_depth:
                raise FrameError("bad_frame", f"frame is nested deeper than {max_depth}")
            open_counts.append(children)
        while open_counts and open_counts[-1] == 0:
            open_counts.pop()


def _unpack(body: bytes) -> dict[str, Any]:
    try:
        msg = msgpack.unpackb(body, raw=False, strict_map_key=True, use_list=True)
    except Exception as exc:  # msgpack raises several unrelated types
        raise FrameError("bad_frame", f"frame is not valid msgpack: {exc}") from None
    if not isinstance(msg, dict):
        raise FrameError("bad_frame", f"frame holds a {type(msg).__name__}, not a map")
    return msg


# ------------------------------------------------------------------ messages


class _Message:
    __slots__ = ()
    TYPE: ClassVar[str]

    def encode(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        # __match_args__ is the dataclass's field names; dataclasses.fields() is 10x slower.
        for name in self.__match_args__:  # type: ignore[attr-defined]
            out[name] = getattr(self, name)
        return out


# ---- client to server


@dataclass(frozen=True, slots=True)
class Hello(_Message):
    TYPE: ClassVar[str] = "hello"
    name: str
    protocol: int = PROTOCOL_VERSION
    token: str | None = None
    password: str | None = None
    watch: bool = False
    heartbeat: bool = False
    """The client sends a frame at least every 5 s; the server may drop it after 15 s
    of silence (a vanished link seen through anything that acknowledges for it)."""

    def encode(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "hello", "protocol": self.protocol, "name": self.name}
        if self.token is not None:
            out["token"] = self.token
        if self.password is not None:
            out["password"] = self.password
        if self.watch:
            out["watch"] = True
        if self.heartbeat:
            out["heartbeat"] = True
        return out


@dataclass(frozen=True, slots=True)
class Act(_Message):
    TYPE: ClassVar[str] = "act"
    turn: int
    action: str


@dataclass(frozen=True, slots=True)
class Start(_Message):
    TYPE: ClassVar[str] = "start"
    hands: int | None = None

    def encode(self) -> dict[str, Any]:
        return {"type": "start"} if self.hands is None else {"type": "start", "hands": self.hands}


@dataclass(frozen=True, slots=True)
class Chat(_Message):
    TYPE: ClassVar[str] = "chat"
    text: str


@dataclass(frozen=True, slots=True)
class Leave(_Message):
    TYPE: ClassVar[str] = "leave"


@dataclass(frozen=True, slots=True)
class Sit(_Message):
    """A spectator asks for a free seat (for the next match, while one runs)."""

    TYPE: ClassVar[str] = "sit"


@dataclass(frozen=True, slots=True)
class FreeSeat(_Message):
    """The host frees a computer seat between matches, so that a person can sit there."""

    TYPE: ClassVar[str] = "free_seat"
    seat: int


@dataclass(frozen=True, slots=True)
class Ping(_Message):
    TYPE: ClassVar[str] = "ping"
    id: int = 0


@dataclass(frozen=True, slots=True)
class Away(_Message):
    """Step away (R-C2): the seat acts at once by the default until ``back``."""

    TYPE: ClassVar[str] = "away"


@dataclass(frozen=True, slots=True)
class Back(_Message):
    """\"I'm back\" (R-C2): the seat is its person's again from its next turn."""

    TYPE: ClassVar[str] = "back"


@dataclass(frozen=True, slots=True)
class Pause(_Message):
    """The host pauses the table (R-C3): the hand in play ends, no new hand is dealt."""

    TYPE: ClassVar[str] = "pause"


@dataclass(frozen=True, slots=True)
class Resume(_Message):
    TYPE: ClassVar[str] = "resume"


@dataclass(frozen=True, slots=True)
class TakeSeat(_Message):
    """The host takes ``seat`` away from its person for the rest of the match (R-C3)."""

    TYPE: ClassVar[str] = "take_seat"
    seat: int


@dataclass(frozen=True, slots=True)
class Options(_Message):
    """The host sets the table between matches; a field left out stays as it is.

    ``turn_time`` 0 turns the turn clock off (R-C4)."""

    TYPE: ClassVar[str] = "options"
    turn_time: float | None = None
    time_bank: float | None = None
    stand_in: bool | None = None
    hands: int | None = None
    """The next match's length (R-T4): the host's choice, shown in every lobby."""

    def encode(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "options"}
        for key in ("turn_time", "time_bank", "stand_in", "hands"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


@dataclass(frozen=True, slots=True)
class SetLevel(_Message):
    """The host sets a computer seat's level in the lobby (``docs/protocol.md``)."""

    TYPE: ClassVar[str] = "level"
    seat: int
    level: str


ClientMessage = (
    Hello
    | Act
    | Start
    | Chat
    | Leave
    | Ping
    | Away
    | Back
    | Pause
    | Resume
    | TakeSeat
    | Options
    | SetLevel
    | Sit
    | FreeSeat
)
CONTROL_MESSAGES = (Away, Back, Pause, Resume, TakeSeat, Options)
"""The messages of R-C2 and R-C3 (``server.controls`` answers them)."""


def _field(
    msg: Mapping[str, Any], key: str, kind: type | tuple[type, ...], *, required: bool
) -> Any:
    """``msg[key]`` checked against ``kind``; ``None`` when optional and absent."""
    kind_name = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
    ref = msg.get("type") if isinstance(msg.get("type"), str) else None
    if key not in msg or msg[key] is None:
        if required:
            raise MessageError("bad_message", f"{ref} needs '{key}' ({kind_name})", ref)
        return None
    value = msg[key]
    # bool is an int in Python; a true/false where a number belongs is still wrong.
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise MessageError(
            "bad_message", f"'{key}' of {ref} must be {kind_name}, not {type(value).__name__}", ref
        )
    if isinstance(value, str) and len(value) > 4 * MAX_CHAT:
        raise MessageError("bad_message", f"'{key}' of {ref} is too long", ref)
    return value


_BARE: dict[str, type[Away | Back | Pause | Resume]] = {
    "away": Away,
    "back": Back,
    "pause": Pause,
    "resume": Resume,
}


def _seconds(msg: Mapping[str, Any], key: str, most: int) -> float | None:
    """An optional number of seconds from 0 to ``most`` (a bool is not a number)."""
    value = _field(msg, key, (int, float), required=False)
    if value is None:
        return None
    if isinstance(value, bool) or not 0 <= value <= most:
        raise MessageError("bad_message", f"'{key}' must be 0 to {most} seconds", msg["type"])
    return float(value)


def _hands(msg: Mapping[str, Any]) -> int | None:
    """An optional match length: 4, 8 or 12 hands (R-T4)."""
    hands = _field(msg, "hands", int, required=False)
    if hands is not None and hands not in HAND_COUNTS:
        raise MessageError("bad_message", "hands must be 4, 8 or 12 (R-T4)", msg["type"])
    return None if hands is None else int(hands)


def decode_client(msg: Mapping[str, Any]) -> ClientMessage:
    """Check one client map's type and fields; raise ``MessageError`` naming what is wrong.

    >>> decode_client({"type": "act", "turn": 4, "action": "fold"})
    Act(turn=4, action='fold')
    >>> decode_client({"type": "act", "turn": "4", "action": "fold"})
    Traceback (most recent call last):
    ...
    common.protocol.MessageError: 'turn' of act must be int, not str
    """
    kind = msg.get("type")
    if kind is None:
        raise MessageError("bad_message", "message has no 'type'")
    if not isinstance(kind, str):
        raise MessageError("bad_message", "'type' must be a string")
    if kind == "hello":
        name = _field(msg, "name", str, required=True).strip()[:MAX_NAME].strip()
        if not name or not name.isprintable():
            raise MessageError("bad_name", "name must be 1 to 20 printable characters", kind)
        return Hello(
            name=name,
            protocol=_field(msg, "protocol", int, required=True),
            token=_field(msg, "token", str, required=False),
            password=_field(msg, "password", str, required=False),
            watch=bool(_field(msg, "watch", bool, required=False)),
            heartbeat=bool(_field(msg, "heartbeat", bool, required=False)),
        )
    if kind == "act":
        action = _field(msg, "action", str, required=True)
        if action not in ACTIONS:
            raise MessageError("bad_message", f"no action '{action[:20]}'", kind)
        return Act(turn=_field(msg, "turn", int, required=True), action=action)
    if kind == "start":
        hands = _field(msg, "hands", int, required=False)
        if hands is not None and hands not in HAND_COUNTS:
            raise MessageError("bad_message", "hands must be 4, 8 or 12 (R-T4)", kind)
        return Start(hands=hands)
    if kind == "chat":
        text = _field(msg, "text", str, required=True)
        if len(text) > MAX_CHAT:
            raise MessageError("too_long", f"chat is at most {MAX_CHAT} characters", kind)
        return Chat(text=text)
    if kind == "level":
        level = _field(msg, "level", str, required=True)
        if len(level) > 40:
            raise MessageError("bad_message", "'level' of level is too long", kind)
        return SetLevel(seat=_field(msg, "seat", int, required=True), level=level)
    if kind == "leave":
        return Leave()
    if kind == "sit":
        return Sit()
    if kind == "free_seat":
        seat = _field(msg, "seat", int, required=True)
        if not 0 <= seat <= 6:
            raise MessageError("bad_message", "seat must be 0 to 6", kind)
        return FreeSeat(seat=seat)
    if kind == "ping":
        return Ping(id=_field(msg, "id", int, required=False) or 0)
    if kind in _BARE:
        return _BARE[kind]()
    if kind == "take_seat":
        seat = _field(msg, "seat", int, required=True)
        if not 0 <= seat <= 6:
            raise MessageError("bad_seat", f"there is no seat {seat} (seats are 0 to 6)", kind)
        return TakeSeat(seat=seat)
    if kind == "options":
        return Options(
            turn_time=_seconds(msg, "turn_time", MAX_TURN_TIME),
            time_bank=_seconds(msg, "time_bank", MAX_TIME_BANK),
            stand_in=_field(msg, "stand_in", bool, required=False),
            hands=_hands(msg),
        )
    raise MessageError("unknown_type", f"unknown message type '{kind[:20]}'", kind[:20])


# ---- server to client


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

    def encode(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.ref is not None:
            out["ref"] = self.ref
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
        Clock,
    )
}
