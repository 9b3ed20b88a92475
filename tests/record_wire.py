"""Record what the server sends, as decoded values: the wire contract's fixture.

``tests/test_wire_values.py`` holds the server to ``tests/fixtures/wire_values.jsonl.gz``:
every message decodes to the same fields, values and types, its keys in the same order
(``docs/protocol.md``: "keys are as shown").  How the messages are packed is free.  The
recording was made from the code that spliced frames by hand; run this again only to
change the wire on purpose: ``python -m tests.record_wire``.

Each line of the fixture is ``[scenario, to, message]``, in the order received:

- ``night 3``, ``night 8``: every connection of a table on a fake clock (``to``: the
  connection's name), played to the standings by seeded random choices at seven seats
  (five people, one of protocol 1, and two computer seats) with three watchers (one of
  protocol 1, one who comes in mid-hand, one who goes).  On the way a seat drops mid-hand
  and comes back with its token (R-C1); a clock and bank run out (R-C4, R-C2); a person
  steps away and back (R-C2); the host pauses and resumes (R-C3); chat.  Tokens, dates and
  the clock are fixed, so a night is the same messages each time it is played.
- ``match2``, ``match4``, ``match7``: seeded matches of 2, 4 and 7 seats with small stacks
  (all-ins and side pots, R-A3) through ``server.frames`` (``to``: a seat, None for a
  watcher, or ``all``), with lobby seats away, taken, seated for the next match and played
  by a stand-in.
- ``lobbies``, ``messages``: lobbies of every shape and every other server message type,
  with and without its optional fields.
"""

from __future__ import annotations

import asyncio
import gzip
import itertools
import json
import random
import secrets
import tempfile
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any
from unittest import mock

from common import protocol as p
from common.match import Match, SeatInfo, SeatKind
from common.presence import Presence
from common.version import __version__
from server import frames, histories, records
from server.seats import Seat
from server.table import Table
from server.timers import FakeClock
from tests.serverkit import Link, clocked_table, config, drive, settle

FIXTURE = Path(__file__).with_name("fixtures") / "wire_values.jsonl.gz"
SERVER = f"seventh-street {__version__}"

SEEDS = (3, 8)
"""One night per seed."""

Received = list[tuple[Any, dict[str, Any]]]
"""Who received it (a connection's name, a seat, None or ``all``) and the message."""


def line(scenario: str, to: Any, msg: dict[str, Any]) -> str:
    """One message as the fixture writes it: JSON keeps key order, and tells 1 from 1.0
    and from true, so two lines are equal only when the values are.  The game's version
    in a ``welcome`` is written ``VERSION``, so that a release leaves the fixture as it is."""
    if msg.get("type") == "welcome" and msg.get("server") == SERVER:
        msg = {**msg, "server": "seventh-street VERSION"}
    return json.dumps([scenario, to, msg], ensure_ascii=False)


def decoded(data: bytes) -> list[dict[str, Any]]:
    """The messages of ``data``, whole frames one after another."""
    decoder = p.FrameDecoder()
    out = decoder.feed(data)
    assert not decoder.pending, "a frame cut short"
    return out


# ------------------------------------------------------------------ the nights


class _Evening(datetime):
    """``datetime.now()`` always the same evening, so the night's scoreboard is too."""

    @classmethod
    def now(cls, tz: tzinfo | None = None) -> _Evening:
        return cls(2026, 12, 1, 20, 30)


@contextmanager
def _fixed() -> Iterator[None]:
    """Tokens from a counter and one fixed evening, while inside."""
    count = itertools.count(1)

    def token(nbytes: int | None = None) -> str:
        return f"token-{next(count):04d}"

    with (
        mock.patch.object(secrets, "token_urlsafe", token),
        mock.patch.object(records, "datetime", _Evening),
        mock.patch.object(histories, "datetime", _Evening),  # in the match's id
    ):
        yield


