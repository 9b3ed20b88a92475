"""Contract tests: the real server against docs/protocol.md, and nothing else.

Written as an outside client author would: only the wire document, a raw
socket and msgpack (tests/contract_client.py). Where the server and the
document disagree the test follows the document and is marked
``xfail(strict=True, reason="DOC/SERVER MISMATCH: ...")``.
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import re
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import msgpack
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from contract_client import Closed, ContractClient, encode, poll, wait_port  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / ".venv" / "bin" / "stud-server"

# One xdist worker runs the whole file: its module fixtures (a played match, the slow
# clocks) are set up once, not once per worker.
pytestmark = [pytest.mark.timeout(60), pytest.mark.xdist_group("contract")]

# --------------------------------------------------------------------------
# What the document says
# --------------------------------------------------------------------------

CARD = re.compile(r"^[23456789TJQKA][cdhs]$")
ACTIONS = {"bring_in", "complete", "bet", "raise", "call", "check", "fold"}
ERROR_CODES = {
    "bad_frame",
    "frame_too_large",
    "bad_message",
    "unknown_type",
    "no_hello",
    "handshake_timeout",
    "already_hello",
    "bad_name",
    "protocol_version",
    "bad_password",
    "bad_token",
    "table_full",
    "match_running",
    "server_busy",
    "taken_over",
    "not_seated",
    "not_your_turn",
    "stale_turn",
    "illegal_action",
    "not_host",
    "not_enough_seats",
    "chat_rate",
    "too_long",
    "server_error",
    "password_wait",
    "name_taken",
    "flood",
    "tls_required",
}
CLOSING = {
    "bad_frame",
    "frame_too_large",
    "no_hello",
    "handshake_timeout",
    "protocol_version",
    "bad_password",
    "bad_token",
    "table_full",
    "server_busy",
    "taken_over",
    "server_error",
    "password_wait",
    "name_taken",
    "flood",
    "tls_required",
}

INT = (int,)
NUM = (int, float)
NONE = type(None)

SEAT_ENTRY = {"seat": INT, "name": (str,), "kind": (str,), "connected": (bool,), "host": (bool,)}
SCHEMA = {
    "welcome": {
        "protocol": INT,
        "seat": (int, NONE),
        "token": (str,),
        "name": (str,),
        "host": (bool,),
        "watch": (bool,),
        "hands": INT,
        "server": (str,),
    },
    "error": {"code": (str,), "message": (str,)},
    "lobby": {
        "seats": (list,),
        "host": (int, NONE),
        "hands": INT,
        "can_start": (bool,),
        "start_when": (int, NONE),
        "running": (bool,),
        "max_seats": INT,
        "open_books": (bool,),
        "books_to_watchers": (bool,),
    },
    "match_start": {
        "match": (str,),
        "hands": INT,
        "seats": (list,),
        "stakes": (dict,),
        "stack": INT,
    },
    "events": {"hand": INT, "step": INT, "events": (list,)},
    "table": {
        "match": (str,),
        "hand": INT,
        "hands": INT,
        "step": INT,
        "view": (dict,),
        "players": (list,),
    },
    "turn": {"turn": INT, "seat": INT, "legal": (list,), "time_left": (int, float, NONE)},
    "hand_end": {"hand": INT, "awards": (list,), "shows": (list,), "stacks": (list,)},
    "standings": {"match": (str,), "standings": (list,), "hands_played": INT, "history": (str,)},
    "presence": {"seat": INT, "connected": (bool,), "grace": (int, float, NONE)},
    "chat": {"seat": (int, NONE), "name": (str,), "text": (str,)},
    "pong": {"id": INT},
    "bye": {"reason": (str,)},
    "heartbeat": {},
    "books": {"match": (str,), "hand": INT, "hands": INT, "record": (dict,)},
}
VIEW = {
    "street": INT,
    "button": (int, NONE),
    "order": (list,),
    "bring_in": (int, NONE),
    "to_act": (int, NONE),
    "turn": (int, NONE),
    "high": INT,
    "pot": INT,
    "pots": (list,),
    "over": (bool,),
    "seats": (list,),
    "awards": (list,),
    "you": (int, NONE),
    "legal": (list,),
}
VIEW_SEAT = {
    "seat": INT,
    "stack": INT,
    "bet": INT,
    "in_pot": INT,
    "folded": (bool,),
    "all_in": (bool,),
    "up": (list,),
    "down": INT,
    "last_action": (str, NONE),
}
STAKES = {"ante": INT, "bring_in": INT, "small_bet": INT, "big_bet": INT}
LEGAL = {"action": (str,), "put": INT, "to": INT, "all_in": (bool,)}
AWARD = {"ev": (str,), "seat": INT, "amount": INT, "pot": INT}
SHOW = {"ev": (str,), "seat": INT, "cards": (list,), "best": (list,), "hand": (str,)}
STACK = {"seat": INT, "stack": INT}
STANDING = {"place": INT, "seat": INT, "name": (str,), "stack": INT, "net": INT, "winner": (bool,)}
EVENT_KEYS = {
    "ante": {"seat": INT, "amount": INT, "all_in": (bool,)},
    "deal": {"seat": INT, "street": INT, "up": (bool,)},
    "award": {"seat": INT, "amount": INT, "pot": INT},
    "show": {"seat": INT, "cards": (list,), "best": (list,), "hand": (str,)},
}


def keys(obj, spec, where, problems):
    if not isinstance(obj, dict):
        problems.append(f"{where}: not a map: {obj!r}")
        return
    for k, types in spec.items():
        if k not in obj:
            problems.append(f"{where}: missing key {k!r} in {obj!r}")
        elif type(obj[k]) not in types and not (float in types and type(obj[k]) is int):
            problems.append(
                f"{where}: {k!r}={obj[k]!r} is {type(obj[k]).__name__}, doc says {types}"
            )


def cards(lst, where, problems):
    if not isinstance(lst, list):
        problems.append(f"{where}: cards not a list: {lst!r}")
        return
    for c in lst:
        if not isinstance(c, str) or not CARD.match(c):
            problems.append(f"{where}: malformed card {c!r}")


def legal_list(lst, where, problems):
    for i, e in enumerate(lst):
        keys(e, LEGAL, f"{where}[{i}]", problems)
        if isinstance(e, dict):
            if e.get("action") not in ACTIONS:
                problems.append(f"{where}[{i}]: action {e.get('action')!r} not documented")
            if isinstance(e.get("put"), int) and e["put"] < 0:
                problems.append(f"{where}[{i}]: negative put")
            if isinstance(e.get("put"), int) and isinstance(e.get("to"), int) and e["to"] < 0:
                problems.append(f"{where}[{i}]: negative to")
    acts = [e.get("action") for e in lst if isinstance(e, dict)]
    if len(acts) != len(set(acts)):
        problems.append(f"{where}: an action offered twice: {acts}")


def validate(msg: dict) -> list[str]:
    """Schema problems of one server message, per docs/protocol.md."""
    p: list[str] = []
    t = msg.get("type")
    if not isinstance(t, str):
        return [f"message without a string type: {msg!r}"]
    if t not in SCHEMA:
        return [f"undocumented message type {t!r}: {msg!r}"]
    keys(msg, SCHEMA[t], t, p)
    if t == "welcome" and msg.get("protocol") != 1:
        p.append(f"welcome protocol {msg.get('protocol')!r}")
    if t == "error":
        if msg.get("code") not in ERROR_CODES:
            p.append(f"undocumented error code {msg.get('code')!r}")
        if "ref" in msg and not isinstance(msg["ref"], str):
            p.append(f"error ref not a string: {msg['ref']!r}")
    if t in ("lobby", "match_start"):
        for i, s in enumerate(msg.get("seats") or []):
            keys(s, SEAT_ENTRY, f"{t}.seats[{i}]", p)
            if isinstance(s, dict) and s.get("kind") not in ("human", "computer"):
                p.append(f"{t}.seats[{i}].kind {s.get('kind')!r}")
        seats = [s.get("seat") for s in msg.get("seats") or [] if isinstance(s, dict)]
        if seats != sorted(seats):
            p.append(f"{t}.seats not in seat order: {seats}")
    if t == "match_start":
        keys(msg.get("stakes"), STAKES, "match_start.stakes", p)
    if t == "events":
        for i, ev in enumerate(msg.get("events") or []):
            if not isinstance(ev, dict) or not isinstance(ev.get("ev"), str):
                p.append(f"events[{i}] has no string 'ev': {ev!r}")
                continue
            if ev["ev"] in EVENT_KEYS:
                keys(ev, EVENT_KEYS[ev["ev"]], f"events[{i}]({ev['ev']})", p)
            if "card" in ev:
                cards([ev["card"]], f"events[{i}].card", p)
            for k in ("cards", "best", "up"):
                if isinstance(ev.get(k), list):
                    cards(ev[k], f"events[{i}].{k}", p)
    if t == "table":
        v = msg.get("view")
        if isinstance(v, dict):
            keys(v, VIEW, "table.view", p)
            legal_list(v.get("legal") or [], "table.view.legal", p)
            for i, pot in enumerate(v.get("pots") or []):
                keys(pot, {"amount": INT, "seats": (list,)}, f"table.view.pots[{i}]", p)
            for i, s in enumerate(v.get("seats") or []):
                keys(s, VIEW_SEAT, f"table.view.seats[{i}]", p)
                if isinstance(s, dict):
                    cards(s.get("up", []), f"table.view.seats[{i}].up", p)
                    if "hole" in s:
                        cards(s["hole"], f"table.view.seats[{i}].hole", p)
                        if len(s["hole"]) != s.get("down"):
                            p.append(
                                f"table.view.seats[{i}]: hole {s['hole']} but down {s.get('down')}"
                            )
                    if "shown" in s and isinstance(s["shown"], list):
                        cards(s["shown"], f"table.view.seats[{i}].shown", p)
        for i, s in enumerate(msg.get("players") or []):
            keys(s, SEAT_ENTRY, f"table.players[{i}]", p)
    if t == "turn":
        if not msg.get("legal"):
            p.append("turn with an empty legal list")
        legal_list(msg.get("legal") or [], "turn.legal", p)
    if t == "hand_end":
        for i, a in enumerate(msg.get("awards") or []):
            keys(a, AWARD, f"hand_end.awards[{i}]", p)
        for i, s in enumerate(msg.get("shows") or []):
            keys(s, SHOW, f"hand_end.shows[{i}]", p)
            if isinstance(s, dict):
                cards(s.get("cards", []), f"hand_end.shows[{i}].cards", p)
                cards(s.get("best", []), f"hand_end.shows[{i}].best", p)
                if len(s.get("best", [])) != 5:
                    p.append(f"hand_end.shows[{i}].best is not five cards")
        for i, s in enumerate(msg.get("stacks") or []):
            keys(s, STACK, f"hand_end.stacks[{i}]", p)
    if t == "standings":
        for i, s in enumerate(msg.get("standings") or []):
            keys(s, STANDING, f"standings[{i}]", p)
    return p


def all_cards(obj, skip=("name", "text", "message", "match", "history", "token", "hand", "reason")):
    """Every card code anywhere in a message (names and free text skipped)."""
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in skip and isinstance(v, str):
                continue
            out += all_cards(v, skip)
    elif isinstance(obj, list):
        for v in obj:
            out += all_cards(v, skip)
    elif isinstance(obj, str) and CARD.match(obj):
        out.append(obj)
    return out


class Privacy:
    """What one connection may know; flags another seat's hole card seen before its show."""

    def __init__(self, you):
        self.you = you
        self.hand = None
        self.visible: set[str] = set()
        self.problems: list[str] = []

    def _new_hand(self, hand):
        if hand != self.hand:
            self.hand = hand
            self.visible = set()

    def see(self, msg):
        t = msg.get("type")
        if t == "events":
            self._new_hand(msg["hand"])
            for ev in msg["events"]:
                kind = ev.get("ev")
                if kind == "deal":
                    if "card" in ev:
                        if ev.get("up") or ev.get("seat") == self.you:
                            self.visible.add(ev["card"])
                        else:
                            self.problems.append(
                                f"hand {msg['hand']}: face-down card of seat {ev['seat']} sent "
                                f"to {self.you}: {ev}"
                            )
                            self.visible.add(ev["card"])
                elif kind == "show":
                    self.visible.update(ev.get("cards", []))
                else:
                    self._check(ev, f"event {kind}")
        elif t == "table":
            self._new_hand(msg["hand"])
            for s in msg["view"]["seats"]:
                if "hole" in s and s["seat"] != self.you:
                    self.problems.append(
                        f"hand {msg['hand']}: table gives seat {s['seat']}'s hole to viewer "
                        f"{self.you}"
                    )
                if s["seat"] == self.you:
                    self.visible.update(s.get("hole", []))
                if "shown" in s and isinstance(s["shown"], list):
                    unseen = set(s["shown"]) - self.visible
                    if unseen:
                        self.problems.append(
                            f"hand {msg['hand']}: 'shown' for seat {s['seat']} before any show "
                            f"event: {unseen}"
                        )
                    self.visible.update(s["shown"])
            self._check(msg, "table")
        elif t == "hand_end":
            for s in msg["shows"]:
                self.visible.update(s.get("cards", []))
            self._check(msg, "hand_end")
        elif t in (
            "turn",
            "lobby",
            "match_start",
            "standings",
            "chat",
            "presence",
            "welcome",
            "pong",
            "bye",
        ):
            self._check(msg, t)

    def _check(self, obj, where):
        leaked = set(all_cards(obj)) - self.visible
        if leaked:
            self.problems.append(
                f"hand {self.hand}: {where} shows cards never dealt face up, to this seat, or "
                f"shown: {sorted(leaked)}"
            )


