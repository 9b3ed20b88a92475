"""Record the golden wire frames that ``tests/test_wire_bytes.py`` holds the code to.

Run from the repository root to remake the fixture (only when the wire is meant to
change, which it is not)::

    python -m tests.record_frames
    python -m tests.record_frames --scripted   # the real server's recording kept

Two kinds of recording go into ``tests/fixtures/wire_frames.msgpack.gz``:

- ``scripted``: seeded matches of 2, 4 and 7 seats (small stacks, so all-ins and side
  pots come often) played through ``server.frames`` as the table calls it, with lobby
  seats away, taken, seated for the next match and played by a stand-in, and every
  server message type encoded once.  ``scripted_frames()`` makes them again from the
  code as it is, so the test can replay them and compare byte for byte.
- ``server``: every frame that each connection of a real server on 127.0.0.1 port 0
  received over one match (a host, a protocol-1 client, a spectator, a late arrival
  and two computer seats).  Tokens, match ids and clocks differ from run to run, so
  these are only decoded and encoded again, not replayed.

Each frame is stored as the bytes that went on the wire (length prefix included).
"""

from __future__ import annotations

import asyncio
import gzip
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]

from common import protocol as p
from common.match import Match, SeatInfo, SeatKind
from common.presence import Presence
from server import frames
from server.seats import Seat

FIXTURE = Path(__file__).with_name("fixtures") / "wire_frames.msgpack.gz"

Recording = dict[str, list[tuple[Any, bytes]]]
"""Scenario name -> the frames in order, each with who received it (a seat, None for a
spectator, or a label)."""

_NIGHT = {
    "night": "2026-12-01",
    "label": "Tuesday night",
    "table": "Kitchen",
    "played": 1,
    "matches": [{"number": 1, "match": "m-0", "hands": 4, "winners": ["Ann"]}],
    "totals": [{"name": "Ann", "net": 42, "wins": 1}],
}


_AWAY = {
    None: Presence.PLAYING,
    "asked": Presence.AWAY_ASKED,
    "clock": Presence.AWAY_CLOCK,
    "dropped": Presence.AWAY_DROPPED,
    "taken": Presence.TAKEN,
}
"""The away words of the recording's seats, as presence states (what they were called when
the frames were recorded)."""


class _Conn:
    """Enough of a connection for ``Seat.connected`` and ``Seat.public``: a plain one."""

    sealed = False


def _seats(numbers: list[int], hand_no: int) -> dict[int, Seat]:
    """The lobby seats of a scripted match: presence changes from hand to hand."""
    out: dict[int, Seat] = {}
    for i, s in enumerate(numbers):
        if i % 3 == 2:
            out[s] = Seat(s, f"Bot{s}", SeatKind.COMPUTER, level=("regular", "shark", "x")[s % 3])
            continue
        seat = Seat(s, f"P{s}", SeatKind.HUMAN, token=f"t{s}", conn=_Conn())  # type: ignore[arg-type]
        why = [None, "asked", "clock", "dropped", "taken"][(s + hand_no) % 5]
        seat.presence = _AWAY[why]
        if why == "dropped" or (s + hand_no) % 4 == 1:
            seat.conn = None
        out[s] = seat
    return out


def _players(numbers: list[int], hand_no: int, *, late: int | None) -> list[dict[str, Any]]:
    seats = _seats(numbers, hand_no)
    if late is not None:
        seats[late] = Seat(
            late, "Late", SeatKind.HUMAN, token="tl", conn=_Conn(),  # type: ignore[arg-type]
            presence=Presence.NEXT_MATCH,
        )  # fmt: skip
    stand_in = hand_no % 2 == 1
    host = numbers[0] if hand_no % 3 else None
    return [seats[s].public(host, stand_in) for s in sorted(seats)]


def _choose(legal: tuple[Any, ...], rng: random.Random) -> Any:
    """Aggressive play, so that stacks run out: raise or bet often, fold now and then."""
    kinds = [a.kind.value for a in legal]
    for want, chance in (("raise", 0.45), ("complete", 0.4), ("bet", 0.5), ("call", 0.8)):
        if want in kinds and rng.random() < chance:
            return legal[kinds.index(want)].kind
    return rng.choice(legal).kind


