"""Contract tests: the real server against docs/protocol.md, and nothing else.

Written as an outside client author would: only the wire document, a raw socket and
msgpack (``tests.serverkit.Client`` reads frames by the document, not with the server's
own decoder, and every message here is a dict spelled as the document spells it).  Where
the server and the document disagree the test follows the document and is marked
``xfail(strict=True, reason="DOC/SERVER MISMATCH: ...")``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import msgpack
import pytest

from server.app import ServerHandle, run_in_thread
from server.config import ServerConfig
from tests.serverkit import CARD, LOOPBACK, Client, cards_in, frame, roundtrip, run, until

# One xdist worker runs the whole file: its module fixtures (a played match, the slow
# clocks) are set up once, not once per worker.
pytestmark = [pytest.mark.timeout(60), pytest.mark.xdist_group("contract")]

# --------------------------------------------------------------------------
# What the document says
# --------------------------------------------------------------------------

ACTIONS = {"bring_in", "complete", "bet", "raise", "call", "check", "fold"}
ERROR_CODES = set(
    re.findall(
        r"\w+",
        """bad_frame frame_too_large bad_message unknown_type no_hello handshake_timeout
        already_hello bad_name protocol_version bad_password bad_token table_full match_running
        server_busy taken_over not_seated not_your_turn stale_turn illegal_action not_host
        not_enough_seats chat_rate too_long server_error password_wait name_taken flood
        tls_required""",
    )
)
_TYPES = {"int": (int,), "num": (int, float), "str": (str,), "bool": (bool,), "list": (list,),
          "map": (dict,), "null": (type(None),)}  # fmt: skip


def fields(text: str) -> dict[str, tuple[type, ...]]:
    """The keys of a map as the document lists them, with the types it allows:
    ``fields("seat int|null, name str")`` (``num``: int or float)."""
    pairs = (item.split() for item in text.split(",") if item.strip())
    return {key: sum((_TYPES[k] for k in kinds.split("|")), ()) for key, kinds in pairs}


SEAT_ENTRY = fields("seat int, name str, kind str, connected bool, host bool")
SCHEMA = {
    "welcome": fields("protocol int, seat int|null, token str, name str, host bool, watch bool,"
                      " hands int, server str"),
    "error": fields("code str, message str"),
    "lobby": fields("seats list, host int|null, hands int, can_start bool, start_when int|null,"
                    " running bool, max_seats int, open_books bool, books_to_watchers bool"),
    "match_start": fields("match str, hands int, seats list, stakes map, stack int"),
    "events": fields("hand int, step int, events list"),
    "table": fields("match str, hand int, hands int, step int, view map, players list"),
    "turn": fields("turn int, seat int, legal list, time_left num|null"),
    "hand_end": fields("hand int, awards list, shows list, stacks list"),
    "standings": fields("match str, standings list, hands_played int, history str"),
    "presence": fields("seat int, connected bool, grace num|null"),
    "chat": fields("seat int|null, name str, text str"),
    "pong": fields("id int"),
    "bye": fields("reason str"),
    "heartbeat": {},
    "books": fields("match str, hand int, hands int, record map"),
}  # fmt: skip
VIEW = fields("street int, button int|null, order list, bring_in int|null, to_act int|null,"
              " turn int|null, high int, pot int, pots list, over bool, seats list, awards list,"
              " you int|null, legal list")  # fmt: skip
VIEW_SEAT = fields("seat int, stack int, bet int, in_pot int, folded bool, all_in bool, up list,"
                   " down int, last_action str|null")  # fmt: skip
STAKES = fields("ante int, bring_in int, small_bet int, big_bet int")
LEGAL = fields("action str, put int, to int, all_in bool")
AWARD = fields("ev str, seat int, amount int, pot int")
SHOW = fields("ev str, seat int, cards list, best list, hand str")
STACK = fields("seat int, stack int")
STANDING = fields("place int, seat int, name str, stack int, net int, winner bool")
EVENT_KEYS = {
    "ante": fields("seat int, amount int, all_in bool"),
    "deal": fields("seat int, street int, up bool"),
    "award": fields("seat int, amount int, pot int"),
    "show": fields("seat int, cards list, best list, hand str"),
}


POT = fields("amount int, seats list")
NESTED = {
    ("lobby", "seats"): SEAT_ENTRY,
    ("match_start", "seats"): SEAT_ENTRY,
    ("match_start", "stakes"): STAKES,
    ("table", "view"): VIEW,
    ("table", "players"): SEAT_ENTRY,
    ("view", "pots"): POT,
    ("view", "seats"): VIEW_SEAT,
    ("view", "legal"): LEGAL,
    ("turn", "legal"): LEGAL,
    ("hand_end", "awards"): AWARD,
    ("hand_end", "shows"): SHOW,
    ("hand_end", "stacks"): STACK,
    ("standings", "standings"): STANDING,
}
"""What a map's key holds, by the map's name: a map, or a list of maps, of these fields."""
CARD_KEYS = {"card", "cards", "best", "up", "hole", "shown"}


def keys(obj: Any, spec: dict, where: str, problems: list[str], name: str = "") -> None:
    """The map ``obj`` has ``spec``'s keys and types, and its cards (and those of the
    maps ``NESTED`` under ``name``) are card codes."""
    if not isinstance(obj, dict):
        problems.append(f"{where}: not a map: {obj!r}")
        return
    for k, types in spec.items():
        if k not in obj:
            problems.append(f"{where}: missing key {k!r} in {obj!r}")
        elif type(obj[k]) not in types and not (float in types and type(obj[k]) is int):
            problems.append(f"{where}: {k!r}={obj[k]!r} is {type(obj[k]).__name__}, not {types}")
    for k in CARD_KEYS & obj.keys():
        codes = [obj[k]] if k == "card" else obj[k] if isinstance(obj[k], list) else []
        bad = [c for c in codes if not (isinstance(c, str) and CARD.match(c))]
        problems += [f"{where}.{k}: malformed card {c!r}" for c in bad]
    for (outer, k), inner in NESTED.items():
        if outer == name and k in obj:
            for i, entry in enumerate(obj[k] if isinstance(obj[k], list) else [obj[k]]):
                keys(entry, inner, f"{where}.{k}[{i}]", problems, k if k == "view" else "")


def legal_problems(legal: list, where: str) -> list[str]:
    entries = [e for e in legal if isinstance(e, dict)]
    acts = [e.get("action") for e in entries]
    out = [f"{where}: action {a!r} not documented" for a in acts if a not in ACTIONS]
    for e in entries:
        negative = [k for k in ("put", "to") if isinstance(e.get(k), int) and e[k] < 0]
        out += [f"{where}: negative {k}" for k in negative]
    if len(acts) != len(set(acts)):
        out.append(f"{where}: an action offered twice: {acts}")
    return out


def validate(msg: dict) -> list[str]:
    """Schema problems of one server message, per docs/protocol.md."""
    t = msg.get("type")
    if t not in SCHEMA:
        return [f"undocumented message type {t!r}: {msg!r}"]
    p: list[str] = []
    keys(msg, SCHEMA[t], t, p, t)
    if t == "welcome" and msg.get("protocol") != 1:
        p.append(f"welcome protocol {msg.get('protocol')!r}")
    if t == "error" and msg.get("code") not in ERROR_CODES:
        p.append(f"undocumented error code {msg.get('code')!r}")
    if t == "error" and not isinstance(msg.get("ref", ""), str):
        p.append(f"error ref not a string: {msg['ref']!r}")
    if t in ("lobby", "match_start"):
        seats = [s.get("seat") for s in msg.get("seats") or [] if isinstance(s, dict)]
        kinds = {s.get("kind") for s in msg.get("seats") or [] if isinstance(s, dict)}
        if seats != sorted(seats) or not kinds <= {"human", "computer"}:
            p.append(f"{t}.seats not in seat order, or of a kind not documented: {msg}")
    for i, ev in enumerate(msg.get("events") or [] if t == "events" else []):
        if not isinstance(ev, dict) or not isinstance(ev.get("ev"), str):
            p.append(f"events[{i}] has no string 'ev': {ev!r}")
        else:
            keys(ev, EVENT_KEYS.get(ev["ev"], {}), f"events[{i}]({ev['ev']})", p)
    if t == "table" and isinstance(msg.get("view"), dict):
        p += legal_problems(msg["view"].get("legal") or [], "table.view.legal")
        for s in msg["view"].get("seats") or []:
            if isinstance(s, dict) and "hole" in s and len(s["hole"]) != s.get("down"):
                p.append(f"table.view: seat {s.get('seat')} hole {s['hole']}, down {s['down']}")
    if t == "turn":
        p += legal_problems(msg.get("legal") or [], "turn.legal")
        if not msg.get("legal"):
            p.append("turn with an empty legal list")
    for s in msg.get("shows") or [] if t == "hand_end" else []:
        if isinstance(s, dict) and len(s.get("best", [])) != 5:
            p.append(f"hand_end.shows: best is not five cards: {s}")
    return p


def leaks(you: int | None, messages: list[dict]) -> list[str]:
    """What one connection was sent that it may not know: another seat's down card before
    it is shown, in any message.  What it may know starts anew with each hand."""
    out: list[str] = []
    hand, visible = None, set()
    for m in messages:
        t = m["type"]
        if t in ("events", "table") and m["hand"] != hand:
            hand, visible = m["hand"], set()
        for ev in m["events"] if t == "events" else []:
            if ev["ev"] == "deal" and "card" in ev:
                if not (ev.get("up") or ev.get("seat") == you):
                    out.append(f"hand {hand}: face-down card of seat {ev['seat']} to {you}: {ev}")
                visible.add(ev["card"])
            elif ev["ev"] == "show":
                visible.update(ev.get("cards", []))
            elif unseen := cards_in(ev) - visible:
                out.append(f"hand {hand}: event {ev} shows {sorted(unseen)}")
        for s in m["view"]["seats"] if t == "table" else []:
            if "hole" in s and s["seat"] != you:
                out.append(f"hand {hand}: seat {s['seat']}'s hole to viewer {you}")
            if s["seat"] == you:
                visible.update(s.get("hole", []))
            shown = s["shown"] if isinstance(s.get("shown"), list) else []
            if unseen := set(shown) - visible:
                out.append(f"hand {hand}: 'shown' for seat {s['seat']} before its show: {unseen}")
            visible.update(shown)
        for s in m["shows"] if t == "hand_end" else []:
            visible.update(s.get("cards", []))
        if t != "events" and (unseen := cards_in(m) - visible):
            out.append(f"hand {hand}: {t} shows cards never dealt up, to it, or shown: {unseen}")
    return out


# --------------------------------------------------------------------------
# Tables, and what a client does
# --------------------------------------------------------------------------


@contextlib.contextmanager
def served(tmp: Path, **options: Any) -> Iterator[ServerHandle]:
    """A table on loopback, on a thread of its own (to a client, a process like any
    other), with the server's own clocks, which the document gives: quick computer
    seats, no pauses."""
    cfg = ServerConfig(
        host=LOOPBACK, port=0, history_dir=tmp / "histories", data_dir=tmp / "data",
        computer=1, hands=4, bot_delay=0, hand_pause=0,
    )  # fmt: skip
    srv = run_in_thread(replace(cfg, **options))
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def lobby_server(tmp_path: Path) -> Iterator[ServerHandle]:
    with served(tmp_path) as srv:
        yield srv


async def hello(c: Client, name: str, **extra) -> dict:
    """A protocol-1 hello as the document spells it; the next message (a wrong password
    makes the next hello from the address wait, up to seconds)."""
    c.send({"type": "hello", "protocol": 1, "name": name, **extra})
    return await c.expect(timeout=5.0)


async def said_hello(srv, name: str, **extra) -> tuple[Client, dict]:
    """A new connection that has said hello: it, and the answer."""
    c = await Client(name).connect(srv.port)
    return c, await hello(c, name, **extra)


async def caught_up(c: Client) -> None:
    """Everything sent to ``c`` so far has come, and is left unread."""
    await roundtrip(c)
    while c.take() is not None:
        pass


async def joined(srv, name: str, **extra) -> Client:
    c, w = await said_hello(srv, name, **extra)
    assert w["type"] == "welcome", w
    assert (await c.expect())["type"] == "lobby"
    await caught_up(c)
    return c


async def refused(c: Client) -> list[dict] | None:
    """The messages left unread when the server closes, or None if it does not close."""
    try:
        await c.wait_closed()
    except TimeoutError:
        return None
    return list(iter(c.take, None))


async def error_then(c: Client, msg: dict) -> dict:
    c.send(msg)
    return await c.expect("error", timeout=1.0)


async def still_open(c: Client) -> bool:
    c.send({"type": "ping", "id": 991})
    try:
        return bool(await c.expect("pong", id=991, timeout=1.0))
    except (ConnectionError, TimeoutError):
        return False


# --------------------------------------------------------------------------
# 1 + 3: a whole match, played by two contract clients and a watcher
# --------------------------------------------------------------------------


@dataclass
class Person:
    """Someone at the table: each of its connections, and the errors it provoked."""

    name: str
    welcome: dict
    conns: list[Client]
    expected_errors: list[tuple[str, str | None]] = field(default_factory=list)
    my_turns: list[int] = field(default_factory=list)
    probed: bool = False
    standings: bool = False
    done: bool = False

    @property
    def conn(self) -> Client:
        return self.conns[-1]

    @property
    def seat(self):
        return self.welcome["seat"]

    @property
    def token(self) -> str:
        return self.welcome["token"]

    @property
    def segments(self) -> list[list[dict]]:
        """What each connection was sent (heartbeats left out: the document says to
        ignore them)."""
        return [[m for m in c.log if m["type"] != "heartbeat"] for c in self.conns]

    @property
    def errors(self) -> list[dict]:
        return [m for seg in self.segments for m in seg if m["type"] == "error"]

    def privacy_problems(self) -> list[str]:
        """What a connection may know starts anew with it."""
        return [problem for seg in self.segments for problem in leaks(self.seat, seg)]


async def play_match(tmp: Path) -> dict:
    rng = random.Random(20261129)
    rec: dict = {"reconnect": None, "problems": []}
    with served(tmp, start_when=3, seed=5) as srv:
        conn, ww = await said_hello(srv, "Cy", watch=True)
        watcher = Person("Cy", ww, [conn])
        players = []
        for name in ("Ann", "Bob"):
            conn, welcome = await said_hello(srv, name)
            players.append(Person(name, welcome, [conn]))
        everyone = [*players, watcher]
        ann, bob = players
        pending: list = []

        def act(p: Person, msg: dict) -> None:
            p.my_turns.append(msg["turn"])
            choices = [e["action"] for e in msg["legal"]]
            if len(choices) > 1 and "fold" in choices and rng.random() < 0.85:
                choices.remove("fold")  # reach showdowns now and then
            p.conn.send({"type": "act", "turn": msg["turn"], "action": rng.choice(choices)})

        def probe(p: Person, msg: dict) -> None:
            """Errors that must change nothing (doc "Acting"); p acts once all are answered."""
            other = bob if p is ann else ann
            offered = {e["action"] for e in msg["legal"]}
            not_offered = sorted(ACTIONS - offered)[0]
            stale = p.my_turns[-1] if p.my_turns else msg["turn"] - 1
            first = msg["legal"][0]["action"]
            for who, turn, action, code in (
                (p, stale, first, "stale_turn"),
                (p, msg["turn"], not_offered, "illegal_action"),
                (other, msg["turn"], first, "not_your_turn"),
                (watcher, msg["turn"], first, "not_seated"),
            ):
                who.conn.send({"type": "act", "turn": turn, "action": action})
                who.expected_errors.append((code, "act"))
            if p.welcome["host"]:
                p.conn.send({"type": "start"})
                p.expected_errors.append(("match_running", "start"))
            p.conn.send({"type": "ping", "id": 1000 + p.seat})
            pending.append((p, msg))

        async with asyncio.timeout(15):  # the match, to the end
            while not all(p.done for p in everyone):
                for p in [p for p in everyone if not p.done]:
                    while not p.done and (msg := p.conn.take()) is not None:
                        p.standings = p.standings or msg["type"] == "standings"
                        p.done = msg["type"] == "lobby" and p.standings
                        if msg["type"] != "turn":
                            continue
                        if msg["seat"] != p.seat:
                            rec["problems"].append(f"{p.name} got a turn for {msg['seat']}")
                            continue
                        if not p.probed:
                            p.probed = True
                            probe(p, msg)
                        elif p is bob and rec["reconnect"] is None and msg["turn"] > 4:
                            rec["reconnect"] = await reconnect(srv, bob, ann, msg)
                            act(p, rec["reconnect"]["turn"])  # re-sent on the new connection
                        else:
                            act(p, msg)
                if pending and all(len(q.errors) >= len(q.expected_errors) for q in everyone):
                    act(*pending.pop())
                    continue
                await until(lambda: any(p.conn.unread for p in everyone))
        # the server shuts down: everyone gets a bye, then the close
        srv.stop()
        for p in everyone:
            with contextlib.suppress(TimeoutError):
                await p.conn.wait_closed(3.0)
            rest = list(iter(p.conn.take, None))
            rec.setdefault("bye", {})[p.name] = (rest, p.conn.closed)
        rec["problems"] += [
            f"{p.name}: {x}" for p in everyone for seg in p.segments for m in seg
            for x in validate(m)
        ]  # fmt: skip
        rec["players"] = players
        rec["watcher"] = watcher
        rec["hist"] = tmp / "histories"
        return rec


async def reconnect(srv, p: Person, other: Person, turn_msg: dict) -> dict:
    """Drop p mid-hand on its turn and come back with the token (doc: Drops and comebacks):
    once the others have seen the drop."""
    tables = p.conn.of_type("table")
    hole_before = next(s for s in tables[-1]["view"]["seats"] if s["seat"] == p.seat).get("hole")
    mark = len(other.conn.log)
    await p.conn.close()
    await other.conn.seen("presence", mark, seat=p.seat, connected=False)
    c = await Client("Robert").connect(srv.port)
    c.send({"type": "hello", "protocol": 1, "name": "Robert", "token": p.token})
    p.conns.append(c)
    turn = await c.expect("turn", timeout=3)
    got = [m for m in c.log[: c.log.index(turn) + 1] if m["type"] != "heartbeat"]
    return {"messages": got, "hole_before": hole_before, "turn_before": turn_msg, "turn": turn}


@pytest.fixture(scope="module")
def match(tmp_path_factory):
    return asyncio.run(play_match(tmp_path_factory.mktemp("match")))


def test_match_messages_match_the_documented_schema(match):
    assert match["problems"] == []


def test_match_reaches_standings_with_four_hands(match):
    for p in [*match["players"], match["watcher"]]:
        msgs = [m for seg in p.segments for m in seg]
        ends = [m for m in msgs if m["type"] == "hand_end"]
        st = [m for m in msgs if m["type"] == "standings"]
        assert [e["hand"] for e in ends] == [1, 2, 3, 4], p.name
        assert len(st) == 1 and st[0]["hands_played"] == 4
        s = st[0]["standings"]
        assert [x["place"] for x in s] == sorted(x["place"] for x in s)
        top = max(x["stack"] for x in s)
        for x in s:
            assert x["winner"] == (x["stack"] == top) and x["net"] == x["stack"] - 600, x
        stacks = {x["seat"]: x["stack"] for x in ends[-1]["stacks"]}
        assert {x["seat"]: x["stack"] for x in s} == stacks
        assert (Path(match["hist"]) / st[0]["history"]).exists()


def test_match_no_hole_cards_leak_before_showdown(match):
    people = [*match["players"], match["watcher"]]
    assert [f"{p.name}: {x}" for p in people for x in p.privacy_problems()] == []
    # a spectator never gets a 'hole' and its view's 'you' is null
    w = match["watcher"]
    for m in w.segments[-1]:
        if m["type"] == "table":
            assert m["view"]["you"] is None
            assert all("hole" not in s for s in m["view"]["seats"])
            assert m["view"]["legal"] == []


def test_match_showdowns_seen(match):
    """Sanity of the run: some hand went to a showdown, so privacy was tested there."""
    ann = match["players"][0]
    shows = [m for seg in ann.segments for m in seg if m["type"] == "hand_end" and m["shows"]]
    assert shows, "no showdown in the seeded run; change the seed"


def _order_problems(p: Person) -> list[str]:
    out = []
    for si, seg in enumerate(p.segments):
        where = f"{p.name} conn {si}"
        if [m["type"] for m in seg[:2]] != ["welcome", "lobby"]:
            out.append(f"{where}: starts {seg[:2]}")
        started = False
        last_step = None
        for i, m in enumerate(seg):
            t = m["type"]
            nxt = seg[i + 1] if i + 1 < len(seg) else {"type": None}
            started = started or t == "match_start"
            if t in ("events", "table", "turn", "hand_end") and not started:
                out.append(f"{where}: {t} before match_start")
            if t == "events":
                its_table = ("table", m["step"], m["hand"])
                if (nxt["type"], nxt.get("step"), nxt.get("hand")) != its_table:
                    out.append(f"{where}: events step {m['step']} not followed by its table")
                if last_step is not None and m["step"] != last_step + 1:
                    out.append(f"{where}: step went {last_step} -> {m['step']}")
                last_step = m["step"]
            if t == "turn":
                # its table (the comeback's own presence between)
                comeback = si > 0 and i < 8 and seg[i - 1]["type"] == "presence"
                prev = seg[i - 2] if comeback else seg[i - 1]
                v = prev.get("view", {})
                # Doc `table`: the view's `turn` is "the same id as in the `turn` message".
                said = (prev["type"], v.get("to_act"), v.get("you"), v.get("legal"), v.get("turn"))
                if said != ("table", m["seat"], m["seat"], m["legal"], m["turn"]):
                    out.append(f"{where}: turn {m} not after its table: {prev}")
            if t == "table" and m["view"]["legal"] and m["view"]["to_act"] != m["view"]["you"]:
                out.append(f"{where}: legal buttons when not to act: {m['view']}")
            if t == "hand_end":
                tables = [x for x in seg[:i] if x["type"] == "table"]
                if not tables or not tables[-1]["view"]["over"] or tables[-1]["hand"] != m["hand"]:
                    out.append(f"{where}: hand_end {m['hand']} not after its last table")
            if t == "standings" and (nxt["type"], nxt.get("running")) != ("lobby", False):
                out.append(f"{where}: standings not followed by lobby(running false): {nxt}")
            elif t == "standings" and p.welcome["host"] and nxt["can_start"] is not True:
                out.append(f"{where}: the host may start again but can_start is false")
    return out


def test_match_message_order(match):
    assert [x for p in [*match["players"], match["watcher"]] for x in _order_problems(p)] == []


def test_match_broadcasts_reach_everyone(match):
    """Everyone gets every match_start, hand_end, standings and presence."""

    def of(p, t, segments=1):
        return [m for seg in p.segments[:segments] for m in seg if m["type"] == t]

    ann, bob = match["players"]
    w = match["watcher"]
    assert of(ann, "match_start") == of(bob, "match_start") == of(w, "match_start")
    for t in ("hand_end", "standings"):
        assert of(ann, t, None) == of(bob, t, None) == of(w, t, None)
    # the drop and the comeback of Bob are announced to Ann and the watcher
    for p in (ann, w):
        pres = [(m["seat"], m["connected"], m["grace"]) for m in of(p, "presence")]
        assert pres[:2] == [(bob.seat, False, pres[0][2]), (bob.seat, True, None)], pres
        assert isinstance(pres[0][2], (int, float)) and pres[0][2] > 0


def test_match_step_and_turn_ids_grow(match):
    ann = match["players"][0]
    steps = [m["step"] for m in ann.segments[0] if m["type"] == "table"]
    assert steps == sorted(steps) and len(set(steps)) == len(steps)
    for p in match["players"]:  # a turn sent again on a comeback keeps its id
        turns = [m["turn"] for seg in p.segments for m in seg if m["type"] == "turn"]
        assert turns == sorted(turns), p.name
    firsts = {}
    for m in ann.segments[0]:
        if m["type"] == "table" and m["view"]["turn"] is not None:
            firsts.setdefault(m["hand"], m["view"]["turn"])
    assert list(firsts.values()) == sorted(firsts.values())


def test_match_refused_acts_get_documented_errors_and_change_nothing(match):
    for p in [*match["players"], match["watcher"]]:
        got = [(e["code"], e.get("ref")) for e in p.errors]
        assert got == p.expected_errors, p.name
    for p in match["players"]:  # a ping during the match is answered
        pongs = [m["id"] for seg in p.segments for m in seg if m["type"] == "pong"]
        assert 1000 + p.seat in pongs


def test_match_reconnect_with_token_resyncs(match):
    r = match["reconnect"]
    assert r is not None, "Bob never got a turn to drop on"
    bob = match["players"][1]
    msgs = r["messages"]
    w = msgs[0]
    assert w["type"] == "welcome" and w["seat"] == bob.seat and w["token"] == bob.token
    assert w["name"] == "Bob"  # the seat keeps its name
    # Joining during a match: welcome, lobby, match_start, one events (hand so far), table,
    # and the turn right after its table
    types = [m["type"] for m in msgs]
    assert types == ["welcome", "lobby", "match_start", "events", "table", "turn"], types
    ev, tb = msgs[3], msgs[4]
    hand = r["turn_before"]
    assert ev["step"] == tb["step"]
    deals = [e for e in ev["events"] if e["ev"] == "deal" and e["seat"] == bob.seat]
    mine = [e["card"] for e in deals if not e["up"]]
    hole = next(s for s in tb["view"]["seats"] if s["seat"] == bob.seat)["hole"]
    assert hole == r["hole_before"] == mine
    assert msgs[5]["turn"] == hand["turn"] and msgs[5]["legal"] == hand["legal"]
    assert tb["view"]["legal"] == hand["legal"] and tb["view"]["you"] == bob.seat


def test_match_bye_on_shutdown(match):
    for name, (rest, closed) in match["bye"].items():
        # seats freed by the shutdown may be announced first; the last word is the bye
        assert [m["type"] for m in rest][-1:] == ["bye"], (name, rest)
        assert {m["type"] for m in rest[:-1]} <= {"lobby", "presence"}, (name, rest)
        assert closed, name


# --------------------------------------------------------------------------
# 2: every client message and error code, in the lobby
# --------------------------------------------------------------------------


@run
async def test_hello_welcome_then_lobby(lobby_server):
    c, w = await said_hello(lobby_server, "Ann")
    assert validate(w) == []
    assert w["type"] == "welcome" and w["seat"] is not None
    assert w["host"] is True and w["watch"] is False
    assert w["name"] == "Ann" and w["hands"] == 4 and w["token"]
    lob = await c.expect()
    assert lob["type"] == "lobby" and validate(lob) == []
    assert lob["host"] == w["seat"] and lob["running"] is False and lob["start_when"] is None
    # Protocol 2 adds keys to a seat entry (away, away_why, stand_in); these five stay.
    mine = {"seat": w["seat"], "name": "Ann", "kind": "human", "connected": True, "host": True}
    assert mine in [{k: s[k] for k in SEAT_ENTRY} for s in lob["seats"]]


@run
async def test_hello_name_trimmed_and_cut(lobby_server):
    assert (await said_hello(lobby_server, "  Zed  "))[1]["name"] == "Zed"
    assert (await said_hello(lobby_server, "N" * 30))[1]["name"] == "N" * 20


@run
async def test_hello_watch_is_a_spectator(lobby_server):
    await joined(lobby_server, "Ann")
    c, w = await said_hello(lobby_server, "Cy", watch=True)
    assert validate(w) == []
    assert w["seat"] is None and w["watch"] is True and w["host"] is False
    lob = await c.expect()
    assert lob["type"] == "lobby" and all(s["name"] != "Cy" for s in lob["seats"])


HELLO = {"type": "hello", "protocol": 1, "name": "Ann"}
PLAIN_PASSWORD = {"password": "swordfish", "plain": "allow"}  # a password, plain clients
REFUSED = {
    # the table, the first message, its error (code, ref), and whether it closes
    "bad_name empty": ({}, {**HELLO, "name": ""}, ("bad_name", "hello"), False),
    "bad_name blank": ({}, {**HELLO, "name": "   "}, ("bad_name", "hello"), False),
    "bad_name bell": ({}, {**HELLO, "name": "A\x07b"}, ("bad_name", "hello"), False),
    "protocol_version": ({}, {**HELLO, "protocol": 99}, ("protocol_version", "hello"), True),
    "bad_token": ({}, {**HELLO, "token": "not-a-token"}, ("bad_token", "hello"), True),
    "no_hello ping": ({}, {"type": "ping", "id": 1}, ("no_hello", "ping"), True),
    "no_hello typeless": ({}, {"protocol": 1, "name": "Ann"}, ("no_hello", None), True),
    "bad_password none": (PLAIN_PASSWORD, HELLO, ("bad_password", "hello"), True),
    "bad_password wrong": (
        PLAIN_PASSWORD, {**HELLO, "password": "wrong"}, ("bad_password", "hello"), True
    ),
    "protocol_version, password": (
        PLAIN_PASSWORD, {**HELLO, "protocol": 99, "password": "swordfish"},
        ("protocol_version", "hello"), True,
    ),
    "bad_token, password": (
        PLAIN_PASSWORD, {**HELLO, "token": "x", "password": "swordfish"},
        ("bad_token", "hello"), True,
    ),
    "no_hello, password": (PLAIN_PASSWORD, {"type": "ping", "id": 3}, ("no_hello", "ping"), True),
    # A table with a password takes only sealed connections unless its host allows plain
    # ones: a plain hello is refused with words that say why, whatever its password.
    "tls_required": (
        {"password": "swordfish"}, {**HELLO, "password": "swordfish"},
        ("tls_required", "hello"), True,
    ),
    "tls_required, no password": (
        {"password": "swordfish"}, HELLO, ("tls_required", "hello"), True
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", REFUSED)
@run
async def test_a_refused_first_message(tmp_path: Path, case: str) -> None:
    """A bad name keeps the connection (a good hello may follow); every other refusal
    is closed with nothing after the error."""
    options, first, (code, ref), closes = REFUSED[case]
    with served(tmp_path, **options) as srv:
        c = await Client().connect(srv.port)
        c.send(first)
        e = await c.expect(timeout=5.0)
        assert (e["type"], e["code"], e.get("ref")) == ("error", code, ref) and validate(e) == []
        if code == "tls_required":
            assert "password" in e["message"] and "TLS" in e["message"]
        if closes:
            assert await refused(c) == []
        else:
            assert (await hello(c, "Ann"))["type"] == "welcome"


@run
async def test_the_right_password(tmp_path: Path) -> None:
    with served(tmp_path, **PLAIN_PASSWORD) as srv:
        assert (await said_hello(srv, "Ann", password="swordfish"))[1]["type"] == "welcome"
        w = await said_hello(srv, "Cy", watch=True, password="swordfish")
        assert w[1]["type"] == "welcome"


ERRORS_IN_THE_LOBBY = {
    # a table's options, what the host (Ann, seat 0) sends, and the error (code, ref)
    "missing type": ({}, {"id": 1}, ("bad_message", None)),
    "unknown type": ({}, {"type": "dance", "id": 1}, ("unknown_type", "dance")),
    "hello again": ({}, {"type": "hello", "protocol": 1, "name": "A"}, ("already_hello", "hello")),
    "ping id a string": ({}, {"type": "ping", "id": "42"}, ("bad_message", "ping")),
    "chat too long": ({}, {"type": "chat", "text": "x" * 201}, ("too_long", "chat")),
    "chat without text": ({}, {"type": "chat"}, ("bad_message", "chat")),
    "start with 5 hands": ({}, {"type": "start", "hands": 5}, ("bad_message", "start")),
    "start alone": ({"computer": 0}, {"type": "start"}, ("not_enough_seats", "start")),
}  # fmt: skip


@pytest.mark.parametrize("case", ERRORS_IN_THE_LOBBY)
@run
async def test_an_error_in_the_lobby_keeps_the_connection(tmp_path, case):
    options, msg, (code, ref) = ERRORS_IN_THE_LOBBY[case]
    with served(tmp_path, **options) as srv:
        c = await joined(srv, "Ann")
        e = await error_then(c, msg)
        assert (e["code"], e.get("ref")) == (code, ref) and validate(e) == []
        assert await still_open(c)


@run
async def test_ping_pong_and_unknown_keys_ignored(lobby_server):
    c = await joined(lobby_server, "Ann")
    c.send({"type": "ping", "id": 42, "whatever": [1, 2]})
    assert await c.expect("pong") == {"type": "pong", "id": 42}
    c.send({"type": "ping", "id": -7})
    assert (await c.expect("pong"))["id"] == -7
    c.send({"type": "ping"})
    assert await c.expect() == {"type": "pong", "id": 0}  # no id: 0


@run
async def test_chat_relay_limits_and_rate(lobby_server):
    a = await joined(lobby_server, "Ann")
    b = await joined(lobby_server, "Bob")
    w = await joined(lobby_server, "Cy", watch=True)
    a.send({"type": "chat", "text": "nice river"})
    for c in (a, b, w):
        m = await c.expect("chat")
        assert m == {"type": "chat", "seat": 0, "name": "Ann", "text": "nice river"}
    w.send({"type": "chat", "text": "**bold** /start"})
    for c in (a, b, w):
        m = await c.expect("chat")
        assert m["seat"] is None and m["name"] == "Cy" and m["text"] == "**bold** /start"
    b.send({"type": "chat", "text": "y" * 200})  # 201 is too long
    assert (await b.expect("chat"))["text"] == "y" * 200
    # bursts of five, then about one a second (w has said one line already)
    await caught_up(w)
    mark = len(w.log)
    for i in range(8):
        w.send({"type": "chat", "text": f"line {i}"})
    await roundtrip(w)  # every answer has come
    got = [m for m in w.log[mark:] if m["type"] in ("chat", "error")]
    assert "chat_rate" in [m.get("code") for m in got if m["type"] == "error"]
    said = [m["text"] for m in got if m["type"] == "chat"]
    assert said[:4] == ["line 0", "line 1", "line 2", "line 3"]
    assert await still_open(w)


@run
async def test_start_errors_and_start_with_hands(lobby_server):
    a = await joined(lobby_server, "Ann")
    b = await joined(lobby_server, "Bob")
    w = await joined(lobby_server, "Cy", watch=True)
    e = await error_then(b, {"type": "start"})
    assert e["code"] == "not_host" and e.get("ref") == "start"
    e = await error_then(w, {"type": "start"})
    assert e["code"] == "not_host"
    a.send({"type": "start", "hands": 8})
    ms = await a.expect("match_start")
    assert ms["hands"] == 8 and validate(ms) == []
    # a seat asked for during a match: it sits in at the next one, watching meanwhile;
    # watching during a match: welcome, lobby, match_start, events, table
    for extra in ({}, {"watch": True}):
        c, e = await said_hello(lobby_server, "Late" if not extra else "Viewer", **extra)
        assert e["type"] == "welcome" and (e["seat"] is None) == bool(extra)
        types = [(await c.expect())["type"] for _ in range(4)]
        assert types == ["lobby", "match_start", "events", "table"]


@run
async def test_leave_and_drop_before_match_free_the_seat(lobby_server):
    a = await joined(lobby_server, "Ann")
    b = await joined(lobby_server, "Bob")
    await caught_up(a)
    b.send({"type": "leave"})
    assert await refused(b) is not None  # the server closes the connection
    lob = await a.expect("lobby")
    assert all(s["name"] != "Bob" for s in lob["seats"])
    _, again = await said_hello(lobby_server, "Bob", token=b.log[0]["token"])
    assert again["code"] == "bad_token"
    d = await joined(lobby_server, "Dee")
    assert d.log[0]["seat"] == b.log[0]["seat"]  # the freed seat, taken again
    await caught_up(d)
    await a.close()  # the host drops: its seat goes, the role passes on
    lob = await d.expect("lobby")
    assert lob["host"] == d.log[0]["seat"] and all(s["name"] != "Ann" for s in lob["seats"])
    _, again = await said_hello(lobby_server, "Ann", token=a.log[0]["token"])
    assert again["code"] == "bad_token"


@run
async def test_table_full(tmp_path):
    with served(tmp_path, computer=5) as srv:
        await joined(srv, "Ann")
        await joined(srv, "Bob")
        c, e = await said_hello(srv, "Cat")
        assert e["code"] == "table_full" and await refused(c) == []
        assert (await said_hello(srv, "Cy", watch=True))[1]["type"] == "welcome"


@run
async def test_server_busy(tmp_path):
    with served(tmp_path, max_connections=2) as srv:
        await joined(srv, "Ann")
        await joined(srv, "Bob")
        c = await Client("Cat").connect(srv.port)
        with contextlib.suppress(OSError):
            c.send({"type": "hello", "protocol": 1, "name": "Cat"})
        e = await c.expect()
        assert e["type"] == "error" and e["code"] == "server_busy"
        assert await refused(c) == []


@run
async def test_taken_over_and_leave_during_match(tmp_path):
    with served(tmp_path) as srv:
        a = await joined(srv, "Ann")
        a.send({"type": "start"})
        await a.expect("match_start")
        b, w = await said_hello(srv, "Whoever", token=a.log[0]["token"])
        assert w["type"] == "welcome" and w["seat"] == a.log[0]["seat"] and w["name"] == "Ann"
        assert (await a.expect("error"))["code"] == "taken_over"
        assert await refused(a) is not None
        # the new connection gets the match so far
        await b.expect("table")
        # leave during a match: the seat stays, the connection closes, the token still works
        b.send({"type": "leave"})
        assert await refused(b) is not None
        assert (await said_hello(srv, "Ann", token=a.log[0]["token"]))[1]["type"] == "welcome"


# --------------------------------------------------------------------------
# Framing
# --------------------------------------------------------------------------


def _frame_of(n: int) -> bytes:
    for extra in range(8):
        pad = n - len(msgpack.packb({"type": "ping", "id": 7, "pad": ""})) - extra
        body = msgpack.packb({"type": "ping", "id": 7, "pad": "x" * pad})
        if len(body) == n:
            return struct.pack(">I", n) + body
    raise AssertionError(n)


@run
async def test_frame_of_exactly_64k_is_accepted_and_one_more_byte_is_refused(lobby_server):
    c = await joined(lobby_server, "Ann")
    c.send_raw(_frame_of(65536))
    assert (await c.expect("pong"))["id"] == 7
    c.send_raw(_frame_of(65537))
    e = await c.expect("error")
    assert e["code"] == "frame_too_large" and await refused(c) == []


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b"\x00\x00\x00\x03\xc1\xc1\xc1", "bad_frame"),  # not msgpack
        (frame([1, 2]), "bad_frame"),  # not a map
        (struct.pack(">I", 3) + msgpack.packb({1: 2}), "bad_frame"),  # non-string key
        (struct.pack(">I", 1) + msgpack.packb(5), "bad_frame"),
        (struct.pack(">I", 10_000_000), "frame_too_large"),  # its length alone says so
    ],
    ids=["garbage", "array", "int-key", "int", "oversized-length"],
)
@run
async def test_bad_frames_close_only_that_connection(lobby_server, raw, code):
    other = await joined(lobby_server, "Ann")
    c = await joined(lobby_server, "Bob")
    c.send_raw(raw)
    e = await c.expect("error")
    assert e["code"] == code and await refused(c) == []
    assert await still_open(other)