def _night_events(
    table: Table, clock: FakeClock, links: dict[str, Link], rng: random.Random
) -> tuple[Callable[[], bool], Callable[[Link, list[str]], Coroutine[Any, Any, None]]]:
    """The night's events on the way (``drive``'s ``aside``) and its seeded random play
    (``drive``'s ``act``), over ``links`` (new links join it)."""
    done: set[str] = set()

    def once(what: str, when: bool) -> bool:
        if when and what not in done:
            done.add(what)
            return True
        return False

    def aside() -> bool:
        step = table.dealer.step
        if once("drop", step >= 5):
            links["Cid"].drop()  # mid-hand: R-C1 keeps the seat
        elif once("back", step >= 12):
            links["Cid again"] = Link(table, "Cid")
            links["Cid again"].hello(token=links["Cid"].token)  # with its token, cards included
        elif once("late", step >= 9):
            links["Kim"] = Link(table, "Kim")
            links["Kim"].hello(watch=True)  # a watcher who comes in mid-hand
        elif once("gone", step >= 30):
            links["Wes"].drop()  # a watcher who goes
        elif once("pause", step >= 18):
            links["Ann"].send(p.Pause().encode())
            clock.advance(3.0)
            links["Ann"].send(p.Resume().encode())
        elif once("away", step >= 24):
            links["Eli"].send(p.Away().encode())
        elif once("return", step >= 40):
            links["Eli"].send(p.Back().encode())
        else:
            return False
        return True

    async def act(link: Link, legal: list[str]) -> None:
        """The person to act acts (or, once, lets its clock and bank run out)."""
        if link is links["Dee"] and once("clock", table.dealer.step >= 14):
            clock.advance(20.0 + 10.0 + 0.5)  # its decision seconds and its bank (R-C4)
            await settle(table, *links.values())
            link.send(p.Back().encode())
            return
        calm = [a for a in legal if a in ("check", "call", "bring_in")]
        choice = rng.choice(calm) if calm and rng.random() < 0.7 else rng.choice(legal)
        link.send(p.Act(table.turns.turn_id, choice).encode())
        if rng.random() < 0.1:
            link.send(p.Chat(text="nice one").encode())

    return aside, act


async def night(seed: int) -> dict[str, Link]:
    """One whole seeded match at seven seats with watchers; every connection's link,
    by name (``Link.log`` is what it received)."""
    with tempfile.TemporaryDirectory() as tmp, _fixed():
        cfg = config(
            Path(tmp), seed=seed, hands=4, computer=2, computer_levels=("newcomer", "shark"),
            turn_time=20.0, time_bank=10.0, grace=5.0, name="Kitchen", hand_pause=2.0,
            final_pause=1.0,
        )  # fmt: skip
        table, clock = await clocked_table(cfg)
        links: dict[str, Link] = {}
        hellos = {"Ann": {}, "Bob": {"protocol": 1}, "Wes": {"watch": True}, "Cid": {},
                  "Vic": {"watch": True, "protocol": 1}, "Dee": {}, "Eli": {}}  # fmt: skip
        for name, hello in hellos.items():
            links[name] = Link(table, name)
            links[name].hello(**hello)
        links["Ann"].send(p.Start().encode())
        rng = random.Random(seed)
        aside, act = _night_events(table, clock, links, rng)
        try:
            await drive(table, clock, links.values(), rng, aside=aside, act=act)
            await settle(table, *links.values())
        finally:
            table.shutdown()
        return links


def night_received(seed: int) -> Received:
    """What each connection of night ``seed`` received, one connection after another."""
    links = asyncio.run(night(seed))
    return [
        (name, msg)
        for name, link in links.items()
        for msg in decoded(b"".join(link.transport.written))
    ]


# ------------------------------------------------------------------ scripted matches

_NIGHT = {
    "night": "2026-12-01",
    "label": "Tuesday night",
    "table": "Kitchen",
    "played": 1,
    "matches": [{"number": 1, "match": "m-0", "hands": 4, "winners": ["Ann"]}],
    "totals": [{"name": "Ann", "net": 42, "wins": 1}],
}

_PRESENCES = (
    Presence.PLAYING, Presence.AWAY_ASKED, Presence.AWAY_CLOCK, Presence.AWAY_DROPPED,
    Presence.TAKEN,
)  # fmt: skip
"""The recording's seats' presence, seat by seat and hand by hand in turn."""


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
        seat.presence = _PRESENCES[(s + hand_no) % 5]
        if seat.presence is Presence.AWAY_DROPPED or (s + hand_no) % 4 == 1:
            seat.conn = None
        out[s] = seat
    return out


