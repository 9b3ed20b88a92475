"""The shared wire codec: framing round trips, and random input raises nothing but ProtocolError."""

from __future__ import annotations

import struct
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common import match, protocol
from common.events import ProtocolError
from common.protocol import (
    MAX_FRAME,
    Act,
    Chat,
    FrameDecoder,
    FrameError,
    Hello,
    MessageError,
    Ping,
    Start,
    decode_client,
    encode_frame,
)

_settings = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats()
    | st.text(max_size=30)
    | st.binary(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=10,
)


@pytest.mark.parametrize(
    "message",
    [
        Hello(name="Ann"),
        Hello(name="Ann", token="t", password="pw", watch=True),
        Act(turn=3, action="call"),
        Start(),
        Start(hands=12),
        Chat(text="gg"),
        Ping(id=9),
    ],
    ids=lambda m: type(m).__name__,
)
def test_client_messages_round_trip_through_frames(message: Any) -> None:
    (decoded,) = FrameDecoder().feed(encode_frame(message.encode()))
    assert decode_client(decoded) == message


def test_frames_split_anywhere_come_out_whole() -> None:
    stream = b"".join(encode_frame({"type": "ping", "id": i}) for i in range(50))
    decoder = FrameDecoder()
    got = [m for i in range(0, len(stream), 7) for m in decoder.feed(stream[i : i + 7])]
    assert [m["id"] for m in got] == list(range(50))
    assert decoder.pending == 0


def test_a_frame_over_the_limit_is_refused_before_it_is_read() -> None:
    with pytest.raises(FrameError) as err:
        FrameDecoder().feed(struct.pack(">I", MAX_FRAME + 1))
    assert err.value.code == "frame_too_large"


@_settings
@given(st.binary(max_size=300))
def test_random_bytes_raise_only_protocol_errors(data: bytes) -> None:
    try:
        for msg in FrameDecoder(max_frame=1024).feed(data):
            assert isinstance(msg, dict)
    except ProtocolError:
        pass


@_settings
@given(
    st.dictionaries(
        st.sampled_from(
            ["type", "turn", "action", "name", "protocol", "text", "hands", "token", "watch", "id"]
        ),
        _values,
    )
)
def test_random_maps_decode_or_raise_message_error(msg: dict[str, Any]) -> None:
    if "type" not in msg:
        msg["type"] = "act"
    try:
        decode_client(msg)
    except MessageError as exc:
        assert exc.code and str(exc)


@_settings
@given(_values)
def test_any_msgpack_value_frames_or_is_refused(value: Any) -> None:
    body = msgpack.packb(value)
    try:
        FrameDecoder().feed(struct.pack(">I", len(body)) + body)
    except FrameError as exc:
        assert exc.code == "bad_frame"


def test_R_T4_the_wire_allows_the_match_lengths_the_rules_do() -> None:
    assert protocol.HAND_COUNTS == match.HAND_COUNTS


@pytest.mark.parametrize(
    ("msg", "code"),
    [
        ({"type": "act", "turn": True, "action": "fold"}, "bad_message"),
        ({"type": "act", "turn": 3, "action": "shove"}, "bad_message"),
        ({"type": "act", "turn": 3.0, "action": "fold"}, "bad_message"),
        ({"type": "act", "action": "fold"}, "bad_message"),
        ({"type": "act", "turn": 3, "action": b"fold"}, "bad_message"),
        ({"type": "act", "turn": 3}, "bad_message"),
    ],
)
def test_an_act_is_refused_as_it_always_was(msg: dict[str, Any], code: str) -> None:
    """A malformed ``act`` gets its refusal, naming the message it refuses."""
    with pytest.raises(MessageError) as refused:
        decode_client(msg)
    assert refused.value.code == code and refused.value.ref == "act"


def test_a_well_formed_act_decodes_to_its_message() -> None:
    for action in ("fold", "call", "bring_in", "complete"):
        assert decode_client({"type": "act", "turn": 9, "action": action}) == Act(9, action)


def test_any_frame_body_is_a_map_or_a_frame_error() -> None:
    """Whatever a frame is (cut, changed, nested, not msgpack), the decoder with limits
    returns a map or raises ``FrameError``, nothing else; one too deep is refused."""
    import random

    from common.protocol import framing

    rng = random.Random(9)
    real = [
        framing.encode_frame(m)[4:]
        for m in (
            {"type": "act", "turn": 12, "action": "call"},
            {"type": "ping", "id": 3},
            {"type": "chat", "text": "hi", "x": [1, [2, [3]]]},
            {"type": "hello", "name": "a", "opts": {"a": {"b": {"c": 1}}}},
            {"type": "x", "b": b"\x00\x01", "f": 1.5, "n": None, "t": True},
        )
    ]
    bodies = list(real)
    for _ in range(4000):
        body = bytearray(rng.choice(real))
        for _ in range(rng.randint(1, 3)):
            op = rng.randrange(3)
            if op == 0 and body:
                body[rng.randrange(len(body))] = rng.randrange(256)
            elif op == 1:
                body.insert(rng.randrange(len(body) + 1), rng.randrange(256))
            elif body:
                del body[rng.randrange(len(body)) :]
        bodies.append(bytes(body))
    bodies += [bytes(rng.randrange(256) for _ in range(rng.randint(0, 40))) for _ in range(2000)]
    bodies.append(b"\x81\xa1a" + b"\x91" * 20 + b"\x01")  # too deep
    for depth, items in ((16, 2048), (2, 2048), (16, 3), (1, 5)):
        decoder = framing.FrameDecoder(max_depth=depth, max_items=items)
        for body in bodies:
            try:
                assert isinstance(decoder._decode(body), dict), body
            except framing.FrameError:
                continue
    with pytest.raises(framing.FrameError, match="deeper"):
        framing.FrameDecoder(max_depth=16, max_items=2048)._decode(bodies[-1])
