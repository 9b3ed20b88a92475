"""The window: the scene stack, the events and the main loop, frame by frame.

The loop sleeps while nothing moves and steps at 60 fps only while a scene animates
(``client.pacing``), giving a scene's background work what is left of each frame
(``Scene.spare``).  Each server message (``client.link``) goes to the session, then to
the scenes; which scenes sit over the start screen follows the session's phase.  Scenes
are made by name (``client.scenes``) and see the app only as a ``client.host.Host``.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from client import asking, i18n, icon, keywarn, leaving, reach, sound, window
from client.discovery import TableFinder
from client.host import Modal, Room
from client.i18n import gettext as _
from client.link import TableLink
from client.localserver import LocalServer, seat_key_of
from client.model import Session
from client.net import Status, TableKey
from client.overlays import RulesOverlay
from client.pacing import STEP, Pacer
from client.pins import Pins
from client.pins import default_path as pins_path
from client.registry import Registry
from client.render import text as textcache
from client.render.cards import CardArt
from client.scenes import reconnect, register_scenes
from client.seatkeys import SeatKey, SeatKeys, default_path
from client.settings import Settings
from common.protocol import HAND_COUNTS, Start
from common.protocol.server_messages import ServerMessage, Welcome

if TYPE_CHECKING:
    from server.journal import Unfinished

__all__ = ["App"]

log = logging.getLogger("client")

SPARE_MARGIN = 0.002  # of each frame, kept from background work for the sleep to wake in

# The scenes that fit each phase of the session, over the start screen.
PHASE_SCENES = {"connecting": ["connecting"], "lobby": ["lobby"], "playing": ["table"],
                "standings": ["table", "results"]}  # fmt: skip


class App:
    """The window and its loop; the ``client.host.Host`` every scene knows."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        size: tuple[int, int] | None = None,
        save_settings: bool = True,
        server_overrides: dict[str, Any] | None = None,
        retry_for: float = 120.0,
        seat_keys: SeatKeys | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings or Settings.load()
        self.save_settings = save_settings
        self.local = LocalServer(server_overrides)
        self.server_overrides = self.local.overrides
        # The seats' tokens and the tables' keys met: on disk beside the settings, unless
        # this window keeps nothing (tests' save_settings=False).
        keys = seat_keys or SeatKeys(default_path() if save_settings else None)
        pins = Pins(pins_path() if save_settings else None)
        self.pacer = Pacer(clock)  # frame pacing: client.pacing
        self.link = TableLink(
            self.settings, retry_for=retry_for, wake=self.pacer.wake, keys=keys, pins=pins
        )
        self.registry = register_scenes(Registry())
        self.size = size or tuple(self.settings.window)  # type: ignore[assignment]
        self.scenes: list[Room] = []
        self.notice = ""  # shown on the start screen after a table ends
        self.join_refusal: tuple[str, str] | None = None  # said by the Join box
        self.running = False
        self.art = CardArt()  # the cards' pictures (drawn anew for each window)
        self.screen: pygame.Surface | None = None
        self.frames = 0
        self.dirty = True
        self.title = window.TitleFlash()  # "YOUR TURN" in the title when it comes
        self.now = clock  # the window's clock: the loop, the scenes' clocks on screen
        self._faults: set[str] = set()
        self.offscreen = False
        self.inbox: list[pygame.event.Event] = []
        self.modal: Modal | None = None  # client.overlays over every scene (rules, "sure?")
        self.finder: Any = None  # client.discovery.TableFinder, started by the start screen

    # ------------------------------------------------------------ what the host shows

    @property
    def window_size(self) -> tuple[int, int]:
        return self.screen.get_size() if self.screen is not None else self.size

    @property
    def session(self) -> Session | None:
        return self.link.session

    @property
    def status(self) -> Status:
        return self.link.status

    @property
    def address(self) -> tuple[str, int] | None:
        return self.link.address

    @property
    def password(self) -> str:
        return self.link.password

    @property
    def table_key(self) -> TableKey | None:
        return getattr(self.link.conn, "key", None)

    @property
    def server(self) -> Any:  # server.app.ServerHandle, while we run one
        return self.local.handle

    @property
    def server_kind(self) -> str:
        return self.local.kind

    # ------------------------------------------------------------ setup

    def init_display(self, *, offscreen: bool = False) -> None:
        """Open the window; ``offscreen`` draws to a surface, taking events from ``inbox``."""
        os.environ.setdefault("SDL_WINDOWS_DPI_AWARENESS", "permonitorv2")
        if not pygame.get_init():
            textcache.clear()  # fonts from an earlier pygame session are dead
        sound.start_pygame()  # pygame.init(), without ALSA's noise where there is no sound
        w, h = self.size
        if offscreen:
            self.offscreen = True
            self.screen = pygame.Surface((w, h))
        else:
            icon.set_window_icon()  # before set_mode: some systems take it only then
            self.screen = pygame.display.set_mode(window.clamp((w, h)), pygame.RESIZABLE)
            window.ask_minimum()
            pygame.display.set_caption(window.TITLE)
            pygame.key.set_repeat(400, 40)
        self.art = CardArt()
        self.art.four_color = self.settings.four_color
        sound.init(enabled=self.settings.sound, volume=self.settings.volume)
        self.scenes = [self.registry.make("start", self)]
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

    def run(self, after_step: Callable[[], None] | None = None) -> None:
        """The loop until the window closes; ``after_step`` (``--smoke``) after each pass."""
        if self.screen is None:
            self.init_display()
        self.running = True
        try:
            while self.running:
                self.step()
                if after_step is not None:
                    after_step()
        except BaseException:
            # Going down by accident: our table's match stays in its journal, to resume.
            self.local.stop("The game", forget=False)
            raise
        finally:
            self.shutdown()

    def animating(self) -> bool:
        return any(s.animating() for s in self.scenes) or self.title.flashing(self.now())

    def step(self, max_wait: float = 1.0) -> None:
        """One pass of the loop: wait (or not), handle events and messages, update, draw."""
        events: list[pygame.event.Event]
        idle = quiet = False
        if self.offscreen:
            events, self.inbox = self.inbox, []
        elif self.animating() or self.dirty:
            events = pygame.event.get()
        else:
            idle = True
            wake = [s.wake_in() for s in self.scenes]
            wake.append(reconnect.wake_in(self.status, self.now()))  # its countdown
            asked = [w for w in wake if w is not None]
            wait = min([max_wait, *asked])
            events = self.pacer.idle_wait(wait)
            # Slept the whole time, nothing came and no scene's clock was due: the
            # screen shows what it showed, and is not drawn again.
            quiet = not events and not self.pacer.woken and not (asked and min(asked) <= wait)
        self.pump_net()
        for event in events:
            self.handle_event(event)
        now = self.now()
        steps = self.pacer.steps(now)
        if idle:
            steps = min(steps, 1)  # nothing moved while we slept: one step catches up
        for _step in range(steps):
            self._update(STEP)
        self.title.show(now, window=not self.offscreen)
        if quiet and not self.dirty:
            return
        self.draw()
        if self.animating():
            self._spare()
            if not self.offscreen:
                self.pacer.rest()

    def _spare(self) -> None:
        """The scenes' background work (the odds) in what is left of this frame."""
        for scene in list(self.scenes):
            left = STEP - SPARE_MARGIN - (self.now() - self.pacer.last)
            self._guard(f"working in {scene.name}", scene.spare, max(0.0, left))

    def _update(self, dt: float) -> None:
        for scene in list(self.scenes):
            self._guard(f"updating {scene.name}", scene.update, dt)
        if self.modal is not None:
            self._guard("updating a dialog", self.modal.update, dt)

    def handle_event(self, event: pygame.event.Event) -> None:
        self.dirty = True
        if event.type == pygame.QUIT:
            self.ask_quit()
            return
        if event.type == pygame.VIDEORESIZE or event.type == pygame.WINDOWSIZECHANGED:
            self.resized()
            return
        if self.pacer.is_wake(event):
            return  # (a word from the network thread: its queue is drained in pump_net)
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self.show_rules()
            return
        if self.modal is not None:
            if not self._guard("handling an event in a dialog", self.modal.handle_event, event):
                self.modal = None
        elif self.scenes:
            what = f"handling {pygame.event.event_name(event.type)}"
            self._guard(what, self.scenes[-1].handle_event, event)

    def _guard(self, what: str, step: Callable[..., None], *args: Any) -> bool:
        """Run one step of a scene or dialog; a bug is logged once per place and the window
        stays open.  False when it failed."""
        try:
            step(*args)
            return True
        except Exception:
            if what not in self._faults:
                self._faults.add(what)
                log.exception("client bug while %s (further ones not logged)", what)
            return False

    def resized(self) -> None:
        if self.screen is None:
            return
        surf = None if self.offscreen else pygame.display.get_surface()
        if surf is not None:
            size = window.clamp(surf.get_size())
            if size != surf.get_size():
                # The window manager let it shrink past the minimum: grow the same window
                # back (making it again with set_mode only where SDL cannot be reached).
                if not window.hold(size):
                    pygame.display.set_mode(size, pygame.RESIZABLE)
                surf = pygame.display.get_surface()
            self.screen = surf
        for scene in self.scenes:
            scene.resize(self.screen.get_size())
        if self.modal is not None:
            self.modal.resize(self.screen.get_size())

    def draw(self) -> None:
        if self.screen is None:
            return
        start = max((i for i, scene in enumerate(self.scenes) if scene.opaque), default=0)
        if self.offscreen:
            self.screen.fill((0, 0, 0))
        for scene in self.scenes[start:]:
            self._guard(f"drawing {scene.name}", scene.draw, self.screen)
        if self.modal is not None:
            self._guard("drawing a dialog", self.modal.draw, self.screen)
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

    def top(self) -> Any:
        return self.scenes[-1]

    def push(self, scene: Room) -> None:
        """Open a scene over the others; it stays while the session moves on, until ``pop``."""
        scene.overlay = True  # type: ignore[attr-defined]
        self.scenes.append(scene)
        self._enter_top()

    def open(self, name: str, **kw: Any) -> Room:
        scene = self.registry.make(name, self, **kw)
        self.push(scene)
        return scene

    def pop(self, scene: Room) -> None:
        if scene in self.scenes[1:]:
            self.scenes.remove(scene)
            self._enter_top()

    def opened(self, name: str) -> list[Room]:
        return [s for s in self.scenes if s.name == name]

    def sync_scenes(self) -> None:
        """Put the scenes that fit the session on top of the start screen."""
        want = [] if self.session is None else PHASE_SCENES[self.session.phase]
        overlays = [s for s in self.scenes[1:] if getattr(s, "overlay", False)]
        have = [s for s in self.scenes[1:] if s not in overlays]
        if [s.name for s in have] == want:
            return
        keep = {s.name: s for s in have}
        made = [keep.get(name) or self.registry.make(name, self) for name in want]
        self.scenes = self.scenes[:1] + made + overlays
        self._enter_top()

    # ------------------------------------------------------------ the table link

    def look_for_tables(self) -> Any:
        if self.finder is None:
            self.finder = TableFinder(wake=self.pacer.wake)
            self.finder.start()
        return self.finder

    def connect(self, host: str, port: int, **join: Any) -> None:
        """Go to the table at ``host``:``port`` (the keywords: ``TableLink.connect``)."""
        self.leave_table(notice="", send_leave=True, stop_server=False)
        handle = self.local.handle
        own = handle is not None and handle.port == port
        table = handle.server.table.name if own else ""
        self.link.connect(host, port, own=own, own_table=table, **join)
        self.sync_scenes()

    def seat_key(self, host: str, port: int, *, name: str = "") -> SeatKey | None:
        return self.link.key_for(host, port, name=name)

    def trust_new_key(self) -> bool:
        """The key-changed dialog's *Trust the new key* (``TableLink.trust_new_key``)."""
        join = self.link.trust_new_key()
        if join is None:
            return False
        self.connect(**join)
        return True

    def stop_trying(self) -> None:
        """The banner's *Stop trying*: give up on a lost table (a seat keeps its token)."""
        if self.status.state != "retrying":
            return
        why = self.status.message or _("the connection was lost")
        notice = _("Stopped trying to reach the table ({why}).").format(why=why)
        self.leave_table(notice=notice, send_leave=False)

    def send(self, msg: dict[str, Any]) -> bool:
        return self.link.send(msg)

    def pump_net(self) -> None:
        conn = self.link.conn
        if conn is None:
            return
        for kind, item in conn.poll():
            self.dirty = True
            if kind == "status":
                self.on_status(item)
                if self.link.conn is not conn:
                    return
                continue
            self.on_message(item)

    def on_message(self, msg: ServerMessage) -> None:
        """One server message: the session takes it, then the scenes that fit it show it."""
        if self.link.session is None:
            return
        if not self._guard(f"taking a {msg.TYPE}", self.link.apply, msg, self.now()):
            return
        if isinstance(msg, Welcome) and self.link.remember_joined() and self.save_settings:
            self.settings.save()  # it worked: now it is a recent address
        self.sync_scenes()
        for scene in list(self.scenes):
            self._guard(f"showing a {msg.TYPE} in {scene.name}", scene.on_message, msg)

    def on_status(self, status: Status) -> None:
        lost, where, s = asking.lost_seat(self.link.session), self.link.address, self.session
        code = status.code
        problem = self.link.key_problem if code == "key" else None
        # A join (not our own server) that never got in is said by the Join box.
        joining = s is not None and not s.welcomed_once and not self.link.own
        if self.link.on_status(status):
            if problem is not None:  # the table's key was not the one expected: said large
                self.leave_table(notice=keywarn.notice(problem), send_leave=False)
                keywarn.show(self, problem)
                return
            words = reach.refusal_words(code, status.message) or _("the connection ended")
            if joining and status.state == "failed":
                self.join_refusal, self.notice, words = (code, words), "", ""
            self.leave_table(notice=words, send_leave=False)
            if lost is not None and where is not None and s is not None:  # ask for it back?
                asking.offer(self, where, self.link.password, lost, s.name)

    def leave_table(self, *, notice: str, send_leave: bool, stop_server: bool = True) -> None:
        """Hang up, stop our own server if any, and go back to the start screen."""
        ours = self.local.handle is not None
        s = self.link.hang_up(send_leave=send_leave)
        if stop_server and ours:
            self.local.stop(s.name if s is not None and s.name else "The host")
        if self.modal is not None and not self.modal.keep_off_table:
            self.modal = None  # a question about the table that is gone
        if notice:
            self.notice = notice
        if self.scenes:
            self.scenes = self.scenes[:1]
            self._enter_top()

    # ------------------------------------------------------------ ways in

    def _unfinished(self) -> tuple[Unfinished, SeatKey] | None:
        """The computer table's unfinished match on disk, if our seat's key in it is kept."""
        found = self.local.unfinished_computer()
        key = None if found is None else seat_key_of(found, self.link.keys.entries())
        return None if found is None or key is None else (found, key)

    def unfinished_match(self) -> Unfinished | None:
        kept = self._unfinished()
        return kept[0] if kept is not None else None

    def play_computer(self, computers: int, hands: int, level: str = "regular") -> None:
        """A new computer match (an unfinished one is dropped first, its seat's key too)."""
        self.leave_table(notice="", send_leave=True)
        if (kept := self._unfinished()) is not None:
            self.link.keys.forget(kept[1].token)
        self._sit_at_computer_table(computers, hands, level)

    def resume_computer(self) -> None:
        """The start screen's *Resume*: we sit back in our seat by its kept token."""
        self.leave_table(notice="", send_leave=True)
        kept = self._unfinished()
        if kept is None:
            self.notice = _("That match can no longer be resumed.")
            return
        found, key = kept
        self.settings.name = key.name  # the seat's name: its token is kept under it
        level = found.levels[0] if found.levels else "regular"
        self._sit_at_computer_table(len(found.computers), found.hands, level, resume=True)

    def _sit_at_computer_table(self, computers: int, hands: int, level: str, **kw: Any) -> None:
        try:
            handle = self.local.start_computer(computers, hands, level, **kw)
        except Exception as exc:
            log.exception("could not start the computer table")
            self.notice = _("could not start the computer table: {error}").format(error=exc)
            return
        self.connect("127.0.0.1", handle.port)

    def host_table(self, **kw: Any) -> None:
        """A friends' table (the keywords: ``LocalServer.start_host``)."""
        self.leave_table(notice="", send_leave=True)
        failed = self.local.start_host(self.settings, **kw)
        if self.local.handle is None:
            self.notice = _("could not host: {error}").format(error=failed)
            return
        self.connect("127.0.0.1", self.local.handle.port, password=kw.get("password", ""))

    # ------------------------------------------------------------ dialogs

    def show_rules(self, at: str | None = None) -> None:
        """The house rules over everything (F1 again closes them), at rule ``at`` if given."""
        if isinstance(self.modal, RulesOverlay):
            self.modal.close() if at is None else self.modal.go_to(at)
        elif self.modal is None:
            self.modal = RulesOverlay(self, at=at)
        self.dirty = True

    def ask_leave(self) -> None:
        leaving.ask(self, quit_after=False)

    def ask_quit(self) -> None:
        if self.modal is not None and self.modal.kind == "quit":
            self.running = False  # asked twice: the player means it
            return
        leaving.ask(self, quit_after=True)

    def rematch(self) -> None:
        """The host starts the same seats again; a guest goes to the lobby, ready."""
        s = self.session
        if s is not None and s.host:
            self.send(Start(s.hands if s.hands in HAND_COUNTS else 8).encode())
        elif s is not None:
            self.back_to_lobby()

    def back_to_lobby(self) -> None:
        if self.session is not None:
            self.session.back_to_lobby()
            self.dirty = True
            self.sync_scenes()

    def notify_turn(self) -> None:
        sound.play("turn")
        self.title.flash(self.now())

    def set_language(self, code: str) -> None:
        """Speak ``code`` from now on (the start screen's choice, remembered): the start
        screen is made anew in it, and every scene opened after."""
        self.settings.language = i18n.set_language(code)
        if self.save_settings:
            self.settings.save()
        if self.scenes and self.scenes[0].name == "start":
            self.scenes[0] = self.registry.make("start", self)
            self._enter_top()

    def set_four_color(self, on: bool) -> None:
        self.settings.four_color = on
        self.dirty = True
        self.art.four_color = on
