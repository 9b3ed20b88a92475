"""The game reconnects by itself to a lost or restarted table (issue 16, item 4), and takes
its seat back from the token kept on disk by every way of joining (item 1; R-C1).

The countdown runs off an injected clock; the connection's thread is driven by hand-made
servers on 127.0.0.1; the Stop trying button is clicked through the app's event path.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from client.net import BUSY, Connection, Status
from client.scenes import reconnect
from client.seatkeys import SeatKey, SeatKeys
from common.protocol import FrameDecoder
from tests.clientkit import FakeTable, click, feed, key, polled, run, statuses

pytestmark = pytest.mark.timeout(60)

ROOT = Path(__file__).resolve().parent.parent

# ------------------------------------------------------------------ the banner's words


def test_the_countdown_and_its_words_follow_the_clock() -> None:
    st = Status("retrying", "connection lost", 3, until=200.0)
    assert reconnect.words(st, 92.6) == "Lost the table — trying again… 1:48"
    assert reconnect.countdown(st, 199.5) == "0:01"
    assert reconnect.countdown(st, 250.0) == "0:00"
    silent = Status("retrying", "no word from the server for 15 s", 1, until=130.0)
    assert reconnect.words(silent, 10.0) == "The table went silent — trying again… 2:00"
    bye = Status("retrying", "the server is shutting down", 1, until=130.0)
    assert reconnect.words(bye, 70.0) == "The server is shutting down — trying again… 1:00"
    assert reconnect.wake_in(st, 92.6) == pytest.approx(0.41)
    assert reconnect.wake_in(Status("connected"), 0.0) is None
    assert not reconnect.shown(Status("connected")) and reconnect.shown(st)


# ------------------------------------------------------------------ hand-made servers


def scripted(script: Callable[[int, dict[str, Any]], list[dict] | None], **kw: Any) -> FakeTable:
    """A table that answers each connection's hello by ``script(n, hello)``: the frames to
    send, then it hangs up (``None``: it keeps the link open, saying nothing)."""
    return FakeTable(lambda n, msg: script(n, msg) if msg["type"] == "hello" else None, **kw)


WELCOME = {"type": "welcome", "seat": 1, "token": "tok", "name": "Bob", "protocol": 2}
MATCH = {"type": "match_start", "match": "m-1", "hands": 4, "seats": []}
LOBBY_IDLE = {"type": "lobby", "running": False, "seats": []}


def states(conn: Connection, until: Callable[[list[Status]], bool], timeout=15.0) -> list:
    """The connection's statuses until ``until(statuses so far)``."""
    return statuses(polled(conn, lambda seen: until(statuses(seen)), timeout))


def test_it_keeps_trying_until_the_clock_says_two_minutes_then_gives_up() -> None:
    server = scripted(lambda n, hello: [WELCOME], once=True)  # welcomes once, then is gone
    clock = [1000.0]

    def now() -> float:
        clock[0] += 7.0  # every look at the clock is 7 s later: no sleeping
        return clock[0]

    conn = Connection(
        "127.0.0.1", server.port, lambda: {"type": "hello", "name": "Bob"},
        retry_every=0.0, clock=now,
    )  # fmt: skip
    conn.start()
    try:
        seen = states(conn, lambda s: any(x.state in ("gone", "failed") for x in s))
    finally:
        conn.close()
        server.close()
    assert conn.retry_for == 120.0  # at least two minutes
    retrying = [s for s in seen if s.state == "retrying"]
    assert Status("gone", "the table is gone: no answer from the server") in seen, seen
    assert seen[-1].state == "closed"
    # One outage: every try says the same end, the first reason, and counts up.
    (until,) = {s.until for s in retrying}
    assert until is not None and all(s.message == "connection lost" for s in retrying)
    attempts = [s.attempt for s in retrying]
    assert attempts == sorted(attempts) and attempts[-1] > 3
    assert clock[0] - (until - 120.0) > 120.0  # it gave up only past the two minutes
    assert reconnect.countdown(retrying[0], until - 107) == "1:47"


