"""The window, the scene stack, the main loop and the way to a table.

``App.run()`` is the whole client.  The loop sleeps in ``pygame.event.wait``
while nothing moves (near-zero CPU) and ticks at 60 fps only while a scene
animates; animation advances in fixed 1/60 s steps.  Server messages arrive
through ``client.net.Connection``'s queue; each one is applied to the
``Session`` (a bad one is logged and dropped) and then shown to the scenes.

Which scene sits on top follows the session: connecting, lobby, table, and
the results over the table.  The start screen is always at the bottom.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

import pygame

from client import sound, window
from client.model import Session
from client.net import Connection, Status
from client.render import text as textcache
from client.render.cards import CardArt
from client.scenes.base import Scene
from client.settings import Settings
from common.protocol import DEFAULT_PORT, HAND_COUNTS, Hello, Leave, Start

__all__ = ["App"]

log = logging.getLogger("client")

TITLE = "Seventh Street"
STEP = 1 / 60
NAP = 0.025  # idle polling interval: ~0.1 ms of CPU per nap
MIN_SIZE = window.MIN_SIZE  # below it the opponents' cards are no longer readable


class App:
    def __init__(
        self,
        settings: Settings | None = None,
        *,
        size: tuple[int, int] | None = None,
        save_settings: bool = True,
        server_overrides: dict[str, Any] | None = None,
        retry_for: float = 30.0,
    ) -> None:
        self.settings = settings or Settings.load()
        self.save_settings = save_settings
        self.server_overrides = dict(server_overrides or {})
        self.retry_for = retry_for
        self.size = size or tuple(self.settings.window)  # type: ignore[assignment]
        self.scenes: list[Scene] = []
        self.session: Session | None = None
        self.conn: Connection | None = None
        self.server: Any = None  # server.app.ServerHandle when we host
        self.server_kind = ""  # "computer" or "host"
        self.status = Status("idle")
        self.notice = ""  # shown on the start screen after a table ends
        self.running = False
        self.art: CardArt | None = None
        self.screen: pygame.Surface | None = None
        self.net_event = 0
        self.frames = 0
        self.dirty = True
        self._flash_until = 0.0
        self._last = time.monotonic()
        self._acc = 0.0
        self._faults: set[str] = set()
        self.offscreen = False
        self._wake_flag = threading.Event()
        self.caption = self._shown_caption = TITLE
        self.inbox: list[pygame.event.Event] = []
        self._password = ""  # what the next hello says: set by connect()
        self._watch = False
        self._joining = ""  # the address typed to join, remembered once it works
        self._left_seats: dict[tuple[str, int], str] = {}  # tokens of seats left mid-match
        self.modal: Any = None  # client.overlays.Overlay over every scene (rules, "sure?")
        self.finder: Any = None  # client.discovery.TableFinder, started by the start screen

    # ------------------------------------------------------------ setup

    def init_display(self, *, offscreen: bool = False) -> None:
        """Open the window.  ``offscreen``: draw to a plain surface and take events only from
        ``self.inbox`` (a second client in the same process, for tests)."""
        os.environ.setdefault("SDL_WINDOWS_DPI_AWARENESS", "permonitorv2")
        if not pygame.get_init():
            textcache.clear()  # fonts from an earlier pygame session are dead
        pygame.init()
        self.net_event = pygame.event.custom_type()
        w, h = self.size
        if offscreen:
            self.offscreen = True
            self.screen = pygame.Surface((w, h))
        else:
            self.screen = pygame.display.set_mode(window.clamp((w, h)), pygame.RESIZABLE)
            window.ask_minimum()
            pygame.display.set_caption(TITLE)
            pygame.key.set_repeat(400, 40)
        self.art = CardArt()
        self.art.four_color = self.settings.four_color
        sound.init(enabled=self.settings.sound, volume=self.settings.volume)
        from client.scenes.start import StartScene

        self.scenes = [StartScene(self)]
        self._enter_top()

    def shutdown(self) -> None:
        self.leave_table(notice="", send_leave=True)
        if self.finder is not None:
            self.finder.close()
            self.finder = None
        if self.save_settings and self.screen is not None:
            self.settings.window = list(self.screen.get_size())
            self.settings.save()
        if not self.offscreen:
            textcache.clear()
            pygame.quit()

    # ------------------------------------------------------------ the loop

    def run(self) -> None:
        if self.screen is None:
            self.init_display()
        self.running = True
        try:
            while self.running:
                self.step()
        finally:
            self.shutdown()

    def animating(self) -> bool:
        return any(s.animating() for s in self.scenes) or time.monotonic() < self._flash_until

    def step(self, max_wait: float = 1.0) -> None:
        """One pass of the loop: wait (or not), handle events and messages, update, draw."""
        events: list[pygame.event.Event]
        if self.offscreen:
            events, self.inbox = self.inbox, []
        elif self.animating() or self.dirty:
            events = pygame.event.get()
        else:
            wake = [s.wake_in() for s in self.scenes]
            events = self._idle_wait(min([max_wait] + [w for w in wake if w is not None]))
        self.pump_net()
        for event in events:
            self.handle_event(event)
        now = time.monotonic()
        dt = min(0.25, now - self._last)
        self._last = now
        self._acc += dt
        steps = 0
        while self._acc >= STEP and steps < 8:
            for scene in list(self.scenes):
                try:
                    scene.update(STEP)
                except Exception:
                    self._fault(f"updating {scene.name}")
            self._acc -= STEP
            steps += 1
        if steps == 8:
            self._acc = 0.0
        self._flash_title(now)
        self.draw()
        if self.animating() and not self.offscreen:
            self.clock_tick()

    def _idle_wait(self, seconds: float) -> list[pygame.event.Event]:
        """Sleep until input, a server message or ``seconds`` pass.

        ``pygame.event.wait`` polls every millisecond on some SDL video drivers;
        napping on the network thread's flag between cheap event polls costs
        less CPU and still answers a key within NAP (25 ms).
        """
        deadline = time.monotonic() + seconds
        while True:
            events = pygame.event.get()
            if events or self._wake_flag.is_set() or time.monotonic() >= deadline:
                self._wake_flag.clear()
                return events
            self._wake_flag.wait(min(NAP, max(0.0, deadline - time.monotonic())))

    def clock_tick(self) -> None:
        # Sleep off the rest of a 1/60 s frame.
        spent = time.monotonic() - self._last
        if spent < STEP:
            time.sleep(STEP - spent)

    def handle_event(self, event: pygame.event.Event) -> None:
        self.dirty = True
        if event.type == pygame.QUIT:
            self.ask_quit()
            return
        if event.type == pygame.VIDEORESIZE or event.type == pygame.WINDOWSIZECHANGED:
            self.resized()
            return
        if event.type == self.net_event:
            return  # the queue is drained in pump_net
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self.show_rules()
            return
        if self.modal is not None:
            try:
                self.modal.handle_event(event)
            except Exception:
                self._fault("handling an event in a dialog")
                self.modal = None
            return
        if self.scenes:
            try:
                self.scenes[-1].handle_event(event)
            except Exception:
                self._fault(f"handling {pygame.event.event_name(event.type)}")

    def _fault(self, what: str) -> None:
        """Log a bug once per place and go on: the window stays open."""
        if what not in self._faults:
            self._faults.add(what)
            log.exception("client bug while %s (further ones not logged)", what)

    def resized(self) -> None:
        if self.screen is None:
            return
        surf = None if self.offscreen else pygame.display.get_surface()
        if surf is not None:
            if window.clamp(surf.get_size()) != surf.get_size():
                # The window manager let it shrink past the minimum: grow it back.
                surf = pygame.display.set_mode(window.clamp(surf.get_size()), pygame.RESIZABLE)
            self.screen = surf
        for scene in self.scenes:
            scene.resize(self.screen.get_size())
        if self.modal is not None:
            self.modal.resize(self.screen.get_size())

    def draw(self) -> None:
        if self.screen is None:
            return
        start = 0
        for i, scene in enumerate(self.scenes):
            if scene.opaque:
                start = i
        if self.offscreen and self.screen is not None:
            self.screen.fill((0, 0, 0))
        for scene in self.scenes[start:]:
            try:
                scene.draw(self.screen)
            except Exception:  # a drawing bug must not close the window
                self._fault(f"drawing {scene.name}")
        if self.modal is not None:
            try:
                self.modal.draw(self.screen)
            except Exception:
                self._fault("drawing a dialog")
        if not self.offscreen:
            pygame.display.flip()
        self.frames += 1
        self.dirty = False

    # ------------------------------------------------------------ scenes

    def _enter_top(self) -> None:
        if self.screen is not None:
            for scene in self.scenes:
                scene.resize(self.screen.get_size())
        if self.scenes:
            self.scenes[-1].enter()
        self.dirty = True

    def top(self) -> Scene:
        return self.scenes[-1]

    def push(self, scene: Scene) -> None:
        """Open a scene over the others (the replayer, the recap, the file list); it stays
        on top while the session moves on, until it closes itself with ``pop``."""
        scene.overlay = True  # type: ignore[attr-defined]
        self.scenes.append(scene)
        self._enter_top()

    def pop(self, scene: Scene) -> None:
        if scene in self.scenes[1:]:
            self.scenes.remove(scene)
            self._enter_top()

    def find(self, name: str) -> Scene | None:
        return next((s for s in self.scenes if s.name == name), None)

    def sync_scenes(self) -> None:
        """Put the scene that fits the session on top of the start screen."""
        from client.scenes.lobby import ConnectingScene, LobbyScene
        from client.scenes.results import ResultsScene
        from client.scenes.table import TableScene

        if self.session is None:
            want: list[type[Scene]] = []
        else:
            phase = self.session.phase
            want = {
                "connecting": [ConnectingScene],
                "lobby": [LobbyScene],
                "playing": [TableScene],
                "standings": [TableScene, ResultsScene],
            }[phase]
        overlays = [s for s in self.scenes[1:] if getattr(s, "overlay", False)]
        have = [s for s in self.scenes[1:] if s not in overlays]
        if [type(s) for s in have] == want:
            return
        keep = {type(s): s for s in have}
        self.scenes = self.scenes[:1] + [keep.get(cls) or cls(self) for cls in want] + overlays
        self._enter_top()

    # ------------------------------------------------------------ network

    def _wake(self) -> None:
        """Called from the network thread: wake the idle loop (see ``_idle_wait``)."""
        self._wake_flag.set()

    def hello(self) -> dict[str, Any]:
        s = self.session
        assert s is not None
        return Hello(
            name=s.name,
            token=s.token or None,
            password=self._password or None,
            watch=self._watch and not s.token,
        ).encode()

    def connect(
        self,
        host: str,
        port: int,
        *,
        password: str = "",
        watch: bool = False,
        remember: str = "",
    ) -> None:
        """Go to the table at ``host``:``port``; ``remember``: the address as typed, to keep
        among the recent ones once the table has welcomed us."""
        self.leave_table(notice="", send_leave=True, stop_server=False)
        self._joining = remember
        self.session = Session(self.settings.name)
        if not watch:  # back to a seat we left mid-match (a stale token sits down anew)
            self.session.token = self._left_seats.pop((host, port), None)
        self._password = password
        self._watch = watch
        self.status = Status("connecting")
        self.conn = Connection(host, port, self.hello, wake=self._wake, retry_for=self.retry_for)
        self.conn.start()
        self.sync_scenes()

    def send(self, msg: dict[str, Any]) -> bool:
        return self.conn.send(msg) if self.conn is not None else False

    def pump_net(self) -> None:
        conn = self.conn
        if conn is None:
            return
        for kind, item in conn.poll():
            self.dirty = True
            if kind == "status":
                self.on_status(item)
                if self.conn is not conn:
                    return
                continue
            self.on_message(item)

    def on_message(self, msg: Any) -> None:
        session = self.session
        if session is None:
            return
        try:
            kind = session.apply(msg, time.monotonic())
        except Exception as exc:  # malformed or unknown: log it and go on (STYLE)
            log.warning("ignored a server message: %s (%.200r)", exc, msg)
            return
        if kind == "welcome":
            self.status = Status("connected")
            if self._joining:  # it worked: now it is a recent address
                self.settings.remember_address(self._joining)
                self._joining = ""
                if self.save_settings:
                    self.settings.save()
        self.sync_scenes()
        for scene in list(self.scenes):
            try:
                scene.on_message(kind, msg)
            except Exception:
                log.exception("scene %s failed on a %s message", scene.name, kind)

    def on_status(self, status: Status) -> None:
        self.status = status
        if status.state == "retrying" and self.session is not None:
            self.session.reset_for_reconnect()
        if status.state in ("failed", "gone"):
            self.leave_table(notice=status.message or "the connection ended", send_leave=False)

    def leave_table(self, *, notice: str, send_leave: bool, stop_server: bool = True) -> None:
        """Hang up, stop our own server if any, and go back to the start screen."""
        s = self.session
        if self.conn is not None:
            mid_match = s is not None and s.running and s.standings is None
            if self.server is None and mid_match and s is not None and s.token:
                self._left_seats[(self.conn.host, self.conn.port)] = s.token  # R-C1
            if send_leave:
                self.conn.send(Leave().encode())
            self.conn.close()
            self.conn = None
        if stop_server and self.server is not None:
            try:
                who = s.name if s is not None and s.name else "The host"
                self.server.stop(reason=f"{who} closed the table")
            except Exception:
                log.exception("stopping the local server failed")
            self.server = None
            self.server_kind = ""
        self.session = None
        self.status = Status("idle")
        self._joining = ""
        if self.modal is not None and not self.modal.keep_off_table:
            self.modal = None  # a question about the table that is gone
        if notice:
            self.notice = notice
        if self.scenes:
            self.scenes = self.scenes[:1]
            self._enter_top()

    # ------------------------------------------------------------ ways in

    def _start_server(self, **kwargs: Any) -> Any:
        from server.app import run_in_thread
        from server.config import ServerConfig

        cfg = {**kwargs, **self.server_overrides}
        return run_in_thread(ServerConfig(**cfg))

    def play_computer(self, computers: int, hands: int, level: str = "regular") -> None:
        """A computer table: our own server on 127.0.0.1, started as soon as we sit down."""
        self.leave_table(notice="", send_leave=True)
        computers = min(3, max(1, computers))
        try:
            # Alone with the computer no one waits on you: no turn clock (R-C4).
            self.server = self._start_server(
                host="127.0.0.1",
                port=0,
                computer=computers,
                computer_levels=(level,),
                hands=hands,
                start_when=computers + 1,
                name="Computer table",  # its own night, apart from any friends' table's
                turn_time=None,
            )
        except Exception as exc:
            log.exception("could not start the computer table")
            self.notice = f"could not start the computer table: {exc}"
            return
        self.server_kind = "computer"
        self.connect("127.0.0.1", self.server.port)

    def host_table(
        self,
        *,
        hands: int,
        computers: int,
        password: str,
        port: int = DEFAULT_PORT,
        bind: str | None = None,
        level: str = "regular",
        name: str = "",
        open_books: bool = False,
        books_to_watchers: bool = False,
    ) -> None:
        """A friends' table: our server on every interface (``bind`` narrows it, for tests),
        announced on the network as ``name`` (default "<your name>'s table")."""
        self.leave_table(notice="", send_leave=True)
        last: Exception | None = None
        for p in (port, 0):
            try:
                st = self.settings
                self.server = self._start_server(
                    host=bind,
                    port=p,
                    computer=computers,
                    computer_levels=(level,),
                    hands=hands,
                    password=password or None,
                    name=name.strip() or f"{self.settings.name}'s table",
                    announce=True,
                    open_books=open_books,
                    books_to_watchers=open_books and books_to_watchers,
                    turn_time=st.host_turn_time or None,
                    time_bank=st.host_time_bank,
                    stand_in=st.host_stand_in,
                )
                break
            except OSError as exc:
                last = exc
        if self.server is None:
            self.notice = f"could not host: {last}"
            return
        self.server_kind = "host"
        self.connect("127.0.0.1", self.server.port, password=password)

    # ------------------------------------------------------------ dialogs

    def show_rules(self) -> None:
        """Open the house rules over whatever is on screen (F1 again closes them)."""
        from client.overlays import RulesOverlay

        if isinstance(self.modal, RulesOverlay):
            self.modal.close()
        elif self.modal is None:
            self.modal = RulesOverlay(self)
        self.dirty = True

    def ask_leave(self) -> None:
        """Leave the table, after a "sure?" where leaving costs something (client.leaving)."""
        from client import leaving

        leaving.ask(self, quit_after=False)

    def ask_quit(self) -> None:
        """The window's close button: the same question when it would leave a table."""
        from client import leaving

        if self.modal is not None and getattr(self.modal, "kind", "") == "quit":
            self.running = False  # asked twice: the player means it
            return
        leaving.ask(self, quit_after=True)

    def rematch(self) -> None:
        """One key for everyone: the host starts the same seats again; a guest goes to the
        lobby, ready, and the host's start brings everyone to the table."""
        s = self.session
        if s is None:
            return
        if s.host:
            self.send(Start(s.hands if s.hands in HAND_COUNTS else 8).encode())
        else:
            self.back_to_lobby()

    def back_to_lobby(self) -> None:
        s = self.session
        if s is None:
            return
        s.standings = None
        s.view = None
        s.running = False
        self.sync_scenes()

    # ------------------------------------------------------------ your turn

    def notify_turn(self) -> None:
        sound.play_turn()
        self._flash_until = time.monotonic() + 2.4

    def _flash_title(self, now: float) -> None:
        if now < self._flash_until:
            on = int((self._flash_until - now) * 2.5) % 2 == 0
            self.caption = "▶ YOUR TURN ◀  " + TITLE if on else TITLE
        elif self._flash_until:
            self._flash_until = 0.0
            self.caption = TITLE
        if not self.offscreen and self.caption != self._shown_caption:
            pygame.display.set_caption(self.caption)
            self._shown_caption = self.caption

    def set_four_color(self, on: bool) -> None:
        self.settings.four_color = on
        if self.art is not None:
            self.art.four_color = on

    def run_until(
        self, done: Callable[[], bool], timeout: float = 30.0, max_wait: float = 0.05
    ) -> bool:
        """Run the real loop until ``done()`` (tests, scripts); False on timeout."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.step(max_wait=max_wait)
            if done():
                return True
        return False
