"""The messages a client sends, as frozen dataclasses, and ``decode_client``.

``decode_client`` turns one client map into one of them or raises ``MessageError``
with an error ``code`` the server sends back as it is.  ``encode()`` leaves out the
optional fields a message does not use (``OPTIONAL``), as the wire always has.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from common.protocol.base import (
    ACTIONS,
    HAND_COUNTS,
    MAX_CHAT,
    MAX_NAME,
    MAX_TIME_BANK,
    MAX_TURN_TIME,
    PROTOCOL_VERSION,
    MessageError,
    _Message,
)

__all__ = [
    "CONTROL_MESSAGES", "MAC_SIZE", "NEWER_MESSAGES", "PAKE_SIZE", "Act", "AskSeat", "Away",
    "Back", "Chat", "ClientMessage", "FreeSeat", "GiveSeat", "Hello", "Leave", "MakeHost",
    "Options", "Pause", "Ping", "Proof", "RefuseSeat", "Resume", "SetLevel", "Sit", "Start",
    "TakeSeat", "decode_client",
]  # fmt: skip

PAKE_SIZE = 33
"""A SPAKE2 message (``common.proof``): its side byte and a 32-byte point."""
MAC_SIZE = 32
"""A password proof's HMAC-SHA256."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Hello(_Message):
    TYPE: ClassVar[str] = "hello"
    OPTIONAL: ClassVar[tuple[str, ...]] = ("token", "password", "watch", "heartbeat", "pake")
    protocol: int = PROTOCOL_VERSION
    name: str
    token: str | None = None
    password: str | None = None
    watch: bool = False
    heartbeat: bool = False
    """The client sends a frame at least every 5 s; the server may drop it after 15 s
    of silence (a vanished link seen through anything that acknowledges for it)."""
    pake: bytes | None = None
    """Protocol 2, sealed connections only: the start of a password proof
    (``common.proof``) instead of the ``password`` itself."""


@dataclass(frozen=True, slots=True)
class Act(_Message):
    TYPE: ClassVar[str] = "act"
    turn: int
    action: str


@dataclass(frozen=True, slots=True)
class Start(_Message):
    TYPE: ClassVar[str] = "start"
    OPTIONAL: ClassVar[tuple[str, ...]] = ("hands",)
    hands: int | None = None


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
    OPTIONAL: ClassVar[tuple[str, ...]] = ("turn_time", "time_bank", "stand_in", "hands",
                                           "plain", "odds")  # fmt: skip
    turn_time: float | None = None
    time_bank: float | None = None
    stand_in: bool | None = None
    hands: int | None = None
    """The next match's length (R-T4): the host's choice, shown in every lobby."""
    plain: str | None = None
    """``allow`` or ``never``: whether plain (unencrypted) connections may join; ``never``
    closes the plain ones already there (``tls_required``)."""
    odds: bool | None = None
    """Whether odds on request are allowed at the table (``common.odds``)."""


@dataclass(frozen=True, slots=True)
class SetLevel(_Message):
    """The host sets a computer seat's level in the lobby (``docs/protocol.md``)."""

    TYPE: ClassVar[str] = "level"
    seat: int
    level: str


@dataclass(frozen=True, slots=True)
class AskSeat(_Message):
    """A watcher asks for ``seat`` back by the name it said hello with: the seat's
    person lost its token (another laptop, a wiped folder).  Only the host's
    ``give_seat`` gives it (``docs/protocol.md``)."""

    TYPE: ClassVar[str] = "ask_seat"
    seat: int


@dataclass(frozen=True, slots=True)
class GiveSeat(_Message):
    """The host gives ``seat`` to the connection that asked for it, with a new token."""

    TYPE: ClassVar[str] = "give_seat"
    seat: int


@dataclass(frozen=True, slots=True)
class RefuseSeat(_Message):
    """The host refuses the ask for ``seat``: the asker watches on."""

    TYPE: ClassVar[str] = "refuse_seat"
    seat: int


@dataclass(frozen=True, slots=True)
class Proof(_Message):
    """The client's half of the password proof: it knows the password (``common.proof``)."""

    TYPE: ClassVar[str] = "proof"
    mac: bytes


@dataclass(frozen=True, slots=True)
class MakeHost(_Message):
    """The host hands the host's role to the connected person in ``seat``."""

    TYPE: ClassVar[str] = "make_host"
    seat: int


ClientMessage = (
    Hello | Act | Start | Chat | Leave | Ping | Away | Back | Pause | Resume | TakeSeat
    | Options | SetLevel | Sit | FreeSeat | AskSeat | GiveSeat | RefuseSeat | MakeHost | Proof
)  # fmt: skip
CONTROL_MESSAGES = (Away, Back, Pause, Resume, TakeSeat, Options)
"""The messages of R-C2 and R-C3 (``server.hostctl`` answers them)."""
NEWER_MESSAGES = (AskSeat, GiveSeat, RefuseSeat, MakeHost, Proof)
"""Protocol 2's asking for a seat back, handing the host's role on and the password
proof: a protocol 1 connection that sends one is told ``unknown_type``, as protocol 1
always did."""
_BARE: dict[str, type[Leave | Sit | Away | Back | Pause | Resume]] = {
    cls.TYPE: cls for cls in (Leave, Sit, Away, Back, Pause, Resume)
}
_SEATED: dict[str, type[TakeSeat | AskSeat | GiveSeat | RefuseSeat | MakeHost]] = {
    cls.TYPE: cls for cls in (TakeSeat, AskSeat, GiveSeat, RefuseSeat, MakeHost)
}