# --------------------------------------------------------------------------
# Server processes
# --------------------------------------------------------------------------


_LISTENING = re.compile(r"listening on port (\d+)")


def said_port(proc: subprocess.Popen, timeout: float = 20.0) -> int:
    """The port a ``stud-server --port 0`` says in its log that it listens on.

    Its own choice, so no other test (another xdist worker's) can take the port between a
    free one being picked here and the server binding it.  The rest of its log is drained.
    """
    told: queue.Queue[int | None] = queue.Queue()

    def read() -> None:
        port = None
        for line in proc.stderr:
            if port is None and (m := _LISTENING.search(line)):
                port = int(m.group(1))
                told.put(port)
        if port is None:
            told.put(None)

    threading.Thread(target=read, daemon=True).start()
    try:
        port = told.get(timeout=timeout)
    except queue.Empty:
        port = None
    if port is None:
        proc.kill()
        raise RuntimeError("stud-server did not say which port it listens on")
    return port


class Server:
    def __init__(self, *extra, computer=1, start_when=None, hands=4, seed=None):
        self.hist = tempfile.mkdtemp(prefix="contract-hh-")
        args = [
            str(SERVER),
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--computer",
            str(computer),
        ]
        args += [
            "--hands",
            str(hands),
            "--bot-delay",
            "0",
            "--hand-pause",
            "0",
            "--history-dir",
            self.hist,
        ]
        args += ["--log-level", "INFO"]  # for the port it says; nothing else is read
        if start_when is not None:
            args += ["--start-when", str(start_when)]
        if seed is not None:
            args += ["--seed", str(seed)]
        args += list(extra)
        self.proc = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        self.port = said_port(self.proc)
        wait_port(self.port)

    def client(self) -> ContractClient:
        return ContractClient(self.port)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def lobby_server():
    s = Server(computer=1)
    yield s
    s.stop()