def test_a_welcome_starts_the_countdown_again() -> None:
    server = scripted(lambda n, hello: [WELCOME])
    clock = [0.0]

    def now() -> float:
        clock[0] += 1.0
        return clock[0]

    conn = Connection(
        "127.0.0.1", server.port, lambda: {"type": "hello"}, retry_every=0.0, clock=now
    )
    conn.start()
    try:
        seen = states(conn, lambda s: len({x.until for x in s if x.until}) >= 3)
    finally:
        conn.close()
        server.close()
    ups = [s.until for s in seen if s.state == "retrying" and s.until]
    assert len(set(ups)) >= 3 and ups == sorted(ups)  # every comeback: two minutes again


def test_a_bye_in_the_middle_of_a_match_is_retried_with_its_reason() -> None:
    bye = {"type": "bye", "reason": "the server is shutting down"}
    server = scripted(lambda n, hello: [WELCOME, MATCH, bye] if n == 0 else [WELCOME])
    conn = Connection("127.0.0.1", server.port, lambda: {"type": "hello"}, retry_every=0.05)
    conn.start()
    try:
        seen = states(conn, lambda s: len(server.hellos) >= 2 and len(s) >= 3)
    finally:
        conn.close()
        server.close()
    retry = next(s for s in seen if s.state == "retrying")
    assert retry.message == "the server is shutting down" and retry.until is not None
    assert reconnect.words(retry, retry.until - 90).startswith("The server is shutting down")
    assert len(server.hellos) >= 2


@pytest.mark.parametrize(
    "frames, why",
    [
        ([WELCOME, MATCH, {"type": "standings"}, LOBBY_IDLE, {"type": "bye", "reason": "night"}],
         "night"),
        ([WELCOME, {"type": "error", "code": "taken_over", "message": "another window"}],
         "another window"),
    ],
)  # fmt: skip
def test_a_bye_between_matches_or_a_seat_taken_over_ends_it(frames, why) -> None:
    server = scripted(lambda n, hello: frames)
    conn = Connection("127.0.0.1", server.port, lambda: {"type": "hello"}, retry_every=0.05)
    conn.start()
    try:
        seen = states(conn, lambda s: any(x.state == "gone" for x in s))
    finally:
        conn.close()
        server.close()
    gone = next(s for s in seen if s.state == "gone")
    assert gone.message == why and len(server.hellos) == 1


def test_our_own_server_saying_bye_mid_match_ends_it() -> None:
    server = scripted(lambda n, hello: [WELCOME, MATCH, {"type": "bye", "reason": "x"}])
    conn = Connection(
        "127.0.0.1", server.port, lambda: {"type": "hello"}, retry_every=0.05,
        resume_after_bye=False,
    )  # fmt: skip
    conn.start()
    try:
        seen = states(conn, lambda s: any(x.state == "gone" for x in s))
    finally:
        conn.close()
        server.close()
    assert any(s.state == "gone" for s in seen) and len(server.hellos) == 1


def test_a_stale_token_is_reported_and_the_hello_goes_on_without_it() -> None:
    def script(n: int, hello: dict) -> list[dict] | None:
        if "token" in hello:
            return [{"type": "error", "code": "bad_token", "message": "no seat has that token"}]
        return None  # the newcomer is welcomed... by silence, which is enough here

    server = scripted(script)
    stale: list[str] = []
    conn = Connection(
        "127.0.0.1", server.port, lambda: {"type": "hello", "name": "Bob", "token": "old"},
        on_stale=stale.append,
    )  # fmt: skip
    conn.start()
    try:
        end = time.monotonic() + 10
        while time.monotonic() < end and len(server.hellos) < 2:
            time.sleep(0.01)
    finally:
        conn.close()
        server.close()
    assert stale == ["old"]
    assert "token" in server.hellos[0] and "token" not in server.hellos[1]
    assert conn.peer == "127.0.0.1"


def test_a_silent_link_is_noticed_by_pings_and_retried() -> None:
    welcome = {"type": "welcome", "seat": 0, "token": "t", "protocol": 1}
    table = FakeTable(  # welcomes, then reads everything and never answers: a link gone quiet
        lambda n, msg: [welcome] if msg["type"] == "hello" else None, hang_up=lambda f: False
    )
    hello = {"type": "hello", "protocol": 1, "name": "Ann"}
    conn = Connection(
        "127.0.0.1", table.port, lambda: dict(hello), retry_for=5, ping_every=0.05,
        silence_limit=0.3,
    )  # fmt: skip
    conn.start()
    try:
        seen = polled(conn, lambda s: "retrying" in [x.state for x in statuses(s)][1:], 10)
    finally:
        conn.close()
        table.close()
    assert "retrying" in [x.state for x in statuses(seen)][1:], seen
    assert any(m["type"] == "ping" for m in table.msgs), "it pinged while waiting"