def _field(
    msg: Mapping[str, Any], key: str, kind: type | tuple[type, ...], *, required: bool
) -> Any:
    """``msg[key]`` checked against ``kind``; ``None`` when optional and absent.  The
    words of a refusal are made only when one is raised: this runs for every field of
    every message."""
    value = msg.get(key)
    if value is None:
        if required:
            raise _refused(msg, f"{_ref(msg)} needs '{key}' ({_name(kind)})")
        return None
    # bool is an int in Python; a true/false where a number belongs is still wrong.
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise _refused(
            msg, f"'{key}' of {_ref(msg)} must be {_name(kind)}, not {type(value).__name__}"
        )
    if isinstance(value, str) and len(value) > 4 * MAX_CHAT:
        raise _refused(msg, f"'{key}' of {_ref(msg)} is too long")
    return value


def _ref(msg: Mapping[str, Any]) -> str | None:
    """The message's type, for a refusal's ``ref``, when it is a string."""
    kind = msg.get("type")
    return kind if isinstance(kind, str) else None


def _refused(msg: Mapping[str, Any], words: str, code: str = "bad_message") -> MessageError:
    return MessageError(code, words, _ref(msg))


def _name(kind: type | tuple[type, ...]) -> str:
    return kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)


def _seconds(msg: Mapping[str, Any], key: str, most: int) -> float | None:
    """An optional number of seconds from 0 to ``most`` (a bool is not a number)."""
    value = _field(msg, key, (int, float), required=False)
    if value is not None and (isinstance(value, bool) or not 0 <= value <= most):
        raise _refused(msg, f"'{key}' must be 0 to {most} seconds")
    return None if value is None else float(value)


def _sized(msg: Mapping[str, Any], key: str, size: int, *, required: bool) -> bytes | None:
    """``msg[key]``: binary of exactly ``size`` bytes."""
    value = _field(msg, key, bytes, required=required)
    if value is not None and len(value) != size:
        raise _refused(msg, f"'{key}' of {msg['type']} must be {size} bytes")
    return None if value is None else bytes(value)


def _hands(msg: Mapping[str, Any]) -> int | None:
    """An optional match length: 4, 8 or 12 hands (R-T4)."""
    hands = _field(msg, "hands", int, required=False)
    if hands is not None and hands not in HAND_COUNTS:
        raise _refused(msg, "hands must be 4, 8 or 12 (R-T4)")
    return None if hands is None else int(hands)


def _seat(msg: Mapping[str, Any]) -> int:
    seat: int = _field(msg, "seat", int, required=True)
    if not 0 <= seat <= 6:
        raise _refused(msg, f"there is no seat {seat} (seats are 0 to 6)", "bad_seat")
    return seat


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
            raise _refused(msg, "name must be 1 to 20 printable characters", "bad_name")
        return Hello(
            name=name,
            protocol=_field(msg, "protocol", int, required=True),
            token=_field(msg, "token", str, required=False),
            password=_field(msg, "password", str, required=False),
            watch=bool(_field(msg, "watch", bool, required=False)),
            heartbeat=bool(_field(msg, "heartbeat", bool, required=False)),
            pake=_sized(msg, "pake", PAKE_SIZE, required=False),
        )
    if kind == "act":
        action = _field(msg, "action", str, required=True)
        if action not in ACTIONS:
            raise _refused(msg, f"no action '{action[:20]}'")
        return Act(turn=_field(msg, "turn", int, required=True), action=action)
    if kind == "start":
        return Start(hands=_hands(msg))
    if kind == "chat":
        text = _field(msg, "text", str, required=True)
        if len(text) > MAX_CHAT:
            raise _refused(msg, f"chat is at most {MAX_CHAT} characters", "too_long")
        return Chat(text=text)
    if kind == "level":
        level = _field(msg, "level", str, required=True)
        if len(level) > 40:
            raise _refused(msg, "'level' of level is too long")
        return SetLevel(seat=_field(msg, "seat", int, required=True), level=level)
    if kind in _BARE:
        return _BARE[kind]()
    if kind == "free_seat":
        seat = _field(msg, "seat", int, required=True)
        if not 0 <= seat <= 6:
            raise _refused(msg, "seat must be 0 to 6")
        return FreeSeat(seat=seat)
    if kind in _SEATED:
        return _SEATED[kind](seat=_seat(msg))
    if kind == "ping":
        return Ping(id=_field(msg, "id", int, required=False) or 0)
    if kind == "proof":
        mac = _sized(msg, "mac", MAC_SIZE, required=True)
        assert mac is not None
        return Proof(mac=mac)
    if kind == "options":
        plain = _field(msg, "plain", str, required=False)
        if plain not in (None, "allow", "never"):
            raise _refused(msg, "plain must be 'allow' or 'never'")
        return Options(
            turn_time=_seconds(msg, "turn_time", MAX_TURN_TIME),
            time_bank=_seconds(msg, "time_bank", MAX_TIME_BANK),
            stand_in=_field(msg, "stand_in", bool, required=False),
            hands=_hands(msg),
            plain=plain,
            odds=_field(msg, "odds", bool, required=False),
        )
    raise MessageError("unknown_type", f"unknown message type '{kind[:20]}'", kind[:20])
