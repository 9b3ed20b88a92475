"""The messages a client sends, as frozen dataclasses, and ``decode_client``.

Each field says what it must be (``asked``): its type, whether it is required, and any
further ``check``; ``decode_client`` reads a map by them or raises ``MessageError``
with the error ``code`` the server sends back.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, get_args

from common.protocol.base import (
    ACTIONS,
    HAND_COUNTS,
    MAX_CHAT,
    MAX_NAME,
    MAX_TIME_BANK,
    MAX_TURN_TIME,
    PROTOCOL_VERSION,
    MessageError,
)
from common.reading import Wire

__all__ = [
    "CLIENT_MESSAGES", "CONTROL_MESSAGES", "MAC_SIZE", "NEWER_MESSAGES", "PAKE_SIZE", "Act",
    "AskSeat", "Away", "Back", "Chat", "ClientMessage", "FreeSeat", "GiveSeat", "Hello", "Leave",
    "MakeHost", "Options", "Pause", "Ping", "Proof", "RefuseSeat", "Resume", "SetLevel", "Sit",
    "Start", "TakeSeat", "decode_client",
]  # fmt: skip

PAKE_SIZE = 33
"""A SPAKE2 message (``common.proof``): its side byte and a 32-byte point."""
MAC_SIZE = 32
"""A password proof's HMAC-SHA256."""
Check = Callable[[Mapping[str, Any], str, Any], Any]
"""A field's further check: (message, key, value of its type) to the value, or raise."""


def asked(
    kind: type | tuple[type, ...], check: Check | None = None, *, required: bool | None = None,
    **default: Any,
) -> Any:  # fmt: skip
    """A client message's field: its type, its ``check``, and whether it is ``required``."""
    needed = not default if required is None else required
    return dataclasses.field(metadata={"kind": kind, "check": check, "needed": needed}, **default)


def _refused(msg: Mapping[str, Any], words: str, code: str = "bad_message") -> MessageError:
    return MessageError(code, words, _ref(msg))


def _ref(msg: Mapping[str, Any]) -> str | None:
    """The message's type, for a refusal's ``ref``, when it is a string."""
    kind = msg.get("type")
    return kind if isinstance(kind, str) else None


def _name(msg: Mapping[str, Any], key: str, value: str) -> str:
    name = value.strip()[:MAX_NAME].strip()
    if not name or not name.isprintable():
        raise _refused(msg, "name must be 1 to 20 printable characters", "bad_name")
    return name


def _must(holds: Callable[[Any], bool], words: str, code: str = "bad_message") -> Check:
    """A check that ``holds(value)``, else refused in ``words`` (``key``, ``value``, ``type``)."""

    def check(msg: Mapping[str, Any], key: str, value: Any) -> Any:
        if not holds(value):
            raise _refused(msg, words.format(key=key, value=value, type=msg["type"]), code)
        return value

    return check


_action = _must(lambda action: action in ACTIONS, "no action '{value:.20}'")
_hands = _must(lambda hands: hands in HAND_COUNTS, "hands must be 4, 8 or 12 (R-T4)")
_chat = _must(
    lambda text: len(text) <= MAX_CHAT, f"chat is at most {MAX_CHAT} characters", "too_long"
)
_level = _must(lambda level: len(level) <= 40, "'level' of level is too long")
_seat = _must(
    lambda seat: 0 <= seat <= 6, "there is no seat {value} (seats are 0 to 6)", "bad_seat"
)
_free_seat = _must(lambda seat: 0 <= seat <= 6, "seat must be 0 to 6")


def _version(msg: Mapping[str, Any], key: str, value: str) -> str | None:
    """A game's version, only ever said back: cut to 20 characters, None if not printable
    (a hello is never refused for it, so a later game's version string cannot lock it out)."""
    version = value[:20]
    return version if version.isprintable() else None


_plain = _must(lambda plain: plain in ("allow", "never"), "plain must be 'allow' or 'never'")


def _sized(size: int) -> Check:
    """Binary of exactly ``size`` bytes."""
    return _must(lambda value: len(value) == size, f"'{{key}}' of {{type}} must be {size} bytes")


def _seconds(most: int) -> Check:
    """A number of seconds from 0 to ``most`` (a bool is not a number)."""

    def check(msg: Mapping[str, Any], key: str, value: float) -> float:
        if isinstance(value, bool) or not 0 <= value <= most:
            raise _refused(msg, f"'{key}' must be 0 to {most} seconds")
        return float(value)

    return check