BUSY_ERROR = {"type": "error", "code": "server_busy", "message": "too many connections waiting"}


class _Waits(threading.Event):
    """A connection's ``_closed`` that notes how long each wait between tries was."""

    def __init__(self) -> None:
        super().__init__()
        self.waits: list[float] = []

    def wait(self, timeout: float | None = None) -> bool:
        self.waits.append(timeout or 0.0)
        return super().wait(timeout)


def test_R_C1_a_busy_table_is_asked_again_while_the_seat_is_kept() -> None:
    """The link is lost mid-match; the table, crowded, answers the comeback's hello
    ``server_busy`` (inside TLS) three times: the link waits 1, 2, 4 ``retry_every``,
    saying "The table is busy", and is seated again at the fourth."""

    def script(n: int, hello: dict) -> list[dict]:
        if n == 0:
            return [WELCOME, MATCH]  # then the link is lost
        return [BUSY_ERROR] if n <= 3 else [WELCOME]

    server = scripted(script)
    hello = {"type": "hello", "protocol": 2, "name": "Bob", "token": "tok"}
    conn = Connection("127.0.0.1", server.port, lambda: dict(hello), retry_every=0.01)
    conn._closed = waits = _Waits()
    conn.start()
    try:
        seen = states(conn, lambda s: len(server.hellos) >= 5 or any(
            x.state in ("failed", "gone") for x in s))  # fmt: skip
    finally:
        conn.close()
        server.close()
    assert not [s for s in seen if s.state in ("failed", "gone")], seen
    assert len(server.hellos) == 5 and all(h.get("token") == "tok" for h in server.hellos)
    busy = [s for s in seen if s.state == "retrying" and s.message == BUSY]
    assert busy and busy[0].until is not None
    assert [s.attempt for s in busy] == sorted(s.attempt for s in busy)
    # After the loss (0.2 s, as always): 1, 2, 4 (then 8, 8 …) times retry_every.
    assert waits.waits[:4] == [0.2, 0.01, 0.02, 0.04]
    assert reconnect.words(busy[0], busy[0].until - 100) == (
        "The table is busy — trying again… 1:40"
    )


def test_R_C1_a_game_started_again_is_not_turned_away_by_a_busy_table() -> None:
    """A game started again joins with the seat's token from disk; the table, crowded,
    refuses its first connections in the clear before TLS (``server_busy``): it asks
    again until it is seated.  A newcomer's join (no token) told the same ends there."""
    server = scripted(lambda n, hello: [WELCOME], refuse=lambda n: [BUSY_ERROR] if n < 2 else None)
    comeback = {"type": "hello", "protocol": 2, "name": "Bob", "token": "tok"}
    conn = Connection("127.0.0.1", server.port, lambda: dict(comeback), retry_every=0.01)
    conn.start()
    try:
        seen = states(conn, lambda s: bool(server.hellos) or any(
            x.state in ("failed", "gone") for x in s))  # fmt: skip
    finally:
        conn.close()
        server.close()
    assert not [s for s in seen if s.state in ("failed", "gone")], seen
    assert server.connections == 3 and server.hellos[0]["token"] == "tok"
    assert [s.message for s in seen if s.state == "retrying"][:2] == [BUSY, BUSY]
    newcomer = scripted(lambda n, hello: [WELCOME], refuse=lambda n: [BUSY_ERROR])
    conn = Connection("127.0.0.1", newcomer.port, lambda: {"type": "hello", "name": "Cy"})
    conn.start()
    try:
        seen = states(conn, lambda s: any(x.state in ("failed", "gone") for x in s))
    finally:
        conn.close()
        newcomer.close()
    failed = next(s for s in seen if s.state == "failed")
    assert "too many connections waiting" in failed.message and newcomer.connections == 1


