"""The game reconnects by itself to a lost or restarted table (issue 16, item 4), and takes
its seat back from the token kept on disk by every way of joining (item 1; R-C1).

The countdown runs off an injected clock; the connection's thread is driven by hand-made
servers on 127.0.0.1; the Stop trying button is clicked through the app's event path.
"""

from __future__ import annotations

import re
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pygame
import pytest

import server.net
from client.model import Session
from client.net import BUSY, Connection, Status
from client.overlays import ConfirmDialog
from client.render.layout import TableLayout
from client.scenes import reconnect
from client.seatkeys import SeatKeys, default_path
from common.protocol import FrameDecoder
from scripts.screenshot import lobby_messages
from server.app import run_in_thread
from tests import demo
from tests.clientkit import (
    ROOT,
    FakeTable,
    Ticking,
    click,
    crash,
    feed,
    found_at,
    game_process,
    hosting,
    key,
    polled,
    processes,
    run,
    started,
    statuses,
)
from tests.serverkit import config, wait_until

pytestmark = pytest.mark.timeout(60)

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
BUSY_ERROR = {"type": "error", "code": "server_busy", "message": "too many connections waiting"}
COMEBACK = {"type": "hello", "protocol": 2, "name": "Bob", "token": "tok"}


def link(server: FakeTable, hello: dict[str, Any] | None = None, **kw: Any) -> Connection:
    """A connection to ``server`` saying ``hello`` (a bare one by default), not started."""
    said = hello or {"type": "hello"}
    return Connection("127.0.0.1", server.port, lambda: dict(said), **kw)


def states(conn: Connection, server: FakeTable, until: Callable[[list[Status]], Any]) -> list:
    """The connection's statuses, started, until ``until(statuses so far)``; then the
    connection and its server are closed."""
    conn.start()
    try:
        return statuses(polled(conn, lambda seen: until(statuses(seen))))
    finally:
        conn.close()
        server.close()


def ended(seen: list[Status]) -> bool:
    return any(s.state in ("gone", "failed") for s in seen)


def test_it_keeps_trying_until_the_clock_says_two_minutes_then_gives_up() -> None:
    server = scripted(lambda n, hello: [WELCOME], once=True)  # welcomes once, then is gone
    clock = Ticking(1000.0, 7.0)
    conn = link(server, {"type": "hello", "name": "Bob"}, retry_every=0.0, clock=clock)
    seen = states(conn, server, ended)
    assert conn.retry_for == 120.0  # at least two minutes
    retrying = [s for s in seen if s.state == "retrying"]
    assert Status("gone", "the table is gone: no answer from the server") in seen, seen
    assert seen[-1].state == "closed"
    # One outage: every try says the same end, the first reason, and counts up, once each.
    (until,) = {s.until for s in retrying}
    assert until is not None and all(s.message == "connection lost" for s in retrying)
    attempts = [s.attempt for s in retrying]
    assert attempts == list(range(1, len(attempts) + 1)) and attempts[-1] > 3
    assert clock.now - (until - 120.0) > 120.0  # it gave up only past the two minutes
    assert reconnect.countdown(retrying[0], until - 107) == "1:47"


def test_a_welcome_starts_the_countdown_again() -> None:
    server = scripted(lambda n, hello: [WELCOME])
    conn = link(server, retry_every=0.0, clock=Ticking(0.0, 1.0))
    seen = states(conn, server, lambda s: len({x.until for x in s if x.until}) >= 3)
    ups = [s.until for s in seen if s.state == "retrying" and s.until]
    assert len(set(ups)) >= 3 and ups == sorted(ups)  # every comeback: two minutes again


def test_a_bye_in_the_middle_of_a_match_is_retried_with_its_reason() -> None:
    bye = {"type": "bye", "reason": "the server is shutting down"}
    server = scripted(lambda n, hello: [WELCOME, MATCH, bye] if n == 0 else [WELCOME])
    seen = states(link(server, retry_every=0.05), server,
                  lambda s: len(server.hellos) >= 2 and len(s) >= 3)  # fmt: skip
    retry = next(s for s in seen if s.state == "retrying")
    assert retry.message == "the server is shutting down" and retry.until is not None
    assert reconnect.words(retry, retry.until - 90).startswith("The server is shutting down")
    assert len(server.hellos) >= 2