def joined(srv: Server, name: str, **extra) -> ContractClient:
    c = srv.client()
    w = c.hello(name, **extra)
    assert w["type"] == "welcome", w
    assert c.recv()["type"] == "lobby"
    c.drain(0.1)
    return c


def refused(c: ContractClient, timeout=2.0):
    """The messages received until the server closes, or None if it does not close."""
    before = len(c.log)
    closed = c.closed_soon(timeout)
    return c.log[before:] if closed else None


def error_then(c: ContractClient, msg: dict, timeout=1.0) -> dict:
    c.send(msg)
    return c.recv_type("error", timeout)


def still_open(c: ContractClient) -> bool:
    c.send({"type": "ping", "id": 991})
    try:
        return (
            c.recv_until(lambda m: m.get("type") == "pong" and m.get("id") == 991, 1.0) is not None
        )
    except (Closed, TimeoutError, OSError):
        return False


# --------------------------------------------------------------------------
# 1 + 3: a whole match, played by two contract clients and a watcher
# --------------------------------------------------------------------------


class Player:
    def __init__(self, name, conn, welcome):
        self.name = name
        self.conn = conn
        self.welcome = welcome
        self.seat = welcome["seat"]
        self.token = welcome["token"]
        self.segments: list[list[dict]] = [[welcome]]  # one list per connection
        self.privacy = Privacy(self.seat)
        self.expected_errors: list[tuple[str, str | None]] = []
        self.errors: list[dict] = []
        self.done = False
        self.my_turns: list[int] = []
        self.probed = False

    @property
    def log(self):
        return self.segments[-1]