# ------------------------------------------------------------------ the app


def _lost(app: Any) -> None:
    """Hold the app as if its connection's thread were retrying, two minutes to go."""
    app.link.status = Status("retrying", "connection lost", 2, until=app.now() + 118)


@pytest.mark.parametrize("where", ["table", "lobby"])
def test_stop_trying_is_a_real_click_on_the_banner(make_client, where) -> None:
    from client.model import Session
    from scripts.screenshot import lobby_messages
    from tests import demo

    app = make_client("Ann")
    app.link.session = Session("Ann")
    feed(app, demo.mid_hand() if where == "table" else lobby_messages())
    server = scripted(lambda n, hello: None)  # a link that the click must close
    app.link.conn = Connection("127.0.0.1", server.port, lambda: {"type": "hello"})
    try:
        app.step(max_wait=0.0)
        _lost(app)
        app.step(max_wait=0.0)
        scene = app.top()
        assert scene.name == where
        button = scene.lost.stop.rect
        assert button.w > 40 and pygame.Rect((0, 0), app.window_size).contains(button)
        sent = scene.bar.sent_turn if where == "table" else None
        under = scene.buttons()[0].rect.center if where == "table" else scene.lost.box.center
        assert where == "lobby" or scene.lost.box.collidepoint(under)  # Fold, under the banner
        assert not button.collidepoint(under)
        click(app, under)
        assert app.top().name == where  # nothing happens, and nothing under it is pressed
        assert where == "lobby" or scene.bar.sent_turn == sent
        click(app, button)
    finally:
        server.close()
    assert app.top().name == "start" and app.session is None
    assert "Stopped trying" in app.notice and app.link.conn is None


def test_escape_stops_trying_too(make_client) -> None:
    from client.model import Session
    from tests import demo

    app = make_client("Ann")
    app.link.session = Session("Ann")
    feed(app, demo.mid_hand())
    app.step(max_wait=0.0)
    key(app, pygame.K_ESCAPE)
    assert app.top().name == "table"  # Esc means nothing while the link is up
    _lost(app)
    key(app, pygame.K_ESCAPE)
    assert app.top().name == "start"


def _shown(make_client: Any, size: tuple[int, int], messages: list[dict[str, Any]]) -> Any:
    """A game of Ann's at ``size`` that has been sent ``messages``, drawn once: its scene."""
    from client.model import Session

    app = make_client("Ann", size=size)
    app.link.session = Session("Ann")
    feed(app, messages)
    app.step(max_wait=0.0)
    return app.top()


@pytest.mark.parametrize("size", [(1280, 800), (800, 500)])
def test_the_banner_covers_no_seat_and_no_pot(make_client, size) -> None:
    from tests import demo

    scene = _shown(make_client, size, demo.mid_hand())
    lay = scene.lay
    box = scene.lost.box
    assert box.collidelist([lay.seat_box(n) for n in lay.spots]) < 0
    assert not box.colliderect(lay.chip_box(lay.pot_at)) and not box.colliderect(lay.panel)
    assert box.contains(scene.lost.stop.rect)


# ------------------------------------------------------------------ the seat comes back


def _seated_guest(make_client, tmp_path, *, password: str = ""):
    """Hana hosts on 127.0.0.1 with a computer seat; Bob joins and the match starts."""

    host = make_client("Hana", grace=30.0)
    host.host_table(hands=4, computers=1, password=password, port=0, bind="127.0.0.1")
    port = host.server.port
    assert run([host], lambda: host.top().name == "lobby" and host.session.seat == 0)
    bob = make_client("Bob", offscreen=True)
    bob.connect("127.0.0.1", port, password=password)
    assert run([host, bob], lambda: bob.session and bob.session.seat is not None)
    assert run([host, bob], lambda: host.top().press_start() or host.session.running)
    assert run([host, bob], lambda: bob.session.view is not None and bob.session.hand >= 1)
    return host, bob, port


def _crash(app) -> None:
    """The game dies: its socket closes, no leave is said, nothing is cleaned up."""
    app.link.conn.close()
    app.link.conn = None
    app.link.session = None


def _table_seat(host, seat: int):
    return host.server.server.table.seats[seat]


