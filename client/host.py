"""What a scene may ask of the window that holds it: the host interface.

Scenes, overlays and ``client.leaving`` know a ``Host``, never ``client.app.App``: the
``Window`` (settings, art, clock, the scene stack: a scene opens another by its registered
name and closes itself with ``pop``), the table we are ``AtTable`` and the ``WaysIn``.
It imports no scene and no app (``tests/test_import_graph.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import pygame

if TYPE_CHECKING:
    from client.discovery import TableFinder
    from client.model import Session
    from client.net import Status, TableKey
    from client.render.cards import CardArt
    from client.seatkeys import SeatKey
    from client.settings import Settings
    from common.protocol.server_messages import ServerMessage
    from server.journal import Unfinished

__all__ = ["AtTable", "Host", "Modal", "Room", "ServerInfo", "Window", "WaysIn"]


class Shown(Protocol):
    """What the window does with a scene or a dialog, each step."""

    def resize(self, size: tuple[int, int]) -> None: ...
    def handle_event(self, event: pygame.event.Event) -> None: ...
    def update(self, dt: float) -> None: ...
    def draw(self, surface: pygame.Surface) -> None: ...
    def buttons(self) -> list[Any]: ...


class Room(Shown, Protocol):
    """One scene on the stack, as the host sees it (``client.scenes.base.Scene``)."""

    name: str
    opaque: bool

    def enter(self) -> None: ...
    def on_message(self, msg: ServerMessage) -> None: ...
    def animating(self) -> bool: ...
    def wake_in(self) -> float | None: ...
    def spare(self, seconds: float) -> None: ...


class Modal(Shown, Protocol):
    """The one window over every scene (``client.overlays``): the rules, "are you sure?"."""

    keep_off_table: bool
    kind: str

    def close(self) -> None: ...


class ServerInfo(Protocol):
    """What the lobby shows of the server we run ourselves (``server.app.ServerHandle``)."""

    port: int

    def join_addresses(self) -> list[str]: ...
    def stop(self, timeout: float = 5.0, *, reason: str = "") -> None: ...


class Window(Protocol):
    """The window: its settings, size, card art and clock, the scene stack, the dialogs."""

    settings: Settings
    save_settings: bool  # False in tests and scripts: settings stay in memory
    running: bool  # False closes the window at the end of the step
    dirty: bool  # True: draw at the next step even if nothing moves
    modal: Modal | None

    @property
    def art(self) -> CardArt: ...
    @property
    def window_size(self) -> tuple[int, int]: ...
    def now(self) -> float: ...  # the window's clock: the clocks on screen run by it
    def open(self, name: str, **kw: Any) -> Room: ...  # push a new scene made by name
    def pop(self, scene: Room) -> None: ...
    def opened(self, name: str) -> list[Room]: ...  # the scenes of that name, bottom first

    def ask_leave(self) -> None: ...
    def show_rules(self, at: str | None = None) -> None: ...
    def notify_turn(self) -> None: ...
    def set_four_color(self, on: bool) -> None: ...
    def set_language(self, code: str) -> None: ...  # speak it (client.i18n), remembered


class AtTable(Protocol):
    """The table we are at: what it has told us (the session), the link, and leaving."""

    @property
    def session(self) -> Session | None: ...
    @property
    def status(self) -> Status: ...
    @property
    def address(self) -> tuple[str, int] | None: ...  # (host, port) of the table we are at
    @property
    def password(self) -> str: ...  # what our hello says
    @property
    def table_key(self) -> TableKey | None: ...  # the table's key as we met it (TLS)

    def send(self, msg: dict[str, Any]) -> bool: ...
    def leave_table(self, *, notice: str, send_leave: bool, stop_server: bool = True) -> None: ...
    def stop_trying(self) -> None: ...
    def rematch(self) -> None: ...
    def back_to_lobby(self) -> None: ...


class WaysIn(Protocol):
    """The ways to a table from the start screen: join one, host one, play the computer."""

    server_overrides: dict[str, Any]  # the local server's config (tests: history_dir)
    notice: str  # said on the start screen (why the last table ended)
    join_refusal: tuple[str, str] | None  # a join that failed before its welcome: (code,
    # words), said by the Join box (``client.reach``); the start screen takes it
    finder: TableFinder | None  # the tables found on the network, once looked for

    @property
    def server(self) -> ServerInfo | None: ...
    @property
    def server_kind(self) -> str: ...  # "computer", "host" (our own server) or ""

    def connect(self, host: str, port: int, **join: Any) -> None: ...  # TableLink.connect's
    def trust_new_key(self) -> bool: ...  # trust the key a join was refused for, join again
    def play_computer(self, computers: int, hands: int, level: str = "regular") -> None: ...
    def unfinished_match(self) -> Unfinished | None: ...  # the computer match to resume
    def resume_computer(self) -> None: ...
    def host_table(self, **kw: Any) -> None: ...
    def seat_key(self, host: str, port: int, *, name: str = "") -> SeatKey | None: ...
    def look_for_tables(self) -> TableFinder | None: ...  # browse the network (once)


class Host(Window, AtTable, WaysIn, Protocol):
    """What a scene may ask of the window that holds it: ``client.app.App`` is one."""