@pytest.mark.parametrize(
    "frames, why, own",
    [
        ([WELCOME, MATCH, {"type": "standings"}, LOBBY_IDLE, {"type": "bye", "reason": "night"}],
         "night", False),
        ([WELCOME, {"type": "error", "code": "taken_over", "message": "another window"}],
         "another window", False),
        ([WELCOME, MATCH, {"type": "bye", "reason": "x"}], "x", True),
    ],
    ids=["bye-between-matches", "taken-over", "our-own-server-bye-mid-match"],
)  # fmt: skip
def test_a_bye_between_matches_a_seat_taken_over_or_our_own_servers_bye_ends_it(
    frames, why, own
) -> None:
    server = scripted(lambda n, hello: frames)
    conn = link(server, retry_every=0.05, resume_after_bye=not own)
    seen = states(conn, server, lambda s: any(x.state == "gone" for x in s))
    gone = next(s for s in seen if s.state == "gone")
    assert gone.message == why and len(server.hellos) == 1


def test_a_stale_token_is_reported_and_the_hello_goes_on_without_it() -> None:
    def script(n: int, hello: dict) -> list[dict] | None:
        if "token" in hello:
            return [{"type": "error", "code": "bad_token", "message": "no seat has that token"}]
        return None  # the newcomer is welcomed... by silence, which is enough here

    server = scripted(script)
    stale: list[str] = []
    conn = link(server, {"type": "hello", "name": "Bob", "token": "old"}, on_stale=stale.append)
    states(conn, server, lambda s: len(server.hellos) >= 2)
    assert stale == ["old"]
    assert "token" in server.hellos[0] and "token" not in server.hellos[1]
    assert conn.peer == "127.0.0.1"


def test_a_silent_link_is_noticed_by_pings_and_retried() -> None:
    welcome = {"type": "welcome", "seat": 0, "token": "t", "protocol": 1}
    table = FakeTable(  # welcomes, then reads everything and never answers: a link gone quiet
        lambda n, msg: [welcome] if msg["type"] == "hello" else None, hang_up=lambda f: False
    )
    hello = {"type": "hello", "protocol": 1, "name": "Ann"}
    conn = link(table, hello, retry_for=5, ping_every=0.05, silence_limit=0.3)
    seen = states(conn, table, lambda s: "retrying" in [x.state for x in s][1:])
    assert "retrying" in [x.state for x in seen][1:], seen
    assert any(m["type"] == "ping" for m in table.msgs), "it pinged while waiting"


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
    conn = link(server, COMEBACK, retry_every=0.01)
    conn._closed = waits = _Waits()
    seen = states(conn, server, lambda s: len(server.hellos) >= 5 or ended(s))
    assert not ended(seen), seen
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
    seen = states(link(server, COMEBACK, retry_every=0.01), server,
                  lambda s: bool(server.hellos) or ended(s))  # fmt: skip
    assert not ended(seen), seen
    assert server.connections == 3 and server.hellos[0]["token"] == "tok"
    assert [s.message for s in seen if s.state == "retrying"][:2] == [BUSY, BUSY]
    newcomer = scripted(lambda n, hello: [WELCOME], refuse=lambda n: [BUSY_ERROR])
    seen = states(link(newcomer, {"type": "hello", "name": "Cy"}), newcomer, ended)
    failed = next(s for s in seen if s.state == "failed")
    assert "too many connections waiting" in failed.message and newcomer.connections == 1


# ------------------------------------------------------------------ the app


def _lost(app: Any) -> None:
    """Hold the app as if its connection's thread were retrying, two minutes to go."""
    app.link.status = Status("retrying", "connection lost", 2, until=app.now() + 118)


def _shown(make_client: Any, messages: list[dict[str, Any]], size=(1280, 800)) -> Any:
    """A game of Ann's at ``size`` that has been sent ``messages``, drawn once."""
    app = make_client("Ann", size=size)
    app.link.session = Session("Ann")
    feed(app, messages)
    app.step(max_wait=0.0)
    return app


@pytest.mark.parametrize("where, how", [("table", "click"), ("lobby", "click"), ("table", "Esc")])
def test_stop_trying_is_a_real_click_on_the_banner_or_escape(make_client, where, how) -> None:
    app = _shown(make_client, demo.mid_hand() if where == "table" else lobby_messages())
    server = scripted(lambda n, hello: None)  # a link that the click must close
    app.link.conn = Connection("127.0.0.1", server.port, lambda: {"type": "hello"})
    try:
        key(app, pygame.K_ESCAPE)
        assert app.top().name == where  # Esc means nothing while the link is up
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
        if how == "Esc":
            key(app, pygame.K_ESCAPE)
        else:
            click(app, button)
    finally:
        server.close()
    assert app.top().name == "start" and app.session is None
    assert "Stopped trying" in app.notice and app.link.conn is None