@dataclass(frozen=True, slots=True, kw_only=True)
class Hello(Wire):
    TYPE: ClassVar[str] = "hello"
    OPTIONAL = ("token", "password", "watch", "heartbeat", "pake", "version")
    protocol: int = asked(int, required=True, default=PROTOCOL_VERSION)
    name: str = asked(str, _name)
    token: str | None = asked(str, default=None)
    password: str | None = asked(str, default=None)
    watch: bool = asked(bool, default=False)
    heartbeat: bool = asked(bool, default=False)
    """The client sends a frame at least every 5 s; the server may drop it after 15 s
    of silence (a vanished link seen through anything that acknowledges for it)."""
    pake: bytes | None = asked(bytes, _sized(PAKE_SIZE), default=None)
    """Protocol 2, sealed only: a password proof's start (``common.proof``), not the password."""
    version: str | None = asked(str, _version, default=None)
    """The game's version (``common.version``), any protocol: said back in the words of a
    ``protocol_version`` refusal.  Games before 0.2.0 do not say it."""


@dataclass(frozen=True, slots=True)
class Act(Wire):
    TYPE: ClassVar[str] = "act"
    turn: int = asked(int)
    action: str = asked(str, _action)


@dataclass(frozen=True, slots=True)
class Start(Wire):
    TYPE: ClassVar[str] = "start"
    OPTIONAL = ("hands",)
    hands: int | None = asked(int, _hands, default=None)


@dataclass(frozen=True, slots=True)
class Chat(Wire):
    TYPE: ClassVar[str] = "chat"
    text: str = asked(str, _chat)


@dataclass(frozen=True, slots=True)
class Leave(Wire):
    TYPE: ClassVar[str] = "leave"


@dataclass(frozen=True, slots=True)
class Sit(Wire):
    """A spectator asks for a free seat (for the next match, while one runs)."""

    TYPE: ClassVar[str] = "sit"


@dataclass(frozen=True, slots=True)
class FreeSeat(Wire):
    """The host frees a computer seat between matches, so that a person can sit there."""

    TYPE: ClassVar[str] = "free_seat"
    seat: int = asked(int, _free_seat)


@dataclass(frozen=True, slots=True)
class Ping(Wire):
    TYPE: ClassVar[str] = "ping"
    id: int = asked(int, default=0)


@dataclass(frozen=True, slots=True)
class Away(Wire):
    """Step away (R-C2): the seat acts at once by the default until ``back``."""

    TYPE: ClassVar[str] = "away"


@dataclass(frozen=True, slots=True)
class Back(Wire):
    """\"I'm back\" (R-C2): the seat is its person's again from its next turn."""

    TYPE: ClassVar[str] = "back"


@dataclass(frozen=True, slots=True)
class Pause(Wire):
    """The host pauses the table (R-C3): the hand in play ends, no new hand is dealt."""

    TYPE: ClassVar[str] = "pause"


@dataclass(frozen=True, slots=True)
class Resume(Wire):
    TYPE: ClassVar[str] = "resume"


@dataclass(frozen=True, slots=True)
class TakeSeat(Wire):
    """The host takes ``seat`` away from its person for the rest of the match (R-C3)."""

    TYPE: ClassVar[str] = "take_seat"
    seat: int = asked(int, _seat)


@dataclass(frozen=True, slots=True)
class Options(Wire):
    """The host sets the table between matches; a field left out stays as it is, and
    ``turn_time`` 0 turns the turn clock off (R-C4)."""

    TYPE: ClassVar[str] = "options"
    OPTIONAL = ("turn_time", "time_bank", "stand_in", "hands", "plain", "odds")
    turn_time: float | None = asked((int, float), _seconds(MAX_TURN_TIME), default=None)
    time_bank: float | None = asked((int, float), _seconds(MAX_TIME_BANK), default=None)
    stand_in: bool | None = asked(bool, default=None)
    hands: int | None = asked(int, _hands, default=None)
    """The next match's length (R-T4): the host's choice, shown in every lobby."""
    plain: str | None = asked(str, _plain, default=None)
    """Whether plain connections may join: ``never`` closes those there (``tls_required``)."""
    odds: bool | None = asked(bool, default=None)
    """Whether odds on request are allowed at the table (``common.odds``)."""


