"""The client tests' kit: server messages fed to a game, and the player's keys and clicks.

A game (``client.app.App``) comes from ``tests/conftest.py``'s fixtures (``app``: Ann's,
headless, no table; ``make_client``: one against an in-process server).  Here:

- ``feed(game, msgs)``: messages as the wire carries them (``tests.demo``'s, or made by
  hand), decoded as the connection decodes them and applied to an ``App`` or a
  ``Session``; ``session_from(msgs)``; ``decoded(msg)``.
- ``key``, ``click``, ``post``: the player's input, into the game's own event queue
  (``App.inbox`` for an offscreen one), then one pass of the loop (``step=False``: none);
  ``hover`` moves the pointer; ``handle_click`` hands a click to the app's handler
  without a pass of the loop (nothing drawn).
- ``advance(app, seconds)``: animation time in the loop's fixed steps, with no waiting.
- ``run(apps, done, players)``: the real loops until ``done()`` holds, no fixed sleeps;
  a ``Player`` answers each turn of its game by key, as a person would.
- ``host_with_guest(make_client)``: Hana hosts on 127.0.0.1, Gus has joined her lobby.
"""

from __future__ import annotations

import random
import socket
import time
from collections.abc import Callable, Iterable
from typing import Any

import pygame

from client.app import App
from client.model import Session
from client.pacing import STEP
from common.protocol.received import ServerMessage, decode_server

__all__ = [
    "SIZES",
    "Player",
    "advance",
    "click",
    "closed_port",
    "decoded",
    "feed",
    "handle_click",
    "host_with_guest",
    "hover",
    "key",
    "post",
    "run",
    "session_from",
]


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


def check_buttons(app: App) -> list[Any]:
    """The table's buttons are exactly the offered actions, named with their amounts."""
    buttons = app.top().buttons()
    offered = app.session.actions() if app.session is not None else []
    assert [b.id for b in buttons] == [a.action for a in offered]
    assert [b.label for b in buttons] == [a.label for a in offered]
    if "check" in {b.id for b in buttons}:
        assert "fold" not in {b.id for b in buttons}  # R-B5
    return buttons


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


def host_with_guest(
    make_client: Callable[..., App], *, hands: int = 4, computers: int = 1, password: str = ""
) -> tuple[App, App]:
    """Hana hosts a table on 127.0.0.1 (``computers`` computer seats); Gus, offscreen, has
    joined her lobby."""
    host = make_client("Hana")
    host.host_table(hands=hands, computers=computers, password=password, port=0,
                    bind="127.0.0.1")  # fmt: skip
    assert run([host], lambda: host.top().name == "lobby" and host.session.seat == 0)
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


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then closed): a connection is refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