def _scripted_match(count: int, seed: int, watchers: int) -> list[tuple[Any, bytes]]:
    numbers = {2: [0, 6], 4: [0, 2, 5, 6], 7: list(range(7))}[count]
    rng = random.Random(seed)
    late = None if count == 7 else 3
    match = Match(
        seats={s: SeatInfo(f"P{s}") for s in numbers}, rng=rng, hands=4, stack=60 + 10 * count
    )
    match_id = f"m-{count}"
    viewers: set[int | None] = {None, *numbers[:watchers]}
    out: list[tuple[Any, bytes]] = []

    def message(who: Any, msg: dict[str, Any]) -> None:
        out.append((who, p.encode_frame(msg)))

    players = _players(numbers, 0, late=late)
    message("all", frames.match_start(match, match_id, players))
    hand_no = 0
    step = 0
    turn_id = 0
    while not match.is_over:
        hand_no += 1
        players = _players(numbers, hand_no, late=late)
        hand = match.next_hand(rng=rng)
        events = list(hand.events)
        while True:
            step += 1
            if not hand.is_over:
                turn_id += 1
            got = frames.step_frames(
                match,
                events,
                viewers,
                match_id=match_id,
                hand_no=hand_no,
                step=step,
                turn_id=turn_id,
                players=players,
            )
            for viewer in sorted(got, key=lambda v: -1 if v is None else v):
                out.append((viewer, got[viewer]))
            if hand.is_over:
                break
            assert hand.to_act is not None
            legal = hand.legal_actions()
            turn = p.Turn(turn_id, hand.to_act, [a.to_dict() for a in legal], 30.0, 90.0)
            message(hand.to_act, turn.encode())
            if step % 5 == 0:
                message(
                    hand.to_act, p.Turn(turn_id, hand.to_act, [a.to_dict() for a in legal]).encode()
                )
            events = match.apply(hand.to_act, _choose(legal, rng))
        message("all", frames.hand_end(match, hand_no))
    history = Path("m.json") if count % 2 else None
    message("all", frames.standings(match, match_id, history, _NIGHT if count == 7 else None))
    return out


def _lobbies() -> list[tuple[Any, bytes]]:
    out: list[tuple[Any, bytes]] = []
    for i, numbers in enumerate(([0], [0, 6], [0, 1, 5, 6], list(range(7)), [2, 4])):
        for hand_no in range(3):
            msg = frames.lobby(
                _players(numbers, hand_no, late=None if len(numbers) == 7 else 3),
                host=numbers[0] if hand_no else None,
                hands=(4, 8, 12)[hand_no],
                start_when=None if i % 2 else 3,
                running=hand_no == 2,
                open_books=i == 1,
                books_to_watchers=i == 2,
                options={"turn_time": 30.0 if i else None, "time_bank": 90.0, "stand_in": i == 3},
                paused=hand_no == 1 and i == 4,
                table="Kitchen" if i else "",
                night=_NIGHT if i == 3 else None,
            )
            out.append(("all", p.encode_frame(msg)))
    # Today's default arguments (as a protocol-1 era table would call it).
    out.append(
        (
            "all",
            p.encode_frame(frames.lobby([], host=None, hands=8, start_when=None, running=False)),
        )
    )
    return out


def _messages() -> list[tuple[Any, bytes]]:
    """Every other server message type, with and without its optional fields."""
    msgs: list[Any] = [
        p.Welcome(0, "tok", "Ann", True, False, 8),
        p.Welcome(None, "tok2", "Eve", False, True, 4, 1),
        p.Error("bad_message", "what?"),
        p.Error("not_your_turn", "wait", "act"),
        p.Presence(2, False, 30.0),
        p.Presence(2, True),
        p.SeatAway(1, True, "asked", True),
        p.SeatAway(1, False),
        p.Paused(True, "Ann"),
        p.Paused(False),
        p.Clock(3, 17, 12.5, 80.0),
        p.Clock(3, 17, 12.5, 80.0, False),
        p.ChatSaid(0, "Ann", "hi"),
        p.ChatSaid(None, "Eve", "hello", True),
        p.Pong(5),
        p.Bye("the server closed"),
        p.Books("m-1", 1, 4, {"format": "stud-hh/1", "hand": 1}),
        # Protocol 2's seat asked back (issue 16): recorded after the frames above.
        p.Error("name_taken", "Bob is already at the table: choose another name", "hello", 1),
        p.SeatAsked(1, "Bob"),
        p.SeatAsked(1, "Bob", False),
        p.AskAnswer(1, "waiting", "Waiting for the host to give the seat back"),
        p.AskAnswer(1, "refused"),
        # The table waits for its disk (issue 33): recorded after the frames above.
        p.Waiting(True, "disk_full", "the host's disk is full: the table waits until it can save"),
        p.Waiting(False),
    ]
    return [("all", p.encode_frame(m.encode())) for m in msgs]


def scripted_frames() -> Recording:
    """The scripted recordings, made by the code as it is now (deterministic)."""
    return {
        "match2": _scripted_match(2, 5, 2),
        "match4": _scripted_match(4, 11, 4),
        "match7": _scripted_match(7, 6, 2),
        "lobbies": _lobbies(),
        "messages": _messages(),
    }


# ------------------------------------------------------------------ a real server