@pytest.mark.parametrize("way", ["typed", "join_panel", "command_line"])
def test_a_crashed_game_takes_its_seat_back_by_every_way_of_joining(
    make_client, tmp_path, monkeypatch, way
) -> None:
    import client.app
    from client.seatkeys import default_path
    from common.protocol import PROTOCOL_VERSION

    host, bob, port = _seated_guest(make_client, tmp_path, password="pw")
    seat, token = bob.session.seat, bob.session.token
    (key,) = [k for k in SeatKeys(default_path()).entries() if k.name == "Bob"]
    assert (key.token, key.port, key.seat, key.ip) == (token, port, seat, "loopback")
    assert key.match == bob.session.match_id and key.password == "pw"
    mine = bob.session.view.seats[seat]
    before = (bob.session.hand, mine.hole, mine.up, mine.stack + mine.in_pot)
    _crash(bob)
    assert run([host], lambda: _table_seat(host, seat).conn is None, timeout=10)

    if way == "typed":
        again = make_client("Bob", offscreen=True)  # a new game, the same settings folder
        again.connect("localhost", port)  # another spelling of the table, no password typed
    elif way == "join_panel":
        from client.discovery import FoundTable

        again = make_client("Bob", offscreen=True)
        found = FoundTable(
            key="Hana", name="Hana's table", host="127.0.0.1", port=port, seats=3, free=0,
            people=2, password=True, running=True, hand=1, hands=4,
            protocol=PROTOCOL_VERSION, version="",
        )  # fmt: skip
        start = again.top()
        start.join_found(found)  # full, with a password: no prompt and no watching
        assert start.prompt is None and again.link.watch is False
    else:
        import client.__main__ as cli

        made: list[Any] = []
        orig = client.app.App.__init__

        def init(self, *a, **kw):
            orig(self, *a, **kw)
            made.append(self)

        monkeypatch.setattr(client.app.App, "__init__", init)
        monkeypatch.setattr(client.app.App, "run", lambda self: None)
        assert cli.main(["--join", f"127.0.0.1:{port}", "--name", "Bob"]) == 0
        (again,) = made
    try:
        assert run([host, again], lambda: again.status.state == "connected", timeout=15)
        s = again.session
        assert (s.seat, s.token, s.watch, s.error) == (seat, token, False, None)
        assert _table_seat(host, seat).conn is not None  # the new connection is the seated one
        assert run([host, again], lambda: s.view is not None and s.hand == before[0])
        back = s.view.seats[seat]
        # The same hand, the same cards (more may have come), the same chips.
        assert back.hole[: len(before[1])] == before[1] and back.up[: len(before[2])] == before[2]
        assert back.stack + back.in_pot == before[3]
    finally:
        if way == "command_line":
            again.leave_table(notice="", send_leave=True)


def test_a_token_the_server_does_not_know_is_dropped_and_the_join_goes_on(
    make_client, tmp_path
) -> None:
    from client.seatkeys import default_path

    host = make_client("Hana")
    host.host_table(hands=4, computers=0, password="", port=0, bind="127.0.0.1")
    port = host.server.port
    assert run([host], lambda: host.top().name == "lobby" and host.session.seat == 0)
    keys = SeatKeys(default_path())
    keys.keep(SeatKey(host="127.0.0.1", ip="loopback", port=port, name="Bob", token="stale"))
    bob = make_client("Bob", offscreen=True)
    bob.connect("127.0.0.1", port)
    assert run([host, bob], lambda: bob.status.state == "connected" and bob.session.seat)
    assert bob.session.token != "stale"
    tokens = [k.token for k in keys.entries() if k.name == "Bob"]
    assert tokens == [bob.session.token]  # the stale key gone, the new seat's kept