def play_match():
    rng = random.Random(20261129)
    srv = Server(computer=1, start_when=3, hands=4, seed=5)
    rec = {"problems": [], "reconnect": None}
    try:
        watcher_conn = srv.client()
        ww = watcher_conn.hello("Cy", watch=True)
        players = []
        for name in ("Ann", "Bob"):
            c = srv.client()
            players.append(Player(name, c, c.hello(name)))
        watcher = Player("Cy", watcher_conn, ww)
        everyone = [*players, watcher]
        ann, bob = players
        reconnect_done = False
        pending: list = []

        def act(p, msg):
            p.my_turns.append(msg["turn"])
            choices = [e["action"] for e in msg["legal"]]
            if len(choices) > 1 and "fold" in choices and rng.random() < 0.85:
                choices.remove("fold")  # reach showdowns now and then
            p.conn.send({"type": "act", "turn": msg["turn"], "action": rng.choice(choices)})

        deadline = time.monotonic() + 15
        while not all(p.done for p in everyone):
            assert time.monotonic() < deadline, "match did not finish in 15 s"
            live = [p for p in everyone if not p.done]
            by_conn = {id(p.conn): p for p in live}
            for conn, msg in poll([p.conn for p in live], 2.0):
                p = by_conn[id(conn)]
                p.log.append(msg)
                rec["problems"] += [f"{p.name}: {x}" for x in validate(msg)]
                p.privacy.see(msg)
                t = msg["type"]
                if t == "error":
                    p.errors.append(msg)
                if t == "lobby" and any(m["type"] == "standings" for m in p.log):
                    p.done = True
                if t != "turn":
                    continue
                if msg["seat"] != p.seat:
                    rec["problems"].append(
                        f"{p.name} (seat {p.seat}) got a turn for seat {msg['seat']}"
                    )
                    continue
                other = bob if p is ann else ann
                if not p.probed:
                    # errors that must change nothing (doc "Acting"); act only once all are answered
                    p.probed = True
                    offered = {e["action"] for e in msg["legal"]}
                    not_offered = sorted(ACTIONS - offered)[0]
                    stale = p.my_turns[-1] if p.my_turns else msg["turn"] - 1
                    p.conn.send({"type": "act", "turn": stale, "action": msg["legal"][0]["action"]})
                    p.expected_errors.append(("stale_turn", "act"))
                    p.conn.send({"type": "act", "turn": msg["turn"], "action": not_offered})
                    p.expected_errors.append(("illegal_action", "act"))
                    other.conn.send(
                        {"type": "act", "turn": msg["turn"], "action": msg["legal"][0]["action"]}
                    )
                    other.expected_errors.append(("not_your_turn", "act"))
                    watcher.conn.send(
                        {"type": "act", "turn": msg["turn"], "action": msg["legal"][0]["action"]}
                    )
                    watcher.expected_errors.append(("not_seated", "act"))
                    if p.welcome["host"]:
                        p.conn.send({"type": "start"})
                        p.expected_errors.append(("match_running", "start"))
                    p.conn.send({"type": "ping", "id": 1000 + p.seat})
                    pending.append((p, msg))
                    continue
                if p is bob and not reconnect_done and msg["turn"] > 4:
                    reconnect_done = True
                    rec["reconnect"] = reconnect(srv, bob, msg)
                    # continue on the new connection; its turn was re-sent
                    msg = rec["reconnect"]["turn"] or msg
                act(p, msg)
            if pending and all(len(q.errors) >= len(q.expected_errors) for q in everyone):
                act(*pending.pop())
        # the server shuts down: everyone gets a bye, then the close
        srv.stop()
        for p in everyone:
            try:
                rest = []
                while True:
                    rest.append(p.conn.recv(3.0))
            except (Closed, TimeoutError, OSError) as e:
                rec.setdefault("bye", {})[p.name] = (rest, type(e).__name__)
        rec["players"] = players
        rec["watcher"] = watcher
        rec["hist"] = srv.hist
        return rec
    finally:
        srv.stop()


def reconnect(srv: Server, p: Player, turn_msg: dict) -> dict:
    """Drop p mid-hand on its turn and come back with the token (doc: Drops and comebacks)."""
    tables = [m for m in p.log if m["type"] == "table"]
    hole_before = next(s for s in tables[-1]["view"]["seats"] if s["seat"] == p.seat).get("hole")
    p.conn.close()
    time.sleep(0.2)
    c = srv.client()
    c.send({"type": "hello", "protocol": 1, "name": "Robert", "token": p.token})
    p.conn = c
    p.segments.append([])
    p.privacy = Privacy(p.seat)
    got = []
    turn = None
    end = time.monotonic() + 3
    while time.monotonic() < end:
        m = c.recv(3)
        got.append(m)
        p.log.append(m)
        p.privacy.see(m)
        if m["type"] == "error":
            p.errors.append(m)
        if m["type"] == "turn":
            turn = m
            break
    return {"messages": got, "hole_before": hole_before, "turn_before": turn_msg, "turn": turn}


@pytest.fixture(scope="module")
def match():
    return play_match()


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
            assert x["winner"] == (x["stack"] == top), x
            assert x["net"] == x["stack"] - 600, x
        assert sorted(x["seat"] for x in s) == sorted(x["seat"] for x in ends[-1]["stacks"])
        assert {x["seat"]: x["stack"] for x in s} == {
            x["seat"]: x["stack"] for x in ends[-1]["stacks"]
        }
        assert (Path(match["hist"]) / st[0]["history"]).exists()