@pytest.mark.parametrize("size", [(1280, 800), (800, 500)])
@pytest.mark.parametrize("where", ["table", "lobby"])
def test_the_banner_covers_no_seat_and_no_pot_and_no_night(make_client, size, where) -> None:
    scene = _shown(make_client, demo.mid_hand() if where == "table" else demo.night_lobby(),
                   size).top()  # fmt: skip
    assert scene.name == where
    box = scene.lost.box
    if where == "lobby":  # above the seats, left of the night's scoreboard
        assert box.bottom <= scene.boxes["seats"].top and not box.colliderect(scene.night_rect())
        return
    lay = scene.lay
    assert box.collidelist([lay.seat_box(n) for n in lay.spots]) < 0
    assert not box.colliderect(lay.chip_box(lay.pot_at)) and not box.colliderect(lay.panel)
    assert box.contains(scene.lost.stop.rect)


@pytest.mark.parametrize("size", [(1280, 800), (800, 500), (1920, 1080), (1024, 768)])
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6, 7])
def test_the_banner_fits_clear_of_every_seat_at_every_table(size, seats) -> None:
    lay = TableLayout(size, list(range(seats)), 0)
    banner = reconnect.ReconnectBanner()
    banner.layout(lay.bar, lay.s)  # as the table scene lays it out
    clear = [lay.seat_box(n) for n in lay.spots] + [lay.chip_box(lay.pot_at), lay.panel]
    assert banner.box.collidelist(clear) < 0, (banner.box, clear)
    assert lay.bar.contains(banner.box) and banner.box.contains(banner.stop.rect)
    assert banner.stop.rect.h >= 20 and banner.font >= 13


# ------------------------------------------------------------------ the seat comes back


def _seated_guest(make_client, *, password: str = ""):
    """Hana hosts on 127.0.0.1 with a computer seat; Bob joins and the match starts."""
    host = hosting(make_client("Hana", grace=30.0), password=password)
    bob = make_client("Bob", offscreen=True)
    bob.connect("127.0.0.1", host.server.port, password=password)
    assert run([host, bob], lambda: bob.session and bob.session.seat is not None)
    assert run([host, bob], lambda: host.top().press_start() or host.session.running)
    assert run([host, bob], lambda: bob.session.view is not None and bob.session.hand >= 1)
    return host, bob, host.server.port


def _table_seat(host, seat: int):
    return host.server.server.table.seats[seat]


def _bobs_tokens() -> list[str]:
    return [k.token for k in SeatKeys(default_path()).entries() if k.name == "Bob"]


@pytest.mark.parametrize("way", ["typed", "join_panel", "command_line"])
def test_a_crashed_game_takes_its_seat_back_by_every_way_of_joining(
    make_client, monkeypatch, way
) -> None:
    host, bob, port = _seated_guest(make_client, password="pw")
    seat, token = bob.session.seat, bob.session.token
    (key,) = [k for k in SeatKeys(default_path()).entries() if k.name == "Bob"]
    assert (key.token, key.port, key.seat, key.ip) == (token, port, seat, "loopback")
    assert key.match == bob.session.match_id and key.password == "pw"
    mine = bob.session.view.seats[seat]
    before = (bob.session.hand, mine.hole, mine.up, mine.stack + mine.in_pot)
    crash(bob)
    assert run([host], lambda: _table_seat(host, seat).conn is None, timeout=10)
    if way == "command_line":
        again = started(monkeypatch, ["--join", f"127.0.0.1:{port}", "--name", "Bob"])
    else:
        again = make_client("Bob", offscreen=True)  # a new game, the same settings folder
    if way == "typed":
        again.connect("localhost", port)  # another spelling of the table, no password typed
    elif way == "join_panel":
        found = found_at(port, seats=3, free=0, people=2, password=True, running=True, hand=1)
        start = again.top()
        start.join_found(found)  # full, with a password: no prompt and no watching
        assert start.prompt is None and again.link.watch is False
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


# ------------------------------------------------------------------ real processes


