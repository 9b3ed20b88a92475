"""The client tests' kit: server messages fed to a game (``feed``, ``at_table``), the
player's keys and clicks (``key``, ``click``, ``post``, ``resize``), the real loops run
until a condition holds (``run``, ``showing``, ``Player``), tables hosted on 127.0.0.1
(``hosting``, ``host_with_guest``), the game as a real process (``game_process``), and
the link's other end, scripted (``FakeTable``, ``in_the_clear``).  The games themselves
come from ``tests/conftest.py``'s fixtures (``app``, ``make_client``).
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pygame

from client.app import App
from client.discovery import FoundTable
from client.model import Session
from client.net import Connection, Status
from client.pacing import STEP
from common.history import load
from common.protocol import PROTOCOL_VERSION, FrameDecoder, FrameError, encode_frame
from common.protocol.server_messages import ServerMessage, decode_server
from common.seal import TlsPipe
from tests.serverkit import identity

SIZES = [(800, 500), (1024, 640), (1280, 800), (1920, 1080), (2560, 1440), (1280, 560),
         (900, 1100), (1600, 700)]  # fmt: skip
"""Window sizes whose layouts the tests measure: the smallest, common, tall and wide."""


def decoded(msg: dict[str, Any]) -> ServerMessage:
    return decode_server(msg)


def feed(game: App | Session, msgs: Iterable[dict[str, Any]], *, now: float = 0.0) -> None:
    """Each message as the connection hands it on: decoded, then applied."""
    for msg in msgs:
        if isinstance(game, Session):
            game.apply(decode_server(msg), now)
        else:
            game.on_message(decode_server(msg))


def at_table(app: App, msgs: Iterable[dict[str, Any]], *, size=(1280, 800), kind: str = "",
             **settings: Any) -> Any:  # fmt: skip
    """``app`` (the ``app`` fixture's) at ``size``, at a table of ``kind`` (``"computer"``:
    its own computer table), ``settings`` set, sent ``msgs`` and drawn once: its table
    scene, with nothing in flight."""
    pygame.display.set_mode(size)
    app.resized()
    for name, value in settings.items():
        setattr(app.settings, name, value)
    app.local.kind = kind
    feed(app, msgs)
    app.step(max_wait=0.001)
    scene = app.top()
    assert scene.name == "table"
    scene.motion.anims.clear()
    return scene


def session_from(msgs: Iterable[dict[str, Any]], name: str = "Ann") -> Session:
    s = Session(name)
    feed(s, msgs)
    return s


def post(app: App, kind: int, *, step: bool = True, **attrs: Any) -> None:
    """One event as the player makes it, into the app's queue; then one pass of the loop."""
    event = pygame.event.Event(kind, **attrs)
    if app.offscreen:
        app.inbox.append(event)
    else:
        pygame.event.post(event)
    if step:
        app.step(max_wait=0.001)


def resize(app: App, size: tuple[int, int]) -> None:
    """The window resized by the player to ``size`` (one pass of the loop); an offscreen
    game's surface made that size."""
    if app.offscreen:
        app.screen = pygame.Surface(size)
        app.resized()
    else:
        pygame.display.set_mode(size, pygame.RESIZABLE)
        post(app, pygame.VIDEORESIZE, size=size, w=size[0], h=size[1])


def key(app: App, k: int | str, *, step: bool = True) -> None:
    """A key pressed: a pygame key code, or a letter."""
    code = pygame.key.key_code(k.lower()) if isinstance(k, str) else k
    letter = k.lower() if isinstance(k, str) else ""
    post(app, pygame.KEYDOWN, step=step, key=code, mod=0, unicode=letter, scancode=0)


def hover(app: App, pos: tuple[int, int], *, step: bool = True) -> None:
    post(app, pygame.MOUSEMOTION, step=step, pos=pos, rel=(0, 0), buttons=(0, 0, 0))


def click(app: App, at: tuple[int, int] | pygame.Rect, *, step: bool = True) -> None:
    """A left click (on ``at``'s middle, for a rect): the pointer moves there first."""
    pos = at.center if isinstance(at, pygame.Rect) else at
    hover(app, pos, step=False)
    post(app, pygame.MOUSEBUTTONDOWN, step=False, pos=pos, button=1)
    post(app, pygame.MOUSEBUTTONUP, step=step, pos=pos, button=1)