def test_match_no_hole_cards_leak_before_showdown(match):
    problems = []
    for p in [*match["players"], match["watcher"]]:
        problems += [f"{p.name}: {x}" for x in p.privacy.problems]
    assert problems == []
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


def _order_problems(p: Player) -> list[str]:
    out = []
    for si, seg in enumerate(p.segments):
        types = [m["type"] for m in seg]
        if types[:2] != ["welcome", "lobby"]:
            out.append(f"{p.name} conn {si}: starts {types[:2]}")
        seen_match = False
        last_step = None
        for i, m in enumerate(seg):
            t = m["type"]
            if t == "match_start":
                seen_match = True
            if t in ("events", "table", "turn", "hand_end") and not seen_match:
                out.append(f"{p.name} conn {si}: {t} before match_start")
            if t == "events":
                nxt = seg[i + 1] if i + 1 < len(seg) else None
                if (
                    not nxt
                    or nxt["type"] != "table"
                    or nxt["step"] != m["step"]
                    or nxt["hand"] != m["hand"]
                ):
                    out.append(
                        f"{p.name} conn {si}: events step {m['step']} not followed by its "
                        f"table: {nxt and nxt['type']}"
                    )
                if last_step is not None and m["step"] != last_step + 1:
                    out.append(f"{p.name} conn {si}: step went {last_step} -> {m['step']}")
                last_step = m["step"]
            if t == "turn":
                prev = seg[i - 1]
                if si > 0 and i < 8 and prev["type"] == "presence":
                    # the comeback's own presence: see test_match_reconnect_turn_right_after_table
                    prev = seg[i - 2]
                if prev["type"] != "table":
                    out.append(
                        f"{p.name} conn {si}: turn {m['turn']} after {prev['type']}, not its table"
                    )
                else:
                    v = prev["view"]
                    if v["to_act"] != m["seat"] or v["you"] != m["seat"]:
                        out.append(
                            f"{p.name}: turn for seat {m['seat']} but table to_act "
                            f"{v['to_act']} you {v['you']}"
                        )
                    if v["legal"] != m["legal"]:
                        out.append(f"{p.name}: table legal {v['legal']} != turn legal {m['legal']}")
            if t == "table":
                v = m["view"]
                if v["legal"] and v["to_act"] != v["you"]:
                    out.append(f"{p.name}: legal buttons when not to act: {v}")
            if t == "hand_end":
                prev = [x for x in seg[:i] if x["type"] == "table"]
                if not prev or not prev[-1]["view"]["over"] or prev[-1]["hand"] != m["hand"]:
                    out.append(f"{p.name}: hand_end {m['hand']} not after its last table")
            if t == "standings":
                nxt = seg[i + 1] if i + 1 < len(seg) else None
                if not nxt or nxt["type"] != "lobby" or nxt["running"] is not False:
                    out.append(f"{p.name}: standings not followed by lobby(running false): {nxt}")
                elif p.welcome["host"] and nxt["can_start"] is not True:
                    out.append(
                        f"{p.name}: host may start again but can_start is {nxt['can_start']}"
                    )
    return out


def test_match_message_order(match):
    problems = []
    for p in [*match["players"], match["watcher"]]:
        problems += _order_problems(p)
    assert problems == []


def test_match_broadcasts_reach_everyone(match):
    """Everyone gets every match_start, hand_end, standings and presence."""

    def of(p, t):
        return [m for m in p.segments[0] if m["type"] == t]

    ann, bob = match["players"]
    w = match["watcher"]
    for t in ("match_start",):
        assert of(ann, t) == of(bob, t) == of(w, t)

    def full(p, t):
        return [m for seg in p.segments for m in seg if m["type"] == t]

    for t in ("hand_end", "standings"):
        assert full(ann, t) == full(w, t)
        assert full(bob, t) == full(w, t)
    # the drop and the comeback of Bob are announced to Ann and the watcher
    for p in (ann, w):
        pres = [
            (m["seat"], m["connected"], m["grace"])
            for m in p.segments[0]
            if m["type"] == "presence"
        ]
        assert pres[:2] == [(bob.seat, False, pres[0][2]), (bob.seat, True, None)], pres
        assert isinstance(pres[0][2], (int, float)) and pres[0][2] > 0


def test_match_step_and_turn_ids_grow(match):
    ann = match["players"][0]
    steps = [m["step"] for m in ann.segments[0] if m["type"] == "table"]
    assert steps == sorted(steps) and len(set(steps)) == len(steps)
    turns = [
        m["turn"]
        for p in match["players"]
        for seg in p.segments
        for m in seg
        if m["type"] == "turn"
    ]
    per_hand_first = {}
    for m in ann.segments[0]:
        if m["type"] == "table" and m["view"]["turn"] is not None:
            per_hand_first.setdefault(m["hand"], m["view"]["turn"])
    assert sorted(set(turns)) == sorted(set(turns))
    assert list(per_hand_first.values()) == sorted(per_hand_first.values())


def test_match_table_turn_is_the_turn_message_id(match):
    """Doc `table`: the view's `turn` is 'the same id as in the `turn` message'."""
    for p in match["players"]:
        for seg in p.segments:
            tables = [m for m in seg if m["type"] in ("table", "turn")]
            for i, m in enumerate(tables):
                if m["type"] == "turn":
                    assert tables[i - 1]["view"]["turn"] == m["turn"]


def test_match_refused_acts_get_documented_errors_and_change_nothing(match):
    for p in [*match["players"], match["watcher"]]:
        got = [(e["code"], e.get("ref")) for e in p.errors]
        assert got == p.expected_errors, p.name
    # a ping during the match is answered
    for p in match["players"]:
        assert any(
            m["type"] == "pong" and m["id"] == 1000 + p.seat for seg in p.segments for m in seg
        )