def _bob(port: int) -> list[str]:
    return ["--join", f"127.0.0.1:{port}", "--name", "Bob"]


def _connected(table: Any, name: str) -> Any:
    """``name``'s seat at ``table`` while a connection holds it; None until then."""
    return next((s for s in table.seats.values() if s.name == name and s.conn is not None), None)


@pytest.mark.timeout(180)
def test_a_game_killed_mid_hand_and_started_again_takes_its_seat_back(
    tmp_path, monkeypatch
) -> None:
    """Issue 16: SIGKILL the game mid-hand, start it again the same way: the seat, its
    cards, chips and clock come back from the token on disk, with no name_taken."""
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

    def to(conn: Any, kind: str) -> list[dict]:
        decoder = FrameDecoder()
        msgs = [m for _t, c, f in list(frames) if c is conn for m in decoder.feed(f)]
        return [m for m in msgs if m["type"] == kind]

    with processes() as procs:
        try:
            procs.append(game_process(_bob(handle.port), tmp_path))
            seat = wait_until(
                lambda: _connected(table, "Bob"), timeout=60
            )  # a loaded machine starts a game slowly
            assert seat, (tmp_path / "game-stderr.txt").read_text()
            n = seat.seat
            # Mid-hand, Bob's turn (he plays nothing: the hand waits for him, clock running).
            assert wait_until(lambda: table.turns.to_act is seat), "Bob's turn"
            old = seat.conn
            keys = wait_until(SeatKeys(tmp_path / "config/seventh-street/seats.json").entries)
            assert [(k.name, k.token, k.seat) for k in keys] == [("Bob", seat.token, n)]
            before = wait_until(lambda: to(old, "turn"))[-1]
            view_before = to(old, "table")[-1]["view"]
            procs[0].send_signal(signal.SIGKILL)
            procs[0].wait(10)
            assert wait_until(lambda: seat.conn is None), "the drop seen by the server"
            started_at = time.monotonic()
            procs.append(game_process(_bob(handle.port), tmp_path))
            assert wait_until(lambda: seat.conn not in (None, old), timeout=90), "Bob back"
            new = seat.conn
            (welcome,) = to(new, "welcome")
            welcomed_at = next(t for t, c, f in list(frames) if c is new and b"welcome" in f)
            after = wait_until(lambda: to(new, "turn"))[-1]
            view_after = wait_until(lambda: to(new, "table"))[-1]["view"]
            seated_again = table.seats[n].conn is new and table.seats[n].name == "Bob"
        finally:
            handle.stop()
    took = welcomed_at - started_at
    print(f"\ncomeback: process start to welcome {took:.2f} s")
    (tmp_path / "comeback.txt").write_text(f"{took:.3f}\n")
    assert (welcome["seat"], welcome["token"]) == (n, seat.token)
    assert not to(new, "error")  # no name_taken, nothing refused
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
    cfg = config(tmp_path / "hh", computer=1, start_when=2, hands=4, grace=120.0, turn_time=0)
    handle = run_in_thread(cfg)
    table = handle.server.table
    keep = tmp_path / "zed-seats.json"
    bot = str(ROOT / "scripts" / "bot_client.py")
    args = [sys.executable, bot, "--port", str(handle.port), "--name", "Zed",
            "--keep-token", str(keep), "--delay", "60", "--seed", "1", "-q"]  # fmt: skip

    with processes() as procs:
        try:
            procs.append(subprocess.Popen(args, cwd=ROOT, stderr=subprocess.DEVNULL))
            assert (seat := wait_until(lambda: _connected(table, "Zed"), timeout=30)), "Zed seated"
            assert wait_until(lambda: table.turns.to_act is seat), "thinking"
            old, token = seat.conn, seat.token
            assert [k.token for k in wait_until(SeatKeys(keep).entries)] == [token]
            assert stat.S_IMODE(keep.stat().st_mode) == 0o600
            procs[0].kill()
            procs[0].wait(10)
            assert wait_until(lambda: seat.conn is None), "the drop"
            procs.append(subprocess.Popen(args, cwd=ROOT, stderr=subprocess.DEVNULL))
            assert wait_until(lambda: seat.conn not in (None, old), timeout=30), "Zed back"
            back = (seat.token, len([s for s in table.seats.values() if s.name == "Zed"]))
        finally:
            handle.stop()
    assert back == (token, 1)  # the same seat, no second Zed