def handle_click(app: App, at: tuple[int, int] | pygame.Rect) -> None:
    """A left click handed straight to the app's handler: no pass of the loop, no draw."""
    pos = at.center if isinstance(at, pygame.Rect) else at
    app.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0,) * 3))
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        app.handle_event(pygame.event.Event(kind, pos=pos, button=1))


def advance(app: App, seconds: float) -> None:
    """Animation time, in the loop's fixed steps, without waiting for the clock."""
    for _ in range(round(seconds / STEP)):
        for scene in list(app.scenes):
            scene.update(STEP)


def run(
    apps: list[App],
    done: Callable[[], Any],
    players: Iterable[Callable[[], Any]] = (),
    timeout: float = 40.0,
) -> bool:
    """The real loops (and each player's move) until ``done()``; False on timeout."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for app in apps:
            app.step(max_wait=0.02)
        for player in players:
            player()
        if done():
            return True
    return False


def showing(name: str, *apps: App) -> Callable[[], bool]:
    """A condition for ``run``: each of ``apps`` shows the scene ``name``."""
    return lambda: all(app.top().name == name for app in apps)


def check_buttons(app: App) -> list[Any]:
    """The table's buttons are exactly the offered actions, named with their amounts."""
    buttons = app.top().buttons()
    offered = app.session.actions() if app.session is not None else []
    assert [b.id for b in buttons] == [a.action for a in offered]
    assert [b.label for b in buttons] == [a.label for a in offered]
    if "check" in {b.id for b in buttons}:
        assert "fold" not in {b.id for b in buttons}  # R-B5
    return buttons


def apart(parts: list[tuple[str, pygame.Rect]], window: pygame.Rect | None, *why: Any) -> None:
    """Each named rect inside ``window`` (None: anywhere) and no two of them overlapping;
    ``why`` goes with a failure (the window size, say)."""
    for i, (a, ra) in enumerate(parts):
        assert window is None or window.contains(ra), (*why, a, ra)
        for b, rb in parts[i + 1 :]:
            assert not ra.colliderect(rb), (*why, a, ra, b, rb)


class Player:
    """Presses one offered button per turn by its key, mostly calling, now and then
    raising or folding; each button checked against the offered actions first."""

    def __init__(self, app: App, seed: int = 1) -> None:
        self.app, self.rng, self.turns, self.pressed = app, random.Random(seed), 0, None

    def __call__(self) -> None:
        app, s = self.app, self.app.session
        table = app.top()
        if s is None or table.name != "table" or not table.buttons():
            return
        if table.bar.sent_turn == s.turn:
            return  # answered; a press lost while the link was down is simply made again
        buttons = check_buttons(app)
        ids = [b.id for b in buttons]
        roll = self.rng.random()
        pick = next((b for b in buttons if b.id in ("check", "call")), buttons[0])
        if roll < 0.15 and any(i in ids for i in ("raise", "bet", "complete")):
            pick = next(b for b in buttons if b.id in ("raise", "bet", "complete"))
        elif roll > 0.95 and "fold" in ids:
            pick = next(b for b in buttons if b.id == "fold")
        key(app, pick.key, step=False)
        self.pressed = s.turn
        self.turns += 1


def crash(app: App) -> None:
    """The game dies: its link closes with no ``leave``, nothing is cleaned up, and its own
    table, if it runs one, stops without ending the match (as a killed process, it writes
    nothing more: the journal stays)."""
    app.link.conn.close()
    app.link.conn = None
    app.link.session = None
    if app.local.handle is not None:
        app.local.handle.stop(reason="crash")
        app.local.handle = None
        app.local.kind = ""


def hosting(host: App, *, hands: int = 4, computers: int = 1, password: str = "", **kw: Any) -> App:
    """``host`` hosts a table on 127.0.0.1 (``computers`` computer seats; ``kw``: more of
    ``host_table``'s) and sits in its lobby, seat 0."""
    host.host_table(hands=hands, computers=computers, password=password, port=0,
                    bind="127.0.0.1", **kw)  # fmt: skip
    assert run([host], lambda: host.top().name == "lobby" and host.session.seat == 0)
    return host