def test_leaving_between_matches_forgets_mid_match_keeps(make_client, tmp_path) -> None:
    from client.seatkeys import default_path

    host = make_client("Hana")
    host.host_table(hands=4, computers=1, password="", port=0, bind="127.0.0.1")
    port = host.server.port
    assert run([host], lambda: host.top().name == "lobby" and host.session.seat == 0)
    bob = make_client("Bob", offscreen=True)
    bob.connect("127.0.0.1", port)
    assert run([host, bob], lambda: bob.session and bob.session.seat is not None)
    keys = SeatKeys(default_path())
    assert [k.name for k in keys.entries() if k.port == port].count("Bob") == 1
    bob.leave_table(notice="", send_leave=True)  # in the lobby: the seat is given up
    assert [k for k in keys.entries() if k.name == "Bob"] == []
    bob.connect("127.0.0.1", port)
    assert run([host, bob], lambda: bob.session and bob.session.seat is not None)
    assert run([host, bob], lambda: host.top().press_start() or host.session.running)
    assert run([host, bob], lambda: bob.session.running)
    token = bob.session.token
    bob.leave_table(notice="", send_leave=True)  # mid-match: kept for the way back (R-C1)
    assert [k.token for k in keys.entries() if k.name == "Bob"] == [token]


# ------------------------------------------------------------------ real processes