def _players(numbers: list[int], hand_no: int, *, late: int | None) -> list[Any]:
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


def _scripted_match(count: int, seed: int, watchers: int) -> Received:
    numbers = {2: [0, 6], 4: [0, 2, 5, 6], 7: list(range(7))}[count]
    rng = random.Random(seed)
    late = None if count == 7 else 3
    match = Match(
        seats={s: SeatInfo(f"P{s}") for s in numbers}, rng=rng, hands=4, stack=60 + 10 * count
    )
    match_id = f"m-{count}"
    viewers: set[int | None] = {None, *numbers[:watchers]}
    out: Received = [("all", frames.match_start(match, match_id, _players(numbers, 0, late=late)))]
    hand_no = step = turn_id = 0
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
                match, events, viewers, match_id=match_id, hand_no=hand_no, step=step,
                turn_id=turn_id, players=players,
            )  # fmt: skip
            for viewer in sorted(got, key=lambda v: -1 if v is None else v):
                out += [(viewer, msg) for msg in decoded(got[viewer])]
            if hand.is_over:
                break
            assert hand.to_act is not None
            out.append((hand.to_act, frames.turn(hand, hand.to_act, turn_id, 30.0, 90.0)))
            if step % 5 == 0:
                out.append((hand.to_act, frames.turn(hand, hand.to_act, turn_id, None, None)))
            events = match.apply(hand.to_act, _choose(hand.legal_actions(), rng))
        out.append(("all", frames.hand_end(match, hand_no)))
    history = Path("m.json") if count % 2 else None
    out.append(("all", frames.standings(match, match_id, history, _NIGHT if count == 7 else None)))
    return out


def _lobbies() -> Received:
    out: Received = []
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
                plain=("allow", "never")[hand_no % 2],
                password=i % 2 == 1,
                odds=i == 4,
            )
            out.append(("all", msg))
    out.append(("all", frames.lobby([], host=None, hands=8, start_when=None, running=False)))
    return out


def _messages() -> Received:
    """Every other server message type, with and without its optional fields."""
    msgs: list[Any] = [
        p.Welcome(0, "tok", "Ann", True, False, 8),
        p.Welcome(None, "tok2", "Eve", False, True, 4, 1),
        p.Error("bad_message", "what?"),
        p.Error("not_your_turn", "wait", "act"),
        p.Error("name_taken", "Bob is already at the table: choose another name", "hello", 1),
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
        p.SeatAsked(1, "Bob"),
        p.SeatAsked(1, "Bob", False),
        p.AskAnswer(1, "waiting", "Waiting for the host to give the seat back"),
        p.AskAnswer(1, "refused"),
        p.Waiting(True, "disk_full", "the host's disk is full: the table waits until it can save"),
        p.Waiting(False),
    ]
    return [("all", decoded(p.encode_frame(m.encode()))[0]) for m in msgs]


def scripted() -> dict[str, Received]:
    """The scripted recordings, made by the code as it is now (deterministic)."""
    return {
        "match2": _scripted_match(2, 5, 2),
        "match4": _scripted_match(4, 11, 4),
        "match7": _scripted_match(7, 6, 2),
        "lobbies": _lobbies(),
        "messages": _messages(),
    }


def everything() -> dict[str, Received]:
    return {**{f"night {seed}": night_received(seed) for seed in SEEDS}, **scripted()}


# ------------------------------------------------------------------ the fixture


def load() -> dict[str, list[str]]:
    """Each scenario's lines as recorded, in order."""
    out: dict[str, list[str]] = {}
    for text in gzip.decompress(FIXTURE.read_bytes()).decode().splitlines():
        out.setdefault(json.loads(text)[0], []).append(text)
    return out


def main() -> None:
    got = everything()
    text = "".join(line(name, to, msg) + "\n" for name, rows in got.items() for to, msg in rows)
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_bytes(gzip.compress(text.encode(), mtime=0))
    count = sum(len(rows) for rows in got.values())
    print(f"{FIXTURE.name}: {count} messages, {len(text)} bytes, {FIXTURE.stat().st_size} gz")


if __name__ == "__main__":
    main()