def host_with_guest(
    make_client: Callable[..., App], *, hands: int = 4, computers: int = 1, password: str = ""
) -> tuple[App, App]:
    """Hana hosts a table on 127.0.0.1 (``computers`` computer seats); Gus, offscreen, has
    joined her lobby."""
    host = hosting(make_client("Hana"), hands=hands, computers=computers, password=password)
    guest = make_client("Gus", offscreen=True)
    assert host.server is not None
    guest.connect("127.0.0.1", host.server.port, password=password)
    assert run(
        [host, guest],
        lambda: (
            guest.top().name == "lobby"
            and guest.session.lobby.said is not None
            and any(p.name == "Gus" for p in host.session.lobby.seats)
        ),
    )
    return host, guest


def started(monkeypatch: Any, argv: list[str], **kw: Any) -> App:
    """The game as ``stud ARGV`` starts it (``client.__main__.main``), its loop not run:
    its ``App`` (``kw``: more of the ``App``'s arguments, such as ``server_overrides``)."""
    import client.__main__ as cli

    made: list[App] = []
    real = App.__init__

    def init(self: App, *a: Any, **k: Any) -> None:
        real(self, *a, **k, **kw)
        made.append(self)

    with monkeypatch.context() as patch:  # only for this start: later Apps are plain
        patch.setattr(App, "__init__", init)
        patch.setattr(App, "run", lambda self: None)
        assert cli.main(argv) == 0
    (app,) = made
    return app


ROOT = Path(__file__).resolve().parent.parent


