"""The wire is byte for byte what it was: every recorded frame, through the typed schema.

``tests/fixtures/wire_frames.msgpack.gz`` holds frames recorded from the code before
the views were typed (``tests/record_frames.py`` says how; run it again only to
change the wire on purpose).  Three holds:

- the scripted matches, lobbies and messages, made again by today's code, are the
  recorded bytes exactly;
- every recorded frame read back into ``common.schema`` values and the server
  message dataclasses and encoded again is the same bytes (a key renamed, moved or
  dropped anywhere fails here);
- a typed value encoded and decoded is the value it was.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest

from common import protocol as p
from common.schema import Award, LegalAction, LobbySeat, SeatView
from tests import record_frames

RECORDED, SERVER = record_frames.load()


def _split(data: bytes) -> Iterator[bytes]:
    """The frames of ``data``, each with its length prefix."""
    pos = 0
    while pos < len(data):
        (size,) = struct.unpack_from(">I", data, pos)
        yield data[pos : pos + 4 + size]
        pos += 4 + size
    assert pos == len(data)


def _frames() -> list[tuple[str, bytes]]:
    out = []
    for label, data in record_frames.all_frames():
        out += [(f"{label}#{i}", frame) for i, frame in enumerate(_split(data))]
    return out


FRAMES = _frames()


def _unpack(frame: bytes) -> dict[str, Any]:
    (msg,) = p.FrameDecoder().feed(frame)
    return msg


def _items(value: Any) -> Any:
    """``value`` with every map as a list of its pairs: equality that sees key order."""
    if isinstance(value, dict):
        return [(k, _items(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_items(v) for v in value]
    return value


def _retyped(msg: dict[str, Any]) -> dict[str, Any]:
    """``msg`` with every part the schema types decoded into it and encoded again,
    then rebuilt through its server message dataclass."""
    out = dict(msg)
    kind = msg["type"]
    if kind == "table":
        out["view"] = SeatView.decode(msg["view"]).encode()
    if kind in ("table", "lobby", "match_start"):
        key = "players" if kind == "table" else "seats"
        out[key] = [LobbySeat.decode(s).encode() for s in msg[key]]
    if kind == "turn":
        out["legal"] = [LegalAction.decode(a).encode() for a in msg["legal"]]
    if kind == "hand_end":
        out["awards"] = [Award.decode(a).encode() for a in msg["awards"]]
    cls = p.SERVER_MESSAGES[kind]
    rebuilt: dict[str, Any] = cls(**{k: v for k, v in out.items() if k != "type"}).encode()
    return rebuilt


def test_the_fixture_covers_the_cases() -> None:
    """Seat counts, showdowns, side pots, all-ins, a spectator, a protocol-1 client,
    away and taken seats and every server message type are in the recording."""
    kinds: set[str] = set()
    pots = shown = all_in = 0
    whys: set[Any] = set()
    for _, frame in FRAMES:
        msg = _unpack(frame)
        kinds.add(msg["type"])
        if msg["type"] == "table":
            view = msg["view"]
            pots = max(pots, len(view["pots"]))
            shown += sum("shown" in s for s in view["seats"])
            all_in += sum(s["all_in"] for s in view["seats"])
            whys |= {s["away_why"] for s in msg["players"]}
    assert kinds == set(p.SERVER_MESSAGES)
    assert pots >= 2 and shown and all_in
    assert {"asked", "clock", "dropped", "taken"} <= whys
    starts = [_unpack(RECORDED[m][0][1]) for m in ("match2", "match4", "match7")]
    assert [len(msg["seats"]) for msg in starts] == [2, 4, 7]
    assert set(SERVER) == {"Ann", "Bob", "Cid", "Eve"}  # Bob said protocol 1, Eve watched
    assert _unpack(SERVER["Bob"][0])["protocol"] == 1


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_scripted_frames_replay_byte_for_byte(name: str) -> None:
    again = record_frames.scripted_frames()[name]
    assert len(again) == len(RECORDED[name])
    for i, ((who, old), (who_again, new)) in enumerate(zip(RECORDED[name], again, strict=True)):
        assert who_again == who, (name, i)
        if new != old:
            a = [_items(_unpack(f)) for f in _split(old)]
            b = [_items(_unpack(f)) for f in _split(new)]
            assert b == a, f"{name}[{i}] to {who}"
            pytest.fail(f"{name}[{i}] to {who}: same values, other bytes")


def test_every_recorded_frame_reencodes_through_the_schema_byte_for_byte() -> None:
    assert len(FRAMES) > 1500
    for label, frame in FRAMES:
        msg = _unpack(frame)
        again = _retyped(msg)
        assert _items(again) == _items(msg), label
        assert p.encode_frame(again) == frame, label


def test_typed_values_come_back_from_the_wire_as_they_were() -> None:
    views = lobby = legal = 0
    for label, frame in FRAMES:
        msg = _unpack(frame)
        if msg["type"] == "table":
            view = SeatView.decode(msg["view"])
            assert SeatView.decode(view.encode()) == view, label
            assert msgpack.packb(view.encode()) == msgpack.packb(msg["view"]), label
            views += 1
        for key in ("players", "seats"):
            if msg["type"] in ("table", "lobby", "match_start") and key in msg:
                for item in msg[key]:
                    seat = LobbySeat.decode(item)
                    assert LobbySeat.decode(seat.encode()) == seat, label
                    lobby += 1
        for item in msg.get("legal", []) if msg["type"] == "turn" else []:
            action = LegalAction.decode(item)
            assert LegalAction.decode(action.encode()) == action
            legal += 1
    assert views and lobby and legal