def _game(port: int, home: Path) -> subprocess.Popen:
    """``stud --join 127.0.0.1:PORT --name Bob``: the real game, headless, its own folders."""
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "STUD_MDNS": "off",
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
    }
    env.pop("SEVENTH_STREET_PASSWORD", None)
    return subprocess.Popen(
        [sys.executable, "-m", "client", "--join", f"127.0.0.1:{port}", "--name", "Bob"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip


def _wait(done: Callable[[], Any], timeout: float = 30.0, what: str = "") -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = done()
        if got:
            return got
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_game_killed_mid_hand_and_started_again_takes_its_seat_back(
    tmp_path, monkeypatch
) -> None:
    """Issue 16: SIGKILL the game mid-hand, start it again the same way: the seat, its
    cards, chips and clock come back from the token on disk, with no name_taken."""
    import server.net
    from server.app import run_in_thread
    from tests.serverkit import config

    frames: list[tuple[float, Any, bytes]] = []  # every frame the server sends, to whom
    real_send = server.net.Connection.send

    def send(self, frame: bytes) -> None:
        frames.append((time.monotonic(), self, frame))
        real_send(self, frame)

    monkeypatch.setattr(server.net.Connection, "send", send)
    cfg = config(
        tmp_path / "hh", computer=1, start_when=2, hands=4, grace=120.0, turn_time=60.0,
        time_bank=0.0, hand_pause=0.0,
    )  # fmt: skip
    handle = run_in_thread(cfg)
    table = handle.server.table
    procs: list[subprocess.Popen] = []

    def to(conn: Any) -> list[dict]:
        decoder = FrameDecoder()
        return [m for _t, c, f in list(frames) if c is conn for m in decoder.feed(f)]

    def bob() -> Any:
        return next((s for s in table.seats.values() if s.name == "Bob"), None)

    try:
        procs.append(_game(handle.port, tmp_path))
        seat = _wait(lambda: bob() and bob().conn is not None and bob(), what="Bob seated")
        n = seat.seat
        # Mid-hand, Bob's turn (he plays nothing: the hand waits for him, clock running).
        _wait(lambda: table.turns.to_act is seat, what="Bob's turn")
        old = seat.conn
        keys = _wait(lambda: SeatKeys(tmp_path / "config/seventh-street/seats.json").entries())
        assert [(k.name, k.token, k.seat) for k in keys] == [("Bob", seat.token, n)]
        before = _wait(lambda: [m for m in to(old) if m["type"] == "turn"], what="turn")[-1]
        view_before = [m for m in to(old) if m["type"] == "table"][-1]["view"]
        procs[0].send_signal(signal.SIGKILL)
        procs[0].wait(10)
        _wait(lambda: seat.conn is None, what="the drop seen by the server")

        started = time.monotonic()
        procs.append(_game(handle.port, tmp_path))
        _wait(lambda: seat.conn is not None and seat.conn is not old, what="Bob back")
        new = seat.conn
        welcome = next(m for m in to(new) if m["type"] == "welcome")
        welcomed_at = next(t for t, c, f in list(frames) if c is new and b"welcome" in f)
        after = _wait(lambda: [m for m in to(new) if m["type"] == "turn"], what="turn")[-1]
        view_after = _wait(lambda: [m["view"] for m in to(new) if m["type"] == "table"])[-1]
        took = welcomed_at - started
        seated_again = table.seats[n].conn is new and table.seats[n].name == "Bob"
        print(f"\ncomeback: process start to welcome {took:.2f} s")
        (tmp_path / "comeback.txt").write_text(f"{took:.3f}\n")
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait(10)
        handle.stop()
    assert (welcome["seat"], welcome["token"]) == (n, seat.token)
    assert not [m for m in to(new) if m["type"] == "error"]  # no name_taken, nothing refused
    assert seated_again  # the new connection is the one in the seat
    mine_before = next(s for s in view_before["seats"] if s["seat"] == n)
    mine_after = next(s for s in view_after["seats"] if s["seat"] == n)
    for field in ("hole", "up", "stack", "bet", "in_pot", "folded"):
        assert mine_after[field] == mine_before[field], field
    assert view_after["turn"] == view_before["turn"] and view_after["to_act"] == n
    # The clock: the same decision, with no more time than was left.
    assert after["turn"] == before["turn"]
    assert after["time_left"] <= before["time_left"] + 0.01


def test_a_bot_client_killed_and_started_again_comes_back_to_its_seat(tmp_path) -> None:
    from server.app import run_in_thread
    from tests.serverkit import config

    cfg = config(tmp_path / "hh", computer=1, start_when=2, hands=4, grace=120.0, turn_time=0)
    handle = run_in_thread(cfg)
    table = handle.server.table
    keep = tmp_path / "zed-seats.json"
    bot = str(ROOT / "scripts" / "bot_client.py")
    args = [sys.executable, bot, "--port", str(handle.port), "--name", "Zed",
            "--keep-token", str(keep), "--delay", "60", "--seed", "1", "-q"]  # fmt: skip
    procs: list[subprocess.Popen] = []

    def zed() -> Any:
        return next((s for s in table.seats.values() if s.name == "Zed"), None)

    try:
        procs.append(subprocess.Popen(args, cwd=ROOT, stderr=subprocess.PIPE))
        seat = _wait(lambda: zed() and zed().conn is not None and zed(), what="Zed seated")
        _wait(lambda: table.turns.to_act is seat, what="Zed thinking")
        old, token = seat.conn, seat.token
        kept = _wait(lambda: SeatKeys(keep).entries(), what="the token kept")
        assert [k.token for k in kept] == [token]
        assert stat_mode(keep) == 0o600
        procs[0].kill()
        procs[0].wait(10)
        _wait(lambda: seat.conn is None, what="the drop")
        procs.append(subprocess.Popen(args, cwd=ROOT, stderr=subprocess.PIPE))
        _wait(lambda: seat.conn is not None and seat.conn is not old, what="Zed back")
        back = (seat.token, len([s for s in table.seats.values() if s.name == "Zed"]))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait(10)
        handle.stop()
    assert back == (token, 1)  # the same seat, no second Zed


def stat_mode(path: Path) -> int:
    import stat

    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("resumes", [True, False], ids=["resumes", "forgot"])
def test_a_server_shutting_down_mid_match_is_tried_until_it_answers_again(
    make_client, tmp_path, resumes: bool
) -> None:
    """A bye mid-match keeps the game trying (with the bye's words on the banner).  The
    server started again on the same port with the same history folder resumes the match
    from its journal and the token takes the seat back, same match, same seat; a server
    without the match (another folder) does not know the token: the game sits down anew,
    quietly."""
    from client.seatkeys import default_path
    from server.app import run_in_thread
    from tests.serverkit import config

    cfg = config(tmp_path / "hh", computer=1, start_when=2, hands=4, grace=60.0, turn_time=0)
    first = run_in_thread(cfg)
    port = first.port
    bob = make_client("Bob")
    bob.connect("127.0.0.1", port)
    assert run([bob], lambda: bob.session and bob.session.running and bob.session.view)
    old, seat, match = bob.session.token, bob.session.seat, bob.session.match_id
    first.stop(reason="the server is shutting down")
    assert run([bob], lambda: bob.status.state == "retrying", timeout=10)
    assert bob.top().name == "table" and bob.session is not None
    words = reconnect.words(bob.status, time.monotonic())
    assert re.fullmatch(r"The server is shutting down — trying again… 0:0[0-8]", words), words
    bob.step(max_wait=0.0)  # drawn with its banner
    again = replace_port(cfg, port)
    if not resumes:  # the same table (its key kept in the server's data folder, which
        # another history folder shares: the game has pinned it), no journal
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir(mode=0o700)
        again = replace(again, history_dir=elsewhere)
    second = run_in_thread(again)
    try:
        assert run([bob], lambda: bob.status.state == "connected", timeout=20)
        s = bob.session
        if resumes:
            assert run([bob], lambda: bob.session.view is not None, timeout=10)
            assert (s.seat, s.token, s.match_id) == (seat, old, match)
        else:
            assert s.seat is not None and s.token not in (None, old)
        assert [k.token for k in SeatKeys(default_path()).entries() if k.name == "Bob"] == [s.token]
    finally:
        bob.leave_table(notice="", send_leave=True)
        second.stop()


def replace_port(cfg: Any, port: int) -> Any:
    from dataclasses import replace

    return replace(cfg, port=port)


def test_our_own_computer_table_keeps_the_token_too(make_client) -> None:
    """The game's own server may be started again (and resume its match): its seat's
    token is kept whatever port it gets; a server that does not know it seats us anew."""
    from client.seatkeys import default_path

    app = make_client("Ann")
    app.play_computer(1, 4)
    assert run([app], lambda: app.session and app.session.running and app.session.view)
    token = app.session.token
    (key,) = SeatKeys(default_path()).entries()
    assert (key.own, key.token, key.port) == (True, token, app.server.port)
    app.leave_table(notice="", send_leave=True)  # mid-match: kept
    assert [k.token for k in SeatKeys(default_path()).entries()] == [token]
    app.play_computer(1, 4)  # a new server (another port): the old token, then anew
    assert run([app], lambda: app.session and app.session.running and app.session.view)
    (key,) = SeatKeys(default_path()).entries()
    assert key.own and key.token == app.session.token != token


def test_stop_trying_on_a_really_lost_table_keeps_the_seat_for_later(make_client, tmp_path) -> None:
    from client.seatkeys import default_path
    from server.app import run_in_thread
    from tests.serverkit import config

    cfg = config(tmp_path / "hh", computer=1, start_when=2, hands=4, grace=60.0, turn_time=0)
    server = run_in_thread(cfg)
    bob = make_client("Bob")
    bob.connect("127.0.0.1", server.port)
    assert run([bob], lambda: bob.session and bob.session.running and bob.session.view)
    token = bob.session.token
    server.stop(reason="the server is shutting down")  # and it does not come back
    assert run([bob], lambda: bob.status.state == "retrying", timeout=10)
    bob.step(max_wait=0.0)
    click(bob, bob.top().lost.stop.rect, step=False)
    assert run([bob], lambda: bob.top().name == "start", timeout=5)
    assert "Stopped trying" in bob.notice and "shutting down" in bob.notice
    assert [k.token for k in SeatKeys(default_path()).entries()] == [token]


@pytest.mark.parametrize("size", [(1280, 800), (800, 500), (1920, 1080), (1024, 768)])
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6, 7])
def test_the_banner_fits_clear_of_every_seat_at_every_table(size, seats) -> None:
    from client.render.layout import TableLayout

    lay = TableLayout(size, list(range(seats)), 0)
    banner = reconnect.ReconnectBanner()
    banner.layout(lay.bar, lay.s)  # as the table scene lays it out
    clear = [lay.seat_box(n) for n in lay.spots] + [lay.chip_box(lay.pot_at), lay.panel]
    assert banner.box.collidelist(clear) < 0, (banner.box, clear)
    assert lay.bar.contains(banner.box) and banner.box.contains(banner.stop.rect)
    assert banner.stop.rect.h >= 20 and banner.font >= 13


@pytest.mark.parametrize("size", [(1280, 800), (800, 500)])
def test_the_lobby_banner_stays_above_the_seats_and_left_of_the_night(make_client, size) -> None:
    from tests import demo

    lobby = _shown(make_client, size, demo.night_lobby())
    assert lobby.name == "lobby"
    box = lobby.lost.box
    assert box.bottom <= lobby.boxes["seats"].top and not box.colliderect(lobby.night_rect())