def game_process(args: list[str], home: Path) -> subprocess.Popen:
    """``stud ARGS``: the real game in a process of its own, headless, its folders (config,
    data) under ``home``, what it says on stderr in ``home/game-stderr.txt``."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "STUD_MDNS": "off", "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_DATA_HOME": str(home / "data"), "PYGAME_HIDE_SUPPORT_PROMPT": "1"}  # fmt: skip
    env.pop("SEVENTH_STREET_PASSWORD", None)
    with open(home / "game-stderr.txt", "ab") as said:  # to read when a test fails
        return subprocess.Popen([sys.executable, "-m", "client", *args], cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=said)  # fmt: skip


@contextlib.contextmanager
def processes() -> Iterator[list[subprocess.Popen]]:
    """A list to start processes into: each one still running at the end is killed."""
    procs: list[subprocess.Popen] = []
    try:
        yield procs
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)


def found_at(port: int, **kw: Any) -> FoundTable:
    """Hana's table on 127.0.0.1 at ``port`` as the Join panel lists it (``kw``: other
    facts than two seats, five free, one person, no password, not running, 4 hands)."""
    facts: dict[str, Any] = dict(key="Hana", name="Hana's table", host="127.0.0.1", seats=2,
                                 free=5, people=1, password=False, running=False, hand=0,
                                 hands=4, protocol=PROTOCOL_VERSION, version="")  # fmt: skip
    return FoundTable(port=port, **{**facts, **kw})


def simulated(*, seats: int = 4, hands: int = 8, seed: int = 2) -> list[dict[str, Any]]:
    """The hands of one match ``scripts/simulate.py`` plays, as its history file holds them."""
    from scripts.simulate import simulate

    out = io.StringIO()
    simulate(seats=seats, hands=hands, seed=seed, out=out)
    recs = load(out.getvalue())
    return [r for r in recs if r["match"] == recs[0]["match"]]


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then closed): a connection is refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ------------------------------------------------------------------ the link's other end


class FakeTable:
    """A table on 127.0.0.1 for the game's link (``client.net.Connection``) to meet: each
    connection sealed as the game's tables are (``sealed=False``: plain), each message it
    is sent answered by ``script(n, msg)`` (``n``: which connection's hello came last) with
    the frames to send, ``None`` for none; it hangs up after an answer when
    ``hang_up(frames)`` says so (by default after any).  ``refuse(n)``: frames said in the
    clear to the ``n``-th connection before any TLS, which is then closed (a busy table);
    ``once``: the table is gone after its first connection.  It keeps what came: every
    message (``msgs``), each connection's first (``hellos``), and the bytes as they came
    (``wire``) and inside TLS (``plain``); ``done`` is set when a connection has ended."""

    def __init__(
        self,
        script: Callable[[int, dict[str, Any]], list[dict[str, Any]] | None],
        *,
        sealed: bool = True,
        refuse: Callable[[int], list[dict[str, Any]] | None] = lambda n: None,
        once: bool = False,
        hang_up: Callable[[list[dict[str, Any]]], bool] = lambda frames: True,
    ) -> None:
        self.script, self.sealed, self.refuse, self.once = script, sealed, refuse, once
        self.hang_up = hang_up
        self.connections = 0  # accepted so far
        self.hellos: list[dict[str, Any]] = []
        self.msgs: list[dict[str, Any]] = []
        self.wire, self.plain = bytearray(), bytearray()
        self.done = threading.Event()
        self._closed = threading.Event()
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen()
        self.port = int(self.listener.getsockname()[1])
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self._closed.set()
        self.listener.close()

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            n, self.connections = self.connections, self.connections + 1
            threading.Thread(target=self._talk, args=(n, conn), daemon=True).start()
            if self.once:
                self.listener.close()

    def _talk(self, n: int, conn: socket.socket) -> None:
        try:
            with conn:
                self._answer(n, conn)
        finally:
            self.done.set()

    def _answer(self, n: int, conn: socket.socket) -> None:
        refusal = self.refuse(n)
        if refusal is not None:  # before the TLS handshake, as a busy table does
            with contextlib.suppress(OSError):
                conn.sendall(b"".join(encode_frame(f) for f in refusal))
            return
        pipe = TlsPipe(identity().context(), server_side=True) if self.sealed else None
        decoder, first = FrameDecoder(), True
        conn.settimeout(0.05)
        while not self._closed.is_set():
            try:
                data = conn.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return
            if not data:
                return
            self.wire += data
            try:
                plain = data if pipe is None else pipe.feed(data)
                if pipe is not None and (out := pipe.outgoing()):
                    conn.sendall(out)
                msgs = decoder.feed(plain)
            except (OSError, ssl.SSLError, FrameError):  # (a plain table reading TLS)
                return
            self.plain += plain
            for msg in msgs:
                if first:
                    self.hellos.append(msg)
                    first = False
                self.msgs.append(msg)
                frames = self.script(len(self.hellos) - 1, msg)
                if frames is None:
                    continue
                with contextlib.suppress(OSError):  # the client may hang up on a bye
                    for f in frames:
                        raw = encode_frame(f)
                        conn.sendall(raw if pipe is None else pipe.write(raw))
                if self.hang_up(frames):
                    return


@contextlib.contextmanager
def in_the_clear(reply: bytes, *, read_first: bool) -> Iterator[int]:
    """Inside the block, something on a loopback port (yielded) that sends ``reply`` in
    the clear and hangs up: after reading what came (a table from before sealed links,
    whose frame decoder meets our ClientHello; a web server), or before reading anything
    (a table refusing a connection as it opens)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def serve() -> None:
        with contextlib.suppress(OSError):
            conn, _ = listener.accept()
            with conn:
                if read_first:
                    conn.recv(65536)
                conn.sendall(reply)
                conn.shutdown(socket.SHUT_WR)
                conn.settimeout(2.0)
                while conn.recv(65536):
                    pass

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        listener.close()


class Ticking:
    """A clock that is ``step`` seconds later at every look (as if reading it took that
    long): no sleeping.  A test may move ``now`` on itself, a frame at a time."""

    def __init__(self, start: float, step: float) -> None:
        self.now, self.step = start, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def polled(
    conn: Connection, done: Callable[[list[tuple[str, Any]]], Any], timeout: float = 15.0
) -> list[tuple[str, Any]]:
    """What the connection's thread hands on, ``(kind, item)``, until ``done(seen)``."""
    seen: list[tuple[str, Any]] = []
    end = time.monotonic() + timeout
    while time.monotonic() < end and not done(seen):
        seen.extend(conn.poll())
        time.sleep(0.005)
    return seen


def statuses(seen: list[tuple[str, Any]]) -> list[Status]:
    return [item for kind, item in seen if kind == "status"]


def failed(seen: list[tuple[str, Any]]) -> Status | None:
    """The status that ended the link (``failed``), if one came."""
    return next((s for s in statuses(seen) if s.state == "failed"), None)