class _Raw:
    """A socket client that keeps every frame it receives as bytes."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.frames: list[bytes] = []
        self.msgs: list[dict[str, Any]] = []
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.seat: int | None = None

    async def connect(self, port: int, **hello: Any) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        self.send(p.Hello(name=self.name, **hello).encode())

    def send(self, msg: dict[str, Any]) -> None:
        assert self.writer is not None
        self.writer.write(p.encode_frame(msg))

    async def next(self) -> dict[str, Any]:
        assert self.reader is not None
        head = await asyncio.wait_for(self.reader.readexactly(4), 20)
        body = await asyncio.wait_for(self.reader.readexactly(int.from_bytes(head, "big")), 20)
        self.frames.append(head + body)
        msg: dict[str, Any] = msgpack.unpackb(body, raw=False)
        self.msgs.append(msg)
        if msg["type"] == "welcome":
            self.seat = msg["seat"]
        return msg


async def _play(client: _Raw, rng: random.Random, *, host: bool = False) -> None:
    """Answer every turn until the standings; the host starts the match and steps away once."""
    stepped = False
    while True:
        msg = await client.next()
        kind = msg["type"]
        if kind == "lobby" and host and not msg["running"] and msg["can_start"]:
            if sum(1 for s in msg["seats"] if s["kind"] == "human") >= 3:
                client.send(p.Start().encode())
        elif kind == "turn" and msg["seat"] == client.seat:
            names = [a["action"] for a in msg["legal"]]
            if host and not stepped and msg["turn"] > 6:
                stepped = True
                client.send(p.Away().encode())
                client.send(p.Back().encode())
            choice = "call" if "call" in names and rng.random() < 0.7 else rng.choice(names)
            client.send(p.Act(turn=msg["turn"], action=choice).encode())
            if rng.random() < 0.1:
                client.send(p.Chat(text="nice").encode())
        elif kind in ("standings", "bye"):
            return


async def _watch(client: _Raw) -> None:
    while (await client.next())["type"] not in ("standings", "bye"):
        pass


async def _server_recording() -> dict[str, list[bytes]]:
    from server.app import TableServer
    from server.config import ServerConfig

    with tempfile.TemporaryDirectory() as tmp:
        cfg = ServerConfig(
            host="127.0.0.1",
            port=0,
            hands=4,
            computer=2,
            computer_levels=("newcomer", "shark"),
            seed=3,
            bot_delay=0,
            hand_pause=0,
            final_pause=0,
            turn_time=20.0,
            history_dir=Path(tmp),
            grace=5.0,
        )
        server = TableServer(cfg)
        port = await server.start()
        try:
            ann, bob, cid, eve = _Raw("Ann"), _Raw("Bob"), _Raw("Cid"), _Raw("Eve")
            await ann.connect(port)
            await ann.next()
            await bob.connect(port, protocol=1)
            await bob.next()
            await eve.connect(port, watch=True)
            await eve.next()
            await cid.connect(port)
            await cid.next()
            rng = random.Random(1)
            await asyncio.wait_for(
                asyncio.gather(
                    _play(ann, rng, host=True), _play(bob, rng), _play(cid, rng), _watch(eve)
                ),
                120,
            )
        finally:
            await server.stop()
    return {c.name: c.frames for c in (ann, bob, cid, eve)}


def server_frames() -> dict[str, list[bytes]]:
    return asyncio.run(_server_recording())


def _pack(scripted: Recording, server: dict[str, list[bytes]]) -> bytes:
    doc = {
        "scripted": {name: [[who, data] for who, data in rows] for name, rows in scripted.items()},
        "server": server,
    }
    return gzip.compress(msgpack.packb(doc, use_bin_type=True), mtime=0)


def load() -> tuple[Recording, dict[str, list[bytes]]]:
    doc = msgpack.unpackb(gzip.decompress(FIXTURE.read_bytes()), raw=False)
    scripted = {name: [(who, data) for who, data in rows] for name, rows in doc["scripted"].items()}
    return scripted, doc["server"]


def all_frames() -> Iterator[tuple[str, bytes]]:
    """Every recorded frame with a label naming where it came from."""
    scripted, server = load()
    for name, rows in scripted.items():
        for i, (who, data) in enumerate(rows):
            yield f"{name}[{i}] to {who}", data
    for name, blobs in server.items():
        for i, data in enumerate(blobs):
            yield f"server {name}[{i}]", data


def main(argv: list[str] | None = None) -> None:
    """Record everything again; ``--scripted``: only the scripted frames, keeping the real
    server's recording as it is (for a wire that grew new message types)."""
    scripted = scripted_frames()
    server = load()[1] if "--scripted" in (argv or []) else server_frames()
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_bytes(_pack(scripted, server))
    count = sum(len(r) for r in scripted.values()) + sum(len(r) for r in server.values())
    print(f"{FIXTURE.name}: {count} frames, {FIXTURE.stat().st_size} bytes")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