def test_match_reconnect_with_token_resyncs(match):
    r = match["reconnect"]
    assert r is not None, "Bob never got a turn to drop on"
    bob = match["players"][1]
    msgs = r["messages"]
    types = [m["type"] for m in msgs]
    w = msgs[0]
    assert w["type"] == "welcome" and w["seat"] == bob.seat and w["token"] == bob.token
    assert w["name"] == "Bob"  # the seat keeps its name
    # Joining during a match: welcome, lobby, match_start, one events (hand so far), table, turn
    # (presence may come anywhere: "everyone gets every presence")
    types = [t for t in types if t != "presence"]
    msgs = [m for m in msgs if m["type"] != "presence"]
    assert types == ["welcome", "lobby", "match_start", "events", "table", "turn"], types
    ev = msgs[3]
    tb = msgs[4]
    hand = r["turn_before"]
    assert ev["step"] == tb["step"]
    mine = [
        e["card"]
        for e in ev["events"]
        if e["ev"] == "deal" and e["seat"] == bob.seat and not e["up"]
    ]
    hole = next(s for s in tb["view"]["seats"] if s["seat"] == bob.seat)["hole"]
    assert hole == r["hole_before"] == mine
    assert msgs[5]["turn"] == hand["turn"] and msgs[5]["legal"] == hand["legal"]
    assert tb["view"]["legal"] == hand["legal"] and tb["view"]["you"] == bob.seat


def test_match_reconnect_turn_right_after_table(match):
    types = [m["type"] for m in match["reconnect"]["messages"]]
    assert types[:6] == ["welcome", "lobby", "match_start", "events", "table", "turn"], types


def test_match_bye_on_shutdown(match):
    for name, (rest, end) in match["bye"].items():
        # seats freed by the shutdown may be announced first; the last word is the bye
        assert [m["type"] for m in rest][-1:] == ["bye"], (name, rest)
        assert {m["type"] for m in rest[:-1]} <= {"lobby", "presence"}, (name, rest)
        assert end == "Closed", name


# --------------------------------------------------------------------------
# 2: every client message and error code, in the lobby
# --------------------------------------------------------------------------


def test_hello_welcome_then_lobby(lobby_server):
    c = lobby_server.client()
    w = c.hello("Ann")
    assert validate(w) == []
    assert (
        w["type"] == "welcome"
        and w["seat"] is not None
        and w["host"] is True
        and w["watch"] is False
    )
    assert w["name"] == "Ann" and w["hands"] == 4 and w["token"]
    lob = c.recv()
    assert lob["type"] == "lobby" and validate(lob) == []
    assert lob["host"] == w["seat"] and lob["running"] is False and lob["start_when"] is None
    # Protocol 2 adds keys to a seat entry (away, away_why, stand_in); these five stay.
    assert {
        "seat": w["seat"],
        "name": "Ann",
        "kind": "human",
        "connected": True,
        "host": True,
    } in [{k: s[k] for k in SEAT_ENTRY} for s in lob["seats"]]


def test_hello_name_trimmed_and_cut(lobby_server):
    c = lobby_server.client()
    assert c.hello("  Zed  ")["name"] == "Zed"
    d = lobby_server.client()
    assert d.hello("N" * 30)["name"] == "N" * 20


def test_hello_watch_is_a_spectator(lobby_server):
    a = joined(lobby_server, "Ann")
    c = lobby_server.client()
    w = c.hello("Cy", watch=True)
    assert validate(w) == []
    assert w["seat"] is None and w["watch"] is True and w["host"] is False
    lob = c.recv()
    assert lob["type"] == "lobby" and all(s["name"] != "Cy" for s in lob["seats"])
    a.close()


@pytest.mark.parametrize("name", ["", "   ", "A\x07b"])
def test_bad_name_keeps_connection(lobby_server, name):
    c = lobby_server.client()
    e = c.hello(name)
    assert e["type"] == "error" and e["code"] == "bad_name" and validate(e) == []
    # bad_name does not close (error table): a good hello still works
    assert c.hello("Ann")["type"] == "welcome"


def test_protocol_version(lobby_server):
    c = lobby_server.client()
    e = c.hello("Ann", **{"protocol": 99})  # hello() puts protocol 1 first; the extra wins
    assert e["type"] == "error" and e["code"] == "protocol_version" and validate(e) == []
    assert refused(c) == []


def test_bad_token(lobby_server):
    c = lobby_server.client()
    e = c.hello("Ann", token="not-a-token")
    assert e["code"] == "bad_token" and refused(c) == []


def test_password():
    srv = Server("--password", "swordfish", "--plain", "allow", computer=1)  # a plain client
    try:
        for extra in ({}, {"password": "wrong"}):
            c = srv.client()
            e = c.hello("Ann", **extra)
            assert e["type"] == "error" and e["code"] == "bad_password" and validate(e) == []
            assert refused(c) == []
        c = srv.client()
        assert c.hello("Ann", password="swordfish")["type"] == "welcome"
        w = srv.client()
        assert w.hello("Cy", watch=True, password="swordfish")["type"] == "welcome"
    finally:
        srv.stop()


def test_no_hello_first(lobby_server):
    c = lobby_server.client()
    c.send({"type": "ping", "id": 1})
    e = c.recv()
    assert e["code"] == "no_hello" and refused(c) == []


def test_typeless_first_message_is_no_hello(lobby_server):
    c = lobby_server.client()
    c.send({"protocol": 1, "name": "Ann"})
    e = c.recv()
    assert e["code"] == "no_hello"
    assert refused(c) == []