@dataclass(frozen=True, slots=True)
class SetLevel(Wire):
    """The host sets a computer seat's level in the lobby (``docs/protocol.md``)."""

    TYPE: ClassVar[str] = "level"
    seat: int = asked(int)
    level: str = asked(str, _level)


@dataclass(frozen=True, slots=True)
class AskSeat(Wire):
    """A watcher asks for ``seat`` back by the name it said hello with (its token lost);
    only the host's ``give_seat`` gives it."""

    TYPE: ClassVar[str] = "ask_seat"
    seat: int = asked(int, _seat)


@dataclass(frozen=True, slots=True)
class GiveSeat(Wire):
    """The host gives ``seat`` to the connection that asked for it, with a new token."""

    TYPE: ClassVar[str] = "give_seat"
    seat: int = asked(int, _seat)


@dataclass(frozen=True, slots=True)
class RefuseSeat(Wire):
    """The host refuses the ask for ``seat``: the asker watches on."""

    TYPE: ClassVar[str] = "refuse_seat"
    seat: int = asked(int, _seat)


@dataclass(frozen=True, slots=True)
class Proof(Wire):
    """The client's half of the password proof: it knows the password (``common.proof``)."""

    TYPE: ClassVar[str] = "proof"
    mac: bytes = asked(bytes, _sized(MAC_SIZE))


@dataclass(frozen=True, slots=True)
class MakeHost(Wire):
    """The host hands the host's role to the connected person in ``seat``."""

    TYPE: ClassVar[str] = "make_host"
    seat: int = asked(int, _seat)


ClientMessage = (
    Hello | Act | Start | Chat | Leave | Ping | Away | Back | Pause | Resume | TakeSeat
    | Options | SetLevel | Sit | FreeSeat | AskSeat | GiveSeat | RefuseSeat | MakeHost | Proof
)  # fmt: skip
CONTROL_MESSAGES = (Away, Back, Pause, Resume, TakeSeat, Options)
"""The messages of R-C2 and R-C3 (``server.hostctl`` answers them)."""
NEWER_MESSAGES = (AskSeat, GiveSeat, RefuseSeat, MakeHost, Proof)
"""Protocol 2's: a protocol 1 connection that sends one is told ``unknown_type``."""
CLIENT_MESSAGES: dict[str, Any] = {cls.TYPE: cls for cls in get_args(ClientMessage)}


def decode_client(msg: Mapping[str, Any]) -> ClientMessage:
    """Check one client map's type and fields; raise ``MessageError`` naming what is wrong.

    >>> decode_client({"type": "act", "turn": 4, "action": "fold"})
    Act(turn=4, action='fold')
    """
    kind = msg.get("type")
    if kind is None:
        raise MessageError("bad_message", "message has no 'type'")
    if not isinstance(kind, str):
        raise MessageError("bad_message", "'type' must be a string")
    cls = CLIENT_MESSAGES.get(kind)
    if cls is None:
        raise MessageError("unknown_type", f"unknown message type '{kind[:20]}'", kind[:20])
    values = {}
    for key, kind_of, check, needed in _asked(cls):
        value = _field(msg, key, kind_of, required=needed)
        if value is not None:
            values[key] = value if check is None else check(msg, key, value)
    decoded: ClientMessage = cls(**values)
    return decoded


@functools.cache
def _asked(cls: Any) -> tuple[tuple[str, Any, Check | None, bool], ...]:
    return tuple(
        (f.name, f.metadata["kind"], f.metadata["check"], f.metadata["needed"])
        for f in dataclasses.fields(cls)
    )


def _field(
    msg: Mapping[str, Any], key: str, kind: type | tuple[type, ...], *, required: bool
) -> Any:
    """``msg[key]`` checked against ``kind``; ``None`` when optional and absent."""
    value = msg.get(key)
    if value is None:
        if required:
            raise _refused(msg, f"{_ref(msg)} needs '{key}' ({_kind(kind)})")
        return None
    # bool is an int in Python; a true/false where a number belongs is still wrong.
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise _refused(
            msg, f"'{key}' of {_ref(msg)} must be {_kind(kind)}, not {type(value).__name__}"
        )
    if isinstance(value, str) and len(value) > 4 * MAX_CHAT:
        raise _refused(msg, f"'{key}' of {_ref(msg)} is too long")
    return value


def _kind(kind: type | tuple[type, ...]) -> str:
    return kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