@pytest.mark.parametrize("back", ["resumes", "forgot", "never"])
def test_a_server_shutting_down_mid_match_is_tried_until_it_answers_again(
    make_client, tmp_path, back: str
) -> None:
    """A bye mid-match keeps the game trying (with the bye's words on the banner).  The
    server started again on the same port with the same history folder resumes the match
    from its journal and the token takes the seat back, same match, same seat; a server
    without the match (another folder) does not know the token: the game sits down anew,
    quietly.  One that never comes back: Stop trying keeps the seat's token for later."""
    cfg = config(tmp_path / "hh", computer=1, start_when=2, hands=4, grace=60.0, turn_time=0)
    first = run_in_thread(cfg)
    bob = make_client("Bob")
    bob.connect("127.0.0.1", first.port)
    assert run([bob], lambda: bob.session and bob.session.running and bob.session.view)
    old, seat, match = bob.session.token, bob.session.seat, bob.session.match_id
    first.stop(reason="the server is shutting down")
    assert run([bob], lambda: bob.status.state == "retrying", timeout=10)
    assert bob.top().name == "table" and bob.session is not None
    words = reconnect.words(bob.status, time.monotonic())
    assert re.fullmatch(r"The server is shutting down — trying again… 0:0[0-8]", words), words
    bob.step(max_wait=0.0)  # drawn with its banner
    if back == "never":
        click(bob, bob.top().lost.stop.rect, step=False)
        assert run([bob], lambda: bob.top().name == "start", timeout=5)
        assert "Stopped trying" in bob.notice and "shutting down" in bob.notice
        assert _bobs_tokens() == [old]
        return
    again = replace(cfg, port=first.port)
    if back == "forgot":  # the same table (its key kept in the server's data folder, which
        # another history folder shares: the game has pinned it), no journal
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir(mode=0o700)
        again = replace(again, history_dir=elsewhere)
    second = run_in_thread(again)
    try:
        assert run([bob], lambda: bob.status.state == "connected", timeout=20)
        s = bob.session
        if back == "resumes":
            assert run([bob], lambda: bob.session.view is not None, timeout=10)
            assert (s.seat, s.token, s.match_id) == (seat, old, match)
        else:
            assert s.seat is not None and s.token not in (None, old)
        assert _bobs_tokens() == [s.token]
    finally:
        bob.leave_table(notice="", send_leave=True)
        second.stop()


def test_our_own_computer_table_asks_before_leaving_keeps_the_token_and_may_be_watched(
    make_client,
) -> None:
    """The game's own server may be started again (and resume its match): its seat's
    token is kept whatever port it gets; a server that does not know it seats us anew.
    Someone may watch it without a seat, seeing nobody's hole cards.  Leaving mid-match
    asks, then ends the match; a server gone for good sends us to the start screen."""
    app = make_client("Ann")
    app.play_computer(2, 8)
    assert run([app], lambda: app.session and app.session.running and app.session.view)
    token = app.session.token
    (key_kept,) = SeatKeys(default_path()).entries()
    assert (key_kept.own, key_kept.token, key_kept.port) == (True, token, app.server.port)
    watcher = make_client("Cy", offscreen=True)
    watcher.connect("127.0.0.1", app.server.port, watch=True)
    assert run([app, watcher], lambda: watcher.top().name == "table" and watcher.session.view)
    s = watcher.session
    assert s.seat is None and s.actions() == []
    assert all(sv.hole is None for sv in s.view.seats.values())  # nobody's hole cards
    app.ask_leave()
    assert isinstance(app.modal, ConfirmDialog) and app.modal.title == "Leave the match?"
    assert "ends this match here, unfinished, in hand" in app.modal.body()
    key(app, pygame.K_n)
    assert app.modal is None and app.server is not None
    app.ask_leave()
    key(app, pygame.K_y, step=False)
    assert run([app], lambda: app.top().name == "start")
    assert app.server is None and app.notice == "You left the table."
    assert [k.token for k in SeatKeys(default_path()).entries()] == [token]  # mid-match: kept
    app.play_computer(1, 4)  # a new server (another port): the old token, then anew
    assert run([app], lambda: app.session and app.session.running and app.session.view)
    (key_kept,) = SeatKeys(default_path()).entries()
    assert key_kept.own and key_kept.token == app.session.token != token
    app.server.stop()
    assert run([app], lambda: app.top().name == "start", timeout=10)
    assert app.notice  # says why