def test_a_password_table_takes_no_plain_hello_by_default():
    """Plain connections off: a table with a password takes only sealed connections
    unless its host allows plain ones; the plain hello is refused with words that say
    why, whatever its password, and closed."""
    srv = Server("--password", "swordfish", computer=1)
    try:
        for extra in ({"password": "swordfish"}, {}):
            c = srv.client()
            e = c.hello("Ann", **extra)
            assert (e["type"], e.get("code"), e.get("ref")) == ("error", "tls_required", "hello"), e
            assert validate(e) == [] and "password" in e["message"] and "TLS" in e["message"]
            assert refused(c) == []
    finally:
        srv.stop()


def test_error_ref_on_refused_handshake():
    srv = Server("--password", "pw", "--plain", "allow", computer=1)  # plain clients
    try:
        refs = {}
        for label, msg in [
            ("protocol_version", {"type": "hello", "protocol": 99, "name": "A", "password": "pw"}),
            (
                "bad_token",
                {"type": "hello", "protocol": 1, "name": "A", "token": "x", "password": "pw"},
            ),
            ("bad_password", {"type": "hello", "protocol": 1, "name": "A"}),
            ("no_hello", {"type": "ping", "id": 3}),
        ]:
            c = srv.client()
            c.send(msg)
            e = c.recv()
            assert e["code"] == label
            refs[label] = e.get("ref")
        assert refs == {
            "protocol_version": "hello",
            "bad_token": "hello",
            "bad_password": "hello",
            "no_hello": "ping",
        }
    finally:
        srv.stop()


def test_missing_and_unknown_type_after_hello(lobby_server):
    c = joined(lobby_server, "Ann")
    e = error_then(c, {"id": 1})
    assert e["code"] == "bad_message" and "ref" not in e
    e = error_then(c, {"type": "dance", "id": 1})
    assert e["code"] == "unknown_type" and e.get("ref") == "dance"
    e = error_then(c, {"type": "hello", "protocol": 1, "name": "Again"})
    assert e["code"] == "already_hello" and e.get("ref") == "hello"
    assert still_open(c)


def test_ping_pong_and_unknown_keys_ignored(lobby_server):
    c = joined(lobby_server, "Ann")
    c.send({"type": "ping", "id": 42, "whatever": [1, 2]})
    assert c.recv_type("pong") == {"type": "pong", "id": 42}
    c.send({"type": "ping", "id": -7})
    assert c.recv_type("pong")["id"] == -7
    e = error_then(c, {"type": "ping", "id": "42"})
    assert e["code"] == "bad_message" and e.get("ref") == "ping"


def test_ping_without_id_is_answered_with_id_0(lobby_server):
    c = joined(lobby_server, "Ann")
    c.send({"type": "ping"})
    m = c.recv()
    assert m == {"type": "pong", "id": 0}


def test_chat_relay_limits_and_rate(lobby_server):
    a = joined(lobby_server, "Ann")
    b = joined(lobby_server, "Bob")
    w = joined(lobby_server, "Cy", watch=True)
    a.drain(0.1)
    a.send({"type": "chat", "text": "nice river"})
    for c in (a, b, w):
        m = c.recv_type("chat")
        assert m == {"type": "chat", "seat": 0, "name": "Ann", "text": "nice river"}
    w.send({"type": "chat", "text": "**bold** /start"})
    for c in (a, b, w):
        m = c.recv_type("chat")
        assert m["seat"] is None and m["name"] == "Cy" and m["text"] == "**bold** /start"
    e = error_then(b, {"type": "chat", "text": "x" * 201})
    assert e["code"] == "too_long" and e.get("ref") == "chat"
    b.send({"type": "chat", "text": "y" * 200})
    assert b.recv_type("chat")["text"] == "y" * 200
    e = error_then(b, {"type": "chat"})
    assert e["code"] == "bad_message"
    # bursts of five, then about one a second (w has said one line already)
    w.drain(0.1)
    for i in range(8):
        w.send({"type": "chat", "text": f"line {i}"})
    got = [m for m in w.drain(0.4) if m["type"] in ("chat", "error")]
    codes = [m.get("code") for m in got if m["type"] == "error"]
    assert "chat_rate" in codes
    assert [m["text"] for m in got if m["type"] == "chat"][:4] == [
        "line 0",
        "line 1",
        "line 2",
        "line 3",
    ]
    assert still_open(w)


def test_start_errors_and_start_with_hands(lobby_server):
    a = joined(lobby_server, "Ann")
    b = joined(lobby_server, "Bob")
    w = joined(lobby_server, "Cy", watch=True)
    e = error_then(b, {"type": "start"})
    assert e["code"] == "not_host" and e.get("ref") == "start"
    e = error_then(w, {"type": "start"})
    assert e["code"] == "not_host"
    e = error_then(a, {"type": "start", "hands": 5})
    assert e["code"] == "bad_message" and e.get("ref") == "start"
    a.drain(0.1)
    a.send({"type": "start", "hands": 8})
    ms = a.recv_type("match_start")
    assert ms["hands"] == 8 and validate(ms) == []
    # a seat asked for during a match: it sits in at the next one, watching meanwhile
    c = lobby_server.client()
    e = c.hello("Late")
    assert e["type"] == "welcome" and e["seat"] is not None
    types = [c.recv()["type"] for _ in range(4)]
    assert types == ["lobby", "match_start", "events", "table"]
    # watching during a match: welcome, lobby, match_start, events, table
    v = lobby_server.client()
    assert v.hello("Viewer", watch=True)["seat"] is None
    types = [v.recv()["type"] for _ in range(4)]
    assert types == ["lobby", "match_start", "events", "table"]


def test_not_enough_seats():
    srv = Server(computer=0)
    try:
        a = joined(srv, "Ann")
        e = error_then(a, {"type": "start"})
        assert e["code"] == "not_enough_seats" and e.get("ref") == "start"
        assert still_open(a)
    finally:
        srv.stop()


def test_leave_and_drop_before_match_free_the_seat(lobby_server):
    a = joined(lobby_server, "Ann")
    b = joined(lobby_server, "Bob")
    a.drain(0.1)
    b.send({"type": "leave"})
    assert refused(b) is not None  # the server closes the connection
    lob = a.recv_type("lobby")
    assert all(s["name"] != "Bob" for s in lob["seats"])
    c = lobby_server.client()
    e = c.hello("Bob", token=b.log[0]["token"])
    assert e["code"] == "bad_token"
    d = joined(lobby_server, "Dee")
    tok = d.log[0]["token"]
    a.drain(0.1)
    d.close()
    lob = a.recv_type("lobby")
    assert all(s["name"] != "Dee" for s in lob["seats"])
    c = lobby_server.client()
    assert c.hello("Dee", token=tok)["code"] == "bad_token"


def test_table_full():
    srv = Server(computer=5)
    try:
        keep = [joined(srv, "Ann"), joined(srv, "Bob")]
        c = srv.client()
        e = c.hello("Cat")
        assert e["code"] == "table_full" and refused(c) == []
        w = srv.client()
        assert w.hello("Cy", watch=True)["type"] == "welcome"
        assert len(keep) == 2
    finally:
        srv.stop()


def test_server_busy():
    srv = Server("--max-connections", "2", computer=1)
    try:
        keep = [joined(srv, "Ann"), joined(srv, "Bob")]
        c = srv.client()
        with contextlib.suppress(OSError):
            c.send({"type": "hello", "protocol": 1, "name": "Cat"})
        e = c.recv()
        assert e["type"] == "error" and e["code"] == "server_busy"
        assert refused(c) == []
        assert len(keep) == 2
    finally:
        srv.stop()


def test_taken_over_and_leave_during_match():
    srv = Server(computer=1)
    try:
        a = joined(srv, "Ann")
        a.send({"type": "start"})
        a.recv_type("match_start")
        b = srv.client()
        w = b.hello("Whoever", token=a.log[0]["token"])
        assert w["type"] == "welcome" and w["seat"] == a.log[0]["seat"] and w["name"] == "Ann"
        e = a.recv_type("error")
        assert e["code"] == "taken_over"
        assert refused(a) is not None
        # the new connection gets the match so far
        b.recv_type("table")
        # leave during a match: the seat stays, the connection closes, the token still works
        b.drain(0.1)
        b.send({"type": "leave"})
        assert refused(b) is not None
        c = srv.client()
        assert c.hello("Ann", token=a.log[0]["token"])["type"] == "welcome"
    finally:
        srv.stop()


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


def test_frame_of_exactly_64k_is_accepted_and_one_more_byte_is_refused(lobby_server):
    c = joined(lobby_server, "Ann")
    c.send_raw(_frame_of(65536))
    assert c.recv_type("pong")["id"] == 7
    c.send_raw(_frame_of(65537))
    e = c.recv_type("error")
    assert e["code"] == "frame_too_large" and refused(c) == []


def test_oversized_length_prefix_alone(lobby_server):
    c = lobby_server.client()
    c.send_raw(struct.pack(">I", 10_000_000))
    e = c.recv()
    assert e["code"] == "frame_too_large" and refused(c) == []


@pytest.mark.parametrize(
    "raw",
    [
        b"\x00\x00\x00\x03\xc1\xc1\xc1",  # not msgpack
        encode([1, 2]),  # not a map  (encode packs any object)
        struct.pack(">I", 3) + msgpack.packb({1: 2}),  # non-string key
        struct.pack(">I", 1) + msgpack.packb(5),
    ],
    ids=["garbage", "array", "int-key", "int"],
)
def test_bad_frames_close_only_that_connection(lobby_server, raw):
    other = joined(lobby_server, "Ann")
    c = joined(lobby_server, "Bob")
    c.send_raw(raw)
    e = c.recv_type("error")
    assert e["code"] == "bad_frame" and refused(c) == []
    assert still_open(other)


@pytest.fixture(scope="module", autouse=True)
def slow_clocks():
    """The 5 s clocks (handshake, a frame cut short) run while the other tests run."""
    srv = Server(computer=1)
    results: dict = {}
    silent = srv.client()
    cut = joined(srv, "Ann")
    cut.send_raw(struct.pack(">I", 50) + b"\x81")
    early = srv.client()  # a frame cut short before any hello
    early.send_raw(struct.pack(">I", 50) + b"\x81")
    t0 = time.monotonic()

    def wait(name, c):
        try:
            m = c.recv_type("error", 13)
        except (Closed, TimeoutError) as e:
            m = {"code": repr(e)}
        results[name] = (m, time.monotonic() - t0, c.closed_soon(1))

    threads = [
        threading.Thread(target=wait, args=a, daemon=True)
        for a in (("silent", silent), ("cut", cut), ("early", early))
    ]
    for t in threads:
        t.start()
    yield threads, results
    srv.stop()


def test_handshake_timeout_and_cut_short_frame(slow_clocks):
    """Kept last in the file: by now most of the 10 s have passed."""
    threads, results = slow_clocks
    for t in threads:
        t.join(15)
    m, dt, closed = results["silent"]
    assert m["code"] == "handshake_timeout" and 4 < dt < 7.5 and closed, results
    m, dt, closed = results["cut"]
    assert m["code"] == "bad_frame" and 4 < dt < 7.5 and closed, results


def test_cut_short_frame_before_hello_meets_the_handshake_timeout(slow_clocks):
    # Framing: before the hello, the handshake timer is the one that runs out.
    threads, results = slow_clocks
    for t in threads:
        t.join(15)
    m, dt, closed = results["early"]
    assert m["code"] == "handshake_timeout" and closed, results


if os.environ.get("CONTRACT_DEBUG"):  # pragma: no cover
    print(play_match())
